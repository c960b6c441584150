//! Go regions as combinatorial games (issue 6, seed 003): the values seed
//! 003 states, computed from the regions; Theorem 4.9 on every region of
//! a systematic family; and the sum rule against the solver's direct
//! search of whole boards made of several regions.

mod common;

use common::regions::{boundary, colourings, diagram, few_whites, polyominoes};
use gosolve::cgt::koh::{Counting, value};
use gosolve::cgt::notation::parse;
use gosolve::cgt::region::Region;
use gosolve::cgt::sum::{Part, Sum};
use gosolve::cgt::thermo::{chill, cool, warm};
use gosolve::cgt::{Dyadic, Game};
use gosolve::engine::board::Board;
use gosolve::engine::rules::{RuleOptions, Rules, Ruleset};
use gosolve::engine::types::{Color, Move};
use gosolve::search::root::solve;
use gosolve::search::solver::{Config, Shared};

fn region(spec: &str) -> Game {
    value(&Region::parse(spec).unwrap(), Counting::Territory)
}

/// 2^k for any integer k, exactly.
fn pow2(k: i64) -> Dyadic {
    if k >= 0 {
        Dyadic::int(1 << k)
    } else {
        Dyadic::new(1, (-k) as u32)
    }
}

#[test]
fn seed_003_figure_1_values() {
    assert_eq!(region("dame"), Game::star());
    assert_eq!(region("eye:1"), Game::integer(1));
    assert_eq!(region("corridor:blocked:3"), parse("{2|{1|*}}").unwrap());
    // "We can expand the space in the middle of the eye ... to get
    // multiple points": an eye of n points is worth n.
    for n in 1..=8 {
        assert_eq!(region(&format!("eye:{n}")), Game::integer(n), "eye:{n}");
    }
}

#[test]
fn seed_003_corridors_chill_to_numbers() {
    // Theorems 5.1 and 5.2: length n ≥ least chills to n − a + 2^(b − n).
    for (kind, least, a, b) in [("blocked", 1, 2, 1), ("unblocked", 2, 4, 3)] {
        for n in least..=10 {
            let spec = format!("corridor:{kind}:{n}");
            let (g, want) = (region(&spec), Dyadic::int(n - a) + pow2(b - n));
            assert_eq!(chill(g).as_number(), Some(want), "{spec}: {g}");
            // The negatives hold with colours swapped.
            let swapped = region(&format!("-{spec}"));
            assert_eq!(swapped, -g, "-{spec}");
            assert_eq!(chill(swapped).as_number(), Some(-want), "-{spec}");
        }
    }
    // Found on the way: as games, the unblocked corridor of length n is the
    // blocked one of length n − 2 (so the two formulas differ by that).
    for n in 3..=10 {
        let blocked = region(&format!("corridor:blocked:{}", n - 2));
        assert_eq!(region(&format!("corridor:unblocked:{n}")), blocked, "{n}");
    }
}

#[test]
fn prisoners_only_counting_breaks_the_parity_theorem_4_9_needs() {
    // The two-point eye is even, but counted by prisoners alone a captured
    // intruder is worth 1, the eye 3/2, and ∫f(3/2) = ∫1 = 1*.
    let eye = value(&Region::parse("eye:2").unwrap(), Counting::Prisoners);
    assert_eq!(eye, parse("3/2").unwrap());
    assert_eq!(warm(chill(eye)), parse("1*").unwrap());
    assert_eq!(check_theorem_4_9("BBBB/B..B/BBBB"), Vec::<String>::new());
}

/// Seed 003, §6: C is a black corridor of three points with a white stone
/// at its closed end and White at its mouth ("a single play by left
/// captures 3 spaces and a white stone"); D is White's corridor of two
/// points with a black stone inside. (E, drawn otherwise in the seed, has
/// D's value; D's diagram stands for both.)
const REGION_C: &str = "[#BBBB#/BO...W/#BBBB#]";
const REGION_D: &str = "[#WWW#/WX..B/#WWW#]";

#[test]
fn seed_003_section_6_example() {
    let g = |s: &str| parse(s).unwrap();
    // B (unblocked, length 4) and F (blocked, length 2) chill to 1/2 each.
    assert_eq!(chill(region("corridor:unblocked:4")), g("1/2"));
    assert_eq!(chill(region("corridor:blocked:2")), g("1/2"));
    assert_eq!(region(REGION_C), g("{4|{3|{2|0}}}"));
    assert_eq!(chill(region(REGION_C)), g("3⇑*"));
    assert_eq!(region(REGION_D), g("{{0|-2}|-3}"));
    assert_eq!(chill(region(REGION_D)), g("-2↓"));
    // The board without its dame: chilled *, warmed ±1, and odd (13 empty
    // points), so ±1 + * itself: the first player wins.
    let text =
        format!("corridor:unblocked:4 + corridor:blocked:2 + {REGION_C} + {REGION_D} + {REGION_D}");
    let mut sum = Sum::parse(&text, Counting::Territory).unwrap();
    let total = sum.value();
    assert_eq!(chill(total), Game::star());
    assert_eq!(warm(chill(total)) + Game::star(), total);
    assert_eq!(total, g("±1") + Game::star());
    // "The winning move for right here is ... playing at C"; Left "will
    // want to move one of the −2 + ↓" (D or E). Such moves win the Go
    // position itself, but so does a move in any of the five regions, for
    // either player: the seed reads "the" move off the chilled sum.
    let winning_terms = |sum: &mut Sum, colour: Color| {
        let mut terms = Vec::new();
        for (i, t) in sum.terms.iter_mut().enumerate() {
            let Part::Region(values) = &mut t.part else {
                unreachable!("only regions")
            };
            for p in values.plays(colour) {
                let after = total - t.value + p.after;
                let wins = match colour {
                    Color::Black => after >= Game::zero(),
                    Color::White => after <= Game::zero(),
                };
                if wins && !terms.contains(&i) {
                    terms.push(i);
                }
            }
        }
        terms
    };
    assert_eq!(winning_terms(&mut sum, Color::White), [0, 1, 2, 3, 4]);
    assert_eq!(winning_terms(&mut sum, Color::Black), [0, 1, 2, 3, 4]);
}

/// Checks Theorem 4.9 (G = ∫f(G) for an even G), Corollary 4.10 (∫f(G)
/// = G* for an odd one) and Lemma 4.8 (f(G) = G cooled by 1, even G) on
/// one region; "even" is Definition 4.1: captured stones (none yet) plus
/// empty points. Returns the failures found.
fn check_theorem_4_9(diagram: &str) -> Vec<String> {
    let r = Region::from_diagram(diagram, diagram).unwrap();
    let g = value(&r, Counting::Territory);
    let even = r.empty().len() % 2 == 0;
    let (f, w) = (chill(g), warm(chill(g)));
    let mut bad = Vec::new();
    if even && w != g {
        bad.push(format!("{diagram} (even): G = {g}, ∫f(G) = {w}"));
    }
    if !even && w != g + Game::star() {
        bad.push(format!("{diagram} (odd): G = {g}, ∫f(G) = {w}"));
    }
    if even && f != cool(g, Dyadic::int(1)) {
        bad.push(format!("{diagram} (even): f(G) = {f} is not G cooled by 1"));
    }
    bad
}

/// The family: every polyomino of empty points up to `max` cells, its
/// neighbouring cells black and white border stones — every colouring up
/// to `all_up_to` cells, then those with at most `whites` white stones
/// (the others are their colour swaps' negatives) — and, up to
/// `stones_up_to` cells, every filling of the cells with `.`, `X` and `O`
/// (one white border stone at most). Returns (regions, failures).
fn theorem_4_9_family(
    max: usize,
    all_up_to: usize,
    whites: usize,
    stones_up_to: usize,
) -> (usize, Vec<String>) {
    let (mut count, mut bad) = (0, Vec::new());
    for (i, shapes) in polyominoes(max).iter().enumerate() {
        let n = i + 1;
        for s in shapes {
            let b = boundary(s);
            let borders = if n <= all_up_to {
                colourings(b.len(), &['B', 'W'])
            } else {
                few_whites(b.len(), whites)
            };
            for border in &borders {
                bad.extend(check_theorem_4_9(&diagram(s, &vec!['.'; n], border)));
                count += 1;
            }
            if n > stones_up_to {
                continue;
            }
            for inside in colourings(n, &['.', 'X', 'O']) {
                if !inside.contains(&'.') || !inside.contains(&'X') && !inside.contains(&'O') {
                    continue;
                }
                for border in few_whites(b.len(), 1) {
                    let d = diagram(s, &inside, &border);
                    // Stones without a liberty: not a position.
                    if Region::from_diagram(&d, &d).is_ok() {
                        bad.extend(check_theorem_4_9(&d));
                        count += 1;
                    }
                }
            }
        }
    }
    (count, bad)
}

#[test]
fn polyominoes_are_counted_right() {
    let counts: Vec<usize> = polyominoes(8).iter().map(Vec::len).collect();
    assert_eq!(counts, [1, 1, 2, 5, 12, 35, 108, 369]);
}

/// Runs [`theorem_4_9_family`] and fails with every failure listed.
/// Returns how many regions it checked.
fn assert_theorem_4_9(max: usize, all_up_to: usize, whites: usize, stones_up_to: usize) -> usize {
    let (count, bad) = theorem_4_9_family(max, all_up_to, whites, stones_up_to);
    let list = bad.join("\n");
    assert!(bad.is_empty(), "{} of {count} fail:\n{list}", bad.len());
    count
}

#[test]
fn seed_003_theorem_4_9_on_every_generated_region() {
    let count = assert_theorem_4_9(8, 5, 1, 5);
    assert!(count > 30_000, "{count} regions");
    println!("{count} regions checked");
}

/// About a minute: run by `scripts/region-times.sh`.
#[test]
#[ignore]
fn seed_003_theorem_4_9_on_the_larger_family() {
    let count = assert_theorem_4_9(8, 6, 2, 6);
    println!("{count} regions checked");
}

#[test]
fn colour_swapped_regions_are_negatives() {
    for (i, shapes) in polyominoes(4).iter().enumerate() {
        for s in shapes {
            let b = boundary(s);
            for inside in colourings(i + 1, &['.', 'X']) {
                for border in colourings(b.len(), &['B', 'W']) {
                    let d = diagram(s, &inside, &border);
                    let Ok(r) = Region::from_diagram(&d, &d) else {
                        continue;
                    };
                    for counting in [Counting::Territory, Counting::Prisoners] {
                        assert_eq!(value(&r.swapped(), counting), -value(&r, counting), "{d}");
                    }
                }
            }
        }
    }
}

/// A small pseudo-random generator (xorshift), so the combinations are
/// the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick(&mut self, s: &[char]) -> char {
        s[self.below(s.len() as u64) as usize]
    }
}

/// A random region in a full frame of border stones (so regions stacked
/// on one board stay independent): rows of equal length, top first.
fn random_region(rng: &mut Rng) -> Vec<String> {
    loop {
        let (h, w) = (1 + rng.below(2) as usize, 1 + rng.below(4) as usize);
        let frame = [rng.pick(&['B', 'W']), rng.pick(&['B', 'W'])];
        let mut rows = Vec::new();
        for r in 0..h + 2 {
            let row: String = (0..w + 2)
                .map(|c| {
                    if r == 0 || c == 0 || r == h + 1 || c == w + 1 {
                        frame[rng.below(2) as usize]
                    } else {
                        rng.pick(&['.', '.', '.', '.', '.', '.', 'X', 'O', 'B', 'W'])
                    }
                })
                .collect();
            rows.push(row);
        }
        let d = rows.join("/");
        if let Ok(r) = Region::from_diagram(&d, &d) {
            if !r.empty().is_empty() {
                return rows;
            }
        }
    }
}

/// Stacks regions into one board diagram, padding short rows with their
/// last (border) stone.
fn stack(parts: &[Vec<String>]) -> (usize, usize, String) {
    let width = parts.iter().flatten().map(String::len).max().unwrap();
    let rows: Vec<String> = parts
        .iter()
        .flatten()
        .map(|r| {
            let pad = r.chars().last().unwrap().to_string();
            format!("{r}{}", pad.repeat(width - r.len()))
        })
        .collect();
    (rows.len(), width, rows.join("/"))
}

/// The whole board solved by direct search with `to_move` first: whether
/// Black wins, and each first move with whether it wins for the mover.
fn search(board: &Board, diagram: &str, to_move: char) -> (bool, Vec<(Move, bool)>) {
    let opts = RuleOptions {
        start: Some(format!("{to_move}: {diagram}")),
        ..Default::default()
    };
    let rules = Rules::build(Ruleset::Koh, &opts, board).unwrap();
    let config = Config {
        tt_mb: 8,
        ..Config::default()
    };
    let sol = solve(&Shared::new(board, &rules, config).unwrap(), &|_, _| {});
    let sign = if to_move == 'B' { 1 } else { -1 };
    let moves = sol
        .moves
        .iter()
        .flat_map(|m| m.class.iter().map(move |&mv| (mv, sign * m.value > 0)))
        .collect();
    (sol.value > 0, moves)
}

/// The board point of a region's point `name`, for region `term` of the
/// stacked parts (its rows counted from its own bottom).
fn on_board(board: &Board, parts: &[Vec<String>], term: usize, name: &str) -> Move {
    let split = name.find(|c: char| c.is_ascii_digit()).unwrap();
    let row: usize = name[split..].parse().unwrap();
    let below: usize = parts[term + 1..].iter().map(Vec::len).sum();
    let p = board.parse_point(&format!("{}{}", &name[..split], below + row));
    Move::Place(p.unwrap())
}

#[test]
fn sum_rule_against_the_solver() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut done = 0;
    while done < 1000 {
        let k = 2 + (done % 2);
        let parts: Vec<Vec<String>> = (0..k).map(|_| random_region(&mut rng)).collect();
        let (rows, cols, diagram) = stack(&parts);
        let terms: Vec<String> = parts.iter().map(|p| format!("[{}]", p.join("/"))).collect();
        // `koh` as the solver plays it: a capture scores its prisoners.
        let mut sum = Sum::parse(&terms.join(" + "), Counting::Prisoners).unwrap();
        let empty: u32 = sum
            .terms
            .iter()
            .map(|t| match &t.part {
                Part::Region(v) => v.region().empty().len(),
                Part::Game => unreachable!("only regions"),
            })
            .sum();
        if rows * cols > 64 || empty > 14 {
            continue;
        }
        let board = Board::grid(rows, cols).unwrap();
        let g = sum.value();
        // Black wins moving first unless G ≤ 0, and moving second when G ≥ 0.
        let outcome = [!g.le(Game::zero()), g.ge(Game::zero())];
        for (i, (to_move, colour)) in [('B', Color::Black), ('W', Color::White)]
            .into_iter()
            .enumerate()
        {
            let (black_wins, moves) = search(&board, &diagram, to_move);
            let what = format!("{diagram}, {colour} first: sum {g}");
            assert_eq!(black_wins, outcome[i], "{what}");
            // The winning move named is one the search finds winning.
            let mover_wins = black_wins == (colour == Color::Black);
            match sum.winning_move(colour) {
                None => assert!(!mover_wins, "{what}: no winning move named"),
                Some(w) => {
                    let mv = on_board(&board, &parts, w.term, &w.play);
                    assert!(moves.contains(&(mv, true)), "{what}: {w:?} is {mv:?}");
                }
            }
        }
        done += 1;
    }
}
