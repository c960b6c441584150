//! The board's symmetries as the search uses them: byte tables that map
//! point sets, positions and summaries into another frame, and the state
//! numbers' images for the table of history sets.
//!
//! Where the rules treat the colours alike ([`colours_alike`]), every
//! board symmetry also comes with the colours swapped: a state and its
//! image with the colours and the player to move swapped have the same
//! value from the mover's side, and the same future with the roles
//! exchanged, so one table entry serves both. The elements are numbered
//! `0..len()`: `s < P` is board symmetry `s`, `s ≥ P` board symmetry
//! `s − P` followed by the swap (P board symmetries). What pays: after
//! the first move "pass", White's placings lead to the images of the
//! positions after Black's first placings, so the pass class reuses the
//! placing classes' results (3x6 positional, 2 threads: 97 M nodes →
//! 52 M, its pass class's test 31.6 M → 9.6 M). Only where no proof is
//! extracted
//! ([`Config::proof_follows`](crate::search::solver::Config::proof_follows)
//! says why).

use crate::engine::game::HistoryEntry;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Ruleset, Superko};
use crate::engine::symmetry::Automorphism;
use crate::engine::types::{Move, PointSet, ToMove};
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
    (0..syms.len())
        .map(|s| {
            let mut perm = vec![0u16; positions * 2];
            for t in 0..positions {
                let pos = crate::engine::game::from_ternary(t as u64, n);
                for &to_move in movers {
                    let from = crate::engine::game::state_index(HistoryEntry { pos, to_move });
                    let to = crate::engine::game::state_index(HistoryEntry {
                        pos: syms.map_pos(s, pos),
                        to_move: syms.map_to_move(s, to_move),
                    });
                    perm[from] = to as u16;
                }
            }
            perm
        })
        .collect()
}

/// Whether a state's value from the mover's side is that of its image
/// with the colours and the player to move swapped: area scoring with
/// komi 0 (`tromp-taylor`, `ggg`), whose legality, superko of either
/// kind, basic ko and score do not tell the colours apart. The other
/// rulesets keep the board symmetries only: the gain is not needed there.
pub(super) fn colours_alike(rules: &Rules) -> bool {
    matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) && rules.komi.0 == 0
}

/// The symmetries, with byte tables to map point sets fast.
pub(super) struct Syms {
    /// The board symmetries, identity first.
    pub(super) perms: Vec<Automorphism>,
    /// `fwd[s][k][b]`: image under symmetry s of byte k of a set with value b.
    fwd: Vec<Vec<[u64; 256]>>,
    /// The inverse of each element (`0..len()`).
    pub(super) inverse: Vec<usize>,
    /// Each board symmetry comes again with the colours swapped.
    colours: bool,
}

impl Syms {
    /// The board symmetries `perms` (identity first) of a board of `n`
    /// points, each also with the colours swapped if `colours`.
    pub(super) fn new(perms: Vec<Automorphism>, n: usize, colours: bool) -> Syms {
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
        let board_inverse: Vec<usize> = perms
            .iter()
            .map(|a| {
                perms
                    .iter()
                    .position(|b| (0..n as u8).all(|p| b.point(a.point(p)) == p))
                    .expect("a group")
            })
            .collect();
        // The swap commutes with every board symmetry and is its own inverse.
        let mut inverse = board_inverse.clone();
        if colours {
            inverse.extend(board_inverse.iter().map(|&i| i + perms.len()));
        }
        Syms {
            perms,
            fwd,
            inverse,
            colours,
        }
    }

    /// The number of elements: board symmetries, twice over with the swap.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.perms.len() << self.colours as usize
    }

    /// Whether element `s` swaps the colours.
    #[inline]
    pub(super) fn swaps(&self, s: usize) -> bool {
        s >= self.perms.len()
    }

    /// The board symmetry of element `s` (a compare, not a division: this
    /// is on every key and history entry's hash).
    #[inline]
    fn board_part(&self, s: usize) -> usize {
        if self.swaps(s) {
            s - self.perms.len()
        } else {
            s
        }
    }

    /// A move under element `s` (the swap moves no point).
    #[inline]
    pub(super) fn map_move(&self, s: usize, m: Move) -> Move {
        self.perms[self.board_part(s)].map_move(m)
    }

    /// The player to move under element `s`.
    #[inline]
    pub(super) fn map_to_move(&self, s: usize, t: ToMove) -> ToMove {
        match (self.swaps(s), t) {
            (true, ToMove::Black) => ToMove::White,
            (true, ToMove::White) => ToMove::Black,
            _ => t,
        }
    }

    /// A point set under the board symmetry of element `s` (point sets
    /// that are not stones of a colour, such as ko bans, do not swap).
    #[inline]
    pub(super) fn map(&self, s: usize, set: PointSet) -> PointSet {
        let s = self.board_part(s);
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

    /// A colouring under element `s`.
    #[inline]
    pub(super) fn map_pos(&self, s: usize, p: Position) -> Position {
        let (black, white) = (self.map(s, p.black), self.map(s, p.white));
        if self.swaps(s) {
            Position {
                black: white,
                white: black,
            }
        } else {
            Position { black, white }
        }
    }
}

/// A summary's point sets under symmetry `s`.
/// (The Bloom bits are of hashes every element leaves unchanged.)
pub(super) fn map_summary(syms: &Syms, s: usize, m: &Summary) -> Summary {
    let mut out = Summary {
        black: syms.map(s, m.black),
        white: syms.map(s, m.white),
        any_black: syms.map(s, m.any_black),
        any_white: syms.map(s, m.any_white),
        black_in: syms.map(s, m.black_in),
        white_in: syms.map(s, m.white_in),
        ..*m
    };
    if syms.swaps(s) {
        std::mem::swap(&mut out.black, &mut out.white);
        std::mem::swap(&mut out.any_black, &mut out.any_white);
        std::mem::swap(&mut out.black_in, &mut out.white_in);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;

    /// Every element and its inverse undo each other on colourings, the
    /// player to move and moves; the swapped half swaps the colours.
    #[test]
    fn the_colour_swap_is_a_group_element_like_the_others() {
        let board = Board::parse("2x3").unwrap();
        let perms = board.automorphisms(48);
        let p = perms.len();
        let syms = Syms::new(perms, board.len(), true);
        assert_eq!(syms.len(), 2 * p);
        let pos = Position {
            black: PointSet(0b000011),
            white: PointSet(0b100000),
        };
        for s in 0..syms.len() {
            let inv = syms.inverse[s];
            assert_eq!(syms.map_pos(inv, syms.map_pos(s, pos)), pos);
            for t in [ToMove::Black, ToMove::White, ToMove::Either] {
                assert_eq!(syms.map_to_move(inv, syms.map_to_move(s, t)), t);
            }
            for m in [Move::Pass, Move::Place(0), Move::Place(4)] {
                assert_eq!(syms.map_move(inv, syms.map_move(s, m)), m);
            }
            let image = syms.map_pos(s, pos);
            let swapped = s >= p;
            assert_eq!(image.black.len(), if swapped { 1 } else { 2 });
            assert_eq!(syms.map_to_move(s, ToMove::Black) == ToMove::White, swapped);
        }
        let plain = Syms::new(board.automorphisms(48), board.len(), false);
        assert_eq!((plain.len(), plain.inverse.len()), (p, p));
    }
}
