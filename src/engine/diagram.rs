//! ASCII diagrams: reading start positions and printing positions.
//!
//! A diagram lists the points' contents, `X` black, `O` white, `.` empty,
//! and for `koh` regions `B` / `W` for border stones assumed alive. Grids
//! give their rows top first (the highest row number, as printed),
//! separated by `/` or new lines; other graphs list points 0, 1, 2, ... in
//! one row. Spaces are ignored. An optional prefix `B:` or `W:` names the
//! player to move (Black otherwise): `W: X.O/.X./...`.

use crate::engine::board::{Board, Layout, column_name};
use crate::engine::position::Position;
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Point, PointSet};
use std::fmt;

/// Why a diagram was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError(pub String);

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad diagram: {}", self.0)
    }
}

impl std::error::Error for DiagramError {}

/// Parses a diagram for `board` (see the module documentation).
pub fn parse(board: &Board, text: &str) -> Result<Setup, DiagramError> {
    let mut text = text.trim();
    let mut to_move = Color::Black;
    if let Some((head, rest)) = text.split_once(':') {
        to_move = match head.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Color::Black,
            "w" | "white" => Color::White,
            other => {
                return Err(DiagramError(format!(
                    "`{other}:` should be `B:` or `W:` (the player to move)"
                )));
            }
        };
        text = rest;
    }
    let rows: Vec<String> = text
        .split(['/', '\n'])
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|r| !r.is_empty())
        .collect();
    let total: usize = rows.iter().map(|r| r.chars().count()).sum();
    if total != board.len() {
        return Err(DiagramError(format!(
            "{total} points given, the board `{}` has {}",
            board.name(),
            board.len()
        )));
    }
    // Point order of the characters: grids list the top row first.
    let order: Vec<usize> = match board.layout() {
        Layout::Grid { rows: nr, cols, .. } => {
            if rows.len() > 1
                && (rows.len() != nr || rows.iter().any(|r| r.chars().count() != cols))
            {
                return Err(DiagramError(format!(
                    "expected {nr} rows of {cols} points for `{}`",
                    board.name()
                )));
            }
            (0..nr)
                .rev()
                .flat_map(|r| (0..cols).map(move |c| r * cols + c))
                .collect()
        }
        Layout::Graph => (0..board.len()).collect(),
    };
    let mut setup = Setup {
        to_move,
        ..Setup::EMPTY
    };
    for (&p, ch) in order.iter().zip(rows.iter().flat_map(|r| r.chars())) {
        let bit = PointSet::single(p as Point);
        match ch {
            '.' | '+' => {}
            'X' | 'x' => setup.position.black |= bit,
            'O' | 'o' => setup.position.white |= bit,
            'B' => {
                setup.position.black |= bit;
                setup.immortal |= bit;
            }
            'W' => {
                setup.position.white |= bit;
                setup.immortal |= bit;
            }
            other => {
                return Err(DiagramError(format!(
                    "unexpected `{other}` (use X, O, . and for koh B, W)"
                )));
            }
        }
    }
    Ok(setup)
}

fn symbol(pos: &Position, immortal: PointSet, p: u8) -> char {
    let alive = immortal.contains(p);
    match (pos.at(p), alive) {
        (Some(Color::Black), false) => 'X',
        (Some(Color::Black), true) => 'B',
        (Some(Color::White), false) => 'O',
        (Some(Color::White), true) => 'W',
        (None, _) => '.',
    }
}

/// The one-line form that [`parse`] reads back: `X.O/.X./...`.
pub fn compact(board: &Board, pos: &Position, immortal: PointSet) -> String {
    match board.layout() {
        Layout::Grid { rows, cols, .. } => (0..rows)
            .rev()
            .map(|r| {
                (0..cols)
                    .map(|c| symbol(pos, immortal, (r * cols + c) as u8))
                    .collect()
            })
            .collect::<Vec<String>>()
            .join("/"),
        Layout::Graph => (0..board.len() as u8)
            .map(|p| symbol(pos, immortal, p))
            .collect(),
    }
}

/// A diagram for people: a grid with coordinates, or for other graphs the
/// compact row followed by each colour's points.
pub fn render(board: &Board, pos: &Position, immortal: PointSet) -> String {
    let mut out = String::new();
    match board.layout() {
        Layout::Grid { rows, cols, .. } => {
            let width = rows.to_string().len();
            let header: Vec<String> = (0..cols).map(column_name).collect();
            let cell = header.iter().map(|h| h.len()).max().unwrap_or(1);
            for r in (0..rows).rev() {
                out += &format!("{:>width$}", r + 1);
                for c in 0..cols {
                    out += &format!(" {:>cell$}", symbol(pos, immortal, (r * cols + c) as u8));
                }
                out.push('\n');
            }
            out += &" ".repeat(width);
            for h in header {
                out += &format!(" {h:>cell$}");
            }
            out.push('\n');
        }
        Layout::Graph => {
            out += &compact(board, pos, immortal);
            out.push('\n');
            for (label, set) in [("black", pos.black), ("white", pos.white)] {
                let pts: Vec<String> = set.iter().map(|p| p.to_string()).collect();
                out += &format!(
                    "{label}: {}\n",
                    if pts.is_empty() {
                        "-".into()
                    } else {
                        pts.join(" ")
                    }
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_round_trip() {
        let b = Board::parse("3x3").unwrap();
        let s = parse(&b, "W: X.O / .X. / ..B").unwrap();
        assert_eq!(s.to_move, Color::White);
        assert_eq!(
            s.position.at(b.parse_point("A3").unwrap()),
            Some(Color::Black)
        );
        assert_eq!(
            s.position.at(b.parse_point("C3").unwrap()),
            Some(Color::White)
        );
        assert_eq!(s.immortal, PointSet::single(b.parse_point("C1").unwrap()));
        assert_eq!(compact(&b, &s.position, s.immortal), "X.O/.X./..B");
        assert_eq!(
            render(&b, &s.position, PointSet::EMPTY),
            "3 X . O\n2 . X .\n1 . . X\n  A B C\n"
        );
    }

    #[test]
    fn graph_and_errors() {
        let b = Board::parse("cycle:5").unwrap();
        let s = parse(&b, "X.O..").unwrap();
        assert_eq!(
            (s.position.black, s.position.white),
            (PointSet(1), PointSet(4))
        );
        assert!(parse(&b, "X.O.").is_err());
        assert!(parse(&b, "X.Q..").is_err());
        assert!(parse(&b, "Z: X.O..").is_err());
        let g = Board::parse("2x3").unwrap();
        assert!(parse(&g, "X./.O./..").is_err());
        assert!(parse(&g, "X.O...").is_ok());
    }
}
