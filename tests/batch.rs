//! Batches: jobs files, shards, resuming after a kill.

mod common;

use common::kill;
use gosolve::cli::batch::{self, Job};
use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

const JOBS: &str = r#"
# comments are fine
[[job]]
board = ["1x3", "2x2", "1x5"]
superko = ["positional", "situational"]

[[job]]
board = "cycle:5"
rules = ["conway", "ggg"]
komi = [0]
"#;

#[test]
fn a_job_chooses_the_search_and_the_guide_as_solve_does() {
    let jobs = batch::parse(
        "[[job]]\nboard = \"2x3\"\nsearch = \"alphabeta\"\n\n\
         [[job]]\nboard = \"2x3\"\nsearch = \"proof-number\"\nguide = false\n\n\
         [[job]]\nboard = \"2x3\"\n",
    )
    .unwrap();
    let labels: Vec<String> = jobs.iter().map(Job::label).collect();
    assert_eq!(
        labels,
        [
            "2x3 --rules tromp-taylor --search alphabeta",
            "2x3 --rules tromp-taylor --search proof-number --no-guide",
            "2x3 --rules tromp-taylor",
        ]
    );
    let e = batch::parse("[[job]]\nboard = \"2x3\"\nsearch = \"mcts\"\n").unwrap_err();
    assert!(e.contains("job 1") && e.contains("alphabeta"), "{e}");
    assert!(batch::parse("[[job]]\nboard = \"2x3\"\nguide = 1\n").is_err());
}

/// `first_moves = "bounds"`: the label says it, the job solves as `solve
/// --first-moves bounds` does and writes its verified file under the
/// `-bounds` name; a wrong value names the choices.
#[test]
fn a_job_can_bound_the_worse_first_moves() {
    let jobs = batch::parse("[[job]]\nboard = \"1x7\"\nfirst_moves = \"bounds\"\n").unwrap();
    assert_eq!(
        jobs[0].label(),
        "1x7 --rules tromp-taylor --first-moves bounds"
    );
    let dir = scratch("bounds");
    let out = batch::run_job(&jobs[0], &dir, 1, &|_| {}, &|_| {}, None);
    let file = dir.join("1x7-tromp-taylor-bounds.gsr");
    assert_eq!(out.file.as_deref(), Some(file.as_path()), "{out:?}");
    let f = gosolve::format::gsr::read(&file).unwrap();
    assert_eq!(f.value, 4, "1x7 is +2");
    assert!(
        f.classes
            .iter()
            .any(|c| c.claim == gosolve::format::gsr::Claim::AtMost)
    );
    gosolve::verify::verify(&f, &|_| {}).expect("it verifies");
    std::fs::remove_dir_all(&dir).unwrap();
    let e = batch::parse("[[job]]\nboard = \"2x3\"\nfirst_moves = \"some\"\n").unwrap_err();
    assert!(e.contains("job 1") && e.contains("exact, bounds"), "{e}");
}

#[test]
fn lists_expand_to_the_product_in_order() {
    let jobs = batch::parse(JOBS).unwrap();
    assert_eq!(jobs.len(), 8);
    let labels: Vec<String> = jobs.iter().map(Job::label).collect();
    assert_eq!(labels[0], "1x3 --rules tromp-taylor --superko positional");
    assert_eq!(labels[1], "1x3 --rules tromp-taylor --superko situational");
    assert_eq!(labels[7], "cycle:5 --rules ggg --komi 0");
    assert!(jobs.iter().enumerate().all(|(i, j)| j.index == i));
}

#[test]
fn shards_are_disjoint_and_cover_the_batch() {
    let jobs = batch::parse(JOBS).unwrap();
    for n in 1..=5 {
        let mut seen = BTreeSet::new();
        let mut count = 0;
        for i in 1..=n {
            for j in batch::shard(jobs.clone(), i, n) {
                seen.insert(j.index);
                count += 1;
            }
        }
        assert_eq!(count, jobs.len(), "{n} shards");
        assert_eq!(seen.len(), jobs.len(), "{n} shards");
    }
    assert!(batch::parse_shard("0/3").is_err());
    assert!(batch::parse_shard("4/3").is_err());
    assert!(batch::parse_shard("2").is_err());
    assert_eq!(batch::parse_shard("2/3"), Ok((2, 3)));
}

#[test]
fn malformed_jobs_files_name_the_line() {
    let e = batch::parse("[[job]]\nboard = \"2x2\"\nrule = \"conway\"\n").unwrap_err();
    assert!(
        e.contains("line 3") && e.contains("unknown field `rule`"),
        "{e}"
    );
    let e = batch::parse("[[job]\nboard = \"2x2\"\n").unwrap_err();
    assert!(e.contains("line 1"), "{e}");
    let e = batch::parse("[[job]]\nboard = \"2x2\"\nrules = 3\n").unwrap_err();
    assert!(e.contains("line 3"), "{e}");
    assert!(batch::parse("").is_err());
    // A value of the wrong type says which and what was expected.
    let e = batch::parse("[[job]]\nboard = \"2x2\"\nkomi = \"abc\"\n").unwrap_err();
    assert!(
        e.contains("line 3")
            && e.contains("\"abc\": invalid type: string \"abc\", expected a number"),
        "{e}"
    );
    let e = batch::parse("[[job]]\nboard = [\"2x2\", 3]\n").unwrap_err();
    assert!(
        e.contains("line 2") && e.contains("expected a string"),
        "{e}"
    );
    // A job the rules reject fails alone when it runs.
    let jobs = batch::parse("[[job]]\nboard = \"1x3\"\nrules = \"conway\"\nkomi = 0.5\n").unwrap();
    assert!(jobs[0].settle().unwrap_err().contains("komi"));
}

/// An empty folder of this test process's own, named after `name`.
fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch(&format!("batch-{name}"))
}

fn gosolve(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    c.args(args);
    c
}

fn gsr_files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".gsr"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Kill a batch mid-way and rerun it: the finished jobs are kept (and
/// skipped), the rest are solved, nothing twice, no half-written file;
/// the temporary file of another writer still running (this test, as
/// another batch sharing the folder would be) is left alone.
#[test]
fn a_killed_batch_resumes_without_losing_or_repeating_work() {
    let dir = scratch("kill");
    let jobs = dir.join("jobs.toml");
    std::fs::write(
        &jobs,
        "[[job]]\nboard = [\"1x3\", \"2x2\", \"1x5\", \"2x3\", \"3x3\"]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (j, o) = (jobs.to_str().unwrap(), out.to_str().unwrap());
    let mut child = gosolve(&["batch", j, "--out-dir", o, "--parallel", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while gsr_files(&out).len() < 2 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = gsr_files(&out);
    assert!(!before.is_empty());
    let live = out.join(format!(".other.gsr.{}-0.tmp", std::process::id()));
    std::fs::write(&live, b"being written").unwrap();
    let rerun = gosolve(&["batch", j, "--out-dir", o, "--parallel", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&rerun.stdout);
    assert!(rerun.status.success(), "{text}");
    let done = text.matches("already done (verified file)").count();
    let solved = text.matches("solved, verified").count();
    assert_eq!(done, before.len(), "{text}");
    assert_eq!(done + solved, 5, "{text}");
    assert_eq!(gsr_files(&out).len(), 5);
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    let live_name = live.file_name().unwrap().to_string_lossy();
    assert_eq!(leftovers, [live_name.as_ref()]);
    std::fs::remove_file(&live).unwrap();
    let csv = std::fs::read_to_string(out.join("batch-summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 6, "{csv}");
    // A third run solves nothing.
    let third = gosolve(&["batch", j, "--out-dir", o]).output().unwrap();
    let text = String::from_utf8_lossy(&third.stdout);
    assert!(text.contains("5 jobs: 0 solved, 5 already done"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGTERM (a scheduler at the end of the job's time) stops a batch as
/// it stops a solve: status 143, the job in flight keeps its bounds in its
/// resume file and its search table in a checkpoint beside it, the
/// finished job's file stays, and the message says so and how to go on.
#[test]
fn a_batch_stopped_by_sigterm_keeps_each_running_jobs_work() {
    use gosolve::engine::board::Board;
    use gosolve::engine::rules::{Rules, Ruleset};
    use gosolve::store::resume::{Resume, path_for, table_path};
    let dir = scratch("term");
    let jobs = dir.join("jobs.toml");
    // 4x4 without the guide takes minutes.
    std::fs::write(
        &jobs,
        "[[job]]\nboard = [\"2x2\", \"4x4\"]\nguide = false\ntt_mb = 64\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (j, o) = (jobs.to_str().unwrap(), out.to_str().unwrap());
    let child = gosolve(&["batch", j, "--out-dir", o, "--parallel", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let resume = path_for(&out.join("4x4-tromp-taylor.gsr"));
    // Written once 4x4 has a bound and has run 2 s.
    let start = Instant::now();
    while !resume.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "4x4 kept nothing"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    kill("-TERM", &child);
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(143), "{err}");
    let table = table_path(&resume);
    // Class values or bounds (a class's first test can settle its value:
    // 4x4's corner is tested at the whole board first).
    let job = "terminated: job 2 (4x4 --rules tromp-taylor --no-guide): kept ";
    let kept = err.lines().find(|l| l.starts_with(job)).unwrap_or_default();
    assert!(
        kept.contains(&format!(" in {}, and the search table (", resume.display()))
            && kept.ends_with(&format!(" entries) in {}", table.display())),
        "{err}"
    );
    assert!(
        err.ends_with(&format!(
            "terminated: 1 of 2 jobs finished, their result files in {o}; run the same batch \
             again to go on: it skips the finished jobs, and resumes the others from what \
             they kept\n"
        )),
        "{err}"
    );
    assert_eq!(gsr_files(&out), ["2x2-tromp-taylor.gsr"]);
    // What the rerun resumes from.
    let board = Board::parse("4x4").unwrap();
    let rules = Rules::new(Ruleset::TrompTaylor);
    let again = Resume::open(&resume, &board, &rules).unwrap();
    assert!(again.loaded() + again.loaded_bounds() > 0);
    assert!(again.table_found().is_some_and(|n| n > 0));
    drop(again);
    // The rerun says so as the job starts (and is stopped there).
    let mut rerun = gosolve(&["batch", j, "--out-dir", o, "--parallel", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let err = std::io::BufReader::new(rerun.stderr.take().unwrap());
    let line = std::io::BufRead::lines(err)
        .map(Result::unwrap)
        .find(|l| l.starts_with("job 2 "))
        .unwrap_or_default();
    kill("-TERM", &rerun);
    rerun.wait().unwrap();
    assert!(
        line.starts_with(
            "job 2 (4x4 --rules tromp-taylor --no-guide): resuming from an interrupted run: "
        ) && line.contains(" first-move class")
            && line.contains("the search table ("),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A batch past its memory limit (`GOSOLVE_MEMORY_MB`, here 1 MB, passed
/// at once) stops as a solve does: status 1, the reason, no result file.
#[test]
fn a_batch_past_its_memory_limit_stops_and_says_so() {
    let dir = scratch("memory");
    let jobs = dir.join("jobs.toml");
    std::fs::write(
        &jobs,
        "[[job]]\nboard = \"4x4\"\nguide = false\ntt_mb = 64\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (j, o) = (jobs.to_str().unwrap(), out.to_str().unwrap());
    let stopped = gosolve(&["batch", j, "--out-dir", o])
        .env("GOSOLVE_MEMORY_MB", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("stopped: the batch held ")
            && err.contains(" MB, past the 1 MB this machine can give it (GOSOLVE_MEMORY_MB)"),
        "{err}"
    );
    assert!(
        err.ends_with(&format!(
            "stopped: 0 of 1 jobs finished, their result files in {o}; run the same batch \
             again to go on: it skips the finished jobs\n"
        )) || err
            .ends_with(" it skips the finished jobs, and resumes the others from what they kept\n"),
        "{err}"
    );
    assert!(gsr_files(&out).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table size the machine cannot give fails the batch before any job
/// runs (it used to abort the process, every job with it): no result file,
/// no summary.
#[test]
fn a_table_too_large_fails_the_batch_before_any_work() {
    let dir = scratch("tt");
    let jobs = dir.join("jobs.toml");
    std::fs::write(
        &jobs,
        "[[job]]\nboard = \"1x3\"\n\n[[job]]\nboard = \"2x2\"\ntt_mb = 999999999\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (j, o) = (jobs.to_str().unwrap(), out.to_str().unwrap());
    let run = gosolve(&["batch", j, "--out-dir", o]).output().unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("job 2 (2x2 --rules tromp-taylor): --tt-mb 999999999: a table of 999999999 MB is more than this machine's"),
        "{err}"
    );
    assert!(gsr_files(&out).is_empty());
    assert!(!out.join("batch-summary.csv").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two jobs that would write one result file, or a summary that cannot be
/// written, fail the batch before any job runs.
#[test]
fn a_batch_that_would_lose_its_work_fails_before_any() {
    let dir = scratch("paths");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let run = |jobs: &str, extra: &[&str]| {
        let file = dir.join("jobs.toml");
        std::fs::write(&file, jobs).unwrap();
        let mut args = vec!["batch", file.to_str().unwrap(), "--out-dir", o];
        args.extend_from_slice(extra);
        let r = gosolve(&args).output().unwrap();
        (
            r.status.code(),
            String::from_utf8_lossy(&r.stderr).into_owned(),
        )
    };
    let (code, err) = run(
        "[[job]]\nboard = \"1x3\"\nrules = [\"tromp-taylor\", \"tt\"]\n",
        &[],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "jobs 1 (1x3 --rules tromp-taylor) and 2 (1x3 --rules tt) would both write {}",
            out.join("1x3-tromp-taylor.gsr").display()
        )),
        "{err}"
    );
    let blocker = dir.join("not-a-folder");
    std::fs::write(&blocker, "").unwrap();
    let summary = blocker.join("summary");
    let (code, err) = run(
        "[[job]]\nboard = \"1x3\"\n",
        &["--summary", summary.to_str().unwrap()],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("a file cannot be written at"), "{err}");
    assert!(gsr_files(&out).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
