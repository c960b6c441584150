//! The keys a node is stored under: its key in the canonical frame, the
//! key with the set of the history's states the game below can ask about
//! for the second table,
//! and the symmetric hash of a state for the summaries' Bloom filters.

use crate::engine::game::{Game, HistoryEntry, state_index};
use crate::engine::position::Position;
use crate::engine::rules::Ruleset;
use crate::engine::types::{PointSet, bits};
use crate::search::reach::mark;
use crate::search::solver::Shared;
use crate::search::tt::{SET_WORDS, SetKey, TableKey};

impl Shared<'_> {
    /// A hash of the state (colouring and, but under positional superko,
    /// the player to move) that every symmetry in use leaves unchanged
    /// (that of the least image of (colouring, player to move), the
    /// colour swap among the symmetries where it is used), for the
    /// summaries' Bloom filters. The player to move counts because under
    /// situational superko a colouring recurs with the other player to
    /// move without being a repetition: with suicide a lone stone's suicide acts as a
    /// pass, and star:4 `conway` found almost every entry unusable.
    #[inline]
    pub(super) fn state_hash(&self, k: HistoryEntry) -> u64 {
        let pos = k.pos;
        let syms = &self.syms;
        let mut best = (pos, k.to_move as u8);
        for i in 1..syms.len() {
            let q = (syms.map_pos(i, pos), syms.map_to_move(i, k.to_move) as u8);
            if q < best {
                best = q;
            }
        }
        let (best, to_move) = best;
        let mut h = best.black.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ best
                .white
                .0
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .rotate_left(23);
        h ^= h >> 31 ^ (to_move as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
        h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 57
    }

    /// On a board small enough for [`Shared::set_table`](Shared): the key with the set
    /// of the history's states, in the key's frame `sym`, and its hash.
    ///
    /// Why it is sound: the rules look at the history only to ask whether
    /// a state is in it (superko, and repetition ties under `--superko
    /// none`); the points basic ko forbids, passes and
    /// prisoners are in the key. So two histories with the same set reach
    /// the same value, and a bound stored under the set needs no summary;
    /// nor under the set of only the history's states the game below can
    /// ask about, which is the set used (module
    /// [`reach`](crate::search::reach) says why).
    ///
    /// Why it pays: under situational superko with suicide allowed, a lone
    /// stone's suicide is a pass that each state allows once, so nearly
    /// every result hangs on the history and the summaries rule the
    /// table's bounds out. With the set table (one thread): star:4
    /// `conway --superko situational` 1.52 G nodes (430 s) -> 1.36 M
    /// (1.4 s), cycle:5 the same 26 M -> 0.19 M, complete:4
    /// `conway-replacement` from over 20 s to 13,907 nodes.
    pub(super) fn set_key(&self, g: &Game, key: &TableKey, sym: usize) -> Option<(SetKey, u64)> {
        // The states of the history the game below can ask about (module
        // `reach`), mapped into the key's frame. The graph is there
        // exactly where the set table is.
        let touched = self
            .set_graph
            .as_ref()?
            .touched(state_index(g.current_key()), g.seen());
        let mut set = touched;
        if sym != 0 {
            set = [0u64; SET_WORDS];
            let perm = &self.set_perm[sym];
            for (w, &word) in touched.iter().enumerate() {
                for b in bits(word) {
                    mark(&mut set, perm[64 * w + b as usize] as usize);
                }
            }
        }
        let mut h = key_hash(key);
        for (i, &w) in set.iter().enumerate() {
            h = (h ^ w
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(7 * i as u32 + 3))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        Some((SetKey { key: *key, set }, h))
    }

    /// The key of `g` in the canonical frame (its least image under the
    /// symmetries in use) and the symmetry that maps `g` there.
    pub(super) fn key(&self, g: &Game) -> (TableKey, usize) {
        let s = g.state();
        let rest = (s.passes as u64) << 1;
        let mut extra = s.to_move as u64 | rest;
        // Prisoners decide legality where a pass spends one, and the score under `logical`.
        if self.rules.ruleset.prisoners_matter() {
            extra |= (s.prisoners.black as u64) << 8 | (s.prisoners.white as u64) << 32;
        }
        let aux = if self.rules.ruleset == Ruleset::Koh {
            Position {
                black: s.played,
                white: PointSet::EMPTY,
            }
        } else {
            // Under `--superko none` basic ko's bans (none elsewhere), not
            // the colouring it compares with: that decides nothing else,
            // and most turns leave no ban, so positions reached by
            // different last turns share one entry (3x4 under `--superko
            // none --suicide forbidden`: 2.95 M -> 1.05 M nodes).
            Position {
                black: g.ko_bans(),
                white: PointSet::EMPTY,
            }
        };
        let syms = &self.syms;
        let mut best = (
            TableKey {
                pos: s.pos,
                aux,
                extra,
            },
            0,
        );
        // The colour swap changes the player to move; the rulesets it is
        // used under keep no prisoners in the key.
        debug_assert!(syms.len() == syms.perms.len() || extra == s.to_move as u64 | rest);
        let swapped = (1 - s.to_move as u64) | rest;
        for i in 1..syms.len() {
            let k = TableKey {
                pos: syms.map_pos(i, s.pos),
                // Points, not stones: the same for either colour.
                aux: Position {
                    black: syms.map(i, aux.black),
                    white: syms.map(i, aux.white),
                },
                extra: if syms.swaps(i) { swapped } else { extra },
            };
            // The player to move too: a colouring can be its own image
            // under the swap with the other player to move.
            if (k.pos, k.aux, k.extra) < (best.0.pos, best.0.aux, best.0.extra) {
                best = (k, i);
            }
        }
        best
    }
}

/// The table hash of a key.
pub(crate) fn key_hash(k: &TableKey) -> u64 {
    let mut h = k.pos.black.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= k
        .pos
        .white
        .0
        .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        .rotate_left(17);
    h ^= k
        .aux
        .black
        .0
        .wrapping_mul(0x1656_67B1_9E37_79F9)
        .rotate_left(31);
    h ^= k
        .aux
        .white
        .0
        .wrapping_mul(0x27D4_EB2F_1656_67C5)
        .rotate_left(43);
    h ^= k.extra.wrapping_mul(0x85EB_CA77_C2B2_AE63);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}
