//! Results that depend on the history, kept for the one path they were
//! found on, for proof extraction.
//!
//! A result whose proof relied on the history before its node (a superko
//! refusal of an earlier state, a repetition tie) is not stored in the
//! table (module [`facts`](crate::search::facts)). Proof extraction walks
//! down the lines the solve's searches proved, and without these results
//! it proved each such line again at every owner node below: 1x10
//! `--suicide forbidden` had not finished its proof after 5 minutes on 2
//! threads (single choices of 22 M to 91 M nodes at depths 77 to 136);
//! with them it takes 20 s on one thread, and on 2 mostly 3 to 9 s
//! (README: some runs still pass minutes; on 3x3 `--superko none` such
//! runs were writing strategies of 160 K owner nodes over 4,400 states,
//! most links refused (inferred, not counted), and stalled as often with
//! this table large enough to drop nothing). Keyed by the node and its
//! path, a result holds as stored: the game below a node is decided by
//! the node and the history before it, and the facts the result carries
//! refer to that history by the same indices, in the same frame.
//!
//! Where a proof is to be extracted ([`Config::proof_follows`])
//! and there is a table (`--tt-mb` above 0), every search keeps its
//! history-dependent results here and hands them to the shared table
//! when it ends; the extraction's search then uses
//! them to cut and keeps its own. The solve's searches never cut on
//! them, so the value's search is the same with or without a proof:
//! there, reusing a history-dependent result made its ancestors
//! history-dependent too, where searching it again often found a proof
//! the table can keep (1x10 `--suicide forbidden`, one thread: 33.5 M
//! nodes without, 262 M with; unstored results 218 thousand → 2.4 M).
//!
//! The path is represented by two independent 64-bit hashes of the
//! sequence of its entries (and its length, in the key), so two paths
//! are confused with odds of about 2^-128 per pair; even then the
//! extracted strategy is replayed by the independent checker before it
//! counts. A search's own table holds at most [`CAPACITY`] entries (344
//! bytes each, in at most 2^20 slots: about 360 MB): 1x10 `--suicide
//! forbidden` on one thread, with 2^18 entries, searched 56 M nodes for
//! its proof (551 MB at the peak) where it searched 41 M (830 MB; 38 M
//! since a table entry's move is that of its best lower bound). The
//! shared one holds as many as `--tt-mb` would (at least [`CAPACITY`];
//! [`shared_capacity`]): 1x14 `--suicide forbidden` with `--tt-mb 4096`
//! kept 917 K and refused 369 K more (some of them perhaps the same
//! result twice); whether the refused ones slowed its extraction was not
//! measured, and most of that extraction's nodes went elsewhere
//! ([`Search::keeps_within`](crate::search::solver::Search)). These
//! tables are memory beyond `--tt-mb`, up to one per search thread plus
//! the shared one, grown as results come (allocation inside `store`,
//! amortised, and only where a proof follows).
//!
//! The extractions, which run side by side and (from 2026-11-30) while
//! the value search still runs, each a class's as soon as its value is
//! settled, read the shared table under its read lock, and each keeps
//! its own results in a table of its own. (Before, the shared table was
//! frozen as the extraction started, after the value search.) A result
//! found later on the same path is as good as one found before, so what
//! an extraction reads of a table still growing is sound.
//!
//! [`Config::proof_follows`]: crate::search::solver::Config::proof_follows

use crate::engine::game::HistoryEntry;
use crate::engine::types::Move;
use crate::search::facts::Facts;
use crate::search::tt::TableKey;
use hashbrown::HashMap;

/// Entries a table forgets everything at (a search's own), or stops
/// taking new ones at (the shared one, [`PathTable::keeping`]): 7/8 of
/// 2^20, the most the map holds in 2^20 slots.
const CAPACITY: usize = 7 << 17;

/// Bytes an entry takes in the map (key and value).
const ENTRY_BYTES: usize = std::mem::size_of::<(PathKey, Entry)>();

/// The entries the shared table keeps under a table of `tt_mb` MB: 7/8
/// of the most slots (a power of two) whose entries fit in `tt_mb`, and
/// at least [`CAPACITY`].
pub(super) fn shared_capacity(tt_mb: usize) -> usize {
    let fit = (tt_mb << 20) / ENTRY_BYTES;
    let slots = if fit == 0 { 0 } else { 1 << fit.ilog2() };
    (slots / 8 * 7).max(CAPACITY)
}

/// The hash of a path: of the history entries before a node, in order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct PathHash {
    a: u64,
    b: u64,
}

impl PathHash {
    /// The empty path's.
    pub(super) const START: PathHash = PathHash {
        a: 0x243F_6A88_85A3_08D3,
        b: 0x1319_8A2E_0370_7344,
    };

    /// The path extended by the history entry `e`. Hashed as it stands,
    /// not up to symmetry: the table's keys are, so a path and its mirror
    /// image (or two mirror-image children of one symmetric node, after an
    /// asymmetric history) must differ here. The two halves digest the
    /// entry independently, so two entries collide in both with odds of
    /// about 2^-128.
    #[inline]
    pub(super) fn then(self, e: &HistoryEntry) -> PathHash {
        let (b, w, m) = (e.pos.black.0, e.pos.white.0, e.to_move as u64);
        let h1 = b.wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            ^ w.rotate_left(32).wrapping_mul(0xC4CE_B9FE_1A85_EC53)
            ^ m;
        let h2 = (b ^ 0xD6E8_FEB8_6659_FD93).wrapping_mul(0xA076_1D64_78BD_642F)
            ^ (w ^ 0x8EBC_6AF0_9C88_C6E3).wrapping_mul(0xE703_7ED1_A0B4_28DB)
            ^ m.wrapping_mul(0x5899_65CC_7537_4CC3);
        PathHash {
            a: (self.a ^ h1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29),
            b: (self.b.rotate_left(17) ^ h2.rotate_left(23))
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .wrapping_add(0x1656_67B1_9E37_79F9),
        }
    }
}

/// A bound and the facts that prove it.
pub(super) type Proved = Option<(i32, Facts)>;

#[derive(Clone, Copy)]
struct Entry {
    lower: Proved,
    upper: Proved,
    best: Move,
}

impl Entry {
    /// Takes `lower` where it is higher than the kept lower bound and
    /// `upper` where it is lower than the kept upper bound; whether the
    /// lower bound was taken.
    fn tighten(&mut self, lower: Proved, upper: Proved) -> bool {
        if let Some(u) = upper.filter(|u| self.upper.is_none_or(|o| o.0 > u.0)) {
            self.upper = Some(u);
        }
        match lower.filter(|l| self.lower.is_none_or(|o| o.0 < l.0)) {
            Some(l) => {
                self.lower = Some(l);
                true
            }
            None => false,
        }
    }
}

/// Where a result was found: the node's key in the table's frame, the
/// symmetry that maps the game's frame to it, and the path before it
/// (its length and hash).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct PathKey {
    pub(super) key: TableKey,
    pub(super) sym: u32,
    pub(super) d: u32,
    pub(super) path: PathHash,
}

/// History-dependent results by [`PathKey`].
pub(super) struct PathTable {
    map: HashMap<PathKey, Entry>,
    /// When full, refuse new entries rather than forget the old ones (the
    /// shared table, and the extraction's, which holds the solve's).
    keep: bool,
    /// Results refused or forgotten because the table was full (debug).
    pub(super) dropped: u64,
    /// The most entries it holds.
    cap: usize,
}

impl PathTable {
    /// A search's own table: when full it forgets everything, keeping
    /// the results of what it searches now.
    pub(super) fn new() -> PathTable {
        PathTable {
            map: HashMap::new(),
            keep: false,
            dropped: 0,
            cap: CAPACITY,
        }
    }

    /// A table of at most `cap` entries that, when full, keeps what it
    /// holds.
    pub(super) fn keeping(cap: usize) -> PathTable {
        PathTable {
            map: HashMap::new(),
            keep: true,
            dropped: 0,
            cap,
        }
    }

    /// Keeps the lower bound `lower` and the upper bound `upper` (mover's
    /// side) found at `at`, and `best` as its move where it is the first
    /// result there or proves a better lower bound.
    pub(super) fn store(&mut self, at: PathKey, lower: Proved, upper: Proved, best: Move) {
        if self.map.len() >= self.cap && !self.map.contains_key(&at) {
            if self.keep {
                self.dropped += 1;
                return;
            }
            // A cache: forgetting costs a search again, never a value, and
            // clearing keeps the allocation.
            self.dropped += self.map.len() as u64;
            self.map.clear();
        }
        let e = self.map.entry(at).or_insert(Entry {
            lower: None,
            upper: None,
            best,
        });
        if e.tighten(lower, upper) {
            e.best = best;
        }
    }

    /// Adds the entries of `other`, as far as there is room.
    pub(super) fn absorb(&mut self, other: PathTable) {
        if self.map.is_empty() {
            self.map = other.map;
            return;
        }
        for (at, e) in other.map {
            self.store(at, e.lower, e.upper, e.best);
        }
    }

    /// The stored lower and upper bound and best move at the node.
    pub(super) fn get(&self, at: &PathKey) -> Option<(Proved, Proved, Move)> {
        self.map.get(at).map(|e| (e.lower, e.upper, e.best))
    }

    /// Entries held.
    pub(super) fn len(&self) -> usize {
        self.map.len()
    }
}

/// The tighter bounds of two [`PathTable::get`] results for one node,
/// and the first's move.
pub(super) fn tighter(
    a: Option<(Proved, Proved, Move)>,
    b: Option<(Proved, Proved, Move)>,
) -> Option<(Proved, Proved, Move)> {
    let (Some((lower, upper, best)), Some((bl, bu, _))) = (a, b) else {
        return a.or(b);
    };
    let mut e = Entry { lower, upper, best };
    e.tighten(bl, bu);
    Some((e.lower, e.upper, e.best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::Position;
    use crate::engine::types::{PointSet, ToMove};
    use crate::search::facts::CLEAN;

    fn entry(black: u64, white: u64) -> HistoryEntry {
        HistoryEntry {
            pos: Position {
                black: PointSet(black),
                white: PointSet(white),
            },
            to_move: ToMove::Either,
        }
    }

    /// Paths differ by order and by frame: a path and its mirror image
    /// (1x3: A1 then C1) must not share results, whose facts and moves
    /// are in the path's own frame.
    #[test]
    fn a_path_is_hashed_in_order_and_in_its_own_frame() {
        let (a, c) = (entry(0b001, 0), entry(0b100, 0));
        let s = PathHash::START;
        assert_ne!(s.then(&a), s.then(&c));
        assert_ne!(s.then(&a).then(&c), s.then(&c).then(&a));
        assert_eq!(s.then(&a).then(&c), s.then(&a).then(&c));
        assert_ne!(s.then(&a), s);
    }

    /// The table keeps the highest lower bound and the lowest upper one.
    #[test]
    fn the_tightest_bounds_are_kept() {
        let mut t = PathTable::new();
        let at = PathKey {
            key: TableKey::default(),
            sym: 0,
            d: 3,
            path: PathHash::START.then(&entry(1, 2)),
        };
        t.store(at, Some((2, CLEAN)), None, Move::Pass);
        t.store(at, Some((1, CLEAN)), Some((6, CLEAN)), Move::Place(4));
        t.store(at, None, Some((8, CLEAN)), Move::Place(5));
        let (lo, hi, best) = t.get(&at).unwrap();
        assert_eq!((lo.map(|l| l.0), hi.map(|h| h.0)), (Some(2), Some(6)));
        // The move of the best lower bound: a later bound elsewhere keeps it.
        assert_eq!(best, Move::Pass);
        assert!(t.get(&PathKey { sym: 1, ..at }).is_none());
        assert!(t.get(&PathKey { d: 2, ..at }).is_none());
        let mut u = PathTable::new();
        u.store(at, Some((4, CLEAN)), None, Move::Pass);
        t.absorb(u);
        let (lo, hi, _) = t.get(&at).unwrap();
        assert_eq!((lo.map(|l| l.0), hi.map(|h| h.0)), (Some(4), Some(6)));
    }

    /// An extraction's own result and the solve's combine to the tighter
    /// of each bound, with the own move.
    #[test]
    fn the_tighter_bounds_of_two_tables_are_used() {
        let b = |v| Some((v, CLEAN));
        let own = Some((b(1), b(9), Move::Place(2)));
        let solved = Some((b(3), None, Move::Place(5)));
        let (lo, hi, m) = tighter(own, solved).unwrap();
        assert_eq!(
            (lo.map(|l| l.0), hi.map(|h| h.0), m),
            (Some(3), Some(9), Move::Place(2))
        );
        let (lo, hi, m) = tighter(None, Some((None, b(4), Move::Pass))).unwrap();
        assert_eq!(
            (lo.map(|l| l.0), hi.map(|h| h.0), m),
            (None, Some(4), Move::Pass)
        );
        let (lo, hi, _) = tighter(
            Some((b(5), b(5), Move::Pass)),
            Some((b(2), b(7), Move::Pass)),
        )
        .unwrap();
        assert_eq!((lo.map(|l| l.0), hi.map(|h| h.0)), (Some(5), Some(5)));
        assert!(tighter(None, None).is_none());
    }

    /// The shared table keeps as many entries as fit in `--tt-mb` at 7/8
    /// of a power-of-two slot count, and never fewer than a search's own.
    #[test]
    fn the_shared_table_grows_with_the_main_one() {
        assert_eq!(shared_capacity(0), CAPACITY);
        assert_eq!(shared_capacity(256), CAPACITY);
        for mb in [1024, 4096, 20_000] {
            let cap = shared_capacity(mb);
            let slots = cap / 7 * 8;
            assert!(slots.is_power_of_two(), "{mb} MB: {cap}");
            assert!(slots * ENTRY_BYTES <= mb << 20, "{mb} MB: {cap}");
            assert!(2 * slots * ENTRY_BYTES > mb << 20, "{mb} MB: {cap}");
        }
        assert_eq!(shared_capacity(4096), 8 * shared_capacity(512));
    }
}
