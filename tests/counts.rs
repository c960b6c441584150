//! Exact counts: legal positions and games, against the published table and
//! against the naive implementation.

mod common;

use common::naive;
use gosolve::cli::published::{Kind, figures};
use gosolve::count::games::{count_games, perft};
use gosolve::count::positions::{
    CountError, count_auto, count_auto_told, count_brute, count_brute_told, count_frontier,
};
use gosolve::engine::board::Board;
use gosolve::engine::rules::{RuleOptions, Rules, Ruleset, Suicide, Superko};

/// Every published legal-position count within reach is reproduced by the
/// frontier method, and by brute force up to 16 points.
#[test]
fn legal_positions_match_published() {
    let mut checked = 0;
    for f in figures().into_iter().filter(|f| f.kind == Kind::Legal) {
        let board = Board::parse(&f.board).unwrap();
        let n = count_frontier(&board).unwrap();
        assert_eq!(n as i128, f.figure, "{} (frontier)", f.board);
        if board.len() <= 16 {
            let brute = count_brute(&board).unwrap();
            assert_eq!(brute as i128, f.figure, "{} (brute)", f.board);
        }
        checked += 1;
    }
    assert!(checked >= 28, "only {checked} figures checked");
}

/// The naive rules code counts the same legal positions on small graphs.
#[test]
fn legal_positions_match_naive() {
    for spec in [
        "1x6",
        "2x3",
        "3x3",
        "cycle:6",
        "complete:5",
        "star:5",
        "petersen",
        "torus:3x3",
        "cube:3",
    ] {
        let board = Board::parse(spec).unwrap();
        let g = common::naive_graph(&board);
        let naive = g.all_colourings().iter().filter(|c| g.is_legal(c)).count() as u128;
        assert_eq!(count_frontier(&board), Ok(naive), "{spec}");
        assert_eq!(count_brute(&board), Ok(naive), "{spec}");
    }
}

/// Counts on larger graphs where the two engine methods check each other.
#[test]
fn frontier_and_brute_agree_on_larger_graphs() {
    for spec in [
        "cube:4",
        "torus:4x4",
        "petersen",
        "4x4",
        "complete:8",
        "star:12",
        "cycle:16",
    ] {
        let board = Board::parse(spec).unwrap();
        assert_eq!(count_frontier(&board), count_brute(&board), "{spec}");
    }
    // The 4-cube and the 4x4 torus are the same graph.
    let cube = count_frontier(&Board::parse("cube:4").unwrap());
    assert_eq!(cube, count_frontier(&Board::parse("torus:4x4").unwrap()));
    // Complete graphs: with an empty point every stone has a liberty.
    assert_eq!(
        count_brute(&Board::parse("complete:9").unwrap()),
        Ok(3u128.pow(9) - 2u128.pow(9))
    );
}

/// At 63 and 64 points (the last bit of the point set): the frontier
/// method counts every family whose frontier is narrow, exactly; a board
/// neither method can count is an error, not a number. Expected values by
/// hand: on `star:N` with the centre empty every leaf is free (3^N);
/// with the centre black a leaf is empty or black and one must be empty
/// (2^N − 1), the same for white. On a path, a transfer matrix over the
/// last point's colour and whether its run has a liberty yet.
#[test]
fn counts_at_63_and_64_points_are_exact_or_an_error() {
    let count = |s: &str| count_frontier(&Board::parse(s).unwrap());
    for leaves in [62u32, 63] {
        let want = 3u128.pow(leaves) + 2 * ((1u128 << leaves) - 1);
        assert_eq!(count(&format!("star:{leaves}")), Ok(want), "star:{leaves}");
    }
    for n in [63, 64] {
        assert_eq!(count(&format!("path:{n}")), Ok(path_count(n)), "path:{n}");
        assert_eq!(count(&format!("1x{n}")), Ok(path_count(n)), "1x{n}");
    }
    // Grids of 64 points: 2x32 and 4x16 agree with their transposes.
    assert_eq!(count("2x32"), count("32x2"));
    assert_eq!(count("4x16"), count("16x4"));
    assert_eq!(
        count("8x8").unwrap(),
        990_966_953_618_170_260_281_935_463_385
    );
    for spec in ["complete:63", "complete:64", "cube:6"] {
        let board = Board::parse(spec).unwrap();
        assert!(matches!(
            count_frontier(&board),
            Err(CountError::FrontierTooWide { .. })
        ));
        assert!(matches!(
            count_brute(&board),
            Err(CountError::TooManyForBrute { .. })
        ));
        assert!(matches!(
            count_auto(&board),
            Err(CountError::Neither { .. })
        ));
    }
}

/// Legal colourings of the path of `n` points, by a transfer matrix over
/// the last point: empty, or a stone whose run has or lacks a liberty yet.
fn path_count(n: usize) -> u128 {
    // [empty, black without, black with, white without, white with]
    let mut s = [1u128, 1, 0, 1, 0];
    for _ in 1..n {
        let [e, bn, bw, wn, ww] = s;
        s = [
            // An empty point gives the run before it its liberty.
            e + bn + bw + wn + ww,
            // A stone continues its own run or closes the other colour's,
            // which must have its liberty by then.
            bn + ww,
            e + bw,
            wn + bw,
            e + ww,
        ];
    }
    let [e, _, bw, _, ww] = s;
    e + bw + ww
}

/// Game counts that finish in test time.
#[test]
fn games_match_published_small() {
    for f in figures().into_iter().filter(|f| f.kind == Kind::Games) {
        if !["1x1", "1x2", "1x3"].contains(&f.board.as_str()) {
            continue;
        }
        let board = Board::parse(&f.board).unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        assert_eq!(
            count_games(&board, &rules, &|_| {}) as i128,
            f.figure,
            "{}",
            f.board
        );
    }
}

fn rules_for(board: &Board, ruleset: Ruleset, superko: Option<Superko>, suicide: Suicide) -> Rules {
    let opts = RuleOptions {
        superko,
        suicide: Some(suicide),
        ..Default::default()
    };
    Rules::build(ruleset, &opts, board).unwrap()
}

/// Every ruleset and option: the engine's game tree has the same number of
/// nodes at every depth as the naive one, and the same number of games.
#[test]
fn perft_matches_naive_for_every_ruleset() {
    let cases: &[(&str, usize)] = &[
        ("1x3", 30),
        ("2x2", 7),
        ("cycle:3", 30),
        ("star:3", 7),
        ("1x5", 6),
    ];
    for &(spec, depth) in cases {
        let board = Board::parse(spec).unwrap();
        let g = common::naive_graph(&board);
        for &ruleset in Ruleset::ALL {
            for (superko, suicide) in common::rule_variants(ruleset) {
                let rules = rules_for(&board, ruleset, superko, suicide);
                let nr = naive::NaiveRules::of(&rules);
                let start = naive::State::empty(board.len());
                // Passes that spend prisoners make long games: keep the naive tree small.
                let depth = if ruleset == Ruleset::ConwayReplacement {
                    depth.min(12)
                } else {
                    depth
                };
                let want = naive::perft(&g, &nr, &start, depth);
                let got = perft(&board, &rules, depth);
                assert_eq!(got.nodes, want, "{spec} {}", rules.describe());
                if (spec == "1x3" || spec == "cycle:3") && ruleset != Ruleset::ConwayReplacement {
                    assert_eq!(
                        count_games(&board, &rules, &|_| {}),
                        naive::games(&g, &nr, &start),
                        "{spec} {}",
                        rules.describe()
                    );
                }
            }
        }
    }
}

/// Hand-checked perft of the empty 2x2 board (positional superko, suicide allowed).
#[test]
fn perft_2x2_first_depths() {
    let board = Board::parse("2x2").unwrap();
    let p = perft(&board, &Rules::new(Ruleset::TrompTaylor), 2);
    // Depth 1: pass or any of 4 points. Depth 2: after a pass, White passes or
    // plays 4 points; after a black stone, White passes or plays 3 points.
    assert_eq!(p.nodes, vec![1, 5, 5 + 4 * 4]);
    assert_eq!(p.ended, vec![0, 0, 1]);
}

/// A brute-force count tells its progress the number of parts of the 2^n
/// sets of empty points, then once per part counted (`count --method
/// brute` draws its bar from it), and counts the same.
#[test]
fn brute_force_counts_report_progress() {
    use std::sync::Mutex;
    for (spec, parts, want) in [("4x4", 16, 24_318_165), ("2x2", 1, 57)] {
        let board = Board::parse(spec).unwrap();
        let told = Mutex::new(Vec::new());
        let tick = |t: Option<usize>| told.lock().unwrap().push(t);
        assert_eq!(count_brute_told(&board, &tick), Ok(want), "{spec}");
        let told = told.into_inner().unwrap();
        assert_eq!(told[0], Some(parts), "{spec}");
        assert_eq!(told[1..], vec![None; parts], "{spec}");
    }
    // `auto` takes brute force where the frontier is too wide, and tells.
    let board = Board::parse("complete:18").unwrap();
    let told = Mutex::new(0);
    let tick = |t: Option<usize>| *told.lock().unwrap() += t.map_or(1, |_| 0);
    let (n, used) = count_auto_told(&board, &tick).unwrap();
    assert_eq!((n, used), (count_brute(&board).unwrap(), "brute"));
    assert_eq!(told.into_inner().unwrap(), 64);
}

/// `games --depth` reports its subtrees as `games` does, and counts the same.
#[test]
fn perft_reports_progress() {
    use gosolve::count::games::perft_told;
    use std::sync::Mutex;
    let board = Board::parse("2x2").unwrap();
    let rules = Rules::new(Ruleset::TrompTaylor);
    let told = Mutex::new(Vec::new());
    let p = perft_told(&board, &rules, 6, &|t| told.lock().unwrap().push(t));
    assert_eq!(p, perft(&board, &rules, 6));
    let told = told.into_inner().unwrap();
    let Some(n) = told[0] else {
        panic!("the number of subtrees first: {told:?}")
    };
    assert!(n > 0);
    assert_eq!(told[1..], vec![None; n]);
}
