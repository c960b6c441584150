//! Fits the 3x3 pattern weights of `search::pattern` to the guide values
//! of the named boards and writes them (`src/search/patterns.bin` is the
//! output of the default arguments).
//!
//! `cargo run --release --example pattern_train -- OUT [BOARD...] [--epochs N]`
//!
//! Default boards 4x4 3x5 2x7; rules `tromp-taylor --suicide forbidden`
//! with basic ko (the guide's game); only colourings whose bracket is
//! exact, Black to move. Least squares by stochastic gradient with a
//! fixed seed on one thread, so the same arguments give the same bytes.
//! About 2 minutes and 1.2 GB on 2 cores (2026-12-08: 88–126 s).

use gosolve::engine::board::Board;
use gosolve::engine::game::from_ternary;
use gosolve::engine::position::Position;
use gosolve::engine::rules::{Rules, Ruleset, Suicide};
use gosolve::engine::types::{Color, PointSet};
use gosolve::search::guide::Guide;
use gosolve::search::pattern::{code, dense, serves};

/// A colouring, its grid and its exact value (half points, Black to move).
struct Sample {
    pos: Position,
    rows: i32,
    cols: i32,
    value: i8,
}

/// Appends the exact colourings of `spec`; returns the nearer-colour
/// score's summed squared error on them, the baseline.
fn samples_of(spec: &str, rules: &Rules, out: &mut Vec<Sample>) -> f64 {
    let board = Board::parse(spec).expect("a board");
    let (rows, cols) = serves(&board).expect("a grid the patterns serve");
    let guide = Guide::build(&board, rules).expect("a guide");
    let n = board.len();
    let (before, mut nearer) = (out.len(), 0f64);
    for i in 0..3u64.pow(n as u32) {
        let pos = from_ternary(i, n);
        if !pos.is_legal(&board, PointSet::EMPTY) {
            continue;
        }
        let (lo, hi) = guide.range(pos, Color::Black, 0, None);
        if lo == hi && lo.abs() <= 2 * n as i32 {
            let (b, w) = pos.nearer(&board);
            nearer += f64::from(2 * (b as i32 - w as i32) - lo).powi(2);
            out.push(Sample {
                pos,
                rows,
                cols,
                value: lo as i8,
            });
        }
    }
    eprintln!("{spec}: {} exact colourings", out.len() - before);
    nearer
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .expect("usage: pattern_train OUT [BOARD...] [--epochs N]");
    let (mut boards, mut epochs) = (Vec::new(), 6);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--epochs" => {
                epochs = args
                    .next()
                    .and_then(|e| e.parse().ok())
                    .expect("--epochs N")
            }
            _ => boards.push(a),
        }
    }
    if boards.is_empty() {
        boards = vec!["4x4".into(), "3x5".into(), "2x7".into()];
    }
    let mut rules = Rules::new(Ruleset::TrompTaylor);
    rules.suicide = Suicide::Forbidden;
    let mut samples = Vec::new();
    let nearer: f64 = boards
        .iter()
        .map(|spec| samples_of(spec, &rules, &mut samples))
        .sum();
    let (index, sign, n) = dense();
    let mut weight = vec![0f32; n];
    let mut tempo = 0f32;
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut codes = Vec::with_capacity(64);
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let rate = 0.002 / (1.0 + epoch as f32);
        let mut squares = 0f64;
        for &j in &order {
            let s = &samples[j as usize];
            codes.clear();
            for r in 0..s.rows {
                for c in 0..s.cols {
                    codes.push(code(&s.pos, s.rows, s.cols, r, c) as usize);
                }
            }
            let guess = tempo
                + codes
                    .iter()
                    .map(|&k| f32::from(sign[k]) * weight[index[k] as usize])
                    .sum::<f32>();
            let err = guess - f32::from(s.value);
            squares += f64::from(err) * f64::from(err);
            for &k in &codes {
                weight[index[k] as usize] -= rate * err * f32::from(sign[k]);
            }
            tempo -= rate * err * 0.1;
        }
        eprintln!(
            "epoch {epoch}: error {:.3} half points (root mean square), tempo {tempo:.2}",
            (squares / samples.len() as f64).sqrt()
        );
    }
    eprintln!(
        "{} colourings, {n} weights; the nearer-colour score's error {:.3}",
        samples.len(),
        (nearer / samples.len() as f64).sqrt()
    );
    let bytes: Vec<u8> = weight
        .iter()
        .chain(std::iter::once(&tempo))
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &bytes).expect("write the weights");
    std::fs::rename(&tmp, &out).expect("rename the weights");
}
