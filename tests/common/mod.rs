//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod naive;
pub mod regions;

use gosolve::engine::board::Board;
use gosolve::engine::position::Position;
use gosolve::engine::rules::{Komi, RuleOptions, Ruleset, Suicide, Superko};
use gosolve::engine::types::PointSet;

/// The board `spec` under Tromp-Taylor without suicide (positional
/// superko): the 1xn boards whose superko fights the solver's tests watch.
pub fn no_suicide(spec: &str) -> (Board, gosolve::engine::rules::Rules) {
    let board = Board::parse(spec).unwrap();
    let opts = RuleOptions {
        suicide: Some(Suicide::Forbidden),
        ..RuleOptions::default()
    };
    let rules = gosolve::engine::rules::Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
    (board, rules)
}

/// The naive graph of a board, from its edge list.
pub fn naive_graph(board: &Board) -> naive::Graph {
    let edges: Vec<(usize, usize)> = board
        .edges()
        .into_iter()
        .map(|(a, b)| (a as usize, b as usize))
        .collect();
    naive::Graph::from_edges(board.len(), &edges)
}

/// A naive colouring as an engine position.
pub fn to_position(col: &[u8]) -> Position {
    let mut p = Position::EMPTY;
    for (i, &c) in col.iter().enumerate() {
        match c {
            naive::BLACK => p.black |= PointSet::single(i as u8),
            naive::WHITE => p.white |= PointSet::single(i as u8),
            _ => {}
        }
    }
    p
}

/// An engine position as a naive colouring.
pub fn to_colouring(p: &Position, n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| {
            if p.black.contains(i as u8) {
                naive::BLACK
            } else if p.white.contains(i as u8) {
                naive::WHITE
            } else {
                naive::EMPTY
            }
        })
        .collect()
}

/// Every option of `ruleset` a sweep tries (every superko and suicide
/// option, komi 0 and 0.5 where it scores) but the `skip`ped (superko,
/// suicide) pairs, which it names on stderr.
pub fn sweep_options(
    spec: &str,
    ruleset: Ruleset,
    skip: &[(Ruleset, Superko, Suicide)],
) -> Vec<RuleOptions> {
    let komis: &[i32] = if ruleset.has_score() { &[0, 1] } else { &[0] };
    let mut out = Vec::new();
    for (superko, suicide) in rule_variants(ruleset) {
        if superko.is_some_and(|sk| skip.contains(&(ruleset, sk, suicide))) {
            eprintln!("{spec} {ruleset:?} {superko:?} {suicide:?}: skipped");
            continue;
        }
        for &komi in komis {
            out.push(RuleOptions {
                superko,
                suicide: Some(suicide),
                komi: Some(Komi(komi)),
                start: None,
            });
        }
    }
    out
}

/// Every superko and suicide option a ruleset takes.
pub fn rule_variants(ruleset: Ruleset) -> Vec<(Option<Superko>, Suicide)> {
    let superkos: Vec<Option<Superko>> = match ruleset {
        Ruleset::Koh => vec![None],
        r if r.has_score() => vec![
            Some(Superko::Positional),
            Some(Superko::Situational),
            Some(Superko::None),
        ],
        _ => vec![Some(Superko::Positional), Some(Superko::Situational)],
    };
    let suicides = if ruleset == Ruleset::Koh {
        vec![Suicide::Forbidden]
    } else {
        vec![Suicide::Allowed, Suicide::Forbidden]
    };
    superkos
        .into_iter()
        .flat_map(|s| suicides.iter().map(move |&u| (s, u)))
        .collect()
}

/// The boards of at most four points that every ruleset is checked on.
pub const TINY_BOARDS: [&str; 7] = [
    "1x1",
    "1x2",
    "1x3",
    "2x2",
    "cycle:3",
    "complete:3",
    "star:3",
];

/// Runs the `gosolve` binary in the checkout's folder (where `results/`
/// is): whether it succeeded, its standard output and its standard error.
pub fn gosolve(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gosolve"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An empty directory of this test process's own, named after `tag`.
pub fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gosolve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sends `child` the signal `kill` names by `signal` ("-INT", "-TERM").
pub fn kill(signal: &str, child: &std::process::Child) {
    let pid = child.id().to_string();
    let sent = std::process::Command::new("kill")
        .args([signal, &pid])
        .status();
    assert!(sent.unwrap().success());
}
