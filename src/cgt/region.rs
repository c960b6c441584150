//! Go regions for seed 003's endgame rules (`koh`), as diagrams or by name.
//!
//! A diagram lists rows top first, separated by `/` or new lines; spaces are
//! ignored and shorter rows are padded with `#`:
//!
//! | char | meaning |
//! | --- | --- |
//! | `.` | an empty point of the region |
//! | `X` / `O` | a black / white stone in the region, which can be captured |
//! | `B` / `W` | a black / white border stone, assumed alive (never captured) |
//! | `#` | no point (off the board, or outside the region) |
//!
//! Points are named as on a grid board: column letters from `A` (no `I`),
//! rows from 1 at the bottom. The named regions (Black's, as in seed 003):
//!
//! - `dame`: one point between black and white walls — `BBW/B.W/BWW`.
//! - `eye:N`: Black's straight eye of N points, `B…B/B.…B/B…B` (seed 003's
//!   figure 1(a) is the one-point eye; it lets eyes grow, not a shape: a
//!   straight one is the plainest).
//! - `corridor:blocked:N`: N points in a row between black walls, closed by
//!   Black at one end, a white stone at the other (seed 003, figure 1(c)).
//! - `corridor:unblocked:N`: the same with white stones at both ends.
//!
//! A leading `-` swaps the colours (White's region, the negative game).

use crate::engine::board::{Board, column_name};
use crate::engine::position::{Position, flood};
use crate::engine::types::{Color, PointSet};
use std::fmt;

/// The largest N a named region takes (see [`MAX_PART`]).
pub const MAX_NAMED: usize = MAX_PART as usize;

/// The most empty points a connected part of a region may have. The cost
/// about doubles with each point (on this project's 2-core machine,
/// `corridor:blocked:16` takes 0.9 s and 100 MB, 18 takes 5.4 s and
/// 400 MB); 20 ran past 60 s and 2.1 GB without a word.
pub const MAX_PART: u32 = 18;

/// The most empty points a region may have. Far beyond what the recursion
/// finishes in reasonable time unless the region falls apart into small
/// parts, and it keeps every value's denominator far from i64 overflow.
pub const MAX_EMPTY: u32 = 32;

/// A region: its points as a graph, the stones on them, and which stones
/// are border stones.
#[derive(Clone, Debug)]
pub struct Region {
    name: String,
    /// Diagram cells, top row first: the point there, if any.
    cells: Vec<Vec<Option<u8>>>,
    /// Each point's cell (row from the top, column).
    coords: Vec<(u8, u8)>,
    board: Board,
    start: Position,
    immortal: PointSet,
}

/// Why a region was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionError(pub String);

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RegionError {}

fn err<T>(s: String) -> Result<T, RegionError> {
    Err(RegionError(s))
}

impl Region {
    /// Reads a region: a name (`dame`, `eye:N`, `corridor:blocked:N`,
    /// `corridor:unblocked:N`), `file:PATH` (a diagram file) or `[ROWS]`
    /// (a diagram), each optionally after `-` (colours swapped).
    pub fn parse(spec: &str) -> Result<Region, RegionError> {
        let spec = spec.trim();
        if let Some(rest) = spec.strip_prefix(['-', '−']) {
            let r = Region::parse(rest)?;
            return Ok(r.swapped());
        }
        if let Some(path) = spec.strip_prefix("file:") {
            let text =
                std::fs::read_to_string(path).map_err(|e| RegionError(format!("{path}: {e}")))?;
            return Region::from_diagram(spec, &text);
        }
        if let Some(rows) = spec.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            return Region::from_diagram(spec, rows);
        }
        let (kind, n) = match spec.rsplit_once(':') {
            Some((kind, n)) => (kind, Some(n)),
            None => (spec, None),
        };
        let size = |n: Option<&str>| -> Result<usize, RegionError> {
            let n = n.ok_or_else(|| RegionError(format!("`{spec}` needs a size: `{spec}:N`")))?;
            match n.parse::<usize>() {
                Ok(k) if (1..=MAX_NAMED).contains(&k) => Ok(k),
                _ => err(format!(
                    "`{spec}`: the size must be a whole number from 1 to {MAX_NAMED}"
                )),
            }
        };
        let rows = match kind {
            "dame" if n.is_none() => "BBW/B.W/BWW".to_string(),
            "eye" => straight(size(n)?, 'B', 'B'),
            "corridor:blocked" => straight(size(n)?, 'W', 'B'),
            "corridor:unblocked" => straight(size(n)?, 'W', 'W'),
            _ => {
                return err(format!(
                    "unknown region `{spec}` (expected dame, eye:N, corridor:blocked:N, \
                     corridor:unblocked:N, file:PATH or [DIAGRAM])"
                ));
            }
        };
        Region::from_diagram(spec, &rows)
    }

    /// A region from a diagram (see the module documentation); `name` is
    /// how it is shown.
    pub fn from_diagram(name: &str, text: &str) -> Result<Region, RegionError> {
        let rows: Vec<Vec<char>> = text
            .split(['/', '\n'])
            .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut cells = vec![vec![None; width]; rows.len()];
        let (mut start, mut immortal, mut n) = (Position::EMPTY, PointSet::EMPTY, 0usize);
        let mut coords = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                if ch == '#' {
                    continue;
                }
                if !".XxOoBW".contains(ch) {
                    return err(format!(
                        "`{name}`: unexpected `{ch}` in the diagram (use . X O B W #)"
                    ));
                }
                if n == 64 {
                    return err(format!("`{name}`: more than 64 points"));
                }
                let bit = PointSet::single(n as u8);
                match ch {
                    'X' | 'x' | 'B' => start.black |= bit,
                    'O' | 'o' | 'W' => start.white |= bit,
                    _ => {}
                }
                if ch == 'B' || ch == 'W' {
                    immortal |= bit;
                }
                cells[r][c] = Some(n as u8);
                coords.push((r as u8, c as u8));
                n += 1;
            }
        }
        let mut edges = Vec::new();
        for (r, row) in cells.iter().enumerate() {
            for (c, &p) in row.iter().enumerate() {
                let Some(p) = p else { continue };
                let right = row.get(c + 1).copied().flatten();
                let down = cells.get(r + 1).and_then(|d| d[c]);
                for q in [right, down].into_iter().flatten() {
                    edges.push((p as usize, q as usize));
                }
            }
        }
        let board = Board::from_edges(name, n, &edges)
            .map_err(|e| RegionError(format!("`{name}`: {e}")))?;
        let empty = start.empty(&board).len();
        if empty > MAX_EMPTY {
            return err(format!(
                "`{name}`: {empty} empty points; at most {MAX_EMPTY} are supported"
            ));
        }
        let part = largest_part(&board, start.empty(&board));
        if part > MAX_PART {
            return err(format!(
                "`{name}`: {part} empty points in one connected part; at most {MAX_PART} \
                 (each point about doubles the time and memory)"
            ));
        }
        if !start.is_legal(&board, immortal) {
            return err(format!("`{name}`: a group of X or O stones has no liberty"));
        }
        Ok(Region {
            name: name.to_string(),
            cells,
            coords,
            board,
            start,
            immortal,
        })
    }

    /// The same region with the colours swapped (the negative game).
    pub fn swapped(&self) -> Region {
        let name = match self.name.strip_prefix('-') {
            Some(n) => n.to_string(),
            None => format!("-{}", self.name),
        };
        Region {
            name,
            start: Position {
                black: self.start.white,
                white: self.start.black,
            },
            ..self.clone()
        }
    }

    /// The name it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its points as a graph.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stones at the start.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The border stones (never captured).
    pub fn immortal(&self) -> PointSet {
        self.immortal
    }

    /// The empty points at the start.
    pub fn empty(&self) -> PointSet {
        self.start.empty(&self.board)
    }

    /// The diagram's rows, top first, as `cells` holds them.
    fn rows(&self) -> usize {
        self.cells.len()
    }

    /// The cell of point p in the diagram: (row from the top, column).
    pub fn cell(&self, p: u8) -> (u8, u8) {
        self.coords[p as usize]
    }

    /// The name of point p: column letter and row from 1 at the bottom.
    pub fn point_name(&self, p: u8) -> String {
        let (r, c) = self.cell(p);
        format!("{}{}", column_name(c as usize), self.rows() - r as usize)
    }

    /// The point named `s`, if it is one.
    pub fn parse_point(&self, s: &str) -> Option<u8> {
        (0..self.board.len() as u8).find(|&p| self.point_name(p).eq_ignore_ascii_case(s.trim()))
    }

    /// The diagram in one line, as [`Region::from_diagram`] reads it.
    pub fn compact(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|&p| self.symbol(p)).collect())
            .collect();
        rows.join("/")
    }

    fn symbol(&self, p: Option<u8>) -> char {
        let Some(p) = p else { return '#' };
        let alive = self.immortal.contains(p);
        match (self.start.at(p), alive) {
            (Some(Color::Black), false) => 'X',
            (Some(Color::Black), true) => 'B',
            (Some(Color::White), false) => 'O',
            (Some(Color::White), true) => 'W',
            (None, _) => '.',
        }
    }

    /// The diagram with coordinates, for people.
    pub fn render(&self) -> String {
        let rows = self.rows();
        let width = rows.to_string().len();
        let mut out = String::new();
        for (r, row) in self.cells.iter().enumerate() {
            out += &format!("{:>width$}", rows - r);
            for &p in row {
                out += &format!(" {}", self.symbol(p));
            }
            out.push('\n');
        }
        out += &" ".repeat(width);
        for c in 0..self.cells.first().map_or(0, Vec::len) {
            out += &format!(" {}", column_name(c));
        }
        out.push('\n');
        out
    }
}

/// The most points of `set` connected within it.
fn largest_part(board: &Board, set: PointSet) -> u32 {
    let (mut todo, mut most) = (set, 0);
    while !todo.is_empty() {
        let part = flood(board, todo.lowest(), set);
        todo &= !part;
        most = most.max(part.len());
    }
    most
}

/// Three rows: a wall, `first`, N empty points, `last`, a wall (black).
fn straight(n: usize, first: char, last: char) -> String {
    let wall = "B".repeat(n + 2);
    format!("{wall}/{first}{}{last}/{wall}", ".".repeat(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_diagrams() {
        let c = Region::parse("corridor:blocked:3").unwrap();
        assert_eq!(c.compact(), "BBBBB/W...B/BBBBB");
        assert_eq!(c.empty().len(), 3);
        assert_eq!(c.point_name(c.parse_point("b2").unwrap()), "B2");
        assert_eq!(
            c.render(),
            "3 B B B B B\n2 W . . . B\n1 B B B B B\n  A B C D E\n"
        );
        let w = Region::parse("-eye:2").unwrap();
        assert_eq!(w.compact(), "WWWW/W..W/WWWW");
        assert_eq!(w.swapped().compact(), "BBBB/B..B/BBBB");
        let d = Region::parse("[B.# / .XW]").unwrap();
        assert_eq!(d.compact(), "B.#/.XW");
        assert_eq!(d.board().len(), 5);
    }

    #[test]
    fn bad_regions_are_refused() {
        for bad in [
            "eye",
            "eye:0",
            "eye:20",
            "eye:x",
            "corridor:open:3",
            "dame:2",
            "[B.Q]",
            "[WXW]",
            "[................................./.]",
            "file:/nonexistent/region.txt",
        ] {
            assert!(Region::parse(bad).is_err(), "{bad}");
        }
    }
}
