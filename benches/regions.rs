//! Go regions as games: canonical forms from empty tables of parts (the
//! canonical-game tables stay warm between iterations). Run with
//! `cargo bench --bench regions`; `scripts/region-times.sh` times the
//! larger sets once each, from a cold start.

#[path = "../tests/common/regions.rs"]
mod regions;

use criterion::{Criterion, criterion_group, criterion_main};
use gosolve::cgt::koh::{Counting, clear_shared_parts, value};
use gosolve::cgt::region::Region;
use regions::{boundary, diagram, polyominoes};

fn corridors(c: &mut Criterion) {
    let all: Vec<Region> = (1..=12)
        .flat_map(|n| ["blocked", "unblocked"].map(|k| format!("corridor:{k}:{n}")))
        .map(|s| Region::parse(&s).unwrap())
        .collect();
    c.bench_function("every corridor up to length 12 (24 regions)", |b| {
        b.iter(|| {
            clear_shared_parts();
            all.iter()
                .map(|r| value(r, Counting::Territory).birthday())
                .sum::<u32>()
        })
    });
}

fn eyes(c: &mut Criterion) {
    let all: Vec<Region> = polyominoes(8)
        .iter()
        .flatten()
        .map(|s| {
            let d = diagram(s, &vec!['.'; s.len()], &vec!['B'; boundary(s).len()]);
            Region::from_diagram(&d, &d).unwrap()
        })
        .collect();
    let mut group = c.benchmark_group("regions");
    group.sample_size(10);
    group.bench_function(
        "every polyomino up to 8 points as an eye (533 regions)",
        |b| {
            b.iter(|| {
                clear_shared_parts();
                all.iter()
                    .map(|r| value(r, Counting::Territory).birthday())
                    .sum::<u32>()
            })
        },
    );
    group.finish();
}

criterion_group!(benches, corridors, eyes);
criterion_main!(benches);
