//! The `gosolve` command line: argument parsing, the commands, and what
//! only the application does (progress bars, batches, the published table).

use crate::count::games;
use crate::count::positions as count;
use crate::engine::board::Board;
use crate::engine::diagram;
use crate::engine::rules::{Komi, RuleOptions, Rules, Ruleset, Suicide, Superko};
use crate::format::gsr;
use crate::search::guide_file::GuideCache;
use crate::search::run;
use crate::search::solver;
use crate::store::resume::{self, Resume};
use crate::store::save;
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub mod batch;
pub mod cgt;
pub mod check;
pub mod commands;
pub mod interrupt;
pub mod probe;
pub mod progress;
pub mod published;
pub mod report;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "gosolve",
    version,
    about = "Exhaustive solver for Go on tiny boards and small graphs"
)]
struct Cli {
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show a board: points, edges and coordinates.
    Board {
        /// MxN, path:N, cycle:N, complete:N, star:N, torus:MxN, petersen, cube:D or file:PATH.
        board: String,
    },
    /// Count the legal positions (every group reaches an empty point).
    Count {
        /// The board.
        board: String,
        /// How to count.
        #[arg(long, value_enum, default_value_t = CountMethod::Auto)]
        method: CountMethod,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve a board exactly: its value, every first move's value, a principal variation.
    Solve {
        /// The board.
        board: String,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        search: SearchArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Where to write the result file (default: results/<board>-<rules>[-<options>].gsr).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// Do not extract the proof or write a result file.
        #[arg(long, conflicts_with = "out")]
        no_save: bool,
        /// Discard what an interrupted run of this solve kept (its resume file) and start over.
        #[arg(long)]
        fresh: bool,
        /// Write the search table to disk (beside the resume file) every
        /// this many seconds while the value search runs, and on Ctrl-C,
        /// so that a rerun starts with it; 0: only on Ctrl-C.
        #[arg(long, value_name = "SECONDS", default_value_t = 600)]
        checkpoint_every: u64,
    },
    /// Re-prove a result file's value with the independent checker.
    Verify {
        /// A .gsr result file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show a result file: rules, value, first moves, principal variation.
    Show {
        /// A .gsr result file.
        file: PathBuf,
        /// Moves from the start, e.g. "B2 A2 pass": what the stored strategies do there.
        #[arg(long)]
        line: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every legal move's value at the position after a line: from a result
    /// file's proof where it reaches, else searched now within a limit.
    Probe {
        /// A .gsr result file, or a board (with rule options; its result
        /// file in --results is used if there is one).
        target: String,
        #[command(flatten)]
        rules: RuleArgs,
        /// Moves from the start, e.g. "B2 C3 pass" (replayed: superko depends on all of them).
        #[arg(long)]
        line: Option<String>,
        #[command(flatten)]
        play: PlayArgs,
        /// Use the proof only: no live search.
        #[arg(long)]
        no_search: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// A Go Text Protocol engine on standard input and output that plays by
    /// exact values (grids only).
    Gtp {
        /// The board to start on (GTP's boardsize changes it).
        board: String,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Export a result file as SGF (start, principal variation and every first
    /// move's value; not the proof's strategies; with --depth, every line to
    /// that depth with a value on each node), as an HTML page to browse
    /// those values, or as CSV (the first-move table).
    // One format, named in the error when none or two are given.
    #[command(group(clap::ArgGroup::new("format").required(true).args(["sgf", "html", "csv"])))]
    Export {
        /// A .gsr result file.
        file: PathBuf,
        /// SGF FF[4]: the principal variation and every first move with its value.
        #[arg(long)]
        sgf: bool,
        /// One self-contained HTML page to browse every line to --depth
        /// (default 4) with its values.
        #[arg(long)]
        html: bool,
        /// CSV: the first-move table.
        #[arg(long)]
        csv: bool,
        /// Every line to this many turns, each node with its value (from
        /// the proof, else searched now): as SGF with --sgf, the page's depth with --html.
        #[arg(long, conflicts_with = "csv")]
        depth: Option<usize>,
        /// With --depth or --html: seconds the live search may take over the whole tree.
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// Write here instead of to standard output.
        #[arg(long, short, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Solve a batch of jobs from a TOML file over all cores, resumably.
    Batch {
        /// The jobs file (see the README).
        jobs: PathBuf,
        /// Folder for the result files.
        #[arg(long, default_value = "results")]
        out_dir: PathBuf,
        /// Run only part I of N of the jobs (1-based), e.g. 2/4.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Jobs run at once (default: one per core; each gets cores/jobs threads).
        #[arg(long)]
        parallel: Option<usize>,
        /// Write the summary as PREFIX.csv and PREFIX.json (default: OUT_DIR/batch-summary).
        #[arg(long, value_name = "PREFIX")]
        summary: Option<PathBuf>,
    },
    /// Rerun the published figures (legal counts, game counts, values, second- and
    /// third-best first moves) and compare.
    Check {
        /// A table in the format of src/cli/published.txt (default: the shipped one).
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// Wall-clock seconds allowed per figure (each runs alone in a child
        /// process); a figure over budget is skipped, not failed.
        #[arg(long, default_value_t = 60.0)]
        budget: f64,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve a fixed set of boards and print nodes, seconds and nodes/second.
    Bench {
        #[command(flatten)]
        search: SearchArgs,
    },
    /// A combinatorial game in standard notation ({2|{1|*}}, 3/4, ^^*, *2, ...):
    /// canonical form, outcome, stops, mean, temperature, thermograph walls.
    Cgt {
        /// The game: standard notation ("{4|{3|{2|0}}}", "3+^^*"), Go regions
        /// (dame, eye:N, corridor:blocked:N, corridor:unblocked:N,
        /// file:PATH, [DIAGRAM]; "-" swaps colours) and sums of them.
        #[arg(allow_hyphen_values = true)]
        expression: String,
        /// Chill it first (seed 003's f).
        #[arg(long)]
        chill: bool,
        /// Warm it (seed 003's ∫), after chilling if both are given.
        #[arg(long)]
        warm: bool,
        /// Also draw the thermograph into this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        thermograph: Option<PathBuf>,
        /// Also write one self-contained page: the regions, the value and
        /// the thermograph.
        #[arg(long, value_name = "FILE.html")]
        html: Option<PathBuf>,
        /// Count a captured stone as its prisoner only (RULES.md §6 read
        /// literally, as `solve --rules koh` plays), not also its point.
        #[arg(long)]
        prisoners_only: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count complete games, or with --depth the game-tree nodes per depth (perft).
    Games {
        /// The board.
        board: String,
        #[command(flatten)]
        rules: RuleArgs,
        /// Print the nodes at each depth up to D instead of counting whole games.
        #[arg(long)]
        depth: Option<usize>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum CountMethod {
    /// The frontier method where the board allows it, else brute force.
    Auto,
    /// Border-state dynamic programming (Tromp & Farnebäck; a frontier of at most 16 points).
    Frontier,
    /// Every set of empty points, components coloured independently (at most 40 points).
    Brute,
}

/// The most worker threads `--threads` takes: far more than a machine
/// this solver runs on has cores; beyond, spawning them only costs.
pub const MAX_THREADS: usize = 1024;

/// Search options.
#[derive(Args)]
struct SearchArgs {
    /// Transposition table size in megabytes: at least 1 (without a table
    /// even 3x3 searches for hours) and at most the machine's memory
    /// [default: 256 up to 16 points, 4 times as much per point above, at
    /// most a quarter of the memory; bench: sized to each board, see the
    /// README]. Where a proof follows, the results that hold only on
    /// their path, which its extraction reads back, may take as much again.
    #[arg(long)]
    tt_mb: Option<usize>,
    /// Do not use the board's symmetries (nor the colour swap).
    #[arg(long)]
    no_symmetry: bool,
    /// Try the pass last (default: after the table's move, the killer and
    /// captures, before the other placings).
    #[arg(long)]
    moves_first: bool,
    /// How each test "is the value at least x?" is decided (auto:
    /// alpha-beta on boards of at most five points, proof-number search on
    /// larger ones).
    #[arg(long, value_enum, default_value_t = SearchMethod::Auto)]
    search: SearchMethod,
    /// Do not build the history-free guide table that steers proof-number
    /// search (tromp-taylor and ggg from the empty board on at most 20
    /// points; on 2 cores 4x4 takes about 2 s to build, 3x6 35-47 s and
    /// 2.8 GB, 4x5 about 9 minutes and up to 18 GB).
    #[arg(long)]
    no_guide: bool,
    /// Read guide tables from DIR and keep every one built there (default:
    /// $GOSOLVE_GUIDE_CACHE, else $XDG_CACHE_HOME/gosolve or
    /// ~/.cache/gosolve, where only builds of 10 s or more are kept: 3x6's
    /// is 775 MB, 4x5's 7 GB).
    #[arg(long, value_name = "DIR", conflicts_with = "no_guide_cache")]
    guide_cache: Option<PathBuf>,
    /// Neither read nor keep guide tables on disk: build each one.
    #[arg(long)]
    no_guide_cache: bool,
    /// Which first moves get their exact value (exact: every one; bounds:
    /// those as good as the board's value, the others only a proved bound
    /// showing them worse, which can be far quicker: 1x10).
    #[arg(long, value_enum, default_value_t = FirstMovesArg::Exact)]
    first_moves: FirstMovesArg,
}

/// `--first-moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FirstMovesArg {
    /// Every first move's exact value.
    Exact,
    /// Exact values for the best first moves, proved bounds for the others.
    Bounds,
}

impl From<FirstMovesArg> for solver::FirstMoves {
    fn from(m: FirstMovesArg) -> solver::FirstMoves {
        match m {
            FirstMovesArg::Exact => solver::FirstMoves::Exact,
            FirstMovesArg::Bounds => solver::FirstMoves::Bounds,
        }
    }
}

/// `--search`, and a batch job's `search`: one set of names for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchMethod {
    /// Alpha-beta on at most five points, proof-number search above.
    Auto,
    /// Alpha-beta with iterative deepening.
    Alphabeta,
    /// Depth-first proof-number search (df-pn).
    ProofNumber,
}

impl From<SearchMethod> for solver::Method {
    fn from(m: SearchMethod) -> solver::Method {
        match m {
            SearchMethod::Auto => solver::Method::Auto,
            SearchMethod::Alphabeta => solver::Method::AlphaBeta,
            SearchMethod::ProofNumber => solver::Method::ProofNumber,
        }
    }
}

impl SearchMethod {
    /// The name `--search` takes.
    pub fn name(self) -> String {
        self.to_possible_value()
            .expect("no variant is skipped")
            .get_name()
            .to_string()
    }
}

/// The table size of `solve` on boards of at most 16 points when `--tt-mb`
/// is not given; see [`default_tt_mb`].
pub const DEFAULT_TT_MB: usize = 256;

/// The table size of `solve` and `batch` on a board of `points` points
/// when none is given: 256 MB up to 16 points, four times as much for each
/// point above, and at most the largest power of two within a quarter of
/// the machine's memory (at least 256). Why: the proof's extraction reads
/// the search's results back from the table, and on 3x6 (18 points) a
/// 256 MB table had lost them, so after 23 minutes at 12 GB not one of
/// its strategies was extracted; at 4096 MB the whole proof took 67 s.
/// The quarter leaves room for the guide (1 GB on 3x6) and the proof.
pub fn default_tt_mb(points: usize) -> usize {
    shared_tt_mb(points, 1)
}

/// [`default_tt_mb`] for one of `share` solves that run at once (a
/// batch's jobs): each is capped within its share of the memory.
pub fn shared_tt_mb(points: usize, share: usize) -> usize {
    let memory = crate::search::tt::physical_memory();
    tt_mb_for(points, memory.map(|m| m / share.max(1) as u64))
}

/// [`default_tt_mb`] on a machine of `memory` bytes (`None`: unknown, so
/// no more than 256 MB).
fn tt_mb_for(points: usize, memory: Option<u64>) -> usize {
    let wanted = DEFAULT_TT_MB << (2 * points.saturating_sub(16)).min(20);
    let quarter = memory.map_or(0, |m| (m >> 20) as usize / 4);
    let cap = match quarter {
        0 => DEFAULT_TT_MB,
        q => (1 << q.ilog2()).max(DEFAULT_TT_MB),
    };
    wanted.min(cap)
}

impl SearchArgs {
    /// The search options, the table size checked before any work.
    fn config(&self, points: usize) -> Result<solver::Config, String> {
        let tt_mb = self.tt_mb.unwrap_or_else(|| default_tt_mb(points));
        check_tt_mb(tt_mb)?;
        Ok(solver::Config {
            tt_mb,
            symmetry: !self.no_symmetry,
            pass_first: !self.moves_first,
            debug: std::env::var_os("GOSOLVE_DEBUG").is_some(),
            method: self.search.into(),
            guide: !self.no_guide,
            // The run sets it where it extracts a proof.
            proof_follows: false,
            first_moves: self.first_moves.into(),
            guide_cache: if self.no_guide_cache {
                None
            } else if let Some(dir) = &self.guide_cache {
                Some(GuideCache::every(dir.clone()))
            } else {
                GuideCache::default_place()
            },
            ..solver::Config::default()
        })
    }
}

/// A table size the search can have: at least 1 MB (with none, every
/// transposition is searched again: `solve 3x3` runs for hours) and within
/// the machine's memory.
pub fn check_tt_mb(mb: usize) -> Result<(), String> {
    if mb == 0 {
        return Err(
            "--tt-mb must be at least 1: without a table the search repeats itself for hours"
                .into(),
        );
    }
    crate::search::tt::check_size(mb).map_err(|e| format!("--tt-mb {mb}: {e}"))
}

/// What `probe` and `gtp` share: where result files are, and how much
/// a live search may use.
#[derive(Args)]
struct PlayArgs {
    /// Folder where a board's result file is looked up by its default name.
    #[arg(long, default_value = "results", value_name = "DIR")]
    results: PathBuf,
    /// Seconds the live search may take in all, for a probe or a GTP
    /// command (a hard limit: the search stops with bounds only).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Nodes the live search may visit in all (checked between its
    /// depth-limited iterations, so one iteration can run past it).
    #[arg(long)]
    nodes: Option<u64>,
    /// The live search's table in megabytes.
    #[arg(long, default_value_t = probe::TT_MB)]
    tt_mb: usize,
}

/// The ruleset and its options, shared by every command that plays.
#[derive(Args)]
struct RuleArgs {
    /// tromp-taylor, ggg, conway, conway-replacement, logical or koh [default: tromp-taylor].
    #[arg(long)]
    rules: Option<Ruleset>,
    /// positional, situational or none (basic ko; a repetition is a tie).
    #[arg(long)]
    superko: Option<Superko>,
    /// allowed or forbidden (default: allowed, except under koh).
    #[arg(long)]
    suicide: Option<Suicide>,
    /// Komi, a multiple of 0.5 within ±1000 (scored rulesets only).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<Komi>,
    /// Start position as a diagram, e.g. "W: X.O/.../...".
    #[arg(long)]
    start: Option<String>,
}

impl RuleArgs {
    fn build(&self, board: &Board) -> Result<Rules, String> {
        let opts = RuleOptions {
            superko: self.superko,
            suicide: self.suicide,
            komi: self.komi,
            start: self.start.clone(),
        };
        let ruleset = self.rules.unwrap_or(Ruleset::TrompTaylor);
        Rules::build(ruleset, &opts, board).map_err(|e| e.to_string())
    }

    /// Whether any rule option was given.
    fn given(&self) -> bool {
        self.rules.is_some()
            || self.superko.is_some()
            || self.suicide.is_some()
            || self.komi.is_some()
            || self.start.is_some()
    }
}

/// Runs the command line; the binary's `main`.
pub fn main() -> ExitCode {
    // Die quietly when stdout is a closed pipe (`gosolve show F | head`), as
    // Unix tools do, instead of panicking on the failed print.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any
    // other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if n == 0 || n > MAX_THREADS {
            eprintln!("error: --threads must be at least 1 and at most {MAX_THREADS}, not {n}");
            return ExitCode::from(2);
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
        {
            eprintln!("error: cannot start {n} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Board { board } => {
            let board = parse_board(&board)?;
            show_board(&board);
        }
        Command::Count {
            board,
            method,
            json,
        } => {
            let board = parse_board(&board)?;
            let start = Instant::now();
            let shown = !json && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let what = format!("parts of the 2^{} sets of empty points", board.len());
            let bar = std::sync::OnceLock::new();
            let tick = |len: Option<usize>| match len {
                Some(len) => {
                    let _ = bar.set(progress::counter(len, shown, &what));
                }
                None => bar.get().expect("told the length first").inc(1),
            };
            let counted = match method {
                CountMethod::Brute => count::count_brute_told(&board, &tick).map(|n| (n, "brute")),
                CountMethod::Frontier => count::count_frontier(&board).map(|n| (n, "frontier")),
                CountMethod::Auto => count::count_auto_told(&board, &tick),
            };
            if let Some(b) = bar.get() {
                b.finish_and_clear();
            }
            let (n, used) = counted.map_err(|e| e.to_string())?;
            let secs = start.elapsed().as_secs_f64();
            if json {
                // Counts as strings: they pass 2^64, beyond many JSON readers.
                let out = json!({"board": board.name(), "points": board.len(),
                    "legal_positions": n.to_string(), "method": used, "seconds": millis(secs)});
                println!("{out}");
            } else {
                println!("legal positions of {}: {n}", board.name());
                println!("({used} method, {secs:.3} s)");
            }
        }
        Command::Solve {
            board,
            rules,
            search,
            json,
            out,
            no_save,
            fresh,
            checkpoint_every,
        } => {
            let board = parse_board(&board)?;
            let rules = rules.build(&board)?;
            let progress = !json && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let config = search.config(board.len())?;
            let run = run::Run {
                prove: !no_save,
                threads: 0,
            };
            let result =
                out.unwrap_or_else(|| save::result_path(&board, &rules, config.first_moves));
            if !no_save {
                save::check_writable(&result).map_err(|e| e.to_string())?;
            }
            let resume_path = resume::path_for(&result);
            if fresh {
                resume::discard(&resume_path).map_err(|e| e.to_string())?;
            }
            let every = match checkpoint_every {
                0 => std::time::Duration::MAX,
                s => std::time::Duration::from_secs(s),
            };
            let resume = Resume::open(&resume_path, &board, &rules)
                .map_err(|e| e.to_string())?
                .checkpoint_every(every);
            if !json {
                if let Some(line) = resuming(&resume) {
                    eprintln!("{line}");
                }
            }
            let resume = std::sync::Arc::new(resume);
            let bars = std::sync::Arc::new(progress::Bars::new(progress));
            let ctrl_c = interrupt::Interrupt::start(resume.clone(), bars.clone(), fresh)?;
            if let Some(limit) = run::memory_limit()? {
                ctrl_c.watch_memory(limit, !no_save);
            }
            let r = run::run_solve_logged(&board, &rules, config, run, &*resume, &*bars)
                .map_err(|e| e.to_string())?;
            let path = (!no_save).then_some(result);
            // The text is printed first, so a failed write does not lose it
            // (the resume file, kept then, does not either).
            if !json {
                print!("{}", report::text(&r));
            }
            let mut kept = false;
            if let Some(p) = &path {
                let f = save::result_file(&board, &rules, &r, &config);
                kept = holds_already(p, &f);
                if !kept {
                    gsr::write(p, &f)
                        .map_err(|e| format!("the result file was not written: {e}"))?;
                }
            }
            ctrl_c.finished();
            resume.finish();
            if json {
                println!("{}", report::json(&r, path.as_deref()));
            } else if let (Some(p), true) = (&path, kept) {
                println!(
                    "result file: {} (left as it was: it holds these values with a proof that verifies)",
                    p.display()
                );
            } else if let Some(p) = &path {
                // Strategies extracted as their classes settled took part
                // of the value's seconds.
                let proof = if r.early_strategies > 0 {
                    format!(
                        "proof {:.3} s (summed over the threads) while the value was searched and {:.3} s after, {} of the strategies extracted as their classes settled",
                        r.early_proof_seconds, r.proof_seconds, r.early_strategies
                    )
                } else {
                    format!("proof {:.3} s", r.proof_seconds)
                };
                println!(
                    "result file: {} ({} strategies, {proof}, {} nodes searched; check it with `gosolve verify`)",
                    p.display(),
                    r.strategies.len(),
                    r.proof_nodes
                );
            }
        }
        Command::Batch {
            jobs,
            out_dir,
            shard,
            parallel,
            summary,
        } => {
            return commands::batch(
                &jobs,
                &out_dir,
                shard.as_deref(),
                parallel,
                summary.as_deref(),
            );
        }
        Command::Check {
            table,
            budget,
            json,
        } => return check::check(table.as_deref(), budget, json),
        Command::Probe {
            target,
            rules,
            line,
            play,
            no_search,
            json,
        } => {
            check_tt_mb(play.tt_mb)?;
            let limits = probe::limits(play.seconds, play.nodes)?;
            let path = std::path::Path::new(&target);
            let (board, rules, file) = if path.is_file() || target.ends_with(".gsr") {
                if rules.given() {
                    return Err(format!(
                        "{target} is a result file: its board and rules are fixed, so rule options do not apply"
                    ));
                }
                let (b, r, f) = probe::read_file(path)?;
                (b, r, Some(f))
            } else {
                let board = parse_board(&target)?;
                let rules = rules.build(&board)?;
                let found = crate::play::oracle::result_file(&play.results, &board, &rules)?;
                (board, rules, found)
            };
            let opts = probe::Options {
                line: line.as_deref(),
                limits,
                search: !no_search,
                tt_mb: play.tt_mb,
                json,
            };
            return commands::deep(|| probe::run(&board, &rules, file, &opts));
        }
        Command::Gtp { board, rules, play } => {
            check_tt_mb(play.tt_mb)?;
            let setup = crate::play::gtp::Setup {
                ruleset: rules.rules.unwrap_or(Ruleset::TrompTaylor),
                options: RuleOptions {
                    superko: rules.superko,
                    suicide: rules.suicide,
                    komi: rules.komi,
                    start: rules.start.clone(),
                },
                results: play.results,
                limits: probe::limits(play.seconds, play.nodes)?,
                tt_mb: play.tt_mb,
            };
            return commands::deep(|| probe::serve(&board, setup));
        }
        Command::Verify { file, json } => return commands::verify(&file, json),
        Command::Show { file, line, json } => return commands::show(&file, line.as_deref(), json),
        Command::Export {
            file,
            sgf,
            csv: _,
            html,
            depth,
            seconds,
            out,
        } => {
            let limits = probe::limits(seconds, None)?;
            return match (html, depth) {
                (true, d) => commands::deep(|| {
                    commands::export_tree(&file, d.unwrap_or(4), true, limits, out.as_deref())
                }),
                (false, Some(d)) => commands::deep(|| {
                    commands::export_tree(&file, d, false, limits, out.as_deref())
                }),
                (false, None) => commands::export(&file, sgf, out.as_deref()),
            };
        }
        Command::Cgt {
            expression,
            chill,
            warm,
            thermograph,
            html,
            prisoners_only,
            json,
        } => {
            let files = cgt::Files {
                svg: thermograph.as_deref(),
                html: html.as_deref(),
            };
            return cgt::run(&expression, chill, warm, files, json, prisoners_only);
        }
        Command::Bench { search } => {
            print!(
                "{}",
                report::bench(search.config(0)?, search.tt_mb).map_err(|e| e.to_string())?
            );
        }
        Command::Games {
            board,
            rules,
            depth,
            json,
        } => {
            let board = parse_board(&board)?;
            let rules = rules.build(&board)?;
            let start = Instant::now();
            let progress = !json && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let bar = std::sync::OnceLock::new();
            let tick = |len: Option<usize>| match len {
                Some(len) => {
                    let _ = bar.set(progress::counter(len, progress, "subtrees"));
                }
                None => bar.get().expect("told the length first").inc(1),
            };
            if let Some(depth) = depth {
                let p = games::perft_told(&board, &rules, depth, &tick);
                if let Some(b) = bar.get() {
                    b.finish_and_clear();
                }
                let secs = start.elapsed().as_secs_f64();
                if json {
                    let text = |v: &[u128]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
                    let out = json!({"board": board.name(), "rules": rules.describe(),
                        "nodes": text(&p.nodes), "ended": text(&p.ended), "seconds": millis(secs)});
                    println!("{out}");
                } else {
                    println!("perft of {} under {}", board.name(), rules.describe());
                    println!("{:>5} {:>20} {:>20}", "depth", "nodes", "games ended");
                    for d in 0..=depth {
                        println!("{d:>5} {:>20} {:>20}", p.nodes[d], p.ended[d]);
                    }
                    let total: u128 = p.nodes.iter().sum();
                    println!(
                        "{total} nodes in {secs:.3} s ({:.0} nodes/s)",
                        total as f64 / secs.max(1e-9)
                    );
                }
                return Ok(());
            }
            let n = games::count_games(&board, &rules, &tick);
            if let Some(b) = bar.get() {
                b.finish_and_clear();
            }
            let secs = start.elapsed().as_secs_f64();
            let rate = n as f64 / secs.max(1e-9);
            if json {
                let out = json!({"board": board.name(), "rules": rules.describe(),
                    "games": n.to_string(), "seconds": millis(secs),
                    "games_per_second": rate.round()});
                println!("{out}");
            } else {
                println!("games of {} under {}: {n}", board.name(), rules.describe());
                println!("({secs:.3} s, {rate:.0} games/s)");
            }
        }
    }
    Ok(())
}

/// Whether the result file at `path` already makes the claims of `new`
/// with a proof that verifies: then it is left as it was, so rerunning a
/// solve (the README's first command) does not rewrite a committed file
/// with only a new date and new timings.
fn holds_already(path: &std::path::Path, new: &gsr::ResultFile) -> bool {
    gsr::read(path)
        .ok()
        .filter(|old| save::same_claims(old, new))
        .is_some_and(|old| crate::verify::verify(&old, &|_| {}).is_ok())
}

/// Seconds rounded to milliseconds, for JSON.
fn millis(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

fn parse_board(spec: &str) -> Result<Board, String> {
    Board::parse(spec).map_err(|e| e.to_string())
}

fn show_board(board: &Board) {
    println!(
        "{}: {} points, {} edges",
        board.name(),
        board.len(),
        board.edges().len()
    );
    let empty = crate::engine::position::Position::EMPTY;
    print!(
        "{}",
        diagram::render(board, &empty, crate::engine::types::PointSet::EMPTY)
    );
    for p in 0..board.len() as u8 {
        let nbrs: Vec<String> = board
            .neighbours(p)
            .iter()
            .map(|q| board.point_name(q))
            .collect();
        println!("{:>4}: {}", board.point_name(p), nbrs.join(" "));
    }
}

/// What an interrupted run of the solve kept, as the line that says the
/// solve resumes (none if it kept nothing).
pub(crate) fn resuming(resume: &Resume) -> Option<String> {
    let (valued, bounded) = (resume.loaded(), resume.loaded_bounds());
    let kept = resume::kept_words(valued, bounded);
    let path = resume.path().display();
    let table = resume.table_found().map(|bytes| {
        let mb = bytes as f64 / (1 << 20) as f64;
        let at = resume.table_path().display();
        format!("the search table ({mb:.1} MB on disk, {at})")
    });
    match (valued + bounded > 0, table) {
        (false, None) => None,
        (true, None) => Some(format!("resuming: {kept} from an interrupted run ({path})")),
        (false, Some(t)) => Some(format!("resuming from an interrupted run: {t}")),
        (true, Some(t)) => Some(format!(
            "resuming from an interrupted run: {kept} ({path}), {t}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 256 MB up to 16 points, four times as much per point above, within
    /// a quarter of the memory in a power of two, never below 256.
    #[test]
    fn solve_tables_grow_with_the_board_within_the_memory() {
        let gib = |g: u64| Some(g << 30);
        let sizes: Vec<usize> = [(4, gib(24)), (16, gib(24)), (17, gib(24)), (18, gib(24))]
            .into_iter()
            .chain([
                (25, gib(24)),
                (25, gib(64)),
                (18, gib(2)),
                (18, gib(1)),
                (18, None),
            ])
            .map(|(n, m)| tt_mb_for(n, m))
            .collect();
        assert_eq!(sizes, [256, 256, 1024, 4096, 4096, 16384, 512, 256, 256]);
    }
}
