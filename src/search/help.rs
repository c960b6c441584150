//! Idle threads helping a first-move class's df-pn test.
//!
//! The root values its first-move classes side by side, one thread each;
//! once no class is left to start, a thread that finishes joins a class
//! still running and searches the same test from the same game (the
//! class's first move after the start). Both store their settled results
//! in the shared table, so each finds what the other proved; whichever
//! settles the test first hands its result over ([`Helped::settle`]) and
//! the other leaves the test ([`Search::halted`]). A helper's result is
//! the same test's on the same path, so it decides exactly as the class's
//! own would.
//!
//! Two searches with the same numbers would walk the same line, so each
//! marks the child it is searching ([`Busy`]), and near the test's root
//! a node's child that another thread is inside looks twice as hard to
//! prove to the others when they choose where to go (deeper, in superko
//! fights, it sent them astray: `AVOID_TURNS` in `dfpn.rs`). This only
//! steers: the numbers a node returns are its children's, unmarked.
//!
//! [`Search::halted`]: crate::search::solver::Search

use crate::search::facts::Res;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The test a class's search is running, for helpers to join.
#[derive(Default)]
pub struct Helped {
    /// The number of the test running, 0 while none is.
    running: AtomicU64,
    /// The highest test number a search has settled.
    done: AtomicU64,
    /// The test running (its number and "at least x?"), and the last
    /// test settled with its result.
    state: Mutex<State>,
    /// Threads helping the class now (for choosing and for the progress).
    helpers: AtomicUsize,
}

#[derive(Default)]
struct State {
    test: (u64, i32),
    settled: Option<(u64, Res)>,
}

impl Helped {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The class's own search starts "at least `x`?": its number.
    pub fn start(&self, x: i32) -> u64 {
        let mut s = self.state();
        let n = s.test.0 + 1;
        s.test = (n, x);
        self.running.store(n, Ordering::Release);
        n
    }

    /// A helper joins the class: how many help it now.
    pub fn join(&self) -> usize {
        self.helpers.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// A helper leaves the class: how many help it now.
    pub fn leave(&self) -> usize {
        self.helpers.fetch_sub(1, Ordering::Relaxed) - 1
    }

    /// How many threads help the class now.
    pub fn helpers(&self) -> usize {
        self.helpers.load(Ordering::Relaxed)
    }

    /// The class's own search runs no test (between tests, or done).
    pub fn pause(&self) {
        self.running.store(0, Ordering::Release);
    }

    /// The test running, if one is and no search has settled it yet.
    pub fn current(&self) -> Option<(u64, i32)> {
        let s = self.state();
        let (n, x) = s.test;
        (self.running.load(Ordering::Acquire) == n && self.done.load(Ordering::Acquire) < n)
            .then_some((n, x))
    }

    /// Whether a search of test `n` should leave it: another settled it,
    /// or it no longer runs.
    #[inline]
    pub fn over(&self, n: u64) -> bool {
        self.done.load(Ordering::Relaxed) >= n || self.running.load(Ordering::Relaxed) != n
    }

    /// A helper settled test `n` with `r` (kept if the test still runs
    /// and nobody settled it first).
    pub fn settle(&self, n: u64, r: Res) {
        let mut s = self.state();
        if self.running.load(Ordering::Acquire) == n && self.done.load(Ordering::Acquire) < n {
            s.settled = Some((n, r));
            self.done.store(n, Ordering::Release);
        }
    }

    /// The result a helper settled test `n` with, if it did.
    pub fn taken(&self, n: u64) -> Option<Res> {
        match self.state().settled.take() {
            Some((m, r)) if m == n => Some(r),
            _ => None,
        }
    }
}

/// Which children searches are inside: a count per hash slot, shared by
/// all threads (collisions only steer a little worse).
pub struct Busy {
    slots: Vec<AtomicU8>,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy {
            slots: (0..1 << 16).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

impl Busy {
    fn slot(&self, h: u64) -> &AtomicU8 {
        &self.slots[(h >> 48) as usize]
    }

    /// A search enters the child whose state hash is `h`.
    #[inline]
    pub fn enter(&self, h: u64) {
        self.slot(h).fetch_add(1, Ordering::Relaxed);
    }

    /// A search leaves it.
    #[inline]
    pub fn leave(&self, h: u64) {
        self.slot(h).fetch_sub(1, Ordering::Relaxed);
    }

    /// Whether some search is inside it.
    #[inline]
    pub fn inside(&self, h: u64) -> bool {
        self.slot(h).load(Ordering::Relaxed) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::facts::CLEAN;

    fn res(v: i32) -> Res {
        Res {
            v,
            lo: CLEAN,
            hi: CLEAN,
            open: false,
        }
    }

    /// A helper's result goes to the test it settled, once; a later test
    /// or a paused class takes none.
    #[test]
    fn a_settled_test_hands_its_result_over_once() {
        let h = Helped::default();
        assert_eq!(h.current(), None);
        let n = h.start(3);
        assert_eq!(h.current(), Some((n, 3)));
        assert!(!h.over(n));
        h.settle(n, res(5));
        assert!(h.over(n));
        assert_eq!(h.current(), None, "settled: nothing to help with");
        assert_eq!(h.taken(n).map(|r| r.v), Some(5));
        assert!(h.taken(n).is_none());
        let m = h.start(6);
        assert!(h.over(n) && !h.over(m));
        h.pause();
        assert!(h.over(m));
        h.settle(m, res(7));
        assert!(h.taken(m).is_none(), "a paused test takes no result");
    }

    #[test]
    fn busy_counts_each_search_inside() {
        let b = Busy::default();
        let h = 0xABCD_0000_0000_0001;
        assert!(!b.inside(h));
        b.enter(h);
        b.enter(h);
        b.leave(h);
        assert!(b.inside(h));
        b.leave(h);
        assert!(!b.inside(h));
    }
}
