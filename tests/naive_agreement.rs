//! The bitboard engine against the naive implementation: placing on every
//! legal position of the small boards, and random positions and random games
//! on larger graphs (property tests).

mod common;

use common::{naive, naive_graph, to_colouring, to_position};
use gosolve::engine::board::Board;
use gosolve::engine::game::{Game, Outcome};
use gosolve::engine::rules::{RuleOptions, Rules, Ruleset, Suicide, Superko};
use gosolve::engine::types::{Color, Move, PointSet};
use proptest::prelude::*;

fn colour(c: u8) -> Color {
    if c == naive::BLACK {
        Color::Black
    } else {
        Color::White
    }
}

/// Placing either colour on every empty point of every legal position.
#[test]
fn placing_agrees_on_every_legal_position_up_to_3x3() {
    for spec in [
        "1x1",
        "1x2",
        "1x3",
        "1x4",
        "1x5",
        "1x6",
        "2x2",
        "2x3",
        "3x3",
        "cycle:5",
        "star:4",
        "complete:4",
    ] {
        let board = Board::parse(spec).unwrap();
        let g = naive_graph(&board);
        let none = vec![false; board.len()];
        let mut checked = 0;
        for col in g.all_colourings().into_iter().filter(|c| g.is_legal(c)) {
            let pos = to_position(&col);
            assert!(pos.is_legal(&board, PointSet::EMPTY));
            let area = (g.area(&col, naive::BLACK), g.area(&col, naive::WHITE));
            assert_eq!(pos.area(&board), area, "{spec} {col:?}");
            for v in (0..board.len()).filter(|&v| col[v] == naive::EMPTY) {
                for c in [naive::BLACK, naive::WHITE] {
                    let (want, captured, suicided) = g.place(&col, v, c, &none);
                    let got = pos.place(&board, v as u8, colour(c), PointSet::EMPTY);
                    assert_eq!(
                        to_colouring(&got.position, board.len()),
                        want,
                        "{spec} {col:?} {v} {c}"
                    );
                    assert_eq!((got.captured, got.suicided), (captured, suicided));
                    checked += 1;
                }
            }
        }
        assert!(checked > 0);
    }
}

/// The same on the 3x3 grid built by the naive code's own formula, so that
/// the board's edge list is checked too.
#[test]
fn grid_edges_agree() {
    for (r, c) in [(1, 7), (2, 5), (3, 3), (4, 4), (5, 6), (8, 8)] {
        let board = Board::grid(r, c).unwrap();
        let mut mine: Vec<(usize, usize)> = board
            .edges()
            .iter()
            .map(|&(a, b)| (a as usize, b as usize))
            .collect();
        let g = naive::Graph::grid(r, c);
        let mut theirs: Vec<(usize, usize)> = (0..g.len())
            .flat_map(|a| {
                g.adj[a]
                    .iter()
                    .filter(move |&&b| b > a)
                    .map(move |&b| (a, b))
            })
            .collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs, "{r}x{c}");
    }
}

const GRAPHS: &[&str] = &[
    "4x4",
    "5x5",
    "3x7",
    "petersen",
    "cube:4",
    "torus:4x5",
    "complete:7",
    "star:9",
    "cycle:11",
    "8x8",
];

fn random_colouring(n: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0u8..3, n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Placing on random legal colourings of larger graphs.
    #[test]
    fn placing_agrees_on_random_positions(which in 0..GRAPHS.len(), seed in random_colouring(64), v in 0usize..64, black in any::<bool>()) {
        let board = Board::parse(GRAPHS[which]).unwrap();
        let n = board.len();
        let g = naive_graph(&board);
        // Engine positions are legal: clear the groups without liberty first.
        let mut col = seed[..n].to_vec();
        prop_assert_eq!(to_position(&col).is_legal(&board, PointSet::EMPTY), g.is_legal(&col));
        g.clear(&mut col, naive::BLACK, &vec![false; n]);
        g.clear(&mut col, naive::WHITE, &vec![false; n]);
        prop_assert!(g.is_legal(&col));
        let v = v % n;
        prop_assume!(col[v] == naive::EMPTY);
        let c = if black { naive::BLACK } else { naive::WHITE };
        let (want, captured, suicided) = g.place(&col, v, c, &vec![false; n]);
        let got = to_position(&col).place(&board, v as u8, colour(c), PointSet::EMPTY);
        prop_assert_eq!(to_colouring(&got.position, n), want);
        prop_assert_eq!((got.captured, got.suicided), (captured, suicided));
        prop_assert_eq!(to_position(&col).area(&board), (g.area(&col, naive::BLACK), g.area(&col, naive::WHITE)));
    }

    /// Random games on larger graphs under every ruleset: the same legal
    /// turns at every step, and the same result at the end.
    #[test]
    fn random_games_agree(which in 0..GRAPHS.len() - 1, rs in 0..Ruleset::ALL.len(), sk in 0..3usize, forbid in any::<bool>(), choices in proptest::collection::vec(any::<u16>(), 120)) {
        let board = Board::parse(GRAPHS[which]).unwrap();
        let ruleset = Ruleset::ALL[rs];
        let superko = match (ruleset, sk) {
            (Ruleset::Koh, _) => None,
            (_, 0) => Some(Superko::Positional),
            (_, 1) => Some(Superko::Situational),
            (r, _) if r.has_score() => Some(Superko::None),
            _ => Some(Superko::Positional),
        };
        let suicide = if ruleset == Ruleset::Koh || forbid { Suicide::Forbidden } else { Suicide::Allowed };
        let opts = RuleOptions { superko, suicide: Some(suicide), ..Default::default() };
        let rules = Rules::build(ruleset, &opts, &board).unwrap();
        let g = naive_graph(&board);
        let nr = naive::NaiveRules { ruleset, superko: rules.superko, suicide };
        let n = board.len();
        let mut state = naive::State::empty(n);
        let mut game = Game::new(&board, &rules);
        for &choice in &choices {
            let kids = state.children(&g, &nr);
            let mut want: Vec<Move> = kids.iter().map(|(t, _)| t.map_or(Move::Pass, |v| Move::Place(v as u8))).collect();
            let mut got = game.legal_moves();
            want.sort();
            got.sort();
            prop_assert_eq!(&got, &want);
            if kids.is_empty() {
                break;
            }
            // Prefer placings so that games get somewhere.
            let i = if kids.len() > 1 && choice % 8 != 0 { 1 + choice as usize % (kids.len() - 1) } else { choice as usize % kids.len() };
            let (turn, next) = kids[i].clone();
            game.play(turn.map_or(Move::Pass, |v| Move::Place(v as u8)));
            state = next;
            prop_assert_eq!(to_colouring(&game.position(), n), state.col.clone());
            prop_assert_eq!([game.prisoners(Color::Black), game.prisoners(Color::White)], state.prisoners);
        }
        if let Some(outcome) = game.outcome() {
            let want = state.result(&g, &nr, 0);
            let got = match outcome { Outcome::Score(s) => Ok(s), Outcome::Win(c) => Err(if c == Color::Black { naive::BLACK } else { naive::WHITE }) };
            prop_assert_eq!(got, want);
        }
    }
}
