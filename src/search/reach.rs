//! The states a small board's game can still reach, for the key of the
//! table of history sets ([`Shared::set_key`](crate::search::solver::Shared)).
//!
//! Below a node the rules ask of the history whether a state is in it
//! (superko, and ties under `--superko none`), and basic ko under
//! `--superko none` reads the colouring before the last turn: at the
//! node that is in the key (its ko bans), and below it that colouring is
//! the node's or one the line produced, never an older one. Walk the
//! graph of states from the node: a placing into a state of the history
//! stops there (it is refused, or a tie), any other turn goes on (a pass
//! into the history too: situational superko lets it, a
//! `conway-replacement` pass records nothing, under positional superko a
//! pass keeps the colouring, and under `--superko none`, where it would
//! be a tie, going on only walks more). Every state a line below plays
//! from is *visited* by the walk, so every state the rules ask about is
//! a successor of a visited one; the walk asks about each of those, and
//! those in the history are the *touched* states. Histories that agree
//! on the touched states answer every question of the walk alike, so
//! their walks are the same step for step (by induction), and so are
//! the rules' answers below the node: the table keys on the history's
//! touched states instead of its whole set. This holds for any graph
//! whose edges include every turn the rules allow, so the graph here
//! may have more edges than the game (a suicide where it is forbidden,
//! a pass under `conway`, either player's placing under positional
//! superko where passes do not hand the move over), which costs only
//! sharing.
//!
//! Why it pays: a long fight leaves states behind that the rest of the
//! game can no longer reach, and with the whole set those made every
//! history a new key (1x5 `conway --superko situational`: a lone stone's
//! suicide is a pass that each state allows once).

use crate::engine::board::Board;
use crate::engine::game::{from_ternary, history_entry, state_index};
use crate::engine::rules::{Rules, Superko};
use crate::engine::types::Color;
use crate::search::tt::SET_WORDS;

/// Marks a pass's edge in [`StateGraph`] (state numbers are below 2^15).
const PASS: u16 = 1 << 15;

/// Every state's successors, by [`state_index`]: `next[start[i]..start[i +
/// 1]]` are those of state `i`.
pub(super) struct StateGraph {
    start: Vec<u32>,
    next: Vec<u16>,
}

impl StateGraph {
    /// The graph of `board`'s states under `rules` (a board of at most
    /// [`SET_POINTS`](crate::search::tt::SET_POINTS) points): an edge for
    /// each placing, whatever suicide and superko say, and for a pass.
    pub(super) fn new(board: &Board, rules: &Rules) -> StateGraph {
        let n = board.len();
        let positions = 3usize.pow(n as u32);
        let positional = rules.superko == Superko::Positional;
        let states = if positional { positions } else { 2 * positions };
        let mut start = vec![0u32; states + 1];
        let mut next = Vec::new();
        let index = |pos, c| state_index(history_entry(rules.superko, pos, c));
        for i in 0..states {
            let (t, movers): (usize, &[Color]) = if positional {
                (i, &[Color::Black, Color::White])
            } else if i % 2 == 0 {
                (i / 2, &[Color::Black])
            } else {
                (i / 2, &[Color::White])
            };
            let pos = from_ternary(t as u64, n);
            for &c in movers {
                for p in pos.empty(board).iter() {
                    let placed = pos.place(board, p, c, rules.setup.immortal);
                    next.push(index(placed.position, c.opp()) as u16);
                }
                next.push(index(pos, c.opp()) as u16 | PASS);
            }
            start[i + 1] = next.len() as u32;
        }
        StateGraph { start, next }
    }

    /// The states of `seen` (the history's bitmap) that the walk of the
    /// module doc from state `from` touches, as a bitmap.
    #[inline]
    pub(super) fn touched(&self, from: usize, seen: &[u64]) -> [u64; SET_WORDS] {
        let mut walked = [0u64; SET_WORDS];
        let mut touched = [0u64; SET_WORDS];
        let mut stack = [0u16; 64 * SET_WORDS];
        let mut top = 0;
        let mut at = from;
        mark(&mut walked, at);
        if has(seen, at) {
            mark(&mut touched, at);
        }
        loop {
            for &e in &self.next[self.start[at] as usize..self.start[at + 1] as usize] {
                let s = (e & !PASS) as usize;
                if has(&walked, s) {
                    continue;
                }
                let old = has(seen, s);
                if old {
                    mark(&mut touched, s);
                }
                if !old || e & PASS != 0 {
                    mark(&mut walked, s);
                    stack[top] = s as u16;
                    top += 1;
                }
            }
            if top == 0 {
                return touched;
            }
            top -= 1;
            at = stack[top] as usize;
        }
    }
}

/// Whether state `s` is in the bitmap `set` (states past its end are not).
#[inline]
pub(super) fn has(set: &[u64], s: usize) -> bool {
    set.get(s / 64).is_some_and(|w| w >> (s % 64) & 1 == 1)
}

/// Puts state `s` in the bitmap `set`.
#[inline]
pub(super) fn mark(set: &mut [u64], s: usize) {
    set[s / 64] |= 1 << (s % 64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::diagram;
    use crate::engine::rules::Ruleset;

    /// The state number of diagram `d` with `c` to move under `superko`.
    fn state(board: &Board, superko: Superko, d: &str, c: Color) -> usize {
        let pos = diagram::parse(board, d).unwrap().position;
        state_index(history_entry(superko, pos, c))
    }

    /// The states [`StateGraph::touched`] finds from `from` (Black to
    /// move) among `history`, as sorted state numbers.
    fn touched(spec: &str, superko: Superko, from: &str, history: &[(&str, Color)]) -> Vec<usize> {
        let board = Board::parse(spec).unwrap();
        let rules = Rules {
            superko,
            ..Rules::new(Ruleset::TrompTaylor)
        };
        let mut seen = vec![0u64; SET_WORDS];
        for &(d, c) in history {
            mark(&mut seen, state(&board, superko, d, c));
        }
        let graph = StateGraph::new(&board, &rules);
        let from = state(&board, superko, from, Color::Black);
        let set = graph.touched(from, &seen);
        (0..64 * SET_WORDS).filter(|&s| has(&set, s)).collect()
    }

    fn states(spec: &str, superko: Superko, list: &[(&str, Color)]) -> Vec<usize> {
        let board = Board::parse(spec).unwrap();
        let mut out: Vec<usize> = list
            .iter()
            .map(|&(d, c)| state(&board, superko, d, c))
            .collect();
        out.sort();
        out
    }

    /// Under positional superko a placing into the history is refused, so
    /// the walk stops there: on 1x3 with every one-stone colouring in the
    /// history, no line from the empty board gets past the first turn, so
    /// `XX.` (reachable only through them) is not asked about; nor is
    /// `OXO`, a colouring no turn makes (the middle stone has no liberty).
    #[test]
    fn a_placing_into_the_history_ends_the_walk() {
        let p = Superko::Positional;
        let b = Color::Black;
        let ones = [
            ("X..", b),
            (".X.", b),
            ("..X", b),
            ("O..", b),
            (".O.", b),
            ("..O", b),
        ];
        let mut history = ones.to_vec();
        history.extend([("XX.", b), ("OXO", b)]);
        assert_eq!(touched("1x3", p, "...", &history), states("1x3", p, &ones));
        // The node's own colouring is asked about (a pass keeps it).
        history.push(("...", b));
        let mut want = ones.to_vec();
        want.push(("...", b));
        assert_eq!(touched("1x3", p, "...", &history), states("1x3", p, &want));
        // With one one-stone colouring left out, the walk goes through it
        // and reaches XX.: Black's second stone.
        let some: Vec<_> = history
            .iter()
            .copied()
            .filter(|&(d, _)| d != ".X.")
            .collect();
        let got = touched("1x3", p, "...", &some);
        assert!(got.contains(&states("1x3", p, &[("XX.", b)])[0]));
        assert!(!got.contains(&states("1x3", p, &[("OXO", b)])[0]));
    }

    /// Under situational superko a pass into the history is allowed, so the
    /// walk goes on through it: on 1x2 from the empty board with Black to
    /// move, with both of Black's placings in the history, only the pass
    /// leads on, to the history's (empty, White to move), and beyond it
    /// White's placing `O.` (Black to move) is asked about too.
    #[test]
    fn a_pass_into_the_history_goes_on() {
        let s = Superko::Situational;
        let (b, w) = (Color::Black, Color::White);
        let history = [("..", w), ("X.", w), (".X", w), ("O.", b)];
        assert_eq!(
            touched("1x2", s, "..", &history),
            states("1x2", s, &history)
        );
        // XX is no colouring a turn makes (the chain has no liberty), so
        // it is never touched.
        let mut more = history.to_vec();
        more.push(("XX", w));
        assert_eq!(touched("1x2", s, "..", &more), states("1x2", s, &history));
        // The node's own state counts when it is in the history.
        assert_eq!(
            touched("1x2", s, "..", &[("..", b)]),
            states("1x2", s, &[("..", b)])
        );
    }
}
