//! The root of a solve: the first moves in classes of symmetric moves,
//! their exact values (the placings in parallel), and a principal
//! variation.

use crate::engine::types::{Color, Move};
use crate::format::file::Claim;
use crate::search::bounds::{log_value, mover_value};
use crate::search::help::Helped;
use crate::search::solver::{FirstMoves, Method, Search, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A first move and its value (Black's side), with the moves it is
/// symmetric to.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The representative move.
    pub mv: Move,
    /// Every move of its symmetry class, the representative first.
    pub class: Vec<Move>,
    /// Black − White − komi in half points (normal play: ±1).
    pub value: i32,
    /// Whether `value` is exact or a bound ([`FirstMoves::Bounds`]): a
    /// bound is always worse for the player to move than the board's value.
    pub claim: Claim,
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Black − White − komi in half points (normal play: +1 Black wins, −1 White wins).
    pub value: i32,
    /// Every legal first move's value, by symmetry class, best first.
    pub moves: Vec<RootMove>,
    /// A principal variation to the end of the game.
    pub pv: Vec<Move>,
    /// Nodes searched, those of the first-move classes taken from a
    /// [`RootLog`] included.
    pub nodes: u64,
    /// First-move classes whose value came from a [`RootLog`].
    pub resumed: usize,
    /// The nodes the log recorded for them.
    pub resumed_nodes: u64,
}

/// First-move values that outlive an interrupted solve: a class's value is
/// recorded as soon as it is known, and a later solve of the same board
/// under the same rules takes it instead of searching again.
pub trait RootLog: Sync {
    /// The value (Black's side) and nodes recorded for the class of `first`.
    fn known(&self, first: Move) -> Option<(i32, u64)>;
    /// Records the class of `first`: its value (Black's side) and the nodes it took.
    fn record(&self, first: Move, value: i32, nodes: u64);
    /// Bounds (lo, hi) on the value (Black's side) of the class of `first`
    /// that finished tests of an earlier run proved, and their nodes.
    fn known_bounds(&self, _first: Move) -> Option<(i32, i32, u64)> {
        None
    }
    /// Records that the class of `first` has a value (Black's side) in
    /// `lo..=hi`, proved in `nodes` nodes: each finished test narrows it,
    /// so an interrupted class keeps its tests.
    fn record_bounds(&self, _first: Move, _lo: i32, _hi: i32, _nodes: u64) {}
}

/// A [`RootLog`] that keeps nothing.
pub struct NoLog;

impl RootLog for NoLog {
    fn known(&self, _: Move) -> Option<(i32, u64)> {
        None
    }
    fn record(&self, _: Move, _: i32, _: u64) {}
}

/// A zero-width test the exact-value driver runs on a first-move class,
/// from Black's side: is the value after `first` at least `bound` (when
/// `at_least`), or at most `bound` (otherwise)? Half points; under normal
/// play, "at least 0" is "does Black win?" and "at most 0" "does White win?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Test {
    /// The class's representative first move.
    pub first: Move,
    /// True for "at least", false for "at most".
    pub at_least: bool,
    /// The bound, Black − White − komi in half points.
    pub bound: i32,
}

impl Test {
    /// The test "is the value for `mover`, who moves after `first`, at
    /// least `x`?" from Black's side.
    fn new(first: Move, mover: Color, x: i32) -> Test {
        match mover {
            Color::Black => Test {
                first,
                at_least: true,
                bound: x,
            },
            Color::White => Test {
                first,
                at_least: false,
                bound: -x,
            },
        }
    }
}

/// What the root tells while it runs. Both methods default to nothing;
/// they are called from the search threads, a few times per class.
pub trait Watch: Sync {
    /// `done` of `total` first-move classes are valued (told first with
    /// `done` 0, once the classes are known).
    fn classes(&self, _done: usize, _total: usize) {}
    /// The class of `first` starts `test`, or (`None`) has its value.
    fn testing(&self, _first: Move, _test: Option<Test>) {}
    /// `n` threads besides the class's own now help the class of
    /// `first` with its test (df-pn on 2 threads or more).
    fn helpers(&self, _first: Move, _n: usize) {}
    /// The class `m` is settled by this run's search (exact, or given up
    /// on under [`FirstMoves::Bounds`]), as the solution will give it.
    /// Called on the thread that searched it, before that thread goes on.
    fn settled(&self, _m: &RootMove) {}
}

/// A [`Watch`] that hears only the classes done.
struct Classes<'f>(&'f (dyn Fn(usize, usize) + Sync));

impl Watch for Classes<'_> {
    fn classes(&self, done: usize, total: usize) {
        (self.0)(done, total)
    }
}

/// Solves the board: the value, every first move's value and a principal
/// variation. Root classes are searched in parallel; `progress` is told
/// when each finishes.
pub fn solve(sh: &Shared, progress: &(dyn Fn(usize, usize) + Sync)) -> Solution {
    solve_logged(sh, progress, &NoLog)
}

/// [`solve`], taking the first-move values `log` knows and recording the others.
pub fn solve_logged(
    sh: &Shared,
    progress: &(dyn Fn(usize, usize) + Sync),
    log: &dyn RootLog,
) -> Solution {
    solve_watched(sh, &Classes(progress), log)
}

/// [`solve_logged`], telling `watch` each test as it starts and each
/// class as it finishes.
pub fn solve_watched(sh: &Shared, watch: &dyn Watch, log: &dyn RootLog) -> Solution {
    let root = sh.start();
    let sign = if root.to_move() == Color::Black {
        1
    } else {
        -1
    };
    if root.outcome().is_some() {
        return Solution {
            value: sign * mover_value(&root),
            moves: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            resumed: 0,
            resumed_nodes: 0,
        };
    }
    // Step 1. The first moves, in classes of symmetric moves.
    let mut classes: Vec<Vec<Move>> = Vec::new();
    for m in root.legal_moves() {
        if classes.iter().any(|c| c.contains(&m)) {
            continue;
        }
        let mut class: Vec<Move> = sh.symmetries().iter().map(|a| a.map_move(m)).collect();
        class.sort();
        class.dedup();
        class.retain(|&x| x != m);
        class.insert(0, m);
        classes.push(class);
    }
    // Placings first: their bounds help the pass class more than the other
    // way round. (Solving the centre first cuts a one-thread 3x3 from 396 M
    // to 145 M nodes but makes two threads slower and far less steady.)
    classes.sort_by_key(|c| c[0] == Move::Pass);
    watch.classes(0, classes.len());
    // Step 2. Each class's exact value: the placings in parallel, then the
    // pass once their bounds are in the table. (Searched alongside them,
    // the pass class of 1x9 took 20 M nodes or more; after them, a few.)
    //
    // Under `--first-moves bounds` a class stops once proved worse than
    // another (`Shared::floor`, the root mover's side), so the classes
    // that may be best should be searched first: every placing class
    // runs one test, then the rest run, the most promising (highest upper
    // bound) first, and a class that may or may not reach the best value
    // so far is tested at it (`Search::bracket_from`). (1x10 on one
    // thread: its first class, A1, is the worst, and its exact value was a
    // superko fight of 270 M nodes and more before df-pn kept its numbers
    // by depth, and still is with a proof to follow; after one test it is
    // proved worse than B1's.)
    let bounds = sh.config.first_moves == FirstMoves::Bounds;
    let (resumed, resumed_nodes) = (AtomicU64::new(0), AtomicU64::new(0));
    // Nodes earlier runs spent on the finished tests of classes valued now.
    let bounded_nodes = AtomicU64::new(0);
    // Each class's bounds (root mover's side) and the nodes they took.
    let start: Vec<Bracket> = classes
        .iter()
        .map(|class| {
            if let Some((v, nodes)) = log.known(class[0]) {
                resumed.fetch_add(1, Ordering::Relaxed);
                resumed_nodes.fetch_add(nodes, Ordering::Relaxed);
                return Bracket {
                    lo: sign * v,
                    hi: sign * v,
                    nodes: 0,
                };
            }
            match log.known_bounds(class[0]) {
                Some((lo, hi, nodes)) => {
                    bounded_nodes.fetch_add(nodes, Ordering::Relaxed);
                    let (lo, hi) = if sign == 1 { (lo, hi) } else { (-hi, -lo) };
                    Bracket { lo, hi, nodes }
                }
                None => Bracket {
                    lo: -sh.range,
                    hi: sh.range,
                    nodes: 0,
                },
            }
        })
        .collect();
    for b in &start {
        sh.floor.fetch_max(b.lo, Ordering::Relaxed);
    }
    let done = AtomicU64::new(0);
    // Each class's tests, for threads left without a class to help with
    // (df-pn only: alpha-beta's tests do not hand over).
    let helping = rayon::current_num_threads() > 1 && sh.method == Method::ProofNumber;
    let slots: Vec<Arc<Helped>> = classes.iter().map(|_| Arc::default()).collect();
    let help_any = || -> bool {
        let running = (0..classes.len()).filter(|&k| slots[k].current().is_some());
        let Some(k) = least_helped(running, &slots) else {
            return false;
        };
        let mut g = sh.start();
        g.play(classes[k][0]);
        let mut s = Search::new(sh);
        s.numbers_salt = numbers_salt(classes[k][0]);
        if sh.config.debug {
            eprintln!("helping class {}", sh.board.move_name(classes[k][0]));
        }
        watch.helpers(classes[k][0], slots[k].join());
        s.help(&mut g, &slots[k]);
        watch.helpers(classes[k][0], slots[k].leave());
        true
    };
    let help = helping.then_some(&help_any as &(dyn Fn() -> bool + Sync));
    // Runs at most `tests` more tests on a class.
    let advance = |k: usize, b: Bracket, tests: u32| -> Bracket {
        let class = &classes[k];
        if b.lo == b.hi {
            return b;
        }
        let mut g = sh.start();
        g.play(class[0]);
        let mover = g.to_move();
        // Black's side from the mover's side after the first move.
        let black = |(lo, hi): (i32, i32)| if sign == 1 { (-hi, -lo) } else { (lo, hi) };
        if sh.config.debug {
            let limit = match tests {
                u32::MAX => "until settled".to_string(),
                n => format!("{n} tests at most"),
            };
            eprintln!("{}, {limit}", class_text(sh, class[0], "", b.lo, b.hi));
        }
        let mut s = Search::new(sh);
        s.numbers_salt = numbers_salt(class[0]);
        s.class_hi = bounds.then_some(b.hi);
        if helping {
            s.helped = Some((slots[k].clone(), 0));
        }
        let (lo, hi) = s.bracket_from(
            &mut g,
            (-b.hi, -b.lo),
            tests,
            &mut |x| watch.testing(class[0], Some(Test::new(class[0], mover, x))),
            &mut |lo, hi, nodes| {
                sh.floor.fetch_max(-hi, Ordering::Relaxed);
                if sh.config.debug {
                    // Named, as two threads' "exact:" lines interleave.
                    eprintln!(
                        "{}, {} nodes in all",
                        class_text(sh, class[0], "now ", -hi, -lo),
                        b.nodes + nodes,
                    );
                }
                let (lo, hi) = black((lo, hi));
                log.record_bounds(class[0], lo, hi, b.nodes + nodes)
            },
        );
        watch.testing(class[0], None);
        let nodes = b.nodes + s.visited();
        if lo == hi {
            log.record(class[0], sign * -lo, nodes);
        }
        Bracket {
            lo: -hi,
            hi: -lo,
            nodes,
        }
    };
    // Tells `watch` the class is settled, once, unless an earlier run
    // valued it (its proof is not in this run's table).
    let told: Vec<AtomicBool> = classes.iter().map(|_| AtomicBool::new(false)).collect();
    let settle = |k: usize, b: Bracket| {
        if start[k].lo != start[k].hi && !told[k].swap(true, Ordering::Relaxed) {
            watch.settled(&root_move(classes[k].clone(), b, sign));
        }
    };
    // A class's last call: exact, or given up under bounds.
    let last = |k: usize, b: Bracket| -> Bracket {
        let out = advance(k, b, u32::MAX);
        let finished = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
        watch.classes(finished, classes.len());
        settle(k, out);
        out
    };
    // A class's first round under bounds: one test. A class it settles
    // (exact, or given up for good: `Shared::given_up`) is told now,
    // while the table holds what proved it, rather than in its last
    // call, after every other class's first test and the best classes'
    // whole search (1x15 `--suicide forbidden`: E1 and G1 were given up
    // in the first round, and 2 G nodes followed).
    let first_round = |k: usize| -> Bracket {
        let b = advance(k, start[k], 1);
        if b.lo == b.hi || sh.given_up(b.hi) {
            settle(k, b);
        }
        b
    };
    let placings = classes.len() - usize::from(classes.last().is_some_and(|c| c[0] == Move::Pass));
    // (class index, bracket) of each placing class, in the order the
    // classes were started; put back in the classes' order below.
    // The pass class's value, when it runs before the placings' last calls.
    let mut pass = None;
    let mut out: Vec<(usize, Bracket)> = if bounds {
        let first = guide_order(sh, &classes[..placings]);
        let mut rest: Vec<(usize, Bracket)> = in_order(
            placings,
            |i| {
                let k = first[i];
                (k, first_round(k))
            },
            help,
        );
        // No placing proved a lower bound: the pass class's value is the
        // first floor, and it is cheap (the opponent may pass back), so it
        // runs now and the placings' fights below can be given up against
        // it. (One thread, 1x13 `--suicide forbidden`: 56 M nodes in 79 s
        // against more than 900 s; 1x9 252 K to 165 K nodes.)
        if placings < classes.len() && rest.iter().all(|(_, b)| b.lo == -sh.range) {
            pass = Some(last(placings, start[placings]));
        }
        rest.sort_by_key(|&(k, b)| (-b.hi, k));
        in_order(
            placings,
            |i| {
                let (k, b) = rest[i];
                (k, last(k, b))
            },
            help,
        )
    } else {
        let order = extremes_first(sh, &classes[..placings]);
        in_order(
            placings,
            |i| (order[i], last(order[i], start[order[i]])),
            help,
        )
    };
    out.sort_by_key(|&(k, _)| k);
    let mut values: Vec<Bracket> = out.into_iter().map(|(_, b)| b).collect();
    if placings < classes.len() {
        values.push(pass.unwrap_or_else(|| last(placings, start[placings])));
    }
    let mut moves: Vec<RootMove> = classes
        .into_iter()
        .zip(values)
        .map(|(class, b)| root_move(class, b, sign))
        .collect();
    moves.sort_by_key(|m| {
        let bound = m.claim != Claim::Exact;
        (-sign * m.value, bound, m.mv != Move::Pass, m.mv)
    });
    let value = moves[0].value;
    debug_assert_eq!(moves[0].claim, Claim::Exact, "the best class is exact");
    // Step 3. A principal variation: at each node a move whose child keeps the value.
    let mut pv = vec![moves[0].mv];
    let mut g = sh.start();
    g.play(moves[0].mv);
    let mut s = Search::new(sh);
    while g.outcome().is_none() {
        let want = if g.to_move() == Color::Black {
            value
        } else {
            -value
        };
        // The table's move first, unless every class's exact value and a
        // proof follow: a move that does not keep the value must be
        // refuted, under superko that can be a long fight, and only where
        // both sides' strategies of every class are extracted after it do
        // those refutations pay. One thread: 1x10 `--first-moves bounds`
        // 74 M nodes for the variation in legal order against 0.3 M for
        // the classes' values, and about 0.1 M table move first; 1x10
        // `--suicide forbidden` with its proof, 33 M for the value and 38 M
        // for the proof in legal order, 115 M for the proof table move
        // first (its extraction proved again what the variation had).
        let table_first = bounds || !sh.config.proof_follows;
        let mut next = None;
        let first = table_first
            .then(|| s.table_move(&g))
            .flatten()
            .filter(|&m| g.is_legal(m));
        let rest = g.legal_moves().into_iter().filter(|&m| Some(m) != first);
        for m in first.into_iter().chain(rest) {
            let u = g.play(m);
            let keeps = s.at_most(&mut g, -want);
            g.undo(u);
            if keeps {
                next = Some(m);
                break;
            }
        }
        let m = next.expect("some move keeps the value");
        g.play(m);
        pv.push(m);
    }
    drop(s);
    Solution {
        value,
        moves,
        pv,
        nodes: sh.nodes() - sh.proof_nodes()
            + resumed_nodes.load(Ordering::Relaxed)
            + bounded_nodes.load(Ordering::Relaxed),
        resumed: resumed.into_inner() as usize,
        resumed_nodes: resumed_nodes.into_inner(),
    }
}

/// A class's bounds (the root mover's side) as the debug log gives them:
/// "class B1: from +1 to +12 (root mover's side)", `now` after "B1: ".
fn class_text(sh: &Shared, first: Move, now: &str, lo: i32, hi: i32) -> String {
    format!(
        "class {}: {now}from {} to {} (root mover's side)",
        sh.board.move_name(first),
        log_value(&sh.rules, lo),
        log_value(&sh.rules, hi)
    )
}

/// The class `class` as the solution gives it, from its bracket (the root
/// mover's side; `sign` is 1 where Black is the root mover, −1 where White).
fn root_move(class: Vec<Move>, b: Bracket, sign: i32) -> RootMove {
    // A class given up on is worth at most `hi` to the root mover.
    let claim = match (b.lo == b.hi, sign) {
        (true, _) => Claim::Exact,
        (false, 1) => Claim::AtMost,
        (false, _) => Claim::AtLeast,
    };
    RootMove {
        mv: class[0],
        class,
        value: sign * b.hi,
        claim,
    }
}

/// What is proved of a first-move class: its value (the root mover's
/// side) lies in `lo..=hi`, found in `nodes` nodes (earlier runs' too).
#[derive(Clone, Copy, Debug)]
struct Bracket {
    lo: i32,
    hi: i32,
    nodes: u64,
}

/// The order of the first round of tests under `--first-moves bounds`:
/// the classes the guide rates best for the root mover first (its upper
/// bound, then its lower one, from the root mover's side), so
/// that the floor is set early and the classes after are first asked
/// whether they reach it. Without a guide, the classes' own order. 4x5:
/// in board order the corner class came second, and its first test, at
/// the guide's −20, took 61.7 M nodes (with the proof to follow) before
/// the centre's +20 was known; asked at the floor, the corner and the
/// edge gave up within 1.4 M each.
fn guide_order(sh: &Shared, classes: &[Vec<Move>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..classes.len()).collect();
    if let Some(rating) = ratings(sh, classes) {
        order.sort_by_key(|&k| (std::cmp::Reverse(rating[k]), k));
    }
    order
}

/// The guide's bracket on each class from the root mover's side, upper
/// bound first (hi, lo), if a guide was built.
fn ratings(sh: &Shared, classes: &[Vec<Move>]) -> Option<Vec<(i32, i32)>> {
    let guide = sh.guide()?;
    let rating = classes
        .iter()
        .map(|class| {
            let mut g = sh.start();
            g.play(class[0]);
            // The mover's side after the first move, to the root mover's.
            let (lo, hi) = guide.range_at(&g);
            (-lo, -hi)
        })
        .collect();
    Some(rating)
}

/// The order of the classes when each gets its exact value: where the
/// guide values the best class and the worst one exactly, and they
/// differ, those two first, then the others in the classes' order; else
/// the classes' order. The two extremes are the largest proofs (on 3x6,
/// "Black takes all 18" after the centre C2 and "White takes all 18"
/// after the corner A1), and each is far cheaper once the other's
/// results are in the table: the corner's test took 19–30 M nodes when
/// it ran first beside the edge classes and 4.8 M after them. Value only,
/// 2 threads, 3x6 `--tt-mb 1024` (2026-11-30, three runs each): 31–36 M
/// nodes against 44–47 M, the search after the guide 14.8–17.0 s
/// against 19.2–22.7 s.
///
/// Not where a repetition is a tie ([`Rules::suicide_ties`]): the guide's
/// game scores an endless one as the worst or best result, not 0, so its
/// extremes are not that game's; and reordered there, the results tests
/// on 2x4 and 3x3 (one thread, with the proof, closed strategies off)
/// passed 24 GB and were killed, where the same solves with closed
/// strategies sought past 65,536 owner nodes (the default) and their
/// `verify` stayed under 620 MB.
///
/// [`Rules::suicide_ties`]: crate::engine::rules::Rules::suicide_ties
fn extremes_first(sh: &Shared, classes: &[Vec<Move>]) -> Vec<usize> {
    match ratings(sh, classes) {
        Some(rating) if !sh.rules.suicide_ties() => extremes_order(&rating),
        _ => (0..classes.len()).collect(),
    }
}

/// [`extremes_first`] on the brackets `rating` ((hi, lo), the root
/// mover's side): of equally rated classes the first counts.
fn extremes_order(rating: &[(i32, i32)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rating.len()).collect();
    let exact = |k: usize| rating[k].0 == rating[k].1;
    let best = (0..rating.len()).max_by_key(|&k| (rating[k], std::cmp::Reverse(k)));
    let worst = (0..rating.len()).min_by_key(|&k| (rating[k], k));
    if let (Some(b), Some(w)) = (best, worst)
        && exact(b)
        && exact(w)
        && rating[b] != rating[w]
    {
        order.retain(|&k| k != b && k != w);
        order.splice(0..0, [b, w]);
    }
    order
}

/// Of the `running` classes, the one with the fewest helpers (the first
/// of those): on more than two threads idle ones spread over the classes
/// still running rather than all joining the first.
fn least_helped(running: impl Iterator<Item = usize>, slots: &[Arc<Helped>]) -> Option<usize> {
    running.min_by_key(|&k| slots[k].helpers())
}

/// `f(0)`, ..., `f(n − 1)` on the current pool's threads, each thread
/// taking the next index in order (a parallel iterator splits the range,
/// so a second thread would start in its middle), the results in order.
/// With `help`, every thread runs, and one that finds no index left
/// calls `help` until every `f` has returned (`help` says whether it
/// found work; if not, the thread waits a millisecond before asking
/// again); without, at most `n` threads run.
fn in_order<R: Send>(
    n: usize,
    f: impl Fn(usize) -> R + Sync,
    help: Option<&(dyn Fn() -> bool + Sync)>,
) -> Vec<R> {
    let (next, finished) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let out: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    rayon::scope(|s| {
        let threads = rayon::current_num_threads();
        for _ in 0..if help.is_some() {
            threads
        } else {
            threads.min(n)
        } {
            s.spawn(|_| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let r = f(i);
                    *out[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
                    finished.fetch_add(1, Ordering::Release);
                }
                while let Some(help) = help.filter(|_| finished.load(Ordering::Acquire) < n) {
                    if !help() {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                }
            });
        }
    });
    out.into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every index ran")
        })
        .collect()
}

/// The salt of a first-move class's df-pn numbers ([`Search::numbers_salt`]):
/// each class steers by its own. Under superko the numbers a class leaves
/// were counted under another history, and on 1xn boards, where the
/// classes run side by side on two threads, they sent tests into superko
/// fights. Value only, 2 threads, numbers per class against shared: 1x8
/// 0.10 M to 0.18 M nodes in ten runs against 0.1 M to 99 M (five over
/// 1 M, by how the threads met); 1x10 `--suicide forbidden` 2.2, 0.8 and
/// 0.8 s against 0.9, 0.7 and 20.7 s. On grids it is about even: 4x4 1.05
/// times the time (5 pairs), situational 5.3 s against 5.7 s, `none
/// --suicide forbidden` 2.25 s against 2.12 s, 2x8 4.7 s against 4.8 s.
fn numbers_salt(first: Move) -> u64 {
    (u64::from(crate::format::codes::code(first)) + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::rules::{Rules, Ruleset, Superko};
    use crate::search::solver::{Config, Method};

    /// 3x3's guide knows the centre (+9) is the best first move, so the
    /// first round of bounds starts there, and exact values start with
    /// the centre and a corner (-9); without a guide the order is the
    /// classes' own.
    #[test]
    fn the_first_round_starts_where_the_guide_rates_best() {
        let board = Board::parse("3x3").unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        let classes: Vec<Vec<Move>> = (0..9).map(|p| vec![Move::Place(p)]).collect();
        let config = |guide| Config {
            tt_mb: 16,
            method: Method::ProofNumber,
            guide,
            ..Config::default()
        };
        let sh = Shared::new(&board, &rules, config(true)).unwrap();
        assert!(sh.guide().is_some());
        let order = guide_order(&sh, &classes);
        assert_eq!(order[0], 4, "{order:?}");
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..9).collect::<Vec<_>>());
        let plain = Shared::new(&board, &rules, config(false)).unwrap();
        assert_eq!(guide_order(&plain, &classes), (0..9).collect::<Vec<_>>());
        // The guide values the centre +9 and the corners -9 exactly (the
        // edges within +3..+9, from (hi, lo)): the centre, then the first
        // corner.
        let rating = ratings(&sh, &classes).unwrap();
        assert_eq!(
            (rating[4], rating[0], rating[1]),
            ((18, 18), (-18, -18), (18, 6))
        );
        let order = extremes_first(&sh, &classes);
        assert_eq!(order, [4, 0, 1, 2, 3, 5, 6, 7, 8]);
        assert_eq!(extremes_first(&plain, &classes), (0..9).collect::<Vec<_>>());
        // Where a repetition is a tie the guide's game is another one:
        // the same guide, but the classes keep their order.
        let ties = Rules {
            superko: Superko::None,
            ..rules
        };
        assert!(ties.suicide_ties());
        let sh = Shared::new(&board, &ties, config(true)).unwrap();
        assert_eq!(ratings(&sh, &classes).unwrap()[4], (18, 18));
        assert_eq!(extremes_first(&sh, &classes), (0..9).collect::<Vec<_>>());
    }

    /// The best and the worst class go first where the guide values both
    /// exactly and they differ; else the classes keep their order.
    #[test]
    fn exact_values_start_with_the_extremes() {
        let exact = |v: &[i32]| v.iter().map(|&x| (x, x)).collect::<Vec<_>>();
        assert_eq!(
            extremes_order(&exact(&[-36, 0, -20, 10, 36, 2])),
            [4, 0, 1, 2, 3, 5]
        );
        assert_eq!(extremes_order(&exact(&[5, -3, 5, -3])), [0, 1, 2, 3]);
        assert_eq!(extremes_order(&exact(&[1, 7, -3, 7, -3])), [1, 2, 0, 3, 4]);
        assert_eq!(extremes_order(&exact(&[4, 4, 4])), [0, 1, 2], "all equal");
        // The best not exact: no change.
        assert_eq!(extremes_order(&[(0, 0), (9, 3), (-5, -5)]), [0, 1, 2]);
        // The worst not exact: no change.
        assert_eq!(extremes_order(&[(0, 0), (9, 9), (-1, -5)]), [0, 1, 2]);
        assert_eq!(extremes_order(&[]), Vec::<usize>::new());
    }

    /// A new helper joins the running class with the fewest helpers, the
    /// first of them on a tie, and none when no class runs.
    #[test]
    fn helpers_spread_over_the_running_classes() {
        let helpers: Vec<Arc<Helped>> = [2, 1, 0, 1]
            .map(|n| {
                let h = Arc::<Helped>::default();
                (0..n).for_each(|_| _ = h.join());
                h
            })
            .into();
        assert_eq!(least_helped([0, 1, 3].into_iter(), &helpers), Some(1));
        assert_eq!(least_helped([0, 1, 2, 3].into_iter(), &helpers), Some(2));
        assert_eq!(least_helped([0].into_iter(), &helpers), Some(0));
        assert_eq!(least_helped([3, 1].into_iter(), &helpers), Some(3));
        assert_eq!(least_helped(std::iter::empty(), &helpers), None);
    }
}
