//! The graph's automorphisms: permutations of the points that keep
//! adjacency, used for symmetry reduction by the counts, the search and
//! the result file.

use crate::engine::board::{Board, MAX_POINTS};
use crate::engine::rules::Rules;
use crate::engine::types::{Move, bits};

/// A permutation of the points that preserves adjacency: point `p` maps to `map[p]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Automorphism {
    map: [u8; MAX_POINTS],
}

impl Automorphism {
    /// The image of one point.
    #[inline]
    pub fn point(&self, p: u8) -> u8 {
        self.map[p as usize]
    }

    /// The image of a move (a pass is its own image).
    #[inline]
    pub fn map_move(&self, m: Move) -> Move {
        match m {
            Move::Pass => Move::Pass,
            Move::Place(p) => Move::Place(self.point(p)),
        }
    }

    /// The image of a point set.
    #[inline]
    pub fn set(&self, s: u64) -> u64 {
        bits(s).fold(0, |acc, p| acc | 1 << self.map[p as usize])
    }
}

impl Board {
    /// The automorphisms of the graph, identity first, at most `cap` of them
    /// (complete graphs have n!). Found by backtracking: each point in turn is
    /// mapped to an unused point of the same degree whose adjacency to the
    /// points already mapped agrees.
    pub fn automorphisms(&self, cap: usize) -> Vec<Automorphism> {
        let n = self.len();
        let mut out = Vec::new();
        let mut map = [0u8; MAX_POINTS];
        fn extend(
            b: &Board,
            i: usize,
            used: u64,
            map: &mut [u8; MAX_POINTS],
            out: &mut Vec<Automorphism>,
            cap: usize,
        ) {
            if out.len() >= cap {
                return;
            }
            if i == b.len() {
                out.push(Automorphism { map: *map });
                return;
            }
            let degree = b.neighbours(i as u8).count_ones();
            for q in bits(b.mask() & !used) {
                if b.neighbours(q).count_ones() != degree {
                    continue;
                }
                let agrees = (0..i)
                    .all(|j| (b.neighbours(i as u8) >> j & 1) == (b.neighbours(q) >> map[j] & 1));
                if agrees {
                    map[i] = q;
                    extend(b, i + 1, used | 1 << q, map, out, cap);
                }
            }
        }
        extend(self, 0, 0, &mut map, &mut out, cap.max(1));
        debug_assert!(
            n == 0
                || out[0].map[..n]
                    .iter()
                    .enumerate()
                    .all(|(i, &q)| i == q as usize)
        );
        out
    }
}

/// The symmetries of the board that fix the start position.
pub fn symmetries(board: &Board, rules: &Rules) -> Vec<Automorphism> {
    let s = rules.setup;
    board
        .automorphisms(4096)
        .into_iter()
        .filter(|a| {
            a.set(s.position.black) == s.position.black
                && a.set(s.position.white) == s.position.white
                && a.set(s.immortal) == s.immortal
        })
        .collect()
}
