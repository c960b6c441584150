//! A history-free guide table (issue 17, item 3): for every colouring of a
//! board of at most [`MAX_POINTS`] points, a bracket `(lo, hi)` on its
//! value in the game that forgets the history. It only guides the search
//! (initial proof numbers, the first test's threshold) and never decides
//! a result, so it is exact about its own definition, not about the real
//! game under superko.
//!
//! # The history-free game
//!
//! A state is (colouring, player to move, whether the last turn was a
//! pass). A turn is a pass or a placing on an empty point (captures as
//! usual, suicide as `rules.suicide` says), except a placing that
//! reproduces the colouring (a lone stone's suicide capturing nothing):
//! positional superko forbids it in every mode but `none`, where it is a
//! pass in effect, so it is left out always. Two passes end the game with
//! the area score.
//!
//! Black maximises, White minimises; `lo` is the least fixed point of the
//! minimax equations (an endless game counts as the worst for Black, −R
//! with R = [`value_range`]) and `hi` the greatest (an endless game counts
//! as +R), so `lo ≤ hi`, equal wherever cycles do not matter.
//!
//! Two variants. Without any ko rule every ko is a cycle, and on 1xn
//! boards every state is open (the side a cycle favours retakes for
//! ever). With basic ko, the one [`Guide::build`] builds, the state also
//! holds the point banned to the mover: after a placing that takes
//! exactly one stone and is left a lone stone whose one liberty is the
//! point it took, that point is banned to the opponent for one turn; any
//! other turn clears it. Superko implies that ban, so this game is the
//! closer one. Longer cycles remain (two kos; a suicide and its replay):
//! on 1xn boards with suicide every state is still open, but fewer have
//! the whole range (1x10: 11,131 of 18,413 colourings against 13,659),
//! and on 2xn and 3x4 most first moves get an exact bracket (2x7: all
//! five classes, against none without ko).
//!
//! # The table
//!
//! Only states with Black to move and no pass pending are stored, indexed
//! by [`ternary`] of the colouring: a White-to-move state is the same game
//! with the colours swapped (area scoring without komi is colour
//! symmetric). Swapping colours negates values and turns the least fixed
//! point into the greatest one, so from the mover's side the bracket of
//! (c, White) is the bracket of (swap c, Black). A state after one pass is
//! not stored: its value is the better of passing back (the score) and the
//! best placing, one move down. A state with a ko ban is stored in the
//! slot of an illegal colouring (see `index`), so the ko variant needs
//! no more room. Values are kept without komi as `i8` half points in
//! `-S..=S`, where `S = 2n + 1` stands for an endless game: it lies
//! beyond every score (|score| ≤ 2n), so komi can be applied at query
//! time (a score shifts by komi, ±S becomes ±R). Mapping the values that
//! way is order preserving and commutes with min and max, so the fixed
//! points with komi are exactly the mapped fixed points without it.
//!
//! # The computation
//!
//! In-place sweeps (Gauss–Seidel) over the states, the (lo, hi) of a
//! state packed in one `AtomicU16`, until a sweep changes nothing.
//! Why in place rather than Jacobi with two buffers: one table instead of
//! two (86 MB rather than 172 MB at 16 points), and a value raised early in
//! a sweep is used at once by the states swept after it. The colourings
//! are swept by stone count, most stones first: a placing that captures
//! nothing adds a stone, so along capture-free lines a sweep sees children
//! already updated, and only captures (and cycles) need further sweeps
//! (2x7: 16 sweeps; fewest stones first took 43, alternating 26). A state
//! whose lo and hi have met is settled for good and dropped from the sweep
//! lists. Measured (2 cores, before symmetry), basic ko against none:
//! 4x4 18 s against 27 s (1.3 M ko states, 1.0 M open against 5.2 M);
//! 2x8 20 s against 23; 1x16 37 s against 16 (3.1 M ko states, 30 sweeps
//! against 16, every state open either way). With symmetry 4x4 takes
//! 3.2 s against 3.6 s and 98 MB (the sweep lists are freed after the
//! build).
//!
//! The sweep lists hold table indices (`u32`: 3^18 < 2^32), read back
//! into a colouring by two lookups (`Digits`), and only one state of
//! each orbit of the board's symmetries (the least index, `Images`):
//! symmetric states have equal values, so a sweep computes the orbit's
//! value once and writes it to every member. The table stays whole, so a
//! read needs no canonical form. Measured on 2 cores, no ko, before →
//! after: 4x4 21.1 s → 3.6 s, 1x14 1.19 → 0.70 s, 3x6 (4 symmetries,
//! 208 M colourings) 201 s and 1.57 GB → 62 s and 0.94 GB.
//!
//! A state is swept about eight times before it settles (3x6: 55 M
//! states in sweeps 1–7, then 45 M, 17 M, 2.8 M and about 1.4 M in each
//! of the last dozen), and its groups and score, a quarter of a sweep's
//! time, do not change: each listed state keeps them in a word from its
//! first sweep on (441 MB for 3x6, freed with the lists). With basic ko,
//! 2 cores, 3x6: 47.6 s → 38.7 s; listing the states in one pass
//! instead of two (count, then fill) → 36.6 s, at a peak of about
//! 1.4 GB. Sorting the lists by index for locality (−10% a sweep, one
//! more sweep) was tried and left out, and huge pages for the table
//! (which it asks for, as the search's tables do) made no clear
//! difference. With the groups kept the sweep waits on memory: each state
//! is made ready a few states ahead of its equation, its placings'
//! entries and the next states' own fetched meanwhile (`AHEAD`,
//! `CELL_AHEAD`): 3x6 35.0 s → 28.4 s. A placing that captures or
//! suicides had cost a quarter of the build in `Position::place`'s
//! floods; its child is now read off the groups (`Equations::child`):
//! 3x6 55.4–56.3 s → 48.0–53.0 s (2026-11-29, a slower host). The codes
//! of Black's placings do not change either: the first sweep keeps them
//! (`Kept`, 4 bytes an empty point: 1.5 GB for 3x6, so the build's peak
//! goes from 1.4 to 2.8 GB, still below the search's) where they fit in
//! three quarters of the memory beside the rest of the build, level by
//! level (4x5's 15 GB do not all fit on 24 GB), and later sweeps read
//! them: 3x6 52.4–54.6 s → 34.8–37.5 s (a sweep still reads about 360 M
//! scattered table entries, White's placings after a pass about 55 M).
//! Kept in part they showed no gain: 4x5 on 24 GB, about 5.6 GB of its
//! 15 GB kept, took 561 s against 556 s without, its peak 17.9 GB
//! against 12.3 GB (one pair of runs; still below 4x5's search peak).
//!
//! The sweep is parallel (rayon over chunks of one stone count) with racy
//! relaxed loads and stores. That is sound because the iteration is
//! monotone: lo only rises and hi only falls, every entry has one writer
//! (the least state of its orbit),
//! and a read sees a value at least as far from the fixed point as the
//! current one, so every write stays between the start and the fixed
//! point and never goes back. The last sweep starts after a barrier and
//! writes nothing, so the values it read were a fixed point. The result
//! is the same whatever the order; the number of sweeps can differ by one
//! from run to run.

use crate::count::positions::count_auto;
use crate::engine::board::Board;
use crate::engine::game::{Game, from_ternary, ternary};
use crate::engine::position::{Position, flood};
use crate::engine::rules::{Rules, Ruleset, Suicide};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, PointSet};
use crate::search::bounds::value_range;
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use std::time::Instant;

/// The largest board the guide supports: 3^20 = 3.49 G colourings, a
/// 7 GB table, whose indices still fit the sweep lists' `u32` (3^20 <
/// 2^32) and two lookups of `Digits`. 4x5 (1.84 G legal colourings)
/// builds in 5 (2026-11-27) to 9 minutes (11-30, a slower host) on 2
/// cores, at a peak of about 12 GB ([`Guide::build_bytes`]) and up to
/// 18 GB where the children's codes are kept; 3x7 (3^21) would
/// not fit the `u32`s.
pub const MAX_POINTS: usize = 20;
const _: () = assert!(MAX_POINTS <= 2 * DIGITS as usize);

/// The version of the guide's definition (its game, its table's layout):
/// a guide kept on disk ([`guide_file`](crate::search::guide_file)) under
/// another one is built again. Raise it with any change to what an entry
/// holds.
pub const GUIDE_VERSION: u8 = 1;

/// States per rayon task in a sweep.
const CHUNK: usize = 1 << 12;

/// What building the guide took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideStats {
    /// Sweeps over the unsettled states, the last one changing nothing.
    pub sweeps: u32,
    /// Wall-clock seconds for the whole build.
    pub seconds: f64,
    /// Legal colourings (each stored once, Black to move).
    pub states: u64,
    /// Further states with a point banned by basic ko (none without ko).
    pub ko_states: u64,
    /// Of all those, how many end with lo < hi (cycles matter).
    pub open: u64,
    /// Bytes of children's codes kept from the first sweep for the later
    /// ones (0 where the memory had no room).
    pub kept_bytes: u64,
}

impl GuideStats {
    /// Whether more than half of all states end open (lo < hi).
    pub fn mostly_open(&self) -> bool {
        2 * self.open > self.states + self.ko_states
    }
}

/// The guide table of one board and rules (see the module documentation).
pub struct Guide {
    board: Board,
    /// Suicide is a legal turn.
    suicide: bool,
    /// The game has basic ko.
    ko: bool,
    /// Komi, half points.
    komi: i32,
    /// `S`, the stored value of an endless game (2n + 1).
    endless: i32,
    /// R of [`value_range`]: what `S` becomes at query time.
    range: i32,
    /// (lo, hi) of (colouring, Black to move, no pass pending), by
    /// [`ternary`] code, komi not included: shared by every solve of the
    /// process that needs this game's guide, whatever its komi
    /// ([`guide_file::obtain`](crate::search::guide_file::obtain)).
    table: Arc<Vec<AtomicU16>>,
    stats: GuideStats,
}

#[inline]
fn pack(lo: i32, hi: i32) -> u16 {
    (lo as i8 as u8 as u16) | ((hi as i8 as u8 as u16) << 8)
}

/// The (lo, hi) of a table entry, half points without komi.
#[inline]
pub(super) fn unpack(v: u16) -> (i32, i32) {
    (v as u8 as i8 as i32, (v >> 8) as u8 as i8 as i32)
}

/// The colouring with the colours swapped.
#[inline]
fn swapped(p: Position) -> Position {
    Position {
        black: p.white,
        white: p.black,
    }
}

/// The table index of (colouring with code `code`, Black to move, `ban`
/// banned to Black): the code itself with no ban, else the code of the
/// colouring with a black stone on the banned point. That colouring is
/// illegal, as the point's neighbours are all white, and no other state
/// maps to it: had (c', k') the same image with k' ≠ k, c' would hold a
/// black stone on k without a liberty. So ko states take no extra room.
#[inline]
fn index(code: u64, ban: PointSet) -> u64 {
    match ban.first() {
        Some(k) => code + POW3[k as usize],
        None => code,
    }
}

/// Digits per entry of [`Digits`]: half of [`MAX_POINTS`], 3^10 entries
/// of 4 bytes (236 KB).
const DIGITS: u32 = 10;

/// The numbers of [`DIGITS`] ternary digits: entries of [`Digits`], and of
/// each half of an [`Images`] map.
const SPAN: u32 = 3u32.pow(DIGITS);

/// The colouring of every [`DIGITS`]-digit ternary number, black points in the
/// low half, white in the high half: [`Digits::state`] reads a table
/// index with two lookups instead of one division a point.
struct Digits(Vec<u32>);

impl Digits {
    fn new() -> Digits {
        Digits(
            (0..SPAN as u64)
                .map(|code| {
                    let p = from_ternary(code, DIGITS as usize);
                    p.black.0 as u32 | (p.white.0 as u32) << 16
                })
                .collect(),
        )
    }

    /// The state whose [`index`] is `i` (`board`'s points): its colouring,
    /// its code, and the point basic ko bans to Black. The ban is the one
    /// black stone with no neighbour empty or black: a legal colouring
    /// has none (such a stone is a group without liberties), and [`index`]
    /// adds exactly one, whose neighbours are all white.
    #[inline]
    fn state(&self, board: &Board, i: u32, ko: bool) -> (Position, u64, PointSet) {
        let (low, high) = (self.0[(i % SPAN) as usize], self.0[(i / SPAN) as usize]);
        let join = |l: u32, h: u32| PointSet((l & 0xffff) as u64 | ((h & 0xffff) as u64) << DIGITS);
        let mut pos = Position {
            black: join(low, high),
            white: join(low >> 16, high >> 16),
        };
        let mut code = i as u64;
        let mut ban = PointSet::EMPTY;
        if ko {
            ban = pos.black & !board.spread(pos.empty(board) | pos.black);
            if let Some(k) = ban.first() {
                pos.black &= !ban;
                code -= POW3[k as usize];
            }
        }
        (pos, code, ban)
    }
}

/// The most symmetries the sweep uses (complete graphs have n!).
const MAX_SYMMETRIES: usize = 48;

/// The board's symmetries other than the identity, acting on table
/// indices. A code is a sum of digit × 3^point, so its image moves each
/// digit to its point's image: two lookups of the part each half of the
/// digits contributes. A ko state's index ([`index`]) is a code with one
/// more black digit, so it maps to the index of the image state too.
struct Images {
    /// Per symmetry, 2 × 3^DIGITS contributions: low digits, then high ones.
    maps: Vec<u32>,
}

impl Images {
    /// The board's symmetries, or none but the identity unless `use_them`.
    fn new(board: &Board, use_them: bool) -> Images {
        let n = board.len();
        let mut maps = Vec::new();
        let cap = if use_them { MAX_SYMMETRIES } else { 1 };
        for a in board.automorphisms(cap).iter().skip(1) {
            for half in 0..2 {
                for t in 0..SPAN {
                    let (mut rest, mut image) = (t as u64, 0u64);
                    for j in 0..DIGITS as usize {
                        let p = half * DIGITS as usize + j;
                        if p < n {
                            image += rest % 3 * POW3[a.point(p as u8) as usize];
                        }
                        rest /= 3;
                    }
                    maps.push(image as u32);
                }
            }
        }
        Images { maps }
    }

    /// The images of index `i` under every symmetry but the identity.
    #[inline]
    fn of(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let (low, high) = ((i % SPAN) as usize, (i / SPAN) as usize);
        self.maps
            .chunks_exact(2 * SPAN as usize)
            .map(move |m| m[low] + m[SPAN as usize + high])
    }

    /// Whether `i` is the least index of its orbit, the one the sweep
    /// lists hold.
    #[inline]
    fn canonical(&self, i: u32) -> bool {
        self.of(i).all(|j| j >= i)
    }

    /// The number of states in the orbit of `i`: the group's order over
    /// that of the stabiliser of `i`.
    fn orbit(&self, i: u32) -> u64 {
        let order = self.maps.len() / (2 * SPAN as usize) + 1;
        (order / (1 + self.of(i).filter(|&j| j == i).count())) as u64
    }
}

/// The points basic ko may ban to Black in a legal colouring: empty
/// points whose neighbours are all white, one of them a lone stone with
/// no other liberty (White has just taken a black stone there with it).
/// A few more than can arise (where the colouring before the capture
/// would be illegal), which costs less than telling them apart.
fn ko_points(board: &Board, pos: Position) -> PointSet {
    let empty = pos.empty(board);
    let walled = empty & !board.spread(empty | pos.black) & board.spread(pos.white);
    let mut out = PointSet::EMPTY;
    for k in walled.iter() {
        let lone_in_atari = board.neighbours(k).iter().any(|w| {
            let near = board.neighbours(w);
            (near & pos.white).is_empty() && near & empty == PointSet::single(k)
        });
        if lone_in_atari {
            out |= PointSet::single(k);
        }
    }
    out
}

/// Black's area minus White's, half points, no komi (the same under `ggg`,
/// whose untouched regions count for both).
#[inline]
fn score(board: &Board, pos: Position) -> i32 {
    let (b, w) = pos.area(board);
    2 * (b as i32 - w as i32)
}

/// 3^p for every point.
const POW3: [u64; MAX_POINTS] = {
    let mut t = [1u64; MAX_POINTS];
    let mut p = 1;
    while p < MAX_POINTS {
        t[p] = 3 * t[p - 1];
        p += 1;
    }
    t
};

/// The [`ternary`] code of `set` as black stones: the sum of 3^q over its points.
#[inline]
fn black_code(set: PointSet) -> u64 {
    ternary(Position {
        black: set,
        white: PointSet::EMPTY,
    })
}

/// What placing needs of a colouring's groups, by colour index: so that a
/// placing that captures nothing and keeps a liberty costs a few bit
/// operations instead of flood fills.
#[derive(Clone, Copy, Default)]
struct Groups {
    /// Points that are the only liberty of some group of that colour: a
    /// placing there by the opponent captures.
    atari: [u64; 2],
    /// Stones of that colour in groups with two liberties or more.
    safe: [u64; 2],
}

/// Set in a [`Equations::groups_and_score`] word once it holds them.
const KNOWN: u64 = 1 << 63;

/// Set in a state's [`pack_known`] word by the sweep that settles it
/// (lo = hi), so that the lists are pruned by reading the words in order
/// rather than each state's table entry: 3x6's pruning took 2.7 s of its
/// 32 s build that way, on one thread.
const SETTLED: u64 = 1 << 62;
const _: () = assert!(2 * MAX_POINTS + 8 <= 62);

/// Set in a state's [`pack_known`] word once the codes of Black's
/// placings are in its [`Kept`] slots, their number at [`KIDS_AT`].
const KIDS: u64 = 1 << 61;
const KIDS_AT: u32 = 2 * MAX_POINTS as u32 + 8;
const _: () = assert!(KIDS_AT + 6 <= 61 && MAX_POINTS < 64);

/// The codes of Black's placings kept from a state's first sweep, so that
/// later sweeps read them instead of working them out again: `stride`
/// slots a state (the empty points of its level), by its place in its
/// level's list. `stride` 0: nothing kept.
struct Kept<'a> {
    slots: &'a mut [u32],
    stride: usize,
}

impl Kept<'_> {
    /// The slots of the `i`th state, if kept.
    #[inline]
    fn slots(&mut self, i: usize) -> Option<&mut [u32]> {
        let k = self.stride;
        (k > 0).then(|| &mut self.slots[i * k..(i + 1) * k])
    }
}

/// A colouring's [`Groups`] and score in one word. The four sets lie in
/// disjoint parts of the colouring (the atari points are empty, the safe
/// stones of one colour), so two masks hold them: `a` has Black's atari
/// points and both colours' safe stones, `b` White's atari points. Then
/// the score (half points, `i8`), and [`KNOWN`].
fn pack_known(g: &Groups, score: i32) -> u64 {
    let a = g.atari[Color::Black.index()] | g.safe[0] | g.safe[1];
    let b = g.atari[Color::White.index()];
    debug_assert!(a < 1 << MAX_POINTS && b < 1 << MAX_POINTS);
    a | b << MAX_POINTS | (score as i8 as u8 as u64) << (2 * MAX_POINTS) | KNOWN
}

/// The [`Groups`] and score [`pack_known`] put in `w`, for the colouring `pos`.
#[inline]
fn unpack_known(pos: Position, w: u64) -> (Groups, i32) {
    let mask = (1u64 << MAX_POINTS) - 1;
    let (a, b) = (w & mask, w >> MAX_POINTS & mask);
    let (black, white) = (pos.black.0, pos.white.0);
    let empty = !(black | white);
    let g = Groups {
        atari: {
            let mut t = [0; 2];
            t[Color::Black.index()] = a & empty;
            t[Color::White.index()] = b;
            t
        },
        safe: {
            let mut t = [0; 2];
            t[Color::Black.index()] = a & black;
            t[Color::White.index()] = a & white;
            t
        },
    };
    (g, (w >> (2 * MAX_POINTS)) as u8 as i8 as i32)
}

/// The minimax equations over the table.
struct Equations<'a> {
    board: &'a Board,
    /// `S`, an endless game.
    endless: i32,
    suicide: bool,
    /// Basic ko: a single-stone capture by a lone stone bans the retake.
    ko: bool,
    table: &'a [AtomicU16],
}

impl Equations<'_> {
    /// The stored (lo, hi) of the state with index `code` ([`index`]),
    /// Black to move.
    #[inline]
    fn read(&self, code: u64) -> (i32, i32) {
        unpack(self.table[code as usize].load(Relaxed))
    }

    /// The [`Groups`] and [`score`] of `pos`, from `known` (a
    /// [`pack_known`] word) once it holds them, else computed and put
    /// there: a state is swept about eight times before it settles (3x6),
    /// and these were a quarter of a sweep's time.
    #[inline]
    fn groups_and_score(&self, pos: Position, known: &mut u64) -> (Groups, i32) {
        if *known & KNOWN != 0 {
            return unpack_known(pos, *known);
        }
        let (g, s) = (self.groups(pos), score(self.board, pos));
        *known = pack_known(&g, s);
        (g, s)
    }

    /// The [`Groups`] of a legal colouring.
    #[inline]
    fn groups(&self, pos: Position) -> Groups {
        let empty = pos.empty(self.board);
        let mut g = Groups {
            atari: [0; 2],
            safe: [0; 2],
        };
        for c in [Color::Black, Color::White] {
            let stones = pos.stones(c);
            let mut todo = stones;
            while !todo.is_empty() {
                let group = flood(self.board, todo.lowest(), stones);
                todo &= !group;
                let libs = self.board.spread(group) & empty;
                if libs.len() == 1 {
                    g.atari[c.index()] |= libs.0;
                } else {
                    g.safe[c.index()] |= group.0;
                }
            }
        }
        g
    }

    /// The [`index`] of the state after `c` places on the empty point `p`,
    /// in the frame where `c`'s stones are white (the colours swapped when
    /// `c` is Black), unless the placing is excluded (forbidden suicide, or
    /// the colouring unchanged). `base` is the code of `pos` in that frame.
    ///
    /// From `g` alone, without [`Position::place`]'s flood per neighbour
    /// (a quarter of 3x6's build): the opponent's stones next to `p` that
    /// are not safe are in groups whose one liberty is `p`, so a capture
    /// takes exactly their groups; a placing that captures nothing and
    /// touches no empty point and no safe stone of its own joins only
    /// groups whose last liberty it fills, a suicide of them all. Either
    /// way the code changes by the removed stones' digits (1 for the
    /// opponent's, 2 for `c`'s in that frame). `child_by_place` in the
    /// tests is the reference.
    #[inline]
    fn child(&self, pos: Position, g: &Groups, p: u8, c: Color, base: u64) -> Option<u64> {
        let around = self.board.neighbours(p);
        let bit = PointSet::single(p);
        let empty = pos.empty(self.board);
        let opp = pos.stones(c.opp());
        let placed = base + 2 * POW3[p as usize];
        if g.atari[c.opp().index()] >> p & 1 == 0 {
            if around.0 & (empty.0 | g.safe[c.index()]) != 0 {
                // Nothing captured and a liberty kept: only p changes.
                return Some(placed);
            }
            let group = flood(self.board, bit, pos.stones(c) | bit);
            if !self.suicide || group == bit {
                return None;
            }
            return Some(placed - 2 * black_code(group));
        }
        let taken = flood(
            self.board,
            around & opp & !PointSet(g.safe[c.opp().index()]),
            opp,
        );
        let mut code = placed - black_code(taken);
        if self.ko && taken.len() == 1 {
            // A lone stone whose one liberty is the point it took.
            let libs = around & ((empty & !bit) | taken);
            if libs.len() == 1 && (around & pos.stones(c)).is_empty() {
                code += POW3[libs.0.trailing_zeros() as usize];
            }
        }
        Some(code)
    }

    /// (lo, hi) from Black's side of Black's best placing at `pos`, each
    /// no lower than `floor`: the reply is White to move, read as the
    /// swapped colouring with Black to move (its lo and hi negated and
    /// exchanged). `swapped_code` is the code of the swapped `pos`; Black
    /// may not place on `ban`.
    #[inline]
    fn best_placing(
        &self,
        pos: Position,
        g: &Groups,
        swapped_code: u64,
        floor: (i32, i32),
        ban: PointSet,
    ) -> (i32, i32) {
        let placings = (pos.empty(self.board) & !ban).iter();
        self.best_of(
            floor,
            placings.filter_map(|p| self.child(pos, g, p, Color::Black, swapped_code)),
        )
    }

    /// (lo, hi) from Black's side of the best of Black's placings whose
    /// replies (White to move, read swapped) have the indices `replies`,
    /// each no lower than `floor`.
    #[inline]
    fn best_of(&self, floor: (i32, i32), replies: impl Iterator<Item = u64>) -> (i32, i32) {
        let (mut lo, mut hi) = floor;
        for next in replies {
            let (l, h) = self.read(next);
            lo = lo.max(-h);
            hi = hi.max(-l);
        }
        (lo, hi)
    }

    /// (lo, hi) of `pos` with Black to move after White's pass: pass back
    /// and score, or place.
    fn after_pass(&self, pos: Position) -> (i32, i32) {
        let s = score(self.board, pos);
        let g = self.groups(pos);
        self.best_placing(pos, &g, ternary(swapped(pos)), (s, s), PointSet::EMPTY)
    }

    /// (lo, hi) of `pos` (code `code`, groups `g`, score `s`) with Black to
    /// move and no pass pending, from the current table, given Black's
    /// best placing `placing`: the better of that and passing, after which
    /// White passes back (the score) or places (a pass clears any ban).
    /// White's placings are read only while they can matter: the pass is
    /// worth at most the score, and once it is no better than Black's best
    /// placing, in lo and in hi, the rest cannot change the result. (They
    /// are not fetched ahead as Black's are: 3x6's build took 30 s with
    /// that against 28 s.)
    #[inline]
    fn with_pass(
        &self,
        pos: Position,
        g: &Groups,
        code: u64,
        s: i32,
        placing: (i32, i32),
    ) -> (i32, i32) {
        let (lo, hi) = placing;
        // lo ≤ hi, as in every entry.
        if s <= lo {
            return (lo, hi);
        }
        let (mut pl, mut ph) = (s, s);
        for p in pos.empty(self.board).iter() {
            if let Some(next) = self.child(pos, g, p, Color::White, code) {
                let (l, h) = self.read(next);
                pl = pl.min(l);
                ph = ph.min(h);
                if pl <= lo && ph <= hi {
                    break;
                }
            }
        }
        (lo.max(pl), hi.max(ph))
    }

    /// Makes the state `s` ready for its equation in `r`: its groups and
    /// score, and the codes of Black's placings, whose table entries are
    /// fetched into the cache meanwhile. False (and `r` unchanged) if the
    /// state is settled. With `slots` (the state's room in the kept
    /// children, [`KIDS`]), the codes are read from there once a sweep has
    /// put them there.
    #[inline]
    fn ready(
        &self,
        digits: &Digits,
        s: u32,
        known: &mut u64,
        slots: Option<&mut [u32]>,
        r: &mut Ready,
    ) -> bool {
        let (ol, oh) = unpack(self.table[s as usize].load(Relaxed));
        if ol == oh {
            return false;
        }
        let (pos, code, ban) = digits.state(self.board, s, self.ko);
        let had_kids = *known & KIDS != 0;
        let (g, score) = self.groups_and_score(pos, known);
        (r.state, r.pos, r.code, r.g, r.score, r.len) = (s, pos, code, g, score, 0);
        match slots {
            Some(slots) if had_kids => {
                r.len = (*known >> KIDS_AT & 63) as usize;
                r.kids[..r.len].copy_from_slice(&slots[..r.len]);
            }
            slots => {
                let swapped_code = ternary(swapped(pos));
                for p in (pos.empty(self.board) & !ban).iter() {
                    if let Some(next) = self.child(pos, &g, p, Color::Black, swapped_code) {
                        r.kids[r.len] = next as u32;
                        r.len += 1;
                    }
                }
                if let Some(slots) = slots {
                    slots[..r.len].copy_from_slice(&r.kids[..r.len]);
                    *known |= KIDS | (r.len as u64) << KIDS_AT;
                }
            }
        }
        for &k in &r.kids[..r.len] {
            crate::search::tt::prefetch(&self.table[k as usize]);
        }
        true
    }

    /// (lo, hi) of a [`Ready`] state, Black to move, from the current
    /// table: the better of Black's best placing and passing.
    #[inline]
    fn value_of(&self, r: &Ready) -> (i32, i32) {
        let low = -self.endless;
        let kids = r.kids[..r.len].iter().map(|&k| u64::from(k));
        let placing = self.best_of((low, low), kids);
        self.with_pass(r.pos, &r.g, r.code, r.score, placing)
    }

    /// One sweep over `states` (table indices, [`index`]): stores every
    /// changed value; true if any changed. Each state is made
    /// [`Ready`] [`AHEAD`] states before its equation is solved, so that
    /// the table reads of its placings, scattered over the table (775 MB
    /// on 3x6), overlap the work on the states between.
    fn sweep(
        &self,
        digits: &Digits,
        images: &Images,
        states: &[u32],
        known: &mut [u64],
        mut kids: Kept<'_>,
    ) -> bool {
        let mut changed = false;
        let mut ring = [Ready::default(); AHEAD];
        let mut live = [false; AHEAD];
        for i in 0..states.len() + AHEAD {
            let slot = i % AHEAD;
            if let Some(&s) = states.get(i + CELL_AHEAD) {
                crate::search::tt::prefetch(&self.table[s as usize]);
            }
            if live[slot] {
                let r = &ring[slot];
                let cell = &self.table[r.state as usize];
                let old = cell.load(Relaxed);
                let (lo, hi) = self.value_of(r);
                let new = pack(lo, hi);
                if new != old {
                    debug_assert!({
                        let (ol, oh) = unpack(old);
                        ol <= lo && lo <= hi && hi <= oh
                    });
                    if lo == hi {
                        // Only this state's own equation writes its entry.
                        known[r.at] |= SETTLED;
                    }
                    cell.store(new, Relaxed);
                    // The orbit's other states have the same value, and no
                    // other writer: the lists hold only one of them.
                    for j in images.of(r.state) {
                        self.table[j as usize].store(new, Relaxed);
                    }
                    changed = true;
                }
            }
            live[slot] = i < states.len() && {
                let slots = kids.slots(i);
                self.ready(digits, states[i], &mut known[i], slots, &mut ring[slot])
            };
            ring[slot].at = i;
        }
        changed
    }
}

/// States a sweep makes [`Ready`] ahead of solving their equations.
const AHEAD: usize = 4;

/// States ahead of the one being made ready whose own table entries a
/// sweep fetches: the lists are in enumeration order, not code order, so
/// each state's entry is far from the last one's.
const CELL_AHEAD: usize = 16;

/// A state of a sweep whose equation is about to be solved.
#[derive(Clone, Copy, Default)]
struct Ready {
    /// Its table index.
    state: u32,
    /// Its place in the sweep's list.
    at: usize,
    pos: Position,
    /// The code of `pos` (without the ban).
    code: u64,
    g: Groups,
    score: i32,
    /// The table indices of Black's placings (`u32`: 3^20 < 2^32).
    kids: [u32; MAX_POINTS],
    len: usize,
}

/// Calls `f(stones, packed)` for every legal colouring whose Black stones
/// or White stones are in `blacks` (a range of bit masks), but with the
/// other colour's mask not below it, and with `ko` for each of its
/// [`ko_points`], as its table [`index`]. Over all ranges that is every
/// legal colouring once: a colouring and its colour swap are legal
/// together, so one check serves both (3x6: listing and counting the
/// states 4.6–5.5 s → 3.7–3.9 s, three runs each, with the count below
/// on every thread).
fn each_legal(
    board: &Board,
    blacks: std::ops::Range<u64>,
    ko: bool,
    mut f: impl FnMut(usize, u32),
) {
    let full = board.mask().0;
    let mut emit = |pos: Position, stones: usize| {
        let code = ternary(pos);
        f(stones, code as u32);
        if ko {
            for k in ko_points(board, pos).iter() {
                f(stones, index(code, PointSet::single(k)) as u32);
            }
        }
    };
    for b in blacks {
        let rest = full & !b;
        let mut w = rest;
        // Masks of `rest` from the largest down, while not below `b`.
        while w >= b {
            let pos = Position {
                black: PointSet(b),
                white: PointSet(w),
            };
            if pos.is_legal(board, PointSet::EMPTY) {
                let stones = (b | w).count_ones() as usize;
                emit(pos, stones);
                if w != b {
                    emit(swapped(pos), stones);
                }
            }
            if w == 0 {
                break;
            }
            w = (w - 1) & rest;
        }
    }
}

/// Room for the codes of Black's placings of the listed states, by level,
/// within `budget` bytes: a state of `k` stones has `n - k` empty points,
/// so a slot each, with that stride. A level that does not fit, or whose
/// memory is refused, keeps nothing (stride 0).
fn keep_kids(board: &Board, levels: &[Vec<u32>], mut budget: u64) -> Vec<(Vec<u32>, usize)> {
    let n = board.len();
    let mut kids = Vec::with_capacity(levels.len());
    for (k, level) in levels.iter().enumerate() {
        let stride = n - k;
        let len = level.len() * stride;
        let mut slots: Vec<u32> = Vec::new();
        if 4 * len as u64 > budget || slots.try_reserve_exact(len).is_err() {
            kids.push((Vec::new(), 0));
            continue;
        }
        budget -= 4 * len as u64;
        slots.par_extend((0..len).into_par_iter().map(|_| 0));
        kids.push((slots, stride));
    }
    kids
}

/// Every state of `board` with Black to move and no pass pending, packed
/// as its table [`index`], by number of stones; `None` if memory is
/// refused for the lists (a part's own list, a few MB, aborts as any small
/// allocation does). One pass in parallel parts, each listing its own
/// states, then the parts joined and freed as they are copied (3x6: the
/// enumeration had taken two passes, one to count, about 2 s more on 2
/// cores).
fn legal_by_stones(board: &Board, ko: bool, images: &Images) -> Option<Vec<Vec<u32>>> {
    let n = board.len();
    let masks = 1u64 << n;
    let per = (masks / 256).max(1);
    let part = |i: usize| i as u64 * per..((i as u64 + 1) * per).min(masks);
    let parts = masks.div_ceil(per) as usize;
    let mut found: Vec<Vec<Vec<u32>>> = (0..parts)
        .into_par_iter()
        .map(|i| {
            let mut out = vec![Vec::new(); n + 1];
            each_legal(board, part(i), ko, |k, s| {
                if images.canonical(s) {
                    out[k].push(s);
                }
            });
            out
        })
        .collect();
    let mut levels = Vec::with_capacity(n + 1);
    for k in 0..=n {
        let total = found.iter().map(|f| f[k].len()).sum();
        let mut level: Vec<u32> = Vec::new();
        level.try_reserve_exact(total).ok()?;
        for f in &mut found {
            level.extend_from_slice(&std::mem::take(&mut f[k]));
        }
        levels.push(level);
    }
    Some(levels)
}

impl Guide {
    /// Builds the guide of the game with basic ko, or `None` where it is
    /// unsupported: rulesets other than `tromp-taylor` and `ggg`, a start
    /// other than the empty board with Black to move, boards of more than
    /// [`MAX_POINTS`] points; or when memory is refused.
    pub fn build(board: &Board, rules: &Rules) -> Option<Guide> {
        Guide::build_with(board, rules, true)
    }

    /// [`Guide::build`] of the game with basic ko if `ko`, else of the
    /// game without any ko rule.
    pub fn build_with(board: &Board, rules: &Rules, ko: bool) -> Option<Guide> {
        Guide::build_sym(board, rules, ko, true, None)
    }

    /// [`Guide::build_with`], sweeping one state of each orbit of the
    /// board's symmetries if `symmetric`, else every state; keeping the
    /// states' children ([`Kept`]) within `keep` bytes, or by default
    /// what the machine has room for.
    fn build_sym(
        board: &Board,
        rules: &Rules,
        ko: bool,
        symmetric: bool,
        keep: Option<u64>,
    ) -> Option<Guide> {
        if !Guide::takes(board, rules) {
            return None;
        }
        let n = board.len();
        let start = Instant::now();
        let endless = 2 * n as i32 + 1;
        let codes = 3usize.pow(n as u32);
        let mut table: Vec<AtomicU16> = Vec::new();
        table.try_reserve_exact(codes).ok()?;
        crate::search::tt::advise_huge(&mut table);
        // Filled on every thread: 775 MB for 3x6 took 1.7 s on one.
        let open = pack(-endless, endless);
        table.par_extend((0..codes).into_par_iter().map(|_| AtomicU16::new(open)));
        let images = Images::new(board, symmetric);
        let mut levels = legal_by_stones(board, ko, &images)?;
        let digits = Digits::new();
        // The states the listed ones stand for, and of them those with a
        // ko ban: on every thread, one pass (two sequential ones took
        // 0.65 s of 3x6's build).
        let count = |levels: &[Vec<u32>]| -> (u64, u64) {
            let each = levels.par_iter().flat_map(|l| l.par_iter());
            each.map(|&s| {
                let orbit = images.orbit(s);
                let banned = !digits.state(board, s, ko).2.is_empty();
                (orbit, if banned { orbit } else { 0 })
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        };
        let (all, ko_states) = count(&levels);
        let eq = Equations {
            board,
            endless,
            suicide: rules.suicide == Suicide::Allowed,
            ko,
            table: &table,
        };
        // Each listed state's groups and score, once computed (8 bytes a
        // state: 441 MB for 3x6, freed with the lists).
        let mut known: Vec<Vec<u64>> = Vec::with_capacity(levels.len());
        for level in &levels {
            let mut k = Vec::new();
            k.try_reserve_exact(level.len()).ok()?;
            k.resize(level.len(), 0);
            known.push(k);
        }
        // The children's codes kept, 4 bytes an empty point of each listed
        // state (3x6: 1.5 GB; 4x5 about 15 GB), in what is left of three
        // quarters of the memory beside the rest of the build.
        let listed: u64 = levels.iter().map(|l| l.len() as u64).sum();
        let budget = keep.unwrap_or_else(|| {
            crate::search::tt::physical_memory().map_or(0, |m| {
                (m - m / 4).saturating_sub(Guide::table_bytes(board) + 12 * listed)
            })
        });
        let mut kids = keep_kids(board, &levels, budget);
        let kept_bytes = kids.iter().map(|(v, _)| 4 * v.len() as u64).sum();
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            let mut changed = false;
            let each = levels.iter().zip(known.iter_mut()).zip(kids.iter_mut());
            for ((level, known), (slots, stride)) in each.rev() {
                let stride = *stride;
                let parts = level.par_chunks(CHUNK).zip(known.par_chunks_mut(CHUNK));
                let sweep = |(chunk, known), slots| {
                    eq.sweep(&digits, &images, chunk, known, Kept { slots, stride })
                };
                changed |= if stride > 0 {
                    parts
                        .zip(slots.par_chunks_mut(CHUNK * stride))
                        .map(|(part, slots)| sweep(part, slots))
                        .reduce(|| false, |a, b| a | b)
                } else {
                    parts
                        .map(|part| sweep(part, &mut []))
                        .reduce(|| false, |a, b| a | b)
                };
            }
            let each = levels.iter_mut().zip(known.iter_mut()).zip(kids.iter_mut());
            for ((level, known), (slots, stride)) in each {
                // Keep the unsettled states, their words and their
                // children's codes in step.
                let stride = *stride;
                let mut kept = 0;
                for i in 0..level.len() {
                    debug_assert_eq!(known[i] & SETTLED != 0, {
                        let (lo, hi) = eq.read(level[i] as u64);
                        lo == hi
                    });
                    if known[i] & SETTLED == 0 {
                        level[kept] = level[i];
                        known[kept] = known[i];
                        slots.copy_within(i * stride..(i + 1) * stride, kept * stride);
                        kept += 1;
                    }
                }
                level.truncate(kept);
                known.truncate(kept);
                slots.truncate(kept * stride);
            }
            if !changed {
                break;
            }
        }
        drop(known);
        drop(kids);
        let open = count(&levels).0;
        let stats = GuideStats {
            sweeps,
            seconds: start.elapsed().as_secs_f64(),
            states: all - ko_states,
            ko_states,
            open,
            kept_bytes,
        };
        Some(Guide {
            board: board.clone(),
            suicide: rules.suicide == Suicide::Allowed,
            ko,
            komi: rules.komi.0,
            endless,
            range: value_range(n, rules),
            table: Arc::new(table),
            stats,
        })
    }

    /// The bracket (lo, hi) on the history-free value of the colouring
    /// `pos` (legal) with `mover` to move after `passes` consecutive
    /// passes, basic ko banning `ko` to the mover (as
    /// [`Game::ko_point`](crate::engine::game::Game::ko_point) gives it;
    /// ignored by a guide without ko, and `None` after a pass): half
    /// points from the mover's side, komi included. An endless game shows
    /// as ∓R ([`value_range`]). One table read, or for `passes == 1` one
    /// per placing; two passes or more: the score.
    pub fn range(&self, pos: Position, mover: Color, passes: u8, ko: Option<u8>) -> (i32, i32) {
        debug_assert!(pos.is_legal(&self.board, PointSet::EMPTY));
        let (me, ban) = self.frame(pos, mover, ko);
        debug_assert!(passes == 0 || ban.is_empty(), "a pass clears the ban");
        debug_assert!((ban & !ko_points(&self.board, me)).is_empty(), "not a ko");
        let eq = Equations {
            board: &self.board,
            endless: self.endless,
            suicide: self.suicide,
            ko: self.ko,
            table: &self.table,
        };
        let (lo, hi) = match passes {
            0 => eq.read(index(ternary(me), ban)),
            1 => eq.after_pass(me),
            _ => {
                let s = score(&self.board, me);
                (s, s)
            }
        };
        let komi = match mover {
            Color::Black => self.komi,
            Color::White => -self.komi,
        };
        let with_komi = |v: i32| {
            if v == self.endless {
                self.range
            } else if v == -self.endless {
                -self.range
            } else {
                v - komi
            }
        };
        (with_komi(lo), with_komi(hi))
    }

    /// [`Guide::range`] at the position of `g`, reading the ko ban only
    /// where this guide has basic ko (it costs bit operations per call on
    /// df-pn's hot path).
    #[inline]
    pub fn range_at(&self, g: &Game) -> (i32, i32) {
        self.range(g.position(), g.to_move(), g.passes(), self.ko_at(g))
    }

    /// Fetches the entry [`Guide::range_at`] reads at `g` into the cache
    /// (nothing after a pass, where it reads one entry a placing).
    #[inline]
    pub fn prefetch_at(&self, g: &Game) {
        if g.passes() > 0 {
            return;
        }
        let (me, ban) = self.frame(g.position(), g.to_move(), self.ko_at(g));
        crate::search::tt::prefetch(&self.table[index(ternary(me), ban) as usize]);
    }

    /// The ko ban at `g` as this guide reads it: none in a guide without
    /// ko.
    #[inline]
    fn ko_at(&self, g: &Game) -> Option<u8> {
        if self.ko { g.ko_point() } else { None }
    }

    /// `pos` with `mover` to move in the table's frame (the mover's stones
    /// black), and the point basic ko bans there (none without ko).
    #[inline]
    fn frame(&self, pos: Position, mover: Color, ko: Option<u8>) -> (Position, PointSet) {
        let me = match mover {
            Color::Black => pos,
            Color::White => swapped(pos),
        };
        let ban = match ko {
            Some(k) if self.ko => PointSet::single(k),
            _ => PointSet::EMPTY,
        };
        (me, ban)
    }

    /// Whether [`Guide::build`] takes this board and rules (it may still
    /// be refused its memory).
    pub fn takes(board: &Board, rules: &Rules) -> bool {
        let n = board.len();
        Guide::takes_rules(rules) && n > 0 && n <= MAX_POINTS
    }

    /// Whether [`Guide::build`] would take these rules, but the board has
    /// more than [`MAX_POINTS`] points.
    pub fn too_large(board: &Board, rules: &Rules) -> bool {
        Guide::takes_rules(rules) && board.len() > MAX_POINTS
    }

    fn takes_rules(rules: &Rules) -> bool {
        matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) && rules.setup == Setup::EMPTY
    }

    /// About what building the guide of `board` takes at its peak, in
    /// bytes: the table (2 bytes a colouring) and, for each listed state,
    /// 4 bytes of sweep list and 8 of known word. The kept children
    /// (`Kept`) come on top only where they fit. The lists hold one state
    /// of each orbit of the legal colourings, and ko states (6% more on
    /// 4x5); a quarter is added for both. 4x5: 13.9 GB, against a measured
    /// peak of about 13.1 GB (7.0 GB of it the table, which stays).
    pub fn build_bytes(board: &Board) -> u64 {
        let codes = 3u64.pow(board.len() as u32);
        let legal = count_auto(board).map_or(codes, |(c, _)| c as u64);
        let orbits = board.automorphisms(MAX_SYMMETRIES).len().max(1) as u64;
        Guide::table_bytes(board) + 12 * (legal + legal / 4) / orbits
    }

    /// The bytes of the table that stays once built: 2 a colouring.
    fn table_bytes(board: &Board) -> u64 {
        2 * 3u64.pow(board.len() as u32)
    }

    /// Whether the guide of `board`, kept beside `tables` bytes of search
    /// tables, fits a machine of `memory` bytes with an eighth of it
    /// free; if not, the bytes they take. An allocation the machine
    /// cannot back is not refused by the allocator: the kernel ends the
    /// process later, so this is asked first.
    pub fn fits(board: &Board, tables: u64, memory: u64) -> Result<(), u64> {
        within(Guide::table_bytes(board) + tables, memory)
    }

    /// As [`Guide::fits`], for building the guide (before the search's
    /// tables are made); if not, the build's bytes. Asked only where the
    /// guide is neither in memory nor in the cache: a build needs about
    /// twice the table it leaves.
    pub fn build_fits(board: &Board, memory: u64) -> Result<(), u64> {
        within(Guide::build_bytes(board), memory)
    }

    /// Sweeps, seconds, states and open states of the build.
    pub fn stats(&self) -> GuideStats {
        self.stats
    }

    /// Whether suicide is a legal turn in this guide's game (not always
    /// so where the solve's rules allow it: see `Shared::build_guide`).
    pub fn allows_suicide(&self) -> bool {
        self.suicide
    }

    /// Whether this is the guide of the game with basic ko.
    pub fn has_ko(&self) -> bool {
        self.ko
    }

    /// The table and the build's statistics, to write to disk
    /// ([`guide_file`](crate::search::guide_file)).
    pub(super) fn parts(&self) -> (&Arc<Vec<AtomicU16>>, GuideStats) {
        (&self.table, self.stats)
    }

    /// The guide of `board` under `rules` (with basic ko if `ko`) whose
    /// entries and statistics were read back from disk or are another
    /// solve's, with `rules`' komi, or `None` where [`Guide::takes`] does
    /// not take them or the table is not the board's size.
    pub(super) fn from_parts(
        board: &Board,
        rules: &Rules,
        ko: bool,
        table: Arc<Vec<AtomicU16>>,
        stats: GuideStats,
    ) -> Option<Guide> {
        let n = board.len();
        if !Guide::takes(board, rules) || table.len() != 3usize.pow(n as u32) {
            return None;
        }
        Some(Guide {
            board: board.clone(),
            suicide: rules.suicide == Suicide::Allowed,
            ko,
            komi: rules.komi.0,
            endless: 2 * n as i32 + 1,
            range: value_range(n, rules),
            table,
            stats,
        })
    }
}

/// `bytes`, if they leave an eighth of a machine of `memory` bytes free;
/// else the bytes, to report.
fn within(bytes: u64, memory: u64) -> Result<(), u64> {
    if bytes > memory - memory / 8 {
        Err(bytes)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Komi, Superko};

    fn pos(board: &Board, text: &str) -> Position {
        let mut p = Position::EMPTY;
        for (i, c) in text.chars().enumerate() {
            assert!(i < board.len());
            match c {
                'X' => p.black |= PointSet::single(i as u8),
                'O' => p.white |= PointSet::single(i as u8),
                _ => {}
            }
        }
        p
    }

    fn rules(suicide: Suicide, komi: i32) -> Rules {
        Rules {
            suicide,
            komi: Komi(komi),
            ..Rules::new(Ruleset::TrompTaylor)
        }
    }

    /// 1x1: a stone there would be a lone suicide recreating the
    /// colouring, so the only turn is a pass, and the empty board scores 0
    /// for both. With komi 1.5 (3 half points) Black is 3 behind.
    #[test]
    fn guide_one_point() {
        let b = Board::parse("1x1").unwrap();
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let g = Guide::build(&b, &rules(suicide, 0)).unwrap();
            for passes in 0..3 {
                for c in [Color::Black, Color::White] {
                    assert_eq!(g.range(Position::EMPTY, c, passes, None), (0, 0));
                }
            }
            let g = Guide::build(&b, &rules(suicide, 3)).unwrap();
            assert_eq!(g.range(Position::EMPTY, Color::Black, 0, None), (-3, -3));
            assert_eq!(g.range(Position::EMPTY, Color::White, 1, None), (3, 3));
        }
    }

    /// 1x2, points a b, half points from Black's side. Legal colourings:
    /// `..`, `X.`, `.X`, `O.`, `.O` (scores 0, +4, +4, −4, −4); by symmetry
    /// `.X` is `X.` and `O.` is `.O`. Komi 0 first (R = 4).
    ///
    /// - `X.`, Black to move after a pass: passing back ends at +4, the
    ///   most there is: (4, 4). Likewise `.O`, White to move after a pass:
    ///   mover's side (4, 4).
    /// - The ko: at `X.` with White to move, White passes (Black passes
    ///   back: +4) or takes at b, giving `.O` with Black to move; there
    ///   Black passes (White passes back: −4) or takes back at a, giving
    ///   `X.` with White to move. Suicide adds only `XX` → `..` and
    ///   `OO` → `..`, never better than ±4 for the one playing it. So
    ///   x = V(`X.`, White) and y = V(`.O`, Black) solve x = min(4, y),
    ///   y = max(−4, x): every x = y in [−4, 4] does, so lo = −4, hi = +4.
    /// - Empty, Black to move: place (White to move at `X.`: [−4, 4]) or
    ///   pass (White places, reaching `O.`: [−4, 4], or passes back: 0):
    ///   max([−4, 4], min(0, [−4, 4])) = (−4, 4). After a pass, Black may
    ///   also pass back: max(0, [−4, 4]) = (0, 4).
    ///
    /// Komi −2.5 (−5 half points): scores +5, R = 9. Suicide forbidden:
    /// Black's pass at `.O` ends at −4 + 5 = 1 and White's at `X.` at
    /// 4 + 5 = 9, so y = max(1, x), x = min(9, y): (1, 9) at `.O`, and the
    /// empty board is max(x, min(5, y)) = (1, 9). Suicide allowed: after
    /// Black's pass at `.O` White may also play a (`OO` → `..`, Black to
    /// move), and at `..` Black's pass lets White play again: White can
    /// keep the game going for ever, and every way out for Black leads
    /// back into the ko, so lo = −R = −9 at `.O` and on the empty board
    /// (formally y = max(min(1, e), x), e = max(min(5, y), x), x = y: any
    /// y solves it); hi stays 9.
    #[test]
    fn guide_two_points_no_ko() {
        let b = Board::parse("1x2").unwrap();
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let g = Guide::build_with(&b, &rules(suicide, 0), false).unwrap();
            let x_ = pos(&b, "X.");
            let _o = pos(&b, ".O");
            assert_eq!(g.range(x_, Color::Black, 1, None), (4, 4));
            assert_eq!(g.range(_o, Color::White, 1, None), (4, 4));
            assert_eq!(g.range(x_, Color::White, 0, None), (-4, 4));
            assert_eq!(g.range(_o, Color::Black, 0, None), (-4, 4));
            assert_eq!(g.range(Position::EMPTY, Color::Black, 0, None), (-4, 4));
            assert_eq!(g.range(Position::EMPTY, Color::Black, 1, None), (0, 4));
            assert_eq!(g.range(x_, Color::Black, 2, None), (4, 4));
            assert_eq!(g.range(x_, Color::White, 2, None), (-4, -4));
            let g = Guide::build_with(&b, &rules(suicide, -5), false).unwrap();
            let lo = if suicide == Suicide::Allowed { -9 } else { 1 };
            assert_eq!(g.range(_o, Color::Black, 0, None), (lo, 9));
            assert_eq!(g.range(Position::EMPTY, Color::Black, 0, None), (lo, 9));
        }
    }

    /// 1x2 with basic ko, komi 0, half points from Black's side: the ko of
    /// [`guide_two_points_no_ko`] is over at once, so every value is exact.
    ///
    /// - `.O`, Black to move, a banned (White has just taken there): Black
    ///   can only pass, and White passes back: −4 (White's `OO` suicide
    ///   only empties the board). Without the ban Black takes at a, and
    ///   White, banned from b, can only pass: +4.
    /// - `X.`, White to move: White takes at b, reaching the state above:
    ///   −4, and symmetrically `O.` with Black to move is +4.
    /// - Empty, Black to move: a placing is taken (−4); after a pass White
    ///   passes back (0) rather than place and be taken (+4): 0. After a
    ///   pass the same: 0.
    /// - `X.`, Black to move: passing lets White take (−4); the suicide at
    ///   b, where allowed, empties the board with White to move: 0.
    #[test]
    fn guide_two_points_basic_ko() {
        let b = Board::parse("1x2").unwrap();
        let (x_, _o) = (pos(&b, "X."), pos(&b, ".O"));
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let g = Guide::build(&b, &rules(suicide, 0)).unwrap();
            assert_eq!(g.range(_o, Color::Black, 0, Some(0)), (-4, -4));
            assert_eq!(g.range(_o, Color::Black, 0, None), (4, 4));
            assert_eq!(g.range(x_, Color::White, 0, None), (4, 4));
            assert_eq!(g.range(x_, Color::White, 0, Some(1)), (-4, -4));
            assert_eq!(g.range(Position::EMPTY, Color::Black, 0, None), (0, 0));
            assert_eq!(g.range(Position::EMPTY, Color::White, 1, None), (0, 0));
            let v = if suicide == Suicide::Allowed { 0 } else { -4 };
            assert_eq!(g.range(x_, Color::Black, 0, None), (v, v));
            assert_eq!(g.stats().ko_states, 2);
            assert_eq!(g.stats().open, 0);
        }
    }

    /// Sweeping one state per orbit and writing the value to the whole
    /// orbit gives the same table, entry by entry, as sweeping every state:
    /// boards with 2, 4 and 8 grid symmetries, a cycle's 12, and Petersen's
    /// 120 capped to a subgroup; with and without ko and suicide.
    #[test]
    fn guide_symmetry_changes_nothing() {
        for spec in ["1x5", "2x3", "3x3", "cycle:6", "petersen"] {
            let b = Board::parse(spec).unwrap();
            for suicide in [Suicide::Allowed, Suicide::Forbidden] {
                for ko in [false, true] {
                    let r = rules(suicide, 0);
                    let one = Guide::build_sym(&b, &r, ko, true, None).unwrap();
                    let all = Guide::build_sym(&b, &r, ko, false, Some(0)).unwrap();
                    let read =
                        |g: &Guide| g.table.iter().map(|c| c.load(Relaxed)).collect::<Vec<_>>();
                    assert!(read(&one) == read(&all), "{spec} {suicide:?} ko {ko}");
                    let (a, b) = (one.stats(), all.stats());
                    assert_eq!(
                        (a.states, a.ko_states, a.open),
                        (b.states, b.ko_states, b.open)
                    );
                }
            }
            let images = Images::new(&b, true);
            assert!(!images.maps.is_empty(), "{spec} has symmetries");
        }
    }

    /// The lists hold every legal colouring once, and with ko every ko
    /// state once, against every code read back and tested; with the
    /// symmetries, exactly the least index of each orbit of those. The
    /// listing checks a colouring and its colour swap together, so an
    /// off-by-one there would drop or repeat states here.
    #[test]
    fn listing_is_every_state_once() {
        let digits = Digits::new();
        for spec in ["1x1", "1x6", "2x3", "3x3", "2x4", "cycle:6", "petersen"] {
            let b = Board::parse(spec).unwrap();
            for ko in [false, true] {
                let mut want = Vec::new();
                for code in 0..3u64.pow(b.len() as u32) {
                    let p = from_ternary(code, b.len());
                    if p.is_legal(&b, PointSet::EMPTY) {
                        want.push(code as u32);
                        let bans = if ko {
                            ko_points(&b, p)
                        } else {
                            PointSet::EMPTY
                        };
                        want.extend(bans.iter().map(|k| index(code, PointSet::single(k)) as u32));
                    }
                }
                want.sort_unstable();
                for symmetric in [false, true] {
                    let images = Images::new(&b, symmetric);
                    let levels = legal_by_stones(&b, ko, &images).unwrap();
                    for (k, level) in levels.iter().enumerate() {
                        for &s in level {
                            let (p, _, _) = digits.state(&b, s, ko);
                            assert_eq!((p.black | p.white).len() as usize, k, "{spec}");
                        }
                    }
                    let mut got: Vec<u32> = levels.concat();
                    got.sort_unstable();
                    let canon: Vec<u32> = want
                        .iter()
                        .copied()
                        .filter(|&s| images.canonical(s))
                        .collect();
                    assert_eq!(got, canon, "{spec} ko {ko} symmetric {symmetric}");
                }
            }
        }
    }

    /// The old way to a child's index, the reference for
    /// [`Equations::child`]: place with [`Position::place`], then the
    /// code of the result in the frame asked for.
    fn child_by_place(eq: &Equations, pos: Position, p: u8, c: Color, swap: bool) -> Option<u64> {
        let placed = pos.place(eq.board, p, c, PointSet::EMPTY);
        if (placed.suicided > 0 && !eq.suicide) || placed.position == pos {
            return None;
        }
        let after = placed.position;
        let mut code = ternary(if swap { swapped(after) } else { after });
        if eq.ko && placed.captured == 1 {
            let near = eq.board.neighbours(p);
            let libs = near & after.empty(eq.board);
            if libs.len() == 1 && (near & after.stones(c)).is_empty() {
                code += POW3[libs.0.trailing_zeros() as usize];
            }
        }
        Some(code)
    }

    /// [`Equations::child`] agrees with placing the stone, for every
    /// empty point of every legal colouring of four boards, both colours,
    /// with and without suicide and ko: captures of one and of several
    /// groups, single and multi-stone suicides, and the lone stone's
    /// suicide that leaves the colouring unchanged all occur.
    #[test]
    fn children_agree_with_placing() {
        for spec in ["3x3", "2x4", "1x7", "cycle:7"] {
            let board = Board::parse(spec).unwrap();
            let (mut captures, mut suicides) = (0, 0);
            for (suicide, ko) in [(true, true), (true, false), (false, true)] {
                let eq = Equations {
                    board: &board,
                    endless: 2 * board.len() as i32 + 1,
                    suicide,
                    ko,
                    table: &[],
                };
                for code in 0..3u64.pow(board.len() as u32) {
                    let pos = from_ternary(code, board.len());
                    if !pos.is_legal(&board, PointSet::EMPTY) {
                        continue;
                    }
                    let g = eq.groups(pos);
                    for p in pos.empty(&board).iter() {
                        for c in [Color::Black, Color::White] {
                            let swap = c == Color::Black;
                            let base = ternary(if swap { swapped(pos) } else { pos });
                            let want = child_by_place(&eq, pos, p, c, swap);
                            assert_eq!(eq.child(pos, &g, p, c, base), want, "{spec} {code} {p}");
                            let placed = pos.place(&board, p, c, PointSet::EMPTY);
                            captures += u32::from(placed.captured > 0);
                            suicides += u32::from(placed.suicided > 1);
                        }
                    }
                }
            }
            assert!(
                captures > 100 && suicides > 100,
                "{spec}: {captures} {suicides}"
            );
        }
    }

    /// Keeping the children's codes from the first sweep, for every level,
    /// for some (half the bytes all would take) or for none, gives the
    /// same table and the same number of sweeps.
    #[test]
    fn kept_children_change_nothing() {
        for spec in ["2x4", "3x3", "1x8"] {
            let b = Board::parse(spec).unwrap();
            let r = rules(Suicide::Allowed, 0);
            let levels = legal_by_stones(&b, true, &Images::new(&b, true)).unwrap();
            let all: u64 = (levels.iter().enumerate())
                .map(|(k, l)| 4 * (l.len() * (b.len() - k)) as u64)
                .sum();
            let kept = |budget| {
                let kids = keep_kids(&b, &levels, budget);
                (kids.iter().enumerate())
                    .filter(|(k, (_, stride))| *stride > 0 && !levels[*k].is_empty())
                    .count()
            };
            let filled = levels.iter().filter(|l| !l.is_empty()).count();
            assert_eq!(kept(all), filled, "{spec}");
            assert!((1..filled).contains(&kept(all / 2)), "{spec}");
            assert_eq!(kept(0), 0, "{spec}");
            let read = |g: &Guide| g.table.iter().map(|c| c.load(Relaxed)).collect::<Vec<_>>();
            let none = Guide::build_sym(&b, &r, true, true, Some(0)).unwrap();
            for budget in [all / 2, all] {
                let some = Guide::build_sym(&b, &r, true, true, Some(budget)).unwrap();
                assert!(read(&some) == read(&none), "{spec} {budget}");
                assert_eq!(some.stats().sweeps, none.stats().sweeps, "{spec}");
            }
        }
    }

    /// A state's groups and score come back whole from their word, for
    /// every legal colouring of two boards.
    #[test]
    fn known_words_keep_groups_and_score() {
        for spec in ["3x3", "cycle:7"] {
            let board = Board::parse(spec).unwrap();
            let eq = Equations {
                board: &board,
                endless: 2 * board.len() as i32 + 1,
                suicide: true,
                ko: true,
                table: &[],
            };
            let mut legal = 0;
            for code in 0..3u64.pow(board.len() as u32) {
                let pos = from_ternary(code, board.len());
                if !pos.is_legal(&board, PointSet::EMPTY) {
                    continue;
                }
                legal += 1;
                let mut word = 0;
                let (g, s) = eq.groups_and_score(pos, &mut word);
                let (h, t) = eq.groups_and_score(pos, &mut word);
                assert_ne!(word & KNOWN, 0);
                assert_eq!((g.atari, g.safe, s), (h.atari, h.safe, t), "{spec} {code}");
                assert_eq!(s, score(&board, pos));
            }
            assert!(legal > 1000, "{spec}: {legal}");
        }
    }

    #[test]
    fn guide_memory_is_asked_first() {
        const GIB: u64 = 1 << 30;
        let board = Board::parse("4x5").unwrap();
        // 2 · 3^20 bytes of table, and 12 bytes for each of 1.25 times
        // the 1,840,058,693 legal colourings over 4 symmetries.
        let build = 2 * 3u64.pow(20) + 12 * (1_840_058_693 + 460_014_673) / 4;
        assert_eq!(Guide::build_bytes(&board), build);
        assert_eq!(Guide::fits(&board, 4 * GIB, 16 * GIB), Ok(()));
        assert_eq!(Guide::build_fits(&board, 16 * GIB), Ok(()));
        // 7/8 of 12 GiB holds the search's 11.3 GB, not the build's 13.9:
        // a guide read from a cache is used there, none is built.
        assert_eq!(Guide::fits(&board, 4 * GIB, 12 * GIB), Ok(()));
        assert_eq!(Guide::build_fits(&board, 12 * GIB), Err(build));
        let search = 2 * 3u64.pow(20) + 8 * GIB;
        assert_eq!(Guide::fits(&board, 8 * GIB, 16 * GIB), Err(search));
        let small = Board::parse("3x3").unwrap();
        assert_eq!(Guide::fits(&small, 0, 1 << 20), Ok(()));
        assert!(Guide::build_fits(&small, 1 << 20).is_ok());
        assert!(Guide::fits(&small, 1 << 20, 1 << 20).is_err());
    }

    #[test]
    fn guide_unsupported() {
        let small = Board::parse("2x2").unwrap();
        assert!(
            Guide::build(
                &Board::parse("1x21").unwrap(),
                &Rules::new(Ruleset::TrompTaylor)
            )
            .is_none()
        );
        assert!(
            Guide::build(
                &Board::parse("complete:21").unwrap(),
                &Rules::new(Ruleset::Ggg)
            )
            .is_none()
        );
        for r in [
            Ruleset::Conway,
            Ruleset::Koh,
            Ruleset::Logical,
            Ruleset::ConwayReplacement,
        ] {
            assert!(Guide::build(&small, &Rules::new(r)).is_none(), "{r}");
        }
        let opts = crate::engine::rules::RuleOptions {
            start: Some("X./..".into()),
            ..Default::default()
        };
        let start = Rules::build(Ruleset::TrompTaylor, &opts, &small).unwrap();
        assert!(Guide::build(&small, &start).is_none());
        let opts = crate::engine::rules::RuleOptions {
            start: Some("../..".into()),
            superko: Some(Superko::None),
            ..Default::default()
        };
        let empty = Rules::build(Ruleset::Ggg, &opts, &small).unwrap();
        assert!(Guide::build(&small, &empty).is_some());
        assert!(Guide::build(&Board::parse("4x4").unwrap(), &Rules::new(Ruleset::Koh)).is_none());
        // Too large is said only where the size alone rules it out.
        let tt = Rules::new(Ruleset::TrompTaylor);
        for (spec, large) in [
            ("5x5", true),
            ("1x21", true),
            ("4x5", false),
            ("2x2", false),
        ] {
            let b = Board::parse(spec).unwrap();
            assert_eq!(Guide::too_large(&b, &tt), large, "{spec}");
            assert_eq!(Guide::takes(&b, &tt), !large, "{spec}");
        }
        let five = Board::parse("5x5").unwrap();
        assert!(!Guide::too_large(&five, &Rules::new(Ruleset::Conway)));
        let opts = crate::engine::rules::RuleOptions {
            start: Some("X..../...../...../...../.....".into()),
            ..Default::default()
        };
        let start = Rules::build(Ruleset::TrompTaylor, &opts, &five).unwrap();
        assert!(!Guide::too_large(&five, &start));
    }
}
