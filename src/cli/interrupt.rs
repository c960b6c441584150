//! Ctrl-C during a solve: the finished work is in the resume file, and the
//! user is told so, where it is and how to go on, before the process ends
//! with the status a shell gives an interrupted command (130).
//!
//! SIGTERM is taken the same way, with status 143: it is how `kill`,
//! `timeout` and a cluster's scheduler at the end of a job's time ask a
//! process to stop (SLURM sends SIGTERM and, 30 s later by default,
//! SIGKILL), and before it was taken a long solve so ended lost its
//! search table's checkpoint. SIGHUP is left alone: a solve started under
//! `nohup` has it ignored, and taking it would undo that.
//!
//! The same stop, with status 1, when the process's resident memory nears
//! the machine's ([`Interrupt::watch_memory`]): the allocator does not
//! refuse memory the machine cannot back, the kernel ends the process
//! instead (4x5's proof extraction, value known after 10 minutes, was
//! killed at 24.4 GB), and then the last minutes' work and the reason
//! are lost.
//!
//! A batch ([`Batch`]) takes both signals too: each job in flight keeps
//! what it finished, as a solve does.
//!
//! The signal is taken by `signal-hook`, which hands it from the signal
//! handler (where almost nothing is safe to do) to an ordinary thread
//! through a pipe; that thread takes the resume file's lock, writes what
//! is finished and prints.

use crate::cli::progress::Bars;
use crate::store::resume::{Resume, plural};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The exit status of a command ended by Ctrl-C (128 + SIGINT).
pub const STATUS: i32 = 130;

/// The exit status of a command ended by SIGTERM (128 + 15).
pub const TERM_STATUS: i32 = 128 + SIGTERM;

/// The exit status of a solve stopped for memory.
pub const MEMORY_STATUS: i32 = 1;

/// A signal this soon after the first is taken for the same one.
const REPEAT: Duration = Duration::from_secs(1);

/// How often the memory watch looks.
const MEMORY_EVERY: Duration = Duration::from_millis(200);

/// Writes `m` to stderr, ignoring a failure: `eprint!` panics when
/// stderr is gone, and the thread would then die without ending the
/// process.
fn say(m: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(m.as_bytes());
}

/// What Ctrl-C says about a solve in progress.
pub struct Interrupt {
    resume: Arc<Resume>,
    bars: Arc<Bars>,
    /// The command had `--fresh`, which a rerun must leave out.
    fresh: bool,
}

impl Interrupt {
    /// From now on, Ctrl-C ends the process with [`STATUS`] and SIGTERM
    /// with [`TERM_STATUS`], saying what `resume` kept (until
    /// [`Interrupt::finished`]).
    pub fn start(
        resume: Arc<Resume>,
        bars: Arc<Bars>,
        fresh: bool,
    ) -> Result<Arc<Interrupt>, String> {
        let watch = Arc::new(Interrupt {
            resume,
            bars,
            fresh,
        });
        let (w, r) = (Arc::clone(&watch), Arc::clone(&watch));
        take_signals(
            move |stop| {
                w.stop(stop);
            },
            move || r.resume.abandon_table(),
        )?;
        Ok(watch)
    }

    /// The solve is saved and its resume file removed: Ctrl-C now only ends
    /// the process.
    pub fn finished(&self) {
        self.resume.mark_done();
    }

    /// From now on, the solve also stops as Ctrl-C stops it, but with
    /// [`MEMORY_STATUS`], once the process holds more than `limit` bytes
    /// of resident memory (checked every 200 ms, the first time at once).
    pub fn watch_memory(self: &Arc<Self>, limit: u64, proving: bool) {
        let (w, over) = (Arc::clone(self), Arc::clone(self));
        let hint = if proving {
            "`--no-save` skips the proof's extraction, which often takes the most"
        } else {
            "a smaller table (`--tt-mb`) leaves more room"
        };
        on_memory(
            limit,
            move || over.resume.is_done(),
            move |held| {
                w.bars.clear();
                // Said first: writing a table checkpoint says so as it starts.
                say(&too_much("solve", held, limit, hint));
                if w.stop("stopped") {
                    std::process::exit(MEMORY_STATUS);
                }
            },
        );
    }

    /// Writes what is finished and says what was kept, after `stop`
    /// ("interrupted"), unless the solve was saved meanwhile (before or
    /// while the table was written); whether it said so.
    fn stop(&self, stop: &str) -> bool {
        self.bars.clear();
        if self.resume.is_done() {
            return false;
        }
        let m = self.message(stop);
        if self.resume.is_done() {
            return false;
        }
        say(&m);
        true
    }

    /// What was kept and how to go on, after `stop` ("interrupted");
    /// writes the table checkpoint (if the value search runs) and the
    /// resume file.
    fn message(&self, stop: &str) -> String {
        let fresh = if self.fresh {
            " without --fresh (which discards them)"
        } else {
            ""
        };
        match kept(&self.resume, stop) {
            None => format!(
                "{stop} before a first-move class had a finished test: nothing was \
                 kept, and running the command again starts over\n"
            ),
            Some(k) => {
                format!("{stop}: {k}\nrun the same command again{fresh} to resume from there\n")
            }
        }
    }
}

/// Ctrl-C and SIGTERM during a batch: every job in flight keeps what it
/// finished as a stopped solve does (the resume file and the search
/// table's checkpoint beside its result file), the finished jobs' files
/// are written already, and a rerun of the batch skips those and resumes
/// the others. Before a batch took the signals, Ctrl-C ended it at once,
/// and each job in flight lost its search table since the last
/// checkpoint (10 minutes by default).
pub struct Batch {
    /// Jobs in flight: number (1-based), label, resume file.
    running: Mutex<Vec<(usize, String, Arc<Resume>)>>,
    /// Jobs whose verified result file is written.
    finished: AtomicUsize,
    total: usize,
    dir: PathBuf,
    /// Clears the progress bars.
    clear: Box<dyn Fn() + Send + Sync>,
}

/// A batch job in flight, until dropped.
pub struct InFlight<'b> {
    batch: &'b Batch,
    job: usize,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        lock(&self.batch.running).retain(|r| r.0 != self.job);
    }
}

impl Batch {
    /// From now on, Ctrl-C and SIGTERM stop the batch of `total` jobs
    /// writing to `dir` as they stop a solve, after `clear`ing its bars.
    pub fn start(
        total: usize,
        dir: &Path,
        clear: impl Fn() + Send + Sync + 'static,
    ) -> Result<Arc<Batch>, String> {
        let batch = Arc::new(Batch {
            running: Mutex::new(Vec::new()),
            finished: AtomicUsize::new(0),
            total,
            dir: dir.to_path_buf(),
            clear: Box::new(clear),
        });
        let (b, r) = (Arc::clone(&batch), Arc::clone(&batch));
        take_signals(
            move |stop| b.stop(stop),
            move || {
                for (_, _, resume) in lock(&r.running).iter() {
                    resume.abandon_table();
                }
            },
        )?;
        Ok(batch)
    }

    /// Job `job` (1-based), `label` in command-line words, runs with
    /// `resume`, until the guard is dropped.
    pub fn enter(&self, job: usize, label: String, resume: Arc<Resume>) -> InFlight<'_> {
        lock(&self.running).push((job, label, resume));
        InFlight { batch: self, job }
    }

    /// From now on, the batch also stops as Ctrl-C stops it, but with
    /// [`MEMORY_STATUS`], once the process holds more than `limit` bytes
    /// of resident memory, as [`Interrupt::watch_memory`] stops a solve.
    pub fn watch_memory(self: &Arc<Self>, limit: u64) {
        let b = Arc::clone(self);
        on_memory(
            limit,
            || false,
            move |held| {
                (b.clear)();
                say(&too_much(
                    "batch",
                    held,
                    limit,
                    "fewer jobs at once (`--parallel`) leave each more",
                ));
                b.stop("stopped");
                std::process::exit(MEMORY_STATUS);
            },
        );
    }

    /// A job's verified result file is written (now or by an earlier run).
    pub fn finished(&self) {
        self.finished.fetch_add(1, Ordering::SeqCst);
    }

    /// Writes what each job in flight finished and says so, job by job,
    /// then how many jobs are done and how to go on.
    fn stop(&self, stop: &str) {
        (self.clear)();
        // A copy, with the count of the jobs done then: the lock is not
        // held while tables are written, so a second signal can take it
        // (to abandon them). A job in the copy is counted only once it
        // has left the list, so it is in the count or in the copy.
        let (mut running, mut done) = {
            let list = lock(&self.running);
            (list.clone(), self.finished.load(Ordering::SeqCst))
        };
        running.sort_by_key(|r| r.0);
        let mut resumed = 0;
        for (job, label, resume) in &running {
            if resume.is_done() {
                // Its result file is written (it was being verified).
                // After `kept`, a job cannot finish: its resume file's
                // lock stays taken.
                done += 1;
                continue;
            }
            resumed += 1;
            let k = kept(resume, stop)
                .unwrap_or_else(|| "nothing kept (no first-move class had a finished test)".into());
            say(&format!("{stop}: job {job} ({label}): {k}\n"));
        }
        let others = if resumed > 0 {
            ", and resumes the others from what they kept"
        } else {
            ""
        };
        say(&format!(
            "{stop}: {done} of {} jobs finished, their result files in {}; run the same \
             batch again to go on: it skips the finished jobs{others}\n",
            self.total,
            self.dir.display()
        ));
    }
}

/// Ends a `gosolve verify` with [`MEMORY_STATUS`] once the process holds
/// more than `limit` bytes of resident memory, unless `done()` holds
/// first: `report` gets the reason (to clear the progress bar and give
/// the JSON result), then it is said. The checker keeps every owner node
/// a later link may name: 4x5's positional proof, 27.8 M owner nodes in
/// one strategy, passed 24 GB and was killed by the system with nothing
/// said, before the colourings they produced were kept compactly (now
/// 9.0 GB).
pub fn watch_verify_memory(
    limit: u64,
    done: impl Fn() -> bool + Send + 'static,
    report: impl FnOnce(&str) + Send + 'static,
) {
    let stop = move |held: u64| {
        let m = too_much(
            "verify",
            held,
            limit,
            "the checker keeps every owner node a later link may name, so a proof with tens of \
             millions of them needs a machine with more memory; NOT verified",
        );
        report(m.trim_end());
        say(&m);
        std::process::exit(MEMORY_STATUS);
    };
    // Looked at once here too, so that a limit already passed stops even
    // a check shorter than the watch's first look.
    match crate::search::run::resident_memory() {
        Some(held) if held > limit => stop(held),
        _ => on_memory(limit, done, stop),
    }
}

/// Runs `stop(held)` on a thread of its own once the process holds
/// `held` bytes of resident memory, more than `limit` (checked every
/// [`MEMORY_EVERY`], the first time at once), unless `over()` holds first.
fn on_memory(
    limit: u64,
    over: impl Fn() -> bool + Send + 'static,
    stop: impl FnOnce(u64) + Send + 'static,
) {
    std::thread::spawn(move || {
        let held = loop {
            if over() {
                return;
            }
            let Some(held) = crate::search::run::resident_memory() else {
                return;
            };
            if held > limit {
                break held;
            }
            std::thread::sleep(MEMORY_EVERY);
        };
        if !over() {
            stop(held);
        }
    });
}

/// Why a `what` ("solve") stopped for memory, with a `hint`.
fn too_much(what: &str, held: u64, limit: u64, hint: &str) -> String {
    // In the units of GOSOLVE_MEMORY_MB (and --tt-mb), 2^20 bytes, so
    // that 300 reads "300 MB"; in MB under a GB (a small limit read
    // "0.0 GB").
    let size = |b: u64| match b {
        0..0x4000_0000 => format!("{} MB", b >> 20),
        _ => format!("{:.1} GB", b as f64 / f64::from(1u32 << 30)),
    };
    format!(
        "stopped: the {what} held {}, past the {} this machine can give it \
         (GOSOLVE_MEMORY_MB); {hint}\n",
        size(held),
        size(limit)
    )
}

/// The lock, even if a thread panicked holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes SIGINT and SIGTERM from now on: the first runs `stop` (with
/// "interrupted" or "terminated") on a thread of its own and then ends
/// the process with [`STATUS`] or [`TERM_STATUS`]; another one a second
/// or more later ends it at once, after `abandon` (writing a table can
/// take a while, and the write is atomic: an earlier one stays).
fn take_signals(
    stop: impl FnOnce(&'static str) + Send + 'static,
    abandon: impl FnOnce() + Send + 'static,
) -> Result<(), String> {
    let mut signals = Signals::new([SIGINT, SIGTERM])
        .map_err(|e| format!("cannot take Ctrl-C and SIGTERM: {e}"))?;
    // The thread lives as long as the process: dropping `signals` would
    // leave Ctrl-C ignored, not restore its default.
    std::thread::spawn(move || {
        let mut signals = signals.forever();
        let Some(first) = signals.next() else { return };
        let (word, status) = if first == SIGTERM {
            ("terminated", TERM_STATUS)
        } else {
            ("interrupted", STATUS)
        };
        std::thread::spawn(move || {
            stop(word);
            std::process::exit(status);
        });
        // A second signal within a second is the same request sent
        // twice: `timeout` signals the command and then its own process
        // group, which holds the command too.
        let first_at = std::time::Instant::now();
        if signals.any(|_| first_at.elapsed() >= REPEAT) {
            abandon();
            say(&format!(
                "{word} again: ended at once (a table checkpoint under way, if any, \
                 was not finished; the last whole one stays)\n"
            ));
            std::process::exit(status);
        }
    });
    Ok(())
}

/// What a stopped solve kept, as "kept ... in ...", or `None` if nothing:
/// writes the table checkpoint (if the value search runs) and the resume
/// file, after which `resume` writes nothing more.
fn kept(resume: &Resume, stop: &str) -> Option<String> {
    let table = resume.table_on_interrupt(stop);
    let (classes, bounded, strategies) = resume.interrupted();
    let table = table.map(|(p, entries)| {
        let what = match entries {
            Some(n) => format!(
                "the search table ({})",
                plural(n as usize, "entry", "entries")
            ),
            None => "the search table an earlier run kept".into(),
        };
        format!("{what} in {}", p.display())
    });
    if classes == 0 && bounded == 0 {
        return table.map(|t| format!("kept {t}"));
    }
    let mut words = crate::store::resume::kept_words(classes, bounded);
    if strategies > 0 {
        words += &format!(" and {}", plural(strategies, "strategy", "strategies"));
    }
    let table = table.map_or(String::new(), |t| format!(", and {t}"));
    Some(format!(
        "kept {words} in {}{table}",
        resume.path().display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::rules::{Rules, Ruleset};
    use crate::engine::types::{Color, Move};
    use crate::search::proof::Strategy;
    use crate::search::root::RootLog;
    use crate::search::run::Kept;

    /// A run with `--fresh` is told to go on without it; strategies count.
    #[test]
    fn the_message_names_what_was_kept_and_how_to_go_on() {
        let dir = std::env::temp_dir().join(format!("gosolve-interrupt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("2x2.gsr.resume");
        let board = Board::parse("2x2").unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        let resume = Resume::open(&path, &board, &rules)
            .unwrap()
            .save_after(std::time::Duration::ZERO);
        resume.record(Move::Place(0), 2, 10);
        resume.record(Move::Pass, -2, 10);
        let st = Strategy {
            owner: Color::Black,
            bound: 2,
            nodes: 1,
            bytes: vec![1, 2, 3],
        };
        resume.record_strategy(Move::Place(0), &st);
        let watch = Interrupt {
            resume: Arc::new(resume),
            bars: Arc::new(Bars::new(false)),
            fresh: true,
        };
        assert_eq!(
            watch.message("interrupted"),
            format!(
                "interrupted: kept 2 first-move class values and 1 strategy in {}\n\
                 run the same command again without --fresh (which discards them) \
                 to resume from there\n",
                path.display()
            )
        );
        crate::store::resume::discard(&path).unwrap();
        std::fs::remove_dir(&dir).unwrap();
    }
}
