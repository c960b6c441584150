//! The exact-value driver: zero-width tests that gallop, then bisect, the
//! range of values still possible; each test deepened until settled.

use crate::engine::game::Game;
use crate::engine::rules::Ruleset;
use crate::engine::types::Move;
use crate::search::bounds::log_value;
use crate::search::facts::Res;
use crate::search::help::Helped;
use crate::search::keys::key_hash;
use crate::search::solver::{Method, RESTART_POINTS, Search};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Search<'_, '_> {
    /// The exact value of the game `g` from the mover's side, by zero-width
    /// searches that bisect the range of values still possible.
    pub fn exact(&mut self, g: &mut Game) -> i32 {
        self.exact_told(g, &mut |_| {})
    }

    /// [`Search::exact`], calling `testing(x)` as each zero-width test
    /// "is the value (mover's side) at least `x`?" starts.
    pub fn exact_told(&mut self, g: &mut Game, testing: &mut dyn FnMut(i32)) -> i32 {
        let all = (-self.sh.range, self.sh.range);
        let (lo, hi) = self.bracket_from(g, all, u32::MAX, testing, &mut |_, _, _| {});
        assert_eq!(lo, hi, "only a first-move class's search gives up");
        lo
    }

    /// [`Search::exact_told`] of a game whose value (mover's side) is
    /// known to lie in `known` (an earlier run's finished tests), calling
    /// `proved(lo, hi, nodes)` with the bounds and this search's nodes
    /// after each test, and running at most `tests` tests. The bounds it
    /// ends with: equal, unless `tests` ran out or the search gave up on a
    /// first-move class proved worse than another (`Search::class_hi`;
    /// `g`'s mover is then the root mover's opponent, so the class is
    /// worth at most −lo to the root mover).
    pub fn bracket_from(
        &mut self,
        g: &mut Game,
        known: (i32, i32),
        tests: u32,
        testing: &mut dyn FnMut(i32),
        proved: &mut dyn FnMut(i32, i32, u64),
    ) -> (i32, i32) {
        self.sync_path(g);
        let range = self.sh.range;
        let (mut lo, mut hi) = (known.0.max(-range), known.1.min(range));
        assert!(lo <= hi, "known bounds {known:?} are empty");
        // After a pass (the root's pass class) the mover may pass back and
        // end the game: its value is at least the score now, a bound
        // proved without a test, so the tests gallop up from it rather
        // than start at the top of the range. (2 threads, 1x13
        // `--suicide forbidden --first-moves bounds`: the pass class's
        // "is it >= +13?" alone took 132 M nodes; its value is 0.)
        if let Some(l) = self.pass_bound(g) {
            lo = lo.max(l.min(hi));
        }
        // Tests far from the value can cost more than near ones (1x10's
        // "is it ≥ +5?" ran past 100 M nodes; the value is 0 or so), so
        // after the first test at 0 the next ones gallop away from the
        // bound just moved (1, 2, 4, ... half points), and bisect once
        // both bounds have moved.
        //
        // Where the history-free guide knows the position's value, the
        // first test is at that guess, and the gallop goes on from there;
        // where it knows something less, the first test is at the top of
        // the range ([`Shared::first_test`]): tiny boards are often won
        // by the whole board, which the gallop from 0 reached in six tests
        // (4x4 `--superko none`'s worst first move: 111 M nodes in six
        // tests, the last alone 29 M). On 1xn boards the guide knows
        // nothing, and testing the top first made 1x8 four times slower.
        // Without a guide, rectangles of two rows or more start at the
        // whole board too (measured at `Shared::first_test`).
        if lo == hi {
            return (lo, hi);
        }
        // Bounds an earlier run proved count as moved: its gallop or
        // bisection goes on where it was, rather than from the top.
        let (mut ups, mut downs) = (u32::from(lo > -range), u32::from(hi < range));
        let mut x = if ups + downs == 0 {
            self.sh.first_test(g).unwrap_or(0).clamp(lo + 1, hi)
        } else {
            next_test(lo, hi, ups, downs)
        };
        for _ in 0..tests {
            if lo == hi {
                break;
            }
            if let Some(c) = &mut self.class_hi {
                *c = -lo;
            }
            if self.abandoned() {
                break;
            }
            // A class that may or may not reach the best one's value
            // (`floor`, the root mover's side: −hi < floor ≤ −lo) is
            // first asked exactly that: a "no" gives it up.
            let floor = self.sh.floor.load(Ordering::Relaxed);
            if self.class_hi.is_some() && -hi < floor && floor <= -lo {
                x = 1 - floor;
            }
            testing(x);
            let before = self.nodes;
            if let Some((h, n)) = &mut self.helped {
                *n = h.start(x);
                self.help_root = g.history().len();
            }
            let Some(r) = self.test(g, x).or_else(|| self.handed_over()) else {
                break;
            };
            if self.sh.config.debug {
                eprintln!(
                    "exact: is it >= {}? {} ({} nodes)",
                    log_value(&self.sh.rules, x),
                    log_value(&self.sh.rules, r.v),
                    self.nodes - before
                );
            }
            if r.v >= x {
                lo = r.v.min(hi);
                ups += 1;
            } else {
                hi = r.v.max(lo);
                downs += 1;
            }
            proved(lo, hi, self.nodes);
            x = next_test(lo, hi, ups, downs);
        }
        if let Some((h, _)) = &self.helped {
            h.pause();
        }
        (lo, hi)
    }

    /// Helps with the tests the class search `h` runs at `g` (the class's
    /// game) until it runs none (see [`help`](crate::search::help)).
    pub(super) fn help(&mut self, g: &mut Game, h: &Arc<Helped>) {
        self.sync_path(g);
        self.help_root = g.history().len();
        while let Some((n, x)) = h.current() {
            self.helped = Some((h.clone(), n));
            if let Some(r) = self.restarting(g, x) {
                h.settle(n, r);
            }
        }
        self.helped = None;
    }

    /// The result a helper settled this search's test with, if one did.
    fn handed_over(&self) -> Option<Res> {
        let (h, n) = self.helped.as_ref()?;
        h.taken(*n)
    }

    /// Whether a helper settled this search's test, or (a helper's) the
    /// class search no longer runs it.
    #[inline]
    fn helped_over(&self) -> bool {
        self.helped.as_ref().is_some_and(|(h, n)| h.over(*n))
    }

    /// Whether the first-move class this search values is proved worse
    /// than another ([`Search::class_hi`]).
    #[inline]
    pub(super) fn abandoned(&self) -> bool {
        self.class_hi.is_some_and(|hi| self.sh.given_up(hi))
    }

    /// Whether to leave the current test: [`Search::called_off`] or the
    /// node cap reached.
    #[inline]
    pub(super) fn halted(&self) -> bool {
        self.called_off() || self.nodes >= self.node_cap
    }

    /// Whether the current test is no longer wanted: a caller's stop
    /// ([`Shared::stopper`](crate::search::solver::Shared::stopper)), a
    /// class given up ([`Search::abandoned`]), or the test settled by
    /// another thread ([`help`](crate::search::help)).
    #[inline]
    fn called_off(&self) -> bool {
        self.sh.stopped() || self.abandoned() || self.helped_over()
    }

    /// Decides "is the value of `g` at least `x`?" by the configured method:
    /// a settled result for the window (x − 1, x); `None` where df-pn gave
    /// up ([`Search::halted`]; alpha-beta finishes its test).
    fn test(&mut self, g: &mut Game, x: i32) -> Option<Res> {
        match self.sh.method {
            Method::ProofNumber => self.restarting(g, x),
            _ => Some(self.deepening(g, x - 1, x)),
        }
    }

    /// Leaves the df-pn numbers counted so far behind: they are read
    /// under a new salt from here on.
    fn fresh_numbers(&mut self) {
        self.restarts += 1;
        self.numbers_salt ^= self.restarts.wrapping_mul(0x9FB2_1C65_1E98_DF25);
    }

    /// [`Search::dfpn_within`] without a limit, restarted with fresh
    /// numbers each time it has searched
    /// [`restart_budget`] times 2^k nodes since it started or last
    /// restarted (the k-th restart).
    ///
    /// Under superko a test can stall on the numbers it has left itself:
    /// they were counted under other histories, and steer it back into
    /// the same fights. Its settled results stay in the table and hold
    /// after a restart; only the numbers are left behind (read under a
    /// new salt). 1x11, one thread, value only: the first class's test
    /// "at least 5?" ran past 40 s; interrupted after 5 s and resumed
    /// (the table kept, the numbers not) it took 2.2 M nodes, after 20 s
    /// 0.45 M. A new salt alone, without a restart, did not help (six
    /// salts, each past 40 s). Figures at
    /// [`RESTART_NODES`](crate::search::solver::RESTART_NODES).
    fn restarting(&mut self, g: &mut Game, x: i32) -> Option<Res> {
        let cap = self.node_cap;
        let mut budget = restart_budget(self.sh.config.restart_nodes, self.sh.board.len());
        let r = loop {
            self.node_cap = cap.min(self.nodes.saturating_add(budget));
            let r = self.dfpn_within(g, x, u32::MAX, u32::MAX);
            if r.is_some() || self.called_off() || self.nodes >= cap {
                break r;
            }
            self.fresh_numbers();
            budget = budget.saturating_mul(2);
        };
        self.node_cap = cap;
        r
    }

    /// [`Search::test`] with its effort bounded by `limit`: lines cut short
    /// `limit` turns down under alpha-beta, the root's disproof number
    /// below `limit` under df-pn, and its proof number below it too when
    /// `both` (`None`: not settled within it).
    fn test_within(&mut self, g: &mut Game, x: i32, limit: u32, both: bool) -> Option<Res> {
        match self.sh.method {
            Method::ProofNumber => {
                let phi = if both { limit } else { u32::MAX };
                self.dfpn_within(g, x, phi, limit)
            }
            _ => Some(self.within(g, x - 1, x, limit)).filter(|r| !r.open),
        }
    }

    /// Searches `g` with the window (alpha, beta), first with lines cut
    /// short a few turns down, then deeper, until the result is settled.
    ///
    /// Without a limit the first line tried runs to the end of a game,
    /// which under superko can be thousands of turns (3x4 dived past
    /// 11,000); bounds proved by short lines are found first this way, and
    /// each iteration leaves its best moves in the table for the next.
    /// Only settled results are stored, so the value is the same.
    pub(super) fn deepening(&mut self, g: &mut Game, alpha: i32, beta: i32) -> Res {
        // A table must keep the iterations' moves. Under `koh` every game
        // ends within a turn per point, so there are no long lines to cut.
        // Normal play came out slower with it until open siblings were
        // cut short; since then (one thread): Petersen `conway` 218,570 ->
        // 29,437 nodes, cube:3 10.9 M -> 1.3 M, 1x5 `conway-replacement`
        // 10.5 M -> 1,063; cycle:6 26,612 -> 34,974.
        if self.sh.table.is_none() || self.sh.rules.ruleset == Ruleset::Koh {
            return self.search(g, alpha, beta);
        }
        let mut limit = (self.sh.board.len() as u32).max(4);
        loop {
            let before = self.nodes;
            let r = self.within(g, alpha, beta, limit);
            if self.sh.config.debug {
                let n = self.nodes - before;
                eprintln!("  limit {limit}: {n} nodes, open {}", r.open);
            }
            if !r.open {
                return r;
            }
            limit = limit.saturating_mul(2);
        }
    }

    /// One iteration: `search` with lines cut short `limit` turns down
    /// (`u32::MAX`: never, so the result is settled).
    fn within(&mut self, g: &mut Game, alpha: i32, beta: i32, limit: u32) -> Res {
        self.limit = limit;
        self.ply = 0;
        self.iteration = self.sh.iterations.fetch_add(1, Ordering::Relaxed);
        let r = self.search(g, alpha, beta);
        self.limit = u32::MAX;
        r
    }

    /// Nodes this search has visited.
    pub fn visited(&self) -> u64 {
        self.nodes
    }

    /// The best move found at `g` on its own path, if a result that
    /// depends on that path was kept there (proof extraction only).
    pub fn path_move(&mut self, g: &Game) -> Option<Move> {
        self.paths.as_ref()?;
        self.sync_path(g);
        let (key, sym) = self.sh.key(g);
        let at = self.path_key(key, sym, self.external(g));
        self.path_get(&at).map(|(_, _, m)| m)
    }

    /// The table's best move at `g`, if it has an entry.
    pub fn table_move(&self, g: &Game) -> Option<Move> {
        let (key, sym) = self.sh.key(g);
        let hash = key_hash(&key);
        let e = match self.sh.table.as_ref()?.probe(&key, hash) {
            Some(e) => e.facts(),
            None => {
                let (k, h) = self.sh.set_key(g, &key, sym)?;
                self.sh.set_table.as_ref()?.probe(&k, h)?.facts()
            }
        };
        Some(self.entry_move(&e, sym))
    }

    /// Whether the value of `g` (mover's side) is at most `x`, as far as
    /// lines of `limit` turns settle it (`None`: they do not; `u32::MAX`
    /// always settles it). Under df-pn `limit` bounds the root's proof and
    /// disproof numbers instead, and the test also gives up after `nodes`
    /// nodes (`u64::MAX`: never), so only `u32::MAX` with `u64::MAX`
    /// always settles it there.
    pub fn at_most_within(&mut self, g: &mut Game, x: i32, limit: u32, nodes: u64) -> Option<bool> {
        self.bounded_test(g, x, limit, nodes, true)
    }

    /// [`Search::at_most_within`] for a caller that wants the answer "at
    /// most `x`" above all: under df-pn `limit` bounds only the root's
    /// number for that answer (the disproof number of "at least x + 1"),
    /// so the test goes on however hard the other answer looks.
    ///
    /// With both numbers bounded, a move the guide says keeps the bound
    /// could not be shown below a limit of about 1,000: the other
    /// answer's number starts at the guide's weight, 1,000, so the test
    /// stopped at once, and the proof extraction spent each lower limit's
    /// whole share of nodes on the other candidates first. Its proofs, one thread,
    /// nodes searched before and after (file sizes within 1% or smaller):
    /// 1x10 10.9 M -> 1.58 M, 1x11 `--first-moves bounds` 13.9 M -> 0.34 M,
    /// 1x11 `--suicide forbidden` 28.7 M -> 2.32 M (278 -> 229 kB), 1x10
    /// `--suicide forbidden` 4.73 M -> 0.61 M, 4x4 3.52 M -> 1.43 M,
    /// situational 18.7 M -> 7.37 M, 2x8 9.27 M -> 3.16 M, 3x5 1.57 M ->
    /// 0.74 M. The extraction's glances keep both bounded: with only one,
    /// there too, 4x4's proof file grew from 4.08 MB to 4.79 MB.
    pub fn keeps_within(&mut self, g: &mut Game, x: i32, limit: u32, nodes: u64) -> Option<bool> {
        self.bounded_test(g, x, limit, nodes, false)
    }

    fn bounded_test(
        &mut self,
        g: &mut Game,
        x: i32,
        limit: u32,
        nodes: u64,
        both: bool,
    ) -> Option<bool> {
        self.sync_path(g);
        self.node_cap = self.nodes.saturating_add(nodes);
        let r = self.test_within(g, x + 1, limit, both).map(|r| r.v <= x);
        self.node_cap = u64::MAX;
        r
    }

    /// Whether the value of `g` (mover's side) is at most `x`.
    pub fn at_most(&mut self, g: &mut Game, x: i32) -> bool {
        self.sync_path(g);
        let r = self.test(g, x + 1);
        r.expect("only a caller of at_most_within sets the stop, and only a class search gives up")
            .v
            <= x
    }
}

/// The next test "is the value ≥ x?", for some lo < x ≤ hi, after `ups`
/// tests raised lo and `downs` lowered hi: a gallop away from the bound
/// that moved, a bisection once both have.
fn next_test(lo: i32, hi: i32, ups: u32, downs: u32) -> i32 {
    if ups > 0 && downs > 0 {
        lo + (hi - lo + 1) / 2
    } else if downs == 0 {
        lo.saturating_add(1 << ups.saturating_sub(1).min(20))
    } else {
        hi.saturating_sub((1 << (downs - 1).min(20)) - 1)
    }
    .clamp(lo + 1, hi.max(lo + 1))
}

/// Nodes a df-pn test runs before its first restart on a board of
/// `points` points: `restart_nodes` on [`RESTART_POINTS`] points, twice
/// as many for each point more and half as many for each point fewer
/// (`u64::MAX`: never). A small board's test that stalls on numbers from
/// other histories stalls as long, in nodes, as a large one's, where the
/// whole state space is small: 3x3 `--superko none` on 2 threads ran
/// tests to 2^24 nodes (8 s) that settled within a few nodes of the
/// restart.
fn restart_budget(restart_nodes: u64, points: usize) -> u64 {
    if restart_nodes == u64::MAX {
        return u64::MAX;
    }
    let points = points as u32;
    if points >= RESTART_POINTS {
        1u64.checked_shl(points - RESTART_POINTS)
            .and_then(|m| restart_nodes.checked_mul(m))
            .unwrap_or(u64::MAX)
    } else {
        (restart_nodes >> (RESTART_POINTS - points).min(63)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_restart_budget_doubles_with_each_point() {
        assert_eq!(restart_budget(1 << 24, 12), 1 << 24);
        assert_eq!(restart_budget(1 << 24, 16), 1 << 28);
        assert_eq!(restart_budget(1 << 24, 9), 1 << 21);
        assert_eq!(restart_budget(1 << 24, 80), u64::MAX);
        assert_eq!(restart_budget(4, 1), 1);
        assert_eq!(restart_budget(u64::MAX, 3), u64::MAX);
    }
}
