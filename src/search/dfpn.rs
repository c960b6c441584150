//! Threshold proof-number search: "is the value (mover's side) at least
//! x?" decided by depth-first proof-number search (df-pn, Nagai 2002)
//! with the 1+ε trick (Pawlewicz & Lew 2007).
//!
//! # Numbers and results
//!
//! In the φ/δ form each node's own test is "is my value at least t?"; its
//! child's test is "at least 1 − t?" (negamax), φ is the node's proof
//! number and δ its disproof number: φ = min over children of δ, and δ the
//! largest φ of an unsettled child plus one for each other unsettled child
//! (weak proof numbers, Ueda et al. 2008: Nagai's sum counts a
//! transposition once per path and overflowed on cycle:6). A settled child
//! has (φ, δ) = (0, ∞) when its test holds and (∞, 0) when it fails.
//!
//! Only settled results decide anything, and they are the same `Res`
//! the alpha-beta search builds, with the same `Facts`: a node proved
//! through child c has c's upper-bound facts with the state c's move
//! produced added; a node disproved has the facts of every child's lower
//! bound and the superko refusals among its moves. So they are stored in
//! the same table and reused by the same rule (module
//! [`facts`](crate::search::facts)), and a history-dependent result is
//! not stored, exactly as there. The fail-soft value of each child is
//! kept, so a settled node's bound is often wider than the test.
//!
//! The numbers of unsettled nodes only steer: they are shared by the
//! node's key (under superko with its depth, `Search::numbers_salt_at`)
//! in a lossy lockless table ([`Numbers`]), and never read as a proof.
//! The children of the node being searched are kept on a
//! stack with the numbers their last search returned, rather than read
//! back from the table: under superko the same key below a node is a
//! different game, and a table entry overwritten there must not stall
//! the node's loop. So the loop's progress is that of df-pn on the game
//! tree, which terminates.

use crate::engine::game::Game;
use crate::engine::position::Position;
use crate::engine::rules::{Ruleset, Superko};
use crate::engine::types::{Color, Move};
use crate::search::bounds::{for_mover, log_value, score_now, score_with};
use crate::search::facts::{CLEAN, Facts, Res};
use crate::search::pattern;
use crate::search::solver::{Early, Search};
use crate::search::table_use::Node;
use crate::search::tt::{TableError, check_size};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// A settled number: φ or δ of a proved or disproved node.
const INF: u32 = u32::MAX;
/// The largest number an unsettled node may have.
const MAX: u32 = INF - 1;

/// The 1+ε trick: a child is searched until its δ passes the second best
/// sibling's by this factor (in quarters: ε = 1/4), so the search does not
/// hop between siblings whose numbers are close.
const EPS_QUARTERS: u64 = 5;

/// Threads that search one test ([`help`](crate::search::help)) avoid
/// each other's children this many turns below its root, and no deeper.
/// Two threads, value only, seconds, one run each (2026-11-28), with no
/// helper / with the helper alone avoiding / with both avoiding within 4
/// turns: 4x4 `--no-guide` 16.3 / 16.1 / 9.6, situational 4x4 12.3 /
/// 13.6 / 10.3, 2x8 10.5 / 8.7 / 10.8, 1x10 4.3-16.9 (five runs) / 6.3
/// / 4.7 and 8.0. Both avoiding at every depth: 4x4 `--no-guide` 9.1,
/// but 1x10 16-27 s in four runs; within 8 turns: 8.9, 9.0, 11.5, 8.9
/// and 9.6.
const AVOID_TURNS: usize = 4;

/// The number a new node's side starts at where the guide says that
/// side loses its test (see [`Search::initial`]).
const GUIDE_WEIGHT: u32 = 1000;

/// A lossy lockless table of (φ, δ) by node key and test: one word of
/// data and one of data XOR key hash, so a torn write reads as a miss.
/// One slot a key, or a bucket of two (below).
///
/// Where no guide steers, under positional or situational superko, a
/// node's numbers take the place of those that took fewer nodes to count
/// ([`Numbers::keeping_work`]): a test's frontier near its root took the
/// most, and lost to a deeper node's put it had to be counted again.
/// Elsewhere the newest numbers win. One thread, value only, nodes, the
/// newest always → the most work kept (2026-12-02): `--no-guide` 4x4
/// 14.17 M → 13.69 M, 3x5 6.46 M → 6.18 M, 2x8 66.7 M → 64.2 M, and with
/// `--tt-mb 32` (a table far too small, as 5x5's is for its tests) 1.057
/// G → 550 M. Numbers another class's search put, or this one's before
/// a restart, are read under another salt if ever, so their work does
/// not keep them (the slot's tag): 4x4 13.69 M → 13.57 M, 3x5 the same,
/// 2x8 `--tt-mb 32` 550 M → 516 M. Under `--superko none` 3x4 took
/// 19.5 M → 5.20 M and 4x4 `--suicide forbidden` 2.25 M → 2.29 M, but with the proof to follow
/// 2x4 and 3x3 with suicide (16 MB table, one thread, the test
/// `a_tie_keeps_links_whose_moves_repeat_the_history`) ran past 24 GB
/// where they had taken seconds: not used there until that is
/// understood. With the guide under superko: 4x4
/// and situational 4x4 the same, 2x7 768 K → 795 K, and 1xn, where the
/// numbers of old superko fights are the ones that mislead (restarts
/// leave them for that reason, [`RESTART_NODES`](crate::search::solver::RESTART_NODES)),
/// lost: 1x10 8.62 M → 11.0 M, 1x11 18.5 M → 27.3 M, 1x13 `--first-moves
/// bounds` 25.4 M → 40.1 M (without suicide 37.4 M → 46.5 M; 1x10
/// without suicide 3.65 M → 3.09 M, the one gain).
pub struct Numbers {
    slots: Vec<[AtomicU64; 2]>,
    keep_work: bool,
}

impl Numbers {
    /// A table of about `mb` megabytes, or why it cannot be had.
    pub fn try_new(mb: usize) -> Result<Numbers, TableError> {
        check_size(mb)?;
        let n = ((mb.max(1) << 20) / 16).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| TableError::Refused { mb })?;
        crate::search::tt::advise_huge(&mut slots);
        slots.par_extend(
            (0..n)
                .into_par_iter()
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)]),
        );
        Ok(Numbers {
            slots,
            keep_work: false,
        })
    }

    /// Whether a key has a bucket of two slots, where a put replaces the
    /// numbers that took less work (`true`), or one slot, where the newest
    /// numbers win (`false`).
    pub fn keeping_work(mut self, keep: bool) -> Numbers {
        self.keep_work = keep;
        self
    }

    /// The slots of `h`'s bucket: two with [`Numbers::keeping_work`], else one.
    fn bucket(&self, h: u64) -> &[[AtomicU64; 2]] {
        let n = self.slots.len();
        if self.keep_work && n >= 2 {
            let b = ((h as u128 * (n / 2) as u128) >> 64) as usize;
            &self.slots[2 * b..2 * b + 2]
        } else {
            let i = ((h as u128 * n as u128) >> 64) as usize;
            &self.slots[i..i + 1]
        }
    }

    fn get(&self, h: u64) -> Option<(u32, u32)> {
        for s in self.bucket(h) {
            let (check, data) = (s[0].load(Ordering::Relaxed), s[1].load(Ordering::Relaxed));
            if (check ^ data) & !LOW_BITS == h & !LOW_BITS && data != 0 {
                return Some((((data >> 32) as u32).max(1), (data as u32).max(1)));
            }
        }
        None
    }

    /// Fetches the slot of a node with hash `hash` and test `t` into the
    /// cache, so that reading it later does not wait on memory.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64, t: i32) {
        crate::search::tt::prefetch(&self.bucket(hash_for(hash, t))[0]);
    }

    /// Puts a node's numbers, `work` the nodes its last search took and
    /// `tag` the search's (the top bits of its salt, of which the low 10
    /// are kept): in its own slot of the bucket if it has one, else in
    /// the slot whose numbers took less work to count, an empty one or
    /// one of another tag first. Numbers of another tag (another class,
    /// or before a restart) are read under another salt, if ever: what
    /// they took does not keep them.
    fn put(&self, h: u64, phi: u32, delta: u32, work: u64, tag: u64) {
        let data = (phi.min(MAX) as u64) << 32 | delta.min(MAX) as u64;
        let tag = (tag << WORK_BITS.count_ones()) & TAG_BITS;
        let low = tag | u64::from(64 - work.leading_zeros()).min(WORK_BITS);
        let b = self.bucket(h);
        let mut at = 0;
        let mut least = u64::MAX;
        for (i, s) in b.iter().enumerate() {
            let (check, old) = (s[0].load(Ordering::Relaxed), s[1].load(Ordering::Relaxed));
            if (check ^ old) & !LOW_BITS == h & !LOW_BITS && old != 0 {
                at = i;
                break;
            }
            let w = if old == 0 || check & TAG_BITS != tag {
                0
            } else {
                check & WORK_BITS
            };
            if w < least {
                least = w;
                at = i;
            }
        }
        let s = &b[at];
        s[0].store(((h ^ data) & !LOW_BITS) | low, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

/// The low bits of a slot's check word: log2 of the nodes its numbers
/// took, and above them the tag of the search that put them; the rest
/// checks the key.
const WORK_BITS: u64 = 0x3F;
const TAG_BITS: u64 = 0x3FF << WORK_BITS.count_ones();
const LOW_BITS: u64 = WORK_BITS | TAG_BITS;

impl Search<'_, '_> {
    /// The salt of the numbers of a node with `d` history entries before
    /// it: the class's ([`Search::numbers_salt`]) and, under superko, the
    /// depth's. A state met at another depth is met after another
    /// history, where its numbers misled: 1x10 `--suicide forbidden`, one
    /// thread, value only, took 1.4 M to past 270 M nodes by the size of
    /// the numbers' table (16 MB to 4 GB; the larger, the worse above
    /// 80 MB), and 2.7-3.2 M at every size keyed by depth. Elsewhere
    /// (2026-11-27, one thread): 4x4 6.34 M -> 4.84 M nodes, 2x8 6.51 M
    /// -> 5.34 M, situational 4x4 21.7 M -> 22.5 M, 3x5 2.76 M -> 3.30 M,
    /// 1x11 `--first-moves bounds` 654 K -> 711 K. Under `--superko
    /// none` the history is only the ko point, which the key holds: there
    /// the depth would only cost transpositions (4x4 `none --suicide
    /// forbidden` 2.30 M -> 2.78 M).
    ///
    /// The proof's extraction keys its own numbers by depth too. 1x11
    /// `--first-moves bounds` with its proof, one thread: 1.3 s with
    /// neither, 6.1 s with both, 3.6 s keyed in the extraction only, past
    /// 60 s keyed in the value search only (its extraction then walks
    /// lines the search left unproved by chance). On 2 threads, runs
    /// interleaved (`scripts/stall-rate.sh`): 1x11 past a 30 s cap in 6
    /// of 16 runs before, 1 of 16 now (medians 1.1 s and 10.7 s), but 4 of
    /// 12 in a second set, so about as often; 1x10 `--suicide forbidden`
    /// past a 45 s cap in 4 of 6 runs before, none of 6 now (3.0-6.6 s).
    #[inline]
    pub(super) fn numbers_salt_at(&self, d: u32) -> u64 {
        if self.sh.rules.superko != Superko::None {
            self.numbers_salt ^ u64::from(d + 1).wrapping_mul(0xA076_1D64_78BD_642F)
        } else {
            self.numbers_salt
        }
    }
}

/// The numbers' key: the node's and the test's.
fn numbers_hash(node: &Node, t: i32, salt: u64) -> u64 {
    hash_for(node.hash ^ salt, t)
}

/// [`numbers_hash`] of a node whose key hash is `hash`.
#[inline]
fn hash_for(hash: u64, t: i32) -> u64 {
    (hash ^ (t as i64 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(17)
}

/// A child of a node being searched: its move, the state the move
/// produced, and its numbers or settled result.
#[derive(Clone, Copy)]
pub(super) struct Kid {
    m: Move,
    produced: Position,
    ph: u64,
    phi: u32,
    delta: u32,
    res: Option<Res>,
}

/// What a search of a node returned. (Boxing the result would allocate
/// on the hot path.)
#[allow(clippy::large_enum_variant)]
enum Out {
    Settled(Res),
    Open(u32, u32),
}

impl Search<'_, '_> {
    /// Whether the value of `g` (mover's side) is at least `x`, by df-pn:
    /// a settled [`Res`] for the window (x − 1, x), while the root's proof
    /// number stays below `th_phi` and its disproof number below
    /// `th_delta` (`None`: one reached its limit first). Both `u32::MAX`
    /// searches until settled, unless [`Search::halted`] comes first.
    /// Proof extraction tries each candidate move with a small limit
    /// first, as it does with the depth limit of alpha-beta, so that a
    /// move with a small proof is found before a large search of one in
    /// front of it.
    pub(super) fn dfpn_within(
        &mut self,
        g: &mut Game,
        x: i32,
        th_phi: u32,
        th_delta: u32,
    ) -> Option<Res> {
        let bounded = th_phi != u32::MAX || th_delta != u32::MAX;
        loop {
            match self.step(g, x, th_phi.min(MAX), th_delta.min(MAX)) {
                Out::Settled(r) => return Some(r),
                Out::Open(..) if bounded || self.halted() => return None,
                Out::Open(..) => {}
            }
        }
    }

    /// Visits `g` for "at least `x`?": settled by Steps 1–3 of the
    /// alpha-beta search ([`Search::early`]) or searched by [`Search::mid`].
    fn step(&mut self, g: &mut Game, x: i32, th_phi: u32, th_delta: u32) -> Out {
        self.visit();
        match self.early(g, x - 1, x) {
            Early::Done(r) => Out::Settled(r),
            Early::LeftOpen => unreachable!("df-pn runs no depth-limited iteration"),
            Early::Search { node, tt_best } => self.mid(g, x, th_phi, th_delta, &node, tt_best),
        }
    }

    /// Searches the unsettled node `g` for "at least `x`?" until it is
    /// settled or φ reaches `th_phi` or δ reaches `th_delta`.
    fn mid(
        &mut self,
        g: &mut Game,
        x: i32,
        th_phi: u32,
        th_delta: u32,
        node: &Node,
        tt_best: Option<Move>,
    ) -> Out {
        let start_nodes = self.nodes;
        let base = self.kids.len();
        if self.sh.config.debug && self.nodes % 1_000_000 < 16 {
            eprintln!(
                "  df-pn: {} nodes, depth {}, test >= {}, thresholds {th_phi}/{th_delta}, kids {base}",
                self.nodes,
                g.history().len(),
                log_value(&self.sh.rules, x),
            );
        }
        let mut refused = CLEAN;
        let ply = g.history().len();
        let order = self.order.order(
            g,
            ply,
            tt_best,
            self.sh.table.is_some(),
            self.sh.config.pass_first,
        );
        // Expand: every legal move's child, settled or with its numbers.
        for &m in order.moves() {
            let Some(u) = g.try_play(m) else {
                self.refused(g, m, &mut refused);
                continue;
            };
            let (produced, ph) = self.enter(g, m);
            self.visit();
            let (phi, delta, res) = match self.early(g, -x, 1 - x) {
                Early::Done(r) => settled(&r, 1 - x),
                Early::LeftOpen => unreachable!("df-pn runs no depth-limited iteration"),
                Early::Search { node: child, .. } => {
                    let h = numbers_hash(&child, 1 - x, self.numbers_salt_at(child.d));
                    let (p, d) = self
                        .numbers()
                        .and_then(|t| t.get(h))
                        .unwrap_or_else(|| self.initial(g, 1 - x));
                    (p, d, None)
                }
            };
            g.undo(u);
            self.retreat(g.history().len());
            self.kids.push(Kid {
                m,
                produced,
                ph,
                phi,
                delta,
                res,
            });
            if delta == 0 {
                break;
            }
        }
        let n = self.kids.len() - base;
        if n == 0 {
            // Normal play: no legal turn loses.
            let r = Res {
                v: -1,
                lo: CLEAN,
                hi: refused,
                open: false,
            };
            self.store(node, &r, x - 1, x, Move::Pass, 1);
            return Out::Settled(r);
        }
        // Search the most proving child until the node is settled or a
        // threshold is reached.
        let sh = self.sh;
        let busy = self.helped.is_some().then_some(&sh.busy);
        let avoid = busy.filter(|_| g.history().len() < self.help_root + AVOID_TURNS);
        let out = loop {
            let kids = &self.kids[base..];
            let mut phi = INF;
            let (mut widest, mut open) = (0u32, 0u32);
            // The child to search: the least δ, where a child another
            // thread is inside counts twice ([`help`](crate::search::help)).
            let (mut best, mut least, mut second) = (0, INF, INF);
            for (i, k) in kids.iter().enumerate() {
                phi = phi.min(k.delta);
                let d = match avoid {
                    Some(b) if k.phi != 0 && k.delta != 0 && b.inside(k.ph) => {
                        k.delta.saturating_mul(2).min(MAX)
                    }
                    _ => k.delta,
                };
                if d < least {
                    second = least;
                    least = d;
                    best = i;
                } else if d < second {
                    second = d;
                }
                if k.phi > 0 {
                    widest = widest.max(k.phi);
                    open += 1;
                }
            }
            // Weak proof numbers (Ueda et al. 2008): the widest child's φ
            // plus one per other unsettled child. The sum of Nagai's df-pn
            // counts a transposition once per path: on cycle:6 it passed
            // 2^32 within a few moves.
            let delta = if open == 0 {
                0
            } else {
                widest.saturating_add(open - 1).min(MAX)
            };
            if phi == 0 {
                break Out::Settled(self.proved(g, base, best, node, x, start_nodes));
            }
            if delta == 0 {
                break Out::Settled(self.disproved(base, refused, node, x, start_nodes));
            }
            // A caller's stop or a class given up leaves the node open.
            if phi >= th_phi || delta >= th_delta || self.halted() {
                break Out::Open(phi, delta);
            }
            let (m, kid_phi, kid_ph) = (kids[best].m, kids[best].phi, kids[best].ph);
            let child_th_phi = (th_delta - delta).saturating_add(kid_phi).min(MAX);
            let grown = (second as u64 * EPS_QUARTERS)
                .div_ceil(4)
                .max(second as u64 + 1);
            let child_th_delta = th_phi.min(grown.min(MAX as u64) as u32);
            let u = g.play(m);
            self.enter(g, m);
            if let Some(b) = busy {
                b.enter(kid_ph);
            }
            let r = match self.step(g, 1 - x, child_th_phi, child_th_delta) {
                Out::Settled(r) => settled(&r, 1 - x),
                Out::Open(p, d) => (p, d, None),
            };
            if let Some(b) = busy {
                b.leave(kid_ph);
            }
            g.undo(u);
            self.retreat(g.history().len());
            let kid = &mut self.kids[base + best];
            (kid.phi, kid.delta, kid.res) = r;
        };
        if let Out::Open(phi, delta) = out {
            if let Some(t) = self.numbers() {
                t.put(
                    numbers_hash(node, x, self.numbers_salt_at(node.d)),
                    phi,
                    delta,
                    self.nodes - start_nodes,
                    self.numbers_salt >> 54,
                );
            }
        }
        self.kids.truncate(base);
        out
    }

    /// The numbers of a child not searched yet, for its test "at least
    /// `t`?": from the guide's bracket where it decides the test (with
    /// the ko guide, only an exact one), else from the score now.
    ///
    /// A test the guide's history-free game decides is most often decided
    /// the same way with the history, so the other side's number starts
    /// at [`GUIDE_WEIGHT`] and the search looks there last. One thread,
    /// nodes, against starting from the score (no-ko guide, every bracket
    /// that decides): 2x7 `--superko none --suicide forbidden` 24.97 M ->
    /// 2.55 M (weight 4: 21.4 M, 100: 7.7 M, 1,000 and up: 2.55 M); 3x4
    /// 1.46 M -> 287 K; 4x4 `--superko none --suicide forbidden` 74.4 M ->
    /// 5.2 M.
    ///
    /// In the basic-ko game only an exact bracket decides: an open one
    /// means cycles change the value there, which is where superko and
    /// basic ko part, and trusting it misled the search. Exact only
    /// against every deciding bracket (ko guide, one thread, nodes): 4x4
    /// 9.77 M -> 7.10 M, situational 22.5 M -> 19.8 M, `none --suicide
    /// forbidden` 6.63 M -> 4.89 M, 2x8 15.4 M -> 13.8 M; 3x5 4.12 M ->
    /// 4.55 M and 2x7 1.62 M -> 1.71 M the other way. Without ko every
    /// ko is a cycle, open brackets are the rule, and their bounds still
    /// decide well (4x4 with that guide: 6.7 M nodes, exact only 11.4 M;
    /// 1x9 `--suicide forbidden` 131 K, exact only 327 M).
    fn initial(&self, g: &Game, t: i32) -> (u32, u32) {
        if let Some(guide) = &self.sh.guide {
            let (lo, hi) = guide.range_at(g);
            if lo == hi || !guide.has_ko() {
                if lo >= t {
                    return (1, GUIDE_WEIGHT);
                }
                if hi < t {
                    return (GUIDE_WEIGHT, 1);
                }
            }
            return initial(g, t);
        }
        if self.sh.rules.ruleset.has_score() {
            return unguided(g, t);
        }
        initial(g, t)
    }

    fn numbers(&self) -> Option<&Numbers> {
        self.sh.numbers.as_ref()
    }

    /// The result of a node proved through the disproved child `best`.
    fn proved(
        &mut self,
        g: &Game,
        base: usize,
        best: usize,
        node: &Node,
        x: i32,
        start: u64,
    ) -> Res {
        let k = self.kids[base + best];
        let c = k.res.expect("a settled child has its result");
        let mut lo = c.hi;
        if self.all_sides || k.m != Move::Pass {
            lo.summary.add(k.produced, k.ph);
        }
        let r = Res {
            v: -c.v,
            lo,
            hi: CLEAN,
            open: false,
        };
        let work = self.nodes - start + 1;
        self.order.cutoff(g.to_move(), k.m, g.history().len(), work);
        self.store(node, &r, x - 1, x, k.m, work);
        r
    }

    /// The result of a node all of whose children are proved.
    fn disproved(&mut self, base: usize, mut hi: Facts, node: &Node, x: i32, start: u64) -> Res {
        let mut v = i32::MIN;
        let mut best = Move::Pass;
        for k in &self.kids[base..] {
            let c = k.res.expect("a settled child has its result");
            hi.merge(&c.lo);
            if self.all_sides {
                hi.summary.add(k.produced, k.ph);
            }
            if -c.v > v {
                v = -c.v;
                best = k.m;
            }
        }
        let r = Res {
            v,
            lo: CLEAN,
            hi,
            open: false,
        };
        let work = self.nodes - start + 1;
        self.store(node, &r, x - 1, x, best, work);
        r
    }
}

/// A settled child's numbers for its test "at least `t`?", and its result.
fn settled(r: &Res, t: i32) -> (u32, u32, Option<Res>) {
    if r.v >= t {
        (0, INF, Some(*r))
    } else {
        (INF, 0, Some(*r))
    }
}

/// The numbers of a child not searched yet, for its test "at least `t`?":
/// (1, 2) when the score now already meets `t`, (2, 1) when not. One
/// thread, nodes, against (1, 1): bench 101,409 -> 87,004; 3x4 2.09 M ->
/// 1.88 M; 2x6 2.72 M -> 2.50 M; 1x9 255 K -> 168 K; 2x7 `--superko none
/// --suicide forbidden` 33.0 M -> 31.7 M; 1x8 272 K -> 326 K. A weight of
/// 4 was no better.
fn initial(g: &Game, t: i32) -> (u32, u32) {
    if score_now(g) >= t { (1, 2) } else { (2, 1) }
}

/// The numbers of a child not searched yet where no guide steers (boards
/// over 20 points, a start position, `logical`, `--no-guide`): the
/// losing side's number grows with how far the score, counting each
/// empty point for the nearer colour ([`Position::nearer`],
/// [`Game::score_with`]), is from `t`: (1, 2 + 4d) when it meets `t`
/// by d half points, (2 + 4d, 1) when it misses by d. Where
/// [`initial`] sees only whether the area score meets `t`, and an open
/// board's area is its stones, so its numbers say little.
///
/// One thread, `--no-guide`, value only, nodes (2026-11-28; the weight
/// 4 per half point against 1, 2 and 8: 4x4 55 M, 42 M, 41 M): 4x4
/// 78.4 M -> 38.2 M, `--superko none --suicide forbidden` 70.4 M ->
/// 31.2 M, 3x5 37.9 M -> 18.3 M, 2x7 12.7 M -> 9.3 M, 3x4 1.25 M ->
/// 0.62 M, 2x6 1.45 M -> 1.24 M. With the guide, where its bracket does
/// not decide, it was no better than [`initial`]: 1x10 9.8 M -> 46.6 M,
/// 2x8 5.7 M -> 8.1 M, 3x5 3.4 M -> 2.0 M, situational 4x4 22.7 M ->
/// 14.0 M; with the weight 1/2 per half point, within ±40% either way.
///
/// Under `tromp-taylor` on a grid whose shorter side has two to four
/// points, the score is [`pattern::estimate`] instead, fitted to the
/// guide values of 4x4, 3x5 and 2x7: 3x6 `--no-guide` 354 M -> 148 M
/// nodes, 3x7 after D2 unsettled at 2.9 G -> +21 in 1.14 G (the module
/// doc); and its numbers are [`graded`].
fn unguided(g: &Game, t: i32) -> (u32, u32) {
    if let Some((rows, cols)) = pattern::serves(g.board())
        && g.rules().ruleset == Ruleset::TrompTaylor
    {
        let black_moves = g.to_move() == Color::Black;
        let black = pattern::estimate(&g.position(), rows, cols, black_moves);
        return graded(for_mover(g, black.round() as i32 - g.rules().komi.0), t);
    }
    let e = score_with(g, g.position().nearer(g.board()));
    let w = 2 + 4 * (e - t).unsigned_abs().min(MAX / 8);
    if e >= t { (1, w) } else { (w, 1) }
}

/// The numbers an estimate `e` of the value (mover's side, half points)
/// gives a test at `t`: [`GRADE_BASE`] each where `e` is `t`, the one
/// doubled and the other halved every [`GRADE_STEP`] half points `e` is
/// above `t` (and the other way below), at least 1.
///
/// Why both numbers move: with (1, 2 + 4d) or (2 + 4d, 1), the side
/// expected to win every leaf has number 1 however sure it is, so where
/// the test is far from the estimates ("does White take all 22 after
/// B1?" on 2x11) that side's choices all look alike and df-pn takes
/// them in move order. (And as leaf numbers of about a thousand dwarf
/// the one a sibling adds under weak proof numbers, the numbers
/// presumably back up much as the estimates would: not measured.)
///
/// One thread, `--no-guide`, value only, nodes, (1 or 2 + 4d) against
/// graded (2026-12-08): 4x4 6.00 M -> 3.13 M, `--superko none --suicide
/// forbidden` 4.17 M -> 1.95 M, 3x5 5.16 M -> 2.54 M, 2x7 3.73 M ->
/// 1.59 M, 3x4 234 K -> 92 K; base and step (4, 4) 5.18 M, (64, 16)
/// 3.13 M, (1024, 32) 2.17 M, (4096, 64) 1.93 M on the second 4x4. On
/// the nearer-colour score it lost: Black's cross on 5x5, White to move,
/// "does Black take all 25?", 44.9 M -> 270.9 M nodes (that score
/// reaches `t` exactly where one colour is nearer everywhere, and the
/// old numbers made that (1, 2)).
fn graded(e: i32, t: i32) -> (u32, u32) {
    let d = f64::from(e - t) / GRADE_STEP;
    let n = |x: f64| {
        (GRADE_BASE * x.exp2())
            .round()
            .clamp(1.0, f64::from(MAX / 8)) as u32
    };
    (n(-d), n(d))
}

/// The numbers [`graded`] gives where the estimate meets the test.
const GRADE_BASE: f64 = 1024.0;

/// The half points over which [`graded`] doubles one number and halves
/// the other.
const GRADE_STEP: f64 = 64.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::rules::{Rules, Ruleset};

    /// Graded numbers: equal where the estimate meets the test, one
    /// doubled and the other halved every step away, and at least 1.
    #[test]
    fn graded_numbers() {
        assert_eq!(graded(0, 0), (1024, 1024));
        assert_eq!(graded(64, 0), (512, 2048));
        assert_eq!(graded(-128, 0), (4096, 256));
        assert_eq!(graded(10, 10 + 32), (1448, 724));
        assert_eq!(graded(0, 100_000), (MAX / 8, 1));
    }

    /// Two slots a bucket keep the numbers that took the most work: a
    /// third key put there takes the place of the one that took less, or
    /// of one another search put (another tag), whatever its work. With
    /// one slot a bucket the newest win.
    #[test]
    fn a_bucket_keeps_the_numbers_that_took_most_work() {
        // One bucket (the same high bits), other keys (bits above the work's).
        let (a, b, c) = (
            1u64 << 63,
            (1u64 << 63) + (1 << 20),
            (1u64 << 63) + (2 << 20),
        );
        let t = Numbers::try_new(1).unwrap().keeping_work(true);
        t.put(a, 3, 4, 1_000_000, 0);
        t.put(b, 5, 6, 10, 0);
        assert_eq!((t.get(a), t.get(b)), (Some((3, 4)), Some((5, 6))));
        t.put(c, 7, 8, 1000, 0);
        assert_eq!(
            (t.get(a), t.get(b), t.get(c)),
            (Some((3, 4)), None, Some((7, 8)))
        );
        // Its own slot first, whatever the work.
        t.put(a, 9, 9, 1, 0);
        assert_eq!((t.get(a), t.get(c)), (Some((9, 9)), Some((7, 8))));
        // Numbers of another search's tag give way to any work: b (tag 1)
        // takes the first of two slots of tag 0, then a (tag 1) takes c's,
        // though c took 1000 nodes and b one.
        t.put(b, 5, 6, 1, 1);
        assert_eq!(
            (t.get(a), t.get(b), t.get(c)),
            (None, Some((5, 6)), Some((7, 8)))
        );
        t.put(a, 3, 3, 1, 1);
        assert_eq!(
            (t.get(a), t.get(b), t.get(c)),
            (Some((3, 3)), Some((5, 6)), None)
        );
        let newest = Numbers::try_new(1).unwrap();
        newest.put(a, 3, 4, 1_000_000, 0);
        newest.put(c, 7, 8, 10, 0);
        assert_eq!((newest.get(a), newest.get(c)), (None, Some((7, 8))));
    }

    /// Unguided numbers grow by 4 per half point the nearer-colour score
    /// is from the test; the area score alone would give (2, 1) or (1, 2).
    #[test]
    fn unguided_numbers_follow_the_nearer_score() {
        let board = Board::parse("1x5").unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        let mut g = Game::new(&board, &rules);
        g.play(Move::Place(0));
        // `X....`, White to move: Black is nearer everywhere, −10 for White.
        assert_eq!(unguided(&g, 0), (42, 1));
        assert_eq!(unguided(&g, -10), (1, 2));
        assert_eq!(initial(&g, 0), (2, 1));
        g.play(Move::Place(4));
        // `X...O`, Black to move: the area is 1 to 1, and the middle is as
        // near to both.
        assert_eq!(unguided(&g, 0), (1, 2));
        assert_eq!(unguided(&g, 1), (6, 1));
        assert_eq!(unguided(&g, -3), (1, 14));
    }
}
