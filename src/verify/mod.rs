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
//! strategy); a class stored with only a bound (format version 4,
//! `solve --first-moves bounds`) has the one strategy that proves it, and
//! the bound must show the class no better for the player to move than the
//! value; the value is the best exact class value for the player to move;
//! the principal variation is a legal, finished game with that value.
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
//!    against their exact set (by [`colouring_hash`](crate::format::gsr::colouring_hash)) when the subtree
//!    produced at most [`MADE_LIMIT`](crate::format::gsr::MADE_LIMIT) colourings, otherwise against a
//!    summary (stones all of them share, stones any has, stone counts) — so
//!    the owner's moves stay legal and no new repetition ends the game, and
//! 2. every earlier state that refused a reply (or ended the game as a
//!    repetition) in that subtree is in H' before the node,
//!
//! so the replies legal under H' are a subset of those checked under H, the
//! owner's moves are all still legal, and every finished game scores the
//! same. A link that fails these tests fails the proof. (How the produced
//! colourings are kept for millions of owner nodes: the module `verify::made`.)
//!
//! Under `--superko none` a repetition ends the game as a tie worth 0
//! whatever the komi, so where 0 keeps the strategy's bound (Black's
//! strategy for a bound of at most 0, White's for one of at least 0) test 1
//! is replaced by a weaker one: under H' the subtree's lines either go as
//! under H or end earlier in a tie, because legality there depends on the
//! history only through basic ko against the colouring before the last
//! turn, and below the node that colouring is on the subtree's own line.
//! Only the owner's move at the node itself looks before it, so the
//! checker requires that move not to recreate the colouring before H''s
//! last turn. Test 2 stays: a tie the subtree relied on must still come.
//!
//! # Closed strategies
//!
//! Where a tie keeps the bound, a strategy may instead give one owner
//! move per state of the game that remembers only its last few
//! colourings, links allowed to any such state met before, its ancestors
//! too. The module `verify::closed` checks it and says why that suffices.
//!
//! # Secure nodes
//!
//! A strategy may end a line at one of its owner's nodes with the mark
//! "secure" under Tromp-Taylor and General Graph Go scoring (under
//! `--superko none` the tie a repetition makes must keep the bound too).
//! The checker recomputes, with its own code ([`crate::verify::plain_life`]),
//! the points each side keeps whatever happens: unconditionally alive
//! stones (Benson) and the empty points all of whose neighbours are such
//! stones. Passing at every turn (always legal; superko ends the game),
//! the owner keeps its points and the other side cannot get the owner's,
//! so Black − White is at least 2·(Black's kept) − n and at most
//! n − 2·(White's kept), komi aside. The mark is accepted only when that
//! decides the bound; the subtree relies on nothing in the history.
//!
//! The mark "whole" (positional and situational superko only) counts as
//! well every point of the owner's enclosed regions: those of two points
//! or more whose every point is next to an alive owner stone and whose
//! every owner neighbour is alive. It is accepted only when that decides
//! the bound and no colouring before the node has an owner stone in them.
//! The owner then takes every stone the other side plays there and passes
//! otherwise: its stones there join chains that are never captured and
//! only grow in number, so it never repeats a colouring, and the game ends
//! after an owner pass with no other stone there (the argument is in
//! [`crate::engine::benson::ranges`]). Such a subtree may have produced
//! any colouring with an owner stone in those regions: a link to a node
//! above it is judged by the summary, which holds that family, not by an
//! exact set.

mod closed;
mod made;
pub mod plain;
pub mod plain_life;
mod setting;
mod walk;

use crate::engine::rules::{Ruleset, Superko};
use crate::format::codes::CLOSED;
use crate::format::gsr::{Claim, ResultFile};
use crate::verify::made::Kept;
use crate::verify::plain::{BLACK, Turn, WHITE};
use crate::verify::setting::{extremes, is_automorphism};
use crate::verify::walk::{Walk, decode_move};
use std::fmt;

pub use crate::verify::setting::{Setting, setting};

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

pub(super) fn fail(reason: impl Into<String>) -> Failure {
    Failure {
        strategy: None,
        line: Vec::new(),
        reason: reason.into(),
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
    // Step 2. The value is the best class for the player to move: the
    // best exact class, and no class known by a bound can be better (its
    // bound is on the side of the player to move and no better).
    let black = start.to_move == BLACK;
    let exact = f.classes.iter().filter(|c| c.claim == Claim::Exact);
    let best = if black {
        exact.map(|c| c.value).max()
    } else {
        exact.map(|c| c.value).min()
    };
    match best {
        Some(b) if b != f.value => {
            return Err(fail(format!(
                "the stored value {} is not the best first move's value {b}",
                f.value
            )));
        }
        None if !f.classes.is_empty() => {
            return Err(fail("no first-move class has an exact value"));
        }
        _ => {}
    }
    for (k, c) in f.classes.iter().enumerate() {
        let worse = match c.claim {
            Claim::Exact => true,
            Claim::AtMost => black && c.value <= f.value,
            Claim::AtLeast => !black && c.value >= f.value,
        };
        if !worse {
            return Err(fail(format!(
                "first-move class {k} is known only {} {}, which does not show it no better than the value {}",
                if c.claim == Claim::AtMost {
                    "to be at most"
                } else {
                    "to be at least"
                },
                c.value,
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
        // A bound's claim has only its owner's strategy.
        for owner in [BLACK, WHITE]
            .into_iter()
            .filter(|&o| c.claim.proved_by(o == BLACK))
        {
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
                kept: Kept::new(),
                links: 0,
                all_sides,
                tick,
            };
            let closed = p.bytes.first() == Some(&CLOSED);
            let walked = if closed {
                w.at = 1;
                w.closed(&after)
            } else {
                w.node(&after).map(|_| w.nodes.len() as u64)
            };
            let nodes = walked.map_err(|mut e| {
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
            done.nodes += nodes;
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
            kept: Kept::new(),
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
