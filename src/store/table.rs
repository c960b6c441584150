//! The table checkpoint of a solve in progress: beside the resume file `R`,
//! `R.table` holds the bounds of the search's table (see
//! [`checkpoint`](crate::search::checkpoint)), so that a run interrupted
//! in the middle of a long test starts again with the table it had.
//!
//! The file is a line of JSON saying which program wrote it for which
//! solve (as the resume file says), then the body as one zstd frame with
//! its content checksum. It is written periodically while the value
//! search runs (`solve --checkpoint-every`, by default and in `batch` every
//! [`EVERY`]; atomically: a crash leaves the previous one) and when the
//! run is interrupted; the next run loads it before searching, and it goes
//! with the resume file once the solve is saved. Progress reports pause
//! while one is written.
//!
//! A file another program or solve wrote is an error, as a resume file's
//! would be. A damaged one, or one kept with other symmetries, is only not
//! used (with a warning): it holds no value, only speed, and this run's
//! checkpoints replace it.

use crate::format::gsr::{self, BoardInfo, RulesInfo};
use crate::search::run::TableLoad;
use crate::store::resume::{ResumeError, solve_words};
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

const FORMAT: &str = "gosolve table checkpoint 1";

/// How often a running solve writes its table: long enough that writing
/// (about 10 s for a 4 GB table) costs little, short enough that a lost
/// machine loses little.
pub const EVERY: Duration = Duration::from_secs(600);

/// zstd's fastest level: a table is written while the search waits for no
/// one, and level 1 already halves it.
const LEVEL: i32 = 1;

/// Which program kept a checkpoint for which solve.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Header {
    format: String,
    program: String,
    board: BoardInfo,
    rules: RulesInfo,
}

impl Header {
    /// The header of `program`'s checkpoints of the solve of `board` under `rules`.
    pub fn new(program: String, board: BoardInfo, rules: RulesInfo) -> Header {
        Header {
            format: FORMAT.into(),
            program,
            board,
            rules,
        }
    }
}

/// The checkpoint file of one solve.
pub struct TableFile {
    path: PathBuf,
    /// The header line this solve's checkpoints start with.
    header: Vec<u8>,
    every: Duration,
    /// The file existed when opened (its size).
    found: Option<u64>,
    state: Mutex<State>,
    /// Signalled when a checkpoint is written or checkpoints end.
    written: Condvar,
    /// A failed write was reported (once is enough).
    warned: AtomicBool,
}

struct State {
    /// The value search runs: checkpoints can be written.
    live: bool,
    /// The run is interrupted and waits for a checkpoint.
    asked: bool,
    /// The last checkpoint, or when checkpoints became possible.
    last: Instant,
    /// Entries in the checkpoint on disk, when known.
    entries: Option<u64>,
    /// The checkpoint an earlier run kept is not used, and this run has
    /// not replaced it.
    unused: bool,
}

/// Removes the temporary files a write of the checkpoint at `path` left:
/// a process killed or interrupted twice while writing one leaves it, and
/// it can be as large as the table.
pub fn remove_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    gsr::remove_temporaries(dir, &name.to_string_lossy());
}

/// The first line of a checkpoint file (at most 64 kB).
fn read_header(r: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    r.take(1 << 16).read_until(b'\n', &mut line)?;
    if line.pop() != Some(b'\n') {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "no header line"));
    }
    Ok(line)
}

/// The header of the checkpoint file `f`, or why it has none.
fn kept_header(f: std::fs::File) -> Result<Header, String> {
    let line = read_header(&mut io::BufReader::new(f)).map_err(|e| e.to_string())?;
    let kept: Header = serde_json::from_slice(&line).map_err(|e| e.to_string())?;
    if kept.format != FORMAT {
        return Err(format!("not of format \"{FORMAT}\""));
    }
    Ok(kept)
}

impl TableFile {
    /// The checkpoint at `path` of the solve `header` names: an error if a
    /// file there was kept by another program or for another solve.
    pub fn open(path: PathBuf, header: &Header) -> Result<TableFile, ResumeError> {
        let bad = |why: String| ResumeError::Refused(path.clone(), why);
        remove_temporaries(&path);
        let (mut found, mut unused) = (None, false);
        match std::fs::File::open(&path) {
            Ok(f) => {
                let size = f.metadata().map_or(0, |m| m.len());
                match kept_header(f) {
                    Ok(kept) if kept.program != header.program => {
                        return Err(bad(format!(
                            "kept by {}, not by this {}",
                            kept.program, header.program
                        )));
                    }
                    Ok(kept) if kept != *header => {
                        return Err(bad(format!(
                            "kept for a solve of {}, not of {}",
                            solve_words(&kept.board, &kept.rules),
                            solve_words(&header.board, &header.rules)
                        )));
                    }
                    Ok(_) => found = Some(size),
                    Err(why) => {
                        eprintln!(
                            "warning: {} not used: its header is damaged ({why}); \
                             this run's checkpoints will replace it",
                            path.display()
                        );
                        unused = true;
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(ResumeError::Io(path, e)),
        }
        Ok(TableFile {
            header: serde_json::to_vec(header).expect("a header serialises"),
            path,
            every: EVERY,
            found,
            state: Mutex::new(State {
                live: false,
                asked: false,
                last: Instant::now(),
                entries: None,
                unused,
            }),
            written: Condvar::new(),
            warned: AtomicBool::new(false),
        })
    }

    /// Writes a checkpoint every `every` instead of every [`EVERY`].
    pub fn every(mut self, every: Duration) -> TableFile {
        self.every = every;
        self
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The size of the checkpoint an earlier run kept, if there is one.
    pub fn found(&self) -> Option<u64> {
        self.found
    }

    /// Entries in the checkpoint now on disk, if one is and their number
    /// is known (this run wrote or loaded it); `Some(None)` for one not
    /// loaded yet.
    pub fn on_disk(&self) -> Option<Option<u64>> {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match s.entries {
            Some(n) => Some(Some(n)),
            None => (!s.unused && self.path.exists()).then_some(None),
        }
    }

    /// The body of the checkpoint on disk, past its header line.
    fn body(&self) -> io::Result<Box<dyn Read>> {
        let mut r = io::BufReader::with_capacity(1 << 20, std::fs::File::open(&self.path)?);
        read_header(&mut r)?;
        let z = zstd::stream::read::Decoder::with_buffer(r)?.single_frame();
        Ok(Box::new(z))
    }

    /// Loads the checkpoint an earlier run kept through `load`.
    pub fn restore(&self, load: &mut TableLoad<'_>) {
        if self.found.is_none() {
            return;
        }
        match load(&mut || self.body()) {
            Ok(n) => self.state.lock().expect("checkpoint lock").entries = Some(n),
            Err(e) => {
                eprintln!(
                    "warning: {} not used: {e}; this run's checkpoints will replace it",
                    self.path.display()
                );
                self.state.lock().expect("checkpoint lock").unused = true;
            }
        }
    }

    /// Checkpoints can be written from now on, or no longer.
    pub fn live(&self, live: bool) {
        let mut s = self.state.lock().expect("checkpoint lock");
        s.live = live;
        s.last = Instant::now();
        self.written.notify_all();
    }

    /// Whether a checkpoint is due.
    pub fn due(&self) -> bool {
        let s = self.state.lock().expect("checkpoint lock");
        s.live && (s.asked || s.last.elapsed() >= self.every)
    }

    /// Writes a checkpoint whose body `write` writes.
    pub fn keep(&self, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<u64>) {
        let mut n = 0;
        let r = gsr::write_atomic_with(&self.path, &mut |f| {
            f.write_all(&self.header)?;
            f.write_all(b"\n")?;
            let mut z = zstd::stream::Encoder::new(f, LEVEL)?;
            z.include_checksum(true)?;
            n = write(&mut z)?;
            z.finish()?;
            Ok(())
        });
        if let Err(e) = &r {
            if !self.warned.swap(true, Ordering::Relaxed) {
                eprintln!("warning: {e}; no table checkpoint was written (an earlier one stays)");
            }
        }
        let mut s = self.state.lock().expect("checkpoint lock");
        if r.is_ok() && n == 0 {
            // Nothing settled yet (5x5 after its first 25 M nodes): a file
            // of no entries would only be reported kept and loaded again.
            let _ = std::fs::remove_file(&self.path);
            s.entries = None;
        } else if r.is_ok() {
            s.entries = Some(n);
            s.unused = false;
        }
        s.last = Instant::now();
        s.asked = false;
        self.written.notify_all();
    }

    /// The run is stopped (`stop` says how: "interrupted"): has the value
    /// search write a checkpoint now and waits for it, if the search runs.
    pub fn keep_now(&self, stop: &str) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !s.live {
            return;
        }
        s.asked = true;
        // Not `eprintln!`, which panics where stderr is gone.
        let _ = writeln!(
            std::io::stderr(),
            "{stop}: writing the search table to {} (a few seconds per GB)",
            self.path.display()
        );
        while s.asked && s.live {
            s = self.written.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::rules::{Rules, Ruleset};
    use crate::store::save::{board_info, rules_info};

    fn header(spec: &str, program: &str) -> Header {
        let board = Board::parse(spec).unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        let (b, r) = (board_info(&board), rules_info(&board, &rules));
        Header::new(program.into(), b, r)
    }

    /// What the loader reads: the whole body.
    fn read_all(open: &mut dyn FnMut() -> io::Result<Box<dyn Read>>) -> Result<u64, String> {
        let mut body = Vec::new();
        let mut r = open().map_err(|e| e.to_string())?;
        r.read_to_end(&mut body).map_err(|e| e.to_string())?;
        Ok(body.len() as u64)
    }

    /// A checkpoint reads back whole; one of another program or solve is
    /// refused; one whose header or compressed bytes are damaged is not
    /// used.
    #[test]
    fn a_checkpoint_is_only_used_by_its_own_solve_and_only_whole() {
        let dir = std::env::temp_dir().join(format!("gosolve-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("2x2.gsr.resume.table");
        let mine = header("2x2", "gosolve a");
        let t = TableFile::open(path.clone(), &mine).unwrap();
        assert_eq!((t.found(), t.on_disk()), (None, None));
        // Not live: Ctrl-C asks for nothing and does not wait.
        t.keep_now("interrupted");
        assert!(!t.due());
        t.live(true);
        let body: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        t.keep(&mut |w| w.write_all(&body).map(|_| 7));
        assert_eq!(t.on_disk(), Some(Some(7)));
        let t = TableFile::open(path.clone(), &mine).unwrap();
        assert_eq!(t.on_disk(), Some(None));
        t.restore(&mut read_all);
        assert_eq!(t.on_disk(), Some(Some(body.len() as u64)));
        for other in [header("2x2", "gosolve b"), header("1x4", "gosolve a")] {
            let e = TableFile::open(path.clone(), &other).err().unwrap();
            assert!(matches!(e, ResumeError::Refused(..)), "{e}");
        }
        // A byte of the compressed body flipped: zstd's checksum or its
        // framing finds it, and the checkpoint is not used.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 20;
        bytes[at] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let t = TableFile::open(path.clone(), &mine).unwrap();
        assert_eq!(t.on_disk(), Some(None));
        t.restore(&mut read_all);
        // Not used, so Ctrl-C does not count it as kept.
        assert_eq!(t.on_disk(), None);
        // A damaged header: not an error, the file is not used either.
        std::fs::write(&path, b"{\"format\": 3}\n").unwrap();
        let t = TableFile::open(path.clone(), &mine).unwrap();
        assert_eq!((t.found(), t.on_disk()), (None, None));
        // A checkpoint of no entries is not kept.
        let t = TableFile::open(path.clone(), &mine).unwrap();
        t.live(true);
        t.keep(&mut |w| w.write_all(b"").map(|_| 0));
        assert_eq!((t.on_disk(), path.exists()), (None, false));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
