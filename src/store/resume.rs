//! Resume files: the first-move values and strategies of a solve in
//! progress, so that an interrupted solve (Ctrl-C, a killed job, a lost
//! machine) keeps every first-move class and strategy it finished.
//!
//! Beside the result file `F` a solve keeps `F.resume`, a small JSON file
//! rewritten atomically each time a class's value is known or one of its
//! zero-width tests finishes: the program
//! and a digest of its source, the board and rules exactly as a result file stores them, and per
//! class its first move (code: 0 pass, p + 1 point p), value (Black's side,
//! half points; ±1 under normal play) and nodes, and per class still being
//! valued the bounds its finished zero-width tests proved (so a class
//! whose tests take hours each loses at most the test under way). Each
//! strategy the proof
//! extraction finishes goes into a file of its own
//! (`F.resume.<first move code>-<black|white>`), named with its length and
//! CRC in the resume file. The seconds each phase had run at its last save
//! are kept too: a resumed solve reports them added to its own.
//!
//! Nothing is written in a solve's first [`SAVE_AFTER`]: a short solve
//! leaves no file behind and costs no disk writes, and a class finished by
//! then is written with the next one (at most that much work is lost).
//!
//! A solve that finds the file takes those values instead of searching
//! again, starts the tests of a class with bounds from them, and deletes
//! the files once it has finished (and written its result file). A file
//! that does not parse, that a program built from other source or another
//! solve wrote, or that holds a value or bounds no game can have, is an
//! error rather than silently replaced: it may hold hours of
//! work (`solve --fresh` discards it). A damaged strategy file is only
//! extracted again.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::rules::Rules;
use crate::engine::types::{Color, Move};
use crate::format::codes::{decode, player, player_code};
use crate::format::gsr::{self, BoardInfo, RulesInfo};
use crate::search::bounds::value_range;
use crate::search::proof::Strategy;
use crate::search::root::RootLog;
use crate::search::run::{Kept, TableLoad};
use crate::store::save::{board_info, rules_info};
use crate::store::table::{Header, TableFile};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const FORMAT: &str = "gosolve resume 1";

/// How long a solve runs before its values are worth a file.
pub const SAVE_AFTER: Duration = Duration::from_secs(2);

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Stored {
    format: String,
    program: String,
    board: BoardInfo,
    rules: RulesInfo,
    classes: Vec<Class>,
    /// Bounds on classes not yet valued; absent in files without any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    bounds: Vec<Bounds>,
    /// Absent until a strategy is kept.
    #[serde(default)]
    proofs: Vec<ProofRef>,
    /// Seconds the solve and the extraction had run at their last save.
    #[serde(default)]
    seconds: f64,
    #[serde(default)]
    proof_seconds: f64,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Class {
    first: u8,
    value: i32,
    nodes: u64,
}

/// Bounds on a class's value (Black's side) that finished tests proved.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Bounds {
    first: u8,
    lo: i32,
    hi: i32,
    nodes: u64,
}

/// A finished strategy, kept in a file of its own beside the resume file
/// ([`Resume::proof_path`]): its bytes can run to hundreds of megabytes.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct ProofRef {
    first: u8,
    /// 1 Black, 2 White.
    owner: u8,
    bound: i32,
    nodes: u32,
    len: u64,
    crc: u32,
}

/// The resume file of one solve.
pub struct Resume {
    path: PathBuf,
    stored: Mutex<Stored>,
    /// Seconds of earlier runs (solve, extraction), as the file held them.
    earlier: (f64, f64),
    /// Classes the file held when opened.
    loaded: usize,
    /// Classes the file held bounds for when opened.
    loaded_bounds: usize,
    /// A failed write was reported (once is enough).
    warned: AtomicBool,
    opened: Instant,
    proving: OnceLock<Instant>,
    delay: Duration,
    /// The table checkpoint beside it.
    table: TableFile,
    /// The solve is saved and the files are gone: nothing is written again.
    done: AtomicBool,
}

/// `path` with `suffix` added to its file name.
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The resume file that goes with result file `result`.
pub fn path_for(result: &Path) -> PathBuf {
    suffixed(result, ".resume")
}

/// Why a resume file could not be used or removed.
#[derive(Debug)]
pub enum ResumeError {
    /// It could not be read or removed.
    Io(PathBuf, std::io::Error),
    /// It does not resume this solve, or holds what this solve cannot have.
    Refused(PathBuf, String),
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            ResumeError::Refused(path, why) => write!(
                f,
                "{}: {why}; delete it or run with --fresh to start the solve over",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// Removes the resume file at `path` and its strategy files, if any.
pub fn discard(path: &Path) -> Result<(), ResumeError> {
    let io = |e: std::io::Error| ResumeError::Io(path.to_path_buf(), e);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let (Some(name), Ok(entries)) = (name, std::fs::read_dir(dir)) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            let strategy = n
                .strip_prefix(&format!("{name}."))
                .is_some_and(|rest| rest.ends_with("-black") || rest.ends_with("-white"));
            if strategy {
                std::fs::remove_file(e.path()).map_err(io)?;
            }
        }
    }
    crate::store::table::remove_temporaries(&table_path(path));
    for p in [table_path(path), path.to_path_buf()] {
        match std::fs::remove_file(&p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
    }
    Ok(())
}

/// The table checkpoint beside the resume file at `path`.
pub fn table_path(path: &Path) -> PathBuf {
    suffixed(path, ".table")
}

/// What a resume file holds, in words: `classes` valued and `bounded`
/// with bounds only.
pub fn kept_words(classes: usize, bounded: usize) -> String {
    let valued = plural(classes, "first-move class value", "first-move class values");
    match (classes, bounded) {
        (_, 0) => valued,
        (0, b) => format!(
            "bounds on {}",
            plural(b, "first-move class", "first-move classes")
        ),
        (_, b) => format!(
            "{valued} and bounds on {} more",
            plural(b, "class", "classes")
        ),
    }
}

/// `n` and the noun, singular or plural.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The program and the digest of its source (`build.rs`): a value from
/// another source, whose search or rules may differ, is not taken. (The
/// package version alone has not changed through many search changes.)
fn program() -> String {
    format!(
        "gosolve {} source {}",
        env!("CARGO_PKG_VERSION"),
        env!("GOSOLVE_SOURCE")
    )
}

/// What tells two solves apart, for an error message.
fn which(s: &Stored) -> String {
    solve_words(&s.board, &s.rules)
}

/// The solve of `board` under `rules` in words, with its start position.
pub fn solve_words(board: &BoardInfo, rules: &RulesInfo) -> String {
    let start: String = rules.start.iter().map(|c| c.to_string()).collect();
    format!(
        "{} under {}, start {start} with {} to move",
        board.name,
        rules.description,
        player(rules.to_move).map_or("an unknown player".into(), |c| format!("{c:?}"))
    )
}

impl Resume {
    /// Opens `path` for a solve of `board` under `rules`: reads the classes
    /// and strategies an interrupted run finished, if the file exists.
    pub fn open(path: &Path, board: &Board, rules: &Rules) -> Result<Resume, ResumeError> {
        let fresh = Stored {
            format: FORMAT.into(),
            program: program(),
            board: board_info(board),
            rules: rules_info(board, rules),
            classes: Vec::new(),
            bounds: Vec::new(),
            proofs: Vec::new(),
            seconds: 0.0,
            proof_seconds: 0.0,
        };
        let header = Header::new(program(), fresh.board.clone(), fresh.rules.clone());
        let stored = match std::fs::read(path) {
            Ok(bytes) => check(path, &bytes, fresh, board, rules)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            Err(e) => return Err(ResumeError::Io(path.to_path_buf(), e)),
        };
        let table = TableFile::open(table_path(path), &header)?;
        Ok(Resume {
            path: path.to_path_buf(),
            earlier: (stored.seconds, stored.proof_seconds),
            loaded: stored.classes.len(),
            loaded_bounds: stored.bounds.len(),
            stored: Mutex::new(stored),
            warned: AtomicBool::new(false),
            opened: Instant::now(),
            proving: OnceLock::new(),
            delay: SAVE_AFTER,
            table,
            done: AtomicBool::new(false),
        })
    }

    /// Writes a table checkpoint every `every` (default [`EVERY`](crate::store::table::EVERY)).
    pub fn checkpoint_every(mut self, every: Duration) -> Resume {
        self.table = self.table.every(every);
        self
    }

    /// The size of the table checkpoint an earlier run kept, if any.
    pub fn table_found(&self) -> Option<u64> {
        self.table.found()
    }

    /// The run is interrupted: writes a table checkpoint if the value
    /// search runs, and says where the checkpoint on disk is and how many
    /// entries it holds (when known), if there is one.
    pub fn table_on_interrupt(&self, stop: &str) -> Option<(PathBuf, Option<u64>)> {
        self.table.keep_now(stop);
        let entries = self.table.on_disk()?;
        Some((self.table.path().to_path_buf(), entries))
    }

    /// Writes only once the solve has run for `delay` (default [`SAVE_AFTER`]).
    pub fn save_after(mut self, delay: Duration) -> Resume {
        self.delay = delay;
        self
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many classes the file held when opened.
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// How many classes the file held bounds for (and no value) when opened.
    pub fn loaded_bounds(&self) -> usize {
        self.loaded_bounds
    }

    /// The solve is finished and saved: the file goes, with its strategies.
    pub fn finish(&self) {
        // Done first, so that an interruption racing the end of the solve
        // does not write the file again once it is gone.
        self.mark_done();
        let _ = discard(&self.path);
    }

    /// The table checkpoint's path.
    pub fn table_path(&self) -> &Path {
        self.table.path()
    }

    /// The process ends in the middle of writing a table checkpoint:
    /// removes the partial file (the last whole checkpoint stays).
    pub fn abandon_table(&self) {
        crate::store::table::remove_temporaries(self.table.path());
    }

    /// The solve is saved: an interruption from now on writes nothing.
    pub fn mark_done(&self) {
        let _s = self.stored.lock().unwrap_or_else(|e| e.into_inner());
        self.done.store(true, Ordering::SeqCst);
    }

    /// Whether the solve is saved ([`Resume::mark_done`]).
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// The solve is interrupted and the process ends next: writes what it
    /// finished, even within [`SAVE_AFTER`], and writes nothing after (the
    /// lock stays taken). Returns the classes valued, the classes with
    /// bounds only and the strategies the file holds.
    pub fn interrupted(&self) -> (usize, usize, usize) {
        let s = self.stored.lock().unwrap_or_else(|e| e.into_inner());
        if self.done.load(Ordering::SeqCst) {
            std::mem::forget(s);
            return (0, 0, 0);
        }
        if !s.classes.is_empty() || !s.bounds.is_empty() {
            self.save(&s);
        }
        let kept = (s.classes.len(), s.bounds.len(), s.proofs.len());
        std::mem::forget(s);
        kept
    }

    /// Where the strategy of `owner` for the class of first move `first`
    /// goes; [`discard`] knows these names.
    fn proof_path(&self, first: u8, owner: Color) -> PathBuf {
        let colour = if owner == Color::Black {
            "black"
        } else {
            "white"
        };
        suffixed(&self.path, &format!(".{first}-{colour}"))
    }

    /// Rewrites the resume file (the lock held, so writes do not cross).
    fn save(&self, s: &Stored) -> bool {
        let bytes = serde_json::to_vec(s).expect("resume data serialises");
        self.write(&self.path, &bytes)
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> bool {
        let r = gsr::write_atomic(path, bytes);
        if let Err(e) = &r {
            if !self.warned.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "warning: {e}; the solve goes on, but what it finishes may not survive an interruption"
                );
            }
        }
        r.is_ok()
    }
}

/// Reads a resume file's `bytes` and checks that it resumes the solve
/// `fresh` describes and holds only values that solve can have.
fn check(
    path: &Path,
    bytes: &[u8],
    fresh: Stored,
    board: &Board,
    rules: &Rules,
) -> Result<Stored, ResumeError> {
    let bad = |why: String| ResumeError::Refused(path.to_path_buf(), why);
    let s: Stored = serde_json::from_slice(bytes)
        .map_err(|e| bad(format!("not a readable resume file ({e})")))?;
    if s.format != FORMAT {
        return Err(bad(format!("not a resume file of format \"{FORMAT}\"")));
    }
    if s.program != fresh.program {
        return Err(bad(format!(
            "written by {}, not by this {}",
            s.program, fresh.program
        )));
    }
    if s.board != fresh.board || s.rules != fresh.rules {
        return Err(bad(format!(
            "resumes a solve of {}, not of {}",
            which(&s),
            which(&fresh)
        )));
    }
    let root = Game::new(board, rules);
    let range = value_range(board.len(), rules);
    let scored = rules.ruleset.has_score();
    // The codes through the result file's decoder of them.
    let legal = |c: u8| decode(c, board.len()).is_some_and(|m| root.is_legal(m));
    for (i, c) in s.classes.iter().enumerate() {
        if !legal(c.first) || s.classes[..i].iter().any(|d| d.first == c.first) {
            return Err(bad(format!(
                "first move code {} is not a new legal first move",
                c.first
            )));
        }
        if c.value.abs() > range || (!scored && c.value.abs() != 1) {
            return Err(bad(format!("no game here ends with value {}", c.value)));
        }
    }
    for (i, b) in s.bounds.iter().enumerate() {
        let valued = s.classes.iter().any(|c| c.first == b.first);
        if !legal(b.first) || valued || s.bounds[..i].iter().any(|d| d.first == b.first) {
            return Err(bad(format!(
                "bounds for first move code {}, which is not a new legal first move still to value",
                b.first
            )));
        }
        let possible = |v: i32| v.abs() <= range && (scored || v.abs() == 1);
        if b.lo > b.hi || !possible(b.lo) || !possible(b.hi) {
            return Err(bad(format!(
                "no game here has a value in {}..={}",
                b.lo, b.hi
            )));
        }
    }
    if let Some(r) = s
        .proofs
        .iter()
        .find(|r| !legal(r.first) || player(r.owner).is_none())
    {
        return Err(bad(format!(
            "a strategy of first move code {} owner {}",
            r.first, r.owner
        )));
    }
    Ok(s)
}

impl RootLog for Resume {
    fn known(&self, first: Move) -> Option<(i32, u64)> {
        let s = self.stored.lock().expect("resume lock");
        let c = s.classes.iter().find(|c| c.first == first.code())?;
        Some((c.value, c.nodes))
    }

    fn record(&self, first: Move, value: i32, nodes: u64) {
        let mut s = self.stored.lock().expect("resume lock");
        s.classes.retain(|c| c.first != first.code());
        s.bounds.retain(|b| b.first != first.code());
        s.classes.push(Class {
            first: first.code(),
            value,
            nodes,
        });
        self.save_now(&mut s);
    }

    fn known_bounds(&self, first: Move) -> Option<(i32, i32, u64)> {
        let s = self.stored.lock().expect("resume lock");
        let b = s.bounds.iter().find(|b| b.first == first.code())?;
        Some((b.lo, b.hi, b.nodes))
    }

    fn record_bounds(&self, first: Move, lo: i32, hi: i32, nodes: u64) {
        let mut s = self.stored.lock().expect("resume lock");
        s.bounds.retain(|b| b.first != first.code());
        s.bounds.push(Bounds {
            first: first.code(),
            lo,
            hi,
            nodes,
        });
        self.save_now(&mut s);
    }
}

impl Resume {
    /// Saves `s` with the seconds so far, once the solve has run for the delay.
    fn save_now(&self, s: &mut Stored) {
        if self.opened.elapsed() < self.delay {
            return;
        }
        s.seconds = self.earlier.0 + self.opened.elapsed().as_secs_f64();
        self.save(s);
    }
}

impl Kept for Resume {
    fn restore_table(&self, load: &mut TableLoad<'_>) {
        self.table.restore(load);
    }

    fn table_live(&self, live: bool) {
        self.table.live(live);
    }

    fn table_due(&self) -> bool {
        self.table.due()
    }

    fn keep_table(&self, write: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<u64>) {
        self.table.keep(write);
    }

    /// Seconds earlier runs spent on the solve and on the extraction, up to
    /// their last save.
    fn earlier_seconds(&self) -> (f64, f64) {
        self.earlier
    }

    /// The proof extraction starts now (for its seconds).
    fn proving(&self) {
        self.proving.get_or_init(Instant::now);
    }

    /// The strategy of `owner` for the class of `first` with `bound` that
    /// an interrupted run extracted, if its file is intact. (A damaged one
    /// is only extracted again: the values, which are not, stay.)
    fn known_strategy(&self, first: Move, owner: Color, bound: i32) -> Option<Strategy> {
        let code = player_code(owner);
        let r = *self
            .stored
            .lock()
            .expect("resume lock")
            .proofs
            .iter()
            .find(|r| r.first == first.code() && r.owner == code && r.bound == bound)?;
        let path = self.proof_path(r.first, owner);
        match std::fs::read(&path) {
            Ok(bytes) if bytes.len() as u64 == r.len && crc32fast::hash(&bytes) == r.crc => {
                Some(Strategy {
                    owner,
                    bound,
                    nodes: r.nodes,
                    bytes,
                })
            }
            _ => {
                eprintln!(
                    "warning: {} is missing or damaged; extracting that strategy again",
                    path.display()
                );
                None
            }
        }
    }

    /// Keeps strategy `st` of the class of `first` (once the solve has run for the delay).
    fn record_strategy(&self, first: Move, st: &Strategy) {
        let mut s = self.stored.lock().expect("resume lock");
        if self.opened.elapsed() < self.delay {
            return;
        }
        let r = ProofRef {
            first: first.code(),
            owner: player_code(st.owner),
            bound: st.bound,
            nodes: st.nodes,
            len: st.bytes.len() as u64,
            crc: crc32fast::hash(&st.bytes),
        };
        // The strategy's file first: the resume file names only whole ones.
        if self.write(&self.proof_path(r.first, st.owner), &st.bytes) {
            s.proofs
                .retain(|o| (o.first, o.owner) != (r.first, r.owner));
            s.proofs.push(r);
            let since = self
                .proving
                .get()
                .map_or(0.0, |t| t.elapsed().as_secs_f64());
            s.proof_seconds = self.earlier.1 + since;
            self.save(&s);
        }
    }
}
