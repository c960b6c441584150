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
//!
//! One point more per [`enclosed`] region: a region of two points or more,
//! bordered only by the owner's pass-alive stones and every point of it
//! next to them. The opponent can never fill it: the last empty point's
//! filler captures nothing (the border cannot be taken) and has no
//! liberty, so it is refused or removes the opponent's stones there. So
//! an empty point stays in it, next to the owner, and the opponent does
//! not own it. No owner move is needed, so no history can forbid one.
//! Counting the whole region for the owner needs the owner to take
//! intruders, and a history can forbid that capture under superko (3x3
//! `..X/XXX/X.O` after a 37-turn history, White at A3: value +3 although
//! Black's chain and both regions look like +9; `tests/solver.rs`):
//! [`ranges`] counts it whole only where the history allows.
//!
//! Under `--superko none` a repetition ends the game as a tie, 0 whatever
//! the komi, and passing forever can run into one: the game ends scored
//! within the bound or tied, so the bound is capped at 0 (1x3 `.X.` after
//! B2, A1 suicide: a bound of +3, value 0). Without suicide no state of
//! the owner's line comes twice, so the bound holds uncapped where no
//! earlier state can come again ([`uncapped`], [`may_recur`]).

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
    // Only regions that can be healthy for some chain matter: each of
    // their empty points (every point, with suicide) must touch `own`, and
    // one must be empty. The rest are left out, which changes nothing but
    // the cost: without two such regions nothing lives (most positions of
    // a search, where this was a tenth of the time).
    let near = board.spread(own);
    let far = if suicide {
        other & !near
    } else {
        empty & !near
    };
    let close = other & !flood(board, far, other);
    let candidates = flood(board, close & empty, close);
    let mut regions = [PointSet::EMPTY; 64];
    let nr = components(board, candidates, &mut regions);
    if nr < 2 {
        return PointSet::EMPTY;
    }
    // Chains (at most 64, as regions); which are alive, as bits by index.
    let mut chains = [PointSet::EMPTY; 64];
    let nc = components(board, own, &mut chains);
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
    secure_from(board, pos, pass_alive(board, pos, c, suicide))
}

/// [`secure`] given the pass-alive stones.
fn secure_from(board: &Board, pos: &Position, alive: PointSet) -> PointSet {
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

/// The regions of non-`c` points with two points or more whose every
/// point touches `alive` (`c`'s pass-alive stones) and whose every `c`
/// neighbour is in `alive`: how many, and their points. In each the
/// opponent can own all points but one (see the module documentation).
pub fn enclosed(board: &Board, pos: &Position, c: Color, alive: PointSet) -> (u32, PointSet) {
    let others = board.mask() & !pos.stones(c);
    let near = board.spread(alive);
    let mut regions = [PointSet::EMPTY; 64];
    let nr = components(board, others, &mut regions);
    regions[..nr]
        .iter()
        .filter(|&&r| r.len() >= 2 && (r & !near).is_empty())
        .filter(|&&r| (board.spread(r) & !r & !alive).is_empty())
        .fold((0, PointSet::EMPTY), |(n, u), &r| (n + 1, u | r))
}

/// Whether the rules let [`black_range`] bound a game: area scoring
/// (Tromp-Taylor, or General Graph Go, where the regions counted for both
/// cancel out), where passing is always legal.
pub fn applies(rules: &Rules) -> bool {
    matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg)
}

/// How many [`secure`] points `c` has, how many [`enclosed`] regions
/// (each keeps one point from the opponent), their points, and `c`'s
/// pass-alive stones.
fn kept(board: &Board, pos: &Position, c: Color, suicide: bool) -> (i32, i32, PointSet, PointSet) {
    let alive = pass_alive(board, pos, c, suicide);
    if alive.is_empty() {
        return (0, 0, PointSet::EMPTY, PointSet::EMPTY);
    }
    let secure = secure_from(board, pos, alive);
    let (regions, points) = enclosed(board, pos, c, alive);
    (secure.len() as i32, regions as i32, points, alive)
}

/// Bounds on Black − White − komi (half points) that hold whatever the
/// history where [`applies`]: each side keeps its [`secure`] points by
/// passing to the end, and the opponent owns one point less of each
/// [`enclosed`] region; under `--superko none` capped at the tie, 0.
pub fn black_range(board: &Board, pos: &Position, rules: &Rules) -> (i32, i32) {
    let r = ranges(board, pos, rules);
    (r.lo, r.hi)
}

/// [`black_range`], and the bounds that count each side's [`enclosed`]
/// regions whole for it, which hold only under a condition on the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranges {
    /// [`black_range`]'s lower bound.
    pub lo: i32,
    /// [`black_range`]'s upper bound.
    pub hi: i32,
    /// The lower bound were Black's enclosed regions all Black's.
    pub whole_lo: i32,
    /// The upper bound were White's enclosed regions all White's.
    pub whole_hi: i32,
    /// The points of Black's enclosed regions.
    pub black_regions: PointSet,
    /// The points of White's enclosed regions.
    pub white_regions: PointSet,
    /// Black's pass-alive stones (in every colouring Black's strategy for
    /// `whole_lo` produces).
    pub black_alive: PointSet,
    /// White's pass-alive stones.
    pub white_alive: PointSet,
}

impl Ranges {
    /// `c`'s enclosed regions and pass-alive stones.
    pub fn of(&self, c: Color) -> (PointSet, PointSet) {
        match c {
            Color::Black => (self.black_regions, self.black_alive),
            Color::White => (self.white_regions, self.white_alive),
        }
    }
}

/// [`Ranges`] at `pos`.
///
/// # Whole regions
///
/// Under positional or situational superko, when no colouring of the
/// history before the node has an owner stone in the owner's enclosed
/// regions U, the owner gets every point of U, from a node where it moves
/// or where the other side moves and cannot end the game at once with
/// stones in U (no pass just made, or none of its stones there: 3x3
/// `..X/XXX/X.O` after Black's pass is +6, White passing too, not +9).
/// Its strategy: never pass
/// while the opponent has a stone in U, and then place on a liberty of an
/// opponent chain there; otherwise pass. Each healthy region of each
/// pass-alive chain keeps an empty point at the end of every turn: the
/// owner fills a region's last point only by capturing every opponent
/// chain in it (their liberties lie in it and their other neighbours are
/// pass-alive), and the opponent's filling of one is suicide. So the
/// owner's stones in U join chains that are never captured, and their
/// number only grows: the owner never repeats a colouring of its own
/// line, nor, by the condition, one from before the node, so superko never
/// refuses its placings. It places at most |U| times, and whenever the
/// opponent has a stone in U on its turn it has such a placing, so the
/// game ends after an owner pass with no opponent stone in U, where U's
/// empty points reach only the owner. Every colouring it produces has an
/// owner stone in U and all the owner's pass-alive stones: that family is
/// what a result built on this bound must not meet in another history
/// (the search's `Summary`). Under
/// `--superko none` the bound is capped at the tie ([`capped`]); what
/// holds there without the cap is [`uncapped`]'s.
pub fn ranges(board: &Board, pos: &Position, rules: &Rules) -> Ranges {
    capped(uncapped(board, pos, rules), rules)
}

/// Whether [`uncapped`]'s bounds may hold where [`ranges`]' are capped:
/// `--superko none` without suicide.
pub fn lifts_cap(rules: &Rules) -> bool {
    rules.superko == Superko::None && rules.suicide == Suicide::Forbidden
}

/// [`ranges`] without the cap at the tie under `--superko none`.
///
/// # Without the cap
///
/// Under `--superko none` with suicide forbidden, the owner's strategies
/// of [`ranges`] (pass to the end for `lo`; take the intruders of the
/// enclosed regions U for `whole_lo`) never repeat a state, so they keep
/// the bounds uncapped where no earlier state may come again
/// ([`may_recur`]). Along them the owner's stones in U only grow (they
/// join chains that are never captured), the owner places only in U, and
/// the other side's stones only grow outside U: without suicide its
/// stones leave the board only when captured, and the owner captures only
/// chains next to its placing in U, which lie in U (U's neighbours are
/// pass-alive stones). So each placing of the owner adds to its stones in
/// U, and each of the other side adds a stone without removing one of its
/// own: ordered by (owner stones in U, other side's stones), the
/// colourings strictly grow from placing to placing, and between two
/// placings lies at most one pass, which changes the player to move, or
/// two, which end the game scored (not a tie). No state of the line comes
/// twice, basic ko never refuses the owner (it would have to recreate an
/// earlier colouring), and every colouring of the line has all of
/// `alive`, the owner's stones in U now, no owner stone outside U but
/// those there now, and the other side's stones outside U now: if no
/// state before the node has such a colouring, nothing of the history
/// can come again either. With suicide allowed the other side can empty
/// its own stones (1x3 `.X.` after A1's suicide), so there the cap stays.
pub fn uncapped(board: &Board, pos: &Position, rules: &Rules) -> Ranges {
    let suicide = rules.suicide == Suicide::Allowed;
    let n = board.len() as i32;
    let (b, rb, ub, ab) = kept(board, pos, Color::Black, suicide);
    let (w, rw, uw, aw) = kept(board, pos, Color::White, suicide);
    let komi = rules.komi.0;
    let (lo, hi) = (2 * (2 * b - n + rb) - komi, 2 * (n - 2 * w - rw) - komi);
    let (ub_n, uw_n) = (ub.len() as i32, uw.len() as i32);
    Ranges {
        lo,
        hi,
        whole_lo: 2 * (2 * (b + ub_n) - n) - komi,
        whole_hi: 2 * (n - 2 * (w + uw_n)) - komi,
        black_regions: ub,
        white_regions: uw,
        black_alive: ab,
        white_alive: aw,
    }
}

/// [`uncapped`]'s `r` as it holds whatever the history under `rules`:
/// under `--superko none` capped at the tie, 0, and no region counted
/// whole; otherwise as it is.
pub fn capped(r: Ranges, rules: &Rules) -> Ranges {
    if rules.superko != Superko::None {
        return r;
    }
    Ranges {
        lo: r.lo.min(0),
        hi: r.hi.max(0),
        whole_lo: r.lo.min(0),
        whole_hi: r.hi.max(0),
        black_regions: PointSet::EMPTY,
        white_regions: PointSet::EMPTY,
        ..r
    }
}

/// Whether the earlier colouring `earlier` may come again while `owner`
/// keeps an [`uncapped`] bound from the colouring `now` by counting the
/// enclosed regions `regions` whole (`PointSet::EMPTY` for the bound of
/// passing to the end), its pass-alive stones being `alive`: whether it
/// has all of `alive` and the owner's stones in `regions` now, no owner
/// stone outside `regions` that `now` lacks, and all the other side's
/// stones outside `regions` now.
pub fn may_recur(
    earlier: &Position,
    now: &Position,
    owner: Color,
    regions: PointSet,
    alive: PointSet,
) -> bool {
    let (own, other) = (earlier.stones(owner), earlier.stones(owner.opp()));
    let kept = alive | (now.stones(owner) & regions);
    let outside = now.stones(owner.opp()) & !regions;
    own & kept == kept
        && (own & !regions & !now.stones(owner)).is_empty()
        && other & outside == outside
}

/// Whether no colouring of `earlier` has a `c` stone in `regions`: the
/// history condition of [`Ranges`]' whole regions.
pub fn regions_clear<'a>(
    mut earlier: impl Iterator<Item = &'a Position>,
    c: Color,
    regions: PointSet,
) -> bool {
    earlier.all(|p| (p.stones(c) & regions).is_empty())
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

#[cfg(test)]
mod bound_tests {
    use super::*;
    use crate::engine::diagram;

    /// [`black_range`] in points (komi 0), for both suicide rules.
    fn range(spec: &str, d: &str, superko: Superko) -> (i32, i32) {
        let b = Board::parse(spec).unwrap();
        let p = diagram::parse(&b, d).unwrap().position;
        let mut out = Vec::new();
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let rules = Rules {
                superko,
                suicide,
                ..Rules::new(Ruleset::TrompTaylor)
            };
            let (lo, hi) = black_range(&b, &p, &rules);
            out.push((lo / 2, hi / 2));
        }
        assert_eq!(
            out[0], out[1],
            "{spec} {d}: the suicide rule changes nothing here"
        );
        out[0]
    }

    /// Each enclosed region keeps one point from the opponent. 3x3
    /// `..X/XXX/X.O`: Black's one chain (5 stones) has two regions, A3-B3
    /// and B1-C1 (White on C1), every point next to it, so it is pass-alive
    /// and White owns at most 1 of each: 5 − (9 − 5 − 2) = +3, where
    /// pass-alive stones alone give 5 − 4 = +1. A region with a point not
    /// next to the chain (the top two rows of 5x5 above the wall) keeps
    /// nothing: White can make an eye there.
    #[test]
    fn enclosed_regions_keep_a_point() {
        let p = Superko::Positional;
        assert_eq!(range("3x3", "..X/XXX/X.O", p), (3, 9));
        assert_eq!(range("3x3", "..O/OOO/O.X", p), (-9, -3));
        assert_eq!(range("3x3", "..X/XXX/X.X", p), (6, 9));
        assert_eq!(range("3x3", ".X./XXX/...", p), (4, 9));
        assert_eq!(range("3x3", "X.X/.X./X.X", p), (9, 9));
        assert_eq!(range("3x5", "...X./...XX/XXXX.", p), (3, 15));
        assert_eq!(range("4x4", ".XO./XXOO/.XO./XXOO", p), (0, 0));
        assert_eq!(range("5x5", "...../XXXXX/X.X.X/XXXXX/.....", p), (7, 25));
        assert_eq!(range("5x5", "...../...../XXXXX/X.X.X/XXXXX", p), (5, 25));
        assert_eq!(range("5x5", ".X.X./XX.XX/.X.X./XX.XX/.X.X.", p), (16, 25));
        assert_eq!(range("5x5", ".X.XX/XX.XX/.X.XX/XX.XX/.X.XX", p), (-5, 25));
        assert_eq!(range("5x5", "X.XO./X.XOO/XXXO./X.XOO/X.XO.", p), (-1, 5));
        assert_eq!(
            range("5x5", "X.XO./X.XOO/XXXO./X.XOO/X.XO.", Superko::Situational),
            (-1, 5)
        );
    }

    /// The bounds that count enclosed regions whole (points, komi 0):
    /// 3x3 `..X/XXX/X.O` is +3 by one point per region and +9 with both
    /// regions Black's; a region with a point away from the chain (the top
    /// two rows of 5x5 above the wall) counts neither way; White's regions
    /// lower the upper bound. Under basic ko they are not used: the same as
    /// [`black_range`], and no regions.
    #[test]
    fn whole_regions_count_every_point() {
        let whole = |spec: &str, d: &str, superko: Superko| {
            let b = Board::parse(spec).unwrap();
            let p = diagram::parse(&b, d).unwrap().position;
            let rules = Rules {
                superko,
                ..Rules::new(Ruleset::TrompTaylor)
            };
            let r = ranges(&b, &p, &rules);
            assert_eq!((r.lo, r.hi), black_range(&b, &p, &rules));
            (
                r.whole_lo / 2,
                r.whole_hi / 2,
                r.black_regions.0,
                r.white_regions.0,
            )
        };
        let p = Superko::Positional;
        assert_eq!(whole("3x3", "..X/XXX/X.O", p), (9, 9, 0b011_000_110, 0));
        assert_eq!(whole("3x3", "..O/OOO/O.X", p), (-9, -9, 0, 0b011_000_110));
        assert_eq!(
            whole("3x3", "..X/XXX/X.O", Superko::Situational),
            (9, 9, 0b011_000_110, 0)
        );
        let top = (0b11111 << 20) | 0b11111;
        assert_eq!(
            whole("5x5", "...../XXXXX/X.X.X/XXXXX/.....", p),
            (25, 25, top, 0)
        );
        assert_eq!(
            whole("5x5", "...../...../XXXXX/X.X.X/XXXXX", p),
            (5, 25, 0, 0)
        );
        // Black's two regions in column B (−1 by one point each, +5 whole)
        // and White's three eyes (at most +5): decided.
        assert_eq!(
            whole("5x5", "X.XO./X.XOO/XXXO./X.XOO/X.XO.", p),
            (5, 5, 1 << 1 | 1 << 6 | 1 << 16 | 1 << 21, 0)
        );
        assert_eq!(whole("3x3", "..X/XXX/X.O", Superko::None), (0, 9, 0, 0));
    }

    /// Under basic ko a repetition ties the game at 0, so the bounds are
    /// capped there: a range that excludes 0 reaches it.
    #[test]
    fn basic_ko_caps_the_bound_at_the_tie() {
        let n = Superko::None;
        assert_eq!(range("3x3", "..X/XXX/X.O", n), (0, 9));
        assert_eq!(range("3x3", "..O/OOO/O.X", n), (-9, 0));
        assert_eq!(range("3x3", "X.X/.X./X.X", n), (0, 9));
        assert_eq!(range("4x4", ".XO./XXOO/.XO./XXOO", n), (0, 0));
        assert_eq!(range("5x5", "X.XO./X.XOO/XXXO./X.XOO/X.XO.", n), (-1, 5));
        assert!(applies(&Rules {
            superko: n,
            ..Rules::new(Ruleset::TrompTaylor)
        }));
    }
}
