//! Short partizan games in canonical form, hash-consed in one global table:
//! a [`Game`] is an index, and since canonical forms are unique, two games
//! are equal exactly when their indices are. Canonical forms of option
//! lists, sums, negations and comparisons are memoised in tables of each
//! thread (all these tables only grow).

use super::dyadic::Dyadic;
use hashbrown::HashMap;
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::sync::{LazyLock, RwLock};

/// A short game, always in canonical form. `==` is equality of games;
/// `<`, `<=`, `>`, `>=` are the game order (a partial order: `partial_cmp`
/// is `None` when the games are confused, `G ‖ H`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Game(u32);

/// One canonical game's options and what is known of it at once.
#[derive(Debug)]
struct Node {
    left: Vec<Game>,
    right: Vec<Game>,
    /// Its value if it is a number.
    number: Option<Dyadic>,
    /// n if it is the nimber *n.
    nimber: Option<u32>,
    birthday: u32,
}

#[derive(Default)]
struct Arena {
    /// Leaked on purpose: the arena never lets a game go, and `'static`
    /// nodes let each thread read them through [`SEEN`] without a lock.
    nodes: Vec<&'static Node>,
    /// Canonical games by [`options_key`] of their (sorted) options.
    index: HashMap<Box<[u32]>, Game>,
}

static ARENA: LazyLock<RwLock<Arena>> = LazyLock::new(Default::default);
static ZERO: LazyLock<Game> = LazyLock::new(|| intern(vec![], vec![]));

/// Memo tables of pure functions of canonical games, one set per thread:
/// they only cache, so a thread that has not seen a result recomputes it,
/// and look-ups need no lock.
#[derive(Default)]
struct Caches {
    le: HashMap<(Game, Game), bool>,
    sum: HashMap<(Game, Game), Game>,
    neg: HashMap<Game, Game>,
    /// Numbers by value: building one interns a chain of games (n steps
    /// for the integer n), which region values ask for over and over.
    numbers: HashMap<Dyadic, Game>,
    /// Canonical forms by [`options_key`] of the options given, sorted
    /// and without repeats: regions build the same few games millions of
    /// times.
    canonical: HashMap<Box<[u32]>, Game>,
}

thread_local! {
    /// This thread's copy of a prefix of the arena's nodes.
    static SEEN: RefCell<Vec<&'static Node>> = const { RefCell::new(Vec::new()) };
    static CACHES: RefCell<Caches> = RefCell::default();
    /// A reusable buffer for [`options_key`].
    static KEY: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
}

fn node(g: Game) -> &'static Node {
    let i = g.0 as usize;
    SEEN.with(|seen| {
        if let Some(&n) = seen.borrow().get(i) {
            return n;
        }
        let mut seen = seen.borrow_mut();
        let a = ARENA.read().unwrap();
        let have = seen.len();
        seen.extend_from_slice(&a.nodes[have..]);
        seen[i]
    })
}

fn cached<T>(f: impl FnOnce(&mut Caches) -> T) -> T {
    CACHES.with(|c| f(&mut c.borrow_mut()))
}

/// Writes into `key` the number of Left options, then the Left and the
/// Right options' indices, each list sorted and without repeats: the same
/// for any two lists of the same options.
fn options_key(key: &mut Vec<u32>, left: &[Game], right: &[Game]) {
    key.clear();
    key.push(0);
    push_set(key, left);
    key[0] = (key.len() - 1) as u32;
    push_set(key, right);
}

fn push_set(key: &mut Vec<u32>, opts: &[Game]) {
    let from = key.len();
    key.extend(opts.iter().map(|g| g.0));
    key[from..].sort_unstable();
    let mut kept = from;
    for i in from..key.len() {
        if kept == from || key[i] != key[kept - 1] {
            key[kept] = key[i];
            kept += 1;
        }
    }
    key.truncate(kept);
}

/// Stores a game whose options are already canonical and which is itself
/// canonical (no dominated or reversible options).
fn intern(mut left: Vec<Game>, mut right: Vec<Game>) -> Game {
    left.sort_unstable_by_key(|g| g.0);
    right.sort_unstable_by_key(|g| g.0);
    let mut key = Vec::new();
    options_key(&mut key, &left, &right);
    if let Some(&g) = ARENA.read().unwrap().index.get(&key[..]) {
        return g;
    }
    let opts: Vec<&Node> = left.iter().chain(&right).map(|&g| node(g)).collect();
    let (nl, nr) = (&opts[..left.len()], &opts[left.len()..]);
    let birthday = opts.iter().map(|n| n.birthday + 1).max().unwrap_or(0);
    let number = if nl.len() <= 1 && nr.len() <= 1 {
        let l = nl.first().map(|n| n.number);
        let r = nr.first().map(|n| n.number);
        match (l, r) {
            (Some(None), _) | (_, Some(None)) => None,
            (l, r) => {
                let (l, r) = (l.flatten(), r.flatten());
                match (l, r) {
                    (Some(a), Some(b)) if a >= b => None,
                    _ => Some(Dyadic::simplest_between(l, r)),
                }
            }
        }
    } else {
        None
    };
    let nimber = if left == right {
        let mut ns: Vec<Option<u32>> = nl.iter().map(|n| n.nimber).collect();
        ns.sort_unstable();
        let k = ns.len() as u32;
        (ns.into_iter().enumerate().all(|(i, n)| n == Some(i as u32))).then_some(k)
    } else {
        None
    };
    let n = Node {
        left,
        right,
        number,
        nimber,
        birthday,
    };
    let mut a = ARENA.write().unwrap();
    if let Some(&g) = a.index.get(&key[..]) {
        return g; // another thread stored it meanwhile
    }
    let g = Game(u32::try_from(a.nodes.len()).expect("too many games"));
    a.nodes.push(Box::leak(Box::new(n)));
    a.index.insert(key.into_boxed_slice(), g);
    g
}

/// A game given by option lists, not yet canonical: the operand of the
/// comparisons done while simplifying it.
#[derive(Clone, Copy)]
enum Form<'a> {
    Canon(Game),
    Lists(&'a [Game], &'a [Game]),
}

/// `x <= y` by the definition: no Left option of x is `>= y` and no Right
/// option of y is `<= x`.
fn le_form(x: Form, y: Form) -> bool {
    if let (Form::Canon(a), Form::Canon(b)) = (x, y) {
        return le(a, b);
    }
    let (xn, yn);
    let xl: &[Game] = match x {
        Form::Canon(g) => {
            xn = node(g);
            &xn.left
        }
        Form::Lists(l, _) => l,
    };
    let yr: &[Game] = match y {
        Form::Canon(g) => {
            yn = node(g);
            &yn.right
        }
        Form::Lists(_, r) => r,
    };
    !xl.iter().any(|&a| le_form(y, Form::Canon(a)))
        && !yr.iter().any(|&b| le_form(Form::Canon(b), x))
}

fn le(a: Game, b: Game) -> bool {
    if a == b {
        return true;
    }
    let (na, nb) = (node(a), node(b));
    // Numbers compare as numbers; against a non-number only the
    // non-number's moves matter (number avoidance).
    match (na.number, nb.number) {
        (Some(x), Some(y)) => return x <= y,
        (Some(_), None) => return !nb.right.iter().any(|&r| le(r, a)),
        (None, Some(_)) => return !na.left.iter().any(|&l| le(b, l)),
        (None, None) => {}
    }
    if let Some(v) = cached(|c| c.le.get(&(a, b)).copied()) {
        return v;
    }
    let v = !na.left.iter().any(|&l| le(b, l)) && !nb.right.iter().any(|&r| le(r, a));
    cached(|c| c.le.insert((a, b), v));
    v
}

/// Keeps the options no other kept option beats (`worse(a, b)`: b makes a
/// redundant). Options are canonical, so equal ones are identical.
fn undominated(mut opts: Vec<Game>, worse: impl Fn(Game, Game) -> bool) -> Vec<Game> {
    opts.sort_unstable_by_key(|g| g.0);
    opts.dedup();
    let keep: Vec<bool> = opts
        .iter()
        .map(|&a| !opts.iter().any(|&b| b != a && worse(a, b)))
        .collect();
    opts.into_iter()
        .zip(keep)
        .filter(|p| p.1)
        .map(|p| p.0)
        .collect()
}

/// The number `{l | r}` if every option is a number and the left ones are
/// all below the right ones.
fn as_number(left: &[Game], right: &[Game]) -> Option<Dyadic> {
    let (mut lo, mut hi): (Option<Dyadic>, Option<Dyadic>) = (None, None);
    for &g in left {
        let x = g.as_number()?;
        lo = Some(lo.map_or(x, |m| m.max(x)));
    }
    for &g in right {
        let x = g.as_number()?;
        hi = Some(hi.map_or(x, |m| m.min(x)));
    }
    match (lo, hi) {
        (Some(a), Some(b)) if a >= b => None,
        _ => Some(Dyadic::simplest_between(lo, hi)),
    }
}

/// The canonical form of `{left | right}`: dominated options removed and
/// reversible ones bypassed until neither applies.
fn canonical(left: Vec<Game>, right: Vec<Game>) -> Game {
    if let Some(x) = as_number(&left, &right) {
        return Game::from_number(x);
    }
    let (mut left, mut right) = (left, right);
    loop {
        left = undominated(left, le);
        right = undominated(right, |a, b| le(b, a));
        let g = Form::Lists(&left, &right);
        let mut changed = false;
        let mut new_left = Vec::new();
        for &a in &left {
            let na = node(a);
            // a reverses through a^R when a^R <= G: replace a by a^R's
            // Left options.
            match na.right.iter().find(|&&ar| le_form(Form::Canon(ar), g)) {
                Some(&ar) => {
                    new_left.extend_from_slice(&node(ar).left);
                    changed = true;
                }
                None => new_left.push(a),
            }
        }
        let mut new_right = Vec::new();
        for &b in &right {
            let nb = node(b);
            match nb.left.iter().find(|&&bl| le_form(g, Form::Canon(bl))) {
                Some(&bl) => {
                    new_right.extend_from_slice(&node(bl).right);
                    changed = true;
                }
                None => new_right.push(b),
            }
        }
        left = new_left;
        right = new_right;
        if !changed {
            break;
        }
    }
    if let Some(x) = as_number(&left, &right) {
        return Game::from_number(x);
    }
    intern(left, right)
}

impl Game {
    /// The game `{left | right}` (any options), in canonical form: dominated
    /// options removed and reversible ones bypassed until neither applies.
    pub fn new(left: Vec<Game>, right: Vec<Game>) -> Game {
        Game::from_options(&left, &right)
    }

    /// [`Game::new`] with the options in slices.
    pub fn from_options(left: &[Game], right: &[Game]) -> Game {
        let mut key = KEY.take();
        options_key(&mut key, left, right);
        let g = match cached(|c| c.canonical.get(&key[..]).copied()) {
            Some(g) => g,
            None => {
                let g = canonical(left.to_vec(), right.to_vec());
                cached(|c| c.canonical.insert(key.as_slice().into(), g));
                g
            }
        };
        KEY.set(key);
        g
    }

    /// Zero, `{ | }`.
    pub fn zero() -> Game {
        *ZERO
    }

    /// The integer n.
    pub fn integer(n: i64) -> Game {
        Game::from_number(Dyadic::int(n))
    }

    /// The number x in its canonical form: n = {n−1 | } for n > 0,
    /// {| n+1} for n < 0, m/2^k = {(m−1)/2^k | (m+1)/2^k}.
    pub fn from_number(x: Dyadic) -> Game {
        if let Some(g) = cached(|c| c.numbers.get(&x).copied()) {
            return g;
        }
        let g = if x.is_integer() {
            let mut g = Game::zero();
            for _ in 0..x.num().unsigned_abs() {
                g = if x.num() > 0 {
                    intern(vec![g], vec![])
                } else {
                    intern(vec![], vec![g])
                };
            }
            g
        } else {
            let (m, k) = (x.num(), x.exp());
            intern(
                vec![Game::from_number(Dyadic::new(m - 1, k))],
                vec![Game::from_number(Dyadic::new(m + 1, k))],
            )
        };
        cached(|c| c.numbers.insert(x, g));
        g
    }

    /// The nimber *n = {0, *, …, *(n−1) | 0, *, …, *(n−1)}.
    pub fn nimber(n: u32) -> Game {
        // Built up from *0, each nimber once: the recursion on its own
        // builds *k 2^(n-k-1) times (`*24` took 3 s, `*50` years).
        let mut opts: Vec<Game> = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let next = intern(opts.clone(), opts.clone());
            opts.push(next);
        }
        intern(opts.clone(), opts)
    }

    /// Star, `* = {0 | 0}`.
    pub fn star() -> Game {
        Game::nimber(1)
    }

    /// Up, `↑ = {0 | *}`.
    pub fn up() -> Game {
        intern(vec![Game::zero()], vec![Game::star()])
    }

    /// `k·↑` (down for negative k).
    pub fn ups(k: i64) -> Game {
        let u = if k >= 0 { Game::up() } else { -Game::up() };
        (0..k.unsigned_abs()).fold(Game::zero(), |s, _| s + u)
    }

    /// The Left options (canonical).
    pub fn left(self) -> Vec<Game> {
        node(self).left.clone()
    }

    /// The Right options (canonical).
    pub fn right(self) -> Vec<Game> {
        node(self).right.clone()
    }

    /// Its value, if it is a number.
    pub fn as_number(self) -> Option<Dyadic> {
        node(self).number
    }

    /// n, if it is the nimber *n (0 is *0).
    pub fn nimber_value(self) -> Option<u32> {
        node(self).nimber
    }

    /// The birthday: the height of its canonical game tree.
    pub fn birthday(self) -> u32 {
        node(self).birthday
    }

    /// Whether `self >= o` in the game order.
    pub fn ge(self, o: Game) -> bool {
        le(o, self)
    }

    /// Whether `self <= o` in the game order.
    pub fn le(self, o: Game) -> bool {
        le(self, o)
    }

    /// Whether the games are confused with each other, `G ‖ H`.
    pub fn confused(self, o: Game) -> bool {
        !le(self, o) && !le(o, self)
    }

    /// Who wins: `Greater` if Left wins whoever starts (G > 0), `Less` if
    /// Right does, `Equal` if the second player does (G = 0), `None` if the
    /// first player does (G ‖ 0).
    pub fn outcome(self) -> Option<Ordering> {
        self.partial_cmp(&Game::zero())
    }
}

impl PartialOrd for Game {
    fn partial_cmp(&self, o: &Game) -> Option<Ordering> {
        match (le(*self, *o), le(*o, *self)) {
            (true, true) => Some(Ordering::Equal),
            (true, false) => Some(Ordering::Less),
            (false, true) => Some(Ordering::Greater),
            (false, false) => None,
        }
    }
}

impl std::ops::Neg for Game {
    type Output = Game;
    fn neg(self) -> Game {
        let n = node(self);
        if let Some(x) = n.number {
            return Game::from_number(-x);
        }
        if let Some(g) = cached(|c| c.neg.get(&self).copied()) {
            return g;
        }
        // Negation keeps a form canonical.
        let g = intern(
            n.right.iter().map(|&r| -r).collect(),
            n.left.iter().map(|&l| -l).collect(),
        );
        cached(|c| c.neg.insert(self, g));
        g
    }
}

impl std::ops::Add for Game {
    type Output = Game;
    fn add(self, o: Game) -> Game {
        let (a, b) = if self.0 <= o.0 { (self, o) } else { (o, self) };
        let (na, nb) = (node(a), node(b));
        match (na.number, nb.number) {
            (Some(x), Some(y)) => return Game::from_number(x + y),
            (Some(x), None) if x == Dyadic::ZERO => return b,
            (None, Some(y)) if y == Dyadic::ZERO => return a,
            _ => {}
        }
        if let Some(g) = cached(|c| c.sum.get(&(a, b)).copied()) {
            return g;
        }
        // Translation: a number added to a non-number need not be played.
        let (left, right): (Vec<Game>, Vec<Game>) = match (na.number, nb.number) {
            (Some(_), None) => (
                nb.left.iter().map(|&l| l + a).collect(),
                nb.right.iter().map(|&r| r + a).collect(),
            ),
            (None, Some(_)) => (
                na.left.iter().map(|&l| l + b).collect(),
                na.right.iter().map(|&r| r + b).collect(),
            ),
            _ => (
                na.left
                    .iter()
                    .map(|&l| l + b)
                    .chain(nb.left.iter().map(|&l| a + l))
                    .collect(),
                na.right
                    .iter()
                    .map(|&r| r + b)
                    .chain(nb.right.iter().map(|&r| a + r))
                    .collect(),
            ),
        };
        let g = Game::from_options(&left, &right);
        cached(|c| c.sum.insert((a, b), g));
        g
    }
}

impl std::ops::Sub for Game {
    type Output = Game;
    fn sub(self, o: Game) -> Game {
        self + -o
    }
}

impl std::iter::Sum for Game {
    fn sum<I: Iterator<Item = Game>>(it: I) -> Game {
        it.fold(Game::zero(), |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_identities() {
        let (up, star) = (Game::up(), Game::star());
        let half = Game::from_number(Dyadic::new(1, 1));
        assert_eq!(star + star, Game::zero());
        assert_eq!(half + half, Game::integer(1));
        assert!(up > Game::zero());
        assert!(up.confused(star));
        assert_eq!(up + up + star, Game::new(vec![Game::zero()], vec![up]));
        assert_eq!(Game::nimber(2) + Game::nimber(3), Game::star());
        assert_eq!(
            Game::new(vec![Game::integer(1)], vec![Game::integer(1)]) - star,
            Game::integer(1)
        );
    }

    #[test]
    fn numbers_are_recognised() {
        let g = Game::new(vec![Game::zero()], vec![Game::integer(1)]);
        assert_eq!(g.as_number(), Some(Dyadic::new(1, 1)));
        assert_eq!(g.birthday(), 2);
        // {↑ | 1} = 1/2 after bypassing ↑'s reversible move.
        let h = Game::new(vec![Game::up()], vec![Game::integer(1)]);
        assert_eq!(h, g);
        assert_eq!(Game::integer(-3).as_number(), Some(Dyadic::int(-3)));
        assert_eq!(Game::nimber(3).nimber_value(), Some(3));
    }
}
