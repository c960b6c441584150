//! The test suite's reference solver over the plain rules
//! ([`gosolve::plain`], which shares no code with the bitboard engine):
//! perft, game counts and plain alpha-beta.
#![allow(dead_code)]

pub use gosolve::plain::*;
use gosolve::rules::Ruleset;

/// The plain rules under their old name.
pub type NaiveRules = PlainRules;

/// Nodes per depth of the naive game tree (`nodes[0] = 1`).
pub fn perft(g: &Graph, r: &NaiveRules, s: &State, depth: usize) -> Vec<u128> {
    fn walk(g: &Graph, r: &NaiveRules, s: &State, d: usize, nodes: &mut Vec<u128>) {
        nodes[d] += 1;
        if d + 1 < nodes.len() {
            for (_, c) in s.children(g, r) {
                walk(g, r, &c, d + 1, nodes);
            }
        }
    }
    let mut nodes = vec![0; depth + 1];
    walk(g, r, s, 0, &mut nodes);
    nodes
}

/// Complete games from `s`.
pub fn games(g: &Graph, r: &NaiveRules, s: &State) -> u128 {
    let kids = s.children(g, r);
    if kids.is_empty() {
        1
    } else {
        kids.iter().map(|(_, c)| games(g, r, c)).sum()
    }
}

/// Plain alpha-beta over the full history (no table, no symmetry, pass
/// first): the value from Black's side, in half points for scored rulesets
/// (Black − White − komi), ±1 for normal play.
pub fn value(
    g: &Graph,
    r: &NaiveRules,
    s: &State,
    komi_half: i32,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    let kids = s.children(g, r);
    if kids.is_empty() {
        return match s.result(g, r, komi_half) {
            Ok(v) => v,
            Err(winner) => {
                if winner == BLACK {
                    1
                } else {
                    -1
                }
            }
        };
    }
    // Black raises alpha, White lowers beta.
    let black = s.to_move == BLACK;
    let mut best = if black { i32::MIN } else { i32::MAX };
    for (_, c) in &kids {
        let v = value(g, r, c, komi_half, alpha, beta);
        if black {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The window of every value a game can have: a side that reaches its end
/// needs to look no further. Area scores lie within ±2n half points (less
/// komi), normal play and repetition ties within ±1; prisoners (`logical`)
/// have no such bound. Without it a normal-play search never cut at all.
pub fn window(g: &Graph, r: &NaiveRules, komi_half: i32) -> (i32, i32) {
    let n = 2 * g.len() as i32;
    match r.ruleset {
        Ruleset::Conway | Ruleset::ConwayReplacement | Ruleset::Koh => (-1, 1),
        Ruleset::Logical => (i32::MIN, i32::MAX),
        _ => ((-n - komi_half).min(0), (n - komi_half).max(0)),
    }
}

/// The exact value of `s` (Black's side).
pub fn exact(g: &Graph, r: &NaiveRules, s: &State, komi_half: i32) -> i32 {
    let (lo, hi) = window(g, r, komi_half);
    value(g, r, s, komi_half, lo, hi)
}

/// Every legal first move with its exact value (Black's side).
pub fn root_values(g: &Graph, r: &NaiveRules, s: &State, komi_half: i32) -> Vec<(Turn, i32)> {
    s.children(g, r)
        .into_iter()
        .map(|(t, c)| (t, exact(g, r, &c, komi_half)))
        .collect()
}
