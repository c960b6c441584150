//! The game tree to a depth as SGF with a value on every node: `V[]` the
//! node's value (Black − White − komi, or ±1 for who wins), `LB[]` each
//! child move's value on the parent's board, `TE[]` on moves that keep
//! the value, `BM[]` on those that lose some (`BM[2]` where the result
//! changes: a win no longer a win, a draw now a loss), `GB`/`GW`/`DM` for
//! who is ahead, and `C[]` in words for viewers that show only comments.

use crate::engine::board::Board;
use crate::engine::types::{Color, Move};
use crate::format::gsr::ResultFile;
use crate::play::known::Known;
use crate::play::oracle::{Budget, Oracle};
use crate::play::tree::{Node, TreeError, build};
use crate::store::inspect::{sgf_escape, sgf_point, sgf_root};

/// A value as an SGF `V[]`: points, or ±1.
fn v_text(scored: bool, v: i32) -> String {
    if scored {
        crate::engine::rules::half_points(v)
    } else {
        v.signum().to_string()
    }
}

/// A value as a label on the board: `+3`, `≥+2`, or who wins.
pub fn label(scored: bool, k: &Known, range: i32) -> String {
    match (k.exact(), scored) {
        (Some(v), false) => if v > 0 { "B" } else { "W" }.to_string(),
        _ => k.text(scored, range).replace(' ', ""),
    }
}

/// Who is ahead: `GB[1]`, `GW[1]` or `DM[1]` (even); nothing for a bound
/// that allows either.
fn ahead(k: &Known) -> &'static str {
    match k.category(Color::Black) {
        "win" => "GB[1]",
        "loss" => "GW[1]",
        "draw" => "DM[1]",
        _ => "",
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

struct Writer<'a> {
    board: &'a Board,
    scored: bool,
    range: i32,
}

impl Writer<'_> {
    /// The node's properties (after its move's, which the caller wrote)
    /// and its children; `intro` starts its comment.
    fn node(&self, n: &Node, intro: &str, out: &mut String) {
        let k = &n.known;
        if let Some(v) = k.exact() {
            *out += &format!("V[{}]", v_text(self.scored, v));
        }
        *out += ahead(k);
        let labels: Vec<String> = n
            .children
            .iter()
            .filter_map(|c| match c.mv {
                Some(Move::Place(_)) => Some(format!(
                    "[{}:{}]",
                    sgf_point(self.board, c.mv.expect("a move")),
                    sgf_escape(&label(self.scored, &c.known, self.range))
                )),
                _ => None,
            })
            .collect();
        if !labels.is_empty() {
            *out += &format!("LB{}", labels.concat());
        }
        let mut comment = format!(
            "{intro}Value {} ({}).",
            k.text(self.scored, self.range),
            k.label()
        );
        if let Some(c) = n.children.iter().find(|c| c.mv == Some(Move::Pass)) {
            comment += &format!(" Pass: {}.", c.known.text(self.scored, self.range));
        }
        *out += &format!("C[{}]", sgf_escape(&comment));
        let many = n.children.len() > 1;
        let who = if n.to_move == Color::Black { "B" } else { "W" };
        for c in &n.children {
            if many {
                out.push('(');
            }
            let m = c.mv.expect("a child has a move");
            *out += &format!(";{who}[{}]", sgf_point(self.board, m));
            *out += judge(n.to_move, k, &c.known);
            self.node(c, "", out);
            if many {
                out.push(')');
            }
        }
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
    let root = build(o, depth, budget)?;
    let (props, comment) = sgf_root(f, o.board(), o.rules());
    let intro = format!(
        "{comment} Every line to {depth} turns, each node with its value (V), each move's value on the board before it (LB), TE on moves that keep the value, BM on those that lose some. "
    );
    let w = Writer {
        board: o.board(),
        scored: o.rules().ruleset.has_score(),
        range: o.range(),
    };
    let mut body = String::new();
    w.node(&root, &intro, &mut body);
    Ok(format!("(;{props}{body})\n"))
}
