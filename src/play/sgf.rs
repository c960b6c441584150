//! The game tree to a depth as SGF with a value on every node: `V[]` the
//! node's value (Black − White − komi, or ±1 for who wins), `LB[]` each
//! child move's value on the parent's board, `TE[]` on moves that keep
//! the value, `BM[]` on those that lose some (`BM[2]` where the result
//! changes: a win no longer a win, a draw now a loss), `GB`/`GW`/`DM` for
//! who is ahead, and `C[]` in words for viewers that show only comments.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::types::{Color, Move};
use crate::format::gsr::ResultFile;
use crate::play::known::Known;
use crate::play::oracle::{Budget, Oracle};
use crate::play::probe::{Asked, Probe, probe};
use crate::store::inspect::{sgf_escape, sgf_point, sgf_root};

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

struct Tree<'o, 'a> {
    oracle: &'o Oracle<'a>,
    board: &'a Board,
    budget: &'o Budget,
    scored: bool,
    stopped: bool,
    /// Text the next node's comment starts with (the root's description).
    intro: String,
}

/// A value as an SGF `V[]` (a real number: points, or ±1) and a short label.
fn v_text(scored: bool, v: i32) -> String {
    if scored {
        crate::engine::rules::half_points(v)
    } else {
        v.signum().to_string()
    }
}

fn label(scored: bool, k: &Known, range: i32) -> String {
    match (k.exact(), scored) {
        (Some(v), false) => if v > 0 { "B" } else { "W" }.to_string(),
        _ => k.text(scored, range).replace(' ', ""),
    }
}

/// Who is ahead: `GB[1]`, `GW[1]` or `DM[1]` (even); nothing for a bound
/// that allows either.
fn ahead(k: &Known) -> &'static str {
    if k.lo > 0 {
        "GB[1]"
    } else if k.hi < 0 {
        "GW[1]"
    } else if k.lo == 0 && k.hi == 0 {
        "DM[1]"
    } else {
        ""
    }
}

impl Tree<'_, '_> {
    fn probe(&mut self, line: &[Move]) -> Result<Probe, TreeError> {
        let asked = Asked {
            search: true,
            pv: false,
        };
        let p = probe(self.oracle, line, self.budget, asked).map_err(|e| TreeError(e.0))?;
        self.stopped |= p.stopped;
        Ok(p)
    }

    /// The properties of the node after `line` whose value is `k`, and
    /// its children to `depth` more turns. `judged` says how the move
    /// into it compares with the best there (`TE`/`BM`).
    fn node(
        &mut self,
        line: &mut Vec<Move>,
        k: Known,
        depth: usize,
        judged: &str,
        out: &mut String,
    ) -> Result<(), TreeError> {
        let intro = std::mem::take(&mut self.intro);
        let range = self.oracle.range();
        if let Some(v) = k.exact() {
            *out += &format!("V[{}]", v_text(self.scored, v));
        }
        *out += ahead(&k);
        *out += judged;
        let mut comment = format!(
            "{intro}Value {} ({}).",
            k.text(self.scored, range),
            k.label()
        );
        let p = (depth > 0).then(|| self.probe(line)).transpose()?;
        let children = p.as_ref().map_or(&[][..], |p| &p.moves[..]);
        let labels: Vec<String> = children
            .iter()
            .filter(|r| r.mv != Move::Pass)
            .map(|r| {
                format!(
                    "[{}:{}]",
                    sgf_point(self.board, r.mv),
                    sgf_escape(&label(self.scored, &r.known, range))
                )
            })
            .collect();
        if !labels.is_empty() {
            *out += &format!("LB{}", labels.concat());
        }
        if let Some(r) = children.iter().find(|r| r.mv == Move::Pass) {
            comment += &format!(" Pass: {}.", r.known.text(self.scored, range));
        }
        *out += &format!("C[{}]", sgf_escape(&comment));
        let Some(p) = &p else { return Ok(()) };
        let best = p.known;
        let many = children.len() > 1;
        for r in children {
            let who = if p.to_move == Color::Black { "B" } else { "W" };
            let judged = judge(p.to_move, &best, &r.known);
            if many {
                out.push('(');
            }
            *out += &format!(";{who}[{}]", sgf_point(self.board, r.mv));
            line.push(r.mv);
            self.node(line, r.known, depth - 1, judged, out)?;
            line.pop();
            if many {
                out.push(')');
            }
        }
        Ok(())
    }
}

/// `TE[1]` when the move keeps the best value, `BM[2]` when it changes
/// the result for the mover, `BM[1]` when it only loses some of it;
/// nothing where bounds leave it open.
fn judge(mover: Color, best: &Known, k: &Known) -> &'static str {
    let (Some(b), Some(v)) = (best.exact(), k.exact()) else {
        return "";
    };
    let sign = if mover == Color::Black { 1 } else { -1 };
    let (b, v) = (sign * b, sign * v);
    if v == b {
        "TE[1]"
    } else if v.signum() < b.signum() {
        "BM[2]"
    } else {
        "BM[1]"
    }
}

/// The tree of every legal line to `depth` turns from the start, each
/// node with its value (see the module doc); `f` is the oracle's result
/// file, for the root's description.
pub fn tree(
    o: &Oracle,
    f: &ResultFile,
    depth: usize,
    budget: &Budget,
) -> Result<String, TreeError> {
    let board = o.board();
    let scored = o.rules().ruleset.has_score();
    // Counted before any search, so that too deep a tree fails at once.
    let mut g = Game::new(board, o.rules());
    if count(&mut g, depth, MAX_NODES) > MAX_NODES {
        return Err(TreeError(format!(
            "every line to {depth} turns makes more than {MAX_NODES} nodes: ask for less depth"
        )));
    }
    let (props, comment) = sgf_root(f, board, o.rules());
    let intro = format!(
        "{comment} Every line to {depth} turns, each node with its value (V), each move's value on the board before it (LB), TE on moves that keep the value, BM on those that lose some. "
    );
    let mut t = Tree {
        oracle: o,
        board,
        budget,
        scored,
        stopped: false,
        intro,
    };
    let k = o.known(&[], budget, true).map_err(|e| TreeError(e.0))?;
    let mut body = String::new();
    t.node(&mut Vec::new(), k, depth, "", &mut body)?;
    // A tree with bounds where values should be is not what was asked.
    if t.stopped {
        return Err(TreeError(
            "the live search stopped at its limit before every value was known: give it more (--seconds) or ask for less depth".into(),
        ));
    }
    Ok(format!("(;{props}{body})\n"))
}
