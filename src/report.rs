//! Running a solve for the command line and reporting it as text or JSON.

use crate::board::Board;
use crate::diagram;
use crate::game::Game;
use crate::proof::{Extractor, Strategy};
use crate::resume::Resume;
use crate::rules::{Rules, Ruleset, half_points};
use crate::solver::{self, Config, Shared, Solution};
use crate::types::{Color, Move};
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;

/// A finished solve with its measurements.
pub struct Report {
    /// Board name.
    pub board: String,
    /// Rules description.
    pub rules: String,
    /// True for scored rulesets (values in points), false for win/loss.
    pub scored: bool,
    /// The solution.
    pub solution: Solution,
    /// Names of the moves of each first-move class.
    pub move_names: Vec<Vec<String>>,
    /// The principal variation, by name.
    pub pv: Vec<String>,
    /// The final position of the principal variation, as a diagram.
    pub final_diagram: String,
    /// The final scores (Black, White) where the ruleset scores.
    pub final_scores: Option<(u32, u32)>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory in bytes, if known.
    pub peak_bytes: Option<u64>,
    /// Table probes, hits and stores.
    pub table: (u64, u64, u64),
    /// The proofs (first-move class index and strategy), when asked for.
    pub strategies: Vec<(usize, Strategy)>,
    /// How many of them an interrupted run had extracted (see [`crate::resume`]).
    pub resumed_strategies: usize,
    /// Seconds spent extracting them.
    pub proof_seconds: f64,
    /// Search threads used.
    pub threads: usize,
}

/// The peak resident set size of this process (Linux), in bytes.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn move_name(board: &Board, m: Move) -> String {
    match m {
        Move::Pass => "pass".into(),
        Move::Place(p) => board.point_name(p),
    }
}

/// How to run a solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    /// Show progress bars on stderr.
    pub progress: bool,
    /// Also extract both sides' strategies for every first-move class (see
    /// [`crate::proof`]).
    pub prove: bool,
    /// Search threads (0: the current pool's size).
    pub threads: usize,
}

/// Solves and measures.
pub fn run_solve(board: &Board, rules: &Rules, config: Config, run: Run) -> Report {
    run_solve_logged(board, rules, config, run, None)
}

/// [`run_solve`], taking the first-move values and strategies an
/// interrupted run kept in `resume` and keeping the others there.
pub fn run_solve_logged(
    board: &Board,
    rules: &Rules,
    config: Config,
    run: Run,
    resume: Option<&Resume>,
) -> Report {
    let log: &dyn solver::RootLog = match resume {
        Some(r) => r,
        None => &solver::NoLog,
    };
    let Run {
        progress,
        prove,
        threads,
    } = run;
    let start = Instant::now();
    let shared = Shared::new(board, rules, config);
    let bar = if progress {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("solving {bar:30} {pos}/{len} first-move classes, {elapsed}")
            .expect("template"),
    );
    let tick = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    // Games under superko run deep: give the search threads large stacks.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(1 << 30)
        .build()
        .expect("thread pool");
    let solution = pool.install(|| solver::solve_logged(&shared, &tick, log));
    bar.finish_and_clear();
    // Seconds earlier runs had spent when they last saved count as spent.
    let (before, proof_before) = resume.map_or((0.0, 0.0), |r| r.earlier_seconds());
    let seconds = before + start.elapsed().as_secs_f64();
    let proving = Instant::now();
    if let Some(r) = resume {
        r.proving();
    }
    if prove && progress {
        // The proof can take longer than the solve (4x4): say what is known.
        eprintln!(
            "value {} found in {seconds:.1} s; extracting the proof (--no-save skips it)",
            value_text(rules.ruleset.has_score(), solution.value)
        );
    }
    let (strategies, resumed_strategies) = if prove {
        pool.install(|| strategies(&shared, rules, &solution, progress, resume))
    } else {
        (Vec::new(), 0)
    };
    let proof_seconds = proof_before + proving.elapsed().as_secs_f64();
    let mut g = Game::new(board, rules);
    for &m in &solution.pv {
        g.play(m);
    }
    Report {
        board: board.name().to_string(),
        rules: rules.describe(),
        scored: rules.ruleset.has_score(),
        move_names: solution
            .moves
            .iter()
            .map(|r| r.class.iter().map(|&m| move_name(board, m)).collect())
            .collect(),
        pv: solution.pv.iter().map(|&m| move_name(board, m)).collect(),
        final_diagram: diagram::render(board, &g.position(), rules.setup.immortal),
        final_scores: rules.ruleset.has_score().then(|| g.scores()),
        table: shared.table_counters().unwrap_or((0, 0, 0)),
        solution,
        seconds,
        peak_bytes: peak_memory(),
        strategies,
        resumed_strategies,
        proof_seconds,
        threads,
    }
}

/// The bounds of each first-move class that need a strategy: (class,
/// owner); a bound no game can break needs none.
pub fn needed_bounds(rules: &Rules, n: usize, solution: &Solution) -> Vec<(usize, Color)> {
    let extremes = match rules.ruleset {
        Ruleset::Logical => None,
        r if !r.has_score() => Some((-1, 1)),
        _ => {
            let (n, komi) = (n as i32, rules.komi.0);
            Some(((-2 * n - komi).min(0), (2 * n - komi).max(0)))
        }
    };
    let mut out = Vec::new();
    for (k, m) in solution.moves.iter().enumerate() {
        for owner in [Color::Black, Color::White] {
            let trivial = extremes.is_some_and(|(lo, hi)| {
                if owner == Color::Black {
                    m.value <= lo
                } else {
                    m.value >= hi
                }
            });
            if !trivial {
                out.push((k, owner));
            }
        }
    }
    out
}

fn strategies(
    shared: &Shared,
    rules: &Rules,
    solution: &Solution,
    progress: bool,
    resume: Option<&Resume>,
) -> (Vec<(usize, Strategy)>, usize) {
    let bar = if progress {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("proving {spinner} {pos} strategy nodes, {elapsed}")
            .expect("template"),
    );
    let tick = |k: u64| bar.inc(k);
    let todo = needed_bounds(rules, shared.start().board().len(), solution);
    let mut resumed = 0;
    let mut one = |&(k, owner): &(usize, Color)| {
        let (mv, bound) = (solution.moves[k].mv, solution.moves[k].value);
        if let Some(st) = resume.and_then(|r| r.known_strategy(mv, owner, bound)) {
            resumed += 1;
            return (k, st);
        }
        let mut g = shared.start();
        g.play(mv);
        let st = Extractor::run(shared, &mut g, owner, bound, &tick);
        if let Some(r) = resume {
            r.record_strategy(mv, &st);
        }
        (k, st)
    };
    // One at a time: extractions side by side on one table made 1x8's
    // proof take 2 s or over 60 s by chance (four runs in five past 60 s);
    // one after the other, 2.4-5.3 s in five runs.
    let out = todo.iter().map(&mut one).collect();
    bar.finish_and_clear();
    (out, resumed)
}

/// A value for people: `+9`, `-2.5`, `0`, or who wins.
pub fn value_text(scored: bool, v: i32) -> String {
    if !scored {
        return if v > 0 {
            "Black wins".into()
        } else {
            "White wins".into()
        };
    }
    let s = half_points(v);
    if v > 0 { format!("+{s}") } else { s }
}

/// The report as text.
pub fn text(r: &Report) -> String {
    let mut out = format!("{} under {}\n", r.board, r.rules);
    let v = r.solution.value;
    let verdict = match (r.scored, v.signum()) {
        (false, _) => String::new(),
        (true, 1) => format!(" (Black wins by {})", half_points(v)),
        (true, -1) => format!(" (White wins by {})", half_points(-v)),
        _ => " (a draw)".into(),
    };
    out += &format!("value: {}{verdict}\n", value_text(r.scored, v));
    out += "first moves (value: moves, symmetric ones together):\n";
    for (m, names) in r.solution.moves.iter().zip(&r.move_names) {
        out += &format!(
            "  {:>10}: {}\n",
            value_text(r.scored, m.value),
            names.join(" ")
        );
    }
    out += &format!(
        "principal variation ({} turns): {}\n",
        r.pv.len(),
        r.pv.join(" ")
    );
    out += "final position:\n";
    out += &r.final_diagram;
    if let Some((b, w)) = r.final_scores {
        out += &format!("final score: Black {b}, White {w}\n");
    }
    let (probes, hits, _) = r.table;
    let rate = if probes > 0 {
        100.0 * hits as f64 / probes as f64
    } else {
        0.0
    };
    if r.solution.resumed > 0 || r.resumed_strategies > 0 {
        out += &format!(
            "resumed: {} of {} first-move classes valued ({} nodes) and {} of {} strategies extracted by an interrupted run\n",
            r.solution.resumed,
            r.solution.moves.len(),
            r.solution.resumed_nodes,
            r.resumed_strategies,
            r.strategies.len()
        );
    }
    out += &format!(
        "nodes {}, {:.3} s, {:.0} nodes/s, peak memory {}, table hit rate {rate:.1}% of {probes} probes\n",
        r.solution.nodes,
        r.seconds,
        r.solution.nodes as f64 / r.seconds.max(1e-9),
        r.peak_bytes
            .map_or("unknown".into(), |b| format!("{:.1} MB", b as f64 / 1e6)),
    );
    out
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o += "\\\"",
            '\\' => o += "\\\\",
            '\n' => o += "\\n",
            c => o.push(c),
        }
    }
    o + "\""
}

/// The report as one JSON object. Values are in points (halves allowed),
/// or +1 / −1 for a Black / White win under the normal-play rulesets.
pub fn json(r: &Report, saved: Option<&std::path::Path>) -> String {
    let num = |v: i32| {
        if r.scored {
            half_points(v)
        } else {
            v.to_string()
        }
    };
    let moves: Vec<String> = r
        .solution
        .moves
        .iter()
        .zip(&r.move_names)
        .map(|(m, names)| {
            let names: Vec<String> = names.iter().map(|n| json_str(n)).collect();
            format!(
                "{{\"value\":{},\"moves\":[{}]}}",
                num(m.value),
                names.join(",")
            )
        })
        .collect();
    let pv: Vec<String> = r.pv.iter().map(|n| json_str(n)).collect();
    format!(
        "{{\"board\":{},\"rules\":{},\"scored\":{},\"value\":{},\"first_moves\":[{}],\"pv\":[{}],\"final_position\":{},\"nodes\":{},\"seconds\":{:.3},\"peak_bytes\":{},\"table_probes\":{},\"table_hits\":{},\"resumed_classes\":{},\"resumed_strategies\":{},\"result_file\":{}}}",
        json_str(&r.board),
        json_str(&r.rules),
        r.scored,
        num(r.solution.value),
        moves.join(","),
        pv.join(","),
        json_str(&r.final_diagram),
        r.solution.nodes,
        r.seconds,
        r.peak_bytes.map_or("null".into(), |b| b.to_string()),
        r.table.0,
        r.table.1,
        r.solution.resumed,
        r.resumed_strategies,
        saved.map_or("null".into(), |p| json_str(&p.display().to_string())),
    )
}

/// The bench set: (board, ruleset).
pub const BENCH: &[(&str, Ruleset)] = &[
    ("2x2", Ruleset::TrompTaylor),
    ("1x5", Ruleset::TrompTaylor),
    ("1x6", Ruleset::TrompTaylor),
    ("2x3", Ruleset::TrompTaylor),
    ("2x4", Ruleset::TrompTaylor),
    ("cycle:6", Ruleset::Conway),
    ("petersen", Ruleset::Conway),
    ("1x4", Ruleset::Logical),
    ("1x5", Ruleset::Koh),
];

/// Solves the bench set and reports nodes, seconds and nodes/second; the
/// total node count is the search's signature.
pub fn bench(config: Config) -> String {
    let mut out = format!(
        "{:<10} {:<14} {:>8} {:>12} {:>9} {:>12}\n",
        "board", "rules", "value", "nodes", "seconds", "nodes/s"
    );
    let (mut nodes, mut secs) = (0u64, 0f64);
    for &(spec, ruleset) in BENCH {
        let board = Board::parse(spec).expect("bench board");
        let rules = Rules::new(ruleset);
        let r = run_solve(&board, &rules, config, Run::default());
        out += &format!(
            "{:<10} {:<14} {:>8} {:>12} {:>9.3} {:>12.0}\n",
            spec,
            ruleset.name(),
            value_text(r.scored, r.solution.value),
            r.solution.nodes,
            r.seconds,
            r.solution.nodes as f64 / r.seconds.max(1e-9)
        );
        nodes += r.solution.nodes;
        secs += r.seconds;
    }
    out += &format!(
        "total: {nodes} nodes, {secs:.3} s, {:.0} nodes/s\n",
        nodes as f64 / secs.max(1e-9)
    );
    out
}
