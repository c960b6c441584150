//! The combinatorial game of a [`Region`] under seed 003's rules (`koh`):
//! Left plays Black, Right plays White; a move places a stone on an empty
//! point never played before; suicide is illegal; border stones are never
//! captured; a capture adds to the capturer's integer score (prisoners
//! are free moves, so an integer; see [`Counting`] for what a captured
//! stone is worth). When nobody can move the value is that score:
//! territory needs no counting, since filling one's own territory is a
//! move the opponent cannot answer there.
//!
//! Values come from a memoised recursion over the states (position and
//! points played), which form a DAG. A state splits into independent parts:
//! the unplayed points and the stones that can still be captured, joined
//! where adjacent (stones joined to border stones never change, and a dead
//! empty point is a liberty for ever, so neither couples two parts). Each
//! part is memoised with its surroundings, and the state is the sum.
//!
//! A part's game depends only on the picture of it and its neighbours, up
//! to translation (regions are pieces of a grid), so parts are also
//! memoised by that picture in one table shared by all regions: the same
//! small shapes recur in every larger one.

use super::game::Game;
use super::region::Region;
use crate::position::{Position, flood};
use crate::types::{Color, bits};
use hashbrown::HashMap;
use std::sync::{LazyLock, Mutex};

/// Parts by picture (see [`Values::picture`]), for every region.
static PARTS: LazyLock<Mutex<HashMap<Vec<u8>, Game>>> = LazyLock::new(Default::default);

/// What a captured stone is worth to the capturer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Counting {
    /// Two points: the prisoner and the point it stood on, which nobody may
    /// play again and which seed 003 counts as the capturer's territory
    /// (§6: "capturing a stone and the space the stone is on" is 2). This
    /// is Japanese counting; it makes an n-point eye n and the blocked
    /// corridor of length 3 {2 | {1 | *}}, and integers keep the parity of
    /// their positions (Definition 4.1), which Theorem 4.9 needs.
    #[default]
    Territory,
    /// One point, the prisoner only: `RULES.md` §6 read literally, the game
    /// `gosolve solve --rules koh` plays (the captured point is dead for
    /// both players, so it is nobody's move).
    Prisoners,
}

/// A legal move at the start of a region and the region's value after it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Play {
    /// The point played (see [`Region::point_name`]).
    pub point: u8,
    /// The value after the move, the capture's score included.
    pub after: Game,
}

/// A region and the values of its states, memoised.
pub struct Values {
    region: Region,
    per_stone: i64,
    memo: HashMap<[u64; 4], Game>,
}

impl Values {
    /// An empty memo for `region`, captures counted as `counting` says.
    pub fn new(region: Region, counting: Counting) -> Values {
        let per_stone = match counting {
            Counting::Territory => 2,
            Counting::Prisoners => 1,
        };
        Values {
            region,
            per_stone,
            memo: HashMap::new(),
        }
    }

    /// The region.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// The region's value at its start, in canonical form.
    pub fn value(&mut self) -> Game {
        let s = self.region.start();
        self.within(u64::MAX, s, s.occupied())
    }

    /// Every legal move of `colour` at the start, in point order, with the
    /// region's value after it.
    pub fn plays(&mut self, colour: Color) -> Vec<Play> {
        let s = self.region.start();
        let played = s.occupied();
        let mut out = Vec::new();
        for p in bits(self.region.board().mask() & !played) {
            if let Some((next, np, score)) = self.play(s, played, p, colour) {
                let after = self.after(u64::MAX, next, np, score);
                out.push(Play { point: p, after });
            }
        }
        out
    }

    /// Distinct states memoised so far (parts of states, in fact).
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// `colour` places on p, if legal: the position, the points played,
    /// and the capture's score from Black's side.
    fn play(
        &self,
        pos: Position,
        played: u64,
        p: u8,
        colour: Color,
    ) -> Option<(Position, u64, i64)> {
        let board = self.region.board();
        let placed = pos.place(board, p, colour, self.region.immortal());
        if placed.suicided > 0 {
            return None;
        }
        let score = i64::from(placed.captured) * self.per_stone;
        let score = if colour == Color::Black {
            score
        } else {
            -score
        };
        Some((placed.position, played | 1 << p, score))
    }

    /// Points where something can still happen: unplayed points, and stones
    /// not joined to a border stone.
    fn live(&self, pos: Position, played: u64) -> u64 {
        let board = self.region.board();
        let imm = self.region.immortal();
        let mortal = |s: u64| s & !flood(board, imm & s, s);
        (board.mask() & !played) | mortal(pos.black) | mortal(pos.white)
    }

    /// The value inside `area` after a move that scored `score`.
    fn after(&mut self, area: u64, pos: Position, played: u64, score: i64) -> Game {
        let g = self.within(area, pos, played);
        // Adding 0 costs a few table look-ups; most moves capture nothing.
        if score == 0 {
            g
        } else {
            Game::integer(score) + g
        }
    }

    /// The value of the parts of the state inside `area`.
    fn within(&mut self, area: u64, pos: Position, played: u64) -> Game {
        let mut rest = self.live(pos, played) & area;
        let mut sum: Option<Game> = None;
        while rest != 0 {
            let part = flood(self.region.board(), rest & rest.wrapping_neg(), rest);
            rest &= !part;
            if part & !played != 0 {
                let g = self.part(part, pos, played);
                sum = Some(sum.map_or(g, |s| s + g));
            }
        }
        sum.unwrap_or_else(Game::zero)
    }

    /// The value of one independent part: {Black's moves | White's moves}.
    fn part(&mut self, part: u64, pos: Position, played: u64) -> Game {
        let near = part | self.region.board().spread(part);
        let key = [part, pos.black & near, pos.white & near, played & near];
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        let picture = self.picture(part, pos, played);
        if let Some(&g) = PARTS.lock().unwrap().get(&picture) {
            self.memo.insert(key, g);
            return g;
        }
        let mut options = [Vec::new(), Vec::new()];
        for p in bits(part & !played) {
            for colour in [Color::Black, Color::White] {
                if let Some((next, np, score)) = self.play(pos, played, p, colour) {
                    let g = self.after(part, next, np, score);
                    options[colour.index()].push(g);
                }
            }
        }
        let [left, right] = options;
        let g = Game::new(left, right);
        self.memo.insert(key, g);
        PARTS.lock().unwrap().insert(picture, g);
        g
    }

    /// The part and its neighbours as (row, column, content) triples,
    /// moved to the origin, after the capture score. Contents: 0 unplayed,
    /// 1 / 2 a black / white stone that can be captured, 3 / 4 a black /
    /// white stone joined to a border stone, 5 a dead empty point. Any cell
    /// next to the part that is not listed is no point. (Reflections would
    /// share a few more parts but cost more than they save.)
    fn picture(&self, part: u64, pos: Position, played: u64) -> Vec<u8> {
        let near = part | self.region.board().spread(part);
        let (mut r0, mut c0) = (u8::MAX, u8::MAX);
        for q in bits(near) {
            let (r, c) = self.region.cell(q);
            (r0, c0) = (r0.min(r), c0.min(c));
        }
        let mut bytes = Vec::with_capacity(1 + 3 * near.count_ones() as usize);
        bytes.push(self.per_stone as u8);
        // Points are numbered row by row, so the cells come in order.
        for q in bits(near) {
            let (r, c) = self.region.cell(q);
            let outside = u8::from(part >> q & 1 == 0);
            let content = match pos.at(q) {
                Some(Color::Black) => 1 + 2 * outside,
                Some(Color::White) => 2 + 2 * outside,
                None if played >> q & 1 == 1 => 5,
                None => 0,
            };
            bytes.extend([r - r0, c - c0, content]);
        }
        bytes
    }
}

/// Empties the table of parts shared by all regions (it only grows): for
/// timing cold computations, or to give the memory back.
pub fn clear_shared_parts() {
    PARTS.lock().unwrap().clear();
}

/// The value of `region` at its start.
pub fn value(region: &Region, counting: Counting) -> Game {
    Values::new(region.clone(), counting).value()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(spec: &str, counting: Counting) -> String {
        value(&Region::parse(spec).unwrap(), counting).to_string()
    }

    #[test]
    fn seed_003_figure_1() {
        assert_eq!(of("eye:1", Counting::Territory), "1");
        assert_eq!(of("dame", Counting::Territory), "*");
        assert_eq!(of("corridor:blocked:3", Counting::Territory), "{2|{1|*}}");
        assert_eq!(
            of("-corridor:blocked:3", Counting::Territory),
            "{{*|-1}|-2}"
        );
    }

    #[test]
    fn captures_count_one_or_two() {
        // A white intrusion in a two-point eye is captured: worth 2 with
        // the captured point, 3/2 without.
        assert_eq!(of("eye:2", Counting::Territory), "2");
        assert_eq!(of("eye:2", Counting::Prisoners), "3/2");
        // Black captures the lone O; White may not fill its last liberty.
        assert_eq!(of("[BBB/B.O/BBB]", Counting::Territory), "3");
        assert_eq!(of("[BBB/B.O/BBB]", Counting::Prisoners), "2");
    }
}
