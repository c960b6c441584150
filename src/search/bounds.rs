//! What a node's value can be, in half points from the mover's side: the
//! range of all values, a finished game's value, and the static bounds
//! unconditional life gives (the search's Step 1 and Step 2).

use crate::engine::benson;
use crate::engine::board::Board;
use crate::engine::game::{Game, Outcome};
use crate::engine::rules::{Rules, Ruleset};
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

/// Black's `black` (half points, or ±1) from the side of `g`'s mover.
#[inline]
fn for_mover(g: &Game, black: i32) -> i32 {
    if g.to_move() == Color::Black {
        black
    } else {
        -black
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

/// Bounds on the value (mover's side) at `g`: those that hold whatever
/// the history (each side keeps the points [`benson::secure`] gives it by
/// passing to the end), and those that count each side's enclosed regions
/// whole, which hold where no earlier colouring had that side's stone in
/// them ([`benson::ranges`]). Scored rulesets without prisoners only.
pub struct Static {
    /// The lower bound whatever the history.
    pub lo: i32,
    /// The upper bound whatever the history.
    pub hi: i32,
    /// The lower bound with the mover's enclosed regions whole.
    pub whole_lo: i32,
    /// The upper bound with the opponent's enclosed regions whole.
    pub whole_hi: i32,
    /// The mover's enclosed regions.
    pub mine: PointSet,
    /// The opponent's enclosed regions.
    pub theirs: PointSet,
    /// The mover's pass-alive stones.
    pub mine_alive: PointSet,
    /// The opponent's pass-alive stones.
    pub theirs_alive: PointSet,
}

/// [`Static`] at `g`.
pub fn static_range(board: &Board, rules: &Rules, g: &Game) -> Static {
    let r = benson::ranges(board, &g.position(), rules);
    if g.to_move() == Color::Black {
        Static {
            lo: r.lo,
            hi: r.hi,
            whole_lo: r.whole_lo,
            whole_hi: r.whole_hi,
            mine: r.black_regions,
            theirs: r.white_regions,
            mine_alive: r.black_alive,
            theirs_alive: r.white_alive,
        }
    } else {
        Static {
            lo: -r.hi,
            hi: -r.lo,
            whole_lo: -r.whole_hi,
            whole_hi: -r.whole_lo,
            mine: r.white_regions,
            theirs: r.black_regions,
            mine_alive: r.white_alive,
            theirs_alive: r.black_alive,
        }
    }
}

/// A result from the bounds of [`Static`] that count enclosed regions
/// whole, where one settles the window (alpha, beta), no colouring of
/// `g`'s history before index `d` has the owner's stone in the owner's
/// regions, and the game cannot end before the owner moves with the
/// other side's stones there (`benson::ranges`). Its proof's summary holds the family the owner's strategy
/// produces (every colouring with its stone there: `benson::ranges`).
pub(super) fn whole_cut(g: &Game, s: &Static, alpha: i32, beta: i32, d: u32) -> Option<Res> {
    let mover = g.to_move();
    let (v, owner, regions) = if s.whole_lo >= beta && !s.mine.is_empty() {
        (s.whole_lo, mover, s.mine)
    } else if s.whole_hi <= alpha
        && !s.theirs.is_empty()
        // After the owner's pass the mover may end the game at once, with
        // its stones still in the owner's regions (3x3 `..X/XXX/X.O`,
        // Black passes: White passes too, +6 not +9).
        && (g.passes() == 0 || (g.position().stones(mover) & s.theirs).is_empty())
    {
        (s.whole_hi, mover.opp(), s.theirs)
    } else {
        return None;
    };
    let earlier = g.history()[..d as usize].iter().map(|e| &e.pos);
    if !benson::regions_clear(earlier, owner, regions) {
        return None;
    }
    let mut p = Facts { dep: d, ..CLEAN };
    let alive = if owner == mover {
        s.mine_alive
    } else {
        s.theirs_alive
    };
    p.summary.add_family(owner == Color::Black, regions, alive);
    Some(Res {
        v,
        lo: p,
        hi: p,
        open: false,
    })
}
