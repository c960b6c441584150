//! The result-file commands: verify, show, export.

use crate::cli::report::json_value;
use crate::engine::board::Board;
use crate::engine::rules::value_text;
use crate::engine::types::Color;
use crate::format::check::settle;
use crate::format::codes::decode;
use crate::format::gsr::{self, Claim};
use crate::play::oracle::{Limits, Oracle};
use crate::store::inspect::{self, Found};
use crate::verify;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::play::oracle::read_checked as open;

/// Runs `job` on a thread with a large stack: proofs are walked
/// recursively, one frame per turn of the longest game they hold.
pub fn deep<T: Send>(job: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, job)
            .expect("a thread")
            .join()
            .expect("the walk finished")
    })
}

fn line_names(board: &Board, line: &[Option<usize>]) -> String {
    let names: Vec<String> = line
        .iter()
        .map(|t| match t {
            None => "pass".into(),
            Some(p) if *p < board.len() => board.point_name(*p as u8),
            Some(p) => format!("#{p}"),
        })
        .collect();
    if names.is_empty() {
        "the start".into()
    } else {
        names.join(" ")
    }
}

/// The header fields `verify` does not check: how the file was made.
const INFORMATIONAL: [&str; 7] = [
    "program",
    "date",
    "nodes",
    "seconds",
    "proof seconds",
    "threads",
    "table size",
];

/// `gosolve verify FILE`: the strict decoder's checks (the board's name
/// against its edges, the rules and their description), then the
/// independent checker's.
pub fn verify(file: &Path, json: bool) -> Result<(), String> {
    // Drawn once the file is read and found large enough to need it.
    let bar = ProgressBar::hidden();
    let checked = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Watched from the start: reading a large file takes memory too.
    if let Some(limit) = crate::search::run::memory_limit()? {
        let (b, c) = (bar.clone(), checked.clone());
        let name = file.display().to_string();
        crate::cli::interrupt::watch_verify_memory(
            limit,
            move || c.load(std::sync::atomic::Ordering::SeqCst),
            move |reason| {
                b.finish_and_clear();
                if json {
                    println!(
                        "{}",
                        json!({"file": name, "verified": false, "reason": reason})
                    );
                }
            },
        );
    }
    let f = gsr::read(file).map_err(|e| e.to_string())?;
    let total: u64 = f.proofs.iter().map(|p| p.nodes as u64).sum();
    if !json && std::io::IsTerminal::is_terminal(&std::io::stderr()) && total > 100_000 {
        bar.set_length(total);
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template("verifying {bar:30} {pos}/{len} strategy nodes, {elapsed}")
            .expect("template"),
    );
    let start = Instant::now();
    let result = deep(|| verify::verify(&f, &|k| bar.inc(k)));
    // Checked: the memory watch must not end the process while it reports.
    checked.store(true, std::sync::atomic::Ordering::SeqCst);
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    // Names for the report only; the checker itself never used the program's board.
    let board = settle(&f).map(|(b, _)| b);
    match result {
        Ok(v) => {
            // The name passed the strict decoder (rebuilt and compared);
            // the rules are those the checker replayed.
            let value = value_text(f.rules.scored(), f.value);
            if json {
                println!(
                    "{}",
                    json!({"file": file.display().to_string(), "verified": true,
                           "board": f.board.name, "rules": v.rules, "value": value,
                           "strategies": v.strategies, "nodes": v.nodes, "links": v.links,
                           "seconds": secs, "informational": INFORMATIONAL})
                );
            } else {
                println!("verified");
                println!(
                    "{}: value {value} under {}; {} strategies, {} owner nodes, {} transpositions, {secs:.3} s",
                    f.board.name, v.rules, v.strategies, v.nodes, v.links
                );
                println!(
                    "informational, not checked: {} ({}, {})",
                    INFORMATIONAL.join(", "),
                    f.run.program,
                    f.run.date
                );
            }
            Ok(())
        }
        Err(e) => {
            let at = match &board {
                Ok(b) => line_names(b, &e.line),
                Err(_) => format!("{:?}", e.line),
            };
            if json {
                println!(
                    "{}",
                    json!({"file": file.display().to_string(), "verified": false,
                           "reason": e.to_string(), "line": at})
                );
            }
            Err(format!(
                "{}: NOT verified: {e} (after: {at})",
                file.display()
            ))
        }
    }
}

/// `gosolve show FILE [--line ...]`.
pub fn show(file: &Path, line: Option<&str>, json: bool) -> Result<(), String> {
    let (f, board, rules) = open(file)?;
    let scored = rules.ruleset.has_score();
    let name = |c: u8| board.move_name(decode(c, board.len()).expect("checked"));
    if let Some(text) = line {
        let moves = inspect::parse_line(&board, text).map_err(|e| e.to_string())?;
        let r = deep(|| inspect::look_up(&f, &board, &rules, &moves)).map_err(|e| e.to_string())?;
        let says = |o: Color, b: i32, x: &Found| -> (String, String) {
            let who = if o == Color::Black { "Black" } else { "White" };
            let rel = if o == Color::Black {
                "at least"
            } else {
                "at most"
            };
            let head = format!("{who}'s strategy (value {rel} {})", value_text(scored, b));
            let what = match x {
                Found::Off => "does not reach this position".into(),
                Found::Over => "reaches it: the game is over".into(),
                Found::Answers => "reaches it and answers every reply".into(),
                Found::Secure => "holds from here on: unconditional life decides the bound".into(),
                Found::Whole => "holds from here on: its enclosed regions are all its own \
                                 (it takes every stone played there)"
                    .into(),
                Found::Plays(m) => {
                    format!("reaches it and plays {}", board.move_name(*m))
                }
            };
            (head, what)
        };
        // A side without a strategy has a bound no game can break, unless
        // the class is known only by the other side's bound.
        let both = r.class_claim == Claim::Exact
            && [Color::Black, Color::White].iter().all(|&o| {
                r.found
                    .iter()
                    .filter(|x| x.0 == o)
                    .all(|x| x.2 != Found::Off)
            });
        let value = if both { Some(r.class_value) } else { None };
        if json {
            let found: Vec<_> = r
                .found
                .iter()
                .map(|(o, b, x)| {
                    let (kind, mv) = match x {
                        Found::Off => ("off", None),
                        Found::Over => ("over", None),
                        Found::Answers => ("answers", None),
                        Found::Secure => ("secure", None),
                        Found::Whole => ("whole", None),
                        Found::Plays(m) => ("plays", Some(board.move_name(*m))),
                    };
                    json!({"owner": if *o == Color::Black {"black"} else {"white"},
                           "bound": json_value(scored, *b), "found": kind, "move": mv})
                })
                .collect();
            println!(
                "{}",
                json!({"line": text, "to_move": r.to_move.name(), "over": r.over,
                       "value": value.map(|v| json_value(scored, v)), "strategies": found})
            );
            return Ok(());
        }
        println!(
            "after {}: {} to move{}",
            text.trim(),
            r.to_move.name(),
            if r.over { " (game over)" } else { "" }
        );
        for (o, b, x) in &r.found {
            let (head, what) = says(*o, *b, x);
            println!("  {head} {what}");
        }
        match value {
            Some(v) => println!(
                "value here: {} (every stored strategy reaches it)",
                value_text(scored, v)
            ),
            None if r.class_claim != Claim::Exact => println!(
                "value here: not stored (the first move's class has only a bound; solve from it with --start)"
            ),
            None => println!(
                "value here: not stored (the line leaves a strategy; solve from it with --start)"
            ),
        }
        return Ok(());
    }
    let diagrams = inspect::pv_diagrams(&f, &board, &rules);
    if json {
        let classes: Vec<_> = f
            .classes
            .iter()
            .map(|c| {
                let names: Vec<String> = c.members.iter().map(|m| name(m.mv)).collect();
                json!({"value": json_value(scored, c.value), "claim": c.claim.name(), "moves": names})
            })
            .collect();
        let pv: Vec<String> = f.pv.iter().map(|&c| name(c)).collect();
        println!(
            "{}",
            json!({"board": f.board.name, "points": f.board.points, "rules": f.rules.description,
                   "program": f.run.program, "date": f.run.date, "nodes": f.run.nodes,
                   "seconds": f.run.seconds, "proof_seconds": f.run.proof_seconds,
                   "threads": f.run.threads, "tt_mb": f.run.tt_mb,
                   "value": json_value(scored, f.value), "value_text": value_text(scored, f.value),
                   "first_moves": classes, "pv": pv,
                   "strategies": f.proofs.len(),
                   "strategy_nodes": f.proofs.iter().map(|p| p.nodes as u64).sum::<u64>()})
        );
        return Ok(());
    }
    println!(
        "{} ({} points) under {}",
        f.board.name, f.board.points, f.rules.description
    );
    println!(
        "solved by {} on {}: {} nodes, {:.3} s to the value (+{:.3} s of proof after it), {} thread{}, {} MB table",
        f.run.program,
        f.run.date,
        f.run.nodes,
        f.run.seconds,
        f.run.proof_seconds,
        f.run.threads,
        if f.run.threads == 1 { "" } else { "s" },
        f.run.tt_mb
    );
    println!(
        "proof: {} strategies, {} owner nodes, {} bytes",
        f.proofs.len(),
        f.proofs.iter().map(|p| p.nodes as u64).sum::<u64>(),
        f.proofs.iter().map(|p| p.bytes.len()).sum::<usize>()
    );
    println!("value: {}", value_text(scored, f.value));
    println!("first moves (value: moves):");
    for c in &f.classes {
        let names: Vec<String> = c.members.iter().map(|m| name(m.mv)).collect();
        let value = c.claim.text(&value_text(scored, c.value));
        println!("  {value:>10}: {}", names.join(" "));
    }
    println!("principal variation ({} turns):", f.pv.len());
    for (title, d) in diagrams {
        println!("{title}");
        print!("{d}");
    }
    Ok(())
}

/// `gosolve export FILE --sgf|--csv [--out PATH]`.
pub fn export(file: &Path, sgf: bool, out: Option<&Path>) -> Result<(), String> {
    let (f, board, rules) = open(file)?;
    let text = if sgf {
        inspect::sgf(&f, &board, &rules)
    } else {
        inspect::csv(&f, &board, &rules)
    };
    write_out(&text, out)
}

/// `gosolve export FILE --sgf --depth N | --html [--out PATH]`: every line
/// to `depth` turns with a value on each node, as SGF or as a page; the
/// live search within `limits`.
pub fn export_tree(
    file: &Path,
    depth: usize,
    html: bool,
    limits: Limits,
    out: Option<&Path>,
) -> Result<(), String> {
    let (f, board, rules) = open(file)?;
    let o = Oracle::new(&board, &rules, Some(f.clone()), crate::cli::probe::TT_MB)
        .map_err(|e| e.to_string())?;
    let budget = o.budget(limits);
    let text = if html {
        crate::play::html::page(&o, &f, depth, &budget)
    } else {
        crate::play::sgf::tree(&o, &f, depth, &budget)
    }
    .map_err(|e| e.to_string())?;
    write_out(&text, out)
}

/// Writes `text` to `out` whole (or not at all), or prints it.
fn write_out(text: &str, out: Option<&Path>) -> Result<(), String> {
    match out {
        Some(p) => gsr::write_atomic(p, text.as_bytes()).map_err(|e| e.to_string()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// `gosolve batch JOBS.toml`.
pub fn batch(
    jobs_file: &Path,
    dir: &Path,
    shard: Option<&str>,
    parallel: Option<usize>,
    summary: Option<&Path>,
) -> Result<(), String> {
    use crate::cli::batch::{self, Status};
    use indicatif::MultiProgress;
    let text =
        std::fs::read_to_string(jobs_file).map_err(|e| format!("{}: {e}", jobs_file.display()))?;
    let mut jobs = batch::parse(&text).map_err(|e| format!("{}: {e}", jobs_file.display()))?;
    // Over all jobs, so that every shard refuses alike.
    batch::one_path_each(&jobs, dir)?;
    if let Some(s) = shard {
        let (i, n) = batch::parse_shard(s)?;
        jobs = batch::shard(jobs, i, n);
    }
    let cores = rayon::current_num_threads();
    let at_once = parallel.unwrap_or(cores).clamp(1, jobs.len().max(1));
    // What would fail a job late, or every job at once, fails the batch now.
    for job in &mut jobs {
        let mb = job.table_mb(at_once);
        crate::cli::check_tt_mb(mb)
            .map_err(|e| format!("job {} ({}): {e}", job.index + 1, job.label()))?;
        job.tt_mb = Some(mb);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let prefix = summary.map_or_else(|| dir.join("batch-summary"), Path::to_path_buf);
    let with = |ext: &str| {
        let mut p = prefix.clone().into_os_string();
        p.push(ext);
        std::path::PathBuf::from(p)
    };
    // The result files and the summary can be written, before any work.
    for p in [dir.join("batch.gsr"), with(".csv"), with(".json")] {
        crate::store::save::check_writable(&p).map_err(|e| e.to_string())?;
    }
    // Temporary files a killed run left (never a finished file), not
    // those of another batch or solve writing into the folder now.
    crate::format::gsr::remove_stale_temporaries(dir, "");
    let threads = (cores / at_once).max(1);
    let shown = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let multi = MultiProgress::new();
    if !shown {
        multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let total = multi.add(ProgressBar::new(jobs.len() as u64));
    total.set_style(
        ProgressStyle::with_template("batch {bar:30} {pos}/{len} jobs, {elapsed}")
            .expect("template"),
    );
    let spin =
        ProgressStyle::with_template("  {spinner} {prefix}: {msg} {elapsed}").expect("template");
    // Plain threads, not a rayon pool: a rayon worker waiting for a job's
    // own search pool would start other jobs on top of it, and none would
    // finish (and be written) before the last one started.
    let watch = {
        let multi = multi.clone();
        crate::cli::interrupt::Batch::start(jobs.len(), dir, move || {
            let _ = multi.clear();
        })?
    };
    if let Some(limit) = crate::search::run::memory_limit()? {
        watch.watch_memory(limit);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<batch::Outcome>>> =
        jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let work = || loop {
        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(job) = jobs.get(k) else { break };
        let bar = multi.insert_before(&total, ProgressBar::new_spinner());
        bar.set_style(spin.clone());
        bar.set_prefix(job.label());
        bar.enable_steady_tick(Duration::from_millis(200));
        let stage = |m: &str| bar.set_message(m.to_string());
        let say = |line: &str| {
            let _ = multi.println(line);
            if !shown {
                eprintln!("{line}");
            }
        };
        let o = batch::run_job(job, dir, threads, &stage, &say, Some(&watch));
        if matches!(o.status, Status::Solved { verified: true } | Status::Done) {
            watch.finished();
        }
        bar.finish_and_clear();
        multi.remove(&bar);
        total.inc(1);
        let line = match &o.status {
            Status::Solved { verified } => format!(
                "solved {}: {} ({})",
                job.label(),
                o.value,
                if *verified {
                    "verified"
                } else {
                    "NOT verified"
                }
            ),
            Status::Done => format!("done already {}: {}", job.label(), o.value),
            Status::Failed(e) => format!("FAILED {}: {e}", job.label()),
        };
        say(&line);
        *slots[k].lock().expect("slot") = Some(o);
    };
    std::thread::scope(|s| {
        for _ in 0..at_once {
            std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn_scoped(s, work)
                .expect("a thread");
        }
    });
    let rows: Vec<batch::Outcome> = slots
        .into_iter()
        .map(|m| m.into_inner().expect("slot").expect("every job ran"))
        .collect();
    total.finish_and_clear();
    println!(
        "{:>4} {:<12} {:<58} {:>12} {:>14} {:>9}  status",
        "job", "board", "rules", "value", "nodes", "seconds"
    );
    let (mut failed, mut unverified) = (0, 0);
    for o in &rows {
        let status = match &o.status {
            Status::Solved { verified: true } => "solved, verified".to_string(),
            Status::Solved { verified: false } => {
                unverified += 1;
                "solved, NOT verified".to_string()
            }
            Status::Done => "already done (verified file)".to_string(),
            Status::Failed(e) => {
                failed += 1;
                format!("FAILED: {e}")
            }
        };
        println!(
            "{:>4} {:<12} {:<58} {:>12} {:>14} {:>9.3}  {status}",
            o.job.index + 1,
            o.job.board,
            o.rules,
            o.value,
            o.nodes,
            o.seconds
        );
    }
    let rows_json: Vec<_> = rows
        .iter()
        .map(|o| {
            let (status, verified, error) = match &o.status {
                Status::Solved { verified } => ("solved", *verified, None),
                Status::Done => ("done", true, None),
                Status::Failed(e) => ("failed", false, Some(e.clone())),
            };
            json!({"job": o.job.index + 1, "board": o.job.board, "rules": o.rules,
                   "value": o.value, "nodes": o.nodes, "seconds": o.seconds,
                   "status": status, "verified": verified, "error": error,
                   "file": o.file.as_ref().map(|p| p.display().to_string())})
        })
        .collect();
    gsr::write_atomic(&with(".csv"), batch::csv(&rows).as_bytes()).map_err(|e| e.to_string())?;
    gsr::write_atomic(&with(".json"), json!(rows_json).to_string().as_bytes())
        .map_err(|e| e.to_string())?;
    println!(
        "{} jobs: {} solved, {} already done, {failed} failed, {unverified} not verified; summary in {} and {}",
        rows.len(),
        rows.iter()
            .filter(|o| matches!(o.status, Status::Solved { .. }))
            .count(),
        rows.iter().filter(|o| o.status == Status::Done).count(),
        with(".csv").display(),
        with(".json").display()
    );
    if failed + unverified > 0 {
        return Err(format!(
            "{} jobs failed or did not verify",
            failed + unverified
        ));
    }
    Ok(())
}
