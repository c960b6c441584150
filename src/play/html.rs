//! One self-contained page to browse the value tree: the board, every
//! legal move's value on its point (a number and a colour), back and
//! forward, the line in the URL fragment, and the value along the line as
//! a small chart. No server, no network: the tree is embedded as JSON and
//! read by plain JavaScript (`page.js`, `page.css` beside this file).

use crate::engine::board::Layout;
use crate::engine::types::Color;
use crate::format::gsr::ResultFile;
use crate::play::oracle::{Budget, Oracle};
use crate::play::sgf::label;
use crate::play::tree::{Node, TreeError, build};
use serde_json::{Value, json};

/// The pages' style sheet (also `gosolve cgt --html`'s).
pub const STYLE: &str = include_str!("page.css");

/// The nodes in a flat list (the start first), each naming its children
/// by index.
fn flatten(
    o: &Oracle,
    n: &Node,
    parent_mover: Option<crate::engine::types::Color>,
    out: &mut Vec<Value>,
) -> usize {
    let board = o.board();
    let scored = o.rules().ruleset.has_score();
    let range = o.range();
    let id = out.len();
    out.push(Value::Null);
    let cells: String = (0..board.len() as u8)
        .map(|p| match n.position.at(p) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        })
        .collect();
    let children: Vec<usize> = n
        .children
        .iter()
        .map(|c| flatten(o, c, Some(n.to_move), out))
        .collect();
    let points = |v: i32| {
        if scored {
            v as f64 / 2.0
        } else {
            v.signum() as f64
        }
    };
    out[id] = json!({
        "m": n.mv.map(|m| board.move_name(m)),
        "v": label(scored, &n.known, range),
        "text": n.known.text(scored, range),
        "n": n.known.exact().map(points),
        "s": n.known.status(),
        "l": n.known.label(),
        // What the move into it gives the player who made it (at the start: the player to move).
        "g": n.known.category(parent_mover.unwrap_or(n.to_move)),
        "p": cells,
        "t": n.to_move.name(),
        "o": n.over,
        "c": children,
    });
    id
}

/// The page for the tree of every line to `depth` turns (see the module doc).
pub fn page(
    o: &Oracle,
    f: &ResultFile,
    depth: usize,
    budget: &Budget,
) -> Result<String, TreeError> {
    let root = build(o, depth, budget)?;
    let board = o.board();
    let mut nodes = Vec::new();
    flatten(o, &root, None, &mut nodes);
    let (rows, cols, graph) = match board.layout() {
        Layout::Grid { rows, cols, .. } => (rows, cols, false),
        Layout::Graph => (1, board.len(), true),
    };
    let names: Vec<String> = (0..board.len() as u8)
        .map(|p| board.point_name(p))
        .collect();
    let data = json!({
        "board": f.board.name,
        "rules": f.rules.description,
        "rows": rows,
        "cols": cols,
        "graph": graph,
        "names": names,
        "edges": board.edges(),
        "depth": depth,
        "nodes": nodes,
    });
    // Inside <script>, "</" would end the element.
    let data = data.to_string().replace("</", "<\\/");
    let title = format!("{} under {}", f.board.name, f.rules.description);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>gosolve: {title}</title>\n<style>\n{}</style>\n</head>\n<body>\n<h1>{title}</h1>\n<div id=\"status\"></div>\n<div id=\"board\"></div>\n<p><button id=\"back\">&larr; back</button> <button id=\"forward\">forward &rarr;</button> <button id=\"pass\" class=\"move\">pass</button></p>\n<p>Line: <span id=\"line\"></span></p>\n<svg id=\"chart\" width=\"360\" height=\"120\" role=\"img\" aria-label=\"the value along the line\"></svg>\n<p id=\"note\"></p>\n<p class=\"key\">Values are Black &minus; White &minus; komi (or who wins); colours say what a move gives the player who makes it: <span class=\"win\">win</span> <span class=\"draw\">draw</span> <span class=\"loss\">loss</span> <span class=\"unknown\">bound only</span>.</p>\n<script type=\"application/json\" id=\"data\">{data}</script>\n<script>\n{}</script>\n</body>\n</html>\n",
        STYLE,
        include_str!("page.js")
    ))
}
