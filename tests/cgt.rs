//! Combinatorial game theory (issue 6): textbook identities and seed 003's
//! statements, each computed by the `cgt` module, and properties of sums,
//! negation and canonical forms on random small games. Go regions are in
//! `tests/regions.rs`.

use gosolve::cgt::koh::{Counting, value};
use gosolve::cgt::notation::{Style, parse, write};
use gosolve::cgt::region::Region;
use gosolve::cgt::thermo::{
    chill, cool, left_stop, mean, right_stop, temperature, thermograph, warm,
};
use gosolve::cgt::{Dyadic, Game};
use proptest::prelude::*;

fn g(s: &str) -> Game {
    parse(s).unwrap()
}

fn d(s: &str) -> Dyadic {
    s.parse().unwrap()
}

/// A Go region's value (seed 003's counting).
fn region(spec: &str) -> Game {
    value(&Region::parse(spec).unwrap(), Counting::Territory)
}

#[test]
fn textbook_identities() {
    let (up, star, zero) = (Game::up(), Game::star(), Game::zero());
    assert_eq!(up + up + star, g("⇑*"));
    assert_eq!(up + up + star, g("^^*"));
    assert_eq!(star + star, zero);
    assert_eq!(Game::new(vec![zero], vec![up]), up + up + star);
    assert_eq!(g("1/2") + g("1/2"), Game::integer(1));
    assert!(up > zero);
    assert!(up.confused(star) && up.partial_cmp(&star).is_none());
    assert!(g("v") < zero && g("↓") == -up);
    // {0 | ↑} written out: ⇑* and nothing else.
    assert_eq!(write(Game::new(vec![zero], vec![up]), Style::Unicode), "⇑*");
}

#[test]
fn hot_game_temperature_and_mean() {
    let x = g("{3|-2}");
    assert_eq!(temperature(x), d("5/2"));
    assert_eq!(mean(x), d("1/2"));
    assert_eq!((left_stop(x), right_stop(x)), (d("3"), d("-2")));
    // Cooled by its temperature it is infinitesimally close to the mean;
    // any further it is the mean.
    assert_eq!(
        cool(x, d("5/2")),
        Game::from_number(d("1/2")) + Game::star()
    );
    assert_eq!(cool(x, d("3")), Game::from_number(d("1/2")));
    assert_eq!(cool(x, d("1")), g("{2|-1}"));
    let th = thermograph(x);
    assert_eq!(th.left.at(d("1")), d("2"));
    assert_eq!(th.right.at(d("1")), d("-1"));
}

#[test]
fn temperatures_of_small_games() {
    assert_eq!(temperature(g("*")), Dyadic::ZERO);
    assert_eq!(temperature(g("^")), Dyadic::ZERO);
    assert_eq!(temperature(g("±1")), d("1"));
    assert_eq!(temperature(g("3")), d("-1"));
    assert_eq!(temperature(g("3/4")), d("-1/4"));
    // {2 | {1 | *}}: the Left stop 2, the right option's mean 1.
    let c3 = g("{2|{1|*}}");
    assert_eq!((left_stop(c3), right_stop(c3)), (d("2"), d("1")));
    // {1|*} has mean 1/2 at temperature 1/2; then 2 − t meets 1/2 + t.
    assert_eq!(temperature(g("{1|*}")), d("1/2"));
    assert_eq!(temperature(c3), d("3/4"));
    assert_eq!(Some(mean(c3)), chill(c3).as_number());
}

#[test]
fn seed_003_chilled_examples() {
    assert_eq!(chill(g("{4|{3|{2|0}}}")), g("3") + g("⇑*"));
    assert_eq!(chill(g("{{0|-2}|-3}")), g("-2") + g("↓"));
    // The example's chilled sum (seed 003, §6: regions B, F, C, D, E) is *,
    // which warms to ±1.
    let parts = [
        region("corridor:unblocked:4"),
        region("corridor:blocked:2"),
        g("{4|{3|{2|0}}}"),
        g("{{0|-2}|-3}"),
        g("{{0|-2}|-3}"),
    ];
    assert_eq!(chill(parts[0]), g("1/2"));
    assert_eq!(chill(parts[1]), g("1/2"));
    let chilled: Game = parts.iter().map(|&p| chill(p)).sum();
    assert_eq!(chilled, Game::star());
    assert_eq!(warm(chilled), g("±1"));
    // The warmed values seed 003 quotes.
    assert_eq!(warm(g("⇓*")), g("{1+{{2|0}|-1}|-1}"));
    assert_eq!(warm(g("↑")), g("{1|{0|-2}}"));
}

#[test]
fn seed_003_warming_inverts_chilling_and_chilling_is_cooling() {
    // Theorem 4.9 and Corollary 4.10: ∫f(G) is G for an even Go position and
    // G* for an odd one (parity belongs to the position, not the value).
    let games: Vec<Game> = [
        "{4|{3|{2|0}}}",
        "{{0|-2}|-3}",
        "{2|{1|*}}",
        "*",
        "1",
        "{1|-1}",
    ]
    .iter()
    .map(|s| g(s))
    .chain((1..=6).map(|n| region(&format!("corridor:blocked:{n}"))))
    .collect();
    for x in games {
        let w = warm(chill(x));
        assert!(w == x || w == x + Game::star(), "∫f({x}) = {w}");
        assert_eq!(
            chill(x),
            cool(x, Dyadic::int(1)),
            "f({x}) = {x} cooled by 1"
        );
    }
}

#[test]
fn notation_round_trips() {
    for s in [
        "{2|{1|*}}",
        "3/4",
        "-1/2",
        "*",
        "*2",
        "^",
        "v",
        "^^*",
        "{1|}",
        "{|}",
        "{3|-2}",
        "±1",
        "3⇑*",
        "-2↓",
        "{0,*|0}",
        "{^|v}",
    ] {
        let x = g(s);
        assert_eq!(g(&write(x, Style::Unicode)), x, "{s}");
        assert_eq!(g(&write(x, Style::Ascii)), x, "{s}");
    }
    assert_eq!(g("{|}"), Game::zero());
    assert_eq!(g("{1|}"), Game::integer(2));
    assert_eq!(g("*2"), Game::nimber(2));
}

/// A game form as built, not simplified.
#[derive(Clone, Debug)]
struct Raw(Vec<Raw>, Vec<Raw>);

impl Raw {
    fn game(&self) -> Game {
        Game::new(
            self.0.iter().map(Raw::game).collect(),
            self.1.iter().map(Raw::game).collect(),
        )
    }

    fn of(x: Game) -> Raw {
        Raw(
            x.left().into_iter().map(Raw::of).collect(),
            x.right().into_iter().map(Raw::of).collect(),
        )
    }
}

/// x ≤ y straight from the definition, on forms.
fn naive_le(x: &Raw, y: &Raw) -> bool {
    !x.0.iter().any(|xl| naive_le(y, xl)) && !y.1.iter().any(|yr| naive_le(yr, x))
}

fn raw_games() -> impl Strategy<Value = Raw> {
    let leaf = prop_oneof![
        Just(Raw(vec![], vec![])),
        (-2i64..=2).prop_map(|k| Raw::of(Game::integer(k))),
        Just(Raw::of(Game::from_number(Dyadic::new(1, 1)))),
    ];
    leaf.prop_recursive(3, 24, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..3),
            prop::collection::vec(inner, 0..3),
        )
            .prop_map(|(l, r)| Raw(l, r))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn canonical_form_equals_the_form(r in raw_games()) {
        let x = r.game();
        let c = Raw::of(x);
        prop_assert!(naive_le(&r, &c) && naive_le(&c, &r));
        prop_assert_eq!(Game::new(x.left(), x.right()), x);
        prop_assert_eq!(parse(&write(x, Style::Ascii)).unwrap(), x);
        prop_assert_eq!(parse(&x.to_string()).unwrap(), x);
    }

    #[test]
    fn group_laws(a in raw_games(), b in raw_games()) {
        let (x, y) = (a.game(), b.game());
        prop_assert_eq!(x - x, Game::zero());
        prop_assert_eq!(x + y, y + x);
        prop_assert_eq!(-(x + y), -x + -y);
        // The order agrees with the definition applied to the forms.
        prop_assert_eq!(x <= y, naive_le(&a, &b));
        prop_assert_eq!(x >= y, naive_le(&b, &a));
    }

    #[test]
    fn stops_bracket_the_mean(a in raw_games()) {
        let x = a.game();
        prop_assert!(left_stop(x) >= mean(x) && mean(x) >= right_stop(x));
        prop_assert_eq!(mean(x + x), mean(x) + mean(x));
    }

    #[test]
    fn thermograph_walls_are_the_stops_of_the_cooled_game(a in raw_games()) {
        let x = a.game();
        let th = thermograph(x);
        for t in ["0", "1/4", "1/2", "1", "3/2", "2", "3"].map(d) {
            let c = cool(x, t);
            prop_assert_eq!(left_stop(c), th.left.at(t), "left wall of {} at {}", x, t);
            prop_assert_eq!(right_stop(c), th.right.at(t), "right wall of {} at {}", x, t);
        }
    }
}
