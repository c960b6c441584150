//! Using the transposition tables: where a node is stored ([`Node`]),
//! whether a stored bound may be used on the current path, and what is
//! stored. The facts that make this sound are in [`facts`](crate::search::facts).

use crate::engine::game::{Game, HistoryEntry};
use crate::engine::position::Position;
use crate::engine::types::{Move, ToMove};
use crate::search::facts::{CLEAN, Facts, Res};
use crate::search::solver::Search;
use crate::search::syms::map_summary;
use crate::search::tt::{Bound, Entry, NEEDS, SetKey, Summary, TableKey};

/// What Step 3 of the search computes about a node: its keys and where its
/// path's history begins.
pub(super) struct Node {
    /// The key in the canonical frame.
    pub(super) key: TableKey,
    /// Its hash.
    pub(super) hash: u64,
    /// The key with the history's set of states, and its hash, on boards
    /// small enough for the table of history sets.
    pub(super) set: Option<(SetKey, u64)>,
    /// The symmetry that maps the game's frame to the key's.
    pub(super) sym: usize,
    /// How many history entries come before the node ([`Search::external`]).
    pub(super) d: u32,
}

impl Search<'_, '_> {
    /// How many history entries come before the node: those a stored
    /// bound is checked against, and below which a result's dependences
    /// make it unstorable. The last entry is the node's own state, part of
    /// every path to it, except where a pass that spends a prisoner is not
    /// recorded: under situational superko the node's own state may then
    /// be missing, so there the last entry counts as an earlier one (a
    /// bound that needs it, or whose owner produced that state, is checked
    /// against it like any other).
    #[inline]
    pub(super) fn external(&self, g: &Game) -> u32 {
        let n = g.history().len();
        if self.own_unrecorded {
            n as u32
        } else {
            n.saturating_sub(1) as u32
        }
    }

    /// The proof of a stored bound on the current path, if it may be used
    /// there: no state before the current one may be one its owner
    /// produced, unless a tie would keep the bound (`tie_keeps`: 0 is on
    /// its side) under `--superko none` (module [`facts`](crate::search::facts);
    /// cycle:6 with suicide 47,357 -> 1,457 nodes), and every state it
    /// needs is there.
    fn usable(&self, g: &Game, s: usize, b: &Bound, d: u32, tie_keeps: bool) -> Option<Facts> {
        let h = g.history();
        let mut p = Facts { dep: d, ..CLEAN };
        if h.is_empty() {
            return Some(p);
        }
        let inv = self.sh.syms.inverse[s];
        let syms = &self.sh.syms;
        p.summary = map_summary(syms, inv, &b.summary);
        let prefix = &h[..d as usize];
        // A family of colourings (whole regions) has any stone count.
        let (min, max) = if p.summary.has_family() {
            (1, 64)
        } else {
            (p.summary.min, p.summary.max)
        };
        if !(tie_keeps && self.all_sides)
            && g.earlier_with_stones(min, max, d as usize)
                .any(|(i, k)| p.summary.may_contain(&k.pos, self.path[i]))
        {
            return None;
        }
        for &(pos, to_move) in &b.need[..b.needs as usize] {
            let want = HistoryEntry {
                pos: syms.map_pos(inv, pos),
                to_move: syms.map_to_move(inv, to_move),
            };
            let i = prefix.iter().position(|k| *k == want)?;
            p.require(i as u32, want);
        }
        Some(p)
    }

    /// Stores the settled result `r` of `node`, searched with the window
    /// (alpha, beta), its best move `best` and the `work` (nodes) it took:
    /// in the table of history sets every bound it implies, in the table
    /// of summaries the bounds whose facts hold on every path (module
    /// [`facts`](crate::search::facts)).
    pub(super) fn store(
        &mut self,
        node: &Node,
        r: &Res,
        alpha: i32,
        beta: i32,
        best: Move,
        work: u64,
    ) {
        let (s, d) = (node.sym, node.d);
        let Some(table) = &self.sh.table else { return };
        let syms = &self.sh.syms;
        let v = r.v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let game_best = best;
        let best = syms.map_move(s, best).code();
        let work = (64 - work.leading_zeros()) as u8;
        if let (Some((k, h)), Some(t)) = (&node.set, &self.sh.set_table) {
            // Keyed by the history's set: every settled bound holds.
            let b = Bound {
                value: v,
                summary: Summary::NONE,
                need: [(Position::EMPTY, ToMove::Black); NEEDS],
                needs: 0,
            };
            let (lower, upper) = ((r.v > alpha).then_some(b), (r.v < beta).then_some(b));
            t.store(k, *h, lower, upper, best, work);
        }
        let canon = |p: &Facts| {
            let mut b = Bound {
                value: v,
                summary: map_summary(syms, s, &p.summary),
                need: [(Position::EMPTY, ToMove::Black); NEEDS],
                needs: 0,
            };
            // Entries at or after the node are part of the subtree's own path.
            for &(i, k) in &p.need[..p.needs as usize] {
                if i < d {
                    b.need[b.needs as usize] =
                        (syms.map_pos(s, k.pos), syms.map_to_move(s, k.to_move));
                    b.needs += 1;
                }
            }
            b
        };
        let proved = |p: &Facts| p.dep >= d && !p.set_only;
        let lower = (r.v > alpha && proved(&r.lo)).then(|| canon(&r.lo));
        let upper = (r.v < beta && proved(&r.hi)).then(|| canon(&r.hi));
        if (r.v > alpha && !proved(&r.lo)) || (r.v < beta && !proved(&r.hi)) {
            self.counters.unstored += 1;
            let at = self.path_key(node.key, s, d);
            if let Some(paths) = &mut self.paths {
                // Facts in the game's frame: the same path has the same frame.
                let lower = (r.v > alpha).then_some((r.v, r.lo));
                let upper = (r.v < beta).then_some((r.v, r.hi));
                paths.store(at, lower, upper, game_best);
            }
        }
        if lower.is_none() && upper.is_none() {
            return;
        }
        table.store(&node.key, node.hash, lower, upper, best, work);
    }

    /// An entry's best move, in the frame of the game (the key's is `sym`).
    pub(super) fn entry_move(&self, e: &Entry<()>, sym: usize) -> Move {
        let inv = self.sh.syms.inverse[sym];
        self.sh.syms.map_move(inv, Move::from_code(e.best))
    }

    /// Whether this iteration left the entry's node unsettled with as many
    /// turns to go as it has now.
    pub(super) fn left_open(&self, e: &Entry<()>) -> bool {
        e.open
            .is_some_and(|o| o.iteration == self.iteration && self.limit - self.ply <= o.left)
    }

    /// A result from a table entry, if one of its bounds settles the window
    /// and may be used on this path (checked only for bounds that would cut).
    pub(super) fn cutoff(
        &self,
        g: &Game,
        node: &Node,
        e: &Entry<()>,
        alpha: i32,
        beta: i32,
        by_set: bool,
    ) -> Option<Res> {
        let (sym, d) = (node.sym, node.d);
        // Bounds keyed by the history's set of states hold as stored, but
        // the proofs behind them are not kept: results above the node must
        // not go into the table of summaries.
        let p = Facts {
            dep: d,
            set_only: by_set,
            ..CLEAN
        };
        let usable = |b: &Bound, tie_keeps: bool| {
            if by_set {
                Some(p)
            } else {
                self.usable(g, sym, b, d, tie_keeps)
            }
        };
        if let Some(l) = e.lower.filter(|l| l.value as i32 >= beta) {
            if let Some(lp) = usable(&l, l.value <= 0) {
                return Some(Res {
                    v: l.value as i32,
                    lo: lp,
                    hi: p,
                    open: false,
                });
            }
        }
        if let Some(u) = e.upper.filter(|u| u.value as i32 <= alpha) {
            if let Some(up) = usable(&u, u.value >= 0) {
                return Some(Res {
                    v: u.value as i32,
                    lo: p,
                    hi: up,
                    open: false,
                });
            }
        }
        let (l, u) = (e.lower?, e.upper?);
        if l.value == u.value {
            let (lp, up) = (usable(&l, l.value <= 0)?, usable(&u, u.value >= 0)?);
            return Some(Res {
                v: l.value as i32,
                lo: lp,
                hi: up,
                open: false,
            });
        }
        None
    }
}

/// A result from the bounds kept for this very path ([`paths`](crate::search::paths)),
/// if one settles the window (alpha, beta): their facts hold as stored,
/// and the side no bound settles gets the node's own (`dep` = `d`), as in
/// [`Search::cutoff`].
pub(super) fn path_cutoff(
    lower: Option<(i32, Facts)>,
    upper: Option<(i32, Facts)>,
    alpha: i32,
    beta: i32,
    d: u32,
) -> Option<Res> {
    let p = Facts { dep: d, ..CLEAN };
    let res = |v, lo, hi| Res {
        v,
        lo,
        hi,
        open: false,
    };
    match (lower, upper) {
        (Some((v, lo)), _) if v >= beta => Some(res(v, lo, p)),
        (_, Some((v, hi))) if v <= alpha => Some(res(v, p, hi)),
        (Some((v, lo)), Some((u, hi))) if v == u => Some(res(v, lo, hi)),
        _ => None,
    }
}
