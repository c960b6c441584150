//! Benson's unconditional life, and the score bounds it gives.
//!
//! A set of chains of one colour is *pass-alive* when the opponent cannot
//! capture any of them even if their owner passes every turn (Benson 1976):
//! start from every chain and every region enclosed by that colour; repeatedly
//! drop chains with fewer than two *healthy* regions (regions all of whose
//! empty points are liberties of the chain) and regions that touch a dropped
//! chain.
//!
//! With suicide allowed the opponent can fill a region and suicide there,
//! emptying points that are not the chain's liberties (1x6 `O.XXX.`, White
//! to move: 1 suicides, then 1 and 5 capture), so a region is healthy only
//! when *every* point of it touches the chain (KataGo's rule for
//! multi-stone suicide); with suicide forbidden its empty points suffice.
//!
//! The bound: a pass-alive stone stays to the end, and an empty point whose
//! every neighbour is a pass-alive stone of the same colour stays that
//! colour's territory (an opponent stone there has no liberty and captures
//! nothing, so it is refused or removes itself). Passing forever, the owner
//! keeps them: they bound the final area score, whatever the history.

use crate::engine::board::Board;
use crate::engine::position::{Position, flood};
use crate::engine::rules::{Rules, Ruleset, Suicide, Superko};
use crate::engine::types::{Color, PointSet};

/// Splits `set` into its connected parts; returns how many were written.
fn components(board: &Board, set: PointSet, out: &mut [PointSet; 64]) -> usize {
    let (mut n, mut todo) = (0, set);
    while !todo.is_empty() {
        let part = flood(board, todo.lowest(), set);
        todo &= !part;
        out[n] = part;
        n += 1;
    }
    n
}

/// The pass-alive stones of colour `c` (`suicide`: the rules allow it).
pub fn pass_alive(board: &Board, pos: &Position, c: Color, suicide: bool) -> PointSet {
    let own = pos.stones(c);
    if own.is_empty() {
        return PointSet::EMPTY;
    }
    let empty = pos.empty(board);
    let other = board.mask() & !own;
    // Chains and regions (at most 64 of each); which are alive, as bits by index.
    let mut chains = [PointSet::EMPTY; 64];
    let nc = components(board, own, &mut chains);
    let mut regions = [PointSet::EMPTY; 64];
    let nr = components(board, other, &mut regions);
    let mut chain_alive = if nc == 64 { u64::MAX } else { (1u64 << nc) - 1 };
    let mut region_alive = if nr == 64 { u64::MAX } else { (1u64 << nr) - 1 };
    loop {
        let mut changed = false;
        // Drop chains with fewer than two healthy regions.
        for (i, &chain) in chains[..nc].iter().enumerate() {
            if chain_alive >> i & 1 == 0 {
                continue;
            }
            let touching = board.spread(chain);
            let libs = touching & empty;
            let healthy = (0..nr)
                .filter(|&j| {
                    region_alive >> j & 1 == 1
                        && (regions[j] & empty & !libs).is_empty()
                        && !(regions[j] & empty).is_empty()
                        && (!suicide || (regions[j] & !touching).is_empty())
                })
                .filter(|&j| !(board.spread(regions[j]) & chain).is_empty())
                .count();
            if healthy < 2 {
                chain_alive &= !(1 << i);
                changed = true;
            }
        }
        // Drop regions that touch a dropped chain.
        let dead_stones = (0..nc)
            .filter(|&i| chain_alive >> i & 1 == 0)
            .fold(PointSet::EMPTY, |m, i| m | chains[i]);
        for (j, &region) in regions[..nr].iter().enumerate() {
            if region_alive >> j & 1 == 1 && !(board.spread(region) & dead_stones).is_empty() {
                region_alive &= !(1 << j);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..nc)
        .filter(|&i| chain_alive >> i & 1 == 1)
        .fold(PointSet::EMPTY, |m, i| m | chains[i])
}

/// Points `c` keeps whatever happens: its pass-alive stones and the empty
/// points all of whose neighbours are among them.
pub fn secure(board: &Board, pos: &Position, c: Color, suicide: bool) -> PointSet {
    let alive = pass_alive(board, pos, c, suicide);
    if alive.is_empty() {
        return PointSet::EMPTY;
    }
    let mut eyes = PointSet::EMPTY;
    for p in pos.empty(board).iter() {
        let n = board.neighbours(p);
        if !n.is_empty() && (n & !alive).is_empty() {
            eyes |= PointSet::single(p);
        }
    }
    alive | eyes
}

/// Whether the rules let [`black_range`] bound a game: area scoring
/// (Tromp-Taylor, or General Graph Go, where the regions counted for both
/// cancel out) and a superko rule, so that passing is always legal and the
/// game ends; without superko a repetition is a tie, whatever is kept.
pub fn applies(rules: &Rules) -> bool {
    matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) && rules.superko != Superko::None
}

/// Bounds on Black − White − komi (half points) that hold whatever the
/// history where [`applies`]: each side keeps its [`secure`] points by
/// passing to the end.
pub fn black_range(board: &Board, pos: &Position, rules: &Rules) -> (i32, i32) {
    let suicide = rules.suicide == Suicide::Allowed;
    let n = board.len() as i32;
    let b = secure(board, pos, Color::Black, suicide).len() as i32;
    let w = secure(board, pos, Color::White, suicide).len() as i32;
    let komi = rules.komi.0;
    (2 * (2 * b - n) - komi, 2 * (n - 2 * w) - komi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::diagram;

    fn secure_of(spec: &str, d: &str, c: Color) -> u32 {
        let b = Board::parse(spec).unwrap();
        let p = diagram::parse(&b, d).unwrap().position;
        secure(&b, &p, c, false).len()
    }

    #[test]
    fn suicide_can_open_a_region() {
        // White plays B1 (a suicide of A1-B1), then B1 again and F1: the
        // black chain is captured though its regions' empty points were all
        // its liberties.
        let b = Board::parse("1x6").unwrap();
        let p = diagram::parse(&b, "O.XXX.").unwrap().position;
        assert_eq!(secure(&b, &p, Color::Black, false).len(), 4);
        assert_eq!(secure(&b, &p, Color::Black, true).len(), 0);
        // Regions whose every point touches the chain are safe either way.
        let p = diagram::parse(&b, ".X.XX.").unwrap().position;
        assert_eq!(secure(&b, &p, Color::Black, true).len(), 6);
    }

    #[test]
    fn two_eyes_live_one_does_not() {
        // Two one-point eyes in the corners of 3x3.
        assert_eq!(secure_of("3x3", ".XX/XXX/XX.", Color::Black), 9);
        // One eye: not alive.
        assert_eq!(secure_of("3x3", ".XX/XXX/XXX", Color::Black), 0);
        // A line with two eyes.
        // Two chains sharing the middle eye: each has two healthy regions.
        assert_eq!(secure_of("1x5", ".X.X.", Color::Black), 5);
        assert_eq!(secure_of("1x3", ".X.", Color::Black), 3);
        // White stones inside: the region is not healthy if an empty point is no liberty.
        assert_eq!(secure_of("1x5", ".XXX.", Color::Black), 5);
        assert_eq!(secure_of("2x3", "X.X/XXX", Color::Black), 0);
        assert_eq!(secure_of("2x4", "X.X./XXXX", Color::Black), 8);
        assert_eq!(secure_of("2x4", "X.XO/XXXX", Color::Black), 0);
    }
}
