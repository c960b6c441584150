//! `gosolve check`: reruns each published figure (src/published.txt, or a
//! table given with `--table`) in a child process of this program under a
//! time budget, and compares.

use crate::cli::published::{self, Figure, Kind};
use serde_json::{Value, json};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The outcome of one row.
enum Verdict {
    Agree(String),
    Disagree(String),
    Skipped(String),
}

/// Runs this program with `args`, killing it after `budget`. Returns its
/// stdout on success, or why not.
fn run(args: &[String], budget: Duration) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start a child process: {e}"))?;
    // Read the pipes on threads so a full pipe never blocks the child.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > budget {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("over the budget of {} s", budget.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    if !status.success() {
        return Err(format!(
            "the program failed: {}",
            stderr.trim().lines().last().unwrap_or("no message")
        ));
    }
    Ok(stdout)
}

fn verdict(f: &Figure, budget: Duration) -> Verdict {
    if let Some(why) = f.rules.first().and_then(|r| r.strip_prefix("unsupported:")) {
        let what: Vec<&str> = std::iter::once(why)
            .chain(f.rules[1..].iter().map(String::as_str))
            .collect();
        return Verdict::Skipped(format!(
            "assumes rules this program does not implement: {}",
            what.join(" ")
        ));
    }
    let mut args: Vec<String> = match f.kind {
        Kind::Legal => vec!["count".into(), f.board.clone(), "--json".into()],
        Kind::Games => vec!["games".into(), f.board.clone(), "--json".into()],
        Kind::Value | Kind::Ranked(_) => vec![
            "solve".into(),
            f.board.clone(),
            "--json".into(),
            "--no-save".into(),
        ],
    };
    if f.kind != Kind::Legal {
        let mut rules = f.rules.iter();
        if let Some(r) = rules.next() {
            args.push("--rules".into());
            args.push(r.clone());
        }
        args.extend(rules.cloned());
    }
    let out = match run(&args, budget) {
        Ok(o) => o,
        Err(e) => return Verdict::Skipped(e),
    };
    let v: Value = match serde_json::from_str(out.trim()) {
        Ok(v) => v,
        Err(e) => return Verdict::Skipped(format!("unreadable output: {e}")),
    };
    let got: Option<String> = match f.kind {
        Kind::Legal => v["legal_positions"].as_str().map(String::from),
        Kind::Games => v["games"].as_str().map(String::from),
        Kind::Value => v["value"].as_f64().map(points),
        Kind::Ranked(k) => match ranked(&v, k) {
            Ok(x) => x.map(points),
            Err(why) => return Verdict::Skipped(why),
        },
    };
    let Some(got) = got else {
        return Verdict::Skipped("the output lacks the figure".into());
    };
    if got == f.figure.to_string() {
        Verdict::Agree(got)
    } else {
        Verdict::Disagree(got)
    }
}

/// A value as the table writes it: whole points without a fraction.
fn points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The value of the `k`-th best first-move class in `solve --json`'s
/// output (`None`: the output lacks them), or why it cannot be read. With
/// `--first-moves bounds` the worse classes carry only "at most" bounds;
/// the rank is still known when the `k`-th best exact value is at least
/// every such bound.
fn ranked(v: &Value, k: u8) -> Result<Option<f64>, String> {
    let Some(classes) = v["first_moves"].as_array() else {
        return Ok(None);
    };
    let (mut exact, mut at_most) = (Vec::new(), f64::NEG_INFINITY);
    for c in classes {
        let Some(x) = c["value"].as_f64() else {
            return Ok(None);
        };
        match c["claim"].as_str() {
            Some("exact") => exact.push(x),
            Some("at most") => at_most = at_most.max(x),
            _ => return Err("a first move has a claim this check cannot rank".into()),
        }
    }
    if classes.len() < usize::from(k) {
        return Err(format!("only {} first moves", classes.len()));
    }
    exact.sort_by(|a, b| b.total_cmp(a));
    match exact.get(usize::from(k) - 1) {
        Some(&x) if x >= at_most => Ok(Some(x)),
        _ => Err("a first move ranked above it has only a bound".into()),
    }
}

/// `gosolve check [--table FILE] [--budget S] [--json]`.
pub fn check(table: Option<&Path>, budget: f64, json_out: bool) -> Result<(), String> {
    if !(budget > 0.0 && budget.is_finite()) {
        return Err("--budget must be a positive number of seconds".into());
    }
    let figures = match table {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            published::parse(&text).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => published::figures(),
    };
    let budget = Duration::from_secs_f64(budget);
    let (mut agree, mut disagree, mut skipped) = (0, 0, 0);
    let mut rows = Vec::new();
    if !json_out {
        println!(
            "{:<9} {:<6} {:<9} {:<40} {:>24} {:>24} {:>8}  source",
            "verdict", "kind", "board", "rules", "published", "computed", "seconds"
        );
    }
    for f in &figures {
        let start = Instant::now();
        let v = verdict(f, budget);
        let secs = start.elapsed().as_secs_f64();
        let kind = f.kind.word();
        let rules = if f.rules.is_empty() {
            "-".to_string()
        } else {
            f.rules.join(" ")
        };
        let (word, computed) = match &v {
            Verdict::Agree(g) => {
                agree += 1;
                ("agree", g.clone())
            }
            Verdict::Disagree(g) => {
                disagree += 1;
                ("DISAGREE", g.clone())
            }
            Verdict::Skipped(why) => {
                skipped += 1;
                ("skipped", format!("({why})"))
            }
        };
        if json_out {
            rows.push(
                json!({"verdict": word.to_lowercase(), "kind": kind, "board": f.board,
                "rules": rules, "published": f.figure.to_string(), "computed": computed,
                "seconds": secs, "source": f.source}),
            );
        } else {
            println!(
                "{word:<9} {kind:<6} {:<9} {rules:<40} {:>24} {:>24} {secs:>8.2}  {}",
                f.board, f.figure, computed, f.source
            );
        }
    }
    if json_out {
        println!(
            "{}",
            json!({"agree": agree, "disagree": disagree, "skipped": skipped, "rows": rows})
        );
    } else {
        println!("{agree} agree, {disagree} disagree, {skipped} skipped");
    }
    if disagree > 0 {
        return Err(format!("{disagree} published figures disagree"));
    }
    Ok(())
}
