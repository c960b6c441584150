//! The GTP engine: a scripted session through the binary, perfect play
//! against itself ending with the solved value, and perfect play as Black
//! against random White moves never ending below it.

use gosolve::engine::rules::{RuleOptions, Ruleset};
use gosolve::engine::types::Move;
use gosolve::play::gtp::{Engine, Setup};
use gosolve::play::oracle::Limits;
use std::io::Write;
use std::process::{Command, Stdio};

fn setup() -> Setup {
    Setup {
        ruleset: Ruleset::TrompTaylor,
        options: RuleOptions::default(),
        results: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results"),
        limits: Limits {
            time: Some(std::time::Duration::from_secs(60)),
            nodes: None,
        },
        tt_mb: 16,
    }
}

/// Sends `script` to `gosolve gtp ARGS` and returns its standard output.
fn session(args: &[&str], script: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gosolve"))
        .arg("gtp")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // An engine that refuses its board exits before reading: the pipe may
    // then be closed already, which is what such a test expects.
    let _ = child.stdin.take().unwrap().write_all(script.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A whole scripted session: every reply exactly as GTP 2 frames it.
#[test]
fn scripted_session_answers_every_command() {
    let script = "\
protocol_version
1 name
known_command kata-analyze
known_command fly
# a comment line
boardsize 3
komi 0
play b B2
play b A1
play w B2
play w Z9
play w A1
showboard
genmove b
undo
2 final_score
boardsize 9
rectangular_boardsize 4 2
genmove b
genmove w
genmove b
final_score
nonsense
quit
name
";
    let (ok, out, err) = session(&["3x3"], script);
    assert!(ok, "{err}");
    assert!(
        err.contains("values from results/3x3-tromp-taylor.gsr"),
        "{err}"
    );
    let want = "\
= 2

=1 gosolve

= true

= false

=

=

=

? illegal move: white is to move

? illegal move: white: the point is occupied

? illegal move: Z9 is not on the board

=

=
3 . . .
2 . X .
1 O . .
  A B C
black to move; tromp-taylor, positional superko, suicide allowed, komi 0

= B1

=

=2 0

? unacceptable size

=

= B1

= pass

= pass

= B+8

? unknown command

=

";
    assert_eq!(out, want);
}

/// Superko and suicide refused in GTP's error form; a graph refused at the start.
#[test]
fn illegal_moves_and_boards_are_refused() {
    let (ok, out, _) = session(
        &["2x2", "--suicide", "forbidden"],
        "play b pass\nplay w A1\nplay b pass\nplay w B2\nplay b A2\nquit\n",
    );
    assert!(ok);
    assert!(
        out.contains("? illegal move: black: suicide is forbidden"),
        "{out}"
    );
    // 2x2: Black's last A1 captures everything and leaves Black's first
    // A1 alone on the board again.
    let (ok, out, _) = session(
        &["2x2"],
        "play b A1\nplay w B1\nplay b A2\nplay w B2\nplay b A1\nplay w A2\nplay b A1\nquit\n",
    );
    assert!(ok);
    assert!(
        out.ends_with(
            "=\n\n? illegal move: black: it would repeat an earlier position (superko)\n\n=\n\n"
        ),
        "{out}"
    );
    let (ok, _, err) = session(&["cycle:5"], "quit\n");
    assert!(!ok);
    assert!(err.contains("grids only"), "{err}");
    let (ok, _, err) = session(&["3x3", "--rules", "bogus"], "quit\n");
    assert!(!ok);
    assert!(err.contains("bogus"), "{err}");
    // A damaged result file where the engine looks is an error, at the
    // start and on a boardsize that reaches it.
    let dir = std::env::temp_dir().join(format!("gosolve-gtp-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/2x2-tromp-taylor.gsr");
    let bytes = std::fs::read(good).unwrap();
    std::fs::write(dir.join("2x2-tromp-taylor.gsr"), &bytes[..bytes.len() / 2]).unwrap();
    let results = dir.to_str().unwrap();
    let (ok, _, err) = session(&["2x2", "--results", results], "quit\n");
    assert!(!ok);
    assert!(err.contains("truncated"), "{err}");
    let (ok, out, _) = session(&["3x3", "--results", results], "boardsize 2\nquit\n");
    assert!(ok);
    assert!(out.starts_with("? unacceptable size: "), "{out}");
    assert!(out.contains("truncated"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine's own reply to `command`, without GTP's framing.
fn ask(e: &mut Engine, command: &str) -> String {
    let (reply, _) = e.handle(command).unwrap();
    assert!(reply.starts_with('='), "{command}: {reply}");
    reply[1..].trim().to_string()
}

/// Black − White as `final_score` says it, in half points.
fn score(text: &str) -> i32 {
    let half = |s: &str| (s.parse::<f64>().unwrap() * 2.0).round() as i32;
    match text {
        "0" => 0,
        t if t.starts_with("B+") => half(&t[2..]),
        t if t.starts_with("W+") => -half(&t[2..]),
        t => panic!("{t}"),
    }
}

fn over(e: &Engine) -> bool {
    let board = e.board();
    let rules = gosolve::engine::rules::Rules::new(Ruleset::TrompTaylor);
    let mut g = gosolve::engine::game::Game::new(board, &rules);
    for &m in e.line() {
        g.play(m);
    }
    g.outcome().is_some()
}

/// Playing both sides, the engine ends 3x3 at +9 and 2x4 at +8.
#[test]
fn engine_against_itself_ends_with_the_solved_value() {
    for (board, value) in [("3x3", 18), ("2x4", 16)] {
        let mut e = Engine::new(board, setup()).unwrap();
        assert!(e.file().is_some());
        let mut turn = ["b", "w"].iter().cycle();
        while !over(&e) {
            ask(&mut e, &format!("genmove {}", turn.next().unwrap()));
            assert!(e.line().len() < 200, "{board}: {:?}", e.line());
        }
        assert_eq!(
            score(&ask(&mut e, "final_score")),
            value,
            "{board}: {:?}",
            e.line()
        );
    }
}

/// As Black against random legal White moves (fixed seed), the engine
/// never ends below the solved value.
#[test]
fn engine_as_black_never_ends_below_the_solved_value() {
    let mut seed: u64 = 0x00c0_ffee_1234_5678;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    // 3x3 and 2x4 are worth the whole board; 2x3 (0) leaves random White room to lose more.
    for (board, value, games) in [("3x3", 18, 20), ("2x4", 16, 20), ("2x3", 0, 20)] {
        let mut e = Engine::new(board, setup()).unwrap();
        let rules = gosolve::engine::rules::Rules::new(Ruleset::TrompTaylor);
        let mut above = 0;
        for _ in 0..games {
            ask(&mut e, "clear_board");
            while !over(&e) {
                ask(&mut e, "genmove b");
                if over(&e) {
                    break;
                }
                let mut g = gosolve::engine::game::Game::new(e.board(), &rules);
                for &m in e.line() {
                    g.play(m);
                }
                let moves = g.legal_moves();
                let m = moves[next(moves.len())];
                let name = match m {
                    Move::Pass => "pass".to_string(),
                    Move::Place(p) => e.board().point_name(p),
                };
                ask(&mut e, &format!("play w {name}"));
            }
            let s = score(&ask(&mut e, "final_score"));
            assert!(s >= value, "{board}: {s} after {:?}", e.line());
            above += usize::from(s > value);
        }
        // Random White gave points away in some games, so they were played out.
        assert!(value == 2 * e.board().len() as i32 || above > 0, "{board}");
    }
}

/// The analysis commands carry the exact values: win rates 1 / 0 for the
/// side to move, the score lead, the principal variation, and GoGui's
/// labels on every legal point.
#[test]
fn analysis_commands_give_exact_values() {
    let mut e = Engine::new("3x3", setup()).unwrap();
    let lz = ask(&mut e, "lz-analyze b 10");
    let infos: Vec<&str> = lz.split("info ").filter(|s| !s.is_empty()).collect();
    assert_eq!(infos.len(), 10);
    assert_eq!(
        infos[0].trim(),
        "move B2 visits 10 winrate 10000 prior 0 order 0 pv B2 pass pass"
    );
    assert!(
        infos[5].starts_with("move pass visits 5 winrate 0 "),
        "{}",
        infos[5]
    );
    assert_eq!(
        ask(&mut e, "gosolve-values"),
        "LABEL B2 +9 B1 +3 A2 +3 C2 +3 B3 +3 A1 -9 C1 -9 A3 -9 C3 -9\nTEXT value +9 (exact from the proof); pass -9"
    );
    ask(&mut e, "play b B2");
    let kata = ask(&mut e, "kata-analyze w 10");
    let infos: Vec<&str> = kata.split("info ").filter(|s| !s.is_empty()).collect();
    assert_eq!(infos.len(), 9);
    for i in &infos {
        assert!(
            i.contains(" utility -1 winrate 0 scoreMean -9 scoreLead -9 "),
            "{i}"
        );
    }
    assert!(infos[0].starts_with("move pass visits 9 "), "{}", infos[0]);
    assert!(infos[0].trim().ends_with("pv pass pass"), "{}", infos[0]);
    assert_eq!(ask(&mut e, "gosolve-value"), "+9 (exact from the proof)");
    let (reply, _) = e.handle("kata-analyze b").unwrap();
    assert_eq!(reply, "? illegal move: white is to move\n\n");
}
