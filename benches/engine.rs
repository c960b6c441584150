//! Rules-engine benchmarks: placing with captures, legal-move generation,
//! counting legal positions, and a perft. Run with `cargo bench`.

use criterion::{Criterion, criterion_group, criterion_main};
use gosolve::count::games::perft;
use gosolve::count::positions::count_frontier;
use gosolve::engine::board::Board;
use gosolve::engine::diagram;
use gosolve::engine::game::Game;
use gosolve::engine::rules::{Rules, Ruleset};
use gosolve::engine::types::{Color, PointSet};
use std::hint::black_box;

fn placing(c: &mut Criterion) {
    // A 5x5 middle game with groups to capture: every empty point, both colours.
    let board = Board::parse("5x5").unwrap();
    let pos = diagram::parse(&board, ".XO../XXOO./.XO.O/XOOX./.X.X.")
        .unwrap()
        .position;
    let empties: Vec<u8> = pos.empty(&board).iter().collect();
    c.bench_function("place every point of a 5x5 middle game", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for &p in &empties {
                for colour in [Color::Black, Color::White] {
                    let placed = black_box(&pos).place(&board, p, colour, PointSet::EMPTY);
                    acc += placed.captured + placed.suicided;
                }
            }
            acc
        })
    });
    let petersen = Board::parse("petersen").unwrap();
    let pp = diagram::parse(&petersen, "XO.OX.OX..").unwrap().position;
    c.bench_function("place every point of a petersen position", |b| {
        b.iter(|| {
            pp.empty(&petersen)
                .iter()
                .map(|p| {
                    black_box(&pp)
                        .place(&petersen, p, Color::Black, PointSet::EMPTY)
                        .captured
                })
                .sum::<u32>()
        })
    });
}

fn move_generation(c: &mut Criterion) {
    let board = Board::parse("4x4").unwrap();
    let rules = Rules::new(Ruleset::TrompTaylor);
    let mut game = Game::new(&board, &rules);
    for name in ["B2", "C3", "C2", "B3", "A3", "D2"] {
        game.play(gosolve::engine::types::Move::Place(
            board.parse_point(name).unwrap(),
        ));
    }
    c.bench_function("legal moves on 4x4 after 6 turns", |b| {
        b.iter(|| black_box(&game).legal_moves().len())
    });
}

fn counts(c: &mut Criterion) {
    let board = Board::parse("5x5").unwrap();
    c.bench_function("count legal positions 5x5 (frontier)", |b| {
        b.iter(|| count_frontier(black_box(&board)))
    });
    let board = Board::parse("2x2").unwrap();
    let rules = Rules::new(Ruleset::TrompTaylor);
    c.bench_function("perft 2x2 depth 8", |b| {
        b.iter(|| perft(black_box(&board), &rules, 8).nodes[8])
    });
}

fn solving(c: &mut Criterion) {
    use gosolve::search::root::solve;
    use gosolve::search::solver::{Config, Shared};
    let board = Board::parse("2x3").unwrap();
    let rules = Rules::new(Ruleset::TrompTaylor);
    let config = Config {
        tt_mb: 16,
        ..Config::default()
    };
    c.bench_function("solve 2x3 (16 MB table)", |b| {
        b.iter(|| {
            solve(
                &Shared::new(black_box(&board), &rules, config).unwrap(),
                &|_, _| {},
            )
            .value
        })
    });
}

criterion_group!(benches, placing, move_generation, counts, solving);
criterion_main!(benches);
