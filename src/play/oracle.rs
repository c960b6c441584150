//! The value of any position reached by a line of moves: the result
//! file's proof where the line stays inside it, a live search within a
//! budget elsewhere, and a principal variation from there.
//!
//! Under superko a position's value depends on the whole line, so every
//! question replays the line from the start; the search sees the history.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::rules::{Rules, Ruleset, Superko};
use crate::engine::types::{Color, Move};
use crate::format::check;
use crate::format::gsr::{self, Claim, ResultFile};
use crate::play::known::{Known, Source};
use crate::search::bounds::{mover_value, value_range};
use crate::search::solver::{Config, Search, Shared};
use crate::search::tt::TableError;
use crate::store::inspect::{self, Found, LineError};
use crate::store::save;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// How much live search one question may use. The time is a hard limit:
/// a watchdog stops the search when it is up. The nodes are checked
/// between the search's depth-limited iterations, so one iteration can
/// run past them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Nodes searched.
    pub nodes: Option<u64>,
}

/// A [`Limits`] started: what is left of it, and the watchdog that stops
/// the search at the deadline (ended when the budget is dropped).
pub struct Budget {
    deadline: Option<Instant>,
    nodes_until: Option<u64>,
    stop: Arc<AtomicBool>,
    watchdog: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Drop for Budget {
    fn drop(&mut self) {
        if let Some((done, handle)) = self.watchdog.take() {
            drop(done);
            let _ = handle.join();
        }
        self.stop.store(false, Ordering::Relaxed);
    }
}

/// Black's side of a mover's-side value of `g` (and back: it is its own inverse).
fn black_side(g: &Game, v: i32) -> i32 {
    if g.to_move() == Color::Black { v } else { -v }
}

/// The result file of `board` and `rules` in `dir`, by its default name,
/// if there is one; an error if it is there but unreadable or for other
/// rules.
pub fn result_file(
    dir: &std::path::Path,
    board: &Board,
    rules: &Rules,
) -> Result<Option<(PathBuf, gsr::ResultFile)>, String> {
    let name = save::default_path(board, rules);
    let path = dir.join(name.file_name().expect("a file name"));
    if !path.exists() {
        return Ok(None);
    }
    let (f, b, r) = read_checked(&path)?;
    if b.edges() != board.edges() || r != *rules {
        return Err(format!(
            "{}: holds {} under {}, not {} under {}",
            path.display(),
            b.name(),
            r.describe(),
            board.name(),
            rules.describe()
        ));
    }
    Ok(Some((path, f)))
}

/// Why `m` may not be played in `g` (where it is not legal).
pub fn why_illegal(g: &Game, m: Move) -> String {
    let who = g.to_move().name();
    let why = match m {
        _ if g.outcome().is_some() => return "the game is over".into(),
        Move::Pass => "a pass costs a prisoner under these rules, and there is none to give",
        Move::Place(p) if (p as usize) >= g.board().len() => "not a point of the board",
        Move::Place(p) if g.position().at(p).is_some() => "the point is occupied",
        Move::Place(_) if g.rules().ruleset == Ruleset::Koh => "the point has been played before",
        Move::Place(p) if g.superko_hit(p).is_some() => match g.rules().superko {
            Superko::None => "it would retake the ko at once (basic ko)",
            _ => "it would repeat an earlier position (superko)",
        },
        Move::Place(_) => "suicide is forbidden",
    };
    format!("{who}: {why}")
}

/// The board, rules, the result file if there is one, and a search table
/// that every question shares.
pub struct Oracle<'a> {
    board: &'a Board,
    rules: Rules,
    file: Option<ResultFile>,
    shared: Shared<'a>,
    range: i32,
}

impl<'a> Oracle<'a> {
    /// `file` must be a result file of this board and rules (see
    /// [`crate::format::check::settle`]); `tt_mb` sizes the search's table.
    pub fn new(
        board: &'a Board,
        rules: &Rules,
        file: Option<ResultFile>,
        tt_mb: usize,
    ) -> Result<Oracle<'a>, TableError> {
        // No guide: on 16 points it takes seconds to build, on 18 a
        // minute, longer than most probes may run.
        let config = Config {
            tt_mb,
            guide: false,
            ..Config::default()
        };
        Ok(Oracle {
            board,
            rules: *rules,
            file,
            shared: Shared::new(board, rules, config)?,
            range: value_range(board.len(), rules),
        })
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether a result file backs the answers.
    pub fn has_file(&self) -> bool {
        self.file.is_some()
    }

    /// Every value lies in `-range..=range`.
    pub fn range(&self) -> i32 {
        self.range
    }

    /// Starts a budget of `limits` for one question (one at a time).
    pub fn budget(&self, limits: Limits) -> Budget {
        let stop = self.shared.stopper();
        stop.store(false, Ordering::Relaxed);
        let deadline = limits.time.map(|t| Instant::now() + t);
        let watchdog = deadline.map(|d| {
            let (done, wait) = mpsc::channel::<()>();
            let flag = stop.clone();
            let handle = std::thread::spawn(move || {
                let left = d.saturating_duration_since(Instant::now());
                if wait.recv_timeout(left) == Err(mpsc::RecvTimeoutError::Timeout) {
                    flag.store(true, Ordering::Relaxed);
                }
            });
            (done, handle)
        });
        Budget {
            deadline,
            nodes_until: limits.nodes.map(|n| self.shared.nodes().saturating_add(n)),
            stop,
            watchdog,
        }
    }

    fn spent(&self, b: &Budget) -> bool {
        b.stop.load(Ordering::Relaxed)
            || b.deadline.is_some_and(|d| Instant::now() >= d)
            || b.nodes_until.is_some_and(|n| self.shared.nodes() >= n)
    }

    /// The game after `line`, or which move of it is not legal.
    pub fn replay(&self, line: &[Move]) -> Result<Game<'a>, LineError> {
        let mut g = Game::new(self.board, &self.rules);
        for (i, &m) in line.iter().enumerate() {
            if g.try_play(m).is_none() {
                return Err(LineError(format!(
                    "move {} ({}) is not legal: {}",
                    i + 1,
                    self.board.move_name(m),
                    why_illegal(&g, m)
                )));
            }
        }
        Ok(g)
    }

    /// The bounds the stored strategies prove after `line` (legal, the
    /// game not over), if the file has any there.
    fn proved(&self, line: &[Move]) -> Option<(i32, i32)> {
        let f = self.file.as_ref()?;
        if line.is_empty() {
            return Some((f.value, f.value));
        }
        let r = inspect::look_up(f, self.board, &self.rules, line).ok()?;
        // A side with no strategy in an exactly valued class has a bound
        // no game can break (the class value is its extreme); in a class
        // known by a bound only that bound's owner has one. A strategy
        // that reaches here keeps its bound.
        let bound = |c: Color| {
            let mut own = r.found.iter().filter(|x| x.0 == c).peekable();
            if own.peek().is_none() {
                return (r.class_claim == Claim::Exact).then_some(r.class_value);
            }
            own.filter(|x| x.2 != Found::Off).map(|x| x.1).next()
        };
        let lo = bound(Color::Black).unwrap_or(-self.range);
        let hi = bound(Color::White).unwrap_or(self.range);
        (lo > -self.range || hi < self.range).then_some((lo, hi))
    }

    /// What is known of the value after `line`: the proof's, narrowed by a
    /// live search within `budget` if `search`.
    pub fn known(&self, line: &[Move], budget: &Budget, search: bool) -> Result<Known, LineError> {
        let mut g = self.replay(line)?;
        if g.outcome().is_some() {
            let v = black_side(&g, mover_value(&g));
            return Ok(Known {
                lo: v,
                hi: v,
                source: Source::Over,
            });
        }
        let proved = self.proved(line);
        let (lo, hi) = proved.unwrap_or((-self.range, self.range));
        let source = if proved.is_some() {
            Source::Proof
        } else {
            Source::Unknown
        };
        if lo == hi || !search {
            return Ok(Known { lo, hi, source });
        }
        let (a, b) = (black_side(&g, lo), black_side(&g, hi));
        let (mlo, mhi) = self.narrow(&mut g, a.min(b), a.max(b), budget);
        let (a, b) = (black_side(&g, mlo), black_side(&g, mhi));
        Ok(Known {
            lo: a.min(b),
            hi: a.max(b),
            source: Source::Search,
        })
    }

    /// Narrows `lo..=hi` (mover's side) around the value of `g` by
    /// zero-width tests until they meet or the budget is spent.
    fn narrow(&self, g: &mut Game, mut lo: i32, mut hi: i32, budget: &Budget) -> (i32, i32) {
        let mut s = Search::new(&self.shared);
        while lo < hi {
            let x = lo + (hi - lo) / 2;
            match self.at_most(&mut s, g, x, budget) {
                Some(true) => hi = x,
                Some(false) => lo = x + 1,
                None => break,
            }
        }
        (lo, hi)
    }

    /// Whether the value of `g` (mover's side) is at most `x`; `None` if
    /// the budget ran out first. Lines are cut short at a limit that
    /// doubles until the answer does not depend on the cut (as the
    /// solver's own driver does), the budget checked in between.
    fn at_most(&self, s: &mut Search, g: &mut Game, x: i32, budget: &Budget) -> Option<bool> {
        let mut limit = (self.board.len() as u32).max(4);
        loop {
            if self.spent(budget) {
                return None;
            }
            if let Some(answer) = s.at_most_within(g, x, limit, u64::MAX) {
                return Some(answer);
            }
            limit = limit.saturating_mul(2);
        }
    }

    /// A principal variation after `line` whose value is `value` (Black's
    /// side): at each turn the first legal move (pass first, then points in
    /// order) that keeps the value. The flag is false if the budget ran out
    /// (or the value was not the line's) before the game ended.
    pub fn pv(
        &self,
        line: &[Move],
        value: i32,
        budget: &Budget,
    ) -> Result<(Vec<Move>, bool), LineError> {
        let mut g = self.replay(line)?;
        let mut s = Search::new(&self.shared);
        let mut out = Vec::new();
        while g.outcome().is_none() {
            let want = black_side(&g, value);
            let mut next = None;
            for m in g.legal_moves() {
                let u = g.play(m);
                let keeps = self.at_most(&mut s, &mut g, -want, budget);
                g.undo(u);
                match keeps {
                    None => return Ok((out, false)),
                    Some(true) => {
                        next = Some(m);
                        break;
                    }
                    Some(false) => {}
                }
            }
            let Some(m) = next else {
                return Ok((out, false));
            };
            g.play(m);
            out.push(m);
        }
        Ok((out, true))
    }
}

/// The result file at `path` with its board and rules, every field
/// checked (`format::check::settle`); errors name the file.
pub fn read_checked(path: &Path) -> Result<(gsr::ResultFile, Board, Rules), String> {
    let f = gsr::read(path).map_err(|e| e.to_string())?;
    let (b, r) = check::settle(&f).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((f, b, r))
}
