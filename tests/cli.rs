//! The command line as a user meets it: results on stdout, clear errors on
//! stderr with a non-zero exit.

mod common;

use common::kill;
use gosolve::search::run::Kept;
use std::process::Command;

fn gosolve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gosolve"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh directory of this test process.
fn scratch(tag: &str) -> std::path::PathBuf {
    common::scratch(&format!("cli-{tag}"))
}

fn fails_with(args: &[&str], needle: &str) {
    let (ok, _, err) = gosolve(args);
    assert!(!ok, "{args:?} should fail");
    assert!(err.contains(needle), "{args:?}: `{err}` lacks `{needle}`");
}

#[test]
fn count_and_games_print_exact_figures() {
    let (ok, out, _) = gosolve(&["count", "3x3"]);
    assert!(ok);
    assert!(out.contains("legal positions of 3x3: 12675"), "{out}");
    let (ok, out, _) = gosolve(&["count", "petersen", "--method", "brute", "--json"]);
    assert!(ok);
    assert!(out.contains("\"legal_positions\":\"46015\""), "{out}");
    let (ok, out, _) = gosolve(&["games", "1x3"]);
    assert!(ok);
    assert!(out.contains(": 907"), "{out}");
    let (ok, out, _) = gosolve(&["games", "2x2", "--depth", "2", "--json"]);
    assert!(ok);
    assert!(out.contains("\"nodes\":[\"1\",\"5\",\"21\"]"), "{out}");
}

/// A board no counting method takes is an error, never a count of 0.
#[test]
fn counts_past_the_methods_limits_are_errors() {
    fails_with(
        &["count", "cube:6"],
        "`cube:6` cannot be counted: its frontier is 25 points wide (the frontier method \
         takes at most 16) and it has 64 points (brute force takes at most 40)",
    );
    fails_with(
        &["count", "complete:64", "--method", "brute"],
        "`complete:64` has 64 points, at most 40 fit",
    );
    fails_with(
        &["count", "complete:64", "--method", "frontier"],
        "the frontier of `complete:64` is 63 points wide; at most 16 fit",
    );
    let (ok, out, _) = gosolve(&["count", "star:63"]);
    assert!(ok);
    assert!(
        out.contains("legal positions of star:63: 1144561273449284238959659248041"),
        "{out}"
    );
}

/// Boards with more than 4,096 symmetries (7! = 5,040) are solved with a
/// subgroup of them, and the proof verifies.
#[test]
fn boards_with_many_symmetries_solve_and_verify() {
    let dir = scratch("symmetries");
    for (args, classes) in [
        (["star:7", "--rules", "tromp-taylor"], "\"moves\":[\"1\"]"),
        (
            ["complete:7", "--rules", "koh"],
            "\"moves\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]",
        ),
    ] {
        let out = dir.join(format!("{}.gsr", args[0].replace(':', "-")));
        let o = out.to_str().unwrap();
        let (ok, text, err) = gosolve(
            &[
                &["solve"],
                &args[..],
                &["--json", "--tt-mb", "8", "--out", o],
            ]
            .concat(),
        );
        assert!(ok, "{args:?}: {err}");
        assert!(text.contains(classes), "{args:?}: {text}");
        let (ok, text, err) = gosolve(&["verify", o]);
        assert!(ok && text.starts_with("verified"), "{args:?}: {text} {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Komi, table size and threads past what the search can take are errors
/// before any work; komi at its limit still gives exact values.
#[test]
fn search_limits_are_errors_before_any_work() {
    fails_with(
        &["solve", "2x2", "--komi", "16385", "--no-save"],
        "komi 16385 is out of range: at most 1000 points either way",
    );
    fails_with(
        &["solve", "2x2", "--komi", "-1000.5", "--no-save"],
        "komi -1000.5 is out of range",
    );
    // 2x2 is +1 and komi only shifts the score: the limits hold exactly.
    for (komi, value) in [("1000", "value: -999 "), ("-1000", "value: +1001 ")] {
        let (ok, out, err) = gosolve(&["solve", "2x2", "--komi", komi, "--no-save"]);
        assert!(ok && out.contains(value), "{komi}: {out} {err}");
    }
    fails_with(
        &[
            "solve",
            "2x2",
            "--tt-mb",
            "18446744073709551615",
            "--no-save",
        ],
        "--tt-mb 18446744073709551615: a table of 18446744073709551615 MB cannot be allocated",
    );
    fails_with(
        &["solve", "2x2", "--tt-mb", "999999999", "--no-save"],
        "--tt-mb 999999999: a table of 999999999 MB is more than this machine's",
    );
    fails_with(
        &["solve", "2x2", "--tt-mb", "0", "--no-save"],
        "--tt-mb must be at least 1",
    );
    fails_with(
        &["--threads", "1025", "count", "2x2"],
        "--threads must be at least 1 and at most 1024, not 1025",
    );
}

/// A result file edited with its checksum made right: `verify` checks every
/// claim it prints, and no reader takes a code it does not know.
#[test]
fn edited_result_files_are_refused_with_the_reason() {
    use gosolve::format::gsr;
    let dir = scratch("edited");
    let file = dir.join("3x3.gsr");
    let (f, e) = (file.to_str().unwrap(), dir.join("edited.gsr"));
    let edited = e.to_str().unwrap();
    let (ok, _, err) = gosolve(&["solve", "3x3", "--tt-mb", "8", "--out", f]);
    assert!(ok, "{err}");
    let (ok, out, _) = gosolve(&["verify", f]);
    assert!(ok);
    assert!(
        out.contains(
            "3x3: value +9 under tromp-taylor, positional superko, suicide allowed, komi 0;"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "informational, not checked: program, date, nodes, seconds, proof seconds, threads, table size"
        ),
        "{out}"
    );
    let honest = gsr::read(&file).unwrap();
    let mut t = honest.clone();
    t.board.name = "4x4".into();
    gsr::write(&e, &t).unwrap();
    fails_with(
        &["verify", edited],
        "invalid result file: the stored board name `4x4` does not match its edges: \
         `4x4` has 16 points, the stored board 9",
    );
    let mut t = honest.clone();
    t.rules.description = "tromp-taylor, positional superko, suicide allowed, komi 7".into();
    gsr::write(&e, &t).unwrap();
    fails_with(
        &["verify", edited],
        "the stored rules description `tromp-taylor, positional superko, suicide allowed, \
         komi 7` is not that of the stored rules (`tromp-taylor, positional superko, suicide \
         allowed, komi 0`)",
    );
    // A symmetry byte off the board: `show --line` along that move indexed with it.
    let mut t = honest.clone();
    let c = t.classes.iter_mut().find(|c| c.members.len() > 1).unwrap();
    c.members[1].perm[0] = 9;
    let board = gosolve::engine::board::Board::parse("3x3").unwrap();
    let name = board.point_name(c.members[1].mv - 1);
    gsr::write(&e, &t).unwrap();
    let why = "the symmetry of move code";
    fails_with(&["show", edited, "--line", &name], why);
    fails_with(&["show", edited], why);
    fails_with(&["export", edited, "--sgf"], why);
    fails_with(&["verify", edited], why);
    std::fs::remove_dir_all(&dir).ok();
}

/// Two board files of one name in two folders: two result files.
#[test]
fn file_boards_of_one_name_get_their_own_result_files() {
    let dir = scratch("names");
    for (sub, edges) in [("ga", "0 1\n1 2\n"), ("gb", "points 3\n0 1\n")] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("g.txt"), edges).unwrap();
    }
    let mut paths = Vec::new();
    for sub in ["ga", "gb"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gosolve"))
            .args([
                "solve",
                &format!("file:{sub}/g.txt"),
                "--tt-mb",
                "8",
                "--json",
            ])
            .current_dir(&dir)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        paths.push(v["result_file"].as_str().unwrap().to_string());
    }
    // The stem, a digest of the points and edges, the rules.
    assert!(paths[0].starts_with("results/g-") && paths[0].ends_with("-tromp-taylor.gsr"));
    assert_eq!(paths[0].len(), "results/g-12345678-tromp-taylor.gsr".len());
    assert_ne!(paths[0], paths[1]);
    for p in &paths {
        assert!(dir.join(p).exists(), "{p}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// An output that cannot be written is an error before the search: no
/// value is printed, nothing is left behind.
#[test]
fn an_unwritable_output_fails_before_the_search() {
    let dir = scratch("unwritable");
    let blocker = dir.join("not-a-folder");
    std::fs::write(&blocker, "").unwrap();
    for out in [blocker.join("y.gsr"), dir.clone()] {
        let o = out.to_str().unwrap();
        let (ok, stdout, err) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--out", o]);
        assert!(!ok);
        assert!(
            err.contains(&format!("error: a file cannot be written at {o}: ")),
            "{err}"
        );
        assert_eq!(stdout, "", "searched before finding out");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Threads the system will not start (here: a memory limit smaller than
/// the search threads' stacks) are an error, not a panic, and leave no
/// file behind. Linux only: it sets the limit with the shell's `ulimit`.
#[cfg(target_os = "linux")]
#[test]
fn threads_the_system_refuses_are_an_error_not_a_panic() {
    let dir = scratch("no-threads");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1500000 && exec \"$0\" --threads 2 solve 2x2 --tt-mb 8 --out \"$1\"")
        .arg(env!("CARGO_BIN_EXE_gosolve"))
        .arg(dir.join("2x2.gsr"))
        .current_dir(&dir)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: cannot start 2 search threads: "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_boards_are_rejected_clearly() {
    fails_with(&["count", "hexagon"], "unknown board `hexagon`");
    fails_with(&["count", "9x9"], "81 points; at most 64");
    fails_with(&["count", "complete:70"], "at most 64");
    // The count of points, not of leaves or dimensions.
    fails_with(&["board", "star:64"], "has 65 points; at most 64");
    fails_with(&["board", "cube:7"], "has 128 points; at most 64");
    fails_with(&["board", "cube:99"], "2^99 points");
    if std::path::Path::new("/dev/zero").exists() {
        fails_with(&["board", "file:/dev/zero"], "longer than 1048576 bytes");
    }
    fails_with(&["count", "file:/no/such/file"], "cannot read board file");
    let dir = scratch("files");
    let lp = dir.join("loop.txt");
    std::fs::write(&lp, "0 1\n1 1\n").unwrap();
    fails_with(
        &["count", &format!("file:{}", lp.display())],
        "line 2: self-loop",
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# ring\n0 1\n1 2 3\n").unwrap();
    fails_with(&["count", &format!("file:{}", bad.display())], "line 3:");
    let twice = dir.join("twice.txt");
    std::fs::write(&twice, "points 3\n0 1\npoints 4\n").unwrap();
    fails_with(
        &["board", &format!("file:{}", twice.display())],
        "line 3: a second `points` line",
    );
    let ring = dir.join("ring.txt");
    std::fs::write(&ring, "points 4\n0 1\n1 2\n2 3\n3 0\n").unwrap();
    let (ok, out, _) = gosolve(&["count", &format!("file:{}", ring.display())]);
    assert!(ok);
    // The 4-cycle: the same count as cycle:4.
    let (_, want, _) = gosolve(&["count", "cycle:4"]);
    assert_eq!(
        out.lines().next().unwrap().rsplit(' ').next(),
        want.lines().next().unwrap().rsplit(' ').next()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_options_are_rejected_clearly() {
    fails_with(
        &["games", "1x3", "--rules", "japanese"],
        "unknown ruleset `japanese`",
    );
    fails_with(&["games", "1x3", "--komi", "0.3"], "bad komi");
    fails_with(
        &["games", "1x3", "--rules", "conway", "--komi", "1"],
        "komi does not apply",
    );
    fails_with(&["games", "1x3", "--start", "XO"], "the board `1x3` has 3");
    fails_with(&["games", "1x3", "--start", "XO."], "no liberty");
    fails_with(
        &["games", "1x3", "--rules", "koh", "--superko", "situational"],
        "no superko option",
    );
    fails_with(&["--threads", "0", "count", "2x2"], "at least 1");
}

#[test]
fn board_shows_coordinates() {
    let (ok, out, _) = gosolve(&["board", "2x3"]);
    assert!(ok);
    assert!(
        out.starts_with("2x3: 6 points, 7 edges\n2 . . .\n1 . . .\n  A B C\n"),
        "{out}"
    );
    assert!(out.contains("  B1: A1 C1 B2"), "{out}");
}

#[test]
fn solve_prints_value_moves_and_variation() {
    let (ok, out, _) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--no-save"]);
    assert!(ok);
    assert!(out.contains("value: +1 (Black wins by 1)"), "{out}");
    assert!(out.contains("+1: A1 B1 A2 B2"), "{out}");
    assert!(out.contains("-1: pass"), "{out}");
    assert!(out.contains("principal variation"), "{out}");
    let (ok, out, _) = gosolve(&["solve", "1x3", "--json", "--tt-mb", "8", "--no-save"]);
    assert!(ok);
    assert!(
        out.contains("\"value\":3,") && out.contains("\"moves\":[\"B1\"]"),
        "{out}"
    );
    let (ok, out, _) = gosolve(&[
        "solve",
        "1x1",
        "--rules",
        "conway",
        "--tt-mb",
        "8",
        "--no-save",
    ]);
    assert!(ok);
    assert!(out.contains("value: White wins"), "{out}");
    fails_with(
        &["solve", "2x2", "--rules", "conway", "--superko", "none"],
        "no ties",
    );
}

/// A solve stopped part way keeps the first-move values it found; the next
/// run of the same solve takes them, and a resume file that belongs to
/// another solve, or is damaged, stops it with a clear error.
#[test]
fn an_interrupted_solve_resumes_its_finished_first_moves() {
    use gosolve::engine::board::Board;
    use gosolve::engine::rules::{RuleOptions, Rules, Ruleset};
    use gosolve::engine::types::Move;
    use gosolve::search::root::RootLog;
    use gosolve::store::resume::{Resume, path_for};
    let dir = scratch("resume");
    let out = dir.join("3x3.gsr");
    let o = out.to_str().unwrap();
    let args = ["solve", "3x3", "--json", "--tt-mb", "8", "--out", o];
    let (ok, whole, err) = gosolve(&args);
    assert!(ok, "{err}");
    assert!(whole.contains("\"resumed_classes\":0"), "{whole}");
    // A short solve leaves no resume file.
    let resume = path_for(&out);
    assert!(!resume.exists());

    // The centre class as an interrupted run recorded it (+9 for Black).
    let board = Board::parse("3x3").unwrap();
    let rules = Rules::build(Ruleset::TrompTaylor, &RuleOptions::default(), &board).unwrap();
    let log = Resume::open(&resume, &board, &rules)
        .unwrap()
        .save_after(std::time::Duration::ZERO);
    log.record(Move::Place(4), 18, 1000);
    assert!(resume.exists());
    let (ok, again, err) = gosolve(&args);
    assert!(ok, "{err}");
    assert!(again.contains("\"resumed_classes\":1"), "{again}");
    let first_moves =
        |j: &str| j[j.find("\"first_moves\"").unwrap()..j.find("\"pv\"").unwrap()].to_string();
    assert_eq!(first_moves(&again), first_moves(&whole));
    assert!(!resume.exists(), "a finished solve removes its resume file");
    let (ok, shown, _) = gosolve(&["verify", o]);
    assert!(ok && shown.contains("verified"), "{shown}");

    // And a strategy the interrupted run extracted, Black's for the centre.
    let centre_black = |f: &gosolve::format::gsr::ResultFile| {
        let centre = f.classes.iter().position(|c| c.members[0].mv == 5).unwrap();
        let p = f
            .proofs
            .iter()
            .find(|p| p.class as usize == centre && p.owner == 1);
        p.unwrap().clone()
    };
    let p = centre_black(&gosolve::format::gsr::read(&out).unwrap());
    let st = gosolve::search::proof::Strategy {
        owner: gosolve::engine::types::Color::Black,
        bound: p.bound,
        nodes: p.nodes,
        bytes: p.bytes.clone(),
    };
    let log = Resume::open(&resume, &board, &rules)
        .unwrap()
        .save_after(std::time::Duration::ZERO);
    log.record(Move::Place(4), 18, 1000);
    log.record_strategy(Move::Place(4), &st);
    let (ok, again, err) = gosolve(&args);
    assert!(ok, "{err}");
    assert!(again.contains("\"resumed_strategies\":1"), "{again}");
    // (Other strategies may differ: the table is filled differently.)
    assert!(centre_black(&gosolve::format::gsr::read(&out).unwrap()) == p);
    let (ok, shown, _) = gosolve(&["verify", o]);
    assert!(ok && shown.contains("verified"), "{shown}");
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 1, "only the result file is left");

    // A damaged strategy file is extracted again; the values stay.
    log.record(Move::Place(4), 18, 1000);
    log.record_strategy(Move::Place(4), &st);
    let kept = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path());
    let proof_file = kept
        .into_iter()
        .find(|p| p.to_str().unwrap().ends_with("-black"))
        .unwrap();
    std::fs::write(&proof_file, b"x").unwrap();
    let (ok, again, err) = gosolve(&args);
    assert!(
        ok && err.contains("extracting that strategy again"),
        "{err}"
    );
    assert!(again.contains("\"resumed_classes\":1"), "{again}");
    assert!(again.contains("\"resumed_strategies\":0"), "{again}");
    let (ok, shown, _) = gosolve(&["verify", o]);
    assert!(ok && shown.contains("verified"), "{shown}");

    // Bounds an interrupted run's finished tests proved on a class still
    // to value (the corner, -9) are taken; bounds no game has are refused.
    assert!(!resume.exists());
    let bounds = Resume::open(&resume, &board, &rules)
        .unwrap()
        .save_after(std::time::Duration::ZERO);
    bounds.record_bounds(Move::Place(0), -18, 0, 1000);
    let plain = ["solve", "3x3", "--tt-mb", "8", "--out", o];
    let (ok, shown, err) = gosolve(&plain);
    assert!(ok, "{err}");
    assert!(
        err.contains("resuming: bounds on 1 first-move class from an interrupted run"),
        "{err}"
    );
    assert!(
        shown.contains("value: +9") && shown.contains("-9: A1 C1 A3 C3"),
        "{shown}"
    );
    assert!(!resume.exists());
    for (lo, hi) in [(5, 3), (-18, 19)] {
        bounds.record_bounds(Move::Place(0), lo, hi, 1000);
        fails_with(&args, &format!("no game here has a value in {lo}..={hi}"));
    }
    // Bounds beside the class's value: one of them is not what a run wrote.
    bounds.record(Move::Place(0), -18, 1000);
    bounds.record_bounds(Move::Place(0), -18, 0, 1000);
    fails_with(&args, "not a new legal first move still to value");
    std::fs::remove_file(&resume).unwrap();

    // Another solve's file, a damaged one, or one with a value no game
    // can end with, is never taken or replaced; --fresh discards it.
    log.record(Move::Place(4), 18, 1000);
    let komi = ["solve", "3x3", "--komi", "0.5", "--tt-mb", "8", "--out", o];
    fails_with(
        &komi,
        "not of 3x3 under tromp-taylor, positional superko, suicide allowed, komi 0.5",
    );
    let white = [
        "solve",
        "3x3",
        "--start",
        "W: .../.../...",
        "--tt-mb",
        "8",
        "--out",
        o,
    ];
    fails_with(&white, "with White to move");
    std::fs::write(&resume, b"{\"format\":").unwrap();
    fails_with(&args, "run with --fresh to start the solve over");
    assert_eq!(std::fs::read(&resume).unwrap(), b"{\"format\":");
    std::fs::remove_file(&resume).unwrap();
    log.record(Move::Place(0), 37, 1000);
    fails_with(&args, "no game here ends with value 37");
    let fresh = [
        "solve", "3x3", "--json", "--tt-mb", "8", "--out", o, "--fresh",
    ];
    let (ok, again, err) = gosolve(&fresh);
    assert!(ok && again.contains("\"resumed_classes\":0"), "{err}");
    assert!(!resume.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn result_files_are_written_verified_shown_and_exported() {
    let dir = scratch("result-files");
    let file = dir.join("2x2.gsr");
    let f = file.to_str().unwrap();
    let (ok, out, _) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--out", f]);
    assert!(ok && out.contains("result file:"), "{out}");
    let (ok, out, _) = gosolve(&["verify", f]);
    assert!(ok && out.starts_with("verified\n"), "{out}");
    let (ok, out, _) = gosolve(&["show", f]);
    assert!(ok, "{out}");
    assert!(out.contains("value: +1\n"), "{out}");
    assert!(out.contains("+1: A1 B1 A2 B2"), "{out}");
    assert!(out.contains("-1: pass"), "{out}");
    // Black A1, White B2: Black's stored answer, and the value there.
    let (ok, out, _) = gosolve(&["show", f, "--line", "A1 B2"]);
    assert!(ok, "{out}");
    assert!(out.contains("value here: +1"), "{out}");
    let (ok, out, _) = gosolve(&["export", f, "--sgf"]);
    assert!(ok && out.starts_with("(;FF[4]GM[1]"), "{out}");
    assert!(out.contains("SZ[2]") && out.contains("RE[B+1]"), "{out}");
    assert!(out.contains("(;B[]C[Value -1.])"), "{out}");
    let (ok, out, _) = gosolve(&["export", f, "--csv"]);
    assert!(
        ok && out.starts_with("value,moves,claim\n+1,A1 B1 A2 B2,exact\n-1,pass,exact\n"),
        "{out}"
    );
    fails_with(&["show", f, "--line", "Z9"], "not a point");
    fails_with(&["show", f, "--line", "A1 A1"], "not legal");
    // Damage: a flipped byte, a truncated file, a missing file.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let bad = dir.join("bad.gsr");
    std::fs::write(&bad, &bytes).unwrap();
    fails_with(&["verify", bad.to_str().unwrap()], "checksum");
    std::fs::write(&bad, &bytes[..30]).unwrap();
    fails_with(&["show", bad.to_str().unwrap()], "truncated");
    fails_with(
        &["verify", dir.join("none.gsr").to_str().unwrap()],
        "none.gsr",
    );
    // Each of the three formats would do: the error names them all.
    fails_with(&["export", f], "<--sgf|--html|--csv>");
    fails_with(&["export", f, "--sgf", "--html"], "cannot be used with");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_reports_agreement_disagreement_and_skips() {
    let dir = scratch("check");
    let table = dir.join("t.txt");
    std::fs::write(
        &table,
        "# a tiny table\n\
         legal | 2x2 | - | 57 | test\n\
         value | 1x3 | tromp-taylor | 3 | test\n\
         games | 1x3 | tromp-taylor | 906 | deliberately wrong\n\
         value | 2x2 | unsupported:japanese territory scoring | 1 | test\n",
    )
    .unwrap();
    let t = table.to_str().unwrap();
    let (ok, out, err) = gosolve(&["check", "--table", t, "--budget", "30"]);
    assert!(!ok, "{out}");
    assert!(err.contains("1 published figures disagree"), "{err}");
    assert!(out.contains("2 agree, 1 disagree, 1 skipped"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("DISAGREE") && l.contains("906") && l.contains("907")),
        "{out}"
    );
    assert!(
        out.contains("does not implement: japanese territory scoring"),
        "{out}"
    );
    std::fs::write(&table, "legal | 2x2 | - | 57 | test\nvalue | 2x2 | 1\n").unwrap();
    fails_with(&["check", "--table", t], "line 2");
    std::fs::write(&table, "legal | 2x2 | - | 57 | fine\n").unwrap();
    let (ok, out, _) = gosolve(&["check", "--table", t, "--json"]);
    assert!(ok && out.contains("\"agree\":1"), "{out}");
    fails_with(&["check", "--table", t, "--budget", "0"], "--budget");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 1x7's first moves: B1 and D1 +2, then pass and C1 0 with suicide
/// allowed, -2 with it forbidden; Drange's ranks count tied moves apart.
#[test]
fn check_ranks_the_second_and_third_best_first_moves() {
    let dir = scratch("ranked");
    let table = dir.join("t.txt");
    std::fs::write(
        &table,
        "second | 1x7 | tromp-taylor | 2 | tie with the best\n\
         third | 1x7 | tromp-taylor --suicide forbidden | -2 | test\n\
         second | 1x7 | tromp-taylor --first-moves bounds | 0 | deliberately wrong\n\
         second | 2x2 | tromp-taylor --first-moves bounds | 0 | pass only bounded\n\
         third | 1x2 | tromp-taylor | 0 | two first moves\n",
    )
    .unwrap();
    let t = table.to_str().unwrap();
    let (ok, out, _) = gosolve(&["check", "--table", t, "--budget", "30"]);
    assert!(!ok, "{out}");
    assert!(out.contains("2 agree, 1 disagree, 2 skipped"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("DISAGREE")
            && l.contains("second")
            && l.contains("deliberately wrong")),
        "{out}"
    );
    assert!(
        out.contains("ranked above it has only a bound") && out.contains("only 2 first moves"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cgt_prints_canonical_form_mean_and_temperature() {
    let (ok, out, _) = gosolve(&["cgt", "{3|-2}"]);
    assert!(ok);
    assert!(out.contains("mean:        1/2"), "{out}");
    assert!(out.contains("temperature: 5/2"), "{out}");
    let (ok, out, _) = gosolve(&["cgt", "{4|{3|{2|0}}}", "--chill", "--json"]);
    assert!(ok);
    assert!(out.contains("\"value\":\"3^^*\""), "{out}");
    let (ok, out, _) = gosolve(&["cgt", "-1/2"]);
    assert!(ok && out.contains("outcome:     R"), "{out}");
    fails_with(&["cgt", "{1|"], "'{1|'");
    let svg = std::env::temp_dir().join(format!("gosolve-cgt-{}.svg", std::process::id()));
    let (ok, _, _) = gosolve(&["cgt", "{3|-2}", "--thermograph", svg.to_str().unwrap()]);
    let drawn = std::fs::read_to_string(&svg).unwrap_or_default();
    let _ = std::fs::remove_file(&svg);
    assert!(
        ok && drawn.contains("<polyline") && drawn.contains("temperature 5/2"),
        "{drawn}"
    );
}

#[test]
fn cgt_reads_go_regions_and_sums() {
    let (ok, out, _) = gosolve(&["cgt", "corridor:blocked:4"]);
    assert!(ok);
    assert!(out.contains("2 W . . . . B"), "{out}");
    assert!(out.contains("game:        {3|{2|{1|*}}}"), "{out}");
    assert!(out.contains("black first: wins with B2 in term 1"), "{out}");
    let (ok, out, _) = gosolve(&["cgt", "eye:2 + dame + corridor:unblocked:5"]);
    assert!(ok);
    assert!(
        out.contains("term 3:      corridor:unblocked:5 = {2|{1|*}}"),
        "{out}"
    );
    assert!(out.contains("outcome:     L"), "{out}");
    assert!(out.contains("white first: loses"), "{out}");
    // ↑* is won by whoever moves first: Black takes the dame, White ↑'s *.
    let (ok, out, _) = gosolve(&["cgt", "dame + ^", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], "^*", "{out}");
    let first = |side: &str| {
        let w = &v[side];
        (w["after"].clone(), w["play"].clone(), w["term"].clone())
    };
    assert_eq!(first("black_first"), ("^".into(), "B2".into(), 1.into()));
    assert_eq!(first("white_first"), ("0".into(), "*".into(), 2.into()));
    let (ok, out, _) = gosolve(&["cgt", "corridor:blocked:5", "--chill"]);
    assert!(ok && out.contains("chilled:     49/16"), "{out}");
    let (ok, out, _) = gosolve(&["cgt", "eye:2", "--prisoners-only"]);
    assert!(ok && out.contains("game:        3/2"), "{out}");
    let (ok, out, _) = gosolve(&["cgt", "[BBW/B.W/BWW] - dame"]);
    assert!(ok && out.contains("game:        0"), "{out}");
    let dir = scratch("region");
    let file = dir.join("corner-eye.txt");
    std::fs::write(&file, "BBBB\nB..B\nB.BB\nBBB\n").unwrap();
    let (ok, out, _) = gosolve(&["cgt", &format!("file:{} + -1", file.display())]);
    assert!(ok && out.contains("game:        2"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cgt_rejects_bad_regions_clearly() {
    fails_with(&["cgt", "eye:0"], "from 1 to 18");
    fails_with(&["cgt", "corridor:blocked:19"], "from 1 to 18");
    // Limits with a reason instead of a run without a word.
    fails_with(&["cgt", "*65"], "nimbers above *64 are not supported");
    fails_with(
        &["cgt", "[BBBBBBBBBBBBBBBBBBBBBB/B....................B]"],
        "20 empty points in one connected part; at most 18",
    );
    fails_with(
        &["cgt", "corridor:open:3"],
        "unknown region `corridor:open:3`",
    );
    fails_with(&["cgt", "eye"], "needs a size");
    fails_with(&["cgt", "[B.Q]"], "unexpected `Q`");
    fails_with(&["cgt", "[WXW]"], "has no liberty");
    fails_with(&["cgt", "eye:2 +"], "a term is missing");
    fails_with(&["cgt", "file:/no/such/region.txt"], "/no/such/region.txt");
}

/// Every `--json` output is valid JSON whatever the names in it, and
/// `show` gives values as numbers, as `solve` does.
#[test]
fn json_outputs_are_valid_and_values_are_numbers() {
    let dir = scratch("json");
    let odd = dir.join("a\"b\\c.txt");
    std::fs::write(&odd, "points 3\n0 1\n1 2\n").unwrap();
    let spec = format!("file:{}", odd.display());
    let parse = |out: &str| -> serde_json::Value {
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
    };
    for args in [
        vec!["count", spec.as_str(), "--json"],
        vec!["games", spec.as_str(), "--json"],
        vec!["games", spec.as_str(), "--depth", "2", "--json"],
        vec!["solve", spec.as_str(), "--no-save", "--json"],
    ] {
        let (ok, out, err) = gosolve(&args);
        assert!(ok, "{args:?}: {err}");
        let v = parse(&out);
        assert!(v["board"].as_str().unwrap().contains("a\"b\\c"), "{v}");
    }
    // The path 1x3 under `logical`, komi 0.5: a value with a half point.
    let file = dir.join("1x3.gsr");
    let f = file.to_str().unwrap();
    let (ok, out, err) = gosolve(&[
        "solve", "1x3", "--komi", "0.5", "--tt-mb", "8", "--out", f, "--json",
    ]);
    assert!(ok, "{err}");
    let solved = parse(&out)["value"].clone();
    assert!(solved.is_number(), "{solved}");
    let (ok, out, err) = gosolve(&["show", f, "--json"]);
    assert!(ok, "{err}");
    let shown = parse(&out);
    assert_eq!(shown["value"], solved);
    assert!(shown["first_moves"][0]["value"].is_number(), "{shown}");
    let (ok, out, err) = gosolve(&["show", f, "--line", "B1", "--json"]);
    assert!(ok, "{err}");
    assert!(parse(&out)["strategies"][0]["bound"].is_number(), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Solving again into a file that already holds the same values with a
/// proof that verifies leaves it byte for byte (the README's first
/// command must not dirty the checkout); other values replace it.
#[test]
fn a_rerun_leaves_a_result_file_that_holds_its_values() {
    let dir = scratch("rerun");
    let file = dir.join("2x2.gsr");
    let f = file.to_str().unwrap();
    let (ok, out, err) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--out", f]);
    assert!(ok && out.contains("strategies, proof"), "{out}{err}");
    let before = std::fs::read(&file).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let (ok, out, err) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--out", f]);
    assert!(ok && out.contains("left as it was"), "{out}{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let (ok, out, err) = gosolve(&["solve", "2x2", "--komi", "1", "--tt-mb", "8", "--out", f]);
    assert!(ok && out.contains("strategies, proof"), "{out}{err}");
    assert_ne!(std::fs::read(&file).unwrap(), before);
    std::fs::remove_dir_all(&dir).ok();
}

/// A solve from a given start shows that start and who moves first, in
/// the text and in JSON; the empty start with Black first adds no lines.
#[test]
fn a_start_position_is_shown_with_who_moves_first() {
    let args = [
        "solve",
        "2x3",
        "--start",
        "W: .X./...",
        "--tt-mb",
        "8",
        "--no-save",
    ];
    let (ok, out, err) = gosolve(&args);
    assert!(ok, "{err}");
    let head: Vec<&str> = out.lines().take(6).collect();
    assert_eq!(
        head,
        [
            "2x3 under tromp-taylor, positional superko, suicide allowed, komi 0",
            "start: .X./... (White moves first)",
            "2 . X .",
            "1 . . .",
            "  A B C",
            "value: -2 (White wins by 2)",
        ]
    );
    let (ok, out, err) = gosolve(&[&args[..], &["--json"]].concat());
    assert!(ok, "{err}");
    assert!(
        out.contains("\"start\":\".X./...\",\"first_to_move\":\"white\""),
        "{out}"
    );
    let (ok, out, _) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--no-save"]);
    assert!(ok);
    assert_eq!(out.lines().nth(1), Some("value: +1 (Black wins by 1)"));
    let (ok, out, _) = gosolve(&["solve", "2x2", "--tt-mb", "8", "--no-save", "--json"]);
    assert!(ok);
    assert!(
        out.contains("\"start\":\"../..\",\"first_to_move\":\"black\""),
        "{out}"
    );
}

/// Sends `child` SIGINT once `ready` holds (within 2 minutes, or fails
/// saying `never`) and waits for it.
fn ctrl_c_once(
    child: std::process::Child,
    ready: impl Fn() -> bool,
    never: &str,
) -> std::process::Output {
    wait_until(ready, never);
    kill("-INT", &child);
    child.wait_with_output().unwrap()
}

/// Returns once `ready` holds; fails saying `never` after 2 minutes.
fn wait_until(ready: impl Fn() -> bool, never: &str) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(start.elapsed().as_secs() < 120, "{never}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Ctrl-C during a solve ends it with status 130 and says what was kept,
/// where, and how to go on; the resume file holds it for the rerun.
#[test]
fn ctrl_c_says_what_was_kept_and_how_to_resume() {
    use gosolve::engine::board::Board;
    use gosolve::engine::rules::Rules;
    use gosolve::engine::types::Move;
    use gosolve::search::root::RootLog;
    use gosolve::store::resume::{Resume, path_for};
    use std::process::Stdio;
    let dir = scratch("ctrl-c");
    let out = dir.join("4x4.gsr");
    let o = out.to_str().unwrap();
    let resume = path_for(&out);
    let board = Board::parse("4x4").unwrap();
    let rules = Rules::new(gosolve::engine::rules::Ruleset::TrompTaylor);
    // 4x4's corner class as an interrupted run recorded it (-16 for
    // Black); each other class takes minutes on one thread.
    Resume::open(&resume, &board, &rules)
        .unwrap()
        .save_after(std::time::Duration::ZERO)
        .record(Move::Place(0), -32, 1000);
    let interrupt = |extra: &[&str]| {
        let args = [
            "--threads",
            "1",
            "solve",
            "4x4",
            "--tt-mb",
            "16",
            "--out",
            o,
        ];
        let child = Command::new(env!("CARGO_BIN_EXE_gosolve"))
            .args(args)
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once the solve catches SIGINT (bit 2 of the caught signals' mask).
        let status = format!("/proc/{}/status", child.id());
        let caught = || {
            let s = std::fs::read_to_string(&status).unwrap_or_default();
            let mask = s.lines().find_map(|l| l.strip_prefix("SigCgt:"));
            mask.and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
                .is_some_and(|m| m & 1 << 1 != 0)
        };
        let out = ctrl_c_once(child, caught, "SIGINT never caught");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let r = resume.display();
    assert_eq!(
        interrupt(&[]),
        (
            Some(130),
            format!(
                "resuming: 1 first-move class value from an interrupted run ({r})\n\
                 interrupted: kept 1 first-move class value in {r}\n\
                 run the same command again to resume from there\n"
            )
        )
    );
    let kept = Resume::open(&resume, &board, &rules).unwrap();
    assert_eq!(kept.loaded(), 1);
    // `--fresh` discards the file first: nothing was valued when stopped.
    assert_eq!(
        interrupt(&["--fresh"]),
        (
            Some(130),
            "interrupted before a first-move class had a finished test: nothing was kept, \
             and running the command again starts over\n"
                .to_string()
        )
    );
    assert!(!resume.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C in the middle of the value search writes the search table
/// beside the resume file; the rerun says it starts from it, finishes with
/// the right value and removes it with the resume file.
#[test]
fn ctrl_c_keeps_the_search_table_for_the_rerun() {
    use gosolve::store::resume::{path_for, table_path};
    let (dir, out) = stopped_mid_search("table", "-INT", "interrupted", 130);
    let o = out.to_str().unwrap();
    let (resume, table) = (path_for(&out), table_path(&path_for(&out)));
    let t = table.display().to_string();
    // The rerun, on two threads with the guide: the same solve.
    let (ok, text, err) = gosolve(&["solve", "4x4", "--tt-mb", "64", "--out", o]);
    assert!(ok, "{err}");
    assert!(
        err.starts_with("resuming from an interrupted run: ")
            && err.contains("the search table (")
            && err.contains(&format!(" MB on disk, {t})\n")),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    assert!(text.contains("value: +2"), "{text}");
    assert!(!resume.exists() && !table.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGTERM (`kill`, `timeout`, a cluster's scheduler at the end of a
/// job's time) stops a solve as Ctrl-C does, writing the search table and
/// saying so, with status 143.
#[test]
fn sigterm_keeps_the_search_table_as_ctrl_c_does() {
    let (dir, out) = stopped_mid_search("sigterm", "-TERM", "terminated", 143);
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A board the guide cannot take for its size alone (5x5) is solved
/// without it, and the solve says so first.
#[test]
fn a_solve_above_the_guide_size_says_it_goes_without() {
    use std::io::BufRead;
    use std::process::Stdio;
    let dir = scratch("no-guide");
    let out = dir.join("5x5.gsr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gosolve"))
        .args(["--threads", "1", "solve", "5x5", "--tt-mb", "16"])
        .args(["--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    kill("-INT", &child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{first}{rest}");
    assert!(
        first.starts_with(
            "note: no guide table above 20 points (this board has 25): df-pn runs without it"
        ),
        "{first}{rest}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same signal twice within a second (`timeout` sends it to the
/// command and then to its own process group) is taken once: the table is
/// written and the solve says what it kept, rather than ending at once.
#[test]
fn a_signal_sent_twice_at_once_is_taken_once() {
    let dir = scratch("twice");
    let child = slow_4x4_checkpointed(&dir.join("4x4.gsr"));
    kill("-INT", &child);
    kill("-INT", &child);
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted: kept ") && !err.contains("interrupted again"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A slow 4x4 solve into a scratch directory `name`, sent `signal` once
/// its first table checkpoint is written: it ends with `status` and says,
/// each line opening with `stop`, that it writes the table and what it
/// kept. Returns the directory and the result file's path.
fn stopped_mid_search(
    name: &str,
    signal: &str,
    stop: &str,
    status: i32,
) -> (std::path::PathBuf, std::path::PathBuf) {
    use gosolve::store::resume::{path_for, table_path};
    let dir = scratch(name);
    let out = dir.join("4x4.gsr");
    let table = table_path(&path_for(&out));
    let child = slow_4x4_checkpointed(&out);
    kill(signal, &child);
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(status), "{err}");
    let t = table.display().to_string();
    assert!(
        err.starts_with(&format!(
            "{stop}: writing the search table to {t} (a few seconds per GB)\n"
        )),
        "{err}"
    );
    let kept = err.lines().nth(1).unwrap_or_default();
    assert!(
        kept.starts_with(&format!("{stop}: kept ")) && kept.ends_with(&format!(" entries) in {t}")),
        "{err}"
    );
    assert!(table.exists());
    (dir, out)
}

/// [`slow_4x4`] into `out`, checkpointing its table every second, once
/// its first checkpoint is written.
fn slow_4x4_checkpointed(out: &std::path::Path) -> std::process::Child {
    use gosolve::store::resume::{path_for, table_path};
    use std::process::Stdio;
    let table = table_path(&path_for(out));
    // Its first checkpoint comes after a second of value search.
    let child = slow_4x4()
        .args(["--checkpoint-every", "1", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until(|| table.exists(), "no checkpoint written");
    child
}

/// A 4x4 solve on one thread without the guide: its value search takes
/// minutes.
fn slow_4x4() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    c.args([
        "--threads",
        "1",
        "solve",
        "4x4",
        "--tt-mb",
        "64",
        "--no-guide",
    ]);
    c
}

/// A solve past its memory limit (`GOSOLVE_MEMORY_MB`, here 1 MB and 20
/// MB, passed at once) stops as Ctrl-C stops it, with status 1 and the reason, and
/// writes no result file; a limit that is not a number is an error.
#[test]
fn a_solve_past_its_memory_limit_stops_and_says_so() {
    let dir = scratch("memory");
    let out = dir.join("4x4.gsr");
    let o = out.to_str().unwrap();
    // Stderr of the slow 4x4 stopped at `mb`, with `args` more.
    let stopped_at = |mb: &str, args: &[&str]| {
        let stopped = slow_4x4()
            .args(args)
            .current_dir(&dir)
            .env("GOSOLVE_MEMORY_MB", mb)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&stopped.stderr).into_owned();
        assert_eq!(stopped.status.code(), Some(1), "{err}");
        err
    };
    let err = stopped_at("1", &["--out", o]);
    assert!(
        err.starts_with("stopped: the solve held ")
            && err.contains(
                " MB, past the 1 MB this machine can give it (GOSOLVE_MEMORY_MB); \
                 `--no-save` skips the proof's extraction"
            )
            && err.ends_with(
                "stopped before a first-move class had a finished test: nothing was kept, \
                 and running the command again starts over\n"
            ),
        "{err}"
    );
    assert!(!out.exists());
    // The limit in its own units (2^20 bytes: 20 read "21 MB" before),
    // and a hint that fits a run without a proof.
    let err = stopped_at("20", &["--no-save"]);
    assert!(
        err.contains(
            " MB, past the 20 MB this machine can give it (GOSOLVE_MEMORY_MB); \
             a smaller table (`--tt-mb`) leaves more room"
        ),
        "{err}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_gosolve"))
        .args(["solve", "2x2", "--no-save"])
        .env("GOSOLVE_MEMORY_MB", "lots")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert!(
        err.contains("GOSOLVE_MEMORY_MB is `lots`: give a whole number of megabytes, at least 1"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--first-moves bounds`: the worse first moves shown as bounds, the file
/// written beside the exact one's name (`-bounds`), verified, shown and
/// exported with its claims; a line into a bound class has no value there.
#[test]
fn first_move_bounds_are_written_shown_and_exported() {
    let dir = scratch("bounds");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gosolve"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{args:?}: {text}");
        text
    };
    let out = run(&["--threads", "1", "solve", "1x7", "--first-moves", "bounds"]);
    assert!(out.contains("value: +2 "), "{out}");
    assert!(out.contains("≤ "), "{out}");
    let f = "results/1x7-tromp-taylor-bounds.gsr";
    assert!(dir.join(f).exists() && !dir.join("results/1x7-tromp-taylor.gsr").exists());
    assert!(run(&["verify", f]).starts_with("verified\n"));
    let shown = run(&["show", f]);
    let bound = shown
        .lines()
        .find(|l| l.contains(": ") && l.trim_start().starts_with('≤'))
        .expect("a bound in the table");
    let first = bound.split(": ").nth(1).unwrap().split(' ').next().unwrap();
    let line = run(&["show", f, "--line", first]);
    assert!(line.contains("class has only a bound"), "{line}");
    assert!(run(&["export", f, "--csv"]).contains(",at most\n"));
    assert!(run(&["export", f, "--sgf"]).contains("C[Value ≤ "));
    let json = run(&["show", f, "--json"]);
    assert!(json.contains(r#""claim":"at most""#), "{json}");
    let json = run(&[
        "solve",
        "1x7",
        "--first-moves",
        "bounds",
        "--no-save",
        "--json",
    ]);
    assert!(json.contains(r#""claim":"exact""#), "{json}");
    fails_with(&["solve", "1x7", "--first-moves", "some"], "--first-moves");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A verify past its memory limit (`GOSOLVE_MEMORY_MB`, here 1 MB,
/// passed at once) stops with status 1 and says why and that the file is
/// not verified, rather than be ended by the system with nothing said;
/// with `--json` the reason is the JSON result.
#[test]
fn a_verify_past_its_memory_limit_stops_and_says_so() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/results/3x3-tromp-taylor.gsr");
    for json in [false, true] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gosolve"));
        c.args(["verify", file]).env("GOSOLVE_MEMORY_MB", "1");
        if json {
            c.arg("--json");
        }
        let o = c.output().unwrap();
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.starts_with("stopped: the verify held ")
                && err.contains(" MB, past the 1 MB this machine can give it (GOSOLVE_MEMORY_MB)")
                && err.ends_with("NOT verified\n"),
            "{err}"
        );
        if json {
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["verified"], false, "{out}");
            assert!(
                v["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("stopped: the verify held ")
            );
        } else {
            assert!(!out.contains("verified"), "{out}");
        }
    }
}

/// `--guide-cache DIR` keeps the guide a solve builds and reads it back in
/// the next solve, which prints the same values; a damaged file is said
/// and built again; a folder that cannot be made only costs the keeping.
#[test]
fn solves_keep_and_read_their_guide_in_the_cache_folder() {
    let dir = scratch("guide-cache");
    let d = dir.to_str().unwrap();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "2x4", "--no-save"];
        args.extend_from_slice(extra);
        let (ok, out, err) = gosolve(&args);
        assert!(ok, "{args:?}: {err}");
        // The last line holds the nodes and the seconds.
        let values: Vec<String> = out
            .lines()
            .filter(|l| !l.starts_with("nodes"))
            .map(String::from)
            .collect();
        (values, err)
    };
    let (first, err) = solve(&["--guide-cache", d]);
    assert!(err.contains("guide table kept in"), "{err}");
    assert!(first.iter().any(|l| l.contains("+8")), "{first:?}");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let file = files[0].path();
    assert!(file.to_string_lossy().ends_with(".guide"), "{file:?}");
    let (again, err) = solve(&["--guide-cache", d]);
    assert!(err.contains("guide table read from"), "{err}");
    assert!(!err.contains("kept in"), "{err}");
    assert_eq!(again, first);
    // Cut short by a byte: said, built again and kept again.
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 1]).unwrap();
    let (rebuilt, err) = solve(&["--guide-cache", d]);
    assert!(
        err.contains("is not used") && err.contains("kept in"),
        "{err}"
    );
    assert_eq!(rebuilt, first);
    assert_eq!(std::fs::read(&file).unwrap().len(), bytes.len());
    // The folder as the default place: read there (2x4's build is too
    // quick to be kept by default), and neither read nor kept with
    // `--no-guide-cache` or `off`.
    let with_env = |place: &str, extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gosolve"))
            .args(["solve", "2x4", "--no-save"])
            .args(extra)
            .env("GOSOLVE_GUIDE_CACHE", place)
            .output()
            .expect("runs");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = with_env(d, &[]);
    assert!(err.contains("guide table read from"), "{err}");
    for (place, extra) in [(d, &["--no-guide-cache"][..]), ("off", &[][..])] {
        let err = with_env(place, extra);
        assert!(!err.contains("guide table"), "{place} {extra:?}: {err}");
    }
    // A folder under a file cannot be made.
    let under = file.join("sub");
    let (kept_not, err) = solve(&["--guide-cache", under.to_str().unwrap()]);
    assert!(err.contains("could not be kept"), "{err}");
    assert_eq!(kept_not, first);
    fails_with(
        &["solve", "2x4", "--guide-cache", d, "--no-guide-cache"],
        "cannot be used with",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
