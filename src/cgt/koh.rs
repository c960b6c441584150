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
//! to translation, rotation and reflection (regions are pieces of a grid),
//! so parts are also memoised by that picture in one table shared by all
//! the regions a thread evaluates: the same small shapes recur in every
//! larger one, turned every way.

use super::game::Game;
use super::region::Region;
use crate::position::{Position, flood};
use crate::types::{Color, bits};
use hashbrown::HashMap;
use std::cell::RefCell;

thread_local! {
    /// Parts by picture (see [`Values::picture`]), for every region this
    /// thread evaluates: a thread's own table needs no lock.
    static PARTS: RefCell<Parts> = RefCell::default();
}

/// Parts by picture: those that fit three words (by far the most), and
/// the others.
#[derive(Default)]
struct Parts {
    small: HashMap<[u64; 3], Game>,
    large: HashMap<Box<[u64]>, Game>,
}

/// A part's picture, packed (see [`Values::picture`]).
enum Picture {
    Small([u64; 3]),
    Large(Box<[u64]>),
}

impl Parts {
    fn get(&self, p: &Picture) -> Option<Game> {
        match p {
            Picture::Small(k) => self.small.get(k),
            Picture::Large(k) => self.large.get(k),
        }
        .copied()
    }

    fn insert(&mut self, p: Picture, g: Game) {
        match p {
            Picture::Small(k) => self.small.insert(k, g),
            Picture::Large(k) => self.large.insert(k, g),
        };
    }
}

/// A picture cell that is no point of the part or next to it.
const NO_POINT: u8 = 6;
/// Bits of a picture's header: the score per stone, rows, columns.
const HEADER: usize = 1 + 7 + 7;

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

/// A state: the stones, the points played, and the stones joined to a
/// border stone (kept along, not flooded for again: they never change).
#[derive(Clone, Copy)]
struct State {
    pos: Position,
    played: u64,
    fixed: u64,
}

/// A region and the values of its states, memoised.
pub struct Values {
    region: Region,
    per_stone: i64,
    memo: HashMap<[u64; 4], Game>,
    /// Scratch: the grid of a picture being drawn, and option lists.
    grid: Vec<u8>,
    lists: Vec<Vec<Game>>,
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
            grid: Vec::new(),
            lists: Vec::new(),
        }
    }

    /// The region.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// The region's value at its start, in canonical form.
    pub fn value(&mut self) -> Game {
        let s = self.start();
        self.within(u64::MAX, s)
    }

    /// Every legal move of `colour` at the start, in point order, with the
    /// region's value after it.
    pub fn plays(&mut self, colour: Color) -> Vec<Play> {
        let s = self.start();
        let mut out = Vec::new();
        for p in bits(self.region.board().mask() & !s.played) {
            if let Some((next, score)) = self.play(s, p, colour) {
                let after = self.after(u64::MAX, next, score);
                out.push(Play { point: p, after });
            }
        }
        out
    }

    /// Distinct states memoised so far (parts of states, in fact).
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    fn start(&self) -> State {
        let board = self.region.board();
        let (pos, imm) = (self.region.start(), self.region.immortal());
        let joined = |s: u64| flood(board, imm & s, s);
        State {
            pos,
            played: pos.occupied(),
            fixed: joined(pos.black) | joined(pos.white),
        }
    }

    /// `colour` places on p, if legal: the state after it and the
    /// capture's score from Black's side. As [`Position::place`] with the
    /// region's border stones, but only groups not joined to one are
    /// flooded.
    fn play(&self, s: State, p: u8, colour: Color) -> Option<(State, i64)> {
        let board = self.region.board();
        let bit = 1u64 << p;
        let mut pos = s.pos;
        let mut fixed = s.fixed;
        let (own, opp) = match colour {
            Color::Black => (&mut pos.black, &mut pos.white),
            Color::White => (&mut pos.white, &mut pos.black),
        };
        *own |= bit;
        let mut empty = board.mask() & !(*own | *opp);
        // Only opponent groups next to p, and not joined, can be captured.
        let mortal = *opp & !fixed;
        let mut captured = 0u64;
        let mut todo = board.neighbours(p) & mortal;
        while todo != 0 {
            let group = flood(board, todo & todo.wrapping_neg(), mortal);
            todo &= !group;
            if board.spread(group) & empty == 0 {
                captured |= group;
            }
        }
        *opp &= !captured;
        empty |= captured;
        // p joins its mortal neighbours; the group is joined to a border
        // stone if p touches a joined stone of its colour.
        let group = flood(board, bit, *own & !fixed);
        if board.neighbours(p) & *own & fixed != 0 {
            fixed |= group;
        } else if board.spread(group) & empty == 0 {
            return None;
        }
        let score = i64::from(captured.count_ones()) * self.per_stone;
        let score = if colour == Color::Black {
            score
        } else {
            -score
        };
        let played = s.played | bit;
        Some((State { pos, played, fixed }, score))
    }

    /// Points where something can still happen: unplayed points, and stones
    /// not joined to a border stone.
    fn live(&self, s: State) -> u64 {
        (self.region.board().mask() & !s.played) | (s.pos.occupied() & !s.fixed)
    }

    /// The value inside `area` after a move that scored `score`.
    fn after(&mut self, area: u64, s: State, score: i64) -> Game {
        let g = self.within(area, s);
        // Adding 0 costs a few table look-ups; most moves capture nothing.
        if score == 0 {
            g
        } else {
            Game::integer(score) + g
        }
    }

    /// The value of the parts of the state inside `area`.
    fn within(&mut self, area: u64, s: State) -> Game {
        let mut rest = self.live(s) & area;
        let mut sum: Option<Game> = None;
        while rest != 0 {
            let part = flood(self.region.board(), rest & rest.wrapping_neg(), rest);
            rest &= !part;
            if part & !s.played != 0 {
                let g = self.part(part, s);
                sum = Some(sum.map_or(g, |s| s + g));
            }
        }
        sum.unwrap_or_else(Game::zero)
    }

    /// The value of one independent part: {Black's moves | White's moves}.
    fn part(&mut self, part: u64, s: State) -> Game {
        let (pos, played) = (s.pos, s.played);
        let near = part | self.region.board().spread(part);
        let key = [part, pos.black & near, pos.white & near, played & near];
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        let picture = self.picture(part, near, pos, played);
        if let Some(g) = PARTS.with(|t| t.borrow().get(&picture)) {
            self.memo.insert(key, g);
            return g;
        }
        let mut options = [self.list(), self.list()];
        for p in bits(part & !played) {
            for colour in [Color::Black, Color::White] {
                if let Some((next, score)) = self.play(s, p, colour) {
                    let g = self.after(part, next, score);
                    options[colour.index()].push(g);
                }
            }
        }
        let g = Game::from_options(&options[0], &options[1]);
        self.lists.extend(options);
        self.memo.insert(key, g);
        PARTS.with(|t| t.borrow_mut().insert(picture, g));
        g
    }

    /// An empty list, reusing a spare one.
    fn list(&mut self) -> Vec<Game> {
        let mut v = self.lists.pop().unwrap_or_default();
        v.clear();
        v
    }

    /// The part and its neighbours `near` as a grid over their bounding
    /// box, turned and reflected to the least of its 8 images, after the
    /// capture score and the grid's size, 3 bits a cell. Cells: 0 unplayed,
    /// 1 / 2 a black / white stone that can be captured, 3 / 4 a black /
    /// white stone joined to a border stone, 5 a dead empty point,
    /// [`NO_POINT`] anything else.
    fn picture(&mut self, part: u64, near: u64, pos: Position, played: u64) -> Picture {
        let (mut r0, mut c0, mut r1, mut c1) = (u8::MAX, u8::MAX, 0, 0);
        for q in bits(near) {
            let (r, c) = self.region.cell(q);
            (r0, c0, r1, c1) = (r0.min(r), c0.min(c), r1.max(r), c1.max(c));
        }
        let (h, w) = (usize::from(r1 - r0) + 1, usize::from(c1 - c0) + 1);
        let grid = &mut self.grid;
        grid.clear();
        grid.resize(h * w, NO_POINT);
        for q in bits(near) {
            let (r, c) = self.region.cell(q);
            let outside = u8::from(part >> q & 1 == 0);
            grid[usize::from(r - r0) * w + usize::from(c - c0)] = match pos.at(q) {
                Some(Color::Black) => 1 + 2 * outside,
                Some(Color::White) => 2 + 2 * outside,
                None if played >> q & 1 == 1 => 5,
                None => 0,
            };
        }
        let ((rows, cols), walk) = least_image(grid, h, w);
        let cells = rows * cols;
        let header = (self.per_stone as u64 - 1) | (rows as u64) << 1 | (cols as u64) << 8;
        let mut words = [0u64; 3];
        let mut large = Vec::new();
        let out: &mut [u64] = if HEADER + 3 * cells <= 192 {
            &mut words
        } else {
            large.resize((HEADER + 3 * cells).div_ceil(64), 0);
            &mut large
        };
        out[0] = header;
        for (k, i) in walk.cells(rows, cols).enumerate() {
            let (at, v) = (HEADER + 3 * k, u64::from(grid[i]));
            out[at / 64] |= v << (at % 64);
            if at % 64 > 61 {
                out[at / 64 + 1] |= v >> (64 - at % 64);
            }
        }
        if large.is_empty() {
            Picture::Small(words)
        } else {
            Picture::Large(large.into())
        }
    }
}

/// One of a grid's 8 images: the grid index of the image's first cell and
/// the steps to the next row and the next column.
#[derive(Clone, Copy)]
struct Walk {
    start: isize,
    down: isize,
    right: isize,
}

impl Walk {
    /// The grid indices of the image's cells, row by row.
    fn cells(self, rows: usize, cols: usize) -> impl Iterator<Item = usize> {
        (0..rows as isize).flat_map(move |i| {
            (0..cols as isize).map(move |j| (self.start + i * self.down + j * self.right) as usize)
        })
    }
}

/// The least image of an h × w grid under rotations and reflections,
/// comparing sizes (rows, columns) first and then the cells row by row:
/// its size and how to walk it.
fn least_image(grid: &[u8], h: usize, w: usize) -> ((usize, usize), Walk) {
    let size = (h.min(w), h.max(w));
    let (rows, cols) = size;
    let mut walks = [Walk {
        start: 0,
        down: 0,
        right: 0,
    }; 8];
    let mut n = 0;
    for transposed in [false, true] {
        if (if transposed { (w, h) } else { (h, w) }) != size {
            continue;
        }
        // Walking rows of the image steps along the grid's rows, or its
        // columns when transposed.
        let (down, right) = if transposed {
            (1, w as isize)
        } else {
            (w as isize, 1)
        };
        for flips in 0..4 {
            let mut walk = Walk {
                start: 0,
                down,
                right,
            };
            if flips & 1 != 0 {
                walk.start += (rows as isize - 1) * walk.down;
                walk.down = -walk.down;
            }
            if flips & 2 != 0 {
                walk.start += (cols as isize - 1) * walk.right;
                walk.right = -walk.right;
            }
            walks[n] = walk;
            n += 1;
        }
    }
    // Drop the images that show a larger cell first, until one is left
    // (or the rest are the same: the grid is symmetric).
    let mut k = 0;
    while n > 1 && k < rows * cols {
        let (i, j) = ((k / cols) as isize, (k % cols) as isize);
        let at = |w: &Walk| grid[(w.start + i * w.down + j * w.right) as usize];
        let least = walks[..n].iter().map(at).min().unwrap();
        let mut kept = 0;
        for m in 0..n {
            if at(&walks[m]) == least {
                walks[kept] = walks[m];
                kept += 1;
            }
        }
        n = kept;
        k += 1;
    }
    (size, walks[0])
}

/// Empties this thread's table of parts shared by all regions (it only
/// grows): for timing cold computations, or to give the memory back.
pub fn clear_shared_parts() {
    PARTS.with(|t| *t.borrow_mut() = Parts::default());
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
