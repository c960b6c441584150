//! A 3x3 pattern evaluation learned from guide values, which steers
//! proof-number search where no guide does (a board of over 20 points, a
//! start position, `--no-guide`): [`estimate`] replaces the nearer-colour
//! score in `dfpn::unguided`. It only sets the numbers of a node not
//! searched yet, so it never decides a result.
//!
//! Each point is described by its *code*: its own content (empty, Black,
//! White) and its eight neighbours' (empty, Black, White or off the
//! board). The estimate of Black − White in half points is the sum of
//! one weight per point plus a tempo for the mover. Codes equal under the
//! eight symmetries of the 3x3 square share a weight, and a code with the
//! colours swapped has the opposite weight (area scoring without komi is
//! colour symmetric): 13,208 weights, those of codes that are their own
//! swap held at 0.
//!
//! `examples/pattern_train.rs` fits them by least squares (stochastic
//! gradient, fixed seed, one thread, so the file is reproducible) to
//! the guide values, Black to move, of the 33.6 M colourings of 4x4, 3x5
//! and 2x7 without suicide whose bracket is exact; they are kept in
//! `patterns.bin`. Its error there is 15.9 half points (root mean square)
//! against 25.9 for the nearer-colour score.
//!
//! Measured (2026-12-08, 2 cores, AMD EPYC; nodes, value only;
//! `--no-guide` unless a start is given), nearer-colour score → patterns,
//! both with the old numbers (since, the estimate's are `dfpn::graded`:
//! 4x4 `none` 1.95 M, 3x6 51.8 M, 3x7 after D2 403 M):
//! 4x4 `--superko none --suicide forbidden`, one thread, 11.35 M → 4.17 M
//! (4.69 M with weights fitted on 3x5 and 2x7 only); 3x6 354.1 M (129.5
//! s) → 148.0 M (55.8 s); 2x8 58.8 M → 54.2 M; 3x7 after Black's D2 (21
//! points, no guide) open after 20 minutes and about 2.9 G nodes (B1, C1
//! and D1 settled, A1 and A2 not) → +21 in 1.14 G nodes and 582 s (a
//! one-off build of the same fit; as landed, the proof extracted
//! alongside, 1.32 G and 909 s). But on
//! 5x5 with Black's cross, White to move, "does Black get all 25?" it
//! took 464.2 M nodes against 44.9 M: so it is used only on grids whose
//! shorter side has two to four points, the widths it was fitted on.

use crate::engine::board::{Board, Layout};
use crate::engine::position::Position;
use std::sync::OnceLock;

/// How many codes there are: 3 contents of the point times 4^8.
pub const CODES: usize = 3 << 16;

/// The eight neighbour offsets (row, column), in code order: neighbour
/// `i` takes bits `2i` and `2i + 1`, the point itself bits 16 and 17.
const OFFS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The fitted weights, in the order [`dense`] numbers the canonical codes,
/// then the tempo: little-endian `f32`.
const FILE: &[u8] = include_bytes!("patterns.bin");

/// What a point holds: 0 empty, 1 Black, 2 White, 3 off the board.
#[inline]
fn content(pos: &Position, rows: i32, cols: i32, r: i32, c: i32) -> u32 {
    if r < 0 || c < 0 || r >= rows || c >= cols {
        return 3;
    }
    let p = r * cols + c;
    (pos.black.0 >> p & 1) as u32 | ((pos.white.0 >> p & 1) as u32) << 1
}

/// The code of the point in row `r`, column `c` of a `rows` x `cols` grid.
#[inline]
pub fn code(pos: &Position, rows: i32, cols: i32, r: i32, c: i32) -> u32 {
    let mut k = content(pos, rows, cols, r, c) << 16;
    for (i, (dr, dc)) in OFFS.iter().enumerate() {
        k |= content(pos, rows, cols, r + dr, c + dc) << (2 * i);
    }
    k
}

fn encode(centre: u32, n: &[u32; 8]) -> u32 {
    n.iter()
        .enumerate()
        .fold(centre << 16, |k, (i, x)| k | x << (2 * i))
}

fn swap(x: u32) -> u32 {
    match x {
        1 => 2,
        2 => 1,
        y => y,
    }
}

/// The canonical code of `k` (the least over the square's symmetries and
/// the colour swap) and the sign its weight takes: −1 when the least
/// needs the swap, 0 when `k` is its own colour swap up to symmetry (its
/// weight must be its own opposite).
pub fn canon(k: u32) -> (u32, i32) {
    let centre = k >> 16;
    let n: [u32; 8] = std::array::from_fn(|i| k >> (2 * i) & 3);
    let (mut plain, mut swapped) = (u32::MAX, u32::MAX);
    for t in 0..8 {
        let mut m = [0; 8];
        for (i, &(dr, dc)) in OFFS.iter().enumerate() {
            let (a, b) = if t & 4 == 0 { (dr, dc) } else { (dc, dr) };
            let a = if t & 1 == 0 { a } else { -a };
            let b = if t & 2 == 0 { b } else { -b };
            let j = OFFS.iter().position(|&o| o == (a, b)).expect("an offset");
            m[j] = n[i];
        }
        plain = plain.min(encode(centre, &m));
        swapped = swapped.min(encode(swap(centre), &m.map(swap)));
    }
    match plain.cmp(&swapped) {
        std::cmp::Ordering::Equal => (plain, 0),
        std::cmp::Ordering::Less => (plain, 1),
        std::cmp::Ordering::Greater => (swapped, -1),
    }
}

/// For every code, the index of its canonical code's weight (numbered in
/// the order the codes first reach them) and its sign; and how many
/// weights there are.
pub fn dense() -> (Vec<u32>, Vec<i8>, usize) {
    let mut index = vec![0u32; CODES];
    let mut sign = vec![0i8; CODES];
    let mut seen = hashbrown::HashMap::new();
    for k in 0..CODES as u32 {
        let (c, s) = canon(k);
        let next = seen.len() as u32;
        index[k as usize] = *seen.entry(c).or_insert(next);
        sign[k as usize] = s as i8;
    }
    (index, sign, seen.len())
}

/// The weight of every code, sign included, and the tempo.
struct Table {
    weight: Vec<f32>,
    tempo: f32,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let f: Vec<f32> = FILE
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (index, sign, n) = dense();
        assert_eq!(f.len(), n + 1, "patterns.bin has one weight a pattern");
        Table {
            weight: (0..CODES)
                .map(|k| f32::from(sign[k]) * f[index[k] as usize])
                .collect(),
            tempo: f[n],
        }
    })
}

/// The grid sizes the weights serve: the shorter side two to four points
/// (the widths they were fitted on), no torus.
pub fn serves(board: &Board) -> Option<(i32, i32)> {
    match board.layout() {
        Layout::Grid {
            rows,
            cols,
            torus: false,
        } if (2..=4).contains(&rows.min(cols)) => Some((rows as i32, cols as i32)),
        _ => None,
    }
}

/// The estimated Black − White, in half points, komi not included, with
/// Black to move (`black_moves`) or White, on a `rows` x `cols` grid
/// ([`serves`]).
pub fn estimate(pos: &Position, rows: i32, cols: i32, black_moves: bool) -> f32 {
    let t = table();
    let mut sum = if black_moves { t.tempo } else { -t.tempo };
    for r in 0..rows {
        for c in 0..cols {
            sum += t.weight[code(pos, rows, cols, r, c) as usize];
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::types::PointSet;

    fn swapped(p: Position) -> Position {
        Position {
            black: p.white,
            white: p.black,
        }
    }

    /// The estimate is colour symmetric (swapping the colours and the
    /// mover negates it) and symmetric under the board's reflections,
    /// which the canonical codes must give whatever the weights.
    #[test]
    fn the_estimate_keeps_the_symmetries() {
        // 3x5: X at A1 and B2, O at E3, C2 and D1.
        let (rows, cols) = (3, 5);
        let at = |r: i32, c: i32| 1u64 << (r * cols + c);
        let pos = Position {
            black: PointSet(at(0, 0) | at(1, 1)),
            white: PointSet(at(2, 4) | at(1, 2) | at(0, 3)),
        };
        let mirror = |s: PointSet| {
            let mut m = 0;
            for r in 0..rows {
                for c in 0..cols {
                    if s.0 & at(r, c) != 0 {
                        m |= at(rows - 1 - r, cols - 1 - c);
                    }
                }
            }
            PointSet(m)
        };
        let e = estimate(&pos, rows, cols, true);
        let s = estimate(&swapped(pos), rows, cols, false);
        assert!((e + s).abs() < 1e-3, "{e} {s}");
        let m = Position {
            black: mirror(pos.black),
            white: mirror(pos.white),
        };
        assert!((estimate(&m, rows, cols, true) - e).abs() < 1e-3);
        // The empty board: only the tempo, and the patterns of the empty
        // board are their own colour swaps.
        let t = estimate(&Position::EMPTY, rows, cols, true);
        assert!((t - table().tempo).abs() < 1e-3);
        assert!(t > 0.0, "the mover gains by moving first: {t}");
    }

    /// The weights' count is that of the canonical codes; a lone Black
    /// stone in the middle of an empty 3x3 surrounding and its colour
    /// swap are one pattern with opposite signs; an empty point among
    /// empty points is its own swap.
    #[test]
    fn canonical_codes() {
        let (_, _, n) = dense();
        assert_eq!(n, 13_208);
        let lone = 1 << 16;
        let (a, sa) = canon(lone);
        let (b, sb) = canon(2 << 16);
        assert_eq!((a, sa * sb), (b, -1));
        assert_eq!(canon(0).1, 0);
        // A corner: the upper-left neighbours off the board; turned
        // ninety degrees it is the same pattern.
        let upper_left = 3 | 3 << 2 | 3 << 4 | 3 << 6 | 3 << 10;
        let lower_right = 3 << 4 | 3 << 8 | 3 << 10 | 3 << 12 | 3 << 14;
        assert_eq!(canon(upper_left | lone), canon(lower_right | lone));
    }
}
