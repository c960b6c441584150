//! Standard notation in and out: `{2|{1|*}}`, `3/4`, `-1/2`, `*`, `*2`,
//! `^` / `↑`, `v` / `↓`, `^^*` / `⇑*`, `±1` / `+-1`, `{1|}`, `{|}` = 0, and
//! sums and differences of these (`3+^^*`, `-(1/2)`).

use super::ParseError;
use super::dyadic::Dyadic;
use super::game::Game;
use std::fmt;

/// How a game is written: with `↑ ↓ ⇑ ⇓ ±` or with `^ v +-`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// `⇑*`, `↓`, `±1`.
    Unicode,
    /// `^^*`, `v`, `+-1`.
    Ascii,
}

/// A game as `x + k·↑ + *n`, when it is one (small |k|).
pub fn uptimal_parts(g: Game) -> Option<(Dyadic, i64, u32)> {
    if let Some(x) = g.as_number() {
        return Some((x, 0, 0));
    }
    let (ls, rs) = (super::thermo::left_stop(g), super::thermo::right_stop(g));
    if ls != rs {
        return None;
    }
    let h = g - Game::from_number(ls);
    // k·↑ + *n has birthday at least |k|, so larger |k| cannot match.
    let bound = i64::from(h.birthday());
    for k in 0..=bound {
        for k in [k, -k] {
            if let Some(n) = (h - Game::ups(k)).nimber_value() {
                return Some((ls, k, n));
            }
        }
    }
    None
}

/// Writes `g` in the given style.
pub fn write(g: Game, style: Style) -> String {
    let mut s = String::new();
    write_into(&mut s, g, style);
    s
}

fn write_into(s: &mut String, g: Game, style: Style) {
    if let Some((x, k, n)) = uptimal_parts(g) {
        if x != Dyadic::ZERO || (k == 0 && n == 0) {
            s.push_str(&x.to_string());
        }
        let (one, two) = match (style, k > 0) {
            (Style::Unicode, true) => ("↑", "⇑"),
            (Style::Unicode, false) => ("↓", "⇓"),
            (Style::Ascii, true) => ("^", "^^"),
            (Style::Ascii, false) => ("v", "vv"),
        };
        match k.unsigned_abs() {
            0 => {}
            1 => s.push_str(one),
            2 => s.push_str(two),
            m => (0..m).for_each(|_| s.push_str(one)),
        }
        match n {
            0 => {}
            1 => s.push('*'),
            n => s.push_str(&format!("*{n}")),
        }
        return;
    }
    let (l, r) = (g.left(), g.right());
    if let ([a], [b]) = (&l[..], &r[..]) {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            if x == -y && x > y {
                s.push_str(if style == Style::Unicode { "±" } else { "+-" });
                s.push_str(&x.to_string());
                return;
            }
        }
    }
    s.push('{');
    for (i, &o) in l.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        write_into(s, o, style);
    }
    s.push('|');
    for (i, &o) in r.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        write_into(s, o, style);
    }
    s.push('}');
}

impl fmt::Display for Game {
    /// Unicode by default; `{:#}` gives ASCII.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = if f.alternate() {
            Style::Ascii
        } else {
            Style::Unicode
        };
        f.write_str(&write(*self, style))
    }
}

impl std::str::FromStr for Game {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Game, ParseError> {
        parse(s)
    }
}

/// The largest nimber the notation reads: `*64` takes about 5 s (on this
/// project's 2-core machine), `*100` over a minute, in the comparisons
/// behind stops and temperatures.
pub const MAX_NIMBER: u32 = 64;

/// Reads a game in standard notation (either style).
pub fn parse(text: &str) -> Result<Game, ParseError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut p = Parser { c: &chars, i: 0 };
    let g = p.sum().map_err(|e| ParseError(format!("'{text}': {e}")))?;
    if p.i < chars.len() {
        return Err(ParseError(format!("'{text}': unexpected '{}'", chars[p.i])));
    }
    Ok(g)
}

struct Parser<'a> {
    c: &'a [char],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn is_minus(c: Option<char>) -> bool {
        matches!(c, Some('-') | Some('−'))
    }

    /// term (('+' | '-') term)*
    fn sum(&mut self) -> Result<Game, String> {
        let mut g = self.term()?;
        loop {
            if self.peek() == Some('+') {
                self.i += 1;
                g = g + self.term()?;
            } else if Parser::is_minus(self.peek()) {
                self.i += 1;
                g = g - self.term()?;
            } else {
                return Ok(g);
            }
        }
    }

    fn term(&mut self) -> Result<Game, String> {
        match self.peek() {
            // "-2↓" is (−2) + ↓: a minus sign before digits belongs to the
            // number only.
            c if Parser::is_minus(c)
                && self.c.get(self.i + 1).is_some_and(|c| c.is_ascii_digit()) =>
            {
                self.i += 1;
                self.atom(true)
            }
            c if Parser::is_minus(c) => {
                self.i += 1;
                Ok(-self.term()?)
            }
            Some('±') => {
                self.i += 1;
                self.switch()
            }
            Some('+') if Parser::is_minus(self.c.get(self.i + 1).copied()) => {
                self.i += 2;
                self.switch()
            }
            Some('(') => {
                self.i += 1;
                let g = self.sum()?;
                if !self.eat(')') {
                    return Err("missing ')'".into());
                }
                Ok(g)
            }
            Some('{') => {
                self.i += 1;
                let left = self.options('|')?;
                let right = self.options('}')?;
                Ok(Game::new(left, right))
            }
            _ => self.atom(false),
        }
    }

    /// `±G` = {G | −G}.
    fn switch(&mut self) -> Result<Game, String> {
        let g = self.term()?;
        Ok(Game::new(vec![g], vec![-g]))
    }

    /// Comma-separated sums up to and including `end`.
    fn options(&mut self, end: char) -> Result<Vec<Game>, String> {
        let mut v = Vec::new();
        if self.eat(end) {
            return Ok(v);
        }
        loop {
            v.push(self.sum()?);
            if self.eat(end) {
                return Ok(v);
            }
            if !self.eat(',') {
                return Err(format!("expected ',' or '{end}'"));
            }
        }
    }

    fn digits(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.c[start..self.i].iter().collect()
    }

    /// [number] [arrows] [* [n]], at least one part; `negative` negates the
    /// number.
    fn atom(&mut self, negative: bool) -> Result<Game, String> {
        let start = self.i;
        let mut g = Game::zero();
        let int = self.digits();
        if !int.is_empty() {
            let mut text = int;
            if self.peek() == Some('/') {
                self.i += 1;
                text = format!("{text}/{}", self.digits());
            }
            let x = text.parse::<Dyadic>().map_err(|e| e.0)?;
            g = Game::from_number(if negative { -x } else { x });
        }
        let mut k = 0;
        while let Some(c) = self.peek() {
            k += match c {
                '^' | '↑' => 1,
                '⇑' => 2,
                'v' | '↓' => -1,
                '⇓' => -2,
                _ => break,
            };
            self.i += 1;
        }
        g = g + Game::ups(k);
        if self.eat('*') {
            let n = self.digits();
            let n: u32 = if n.is_empty() {
                1
            } else {
                n.parse().map_err(|_| format!("bad nimber *{n}"))?
            };
            if n > MAX_NIMBER {
                return Err(format!(
                    "nimbers above *{MAX_NIMBER} are not supported (the cost grows as a high power of n)"
                ));
            }
            g = g + Game::nimber(n);
        }
        if self.i == start {
            return Err(match self.peek() {
                Some(c) => format!("unexpected '{c}'"),
                None => "unexpected end".into(),
            });
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Game {
        parse(s).unwrap()
    }

    #[test]
    fn prints_standard_forms() {
        let cases = [
            ("{2|{1|*}}", "{2|{1|*}}", "{2|{1|*}}"),
            ("3/4", "3/4", "3/4"),
            ("-1/2", "-1/2", "-1/2"),
            ("*+*", "0", "0"),
            ("{|}", "0", "0"),
            ("{1|}", "2", "2"),
            ("{0,*|0,*}", "*2", "*2"),
            ("{0|*}", "↑", "^"),
            ("^+^+*", "⇑*", "^^*"),
            ("{0|^}", "⇑*", "^^*"),
            ("3+^^*", "3⇑*", "3^^*"),
            ("-2+v", "-2↓", "-2v"),
            ("^^^", "↑↑↑", "^^^"),
            ("{1|-1}", "±1", "+-1"),
            ("{3|-2}", "{3|-2}", "{3|-2}"),
            ("1/2*", "1/2*", "1/2*"),
        ];
        for (input, uni, ascii) in cases {
            let x = g(input);
            assert_eq!(write(x, Style::Unicode), uni, "{input}");
            assert_eq!(write(x, Style::Ascii), ascii, "{input}");
            assert_eq!(format!("{x:#}"), ascii);
            assert_eq!(g(uni), x, "{uni}");
            assert_eq!(g(ascii), x, "{ascii}");
        }
    }

    #[test]
    fn rejects_bad_text() {
        for bad in ["{1|", "1/3", "{1|2}}", "x", "", "(1"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
