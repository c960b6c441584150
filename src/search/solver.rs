//! The exact solver: negamax alpha-beta over the full game history, the
//! exact value found by zero-width searches that bisect the value range,
//! a transposition table that is sound under superko, symmetry reduction,
//! and the root moves searched in parallel. Each zero-width search is run
//! with a depth limit that doubles until the result no longer depends on a
//! line cut short (`Search::deepening`), the siblings of an open child a
//! little shorter still (`OPEN_SIBLING_CUT`): only settled results are
//! ever stored, and the cut-short iterations leave their best moves in the
//! table. On boards above five points each zero-width test is decided by
//! proof-number search instead ([`dfpn`](crate::search::dfpn)), which
//! stores its settled results in the same table with the same facts.
//!
//! # Values
//!
//! Half points from the mover's side inside the search; Black − White −
//! komi at the interface. Normal-play rulesets score +1 for the winner.
//!
//! The facts that make the table sound under superko, and where they come
//! from, are in [`facts`](crate::search::facts); the table's use is in
//! `table_use`, the keys in `keys`, move ordering in `ordering`, the
//! exact-value driver in `driver`, the root and its parallelism in
//! [`root`](crate::search::root).

use crate::engine::benson;
use crate::engine::board::{Board, Layout};
use crate::engine::game::{Game, HistoryEntry};
use crate::engine::position::Position;
use crate::engine::rules::{PassRule, Rules, Ruleset, Suicide, Superko};
use crate::engine::symmetry::Automorphism;
use crate::engine::types::Move;
use crate::search::bounds::{
    mover_value, score_now, static_range, tie_free_cut, value_range, whole_board, whole_cut,
};
use crate::search::dfpn::Numbers;
use crate::search::facts::{CLEAN, Facts, OPEN, Res};
use crate::search::guide::{Guide, MAX_POINTS};
use crate::search::guide_file::{GuideCache, obtain_shared};
use crate::search::help::{Busy, Helped};
use crate::search::keys::key_hash;
use crate::search::ordering::MoveOrder;
use crate::search::paths::{PathHash, PathKey, PathTable, Proved, shared_capacity, tighter};
use crate::search::reach::StateGraph;
use crate::search::syms::{Syms, colours_alike, state_perms};
use crate::search::table_use::{Node, path_cutoff};
use crate::search::tt::{Opened, SET_POINTS, SetKey, Table, TableError, TableKey};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// Search options.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Transposition table size in megabytes (0: no table).
    pub tt_mb: usize,
    /// Use the board's symmetries in the table and at the root, and in
    /// the table the colour swap where the rules allow it (module `syms`).
    pub symmetry: bool,
    /// Try the pass before the placings other than the table's move, the
    /// killer and captures (Tromp's ordering puts it first); false: last.
    pub pass_first: bool,
    /// Report the search's counters on stderr (the command line sets it
    /// from `GOSOLVE_DEBUG`).
    pub debug: bool,
    /// How each zero-width test is decided.
    pub method: Method,
    /// Build the history-free guide ([`guide`](crate::search::guide))
    /// where df-pn runs and the guide can be had: it sets the numbers of
    /// new nodes and the first test of each class.
    pub guide: bool,
    /// A proof is extracted after the value search: every search keeps its
    /// history-dependent results by path for it (see
    /// module `paths`), and the table keys use the colour swap only on
    /// rectangles of two rows or more (`colour_swap`).
    pub proof_follows: bool,
    /// Which first moves get their exact value.
    pub first_moves: FirstMoves,
    /// Nodes a df-pn test of the value search runs before its first
    /// restart with fresh numbers (its settled results kept), doubling at
    /// each restart and for each point of the board above
    /// [`RESTART_POINTS`], halved for each point below; `u64::MAX`: never.
    /// Under superko a test can stall on numbers counted under other
    /// histories.
    pub restart_nodes: u64,
    /// Under `--superko none`, prove a bound a tie keeps by a closed
    /// strategy where one exists ([`closed`](crate::search::closed));
    /// false: by tree strategies only (as the tests of the checker's rules
    /// for those need).
    pub closed: bool,
    /// Owner nodes a tree strategy may take before a closed one is sought
    /// instead ([`Extractor::run`](crate::search::proof::Extractor::run));
    /// 0: closed first.
    pub closed_after: u32,
    /// Where guide tables are read from and kept for later runs
    /// ([`guide_file`](crate::search::guide_file)); `None`: every guide is
    /// built and none is kept (the library's default; `solve` and `batch`
    /// use the user's cache folder).
    pub guide_cache: Option<GuideCache>,
    /// Under `--superko none` without suicide, cut with the static bounds
    /// uncapped where no earlier state can come again
    /// ([`tie_free_cut`](crate::search::bounds)); false: capped at the tie
    /// always (the tests compare the two).
    pub tie_free: bool,
}

/// Which first-move classes the root values exactly (`--first-moves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FirstMoves {
    /// Every class's exact value.
    #[default]
    Exact,
    /// The exact value of every class as good as the board's value; for
    /// the others only a bound proving them worse. A worse first move's
    /// exact value can be a long superko fight the board's value does not
    /// need: 1x10 (suicide allowed) on one thread, 1.7 s with bounds and
    /// the proof, while with every class exact and the proof to follow a
    /// test of its first class ran past 149 M nodes at depths near 165
    /// (2026-11-27; value only, it takes 6 s since df-pn keeps its numbers
    /// by depth, and ran past 270 M nodes before).
    Bounds,
}

/// The search method of each zero-width test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Alpha-beta on boards of at most five points, proof-number search
    /// on larger ones (see [`Method::on`]).
    #[default]
    Auto,
    /// Alpha-beta with iterative deepening (`Search::search`).
    AlphaBeta,
    /// Depth-first proof-number search ([`dfpn`](crate::search::dfpn)).
    ProofNumber,
}

impl Method {
    /// The method used on a board of `points` points.
    ///
    /// On boards of at most five points (those of the table of history
    /// sets) alpha-beta was faster on every board measured, and df-pn can
    /// be far slower:
    /// cycle:5 `conway --superko situational --suicide allowed` with 16 MB
    /// took 195,521 nodes (0.3 s) by alpha-beta and 142 M (98 s) by df-pn.
    /// On larger boards df-pn wins where it matters: 2x7 `--superko none
    /// --suicide forbidden` 37 M nodes (18.8 s) against 93 M (47.2 s), 4x4
    /// positional 111 M nodes against 0.74 G; on boards that take a
    /// second or two (3x4, 2x6) it is up to 2x slower.
    pub fn on(self, points: usize) -> Method {
        match self {
            Method::Auto if points <= SET_POINTS => Method::AlphaBeta,
            Method::Auto => Method::ProofNumber,
            m => m,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tt_mb: 256,
            symmetry: true,
            pass_first: true,
            debug: false,
            method: Method::Auto,
            guide: true,
            proof_follows: false,
            first_moves: FirstMoves::Exact,
            restart_nodes: RESTART_NODES,
            closed: true,
            closed_after: CLOSED_AFTER,
            guide_cache: None,
            tie_free: true,
        }
    }
}

/// [`Config::closed_after`]'s default: 2^16 owner nodes. The trees of
/// 3x3 `--superko none` take under 10 K each on one thread, and on 2
/// threads ran past 160 K when they stalled. On boards of up to 11
/// points the limit is lower ([`tree_limit`](crate::search::proof::tree_limit)).
pub const CLOSED_AFTER: u32 = 1 << 16;

/// [`Config::restart_nodes`]'s default: 2^24. One thread, value only,
/// nodes, against no restarts, with this first restart on every board:
/// 1x11 past 300 M (over 100 s) -> 26.5 M; situational 4x4 22.5 M ->
/// 20.1 M; but 3x6 49.9 M -> 65.3 M, so larger boards wait longer
/// ([`RESTART_POINTS`]); 4x4, 3x5, 2x7, 2x8, 1x10, and 1x10 and 1x11
/// with `--suicide forbidden`, and 4x4 `none --suicide forbidden`
/// restart no test. From 2^20 1x11 took
/// 19.3 M, but 4x4 6.59 M against 4.84 M and situational 4x4 32.8 M;
/// from 2^22 situational 4x4 took 49.0 M. Halved for each point below
/// [`RESTART_POINTS`] (2026-11-29, one thread, value only, nodes before
/// and after): 1x11 27.7 M -> 19.0 M, 1x11 `--suicide forbidden` 9.57 M
/// -> 10.3 M, 1x10 `--suicide forbidden` and 2x5 `--superko none` the
/// same; 3x3 `--superko none` on 2 threads, with its proof, median 10.8
/// s -> 3.6 s (8 runs each, 2 of the old past 40 s).
pub const RESTART_NODES: u64 = 1 << 24;

/// Boards of this many points restart their tests after
/// [`Config::restart_nodes`] nodes; each point more doubles it and each
/// point fewer halves it: a longer test is the rule on a larger board, and
/// a restart throws away numbers worth as many nodes as it ran.
pub const RESTART_POINTS: u32 = 12;

/// What the threads share: the board, rules, symmetries and the table.
pub struct Shared<'a> {
    pub(super) syms: Syms,
    pub(super) table: Option<Table>,
    /// Beside `table` on boards of at most five points (each with half the
    /// memory): bounds keyed by the set of the history's states the game
    /// below can ask about (module `reach`), for
    /// where the table's bounds depend on the history (see
    /// [`Shared::set_key`]).
    pub(super) set_table: Option<Table<SetKey>>,
    /// With `set_table`: `set_perm[s][i]` is the number of state `i`'s image
    /// under symmetry `s` ([`crate::engine::game::state_index`]).
    pub(super) set_perm: Vec<Vec<u16>>,
    /// With `set_table`: the states' graph, for the set in its keys.
    pub(super) set_graph: Option<StateGraph>,
    pub(super) config: Config,
    /// The method of each test: `config.method` resolved for the board.
    pub(super) method: Method,
    pub(super) rules: Rules,
    pub(super) board: &'a Board,
    pub(super) range: i32,
    /// Where there is no guide, the first test of a value is at the
    /// whole board ([`Shared::first_test`]): df-pn on a rectangle of two
    /// rows or more under area scoring (alpha-beta, which tiny boards
    /// use, was not measured with it).
    whole_board_first: bool,
    nodes: AtomicU64,
    /// Numbers the depth-limited iterations of all threads, so that a node
    /// left open by one is skipped only by the same iteration.
    pub(super) iterations: AtomicU32,
    /// The proof and disproof numbers of df-pn's unsettled nodes.
    pub(super) numbers: Option<Numbers>,
    /// The children df-pn searches are inside (see [`help`](crate::search::help)).
    pub(super) busy: Busy,
    /// See [`Shared::stopper`].
    stop: Arc<AtomicBool>,
    /// The best value (the root mover's side) a first-move class is
    /// proved to reach so far: under [`FirstMoves::Bounds`] a class proved
    /// below it needs no exact value (see [`Search::class_hi`]).
    pub(super) floor: AtomicI32,
    /// The history-free guide (see [`guide`](crate::search::guide)).
    pub(super) guide: Option<Guide>,
    /// With a proof to extract: the history-dependent results every
    /// search kept by path, merged as each search ends (see
    /// [`paths`](crate::search::paths)).
    /// Extractions read it (under the read lock, as the solve may still
    /// be adding to it: a class's strategies are extracted as soon as its
    /// value is known) and keep their own results apart.
    pub(super) paths: Option<RwLock<PathTable>>,
    /// The part of [`Shared::nodes`] proof extractions searched.
    proof_nodes: AtomicU64,
}

/// Whether the table keys use the colour swap (module `syms`): where the
/// rules treat the colours alike, and with a proof to follow only on a
/// rectangle of two rows or more, and not under `--superko none` with
/// suicide allowed.
///
/// With the swap the value search proves fewer of the lines the proof's
/// extraction walks, which costs where those are superko fights or
/// closed strategies: on 1x10 `--suicide forbidden` (one thread) a proof
/// of 17.5 s did not finish in 5 minutes with it, and 3x4 `--superko
/// none` (one thread) took 160 s in all against 75 s. On most rectangles
/// the search saves more than the extraction loses. 2 threads, with the proof, one
/// run each, every file verified, 2026-11-29, nodes and seconds in all
/// (the solve and the proof): 3x6 `--tt-mb 4096` 79.0 M → 44.8 M, 148 →
/// 119 s (the solve 96.7 → 74.8 s); 2x8 12.7 M → 6.7 M, 22.1 → 15.3 s;
/// 2x7 1.45 M → 0.70 M, 2.7 → 1.5 s; 3x5 5.5 → 5.2 s; 4x4 4.26 M →
/// 2.65 M, 10.1 → 12.4 s and situational 6.8 M → 3.4 M, 11.0 → 13.7 s
/// (their extraction walks more); under `--superko none --suicide
/// forbidden` 2x8 19.5 → 17.3 s, 3x5 5.4 → 4.4 s, 4x4 10.8 → 10.6 s.
fn colour_swap(board: &Board, rules: &Rules, config: &Config) -> bool {
    config.symmetry
        && colours_alike(rules)
        && (!config.proof_follows || (rectangle(board) && !rules.suicide_ties()))
}

/// Whether `board` is a rectangle of two rows or more (not a line, a
/// torus or another graph).
fn rectangle(board: &Board) -> bool {
    matches!(board.layout(), Layout::Grid { rows, cols, torus: false } if rows >= 2 && cols >= 2)
}

impl<'a> Shared<'a> {
    /// Prepares a solve of `board` under `rules`; an error if the machine
    /// cannot give the tables `config` asks for.
    pub fn new(board: &'a Board, rules: &Rules, config: Config) -> Result<Shared<'a>, TableError> {
        let perms = if config.symmetry {
            crate::engine::symmetry::symmetries(board, rules)
        } else {
            board.automorphisms(1)
        };
        let range = value_range(board.len(), rules);
        let small = rules.ruleset != Ruleset::Koh && board.len() <= SET_POINTS;
        let colours = colour_swap(board, rules, &config);
        let syms = Syms::new(perms, board.len(), colours);
        let set_perm = if small && config.tt_mb > 0 {
            state_perms(&syms, board.len(), rules.superko)
        } else {
            Vec::new()
        };
        // df-pn's numbers take a quarter of the memory: they only steer,
        // and an entry lost costs a search again, never a value.
        let method = config.method.on(board.len());
        let numbers_mb = match method {
            Method::ProofNumber if config.tt_mb > 0 => (config.tt_mb / 4).max(1),
            _ => 0,
        };
        let tt_mb = (config.tt_mb - numbers_mb).max(1);
        // The guide first: its build's lists are freed before the tables
        // are made, so the peak is the larger of the two, not their sum
        // (4x5: 12.9 GB at the peak, against 17.2 GB the other way round). Its
        // sweeps run in the caller's thread pool.
        let guide = Shared::build_guide(board, rules, &config);
        // Variants of a key's bounds where superko makes bounds unusable
        // on some paths. Not under `--superko none`: there an equal bound
        // that needs repetition ties takes the entry's place, and cutting
        // on it fills the needed-state slots, so ancestors overflow into a
        // path dependence and go unstored (3x3 with suicide, one thread,
        // value only: 1.12 M nodes and 215,009 unstored results against
        // 110,756 and 992 without variants). Preferring a cut that needs
        // nothing cured that (89,964 nodes; 2x4 with suicide 121,551 ->
        // 36,992) but cost grids 1-5% (2x8 forbidden 6.00 M -> 6.29 M) and,
        // under positional superko, 1x10 9% (9.85 M -> 10.74 M).
        //
        // Only for proof-number search, where they were measured: with
        // them alpha-beta's table gave the naive check of
        // `scripts/check-solver.sh` worse moves to try first (complete:4
        // `conway-replacement`, positional superko with suicide: past 400 M
        // naive nodes against 29 M).
        let variants = rules.superko != Superko::None && method == Method::ProofNumber;
        let table = (config.tt_mb > 0)
            .then(|| {
                Table::try_new(tt_mb.div_ceil(1 + small as usize))
                    .map(|t| if variants { t.with_variants() } else { t })
            })
            .transpose()?;
        let set_table = (config.tt_mb > 0 && small)
            .then(|| Table::try_new(tt_mb / 2))
            .transpose()?;
        let numbers = (numbers_mb > 0)
            .then(|| Numbers::try_new(numbers_mb))
            .transpose()?
            .map(|n| n.keeping_work(guide.is_none() && rules.superko != Superko::None));
        Ok(Shared {
            board,
            rules: *rules,
            syms,
            set_perm,
            set_graph: set_table.as_ref().map(|_| StateGraph::new(board, rules)),
            table,
            set_table,
            config,
            method,
            range,
            whole_board_first: method == Method::ProofNumber
                && matches!(rules.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg)
                && rectangle(board),
            nodes: AtomicU64::new(0),
            iterations: AtomicU32::new(1),
            numbers,
            busy: Busy::default(),
            stop: Arc::new(AtomicBool::new(false)),
            floor: AtomicI32::new(i32::MIN),
            guide,
            paths: config
                .proof_follows
                .then(|| RwLock::new(PathTable::keeping(shared_capacity(config.tt_mb)))),
            proof_nodes: AtomicU64::new(0),
        })
    }

    /// The guide df-pn steers by: the basic-ko game's, which is closer to
    /// the real game (superko implies its ban; under `--superko none` it
    /// is the rule) and gives most first moves of 2xn, 3x5 and 3x6 an
    /// exact bracket, the guess [`Shared::first_test`] starts at.
    ///
    /// Where cycles leave most of its states open (every 1xn board):
    /// - Under `--superko none` the game without ko is built instead,
    ///   whose brackets, open everywhere there, still steer, as only an
    ///   exact bracket of the ko game does ([`dfpn`]). One thread, value
    ///   only, `--first-moves bounds --suicide forbidden`, nodes, without
    ///   ko against with (2026-12-02): 1x12 4.29 M / 4.48 M, 1x13 9.02 M /
    ///   10.15 M.
    /// - Where superko forbids repetitions, the ko game steers as it is:
    ///   the same measure under positional superko, 1x12 617 M / 325 M,
    ///   1x13 56.2 M / 37.4 M, 1x14 639 M / 711 M; situational 1x13
    ///   70.7 M / 51.7 M. (On 2026-11-25's search it had misled: 1x10
    ///   `--suicide forbidden`'s first class past 224 M nodes against
    ///   33.5 M for the whole board with the game without ko.)
    /// - With suicide allowed as well, every state of the ko game is open
    ///   (a suicide and its replay make a cycle from anywhere), and so is
    ///   every bracket of the game without ko: the ko game without
    ///   suicide steers instead, which the solve's game is most often
    ///   like (1x10, 1x11 and 1x13–1x15 have the same value either way;
    ///   1x12 with suicide is at least +1, without +2). The same
    ///   measure with suicide allowed, the game without ko against the
    ///   ko game without suicide: positional 1x13 38.8 M / 25.4 M (40.6 /
    ///   22.1 s), 1x14 633 M / 319 M (505 / 266 s); situational 1x13
    ///   240 M / 174 M; and 1x9 165 K / 77 K, 1x11 619 K / 967 K.
    ///
    /// The guide only steers, so a guide of a game other than the solve's
    /// can cost nodes, never a wrong value. A 1xn board builds two (1x12:
    /// 0.13 s with ko).
    ///
    /// Not used where the machine's memory could not hold the table
    /// beside the search's tables (an eighth kept free), nor built where
    /// it could not hold the build (a guide shared in memory or read from
    /// the cache is used then): the allocator would not refuse it, the
    /// kernel would end the process. The solve then runs without it, and
    /// says so.
    ///
    /// Nor where [`Shared::builds_guide`] says no; of those, a board over
    /// [`MAX_POINTS`] points that the rules would let have one is said.
    ///
    /// [`dfpn`]: crate::search::dfpn
    fn build_guide(board: &Board, rules: &Rules, config: &Config) -> Option<Guide> {
        if !Shared::wants_guide(board, config) {
            return None;
        }
        if Guide::too_large(board, rules) {
            // Measured (one thread): 4x4 took 38 M nodes without the
            // guide against 4.9 M with it (78 M before the unguided
            // numbers of `dfpn`), and df-pn on 5x5 settles next to nothing.
            eprintln!(
                "note: no guide table above {MAX_POINTS} points (this board has {}): df-pn runs \
                 without it, which took 4x4 eight times the nodes, so expect a very long \
                 search",
                board.len()
            );
            return None;
        }
        if !Guide::takes(board, rules) {
            return None;
        }
        let debug = config.debug;
        let gb = |b: u64| b as f64 / 1e9;
        let memory = crate::search::tt::physical_memory();
        if let Some(memory) = memory {
            let tables = (config.tt_mb as u64) << 20;
            if let Err(search) = Guide::fits(board, tables, memory) {
                eprintln!(
                    "note: no guide table for this board: with it the search takes about {:.1} GB \
                     (with --tt-mb {}), more than 7/8 of this machine's {:.1} GB; the search goes \
                     on without it, many times slower (a smaller --tt-mb leaves room for it)",
                    gb(search),
                    config.tt_mb,
                    gb(memory)
                );
                return None;
            }
        }
        // Asked only where the guide is neither shared in memory nor read
        // from the cache, and said once however many guides are tried.
        let said = std::cell::Cell::new(false);
        let may_build = || {
            let Some(memory) = memory else { return true };
            let Err(build) = Guide::build_fits(board, memory) else {
                return true;
            };
            if !said.replace(true) {
                eprintln!(
                    "note: no guide table for this board: its build takes about {:.1} GB, more \
                     than 7/8 of this machine's {:.1} GB; the search goes on without it, many \
                     times slower ({})",
                    gb(build),
                    gb(memory),
                    if config.guide_cache.is_some() {
                        "a guide a larger machine kept in the guide cache would be read"
                    } else {
                        "with the guide cache on, one a larger machine kept there would be read"
                    }
                );
            }
            false
        };
        let say = |g: &Guide, then: &str| {
            if debug {
                let s = g.stats();
                eprintln!(
                    "guide ({}): {} colourings, {} ko states, {} open, {} sweeps, {:.1} s, {} MB \
                     of children kept{then}",
                    if g.has_ko() { "basic ko" } else { "no ko" },
                    s.states,
                    s.ko_states,
                    s.open,
                    s.sweeps,
                    s.seconds,
                    s.kept_bytes >> 20
                );
            }
        };
        // Where the basic-ko game leaves most states open (every 1xn
        // board), repetitions forbidden: its guide steers as it is, and
        // with suicide allowed, that of the game without suicide does.
        // Where a repetition ends the game (`--superko none`), the game
        // without ko steers, as before. A guide not used is not kept.
        let forbids = rules.superko != Superko::None;
        let as_it_is = forbids && rules.suicide == Suicide::Forbidden;
        let with_ko = obtain_shared(
            board,
            rules,
            true,
            config.guide_cache,
            |g| as_it_is || !g.stats().mostly_open(),
            &may_build,
        )?;
        if as_it_is || !with_ko.stats().mostly_open() {
            say(&with_ko, "");
            return Some(with_ko);
        }
        if forbids {
            say(&with_ko, ", mostly open: building it without suicide");
            drop(with_ko);
            let without = Rules {
                suicide: Suicide::Forbidden,
                ..*rules
            };
            let g = obtain_shared(
                board,
                &without,
                true,
                config.guide_cache,
                |_| true,
                &may_build,
            )?;
            say(&g, "");
            return Some(g);
        }
        say(&with_ko, ", mostly open: building the guide without ko");
        // One table at a time: the peak stays that of one guide.
        drop(with_ko);
        let plain = obtain_shared(
            board,
            rules,
            false,
            config.guide_cache,
            |_| true,
            &may_build,
        )?;
        say(&plain, "");
        Some(plain)
    }

    /// The guide df-pn steers by, if one was built.
    pub fn guide(&self) -> Option<&Guide> {
        self.guide.as_ref()
    }

    /// Whether [`Shared::new`] builds the guide for this solve: asked for,
    /// df-pn decides the tests, and the guide takes the board and rules.
    pub fn builds_guide(board: &Board, rules: &Rules, config: &Config) -> bool {
        Shared::wants_guide(board, config) && Guide::takes(board, rules)
    }

    /// Whether the solve asks for a guide: `--no-guide` not given, and
    /// df-pn decides the tests.
    fn wants_guide(board: &Board, config: &Config) -> bool {
        config.guide && config.method.on(board.len()) == Method::ProofNumber
    }

    /// A flag that, while set, makes every search on these tables leave
    /// its line open at the next node (nothing is stored as settled): a
    /// caller's time limit, for callers of [`Search::at_most_within`],
    /// which then answers `None`. The solve never sets it (`exact` would
    /// deepen forever).
    pub fn stopper(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Where the exact-value driver starts at `g` (mover's side): at 0
    /// under `--superko none` with suicide allowed; else at the
    /// guide's value where its bracket is exact, so that a right guess
    /// takes two tests ("≥ v?" yes, "≥ v + 1?" no); else at the top of
    /// the range where the guide knows something of `g` (its bracket is
    /// not the whole range); `None` elsewhere.
    ///
    /// Measured on one thread, nodes, against the top of the range for
    /// every class (ko guide, every deciding bracket setting new nodes'
    /// numbers): 3x5 5.50 M -> 4.12 M, 2x7 2.07 M -> 1.62 M, 2x8 20.4 M ->
    /// 15.4 M; 3x6's seven classes took two tests each. Starting at the
    /// top of an open bracket instead took 3.12 M nodes on 2x7 `--superko
    /// none --suicide forbidden` against 2.55 M (no-ko guide). The top's
    /// test fails soft with an upper bound the gallop starts from.
    ///
    /// Without a guide, on a rectangle of two rows or more under area
    /// scoring, at the whole board (the mover's, komi counted): most
    /// first moves there win or lose the whole board. One thread,
    /// `--no-guide`, nodes, from 0 against the whole board first: 4x4
    /// 38.2 M -> 21.4 M, 3x5 18.3 M -> 10.3 M, 2x8 122 M -> 73.5 M, 2x7
    /// 9.34 M -> 5.91 M, 4x4 `--superko none --suicide forbidden` 31.2 M
    /// -> 14.7 M, 3x4 0.62 M -> 0.43 M. Not on other graphs: 1x10
    /// `--suicide forbidden` 3.2 M -> 10.8 M, 1x9 0.16 M -> 0.51 M,
    /// Petersen 3.4 K -> 7.0 K (values near 0).
    ///
    /// Under `--superko none` with suicide allowed a repetition is a tie
    /// and suicides make repetitions easy to force, so values are 0 on
    /// every board measured, where the guide (whose game has no ties)
    /// sent the first test to the top of the range. One thread, nodes,
    /// from the guide against from 0 (2026-11-30): 2x4 122 K -> 30 K, 3x3
    /// 111 K -> 59 K, 2x5 3.17 M -> 0.30 M, 3x4 50.8 M -> 19.5 M (28.4 ->
    /// 11.1 s); 1x7 19.8 K -> 13.7 K; 1x8 and cycle:6 the same (0 either
    /// way). 4x4, 2 threads: A1 and B1 were at least 0 within 0.37 M
    /// nodes each, where from the top neither class had settled a test
    /// in 135 M nodes; "is it at least 1?" then ran open past 636 M.
    pub(super) fn first_test(&self, g: &Game) -> Option<i32> {
        if self.rules.suicide_ties() {
            return Some(0);
        }
        let Some(guide) = self.guide.as_ref() else {
            return self.whole_board_first.then(|| whole_board(g));
        };
        let (lo, hi) = guide.range_at(g);
        if lo == hi {
            return Some(lo);
        }
        (lo > -self.range || hi < self.range).then_some(self.range)
    }

    /// Whether a caller has set the [`Shared::stopper`] flag.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Nodes searched by all threads: exact once their searches are
    /// dropped, and behind by less than 65,536 per search still running.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The part of [`Shared::nodes`] proof extractions searched.
    pub fn proof_nodes(&self) -> u64 {
        self.proof_nodes.load(Ordering::Relaxed)
    }

    /// Adds a search's nodes to [`Shared::nodes`] (and, for an
    /// extraction's, to [`Shared::proof_nodes`]).
    pub(super) fn add_nodes(&self, n: u64, proof: bool) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
        if proof {
            self.proof_nodes.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Whether a first-move class worth at most `hi` to the root mover
    /// is given up under [`FirstMoves::Bounds`]: another is proved better
    /// ([`Shared::floor`], which only rises, so a class given up stays so).
    #[inline]
    pub(super) fn given_up(&self, hi: i32) -> bool {
        self.floor.load(Ordering::Relaxed) > hi
    }

    /// The tables' (probes, hits, stores) together, if there is a table.
    pub fn table_counters(&self) -> Option<(u64, u64, u64)> {
        let (p, h, s) = self.table.as_ref()?.counters();
        let (p2, h2, s2) = self.set_table.as_ref().map_or((0, 0, 0), |t| t.counters());
        Some((p + p2, h + h2, s + s2))
    }

    /// A fresh game at the start position.
    pub fn start(&self) -> Game<'a> {
        Game::new(self.board, &self.rules)
    }

    /// The board symmetries in use (identity first), without the colour
    /// swap: the root's classes of first moves.
    pub fn symmetries(&self) -> &[Automorphism] {
        &self.syms.perms
    }
}

/// One thread's search.
pub struct Search<'s, 'a> {
    pub(super) sh: &'s Shared<'a>,
    pub(super) nodes: u64,
    static_bounds: bool,
    /// The static bounds may count enclosed regions whole (positional and
    /// situational superko: `benson::ranges`).
    whole_regions: bool,
    /// The static bounds hold uncapped where no earlier state can come
    /// again (`--superko none`, suicide forbidden: `benson::uncapped`).
    tie_free: bool,
    /// What `Config::debug` reports.
    pub(super) counters: Counters,
    /// Mixed into the keys of df-pn's numbers, so that searches with
    /// different salts do not steer each other (the root gives each
    /// first-move class its own).
    pub(super) numbers_salt: u64,
    pub(super) all_sides: bool,
    /// Two passes end the game and it is scored (see [`Search::pass_bound`]).
    pass_ends: bool,
    /// The children of the nodes df-pn is searching, innermost last.
    pub(super) kids: Vec<crate::search::dfpn::Kid>,
    /// A node's own state may be missing from the history (see [`Search::external`]).
    pub(super) own_unrecorded: bool,
    pub(super) order: MoveOrder,
    /// [`Shared::state_hash`] of each history entry, kept in step with it.
    pub(super) path: Vec<u64>,
    /// `prefix[i]`: the hash of `path[..i]` ([`PathHash`]).
    pub(super) prefix: Vec<PathHash>,
    /// History-dependent results by path, kept where a proof is to be
    /// extracted (see [`paths`](crate::search::paths)).
    pub(super) paths: Option<PathTable>,
    /// [`Search::paths`] may cut (proof extraction only).
    path_cuts: bool,
    /// Turns below the node where the current test started.
    pub(super) ply: u32,
    /// Lines end unsettled this many turns below that node (see [`Search::exact`]).
    pub(super) limit: u32,
    /// The number of the depth-limited iteration running (see [`Shared::iterations`]).
    pub(super) iteration: u32,
    /// A first-move class's search under [`FirstMoves::Bounds`]: the most
    /// the class is proved to be worth from the root mover's side. Once
    /// another class is proved better ([`Shared::floor`]) the search gives
    /// up, between tests and inside a df-pn test ([`Search::halted`]).
    pub(super) class_hi: Option<i32>,
    /// A df-pn test gives up once the search has visited this many nodes
    /// ([`Search::halted`]): proof extraction's share for one candidate
    /// move (`u64::MAX`: no cap).
    pub(super) node_cap: u64,
    /// Tests restarted with fresh numbers ([`Search::restarting`]).
    pub(super) restarts: u64,
    /// A first-move class's test other threads may help with, and the
    /// number of the test this search runs (see [`help`](crate::search::help)).
    pub(super) helped: Option<(Arc<Helped>, u64)>,
    /// With `helped`: the length of the history at the test's root.
    pub(super) help_root: usize,
}

/// A search's debug counters.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counters {
    /// Entries found that would have cut but whose facts ruled them out here.
    pub(super) unusable: u64,
    /// Results not stored because they depend on the history.
    pub(super) unstored: u64,
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

/// A search adds its nodes to [`Shared::nodes`] each time its own count
/// reaches a multiple of this mask + 1 (and the rest when it is dropped),
/// so that a solve's progress sees nodes as they go at one atomic add per
/// 65,536 nodes.
const FLUSH_MASK: u64 = (1 << 16) - 1;

impl Drop for Search<'_, '_> {
    fn drop(&mut self) {
        if self.sh.config.debug {
            eprintln!(
                "search: {} nodes, {} restarts, {} unusable entries, {} unstored results, {} path results dropped",
                self.nodes,
                self.restarts,
                self.counters.unusable,
                self.counters.unstored,
                self.paths.as_ref().map_or(0, |p| p.dropped)
            );
        }
        self.sh.add_nodes(self.nodes & FLUSH_MASK, self.path_cuts);
        // Unwinding from a panic: leave the shared table as it is.
        // An extraction's results stay its own (module `paths`).
        let keeps = !self.path_cuts && !std::thread::panicking();
        if let (Some(mine), Some(all), true) = (self.paths.take(), &self.sh.paths, keeps) {
            let mut all = all.write().unwrap_or_else(PoisonError::into_inner);
            all.absorb(mine);
            if self.sh.config.debug {
                // After this search's results went in: the count so far.
                eprintln!("  shared path results dropped so far: {}", all.dropped);
            }
        }
    }
}

impl<'s, 'a> Search<'s, 'a> {
    /// A search over the shared state.
    pub fn new(sh: &'s Shared<'a>) -> Self {
        let all_sides = sh.rules.superko == Superko::None && sh.rules.ruleset != Ruleset::Koh;
        let static_bounds = benson::applies(&sh.rules);
        let own_unrecorded = sh.rules.superko == Superko::Situational
            && sh.rules.ruleset.pass_rule() == PassRule::CostsPrisoner;
        Search {
            sh,
            own_unrecorded,
            nodes: 0,
            static_bounds,
            whole_regions: static_bounds && sh.rules.superko != Superko::None,
            tie_free: static_bounds && sh.config.tie_free && benson::lifts_cap(&sh.rules),
            pass_ends: sh.rules.ruleset.has_score()
                && sh.rules.ruleset.pass_rule() == PassRule::Free,
            all_sides,
            kids: Vec::with_capacity(4096),
            counters: Counters::default(),
            path: Vec::with_capacity(1024),
            prefix: {
                let mut v = Vec::with_capacity(1025);
                v.push(PathHash::START);
                v
            },
            paths: sh.paths.as_ref().map(|_| PathTable::new()),
            path_cuts: false,
            numbers_salt: 0,
            order: MoveOrder::new(),
            ply: 0,
            limit: u32::MAX,
            iteration: 0,
            class_hi: None,
            node_cap: u64::MAX,
            restarts: 0,
            helped: None,
            help_root: 0,
        }
    }

    /// Recomputes [`Search::path`] from the history.
    pub(super) fn sync_path(&mut self, g: &Game) {
        self.retreat(0);
        for i in 0..g.history().len() {
            let e = g.history()[i];
            self.push_path(self.sh.state_hash(e), &e);
        }
    }

    /// Appends a history entry's hash to [`Search::path`].
    #[inline]
    fn push_path(&mut self, h: u64, e: &HistoryEntry) {
        let last = self.prefix[self.path.len()];
        self.path.push(h);
        self.prefix.push(last.then(e));
    }

    /// Where the result of the node with table key `key` (in the frame
    /// of symmetry `sym`) after `d` history entries is kept in
    /// [`Search::paths`].
    #[inline]
    pub(super) fn path_key(&self, key: TableKey, sym: usize, d: u32) -> PathKey {
        PathKey {
            key,
            sym: sym as u32,
            d,
            path: self.prefix[d as usize],
        }
    }

    /// Cuts [`Search::path`] back to `n` entries.
    #[inline]
    pub(super) fn retreat(&mut self, n: usize) {
        self.path.truncate(n);
        self.prefix.truncate(n + 1);
    }

    /// Uses the history-dependent results kept by path (those of the
    /// searches so far, where [`Config::proof_follows`] asked for them,
    /// and of any that end while this one runs) and keeps its own apart
    /// (see [`paths`](crate::search::paths)).
    pub(super) fn use_paths(&mut self) {
        if let (Some(t), true) = (&self.sh.paths, self.sh.config.debug) {
            let t = t.read().unwrap_or_else(PoisonError::into_inner);
            eprintln!(
                "proof: {} path results from the solve so far, {} dropped",
                t.len(),
                t.dropped
            );
        }
        self.paths = Some(PathTable::new());
        self.path_cuts = true;
    }

    /// The results kept for the node at `at` on its path: this search's
    /// own and, in an extraction, the solve's.
    pub(super) fn path_get(&self, at: &PathKey) -> Option<(Proved, Proved, Move)> {
        let own = self.paths.as_ref().and_then(|p| p.get(at));
        let solved = self
            .sh
            .paths
            .as_ref()
            .and_then(|t| t.read().unwrap_or_else(PoisonError::into_inner).get(at));
        tighter(own, solved)
    }

    /// Fail-soft negamax. Returns `v` from the mover's side with: `v ≤ alpha`
    /// means the value is at most `v`; `v ≥ beta` means at least `v`;
    /// otherwise `v` is the value. `lo` proves the lower bound (when
    /// `v > alpha`), `hi` the upper bound (when `v < beta`).
    pub(super) fn search(&mut self, g: &mut Game, alpha: i32, beta: i32) -> Res {
        self.visit();
        let start_nodes = self.nodes;
        if self.sh.config.debug && self.nodes % 10_000_000 == 0 {
            eprintln!(
                "  {} nodes, depth {}, window {alpha}..{beta}, unusable {}, unstored {}",
                self.nodes,
                g.history().len(),
                self.counters.unusable,
                self.counters.unstored
            );
        }

        let (node, tt_best) = match self.early(g, alpha, beta) {
            Early::Done(r) => return r,
            Early::LeftOpen => return OPEN,
            Early::Search { node, tt_best } => (node, tt_best),
        };
        let sym = node.sym;

        // Step 4. The depth limit of this iteration (or a caller's stop):
        // the line stays open.
        if self.ply >= self.limit || self.sh.stopped() {
            return OPEN;
        }

        // Step 5. The moves (see `ordering`).
        let ply = g.history().len();
        let mover = g.to_move();
        let order = self.order.order(
            g,
            ply,
            tt_best,
            self.sh.table.is_some(),
            self.sh.config.pass_first,
        );

        // Step 6. Search them.
        let mut best = i32::MIN;
        let mut best_move = Move::Pass;
        let mut lo = CLEAN;
        let mut hi = CLEAN;
        let mut any = false;
        let mut first_open = None;
        for &m in order.moves() {
            let Some(u) = g.try_play(m) else {
                self.refused(g, m, &mut hi);
                continue;
            };
            any = true;
            let (produced, ph) = self.enter(g, m);
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
            self.retreat(g.history().len());
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
                self.order.cutoff(mover, m, ply, self.nodes - start_nodes);
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
            let best = self.sh.syms.map_move(sym, m).code();
            let open = Opened {
                iteration: self.iteration,
                left: self.limit - self.ply,
            };
            match (&node.set, &self.sh.set_table, &self.sh.table) {
                (Some((k, h)), Some(t), _) => t.store_open(k, *h, best, open),
                (_, _, Some(t)) => t.store_open(&node.key, node.hash, best, open),
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
        let work = self.nodes - start_nodes + 1;
        self.store(&node, &r, alpha, beta, best_move, work);
        r
    }

    /// Steps 1–3 of [`Search::search`] at `g` with the window (alpha,
    /// beta): a result without searching the moves (a finished game, a
    /// static bound, a usable table bound), or the node's keys and the
    /// table's move.
    pub(super) fn early(&mut self, g: &Game, alpha: i32, beta: i32) -> Early {
        // Step 1. A game over by two passes or by a repetition (a tie).
        if g.is_over_by_rule() {
            let mut p = CLEAN;
            if let Some(i) = g.repetition_index() {
                p.require(i as u32, g.history()[i]);
            }
            return Early::Done(Res {
                v: mover_value(g),
                lo: p,
                hi: p,
                open: false,
            });
        }
        let d = self.external(g);
        // The key first, so that the table's bucket, the node's numbers
        // and its guide entry are fetched while the static bounds are
        // worked out: three scattered reads a node that were waited on in
        // turn (2 threads, value only, 2x8 0.93 times the time, median of
        // 8 pairs; 4x4 0.95 of 5).
        let (key, sym) = self.sh.key(g);
        let hash = key_hash(&key);
        if let Some(t) = &self.sh.table {
            t.prefetch(hash);
        }
        if let Some(n) = &self.sh.numbers {
            n.prefetch(hash ^ self.numbers_salt_at(d), beta);
        }
        if let Some(guide) = &self.sh.guide {
            guide.prefetch_at(g);
        }

        // Step 2. Static bounds from unconditional life.
        if self.static_bounds {
            let (lower, upper, ranges) = static_range(self.sh.board, &self.sh.rules, g);
            let p = Facts { dep: d, ..CLEAN };
            if lower >= beta || lower == upper {
                return Early::Done(Res {
                    v: lower,
                    lo: p,
                    hi: p,
                    open: false,
                });
            }
            if upper <= alpha {
                return Early::Done(Res {
                    v: upper,
                    lo: p,
                    hi: p,
                    open: false,
                });
            }
            if self.whole_regions {
                if let Some(r) = whole_cut(g, &ranges, alpha, beta, d) {
                    return Early::Done(r);
                }
            } else if self.tie_free {
                if let Some(r) = tie_free_cut(g, &ranges, (alpha, beta), d) {
                    return Early::Done(r);
                }
            }
        }

        // Step 2b. After the opponent's pass the mover can pass and end
        // the game: the value is at least the score now (Weninger &
        // Hayward), whatever the history, since that pass is always legal.
        if let Some(lower) = self.pass_bound(g) {
            if lower >= beta {
                let p = Facts { dep: d, ..CLEAN };
                return Early::Done(Res {
                    v: lower,
                    lo: p,
                    hi: p,
                    open: false,
                });
            }
        }

        // Step 3. The transposition table.
        let mut node = Node {
            key,
            hash,
            set: None,
            sym,
            d,
        };
        let mut tt_best: Option<Move> = None;
        if let Some([first, variant]) = self.sh.table.as_ref().map(|t| t.probe_both(&key, hash)) {
            let mut raw = false;
            for e in [first, variant].iter().flatten() {
                if let Some(r) = self.cutoff(g, &node, &e.facts(), alpha, beta, false) {
                    return Early::Done(r);
                }
                raw |= e.lower.is_some_and(|l| l.value as i32 >= beta)
                    || e.upper.is_some_and(|u| u.value as i32 <= alpha);
            }
            if raw {
                self.counters.unusable += 1;
            }
            if let Some(e) = first {
                tt_best = Some(self.entry_move(&e.facts(), sym));
                if self.left_open(&e.facts()) {
                    return Early::LeftOpen;
                }
            }
        }
        // Where the table's bounds do not apply here, those stored under
        // the same set of history states may.
        node.set = self.sh.set_key(g, &key, sym);
        if let (Some((k, h)), Some(t)) = (&node.set, &self.sh.set_table) {
            if let Some(e) = t.probe(k, *h) {
                if let Some(r) = self.cutoff(g, &node, &e.facts(), alpha, beta, true) {
                    return Early::Done(r);
                }
                // Preferring this move to the first table's made star:4
                // `conway` situational 3.7x faster but cycle:5 2.7x slower.
                tt_best = tt_best.or(Some(self.entry_move(&e.facts(), sym)));
                if self.left_open(&e.facts()) {
                    return Early::LeftOpen;
                }
            }
        }

        // Results that depend on this very path (proof extraction only).
        if self.path_cuts {
            if let Some((lower, upper, best)) = self.path_get(&self.path_key(key, sym, d)) {
                if let Some(r) = path_cutoff(lower, upper, alpha, beta, d) {
                    return Early::Done(r);
                }
                tt_best = tt_best.or(Some(best));
            }
        }
        Early::Search { node, tt_best }
    }
}

/// What [`Search::early`] found.
pub(super) enum Early {
    /// Settled without searching the moves.
    Done(Res),
    /// This depth-limited iteration left the node unsettled already.
    LeftOpen,
    /// The moves must be searched: the node's keys and the table's move.
    Search { node: Node, tt_best: Option<Move> },
}

impl Search<'_, '_> {
    /// Counts a node, flushing to the shared count now and then.
    #[inline]
    pub(super) fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes & FLUSH_MASK == 0 {
            self.sh.add_nodes(FLUSH_MASK + 1, self.path_cuts);
        }
    }

    /// After playing `m`: keeps [`Search::path`] in step and returns the
    /// produced state and its hash (0 where a pass produces nothing that
    /// counts).
    pub(super) fn enter(&mut self, g: &Game, m: Move) -> (Position, u64) {
        let produced = g.position();
        let ph = if g.history().len() > self.path.len() {
            let e = g.current_key();
            let h = self.sh.state_hash(e);
            self.push_path(h, &e);
            h
        } else if self.all_sides || m != Move::Pass {
            self.sh.state_hash(g.current_key())
        } else {
            0
        };
        (produced, ph)
    }

    /// The score (mover's side) the mover gets by passing now, if that
    /// pass ends the game: two passes end it under the scored rulesets
    /// whose pass is free.
    #[inline]
    pub(super) fn pass_bound(&self, g: &Game) -> Option<i32> {
        (g.passes() == 1 && self.pass_ends && g.pass_allowed()).then(|| score_now(g))
    }

    /// Records in `hi` the earlier state a superko refusal of `m` relied on.
    pub(super) fn refused(&self, g: &Game, m: Move, hi: &mut Facts) {
        if let (Move::Place(p), false) = (m, self.all_sides) {
            if let Some(i) = g.superko_hit(p) {
                hi.require(i as u32, g.history()[i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Komi, Suicide};

    fn first(spec: &str, rules: &Rules, moves: &[u8]) -> Option<i32> {
        let board = Board::parse(spec).unwrap();
        let config = Config {
            tt_mb: 1,
            method: Method::ProofNumber,
            guide: false,
            ..Config::default()
        };
        let sh = Shared::new(&board, rules, config).unwrap();
        let mut g = sh.start();
        for &p in moves {
            g.play(Move::Place(p));
        }
        sh.first_test(&g)
    }

    /// Without a guide a rectangle's value is first tested at the whole
    /// board for the mover, komi counted; a line's is not (from 0).
    #[test]
    fn unguided_rectangles_test_the_whole_board_first() {
        let mut rules = Rules::new(Ruleset::TrompTaylor);
        assert_eq!(first("3x3", &rules, &[]), Some(18));
        assert_eq!(first("1x5", &rules, &[]), None);
        rules.komi = Komi(5);
        // Black to move: 9 points less 2.5; White after B2: 9 and 2.5.
        assert_eq!(first("3x3", &rules, &[]), Some(13));
        assert_eq!(first("3x3", &rules, &[4]), Some(23));
        assert_eq!(first("3x3", &Rules::new(Ruleset::Logical), &[]), None);
    }

    /// Under `--superko none` with suicide allowed the first test is at
    /// the tie, 0, komi or not; without suicide as elsewhere.
    #[test]
    fn ties_are_tested_first_under_basic_ko_with_suicide() {
        let mut rules = Rules::new(Ruleset::TrompTaylor);
        rules.superko = Superko::None;
        assert_eq!(first("3x3", &rules, &[]), Some(0));
        assert_eq!(first("3x3", &rules, &[4]), Some(0));
        rules.komi = Komi(5);
        assert_eq!(first("3x3", &rules, &[]), Some(0));
        rules.suicide = Suicide::Forbidden;
        assert_eq!(first("3x3", &rules, &[]), Some(13));
        rules.superko = Superko::Positional;
        rules.suicide = Suicide::Allowed;
        assert_eq!(first("3x3", &rules, &[]), Some(13));
    }

    /// With a proof to follow the colour swap is kept on rectangles only,
    /// and not under `--superko none` with suicide allowed; value only,
    /// wherever the rules treat the colours alike.
    #[test]
    fn the_colour_swap_with_a_proof_is_for_rectangles() {
        let proof = Config {
            proof_follows: true,
            ..Config::default()
        };
        let value = Config::default();
        let tt = Rules::new(Ruleset::TrompTaylor);
        let (grid, line, ring) = (
            Board::parse("3x3").unwrap(),
            Board::parse("1x10").unwrap(),
            Board::parse("cycle:6").unwrap(),
        );
        assert!(colour_swap(&grid, &tt, &proof));
        assert!(!colour_swap(&line, &tt, &proof));
        assert!(!colour_swap(&ring, &tt, &proof));
        assert!(colour_swap(&line, &tt, &value));
        let mut none = tt;
        none.superko = Superko::None;
        assert!(!colour_swap(&grid, &none, &proof));
        assert!(colour_swap(&grid, &none, &value));
        none.suicide = Suicide::Forbidden;
        assert!(colour_swap(&grid, &none, &proof));
        // Komi tells the colours apart.
        let komi = Rules {
            komi: Komi(1),
            ..tt
        };
        assert!(!colour_swap(&grid, &komi, &value));
    }
}
