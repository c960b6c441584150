//! The analysis commands: `lz-analyze` and `kata-analyze` lines, and
//! GoGui's analyze commands, from the exact values.

use super::{Engine, Reply};
use crate::engine::types::{Color, Move};
use crate::play::known::Known;

impl Engine {
    /// The mover's win rate in 0..=1 from what is known: a win 1, a draw
    /// 0.5, a loss 0; a bound only, the middle of what it allows.
    fn winrate(k: &Known, mover: Color) -> f64 {
        let (lo, hi) = k.for_side(mover);
        let rate = |v: i32| match v.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        (rate(lo) + rate(hi)) / 2.0
    }

    /// One round of analysis in Leela Zero's (`lz-analyze`: win rate in
    /// 0..=10000) or KataGo's (`kata-analyze`: 0..=1 and the score lead)
    /// form; "visits" rank the moves, best highest, for GUIs that size
    /// their marks by them.
    pub(super) fn analyze(&self, kata: bool, args: &[&str]) -> Reply {
        if let Some(c) = args.first().and_then(|a| self.color(a)) {
            if let Err(r) = self.check_turn(c) {
                return r;
            }
        }
        let p = match self.probe(true) {
            Ok(p) => p,
            Err(r) => return r,
        };
        let board = self.board();
        let n = p.moves.len();
        let mut infos = Vec::new();
        for (order, r) in p.moves.iter().enumerate() {
            let rate = Engine::winrate(&r.known, p.to_move);
            let (lo, hi) = r.known.for_side(p.to_move);
            // A score lead only where the rules score and the value is
            // known: under normal play ±1 is a win, not half a point.
            let lead = match (self.scored(), r.known.exact()) {
                (true, Some(_)) => format!(" scoreMean {0} scoreLead {0}", (lo + hi) as f64 / 4.0),
                _ => String::new(),
            };
            let utility = 2.0 * rate - 1.0;
            let pv: Vec<String> = r.pv.iter().map(|&m| board.move_name(m)).collect();
            let visits = n - order;
            let mv = board.move_name(r.mv);
            infos.push(if kata {
                format!(
                    "info move {mv} visits {visits} utility {utility} winrate {rate}{lead} prior 0 order {order} pv {}",
                    pv.join(" ")
                )
            } else {
                format!(
                    "info move {mv} visits {visits} winrate {} prior 0 order {order} pv {}",
                    (rate * 10000.0).round(),
                    pv.join(" ")
                )
            });
        }
        Reply::ok(format!("\n{}", infos.join(" ")))
    }

    /// GoGui `gfx`: every legal point labelled with its value, and the position's value as text.
    pub(super) fn values(&self) -> Reply {
        let p = match self.probe(false) {
            Ok(p) => p,
            Err(r) => return r,
        };
        let (board, scored, range) = (self.board(), self.scored(), self.oracle.range());
        let labels: Vec<String> = p
            .moves
            .iter()
            .filter(|r| r.mv != Move::Pass)
            .map(|r| {
                let t = r.known.text(scored, range).replace(' ', "");
                let t = if scored {
                    t
                } else {
                    r.known.category(p.to_move).replace(' ', "-")
                };
                format!("{} {t}", board.move_name(r.mv))
            })
            .collect();
        let pass = p.moves.iter().find(|r| r.mv == Move::Pass);
        let mut text = format!(
            "LABEL {}\nTEXT value {} ({})",
            labels.join(" "),
            p.known.text(scored, range),
            p.known.label()
        );
        if let Some(r) = pass {
            text += &format!("; pass {}", r.known.text(scored, range));
        }
        Reply::ok(text)
    }

    pub(super) fn value_text(&self) -> Reply {
        match self.probe(false) {
            Ok(p) => Reply::ok(format!(
                "{} ({})",
                p.known.text(self.scored(), self.oracle.range()),
                p.known.label()
            )),
            Err(r) => r,
        }
    }

    /// The probe as lines of text: each move, its value, where it came from, its PV.
    pub(super) fn probe_text(&self) -> Reply {
        let p = match self.probe(true) {
            Ok(p) => p,
            Err(r) => return r,
        };
        let board = self.board();
        let (scored, range) = (self.scored(), self.oracle.range());
        let mut lines = vec![format!(
            "{} to move: {} ({})",
            p.to_move.name(),
            p.known.text(scored, range),
            p.known.label()
        )];
        for r in &p.moves {
            let pv: Vec<String> = r.pv.iter().map(|&m| board.move_name(m)).collect();
            lines.push(format!(
                "{} {} ({}) pv {}",
                board.move_name(r.mv),
                r.known.text(scored, range),
                r.known.label(),
                pv.join(" ")
            ));
        }
        Reply::ok(format!("\n{}", lines.join("\n")))
    }
}
