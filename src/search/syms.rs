//! The board's symmetries as the search uses them: byte tables that map
//! point sets, positions and summaries into another frame, and the state
//! numbers' images for the table of history sets.

use crate::engine::game::HistoryEntry;
use crate::engine::position::Position;
use crate::engine::rules::Superko;
use crate::engine::symmetry::Automorphism;
use crate::engine::types::{PointSet, ToMove};
use crate::search::tt::Summary;

/// Per symmetry, the number ([`crate::engine::game::state_index`]) of each state's
/// image: the history's bitmap mapped bit by bit into another frame.
pub(super) fn state_perms(syms: &Syms, n: usize, superko: Superko) -> Vec<Vec<u16>> {
    let positions = 3usize.pow(n as u32);
    let movers: &[ToMove] = if superko == Superko::Positional {
        &[ToMove::Either]
    } else {
        &[ToMove::Black, ToMove::White]
    };
    (0..syms.perms.len())
        .map(|s| {
            let mut perm = vec![0u16; positions * 2];
            for t in 0..positions {
                let pos = crate::engine::game::from_ternary(t as u64, n);
                for &to_move in movers {
                    let from = crate::engine::game::state_index(HistoryEntry { pos, to_move });
                    let to = crate::engine::game::state_index(HistoryEntry {
                        pos: syms.map_pos(s, pos),
                        to_move,
                    });
                    perm[from] = to as u16;
                }
            }
            perm
        })
        .collect()
}

/// The symmetries, with byte tables to map point sets fast.
pub(super) struct Syms {
    pub(super) perms: Vec<Automorphism>,
    /// `fwd[s][k][b]`: image under symmetry s of byte k of a set with value b.
    fwd: Vec<Vec<[u64; 256]>>,
    pub(super) inverse: Vec<usize>,
}

impl Syms {
    pub(super) fn new(perms: Vec<Automorphism>, n: usize) -> Syms {
        let fwd = perms
            .iter()
            .map(|a| {
                (0..8)
                    .map(|k| {
                        let mut t = [0u64; 256];
                        for (b, slot) in t.iter_mut().enumerate() {
                            let set = PointSet(
                                ((b as u64) << (8 * k)) & crate::engine::board::mask_of(n),
                            );
                            *slot = a.set(set).0;
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        let inverse = perms
            .iter()
            .map(|a| {
                perms
                    .iter()
                    .position(|b| (0..n as u8).all(|p| b.point(a.point(p)) == p))
                    .expect("a group")
            })
            .collect();
        Syms {
            perms,
            fwd,
            inverse,
        }
    }

    #[inline]
    pub(super) fn map(&self, s: usize, set: PointSet) -> PointSet {
        if s == 0 {
            return set;
        }
        let t = &self.fwd[s];
        let mut out = 0;
        let mut rest = set.0;
        let mut k = 0;
        while rest != 0 {
            out |= t[k][(rest & 255) as usize];
            rest >>= 8;
            k += 1;
        }
        PointSet(out)
    }

    pub(super) fn map_pos(&self, s: usize, p: Position) -> Position {
        Position {
            black: self.map(s, p.black),
            white: self.map(s, p.white),
        }
    }
}

/// A summary's point sets under symmetry `s`.
pub(super) fn map_summary(syms: &Syms, s: usize, m: &Summary) -> Summary {
    Summary {
        black: syms.map(s, m.black),
        white: syms.map(s, m.white),
        any_black: syms.map(s, m.any_black),
        any_white: syms.map(s, m.any_white),
        ..*m
    }
}
