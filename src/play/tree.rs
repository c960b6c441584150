//! Every legal line to a depth, each node with what is known of its value:
//! what the SGF and HTML exports draw.

use crate::engine::game::Game;
use crate::engine::position::Position;
use crate::engine::types::{Color, Move};
use crate::play::known::Known;
use crate::play::oracle::{Budget, Oracle};
use crate::play::probe::{Asked, probe};

/// Why the tree was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeError(pub String);

impl std::fmt::Display for TreeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreeError {}

/// The most nodes a tree may have: beyond, a viewer chokes long before
/// a person reads it (and each node costs a probe).
pub const MAX_NODES: usize = 20_000;

/// One position of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The move into it (`None` at the start).
    pub mv: Option<Move>,
    /// Its value.
    pub known: Known,
    /// The stones.
    pub position: Position,
    /// Who moves here.
    pub to_move: Color,
    /// The game is over here.
    pub over: bool,
    /// Every legal move's node, best for the mover first; empty at the
    /// depth limit and where the game is over.
    pub children: Vec<Node>,
}

/// The nodes of the tree of every line to `depth` turns from `g`,
/// counted up to just past `cap`.
fn count(g: &mut Game, depth: usize, cap: usize) -> usize {
    let mut n = 1;
    if depth == 0 {
        return n;
    }
    for m in g.legal_moves() {
        let u = g.play(m);
        n += count(g, depth - 1, cap - n.min(cap));
        g.undo(u);
        if n > cap {
            break;
        }
    }
    n
}

fn grow(
    o: &Oracle,
    line: &mut Vec<Move>,
    mv: Option<Move>,
    known: Known,
    depth: usize,
    budget: &Budget,
) -> Result<Node, TreeError> {
    let g = o.replay(line).map_err(|e| TreeError(e.0))?;
    let mut node = Node {
        mv,
        known,
        position: g.position(),
        to_move: g.to_move(),
        over: g.outcome().is_some(),
        children: Vec::new(),
    };
    if depth == 0 || node.over {
        return Ok(node);
    }
    let asked = Asked {
        search: true,
        pv: false,
    };
    let p = probe(o, line, budget, asked).map_err(|e| TreeError(e.0))?;
    // A tree with bounds where values should be is not what was asked.
    if p.stopped {
        return Err(TreeError(
            "the live search stopped at its limit before every value was known: give it more (--seconds) or ask for less depth".into(),
        ));
    }
    for r in p.moves {
        line.push(r.mv);
        node.children
            .push(grow(o, line, Some(r.mv), r.known, depth - 1, budget)?);
        line.pop();
    }
    Ok(node)
}

/// The tree of every legal line to `depth` turns from the start. Too many
/// nodes is an error before any search; a search that stops before every
/// value is known is one after.
pub fn build(o: &Oracle, depth: usize, budget: &Budget) -> Result<Node, TreeError> {
    let mut g = Game::new(o.board(), o.rules());
    if count(&mut g, depth, MAX_NODES) > MAX_NODES {
        return Err(TreeError(format!(
            "every line to {depth} turns makes more than {MAX_NODES} nodes: ask for less depth"
        )));
    }
    let known = o.known(&[], budget, true).map_err(|e| TreeError(e.0))?;
    grow(o, &mut Vec::new(), None, known, depth, budget)
}
