//! `gosolve probe`: every legal move's value at the position after a line,
//! and `gosolve gtp`: the GTP engine on standard input and output.

use crate::cli::report::json_value;
use crate::engine::board::Board;
use crate::engine::rules::Rules;
use crate::format::gsr;
use crate::play::gtp::{self, Engine};
use crate::play::known::Known;
use crate::play::oracle::{Limits, Oracle};
use crate::play::probe::{Asked, probe};
use crate::store::inspect;
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The live search's table size (megabytes) where no option sets it.
pub const TT_MB: usize = 64;

/// How much live search a question may use, from `--seconds` and `--nodes`.
pub fn limits(seconds: f64, nodes: Option<u64>) -> Result<Limits, String> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e6) {
        return Err(format!(
            "--seconds must be more than 0 and at most 1000000, not {seconds}"
        ));
    }
    Ok(Limits {
        time: Some(Duration::from_secs_f64(seconds)),
        nodes,
    })
}

/// A result file and the path it was read from.
pub type Located = (PathBuf, gsr::ResultFile);

/// The board, rules and contents of the result file at `path`, every field checked.
pub fn read_file(path: &Path) -> Result<(Board, Rules, Located), String> {
    let (f, b, r) = crate::play::oracle::read_checked(path)?;
    Ok((b, r, (path.to_path_buf(), f)))
}

/// The options of one probe.
pub struct Options<'a> {
    /// `--line`.
    pub line: Option<&'a str>,
    /// `--seconds`, `--nodes`.
    pub limits: Limits,
    /// Not `--no-search`.
    pub search: bool,
    /// `--tt-mb`.
    pub tt_mb: usize,
    /// `--json`.
    pub json: bool,
}

/// `gosolve probe TARGET [--line ...] [--json]`.
pub fn run(
    board: &Board,
    rules: &Rules,
    file: Option<Located>,
    opts: &Options,
) -> Result<(), String> {
    let moves = inspect::parse_line(board, opts.line.unwrap_or("")).map_err(|e| e.to_string())?;
    let (path, file) = file.map_or((None, None), |(p, f)| (Some(p), Some(f)));
    let oracle = Oracle::new(board, rules, file, opts.tt_mb).map_err(|e| e.to_string())?;
    let budget = oracle.budget(opts.limits);
    let asked = Asked {
        search: opts.search,
        pv: true,
    };
    let p = probe(&oracle, &moves, &budget, asked).map_err(|e| e.to_string())?;
    let json = opts.json;
    let search = opts.search;
    let scored = rules.ruleset.has_score();
    let range = oracle.range();
    let names = |ms: &[crate::engine::types::Move]| -> Vec<String> {
        ms.iter().map(|&m| board.move_name(m)).collect()
    };
    let value = |k: &Known| k.exact().map(|v| json_value(scored, v));
    if json {
        let moves_json: Vec<_> = p
            .moves
            .iter()
            .map(|r| {
                json!({"move": board.move_name(r.mv), "value": value(&r.known),
                       "lower": json_value(scored, r.known.lo), "upper": json_value(scored, r.known.hi),
                       "category": r.known.category(p.to_move), "status": r.known.status(),
                       "label": r.known.label(), "pv": names(&r.pv), "remoteness": r.remoteness})
            })
            .collect();
        let out = json!({"board": board.name(), "rules": rules.describe(),
            "file": path.map(|p| p.display().to_string()), "line": names(&moves),
            "to_move": p.to_move.name(), "over": p.over,
            "value": value(&p.known), "lower": json_value(scored, p.known.lo),
            "upper": json_value(scored, p.known.hi), "category": p.known.category(p.to_move),
            "status": p.known.status(), "label": p.known.label(),
            "stopped": p.stopped, "moves": moves_json});
        println!("{out}");
        return Ok(());
    }
    let from = match &path {
        Some(p) => format!("values from {}, else searched now", p.display()),
        None if search => "no result file: every value searched now".into(),
        None => "no result file".into(),
    };
    println!("{} under {} ({from})", board.name(), rules.describe());
    let at = if moves.is_empty() {
        "at the start".to_string()
    } else {
        format!("after {}", names(&moves).join(" "))
    };
    let who = p.to_move.name();
    if p.over {
        println!("{at}: the game is over");
    } else {
        println!("{at}: {who} to move");
    }
    println!(
        "value: {} ({} for {who}; {})",
        p.known.text(scored, range),
        p.known.category(p.to_move),
        p.known.label()
    );
    if !p.moves.is_empty() {
        println!(
            "  {:<6} {:<12} {:<13} {:<27} {:>5}  principal variation",
            "move", "value", "for the mover", "source", "turns"
        );
    }
    for r in &p.moves {
        let turns = r.remoteness.map_or("-".to_string(), |n| n.to_string());
        println!(
            "  {:<6} {:<12} {:<13} {:<27} {:>5}  {}",
            board.move_name(r.mv),
            r.known.text(scored, range),
            r.known.category(p.to_move),
            r.known.label(),
            turns,
            names(&r.pv).join(" ")
        );
    }
    if p.stopped {
        println!(
            "the live search stopped at its limit (--seconds, --nodes): values marked as bounds are bounds only"
        );
    }
    Ok(())
}

/// `gosolve gtp`: answers GTP commands from standard input until `quit`
/// or the end of the input.
pub fn serve(board: &str, setup: gtp::Setup) -> Result<(), String> {
    let mut engine = Engine::new(board, setup)?;
    if let Some(f) = engine.file() {
        eprintln!("gosolve gtp: values from {}", f.display());
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("standard input: {e}"))?;
        if let Some((reply, quit)) = engine.handle(&line) {
            out.write_all(reply.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("standard output: {e}"))?;
            if quit {
                break;
            }
        }
    }
    Ok(())
}
