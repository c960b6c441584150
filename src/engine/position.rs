//! A history-free colouring as two bitboards, with placing and area scoring.
//!
//! Bit `p` of `black` (`white`) is set when point `p` holds a black (white)
//! stone. Groups are found by flood fill over the board's neighbour masks;
//! nothing here allocates.

use crate::engine::board::Board;
use crate::engine::types::{Color, Point, PointSet};

/// A colouring of the board: Black's and White's stones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Position {
    /// Black stones.
    pub black: PointSet,
    /// White stones.
    pub white: PointSet,
}

/// The result of placing a stone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placed {
    /// The colouring after captures and suicide.
    pub position: Position,
    /// Opponent stones removed.
    pub captured: u32,
    /// The mover's own stones removed (suicide, the placed stone included).
    pub suicided: u32,
}

/// The group of `seed` inside `within`: every point of `within` connected to
/// `seed` through points of `within`.
#[inline]
pub fn flood(board: &Board, seed: PointSet, within: PointSet) -> PointSet {
    PointSet(flood_by(|s| board.spread(PointSet(s)).0, seed.0, within.0))
}

/// [`flood`] with the neighbours of a set given by `spread`.
#[inline]
pub fn flood_by(spread: impl Fn(u64) -> u64, seed: u64, within: u64) -> u64 {
    let mut group = seed & within;
    let mut frontier = group;
    while frontier != 0 {
        frontier = spread(frontier) & within & !group;
        group |= frontier;
    }
    group
}

impl Position {
    /// The empty board.
    pub const EMPTY: Position = Position {
        black: PointSet::EMPTY,
        white: PointSet::EMPTY,
    };

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, c: Color) -> PointSet {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    #[inline]
    fn stones_mut(&mut self, c: Color) -> &mut PointSet {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> PointSet {
        self.black | self.white
    }

    /// Every empty point of `board`.
    #[inline]
    pub fn empty(&self, board: &Board) -> PointSet {
        board.mask() & !self.occupied()
    }

    /// The colour on point `p`, or `None` if it is empty.
    pub fn at(&self, p: Point) -> Option<Color> {
        if self.black.contains(p) {
            Some(Color::Black)
        } else if self.white.contains(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Places a stone of colour `c` on the empty point `p`: colour it, clear
    /// the opponent's groups without liberty, then clear `c`'s. Groups that
    /// meet `immortal` are never cleared (the `koh` border stones).
    #[inline]
    pub fn place(&self, board: &Board, p: Point, c: Color, immortal: PointSet) -> Placed {
        debug_assert!(!self.occupied().contains(p), "placing on an occupied point");
        let bit = PointSet::single(p);
        let mut pos = *self;
        *pos.stones_mut(c) |= bit;
        let opp = pos.stones(c.opp());
        let mut empty = pos.empty(board);

        // Only opponent groups next to `p` can lose their last liberty.
        let mut captured_set = PointSet::EMPTY;
        let mut todo = board.neighbours(p) & opp;
        while !todo.is_empty() {
            let group = flood(board, todo.lowest(), opp);
            todo &= !group;
            if (group & immortal).is_empty() && (board.spread(group) & empty).is_empty() {
                captured_set |= group;
            }
        }
        if !captured_set.is_empty() {
            *pos.stones_mut(c.opp()) &= !captured_set;
            empty |= captured_set;
        }

        // Only the group holding `p` can be left without a liberty.
        let own = pos.stones(c);
        let group = flood(board, bit, own);
        let mut suicided = 0;
        if (group & immortal).is_empty() && (board.spread(group) & empty).is_empty() {
            *pos.stones_mut(c) &= !group;
            suicided = group.len();
        }
        Placed {
            position: pos,
            captured: captured_set.len(),
            suicided,
        }
    }

    /// True when every group not meeting `immortal` reaches an empty point.
    pub fn is_legal(&self, board: &Board, immortal: PointSet) -> bool {
        let empty = self.empty(board);
        let libs = board.spread(empty);
        [self.black, self.white].into_iter().all(|stones| {
            let alive = flood(board, (libs | immortal) & stones, stones);
            alive == stones
        })
    }

    /// Area scores `(black, white)`: stones plus empty points that reach
    /// only that colour.
    pub fn area(&self, board: &Board) -> (u32, u32) {
        let empty = self.empty(board);
        let near_black = flood(board, board.spread(self.black) & empty, empty);
        let near_white = flood(board, board.spread(self.white) & empty, empty);
        (
            self.black.len() + (near_black & !near_white).len(),
            self.white.len() + (near_white & !near_black).len(),
        )
    }

    /// Stones plus the empty points nearer to that colour's stones than to
    /// the other's, `(black, white)`; points as near to both go to
    /// neither. A guess at the final area where the game is far from over
    /// ([`area`](Position::area) gives one open region to nobody).
    pub fn nearer(&self, board: &Board) -> (u32, u32) {
        let (mut b, mut w) = (self.black, self.white);
        let mut free = self.empty(board);
        loop {
            let (nb, nw) = (board.spread(b) & free, board.spread(w) & free);
            if nb.is_empty() && nw.is_empty() {
                return (b.len(), w.len());
            }
            let both = nb & nw;
            b |= nb & !both;
            w |= nw & !both;
            free &= !(nb | nw);
        }
    }

    /// Empty points that reach neither colour (they count for both players
    /// under `ggg` scoring).
    pub fn untouched(&self, board: &Board) -> u32 {
        let empty = self.empty(board);
        let near = flood(board, board.spread(self.occupied()) & empty, empty);
        (empty & !near).len()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::board::Board;
    use crate::engine::diagram;

    fn nearer(spec: &str, d: &str) -> (u32, u32) {
        let b = Board::parse(spec).unwrap();
        diagram::parse(&b, d).unwrap().position.nearer(&b)
    }

    /// Each empty point goes to the nearer colour; a tie goes to neither,
    /// and it blocks the spread past it.
    #[test]
    fn nearer_splits_regions_by_distance() {
        assert_eq!(nearer("1x7", "X.....O"), (3, 3));
        assert_eq!(nearer("1x6", "X....O"), (3, 3));
        assert_eq!(nearer("1x5", "X...."), (5, 0));
        assert_eq!(nearer("1x5", "....."), (0, 0));
        // 3x3, Black in a corner, White in the opposite one: the
        // anti-diagonal's three points are as near to both.
        assert_eq!(nearer("3x3", "X../.../..O"), (3, 3));
        // Area gives this open board's region to nobody.
        let b = Board::parse("3x3").unwrap();
        let p = diagram::parse(&b, "X../.../..O").unwrap().position;
        assert_eq!(p.area(&b), (1, 1));
    }
}
