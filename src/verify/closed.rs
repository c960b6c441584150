//! The checker's walk over a closed strategy (its stream begins with
//! [`CLOSED`], then the window `w`, 1 to [`MAX_WINDOW`]): one owner move
//! per *key*, a state of the game that remembers only its last `w`
//! colourings.
//!
//! Accepted only under `--superko none` where a tie keeps the bound
//! ([`Walk::tie_keeps`]), with area scoring and free passes (`tromp-taylor`,
//! `ggg`) and no border stones. The walk plays the game with the history
//! cut to the window after every turn, so a line ends by two passes or by
//! a repetition inside the window, and checks it as a tree strategy is
//! checked, except that an owner key met again must be a [`LINK`] to the
//! node of that key (its ancestor or not), and no key is expanded twice.
//!
//! Why that proves the bound in the real game: there the legal turns of a
//! state depend on the colouring, the colouring one turn before (basic
//! ko, inside the window), the passes and the player to move, unless the
//! game is already over; so every real game the owner plays by the
//! strategy's one move per key runs through keys the walk checked, each
//! turn leading where the walk went. It ends (a repetition of colouring
//! and player to move ends it, and there are finitely many) in one of
//! three ways: two passes at a key the walk scored within the bound; a
//! repetition, a tie worth 0, which keeps the bound; or a secure key,
//! checked as in a tree strategy without any history.

use crate::engine::rules::Ruleset;
use crate::format::codes::{CLOSED, LINK, SECURE};
use crate::verify::Failure;
use crate::verify::plain::{Past, State, Turn};
use crate::verify::walk::{Walk, decode_move, sets};
use hashbrown::HashMap;
use std::rc::Rc;

/// The most colourings a key may remember besides the current one: the
/// writer's largest (`search::closed::MAX_WINDOW`), so that every file
/// this accepts, `show --line` can follow too.
pub(super) const MAX_WINDOW: usize = 3;

/// A key: the window's colourings (as bit sets), newest first, the player
/// to move and the passes in a row.
type Key = (Vec<(u64, u64)>, u8, u32);

/// `s` with its history cut to the current state and `window` before it.
fn cut(mut s: State, window: usize) -> State {
    let kept: Vec<(Vec<u8>, u8)> = s
        .past
        .iter()
        .take(window + 1)
        .map(|p| (p.col.clone(), p.to_move))
        .collect();
    let mut past: Option<Rc<Past>> = None;
    for (index, (col, to_move)) in kept.into_iter().rev().enumerate() {
        past = Some(Rc::new(Past {
            col,
            to_move,
            index,
            prev: past,
        }));
    }
    s.past = past.expect("the current state is recorded");
    s
}

fn key(s: &State) -> Key {
    let cols = s.past.iter().map(|p| sets(&p.col)).collect();
    (cols, s.to_move, s.passes)
}

impl Walk<'_> {
    /// Walks a closed strategy from `start` (the bytes after [`CLOSED`]);
    /// returns the owner nodes checked.
    pub(super) fn closed(&mut self, start: &State) -> Result<u64, Failure> {
        let r = self.set.rules;
        if !self.tie_keeps() {
            return Err(self.fail(
                "a closed strategy where a tie does not keep the bound (or not under --superko none)"
                    .into(),
            ));
        }
        if !matches!(r.ruleset, Ruleset::TrompTaylor | Ruleset::Ggg) {
            return Err(self.fail("a closed strategy under rules that do not allow it".into()));
        }
        if start.alive.iter().any(|&a| a) {
            return Err(self.fail("a closed strategy on a board with border stones".into()));
        }
        debug_assert_eq!(self.bytes.first(), Some(&CLOSED));
        let window = self.byte()? as usize;
        if !(1..=MAX_WINDOW).contains(&window) {
            return Err(self.fail(format!("a closed strategy's window of {window}")));
        }
        let g = &self.set.graph;
        let mut ids: HashMap<Key, u64> = HashMap::new();
        // The other side's states whose turns are being walked: the state,
        // the next turn to try (0 pass, p + 1 point p), the line's length.
        let mut stack: Vec<(State, usize, usize)> = Vec::new();
        let mut at = Some(cut(start.clone(), window));
        loop {
            if let Some(mut s) = at.take() {
                loop {
                    if self.finished(&s) {
                        self.ended(&s)?;
                        break;
                    }
                    if s.to_move != self.owner {
                        stack.push((s, 0, self.line.len()));
                        break;
                    }
                    let code = self.byte()?;
                    if code == SECURE {
                        self.secure(&s)?;
                        break;
                    }
                    let k = key(&s);
                    if code == LINK {
                        let id = self.link_number()?;
                        if ids.get(&k) != Some(&id) {
                            return Err(self.fail(format!(
                                "a closed strategy's link to node {id}, not this state's"
                            )));
                        }
                        self.links += 1;
                        break;
                    }
                    if ids.contains_key(&k) {
                        return Err(self.fail(
                            "a closed strategy expands a state twice (it must link)".into(),
                        ));
                    }
                    let id = ids.len() as u64;
                    ids.insert(k, id);
                    if id % 1024 == 1023 {
                        (self.tick)(1024);
                    }
                    let n = g.len();
                    let turn: Turn = decode_move(code, n).ok_or_else(|| {
                        self.fail(format!("move code {code} on a board of {n} points"))
                    })?;
                    let c = s.play(g, &r, turn).map_err(|why| {
                        self.fail(format!("the strategy's move is not legal ({why:?})"))
                    })?;
                    self.line.push(turn);
                    s = cut(c, window);
                }
            }
            let Some(top) = stack.last_mut() else { break };
            let n = g.len();
            let mut next = None;
            while top.1 <= n {
                let turn: Turn = top.1.checked_sub(1);
                top.1 += 1;
                if let Ok(c) = top.0.play(g, &r, turn) {
                    next = Some((turn, c));
                    break;
                }
            }
            match next {
                Some((turn, c)) => {
                    self.line.truncate(top.2);
                    self.line.push(turn);
                    at = Some(cut(c, window));
                }
                None => {
                    stack.pop();
                }
            }
        }
        Ok(ids.len() as u64)
    }
}
