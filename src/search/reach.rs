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
        let has = |set: &[u64], s: usize| set.get(s / 64).is_some_and(|w| w >> (s % 64) & 1 == 1);
        let mut walked = [0u64; SET_WORDS];
        let mut touched = [0u64; SET_WORDS];
        let mut stack = [0u16; 64 * SET_WORDS];
        let mut top = 0;
        let mut at = from;
        walked[at / 64] |= 1 << (at % 64);
        if has(seen, at) {
            touched[at / 64] |= 1 << (at % 64);
        }
        loop {
            for &e in &self.next[self.start[at] as usize..self.start[at + 1] as usize] {
                let s = (e & !PASS) as usize;
                if has(&walked, s) {
                    continue;
                }
                let old = has(seen, s);
                if old {
                    touched[s / 64] |= 1 << (s % 64);
                }
                if !old || e & PASS != 0 {
                    walked[s / 64] |= 1 << (s % 64);
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
