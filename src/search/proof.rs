//! Proof extraction: after a solve, each side's optimal strategy for every
//! position the other side can force, as a compact move stream that the
//! independent checker ([`crate::verify`]) replays.
//!
//! # The strategy stream
//!
//! A strategy proves a bound for its *owner* from a given game. It is the
//! preorder walk of the game tree the strategy allows:
//!
//! - at a finished game (no legal turn): nothing;
//! - where the owner moves: one byte, the owner's move (0 = pass, p + 1 =
//!   point p), then the node after it; or the byte
//!   [`LINK`](crate::format::codes::LINK) and a LEB128 number k
//!   ([`push_link`]), meaning "here, play as at the k-th owner node expanded so far"
//!   (a transposition); or the byte [`SECURE`]: the bound holds from here
//!   whatever happens, because each side keeps its pass-alive stones and
//!   the one-point eyes among them (Benson; see [`crate::engine::benson`]) and that
//!   decides the bound (Tromp-Taylor and General Graph Go under superko);
//!   or the byte [`WHOLE`]: the same with the owner's enclosed regions
//!   counted whole, where no colouring before the node had an owner stone
//!   in them (positional and situational superko; the owner then takes
//!   every stone played there: [`crate::engine::benson::ranges`]). Every
//!   colouring with an owner stone in those regions counts as produced;
//!   no exact set can hold that family, so the links above judge by the
//!   summary;
//! - where the other side moves: the node after each of its legal turns, in
//!   the plain order (pass, then the points by index).
//!
//! A link is written only where reusing the earlier node is sound on the
//! current path, by the rule the checker applies (module doc of
//! [`crate::verify`]): the earlier subtree's owner-produced colourings (all
//! produced colourings under `--superko none`) cannot be in the history
//! before the node, and every earlier state a refusal there relied on is.
//! Under `--superko none`, where a tie (0) keeps the bound, the first test
//! is only that basic ko does not forbid the owner's move at the node.
//! The produced colourings are judged by their exact set (by hash) when
//! there are at most [`MADE_LIMIT`] of them: the summary alone (stones all
//! share, stones any has, stone counts) ruled out so little that 3x4's
//! proof expanded most states eight times over.
//!
//! Where a tie keeps the bound under `--superko none` (and the rules score
//! by area), a tree that grows large gives way to a closed strategy, one
//! move per state of the game with a short memory
//! ([`crate::search::closed`]), whatever the paths ([`Extractor::run`]).

use crate::engine::benson;
use crate::engine::game::{Game, HistoryEntry};
use crate::engine::position::Position;
use crate::engine::rules::{Ruleset, Superko};
use crate::engine::types::{ByColor, Color, Move, PointSet};
use crate::format::codes::{SECURE, WHOLE, push_link};
use crate::format::gsr::{MADE_LIMIT, colouring_hash};
use crate::search::bounds::{log_value, mover_value};
use crate::search::closed;
use crate::search::solver::{Search, Shared};
use crate::search::tt::Summary;
use hashbrown::HashMap;
use hashbrown::hash_map::Entry;

/// The hash given to the summaries' Bloom filter: one constant, so the
/// filter never rules a state out and links follow exactly the rule the
/// checker applies (which has no filter).
const NO_HASH: u64 = 0;

/// Nodes a candidate move's test may visit per unit of its proof-number
/// limit before [`Extractor::choose`] moves on to the next candidate.
/// One thread, nodes the proof searched, without a share / 512 / 4096:
/// 1x11 `--first-moves bounds` 19.4 M / 15.3 M / 12.9 M, its `--suicide
/// forbidden` 14.5 M / 15.7 M / 12.0 M, 1x11 `--suicide forbidden` with
/// every class exact 125 M / 68.4 M / 68.8 M (the proof 56 s -> 27 s); 1x10
/// `--suicide forbidden` 11.2 M / 11.5 M / 12.1 M; 4x4, 3x5 and 2x7
/// the same.
const CHOICE_NODES: u64 = 1 << 12;

/// The part of its share a candidate gets in each round's first pass
/// (see `Extractor::choose`).
const GLANCE: u64 = 64;

/// How many expansions of one state are kept for reuse.
const MEMO_WAYS: usize = 4;

/// The hashes of the colourings a subtree produced, sorted; `None` once
/// there are more than [`MADE_LIMIT`].
type Made = Option<Vec<u64>>;

/// Adds colouring `p` to `m`.
fn made_add(m: &mut Made, p: &Position) {
    made_insert(m, colouring_hash(p.black.0, p.white.0));
}

/// Adds the colouring hash `h` to `m`.
pub(crate) fn made_insert(m: &mut Made, h: u64) {
    let Some(v) = m else { return };
    if let Err(i) = v.binary_search(&h) {
        if v.len() == MADE_LIMIT {
            *m = None;
        } else {
            v.insert(i, h);
        }
    }
}

/// Adds the colourings of `o` to `m`.
pub(crate) fn made_merge(m: &mut Made, o: &Made) {
    let (Some(a), Some(b)) = (m.as_mut(), o.as_ref()) else {
        *m = None;
        return;
    };
    if b.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    *m = (out.len() <= MADE_LIMIT).then_some(out);
}

/// What proving the bound relied on below a node: the colourings produced
/// and the earlier states refusals referred to (as history indices).
#[derive(Clone, Debug)]
struct Foot {
    summary: Summary,
    made: Made,
    refs: Vec<(usize, HistoryEntry)>,
}

impl Foot {
    fn new() -> Foot {
        Foot {
            summary: Summary::NONE,
            made: Some(Vec::new()),
            refs: Vec::new(),
        }
    }

    fn add(&mut self, p: Position) {
        self.summary.add(p, NO_HASH);
        made_add(&mut self.made, &p);
    }

    fn merge(&mut self, o: Foot) {
        self.summary.merge(&o.summary);
        made_merge(&mut self.made, &o.made);
        for r in o.refs {
            if !self.refs.contains(&r) {
                self.refs.push(r);
            }
        }
    }

    /// Drops references to the node's own path (index `here` and later).
    fn lift(mut self, here: usize) -> Foot {
        self.refs.retain(|&(i, _)| i < here);
        self
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct NodeKey {
    pos: Position,
    to_move: Color,
    passes: u8,
    prisoners: ByColor<u32>,
    played: PointSet,
}

struct Done {
    id: u32,
    /// The owner's move at the node (a tie-kept link needs it legal).
    first: Move,
    summary: Summary,
    made: Made,
    refs: Vec<HistoryEntry>,
}

/// The expanded owner nodes a link may point to, within a memory budget.
///
/// Two generations: when the newer holds half the budget, the older is
/// dropped and the newer takes its place. A link only saves writing a
/// subtree again, so forgetting costs size, never soundness, and the
/// nodes kept are the latest, where the walk is. Without a budget the
/// system ended 4x5's extraction at 24.4 GB after 6.3 M owner nodes, the
/// value search having held 12.9 GB: about 1.8 KB per owner node, most
/// of it the nodes' produced colourings (up to [`MADE_LIMIT`] each).
struct Memo {
    new: HashMap<NodeKey, Vec<Done>>,
    old: HashMap<NodeKey, Vec<Done>>,
    /// Bytes held by `new` (estimated: the entries and what they point to).
    bytes: usize,
    budget: usize,
    /// The most both generations held, in bytes.
    peak: usize,
    /// Generations dropped.
    turned: u64,
    /// Bytes the older generation held.
    old_bytes: usize,
}

impl Memo {
    fn new(budget: usize) -> Memo {
        Memo {
            new: HashMap::new(),
            old: HashMap::new(),
            bytes: 0,
            budget,
            peak: 0,
            turned: 0,
            old_bytes: 0,
        }
    }

    /// The expansions of `k` kept, latest generation first.
    fn get(&self, k: &NodeKey) -> impl Iterator<Item = &Done> {
        let new = self.new.get(k).into_iter().flatten();
        new.chain(self.old.get(k).into_iter().flatten())
    }

    fn states(&self) -> usize {
        self.new.len() + self.old.len()
    }

    /// Keeps `d` as an expansion of `k`, at most [`MEMO_WAYS`] per state.
    fn keep(&mut self, k: NodeKey, d: Done) {
        // What a kept expansion points to.
        let heap = |d: &Done| {
            d.made.as_ref().map_or(0, |m| m.len() * 8)
                + d.refs.len() * std::mem::size_of::<HistoryEntry>()
        };
        if self.bytes >= self.budget / 2 {
            self.old = std::mem::take(&mut self.new);
            self.old_bytes = self.bytes;
            self.bytes = 0;
            self.turned += 1;
        }
        let mut added = heap(&d);
        let done = match self.new.entry(k) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                // The map's slot, with its slack (at most 1/8 empty, and
                // up to twice the slots just after it grew).
                added += 2 * std::mem::size_of::<(NodeKey, Vec<Done>)>();
                // Most states are expanded once: no room for four.
                e.insert(Vec::with_capacity(1))
            }
        };
        let cap = done.capacity();
        // A few per state: each failed reuse costs a scan of the path.
        let removed = if done.len() == MEMO_WAYS {
            heap(&done.remove(0))
        } else {
            0
        };
        done.push(d);
        added += (done.capacity() - cap) * std::mem::size_of::<Done>();
        self.bytes = (self.bytes + added).saturating_sub(removed);
        self.peak = self.peak.max(self.bytes + self.old_bytes);
    }
}

/// A strategy for one side, ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The owner.
    pub owner: Color,
    /// The bound in Black's terms (half points, or ±1 for a win): Black's
    /// strategy guarantees at least this, White's at most this.
    pub bound: i32,
    /// Owner nodes expanded (not counting links).
    pub nodes: u32,
    /// The move stream.
    pub bytes: Vec<u8>,
}

/// Extracts `owner`'s strategy from game `g` (not yet over or over).
pub struct Extractor<'s, 'a> {
    search: Search<'s, 'a>,
    owner: Color,
    /// The owner's bound from its own side (mover values).
    own: i32,
    /// The bound in Black's terms.
    bound: i32,
    /// The rules let [`SECURE`] end a line.
    statics: bool,
    /// The rules let [`WHOLE`] end a line.
    wholes: bool,
    all_sides: bool,
    /// Under `--superko none`, a tie (0) keeps the bound: links need not
    /// keep the subtree's colourings off the path (module doc of
    /// [`crate::verify`]).
    ties: bool,
    memo: Memo,
    out: Vec<u8>,
    nodes: u32,
    links: u64,
    /// Lines ended by [`SECURE`] or [`WHOLE`].
    secure: u64,
    debug: bool,
    /// The strategy as the debug log names it ([`strategy_text`]; empty
    /// without the log).
    label: String,
    /// Called with the owner nodes so far, every 1024.
    tick: &'s (dyn Fn(u64) + Sync),
    /// Owner nodes after which the walk gives up ([`Extractor::run`]).
    limit: u32,
}

/// A strategy as the debug log names it: its owner, its first-move
/// class (two threads' extractions interleave) and its bound (Black's
/// side).
fn strategy_text(sh: &Shared, first: Move, owner: Color, bound: i32) -> String {
    format!(
        "{owner:?} after {}, bound {} (Black's side)",
        sh.board.move_name(first),
        log_value(&sh.rules, bound)
    )
}

/// The owner nodes a tree may take before the closed strategy is sought
/// on a board of `points` points: an eighth of its colourings (3^points),
/// which on 3x3 is 2,460. A tree's owner node cost about 45 µs and a
/// closed strategy's key about 0.7 µs, with some 7 keys a colouring
/// (3x3, window 1: 136 K keys; 3x4: 4 M), so beyond about 3^points / 8
/// owner nodes the tree has cost what the whole closed strategy would.
/// 3x3 `--superko none` on 2 threads had its stalled trees dropped at
/// 65,536 owner nodes after 2.6–3.2 s each, 3 to 5 of them a solve;
/// from 3x4 up the limit is [`Config::closed_after`](crate::search::solver::Config)'s.
pub fn tree_limit(points: usize) -> u32 {
    3u64.checked_pow(points as u32)
        .map_or(u32::MAX, |c| u32::try_from(c / 8).unwrap_or(u32::MAX))
}

/// Keys a closed strategy may explore, per owner node the tree before it
/// was allowed, where the board's keys are more than the memory holds
/// ([`Extractor::run`]). A closed search must reach every key before it
/// decides, so a cap below their number only costs time; this keeps a
/// round's closed search about as long as its tree (a tree's owner node
/// costs 7–45 µs, a key about 1 µs). 4x4 `--superko none --suicide
/// forbidden`, one bound's tree past 65,536 owner nodes in 0.4 s: the
/// closed search at the memory's cap (15.2 M keys) took 17.3 s and 3.9
/// GB before it gave up, and the tree then finished at 175 K owner nodes
/// in 1.3 s.
const KEYS_PER_TREE_NODE: usize = 16;

/// The keys a closed strategy of window 1 explores on a board of
/// `points` points, about: some 7 a colouring (3x3: 136 K keys; 3x4:
/// 4 M), rounded up to 8.
fn closed_keys(points: usize) -> usize {
    3usize
        .checked_pow(points as u32)
        .and_then(|c| c.checked_mul(8))
        .unwrap_or(usize::MAX)
}

/// The keys a round's closed search may explore ([`Extractor::run`]):
/// the memory's (`full`) where the tree was not tried (`limit` 0, closed
/// first), else at most that, and the board's (`whole`, about) where the
/// memory holds them, else [`KEYS_PER_TREE_NODE`] for each owner node
/// the tree had.
fn closed_cap(full: usize, whole: usize, limit: u32) -> usize {
    if limit == 0 {
        return full;
    }
    let per_tree = (limit as usize).saturating_mul(KEYS_PER_TREE_NODE);
    let want = if whole <= full {
        whole.max(per_tree)
    } else {
        per_tree
    };
    want.min(full)
}

/// How a search for a closed strategy ended without one.
enum NoClosed {
    /// It met more keys than its cap: a larger one may find it.
    Cap,
    /// None within any window tried, whatever the cap (or the rules or
    /// the bound do not allow one).
    Never,
}

impl<'s, 'a> Extractor<'s, 'a> {
    /// Black's strategy for `value ≥ bound` (owner Black) or White's for
    /// `value ≤ bound` (owner White), from `g`, the game after the first
    /// move `first` (named in the debug log).
    ///
    /// Where a closed strategy may prove the bound, a tree is tried first
    /// within [`Config::closed_after`](crate::search::solver::Config) owner
    /// nodes: a tree is often far cheaper (3x4 `--superko none --suicide
    /// forbidden`: 0.1 s for all nine, where the closed ones explored
    /// 4 M states each, 20 s and 2 GB in all), but under ties it may grow
    /// without end (3x3 `--superko none` on 2 threads). On a small board
    /// the tree's limit is lower ([`tree_limit`]). Then the closed
    /// strategy, with as many keys as the board has (about) if the memory
    /// holds them, else with 16 keys a tree node (`KEYS_PER_TREE_NODE`); if it met
    /// more keys than that, a tree with four times the limit, a closed
    /// search with four times the keys, and so on, up to the memory's
    /// cap; then the tree without a limit. So a bound whose tree is large
    /// but finite does not wait on a closed search of the memory's size.
    pub fn run(
        sh: &'s Shared<'a>,
        g: &mut Game<'a>,
        (first, owner, bound): (Move, Color, i32),
        tick: &'s (dyn Fn(u64) + Sync),
        budget: usize,
    ) -> Strategy {
        let own = if owner == Color::Black { bound } else { -bound };
        if sh.config.closed && closed::applies(g.rules(), own) {
            // About 384 bytes a key (its entry twice, its turns both ways,
            // its marks).
            let full = budget / 384;
            let whole = closed_keys(sh.board.len());
            let mut limit = sh.config.closed_after.min(tree_limit(sh.board.len()));
            loop {
                if limit > 0 {
                    if let Some(st) = Self::tree(sh, g, (first, owner, bound), tick, budget, limit)
                    {
                        return st;
                    }
                }
                let cap = closed_cap(full, whole, limit);
                match Self::closed(sh, g, (first, owner, bound), tick, cap) {
                    Ok(st) => return st,
                    Err(NoClosed::Cap) if cap < full => limit = limit.max(1).saturating_mul(4),
                    Err(_) => break,
                }
            }
        }
        Self::tree(sh, g, (first, owner, bound), tick, budget, u32::MAX).expect("no limit")
    }

    /// The closed strategy (module [`closed`]) within `cap` keys, or why
    /// there is none.
    fn closed(
        sh: &'s Shared<'a>,
        g: &Game<'a>,
        (first, owner, bound): (Move, Color, i32),
        tick: &'s (dyn Fn(u64) + Sync),
        cap: usize,
    ) -> Result<Strategy, NoClosed> {
        // A window of one colouring gives the smallest strategies (and was
        // enough for every bound of 2x4 and 3x3 with suicide); a longer
        // one also ends the longer cycles, for an owner whose ties need
        // them.
        let mut why = NoClosed::Never;
        let label = sh
            .config
            .debug
            .then(|| strategy_text(sh, first, owner, bound));
        for window in 1..=closed::MAX_WINDOW {
            let t = std::time::Instant::now();
            let found = closed::strategy(g, owner, bound, window, cap);
            if let Some(label) = &label {
                match &found {
                    Ok(c) => eprintln!(
                        "proof: {label}: closed, window {window}, {} owner nodes, {} links, {} bytes, {} keys explored, {:.1} s",
                        c.nodes,
                        c.links,
                        c.bytes.len(),
                        c.keys,
                        t.elapsed().as_secs_f64()
                    ),
                    Err(why) => eprintln!(
                        "proof: {label}: no closed strategy with window {window} ({why:?}, {:.1} s)",
                        t.elapsed().as_secs_f64()
                    ),
                }
            }
            match found {
                Ok(c) => {
                    tick(u64::from(c.nodes));
                    return Ok(Strategy {
                        owner,
                        bound,
                        nodes: c.nodes,
                        bytes: c.bytes,
                    });
                }
                Err(closed::Missing::Unsafe { .. }) => continue,
                Err(closed::Missing::TooMany(_)) => {
                    why = NoClosed::Cap;
                    break;
                }
                Err(closed::Missing::Rules) => break,
            }
        }
        Err(why)
    }

    /// The tree strategy, or `None` past `limit` owner nodes.
    fn tree(
        sh: &'s Shared<'a>,
        g: &mut Game<'a>,
        (first, owner, bound): (Move, Color, i32),
        tick: &'s (dyn Fn(u64) + Sync),
        budget: usize,
        limit: u32,
    ) -> Option<Strategy> {
        let rules = g.rules();
        let all_sides = rules.superko == Superko::None && rules.ruleset != Ruleset::Koh;
        let own = if owner == Color::Black { bound } else { -bound };
        let mut search = Search::new(sh);
        search.use_paths();
        let mut x = Extractor {
            search,
            owner,
            own,
            bound,
            statics: crate::engine::benson::applies(rules),
            wholes: crate::engine::benson::applies(rules) && rules.superko != Superko::None,
            all_sides,
            ties: all_sides && own <= 0,
            memo: Memo::new(budget),
            out: Vec::new(),
            nodes: 0,
            links: 0,
            secure: 0,
            debug: sh.config.debug,
            label: if sh.config.debug {
                strategy_text(sh, first, owner, bound)
            } else {
                String::new()
            },
            tick,
            limit,
        };
        if x.debug {
            let most = match limit {
                u32::MAX => String::new(),
                n => format!(", at most {n} owner nodes"),
            };
            eprintln!("proof: {}: extraction started{most}", x.label);
        }
        let t = std::time::Instant::now();
        x.node(g);
        if x.nodes > limit {
            if x.debug {
                eprintln!(
                    "proof: {}: the tree passed {limit} owner nodes in {:.1} s",
                    x.label,
                    t.elapsed().as_secs_f64()
                );
            }
            return None;
        }
        if x.debug {
            eprintln!(
                "proof: {}: {} owner nodes, {} links, {} secure, {} bytes, {:.1} s, links' memory about {} MB at the peak (estimated), {} times forgotten",
                x.label,
                x.nodes,
                x.links,
                x.secure,
                x.out.len(),
                t.elapsed().as_secs_f64(),
                x.memo.peak >> 20,
                x.memo.turned
            );
        }
        Some(Strategy {
            owner,
            bound,
            nodes: x.nodes,
            bytes: x.out,
        })
    }

    /// The state as links compare it: prisoners only where they matter,
    /// the points played only under `koh` (as the checker does).
    fn key(g: &Game) -> NodeKey {
        let s = g.state();
        let ruleset = g.rules().ruleset;
        NodeKey {
            pos: s.pos,
            to_move: s.to_move,
            passes: s.passes,
            prisoners: if ruleset.prisoners_matter() {
                s.prisoners
            } else {
                ByColor::default()
            },
            played: if ruleset == Ruleset::Koh {
                s.played
            } else {
                PointSet::EMPTY
            },
        }
    }

    /// Every turn in the plain order (pass, then the points); callers try each.
    fn turns(g: &Game) -> impl Iterator<Item = Move> + use<> {
        let n = g.board().len() as u8;
        std::iter::once(Move::Pass).chain((0..n).map(Move::Place))
    }

    /// A link target usable on the current path, if any: returns its id and
    /// its footprint mapped onto the path.
    fn usable(&self, g: &Game, k: &NodeKey) -> Option<(u32, Foot)> {
        let h = g.history();
        let prefix = &h[..h.len().saturating_sub(1)];
        'cand: for d in self.memo.get(k) {
            let clash = if self.ties {
                // The owner's move here must stay legal (basic ko against
                // the colouring before the last turn is the one ban from
                // before the node a tie does not absorb), as the checker asks.
                !g.is_legal(d.first)
            } else {
                match &d.made {
                    Some(m) => prefix.iter().any(|e| {
                        m.binary_search(&colouring_hash(e.pos.black.0, e.pos.white.0))
                            .is_ok()
                    }),
                    None => prefix
                        .iter()
                        .any(|e| d.summary.may_contain(&e.pos, NO_HASH)),
                }
            };
            if clash {
                continue;
            }
            let mut refs = Vec::with_capacity(d.refs.len());
            for r in &d.refs {
                match prefix.iter().rposition(|e| e == r) {
                    Some(i) => refs.push((i, *r)),
                    None => continue 'cand,
                }
            }
            return Some((
                d.id,
                Foot {
                    summary: d.summary,
                    made: d.made.clone(),
                    refs,
                },
            ));
        }
        None
    }

    /// Writes the node at `g` and returns its footprint.
    fn node(&mut self, g: &mut Game<'a>) -> Foot {
        if self.nodes > self.limit {
            return Foot::new();
        }
        if g.outcome().is_some() {
            let mut f = Foot::new();
            if let Some(i) = g.repetition_index() {
                f.refs.push((i, g.history()[i]));
            }
            return f;
        }
        let here = g.history().len().saturating_sub(1);
        if g.to_move() != self.owner {
            let mut f = Foot::new();
            for m in Self::turns(g) {
                match g.try_play(m) {
                    Some(u) => {
                        let produced = g.position();
                        let mut c = self.node(g);
                        g.undo(u);
                        if self.all_sides {
                            c.add(produced);
                        }
                        f.merge(c);
                    }
                    None => {
                        if let Move::Place(p) = m {
                            if let Some(i) = g.superko_hit(p) {
                                f.refs.push((i, g.history()[i]));
                            }
                        }
                    }
                }
            }
            return f.lift(here);
        }
        if self.secure(g) {
            self.out.push(SECURE);
            self.secure += 1;
            return Foot::new();
        }
        if let Some((regions, alive)) = self.whole(g) {
            self.out.push(WHOLE);
            self.secure += 1;
            let mut f = Foot::new();
            f.summary
                .add_family(self.owner == Color::Black, regions, alive);
            f.made = None;
            return f;
        }
        let key = Self::key(g);
        if let Some((id, f)) = self.usable(g, &key) {
            push_link(&mut self.out, id);
            self.links += 1;
            return f.lift(here);
        }
        let id = self.nodes;
        self.nodes += 1;
        if self.nodes % 1024 == 0 {
            (self.tick)(1024);
            if self.debug && self.nodes % (1 << 20) == 0 {
                eprintln!(
                    "proof: {}: {} owner nodes, {} links, {} bytes, {} states, depth {}",
                    self.label,
                    self.nodes,
                    self.links,
                    self.out.len(),
                    self.memo.states(),
                    here
                );
            }
        }
        let m = self.choose(g);
        self.out.push(m.code());
        let u = g.play(m);
        let produced = g.position();
        let mut f = self.node(g);
        g.undo(u);
        if self.all_sides || m != Move::Pass {
            f.add(produced);
        }
        let f = f.lift(here);
        self.memo.keep(
            key,
            Done {
                id,
                first: m,
                summary: f.summary,
                made: f.made.clone(),
                refs: f.refs.iter().map(|&(_, k)| k).collect(),
            },
        );
        f
    }

    /// Whether each side's secure points decide the bound here.
    fn secure(&self, g: &Game) -> bool {
        if !self.statics {
            return false;
        }
        closed::secure(g.board(), g.rules(), &g.position(), self.owner, self.bound)
    }

    /// The owner's enclosed regions and pass-alive stones, where counting
    /// the regions whole decides the bound here and no earlier colouring
    /// had an owner stone in them.
    fn whole(&self, g: &Game) -> Option<(PointSet, PointSet)> {
        if !self.wholes {
            return None;
        }
        let r = benson::ranges(g.board(), &g.position(), g.rules());
        let holds = if self.owner == Color::Black {
            r.whole_lo >= self.bound
        } else {
            r.whole_hi <= self.bound
        };
        let (regions, alive) = r.of(self.owner);
        let h = g.history();
        let earlier = h[..h.len().saturating_sub(1)].iter().map(|e| &e.pos);
        (holds && !regions.is_empty() && benson::regions_clear(earlier, self.owner, regions))
            .then_some((regions, alive))
    }

    /// A move whose result keeps the bound: the table's best move if it
    /// does (the solver's own proof went that way, so its subtree is in the
    /// table).
    fn choose(&mut self, g: &mut Game<'a>) -> Move {
        // A pass that ends the game with the bound kept needs no subtree.
        if g.passes() == 1 {
            if let Some(u) = g.try_play(Move::Pass) {
                let ends = g.outcome().is_some() && mover_value(g) <= -self.own;
                g.undo(u);
                if ends {
                    return Move::Pass;
                }
            }
        }
        // Otherwise placings before pass: passing leaves the opponent every
        // point to try, which made proofs hundreds of times larger.
        let n = g.board().len() as u8;
        let first = self
            .search
            .path_move(g)
            .or_else(|| self.search.table_move(g));
        let rest = (0..n).map(Move::Place).chain(std::iter::once(Move::Pass));
        let mut tries: Vec<Move> = Vec::with_capacity(n as usize + 2);
        for m in first.into_iter().chain(rest) {
            if !tries.contains(&m) && g.is_legal(m) {
                tries.push(m);
            }
        }
        // Every candidate is tested with lines cut short first, and the
        // limit doubles until one is shown to keep the bound: a move with a
        // short proof is found before a long search of one in front of it
        // (3x3 proofs took from 0.4 s to over 200 s in point order).
        //
        // Each try also has a share of nodes, which doubles with the
        // limit and goes on doubling after it: under superko a df-pn test
        // within a small limit can wander for ever among fights whose
        // numbers stay small, and one such try held the extraction.
        //
        // Each round first glances at every candidate with a 64th of
        // the share: where the guide starts a side's numbers at 1,000, a
        // move whose proof is in the table is seen only from a limit of
        // about that, and the first candidate had spent millions of nodes
        // before the second proved in 30 (1x11 with its proof, one
        // thread: proof 64.6 s -> 40.5 s, 152 M -> 94 M nodes; on 2
        // threads 5 of 5 runs in 32-39 s, where 1 of 4 passed 90 s).
        // A glance bounds both of the test's numbers, so a move with a
        // short proof either way comes first; the whole share bounds only
        // the number for the answer wanted (`Search::keeps_within`).
        //
        // The bound holds at every owner node the walk reaches (the solver
        // proved it at the class's root, and each owner move taken was
        // shown to keep it), so once every other candidate is shown not to
        // keep it, the one left does, untested: its subtree is then
        // extracted node by node, each choice below with a test of its
        // own, rather than by one search of the whole subtree, which can
        // run past any share (1x15: the one move left after every other
        // was refuted stayed unproved past 1 G nodes). The checker replays
        // the subtree all the same.
        let mut limit = (n as u32).max(4);
        let mut share = u64::from(limit) * CHOICE_NODES;
        let before = self.search.visited();
        if let [only] = tries[..] {
            return only;
        }
        loop {
            for (part, glance) in [(share / GLANCE, true), (share, false)] {
                let mut i = 0;
                while i < tries.len() {
                    let u = g.play(tries[i]);
                    let keeps = if glance {
                        self.search.at_most_within(g, -self.own, limit, part)
                    } else {
                        self.search.keeps_within(g, -self.own, limit, part)
                    };
                    g.undo(u);
                    let spent = self.search.visited() - before;
                    if self.debug && spent > 5_000_000 {
                        let (m, h) = (tries[i], g.history().len());
                        // Path results dropped so far: history-dependent
                        // results the shared table had no room for, in the
                        // solve and then here (its count came with it).
                        let dropped = self.search.paths.as_ref().map_or(0, |p| p.dropped);
                        eprintln!(
                            "choose at depth {h} ({}): {m:?} at limit {limit}, share {part}: {keeps:?}, {spent} nodes, {dropped} path results dropped so far",
                            self.label
                        );
                    }
                    match keeps {
                        Some(true) => return tries[i],
                        Some(false) => {
                            tries.remove(i);
                            if let [only] = tries[..] {
                                return only;
                            }
                        }
                        None => i += 1,
                    }
                }
            }
            assert!(!tries.is_empty(), "no move keeps a bound the solver proved");
            limit = if limit >= 1 << 16 {
                u32::MAX
            } else {
                limit * 2
            };
            share = share.saturating_mul(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> NodeKey {
        NodeKey {
            pos: Position {
                black: PointSet(i),
                white: PointSet::EMPTY,
            },
            to_move: Color::Black,
            passes: 0,
            prisoners: ByColor::default(),
            played: PointSet::EMPTY,
        }
    }

    fn done(id: u32, made: usize) -> Done {
        Done {
            id,
            first: Move::Pass,
            summary: Summary::NONE,
            made: Some((0..made as u64).collect()),
            refs: Vec::new(),
        }
    }

    /// A closed search gets the board's keys where the memory holds them
    /// (3x3), and on a board whose keys it does not hold (4x4) as many as
    /// the tree had owner nodes times [`KEYS_PER_TREE_NODE`], not the
    /// memory's cap, which it would spend only to give up.
    #[test]
    fn a_closed_search_is_capped_by_the_tree_before_it() {
        let full = 15_000_000;
        assert_eq!(closed_keys(9), 157_464);
        assert_eq!(closed_cap(full, closed_keys(9), 2_460), 157_464);
        assert_eq!(closed_cap(full, closed_keys(9), 0), full);
        assert_eq!(closed_cap(full, closed_keys(12), 1 << 16), 4_251_528);
        assert_eq!(closed_cap(full, closed_keys(16), 1 << 16), 1 << 20);
        assert_eq!(closed_cap(full, closed_keys(16), 1 << 20), full);
        assert_eq!(closed_cap(full, closed_keys(16), 0), full);
        assert_eq!(closed_keys(64), usize::MAX);
    }

    /// The links' memory stays within its budget: the older generation
    /// is dropped when the newer holds half of it, and the latest nodes
    /// are the ones kept.
    #[test]
    fn the_memo_keeps_its_budget_and_the_latest_nodes() {
        let budget = 1 << 20;
        let mut m = Memo::new(budget);
        for i in 0..100_000u32 {
            m.keep(key(u64::from(i)), done(i, 100));
        }
        // Each expansion costs over 800 bytes: 100,000 of them are 80 MB.
        assert!(m.turned > 100, "{} generations dropped", m.turned);
        // A half can pass its mark by one expansion.
        assert!(m.peak <= budget + 2 * 1024, "{} bytes held", m.peak);
        let ids = |m: &Memo, i: u64| m.get(&key(i)).map(|d| d.id).collect::<Vec<_>>();
        assert_eq!(ids(&m, 99_999), [99_999]);
        assert!(ids(&m, 0).is_empty());
        // Four expansions of a state at most, the latest kept.
        for i in 0..6 {
            m.keep(key(7), done(i, 1));
        }
        assert_eq!(ids(&m, 7), [2, 3, 4, 5]);
    }
}
