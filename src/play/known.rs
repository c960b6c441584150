//! What is known of a value, and where it came from: the words a probe,
//! an SGF export and a GTP analysis print for it.

use crate::engine::types::{Color, Move};

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// Nothing: no proof covers it and no search was run.
    Unknown,
    /// A search run now (with the proof's bounds, if any, as its start).
    Search,
    /// The result file's stored strategies (`gosolve verify` checks them).
    Proof,
    /// The game is over: the rules score it.
    Over,
}

/// What is known of a value: Black − White − komi in half points (normal
/// play: +1 Black wins, −1 White wins) lies in `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The least it can be.
    pub lo: i32,
    /// The most it can be.
    pub hi: i32,
    /// Where the bounds came from.
    pub source: Source,
}

impl Known {
    /// The value, if the bounds meet.
    pub fn exact(&self) -> Option<i32> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// The bounds from `side`'s point of view (for White, negated).
    pub fn for_side(&self, side: Color) -> (i32, i32) {
        match side {
            Color::Black => (self.lo, self.hi),
            Color::White => (-self.hi, -self.lo),
        }
    }

    /// For people ("exact from the proof", "proved bound", "searched
    /// now", ...) and for programs (one word: over, proof, bound,
    /// searched, stopped, unknown).
    fn words(&self) -> (&'static str, &'static str) {
        match (self.source, self.exact().is_some()) {
            (Source::Over, _) => ("game over", "over"),
            (Source::Proof, true) => ("exact from the proof", "proof"),
            (Source::Proof, false) => ("proved bound", "bound"),
            (Source::Search, true) => ("searched now", "searched"),
            (Source::Search, false) => ("search stopped: bound only", "stopped"),
            (Source::Unknown, _) => ("not in the proof", "unknown"),
        }
    }

    /// Where the value came from, for people: "exact from the proof", ...
    pub fn label(&self) -> &'static str {
        self.words().0
    }

    /// Where the value came from, as one word: over, proof, bound,
    /// searched, stopped, unknown.
    pub fn status(&self) -> &'static str {
        self.words().1
    }

    /// What the value means for `side`: win, draw, loss, win or draw, draw
    /// or loss, or unknown.
    pub fn category(&self, side: Color) -> &'static str {
        let (lo, hi) = self.for_side(side);
        if lo > 0 {
            "win"
        } else if hi < 0 {
            "loss"
        } else if lo == 0 && hi == 0 {
            "draw"
        } else if lo == 0 {
            "win or draw"
        } else if hi == 0 {
            "draw or loss"
        } else {
            "unknown"
        }
    }

    /// The value in words (`value_text`), or its bounds: `≥ +3`, `≤ -1`,
    /// `-4 .. +6`, `?` when `range` bounds it only.
    pub fn text(&self, scored: bool, range: i32) -> String {
        use crate::engine::rules::value_text;
        match self.exact() {
            Some(v) => value_text(scored, v),
            None if self.lo <= -range && self.hi >= range => "?".into(),
            None if self.hi >= range => format!("≥ {}", value_text(scored, self.lo)),
            None if self.lo <= -range => format!("≤ {}", value_text(scored, self.hi)),
            None => format!(
                "{} .. {}",
                value_text(scored, self.lo),
                value_text(scored, self.hi)
            ),
        }
    }
}

/// The order a player reads moves in: best for `side` first (by the
/// least it is sure of, then the most it may be), the pass before
/// placings, then points in order.
pub fn best_first(side: Color, moves: &mut [(Move, Known)]) {
    moves.sort_by_key(|(m, k)| {
        let (lo, hi) = k.for_side(side);
        (-lo, -hi, *m != Move::Pass, *m)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_and_words() {
        let k = |lo, hi| Known {
            lo,
            hi,
            source: Source::Proof,
        };
        assert_eq!(k(4, 4).category(Color::Black), "win");
        assert_eq!(k(4, 4).category(Color::White), "loss");
        assert_eq!(k(0, 0).category(Color::White), "draw");
        assert_eq!(k(0, 9).category(Color::Black), "win or draw");
        assert_eq!(k(0, 9).category(Color::White), "draw or loss");
        assert_eq!(k(-2, 9).category(Color::Black), "unknown");
        assert_eq!(k(4, 4).label(), "exact from the proof");
        assert_eq!(k(4, 9).label(), "proved bound");
        assert_eq!(k(4, 18).text(true, 18), "≥ +2");
        assert_eq!(k(-18, -3).text(true, 18), "≤ -1.5");
        assert_eq!(k(-18, 18).text(true, 18), "?");
        assert_eq!(k(-1, -1).text(false, 1), "White wins");
    }
}
