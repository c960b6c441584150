//! Counting games: the tree of every legal sequence of turns, with full
//! superko history — the Go counterpart of chess perft.
//!
//! A complete game ends by the ruleset's own ending: two passes, a
//! repetition under `--superko none`, or (normal play) a player with no legal
//! turn. [`count_games`] visits every game; [`perft`] counts the nodes at
//! each depth. Both cut the tree a few turns deep into subtrees for the
//! cores, and count only one subtree of each class of lines that a symmetry
//! of the board (fixing the start position) maps onto each other, since
//! those subtrees are images of one another.
//!
//! (A table keyed by the set of colourings seen does not help: on 1×4 it
//! outgrew 24 GiB before finishing, since games are simple paths in the
//! game graph and few of them share a set of visited colourings.)

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::rules::{PassRule, Rules};
use crate::engine::symmetry::symmetries;
use crate::engine::types::Move;
use hashbrown::HashMap;
use rayon::prelude::*;

/// Visits every child of the current node: calls `f` after each legal turn
/// (pass first) and takes the turn back. Returns the number of children.
#[inline]
fn for_each_child(game: &mut Game, mut f: impl FnMut(&mut Game)) -> u32 {
    let mut n = 0;
    if game.is_over_by_rule() {
        return 0;
    }
    if let Some(u) = game.try_play(Move::Pass) {
        f(game);
        game.undo(u);
        n += 1;
    }
    for p in game.candidates().iter() {
        if let Some(u) = game.try_play(Move::Place(p)) {
            f(game);
            game.undo(u);
            n += 1;
        }
    }
    n
}

/// The tree cut `depth` turns deep: nodes and finished games above the cut,
/// and the lines at the cut merged by symmetry, each with its multiplicity.
struct Split {
    nodes: Vec<u128>,
    ended: Vec<u128>,
    tasks: Vec<(Vec<Move>, u128)>,
}

fn split(board: &Board, rules: &Rules, depth: usize) -> Split {
    fn walk(
        g: &mut Game,
        d: usize,
        depth: usize,
        line: &mut Vec<Move>,
        s: &mut Split,
        lines: &mut Vec<Vec<Move>>,
    ) {
        if d == depth {
            lines.push(line.clone());
            return;
        }
        s.nodes[d] += 1;
        let moves = g.legal_moves();
        if moves.is_empty() {
            s.ended[d] += 1;
        }
        for m in moves {
            let u = g.play(m);
            line.push(m);
            walk(g, d + 1, depth, line, s, lines);
            line.pop();
            g.undo(u);
        }
    }
    let mut s = Split {
        nodes: vec![0; depth],
        ended: vec![0; depth],
        tasks: Vec::new(),
    };
    let mut lines = Vec::new();
    walk(
        &mut Game::new(board, rules),
        0,
        depth,
        &mut Vec::new(),
        &mut s,
        &mut lines,
    );
    let syms = symmetries(board, rules);
    let mut classes: HashMap<Vec<Move>, u128> = HashMap::new();
    for line in lines {
        let canon = syms
            .iter()
            .map(|a| line.iter().map(|&m| a.map_move(m)).collect::<Vec<Move>>())
            .min()
            .expect("identity");
        *classes.entry(canon).or_insert(0) += 1;
    }
    s.tasks = classes.into_iter().collect();
    s.tasks.sort();
    s
}

/// Cuts the tree deep enough to keep every core busy (at most `max_depth`).
fn parallel_split(board: &Board, rules: &Rules, max_depth: usize) -> Split {
    let want = 32 * rayon::current_num_threads().max(1);
    let mut depth = 1.min(max_depth);
    loop {
        let s = split(board, rules, depth);
        if s.tasks.len() >= want || s.tasks.is_empty() || depth >= max_depth {
            return s;
        }
        depth += 1;
    }
}

fn replay<'a>(board: &'a Board, rules: &Rules, line: &[Move]) -> Game<'a> {
    let mut g = Game::new(board, rules);
    for &m in line {
        g.play(m);
    }
    g
}

/// The number of complete games, found by visiting every one. `progress`
/// is told the number of subtrees, then called once as each is counted.
pub fn count_games(
    board: &Board,
    rules: &Rules,
    progress: &(dyn Fn(Option<usize>) + Sync),
) -> u128 {
    fn leaves(g: &mut Game) -> u128 {
        // A pass answering a pass ends the game: count it without playing it.
        if g.passes() == 1
            && g.rules().ruleset.pass_rule() == PassRule::Free
            && !g.is_over_by_rule()
        {
            let mut total = 1;
            for p in g.candidates().iter() {
                if let Some(u) = g.try_play(Move::Place(p)) {
                    total += leaves(g);
                    g.undo(u);
                }
            }
            return total;
        }
        let mut total = 0;
        if for_each_child(g, |g| total += leaves(g)) == 0 {
            1
        } else {
            total
        }
    }
    let s = parallel_split(board, rules, 12);
    progress(Some(s.tasks.len()));
    let sum: u128 = s
        .tasks
        .par_iter()
        .map(|(line, mult)| {
            let n = leaves(&mut replay(board, rules, line));
            progress(None);
            n * mult
        })
        .sum();
    sum + s.ended.iter().sum::<u128>()
}

/// Node counts per depth: `nodes[d]` is the number of turn sequences of
/// length `d` (`nodes[0] = 1`); `ended[d]` how many of them finish the game.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Perft {
    /// Nodes at each depth.
    pub nodes: Vec<u128>,
    /// Finished games at each depth.
    pub ended: Vec<u128>,
}

/// The perft of the game tree to `depth`.
pub fn perft(board: &Board, rules: &Rules, depth: usize) -> Perft {
    perft_told(board, rules, depth, &|_| {})
}

/// [`perft`], telling `progress` the number of subtrees, then calling it
/// once as each is counted (as [`count_games`] does).
pub fn perft_told(
    board: &Board,
    rules: &Rules,
    depth: usize,
    progress: &(dyn Fn(Option<usize>) + Sync),
) -> Perft {
    fn walk(g: &mut Game, d: usize, nodes: &mut [u128], ended: &mut [u128]) {
        nodes[d] += 1;
        if d + 1 == nodes.len() {
            if !g.has_legal_turn() {
                ended[d] += 1;
            }
            return;
        }
        if for_each_child(g, |g| walk(g, d + 1, nodes, ended)) == 0 {
            ended[d] += 1;
        }
    }
    let s = parallel_split(board, rules, depth);
    progress(Some(s.tasks.len()));
    let cut = s.nodes.len();
    let mut p = Perft {
        nodes: vec![0; depth + 1],
        ended: vec![0; depth + 1],
    };
    p.nodes[..cut].copy_from_slice(&s.nodes);
    p.ended[..cut].copy_from_slice(&s.ended);
    let parts: Vec<Perft> = s
        .tasks
        .par_iter()
        .map(|(line, mult)| {
            let mut part = Perft {
                nodes: vec![0; depth + 1],
                ended: vec![0; depth + 1],
            };
            walk(
                &mut replay(board, rules, line),
                cut,
                &mut part.nodes,
                &mut part.ended,
            );
            part.nodes
                .iter_mut()
                .chain(part.ended.iter_mut())
                .for_each(|n| *n *= mult);
            progress(None);
            part
        })
        .collect();
    for part in parts {
        for d in cut..=depth {
            p.nodes[d] += part.nodes[d];
            p.ended[d] += part.ended[d];
        }
    }
    p
}
