//! The test suite's reference solver over the plain rules
//! ([`gosolve::verify::plain`], which shares no code with the bitboard engine):
//! perft, game counts and plain alpha-beta.
#![allow(dead_code)]

use gosolve::engine::rules::Ruleset;
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
    set: Option<&StateSet>,
) -> i32 {
    let key = memo.as_ref().map(|_| memo_key(s, set));
    let mut first = None;
    if let (Some(m), Some(k)) = (memo.as_deref(), &key) {
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
        let v = alpha_beta(
            g,
            r,
            &c,
            komi_half,
            (alpha, beta),
            memo.as_deref_mut(),
            key.as_ref().map(|k| &k.set),
        );
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
    if let (Some(m), Some(k)) = (memo, key) {
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
/// recorded before it (basic ko under `--superko none`) and the *set* of
/// recorded states (colouring, player to move). The plain rules ask
/// the history only whether a state is in it, and whether the last but one
/// is a colouring; `tests/solver.rs` checks the claim against plain alpha-beta
/// on every tiny board. Plain integers and a fixed bitmap: with vectors and
/// the standard hasher, allocation and hashing took 80% of a 1x5 sweep.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MemoKey {
    /// The colouring in base 3, times 2, plus 1 when White is to move.
    state: u32,
    passes: u32,
    prisoners: [u32; 2],
    played: u8,
    repeated: bool,
    /// The state code of the last but one entry (`u32::MAX`: none).
    before: u32,
    /// The recorded states' codes.
    set: StateSet,
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

/// `s`'s key; `parent` is its parent's set of recorded states, which holds
/// every entry of `s`'s history but those its last turn recorded.
fn memo_key(s: &State, parent: Option<&StateSet>) -> MemoKey {
    assert!(
        s.col.len() <= MEMO_POINTS,
        "the memo's set of states is for boards of at most {MEMO_POINTS} points"
    );
    let mut set = parent.copied().unwrap_or([0; MEMO_WORDS]);
    let fresh = parent.map_or(usize::MAX, |_| 1);
    // A turn records at most one entry, the newest (`past` is newest first).
    for p in s.past.iter().take(fresh) {
        let c = code(&p.col, p.to_move) as usize;
        set[c / 64] |= 1 << (c % 64);
    }
    MemoKey {
        state: code(&s.col, s.to_move),
        passes: s.passes,
        prisoners: s.prisoners,
        played: s.played.iter().rev().fold(0, |a, &b| 2 * a + b as u8),
        repeated: s.repeated.is_some(),
        before: s
            .past
            .prev
            .as_deref()
            .map_or(u32::MAX, |p| code(&p.col, p.to_move)),
        set,
    }
}

/// Bounds (Black's side) found for each [`MemoKey`] with the turn that
/// gave the best value (its code), and how often each turn gave a cut (the
/// history heuristic). Both only order the turns; the values are the
/// search's. In two generations: when the newer is full the older is
/// forgotten, so the memory stays bounded and recent results stay (the
/// old memo forgot everything at once).
#[derive(Default)]
pub struct Memo {
    new: hashbrown::HashMap<MemoKey, (i32, i32, u8)>,
    old: hashbrown::HashMap<MemoKey, (i32, i32, u8)>,
    /// Per player, per turn code: cuts it gave.
    cuts: [[u64; MEMO_POINTS + 1]; 2],
}

impl Memo {
    /// An empty memo.
    pub fn new() -> Memo {
        Memo::default()
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
        if self.new.len() >= MEMO_ENTRIES / 2 && !self.new.contains_key(&k) {
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

/// Entries the memo holds at most: about 3 GB.
const MEMO_ENTRIES: usize = 24_000_000;

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
