//! An independent, deliberately plain implementation of the rules: a
//! colouring is a `Vec` of cells, groups are found by recursive search, and
//! every rule is written straight from `RULES.md`. It shares no code with the
//! engine except the rules' names (plain data) and the graph's edge list.
#![allow(dead_code)]

use gosolve::rules::{Ruleset, Suicide, Superko};

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

pub fn opp(c: u8) -> u8 {
    3 - c
}

/// A graph as adjacency lists.
#[derive(Clone, Debug)]
pub struct Graph {
    pub adj: Vec<Vec<usize>>,
}

impl Graph {
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Graph {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a].push(b);
            adj[b].push(a);
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

    pub fn len(&self) -> usize {
        self.adj.len()
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

    /// reaches(col, v, c): v's group has a point with a neighbour of colour c
    /// (or v itself has colour c).
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

/// The naive game state.
#[derive(Clone, Debug)]
pub struct State {
    pub col: Vec<u8>,
    pub to_move: u8,
    pub passes: u32,
    /// prisoners[0] held by Black, [1] by White.
    pub prisoners: [u32; 2],
    pub played: Vec<bool>,
    pub alive: Vec<bool>,
    /// Every state so far: (colouring, player to move, whether a placing made it).
    pub past: Vec<(Vec<u8>, u8)>,
    pub repeated: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct NaiveRules {
    pub ruleset: Ruleset,
    pub superko: Superko,
    pub suicide: Suicide,
}

impl NaiveRules {
    /// The naive view of the engine's settled rules.
    pub fn of(r: &gosolve::rules::Rules) -> NaiveRules {
        NaiveRules {
            ruleset: r.ruleset,
            superko: r.superko,
            suicide: r.suicide,
        }
    }
}

impl State {
    /// The empty board of `n` points, Black to move.
    pub fn empty(n: usize) -> State {
        State::start(vec![EMPTY; n], BLACK, vec![false; n])
    }

    pub fn start(col: Vec<u8>, to_move: u8, alive: Vec<bool>) -> State {
        State {
            played: col.iter().map(|&c| c != EMPTY).collect(),
            past: vec![(col.clone(), to_move)],
            col,
            to_move,
            passes: 0,
            prisoners: [0, 0],
            alive,
            repeated: false,
        }
    }

    fn can_pass(&self, r: &NaiveRules) -> bool {
        match r.ruleset {
            Ruleset::Conway => false,
            Ruleset::ConwayReplacement | Ruleset::Koh => {
                self.prisoners[(self.to_move - 1) as usize] > 0
            }
            _ => true,
        }
    }

    pub fn over_by_rule(&self) -> bool {
        self.repeated || self.passes >= 2
    }

    /// Every legal turn and the state it leads to, pass first.
    pub fn children(&self, g: &Graph, r: &NaiveRules) -> Vec<(Turn, State)> {
        let mut out = Vec::new();
        if self.over_by_rule() {
            return out;
        }
        let me = (self.to_move - 1) as usize;
        let free_pass = !matches!(r.ruleset, Ruleset::ConwayReplacement | Ruleset::Koh);
        if self.can_pass(r) {
            let mut s = self.clone();
            s.to_move = opp(self.to_move);
            if free_pass {
                s.passes += 1;
                // Passes enter the history of states only under situational / none.
                if r.superko != Superko::Positional {
                    s.repeated =
                        r.superko == Superko::None && s.past.contains(&(s.col.clone(), s.to_move));
                    s.past.push((s.col.clone(), s.to_move));
                }
            } else {
                s.prisoners[me] -= 1;
            }
            out.push((None, s));
        }
        for v in 0..g.len() {
            if self.col[v] != EMPTY || (r.ruleset == Ruleset::Koh && self.played[v]) {
                continue;
            }
            let (col, captured, suicided) = g.place(&self.col, v, self.to_move, &self.alive);
            if suicided > 0 && r.suicide == Suicide::Forbidden {
                continue;
            }
            let next = opp(self.to_move);
            if r.ruleset != Ruleset::Koh {
                let illegal = match r.superko {
                    Superko::Positional => self.past.iter().any(|(c, _)| *c == col),
                    Superko::Situational => self.past.iter().any(|(c, p)| *c == col && *p == next),
                    Superko::None => {
                        self.past.len() >= 2 && self.past[self.past.len() - 2].0 == col
                    }
                };
                if illegal {
                    continue;
                }
            }
            let mut s = self.clone();
            s.repeated = r.superko == Superko::None
                && r.ruleset != Ruleset::Koh
                && s.past.contains(&(col.clone(), next));
            s.col = col;
            s.to_move = next;
            s.passes = 0;
            s.played[v] = true;
            s.prisoners[me] += captured;
            s.prisoners[1 - me] += suicided;
            if r.ruleset != Ruleset::Koh {
                s.past.push((s.col.clone(), next));
            }
            out.push((Some(v), s));
        }
        out
    }

    /// Black − White − komi in half points, or the winner (1 Black, 2 White) as `Err`.
    pub fn result(&self, g: &Graph, r: &NaiveRules, komi_half: i32) -> Result<i32, u8> {
        if self.repeated {
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

/// Nodes per depth of the naive game tree (`nodes[0] = 1`).
pub fn perft(g: &Graph, r: &NaiveRules, s: &State, depth: usize) -> Vec<u128> {
    fn walk(g: &Graph, r: &NaiveRules, s: &State, d: usize, nodes: &mut Vec<u128>) {
        nodes[d] += 1;
        if d + 1 < nodes.len() {
            for (_, c) in s.children(g, r) {
                walk(g, r, &c, d + 1, nodes);
            }
        }
    }
    let mut nodes = vec![0; depth + 1];
    walk(g, r, s, 0, &mut nodes);
    nodes
}

/// Complete games from `s`.
pub fn games(g: &Graph, r: &NaiveRules, s: &State) -> u128 {
    let kids = s.children(g, r);
    if kids.is_empty() {
        1
    } else {
        kids.iter().map(|(_, c)| games(g, r, c)).sum()
    }
}

/// Plain alpha-beta over the full history (no table, no symmetry, pass
/// first): the value from Black's side, in half points for scored rulesets
/// (Black − White − komi), ±1 for normal play.
pub fn value(
    g: &Graph,
    r: &NaiveRules,
    s: &State,
    komi_half: i32,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    let kids = s.children(g, r);
    if kids.is_empty() {
        return match s.result(g, r, komi_half) {
            Ok(v) => v,
            Err(winner) => {
                if winner == BLACK {
                    1
                } else {
                    -1
                }
            }
        };
    }
    // Black raises alpha, White lowers beta.
    let black = s.to_move == BLACK;
    let mut best = if black { i32::MIN } else { i32::MAX };
    for (_, c) in &kids {
        let v = value(g, r, c, komi_half, alpha, beta);
        if black {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Every legal first move with its exact value (Black's side).
pub fn root_values(g: &Graph, r: &NaiveRules, s: &State, komi_half: i32) -> Vec<(Turn, i32)> {
    s.children(g, r)
        .into_iter()
        .map(|(t, c)| (t, value(g, r, &c, komi_half, i32::MIN, i32::MAX)))
        .collect()
}
