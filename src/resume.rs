//! Resume files: the first-move values of a solve in progress, so that an
//! interrupted solve (Ctrl-C, a killed job, a lost machine) keeps every
//! first-move class it finished.
//!
//! Beside the result file `F` a solve keeps `F.resume`, a small JSON file
//! rewritten atomically each time a class's value is known: the program,
//! the board and rules exactly as a result file stores them, and per class
//! its first move (code: 0 pass, p + 1 point p), value (Black's side, half
//! points; ±1 under normal play) and nodes. Nothing is written in a solve's
//! first [`SAVE_AFTER`]: a short solve leaves no file behind and costs no
//! disk writes, and a class finished by then is written with the next one.
//! Each strategy the proof extraction finishes goes, the same way, into a
//! file of its own (`F.resume.<first move code>-<black|white>`), named with
//! its length and CRC in the resume file.
//! A solve that finds the file
//! takes those values instead of searching again, and deletes the file
//! once it has finished (and written its result file). A file that does not
//! parse, or that another program version or another board or rules wrote,
//! is an error rather than silently replaced: it may hold hours of work.

use crate::board::Board;
use crate::gsr::{self, BoardInfo, RulesInfo};
use crate::proof::Strategy;
use crate::rules::Rules;
use crate::save::{board_info, rules_info};
use crate::solver::RootLog;
use crate::types::{Color, Move};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Absent until a strategy is kept.
    #[serde(default)]
    proofs: Vec<ProofRef>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Class {
    first: u8,
    value: i32,
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
    /// Classes the file held when opened.
    loaded: usize,
    /// A failed write was reported (once is enough).
    warned: AtomicBool,
    opened: Instant,
    delay: Duration,
}

/// The resume file that goes with result file `result`.
pub fn path_for(result: &Path) -> PathBuf {
    let mut s = result.as_os_str().to_owned();
    s.push(".resume");
    PathBuf::from(s)
}

fn program() -> String {
    format!("gosolve {}", env!("CARGO_PKG_VERSION"))
}

impl Resume {
    /// Opens `path` for a solve of `board` under `rules`: reads the classes
    /// an interrupted run finished, if the file exists.
    pub fn open(path: &Path, board: &Board, rules: &Rules) -> Result<Resume, String> {
        let fresh = Stored {
            format: FORMAT.into(),
            program: program(),
            board: board_info(board),
            rules: rules_info(board, rules),
            classes: Vec::new(),
            proofs: Vec::new(),
        };
        let stored = match std::fs::read(path) {
            Ok(bytes) => {
                let bad = |why: String| {
                    format!(
                        "{}: {why}; delete it to start the solve over",
                        path.display()
                    )
                };
                let s: Stored = serde_json::from_slice(&bytes)
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
                        "resumes a solve of {} under {}, not this one",
                        s.board.name, s.rules.description
                    )));
                }
                let n = board.len() as u8;
                let firsts = s.classes.iter().map(|c| c.first);
                if let Some(c) = firsts
                    .chain(s.proofs.iter().map(|r| r.first))
                    .find(|&c| c > n)
                {
                    return Err(bad(format!("no first move has code {c}")));
                }
                s
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Ok(Resume {
            path: path.to_path_buf(),
            loaded: stored.classes.len(),
            stored: Mutex::new(stored),
            warned: AtomicBool::new(false),
            opened: Instant::now(),
            delay: SAVE_AFTER,
        })
    }

    /// Writes values only once the solve has run for `delay` (default [`SAVE_AFTER`]).
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

    /// The solve is finished and saved: the file goes, with its strategies.
    pub fn finish(&self) {
        let s = self.stored.lock().expect("resume lock");
        for r in &s.proofs {
            let _ = std::fs::remove_file(self.proof_path(r.first, r.owner));
        }
        let _ = std::fs::remove_file(&self.path);
    }

    /// Where the strategy of `owner` (1 Black, 2 White) for the class of first move `first` goes.
    fn proof_path(&self, first: u8, owner: u8) -> PathBuf {
        let mut s = self.path.as_os_str().to_owned();
        s.push(format!(
            ".{first}-{}",
            if owner == 1 { "black" } else { "white" }
        ));
        PathBuf::from(s)
    }

    /// Rewrites the resume file (the lock held: the temporary file's name is per process).
    fn save(&self, s: &Stored) -> bool {
        let bytes = serde_json::to_vec(s).expect("resume data serialises");
        self.write(&self.path, &bytes)
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> bool {
        let r = gsr::write_atomic(path, bytes);
        if let Err(e) = &r {
            if !self.warned.swap(true, Ordering::Relaxed) {
                eprintln!("warning: {e}; the solve goes on but cannot be resumed");
            }
        }
        r.is_ok()
    }

    /// The strategy of `owner` for the class of `first` with `bound` that
    /// an interrupted run extracted, if its file is intact. (A damaged one
    /// is only extracted again: the values, which are not, stay.)
    pub fn known_strategy(&self, first: Move, owner: Color, bound: i32) -> Option<Strategy> {
        let code = owner_code(owner);
        let r = *self
            .stored
            .lock()
            .expect("resume lock")
            .proofs
            .iter()
            .find(|r| r.first == first.code() && r.owner == code && r.bound == bound)?;
        let path = self.proof_path(r.first, r.owner);
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
    pub fn record_strategy(&self, first: Move, st: &Strategy) {
        let mut s = self.stored.lock().expect("resume lock");
        if self.opened.elapsed() < self.delay {
            return;
        }
        let r = ProofRef {
            first: first.code(),
            owner: owner_code(st.owner),
            bound: st.bound,
            nodes: st.nodes,
            len: st.bytes.len() as u64,
            crc: crc32fast::hash(&st.bytes),
        };
        // The strategy's file first: the resume file names only whole ones.
        if self.write(&self.proof_path(r.first, r.owner), &st.bytes) {
            s.proofs
                .retain(|o| (o.first, o.owner) != (r.first, r.owner));
            s.proofs.push(r);
            self.save(&s);
        }
    }
}

fn owner_code(c: Color) -> u8 {
    if c == Color::Black { 1 } else { 2 }
}

impl RootLog for Resume {
    fn known(&self, first: Move) -> Option<(i32, u64)> {
        let s = self.stored.lock().expect("resume lock");
        let c = s.classes.iter().find(|c| c.first == first.code())?;
        Some((c.value, c.nodes))
    }

    fn record(&self, first: Move, value: i32, nodes: u64) {
        // Held while writing: the temporary file's name is per process.
        let mut s = self.stored.lock().expect("resume lock");
        s.classes.push(Class {
            first: first.code(),
            value,
            nodes,
        });
        if self.opened.elapsed() < self.delay {
            return;
        }
        self.save(&s);
    }
}
