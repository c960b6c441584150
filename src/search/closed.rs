//! Closed strategies: under `--superko none`, where a tie keeps the
//! owner's bound, one move per state of the game that remembers only its
//! last few colourings.
//!
//! Under basic ko a state's legal turns depend only on its colouring, the
//! colouring one turn before (the ko ban), the player to move and the
//! passes in a row. A *key* is those, with the colourings of the last
//! `window` turns (1 to [`MAX_WINDOW`]; the first of them is the ko ban).
//! A repetition of colouring and player to move ends the real game in a
//! tie, which keeps the bound here; the game of keys ends in a tie only at
//! a repetition inside its window. So if the owner has a move for every
//! key it can meet such that no game of keys reaches two passes scored
//! against the bound, every real game it plays ends by two passes within
//! the bound, by a tie, or at a key where unconditional life decides the
//! bound ([`SECURE`]). That is a safety game on the keys reachable from
//! the start: the keys from which the other side cannot force a bad end
//! are found by the usual backward attractor, and the owner keeps to them
//! (by the soonest end it can force, which keeps lines short). A longer
//! window ends more cycles in ties, for an owner whose ties need them.
//!
//! Why: the tree strategies of [`crate::search::proof`] may link a
//! subtree only where every tie it relied on still comes, and under ties
//! that failed on most paths. On 2 threads `3x3 --superko none` wrote
//! strategies of 160 K+ owner nodes over 4,400 states, lines 100-600 turns
//! deep, and rarely finished. A closed strategy has one owner node per
//! key at most, whatever the paths.
//!
//! The stream (checked by [`crate::verify`]'s closed walk): [`CLOSED`],
//! the window, then the preorder walk of the keys the strategy allows, as
//! in a tree strategy, but an owner key met again is always a [`LINK`] to
//! its first node, an ancestor or not, and a line ends by a repetition
//! only inside the window.
//!
//! The extraction ([`crate::search::proof::Extractor::run`]) seeks one
//! only where a tree strategy grows large: exploring every key costs
//! memory and time a small tree does not.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Ruleset, Suicide, Superko};
use crate::engine::types::{Color, Move, PointSet};
use crate::format::codes::{CLOSED, LINK, SECURE, push_link};
use hashbrown::HashMap;

/// The most earlier colourings a key remembers.
pub const MAX_WINDOW: usize = 3;

/// A colouring no board has (both colours everywhere): the window's slots
/// before the game began, which no repetition can match.
const NOWHERE: Position = Position {
    black: PointSet(u64::MAX),
    white: PointSet(u64::MAX),
};

/// A state of the game with a short memory: the colouring now and the
/// `window` before it, newest first (the first of them is the ko ban).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key<const N: usize> {
    cols: [Position; N],
    to_move: Color,
    passes: u8,
}

impl<const N: usize> Key<N> {
    /// The key of a state whose colourings so far are `cols`, newest first.
    fn new(
        cols: impl Iterator<Item = Position>,
        to_move: Color,
        passes: u8,
        window: usize,
    ) -> Self {
        let mut k = Key {
            cols: [NOWHERE; N],
            to_move,
            passes,
        };
        for (c, p) in k.cols[..=window].iter_mut().zip(cols) {
            *c = p;
        }
        k
    }

    /// The key of `g`'s state.
    fn of(g: &Game, window: usize) -> Self {
        let cols = g.history().iter().rev().map(|e| e.pos);
        Key::new(cols, g.to_move(), g.passes(), window)
    }

    /// The key after a turn that made colouring `pos`.
    fn after(&self, pos: Position, passes: u8, window: usize) -> Self {
        let mut cols = [NOWHERE; N];
        cols[0] = pos;
        cols[1..=window].copy_from_slice(&self.cols[..window]);
        Key {
            cols,
            to_move: self.to_move.opp(),
            passes,
        }
    }

    /// A turn from this key that made colouring `col` recreated a state it
    /// remembers (same colouring, same player to move: an even number of
    /// turns before the new state): a tie. The checker's walk sees the
    /// same states (its history cut to the window before each turn).
    fn recurs(&self, col: Position, window: usize) -> bool {
        (1..=window).step_by(2).any(|j| self.cols[j] == col)
    }
}

/// What a key is in the safety game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Turns follow.
    Inner,
    /// Two passes scored within the bound.
    Good,
    /// An owner key where unconditional life decides the bound (written
    /// [`SECURE`]).
    Secure,
    /// Two passes scored against the bound.
    Bad,
    /// A repetition within the window: a tie, which keeps the bound.
    Tie,
}

/// A closed strategy, ready to store.
pub struct Closed {
    /// The stream, [`CLOSED`] first.
    pub bytes: Vec<u8>,
    /// Owner nodes written (keys with a move).
    pub nodes: u32,
    /// Links written.
    pub links: u64,
    /// Keys explored (both sides', the strategy's and not).
    pub keys: usize,
    /// The earlier colourings each key remembered.
    pub window: usize,
}

/// Why there is no closed strategy.
#[derive(Debug, PartialEq, Eq)]
pub enum Missing {
    /// The rules are not those of the module doc, or a tie breaks the bound.
    Rules,
    /// More than this many keys are reachable.
    TooMany(usize),
    /// The other side can force a bad end in the game of keys (a
    /// strategy may still exist that uses repetitions; ask the tree).
    Unsafe {
        /// Keys explored.
        keys: usize,
    },
}

/// Whether closed strategies can prove `owner`'s bound (`own`, from its own
/// side) under these rules: basic ko, a tie keeping the bound, area
/// scoring with free passes, and no border stones.
pub fn applies(rules: &Rules, own: i32) -> bool {
    rules.superko == Superko::None
        && matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg)
        && rules.setup.immortal.is_empty()
        && own <= 0
}

/// A turn and the key after it, `None` where it ends the game in a tie.
type Turn<const N: usize> = (Move, Option<Key<N>>);

/// The turns from `k` in the plain order (pass, then the points), each
/// with the key after it, or `None` where it ends the game in a tie.
fn turns<const N: usize>(
    board: &Board,
    rules: &Rules,
    k: &Key<N>,
    window: usize,
    out: &mut Vec<Turn<N>>,
) {
    out.clear();
    let pass = k.after(k.cols[0], k.passes + 1, window);
    // The second pass ends the game scored, whatever it repeats.
    let tie = pass.passes < 2 && k.recurs(k.cols[0], window);
    out.push((Move::Pass, (!tie).then_some(pass)));
    for p in k.cols[0].empty(board).iter() {
        let placed = k.cols[0].place(board, p, k.to_move, PointSet::EMPTY);
        if placed.suicided > 0 && rules.suicide == Suicide::Forbidden {
            continue;
        }
        if placed.position == k.cols[1] {
            continue;
        }
        let tie = k.recurs(placed.position, window);
        out.push((
            Move::Place(p),
            (!tie).then(|| k.after(placed.position, 0, window)),
        ));
    }
}

/// Owner's closed strategy for `bound` (Black's terms) from `g`, the game
/// after the class's first move, exploring at most `cap` keys.
pub fn strategy(
    g: &Game,
    owner: Color,
    bound: i32,
    window: usize,
    cap: usize,
) -> Result<Closed, Missing> {
    match window {
        1 => explore::<2>(g, owner, bound, cap),
        2 => explore::<3>(g, owner, bound, cap),
        3 => explore::<4>(g, owner, bound, cap),
        _ => panic!("a window of {window}"),
    }
}

/// [`strategy`] with keys of `N` colourings (the window is `N - 1`): a
/// key no larger than it needs, as the keys take most of the memory.
fn explore<const N: usize>(
    g: &Game,
    owner: Color,
    bound: i32,
    cap: usize,
) -> Result<Closed, Missing> {
    let window = N - 1;
    let rules = *g.rules();
    let own = if owner == Color::Black { bound } else { -bound };
    if !applies(&rules, own) || g.history().len() < 2 {
        return Err(Missing::Rules);
    }
    let board = g.board();
    let root = Key::<N>::of(g, window);
    let keeps = |v: i32| {
        if owner == Color::Black {
            v >= bound
        } else {
            v <= bound
        }
    };
    // The keys reachable by any turns, breadth first, with their turns;
    // a key is numbered when first met, and only the keys not yet
    // expanded are kept beside the index.
    let mut index: HashMap<Key<N>, u32> = HashMap::new();
    index.insert(root, 1);
    let mut waiting = std::collections::VecDeque::from([root]);
    let mut met = 2usize;
    // Key 0 stands for every tie; the start is key 1.
    let mut kind = vec![Kind::Tie];
    let mut owners = vec![false];
    let mut start = vec![0u32];
    let mut succ: Vec<(u32, Move)> = Vec::new();
    let mut buf = Vec::new();
    while let Some(k) = waiting.pop_front() {
        start.push(succ.len() as u32);
        owners.push(k.to_move == owner);
        if k.passes >= 2 {
            kind.push(if keeps(g.score_at(k.cols[0])) {
                Kind::Good
            } else {
                Kind::Bad
            });
            continue;
        }
        if k.to_move == owner && secure(board, &rules, &k.cols[0], owner, bound) {
            kind.push(Kind::Secure);
            continue;
        }
        kind.push(Kind::Inner);
        turns(board, &rules, &k, window, &mut buf);
        for &(m, c) in &buf {
            let id = match c {
                None => 0,
                Some(c) => *index.entry(c).or_insert_with(|| {
                    waiting.push_back(c);
                    met += 1;
                    (met - 1) as u32
                }),
            };
            succ.push((id, m));
        }
        if met > cap {
            return Err(Missing::TooMany(cap));
        }
    }
    drop(index);
    drop(waiting);
    start.push(succ.len() as u32);
    let n = met;
    let kids = |x: usize| &succ[start[x] as usize..start[x + 1] as usize];
    // The other side's attractor to the bad ends.
    let mut preds_start = vec![0u32; n + 1];
    for &(c, _) in &succ {
        preds_start[c as usize + 1] += 1;
    }
    for x in 0..n {
        preds_start[x + 1] += preds_start[x];
    }
    let mut fill = preds_start.clone();
    let mut preds = vec![0u32; succ.len()];
    for x in 0..n {
        for &(c, _) in kids(x) {
            preds[fill[c as usize] as usize] = x as u32;
            fill[c as usize] += 1;
        }
    }
    drop(fill);
    let mut lost = vec![false; n];
    let mut left: Vec<u32> = (0..n).map(|x| kids(x).len() as u32).collect();
    let mut todo: Vec<u32> = (0..n as u32)
        .filter(|&x| kind[x as usize] == Kind::Bad)
        .collect();
    for &x in &todo {
        lost[x as usize] = true;
    }
    while let Some(x) = todo.pop() {
        for &p in &preds[preds_start[x as usize] as usize..preds_start[x as usize + 1] as usize] {
            let p = p as usize;
            if lost[p] || kind[p] != Kind::Inner {
                continue;
            }
            let falls = if owners[p] {
                left[p] -= 1;
                left[p] == 0
            } else {
                true
            };
            if falls {
                lost[p] = true;
                todo.push(p as u32);
            }
        }
    }
    if lost[1] {
        return Err(Missing::Unsafe { keys: n });
    }
    // How soon the owner can force an end (two passes within the bound, a
    // tie, a secure key): the order in which keys join its attractor to
    // those ends. Moving to the soonest keeps lines short, and so the
    // strategy small. A safe key outside that attractor keeps off the bad
    // ends only by playing on (until a repetition ends the real game).
    const NONE: u32 = u32::MAX;
    for (x, l) in left.iter_mut().enumerate() {
        *l = kids(x).len() as u32;
    }
    let mut soon = vec![NONE; n];
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&x| matches!(kind[x as usize], Kind::Good | Kind::Tie | Kind::Secure))
        .collect();
    for (r, &x) in order.iter().enumerate() {
        soon[x as usize] = r as u32;
    }
    let mut head = 0;
    while head < order.len() {
        let x = order[head] as usize;
        head += 1;
        for &p in &preds[preds_start[x] as usize..preds_start[x + 1] as usize] {
            let p = p as usize;
            if soon[p] != NONE || kind[p] != Kind::Inner || lost[p] {
                continue;
            }
            let joins = if owners[p] {
                true
            } else {
                left[p] -= 1;
                left[p] == 0
            };
            if joins {
                soon[p] = order.len() as u32;
                order.push(p as u32);
            }
        }
    }
    drop(order);
    // The owner's move at each safe key: the soonest end if it can force
    // one, else the first safe placing, else the pass (as the tree
    // strategies: a pass leaves the other side every point to try).
    let choice = |x: usize| -> (u32, Move) {
        let safe = kids(x).iter().filter(|(c, _)| !lost[*c as usize]);
        let mut best: Option<(u32, Move)> = None;
        for &(c, m) in safe {
            let better = match best {
                None => true,
                Some((b, bm)) => {
                    let (r, br) = (soon[c as usize], soon[b as usize]);
                    r < br || (r == br && bm == Move::Pass)
                }
            };
            if better {
                best = Some((c, m));
            }
        }
        best.expect("a safe owner key has a safe turn")
    };
    // The stream: preorder, an explicit stack of the other side's keys
    // (lines can be as long as there are keys).
    let mut id = vec![NONE; n];
    let mut out = vec![CLOSED, window as u8];
    let (mut nodes, mut links) = (0u32, 0u64);
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut at = Some(1usize);
    loop {
        if let Some(mut x) = at.take() {
            loop {
                match kind[x] {
                    Kind::Bad => unreachable!("the strategy keeps off lost keys"),
                    Kind::Tie => break,
                    Kind::Good => break,
                    Kind::Secure => {
                        out.push(SECURE);
                        break;
                    }
                    Kind::Inner if !owners[x] => {
                        stack.push((x, 0));
                        break;
                    }
                    Kind::Inner if id[x] != NONE => {
                        push_link(&mut out, id[x]);
                        links += 1;
                        break;
                    }
                    Kind::Inner => {
                        id[x] = nodes;
                        nodes += 1;
                        let (c, m) = choice(x);
                        out.push(m.code());
                        x = c as usize;
                    }
                }
            }
        }
        let Some(top) = stack.last_mut() else { break };
        match kids(top.0).get(top.1) {
            Some(&(c, _)) => {
                top.1 += 1;
                at = Some(c as usize);
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(Closed {
        bytes: out,
        nodes,
        links,
        keys: n,
        window,
    })
}

/// Whether unconditional life at `pos` decides the bound for `owner`
/// (the tree strategies' [`SECURE`] marks too).
pub(crate) fn secure(
    board: &Board,
    rules: &Rules,
    pos: &Position,
    owner: Color,
    bound: i32,
) -> bool {
    let (lo, hi) = crate::engine::benson::black_range(board, pos, rules);
    if owner == Color::Black {
        lo >= bound
    } else {
        hi <= bound
    }
}

/// What a closed strategy does at one of its owner's keys (the first
/// expansion of a key: a file that passes `verify` expands each once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Plays this move.
    Plays(Move),
    /// Unconditional life decides the bound: the owner passes from here.
    Secure,
}

/// A closed strategy read back: its owner's keys and what it does there.
pub struct Reading {
    window: usize,
    steps: HashMap<Key<{ MAX_WINDOW + 1 }>, Step>,
}

impl Reading {
    /// What the strategy does where the colourings after each turn so far
    /// were `cols` (oldest first, the start position first), `to_move` is
    /// to move after `passes` passes in a row; `None` off the strategy.
    pub fn at(&self, cols: &[Position], to_move: Color, passes: u8) -> Option<Step> {
        let k = Key::new(cols.iter().rev().copied(), to_move, passes, self.window);
        self.steps.get(&k).copied()
    }
}

/// Reads back owner's closed strategy `bytes` (from [`CLOSED`]) from `g`,
/// the game after the class's first move. Trusts nothing: a damaged
/// stream is an error (`gosolve verify` says where).
pub fn read(g: &Game, owner: Color, bytes: &[u8]) -> Result<Reading, String> {
    let mut at = 0;
    let mut byte = || -> Result<u8, String> {
        let b = *bytes.get(at).ok_or("the strategy ends too early")?;
        at += 1;
        Ok(b)
    };
    if byte()? != CLOSED {
        return Err("not a closed strategy".into());
    }
    let window = byte()? as usize;
    if !(1..=MAX_WINDOW).contains(&window) {
        return Err(format!("a closed strategy's window of {window}"));
    }
    let (board, rules) = (g.board(), *g.rules());
    let root = Key::<{ MAX_WINDOW + 1 }>::of(g, window);
    let mut steps = HashMap::new();
    let mut stack: Vec<(Vec<Turn<{ MAX_WINDOW + 1 }>>, usize)> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(mut k) = next.take() {
            loop {
                if k.passes >= 2 {
                    break;
                }
                if k.to_move != owner {
                    let mut kids = Vec::new();
                    turns(board, &rules, &k, window, &mut kids);
                    stack.push((kids, 0));
                    break;
                }
                let c = byte()?;
                if c == SECURE {
                    steps.entry(k).or_insert(Step::Secure);
                    break;
                }
                if c == LINK {
                    while byte()? & 0x80 != 0 {}
                    break;
                }
                let m = crate::format::codes::decode(c, board.len())
                    .ok_or("a bad move code in a closed strategy")?;
                let mut kids = Vec::new();
                turns(board, &rules, &k, window, &mut kids);
                let &(_, child) = kids
                    .iter()
                    .find(|(t, _)| *t == m)
                    .ok_or("a closed strategy plays an illegal move")?;
                if steps.insert(k, Step::Plays(m)).is_some() {
                    return Err("a closed strategy expands a state twice".into());
                }
                match child {
                    Some(c) => k = c,
                    None => break,
                }
            }
        }
        let Some(top) = stack.last_mut() else { break };
        match top.0.get(top.1) {
            Some(&(_, c)) => {
                top.1 += 1;
                next = c;
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(Reading { window, steps })
}
