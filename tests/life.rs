//! The checker's own unconditional-life code (`plain_life`) against the
//! engine's (`benson`): the same points kept on every legal colouring of
//! small boards, so a proof's secure marks are judged by what the solver
//! used.

use gosolve::benson;
use gosolve::board::Board;
use gosolve::plain::{BLACK, Graph, WHITE};
use gosolve::plain_life::kept;
use gosolve::position::Position;
use gosolve::types::Color;

fn agree_on_every_colouring(spec: &str) -> usize {
    let board = Board::parse(spec).unwrap();
    let edges: Vec<(usize, usize)> = board
        .edges()
        .iter()
        .map(|&(a, b)| (a as usize, b as usize))
        .collect();
    let g = Graph::from_edges(board.len(), &edges);
    let mut alive_somewhere = 0;
    for col in g.all_colourings() {
        if !g.is_legal(&col) {
            continue;
        }
        let mut pos = Position::EMPTY;
        for (i, &c) in col.iter().enumerate() {
            match c {
                BLACK => pos.black |= 1 << i,
                WHITE => pos.white |= 1 << i,
                _ => {}
            }
        }
        let b = benson::secure(&board, &pos, Color::Black).count_ones() as usize;
        let w = benson::secure(&board, &pos, Color::White).count_ones() as usize;
        assert_eq!(kept(&g, &col, BLACK), b, "{spec} black, {col:?}");
        assert_eq!(kept(&g, &col, WHITE), w, "{spec} white, {col:?}");
        if b > 0 {
            alive_somewhere += 1;
        }
    }
    alive_somewhere
}

#[test]
fn checker_and_engine_keep_the_same_points() {
    // The counts of legal colourings where Black keeps something show the
    // comparison is not vacuous.
    for spec in ["3x3", "2x5", "1x8", "cycle:7", "petersen"] {
        let n = agree_on_every_colouring(spec);
        assert!(n > 0, "{spec}: no colouring with a kept point");
    }
}
