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
//! The signal is taken by `signal-hook`, which hands it from the signal
//! handler (where almost nothing is safe to do) to an ordinary thread
//! through a pipe; that thread takes the resume file's lock, writes what
//! is finished and prints.

use crate::cli::progress::Bars;
use crate::store::resume::{Resume, plural};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// The resume file is gone: the solve is saved.
    finished: AtomicBool,
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
        let mut signals = Signals::new([SIGINT, SIGTERM])
            .map_err(|e| format!("cannot take Ctrl-C and SIGTERM: {e}"))?;
        let watch = Arc::new(Interrupt {
            resume,
            bars,
            fresh,
            finished: AtomicBool::new(false),
        });
        let w = Arc::clone(&watch);
        let r = Arc::clone(&watch.resume);
        // The thread lives as long as the process: dropping `signals` would
        // leave Ctrl-C ignored, not restore its default.
        std::thread::spawn(move || {
            let mut signals = signals.forever();
            let Some(first) = signals.next() else { return };
            let (stop, status) = if first == SIGTERM {
                ("terminated", TERM_STATUS)
            } else {
                ("interrupted", STATUS)
            };
            // Writing the table can take a while: a second signal ends the
            // process at once (the write is atomic, an earlier one stays).
            std::thread::spawn(move || {
                w.stop(stop);
                std::process::exit(status);
            });
            // A second signal within a second is the same request sent
            // twice: `timeout` signals the command and then its own
            // process group, which holds the command too.
            let first_at = std::time::Instant::now();
            let again = signals.find(|_| first_at.elapsed() >= REPEAT);
            if again.is_some() {
                r.abandon_table();
                say(&format!(
                    "{stop} again: ended at once (a table checkpoint under way, if any, \
                     was not finished; the last whole one stays)\n"
                ));
                std::process::exit(status);
            }
        });
        Ok(watch)
    }

    /// The solve is saved and its resume file removed: Ctrl-C now only ends
    /// the process.
    pub fn finished(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.resume.mark_done();
    }

    /// From now on, the solve also stops as Ctrl-C stops it, but with
    /// [`MEMORY_STATUS`], once the process holds more than `limit` bytes
    /// of resident memory (checked every 200 ms, the first time at once).
    pub fn watch_memory(self: &Arc<Self>, limit: u64) {
        let w = Arc::clone(self);
        std::thread::spawn(move || {
            let held = loop {
                if w.finished.load(Ordering::SeqCst) {
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
            if w.finished.load(Ordering::SeqCst) {
                return;
            }
            w.bars.clear();
            let gb = |b: u64| b as f64 / 1e9;
            // Said first: writing a table checkpoint says so as it starts.
            say(&format!(
                "stopped: the solve held {:.1} GB, past the {:.1} GB this machine can give it \
                 (GOSOLVE_MEMORY_MB); `--no-save` skips the proof's extraction, which \
                 often takes the most\n",
                gb(held),
                gb(limit)
            ));
            if w.stop("stopped") {
                std::process::exit(MEMORY_STATUS);
            }
        });
    }

    /// Writes what is finished and says what was kept, after `stop`
    /// ("interrupted"), unless the solve was saved meanwhile (before or
    /// while the table was written); whether it said so.
    fn stop(&self, stop: &str) -> bool {
        self.bars.clear();
        if self.finished.load(Ordering::SeqCst) {
            return false;
        }
        let m = self.message(stop);
        if self.finished.load(Ordering::SeqCst) {
            return false;
        }
        say(&m);
        true
    }

    /// What was kept and how to go on, after `stop` ("interrupted");
    /// writes the table checkpoint (if the value search runs) and the
    /// resume file.
    fn message(&self, stop: &str) -> String {
        let table = self.resume.table_on_interrupt(stop);
        let (classes, bounded, strategies) = self.resume.interrupted();
        let path = self.resume.path().display();
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
        let fresh = if self.fresh {
            " without --fresh (which discards them)"
        } else {
            ""
        };
        let go_on = format!("run the same command again{fresh} to resume from there\n");
        if classes == 0 && bounded == 0 {
            return match table {
                None => {
                    format!(
                        "{stop} before a first-move class had a finished test: nothing was \
                         kept, and running the command again starts over\n"
                    )
                }
                Some(t) => format!("{stop}: kept {t}\n{go_on}"),
            };
        }
        let mut kept = crate::store::resume::kept_words(classes, bounded);
        if strategies > 0 {
            kept += &format!(" and {}", plural(strategies, "strategy", "strategies"));
        }
        let table = table.map_or(String::new(), |t| format!(", and {t}"));
        format!("{stop}: kept {kept} in {path}{table}\n{go_on}")
    }
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
            finished: AtomicBool::new(false),
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
    }
}
