//! The facts behind a search result, which decide where a stored bound
//! may be used again.
//!
//! # Why the table is sound under superko
//!
//! The value of a node N (at history index d) depends on the history before
//! it only through the superko tests (and, under `--superko none`, the
//! repetition ties) that the search below N performs against the states
//! `H[0..d)`. (`H[d]` is N's own state, except where a pass that spends a
//! prisoner goes unrecorded: under situational superko N's state may then
//! be missing, so there d is the history's length; see
//! `Search::external`.) The search result is a bound proved by a strategy of one player,
//! the bound's *owner* (the mover for a lower bound, the opponent for an
//! upper bound): the owner's chosen moves and every reply of the other side.
//! Under another history H' that reaches the same state, the same strategy
//! still proves the bound when
//!
//! 1. no reply of the other side was refused because of H[0..d) (under H'
//!    it might be legal and the strategy would not answer it) — tracked as
//!    `dep`, the smallest history index any such refusal referred to; a
//!    bound is stored only when `dep ≥ d`;
//! 2. no state the owner's moves produce is in H'[0..d') (under H' that
//!    move would be refused) — each bound carries a [`Summary`] of the
//!    produced states (stones common to all, stones in any, stone-count
//!    range, a Bloom filter of a hash that the symmetries leave unchanged,
//!    and where a static bound counted enclosed regions whole, the family
//!    of every colouring with an owner stone in them: `benson::ranges`;
//!    under `--superko none` without suicide, where a static bound was
//!    used uncapped, every colouring of its strategy's line, both sides'
//!    states: `bounds::tie_free_cut`), and a stored bound is used only
//!    when no state of the current path before N may be one of them.
//!
//! Replies refused under H' but not under H only remove branches the owner
//! had answered, and passes are never refused. Under `--superko none` a
//! repeated state ends the game as a tie, which changes values both ways,
//! so there the summary covers the states of both sides, each repetition tie
//! counts in `dep`, and the points where basic ko forbids a placing
//! ([`Game::ko_bans`](crate::engine::game::Game::ko_bans)) are part of the key. Under `koh` nothing repeats and the key (with the points
//! played) decides everything.
//!
//! A tie is worth 0 (mover's side too) whatever the komi, so under
//! `--superko none` a lower bound of at most 0, or an upper bound of at
//! least 0, needs no check of its summary: under H' the strategy's lines
//! either go as under H (legality there depends only on the key) or end
//! earlier in a tie because a state was already in H', and 0 keeps the
//! bound. Condition 1 (`dep`, and the needed entries) still holds it to
//! the ties it relied on. A bound a tie does not keep is built only from
//! children's bounds a tie does not keep (a lower bound L > 0 from a
//! child's upper bound −L < 0; an upper bound U < 0 from children's lower
//! bounds of at least −U > 0), so those are checked as before; summaries
//! are kept as before and only the check is skipped (`Search::cutoff`).
//! The proof's links take the same rule, and the checker accepts them by
//! the same argument (module doc of [`crate::verify`]), there with the one
//! ban from before a node spelled out: basic ko on the owner's first move.
//!
//! On boards of at most five points a second table keys bounds by the
//! state *and the exact set of states in the history* ([`SetKey`](crate::search::tt::SetKey)); the
//! rules ask no more of the history than whether a state is in it, so
//! those bounds hold as stored. A result that used one carries no proof
//! for the first table (`set_only`), so it is stored in the second only.
//! The second table also keeps the marks of nodes a depth-limited
//! iteration left open, which under one set of states say little about
//! another.
//!
//! Symmetry: an entry is stored in the canonical frame (the least image of
//! the key under the board's symmetries that fix the start position, and
//! where the rules allow it those followed by the colour swap: module
//! `syms`) and its summaries, needed states and best move are mapped back
//! on use.

use crate::engine::game::HistoryEntry;
use crate::engine::position::Position;
use crate::engine::types::ToMove;
use crate::search::tt::{NEEDS, Summary};

/// A bound's soundness facts (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(super) struct Facts {
    pub(super) summary: Summary,
    /// Smallest history index the bound depends on beyond `need` (`u32::MAX`: none).
    pub(super) dep: u32,
    /// History entries (index, state) the bound requires to be there.
    pub(super) need: [(u32, HistoryEntry); NEEDS],
    pub(super) needs: u8,
    /// A bound of the table of history sets was used: there is no proof
    /// for the table of summaries.
    pub(super) set_only: bool,
}

pub(super) const CLEAN: Facts = Facts {
    summary: Summary::NONE,
    dep: u32::MAX,
    need: [(
        0,
        HistoryEntry {
            pos: Position::EMPTY,
            to_move: ToMove::Black,
        },
    ); NEEDS],
    needs: 0,
    set_only: false,
};

impl Facts {
    /// Records that the bound relies on history entry `i` being `k`.
    #[inline]
    pub(super) fn require(&mut self, i: u32, k: HistoryEntry) {
        if self.need[..self.needs as usize]
            .iter()
            .any(|&(j, _)| j == i)
        {
            return;
        }
        if (self.needs as usize) < NEEDS {
            self.need[self.needs as usize] = (i, k);
            self.needs += 1;
        } else {
            self.dep = self.dep.min(i);
        }
    }

    #[inline]
    pub(super) fn merge(&mut self, o: &Facts) {
        self.set_only |= o.set_only;
        self.summary.merge(&o.summary);
        self.dep = self.dep.min(o.dep);
        for &(i, k) in &o.need[..o.needs as usize] {
            self.require(i, k);
        }
    }
}

/// A search result: `v` with the fail-soft contract of
/// [`Search::search`](crate::search::solver::Search),
/// and the proofs of the lower and upper bound it implies.
#[derive(Clone, Copy, Debug)]
pub(super) struct Res {
    pub(super) v: i32,
    pub(super) lo: Facts,
    pub(super) hi: Facts,
    /// Not settled: a line reached the depth limit. `v` means nothing then.
    pub(super) open: bool,
}

/// The result of a node a line cut short left unsettled.
pub(super) const OPEN: Res = Res {
    v: 0,
    lo: CLEAN,
    hi: CLEAN,
    open: true,
};
