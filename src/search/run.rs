//! Running a whole solve: the value search on its own thread pool and
//! the proof extraction, measured. Each first-move class's strategies are
//! extracted as soon as its value is settled, on the thread that searched
//! it, while the table still holds what proved it; whatever is left (the
//! classes an earlier run valued) once the value is known. What an
//! interrupted run kept comes in through [`Kept`] (the result-file
//! layer's resume file implements it), and what the run is doing goes
//! out through [`Progress`] (the command line draws bars from it): this
//! layer neither reads files nor draws.

use crate::engine::board::Board;
use crate::engine::diagram;
use crate::engine::game::Game;
use crate::engine::rules::{Rules, Ruleset, value_text};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Move};
use crate::search::proof::{Extractor, Strategy};
use crate::search::root::{self, NoLog, RootLog, RootMove, Solution, Test, Watch};
use crate::search::solver::{Config, Shared};
use crate::search::tt::TableError;
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// What a solve reports while it runs. Every method has a default that
/// ignores it.
pub trait Progress: Sync {
    /// `done` of `total` first-move classes are valued (told first with
    /// `done` 0, once the classes are known).
    fn classes(&self, _done: usize, _total: usize) {}
    /// Where the value search is: told every [`TICK`] while it runs, as
    /// each zero-width test starts and as each class finishes.
    fn searching(&self, _now: &Searching) {}
    /// Something that comes before the search and takes a while (a line
    /// for people).
    fn preparing(&self, _message: &str) {}
    /// The value is known; the proof extraction starts (a line for people).
    fn proving(&self, _message: &str) {}
    /// The proof extraction wrote `_added` more strategy nodes.
    fn proof_nodes(&self, _added: u64) {}
    /// The phase that was reported is over.
    fn phase_done(&self) {}
}

/// How often [`Progress::searching`] hears from a search in progress.
pub const TICK: Duration = Duration::from_millis(250);

/// Where the value search is, for [`Progress::searching`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searching {
    /// First-move classes valued.
    pub done: usize,
    /// First-move classes in all (0 until the root has counted them).
    pub total: usize,
    /// Nodes this run has searched so far, on all threads (each running
    /// search adds its count every 65,536 nodes).
    pub nodes: u64,
    /// The test each class in progress is at, in the order they started,
    /// e.g. `is B1 ≥ +2?`, `is B2 ≤ 0?`, `does White win after A1?`, then
    /// the settled classes whose proof is being extracted (`extracting
    /// the proof after B1`).
    pub tests: Vec<String>,
}

/// The question a [`Test`] asks, for people: `is B1 ≥ +2?`. The bound is
/// rounded to the values a game can end with (whole points with a whole
/// komi, halves with a half one), which asks the same question.
pub fn question(board: &Board, rules: &Rules, t: &Test) -> String {
    let first = board.move_name(t.first);
    // Values are Black − White − komi: in half points, of komi's parity.
    let parity = rules.komi.0.rem_euclid(2);
    let b = t.bound;
    match (rules.ruleset.has_score(), t.at_least) {
        (false, true) => format!("does Black win after {first}?"),
        (false, false) => format!("does White win after {first}?"),
        (true, true) => {
            let v = b + (parity - b).rem_euclid(2);
            format!("is {first} ≥ {}?", value_text(true, v))
        }
        (true, false) => {
            let v = b - (b - parity).rem_euclid(2);
            format!("is {first} ≤ {}?", value_text(true, v))
        }
    }
}

/// The root's [`Watch`] turned into [`Progress::searching`] reports.
struct Live<'r> {
    progress: &'r dyn Progress,
    shared: &'r Shared<'r>,
    board: &'r Board,
    rules: &'r Rules,
    state: Mutex<Now>,
    /// Where a proof follows: its extraction, given each class as it settles.
    extraction: Option<&'r Extraction<'r>>,
}

/// Whether the strategies of a class are extracted as soon as it settles.
fn early_proof() -> bool {
    std::env::var_os("GOSOLVE_LATE_PROOF").is_none()
}

/// What [`Live`] last heard.
#[derive(Default)]
struct Now {
    done: usize,
    total: usize,
    /// The tests running.
    tests: Vec<Test>,
    /// Threads helping each class's test, where any do.
    helpers: Vec<(Move, usize)>,
    /// Classes whose strategies are being extracted (see [`Watch::settled`]).
    proving: Vec<Move>,
}

impl Now {
    /// The threads on the class of `first`: its own and its helpers.
    fn threads(&self, first: Move) -> usize {
        1 + self
            .helpers
            .iter()
            .find(|&&(m, _)| m == first)
            .map_or(0, |&(_, n)| n)
    }
}

impl Live<'_> {
    /// Tells `progress` where the search is, under the lock, so that its
    /// reports come in order (and their nodes never go down).
    fn report(&self) {
        let s = self.state.lock().expect("progress lock");
        let tests = s
            .tests
            .iter()
            .map(|t| with_threads(question(self.board, self.rules, t), s.threads(t.first)));
        let proving = s
            .proving
            .iter()
            .map(|&m| format!("extracting the proof after {}", self.board.move_name(m)));
        let now = Searching {
            done: s.done,
            total: s.total,
            nodes: self.shared.nodes(),
            tests: tests.chain(proving).collect(),
        };
        self.progress.searching(&now);
    }
}

/// A test's question as the progress shows it: with the threads on it
/// where helpers have joined.
fn with_threads(question: String, threads: usize) -> String {
    match threads {
        1 => question,
        n => format!("{question} ({n} threads)"),
    }
}

impl Watch for Live<'_> {
    fn classes(&self, done: usize, total: usize) {
        {
            let mut s = self.state.lock().expect("progress lock");
            s.done = done;
            s.total = total;
        }
        self.progress.classes(done, total);
        self.report();
    }

    fn testing(&self, first: Move, test: Option<Test>) {
        {
            let mut s = self.state.lock().expect("progress lock");
            match (s.tests.iter().position(|t| t.first == first), test) {
                (Some(i), Some(t)) => s.tests[i] = t,
                (None, Some(t)) => s.tests.push(t),
                (Some(i), None) => {
                    s.tests.remove(i);
                }
                (None, None) => {}
            }
        }
        self.report();
    }

    fn settled(&self, m: &RootMove) {
        let Some(ex) = self.extraction else {
            return;
        };
        self.state.lock().expect("progress lock").proving.push(m.mv);
        self.report();
        ex.settled(m);
        self.state
            .lock()
            .expect("progress lock")
            .proving
            .retain(|&x| x != m.mv);
        self.report();
    }

    fn helpers(&self, first: Move, n: usize) {
        {
            let mut s = self.state.lock().expect("progress lock");
            s.helpers.retain(|&(m, _)| m != first);
            if n > 0 {
                s.helpers.push((first, n));
            }
        }
        self.report();
    }
}

/// A [`Progress`] that shows nothing.
pub struct Quiet;

impl Progress for Quiet {}

/// What earlier, interrupted runs of the same solve kept: first-move
/// values (through [`RootLog`]) and extracted strategies. Every method has
/// a default that keeps nothing.
pub trait Kept: RootLog {
    /// Seconds earlier runs spent on the solve and on the extraction.
    fn earlier_seconds(&self) -> (f64, f64) {
        (0.0, 0.0)
    }
    /// The proof extraction starts now.
    fn proving(&self) {}
    /// The strategy of `owner` for the class of `first` with `bound`, if
    /// an earlier run extracted it.
    fn known_strategy(&self, _first: Move, _owner: Color, _bound: i32) -> Option<Strategy> {
        None
    }
    /// Keeps a strategy just extracted for the class of `first`.
    fn record_strategy(&self, _first: Move, _st: &Strategy) {}
    /// Loads the table checkpoint an earlier run kept, if there is one:
    /// `load` reads a body (opened afresh by its argument each time it
    /// asks) into the table and returns the entries it took (see
    /// [`checkpoint`](crate::search::checkpoint)).
    fn restore_table(&self, _load: &mut TableLoad<'_>) {}
    /// Checkpoints may be written from now on (`true`), or no longer.
    fn table_live(&self, _live: bool) {}
    /// Whether a table checkpoint is due (its period has passed, or the
    /// run is being interrupted).
    fn table_due(&self) -> bool {
        false
    }
    /// Writes a table checkpoint, whose body `write` writes (returning the
    /// entries it wrote).
    fn keep_table(&self, _write: &mut dyn FnMut(&mut dyn Write) -> io::Result<u64>) {}
}

/// Reads a checkpoint body into the table: given a way to open the body
/// (it reads it twice, to check it whole before storing any of it),
/// returns the entries taken or why none were.
pub type TableLoad<'a> =
    dyn FnMut(&mut dyn FnMut() -> io::Result<Box<dyn Read>>) -> Result<u64, String> + 'a;

impl Kept for NoLog {}

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
    /// The start position as a diagram ([`diagram::render`]).
    pub start_diagram: String,
    /// The start colouring in the one-line form of
    /// [`diagram::compact`], e.g. `X.O/.X./...` (`--start` reads it, with
    /// `W: ` before it when White moves first).
    pub start: String,
    /// Who moves first.
    pub first_to_move: Color,
    /// Whether the start is other than the empty board with Black to move.
    pub given_start: bool,
    /// The final position of the principal variation, as a diagram.
    pub final_diagram: String,
    /// The final scores (Black, White) where the ruleset scores.
    pub final_scores: Option<(u32, u32)>,
    /// Wall-clock seconds until the value was known (earlier runs' too),
    /// [`Report::early_proof_seconds`] included.
    pub seconds: f64,
    /// Peak resident memory in bytes, if known.
    pub peak_bytes: Option<u64>,
    /// Table probes, hits and stores.
    pub table: (u64, u64, u64),
    /// The proofs (first-move class index and strategy), when asked for.
    pub strategies: Vec<(usize, Strategy)>,
    /// How many of them an interrupted run had extracted (see [`crate::store::resume`]).
    pub resumed_strategies: usize,
    /// How many of them were extracted while the value search ran, as
    /// their classes settled (see [`Watch::settled`]).
    pub early_strategies: usize,
    /// Seconds spent extracting them once the value was known.
    pub proof_seconds: f64,
    /// Seconds spent extracting the strategies of classes as they settled,
    /// while the value search went on (summed over the threads; part of
    /// [`Report::seconds`]).
    pub early_proof_seconds: f64,
    /// Nodes the extraction's searches visited in this run (not counted
    /// in the solution's).
    pub proof_nodes: u64,
    /// Search threads used.
    pub threads: usize,
}

/// The peak resident set size of this process (Linux), in bytes.
pub fn peak_memory() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// The resident set size of this process now (Linux), in bytes.
pub fn resident_memory() -> Option<u64> {
    status_bytes("VmRSS:")
}

/// A field of `/proc/self/status` given in kB, in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The resident memory a run may reach: `GOSOLVE_MEMORY_MB`, or 15/16 of
/// the machine's memory; `None` where that is unknown. The command line
/// stops a solve or a batch there and keeps its finished work
/// (`Interrupt::watch_memory`, `Batch::watch_memory`); the proof
/// extraction keeps its links' memory within what is left below it.
pub fn memory_limit() -> Result<Option<u64>, String> {
    match std::env::var("GOSOLVE_MEMORY_MB") {
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(mb) if mb > 0 => Ok(Some(mb << 20)),
            _ => Err(format!(
                "GOSOLVE_MEMORY_MB is `{v}`: give a whole number of megabytes, at least 1"
            )),
        },
        Err(_) => Ok(crate::search::tt::physical_memory().map(|m| m - m / 16)),
    }
}

/// How to run a solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    /// Also extract both sides' strategies for every first-move class (see
    /// [`crate::search::proof`]).
    pub prove: bool,
    /// Search threads (0: the current pool's size).
    pub threads: usize,
}

/// Solves and measures, quietly and keeping nothing.
pub fn run_solve(
    board: &Board,
    rules: &Rules,
    config: Config,
    run: Run,
) -> Result<Report, SolveError> {
    run_solve_logged(board, rules, config, run, &NoLog, &Quiet)
}

/// Why a solve could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The transposition table (or the df-pn numbers) could not be had.
    Table(TableError),
    /// The operating system would not start the search's threads (a
    /// limit on processes or on memory: each has a large stack).
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What the system said.
        why: String,
    },
}

impl From<TableError> for SolveError {
    fn from(e: TableError) -> SolveError {
        SolveError::Table(e)
    }
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Table(e) => e.fmt(f),
            SolveError::Threads { threads, why } => {
                write!(f, "cannot start {threads} search threads: {why}")
            }
        }
    }
}

/// [`run_solve`], taking the first-move values and strategies earlier runs
/// kept in `kept` and keeping the others there, and telling `progress`.
pub fn run_solve_logged(
    board: &Board,
    rules: &Rules,
    config: Config,
    run: Run,
    kept: &dyn Kept,
    progress: &dyn Progress,
) -> Result<Report, SolveError> {
    let Run { prove, threads } = run;
    let start = Instant::now();
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
        .map_err(|e| SolveError::Threads {
            threads,
            why: e.to_string(),
        })?;
    if Shared::builds_guide(board, rules, &config) {
        let kept = config
            .guide_cache
            .is_some_and(|c| crate::search::guide_file::path(c.dir, board, rules, true).exists());
        progress.preparing(if kept {
            "reading the history-free guide table an earlier solve kept (or building it)"
        } else {
            "building the history-free guide table"
        });
    }
    // In the pool: the guide's sweeps use its threads.
    let config = Config {
        proof_follows: prove,
        ..config
    };
    let shared = pool.install(|| Shared::new(board, rules, config))?;
    kept.restore_table(&mut |open| {
        progress.preparing("loading the table checkpoint an interrupted run kept");
        shared.read_table(open)
    });
    let extraction = Extraction {
        shared: &shared,
        kept,
        early: Mutex::default(),
        early_seconds: Mutex::default(),
        resumed: AtomicUsize::new(0),
        early_new: AtomicUsize::new(0),
    };
    let live = Live {
        progress,
        shared: &shared,
        board,
        rules,
        state: Mutex::default(),
        extraction: (prove && early_proof()).then_some(&extraction),
    };
    // A thread that reports every tick until the value search is done.
    let solution = std::thread::scope(|s| {
        let (done, wait) = mpsc::channel::<()>();
        let live = &live;
        let shared = &shared;
        // Only a run with a main table (`tt_mb` > 0) has one to keep.
        let keeps_table = shared.table_counters().is_some();
        kept.table_live(keeps_table);
        s.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(TICK) {
                live.report();
                if keeps_table && kept.table_due() {
                    kept.keep_table(&mut |w| shared.write_table(w));
                }
            }
            kept.table_live(false);
        });
        let solution = pool.install(|| root::solve_watched(shared, live, kept));
        drop(done);
        solution
    });
    progress.phase_done();
    // Seconds earlier runs had spent when they last saved count as spent.
    let (before, proof_before) = kept.earlier_seconds();
    let seconds = before + start.elapsed().as_secs_f64();
    let proving = Instant::now();
    kept.proving();
    let (strategies, resumed_strategies) = if prove {
        // The proof can take longer than the solve (4x4): say what is known.
        progress.proving(&format!(
            "value {} found in {seconds:.1} s; extracting the proof (--no-save skips it)",
            value_text(rules.ruleset.has_score(), solution.value)
        ));
        let out = pool.install(|| strategies(&extraction, &solution, progress));
        progress.phase_done();
        (out, extraction.resumed.load(Ordering::Relaxed))
    } else {
        (Vec::new(), 0)
    };
    let proof_seconds = proof_before + proving.elapsed().as_secs_f64();
    let proof_nodes = shared.proof_nodes();
    let setup = &rules.setup;
    let start = diagram::compact(board, &setup.position, setup.immortal);
    let mut g = Game::new(board, rules);
    for &m in &solution.pv {
        g.play(m);
    }
    Ok(Report {
        board: board.name().to_string(),
        rules: rules.describe(),
        scored: rules.ruleset.has_score(),
        move_names: solution
            .moves
            .iter()
            .map(|r| r.class.iter().map(|&m| board.move_name(m)).collect())
            .collect(),
        pv: solution.pv.iter().map(|&m| board.move_name(m)).collect(),
        start_diagram: diagram::render(board, &setup.position, setup.immortal),
        start,
        first_to_move: setup.to_move,
        given_start: *setup != Setup::EMPTY,
        final_diagram: diagram::render(board, &g.position(), rules.setup.immortal),
        final_scores: rules.ruleset.has_score().then(|| g.scores()),
        table: shared.table_counters().unwrap_or((0, 0, 0)),
        solution,
        seconds,
        peak_bytes: peak_memory(),
        strategies,
        resumed_strategies,
        proof_seconds,
        early_strategies: extraction.early_new.load(Ordering::Relaxed),
        early_proof_seconds: *extraction
            .early_seconds
            .lock()
            .unwrap_or_else(PoisonError::into_inner),
        proof_nodes,
        threads,
    })
}

/// The bounds of each first-move class that need a strategy: (class,
/// owner); a bound no game can break needs none, and a class known only
/// by a bound ([`Claim`](crate::format::file::Claim)) has only that bound's owner.
pub fn needed_bounds(rules: &Rules, n: usize, solution: &Solution) -> Vec<(usize, Color)> {
    let mut out = Vec::new();
    for (k, m) in solution.moves.iter().enumerate() {
        out.extend(needed_owners(rules, n, m).into_iter().map(|o| (k, o)));
    }
    out
}

/// The owners whose strategies the class `m` needs (see [`needed_bounds`]).
fn needed_owners(rules: &Rules, n: usize, m: &RootMove) -> Vec<Color> {
    let extremes = match rules.ruleset {
        Ruleset::Logical => None,
        r if !r.has_score() => Some((-1, 1)),
        _ => {
            let (n, komi) = (n as i32, rules.komi.0);
            Some(((-2 * n - komi).min(0), (2 * n - komi).max(0)))
        }
    };
    let owners = [Color::Black, Color::White].into_iter();
    owners
        .filter(|&o| m.claim.proved_by(o == Color::Black))
        .filter(|&owner| {
            !extremes.is_some_and(|(lo, hi)| {
                if owner == Color::Black {
                    m.value <= lo
                } else {
                    m.value >= hi
                }
            })
        })
        .collect()
}

/// The proof's extraction, for the classes as they settle and for the
/// rest once the value is known.
struct Extraction<'r> {
    shared: &'r Shared<'r>,
    kept: &'r dyn Kept,
    /// Strategies extracted while the value search ran: (first move,
    /// strategy).
    early: Mutex<Vec<(Move, Strategy)>>,
    /// Seconds those took, summed over the threads.
    early_seconds: Mutex<f64>,
    /// Strategies an interrupted run had extracted.
    resumed: AtomicUsize,
    /// Strategies extracted while the value search ran (not taken from
    /// an interrupted run).
    early_new: AtomicUsize,
}

impl Extraction<'_> {
    /// The strategy of `owner` for the class of `first` with `bound`: one
    /// extracted before in this run (taken out: each is asked for once) or
    /// an earlier one, else extracted now, with `side_by_side` extractions
    /// at most running at once, and kept; and whether it was extracted now.
    fn one(
        &self,
        (first, owner, bound): (Move, Color, i32),
        side_by_side: usize,
        tick: &(dyn Fn(u64) + Sync),
    ) -> (Strategy, bool) {
        let mut early = self.early.lock().unwrap_or_else(PoisonError::into_inner);
        let same =
            |(m, st): &(Move, Strategy)| *m == first && st.owner == owner && st.bound == bound;
        if let Some(i) = early.iter().position(same) {
            return (early.swap_remove(i).1, false);
        }
        drop(early);
        if let Some(st) = self.kept.known_strategy(first, owner, bound) {
            self.resumed.fetch_add(1, Ordering::Relaxed);
            return (st, false);
        }
        let mut g = self.shared.start();
        g.play(first);
        let budget = budget(side_by_side);
        let st = Extractor::run(self.shared, &mut g, (first, owner, bound), tick, budget);
        self.kept.record_strategy(first, &st);
        (st, true)
    }

    /// Extracts the strategies the class `m` needs, now that it is
    /// settled, while the table still holds what proved its value.
    fn settled(&self, m: &RootMove) {
        let t = Instant::now();
        let n = self.shared.board.len();
        let threads = rayon::current_num_threads();
        for owner in needed_owners(&self.shared.rules, n, m) {
            let (st, new) = self.one((m.mv, owner, m.value), threads, &|_| {});
            self.early_new
                .fetch_add(usize::from(new), Ordering::Relaxed);
            let mut early = self.early.lock().unwrap_or_else(PoisonError::into_inner);
            early.push((m.mv, st));
        }
        *self
            .early_seconds
            .lock()
            .unwrap_or_else(PoisonError::into_inner) += t.elapsed().as_secs_f64();
    }
}

/// The links' memory of one extraction, `side_by_side` running at once:
/// half of what is left below the memory limit (the extraction's
/// searches need room too), shared by them, and at least 256 MB.
fn budget(side_by_side: usize) -> usize {
    let left = match (memory_limit(), resident_memory()) {
        (Ok(Some(limit)), Some(now)) => limit.saturating_sub(now) / 2,
        _ => 0,
    };
    (left as usize / side_by_side.max(1)).max(256 << 20)
}

fn strategies(
    ex: &Extraction,
    solution: &Solution,
    progress: &dyn Progress,
) -> Vec<(usize, Strategy)> {
    let tick = |k: u64| progress.proof_nodes(k);
    let todo = needed_bounds(&ex.shared.rules, ex.shared.board.len(), solution);
    let side_by_side = rayon::current_num_threads().min(todo.len());
    let one = |&(k, owner): &(usize, Color)| {
        let (mv, bound) = (solution.moves[k].mv, solution.moves[k].value);
        (k, ex.one((mv, owner, bound), side_by_side, &tick).0)
    };
    // Side by side, one per thread, each reading the solve's
    // history-dependent results (module `paths`). They ran one
    // at a time from 2026-11-22, when (with the alpha-beta extraction,
    // before those results were kept) side by side made 1x8's proof take
    // 2 s or over 60 s by chance; now 1x8's took 0.3-0.6 s in five runs
    // beside the test suite.
    todo.par_iter().map(one).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A class's thread count is its own plus its helpers, and only a
    /// helped test says so.
    #[test]
    fn helped_tests_show_their_threads() {
        let now = Now {
            helpers: vec![(Move::Place(3), 2)],
            ..Now::default()
        };
        assert_eq!(now.threads(Move::Place(3)), 3);
        assert_eq!(now.threads(Move::Place(4)), 1);
        assert_eq!(
            with_threads("is B1 ≥ +2?".into(), 3),
            "is B1 ≥ +2? (3 threads)"
        );
        assert_eq!(with_threads("is B1 ≥ +2?".into(), 1), "is B1 ≥ +2?");
    }
}
