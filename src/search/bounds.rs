//! What a node's value can be, in half points from the mover's side: the
//! range of all values, a finished game's value, and the static bounds
//! unconditional life gives (the search's Step 1 and Step 2).

use crate::engine::benson;
use crate::engine::board::Board;
use crate::engine::game::{Game, Outcome};
use crate::engine::rules::{Rules, Ruleset};
use crate::engine::types::Color;

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

/// Bounds on the value (mover's side) that hold whatever the history:
/// each side keeps the points [`benson::secure`] gives it by passing to
/// the end (see `benson`). Scored rulesets without prisoners only.
pub fn static_range(board: &Board, rules: &Rules, g: &Game) -> (i32, i32) {
    let (lo, hi) = benson::black_range(board, &g.position(), rules);
    if g.to_move() == Color::Black {
        (lo, hi)
    } else {
        (-hi, -lo)
    }
}
