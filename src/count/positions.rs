//! Counting legal positions: colourings in which every group reaches an
//! empty point.
//!
//! Two independent methods:
//!
//! - [`count_brute`] tries every set of empty points `E`; the stones then
//!   split into the connected components of the graph without `E`, which
//!   are coloured independently, so the count for `E` is a product over
//!   components of the number of 2-colourings in which every group touches
//!   `E`. Exponential, fine to about 20 points.
//! - [`count_frontier`] is the border-state dynamic programming of Tromp &
//!   Farnebäck (*Combinatorics of Go*), generalised to any graph: points are
//!   added one at a time; a state records, for every added point that still
//!   has a neighbour to come, its colour, which of those points' stones are
//!   already connected, and whether each such group has a liberty yet.
//!   Polynomial in the number of points for a fixed frontier width: 5×5,
//!   6×6, 7×7 and 8×8 in seconds.
//!
//! Counts are `u128`: at most 3^64 < 2^102 colourings. A board neither
//! method can count (a frontier wider than [`MAX_FRONTIER`] and more than
//! [`MAX_BRUTE_POINTS`] points, e.g. `complete:64` or `cube:6`) is a
//! [`CountError`], never a wrong number.

use crate::engine::board::{Board, Layout};
use crate::engine::position::flood;
use crate::engine::types::{PointSet, bits};
use hashbrown::HashMap;
use rayon::prelude::*;
use std::fmt;

/// The most points [`count_brute`] takes: it visits 2^n sets of empty
/// points, hours already at 40 on the simplest graphs (`complete:24` takes
/// 0.3 s, doubling per point); 2^64 sets would never finish.
pub const MAX_BRUTE_POINTS: usize = 40;

/// Why a board cannot be counted by a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// No point order keeps the frontier within [`MAX_FRONTIER`].
    FrontierTooWide {
        /// The board's name.
        board: String,
        /// The narrowest frontier found.
        width: usize,
    },
    /// More points than [`MAX_BRUTE_POINTS`].
    TooManyForBrute {
        /// The board's name.
        board: String,
        /// Its points.
        points: usize,
    },
    /// Both of the above: no method counts this board.
    Neither {
        /// The board's name.
        board: String,
        /// The narrowest frontier found.
        width: usize,
        /// Its points.
        points: usize,
    },
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::FrontierTooWide { board, width } => write!(
                f,
                "the frontier of `{board}` is {width} points wide; at most {MAX_FRONTIER} fit"
            ),
            CountError::TooManyForBrute { board, points } => write!(
                f,
                "brute force tries every set of empty points: `{board}` has {points} points, \
                 at most {MAX_BRUTE_POINTS} fit"
            ),
            CountError::Neither {
                board,
                width,
                points,
            } => write!(
                f,
                "`{board}` cannot be counted: its frontier is {width} points wide \
                 (the frontier method takes at most {MAX_FRONTIER}) and it has {points} points \
                 (brute force takes at most {MAX_BRUTE_POINTS})"
            ),
        }
    }
}

impl std::error::Error for CountError {}

/// The number of 2-colourings of `comp` (a connected set of stones) in
/// which every monochrome group meets `libs` (the stones next to an empty point).
fn colourings(board: &Board, comp: u64, libs: u64) -> u128 {
    let n = comp.count_ones();
    if comp & !libs == 0 {
        return 1u128 << n;
    }
    if comp & libs == 0 {
        return 0;
    }
    let points: Vec<u8> = bits(comp).collect();
    let mut total = 0u128;
    for code in 0u64..(1u64 << n) {
        let mut black = 0u64;
        for (i, &p) in points.iter().enumerate() {
            black |= (code >> i & 1) << p;
        }
        let white = comp & !black;
        let alive = |s: u64| flood(board, PointSet(s & libs), PointSet(s)).0 == s;
        if alive(black) && alive(white) {
            total += 1;
        }
    }
    total
}

/// Legal positions by trying every set of empty points (see the module doc),
/// on at most [`MAX_BRUTE_POINTS`] points.
pub fn count_brute(board: &Board) -> Result<u128, CountError> {
    count_brute_told(board, &|_| {})
}

/// Sets of empty points per [`count_brute_told`] part: a part of 2^12 sets
/// takes well under a millisecond, so a report per part costs nothing.
const BRUTE_PART_BITS: usize = 12;

/// [`count_brute`], in parts of the 2^n sets of empty points (at most
/// 65,536 parts): `progress` is told the number of parts, then called once
/// as each is counted.
pub fn count_brute_told(
    board: &Board,
    progress: &(dyn Fn(Option<usize>) + Sync),
) -> Result<u128, CountError> {
    let n = board.len();
    if n > MAX_BRUTE_POINTS {
        return Err(CountError::TooManyForBrute {
            board: board.name().to_string(),
            points: n,
        });
    }
    let mask = board.mask().0;
    let count = |empty: u64| {
        let stones = mask & !empty;
        let libs = board.spread(PointSet(empty)).0 & stones;
        let mut todo = stones;
        let mut product = 1u128;
        while todo != 0 && product != 0 {
            let comp = flood(
                board,
                PointSet(todo & todo.wrapping_neg()),
                PointSet(stones),
            )
            .0;
            todo &= !comp;
            product *= colourings(board, comp, libs);
        }
        product
    };
    let part_bits = n.saturating_sub(16).max(BRUTE_PART_BITS).min(n);
    let parts = 1u64 << (n - part_bits);
    progress(Some(parts as usize));
    let total = (0..parts)
        .into_par_iter()
        .map(|part| {
            let first = part << part_bits;
            let sum: u128 = (first..first + (1u64 << part_bits)).map(count).sum();
            progress(None);
            sum
        })
        .sum();
    Ok(total)
}

/// The widest frontier [`count_frontier`] handles.
pub const MAX_FRONTIER: usize = 16;

/// An order in which to add the points, and the largest frontier it leads to.
/// Grids try row-major and column-major; other graphs add greedily the point
/// that keeps the frontier smallest.
pub fn point_order(board: &Board) -> (Vec<u8>, usize) {
    let mut candidates: Vec<Vec<u8>> = Vec::new();
    if let Layout::Grid {
        rows,
        cols,
        torus: false,
    } = board.layout()
    {
        candidates.push((0..board.len() as u8).collect());
        candidates.push(
            (0..cols)
                .flat_map(|c| (0..rows).map(move |r| (r * cols + c) as u8))
                .collect(),
        );
    }
    for start in 0..board.len() as u8 {
        candidates.push(greedy_order(board, start));
    }
    candidates
        .into_iter()
        .map(|o| {
            let w = frontier_width(board, &o);
            (o, w)
        })
        .min_by_key(|(_, w)| *w)
        .expect("a board has a point")
}

fn greedy_order(board: &Board, start: u8) -> Vec<u8> {
    let mut order = vec![start];
    let mut done = 1u64 << start;
    while order.len() < board.len() {
        let frontier_after = |v: u8| {
            let d = done | 1 << v;
            bits(d).filter(|&q| board.neighbours(q).0 & !d != 0).count()
        };
        let next = bits(board.mask().0 & !done)
            .min_by_key(|&v| {
                (
                    frontier_after(v),
                    usize::MAX - (board.neighbours(v).0 & done).count_ones() as usize,
                )
            })
            .expect("points remain");
        order.push(next);
        done |= 1 << next;
    }
    order
}

/// The largest number of added points still waiting for a neighbour.
pub fn frontier_width(board: &Board, order: &[u8]) -> usize {
    let mut done = 0u64;
    let mut widest = 0;
    for &v in order {
        done |= 1 << v;
        let w = bits(done)
            .filter(|&q| board.neighbours(q).0 & !done != 0)
            .count();
        widest = widest.max(w);
    }
    widest
}

/// The colour codes in a frontier state.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// A decoded frontier state: per slot a colour and a group label (stones
/// only), and per label whether that group has a liberty.
#[derive(Clone, Copy)]
struct State {
    len: usize,
    colour: [u8; MAX_FRONTIER + 1],
    label: [u8; MAX_FRONTIER + 1],
    liberty: u32,
}

impl State {
    // Layout of the key: slot i uses bits 6i..6i+6 (2 colour, 4 label);
    // bits 96.. hold the liberty flags by label.
    fn decode(key: u128, len: usize) -> State {
        let mut s = State {
            len,
            colour: [0; 17],
            label: [0; 17],
            liberty: (key >> 96) as u32,
        };
        for i in 0..len {
            let slot = (key >> (6 * i)) as u8;
            s.colour[i] = slot & 3;
            s.label[i] = (slot >> 2) & 15;
        }
        s
    }

    /// Relabels groups by first appearance so equal states get equal keys.
    fn encode(&self) -> u128 {
        let mut map = [u8::MAX; MAX_FRONTIER + 1];
        let mut next = 0u8;
        let mut key = 0u128;
        let mut libs = 0u128;
        for i in 0..self.len {
            let mut slot = self.colour[i] as u128;
            if self.colour[i] != EMPTY {
                let old = self.label[i] as usize;
                if map[old] == u8::MAX {
                    map[old] = next;
                    if self.liberty >> old & 1 == 1 {
                        libs |= 1 << next;
                    }
                    next += 1;
                }
                slot |= (map[old] as u128) << 2;
            }
            key |= slot << (6 * i);
        }
        key | libs << 96
    }
}

/// Legal positions by the frontier dynamic programming (see the module doc);
/// an error when no point order keeps the frontier within [`MAX_FRONTIER`].
pub fn count_frontier(board: &Board) -> Result<u128, CountError> {
    let (order, width) = point_order(board);
    if width > MAX_FRONTIER {
        return Err(CountError::FrontierTooWide {
            board: board.name().to_string(),
            width,
        });
    }
    let mut frontier: Vec<u8> = Vec::new();
    let mut done = 0u64;
    let mut states: HashMap<u128, u128> = HashMap::new();
    states.insert(0, 1);
    for &v in &order {
        done |= 1 << v;
        let neighbours: Vec<usize> = (0..frontier.len())
            .filter(|&i| board.neighbours(v).0 & 1 << frontier[i] != 0)
            .collect();
        let mut next_frontier = frontier.clone();
        next_frontier.push(v);
        let keep: Vec<bool> = next_frontier
            .iter()
            .map(|&q| board.neighbours(q).0 & !done != 0)
            .collect();
        let old_len = frontier.len();
        let chunks: Vec<(u128, u128)> = states.drain().collect();
        let step = |acc: &mut HashMap<u128, u128>, &(key, count): &(u128, u128)| {
            let s = State::decode(key, old_len);
            for colour in [EMPTY, BLACK, WHITE] {
                if let Some(key) = add_point(&s, colour, &neighbours, &keep) {
                    *acc.entry(key).or_insert(0) += count;
                }
            }
        };
        states = if chunks.len() < 4096 {
            let mut acc = HashMap::new();
            chunks.iter().for_each(|c| step(&mut acc, c));
            acc
        } else {
            chunks
                .par_chunks(1024)
                .map(|part| {
                    let mut acc = HashMap::new();
                    part.iter().for_each(|c| step(&mut acc, c));
                    acc
                })
                .reduce(HashMap::new, |mut a, b| {
                    let (mut a, b) = if a.len() < b.len() {
                        (b, a)
                    } else {
                        (std::mem::take(&mut a), b)
                    };
                    for (k, c) in b {
                        *a.entry(k).or_insert(0) += c;
                    }
                    a
                })
        };
        frontier = next_frontier
            .into_iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(q, _)| q)
            .collect();
    }
    Ok(states.values().sum())
}

/// Legal positions by the frontier method where the board allows it, else
/// by brute force; with the name of the method used.
pub fn count_auto(board: &Board) -> Result<(u128, &'static str), CountError> {
    count_auto_told(board, &|_| {})
}

/// [`count_auto`], telling `progress` of a brute-force count as
/// [`count_brute_told`] does (the frontier method takes seconds at most).
pub fn count_auto_told(
    board: &Board,
    progress: &(dyn Fn(Option<usize>) + Sync),
) -> Result<(u128, &'static str), CountError> {
    match count_frontier(board) {
        Err(CountError::FrontierTooWide { board: name, width }) => {
            if board.len() <= MAX_BRUTE_POINTS {
                count_brute_told(board, progress).map(|n| (n, "brute"))
            } else {
                Err(CountError::Neither {
                    board: name,
                    width,
                    points: board.len(),
                })
            }
        }
        counted => counted.map(|n| (n, "frontier")),
    }
}

/// The state after giving the new point `colour`, then dropping the points
/// with no neighbour left to add; `None` if a group died on the way.
fn add_point(s: &State, colour: u8, neighbours: &[usize], keep: &[bool]) -> Option<u128> {
    let mut t = *s;
    let n = s.len;
    t.len = n + 1;
    t.colour[n] = colour;
    t.label[n] = 0;
    if colour == EMPTY {
        for &i in neighbours {
            if t.colour[i] != EMPTY {
                t.liberty |= 1 << t.label[i];
            }
        }
    } else {
        // A label not used by any slot: 16 labels cannot all be taken by 16 slots plus this one.
        let used = (0..n)
            .filter(|&i| t.colour[i] != EMPTY)
            .fold(0u32, |m, i| m | 1 << t.label[i]);
        let fresh = (!used).trailing_zeros() as u8;
        let mut liberty = false;
        let mut merge = 0u32;
        for &i in neighbours {
            if t.colour[i] == EMPTY {
                liberty = true;
            } else if t.colour[i] == colour {
                merge |= 1 << t.label[i];
            }
        }
        if merge & t.liberty != 0 {
            liberty = true;
        }
        for i in 0..n {
            if t.colour[i] == colour && merge >> t.label[i] & 1 == 1 {
                t.label[i] = fresh;
            }
        }
        t.label[n] = fresh;
        t.liberty &= !merge;
        if liberty {
            t.liberty |= 1 << fresh;
        }
    }
    // Drop finished points; a group whose last frontier point leaves without a liberty is dead.
    let mut out = State {
        len: 0,
        colour: [0; 17],
        label: [0; 17],
        liberty: t.liberty,
    };
    let kept = |want: bool| {
        keep.iter()
            .enumerate()
            .filter(move |(_, k)| **k == want)
            .map(|(i, _)| i)
    };
    for i in kept(true) {
        out.colour[out.len] = t.colour[i];
        out.label[out.len] = t.label[i];
        out.len += 1;
    }
    for i in kept(false) {
        if t.colour[i] != EMPTY {
            let l = t.label[i];
            let alive = t.liberty >> l & 1 == 1
                || (0..out.len).any(|j| out.colour[j] == t.colour[i] && out.label[j] == l);
            if !alive {
                return None;
            }
        }
    }
    Some(out.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_methods_agree_on_small_graphs() {
        for spec in [
            "1x1",
            "1x5",
            "2x2",
            "2x3",
            "3x3",
            "cycle:5",
            "complete:4",
            "star:4",
            "petersen",
            "torus:3x3",
            "cube:3",
        ] {
            let b = Board::parse(spec).unwrap();
            assert_eq!(count_frontier(&b), count_brute(&b), "{spec}");
        }
    }
}
