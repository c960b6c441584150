//! Benson's unconditional life on the plain representation ([`crate::verify::plain`]),
//! for the checker: its own code, sharing nothing with [`crate::engine::benson`].
//!
//! Chains of colour `c` and *regions* (connected parts of the points without
//! a `c` stone) start alive; repeatedly a chain with fewer than two healthy
//! regions (a live region with an empty point, every empty point of it a
//! liberty of the chain) dies, and so does every region next to a dead
//! chain. The chains left can never be captured, even if `c` passes every
//! turn; an empty point whose neighbours are all among them stays `c`'s.
//! Where suicide is allowed a healthy region must also have every point,
//! stones included, next to the chain: otherwise the opponent can fill it,
//! suicide, and empty points that are no liberties (1x6 `O.XXX.`).

use crate::verify::plain::{EMPTY, Graph};

/// The connected parts of the points where `inside` holds.
fn parts(g: &Graph, inside: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; g.len()];
    let mut out = Vec::new();
    for v in 0..g.len() {
        if !inside[v] || seen[v] {
            continue;
        }
        seen[v] = true;
        let mut part = vec![v];
        let mut i = 0;
        while i < part.len() {
            for &u in &g.adj[part[i]] {
                if inside[u] && !seen[u] {
                    seen[u] = true;
                    part.push(u);
                }
            }
            i += 1;
        }
        out.push(part);
    }
    out
}

/// How many points `c` keeps whatever happens (see [`kept_points`]).
pub fn kept(g: &Graph, col: &[u8], c: u8, suicide: bool) -> usize {
    kept_points(g, col, c, suicide)
        .iter()
        .filter(|&&k| k)
        .count()
}

/// The points `c` keeps whatever happens: its unconditionally alive stones
/// and the empty points all of whose neighbours are such stones.
pub fn kept_points(g: &Graph, col: &[u8], c: u8, suicide: bool) -> Vec<bool> {
    kept_from(g, col, &alive_stones(g, col, c, suicide))
}

/// [`kept_points`] given the alive stones.
fn kept_from(g: &Graph, col: &[u8], alive: &[bool]) -> Vec<bool> {
    (0..g.len())
        .map(|v| {
            alive[v]
                || (col[v] == EMPTY && !g.adj[v].is_empty() && g.adj[v].iter().all(|&u| alive[u]))
        })
        .collect()
}

/// How many points `c` keeps ([`kept`]) and how many regions are
/// [`enclosed`] by it: what the checker's bound needs, from one life test.
pub fn kept_and_enclosed(g: &Graph, col: &[u8], c: u8, suicide: bool) -> (usize, usize) {
    let alive = alive_stones(g, col, c, suicide);
    let kept = kept_from(g, col, &alive).iter().filter(|&&k| k).count();
    (kept, enclosed_from(g, col, c, &alive))
}

/// How many regions (connected parts of the points without a `c` stone)
/// of two points or more have every point next to an unconditionally
/// alive `c` stone and every `c` stone next to them alive. The opponent
/// can never fill one (the last filler captures nothing and has no
/// liberty), so it owns at most all points of each but one.
pub fn enclosed(g: &Graph, col: &[u8], c: u8, suicide: bool) -> usize {
    enclosed_from(g, col, c, &alive_stones(g, col, c, suicide))
}

/// [`enclosed`] given the alive stones.
fn enclosed_from(g: &Graph, col: &[u8], c: u8, alive: &[bool]) -> usize {
    enclosed_regions(g, col, c, alive).len()
}

/// The regions [`enclosed`] counts, given the alive stones.
fn enclosed_regions(g: &Graph, col: &[u8], c: u8, alive: &[bool]) -> Vec<Vec<usize>> {
    let regions = parts(g, &col.iter().map(|&x| x != c).collect::<Vec<_>>());
    regions
        .into_iter()
        .filter(|r| r.len() >= 2)
        .filter(|r| r.iter().all(|&v| g.adj[v].iter().any(|&u| alive[u])))
        .filter(|r| {
            r.iter()
                .all(|&v| g.adj[v].iter().all(|&u| col[u] != c || alive[u]))
        })
        .collect()
}

/// How many points `c` keeps ([`kept`]), the points of the regions
/// [`enclosed`] by it and its unconditionally alive stones, as bit sets:
/// what the checker's bound with whole regions needs (module doc of
/// [`crate::verify`], "Secure nodes").
pub fn kept_and_regions(g: &Graph, col: &[u8], c: u8, suicide: bool) -> (usize, u64, u64) {
    let alive = alive_stones(g, col, c, suicide);
    let kept = kept_from(g, col, &alive).iter().filter(|&&k| k).count();
    let points = enclosed_regions(g, col, c, &alive)
        .iter()
        .flatten()
        .fold(0u64, |b, &v| b | 1 << v);
    let stones = (0..g.len())
        .filter(|&v| alive[v])
        .fold(0u64, |b, v| b | 1 << v);
    (kept, points, stones)
}

/// `c`'s unconditionally alive stones.
fn alive_stones(g: &Graph, col: &[u8], c: u8, suicide: bool) -> Vec<bool> {
    let chains = parts(g, &col.iter().map(|&x| x == c).collect::<Vec<_>>());
    let regions = parts(g, &col.iter().map(|&x| x != c).collect::<Vec<_>>());
    let mut chain_of = vec![usize::MAX; g.len()];
    for (i, ch) in chains.iter().enumerate() {
        for &v in ch {
            chain_of[v] = i;
        }
    }
    let mut chain_alive = vec![true; chains.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        let alive_now: Vec<usize> = (0..chains.len()).filter(|&i| chain_alive[i]).collect();
        for i in alive_now {
            let liberty = |v: usize| g.adj[v].iter().any(|&u| chain_of[u] == i);
            let healthy = (0..regions.len())
                .filter(|&j| {
                    let empties: Vec<usize> = regions[j]
                        .iter()
                        .copied()
                        .filter(|&v| col[v] == EMPTY)
                        .collect();
                    let whole = !suicide || regions[j].iter().all(|&v| liberty(v));
                    region_alive[j]
                        && !empties.is_empty()
                        && empties.iter().all(|&v| liberty(v))
                        && whole
                })
                .count();
            if healthy < 2 {
                chain_alive[i] = false;
                changed = true;
            }
        }
        for (region, alive) in regions.iter().zip(region_alive.iter_mut()) {
            let touches_dead = region.iter().any(|&v| {
                g.adj[v]
                    .iter()
                    .any(|&u| chain_of[u] != usize::MAX && !chain_alive[chain_of[u]])
            });
            if *alive && touches_dead {
                *alive = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..g.len())
        .map(|v| chain_of[v] != usize::MAX && chain_alive[chain_of[v]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::plain::{BLACK, WHITE};

    fn kept_f(g: &Graph, col: &[u8], c: u8) -> usize {
        kept(g, col, c, false)
    }

    #[test]
    fn suicide_can_open_a_region() {
        let g = Graph::grid(1, 6);
        assert_eq!(kept(&g, &col(&["O.XXX."]), BLACK, false), 4);
        assert_eq!(kept(&g, &col(&["O.XXX."]), BLACK, true), 0);
    }

    fn col(rows: &[&str]) -> Vec<u8> {
        rows.iter()
            .flat_map(|r| r.chars())
            .map(|ch| match ch {
                'X' => BLACK,
                'O' => WHITE,
                _ => EMPTY,
            })
            .collect()
    }

    /// Regions of two points or more, every point next to an alive chain
    /// and every stone of the colour around them alive.
    #[test]
    fn enclosed_regions() {
        let g3 = Graph::grid(3, 3);
        let g5 = Graph::grid(5, 5);
        for suicide in [false, true] {
            // (board, rows, colour, regions): single points are eyes,
            // counted by `kept` already; regions with a point away from the
            // wall (White may live there) or bordered by a chain that is
            // not alive count nothing.
            let cases: [(&Graph, &[&str], u8, usize); 10] = [
                (&g3, &["..X", "XXX", "X.O"], BLACK, 2),
                (&g3, &["..X", "XXX", "X.O"], WHITE, 0),
                (&g3, &["..X", "XXX", "X.X"], BLACK, 1),
                (&g3, &["X.X", ".X.", "X.X"], BLACK, 0),
                (
                    &g5,
                    &[".....", ".....", "XXXXX", "X.X.X", "XXXXX"],
                    BLACK,
                    0,
                ),
                (
                    &g5,
                    &[".....", "XXXXX", "X.X.X", "XXXXX", "....."],
                    BLACK,
                    2,
                ),
                (
                    &g5,
                    &[".X.X.", "XX.XX", ".X.X.", "XX.XX", ".X.X."],
                    BLACK,
                    1,
                ),
                (
                    &g5,
                    &["X.XO.", "X.XOO", "XXXO.", "X.XOO", "X.XO."],
                    BLACK,
                    2,
                ),
                (
                    &g5,
                    &["X.XO.", "X.XOO", "XXXO.", "X.XOO", "X.XO."],
                    WHITE,
                    0,
                ),
                (
                    &g5,
                    &[".X.XX", "XX.XX", ".X.XX", "XX.XX", ".X.XX"],
                    BLACK,
                    0,
                ),
            ];
            for (g, rows, c, want) in cases {
                assert_eq!(enclosed(g, &col(rows), c, suicide), want, "{rows:?} {c}");
                let both = kept_and_enclosed(g, &col(rows), c, suicide);
                assert_eq!(both, (kept(g, &col(rows), c, suicide), want));
                assert_eq!(kept_and_regions(g, &col(rows), c, suicide).0, both.0);
            }
        }
    }

    /// The points of the enclosed regions, as bits (row-major from the top
    /// left): 3x3 `..X/XXX/X.O` has A3-B3 (0, 1) and B1-C1 (7, 8, White's
    /// stone on C1 included); the 5x5 wall's two regions are its top row
    /// (0-4) and bottom row (20-24); the 3x3 with one black stone in the
    /// bottom region has the top one only.
    #[test]
    fn enclosed_region_points() {
        let g3 = Graph::grid(3, 3);
        let g5 = Graph::grid(5, 5);
        for suicide in [false, true] {
            let at = |g: &Graph, rows: &[&str], c: u8| kept_and_regions(g, &col(rows), c, suicide);
            let chain = 0b001_111_100;
            assert_eq!(
                at(&g3, &["..X", "XXX", "X.O"], BLACK),
                (5, 0b110_000_011, chain)
            );
            assert_eq!(at(&g3, &["..X", "XXX", "X.O"], WHITE), (0, 0, 0));
            assert_eq!(
                at(&g3, &["..X", "XXX", "X.X"], BLACK),
                (7, 0b000_000_011, chain | 1 << 8)
            );
            let wall = [".....", "XXXXX", "X.X.X", "XXXXX", "....."];
            let stones = 0x1F << 5 | 0b10101 << 10 | 0x1F << 15;
            assert_eq!(at(&g5, &wall, BLACK), (15, 0x1F | 0x1F << 20, stones));
        }
    }

    #[test]
    fn two_eyes_are_kept_one_is_not() {
        // 3x3, rows top first: a black wall with two one-point eyes.
        let g = Graph::grid(3, 3);
        // Three healthy regions (the bottom row's points are all liberties).
        assert_eq!(kept_f(&g, &col(&[".X.", "XXX", "..."]), BLACK), 6);
        assert_eq!(kept_f(&g, &col(&[".X.", "XXX", "XXX"]), BLACK), 9);
        assert_eq!(kept_f(&g, &col(&[".X.", "XXX", "XXX"]), WHITE), 0);
        // One eye only: nothing is kept.
        assert_eq!(kept_f(&g, &col(&["..X", "XXX", "XXX"]), BLACK), 0);
        // A white stone in one of the eyes: still one healthy region only.
        assert_eq!(kept_f(&g, &col(&["OX.", "XXX", "XXX"]), BLACK), 0);
    }
}
