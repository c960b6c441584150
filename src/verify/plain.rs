//! A second, deliberately plain implementation of the rules, shared by the
//! independent checker ([`crate::verify`]) and the test suite's reference
//! solver. A colouring is a `Vec` of cells, groups are found by recursive
//! search, and every rule is written straight from `RULES.md`. It shares no
//! code with the bitboard engine (`position`, `game`): only the rules' names
//! (plain data) and the graph's edge list come from outside.

use crate::engine::rules::{Ruleset, Suicide, Superko};
use std::rc::Rc;

/// An empty point.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;

/// The other colour.
pub fn opp(c: u8) -> u8 {
    3 - c
}

/// A graph as adjacency lists.
#[derive(Clone, Debug)]
pub struct Graph {
    /// Each point's neighbours.
    pub adj: Vec<Vec<usize>>,
}

impl Graph {
    /// The graph on `n` points with these edges.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Graph {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            if !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        Graph { adj }
    }

    /// The rows × cols grid, built here by its own formula.
    pub fn grid(rows: usize, cols: usize) -> Graph {
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    edges.push((r * cols + c, r * cols + c + 1));
                }
                if r + 1 < rows {
                    edges.push((r * cols + c, (r + 1) * cols + c));
                }
            }
        }
        Graph::from_edges(rows * cols, &edges)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.adj.len()
    }

    /// Whether the graph has no points.
    pub fn is_empty(&self) -> bool {
        self.adj.is_empty()
    }

    /// The group of `v`: recursive search through same-coloured neighbours.
    pub fn group(&self, col: &[u8], v: usize) -> Vec<usize> {
        fn visit(g: &Graph, col: &[u8], v: usize, seen: &mut Vec<bool>, out: &mut Vec<usize>) {
            if seen[v] {
                return;
            }
            seen[v] = true;
            out.push(v);
            for &w in &g.adj[v] {
                if col[w] == col[v] {
                    visit(g, col, w, seen, out);
                }
            }
        }
        let mut seen = vec![false; self.len()];
        let mut out = Vec::new();
        visit(self, col, v, &mut seen, &mut out);
        out
    }

    /// `reaches(col, v, c)`: v's group has a point with a neighbour of
    /// colour c (or v itself has colour c).
    pub fn reaches(&self, col: &[u8], v: usize, c: u8) -> bool {
        col[v] == c
            || self
                .group(col, v)
                .iter()
                .any(|&u| self.adj[u].iter().any(|&w| col[w] == c))
    }

    /// Clears colour c, except points in `alive` groups; returns how many stones went.
    pub fn clear(&self, col: &mut [u8], c: u8, alive: &[bool]) -> u32 {
        let snapshot = col.to_vec();
        let mut removed = 0;
        for v in 0..self.len() {
            if snapshot[v] == c && !self.reaches(&snapshot, v, EMPTY) {
                let protected = self.group(&snapshot, v).iter().any(|&u| alive[u]);
                if !protected {
                    col[v] = EMPTY;
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Places c on v: (new colouring, opponent stones removed, own stones removed).
    pub fn place(&self, col: &[u8], v: usize, c: u8, alive: &[bool]) -> (Vec<u8>, u32, u32) {
        let mut b = col.to_vec();
        b[v] = c;
        let captured = self.clear(&mut b, opp(c), alive);
        let suicided = self.clear(&mut b, c, alive);
        (b, captured, suicided)
    }

    /// Every stone's group reaches an empty point.
    pub fn is_legal(&self, col: &[u8]) -> bool {
        (0..self.len()).all(|v| col[v] == EMPTY || self.reaches(col, v, EMPTY))
    }

    /// Area score of c.
    pub fn area(&self, col: &[u8], c: u8) -> u32 {
        (0..self.len())
            .filter(|&v| {
                col[v] == c
                    || (col[v] == EMPTY && self.reaches(col, v, c) && !self.reaches(col, v, opp(c)))
            })
            .count() as u32
    }

    /// Every colouring in base-3 order.
    pub fn all_colourings(&self) -> Vec<Vec<u8>> {
        let n = self.len();
        (0..3u64.pow(n as u32))
            .map(|mut code| {
                (0..n)
                    .map(|_| {
                        let d = (code % 3) as u8;
                        code /= 3;
                        d
                    })
                    .collect()
            })
            .collect()
    }
}

/// A turn: `None` is a pass.
pub type Turn = Option<usize>;

/// The rules the plain code needs.
#[derive(Clone, Copy, Debug)]
pub struct PlainRules {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Which repetitions are forbidden.
    pub superko: Superko,
    /// Whether suicide is allowed.
    pub suicide: Suicide,
}

impl PlainRules {
    /// The plain view of the engine's settled rules.
    pub fn of(r: &crate::engine::rules::Rules) -> PlainRules {
        PlainRules {
            ruleset: r.ruleset,
            superko: r.superko,
            suicide: r.suicide,
        }
    }
}

/// One recorded state of the history: a linked list, newest first, so a
/// state is cheap to copy.
#[derive(Debug)]
pub struct Past {
    /// The colouring.
    pub col: Vec<u8>,
    /// The player to move in it.
    pub to_move: u8,
    /// Its index in the history (0 = the start).
    pub index: usize,
    /// The state recorded before it.
    pub prev: Option<Rc<Past>>,
}

impl Past {
    /// This entry and every earlier one, newest first.
    pub fn iter(self: &Rc<Past>) -> impl Iterator<Item = &Past> {
        std::iter::successors(Some(&**self), |p| p.prev.as_deref())
    }
}

/// Why a turn is not legal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// This ruleset forbids the pass now (no passes, or no prisoner to give back).
    NoPass,
    /// The point is not empty, or (`koh`) has been played.
    Occupied,
    /// The placing would remove the mover's own stones.
    Suicide,
    /// The placing recreates the recorded state with this history index.
    Repeats(usize),
}

/// The plain game state.
#[derive(Clone, Debug)]
pub struct State {
    /// The colouring.
    pub col: Vec<u8>,
    /// The player to move.
    pub to_move: u8,
    /// Consecutive passes that ended in this state.
    pub passes: u32,
    /// `prisoners[0]` held by Black, `[1]` by White.
    pub prisoners: [u32; 2],
    /// Points that have held a stone (`koh`).
    pub played: Vec<bool>,
    /// Border stones that are never captured (`koh`).
    pub alive: Vec<bool>,
    /// The recorded states, newest first; the newest is the current one.
    pub past: Rc<Past>,
    /// Under `--superko none`: the last turn repeated a state, a tie.
    pub repeated: Option<usize>,
}

impl State {
    /// The empty board of `n` points, Black to move.
    pub fn empty(n: usize) -> State {
        State::start(vec![EMPTY; n], BLACK, vec![false; n])
    }

    /// A start position.
    pub fn start(col: Vec<u8>, to_move: u8, alive: Vec<bool>) -> State {
        State {
            played: col.iter().map(|&c| c != EMPTY).collect(),
            past: Rc::new(Past {
                col: col.clone(),
                to_move,
                index: 0,
                prev: None,
            }),
            col,
            to_move,
            passes: 0,
            prisoners: [0, 0],
            alive,
            repeated: None,
        }
    }

    fn record(&mut self) {
        self.past = Rc::new(Past {
            col: self.col.clone(),
            to_move: self.to_move,
            index: self.past.index + 1,
            prev: Some(self.past.clone()),
        });
    }

    /// The earlier entry equal to (col, to_move) (`to_move` ignored under
    /// positional superko), newest first.
    fn find(&self, r: &PlainRules, col: &[u8], to_move: u8) -> Option<usize> {
        self.past
            .iter()
            .find(|p| p.col == col && (r.superko == Superko::Positional || p.to_move == to_move))
            .map(|p| p.index)
    }

    /// The game ended by two passes or a repetition.
    pub fn over_by_rule(&self) -> bool {
        self.repeated.is_some() || self.passes >= 2
    }

    /// The state after `turn`, or why it is not legal.
    pub fn play(&self, g: &Graph, r: &PlainRules, turn: Turn) -> Result<State, Refusal> {
        if self.over_by_rule() {
            return Err(Refusal::Over);
        }
        let me = (self.to_move - 1) as usize;
        let next = opp(self.to_move);
        let koh = r.ruleset == Ruleset::Koh;
        let Some(v) = turn else {
            let mut s = self.clone();
            s.to_move = next;
            match r.ruleset {
                Ruleset::Conway => return Err(Refusal::NoPass),
                Ruleset::ConwayReplacement | Ruleset::Koh => {
                    // A pass gives back a prisoner and never enters the history.
                    if self.prisoners[me] == 0 {
                        return Err(Refusal::NoPass);
                    }
                    s.prisoners[me] -= 1;
                }
                _ => {
                    s.passes += 1;
                    // Passes enter the history of states only under situational / none.
                    if r.superko != Superko::Positional {
                        // The second pass ends the game and is scored: the
                        // state before the first pass always recurs then.
                        if r.superko == Superko::None && s.passes < 2 {
                            s.repeated = self.find(r, &s.col, next);
                        }
                        s.record();
                    }
                }
            }
            return Ok(s);
        };
        if self.col[v] != EMPTY || (koh && self.played[v]) {
            return Err(Refusal::Occupied);
        }
        let (col, captured, suicided) = g.place(&self.col, v, self.to_move, &self.alive);
        if suicided > 0 && (r.suicide == Suicide::Forbidden || koh) {
            return Err(Refusal::Suicide);
        }
        if !koh {
            match r.superko {
                Superko::Positional | Superko::Situational => {
                    if let Some(i) = self.find(r, &col, next) {
                        return Err(Refusal::Repeats(i));
                    }
                }
                Superko::None => {
                    // Basic ko: not the colouring before the opponent's last turn.
                    if let Some(before) = self.past.prev.as_ref() {
                        if before.col == col {
                            return Err(Refusal::Repeats(before.index));
                        }
                    }
                }
            }
        }
        let mut s = self.clone();
        if r.superko == Superko::None && !koh {
            s.repeated = self.find(r, &col, next);
        }
        s.col = col;
        s.to_move = next;
        s.passes = 0;
        s.played[v] = true;
        s.prisoners[me] += captured;
        s.prisoners[1 - me] += suicided;
        if !koh {
            s.record();
        }
        Ok(s)
    }

    /// Every turn in the plain order: pass, then the points in index order.
    pub fn turns(&self) -> impl Iterator<Item = Turn> + use<> {
        std::iter::once(None).chain((0..self.col.len()).map(Some))
    }

    /// Every legal turn and the state it leads to, pass first.
    pub fn children(&self, g: &Graph, r: &PlainRules) -> Vec<(Turn, State)> {
        self.turns()
            .filter_map(|t| self.play(g, r, t).ok().map(|s| (t, s)))
            .collect()
    }

    /// Black − White − komi in half points, or the winner (1 Black, 2 White)
    /// as `Err`. Only meaningful once no turn is legal.
    pub fn result(&self, g: &Graph, r: &PlainRules, komi_half: i32) -> Result<i32, u8> {
        if self.repeated.is_some() {
            return Ok(0);
        }
        match r.ruleset {
            Ruleset::Conway | Ruleset::ConwayReplacement | Ruleset::Koh => Err(opp(self.to_move)),
            _ => {
                let (mut b, mut w) = (g.area(&self.col, BLACK), g.area(&self.col, WHITE));
                if r.ruleset == Ruleset::Logical {
                    b += self.prisoners[0];
                    w += self.prisoners[1];
                }
                Ok(2 * (b as i32 - w as i32) - komi_half)
            }
        }
    }
}
