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
//! larger one, turned every way. A picture is keyed in two steps: its
//! shape (the part's cells and the neighbours' contents, numbered once per
//! region and shape), then the stones on the part's cells, numbered in the
//! shape's chosen image — a few bit operations per state.

use super::game::Game;
use super::region::Region;
use crate::engine::position::flood_by;
use crate::engine::types::PointSet;
use crate::engine::types::{Color, bits};
use hashbrown::HashMap;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// Stones as bits of a [`Space`] (not board points): Black's and White's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
struct Coloured {
    black: u64,
    white: u64,
}

impl Coloured {
    /// Every occupied bit.
    fn occupied(&self) -> u64 {
        self.black | self.white
    }

    /// The colour on bit `q`, if any.
    fn at(&self, q: u8) -> Option<Color> {
        if self.black >> q & 1 == 1 {
            Some(Color::Black)
        } else if self.white >> q & 1 == 1 {
            Some(Color::White)
        } else {
            None
        }
    }
}

thread_local! {
    /// Shapes and parts for every region this thread evaluates: a thread's
    /// own tables need no lock.
    static TABLES: RefCell<Tables> = RefCell::default();
}

/// Numbers the tables, so that a region's shapes are known to be this
/// thread's, since its tables were last emptied.
static EPOCH: AtomicU64 = AtomicU64::new(0);

struct Tables {
    epoch: u64,
    /// Shapes by picture (see [`Shape::new`]), numbered in order.
    shapes: HashMap<Vec<u8>, u32>,
    /// Parts by shape, then by the black and the white stones on its
    /// cells (see [`Shape::key`]). A table per shape keeps a region's
    /// look-ups, mostly in a few shapes, in a few places in memory.
    parts: Vec<Stones>,
}

/// A shape's parts by the black and the white stones on its cells: in one
/// word when it has at most 32 cells (entries of 16 bytes, not 24).
enum Stones {
    Narrow(HashMap<u64, Game>),
    Wide(HashMap<(u64, u64), Game>),
}

impl Stones {
    fn get(&self, (black, white): (u64, u64)) -> Option<Game> {
        match self {
            Stones::Narrow(t) => t.get(&(black | white << 32)),
            Stones::Wide(t) => t.get(&(black, white)),
        }
        .copied()
    }

    fn insert(&mut self, (black, white): (u64, u64), g: Game) {
        match self {
            Stones::Narrow(t) => t.insert(black | white << 32, g),
            Stones::Wide(t) => t.insert((black, white), g),
        };
    }
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            epoch: EPOCH.fetch_add(1, Ordering::Relaxed),
            shapes: HashMap::new(),
            parts: Vec::new(),
        }
    }
}

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
    pos: Coloured,
    played: u64,
    fixed: u64,
}

/// The region's points as bits: a grid with a spare column, so that
/// neighbours are shifts, when that fits in 64 bits; else as the region
/// numbers them.
struct Space {
    /// Every point.
    mask: u64,
    /// The grid's rows' length, spare column included; 0 off the grid.
    stride: u32,
    /// Each bit's neighbours.
    nbr: [u64; 64],
    /// Each bit's cell in the region's diagram, and its point there.
    cell: [(u8, u8); 64],
    point: [u8; 64],
}

impl Space {
    fn new(region: &Region) -> Space {
        let board = region.board();
        let n = board.len() as u8;
        let cells = (0..n).map(|p| region.cell(p));
        let rows = cells.clone().map(|c| u32::from(c.0) + 1).max().unwrap_or(0);
        let stride = cells.map(|c| u32::from(c.1) + 2).max().unwrap_or(0);
        let stride = if rows * stride <= 64 && stride < 64 {
            stride
        } else {
            0
        };
        let bit = |p: u8| {
            let (r, c) = region.cell(p);
            if stride == 0 {
                p
            } else {
                (u32::from(r) * stride + u32::from(c)) as u8
            }
        };
        let mut space = Space {
            mask: 0,
            stride,
            nbr: [0; 64],
            cell: [(0, 0); 64],
            point: [0; 64],
        };
        for p in 0..n {
            let q = usize::from(bit(p));
            space.mask |= 1 << q;
            space.cell[q] = region.cell(p);
            space.point[q] = p;
            space.nbr[q] = board.neighbours(p).iter().fold(0, |s, p| s | 1 << bit(p));
        }
        space
    }

    /// The bits of a set of the region's points.
    fn bits_of(&self, set: PointSet) -> u64 {
        bits(self.mask)
            .filter(|&q| set.contains(self.point[usize::from(q)]))
            .fold(0, |s, q| s | 1 << q)
    }

    /// The union of the neighbours of every point of `set`.
    #[inline]
    fn spread(&self, set: u64) -> u64 {
        let s = self.stride;
        if s != 0 {
            ((set << 1) | (set >> 1) | (set << s) | (set >> s)) & self.mask
        } else {
            bits(set).fold(0, |out, p| out | self.nbr[usize::from(p)])
        }
    }

    /// The points of `within` connected to `seed` inside it.
    #[inline]
    fn flood(&self, seed: u64, within: u64) -> u64 {
        flood_by(|s| self.spread(s), seed, within)
    }
}

/// Three sets of points, hashed as one word: cheaper than 24 bytes, and
/// products with odd constants keep the words from cancelling out.
#[derive(Clone, Copy, PartialEq, Eq)]
struct MemoKey([u64; 3]);

impl Hash for MemoKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let [a, b, c] = self.0;
        h.write_u64(
            a.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                ^ c.wrapping_mul(0x1656_67b1_9e37_79f9),
        );
    }
}

/// A region and the values of its states, memoised.
pub struct Values {
    region: Region,
    space: Space,
    per_stone: i64,
    /// Parts by [part, black and white stones on it and next to it].
    memo: HashMap<MemoKey, Game>,
    /// Shapes by the part and the black and the white stones next to it.
    shapes: HashMap<MemoKey, Shape>,
    /// The epoch of the tables `shapes` refer to.
    epoch: u64,
    /// Spare option lists.
    lists: Vec<Vec<Game>>,
}

impl Values {
    /// An empty memo for `region`, captures counted as `counting` says.
    pub fn new(region: Region, counting: Counting) -> Values {
        let per_stone = match counting {
            Counting::Territory => 2,
            Counting::Prisoners => 1,
        };
        // A region of n empty points memoises about 2^(n + 2) parts: growing
        // the table there rehashes it a dozen times.
        let empty = region.empty().len().min(12);
        Values {
            space: Space::new(&region),
            region,
            per_stone,
            memo: HashMap::with_capacity(1 << (empty + 2)),
            shapes: HashMap::new(),
            epoch: u64::MAX,
            lists: Vec::new(),
        }
    }

    /// The region.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// The region's value at its start, in canonical form.
    pub fn value(&mut self) -> Game {
        self.check_epoch();
        let s = self.start();
        self.within(u64::MAX, s)
    }

    /// Every legal move of `colour` at the start, in point order, with the
    /// region's value after it.
    pub fn plays(&mut self, colour: Color) -> Vec<Play> {
        self.check_epoch();
        let s = self.start();
        let mut out = Vec::new();
        for q in bits(self.space.mask & !s.played) {
            if let Some((next, score)) = self.play(s, q, colour) {
                let after = self.after(u64::MAX, next, score);
                let point = self.space.point[usize::from(q)];
                out.push(Play { point, after });
            }
        }
        out
    }

    /// Distinct states memoised so far (parts of states, in fact).
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// Forgets the shapes if the tables they are numbered in are not this
    /// thread's current ones.
    fn check_epoch(&mut self) {
        let epoch = TABLES.with(|t| t.borrow().epoch);
        if self.epoch != epoch {
            self.shapes.clear();
            self.epoch = epoch;
        }
    }

    fn start(&self) -> State {
        let (start, space) = (self.region.start(), &self.space);
        let pos = Coloured {
            black: space.bits_of(start.black),
            white: space.bits_of(start.white),
        };
        let imm = space.bits_of(self.region.immortal());
        let joined = |s: u64| space.flood(imm & s, s);
        State {
            pos,
            played: pos.occupied(),
            fixed: joined(pos.black) | joined(pos.white),
        }
    }

    /// `colour` places on p, if legal: the state after it and the
    /// capture's score from Black's side. As [`Position::place`](crate::engine::position::Position::place) with the
    /// region's border stones, but only groups not joined to one are
    /// flooded.
    fn play(&self, s: State, p: u8, colour: Color) -> Option<(State, i64)> {
        let space = &self.space;
        let bit = 1u64 << p;
        let mut pos = s.pos;
        let mut fixed = s.fixed;
        let (own, opp) = match colour {
            Color::Black => (&mut pos.black, &mut pos.white),
            Color::White => (&mut pos.white, &mut pos.black),
        };
        *own |= bit;
        let mut empty = space.mask & !(*own | *opp);
        // Only opponent groups next to p, and not joined, can be captured.
        let mortal = *opp & !fixed;
        let mut captured = 0u64;
        let nbr = space.nbr[usize::from(p)];
        let mut todo = nbr & mortal;
        while todo != 0 {
            let group = space.flood(todo & todo.wrapping_neg(), mortal);
            todo &= !group;
            if space.spread(group) & empty == 0 {
                captured |= group;
            }
        }
        *opp &= !captured;
        empty |= captured;
        // p joins its mortal neighbours; the group is joined to a border
        // stone if p touches a joined stone of its colour.
        let group = space.flood(bit, *own & !fixed);
        if nbr & *own & fixed != 0 {
            fixed |= group;
        } else if space.spread(group) & empty == 0 {
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
        (self.space.mask & !s.played) | (s.pos.occupied() & !s.fixed)
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
            let part = self.space.flood(rest & rest.wrapping_neg(), rest);
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
        let near = part | self.space.spread(part);
        // The points played there are the stones and the neighbours: a
        // part's points are unplayed or stones, its neighbours played.
        let key = MemoKey([part, pos.black & near, pos.white & near]);
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        // Next to a part: stones joined to a border stone, dead points.
        let ring = near & !part;
        debug_assert_eq!(ring & !played, 0);
        let shape = self
            .shapes
            .entry(MemoKey([part, pos.black & ring, pos.white & ring]))
            .or_insert_with(|| Shape::new(&self.space, self.per_stone, part, near, pos));
        let (id, stones) = (shape.id as usize, shape.key(part, pos));
        if let Some(g) = TABLES.with(|t| t.borrow().parts[id].get(stones)) {
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
        TABLES.with(|t| t.borrow_mut().parts[id].insert(stones, g));
        g
    }

    /// An empty list, reusing a spare one.
    fn list(&mut self) -> Vec<Game> {
        let mut v = self.lists.pop().unwrap_or_default();
        v.clear();
        v
    }
}

/// A part's cells and its neighbours' contents, up to translation,
/// rotation and reflection.
struct Shape {
    /// Its number in this thread's table of shapes.
    id: u32,
    /// For each image of the shape that gives its picture: each point's
    /// index among the part's cells in that image, row by row.
    orders: Vec<[u8; 64]>,
}

impl Shape {
    /// The shape of `part`, whose neighbours are `near & !part`. Its
    /// picture is the grid over their bounding box, turned and reflected
    /// to the least of its 8 images, after the capture score and the
    /// grid's size, a byte a cell: 0 no point of the part or next to it,
    /// 1 a cell of the part, 2 / 3 a black / white stone (joined to a
    /// border stone, or it would be in the part), 4 a dead empty point.
    fn new(space: &Space, per_stone: i64, part: u64, near: u64, pos: Coloured) -> Shape {
        let cells: Vec<(u8, u8, u8, u8)> = bits(near)
            .map(|q| {
                let (r, c) = space.cell[usize::from(q)];
                let code = match pos.at(q) {
                    _ if part >> q & 1 == 1 => 1,
                    Some(Color::Black) => 2,
                    Some(Color::White) => 3,
                    None => 4,
                };
                (r, c, code, q)
            })
            .collect();
        let r0 = cells.iter().map(|c| c.0).min().unwrap();
        let c0 = cells.iter().map(|c| c.1).min().unwrap();
        let h = cells.iter().map(|c| c.0).max().unwrap() - r0 + 1;
        let w = cells.iter().map(|c| c.1).max().unwrap() - c0 + 1;
        let (rows, cols) = (usize::from(h.min(w)), usize::from(h.max(w)));
        // Where each cell is in an image (t: transposed, then rows and
        // columns reversed or not), row by row.
        let index = |t: u8, r: u8, c: u8| {
            let (r, c) = (usize::from(r - r0), usize::from(c - c0));
            let (i, j) = if t & 4 != 0 { (c, r) } else { (r, c) };
            let i = if t & 1 != 0 { rows - 1 - i } else { i };
            let j = if t & 2 != 0 { cols - 1 - j } else { j };
            i * cols + j
        };
        let picture = |t: u8| {
            let mut out = vec![0u8; 3 + rows * cols];
            out[..3].copy_from_slice(&[per_stone as u8, rows as u8, cols as u8]);
            for &(r, c, code, _) in &cells {
                out[3 + index(t, r, c)] = code;
            }
            out
        };
        // The images of the least size, rows first.
        let images: Vec<(u8, Vec<u8>)> = (0..8)
            .filter(|t| (if t & 4 != 0 { w } else { h }) == h.min(w))
            .map(|t| (t, picture(t)))
            .collect();
        let least = images.iter().map(|i| &i.1).min().unwrap().clone();
        let orders = images
            .iter()
            .filter(|i| i.1 == least)
            .map(|&(t, _)| {
                let mut inside: Vec<(usize, u8)> = cells
                    .iter()
                    .filter(|c| c.2 == 1)
                    .map(|&(r, c, _, q)| (index(t, r, c), q))
                    .collect();
                inside.sort_unstable();
                let mut order = [0u8; 64];
                for (k, &(_, q)) in inside.iter().enumerate() {
                    order[usize::from(q)] = k as u8;
                }
                order
            })
            .collect();
        let id = TABLES.with(|t| {
            let t = &mut *t.borrow_mut();
            let next = t.shapes.len() as u32;
            let id = *t.shapes.entry(least).or_insert(next);
            if id == next {
                t.parts.push(if part.count_ones() <= 32 {
                    Stones::Narrow(HashMap::new())
                } else {
                    Stones::Wide(HashMap::new())
                });
            }
            id
        });
        Shape { id, orders }
    }

    /// The black and the white stones on the part's cells, as bits of
    /// their indices in the image where they make the least pair: with
    /// the shape, the key of the part's picture.
    fn key(&self, part: u64, pos: Coloured) -> (u64, u64) {
        let on = |order: &[u8; 64], stones: u64| {
            bits(part & stones).fold(0u64, |b, q| b | 1 << order[usize::from(q)])
        };
        self.orders
            .iter()
            .map(|o| (on(o, pos.black), on(o, pos.white)))
            .min()
            .unwrap()
    }
}

/// Empties this thread's tables of shapes and parts shared by all regions
/// (they only grow): for timing cold computations, or to give the memory
/// back.
pub fn clear_shared_parts() {
    TABLES.with(|t| *t.borrow_mut() = Tables::default());
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
    fn a_region_outlives_emptied_tables() {
        let r = Region::parse("corridor:unblocked:5").unwrap();
        let mut v = Values::new(r.clone(), Counting::Territory);
        v.plays(Color::Black);
        clear_shared_parts();
        value(
            &Region::parse("[BBBBB/B...B/BB.BB/#BBB#]").unwrap(),
            Counting::Territory,
        );
        let fresh = Values::new(r, Counting::Territory).plays(Color::White);
        assert_eq!(v.plays(Color::White), fresh);
        // Its shapes carry the numbers of the new tables.
        for (&MemoKey([part, black, white]), shape) in &v.shapes {
            let near = part | v.space.spread(part);
            let pos = Coloured { black, white };
            let again = Shape::new(&v.space, v.per_stone, part, near, pos);
            assert_eq!(shape.id, again.id);
        }
    }

    #[test]
    fn a_part_of_more_than_32_points() {
        // 33 black stones with one liberty, which Black may not fill:
        // White captures them.
        let chain = format!("[W{}.W]", "X".repeat(33));
        assert_eq!(of(&chain, Counting::Territory), "-67");
        assert_eq!(of(&chain, Counting::Prisoners), "-34");
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
