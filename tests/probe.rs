//! `probe`: every legal move's value after a line, from the proof or a
//! live search, checked against `solve`'s first-move values and a fresh
//! search of the position after random lines (history included).

mod common;

use common::gosolve;
use gosolve::engine::board::Board;
use gosolve::engine::game::Game;
use gosolve::engine::rules::Rules;
use gosolve::engine::types::{Color, Move};
use gosolve::format::gsr::Claim;
use gosolve::format::{check, gsr};
use gosolve::play::known::Source;
use gosolve::play::oracle::{Limits, Oracle};
use gosolve::play::probe::{Asked, probe};
use gosolve::search::solver::{Config, Search, Shared};
use std::path::Path;

fn results(name: &str) -> gsr::ResultFile {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results")
        .join(name);
    gsr::read(&p).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `job` on a thread with room for the proof walk's recursion.
fn deep<T: Send>(job: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, job)
            .unwrap()
            .join()
            .unwrap()
    })
}

const NO_LIMIT: Limits = Limits {
    time: None,
    nodes: None,
};

/// The result files whose boards solve in well under a second.
const FAST: [&str; 26] = [
    "1x1-tromp-taylor.gsr",
    "1x2-tromp-taylor.gsr",
    "1x3-tromp-taylor.gsr",
    "1x4-logical.gsr",
    "1x4-tromp-taylor.gsr",
    "1x5-conway-replacement.gsr",
    "1x5-koh.gsr",
    "1x5-tromp-taylor.gsr",
    "1x6-tromp-taylor.gsr",
    "1x7-tromp-taylor.gsr",
    "2x2-tromp-taylor-komi-0.5.gsr",
    "2x2-tromp-taylor-suicide-forbidden.gsr",
    "2x2-tromp-taylor-superko-none.gsr",
    "2x2-tromp-taylor-superko-situational.gsr",
    "2x2-tromp-taylor.gsr",
    "2x3-logical.gsr",
    "2x3-tromp-taylor-superko-none-suicide-forbidden.gsr",
    "2x3-tromp-taylor.gsr",
    "2x4-tromp-taylor-superko-none-suicide-forbidden.gsr",
    "2x4-tromp-taylor.gsr",
    "2x5-tromp-taylor.gsr",
    "3x3-tromp-taylor-superko-none-suicide-forbidden.gsr",
    "3x3-tromp-taylor.gsr",
    "cycle-5-ggg.gsr",
    "cycle-6-conway.gsr",
    "cycle-6-tromp-taylor.gsr",
];

/// Every first move's value, probed from the proof and searched now
/// without it, is the value `solve` stored for its class; the start's
/// value is the file's.
#[test]
fn probe_agrees_with_solve_on_every_first_move() {
    deep(|| {
        for name in FAST {
            let f = results(name);
            let (board, rules) = check::settle(&f).unwrap();
            let stored = |m: Move| {
                f.classes
                    .iter()
                    .find(|c| c.members.iter().any(|x| x.mv == m.code()))
                    .unwrap_or_else(|| panic!("{name}: {m:?} in no class"))
                    .value
            };
            for file in [Some(f.clone()), None] {
                let from_proof = file.is_some();
                let o = Oracle::new(&board, &rules, file, 16).unwrap();
                let budget = o.budget(NO_LIMIT);
                let asked = Asked {
                    search: true,
                    pv: false,
                };
                let p = probe(&o, &[], &budget, asked).unwrap();
                assert_eq!(p.known.exact(), Some(f.value), "{name}: the start");
                assert_eq!(p.moves.len(), Game::new(&board, &rules).legal_moves().len());
                for r in &p.moves {
                    assert_eq!(r.known.exact(), Some(stored(r.mv)), "{name}: {:?}", r.mv);
                    let want = if from_proof {
                        Source::Proof
                    } else {
                        Source::Search
                    };
                    let over = Game::new(&board, &rules).legal_moves().is_empty();
                    assert!(
                        over || r.known.source == want,
                        "{name}: {:?} {:?}",
                        r.mv,
                        r.known
                    );
                }
                // Best first.
                let mover = Game::new(&board, &rules).to_move();
                let sign = if mover == Color::Black { 1 } else { -1 };
                let values: Vec<i32> = p.moves.iter().map(|r| sign * r.known.lo).collect();
                assert!(
                    values.windows(2).all(|w| w[0] >= w[1]),
                    "{name}: {values:?}"
                );
            }
        }
    });
}

/// Every result file in `results/`, the slow ones too: every first move
/// is exact from the proof (no search) and is the value `solve` stored,
/// or the bound it stored where it stored only one.
#[test]
fn probe_reads_every_first_move_of_every_result_file_from_its_proof() {
    deep(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "gsr") {
                continue;
            }
            files += 1;
            let f = gsr::read(&path).unwrap();
            let (board, rules) = check::settle(&f).unwrap();
            let o = Oracle::new(&board, &rules, Some(f.clone()), 1).unwrap();
            let budget = o.budget(NO_LIMIT);
            let asked = Asked {
                search: false,
                pv: false,
            };
            let p = probe(&o, &[], &budget, asked).unwrap();
            let members: usize = f.classes.iter().map(|c| c.members.len()).sum();
            assert_eq!(p.moves.len(), members, "{}", path.display());
            for r in &p.moves {
                let class = f
                    .classes
                    .iter()
                    .find(|c| c.members.iter().any(|x| x.mv == r.mv.code()))
                    .unwrap();
                // A class stored with only a bound (`--first-moves
                // bounds`) is known by that bound.
                let known = match class.claim {
                    Claim::Exact => r.known.exact(),
                    Claim::AtMost => Some(r.known.hi),
                    Claim::AtLeast => Some(r.known.lo),
                };
                assert_eq!(known, Some(class.value), "{} {:?}", path.display(), r.mv);
                assert!(matches!(r.known.source, Source::Proof | Source::Over));
            }
        }
        assert!(files >= FAST.len());
    });
}

/// A tiny fixed-seed generator (xorshift64*), so the lines are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The exact value (Black's side) of the game after `line`, by a fresh
/// search on a fresh table that sees the whole history.
fn fresh_value(board: &Board, rules: &Rules, line: &[Move]) -> i32 {
    let mut g = Game::new(board, rules);
    for &m in line {
        g.play(m);
    }
    let config = Config {
        tt_mb: 16,
        ..Config::default()
    };
    let sh = Shared::new(board, rules, config).unwrap();
    let sign = if g.to_move() == Color::Black { 1 } else { -1 };
    if let Some(o) = g.outcome() {
        return match o {
            gosolve::engine::game::Outcome::Score(s) => s,
            gosolve::engine::game::Outcome::Win(c) => {
                if c == Color::Black {
                    1
                } else {
                    -1
                }
            }
        };
    }
    sign * Search::new(&sh).exact(&mut g)
}

/// On random lines in 3x3 and 2x4 (fixed seed): every move's probed value
/// is a fresh search's of the position after it, history included; the
/// proof's bounds hold it; each principal variation is legal, ends the
/// game, and ends it with that value.
#[test]
fn probe_agrees_with_a_fresh_search_after_random_lines() {
    deep(|| {
        let mut rng = Rng(0x5eed_1234_abcd_0042);
        let mut exact_from_proof = 0;
        let mut bounds_from_proof = 0;
        for name in ["3x3-tromp-taylor.gsr", "2x4-tromp-taylor.gsr"] {
            let f = results(name);
            let (board, rules) = check::settle(&f).unwrap();
            let o = Oracle::new(&board, &rules, Some(f.clone()), 16).unwrap();
            for _ in 0..12 {
                let mut g = Game::new(&board, &rules);
                let mut line = Vec::new();
                for _ in 0..1 + rng.below(7) {
                    let moves = g.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    g.play(m);
                    line.push(m);
                }
                let budget = o.budget(NO_LIMIT);
                let both = Asked {
                    search: true,
                    pv: true,
                };
                let proof_only = Asked {
                    search: false,
                    pv: false,
                };
                let p = probe(&o, &line, &budget, both).unwrap();
                let bounds = probe(&o, &line, &budget, proof_only).unwrap();
                assert_eq!(p.moves.len(), bounds.moves.len());
                for r in &p.moves {
                    let b = bounds.moves.iter().find(|b| b.mv == r.mv).unwrap();
                    let mut next = line.clone();
                    next.push(r.mv);
                    let v = fresh_value(&board, &rules, &next);
                    assert_eq!(r.known.exact(), Some(v), "{name} {next:?}");
                    assert!(
                        b.known.lo <= v && v <= b.known.hi,
                        "{name} {next:?}: {:?}",
                        b.known
                    );
                    match (b.known.source, b.known.exact()) {
                        (Source::Proof, Some(_)) => exact_from_proof += 1,
                        (Source::Proof, None) => bounds_from_proof += 1,
                        _ => {}
                    }
                    // The principal variation replays legally to the end with that value.
                    let mut h = Game::new(&board, &rules);
                    for &m in &line {
                        h.play(m);
                    }
                    for &m in &r.pv {
                        assert!(h.try_play(m).is_some(), "{name} {next:?}: pv {:?}", r.pv);
                    }
                    assert_eq!(r.remoteness, Some(r.pv.len()));
                    let end = match h.outcome().expect("the pv ends the game") {
                        gosolve::engine::game::Outcome::Score(s) => s,
                        gosolve::engine::game::Outcome::Win(c) => {
                            if c == Color::Black {
                                1
                            } else {
                                -1
                            }
                        }
                    };
                    assert_eq!(end, v, "{name} {next:?}: pv {:?}", r.pv);
                }
            }
        }
        // The lines went both inside the proof and out of it.
        assert!(
            exact_from_proof > 0 && bounds_from_proof > 0,
            "{exact_from_proof} {bounds_from_proof}"
        );
    });
}

/// The command: 3x3's start from its result file, in JSON, with exact
/// values, sources and principal variations.
#[test]
fn probe_command_prints_every_move_with_its_source() {
    let (ok, out, err) = gosolve(&["probe", "results/3x3-tromp-taylor.gsr", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], 9);
    assert_eq!(v["category"], "win");
    assert_eq!(v["to_move"], "black");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    let value_of = |name: &str| {
        let m = moves.iter().find(|m| m["move"] == name).unwrap();
        assert_eq!(m["status"], "proof");
        m["value"].as_i64().unwrap()
    };
    assert_eq!(value_of("B2"), 9);
    assert_eq!(value_of("B1"), 3);
    assert_eq!(value_of("A1"), -9);
    assert_eq!(value_of("pass"), -9);
    assert_eq!(moves[0]["move"], "B2");
    assert_eq!(moves[0]["pv"], serde_json::json!(["B2", "pass", "pass"]));
    assert_eq!(moves[0]["remoteness"], 3);
    assert_eq!(moves[0]["category"], "win");

    // A board with rule options and no result file: searched now.
    let (ok, out, err) = gosolve(&[
        "probe",
        "2x2",
        "--superko",
        "situational",
        "--line",
        "A1",
        "--results",
        "no-such-folder",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("after A1: white to move"), "{out}");
    assert!(out.contains("searched now"), "{out}");
    assert!(!out.contains("exact from the proof"), "{out}");

    // The proof alone: inside it exact, off it bounds or nothing.
    let (ok, out, err) = gosolve(&[
        "probe",
        "results/3x3-tromp-taylor.gsr",
        "--line",
        "B1",
        "--no-search",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let status: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["status"].as_str().unwrap())
        .collect();
    assert_eq!(status[0], "proof");
    assert!(status[1..].iter().all(|s| *s == "bound"), "{status:?}");
    assert_eq!(v["moves"][0]["move"], "B2");
    assert_eq!(v["moves"][1]["lower"], 3);
    assert_eq!(v["moves"][1]["upper"], 9);
    assert_eq!(v["moves"][1]["value"], serde_json::Value::Null);
    assert_eq!(v["moves"][1]["category"], "loss");
}

/// A search that cannot finish in its time says it stopped, with bounds,
/// and still exits 0 within about that time.
#[test]
fn probe_stops_at_its_time_limit_with_bounds_only() {
    let start = std::time::Instant::now();
    let (ok, out, err) = gosolve(&[
        "probe",
        "4x4",
        "--line",
        "B2 C3",
        "--seconds",
        "0.3",
        "--results",
        "no-such-folder",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(start.elapsed().as_secs_f64() < 10.0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped"], true);
    assert_eq!(v["value"], serde_json::Value::Null);
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["status"] == "stopped")
    );
}

/// A line on `board` whose last move superko forbids, found by a
/// depth-first walk.
fn superko_line(board: &str) -> String {
    fn walk(g: &mut Game, line: &mut Vec<Move>, depth: usize) -> bool {
        for p in 0..g.board().len() as u8 {
            if g.position().at(p).is_none() && g.superko_hit(p).is_some() {
                line.push(Move::Place(p));
                return true;
            }
        }
        if depth == 0 {
            return false;
        }
        for m in g.legal_moves() {
            let u = g.play(m);
            line.push(m);
            if walk(g, line, depth - 1) {
                return true;
            }
            line.pop();
            g.undo(u);
        }
        false
    }
    let b = Board::parse(board).unwrap();
    let rules = Rules::new(gosolve::engine::rules::Ruleset::TrompTaylor);
    let mut g = Game::new(&b, &rules);
    let mut line = Vec::new();
    assert!(walk(&mut g, &mut line, 8), "no superko within 8 turns");
    line.iter()
        .map(|&m| b.move_name(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Bad input: a clear error and a non-zero exit.
#[test]
fn probe_refuses_bad_input() {
    let fails = |args: &[&str], needle: &str| {
        let (ok, _, err) = gosolve(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(needle), "{args:?}: `{err}` lacks `{needle}`");
    };
    fails(
        &["probe", "3x3", "--line", "B2 B2"],
        "move 2 (B2) is not legal: white: the point is occupied",
    );
    fails(
        &["probe", "3x3", "--line", "B2 Z9"],
        "`Z9` is not a point of 3x3",
    );
    let line = superko_line("2x2");
    fails(&["probe", "2x2", "--line", &line], "(superko)");
    fails(
        &["probe", "1x5", "--rules", "koh", "--line", "C1 pass"],
        "a pass costs a prisoner",
    );
    fails(
        &["probe", "3x3", "--line", "pass pass B2"],
        "move 3 (B2) is not legal: the game is over",
    );
    fails(&["probe", "hexagon"], "hexagon");
    fails(
        &["probe", "results/3x3-tromp-taylor.gsr", "--komi", "1"],
        "rule options do not apply",
    );
    fails(&["probe", "no-such.gsr"], "no-such.gsr");
    fails(&["probe", "3x3", "--seconds", "0"], "--seconds");
    let bad = std::env::temp_dir().join(format!("gosolve-probe-bad-{}.gsr", std::process::id()));
    let bytes =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("results/2x2-tromp-taylor.gsr"))
            .unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();
    fails(&["probe", bad.to_str().unwrap()], "truncated");
    // The same damaged file found by its default name for a board.
    let dir = std::env::temp_dir().join(format!("gosolve-probe-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&bad, dir.join("2x2-tromp-taylor.gsr")).unwrap();
    fails(
        &["probe", "2x2", "--results", dir.to_str().unwrap()],
        "truncated",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&bad).unwrap();
}
