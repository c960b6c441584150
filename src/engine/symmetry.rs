//! The graph's automorphisms: permutations of the points that keep
//! adjacency, used for symmetry reduction by the counts, the search and
//! the result file.

use crate::engine::board::{Board, MAX_POINTS};
use crate::engine::rules::Rules;
use crate::engine::types::{Move, PointSet};

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
    pub fn set(&self, s: PointSet) -> PointSet {
        s.iter().fold(PointSet::EMPTY, |acc, p| {
            acc | PointSet::single(self.map[p as usize])
        })
    }
}

impl Board {
    /// The automorphisms of the graph, identity first: all of them when
    /// there are at most `cap` (complete graphs have n!), otherwise the
    /// largest pointwise stabiliser of the first points, 0..k, that has at
    /// most `cap` elements. Either way a group: closed under composition
    /// and inverses, as symmetry reduction needs (a table key mapped into a
    /// canonical frame must map back). Found by backtracking: each point in
    /// turn is mapped to an unused point of the same degree whose adjacency
    /// to the points already mapped agrees.
    ///
    /// The choice of subgroup: candidates are tried lowest first, so the
    /// elements fixing 0..k come first in the search, as one subtree; once
    /// the search has left that subtree (a later element moves one of
    /// 0..k), the stabiliser is complete. So one search for `cap + 1`
    /// elements finds the largest such stabiliser that fits.
    pub fn automorphisms(&self, cap: usize) -> Vec<Automorphism> {
        let n = self.len();
        let cap = cap.max(1);
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
            let degree = b.neighbours(i as u8).len();
            for q in (b.mask() & !PointSet(used)).iter() {
                if b.neighbours(q).len() != degree {
                    continue;
                }
                let agrees = (0..i).all(|j| {
                    b.neighbours(i as u8).contains(j as u8) == b.neighbours(q).contains(map[j])
                });
                if agrees {
                    map[i] = q;
                    extend(b, i + 1, used | 1 << q, map, out, cap);
                }
            }
        }
        extend(self, 0, 0, &mut map, &mut out, cap + 1);
        debug_assert!(
            n == 0
                || out[0].map[..n]
                    .iter()
                    .enumerate()
                    .all(|(i, &q)| i == q as usize)
        );
        if out.len() > cap {
            // The smallest k whose stabiliser (a prefix of `out`) the
            // search left, so that it is whole, and that fits.
            let fixes = |a: &Automorphism, k: usize| (0..k).all(|i| a.map[i] as usize == i);
            let whole = (1..=n)
                .map(|k| out.iter().take_while(|a| fixes(a, k)).count())
                .find(|&len| len <= cap)
                .unwrap_or(1);
            out.truncate(whole);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Closed under composition and inverses, identity first.
    fn is_group(board: &Board, g: &[Automorphism]) -> bool {
        let n = board.len() as u8;
        let find = |f: &dyn Fn(u8) -> u8| g.iter().any(|b| (0..n).all(|p| b.point(p) == f(p)));
        (0..n).all(|p| g[0].point(p) == p)
            && g.iter().all(|a| {
                let inverse = |p: u8| (0..n).find(|&q| a.point(q) == p).expect("a bijection");
                find(&inverse) && g.iter().all(|b| find(&|p| b.point(a.point(p))))
            })
    }

    #[test]
    fn a_capped_list_is_still_a_group() {
        // (board, cap, size): the whole group when it fits, else the
        // stabiliser of the first points that does.
        for (spec, cap, size) in [
            ("complete:7", 4096, 720), // 7! = 5040: S_6 fixing point 0
            ("star:7", 4096, 720),     // the centre and leaf 1 fixed
            ("complete:8", 4096, 720), // 8!, then 7! = 5040: fix 0 and 1
            ("complete:6", 4096, 720), // all of 6!
            ("cube:3", 10, 6),         // 48; fixing point 0 leaves 6
            ("cube:3", 5, 2),          // fixing 0 and 1 leaves 2
            ("petersen", 120, 120),
            ("3x3", 1, 1),
        ] {
            let b = Board::parse(spec).unwrap();
            let g = b.automorphisms(cap);
            assert_eq!(g.len(), size, "{spec}");
            assert!(is_group(&b, &g), "{spec}");
        }
        // What the search uses: those that also fix the start.
        for spec in ["complete:7", "star:7", "complete:8"] {
            let b = Board::parse(spec).unwrap();
            let rules = Rules::new(crate::engine::rules::Ruleset::TrompTaylor);
            assert!(is_group(&b, &symmetries(&b, &rules)), "{spec}");
        }
    }
}
