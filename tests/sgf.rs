//! `export --sgf --depth N`: read back with a maintained SGF parser
//! (`sgf-parse`, not our own), every node valid SGF, every line replayed
//! legally by the engine, and the values consistent: the first moves'
//! are `solve`'s, each node's is its best child's, the labels on a board
//! are its children's values, TE marks exactly the moves that keep it.

mod common;

use common::gosolve;
use gosolve::engine::board::{Board, Layout};
use gosolve::engine::game::Game;
use gosolve::engine::rules::Rules;
use gosolve::engine::types::{Color, Move};
use gosolve::format::{check, gsr};
use sgf_parse::SgfNode;
use sgf_parse::go::{self, Prop};
use std::path::{Path, PathBuf};

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// The engine's move for an SGF move on `board` (grids by column and row
/// from the top; other graphs as one row of points).
fn to_move(board: &Board, m: &go::Move) -> Move {
    match m {
        go::Move::Pass => Move::Pass,
        go::Move::Move(p) => match board.layout() {
            Layout::Grid { rows, cols, .. } => {
                let (c, r) = (p.x as usize, rows - 1 - p.y as usize);
                assert!(c < cols);
                Move::Place((r * cols + c) as u8)
            }
            Layout::Graph => {
                assert_eq!(p.y, 0);
                Move::Place(p.x)
            }
        },
    }
}

struct Check<'a> {
    board: &'a Board,
    rules: Rules,
    /// Each first move's value (Black's side, half points).
    first: Vec<(Move, i32)>,
    scored: bool,
    nodes: usize,
}

fn half(v: f64, scored: bool) -> i32 {
    if scored {
        (v * 2.0).round() as i32
    } else {
        v as i32
    }
}

impl Check<'_> {
    /// Checks the node after `line` and everything below it; returns its value.
    fn node(&mut self, node: &SgfNode<Prop>, line: &mut Vec<Move>) -> i32 {
        self.nodes += 1;
        node.validate()
            .unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
        let mut g = Game::new(self.board, &self.rules);
        for &m in line.iter() {
            assert!(g.try_play(m).is_some(), "{line:?} does not replay");
        }
        let v = match node.get_property("V") {
            Some(Prop::V(v)) => half(*v, self.scored),
            other => panic!("{line:?}: V is {other:?}"),
        };
        let ahead = match v.signum() {
            1 => "GB",
            -1 => "GW",
            _ => "DM",
        };
        assert!(node.get_property(ahead).is_some(), "{line:?}: no {ahead}");
        assert!(matches!(node.get_property("C"), Some(Prop::C(_))));
        if line.len() == 1 {
            let want = self.first.iter().find(|(m, _)| *m == line[0]).unwrap().1;
            assert_eq!(v, want, "first move {:?}", line[0]);
        }
        let children: Vec<&SgfNode<Prop>> = node.children().collect();
        if children.is_empty() {
            return v;
        }
        // Every legal move is a child, once.
        let mover = g.to_move();
        assert_eq!(children.len(), g.legal_moves().len(), "{line:?}");
        let labels = match node.get_property("LB") {
            Some(Prop::LB(l)) => l.clone(),
            None => Default::default(),
            other => panic!("{other:?}"),
        };
        let sign = if mover == Color::Black { 1 } else { -1 };
        let mut values = Vec::new();
        for child in &children {
            let (color, m) = match child.get_move() {
                Some(Prop::B(m)) => (Color::Black, m),
                Some(Prop::W(m)) => (Color::White, m),
                other => panic!("{line:?}: child move {other:?}"),
            };
            assert_eq!(color, mover, "{line:?}");
            let m = to_move(self.board, m);
            line.push(m);
            let cv = self.node(child, line);
            line.pop();
            values.push((m, cv));
            let keeps = child.get_property("TE").is_some();
            let loses = child.get_property("BM").is_some();
            assert_eq!(keeps, cv == v, "{line:?} {m:?}: TE");
            assert_eq!(loses, cv != v, "{line:?} {m:?}: BM");
        }
        // The node's value is the mover's best child's.
        let best = values.iter().map(|&(_, cv)| sign * cv).max().unwrap();
        assert_eq!(sign * v, best, "{line:?}");
        // Each placing's label is its value.
        let placings = values.iter().filter(|(m, _)| *m != Move::Pass).count();
        assert_eq!(labels.len(), placings, "{line:?}");
        for (p, text) in &labels {
            let m = to_move(self.board, &go::Move::Move(*p));
            let cv = values.iter().find(|(x, _)| *x == m).unwrap().1;
            let t = text.text.as_str();
            let shown = if self.scored {
                half(t.parse::<f64>().unwrap(), true)
            } else if t == "B" {
                1
            } else {
                assert_eq!(t, "W");
                -1
            };
            assert_eq!(shown, cv, "{line:?} {m:?}: label {t}");
        }
        v
    }
}

/// 2x2, 3x3, 2x4, a 1xn, a graph and a won-or-lost ruleset: exported to a
/// file, read back, replayed and checked.
#[test]
fn sgf_with_values_reads_back_and_replays() {
    let dir = std::env::temp_dir().join(format!("gosolve-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, depth) in [
        ("2x2-tromp-taylor.gsr", 4),
        ("3x3-tromp-taylor.gsr", 2),
        ("2x4-tromp-taylor.gsr", 2),
        ("1x5-tromp-taylor.gsr", 3),
        ("cycle-6-tromp-taylor.gsr", 2),
        ("cycle-6-conway.gsr", 2),
    ] {
        let file = repo("results").join(name);
        let out = dir.join(name.replace(".gsr", ".sgf"));
        let args = [
            "export",
            file.to_str().unwrap(),
            "--sgf",
            "--depth",
            &depth.to_string(),
            "-o",
            out.to_str().unwrap(),
        ];
        let (ok, _, err) = gosolve(&args);
        assert!(ok, "{name}: {err}");
        let text = std::fs::read_to_string(&out).unwrap();
        let trees = go::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(trees.len(), 1);
        let f = gsr::read(&file).unwrap();
        let (board, rules) = check::settle(&f).unwrap();
        let first = f
            .classes
            .iter()
            .flat_map(|c| {
                c.members
                    .iter()
                    .map(move |m| (Move::from_code(m.mv), c.value))
            })
            .collect();
        let mut c = Check {
            board: &board,
            rules,
            first,
            scored: rules.ruleset.has_score(),
            nodes: 0,
        };
        let root = &trees[0];
        let (cols, rows) = match root.get_property("SZ") {
            Some(Prop::SZ(s)) => *s,
            other => panic!("{other:?}"),
        };
        assert_eq!(cols as usize * rows as usize, board.len(), "{name}");
        let v = c.node(root, &mut Vec::new());
        assert_eq!(v, f.value, "{name}");
        assert!(c.nodes > 5, "{name}: {} nodes", c.nodes);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Too deep a tree and a damaged file are errors before anything is written.
#[test]
fn sgf_tree_refuses_bad_input_without_writing() {
    let dir = std::env::temp_dir().join(format!("gosolve-sgf-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("t.sgf");
    let file = repo("results/3x3-tromp-taylor.gsr");
    let (ok, _, err) = gosolve(&[
        "export",
        file.to_str().unwrap(),
        "--sgf",
        "--depth",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("more than 20000 nodes"), "{err}");
    assert!(!out.exists());
    let bad = dir.join("bad.gsr");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() - 9]).unwrap();
    let (ok, _, err) = gosolve(&[
        "export",
        bad.to_str().unwrap(),
        "--sgf",
        "--depth",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(!err.is_empty());
    assert!(!out.exists());
    let (ok, _, err) = gosolve(&["export", file.to_str().unwrap(), "--csv", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("cannot be used with '--depth"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
