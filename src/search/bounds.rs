//! What a node's value can be, in half points from the mover's side: the
//! range of all values, a finished game's value, and the static bounds
//! unconditional life gives (the search's Step 1 and Step 2).

use crate::engine::benson;
use crate::engine::board::Board;
use crate::engine::game::{Game, Outcome};
use crate::engine::rules::{Rules, Ruleset, value_text};
use crate::engine::types::{Color, PointSet};
use crate::search::facts::{CLEAN, Facts, Res};

/// The values a game of `points` points can end with lie in `-r..=r`
/// (half points; normal play: ±1).
pub fn value_range(points: usize, rules: &Rules) -> i32 {
    let n = points as i32;
    match rules.ruleset {
        r if !r.has_score() => 1,
        Ruleset::Logical => 4 * n + 4096 + rules.komi.0.abs(),
        _ => 2 * n + rules.komi.0.abs(),
    }
}

/// A value or test of the search (half points, or ±1 under normal play)
/// as the debug log (`GOSOLVE_DEBUG`) prints it: in points with its sign
/// (`+1`, `-0.5`), as the command's own output is. The log printed half
/// points once, and 1x12's "at least +1" was read as "+2" (2026-12-01).
pub fn log_value(rules: &Rules, v: i32) -> String {
    if rules.ruleset.has_score() {
        value_text(true, v)
    } else {
        format!("{v:+}")
    }
}

/// Black's `black` (half points, or ±1) from the side of `g`'s mover.
#[inline]
pub fn for_mover(g: &Game, black: i32) -> i32 {
    if g.to_move() == Color::Black {
        black
    } else {
        -black
    }
}

/// Black's range `lo..=hi` from the side of `g`'s mover.
#[inline]
fn range_for_mover(g: &Game, lo: i32, hi: i32) -> (i32, i32) {
    if g.to_move() == Color::Black {
        (lo, hi)
    } else {
        (-hi, -lo)
    }
}

/// The score now from the mover's side (half points, komi included), as
/// if the game ended here: what the mover gets by passing after the
/// opponent's pass. Scored rulesets only.
#[inline]
pub fn score_now(g: &Game) -> i32 {
    match g.final_score() {
        Outcome::Score(black) => for_mover(g, black),
        Outcome::Win(_) => unreachable!("final_score is a score"),
    }
}

/// [`score_now`] were each side's area `area` ([`Game::score_with`]).
#[inline]
pub fn score_with(g: &Game, area: (u32, u32)) -> i32 {
    for_mover(g, g.score_with(area))
}

/// The value (mover's side, half points) were the mover to own every point.
pub fn whole_board(g: &Game) -> i32 {
    let n = g.board().len() as u32;
    let area = if g.to_move() == Color::Black {
        (n, 0)
    } else {
        (0, n)
    };
    score_with(g, area)
}

/// The value of a finished game from the mover's side (scored in half points, normal play ±1).
pub fn mover_value(g: &Game) -> i32 {
    let black = match g.outcome() {
        Some(Outcome::Score(s)) => s,
        Some(Outcome::Win(c)) => {
            if c == Color::Black {
                1
            } else {
                -1
            }
        }
        None => unreachable!("mover_value of a game in progress"),
    };
    for_mover(g, black)
}

/// Bounds on the value (mover's side) at `g` that hold whatever the
/// history (each side keeps the points [`benson::secure`] gives it by
/// passing to the end; under `--superko none` capped at the tie), and the
/// [`benson::uncapped`] ranges, for `whole_cut` and `tie_free_cut`. Scored
/// rulesets without prisoners only.
pub fn static_range(board: &Board, rules: &Rules, g: &Game) -> (i32, i32, benson::Ranges) {
    let r = benson::uncapped(board, &g.position(), rules);
    let held = benson::capped(r, rules);
    let (lo, hi) = range_for_mover(g, held.lo, held.hi);
    (lo, hi, r)
}

/// The bound of Black's range `black` (its lower or its upper end, from
/// the mover's side) that settles the window (alpha, beta), and its
/// owner, if one does.
fn settling(g: &Game, black: (i32, i32), alpha: i32, beta: i32) -> Option<(i32, Color)> {
    let (lower, upper) = range_for_mover(g, black.0, black.1);
    if lower >= beta {
        Some((lower, g.to_move()))
    } else if upper <= alpha {
        Some((upper, g.to_move().opp()))
    } else {
        None
    }
}

/// Whether the owner's enclosed `regions` may count whole at `g`: there
/// are some, and the mover cannot end the game at once, after the
/// owner's pass, with its stones still in them (3x3 `..X/XXX/X.O`, Black
/// passes: White passes too, +6 not +9).
fn counts_whole(g: &Game, owner: Color, regions: PointSet) -> bool {
    let mover = g.to_move();
    let ends_first =
        owner != mover && g.passes() > 0 && !(g.position().stones(mover) & regions).is_empty();
    !regions.is_empty() && !ends_first
}

/// A result from the bounds of [`benson::Ranges`] that count enclosed
/// regions whole, where one settles the window (alpha, beta), no colouring
/// of `g`'s history before index `d` has the owner's stone in the owner's
/// regions, and the game cannot end before the owner moves with the
/// other side's stones there (`benson::ranges`). Its proof's summary holds
/// the family the owner's strategy produces (every colouring with its
/// stone there and its pass-alive stones).
pub(super) fn whole_cut(
    g: &Game,
    r: &benson::Ranges,
    alpha: i32,
    beta: i32,
    d: u32,
) -> Option<Res> {
    let (v, owner) = settling(g, (r.whole_lo, r.whole_hi), alpha, beta)?;
    let (regions, alive) = r.of(owner);
    if !counts_whole(g, owner, regions) {
        return None;
    }
    let earlier = g.history()[..d as usize].iter().map(|e| &e.pos);
    if !benson::regions_clear(earlier, owner, regions) {
        return None;
    }
    let mut p = Facts { dep: d, ..CLEAN };
    p.summary.add_family(owner == Color::Black, regions, alive);
    Some(Res {
        v,
        lo: p,
        hi: p,
        open: false,
    })
}

/// Under `--superko none` with suicide forbidden, a result from the
/// [`benson::uncapped`] bounds where one settles the window (alpha,
/// beta) and no colouring of `g`'s history before index `d` may come
/// again along the owner's strategy ([`benson::may_recur`]): the enclosed
/// regions counted whole where the game cannot end before the owner
/// moves with the other side's stones there (as [`whole_cut`]), else
/// passing to the end. Its proof's summary holds every colouring the
/// strategy's line may produce, of both sides, as a tie there changes
/// the value either way: all of the owner's kept stones and the other
/// side's stones outside the regions now, owner stones only where they
/// are now or in the regions, and any hash. Only where
/// [`benson::lifts_cap`].
pub(super) fn tie_free_cut(
    g: &Game,
    r: &benson::Ranges,
    window: (i32, i32),
    d: u32,
) -> Option<Res> {
    debug_assert!(benson::lifts_cap(g.rules()));
    let (alpha, beta) = window;
    let now = g.position();
    for (black, whole) in [((r.whole_lo, r.whole_hi), true), ((r.lo, r.hi), false)] {
        let Some((v, owner)) = settling(g, black, alpha, beta) else {
            continue;
        };
        let (enclosed, alive) = r.of(owner);
        if whole && !counts_whole(g, owner, enclosed) {
            continue;
        }
        let regions = if whole { enclosed } else { PointSet::EMPTY };
        let own = alive | (now.stones(owner) & regions);
        let other = now.stones(owner.opp()) & !regions;
        // A colouring that may recur has all of `own` and `other`.
        let fewest = (own | other).len() as u8;
        if g.earlier_with_stones(fewest, 64, d as usize)
            .any(|(_, e)| benson::may_recur(&e.pos, &now, owner, regions, alive))
        {
            continue;
        }
        let any_own = now.stones(owner) | regions;
        let any_other = g.board().mask() & !own;
        let mut p = Facts { dep: d, ..CLEAN };
        let (black, white, any_black, any_white) = if owner == Color::Black {
            (own, other, any_own, any_other)
        } else {
            (other, own, any_other, any_own)
        };
        p.summary
            .add_bounded_family(black, white, any_black, any_white);
        return Some(Res {
            v,
            lo: p,
            hi: p,
            open: false,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The debug log's values are points with their sign (the search's
    /// half points halved), or ±1 under normal play.
    #[test]
    fn the_log_prints_points() {
        let scored = Rules::new(Ruleset::TrompTaylor);
        let shown: Vec<String> = [4, 3, 0, -1, -24].map(|v| log_value(&scored, v)).to_vec();
        assert_eq!(shown, ["+2", "+1.5", "0", "-0.5", "-12"]);
        let normal = Rules::new(Ruleset::Conway);
        assert_eq!(log_value(&normal, 1), "+1");
        assert_eq!(log_value(&normal, -1), "-1");
    }
}
