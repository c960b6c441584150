//! Times the canonical forms of the generated region sets once each, from
//! a cold start (run by `scripts/region-times.sh`; the README quotes it).

#[path = "../tests/common/regions.rs"]
mod regions;

use gosolve::cgt::koh::{Counting, value};
use gosolve::cgt::region::Region;
use regions::{boundary, diagram, few_whites, polyominoes};
use std::time::Instant;

/// Computes every region's value; prints the count, the seconds and the
/// process's peak memory.
fn time(what: &str, diagrams: Vec<String>) {
    let start = Instant::now();
    for d in &diagrams {
        value(&Region::from_diagram(d, d).unwrap(), Counting::Territory);
    }
    let secs = start.elapsed().as_secs_f64();
    let peak = peak_mb().map_or("?".into(), |mb| format!("{mb} MB"));
    println!("| {what} | {} | {secs:.2} | {peak} |", diagrams.len());
}

/// The peak resident set in MB, if the system says.
fn peak_mb() -> Option<u64> {
    gosolve::search::run::peak_memory().map(|b| b.div_ceil(1 << 20))
}

/// One set per run, so that each starts cold: `corridors`, `eyes:N`
/// (every polyomino of 1–N points as Black's eye) or `one-white:N` (the
/// same with at most one white border stone).
fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let shapes = |max: usize| polyominoes(max).into_iter().flatten();
    let inside = |s: &regions::Shape| vec!['.'; s.len()];
    let (what, diagrams): (String, Vec<String>) = match arg.split_once(':') {
        None if arg == "corridors" => (
            "every corridor, blocked and unblocked, length 1–12".into(),
            (1..=12)
                .flat_map(|n| ["blocked", "unblocked"].map(|k| format!("corridor:{k}:{n}")))
                .map(|s| Region::parse(&s).unwrap().compact())
                .collect(),
        ),
        Some(("eyes", n)) => (
            format!("every polyomino of 1–{n} points as Black's eye"),
            shapes(n.parse().unwrap())
                .map(|s| diagram(&s, &inside(&s), &vec!['B'; boundary(&s).len()]))
                .collect(),
        ),
        Some(("one-white", n)) => (
            format!("every polyomino of 1–{n} points, at most one white border stone"),
            shapes(n.parse().unwrap())
                .flat_map(|s| {
                    few_whites(boundary(&s).len(), 1)
                        .into_iter()
                        .map(move |w| diagram(&s, &inside(&s), &w))
                })
                .collect(),
        ),
        _ => panic!("usage: region_times corridors | eyes:N | one-white:N"),
    };
    time(&what, diagrams);
}
