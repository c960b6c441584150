//! The checker's walk over a stored strategy: each owner node's move is
//! legal and every reply of the other side is answered, links are checked
//! against the colourings the linked subtree produced, and secure nodes by
//! the checker's own unconditional life.

use crate::engine::rules::{Ruleset, Suicide, Superko};
use crate::format::codes::{LINK, SECURE, WHOLE};
use crate::verify::Failure;
use crate::verify::made::{Kept, Made};
use crate::verify::plain::{BLACK, Refusal, State, Turn, WHITE};
use crate::verify::plain_life;
use crate::verify::setting::Setting;

/// Stones of a colouring as bit sets (black, white).
pub(super) fn sets(col: &[u8]) -> (u64, u64) {
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

/// Points marked true, as a bit set.
fn bits(marks: &[bool]) -> u64 {
    marks
        .iter()
        .enumerate()
        .filter(|(_, m)| **m)
        .fold(0, |b, (i, _)| b | 1 << i)
}

/// Colourings summarised: a colouring that lacks a stone all share, has a
/// stone none has, or has a stone count out of range is none of them,
/// unless it is of the family `fam`: a Black stone in `fam.0` and every
/// Black stone of `all`, or a White stone in `fam.1` and every White stone
/// of `all` (what a [`WHOLE`] mark's owner may produce: its alive stones
/// are in each, so adding the family intersects `all` with them).
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    pub(super) all: (u64, u64),
    pub(super) any: (u64, u64),
    pub(super) min: u32,
    pub(super) max: u32,
    pub(super) fam: (u64, u64),
}

impl Seen {
    const NONE: Seen = Seen {
        all: (u64::MAX, u64::MAX),
        any: (0, 0),
        min: u32::MAX,
        max: 0,
        fam: (0, 0),
    };

    pub(super) fn add(&mut self, col: &[u8]) {
        let (b, w) = sets(col);
        self.all = (self.all.0 & b, self.all.1 & w);
        self.any = (self.any.0 | b, self.any.1 | w);
        let n = (b | w).count_ones();
        self.min = self.min.min(n);
        self.max = self.max.max(n);
    }

    pub(super) fn merge(&mut self, o: &Seen) {
        self.all = (self.all.0 & o.all.0, self.all.1 & o.all.1);
        self.any = (self.any.0 | o.any.0, self.any.1 | o.any.1);
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.fam = (self.fam.0 | o.fam.0, self.fam.1 | o.fam.1);
    }

    pub(super) fn may_hold(&self, col: &[u8]) -> bool {
        let (b, w) = sets(col);
        // A family's colourings hold the stones all share (`all`): the
        // owner's alive stones are among them.
        if (b & self.fam.0 != 0 && b & self.all.0 == self.all.0)
            || (w & self.fam.1 != 0 && w & self.all.1 == self.all.1)
        {
            return true;
        }
        let n = (b | w).count_ones();
        self.min <= n
            && n <= self.max
            && b & self.all.0 == self.all.0
            && w & self.all.1 == self.all.1
            && b & !self.any.0 == 0
            && w & !self.any.1 == 0
    }
}

/// A history entry a refusal relied on: colouring (as [`sets`]) and player
/// to move (ignored under positional superko).
pub(super) type Entry = ((u64, u64), u8);

/// What a subtree's proof relied on.
#[derive(Clone, Debug)]
pub(super) struct Foot {
    pub(super) seen: Seen,
    pub(super) made: Made,
    /// (history index, entry).
    pub(super) refs: Vec<(usize, Entry)>,
}

impl Foot {
    pub(super) fn new() -> Foot {
        Foot {
            seen: Seen::NONE,
            made: Made::empty(),
            refs: Vec::new(),
        }
    }

    /// Colouring `col`, numbered `n` in [`Kept`], produced.
    pub(super) fn add(&mut self, col: &[u8], n: u32) {
        self.seen.add(col);
        self.made.insert(n);
    }

    pub(super) fn merge(&mut self, o: Foot) {
        self.seen.merge(&o.seen);
        self.made.merge(&o.made);
        for r in o.refs {
            if !self.refs.contains(&r) {
                self.refs.push(r);
            }
        }
    }

    pub(super) fn before(mut self, here: usize) -> Foot {
        self.refs.retain(|(i, _)| *i < here);
        self
    }
}

/// A checked owner node, for links (its produced colourings are in
/// [`Walk::kept`]). Millions are kept, so the colourings are bit sets.
pub(super) struct Node {
    pub(super) col: (u64, u64),
    pub(super) to_move: u8,
    pub(super) passes: u32,
    pub(super) prisoners: [u32; 2],
    /// The points played (`koh`), bit i for point i.
    pub(super) played: u64,
    pub(super) seen: Seen,
    pub(super) refs: Box<[Entry]>,
    /// The owner's turn here: a tie-kept link checks that it stays legal.
    pub(super) first: Turn,
}

pub(super) fn decode_move(code: u8, n: usize) -> Option<Turn> {
    match code as usize {
        0 => Some(None),
        c if c <= n => Some(Some(c - 1)),
        _ => None,
    }
}

/// The walk of one strategy.
pub(super) struct Walk<'a> {
    pub(super) set: &'a Setting,
    pub(super) owner: u8,
    pub(super) bound: i32,
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
    pub(super) line: Vec<Turn>,
    pub(super) nodes: Vec<Node>,
    /// The nodes' produced colourings.
    pub(super) kept: Kept,
    pub(super) links: u64,
    pub(super) all_sides: bool,
    pub(super) tick: &'a dyn Fn(u64),
}

impl Walk<'_> {
    pub(super) fn fail(&self, reason: String) -> Failure {
        Failure {
            strategy: None,
            line: self.line.clone(),
            reason,
        }
    }

    pub(super) fn byte(&mut self) -> Result<u8, Failure> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.fail("the strategy ends too early".into()))?;
        self.at += 1;
        Ok(b)
    }

    /// The game is over: no legal turn.
    pub(super) fn finished(&self, s: &State) -> bool {
        s.over_by_rule()
            || s.turns()
                .all(|t| s.play(&self.set.graph, &self.set.rules, t).is_err())
    }

    /// Whether `a` and `b` are the same history entry for superko.
    pub(super) fn same(&self, a: &Entry, col: &[u8], to_move: u8) -> bool {
        a.0 == sets(col) && (self.set.rules.superko == Superko::Positional || a.1 == to_move)
    }

    pub(super) fn entry(s: &State, i: usize) -> Entry {
        let p = s
            .past
            .iter()
            .find(|p| p.index == i)
            .expect("a recorded index");
        (sets(&p.col), p.to_move)
    }

    /// The finished game at `s` keeps the bound.
    pub(super) fn ended(&self, s: &State) -> Result<(), Failure> {
        let v = match s.result(&self.set.graph, &self.set.rules, self.set.komi_half) {
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
        if holds {
            Ok(())
        } else {
            Err(self.fail(format!(
                "the game ends with value {v}, breaking the bound {} (Black's side, half points or ±1)",
                self.bound
            )))
        }
    }

    /// A link's number (LEB128), after its [`LINK`] byte.
    pub(super) fn link_number(&mut self) -> Result<u64, Failure> {
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
                return Ok(id);
            }
        }
    }

    pub(super) fn node(&mut self, s: &State) -> Result<Foot, Failure> {
        let g = &self.set.graph;
        let r = &self.set.rules;
        if self.finished(s) {
            self.ended(s)?;
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
                            sub.add(&c.col, self.kept.number(&c.col));
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
        if code == WHOLE {
            let (regions, alive) = self.whole(s)?;
            // Every colouring with an owner stone there (and its alive
            // stones) counts as produced: no exact set holds that, so the
            // links above read the summary.
            let mut f = Foot::new();
            if self.owner == BLACK {
                f.seen.fam.0 = regions;
                f.seen.all.0 = alive;
            } else {
                f.seen.fam.1 = regions;
                f.seen.all.1 = alive;
            }
            f.made = Made(None);
            return Ok(f);
        }
        if code == LINK {
            let id = self.link_number()?;
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
            col: sets(&s.col),
            to_move: s.to_move,
            passes: s.passes,
            prisoners: s.prisoners,
            played: bits(&s.played),
            seen: Seen::NONE,
            refs: Box::new([]),
            first: turn,
        });
        self.kept.open(id);
        if id % 1024 == 1023 {
            (self.tick)(1024);
        }
        self.line.push(turn);
        let mut f = self.node(&c)?;
        self.line.pop();
        if self.all_sides || turn.is_some() {
            f.add(&c.col, self.kept.number(&c.col));
        }
        let f = f.before(here);
        self.nodes[id].seen = f.seen;
        self.kept.finish(id, &f.made);
        self.nodes[id].refs = f.refs.iter().map(|(_, e)| *e).collect();
        Ok(f)
    }

    /// Whether the points each side keeps at `s` decide the bound.
    pub(super) fn secure(&self, s: &State) -> Result<(), Failure> {
        let r = &self.set.rules;
        if !matches!(r.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) {
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
        // The owner's points, one point per enclosed region kept from the
        // opponent: its least margin (half points, its own side, no komi).
        let (k, regions) = plain_life::kept_and_enclosed(g, &s.col, self.owner, suicide);
        let margin = 2 * (2 * k as i32 - n + regions as i32);
        // Under basic ko a repetition is a tie, 0 whatever the komi, and
        // passing to the end may meet one.
        let tie = r.superko == Superko::None;
        let holds = if self.owner == BLACK {
            let lo = margin - komi;
            (if tie { lo.min(0) } else { lo }) >= self.bound
        } else {
            let hi = -margin - komi;
            (if tie { hi.max(0) } else { hi }) <= self.bound
        };
        if holds {
            Ok(())
        } else {
            Err(self.fail(format!(
                "a secure mark where the points each side keeps do not decide the bound {} (Black's side, half points or ±1)",
                self.bound
            )))
        }
    }

    /// The owner's enclosed regions and alive stones at `s`, as bit sets, where counting
    /// them whole for the owner decides the bound and no colouring before
    /// `s` had an owner stone in them (module doc, "Secure nodes").
    pub(super) fn whole(&self, s: &State) -> Result<(u64, u64), Failure> {
        let r = &self.set.rules;
        if !matches!(r.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) || r.superko == Superko::None {
            return Err(self.fail("a whole-region mark under rules that do not allow it".into()));
        }
        if s.alive.iter().any(|&a| a) {
            return Err(self.fail("a whole-region mark on a board with border stones".into()));
        }
        let g = &self.set.graph;
        let n = g.len() as i32;
        let suicide = r.suicide == Suicide::Allowed;
        let (k, regions, alive) = plain_life::kept_and_regions(g, &s.col, self.owner, suicide);
        if regions == 0 {
            return Err(self.fail("a whole-region mark where the owner encloses no region".into()));
        }
        let margin = 2 * (2 * (k as i32 + regions.count_ones() as i32) - n);
        let komi = self.set.komi_half;
        let holds = if self.owner == BLACK {
            margin - komi >= self.bound
        } else {
            -margin - komi <= self.bound
        };
        if !holds {
            return Err(self.fail(format!(
                "a whole-region mark where the points the owner keeps do not decide the bound {} (Black's side, half points or ±1)",
                self.bound
            )));
        }
        let here = s.past.index;
        let stones = |col: &[u8]| {
            let (b, w) = sets(col);
            if self.owner == BLACK { b } else { w }
        };
        if s.past
            .iter()
            .any(|p| p.index < here && stones(&p.col) & regions != 0)
        {
            return Err(self.fail(
                "a whole-region mark where an earlier colouring had an owner stone in the regions"
                    .into(),
            ));
        }
        Ok((regions, alive))
    }

    /// Whether a tie keeps the bound: under `--superko none` a repetition
    /// ends the game at 0 whatever the komi (module doc, "Transpositions").
    pub(super) fn tie_keeps(&self) -> bool {
        self.all_sides
            && if self.owner == BLACK {
                self.bound <= 0
            } else {
                self.bound >= 0
            }
    }

    /// The footprint of earlier node `id` if it may be reused at `s`.
    pub(super) fn link(&self, s: &State, id: usize) -> Result<Foot, Failure> {
        let Some(d) = self.nodes.get(id) else {
            return Err(self.fail(format!("a link to node {id}, which is not before it")));
        };
        if self.kept.is_open(id) {
            return Err(self.fail(format!("a link to node {id}, an ancestor of itself")));
        }
        // Prisoners and the points played change nothing where the rules
        // neither score nor spend the one nor forbid the other.
        let ruleset = self.set.rules.ruleset;
        if d.col != sets(&s.col)
            || d.to_move != s.to_move
            || d.passes != s.passes
            || (ruleset.prisoners_matter() && d.prisoners != s.prisoners)
            || (ruleset == Ruleset::Koh && d.played != bits(&s.played))
        {
            return Err(self.fail(format!("a link to node {id}, whose state is different")));
        }
        let here = s.past.index;
        let prefix = || s.past.iter().filter(move |p| p.index < here);
        let made = self.kept.made(id);
        if self.tie_keeps() {
            // Only the owner's first move can meet a ban from before the
            // node: basic ko against the colouring before the last turn.
            if s.play(&self.set.graph, &self.set.rules, d.first).is_err() {
                return Err(self.fail(format!(
                    "a link to node {id}, whose first move basic ko forbids here"
                )));
            }
        } else if match made.0 {
            // Numbers are looked up only where the exact set decides.
            Some(_) => prefix().any(|p| made.holds(self.kept.number_of(&p.col)) == Some(true)),
            None => prefix().any(|p| d.seen.may_hold(&p.col)),
        } {
            return Err(self.fail(format!(
                "a link to node {id}, whose moves may repeat an earlier state here"
            )));
        }
        let mut refs = Vec::new();
        for e in &d.refs {
            match prefix().find(|p| self.same(e, &p.col, p.to_move)) {
                Some(p) => refs.push((p.index, *e)),
                None => {
                    return Err(self.fail(format!(
                        "a link to node {id}, which relied on a state not in this history"
                    )));
                }
            }
        }
        Ok(Foot {
            seen: d.seen,
            made,
            refs,
        })
    }
}
