//! A solve for people and programs: the report as text or JSON, and the
//! bench.

use crate::engine::board::Board;
use crate::engine::rules::{Rules, Ruleset, half_points, value_text};
use crate::engine::types::Color;
use crate::search::run::{Report, Run, SolveError, run_solve};
use crate::search::solver::Config;
use serde_json::json;

/// The report as text.
pub fn text(r: &Report) -> String {
    let mut out = format!("{} under {}\n", r.board, r.rules);
    if r.given_start {
        let who = match r.first_to_move {
            Color::Black => "Black",
            Color::White => "White",
        };
        out += &format!("start: {} ({who} moves first)\n", r.start);
        out += &r.start_diagram;
    }
    let v = r.solution.value;
    let verdict = match (r.scored, v.signum()) {
        (false, _) => String::new(),
        (true, 1) => format!(" (Black wins by {})", half_points(v)),
        (true, -1) => format!(" (White wins by {})", half_points(-v)),
        _ => " (a draw)".into(),
    };
    out += &format!("value: {}{verdict}\n", value_text(r.scored, v));
    out += "first moves (value: moves, symmetric ones together):\n";
    for (m, names) in r.solution.moves.iter().zip(&r.move_names) {
        out += &format!(
            "  {:>10}: {}\n",
            m.claim.text(&value_text(r.scored, m.value)),
            names.join(" ")
        );
    }
    out += &format!(
        "principal variation ({} turns): {}\n",
        r.pv.len(),
        r.pv.join(" ")
    );
    out += "final position:\n";
    out += &r.final_diagram;
    if let Some((b, w)) = r.final_scores {
        out += &format!("final score: Black {b}, White {w}\n");
    }
    let (probes, hits, _) = r.table;
    let rate = if probes > 0 {
        100.0 * hits as f64 / probes as f64
    } else {
        0.0
    };
    if r.solution.resumed > 0 || r.resumed_strategies > 0 {
        out += &format!(
            "resumed: {} of {} first-move classes valued ({} nodes) and {} of {} strategies extracted by an interrupted run\n",
            r.solution.resumed,
            r.solution.moves.len(),
            r.solution.resumed_nodes,
            r.resumed_strategies,
            r.strategies.len()
        );
    }
    out += &format!(
        "nodes {}, {:.3} s, {:.0} nodes/s, peak memory {}, table hit rate {rate:.1}% of {probes} probes\n",
        r.solution.nodes,
        r.seconds,
        r.solution.nodes as f64 / r.seconds.max(1e-9),
        r.peak_bytes
            .map_or("unknown".into(), |b| format!("{:.1} MB", b as f64 / 1e6)),
    );
    out
}

/// A value as a JSON number: points (halves allowed) when `scored`, else
/// +1 / −1 for a Black / White win. Every `--json` output uses it.
pub fn json_value(scored: bool, v: i32) -> serde_json::Value {
    if !scored {
        json!(v.signum())
    } else if v % 2 == 0 {
        json!(v / 2)
    } else {
        json!(v as f64 / 2.0)
    }
}

/// The report as one JSON object; values as [`json_value`].
pub fn json(r: &Report, saved: Option<&std::path::Path>) -> String {
    let moves: Vec<_> = r
        .solution
        .moves
        .iter()
        .zip(&r.move_names)
        .map(|(m, names)| json!({"value": json_value(r.scored, m.value), "claim": m.claim.name(), "moves": names}))
        .collect();
    json!({
        "board": r.board,
        "rules": r.rules,
        "scored": r.scored,
        "start": r.start,
        "first_to_move": r.first_to_move.name(),
        "value": json_value(r.scored, r.solution.value),
        "first_moves": moves,
        "pv": r.pv,
        "final_position": r.final_diagram,
        "nodes": r.solution.nodes,
        "seconds": super::millis(r.seconds),
        "peak_bytes": r.peak_bytes,
        "table_probes": r.table.0,
        "table_hits": r.table.1,
        "resumed_classes": r.solution.resumed,
        "resumed_strategies": r.resumed_strategies,
        "proof_seconds": super::millis(r.proof_seconds),
        "early_proof_seconds": super::millis(r.early_proof_seconds),
        "early_strategies": r.early_strategies,
        "proof_nodes": r.proof_nodes,
        "result_file": saved.map(|p| p.display().to_string()),
    })
    .to_string()
}

/// The bench set: (board, ruleset).
pub const BENCH: &[(&str, Ruleset)] = &[
    ("2x2", Ruleset::TrompTaylor),
    ("1x5", Ruleset::TrompTaylor),
    ("1x6", Ruleset::TrompTaylor),
    ("2x3", Ruleset::TrompTaylor),
    ("2x4", Ruleset::TrompTaylor),
    ("cycle:6", Ruleset::Conway),
    ("petersen", Ruleset::Conway),
    ("1x4", Ruleset::Logical),
    ("1x5", Ruleset::Koh),
];

/// The table `bench` gives a board of `points` points when `--tt-mb` is
/// not given: 256 bytes per colouring (3^points), rounded up to a power of
/// two megabytes, at least 1 and at most 256, `solve`'s default on boards
/// of up to 16 points (from 12 points on). Zeroing a 256 MB table took
/// about 90% of the bench's time on its small boards, so its nodes per
/// second said little of the search.
pub fn bench_tt_mb(points: usize) -> usize {
    let colourings = 3f64.powi(points.min(64) as i32);
    let mb = (colourings * 256.0 / (1 << 20) as f64).ceil();
    if mb >= super::DEFAULT_TT_MB as f64 {
        return super::DEFAULT_TT_MB;
    }
    (mb as usize).max(1).next_power_of_two()
}

/// Solves the bench set and reports nodes, seconds and nodes/second; the
/// total node count is the search's signature. The table has `tt_mb`
/// megabytes, or without it [`bench_tt_mb`] of each board.
pub fn bench(config: Config, tt_mb: Option<usize>) -> Result<String, SolveError> {
    let mut out = format!(
        "{:<10} {:<14} {:>8} {:>6} {:>12} {:>9} {:>12}\n",
        "board", "rules", "value", "tt MB", "nodes", "seconds", "nodes/s"
    );
    let (mut nodes, mut secs) = (0u64, 0f64);
    for &(spec, ruleset) in BENCH {
        let board = Board::parse(spec).expect("bench board");
        let rules = Rules::new(ruleset);
        let config = Config {
            tt_mb: tt_mb.unwrap_or_else(|| bench_tt_mb(board.len())),
            ..config
        };
        let r = run_solve(&board, &rules, config, Run::default())?;
        out += &format!(
            "{:<10} {:<14} {:>8} {:>6} {:>12} {:>9.3} {:>12.0}\n",
            spec,
            ruleset.name(),
            value_text(r.scored, r.solution.value),
            config.tt_mb,
            r.solution.nodes,
            r.seconds,
            r.solution.nodes as f64 / r.seconds.max(1e-9)
        );
        nodes += r.solution.nodes;
        secs += r.seconds;
    }
    out += &format!(
        "total: {nodes} nodes, {secs:.3} s, {:.0} nodes/s\n",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `--tt-mb`, bench sizes each table to its board: 256 bytes
    /// per colouring in a power of two megabytes, 1 to 256.
    #[test]
    fn bench_tables_are_sized_to_the_board() {
        let sizes: Vec<(usize, usize)> = [1, 4, 7, 8, 9, 10, 11, 12, 16, 64]
            .iter()
            .map(|&n| (n, bench_tt_mb(n)))
            .collect();
        assert_eq!(
            sizes,
            [
                (1, 1),
                (4, 1),
                (7, 1),
                (8, 2),
                (9, 8),
                (10, 16),
                (11, 64),
                (12, 256),
                (16, 256),
                (64, 256)
            ]
        );
        let set: Vec<usize> = BENCH
            .iter()
            .map(|&(spec, _)| bench_tt_mb(Board::parse(spec).unwrap().len()))
            .collect();
        assert_eq!(set, [1, 1, 1, 1, 2, 1, 16, 1, 1]);
    }
}
