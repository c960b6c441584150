//! The board: a simple undirected graph of at most 64 points.
//!
//! A point set is a [`PointSet`] (one `u64`); each point keeps the mask of its neighbours.
//! Grids (and tori) remember their shape so that they print as diagrams
//! and so that the neighbours of a whole set are a few shifts.
//!
//! Board specifications accepted by [`Board::parse`]:
//!
//! | spec | graph |
//! | --- | --- |
//! | `MxN` | grid of M rows and N columns (`1xN` is the path of N points) |
//! | `path:N`, `cycle:N`, `complete:N` | the usual graphs on N points |
//! | `star:N` | a centre (point 0) and N leaves |
//! | `torus:MxN` | the M×N grid with wrap-around edges (M, N ≥ 3) |
//! | `petersen` | the Petersen graph (outer cycle 0–4, inner star 5–9) |
//! | `cube:D` | the D-dimensional hypercube (2^D points) |
//! | `file:PATH` | an edge list, see [`Board::from_edge_list`] |

use crate::engine::types::{Move, Point, PointSet, bits};
use std::fmt;

/// The most points a board may have: a [`PointSet`] is one `u64`.
pub const MAX_POINTS: usize = 64;

/// Why a board specification or edge-list file was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// The name matches no family.
    Unknown(String),
    /// The family is known but the size is malformed or out of range.
    BadSize(String),
    /// The graph would have more than 64 points.
    TooManyPoints(usize),
    /// An edge joins a point to itself.
    SelfLoop(usize),
    /// An edge-list line that does not parse (1-based line number).
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line as written.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The file could not be read.
    Io(String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Unknown(s) => write!(
                f,
                "unknown board `{s}` (expected MxN, path:N, cycle:N, complete:N, star:N, \
                 torus:MxN, petersen, cube:D or file:PATH)"
            ),
            BoardError::BadSize(s) => write!(f, "bad board size: {s}"),
            BoardError::TooManyPoints(n) => {
                write!(
                    f,
                    "the board has {n} points; at most {MAX_POINTS} are supported"
                )
            }
            BoardError::SelfLoop(p) => {
                write!(f, "self-loop at point {p}: a board is a simple graph")
            }
            BoardError::BadLine { line, text, why } => {
                write!(f, "line {line}: {why}: `{text}`")
            }
            BoardError::Io(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// How the points are laid out, for printing and fast neighbour sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Point `r * cols + c` is column `c` of row `r` (row 0 prints as row 1, at the bottom).
    Grid {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
        /// True when edges wrap around (a torus).
        torus: bool,
    },
    /// Points are known by their index only.
    Graph,
}

/// A board graph with at most 64 points.
#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    len: usize,
    mask: u64,
    nbr: [u64; MAX_POINTS],
    layout: Layout,
    /// Points not in the first / last column (plain grids only).
    not_first_col: u64,
    not_last_col: u64,
}

/// The set of the first `len` points.
pub fn mask_of(len: usize) -> u64 {
    if len == 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

fn parse_size(s: &str, what: &str, min: usize, max: usize) -> Result<usize, BoardError> {
    let n: usize = s
        .parse()
        .map_err(|_| BoardError::BadSize(format!("`{s}` is not a number ({what})")))?;
    if n < min {
        return Err(BoardError::BadSize(format!(
            "{what} must be at least {min}, got {n}"
        )));
    }
    if n > max {
        return Err(BoardError::TooManyPoints(n));
    }
    Ok(n)
}

/// The longest board file read: 64 points have at most 2,016 edges, so a
/// longer file is not a board (`file:/dev/zero` read without end).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The text of board file `path`, if it is at most [`MAX_FILE_BYTES`].
fn read_limited(path: &str) -> Result<String, BoardError> {
    use std::io::Read;
    let io = |e: std::io::Error| BoardError::Io(format!("cannot read board file `{path}`: {e}"));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(BoardError::Io(format!(
            "board file `{path}` is longer than {MAX_FILE_BYTES} bytes: not a board of at most {MAX_POINTS} points"
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| BoardError::Io(format!("board file `{path}` is not UTF-8 text")))
}

fn parse_dims(s: &str, min: usize) -> Result<(usize, usize), BoardError> {
    let (a, b) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| BoardError::BadSize(format!("`{s}` is not of the form MxN")))?;
    let rows = parse_size(a, "rows", min, usize::MAX)?;
    let cols = parse_size(b, "columns", min, usize::MAX)?;
    match rows.checked_mul(cols) {
        Some(n) if n <= MAX_POINTS => Ok((rows, cols)),
        Some(n) => Err(BoardError::TooManyPoints(n)),
        None => Err(BoardError::TooManyPoints(usize::MAX)),
    }
}

impl Board {
    /// A board from its point count and edge list. Duplicate edges are merged.
    pub fn from_edges(
        name: impl Into<String>,
        len: usize,
        edges: &[(usize, usize)],
    ) -> Result<Board, BoardError> {
        Self::build(name.into(), len, edges, Layout::Graph)
    }

    fn build(
        name: String,
        len: usize,
        edges: &[(usize, usize)],
        layout: Layout,
    ) -> Result<Board, BoardError> {
        if len > MAX_POINTS {
            return Err(BoardError::TooManyPoints(len));
        }
        let mut nbr = [0u64; MAX_POINTS];
        for &(a, b) in edges {
            if a == b {
                return Err(BoardError::SelfLoop(a));
            }
            if a >= len || b >= len {
                return Err(BoardError::BadSize(format!(
                    "edge {a}-{b} names a point outside 0..{len}"
                )));
            }
            nbr[a] |= 1 << b;
            nbr[b] |= 1 << a;
        }
        let mask = mask_of(len);
        let (mut not_first_col, mut not_last_col) = (mask, mask);
        if let Layout::Grid {
            rows,
            cols,
            torus: false,
        } = layout
        {
            for r in 0..rows {
                not_first_col &= !(1u64 << (r * cols));
                not_last_col &= !(1u64 << (r * cols + cols - 1));
            }
        }
        Ok(Board {
            name,
            len,
            mask,
            nbr,
            layout,
            not_first_col,
            not_last_col,
        })
    }

    /// The `rows` × `cols` grid (rows × cols ≤ 64).
    pub fn grid(rows: usize, cols: usize) -> Result<Board, BoardError> {
        Self::grid_like(rows, cols, false)
    }

    fn grid_like(rows: usize, cols: usize, torus: bool) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::BadSize(
                "a grid needs at least one row and column".into(),
            ));
        }
        if rows * cols > MAX_POINTS {
            return Err(BoardError::TooManyPoints(rows * cols));
        }
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let p = r * cols + c;
                if c + 1 < cols {
                    edges.push((p, p + 1));
                } else if torus {
                    edges.push((p, r * cols));
                }
                if r + 1 < rows {
                    edges.push((p, p + cols));
                } else if torus {
                    edges.push((p, c));
                }
            }
        }
        let name = if torus {
            format!("torus:{rows}x{cols}")
        } else {
            format!("{rows}x{cols}")
        };
        Self::build(
            name,
            rows * cols,
            &edges,
            Layout::Grid { rows, cols, torus },
        )
    }

    /// Parses a board specification (see the module documentation).
    pub fn parse(spec: &str) -> Result<Board, BoardError> {
        let Some(path) = file_path(spec) else {
            return Self::parse_family(spec);
        };
        let path =
            path.ok_or_else(|| BoardError::BadSize(format!("`{spec}` needs a size after `:`")))?;
        let text = read_limited(path)?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string());
        Self::from_edge_list(&format!("file:{stem}"), &text)
    }

    /// Parses a named family (every specification but `file:`, which is
    /// [`BoardError::Unknown`] here): never reads a file, so a name read
    /// back from a result file can be rebuilt safely.
    pub fn parse_family(spec: &str) -> Result<Board, BoardError> {
        let spec = spec.trim();
        let (family, arg) = match spec.split_once(':') {
            Some((f, a)) => (f.to_ascii_lowercase(), Some(a)),
            None => (spec.to_ascii_lowercase(), None),
        };
        fn need<'s>(a: Option<&'s str>, spec: &str) -> Result<&'s str, BoardError> {
            a.ok_or_else(|| BoardError::BadSize(format!("`{spec}` needs a size after `:`")))
        }
        match family.as_str() {
            "path" => {
                let n = parse_size(need(arg, spec)?, "points", 1, MAX_POINTS)?;
                let edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
                Self::build(format!("path:{n}"), n, &edges, Layout::Graph)
            }
            "cycle" => {
                let n = parse_size(need(arg, spec)?, "points", 3, MAX_POINTS)?;
                let edges: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
                Self::build(format!("cycle:{n}"), n, &edges, Layout::Graph)
            }
            "complete" => {
                let n = parse_size(need(arg, spec)?, "points", 1, MAX_POINTS)?;
                let edges: Vec<_> = (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .collect();
                Self::build(format!("complete:{n}"), n, &edges, Layout::Graph)
            }
            "star" => {
                let n = parse_size(need(arg, spec)?, "leaves", 1, usize::MAX)?;
                if n >= MAX_POINTS {
                    // The centre is a point too.
                    return Err(BoardError::TooManyPoints(n.saturating_add(1)));
                }
                let edges: Vec<_> = (1..=n).map(|i| (0, i)).collect();
                Self::build(format!("star:{n}"), n + 1, &edges, Layout::Graph)
            }
            "cube" => {
                let d = parse_size(need(arg, spec)?, "dimension", 1, usize::MAX)?;
                if d > 6 {
                    return Err(
                        match u32::try_from(d).ok().and_then(|d| 1usize.checked_shl(d)) {
                            Some(n) => BoardError::TooManyPoints(n),
                            None => BoardError::BadSize(format!(
                                "cube:{d} has 2^{d} points; at most {MAX_POINTS} are supported"
                            )),
                        },
                    );
                }
                let n = 1usize << d;
                let edges: Vec<_> = (0..n)
                    .flat_map(|a| (0..d).map(move |k| (a, a ^ (1 << k))))
                    .filter(|&(a, b)| a < b)
                    .collect();
                Self::build(format!("cube:{d}"), n, &edges, Layout::Graph)
            }
            "torus" => {
                let (rows, cols) = parse_dims(need(arg, spec)?, 3)?;
                Self::grid_like(rows, cols, true)
            }
            "petersen" if arg.is_none() => {
                let mut edges = Vec::new();
                for i in 0..5 {
                    edges.push((i, (i + 1) % 5));
                    edges.push((i, i + 5));
                    edges.push((5 + i, 5 + (i + 2) % 5));
                }
                Self::build("petersen".into(), 10, &edges, Layout::Graph)
            }
            _ if arg.is_none()
                && spec.contains(['x', 'X'])
                && spec
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == 'x' || c == 'X') =>
            {
                let (rows, cols) = parse_dims(spec, 1)?;
                Self::grid(rows, cols)
            }
            _ => Err(BoardError::Unknown(spec.to_string())),
        }
    }

    /// Parses the plain edge-list format:
    ///
    /// ```text
    /// # a comment; blank lines are ignored
    /// points 5      # optional; otherwise one more than the largest index
    /// 0 1           # an edge between points 0 and 1
    /// 1 2
    /// ```
    pub fn from_edge_list(name: &str, text: &str) -> Result<Board, BoardError> {
        let mut declared: Option<usize> = None;
        let mut edges = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |why: &str| BoardError::BadLine {
                line: i + 1,
                text: raw.trim().to_string(),
                why: why.to_string(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["points", n] => {
                    if declared.is_some() {
                        return Err(bad("a second `points` line"));
                    }
                    let n: usize = n.parse().map_err(|_| bad("`points` needs a number"))?;
                    if n > MAX_POINTS {
                        return Err(BoardError::TooManyPoints(n));
                    }
                    declared = Some(n);
                }
                [a, b] => {
                    let a: usize = a.parse().map_err(|_| bad("expected two point indices"))?;
                    let b: usize = b.parse().map_err(|_| bad("expected two point indices"))?;
                    if a == b {
                        return Err(bad("self-loop: a board is a simple graph"));
                    }
                    if a.max(b) >= MAX_POINTS {
                        return Err(BoardError::TooManyPoints(a.max(b) + 1));
                    }
                    edges.push((a, b));
                }
                _ => return Err(bad("expected `A B` (an edge) or `points N`")),
            }
        }
        let used = edges.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
        let len = match declared {
            Some(n) if n < used => {
                return Err(BoardError::BadSize(format!(
                    "`points {n}` but an edge names point {}",
                    used - 1
                )));
            }
            Some(n) => n,
            None => used,
        };
        if len == 0 {
            return Err(BoardError::BadSize("the file defines no points".into()));
        }
        Self::build(name.to_string(), len, &edges, Layout::Graph)
    }

    /// The canonical name, e.g. `3x3`, `cycle:6`, `file:ring`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never true: a board has at least one point.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The set of all points.
    #[inline]
    pub fn mask(&self) -> PointSet {
        PointSet(self.mask)
    }

    /// The layout (grid shape or plain graph).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The neighbours of one point.
    #[inline]
    pub fn neighbours(&self, p: Point) -> PointSet {
        PointSet(self.nbr[p as usize])
    }

    /// The union of the neighbours of every point of `set`.
    #[inline]
    pub fn spread(&self, set: PointSet) -> PointSet {
        let set = set.0;
        PointSet(match self.layout {
            Layout::Grid {
                cols, torus: false, ..
            } => {
                (((set & self.not_last_col) << 1)
                    | ((set & self.not_first_col) >> 1)
                    | (set << cols)
                    | (set >> cols))
                    & self.mask
            }
            _ => {
                let mut out = 0;
                for p in bits(set) {
                    out |= self.nbr[p as usize];
                }
                out
            }
        })
    }

    /// Every edge once, as `(a, b)` with `a < b`.
    pub fn edges(&self) -> Vec<(u8, u8)> {
        (0..self.len as u8)
            .flat_map(|a| {
                bits(self.nbr[a as usize])
                    .filter(move |&b| b > a)
                    .map(move |b| (a, b))
            })
            .collect()
    }

    /// The name of a move: `pass`, or its point's name.
    pub fn move_name(&self, m: Move) -> String {
        match m {
            Move::Pass => "pass".into(),
            Move::Place(p) => self.point_name(p),
        }
    }

    /// The name of a point: Go coordinates (`A1`, columns skip `I`) on grids,
    /// the index elsewhere.
    pub fn point_name(&self, p: u8) -> String {
        match self.layout {
            Layout::Grid { cols, .. } => {
                let (r, c) = (p as usize / cols, p as usize % cols);
                format!("{}{}", column_name(c), r + 1)
            }
            Layout::Graph => p.to_string(),
        }
    }

    /// The point named `s` (as printed by [`Board::point_name`]), if any.
    pub fn parse_point(&self, s: &str) -> Option<u8> {
        let s = s.trim();
        match self.layout {
            Layout::Grid { rows, cols, .. } => {
                let split = s.find(|ch: char| ch.is_ascii_digit())?;
                let (letters, digits) = s.split_at(split);
                let c = (0..cols).find(|&c| column_name(c).eq_ignore_ascii_case(letters))?;
                let r: usize = digits.parse().ok()?;
                (1..=rows).contains(&r).then(|| ((r - 1) * cols + c) as u8)
            }
            Layout::Graph => s.parse::<u8>().ok().filter(|&p| (p as usize) < self.len),
        }
    }
}

/// For a `file:` specification, its path (`None` inside when it is empty);
/// `None` for every other family.
fn file_path(spec: &str) -> Option<Option<&str>> {
    let spec = spec.trim();
    let (family, arg) = spec.split_once(':').unwrap_or((spec, ""));
    family
        .eq_ignore_ascii_case("file")
        .then_some((!arg.is_empty()).then_some(arg))
}

/// Column letters as on a Go board: A–H, J–Z (no I), then AA, AB, ...
pub fn column_name(c: usize) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let n = LETTERS.len();
    if c < n {
        (LETTERS[c] as char).to_string()
    } else {
        let (hi, lo) = (c / n - 1, c % n);
        format!("{}{}", LETTERS[hi] as char, LETTERS[lo] as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_neighbours_match_spread() {
        for spec in [
            "1x1",
            "1x7",
            "3x3",
            "2x5",
            "4x4",
            "8x8",
            "torus:3x4",
            "petersen",
            "cube:3",
        ] {
            let b = Board::parse(spec).unwrap();
            for p in 0..b.len() as u8 {
                assert_eq!(
                    b.spread(PointSet::single(p)),
                    b.neighbours(p),
                    "{spec} point {p}"
                );
            }
            let edges = b.edges().len();
            let degree_sum: u32 = (0..b.len() as u8).map(|p| b.neighbours(p).len()).sum();
            assert_eq!(degree_sum as usize, 2 * edges);
        }
    }

    #[test]
    fn edge_counts() {
        let count = |s: &str| Board::parse(s).unwrap().edges().len();
        assert_eq!(count("3x3"), 12);
        assert_eq!(count("torus:3x3"), 18);
        assert_eq!(count("petersen"), 15);
        assert_eq!(count("cube:4"), 32);
        assert_eq!(count("complete:6"), 15);
        assert_eq!(count("star:5"), 5);
        assert_eq!(count("cycle:7"), 7);
        assert_eq!(count("path:7"), 6);
    }

    #[test]
    fn names_round_trip() {
        let b = Board::parse("3x30").err();
        assert_eq!(b, Some(BoardError::TooManyPoints(90)));
        let b = Board::parse("2x30").unwrap();
        for p in 0..b.len() as u8 {
            assert_eq!(b.parse_point(&b.point_name(p)), Some(p));
        }
        let b = Board::parse("3x3").unwrap();
        assert_eq!(b.point_name(0), "A1");
        assert_eq!(b.point_name(8), "C3");
        assert_eq!(b.parse_point("c3"), Some(8));
        assert_eq!(b.parse_point("D1"), None);
        assert_eq!(column_name(8), "J");
    }

    #[test]
    fn automorphism_counts() {
        let count = |s: &str| Board::parse(s).unwrap().automorphisms(100_000).len();
        assert_eq!(count("1x1"), 1);
        assert_eq!(count("1x4"), 2);
        assert_eq!(count("2x3"), 4);
        assert_eq!(count("3x3"), 8);
        assert_eq!(count("4x4"), 8);
        assert_eq!(count("petersen"), 120);
        assert_eq!(count("cycle:6"), 12);
        assert_eq!(count("complete:5"), 120);
        assert_eq!(count("cube:3"), 48);
        assert_eq!(count("torus:3x4"), 48);
        assert_eq!(count("star:4"), 24);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            Board::parse("hexagon"),
            Err(BoardError::Unknown(_))
        ));
        assert!(matches!(
            Board::parse("complete:65"),
            Err(BoardError::TooManyPoints(65))
        ));
        assert!(matches!(
            Board::parse("cycle:2"),
            Err(BoardError::BadSize(_))
        ));
        assert!(matches!(
            Board::parse("9x9"),
            Err(BoardError::TooManyPoints(81))
        ));
        assert!(matches!(
            Board::parse("file:/nonexistent/x"),
            Err(BoardError::Io(_))
        ));
        let e = Board::from_edge_list("t", "0 1\n# c\n1 1\n").unwrap_err();
        assert!(matches!(e, BoardError::BadLine { line: 3, .. }), "{e}");
        let e = Board::from_edge_list("t", "0 1\n1 two\n").unwrap_err();
        assert!(matches!(e, BoardError::BadLine { line: 2, .. }), "{e}");
        let e = Board::from_edge_list("t", "0 64\n").unwrap_err();
        assert_eq!(e, BoardError::TooManyPoints(65));
        let b = Board::from_edge_list("t", "points 4\n0 1\n1 0\n").unwrap();
        assert_eq!((b.len(), b.edges().len()), (4, 1));
    }
}
