//! Stops, thermographs, temperature and cooling (Siegel's conventions, as
//! CGSuite: walls start at t = −1, a number's thermograph is a mast), and
//! seed 003's chilling f(G) and warming ∫G.

use super::dyadic::Dyadic;
use super::game::Game;

thread_local! {
    /// Stops already computed, per game and side (true: left). Without it
    /// the stops walk every path of the game tree: `*22` took 0.7 s, each
    /// nimber more twice as long.
    static STOPS: std::cell::RefCell<std::collections::HashMap<(Game, bool), Dyadic>> =
        Default::default();
}

/// The left stop: the number reached when Left starts and both play on
/// until a number.
pub fn left_stop(g: Game) -> Dyadic {
    stop(g, true)
}

/// The right stop.
pub fn right_stop(g: Game) -> Dyadic {
    stop(g, false)
}

fn stop(g: Game, left: bool) -> Dyadic {
    if let Some(x) = g.as_number() {
        return x;
    }
    if let Some(x) = STOPS.with(|m| m.borrow().get(&(g, left)).copied()) {
        return x;
    }
    let x = if left {
        g.left().into_iter().map(right_stop).max()
    } else {
        g.right().into_iter().map(left_stop).min()
    }
    .expect("a non-number has options on both sides");
    STOPS.with(|m| m.borrow_mut().insert((g, left), x));
    x
}

/// A continuous piecewise-linear function on t ≥ −1: the values at the
/// breakpoints (the first at t = −1), linear between them, and the slope
/// after the last one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Wall {
    /// (t, value) breakpoints, t increasing.
    pub points: Vec<(Dyadic, Dyadic)>,
    /// The slope after the last breakpoint.
    pub tail: i64,
}

impl Wall {
    fn constant(x: Dyadic) -> Wall {
        Wall {
            points: vec![(Dyadic::int(-1), x)],
            tail: 0,
        }
    }

    /// The value at t (t ≥ −1).
    pub fn at(&self, t: Dyadic) -> Dyadic {
        let i = self.points.partition_point(|p| p.0 <= t);
        let (t0, v0) = self.points[i - 1];
        match self.points.get(i) {
            None => v0 + (t - t0).mul_int(self.tail),
            Some(&(t1, v1)) => {
                // Slopes of walls are small integers, so this is exact.
                let slope = (v1 - v0).div_exact(t1 - t0);
                v0 + (t - t0).mul_int(slope)
            }
        }
    }

    /// f(t) + k·t.
    fn tilt(&self, k: i64) -> Wall {
        Wall {
            points: self
                .points
                .iter()
                .map(|&(t, v)| (t, v + t.mul_int(k)))
                .collect(),
            tail: self.tail + k,
        }
    }

    /// The pointwise maximum (or minimum) of two walls.
    fn merge(&self, o: &Wall, max: bool) -> Wall {
        let mut ts: Vec<Dyadic> = self.points.iter().chain(&o.points).map(|p| p.0).collect();
        ts.sort_unstable();
        ts.dedup();
        let last = *ts.last().unwrap();
        // Crossings between breakpoints, and after the last one.
        let d = |t: Dyadic| self.at(t) - o.at(t);
        let mut extra = Vec::new();
        for w in ts.windows(2) {
            if let Some(c) = crossing(w[0], d(w[0]), w[1], d(w[1])) {
                extra.push(c);
            }
        }
        let dl = d(last);
        let sd = self.tail - o.tail;
        if dl != Dyadic::ZERO && sd != 0 && (dl < Dyadic::ZERO) == (sd > 0) {
            extra.push(last - dl.div_pow2(sd));
        }
        ts.extend(extra);
        ts.sort_unstable();
        ts.dedup();
        let pick = |a: Dyadic, b: Dyadic| if (a > b) == max { a } else { b };
        let points = ts.iter().map(|&t| (t, pick(self.at(t), o.at(t)))).collect();
        let end = *ts.last().unwrap();
        let tail = match self.at(end).cmp(&o.at(end)) {
            std::cmp::Ordering::Equal if max => self.tail.max(o.tail),
            std::cmp::Ordering::Equal => self.tail.min(o.tail),
            c if (c == std::cmp::Ordering::Greater) == max => self.tail,
            _ => o.tail,
        };
        Wall { points, tail }
    }

    /// This wall up to t = end, then vertical (constant).
    fn cut(&self, end: Dyadic) -> Wall {
        let mut points: Vec<_> = self.points.iter().copied().filter(|p| p.0 < end).collect();
        points.push((end, self.at(end)));
        Wall { points, tail: 0 }
    }
}

/// Where a linear difference going from da (at a) to db (at b) strictly
/// changes sign, if it does.
fn crossing(a: Dyadic, da: Dyadic, b: Dyadic, db: Dyadic) -> Option<Dyadic> {
    let z = Dyadic::ZERO;
    if (da < z && db > z) || (da > z && db < z) {
        let slope = (db - da).div_exact(b - a);
        Some(a - da.div_pow2(slope))
    } else {
        None
    }
}

/// A game's thermograph: its two walls up to the temperature, where they
/// meet at the mast (the mean), vertical above.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Thermograph {
    /// The left wall: the left stop of G cooled by t.
    pub left: Wall,
    /// The right wall.
    pub right: Wall,
    /// Where the walls meet (−1 for integers, −1/2^k for m/2^k).
    pub temperature: Dyadic,
    /// The mean value.
    pub mast: Dyadic,
}

/// The thermograph of g, exact.
pub fn thermograph(g: Game) -> Thermograph {
    thermograph_memo(g, &mut std::collections::HashMap::new())
}

fn thermograph_memo(
    g: Game,
    memo: &mut std::collections::HashMap<Game, Thermograph>,
) -> Thermograph {
    if let Some(t) = memo.get(&g) {
        return t.clone();
    }
    let th = if let Some(x) = g.as_number() {
        Thermograph {
            left: Wall::constant(x),
            right: Wall::constant(x),
            temperature: -Dyadic::new(1, x.exp()),
            mast: x,
        }
    } else {
        let walls = |opts: Vec<Game>, left: bool, memo: &mut _| {
            opts.into_iter()
                .map(|o| {
                    let t = thermograph_memo(o, memo);
                    if left { t.right } else { t.left }
                })
                .reduce(|a, b| a.merge(&b, left))
                .expect("a non-number has options on both sides")
        };
        let ls = walls(g.left(), true, memo).tilt(-1);
        let rs = walls(g.right(), false, memo).tilt(1);
        let temperature = meeting(&ls, &rs);
        let mast = ls.at(temperature);
        Thermograph {
            left: ls.cut(temperature),
            right: rs.cut(temperature),
            temperature,
            mast,
        }
    };
    memo.insert(g, th.clone());
    th
}

/// The least t ≥ −1 where the left scaffold is no longer right of the right
/// one (their difference never increases).
fn meeting(ls: &Wall, rs: &Wall) -> Dyadic {
    let mut ts: Vec<Dyadic> = ls.points.iter().chain(&rs.points).map(|p| p.0).collect();
    ts.sort_unstable();
    ts.dedup();
    let d = |t: Dyadic| ls.at(t) - rs.at(t);
    if d(ts[0]) <= Dyadic::ZERO {
        return ts[0];
    }
    for w in ts.windows(2) {
        if d(w[1]) <= Dyadic::ZERO {
            return crossing(w[0], d(w[0]), w[1], d(w[1])).unwrap_or(w[1]);
        }
    }
    let last = *ts.last().unwrap();
    let slope = ls.tail - rs.tail;
    assert!(slope < 0, "scaffolds that never meet");
    last - d(last).div_pow2(slope)
}

/// The temperature (Siegel's convention: numbers are cold, −1/2^k).
pub fn temperature(g: Game) -> Dyadic {
    thermograph(g).temperature
}

/// The mean value.
pub fn mean(g: Game) -> Dyadic {
    thermograph(g).mast
}

/// G cooled by t ≥ 0: {G^L_t − t | G^R_t + t} up to G's temperature, its
/// mean above it; numbers do not cool.
pub fn cool(g: Game, t: Dyadic) -> Game {
    assert!(t >= Dyadic::ZERO, "cooling by a negative t");
    if g.as_number().is_some() {
        return g;
    }
    let th = thermograph(g);
    if t > th.temperature {
        return Game::from_number(th.mast);
    }
    let tg = Game::from_number(t);
    Game::new(
        g.left().into_iter().map(|l| cool(l, t) - tg).collect(),
        g.right().into_iter().map(|r| cool(r, t) + tg).collect(),
    )
}

/// The integer n if g is n or n + *.
fn integer_or_star(g: Game) -> Option<Dyadic> {
    [g, g - Game::star()]
        .into_iter()
        .filter_map(Game::as_number)
        .find(|x| x.is_integer())
}

/// Chilling as seed 003 defines it (Definition 4.3), on g's canonical form:
/// f(G) = n if G is n or n*, otherwise {−1 + f(G^L) | 1 + f(G^R)}.
pub fn chill(g: Game) -> Game {
    if let Some(n) = integer_or_star(g) {
        return Game::from_number(n);
    }
    let one = Game::integer(1);
    Game::new(
        g.left().into_iter().map(|l| chill(l) - one).collect(),
        g.right().into_iter().map(|r| chill(r) + one).collect(),
    )
}

/// Warming ∫G as seed 003 defines it (Definition 4.2), on g's canonical
/// form: G if G is an even integer, G* if odd, otherwise
/// {1 + ∫G^L | −1 + ∫G^R}.
pub fn warm(g: Game) -> Game {
    if let Some(x) = g.as_number().filter(|x| x.is_integer()) {
        return if x.num() % 2 == 0 {
            g
        } else {
            g + Game::star()
        };
    }
    let one = Game::integer(1);
    Game::new(
        g.left().into_iter().map(|l| warm(l) + one).collect(),
        g.right().into_iter().map(|r| warm(r) - one).collect(),
    )
}
