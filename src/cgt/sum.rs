//! A sum of Go regions and games in standard notation, as `gosolve cgt`
//! reads it — `eye:2 + dame + corridor:unblocked:5`, `dame + ^`,
//! `corridor:blocked:4 - eye:1` — with its value and a winning move.
//!
//! The text splits into terms at the `+` and `-` that join two terms
//! outside braces, brackets and parentheses. A term that starts (after an
//! optional `-`) with a word (`dame`, `eye:N`, `corridor:…`, `file:PATH`;
//! `v` is the down arrow) or `[` is a region (see [`super::region`]); any
//! other is a game in standard notation. A `file:` path runs to the next
//! space.

use super::ParseError;
use super::game::Game;
use super::koh::{Counting, Values};
use super::notation;
use super::region::Region;
use crate::engine::types::Color;

/// One term of a sum.
pub enum Part {
    /// A Go region, with the memo of its states.
    Region(Box<Values>),
    /// A game given in standard notation.
    Game,
}

/// A term: its text as written, what it is, and its value.
pub struct Term {
    /// The term as written (with its sign).
    pub text: String,
    /// A region or a game.
    pub part: Part,
    /// Its value.
    pub value: Game,
}

/// A move that wins the sum for the player making it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Winning {
    /// The index of the term played in.
    pub term: usize,
    /// The point (a region's coordinates) or the option taken (a game's,
    /// in ASCII notation).
    pub play: String,
    /// The value of the whole sum after the move.
    pub after: Game,
}

/// A sum of terms.
pub struct Sum {
    /// The terms in the order written.
    pub terms: Vec<Term>,
}

/// Whether a term is a region: a diagram, or a word (standard notation
/// has none but the down arrows `v`, `vv`).
fn is_region(term: &str) -> bool {
    let core = term.trim_start_matches(['-', '−', ' ']);
    let word: String = core
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    core.starts_with('[') || word.chars().any(|c| c != 'v')
}

/// Splits `text` into its top-level terms, each with whether a joining
/// minus negates it.
fn split(text: &str) -> Result<Vec<(bool, String)>, String> {
    let mut terms = Vec::new();
    let (mut cur, mut minus) = (String::new(), false);
    let mut depth = 0i32;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let body = cur.trim_start_matches(['-', '−', ' ']);
        if depth == 0 && body.is_empty() && text[i..].starts_with("file:") {
            // A path may hold any sign: `file:` takes all up to a space.
            cur.push(c);
            while let Some(&(_, d)) = chars.peek() {
                if d.is_whitespace() {
                    break;
                }
                cur.push(d);
                chars.next();
            }
            continue;
        }
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return Err(format!("'{text}': unbalanced '{c}'"));
        }
        let last = cur.trim_end().chars().last();
        let joins = depth == 0
            && matches!(c, '+' | '-' | '−')
            && last.is_some_and(|l| !matches!(l, '+' | '-' | '−' | '±'));
        if joins {
            terms.push((minus, std::mem::take(&mut cur)));
            minus = c != '+';
        } else {
            cur.push(c);
        }
    }
    terms.push((minus, cur));
    let terms: Vec<(bool, String)> = terms
        .into_iter()
        .map(|(m, t)| (m, t.trim().to_string()))
        .collect();
    if terms.iter().any(|(_, t)| t.is_empty() || t == "-") {
        return Err(format!("'{text}': a term is missing"));
    }
    Ok(terms)
}

impl Sum {
    /// Reads a sum; regions count captures as `counting` says.
    pub fn parse(text: &str, counting: Counting) -> Result<Sum, ParseError> {
        let mut terms = Vec::new();
        for (minus, body) in split(text).map_err(ParseError)? {
            let text = if minus {
                format!("-{body}")
            } else {
                body.clone()
            };
            let term = if is_region(&body) {
                let mut region = Region::parse(&body).map_err(|e| ParseError(e.to_string()))?;
                if minus {
                    region = region.swapped();
                }
                let mut values = Values::new(region, counting);
                let value = values.value();
                Term {
                    text,
                    part: Part::Region(Box::new(values)),
                    value,
                }
            } else {
                // A joining minus negates the whole term: "a - 1^" is
                // a − (1 + ↑), not a + (−1) + ↑.
                let g = notation::parse(&body)?;
                Term {
                    text,
                    part: Part::Game,
                    value: if minus { -g } else { g },
                }
            };
            terms.push(term);
        }
        Ok(Sum { terms })
    }

    /// The value of the sum.
    pub fn value(&self) -> Game {
        self.terms.iter().map(|t| t.value).sum()
    }

    /// A move for `colour` (Black = Left) after which `colour` wins with
    /// the opponent to move, if there is one: of the winning moves, the
    /// first (by term, then point or option) that no other one beats.
    pub fn winning_move(&mut self, colour: Color) -> Option<Winning> {
        let total = self.value();
        // `better(a, b)`: a is strictly better than b for `colour`.
        let better = |a: Game, b: Game| match colour {
            Color::Black => a > b,
            Color::White => a < b,
        };
        let wins = |after: Game| match colour {
            Color::Black => after >= Game::zero(),
            Color::White => after <= Game::zero(),
        };
        let mut winning = Vec::new();
        for (i, term) in self.terms.iter_mut().enumerate() {
            let rest = total - term.value;
            let options: Vec<(String, Game)> = match &mut term.part {
                Part::Region(values) => values
                    .plays(colour)
                    .into_iter()
                    .map(|p| (values.region().point_name(p.point), p.after))
                    .collect(),
                Part::Game => {
                    let opts = match colour {
                        Color::Black => term.value.left(),
                        Color::White => term.value.right(),
                    };
                    opts.into_iter().map(|o| (format!("{o:#}"), o)).collect()
                }
            };
            for (play, after) in options {
                let after = rest + after;
                if wins(after) {
                    winning.push(Winning {
                        term: i,
                        play,
                        after,
                    });
                }
            }
        }
        let best = (0..winning.len())
            .find(|&i| !winning.iter().any(|o| better(o.after, winning[i].after)))?;
        Some(winning.swap_remove(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(text: &str) -> Sum {
        Sum::parse(text, Counting::Territory).unwrap()
    }

    #[test]
    fn values_and_winning_moves() {
        let mut s = sum("eye:1 + -eye:1 + dame");
        assert_eq!(s.value(), Game::star());
        // Only the dame wins, for either side.
        for colour in [Color::Black, Color::White] {
            let w = s.winning_move(colour).unwrap();
            assert_eq!((w.term, w.play.as_str(), w.after), (2, "B2", Game::zero()));
        }
        let mut s = sum("1^ - 1^");
        assert_eq!(s.value(), Game::zero());
        assert_eq!(s.winning_move(Color::Black), None);
        let mut s = sum("{1|0} + -1/2");
        let w = s.winning_move(Color::Black).unwrap();
        assert_eq!((w.term, w.play.as_str()), (0, "1"));
        assert_eq!(s.winning_move(Color::White).unwrap().play, "0");
    }

    #[test]
    fn splits_at_joining_signs_only() {
        let s = |t: &str| -> Vec<String> {
            split(t)
                .unwrap()
                .into_iter()
                .map(|(m, b)| if m { format!("minus {b}") } else { b })
                .collect()
        };
        assert_eq!(s("eye:2 + dame"), ["eye:2", "dame"]);
        assert_eq!(s("-2+v"), ["-2", "v"]);
        assert_eq!(s("{1|-1} - [B.W]"), ["{1|-1}", "minus [B.W]"]);
        assert_eq!(s("+-1 + 3"), ["+-1", "3"]);
        assert_eq!(s("1 + -1"), ["1", "-1"]);
        assert_eq!(s("1^ − 1^"), ["1^", "minus 1^"]);
        assert_eq!(s("file:a-b+c.txt + ^"), ["file:a-b+c.txt", "^"]);
        assert_eq!(s("2 - -file:x-y"), ["2", "minus -file:x-y"]);
        assert!(split("eye:2 + ").is_err());
        assert!(split("1}").is_err());
    }
}
