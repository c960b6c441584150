//! The independent checker: re-proves a result file's value from its stored
//! strategies with the plain rules ([`crate::verify::plain`]). It shares no code with
//! the solver, the bitboard engine or the proof extractor: it reads the
//! board as an edge list, the rules by name, and replays every strategy
//! against every legal reply.
//!
//! What "verified" means: every legal first move belongs to exactly one
//! stored class, every class member is the image of its representative
//! under an automorphism of the graph that fixes the start; for every class,
//! Black's strategy after the representative guarantees at least the
//! class's value against every White reply and White's guarantees at most
//! it against every Black reply (a bound no game can break needs no
//! strategy); the value is the best class value for the player to move; the
//! principal variation is a legal, finished game with that value.
//!
//! # The claims beside the proof
//!
//! `gosolve verify` also prints the board's name and the rules. The rules
//! it prints are the ones this checker replayed, described here from their
//! names and komi ([`Setting::describe`]), not the stored text. The name is
//! checked outside this module, so that the checker keeps sharing no code
//! with the engine: the strict decoder every reader goes through
//! ([`crate::format::check`], run by [`crate::format::gsr::read`])
//! rebuilds a named board from its name with the program's board code and
//! compares its points and edges, and refuses a stored description that is
//! not the stored rules'. A `file:` board's name is its file's stem: the
//! edges are the board. The run facts (program, date, nodes, seconds,
//! threads, table size) are informational: nothing here checks them, and
//! the command says so.
//!
//! # Transpositions (links)
//!
//! A link says: play here as at an earlier owner node with the same state
//! (colouring, player to move, passes, and the prisoners where they are
//! scored or spent, the points played under `koh`).
//! The earlier node's subtree was checked under its own history H; the
//! checker accepts it under the current history H' only when
//!
//! 1. no colouring the owner produced in that subtree (under `--superko
//!    none` any produced colouring) can be in H' before the node — checked
//!    against their exact set (by [`colouring_hash`]) when the subtree
//!    produced at most [`MADE_LIMIT`] colourings, otherwise against a
//!    summary (stones all of them share, stones any has, stone counts) — so
//!    the owner's moves stay legal and no new repetition ends the game, and
//! 2. every earlier state that refused a reply (or ended the game as a
//!    repetition) in that subtree is in H' before the node,
//!
//! so the replies legal under H' are a subset of those checked under H, the
//! owner's moves are all still legal, and every finished game scores the
//! same. A link that fails these tests fails the proof.
//!
//! # Secure nodes
//!
//! A strategy may end a line at one of its owner's nodes with the mark
//! "secure" under Tromp-Taylor and General Graph Go scoring with a superko
//! rule. The checker recomputes, with its own code ([`crate::verify::plain_life`]),
//! the points each side keeps whatever happens: unconditionally alive
//! stones (Benson) and the empty points all of whose neighbours are such
//! stones. Passing at every turn (always legal; superko ends the game),
//! the owner keeps its points and the other side cannot get the owner's,
//! so Black − White is at least 2·(Black's kept) − n and at most
//! n − 2·(White's kept), komi aside. The mark is accepted only when that
//! decides the bound; the subtree relies on nothing in the history.

pub mod plain;
pub mod plain_life;

use crate::engine::rules::{Ruleset, Suicide, Superko};
use crate::format::codes::{LINK, SECURE};
use crate::format::gsr::{MADE_LIMIT, ResultFile, RulesInfo, colouring_hash};
use crate::verify::plain::{BLACK, EMPTY, Graph, PlainRules, Refusal, State, Turn, WHITE};
use std::fmt;

/// Why a proof was rejected: where, and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Which strategy (a description), if the failure is inside one.
    pub strategy: Option<String>,
    /// The turns from the start to the failing position.
    pub line: Vec<Turn>,
    /// What went wrong.
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.strategy {
            write!(f, "{s}: ")?;
        }
        f.write_str(&self.reason)
    }
}

/// What a successful check covered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The rules the checker replayed, in words ([`Setting::describe`]):
    /// what to print as the rules proved, rather than the stored text.
    pub rules: String,
    /// Strategies replayed.
    pub strategies: usize,
    /// Owner nodes walked (links count once each).
    pub nodes: u64,
    /// Links accepted.
    pub links: u64,
}

fn fail(reason: impl Into<String>) -> Failure {
    Failure {
        strategy: None,
        line: Vec::new(),
        reason: reason.into(),
    }
}

/// Stones of a colouring as bit sets (black, white).
fn sets(col: &[u8]) -> (u64, u64) {
    let (mut b, mut w) = (0u64, 0u64);
    for (i, &c) in col.iter().enumerate() {
        match c {
            BLACK => b |= 1 << i,
            WHITE => w |= 1 << i,
            _ => {}
        }
    }
    (b, w)
}

/// Colourings summarised: a colouring that lacks a stone all share, has a
/// stone none has, or has a stone count out of range is none of them.
#[derive(Clone, Copy, Debug)]
struct Seen {
    all: (u64, u64),
    any: (u64, u64),
    min: u32,
    max: u32,
}

impl Seen {
    const NONE: Seen = Seen {
        all: (u64::MAX, u64::MAX),
        any: (0, 0),
        min: u32::MAX,
        max: 0,
    };

    fn add(&mut self, col: &[u8]) {
        let (b, w) = sets(col);
        self.all = (self.all.0 & b, self.all.1 & w);
        self.any = (self.any.0 | b, self.any.1 | w);
        let n = (b | w).count_ones();
        self.min = self.min.min(n);
        self.max = self.max.max(n);
    }

    fn merge(&mut self, o: &Seen) {
        self.all = (self.all.0 & o.all.0, self.all.1 & o.all.1);
        self.any = (self.any.0 | o.any.0, self.any.1 | o.any.1);
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    fn may_hold(&self, col: &[u8]) -> bool {
        let (b, w) = sets(col);
        let n = (b | w).count_ones();
        self.min <= n
            && n <= self.max
            && b & self.all.0 == self.all.0
            && w & self.all.1 == self.all.1
            && b & !self.any.0 == 0
            && w & !self.any.1 == 0
    }
}

/// The hashes of a subtree's produced colourings, sorted and without
/// repeats, while there are at most [`MADE_LIMIT`]; `None` beyond.
#[derive(Clone, Debug)]
struct Made(Option<Vec<u64>>);

impl Made {
    fn add(&mut self, col: &[u8]) {
        let (b, w) = sets(col);
        self.insert(colouring_hash(b, w));
    }

    fn insert(&mut self, h: u64) {
        if let Some(v) = &mut self.0 {
            if let Err(i) = v.binary_search(&h) {
                v.insert(i, h);
            }
            if v.len() > MADE_LIMIT {
                self.0 = None;
            }
        }
    }

    fn merge(&mut self, o: &Made) {
        let (Some(v), Some(w)) = (&mut self.0, &o.0) else {
            self.0 = None;
            return;
        };
        v.extend_from_slice(w);
        v.sort_unstable();
        v.dedup();
        if v.len() > MADE_LIMIT {
            self.0 = None;
        }
    }

    fn holds(&self, col: &[u8]) -> Option<bool> {
        let (b, w) = sets(col);
        let h = colouring_hash(b, w);
        self.0.as_ref().map(|v| v.binary_search(&h).is_ok())
    }
}

/// A history entry a refusal relied on: colouring and player to move
/// (ignored under positional superko).
type Entry = (Vec<u8>, u8);

/// What a subtree's proof relied on.
#[derive(Clone, Debug)]
struct Foot {
    seen: Seen,
    made: Made,
    /// (history index, entry).
    refs: Vec<(usize, Entry)>,
}

impl Foot {
    fn new() -> Foot {
        Foot {
            seen: Seen::NONE,
            made: Made(Some(Vec::new())),
            refs: Vec::new(),
        }
    }

    fn add(&mut self, col: &[u8]) {
        self.seen.add(col);
        self.made.add(col);
    }

    fn merge(&mut self, o: Foot) {
        self.seen.merge(&o.seen);
        self.made.merge(&o.made);
        for r in o.refs {
            if !self.refs.contains(&r) {
                self.refs.push(r);
            }
        }
    }

    fn before(mut self, here: usize) -> Foot {
        self.refs.retain(|(i, _)| *i < here);
        self
    }
}

/// A checked owner node, for links.
struct Node {
    col: Vec<u8>,
    to_move: u8,
    passes: u32,
    prisoners: [u32; 2],
    played: Vec<bool>,
    seen: Seen,
    made: Made,
    refs: Vec<Entry>,
    /// Its subtree is checked (until then `seen` and `made` are not filled in).
    done: bool,
}

/// The rules and graph of a file, read by the checker itself.
pub struct Setting {
    graph: Graph,
    rules: PlainRules,
    komi_half: i32,
    start: State,
}

/// Builds the checker's own view of a file's board and rules.
pub fn setting(f: &ResultFile) -> Result<Setting, Failure> {
    let n = f.board.points as usize;
    if n == 0 || n > 64 {
        return Err(fail(format!(
            "the board has {n} points (1 to 64 are possible)"
        )));
    }
    let mut edges = Vec::new();
    for &(a, b) in &f.board.edges {
        let (a, b) = (a as usize, b as usize);
        if a >= n || b >= n || a == b {
            return Err(fail(format!("bad edge {a}-{b} on {n} points")));
        }
        edges.push((a, b));
    }
    let graph = Graph::from_edges(n, &edges);
    let r: &RulesInfo = &f.rules;
    let ruleset: Ruleset = r.ruleset.parse().map_err(|e| fail(format!("{e}")))?;
    let superko: Superko = r.superko.parse().map_err(|e| fail(format!("{e}")))?;
    let suicide: Suicide = r.suicide.parse().map_err(|e| fail(format!("{e}")))?;
    if r.start.len() != n || r.start.iter().any(|&c| c > 4) || !(1..=2).contains(&r.to_move) {
        return Err(fail("the start position does not fit the board"));
    }
    let col: Vec<u8> = r
        .start
        .iter()
        .map(|&c| match c {
            3 => BLACK,
            4 => WHITE,
            c => c,
        })
        .collect();
    let alive: Vec<bool> = r.start.iter().map(|&c| c >= 3).collect();
    if !(0..n).all(|v| col[v] == EMPTY || alive[v] || graph.reaches(&col, v, EMPTY)) {
        return Err(fail("the start position has a group without liberties"));
    }
    Ok(Setting {
        rules: PlainRules {
            ruleset,
            superko,
            suicide,
        },
        komi_half: r.komi_half,
        start: State::start(col, r.to_move, alive),
        graph,
    })
}

impl Setting {
    /// The rules as the checker read and replayed them, in the words the
    /// program uses (`tromp-taylor, positional superko, suicide allowed,
    /// komi 0`), built here from the names and the komi alone.
    pub fn describe(&self) -> String {
        let r = &self.rules;
        let mut parts = vec![r.ruleset.name().to_string()];
        if r.ruleset != Ruleset::Koh {
            parts.push(format!("{} superko", r.superko.name()));
        }
        parts.push(format!("suicide {}", r.suicide.name()));
        if matches!(
            r.ruleset,
            Ruleset::TrompTaylor | Ruleset::Ggg | Ruleset::Logical
        ) {
            let (sign, a) = (
                if self.komi_half < 0 { "-" } else { "" },
                self.komi_half.unsigned_abs(),
            );
            let half = if a % 2 == 1 { ".5" } else { "" };
            parts.push(format!("komi {sign}{}{half}", a / 2));
        }
        parts.join(", ")
    }
}

fn decode_move(code: u8, n: usize) -> Option<Turn> {
    match code as usize {
        0 => Some(None),
        c if c <= n => Some(Some(c - 1)),
        _ => None,
    }
}

/// The walk of one strategy.
struct Walk<'a> {
    set: &'a Setting,
    owner: u8,
    bound: i32,
    bytes: &'a [u8],
    at: usize,
    line: Vec<Turn>,
    nodes: Vec<Node>,
    links: u64,
    all_sides: bool,
    tick: &'a dyn Fn(u64),
}

impl Walk<'_> {
    fn fail(&self, reason: String) -> Failure {
        Failure {
            strategy: None,
            line: self.line.clone(),
            reason,
        }
    }

    fn byte(&mut self) -> Result<u8, Failure> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.fail("the strategy ends too early".into()))?;
        self.at += 1;
        Ok(b)
    }

    /// The game is over: no legal turn.
    fn finished(&self, s: &State) -> bool {
        s.over_by_rule()
            || s.turns()
                .all(|t| s.play(&self.set.graph, &self.set.rules, t).is_err())
    }

    /// Whether `a` and `b` are the same history entry for superko.
    fn same(&self, a: &Entry, col: &[u8], to_move: u8) -> bool {
        a.0 == col && (self.set.rules.superko == Superko::Positional || a.1 == to_move)
    }

    fn entry(s: &State, i: usize) -> Entry {
        let p = s
            .past
            .iter()
            .find(|p| p.index == i)
            .expect("a recorded index");
        (p.col.clone(), p.to_move)
    }

    fn node(&mut self, s: &State) -> Result<Foot, Failure> {
        let g = &self.set.graph;
        let r = &self.set.rules;
        if self.finished(s) {
            let v = match s.result(g, r, self.set.komi_half) {
                Ok(v) => v,
                Err(winner) => {
                    if winner == BLACK {
                        1
                    } else {
                        -1
                    }
                }
            };
            let holds = if self.owner == BLACK {
                v >= self.bound
            } else {
                v <= self.bound
            };
            if !holds {
                return Err(self.fail(format!(
                    "the game ends with value {v} (half points), breaking the bound {}",
                    self.bound
                )));
            }
            let mut f = Foot::new();
            if let Some(i) = s.repeated {
                f.refs.push((i, Self::entry(s, i)));
            }
            return Ok(f);
        }
        let here = s.past.index;
        if s.to_move != self.owner {
            let mut f = Foot::new();
            for t in s.turns() {
                match s.play(g, r, t) {
                    Ok(c) => {
                        self.line.push(t);
                        let mut sub = self.node(&c)?;
                        self.line.pop();
                        if self.all_sides {
                            sub.add(&c.col);
                        }
                        f.merge(sub);
                    }
                    Err(Refusal::Repeats(i)) => f.refs.push((i, Self::entry(s, i))),
                    Err(_) => {}
                }
            }
            return Ok(f.before(here));
        }
        let code = self.byte()?;
        if code == SECURE {
            self.secure(s)?;
            return Ok(Foot::new());
        }
        if code == LINK {
            let mut id = 0u64;
            let mut shift = 0;
            loop {
                let b = self.byte()?;
                if shift > 28 {
                    return Err(self.fail("a link number is too long".into()));
                }
                id |= u64::from(b & 0x7F) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            let f = self.link(s, id as usize)?;
            self.links += 1;
            return Ok(f.before(here));
        }
        let n = g.len();
        let turn = decode_move(code, n)
            .ok_or_else(|| self.fail(format!("move code {code} on a board of {n} points")))?;
        let c = s
            .play(g, r, turn)
            .map_err(|why| self.fail(format!("the strategy's move is not legal ({why:?})")))?;
        let id = self.nodes.len();
        self.nodes.push(Node {
            col: s.col.clone(),
            to_move: s.to_move,
            passes: s.passes,
            prisoners: s.prisoners,
            played: s.played.clone(),
            seen: Seen::NONE,
            made: Made(None),
            refs: Vec::new(),
            done: false,
        });
        if id % 1024 == 1023 {
            (self.tick)(1024);
        }
        self.line.push(turn);
        let mut f = self.node(&c)?;
        self.line.pop();
        if self.all_sides || turn.is_some() {
            f.add(&c.col);
        }
        let f = f.before(here);
        self.nodes[id].seen = f.seen;
        self.nodes[id].made = f.made.clone();
        self.nodes[id].done = true;
        self.nodes[id].refs = f.refs.iter().map(|(_, e)| e.clone()).collect();
        Ok(f)
    }

    /// Whether the points each side keeps at `s` decide the bound.
    fn secure(&self, s: &State) -> Result<(), Failure> {
        let r = &self.set.rules;
        if !matches!(r.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) || r.superko == Superko::None {
            return Err(self.fail("a secure mark under rules that do not allow it".into()));
        }
        // Border stones are never captured, which the life test does not know.
        if s.alive.iter().any(|&a| a) {
            return Err(self.fail("a secure mark on a board with border stones".into()));
        }
        let g = &self.set.graph;
        let n = g.len() as i32;
        let komi = self.set.komi_half;
        let suicide = r.suicide == Suicide::Allowed;
        let holds = if self.owner == BLACK {
            let b = crate::verify::plain_life::kept(g, &s.col, BLACK, suicide) as i32;
            2 * (2 * b - n) - komi >= self.bound
        } else {
            let w = crate::verify::plain_life::kept(g, &s.col, WHITE, suicide) as i32;
            2 * (n - 2 * w) - komi <= self.bound
        };
        if holds {
            Ok(())
        } else {
            Err(self.fail(format!(
                "a secure mark where the points each side keeps do not decide the bound {}",
                self.bound
            )))
        }
    }

    /// The footprint of earlier node `id` if it may be reused at `s`.
    fn link(&self, s: &State, id: usize) -> Result<Foot, Failure> {
        let Some(d) = self.nodes.get(id) else {
            return Err(self.fail(format!("a link to node {id}, which is not before it")));
        };
        if !d.done {
            return Err(self.fail(format!("a link to node {id}, an ancestor of itself")));
        }
        // Prisoners and the points played change nothing where the rules
        // neither score nor spend the one nor forbid the other.
        let ruleset = self.set.rules.ruleset;
        if d.col != s.col
            || d.to_move != s.to_move
            || d.passes != s.passes
            || (ruleset.prisoners_matter() && d.prisoners != s.prisoners)
            || (ruleset == Ruleset::Koh && d.played != s.played)
        {
            return Err(self.fail(format!("a link to node {id}, whose state is different")));
        }
        let here = s.past.index;
        let prefix = || s.past.iter().filter(move |p| p.index < here);
        if prefix().any(|p| {
            d.made
                .holds(&p.col)
                .unwrap_or_else(|| d.seen.may_hold(&p.col))
        }) {
            return Err(self.fail(format!(
                "a link to node {id}, whose moves may repeat an earlier state here"
            )));
        }
        let mut refs = Vec::new();
        for e in &d.refs {
            match prefix().find(|p| self.same(e, &p.col, p.to_move)) {
                Some(p) => refs.push((p.index, e.clone())),
                None => {
                    return Err(self.fail(format!(
                        "a link to node {id}, which relied on a state not in this history"
                    )));
                }
            }
        }
        Ok(Foot {
            seen: d.seen,
            made: d.made.clone(),
            refs,
        })
    }
}

fn is_automorphism(g: &Graph, perm: &[u8]) -> bool {
    let n = g.len();
    let mut hit = vec![false; n];
    for &p in perm {
        if p as usize >= n || hit[p as usize] {
            return false;
        }
        hit[p as usize] = true;
    }
    (0..n).all(|v| {
        let mut a: Vec<usize> = g.adj[v].iter().map(|&w| perm[w] as usize).collect();
        let mut b = g.adj[perm[v] as usize].clone();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    })
}

/// The extreme values no game can pass: (lowest, highest), if bounded.
fn extremes(set: &Setting) -> Option<(i32, i32)> {
    match set.rules.ruleset {
        Ruleset::Conway | Ruleset::ConwayReplacement | Ruleset::Koh => Some((-1, 1)),
        Ruleset::Logical => None,
        _ => {
            let n = set.graph.len() as i32;
            // A repetition tie scores 0 whatever the komi.
            Some((
                (-2 * n - set.komi_half).min(0),
                (2 * n - set.komi_half).max(0),
            ))
        }
    }
}

/// Re-proves a result file. `tick` is told of owner nodes walked.
pub fn verify(f: &ResultFile, tick: &dyn Fn(u64)) -> Result<Verified, Failure> {
    let set = setting(f)?;
    let g = &set.graph;
    let n = g.len();
    let start = &set.start;
    let first = |t: Turn| match t {
        None => 0u8,
        Some(v) => v as u8 + 1,
    };
    // Step 1. The classes cover the legal first moves, each once, by symmetry.
    let legal: Vec<Turn> = start
        .turns()
        .filter(|&t| start.play(g, &set.rules, t).is_ok())
        .collect();
    let mut covered: Vec<u8> = Vec::new();
    for (k, c) in f.classes.iter().enumerate() {
        let rep = c
            .members
            .first()
            .ok_or_else(|| fail(format!("first-move class {k} is empty")))?;
        let rep_turn = decode_move(rep.mv, n)
            .ok_or_else(|| fail(format!("class {k}: bad move code {}", rep.mv)))?;
        for m in &c.members {
            let ok = m.perm.len() == n
                && is_automorphism(g, &m.perm)
                && (0..n).all(|v| {
                    let w = m.perm[v] as usize;
                    start.col[w] == start.col[v] && start.alive[w] == start.alive[v]
                })
                && first(rep_turn.map(|v| m.perm[v] as usize)) == m.mv;
            if !ok {
                return Err(fail(format!(
                    "class {k}: move code {} is not a symmetric image of the class's first move",
                    m.mv
                )));
            }
            if covered.contains(&m.mv) {
                return Err(fail(format!(
                    "move code {} is in two first-move classes",
                    m.mv
                )));
            }
            covered.push(m.mv);
        }
    }
    for &t in &legal {
        if !covered.contains(&first(t)) {
            return Err(Failure {
                strategy: None,
                line: vec![t],
                reason: "a legal first move is in no class".into(),
            });
        }
    }
    if covered.len() != legal.len() {
        return Err(fail("a first-move class holds an illegal move"));
    }
    // Step 2. The value is the best class for the player to move.
    let best = if start.to_move == BLACK {
        f.classes.iter().map(|c| c.value).max()
    } else {
        f.classes.iter().map(|c| c.value).min()
    };
    if let Some(b) = best {
        if b != f.value {
            return Err(fail(format!(
                "the stored value {} is not the best first move's value {b}",
                f.value
            )));
        }
    }
    // Step 3. Every class's two bounds, by its strategies.
    let ext = extremes(&set);
    let all_sides = set.rules.superko == Superko::None && set.rules.ruleset != Ruleset::Koh;
    let mut done = Verified {
        rules: set.describe(),
        strategies: 0,
        nodes: 0,
        links: 0,
    };
    let mut used = vec![false; f.proofs.len()];
    for (k, c) in f.classes.iter().enumerate() {
        let rep = decode_move(c.members[0].mv, n).expect("checked");
        for owner in [BLACK, WHITE] {
            let trivial = ext.is_some_and(|(lo, hi)| {
                if owner == BLACK {
                    c.value <= lo
                } else {
                    c.value >= hi
                }
            });
            let found = f
                .proofs
                .iter()
                .position(|p| p.class as usize == k && p.owner == owner);
            let Some(i) = found else {
                if trivial {
                    continue;
                }
                return Err(fail(format!(
                    "no {} strategy for first-move class {k}",
                    if owner == BLACK { "Black" } else { "White" }
                )));
            };
            let p = &f.proofs[i];
            used[i] = true;
            let who = if owner == BLACK { "Black" } else { "White" };
            let what = format!(
                "{who}'s strategy for value {} {} after first move class {k}",
                if owner == BLACK { "≥" } else { "≤" },
                p.bound
            );
            if p.bound != c.value {
                return Err(fail(format!("{what}: the class's value is {}", c.value)));
            }
            let after = start
                .play(g, &set.rules, rep)
                .map_err(|_| fail("a class's first move is not legal"))?;
            let mut w = Walk {
                set: &set,
                owner,
                bound: p.bound,
                bytes: &p.bytes,
                at: 0,
                line: vec![rep],
                nodes: Vec::new(),
                links: 0,
                all_sides,
                tick,
            };
            w.node(&after).map_err(|mut e| {
                e.strategy = Some(what.clone());
                e
            })?;
            if w.at != p.bytes.len() {
                return Err(Failure {
                    strategy: Some(what),
                    line: Vec::new(),
                    reason: format!("{} bytes left over after the walk", p.bytes.len() - w.at),
                });
            }
            done.strategies += 1;
            done.nodes += w.nodes.len() as u64;
            done.links += w.links;
        }
    }
    if used.iter().any(|u| !u) {
        return Err(fail("a stored strategy belongs to no class bound"));
    }
    // Step 4. The principal variation is a finished game with the value.
    let mut s = start.clone();
    let mut line = Vec::new();
    for &code in &f.pv {
        let t = decode_move(code, n).ok_or_else(|| fail("a bad move code in the variation"))?;
        line.push(t);
        s = s.play(g, &set.rules, t).map_err(|_| Failure {
            strategy: None,
            line: line.clone(),
            reason: "the principal variation plays an illegal move".into(),
        })?;
    }
    let pv_fail = |reason: &str| Failure {
        strategy: None,
        line: line.clone(),
        reason: reason.into(),
    };
    if !f.classes.is_empty() {
        let w = Walk {
            set: &set,
            owner: BLACK,
            bound: 0,
            bytes: &[],
            at: 0,
            line: Vec::new(),
            nodes: Vec::new(),
            links: 0,
            all_sides,
            tick,
        };
        if !w.finished(&s) {
            return Err(pv_fail("the principal variation does not finish the game"));
        }
    }
    let v = match s.result(g, &set.rules, set.komi_half) {
        Ok(v) => v,
        Err(winner) => {
            if winner == BLACK {
                1
            } else {
                -1
            }
        }
    };
    if v != f.value {
        return Err(pv_fail(&format!(
            "the principal variation ends with value {v}, not {}",
            f.value
        )));
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::Made;
    use crate::format::gsr::MADE_LIMIT;
    use crate::search::proof;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The extractor writes a link only where the checker accepts it,
        /// so their produced-colouring sets must give up (turn `None`) at
        /// the same size: about `MADE_LIMIT` distinct hashes, then a few
        /// more, some of them repeats, merged in.
        #[test]
        fn extractor_and_checker_sets_agree_at_the_limit(
            a in prop::collection::vec(any::<u64>(), 1015..1035),
            b in prop::collection::vec((any::<bool>(), any::<u64>()), 0..20),
        ) {
            let b: Vec<u64> = b
                .into_iter()
                .map(|(old, h)| if old { a[h as usize % a.len()] } else { h })
                .collect();
            let distinct = |s: &[&[u64]]| {
                let mut v: Vec<u64> = s.iter().flat_map(|x| x.iter().copied()).collect();
                v.sort_unstable();
                v.dedup();
                v.len()
            };
            let (mut pa, mut pb) = (Some(Vec::new()), Some(Vec::new()));
            let (mut va, mut vb) = (Made(Some(Vec::new())), Made(Some(Vec::new())));
            for (k, &h) in a.iter().enumerate() {
                proof::made_insert(&mut pa, h);
                va.insert(h);
                prop_assert_eq!(&pa, &va.0);
                prop_assert_eq!(pa.is_some(), distinct(&[&a[..=k]]) <= MADE_LIMIT);
            }
            for &h in &b {
                proof::made_insert(&mut pb, h);
                vb.insert(h);
            }
            prop_assert_eq!(&pb, &vb.0);
            proof::made_merge(&mut pa, &pb);
            va.merge(&vb);
            prop_assert_eq!(&pa, &va.0);
            let kept = distinct(&[&a]) <= MADE_LIMIT && distinct(&[&a, &b]) <= MADE_LIMIT;
            prop_assert_eq!(pa.is_some(), kept);
        }
    }
}
