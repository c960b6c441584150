//! Every rule of RULES.md on a hand-made position, written as an ASCII board.

use gosolve::engine::board::Board;
use gosolve::engine::diagram;
use gosolve::engine::game::{Game, Outcome};
use gosolve::engine::rules::{Komi, RuleOptions, Rules, Ruleset, Suicide, Superko};
use gosolve::engine::types::{Color, Move, PointSet};

fn setup(
    spec: &str,
    ruleset: Ruleset,
    start: &str,
    superko: Option<Superko>,
    suicide: Option<Suicide>,
) -> (Board, Rules) {
    let board = Board::parse(spec).unwrap();
    let opts = RuleOptions {
        superko,
        suicide,
        start: Some(start.into()),
        komi: None,
    };
    let rules = Rules::build(ruleset, &opts, &board).unwrap();
    (board, rules)
}

fn at(board: &Board, name: &str) -> Move {
    Move::Place(
        board
            .parse_point(name)
            .unwrap_or_else(|| panic!("no point {name}")),
    )
}

fn shows(game: &Game) -> String {
    diagram::compact(game.board(), &game.position(), PointSet::EMPTY)
}

#[test]
fn capture_of_one_and_of_two_stones() {
    let (b, r) = setup("3x3", Ruleset::Logical, ".X./XO./.X.", None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "C2"));
    assert_eq!(shows(&g), ".X./X.X/.X.");
    assert_eq!(g.prisoners(Color::Black), 1);

    let (b, r) = setup("3x3", Ruleset::Logical, "XX./OO./XX.", None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "C2"));
    assert_eq!(shows(&g), "XX./..X/XX.");
    assert_eq!(g.prisoners(Color::Black), 2);
    // Captured points are empty again and may be played.
    assert!(g.is_legal(at(&b, "A2")));
}

#[test]
fn capture_comes_before_suicide() {
    // Black's stone at D1 has no liberty until it captures both white
    // stones: the capture saves it, even with suicide forbidden.
    let (b, r) = setup(
        "1x5",
        Ruleset::TrompTaylor,
        ".XO.O",
        None,
        Some(Suicide::Forbidden),
    );
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "D1"));
    assert_eq!(shows(&g), ".X.X.");
}

#[test]
fn multi_stone_suicide_allowed_and_forbidden() {
    let start = "W: OO.X.X";
    let (b, r) = setup("1x6", Ruleset::Logical, start, None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "C1"));
    assert_eq!(shows(&g), "...X.X");
    // The three white stones go to Black under the Logical Rules.
    assert_eq!(g.prisoners(Color::Black), 3);
    let (b, r) = setup(
        "1x6",
        Ruleset::TrompTaylor,
        start,
        None,
        Some(Suicide::Forbidden),
    );
    let g = Game::new(&b, &r);
    assert!(!g.is_legal(at(&b, "C1")));
    assert!(g.is_legal(at(&b, "E1")));
}

/// Black's stone in the middle of White's shape removes only itself.
const HOLE: &str = ".O./O.O/.O.";

#[test]
fn positional_and_situational_superko_differ_on_a_suicide() {
    let (b, r) = setup(
        "3x3",
        Ruleset::TrompTaylor,
        HOLE,
        Some(Superko::Positional),
        None,
    );
    assert!(
        !Game::new(&b, &r).is_legal(at(&b, "B2")),
        "positional: the colouring repeats"
    );
    let (b, r) = setup(
        "3x3",
        Ruleset::TrompTaylor,
        HOLE,
        Some(Superko::Situational),
        None,
    );
    let mut g = Game::new(&b, &r);
    assert!(
        g.is_legal(at(&b, "B2")),
        "situational: this colouring with White to move is new"
    );
    g.play(at(&b, "B2"));
    assert_eq!(shows(&g), HOLE);
    assert_eq!(g.to_move(), Color::White);
    // White passes: passes are never rejected, even when they repeat a state.
    g.play(Move::Pass);
    assert_eq!(g.outcome(), None);
    // Now Black to move: the same suicide would make (colouring, White) again.
    assert!(!g.is_legal(at(&b, "B2")));
}

#[test]
fn repetition_under_basic_ko_is_a_tie_whatever_the_komi() {
    let board = Board::parse("3x3").unwrap();
    let opts = RuleOptions {
        superko: Some(Superko::None),
        komi: Some(Komi(15)),
        start: Some(HOLE.into()),
        suicide: None,
    };
    let rules = Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
    let mut g = Game::new(&board, &rules);
    g.play(at(&board, "B2")); // suicide: same colouring, White to move: new
    assert_eq!(g.outcome(), None);
    g.play(Move::Pass); // same colouring, Black to move: the start again
    assert_eq!(g.outcome(), Some(Outcome::Score(0)));
    assert!(g.legal_moves().is_empty());
}

/// A ko on 3x4: Black captures at C2, then White may not retake at once.
const KO: &str = ".XO./XO.O/.XO.";

#[test]
fn ko_recapture_is_rejected_by_every_repetition_rule() {
    for superko in [Superko::Positional, Superko::Situational, Superko::None] {
        let (b, r) = setup("3x4", Ruleset::TrompTaylor, KO, Some(superko), None);
        let mut g = Game::new(&b, &r);
        g.play(at(&b, "C2"));
        assert_eq!(shows(&g), ".XO./X.XO/.XO.");
        assert!(!g.is_legal(at(&b, "B2")), "{superko}: immediate recapture");
        // After a ko threat and its answer the colouring is new: allowed.
        g.play(at(&b, "D1"));
        g.play(at(&b, "A1"));
        assert!(
            g.is_legal(at(&b, "B2")),
            "{superko}: recapture after an exchange"
        );
        g.play(at(&b, "B2"));
        assert_eq!(shows(&g), ".XO./XO.O/XXOO");
    }
}

#[test]
fn ko_bans_name_the_ko_recapture_only() {
    let (b, r) = setup("3x4", Ruleset::TrompTaylor, KO, Some(Superko::None), None);
    let mut g = Game::new(&b, &r);
    assert_eq!(g.ko_bans(), PointSet::EMPTY);
    g.play(at(&b, "C2"));
    let Move::Place(b2) = at(&b, "B2") else {
        unreachable!()
    };
    assert_eq!(g.ko_bans(), PointSet::single(b2));
    g.play(at(&b, "D1"));
    assert_eq!(g.ko_bans(), PointSet::EMPTY);
    // Under positional superko the history decides: no basic-ko bans.
    let (b, r) = setup("3x4", Ruleset::TrompTaylor, KO, None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "C2"));
    assert_eq!(g.ko_bans(), PointSet::EMPTY);
}

/// `Game::ko_bans` (which tries only the placings that can recreate the
/// colouring) against every empty point tried, at every node of random
/// games under `--superko none`, with and without suicide: the bans after
/// a ko capture and after an unchanged colouring both occur.
#[test]
fn ko_bans_are_exactly_the_placings_basic_ko_refuses() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut kos, mut unchanged) = (0, 0);
    for spec in ["1x5", "2x3", "cycle:5", "3x3", "2x4"] {
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let board = Board::parse(spec).unwrap();
            let opts = RuleOptions {
                superko: Some(Superko::None),
                suicide: Some(suicide),
                ..RuleOptions::default()
            };
            let rules = Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
            for _ in 0..300 {
                let mut g = Game::new(&board, &rules);
                while g.outcome().is_none() {
                    let h = g.history();
                    if h.len() >= 2 {
                        let before = h[h.len() - 2].pos;
                        let now = g.position();
                        let mut want = 0u64;
                        for p in 0..board.len() as u8 {
                            if now.empty(&board).contains(p)
                                && now.place(&board, p, g.to_move(), PointSet::EMPTY).position
                                    == before
                            {
                                want |= 1 << p;
                            }
                        }
                        assert_eq!(g.ko_bans(), PointSet(want), "{spec} {}", shows(&g));
                        for p in 0..board.len() as u8 {
                            if want >> p & 1 == 1 {
                                assert!(!g.is_legal(Move::Place(p)));
                            }
                        }
                        if want != 0 && before == now {
                            unchanged += 1;
                        } else if want != 0 {
                            kos += 1;
                        }
                    }
                    let moves = g.legal_moves();
                    // Few passes, so that games last.
                    let m = moves[next() as usize % moves.len()];
                    if m == Move::Pass && next() % 4 != 0 {
                        continue;
                    }
                    g.play(m);
                }
            }
        }
    }
    assert!(kos > 0 && unchanged > 0, "kos {kos}, unchanged {unchanged}");
}

#[test]
fn two_passes_end_a_scored_game() {
    let kinds = [
        (Ruleset::TrompTaylor, None),
        (Ruleset::TrompTaylor, Some(Superko::Situational)),
        // The second pass recreates the state before the first: still scored, no tie.
        (Ruleset::TrompTaylor, Some(Superko::None)),
        (Ruleset::Ggg, None),
        (Ruleset::Logical, None),
    ];
    for (ruleset, superko) in kinds {
        let (b, r) = setup("1x3", ruleset, "...", superko, None);
        let mut g = Game::new(&b, &r);
        g.play(Move::Pass);
        assert_eq!(g.outcome(), None, "{ruleset}: one pass");
        g.play(at(&b, "B1"));
        g.play(Move::Pass);
        g.play(Move::Pass);
        assert!(g.legal_moves().is_empty(), "{ruleset}");
        assert!(!g.is_legal(Move::Pass));
        assert_eq!(
            g.outcome(),
            Some(Outcome::Score(-6)),
            "{ruleset}: White owns the line"
        );
    }
}

#[test]
fn area_scoring_of_neutral_points_and_komi() {
    let board = Board::parse("1x5").unwrap();
    for (komi, want) in [(0, -4), (1, -5), (-4, 0)] {
        let opts = RuleOptions {
            start: Some("X.O..".into()),
            komi: Some(Komi(komi)),
            ..Default::default()
        };
        let rules = Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
        let mut g = Game::new(&board, &rules);
        // B1 touches both colours: nobody's. D1, E1 reach only White.
        assert_eq!(g.scores(), (1, 3));
        g.play(Move::Pass);
        g.play(Move::Pass);
        assert_eq!(g.outcome(), Some(Outcome::Score(want)));
    }
}

#[test]
fn ggg_counts_untouched_regions_for_both() {
    let board = Board::from_edge_list("two", "0 1\n2 3\n").unwrap();
    let opts = RuleOptions {
        start: Some("X...".into()),
        ..Default::default()
    };
    let tt = Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
    let ggg = Rules::build(Ruleset::Ggg, &opts, &board).unwrap();
    assert_eq!(Game::new(&board, &tt).scores(), (2, 0));
    assert_eq!(Game::new(&board, &ggg).scores(), (4, 2));
    assert_eq!(
        Game::new(&board, &tt).final_score(),
        Game::new(&board, &ggg).final_score()
    );
}

#[test]
fn logical_score_adds_prisoners() {
    let (b, r) = setup("3x3", Ruleset::Logical, ".X./XO./.X.", None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "C2"));
    g.play(Move::Pass);
    g.play(Move::Pass);
    // Black: 4 stones + 5 territory + 1 prisoner.
    assert_eq!(g.scores(), (10, 0));
    assert_eq!(g.outcome(), Some(Outcome::Score(20)));
}

#[test]
fn conway_has_no_pass_and_the_stuck_player_loses() {
    let (b, r) = setup("1x1", Ruleset::Conway, ".", None, None);
    let g = Game::new(&b, &r);
    // The only placing is a suicide that recreates the empty board.
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    let (b, r) = setup("1x2", Ruleset::Conway, "..", None, None);
    let mut g = Game::new(&b, &r);
    assert!(!g.is_legal(Move::Pass));
    g.play(at(&b, "A1"));
    g.play(at(&b, "B1")); // captures A1
    assert_eq!(shows(&g), ".O");
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn conway_replacement_pass_spends_a_prisoner_outside_the_history() {
    let (b, r) = setup("1x2", Ruleset::ConwayReplacement, "..", None, None);
    let mut g = Game::new(&b, &r);
    assert!(!g.is_legal(Move::Pass), "no prisoner, no pass");
    g.play(at(&b, "A1"));
    g.play(at(&b, "B1"));
    assert_eq!(g.prisoners(Color::White), 1);
    // Black: A1 would repeat "X.", B1 is taken, no prisoner: Black loses.
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));

    let (b, r) = setup("1x3", Ruleset::ConwayReplacement, "...", None, None);
    let mut g = Game::new(&b, &r);
    g.set_prisoners(1, 0);
    let before = g.history().len();
    g.play(Move::Pass);
    assert_eq!((g.prisoners(Color::Black), g.to_move()), (0, Color::White));
    assert_eq!(g.history().len(), before, "a pass is not a move");
    g.set_prisoners(0, 2);
    g.play(Move::Pass);
    g.play(at(&b, "B1"));
    g.play(Move::Pass);
    assert_eq!(g.outcome(), None, "passes never end the game");
}

#[test]
fn koh_never_replays_a_point_and_keeps_border_stones() {
    // B / W are border stones, assumed alive; O can be captured.
    let (b, r) = setup("1x3", Ruleset::Koh, "B.O", None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "B1"));
    assert_eq!(shows(&g), "XX.");
    assert_eq!(g.prisoners(Color::Black), 1);
    // C1 is empty but has held a stone; White has no prisoner to give back.
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));

    // A white stone between two black border stones would be suicide.
    let (b, r) = setup("1x3", Ruleset::Koh, "W: B.B", None, None);
    let mut g = Game::new(&b, &r);
    assert!(g.legal_moves().is_empty());
    g.set_prisoners(0, 1);
    assert_eq!(g.legal_moves(), vec![Move::Pass]);

    // Border stones without liberties are fine; the region between is played once.
    let (b, r) = setup("1x4", Ruleset::Koh, "B..W", None, None);
    let mut g = Game::new(&b, &r);
    g.play(at(&b, "B1"));
    g.play(at(&b, "C1"));
    assert_eq!(shows(&g), "XXOO");
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn the_start_diagram_may_give_white_the_move() {
    let (b, r) = setup("1x3", Ruleset::Ggg, "W: X..", None, None);
    let mut g = Game::new(&b, &r);
    assert_eq!(g.to_move(), Color::White);
    g.play(at(&b, "C1"));
    assert_eq!(shows(&g), "X.O");
}

#[test]
fn ternary_codes_decode_to_their_colouring() {
    use gosolve::engine::game::{from_ternary, ternary};
    for n in [1, 5, 9] {
        let mut seen = std::collections::HashSet::new();
        for t in 0..3u64.pow(n as u32) {
            let pos = from_ternary(t, n);
            assert_eq!(pos.black & pos.white, PointSet::EMPTY);
            assert!((pos.black | pos.white).0 >> n == 0);
            assert_eq!(ternary(pos), t);
            assert!(seen.insert(pos));
        }
    }
}
