//! The transposition table: bounds on game values keyed by the full game
//! state (never a lossy hash: every entry keeps its whole key), each bound
//! with the summary that decides whether it may be reused under another
//! history (see `solver` for the argument). Under superko a key may have
//! a second entry, its variant ([`Table::with_variants`]).

use crate::engine::position::Position;
use crate::engine::types::{PointSet, ToMove};
use rayon::prelude::*;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Everything that, with the history, decides a node's value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TableKey {
    /// The colouring (in the canonical frame of the symmetries, the
    /// colour swap among them where the rules allow it).
    pub pos: Position,
    /// Under `--superko none` the points where basic ko forbids a placing
    /// (in `aux.black`);
    /// under `koh` the points played (in `aux.black`); otherwise empty.
    pub aux: Position,
    /// Player to move, passes and, where they decide legality, prisoners.
    pub extra: u64,
}

/// Boards of up to this many points have a [`SetKey`] table.
pub const SET_POINTS: usize = 5;

/// Words of [`SetKey::set`]: every colouring of [`SET_POINTS`] points with
/// either player to move (3^5 · 2 = 486 states).
pub const SET_WORDS: usize = (3usize.pow(SET_POINTS as u32) * 2).div_ceil(64);

/// The key of the table of small boards: the state and the set of the
/// history's states the game below can ask about (the search's `reach`
/// module), numbered as [`crate::engine::game::state_index`] does (in the
/// key's frame). The history matters to the value only through that set,
/// so a bound stored under it holds whenever it is found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SetKey {
    /// The state.
    pub key: TableKey,
    /// The states of the history the game below can ask about.
    pub set: [u64; SET_WORDS],
}

/// States the owner of a bound produced while proving it: the stones all of
/// them share, the stones any of them has, their range of stone counts, and
/// a Bloom filter of a symmetry-invariant hash of their colourings. A
/// colouring that lacks a shared stone, has a stone none of them has, whose
/// count is out of range, or whose hash bit is clear, is none of them.
/// Besides those, a whole family the owner may have produced: every
/// colouring with a Black stone in `black_in` and every stone of `black`,
/// or a White stone in `white_in` and every stone of `white` (where the
/// static bound counted enclosed regions whole: `benson::ranges`; adding
/// one intersects `black` or `white` with the owner's pass-alive stones).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Summary {
    /// Black stones in every produced state.
    pub black: PointSet,
    /// White stones in every produced state.
    pub white: PointSet,
    /// Black stones in some produced state.
    pub any_black: PointSet,
    /// White stones in some produced state.
    pub any_white: PointSet,
    /// Fewest stones in a produced state.
    pub min: u8,
    /// Most stones in a produced state.
    pub max: u8,
    /// Bit `h % 128` set for the invariant hash `h` of each produced colouring.
    pub bloom: [u64; 2],
    /// Every colouring with a Black stone here and all of `black` may be
    /// produced.
    pub black_in: PointSet,
    /// Every colouring with a White stone here and all of `white` may be
    /// produced.
    pub white_in: PointSet,
}

impl Summary {
    /// No state produced.
    pub const NONE: Summary = Summary {
        black: PointSet(u64::MAX),
        white: PointSet(u64::MAX),
        any_black: PointSet::EMPTY,
        any_white: PointSet::EMPTY,
        min: u8::MAX,
        max: 0,
        bloom: [0, 0],
        black_in: PointSet::EMPTY,
        white_in: PointSet::EMPTY,
    };

    /// Adds one produced colouring, whose invariant hash is `h`.
    #[inline]
    pub fn add(&mut self, p: Position, h: u64) {
        self.bloom[(h >> 6 & 1) as usize] |= 1 << (h & 63);
        self.black &= p.black;
        self.white &= p.white;
        self.any_black |= p.black;
        self.any_white |= p.white;
        let n = (p.black | p.white).len() as u8;
        self.min = self.min.min(n);
        self.max = self.max.max(n);
    }

    /// Adds every state of another summary.
    #[inline]
    pub fn merge(&mut self, o: &Summary) {
        self.black &= o.black;
        self.white &= o.white;
        self.any_black |= o.any_black;
        self.any_white |= o.any_white;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.bloom[0] |= o.bloom[0];
        self.bloom[1] |= o.bloom[1];
        self.black_in |= o.black_in;
        self.white_in |= o.white_in;
    }

    /// Adds the family a whole-region bound's owner produces: every
    /// colouring with an owner stone in `regions` and all of `alive`.
    #[inline]
    pub fn add_family(&mut self, owner_black: bool, regions: PointSet, alive: PointSet) {
        if owner_black {
            self.black_in |= regions;
            self.black &= alive;
        } else {
            self.white_in |= regions;
            self.white &= alive;
        }
    }

    /// Adds the family of every colouring with all of `black` and `white`,
    /// Black stones only in `any_black` and White ones only in
    /// `any_white` (`bounds::tie_free_cut`): what their stones say, with
    /// any stone count from theirs and any hash.
    #[inline]
    pub fn add_bounded_family(
        &mut self,
        black: PointSet,
        white: PointSet,
        any_black: PointSet,
        any_white: PointSet,
    ) {
        self.black &= black;
        self.white &= white;
        self.any_black |= any_black;
        self.any_white |= any_white;
        self.min = self.min.min((black | white).len() as u8);
        self.max = 64;
        self.bloom = [u64::MAX; 2];
    }

    /// Whether the summary holds a family of colourings (`black_in` or
    /// `white_in`), which the stone counts do not bound.
    #[inline]
    pub fn has_family(&self) -> bool {
        !(self.black_in | self.white_in).is_empty()
    }

    /// False when `p`, whose invariant hash is `h`, is certainly none of the
    /// produced states.
    #[inline]
    pub fn may_contain(&self, p: &Position, h: u64) -> bool {
        // A family's colourings hold the stones common to all (`black`,
        // `white`): the owner's pass-alive stones are among them.
        if (!(p.black & self.black_in).is_empty() && p.black & self.black == self.black)
            || (!(p.white & self.white_in).is_empty() && p.white & self.white == self.white)
        {
            return true;
        }
        let n = (p.black | p.white).len() as u8;
        self.bloom[(h >> 6 & 1) as usize] >> (h & 63) & 1 == 1
            && self.min <= n
            && n <= self.max
            && p.black & self.black == self.black
            && p.white & self.white == self.white
            && (p.black & !self.any_black).is_empty()
            && (p.white & !self.any_white).is_empty()
    }
}

/// How many earlier states a stored bound may require.
pub const NEEDS: usize = 2;

/// A stored bound: the value (from the mover's side) and what reusing it
/// must check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bound {
    /// The bound.
    pub value: i16,
    /// The states the owner produced.
    pub summary: Summary,
    /// States that must be in the history before the node (the other side's
    /// refused moves, or repetition ties, referred to them), with the player
    /// to move.
    pub need: [(Position, ToMove); NEEDS],
    /// How many of `need` are used.
    pub needs: u8,
}

/// One table entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry<K = TableKey> {
    /// The full key.
    pub key: K,
    /// A lower bound (the mover gets at least this), if known.
    pub lower: Option<Bound>,
    /// An upper bound, if known.
    pub upper: Option<Bound>,
    /// The best move found, as a move code (0 = pass, p + 1 = point p), in the canonical frame.
    pub best: u8,
    /// log2 of the nodes searched below: the replacement priority.
    pub work: u8,
    /// The last depth-limited search that left the node unsettled.
    pub open: Option<Opened>,
    used: bool,
}

/// A node a depth-limited search left unsettled: in which iteration (a
/// number no other iteration of any thread has), with `left` turns to go.
/// Only a hint to save searching it again; it proves nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Opened {
    /// The iteration.
    pub iteration: u32,
    /// Turns left before the limit.
    pub left: u32,
}

impl<K: Copy + Default> Entry<K> {
    /// The entry without its key.
    pub fn facts(&self) -> Entry<()> {
        Entry {
            key: (),
            lower: self.lower,
            upper: self.upper,
            best: self.best,
            work: self.work,
            open: self.open,
            used: self.used,
        }
    }

    fn empty() -> Entry<K> {
        Entry {
            key: K::default(),
            lower: None,
            upper: None,
            best: 0,
            work: 0,
            open: None,
            used: false,
        }
    }
}

const WAYS: usize = 4;

/// The way holding `key` in a bucket, or a fresh one in place of the
/// least worked; never way `skip` (`WAYS`: any way).
fn slot_for<K: Copy + Default + Eq>(b: &mut [Entry<K>; WAYS], key: &K, skip: usize) -> usize {
    match (0..WAYS).find(|&i| i != skip && b[i].used && b[i].key == *key) {
        Some(i) => i,
        None => {
            let i = (0..WAYS)
                .filter(|&i| i != skip)
                .min_by_key(|&i| (b[i].used, b[i].work))
                .expect("ways");
            b[i] = Entry {
                key: *key,
                used: true,
                ..Entry::empty()
            };
            i
        }
    }
}

/// Where a new bound goes beside the one an entry holds: (the entry's
/// bound, the bound left for the variant). `sign` is 1 for lower bounds
/// (higher is better), −1 for upper ones. A better bound takes the
/// entry; an equal one too, its predecessor going to the variant; a worse
/// one goes to the variant. Without variants what is left is dropped.
fn place(old: Option<Bound>, new: Bound, sign: i32, variants: bool) -> (Bound, Option<Bound>) {
    let Some(old) = old else {
        return (new, None);
    };
    let (n, o) = (sign * i32::from(new.value), sign * i32::from(old.value));
    if n > o {
        (new, None)
    } else if n == o {
        (new, variants.then_some(old))
    } else {
        (old, variants.then_some(new))
    }
}

/// A fixed-size table shared by the search threads, keyed by [`TableKey`] or,
/// on small boards, by [`SetKey`].
pub struct Table<K = TableKey> {
    buckets: Vec<Mutex<[Entry<K>; WAYS]>>,
    tally: Tally,
    /// Keep a second entry for a key ([`Table::with_variants`]).
    variants: bool,
}

/// The table's (probes, hits, stores), counted in one slot per thread:
/// one counter shared by the threads cost every probe a cache line moved
/// between cores (4x4 `--no-save` on 2 threads, 5 pairs: 0.966 of the
/// shared counters' time, and 0.955 without any counting).
struct Tally {
    slots: Box<[TallySlot]>,
}

/// Thread slots a [`Tally`] has; threads beyond share them, which only
/// costs time.
const TALLY_SLOTS: usize = 64;

/// One thread's counts, on cache lines of its own.
#[derive(Default)]
#[repr(align(128))]
struct TallySlot {
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            slots: (0..TALLY_SLOTS).map(|_| TallySlot::default()).collect(),
        }
    }

    /// This thread's slot.
    #[inline]
    fn mine(&self) -> &TallySlot {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        thread_local! {
            static SLOT: usize = NEXT.fetch_add(1, Ordering::Relaxed) % TALLY_SLOTS;
        }
        &self.slots[SLOT.with(|s| *s)]
    }

    fn totals(&self) -> (u64, u64, u64) {
        self.slots.iter().fold((0, 0, 0), |(p, h, s), t| {
            (
                p + t.probes.load(Ordering::Relaxed),
                h + t.hits.load(Ordering::Relaxed),
                s + t.stores.load(Ordering::Relaxed),
            )
        })
    }
}

/// Why a table of the size asked for cannot be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// More than the machine's memory.
    MoreThanMemory {
        /// The size asked for, in megabytes.
        mb: usize,
        /// The machine's memory in megabytes.
        memory_mb: u64,
    },
    /// The size in bytes overflows, or the allocator refused it.
    Refused {
        /// The size asked for, in megabytes.
        mb: usize,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::MoreThanMemory { mb, memory_mb } => write!(
                f,
                "a table of {mb} MB is more than this machine's {memory_mb} MB of memory"
            ),
            TableError::Refused { mb } => {
                write!(f, "a table of {mb} MB cannot be allocated")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// The machine's physical memory in bytes, where the system says.
pub fn physical_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return (pages as u64).checked_mul(size as u64);
        }
    }
    None
}

/// Asks the kernel to back the buffer `v` has reserved with huge pages
/// (`MADV_HUGEPAGE`), for the tables read at random: with 4 kB pages
/// nearly every read of a table of a gigabyte misses the TLB as well as
/// the cache. Call it after reserving and before filling, as the page
/// size is chosen when a page is first touched. A hint only: where the
/// system has no transparent huge pages, or refuses, nothing changes.
pub fn advise_huge<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads a system constant.
        let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => return,
        };
        let bytes = v.capacity() * std::mem::size_of::<T>();
        let start = v.as_mut_ptr() as usize;
        let (from, to) = (start.div_ceil(page) * page, (start + bytes) / page * page);
        if bytes >= 1 << 21 && to > from {
            // SAFETY: the range lies inside `v`'s own allocation, and
            // MADV_HUGEPAGE changes no contents, only how pages are backed.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Asks the processor to fetch `x` into its caches: a hint, which
/// changes nothing the program reads.
#[inline]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads no memory the program sees and cannot
    // fault; `x` is a live reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Checks, before any work, that a table of `mb` megabytes fits in this
/// machine's memory: a larger one would be given by overcommit and then
/// kill the process as it is filled, or be refused and abort it.
pub fn check_size(mb: usize) -> Result<(), TableError> {
    let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Refused { mb })?;
    match physical_memory() {
        Some(memory) if bytes as u64 > memory => Err(TableError::MoreThanMemory {
            mb,
            memory_mb: memory >> 20,
        }),
        _ => Ok(()),
    }
}

impl<K: Copy + Default + Eq + Send> Table<K> {
    /// A table using about `mb` megabytes, or why it cannot be had
    /// ([`check_size`], then a fallible allocation).
    pub fn try_new(mb: usize) -> Result<Table<K>, TableError> {
        check_size(mb)?;
        let per = std::mem::size_of::<Mutex<[Entry<K>; WAYS]>>();
        let n = ((mb.max(1) << 20) / per).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| TableError::Refused { mb })?;
        advise_huge(&mut buckets);
        // Filled (and so first touched) on every thread of the pool.
        buckets.par_extend(
            (0..n)
                .into_par_iter()
                .map(|_| Mutex::new([Entry::empty(); WAYS])),
        );
        Ok(Table {
            buckets,
            tally: Tally::new(),
            variants: false,
        })
    }

    /// The table keeping, beside a key's entry, a second one (a
    /// *variant*) for a bound the first would drop: one no better than
    /// the first's. Under superko a stored bound may be unusable on a
    /// path while a weaker one, proved on it, is usable there and on
    /// paths like it; with one bound a key, the weaker one was lost and
    /// such paths searched the node again each time.
    pub fn with_variants(mut self) -> Table<K> {
        self.variants = true;
        self
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Mutex<[Entry<K>; WAYS]>>()
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Mutex<[Entry<K>; WAYS]> {
        &self.buckets[((hash as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Fetches the bucket of `hash` into the cache ahead of a probe.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch(self.bucket(hash));
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: &K, hash: u64) -> Option<Entry<K>> {
        self.probe_both(key, hash)[0]
    }

    /// The entry for `key` and its variant ([`Table::with_variants`]),
    /// as far as stored.
    #[inline]
    pub fn probe_both(&self, key: &K, hash: u64) -> [Option<Entry<K>>; 2] {
        let tally = self.tally.mine();
        tally.probes.fetch_add(1, Ordering::Relaxed);
        let b = self.bucket(hash).lock().expect("table lock");
        let mut out = [None; 2];
        let mut found = b.iter().filter(|e| e.used && e.key == *key);
        out[0] = found.next().copied();
        out[1] = found.next().copied();
        if out[0].is_some() {
            tally.hits.fetch_add(1, Ordering::Relaxed);
        }
        out
    }

    /// Stores bounds for `key`, keeping the tighter of old and new ones
    /// in its entry and, in a table [`with_variants`](Table::with_variants),
    /// the other one in the key's variant (the private `place` decides
    /// which). The entry is the key's first way in the bucket, the variant
    /// its second.
    pub fn store(
        &self,
        key: &K,
        hash: u64,
        lower: Option<Bound>,
        upper: Option<Bound>,
        best: u8,
        work: u8,
    ) {
        self.tally.mine().stores.fetch_add(1, Ordering::Relaxed);
        let mut b = self.bucket(hash).lock().expect("table lock");
        let slot = slot_for(&mut b, key, WAYS);
        let e = &mut b[slot];
        let (mut lower_left, mut upper_left) = (None, None);
        if let Some(l) = lower {
            let (keep, left) = place(e.lower, l, 1, self.variants);
            (e.lower, lower_left) = (Some(keep), left);
        }
        if let Some(u) = upper {
            let (keep, left) = place(e.upper, u, -1, self.variants);
            (e.upper, upper_left) = (Some(keep), left);
        }
        // The last store's move, even where its bound went to the variant:
        // moving each move with its bound (2026-11-28) took 1x11
        // `--first-moves bounds`'s proof from 12.9 M to 88.6 M nodes.
        e.best = best;
        e.work = e.work.max(work);
        if lower_left.is_none() && upper_left.is_none() {
            return;
        }
        // The variant's way: the key's second one, or the least worked
        // other one (never the first). A fresh way before the entry's is
        // swapped behind it, so that the entry stays the key's first way
        // and the next store compares against it, not the variant.
        let mut v = slot_for(&mut b, key, slot);
        if v < slot {
            b.swap(v, slot);
            v = slot;
        }
        let e = &mut b[v];
        if lower_left.is_some() {
            e.lower = lower_left;
        }
        if upper_left.is_some() {
            e.upper = upper_left;
        }
        e.best = best;
        e.work = e.work.max(work);
    }

    /// Records that a depth-limited search left `key` unsettled, with the
    /// move to try first next time.
    pub fn store_open(&self, key: &K, hash: u64, best: u8, open: Opened) {
        let mut b = self.bucket(hash).lock().expect("table lock");
        let slot = slot_for(&mut b, key, WAYS);
        // A proved bound's move is worth more than a cut-short guess.
        if b[slot].lower.is_none() && b[slot].upper.is_none() {
            b[slot].best = best;
        }
        b[slot].open = Some(open);
    }

    /// Calls `f` on each entry holding a bound, a bucket at a time (each
    /// bucket copied under its lock, so searches may go on meanwhile: every
    /// entry is sound alone, so a copy mixing moments is too).
    pub fn each_bound(&self, mut f: impl FnMut(&Entry<K>)) {
        for bucket in &self.buckets {
            let b = *bucket.lock().unwrap_or_else(|e| e.into_inner());
            for e in b.iter().filter(|e| e.used) {
                if e.lower.is_some() || e.upper.is_some() {
                    f(e);
                }
            }
        }
    }

    /// (probes, hits, stores) so far.
    pub fn counters(&self) -> (u64, u64, u64) {
        self.tally.totals()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_the_machine_cannot_give_is_an_error() {
        assert_eq!(
            Table::<TableKey>::try_new(usize::MAX).err(),
            Some(TableError::Refused { mb: usize::MAX })
        );
        if let Some(memory) = physical_memory() {
            let mb = (memory >> 20) as usize + 1;
            assert!(matches!(
                Table::<TableKey>::try_new(mb),
                Err(TableError::MoreThanMemory { .. })
            ));
        }
        let one = Table::<TableKey>::try_new(1).unwrap().bytes();
        assert!(one > (1 << 20) / 2 && one <= 1 << 20, "{one}");
    }

    fn bound(value: i16, min: u8) -> Bound {
        Bound {
            value,
            summary: Summary {
                min,
                ..Summary::NONE
            },
            need: [(Position::EMPTY, ToMove::Black); NEEDS],
            needs: 0,
        }
    }

    #[test]
    fn a_variant_keeps_the_bound_the_first_entry_would_drop() {
        let key = TableKey::default();
        let lowers = |t: &Table| t.probe_both(&key, 7).map(|e| e.and_then(|e| e.lower));
        let plain = Table::<TableKey>::try_new(1).unwrap();
        plain.store(&key, 7, Some(bound(4, 1)), None, 0, 1);
        plain.store(&key, 7, Some(bound(2, 2)), None, 0, 1);
        assert_eq!(lowers(&plain), [Some(bound(4, 1)), None]);

        let t = Table::<TableKey>::try_new(1).unwrap().with_variants();
        t.store(&key, 7, Some(bound(4, 1)), None, 0, 1);
        // A weaker bound goes to the variant.
        t.store(&key, 7, Some(bound(2, 2)), None, 0, 1);
        assert_eq!(lowers(&t), [Some(bound(4, 1)), Some(bound(2, 2))]);
        // An equal one takes the first place, the first's goes to the variant.
        t.store(&key, 7, Some(bound(4, 3)), None, 0, 1);
        assert_eq!(lowers(&t), [Some(bound(4, 3)), Some(bound(4, 1))]);
        // A better one replaces the first and leaves the variant.
        t.store(&key, 7, Some(bound(6, 4)), None, 0, 1);
        assert_eq!(lowers(&t), [Some(bound(6, 4)), Some(bound(4, 1))]);
        // Upper bounds the other way round.
        t.store(&key, 7, None, Some(bound(-2, 5)), 0, 1);
        t.store(&key, 7, None, Some(bound(0, 6)), 0, 1);
        let uppers = t.probe_both(&key, 7).map(|e| e.and_then(|e| e.upper));
        assert_eq!(uppers, [Some(bound(-2, 5)), Some(bound(0, 6))]);
    }

    #[test]
    fn a_variant_made_in_an_earlier_way_moves_behind_the_entry() {
        let keys: Vec<TableKey> = (1..=4u64)
            .map(|i| TableKey {
                extra: i,
                ..TableKey::default()
            })
            .collect();
        let t = Table::<TableKey>::try_new(1).unwrap().with_variants();
        // Ways 0-3: keys 0 (least worked), 1, 2 and 3.
        for (k, work) in keys.iter().zip([1, 5, 5, 5]) {
            t.store(k, 7, Some(bound(0, 1)), None, 0, work);
        }
        // Key 2's weaker bound evicts key 0 in way 0: the entry must stay
        // first, so the next weaker bound is compared with the entry.
        t.store(&keys[2], 7, Some(bound(-2, 2)), None, 0, 1);
        let lowers = |k| t.probe_both(k, 7).map(|e| e.and_then(|e| e.lower));
        assert_eq!(lowers(&keys[2]), [Some(bound(0, 1)), Some(bound(-2, 2))]);
        assert_eq!(lowers(&keys[0]), [None, None]);
        t.store(&keys[2], 7, Some(bound(-1, 3)), None, 0, 1);
        assert_eq!(lowers(&keys[2]), [Some(bound(0, 1)), Some(bound(-1, 3))]);
    }

    /// A family (a whole-region result's) holds every colouring with the
    /// owner's stone in it, whatever its other stones and count, and
    /// merging keeps both families.
    #[test]
    fn a_family_holds_every_colouring_with_a_stone_in_it() {
        let p = |b: u64, w: u64| Position {
            black: PointSet(b),
            white: PointSet(w),
        };
        let mut s = Summary::NONE;
        s.add_family(true, PointSet(0b0110), PointSet::EMPTY);
        assert!(s.has_family());
        assert!(s.may_contain(&p(0b0010, 0), 0));
        assert!(s.may_contain(&p(0b1100, 0b0001), 5));
        // White there, or Black elsewhere: not of the family.
        assert!(!s.may_contain(&p(0b1001, 0b0110), 0));
        assert!(!s.may_contain(&p(0, 0), 0));
        let mut t = Summary::NONE;
        t.add_family(false, PointSet(0b1000), PointSet::EMPTY);
        t.merge(&s);
        assert!(t.may_contain(&p(0b0100, 0), 0));
        assert!(t.may_contain(&p(0, 0b1000), 0));
        assert!(!t.may_contain(&p(0b1000, 0b0100), 0));
        // The owner's pass-alive stones are in every colouring it produces:
        // one without them is not of the family.
        let mut u = Summary::NONE;
        u.add_family(true, PointSet(0b0110), PointSet(0b1_0000));
        assert!(u.may_contain(&p(0b1_0010, 0), 0));
        assert!(!u.may_contain(&p(0b0010, 0), 0));
    }

    #[test]
    fn a_summary_never_rules_out_a_state_it_holds() {
        let states = [
            Position {
                black: PointSet(0b0011),
                white: PointSet(0b0100),
            },
            Position {
                black: PointSet(0b0001),
                white: PointSet(0b1100),
            },
            Position {
                black: PointSet(0b0111),
                white: PointSet(0),
            },
        ];
        let h = |p: &Position| p.black.0 * 7 + p.white.0 * 3;
        let mut s = Summary::NONE;
        assert!(states.iter().all(|p| !s.may_contain(p, h(p))));
        let mut t = Summary::NONE;
        s.add(states[0], h(&states[0]));
        t.add(states[1], h(&states[1]));
        t.add(states[2], h(&states[2]));
        s.merge(&t);
        assert!(states.iter().all(|p| s.may_contain(p, h(p))));
        // Lacks the shared black stone, or has a stone no state has.
        let p = Position {
            black: PointSet(0b0010),
            white: PointSet(0b0100),
        };
        assert!(!s.may_contain(&p, h(&p)));
        let p = Position {
            black: PointSet(0b1001),
            white: PointSet(0),
        };
        assert!(!s.may_contain(&p, h(&p)));
        // A state passing the other tests but not the filter.
        let p = states[0];
        assert!(!s.may_contain(&p, h(&p) + 1));
    }
}
