//! The exact solver: negamax alpha-beta over the full game history, the
//! exact value found by zero-width searches that bisect the value range,
//! a transposition table that is sound under superko, symmetry reduction,
//! and the root moves searched in parallel. Each zero-width search is run
//! with a depth limit that doubles until the result no longer depends on a
//! line cut short (`Search::deepening`), the siblings of an open child a
//! little shorter still (`OPEN_SIBLING_CUT`): only settled results are
//! ever stored, and the cut-short iterations leave their best moves in the
//! table.
//!
//! # Values
//!
//! Half points from the mover's side inside the search; Black − White −
//! komi at the interface. Normal-play rulesets score +1 for the winner.
//!
//! # Why the table is sound under superko
//!
//! The value of a node N (at history index d) depends on the history before
//! it only through the superko tests (and, under `--superko none`, the
//! repetition ties) that the search below N performs against the states
//! `H[0..d)`. (`H[d]` is N's own state, except where a pass that spends a
//! prisoner goes unrecorded: under situational superko N's state may then
//! be missing, so there d is the history's length; see
//! `Search::external`.) The search result is a bound proved by a strategy of one player,
//! the bound's *owner* (the mover for a lower bound, the opponent for an
//! upper bound): the owner's chosen moves and every reply of the other side.
//! Under another history H' that reaches the same state, the same strategy
//! still proves the bound when
//!
//! 1. no reply of the other side was refused because of H[0..d) (under H'
//!    it might be legal and the strategy would not answer it) — tracked as
//!    `dep`, the smallest history index any such refusal referred to; a
//!    bound is stored only when `dep ≥ d`;
//! 2. no state the owner's moves produce is in H'[0..d') (under H' that
//!    move would be refused) — each bound carries a [`Summary`] of the
//!    produced states (stones common to all, stones in any, stone-count
//!    range, a Bloom filter of a hash that the symmetries leave unchanged),
//!    and a stored bound is used only when no state of the current path before N
//!    may be one of them.
//!
//! Replies refused under H' but not under H only remove branches the owner
//! had answered, and passes are never refused. Under `--superko none` a
//! repeated state ends the game as a tie, which changes values both ways,
//! so there the summary covers the states of both sides, each repetition tie
//! counts in `dep`, and the points where basic ko forbids a placing
//! ([`Game::ko_bans`]) are part of the key. Under `koh` nothing repeats and the key (with the points
//! played) decides everything.
//!
//! On boards of at most five points a second table keys bounds by the
//! state *and the exact set of states in the history* ([`SetKey`]); the
//! rules ask no more of the history than whether a state is in it, so
//! those bounds hold as stored. A result that used one carries no proof
//! for the first table (`set_only`), so it is stored in the second only.
//! The second table also keeps the marks of nodes a depth-limited
//! iteration left open, which under one set of states say little about
//! another.
//!
//! Symmetry: an entry is stored in the canonical frame (the least image of
//! the key under the board's symmetries that fix the start position) and
//! its summaries and best move are mapped back on use.

use crate::engine::benson;
use crate::engine::board::Board;
use crate::engine::game::{Game, Key as HistKey};
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Ruleset, Superko};
use crate::engine::symmetry::Automorphism;
use crate::engine::types::{Color, Move, bits};
use crate::search::tt::{
    Bound, Entry, Key, NEEDS, Opened, SET_POINTS, SET_WORDS, SetKey, Summary, Table,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Search options.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Transposition table size in megabytes (0: no table).
    pub tt_mb: usize,
    /// Use the board's symmetries in the table and at the root.
    pub symmetry: bool,
    /// Try pass before placings (Tromp's ordering).
    pub pass_first: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tt_mb: 256,
            symmetry: true,
            pass_first: true,
        }
    }
}

/// A bound's proof facts (see the module documentation).
#[derive(Clone, Copy, Debug)]
struct Proof {
    summary: Summary,
    /// Smallest history index the bound depends on beyond `need` (`u32::MAX`: none).
    dep: u32,
    /// History entries (index, state) the bound requires to be there.
    need: [(u32, HistKey); NEEDS],
    needs: u8,
    /// A bound of the table of history sets was used: there is no proof
    /// for the table of summaries.
    set_only: bool,
}

const CLEAN: Proof = Proof {
    summary: Summary::NONE,
    dep: u32::MAX,
    need: [(
        0,
        HistKey {
            pos: Position::EMPTY,
            to_move: 0,
        },
    ); NEEDS],
    needs: 0,
    set_only: false,
};

impl Proof {
    /// Records that the bound relies on history entry `i` being `k`.
    #[inline]
    fn require(&mut self, i: u32, k: HistKey) {
        if self.need[..self.needs as usize]
            .iter()
            .any(|&(j, _)| j == i)
        {
            return;
        }
        if (self.needs as usize) < NEEDS {
            self.need[self.needs as usize] = (i, k);
            self.needs += 1;
        } else {
            self.dep = self.dep.min(i);
        }
    }

    #[inline]
    fn merge(&mut self, o: &Proof) {
        self.set_only |= o.set_only;
        self.summary.merge(&o.summary);
        self.dep = self.dep.min(o.dep);
        for &(i, k) in &o.need[..o.needs as usize] {
            self.require(i, k);
        }
    }
}

/// A search result: `v` with the fail-soft contract of [`Search::search`],
/// and the proofs of the lower and upper bound it implies.
#[derive(Clone, Copy, Debug)]
struct Res {
    v: i32,
    lo: Proof,
    hi: Proof,
    /// Not settled: a line reached the depth limit. `v` means nothing then.
    open: bool,
}

/// The result of a node a line cut short left unsettled.
const OPEN: Res = Res {
    v: 0,
    lo: CLEAN,
    hi: CLEAN,
    open: true,
};

/// Per symmetry, the number ([`crate::engine::game::state_index`]) of each state's
/// image: the history's bitmap mapped bit by bit into another frame.
fn state_perms(syms: &Syms, n: usize, superko: Superko) -> Vec<Vec<u16>> {
    let positions = 3usize.pow(n as u32);
    let movers: &[u8] = if superko == Superko::Positional {
        &[2]
    } else {
        &[0, 1]
    };
    (0..syms.perms.len())
        .map(|s| {
            let mut perm = vec![0u16; positions * 2];
            for t in 0..positions {
                let pos = crate::engine::game::from_ternary(t as u64, n);
                for &to_move in movers {
                    let from = crate::engine::game::state_index(HistKey { pos, to_move });
                    let to = crate::engine::game::state_index(HistKey {
                        pos: syms.map_pos(s, pos),
                        to_move,
                    });
                    perm[from] = to as u16;
                }
            }
            perm
        })
        .collect()
}

/// The symmetries, with byte tables to map point sets fast.
struct Syms {
    perms: Vec<Automorphism>,
    /// `fwd[s][k][b]`: image under symmetry s of byte k of a set with value b.
    fwd: Vec<Vec<[u64; 256]>>,
    inverse: Vec<usize>,
}

impl Syms {
    fn new(perms: Vec<Automorphism>, n: usize) -> Syms {
        let fwd = perms
            .iter()
            .map(|a| {
                (0..8)
                    .map(|k| {
                        let mut t = [0u64; 256];
                        for (b, slot) in t.iter_mut().enumerate() {
                            *slot =
                                a.set(((b as u64) << (8 * k)) & crate::engine::board::mask_of(n));
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        let inverse = perms
            .iter()
            .map(|a| {
                perms
                    .iter()
                    .position(|b| (0..n as u8).all(|p| b.point(a.point(p)) == p))
                    .expect("a group")
            })
            .collect();
        Syms {
            perms,
            fwd,
            inverse,
        }
    }

    #[inline]
    fn map(&self, s: usize, set: u64) -> u64 {
        if s == 0 {
            return set;
        }
        let t = &self.fwd[s];
        let mut out = 0;
        let mut rest = set;
        let mut k = 0;
        while rest != 0 {
            out |= t[k][(rest & 255) as usize];
            rest >>= 8;
            k += 1;
        }
        out
    }

    fn map_pos(&self, s: usize, p: Position) -> Position {
        Position {
            black: self.map(s, p.black),
            white: self.map(s, p.white),
        }
    }
}

/// A summary's point sets under symmetry `s`.
fn map_summary(syms: &Syms, s: usize, m: &Summary) -> Summary {
    Summary {
        black: syms.map(s, m.black),
        white: syms.map(s, m.white),
        any_black: syms.map(s, m.any_black),
        any_white: syms.map(s, m.any_white),
        ..*m
    }
}

/// The values a game of `points` points can end with lie in `-r..=r`
/// (half points; normal play: ±1).
pub fn value_range(points: usize, rules: &Rules) -> i32 {
    let n = points as i32;
    match rules.ruleset {
        r if !r.has_score() => 1,
        Ruleset::Logical => 4 * n + 4096,
        _ => 2 * n + rules.komi.0.abs(),
    }
}

/// What the threads share: the board, rules, symmetries and the table.
pub struct Shared<'a> {
    board: &'a Board,
    rules: Rules,
    syms: Syms,
    table: Option<Table>,
    /// Beside `table` on boards of at most five points (each with half the
    /// memory): bounds keyed by the history's exact set of states, for
    /// where the table's bounds depend on the history (see
    /// [`Search::set_key`]).
    exact: Option<Table<SetKey>>,
    /// With `exact`: `set_perm[s][i]` is the number of state `i`'s image
    /// under symmetry `s` ([`crate::engine::game::state_index`]).
    set_perm: Vec<Vec<u16>>,
    config: Config,
    range: i32,
    nodes: AtomicU64,
}

/// A move code no move has.
const NO_MOVE: u8 = u8::MAX;

fn code(m: Move) -> u8 {
    m.code()
}

fn decode(c: u8) -> Move {
    Move::from_code(c)
}

/// The value of a finished game from the mover's side (scored in half points, normal play ±1).
pub fn mover_value(g: &Game) -> i32 {
    let black = match g.outcome() {
        Some(crate::engine::game::Outcome::Score(s)) => s,
        Some(crate::engine::game::Outcome::Win(c)) => {
            if c == Color::Black {
                1
            } else {
                -1
            }
        }
        None => unreachable!("mover_value of a game in progress"),
    };
    if g.to_move() == Color::Black {
        black
    } else {
        -black
    }
}

impl<'a> Shared<'a> {
    /// Prepares a solve of `board` under `rules`.
    pub fn new(board: &'a Board, rules: &Rules, config: Config) -> Shared<'a> {
        let perms = if config.symmetry {
            crate::engine::symmetry::symmetries(board, rules)
        } else {
            board.automorphisms(1)
        };
        let range = value_range(board.len(), rules);
        let small = rules.ruleset != Ruleset::Koh && board.len() <= SET_POINTS;
        let syms = Syms::new(perms, board.len());
        let set_perm = if small && config.tt_mb > 0 {
            state_perms(&syms, board.len(), rules.superko)
        } else {
            Vec::new()
        };
        Shared {
            board,
            rules: *rules,
            syms,
            set_perm,
            table: (config.tt_mb > 0)
                .then(|| Table::new(config.tt_mb.div_ceil(1 + small as usize))),
            exact: (config.tt_mb > 0 && small).then(|| Table::new(config.tt_mb / 2)),
            config,
            range,
            nodes: AtomicU64::new(0),
        }
    }

    /// Nodes searched by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The tables' (probes, hits, stores) together, if there is a table.
    pub fn table_counters(&self) -> Option<(u64, u64, u64)> {
        let (p, h, s) = self.table.as_ref()?.counters();
        let (p2, h2, s2) = self.exact.as_ref().map_or((0, 0, 0), |t| t.counters());
        Some((p + p2, h + h2, s + s2))
    }

    /// A fresh game at the start position.
    pub fn start(&self) -> Game<'a> {
        Game::new(self.board, &self.rules)
    }

    /// The symmetries in use (identity first).
    pub fn symmetries(&self) -> &[Automorphism] {
        &self.syms.perms
    }
}

/// One thread's search.
pub struct Search<'s, 'a> {
    sh: &'s Shared<'a>,
    nodes: u64,
    static_bounds: bool,
    /// `GOSOLVE_DEBUG` set: report counters on stderr.
    debug: bool,
    /// Debug counters: entries found but unusable, results not stored.
    pub unusable: u64,
    /// Results not stored because they depend on the history.
    pub unstored: u64,
    all_sides: bool,
    /// A node's own state may be missing from the history (see [`Search::external`]).
    own_unrecorded: bool,
    /// Per player and move code: nodes searched below the cutoffs it made.
    history_score: [[u64; 66]; 2],
    /// Per ply: the move code of the last cutoff there (`NO_MOVE`: none).
    killer: Vec<u8>,
    /// [`Search::state_hash`] of each history entry, kept in step with it.
    path: Vec<u64>,
    /// Turns below the node where the current test started.
    ply: u32,
    /// Lines end unsettled this many turns below that node (see [`Search::exact`]).
    limit: u32,
    /// The number of the depth-limited iteration running (see [`ITERATIONS`]).
    iteration: u32,
}

/// Once a child of a node is left open, its later siblings are searched
/// this many turns shorter. They are searched only for a settled result
/// that decides the node without the open child, and at full depth the
/// open parts of the tree were searched at full width: 4x4's centre
/// opening (situational superko, one thread) did not finish one test of
/// its first class in 950 M nodes; with the cut, the whole subtree took
/// 919 M. Every line still gets longer with each iteration, so every
/// result is still settled in the end, and only settled results count.
const OPEN_SIBLING_CUT: u32 = 2;

/// Numbers the depth-limited iterations of all threads, so that a node
/// left open by one is skipped only by the same iteration.
static ITERATIONS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

impl Drop for Search<'_, '_> {
    fn drop(&mut self) {
        if self.debug {
            eprintln!(
                "search: {} nodes, {} unusable entries, {} unstored results",
                self.nodes, self.unusable, self.unstored
            );
        }
        self.sh.nodes.fetch_add(self.nodes, Ordering::Relaxed);
    }
}

impl<'s, 'a> Search<'s, 'a> {
    /// A search over the shared state.
    pub fn new(sh: &'s Shared<'a>) -> Self {
        let all_sides = sh.rules.superko == Superko::None && sh.rules.ruleset != Ruleset::Koh;
        let static_bounds = benson::applies(&sh.rules);
        let own_unrecorded = sh.rules.superko == Superko::Situational
            && sh.rules.ruleset.pass_rule() == crate::engine::rules::PassRule::CostsPrisoner;
        Search {
            sh,
            own_unrecorded,
            nodes: 0,
            static_bounds,
            all_sides,
            debug: std::env::var_os("GOSOLVE_DEBUG").is_some(),
            unusable: 0,
            unstored: 0,
            path: Vec::with_capacity(1024),
            history_score: [[0; 66]; 2],
            killer: vec![NO_MOVE; 1024],
            ply: 0,
            limit: u32::MAX,
            iteration: 0,
        }
    }

    /// Sorts moves by history score, highest first (stable, no allocation).
    #[inline]
    fn by_history(&self, mover: usize, moves: &mut [Move]) {
        let h = &self.history_score[mover];
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && h[code(moves[j - 1]) as usize] < h[code(moves[j]) as usize] {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// A hash of the state (colouring and, but under positional superko,
    /// the player to move) that every symmetry in use leaves unchanged
    /// (that of the colouring's least image), for the summaries' Bloom
    /// filters. The player to move counts because under situational
    /// superko a colouring recurs with the other player to move without
    /// being a repetition: with suicide a lone stone's suicide acts as a
    /// pass, and star:4 `conway` found almost every entry unusable.
    #[inline]
    fn state_hash(&self, k: HistKey) -> u64 {
        let pos = k.pos;
        let syms = &self.sh.syms;
        let mut best = pos;
        for i in 1..syms.perms.len() {
            let q = syms.map_pos(i, pos);
            if q < best {
                best = q;
            }
        }
        let mut h = best.black.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ best
                .white
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .rotate_left(23);
        h ^= h >> 31 ^ (k.to_move as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
        h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 57
    }

    /// Recomputes [`Search::path`] from the history.
    fn sync_path(&mut self, g: &Game) {
        self.path.clear();
        for i in 0..g.history().len() {
            let h = self.state_hash(g.history()[i]);
            self.path.push(h);
        }
    }

    /// On a board small enough for [`Shared::exact`]: the key with the set
    /// of the history's states, in the key's frame `sym`, and its hash.
    ///
    /// Why it is sound: the rules look at the history only to ask whether
    /// a state is in it (superko, and repetition ties under `--superko
    /// none`); the points basic ko forbids, passes and
    /// prisoners are in the key. So two histories with the same set reach
    /// the same value, and a bound stored under the set needs no summary.
    ///
    /// Why it pays: under situational superko with suicide allowed, a lone
    /// stone's suicide is a pass that each state allows once, so nearly
    /// every result hangs on the history and the summaries rule the
    /// table's bounds out. With the set table (one thread): star:4
    /// `conway --superko situational` 1.52 G nodes (430 s) -> 1.36 M
    /// (1.4 s), cycle:5 the same 26 M -> 0.19 M, complete:4
    /// `conway-replacement` from over 20 s to 13,907 nodes.
    fn set_key(&self, g: &Game, key: &Key, sym: usize) -> Option<(SetKey, u64)> {
        self.sh.exact.as_ref()?;
        // The game's own bitmap of its history, mapped into the key's frame.
        let seen = g.seen();
        let mut set = [0u64; SET_WORDS];
        if sym == 0 {
            set[..seen.len()].copy_from_slice(seen);
        } else {
            let perm = &self.sh.set_perm[sym];
            for (w, &word) in seen.iter().enumerate() {
                for b in bits(word) {
                    let j = perm[64 * w + b as usize] as usize;
                    set[j / 64] |= 1 << (j % 64);
                }
            }
        }
        let mut h = Self::hash(key);
        for (i, &w) in set.iter().enumerate() {
            h = (h ^ w
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(7 * i as u32 + 3))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        Some((SetKey { key: *key, set }, h))
    }

    fn key(&self, g: &Game) -> (Key, usize) {
        let s = g.state();
        let mut extra = s.to_move as u64 | (s.passes as u64) << 1;
        // Prisoners decide legality where a pass spends one, and the score under `logical`.
        if self.sh.rules.ruleset.prisoners_matter() {
            extra |= (s.prisoners[0] as u64) << 8 | (s.prisoners[1] as u64) << 32;
        }
        let aux = if self.sh.rules.ruleset == Ruleset::Koh {
            Position {
                black: s.played,
                white: 0,
            }
        } else {
            // Under `--superko none` basic ko's bans (none elsewhere), not
            // the colouring it compares with: that decides nothing else,
            // and most turns leave no ban, so positions reached by
            // different last turns share one entry (3x4 under `--superko
            // none --suicide forbidden`: 2.95 M -> 1.05 M nodes).
            Position {
                black: g.ko_bans(),
                white: 0,
            }
        };
        let syms = &self.sh.syms;
        let mut best = (
            Key {
                pos: s.pos,
                aux,
                extra,
            },
            0,
        );
        for i in 1..syms.perms.len() {
            let k = Key {
                pos: syms.map_pos(i, s.pos),
                aux: syms.map_pos(i, aux),
                extra,
            };
            if (k.pos, k.aux) < (best.0.pos, best.0.aux) {
                best = (k, i);
            }
        }
        best
    }

    /// Bounds on the value (mover's side) that hold whatever the history:
    /// each side keeps the points [`benson::secure`] gives it by passing to
    /// the end (see `benson`). Scored rulesets without prisoners only.
    fn static_range(&self, g: &Game) -> (i32, i32) {
        let (lo, hi) = benson::black_range(self.sh.board, &g.position(), &self.sh.rules);
        if g.to_move() == Color::Black {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// Empty points that would capture: the only liberty of an opponent group.
    fn capture_points(&self, g: &Game) -> u64 {
        let pos = g.position();
        let board = self.sh.board;
        let opp = pos.stones(g.to_move().opp());
        let empty = pos.empty(board) & g.candidates();
        let mut out = 0;
        let mut todo = opp;
        while todo != 0 {
            let grp = crate::engine::position::flood(board, todo & todo.wrapping_neg(), opp);
            todo &= !grp;
            let libs = board.spread(grp) & pos.empty(board);
            if libs.count_ones() == 1 {
                out |= libs & empty;
            }
        }
        out
    }

    fn hash(k: &Key) -> u64 {
        let mut h = k.pos.black.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= k
            .pos
            .white
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(17);
        h ^= k
            .aux
            .black
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            .rotate_left(31);
        h ^= k
            .aux
            .white
            .wrapping_mul(0x27D4_EB2F_1656_67C5)
            .rotate_left(43);
        h ^= k.extra.wrapping_mul(0x85EB_CA77_C2B2_AE63);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }

    /// How many history entries come before the node: those a stored
    /// bound is checked against, and below which a result's dependences
    /// make it unstorable. The last entry is the node's own state, part of
    /// every path to it, except where a pass that spends a prisoner is not
    /// recorded: under situational superko the node's own state may then
    /// be missing, so there the last entry counts as an earlier one (a
    /// bound that needs it, or whose owner produced that state, is checked
    /// against it like any other).
    #[inline]
    fn external(&self, g: &Game) -> u32 {
        let n = g.history().len();
        if self.own_unrecorded {
            n as u32
        } else {
            n.saturating_sub(1) as u32
        }
    }

    /// The proof of a stored bound on the current path, if it may be used
    /// there: no state before the current one may be one its owner
    /// produced, and every state it needs is there.
    fn usable(&self, g: &Game, s: usize, b: &Bound, d: u32) -> Option<Proof> {
        let h = g.history();
        let mut p = Proof { dep: d, ..CLEAN };
        if h.is_empty() {
            return Some(p);
        }
        let inv = self.sh.syms.inverse[s];
        let syms = &self.sh.syms;
        p.summary = map_summary(syms, inv, &b.summary);
        let prefix = &h[..d as usize];
        if g.earlier_with_stones(p.summary.min, p.summary.max, d as usize)
            .any(|(i, k)| p.summary.may_contain(&k.pos, self.path[i]))
        {
            return None;
        }
        for &(pos, to_move) in &b.need[..b.needs as usize] {
            let want = HistKey {
                pos: syms.map_pos(inv, pos),
                to_move,
            };
            let i = prefix.iter().position(|k| *k == want)?;
            p.require(i as u32, want);
        }
        Some(p)
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: &Key,
        hash: u64,
        set: &Option<(SetKey, u64)>,
        s: usize,
        d: u32,
        r: &Res,
        alpha: i32,
        beta: i32,
        best: u8,
        work: u64,
    ) {
        let Some(table) = &self.sh.table else { return };
        let syms = &self.sh.syms;
        let v = r.v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let best = code(syms.perms[s].map_move(decode(best)));
        let work = (64 - work.leading_zeros()) as u8;
        if let (Some((k, h)), Some(t)) = (set, &self.sh.exact) {
            // Keyed by the history's set: every settled bound holds.
            let b = Bound {
                value: v,
                summary: Summary::NONE,
                need: [(Position::EMPTY, 0); NEEDS],
                needs: 0,
            };
            let (lower, upper) = ((r.v > alpha).then_some(b), (r.v < beta).then_some(b));
            t.store(k, *h, lower, upper, best, work);
        }
        let canon = |p: &Proof| {
            let mut b = Bound {
                value: v,
                summary: map_summary(syms, s, &p.summary),
                need: [(Position::EMPTY, 0); NEEDS],
                needs: 0,
            };
            // Entries at or after the node are part of the subtree's own path.
            for &(i, k) in &p.need[..p.needs as usize] {
                if i < d {
                    b.need[b.needs as usize] = (syms.map_pos(s, k.pos), k.to_move);
                    b.needs += 1;
                }
            }
            b
        };
        let proved = |p: &Proof| p.dep >= d && !p.set_only;
        let lower = (r.v > alpha && proved(&r.lo)).then(|| canon(&r.lo));
        let upper = (r.v < beta && proved(&r.hi)).then(|| canon(&r.hi));
        if (r.v > alpha && !proved(&r.lo)) || (r.v < beta && !proved(&r.hi)) {
            self.unstored += 1;
        }
        if lower.is_none() && upper.is_none() {
            return;
        }
        table.store(key, hash, lower, upper, best, work);
    }

    /// Fail-soft negamax. Returns `v` from the mover's side with: `v ≤ alpha`
    /// means the value is at most `v`; `v ≥ beta` means at least `v`;
    /// otherwise `v` is the value. `lo` proves the lower bound (when
    /// `v > alpha`), `hi` the upper bound (when `v < beta`).
    fn search(&mut self, g: &mut Game, alpha: i32, beta: i32) -> Res {
        self.nodes += 1;
        let start_nodes = self.nodes;
        if self.debug && self.nodes % 10_000_000 == 0 {
            eprintln!(
                "  {} nodes, depth {}, window {alpha}..{beta}, unusable {}, unstored {}",
                self.nodes,
                g.history().len(),
                self.unusable,
                self.unstored
            );
        }

        // Step 1. A game over by two passes or by a repetition (a tie).
        if g.is_over_by_rule() {
            let mut p = CLEAN;
            if let Some(i) = g.repetition_index() {
                p.require(i as u32, g.history()[i]);
            }
            return Res {
                v: mover_value(g),
                lo: p,
                hi: p,
                open: false,
            };
        }
        let d = self.external(g);

        // Step 2. Static bounds from unconditional life.
        if self.static_bounds {
            let (lower, upper) = self.static_range(g);
            let p = Proof { dep: d, ..CLEAN };
            if lower >= beta || lower == upper {
                return Res {
                    v: lower,
                    lo: p,
                    hi: p,
                    open: false,
                };
            }
            if upper <= alpha {
                return Res {
                    v: upper,
                    lo: p,
                    hi: p,
                    open: false,
                };
            }
        }

        // Step 3. The transposition table.
        let (key, sym) = self.key(g);
        let hash = Self::hash(&key);
        let mut tt_best: Option<Move> = None;
        if let Some(e) = self.sh.table.as_ref().and_then(|t| t.probe(&key, hash)) {
            if let Some(r) = self.cutoff(g, sym, &e.facts(), alpha, beta, d, false) {
                return r;
            }
            let raw = e.lower.is_some_and(|l| l.value as i32 >= beta)
                || e.upper.is_some_and(|u| u.value as i32 <= alpha);
            if raw {
                self.unusable += 1;
            }
            tt_best = Some(self.entry_move(&e.facts(), sym));
            if self.left_open(&e.facts()) {
                return OPEN;
            }
        }
        // Where the table's bounds do not apply here, those stored under
        // the same set of history states may.
        let set = self.set_key(g, &key, sym);
        if let (Some((k, h)), Some(t)) = (&set, &self.sh.exact) {
            if let Some(e) = t.probe(k, *h) {
                if let Some(r) = self.cutoff(g, sym, &e.facts(), alpha, beta, d, true) {
                    return r;
                }
                // Preferring this move to the first table's made star:4
                // `conway` situational 3.7x faster but cycle:5 2.7x slower.
                tt_best = tt_best.or(Some(self.entry_move(&e.facts(), sym)));
                if self.left_open(&e.facts()) {
                    return OPEN;
                }
            }
        }

        // Step 4. The depth limit of this iteration: the line stays open.
        if self.ply >= self.limit {
            return OPEN;
        }

        // Step 5. The moves: the table's best, this ply's killer, captures
        // (the last liberties of opponent groups in atari), then (by default)
        // pass, then the rest; captures and the rest by history score.
        let ply = g.history().len();
        if ply >= self.killer.len() {
            self.killer.resize(2 * ply + 2, NO_MOVE);
        }
        let mover = g.to_move().index();
        let mut order = [Move::Pass; 66];
        let mut n = 0;
        let mut taken = [false; 66];
        let mut add = |m: Move, order: &mut [Move; 66], n: &mut usize| {
            let c = code(m) as usize;
            if !taken[c] {
                taken[c] = true;
                order[*n] = m;
                *n += 1;
            }
        };
        if let Some(m) = tt_best {
            add(m, &mut order, &mut n);
        }
        // Without a table's move to come first, killers sent searches
        // into capture wars (cycle:5: 0.7 M nodes became over 60 s).
        if self.sh.table.is_some() && self.killer[ply] != NO_MOVE {
            add(decode(self.killer[ply]), &mut order, &mut n);
        }
        let captures = self.capture_points(g);
        let from = n;
        for p in bits(captures) {
            add(Move::Place(p), &mut order, &mut n);
        }
        self.by_history(mover, &mut order[from..n]);
        let pass_ok = g.pass_allowed();
        if pass_ok && self.sh.config.pass_first {
            add(Move::Pass, &mut order, &mut n);
        }
        let from = n;
        for p in bits(g.candidates() & !captures) {
            add(Move::Place(p), &mut order, &mut n);
        }
        self.by_history(mover, &mut order[from..n]);
        if pass_ok && !self.sh.config.pass_first {
            add(Move::Pass, &mut order, &mut n);
        }

        // Step 6. Search them.
        let mut best = i32::MIN;
        let mut best_move = Move::Pass;
        let mut lo = CLEAN;
        let mut hi = CLEAN;
        let mut any = false;
        let mut first_open = None;
        for &m in &order[..n] {
            let Some(u) = g.try_play(m) else {
                if let (Move::Place(p), false) = (m, self.all_sides) {
                    if let Some(i) = g.superko_hit(p) {
                        hi.require(i as u32, g.history()[i]);
                    }
                }
                continue;
            };
            any = true;
            let produced = g.position();
            let ph = if g.history().len() > self.path.len() {
                let h = self.state_hash(g.current_key());
                self.path.push(h);
                h
            } else if self.all_sides || m != Move::Pass {
                self.state_hash(g.current_key())
            } else {
                0
            };
            let saved = self.limit;
            if first_open.is_some() && saved != u32::MAX {
                let left = (saved - self.ply).saturating_sub(OPEN_SIBLING_CUT);
                self.limit = self.ply + left.max(1);
            }
            self.ply += 1;
            let child = self.search(g, -beta, -alpha.max(best));
            self.ply -= 1;
            self.limit = saved;
            g.undo(u);
            self.path.truncate(g.history().len());
            if child.open {
                if first_open.is_none() {
                    first_open = Some(m);
                }
                continue;
            }
            let val = -child.v;
            let counts = self.all_sides || m != Move::Pass;
            hi.merge(&child.lo);
            if self.all_sides {
                hi.summary.add(produced, ph);
            }
            if val > best {
                best = val;
                best_move = m;
                lo = child.hi;
                if counts {
                    lo.summary.add(produced, ph);
                }
            }
            if best >= beta {
                self.history_score[mover][code(m) as usize] += self.nodes - start_nodes;
                self.killer[ply] = code(m);
                break;
            }
        }

        // Step 7. No legal turn: the mover loses (normal play).
        if !any {
            best = -1;
            lo = CLEAN;
        }
        // A settled child that cuts proves the bound whatever the open ones
        // hold; otherwise an open child leaves the node open. Its move is
        // kept to be tried first in the next iteration.
        if let (Some(m), false) = (first_open, best >= beta) {
            let best = code(self.sh.syms.perms[sym].map_move(m));
            let open = Opened {
                iteration: self.iteration,
                left: self.limit - self.ply,
            };
            match (&set, &self.sh.exact, &self.sh.table) {
                (Some((k, h)), Some(t), _) => t.store_open(k, *h, best, open),
                (_, _, Some(t)) => t.store_open(&key, hash, best, open),
                _ => {}
            }
            return OPEN;
        }
        let r = Res {
            v: best,
            lo,
            hi,
            open: false,
        };
        self.store(
            &key,
            hash,
            &set,
            sym,
            d,
            &r,
            alpha,
            beta,
            code(best_move),
            self.nodes - start_nodes + 1,
        );
        r
    }

    /// An entry's best move, in the frame of the game (the key's is `sym`).
    fn entry_move(&self, e: &Entry<()>, sym: usize) -> Move {
        let inv = self.sh.syms.inverse[sym];
        self.sh.syms.perms[inv].map_move(decode(e.best))
    }

    /// Whether this iteration left the entry's node unsettled with as many
    /// turns to go as it has now.
    fn left_open(&self, e: &Entry<()>) -> bool {
        e.open
            .is_some_and(|o| o.iteration == self.iteration && self.limit - self.ply <= o.left)
    }

    /// A result from a table entry, if one of its bounds settles the window
    /// and may be used on this path (checked only for bounds that would cut).
    #[allow(clippy::too_many_arguments)]
    fn cutoff(
        &self,
        g: &Game,
        sym: usize,
        e: &Entry<()>,
        alpha: i32,
        beta: i32,
        d: u32,
        by_set: bool,
    ) -> Option<Res> {
        // Bounds keyed by the history's set of states hold as stored, but
        // the proofs behind them are not kept: results above the node must
        // not go into the table of summaries.
        let p = Proof {
            dep: d,
            set_only: by_set,
            ..CLEAN
        };
        let usable = |b: &Bound| {
            if by_set {
                Some(p)
            } else {
                self.usable(g, sym, b, d)
            }
        };
        if let Some(l) = e.lower.filter(|l| l.value as i32 >= beta) {
            if let Some(lp) = usable(&l) {
                return Some(Res {
                    v: l.value as i32,
                    lo: lp,
                    hi: p,
                    open: false,
                });
            }
        }
        if let Some(u) = e.upper.filter(|u| u.value as i32 <= alpha) {
            if let Some(up) = usable(&u) {
                return Some(Res {
                    v: u.value as i32,
                    lo: p,
                    hi: up,
                    open: false,
                });
            }
        }
        let (l, u) = (e.lower?, e.upper?);
        if l.value == u.value {
            let (lp, up) = (usable(&l)?, usable(&u)?);
            return Some(Res {
                v: l.value as i32,
                lo: lp,
                hi: up,
                open: false,
            });
        }
        None
    }

    /// The exact value of the game `g` from the mover's side, by zero-width
    /// searches that bisect the range of values still possible.
    pub fn exact(&mut self, g: &mut Game) -> i32 {
        self.sync_path(g);
        let (mut lo, mut hi) = (-self.sh.range, self.sh.range);
        // Tests far from the value can cost more than near ones (1x10's
        // "is it ≥ +5?" ran past 100 M nodes; the value is 0 or so), so
        // after the first test at 0 the next ones gallop away from the
        // bound just moved (1, 2, 4, ... half points), and bisect once
        // both bounds have moved.
        let mut x = 0.clamp(lo + 1, hi);
        let (mut ups, mut downs) = (0u32, 0u32);
        while lo < hi {
            let before = self.nodes;
            let r = self.deepening(g, x - 1, x);
            if self.debug {
                eprintln!(
                    "exact: is it >= {x}? {} ({} nodes)",
                    r.v,
                    self.nodes - before
                );
            }
            if r.v >= x {
                lo = r.v.min(hi);
                ups += 1;
            } else {
                hi = r.v.max(lo);
                downs += 1;
            }
            // Is the value ≥ x, for some lo < x ≤ hi?
            x = if ups > 0 && downs > 0 {
                lo + (hi - lo + 1) / 2
            } else if downs == 0 {
                lo.saturating_add(1 << (ups - 1).min(20))
            } else {
                hi.saturating_sub((1 << (downs - 1).min(20)) - 1)
            }
            .clamp(lo + 1, hi.max(lo + 1));
        }
        lo
    }

    /// Searches `g` with the window (alpha, beta), first with lines cut
    /// short a few turns down, then deeper, until the result is settled.
    ///
    /// Without a limit the first line tried runs to the end of a game,
    /// which under superko can be thousands of turns (3x4 dived past
    /// 11,000); bounds proved by short lines are found first this way, and
    /// each iteration leaves its best moves in the table for the next.
    /// Only settled results are stored, so the value is the same.
    fn deepening(&mut self, g: &mut Game, alpha: i32, beta: i32) -> Res {
        // A table must keep the iterations' moves. Under `koh` every game
        // ends within a turn per point, so there are no long lines to cut.
        // Normal play came out slower with it until open siblings were
        // cut short; since then (one thread): Petersen `conway` 218,570 ->
        // 29,437 nodes, cube:3 10.9 M -> 1.3 M, 1x5 `conway-replacement`
        // 10.5 M -> 1,063; cycle:6 26,612 -> 34,974.
        if self.sh.table.is_none() || self.sh.rules.ruleset == Ruleset::Koh {
            return self.search(g, alpha, beta);
        }
        let mut limit = (self.sh.board.len() as u32).max(4);
        loop {
            let before = self.nodes;
            let r = self.within(g, alpha, beta, limit);
            if self.debug {
                let n = self.nodes - before;
                eprintln!("  limit {limit}: {n} nodes, open {}", r.open);
            }
            if !r.open {
                return r;
            }
            limit = limit.saturating_mul(2);
        }
    }

    /// One iteration: `search` with lines cut short `limit` turns down
    /// (`u32::MAX`: never, so the result is settled).
    fn within(&mut self, g: &mut Game, alpha: i32, beta: i32, limit: u32) -> Res {
        self.limit = limit;
        self.ply = 0;
        self.iteration = ITERATIONS.fetch_add(1, Ordering::Relaxed);
        let r = self.search(g, alpha, beta);
        self.limit = u32::MAX;
        r
    }

    /// Nodes this search has visited.
    pub fn visited(&self) -> u64 {
        self.nodes
    }

    /// The table's best move at `g`, if it has an entry.
    pub fn table_move(&self, g: &Game) -> Option<Move> {
        let (key, sym) = self.key(g);
        let hash = Self::hash(&key);
        let e = match self.sh.table.as_ref()?.probe(&key, hash) {
            Some(e) => e.facts(),
            None => {
                let (k, h) = self.set_key(g, &key, sym)?;
                self.sh.exact.as_ref()?.probe(&k, h)?.facts()
            }
        };
        Some(self.entry_move(&e, sym))
    }

    /// Whether the value of `g` (mover's side) is at most `x`, as far as
    /// lines of `limit` turns settle it (`None`: they do not; `u32::MAX`
    /// always settles it).
    pub fn at_most_within(&mut self, g: &mut Game, x: i32, limit: u32) -> Option<bool> {
        self.sync_path(g);
        let r = self.within(g, x, x + 1, limit);
        (!r.open).then_some(r.v <= x)
    }

    /// Whether the value of `g` (mover's side) is at most `x`.
    pub fn at_most(&mut self, g: &mut Game, x: i32) -> bool {
        self.sync_path(g);
        self.deepening(g, x, x + 1).v <= x
    }
}

/// A first move and its exact value (Black's side), with the moves it is
/// symmetric to.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The representative move.
    pub mv: Move,
    /// Every move of its symmetry class, the representative first.
    pub class: Vec<Move>,
    /// Black − White − komi in half points (normal play: ±1).
    pub value: i32,
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Black − White − komi in half points (normal play: +1 Black wins, −1 White wins).
    pub value: i32,
    /// Every legal first move's value, by symmetry class, best first.
    pub moves: Vec<RootMove>,
    /// A principal variation to the end of the game.
    pub pv: Vec<Move>,
    /// Nodes searched, those of the first-move classes taken from a
    /// [`RootLog`] included.
    pub nodes: u64,
    /// First-move classes whose value came from a [`RootLog`].
    pub resumed: usize,
    /// The nodes the log recorded for them.
    pub resumed_nodes: u64,
}

/// First-move values that outlive an interrupted solve: a class's value is
/// recorded as soon as it is known, and a later solve of the same board
/// under the same rules takes it instead of searching again.
pub trait RootLog: Sync {
    /// The value (Black's side) and nodes recorded for the class of `first`.
    fn known(&self, first: Move) -> Option<(i32, u64)>;
    /// Records the class of `first`: its value (Black's side) and the nodes it took.
    fn record(&self, first: Move, value: i32, nodes: u64);
}

/// A [`RootLog`] that keeps nothing.
pub struct NoLog;

impl RootLog for NoLog {
    fn known(&self, _: Move) -> Option<(i32, u64)> {
        None
    }
    fn record(&self, _: Move, _: i32, _: u64) {}
}

/// Solves the board: the value, every first move's value and a principal
/// variation. Root classes are searched in parallel; `progress` is told
/// when each finishes.
pub fn solve(sh: &Shared, progress: &(dyn Fn(usize, usize) + Sync)) -> Solution {
    solve_logged(sh, progress, &NoLog)
}

/// [`solve`], taking the first-move values `log` knows and recording the others.
pub fn solve_logged(
    sh: &Shared,
    progress: &(dyn Fn(usize, usize) + Sync),
    log: &dyn RootLog,
) -> Solution {
    let root = sh.start();
    let sign = if root.to_move() == Color::Black {
        1
    } else {
        -1
    };
    if root.outcome().is_some() {
        return Solution {
            value: sign * mover_value(&root),
            moves: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            resumed: 0,
            resumed_nodes: 0,
        };
    }
    // Step 1. The first moves, in classes of symmetric moves.
    let mut classes: Vec<Vec<Move>> = Vec::new();
    for m in root.legal_moves() {
        if classes.iter().any(|c| c.contains(&m)) {
            continue;
        }
        let mut class: Vec<Move> = sh.symmetries().iter().map(|a| a.map_move(m)).collect();
        class.sort();
        class.dedup();
        class.retain(|&x| x != m);
        class.insert(0, m);
        classes.push(class);
    }
    // Placings first: their bounds help the pass class more than the other
    // way round. (Solving the centre first cuts a one-thread 3x3 from 396 M
    // to 145 M nodes but makes two threads slower and far less steady.)
    classes.sort_by_key(|c| c[0] == Move::Pass);
    // Step 2. Each class's exact value: the placings in parallel, then the
    // pass once their bounds are in the table. (Searched alongside them,
    // the pass class of 1x9 took 20 M nodes or more; after them, a few.)
    let done = AtomicU64::new(0);
    let (resumed, resumed_nodes) = (AtomicU64::new(0), AtomicU64::new(0));
    let value_of = |class: &Vec<Move>| {
        let v = if let Some((v, nodes)) = log.known(class[0]) {
            resumed.fetch_add(1, Ordering::Relaxed);
            resumed_nodes.fetch_add(nodes, Ordering::Relaxed);
            sign * v
        } else {
            let mut g = sh.start();
            g.play(class[0]);
            let mut s = Search::new(sh);
            let v = -s.exact(&mut g);
            log.record(class[0], sign * v, s.visited());
            v
        };
        let k = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
        progress(k, classes.len());
        v
    };
    let placings = classes.len() - usize::from(classes.last().is_some_and(|c| c[0] == Move::Pass));
    let mut values: Vec<i32> = classes[..placings].par_iter().map(value_of).collect();
    values.extend(classes[placings..].iter().map(value_of));
    let mut moves: Vec<RootMove> = classes
        .into_iter()
        .zip(values)
        .map(|(class, v)| RootMove {
            mv: class[0],
            class,
            value: sign * v,
        })
        .collect();
    moves.sort_by_key(|m| (-sign * m.value, m.mv != Move::Pass, m.mv));
    let value = moves[0].value;
    // Step 3. A principal variation: at each node a move whose child keeps the value.
    let mut pv = vec![moves[0].mv];
    let mut g = sh.start();
    g.play(moves[0].mv);
    let mut s = Search::new(sh);
    while g.outcome().is_none() {
        let want = if g.to_move() == Color::Black {
            value
        } else {
            -value
        };
        let mut next = None;
        for m in g.legal_moves() {
            let u = g.play(m);
            let keeps = s.at_most(&mut g, -want);
            g.undo(u);
            if keeps {
                next = Some(m);
                break;
            }
        }
        let m = next.expect("some move keeps the value");
        g.play(m);
        pv.push(m);
    }
    drop(s);
    Solution {
        value,
        moves,
        pv,
        nodes: sh.nodes() + resumed_nodes.load(Ordering::Relaxed),
        resumed: resumed.into_inner() as usize,
        resumed_nodes: resumed_nodes.into_inner(),
    }
}
