//! Builds the history-free guide table (`search::guide`) for each board
//! named on the command line and prints what it took and the bracket at the
//! empty board, Black to move.
//!
//! `cargo run --release --example guide_build -- 4x4 2x7 [--suicide forbidden] [--komi K] [--no-ko]`

use gosolve::engine::board::Board;
use gosolve::engine::position::Position;
use gosolve::engine::rules::{Komi, Rules, Ruleset, half_points};
use gosolve::engine::types::Color;
use gosolve::search::guide::Guide;

/// The peak resident set in MB, if the system says.
fn peak_mb() -> Option<u64> {
    gosolve::search::run::peak_memory().map(|b| b.div_ceil(1 << 20))
}

fn main() {
    let mut rules = Rules::new(Ruleset::TrompTaylor);
    let mut boards = Vec::new();
    let mut ko = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--suicide" => rules.suicide = args.next().expect("--suicide VALUE").parse().unwrap(),
            "--komi" => rules.komi = args.next().expect("--komi VALUE").parse::<Komi>().unwrap(),
            "--no-ko" => ko = false,
            _ => boards.push(a),
        }
    }
    println!(
        "# {}, {} ({} threads)",
        rules.describe(),
        if ko { "basic ko" } else { "no ko" },
        rayon::current_num_threads()
    );
    println!(
        "| board | points | states | ko states | open | sweeps | seconds | peak MB | empty (lo, hi) |"
    );
    for spec in boards {
        let board = Board::parse(&spec).unwrap();
        let Some(guide) = Guide::build_with(&board, &rules, ko) else {
            println!("| {spec} | {} | unsupported |", board.len());
            continue;
        };
        let s = guide.stats();
        let (lo, hi) = guide.range(Position::EMPTY, Color::Black, 0, None);
        println!(
            "| {spec} | {} | {} | {} | {} | {} | {:.2} | {} | ({lo}, {hi}) = ({}, {}) points |",
            board.len(),
            s.states,
            s.ko_states,
            s.open,
            s.sweeps,
            s.seconds,
            peak_mb().map_or("?".into(), |m| m.to_string()),
            half_points(lo),
            half_points(hi),
        );
    }
}
