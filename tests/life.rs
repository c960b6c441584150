//! Unconditional life: the checker's own code (`plain_life`) against the
//! engine's (`benson`) on every legal colouring of small boards, and both
//! against the game itself — the points they say a side keeps survive
//! every sequence of the opponent's placings while that side passes.

use gosolve::engine::benson;
use gosolve::engine::board::Board;
use gosolve::engine::position::Position;
use gosolve::engine::types::{Color, PointSet};
use gosolve::verify::plain::{BLACK, EMPTY, Graph, WHITE, opp};
use gosolve::verify::plain_life::{enclosed, kept_and_regions, kept_points};
use std::collections::HashSet;

fn setup(spec: &str) -> (Board, Graph) {
    let board = Board::parse(spec).unwrap();
    let edges: Vec<(usize, usize)> = board
        .edges()
        .iter()
        .map(|&(a, b)| (a as usize, b as usize))
        .collect();
    let g = Graph::from_edges(board.len(), &edges);
    (board, g)
}

fn position(col: &[u8]) -> Position {
    let mut pos = Position::EMPTY;
    for (i, &c) in col.iter().enumerate() {
        match c {
            BLACK => pos.black |= PointSet::single(i as u8),
            WHITE => pos.white |= PointSet::single(i as u8),
            _ => {}
        }
    }
    pos
}

#[test]
fn checker_and_engine_keep_the_same_points() {
    for spec in ["3x3", "2x5", "1x8", "cycle:7", "petersen"] {
        let (board, g) = setup(spec);
        for suicide in [false, true] {
            let (mut somewhere, mut enclosing) = (0, 0);
            for col in g.all_colourings() {
                if !g.is_legal(&col) {
                    continue;
                }
                let pos = position(&col);
                for (c, colour) in [(BLACK, Color::Black), (WHITE, Color::White)] {
                    let mine = kept_points(&g, &col, c, suicide);
                    let set: u64 = (0..g.len()).filter(|&v| mine[v]).map(|v| 1u64 << v).sum();
                    let theirs = benson::secure(&board, &pos, colour, suicide);
                    assert_eq!(
                        PointSet(set),
                        theirs,
                        "{spec} suicide {suicide} colour {c}: {col:?}"
                    );
                    somewhere += usize::from(set != 0);
                    let alive = benson::pass_alive(&board, &pos, colour, suicide);
                    let regions = enclosed(&g, &col, c, suicide);
                    // The regions' points too: those the whole-region
                    // bound counts, and the checker's marks recompute.
                    let (_, points, stones) = kept_and_regions(&g, &col, c, suicide);
                    assert_eq!(
                        (regions as u32, PointSet(points)),
                        benson::enclosed(&board, &pos, colour, alive),
                        "{spec} suicide {suicide} colour {c}: {col:?}"
                    );
                    assert_eq!(PointSet(stones), alive, "{spec} {c}: {col:?}");
                    enclosing += usize::from(regions > 0);
                }
            }
            // Not vacuous: some colourings keep something.
            assert!(somewhere > 0, "{spec}");
            if spec == "3x3" || spec == "2x5" {
                // (On a path or a cycle a region of two points or more
                // has a point next to one chain only: never healthy.)
                assert!(enclosing > 0, "{spec}");
            }
        }
    }
}

/// Every colouring the opponent of `c` can reach from `col` by placings
/// while `c` passes (no repetition rule: a superset of real play).
fn reachable(g: &Graph, col: &[u8], c: u8, suicide: bool) -> HashSet<Vec<u8>> {
    let alive = vec![false; g.len()];
    let mut seen = HashSet::from([col.to_vec()]);
    let mut todo = vec![col.to_vec()];
    while let Some(x) = todo.pop() {
        for v in 0..g.len() {
            if x[v] != EMPTY {
                continue;
            }
            let (y, _, lost) = g.place(&x, v, opp(c), &alive);
            if lost > 0 && !suicide {
                continue;
            }
            if seen.insert(y.clone()) {
                todo.push(y);
            }
        }
    }
    seen
}

#[test]
fn kept_points_survive_every_attack() {
    let mut checked = 0;
    for spec in ["1x6", "2x3", "3x3"] {
        let (_, g) = setup(spec);
        for suicide in [false, true] {
            for col in g.all_colourings() {
                if !g.is_legal(&col) {
                    continue;
                }
                for c in [BLACK, WHITE] {
                    let k = kept_points(&g, &col, c, suicide);
                    if !k.iter().any(|&x| x) {
                        continue;
                    }
                    checked += 1;
                    for y in reachable(&g, &col, c, suicide) {
                        for v in (0..g.len()).filter(|&v| k[v]) {
                            let want = if col[v] == c { c } else { EMPTY };
                            assert_eq!(
                                y[v], want,
                                "{spec} suicide {suicide}: {col:?} keeps {v} for {c}, lost in {y:?}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// The bound `benson::black_range` uses: while `c` passes, whatever the
/// opponent places, the opponent's area stays at most the points `c` does
/// not keep less one per enclosed region (each keeps an empty point next
/// to `c`). Every reachable colouring is checked, not only the ends of play.
#[test]
fn enclosed_regions_keep_a_point_under_every_attack() {
    let mut checked = 0;
    for spec in ["2x3", "3x3", "2x4", "cycle:6"] {
        let (_, g) = setup(spec);
        let n = g.len() as u32;
        for suicide in [false, true] {
            for col in g.all_colourings() {
                if !g.is_legal(&col) {
                    continue;
                }
                for c in [BLACK, WHITE] {
                    let r = enclosed(&g, &col, c, suicide) as u32;
                    if r == 0 {
                        continue;
                    }
                    let k = kept_points(&g, &col, c, suicide)
                        .iter()
                        .filter(|&&x| x)
                        .count() as u32;
                    checked += 1;
                    for y in reachable(&g, &col, c, suicide) {
                        assert!(
                            g.area(&y, opp(c)) <= n - k - r,
                            "{spec} suicide {suicide}: {col:?} for {c}, {y:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(checked > 50, "{checked}");
}
