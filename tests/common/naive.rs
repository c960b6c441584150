//! The test suite's reference solver over the plain rules
//! ([`gosolve::verify::plain`], which shares no code with the bitboard engine):
//! perft, game counts and plain alpha-beta.
#![allow(dead_code)]

use gosolve::engine::rules::{Ruleset, Superko};
pub use gosolve::verify::plain::*;

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

/// Plain alpha-beta over the full history (no table, no symmetry; pass
/// first without a memo, with one the memo's order, [`Memo::order`]): the
/// value from Black's side, in half points for scored rulesets
/// (Black − White − komi), ±1 for normal play; remembering each node's
/// bounds under its [`MemoKey`] when given a memo. `set` is the parent's
/// set of recorded states (the key's), so a child's key costs the entries
/// its turn added rather than a walk of the whole history (the walk was
/// most of a 1x5 sweep's time). Children are made one at a time: a cut
/// leaves the rest unmade (making them all first was a third of the time).
fn alpha_beta(
    g: &Graph,
    r: &NaiveRules,
    s: &State,
    komi_half: i32,
    (mut alpha, mut beta): (i32, i32),
    mut memo: Option<&mut Memo>,
    set: Option<(&StateSet, [u64; 2])>,
) -> i32 {
    let key = memo.as_ref().map(|_| memo_key(r, s, set));
    let mut first = None;
    if let (Some(m), Some((k, _))) = (memo.as_deref(), &key) {
        if let Some(&(lower, upper, best)) = m.get(k) {
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            first = Some(best);
        }
    }
    if let Some(m) = memo.as_deref_mut() {
        m.count(s, first.is_some());
        if first.is_none() {
            first = m.advised();
        }
    }
    let (a0, b0) = (alpha, beta);
    // Black raises alpha, White lowers beta.
    let black = s.to_move == BLACK;
    let mut best = None;
    let mut best_turn = None;
    let order = memo
        .as_deref()
        .map_or_else(|| natural(s.col.len()), |m| m.order(s, first));
    for &code in &order[..=s.col.len()] {
        let t = code.checked_sub(1).map(usize::from);
        let Ok(c) = s.play(g, r, t) else { continue };
        if let Some(m) = memo.as_deref_mut() {
            m.down(code);
        }
        let v = alpha_beta(
            g,
            r,
            &c,
            komi_half,
            (alpha, beta),
            memo.as_deref_mut(),
            key.as_ref().map(|(k, bits)| (bits, k.set)),
        );
        if let Some(m) = memo.as_deref_mut() {
            m.up();
        }
        if best.is_none_or(|b| if black { v > b } else { v < b }) {
            best = Some(v);
            best_turn = Some(code);
        }
        let b = best.expect("a value");
        if black {
            alpha = alpha.max(b);
        } else {
            beta = beta.min(b);
        }
        if alpha >= beta {
            break;
        }
    }
    let best = best.unwrap_or_else(|| match s.result(g, r, komi_half) {
        Ok(v) => v,
        Err(winner) => {
            if winner == BLACK {
                1
            } else {
                -1
            }
        }
    });
    if let (Some(m), Some((k, _))) = (memo, key) {
        m.put(k, best, (a0, b0), best_turn, s.to_move);
    }
    best
}

/// Turn codes (0 pass, p + 1 point p) in the order of [`State::turns`],
/// for boards of up to 64 points (the first `n + 1` are the turns).
fn natural(n: usize) -> [u8; 65] {
    assert!(n < 65, "at most 64 points");
    std::array::from_fn(|i| i as u8)
}

/// Everything the rest of a game depends on: the state, the colouring
/// recorded before it (basic ko under `--superko none`), the prisoners
/// where they count, and the *set* of recorded states (colouring, player
/// to move). The plain rules ask the history only whether a state is in
/// it, and whether the last but one is a colouring; `tests/solver.rs`
/// checks the claim against plain alpha-beta on every tiny board. Plain
/// integers and a fixed bitmap: with vectors and the standard hasher,
/// allocation and hashing took 80% of a 1x5 sweep.
///
/// The set is kept as a 128-bit fingerprint (a sum of random words, one
/// per state: two sets share one with odds of about 2^-128, and a memo of
/// 10^9 entries holds one such pair with odds under 10^-20); the exact
/// bitmap goes down the search beside it. An entry (key and bounds) is
/// 56 bytes where it was 104 with the bitmap.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MemoKey {
    /// The colouring in base 3, times 2, plus 1 when White is to move.
    state: u32,
    passes: u32,
    /// As counted, where they decide a pass (`conway-replacement`, `koh`);
    /// less their minimum under `logical`, whose score counts only their
    /// difference; none elsewhere.
    prisoners: [u32; 2],
    played: u8,
    repeated: bool,
    /// The state code of the last but one entry (`u32::MAX`: none, or not
    /// asked: only basic ko asks it).
    before: u32,
    /// The fingerprint of the recorded states' codes.
    set: [u64; 2],
}

/// Points a memo key holds: 3^5 colourings times 2 players fit the bitmap.
pub const MEMO_POINTS: usize = 5;
const MEMO_WORDS: usize = (3usize.pow(MEMO_POINTS as u32) * 2).div_ceil(64);

/// A set of recorded states, one bit per state code.
pub type StateSet = [u64; MEMO_WORDS];

/// The code of (colouring, player to move): the colouring in base 3, times
/// 2, plus 1 when White is to move.
fn code(col: &[u8], to_move: u8) -> u32 {
    col.iter().rev().fold(0u32, |a, &c| 3 * a + c as u32) * 2 + (to_move == WHITE) as u32
}

/// State code `c`'s random word in the set's fingerprint (splitmix64).
fn word(c: u32, half: u64) -> u64 {
    let mut z = (u64::from(c) * 2 + half)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `s`'s key and its set of recorded states; `parent` is its parent's
/// set and fingerprint, which hold every entry of `s`'s history but those
/// its last turn recorded.
fn memo_key(
    r: &NaiveRules,
    s: &State,
    parent: Option<(&StateSet, [u64; 2])>,
) -> (MemoKey, StateSet) {
    assert!(
        s.col.len() <= MEMO_POINTS,
        "the memo's set of states is for boards of at most {MEMO_POINTS} points"
    );
    let (mut bits, mut fp) = parent.map_or(([0; MEMO_WORDS], [0; 2]), |(b, f)| (*b, f));
    let fresh = parent.map_or(usize::MAX, |_| 1);
    // A turn records at most one entry, the newest (`past` is newest first).
    for p in s.past.iter().take(fresh) {
        let c = code(&p.col, p.to_move);
        let (w, b) = (c as usize / 64, 1u64 << (c % 64));
        if bits[w] & b == 0 {
            bits[w] |= b;
            fp[0] = fp[0].wrapping_add(word(c, 0));
            fp[1] = fp[1].wrapping_add(word(c, 1));
        }
    }
    let [b, w] = s.prisoners;
    let prisoners = match r.ruleset {
        Ruleset::ConwayReplacement | Ruleset::Koh => [b, w],
        Ruleset::Logical => [b - b.min(w), w - b.min(w)],
        _ => [0, 0],
    };
    let basic_ko = r.superko == Superko::None && r.ruleset != Ruleset::Koh;
    let key = MemoKey {
        state: code(&s.col, s.to_move),
        passes: s.passes,
        prisoners,
        played: s.played.iter().rev().fold(0, |a, &b| 2 * a + b as u8),
        repeated: s.repeated.is_some(),
        before: match (&s.past.prev, basic_ko) {
            (Some(p), true) => code(&p.col, p.to_move),
            _ => u32::MAX,
        },
        set: fp,
    };
    (key, bits)
}

/// Bounds (Black's side) found for each [`MemoKey`] with the turn that
/// gave the best value (its code), and how often each turn gave a cut (the
/// history heuristic). Both only order the turns; the values are the
/// search's. In two generations: when the newer is full the older is
/// forgotten, so the memory stays bounded and recent results stay (the
/// old memo forgot everything at once).
#[derive(Default)]
pub struct Memo<'a> {
    new: hashbrown::HashMap<MemoKey, (i32, i32, u8)>,
    old: hashbrown::HashMap<MemoKey, (i32, i32, u8)>,
    /// Per player, per turn code: cuts it gave.
    cuts: [[u64; MEMO_POINTS + 1]; 2],
    /// Entries held at most, over both generations.
    cap: usize,
    /// Nodes, nodes with the memo's best turn, nodes with advice.
    stats: [u64; 3],
    /// Which turn to try first where the memo has none.
    advice: Option<Box<dyn Advice + 'a>>,
}

/// Advice on which turn to try first (the fast solver's table move): it
/// orders the turns, and alpha-beta's value does not depend on the order,
/// so a wrong advice costs time, never a value. Where the memo holds a
/// best turn of its own, that goes first. cycle:5 `tromp-taylor` did not
/// finish its first option in 25 minutes without advice; with it, all
/// twelve took 17 s.
pub trait Advice {
    /// The turn code (0 pass, p + 1 point p) advised at the current node.
    fn turn(&mut self) -> Option<u8>;
    /// The search goes down turn `code` from the current node.
    fn down(&mut self, code: u8);
    /// The search comes back up that turn.
    fn up(&mut self);
}

impl<'a> Memo<'a> {
    /// From now on (until replaced), `advice` names the turn to try
    /// first, starting from the node the next search starts at.
    pub fn advise(&mut self, advice: Option<Box<dyn Advice + 'a>>) {
        self.advice = advice;
    }

    fn advised(&mut self) -> Option<u8> {
        let t = self.advice.as_mut()?.turn();
        self.stats[2] += u64::from(t.is_some());
        t
    }

    /// Nodes searched so far, and the percentages of them with the memo's
    /// best turn and with advice.
    pub fn stats(&self) -> (u64, u64, u64) {
        let [nodes, known, advised] = self.stats;
        let pc = |x: u64| 100 * x / nodes.max(1);
        (nodes, pc(known), pc(advised))
    }

    /// Counts a node (`known`: the memo had its best turn), and every
    /// 100 M nodes says how far the search is, as a sweep's progress.
    fn count(&mut self, s: &State, known: bool) {
        self.stats[0] += 1;
        self.stats[1] += u64::from(known);
        if self.stats[0] % 100_000_000 == 0 {
            let (nodes, known, advised) = self.stats();
            eprintln!(
                "    naive: {} M nodes, memo {} M entries, depth {}, memo's turn at {known}% of nodes, advice at {advised}%",
                nodes / 1_000_000,
                (self.new.len() + self.old.len()) / 1_000_000,
                s.past.index,
            );
        }
    }

    fn down(&mut self, code: u8) {
        if let Some(a) = &mut self.advice {
            a.down(code);
        }
    }

    fn up(&mut self) {
        if let Some(a) = &mut self.advice {
            a.up();
        }
    }

    /// An empty memo.
    pub fn new() -> Memo<'a> {
        Memo {
            cap: memo_entries(),
            ..Memo::default()
        }
    }

    fn get(&self, k: &MemoKey) -> Option<&(i32, i32, u8)> {
        self.new.get(k).or_else(|| self.old.get(k))
    }

    /// Turn codes for `s`: `first` (a stored best turn), then by cuts,
    /// pass first among equals.
    fn order(&self, s: &State, first: Option<u8>) -> [u8; 65] {
        let n = s.col.len();
        let mut order = natural(n);
        let cuts = &self.cuts[(s.to_move == WHITE) as usize];
        order[..=n].sort_by_key(|&c| (Some(c) != first, std::cmp::Reverse(cuts[c as usize])));
        order
    }

    /// Keeps what a search of `k` over `window` found, and `turn`, the
    /// turn that gave it (none at the end of a game).
    fn put(&mut self, k: MemoKey, best: i32, (a0, b0): (i32, i32), turn: Option<u8>, mover: u8) {
        let cut = best >= b0 && mover == BLACK || best <= a0 && mover == WHITE;
        if let (true, Some(t)) = (cut, turn) {
            self.cuts[(mover == WHITE) as usize][t as usize] += 1;
        }
        let turn = turn.unwrap_or(0);
        if self.new.len() >= self.cap / 2 && !self.new.contains_key(&k) {
            self.old = std::mem::take(&mut self.new);
        }
        let old = self.old.get(&k).copied();
        let e = self
            .new
            .entry(k)
            .or_insert(old.unwrap_or((i32::MIN, i32::MAX, turn)));
        if best > a0 {
            e.0 = e.0.max(best);
        }
        if best < b0 {
            e.1 = e.1.min(best);
        }
        e.2 = turn;
    }
}

/// Entries the memo holds at most: about 4 GB (`GOSOLVE_NAIVE_MEMO`
/// gives another number, in millions).
fn memo_entries() -> usize {
    std::env::var("GOSOLVE_NAIVE_MEMO")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(48_000_000, |m| m * 1_000_000)
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

/// The exact value of `s` (Black's side), remembering bounds in `memo`
/// when given one: the reference for the boards where plain alpha-beta
/// does not finish (star:4 `conway` under situational superko with
/// suicide: a lone stone's suicide is a pass each state allows once).
pub fn exact(g: &Graph, r: &NaiveRules, s: &State, komi_half: i32, memo: Option<&mut Memo>) -> i32 {
    let (lo, hi) = window(g, r, komi_half);
    alpha_beta(g, r, s, komi_half, (lo, hi), memo, None)
}

/// Whether `claimed` is the exact value of `s` (Black's side): alpha-beta
/// over the window `(claimed - 1, claimed + 1)`, whose result is exact when
/// it lies strictly inside (values are integers) and otherwise a bound on
/// the side it fell. Proving a claim this way searches a fraction of the
/// full window (1x5 `tromp-taylor` under situational superko did not finish
/// in 38 minutes with it), and the claim only sets the window: the value
/// returned is the naive search's own.
pub fn check(
    g: &Graph,
    r: &NaiveRules,
    s: &State,
    komi_half: i32,
    claimed: i32,
    memo: Option<&mut Memo>,
) -> Result<(), String> {
    let got = alpha_beta(g, r, s, komi_half, (claimed - 1, claimed + 1), memo, None);
    match got.cmp(&claimed) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(format!("claimed {claimed}, naive value ≤ {got}")),
        std::cmp::Ordering::Greater => Err(format!("claimed {claimed}, naive value ≥ {got}")),
    }
}

/// Every legal first move with its exact value (Black's side), by [`exact`].
pub fn root_values(
    g: &Graph,
    r: &NaiveRules,
    s: &State,
    komi_half: i32,
    mut memo: Option<&mut Memo>,
) -> Vec<(Turn, i32)> {
    s.children(g, r)
        .into_iter()
        .map(|(t, c)| (t, exact(g, r, &c, komi_half, memo.as_deref_mut())))
        .collect()
}
