//! The guide table against an independent brute force: every state
//! (colouring, mover, pass pending) of every legal colouring of a small
//! board as an explicit graph, its least and greatest fixed points by plain
//! Jacobi iteration in Black's terms from −R and +R.

use gosolve::engine::board::Board;
use gosolve::engine::game::from_ternary;
use gosolve::engine::position::Position;
use gosolve::engine::rules::{Komi, Rules, Ruleset, Suicide, Superko};
use gosolve::engine::types::{Color, PointSet};
use gosolve::search::bounds::value_range;
use gosolve::search::guide::Guide;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    pos: Position,
    mover: Color,
    passed: bool,
}

enum Edge {
    End(i32),
    To(usize),
}

fn legal_colourings(board: &Board) -> Vec<Position> {
    let n = board.len();
    (0..3u64.pow(n as u32))
        .map(|c| from_ternary(c, n))
        .filter(|p| p.is_legal(board, PointSet::EMPTY))
        .collect()
}

/// Every state with its least and greatest fixed point, Black's terms.
fn brute(board: &Board, rules: &Rules) -> Vec<(State, i32, i32)> {
    let mut states = Vec::new();
    for pos in legal_colourings(board) {
        for mover in [Color::Black, Color::White] {
            for passed in [false, true] {
                states.push(State { pos, mover, passed });
            }
        }
    }
    let index: HashMap<State, usize> = states.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let score = |pos: Position| {
        let (b, w) = pos.area(board);
        2 * (b as i32 - w as i32) - rules.komi.0
    };
    let succ: Vec<Vec<Edge>> = states
        .iter()
        .map(|s| {
            let mut out = vec![if s.passed {
                Edge::End(score(s.pos))
            } else {
                Edge::To(
                    index[&State {
                        pos: s.pos,
                        mover: s.mover.opp(),
                        passed: true,
                    }],
                )
            }];
            for p in 0..board.len() as u8 {
                if s.pos.at(p).is_some() {
                    continue;
                }
                let placed = s.pos.place(board, p, s.mover, PointSet::EMPTY);
                if placed.suicided > 0 && rules.suicide == Suicide::Forbidden {
                    continue;
                }
                if placed.position == s.pos {
                    continue;
                }
                out.push(Edge::To(
                    index[&State {
                        pos: placed.position,
                        mover: s.mover.opp(),
                        passed: false,
                    }],
                ));
            }
            out
        })
        .collect();
    let r = value_range(board.len(), rules);
    let fixpoint = |start: i32| {
        let mut v = vec![start; states.len()];
        loop {
            let next: Vec<i32> = states
                .iter()
                .zip(&succ)
                .map(|(s, edges)| {
                    let vals = edges.iter().map(|e| match *e {
                        Edge::End(x) => x,
                        Edge::To(j) => v[j],
                    });
                    match s.mover {
                        Color::Black => vals.max().unwrap(),
                        Color::White => vals.min().unwrap(),
                    }
                })
                .collect();
            if next == v {
                return v;
            }
            v = next;
        }
    };
    let (lo, hi) = (fixpoint(-r), fixpoint(r));
    states
        .into_iter()
        .enumerate()
        .map(|(i, s)| (s, lo[i], hi[i]))
        .collect()
}

fn rules(ruleset: Ruleset, suicide: Suicide, komi: i32) -> Rules {
    Rules {
        suicide,
        komi: Komi(komi),
        ..Rules::new(ruleset)
    }
}

#[test]
fn guide_matches_brute_force() {
    let configs = [
        rules(Ruleset::TrompTaylor, Suicide::Allowed, 0),
        rules(Ruleset::TrompTaylor, Suicide::Forbidden, 0),
        rules(Ruleset::TrompTaylor, Suicide::Allowed, -5),
        rules(Ruleset::TrompTaylor, Suicide::Forbidden, 3),
        Rules {
            superko: Superko::Situational,
            ..rules(Ruleset::Ggg, Suicide::Allowed, 14)
        },
    ];
    let mut open = 0;
    for spec in [
        "1x3", "1x4", "1x5", "1x6", "2x2", "2x3", "cycle:4", "petersen",
    ] {
        let board = Board::parse(spec).unwrap();
        for rules in &configs {
            if spec == "petersen" && rules.komi.0 != 0 {
                continue;
            }
            let guide = Guide::build(&board, rules).unwrap();
            for (s, lo, hi) in brute(&board, rules) {
                let want = match s.mover {
                    Color::Black => (lo, hi),
                    Color::White => (-hi, -lo),
                };
                let got = guide.range(s.pos, s.mover, s.passed as u8);
                assert_eq!(got, want, "{spec} {} {s:?}", rules.describe());
                open += (lo < hi) as usize;
            }
        }
    }
    // The brute force must see cycles matter somewhere, or lo/hi is untested.
    assert!(open > 0);
}

#[test]
fn guide_lo_at_most_hi() {
    for spec in ["2x4", "1x8"] {
        let board = Board::parse(spec).unwrap();
        for suicide in [Suicide::Allowed, Suicide::Forbidden] {
            let guide = Guide::build(&board, &rules(Ruleset::TrompTaylor, suicide, 0)).unwrap();
            for pos in legal_colourings(&board) {
                for mover in [Color::Black, Color::White] {
                    for passes in 0..2 {
                        let (lo, hi) = guide.range(pos, mover, passes);
                        assert!(lo <= hi, "{spec} {pos:?} {mover} {passes}: {lo} > {hi}");
                    }
                }
            }
        }
    }
}
