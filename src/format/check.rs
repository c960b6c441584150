//! The strict half of the result file's decoder: every field of a decoded
//! [`ResultFile`] checked, so that no reader (`verify`, `show`, `export`,
//! `batch`) meets a byte it does not know. [`crate::format::gsr::decode`]
//! runs [`settle`] on every file it returns.
//!
//! What is checked: the board (1 to 64 points, edges between distinct
//! points on the board; a named board, every name but `file:`, rebuilt by
//! its name without reading a file and compared with the stored points and
//! edges), the rules (names through their parsers, every field through
//! [`Rules::validate`], the stored description equal to the one those
//! rules give), every cell, player and move code ([`crate::format::codes`]),
//! every first-move class (not empty; each member's permutation a
//! permutation of the points), the values (±1 where the ruleset is won or
//! lost), and every strategy's class and owner. The strategy streams are
//! bytes walked by their readers, which fail with an error on a bad one.
//!
//! A `file:` board's name is its file's stem, which nothing can check: the
//! stored edges are the board. The run facts (program, date, nodes,
//! seconds, threads, table size) are informational and not checked.

use crate::engine::board::Board;
use crate::engine::position::Position;
use crate::engine::rules::{Komi, Rules, RulesError};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Point, PointSet};
use crate::format::codes::{Cell, cell, decode, player};
use crate::format::file::ResultFile;
use std::fmt;

/// What a decoded file holds that no writer writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A point count outside 1 to 64.
    Points(u32),
    /// An edge off the board or from a point to itself.
    Edge(u8, u8),
    /// The stored name is not the board its edges make.
    BoardName {
        /// The stored name.
        name: String,
        /// How it differs.
        why: String,
    },
    /// A rules field that the rules refuse.
    Rules(RulesError),
    /// The stored description is not that of the stored rules.
    Description {
        /// As stored.
        stored: String,
        /// As the stored rules describe themselves.
        rules: String,
    },
    /// A start cell code that is no cell.
    Cell {
        /// The point.
        point: usize,
        /// The code.
        code: u8,
    },
    /// A player code (who moves first, a strategy's owner) that is no player.
    Player(u8),
    /// A move code off the board.
    Move {
        /// Where it is.
        place: String,
        /// The code.
        code: u8,
    },
    /// A first-move class that is malformed.
    Class {
        /// Its index.
        class: usize,
        /// What is wrong.
        why: String,
    },
    /// A value no game under the rules ends with.
    Value(i32),
    /// A strategy of a class that does not exist.
    Strategy(u32),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Points(n) => write!(f, "the board has {n} points (1 to 64 are possible)"),
            Invalid::Edge(a, b) => write!(f, "a bad edge {a}-{b}"),
            Invalid::BoardName { name, why } => {
                write!(
                    f,
                    "the stored board name `{name}` does not match its edges: {why}"
                )
            }
            Invalid::Rules(e) => write!(f, "the stored rules: {e}"),
            Invalid::Description { stored, rules } => write!(
                f,
                "the stored rules description `{stored}` is not that of the stored rules (`{rules}`)"
            ),
            Invalid::Cell { point, code } => {
                write!(
                    f,
                    "start point {point} has cell code {code}, which is no cell"
                )
            }
            Invalid::Player(c) => write!(f, "player code {c} is no player"),
            Invalid::Move { place, code } => {
                write!(f, "{place}: move code {code} is off the board")
            }
            Invalid::Class { class, why } => write!(f, "first-move class {class}: {why}"),
            Invalid::Value(v) => write!(f, "value {v} is not a win or a loss"),
            Invalid::Strategy(k) => write!(
                f,
                "a strategy of first-move class {k}, which does not exist"
            ),
        }
    }
}

impl std::error::Error for Invalid {}

/// The program's board and rules for a file, every field checked (see the
/// module documentation).
pub fn settle(f: &ResultFile) -> Result<(Board, Rules), Invalid> {
    let board = board(f)?;
    let n = board.len();
    let rules = rules(f, &board)?;
    let on_board = |place: &str, code: u8| {
        decode(code, n).ok_or_else(|| Invalid::Move {
            place: place.into(),
            code,
        })
    };
    for (k, c) in f.classes.iter().enumerate() {
        let bad = |why: String| Invalid::Class { class: k, why };
        if c.members.is_empty() {
            return Err(bad("it is empty".into()));
        }
        for m in &c.members {
            on_board(&format!("first-move class {k}"), m.mv)?;
            let mut hit = vec![false; n];
            let permutation = m.perm.len() == n
                && m.perm.iter().all(|&q| {
                    let fresh = (q as usize) < n && !hit[q as usize];
                    if fresh {
                        hit[q as usize] = true;
                    }
                    fresh
                });
            if !permutation {
                return Err(bad(format!(
                    "the symmetry of move code {} is not a permutation of the {n} points",
                    m.mv
                )));
            }
        }
    }
    for &m in &f.pv {
        on_board("the principal variation", m)?;
    }
    for p in &f.proofs {
        if p.class as usize >= f.classes.len() {
            return Err(Invalid::Strategy(p.class));
        }
        player(p.owner).ok_or(Invalid::Player(p.owner))?;
    }
    if !rules.ruleset.has_score() {
        let values = f.classes.iter().map(|c| c.value);
        let bounds = f.proofs.iter().map(|p| p.bound);
        if let Some(v) = std::iter::once(f.value)
            .chain(values)
            .chain(bounds)
            .find(|v| v.abs() != 1)
        {
            return Err(Invalid::Value(v));
        }
    }
    Ok((board, rules))
}

/// The stored board, its name checked against its edges.
fn board(f: &ResultFile) -> Result<Board, Invalid> {
    let b = &f.board;
    if !(1..=64).contains(&b.points) {
        return Err(Invalid::Points(b.points));
    }
    let n = b.points as usize;
    let mut edges = Vec::with_capacity(b.edges.len());
    for &(x, y) in &b.edges {
        if x == y || x as usize >= n || y as usize >= n {
            return Err(Invalid::Edge(x, y));
        }
        edges.push((x.min(y), x.max(y)));
    }
    edges.sort_unstable();
    edges.dedup();
    let mismatch = |why: String| Invalid::BoardName {
        name: b.name.clone(),
        why,
    };
    if b.name.starts_with("file:") {
        let list: Vec<(usize, usize)> = edges
            .iter()
            .map(|&(x, y)| (x as usize, y as usize))
            .collect();
        return Board::from_edges(b.name.clone(), n, &list).map_err(|e| mismatch(e.to_string()));
    }
    let named = Board::parse_family(&b.name).map_err(|e| mismatch(e.to_string()))?;
    if named.name() != b.name {
        return Err(mismatch(format!("the board is called `{}`", named.name())));
    }
    if named.len() != n {
        return Err(mismatch(format!(
            "`{}` has {} points, the stored board {n}",
            b.name,
            named.len()
        )));
    }
    if named.edges() != edges {
        return Err(mismatch(format!("the edges of `{}` differ", b.name)));
    }
    Ok(named)
}

/// The stored rules, through the rules' own parsers and validation.
fn rules(f: &ResultFile, board: &Board) -> Result<Rules, Invalid> {
    let r = &f.rules;
    let named = |e: RulesError| Invalid::Rules(e);
    let mut rules = Rules::new(r.ruleset.parse().map_err(named)?);
    rules.superko = r.superko.parse().map_err(named)?;
    rules.suicide = r.suicide.parse().map_err(named)?;
    rules.komi = Komi::from_half(r.komi_half).map_err(named)?;
    if r.start.len() != board.len() {
        return Err(Invalid::Rules(RulesError(format!(
            "the start position has {} points, the board {}",
            r.start.len(),
            board.len()
        ))));
    }
    let mut setup = Setup {
        position: Position::EMPTY,
        to_move: player(r.to_move).ok_or(Invalid::Player(r.to_move))?,
        immortal: PointSet::EMPTY,
    };
    for (p, &code) in r.start.iter().enumerate() {
        let bit = PointSet::single(p as Point);
        let (colour, border) = match cell(code).ok_or(Invalid::Cell { point: p, code })? {
            Cell::Empty => continue,
            Cell::Stone(c) => (c, false),
            Cell::Border(c) => (c, true),
        };
        match colour {
            Color::Black => setup.position.black |= bit,
            Color::White => setup.position.white |= bit,
        }
        if border {
            setup.immortal |= bit;
        }
    }
    rules.setup = setup;
    rules.validate(board).map_err(named)?;
    if r.description != rules.describe() {
        return Err(Invalid::Description {
            stored: r.description.clone(),
            rules: rules.describe(),
        });
    }
    Ok(rules)
}
