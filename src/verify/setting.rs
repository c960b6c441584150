//! The checker's own view of a result file's board and rules, read from
//! the file's plain fields with the checker's own code.

use crate::engine::rules::{Ruleset, Suicide, Superko};
use crate::format::gsr::{ResultFile, RulesInfo};
use crate::verify::plain::{BLACK, EMPTY, Graph, PlainRules, State, WHITE};
use crate::verify::{Failure, fail};

/// The rules and graph of a file, read by the checker itself.
pub struct Setting {
    pub(super) graph: Graph,
    pub(super) rules: PlainRules,
    pub(super) komi_half: i32,
    pub(super) start: State,
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

pub(super) fn is_automorphism(g: &Graph, perm: &[u8]) -> bool {
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
pub(super) fn extremes(set: &Setting) -> Option<(i32, i32)> {
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
