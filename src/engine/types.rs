//! The small `Copy` vocabulary: colours and moves.

use std::fmt;

/// A player, and the colour of that player's stones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Moves first on an empty board; maximises the value.
    Black,
    /// Minimises the value.
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name, as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per player, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// Who is to move in an entry of the superko history: a player, or either
/// under positional superko, where only the colouring counts. The
/// discriminants are the numbers hashes and state indices use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum ToMove {
    /// Black is to move.
    Black = 0,
    /// White is to move.
    White = 1,
    /// Either player: the entry is a colouring only.
    Either = 2,
}

impl ToMove {
    /// The entry of a player to move.
    #[inline]
    pub fn of(c: Color) -> ToMove {
        match c {
            Color::Black => ToMove::Black,
            Color::White => ToMove::White,
        }
    }
}

/// A turn: pass, or a stone on a point (an index below 64).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// Pass (in `conway-replacement` and `koh`: give back one prisoner).
    Pass,
    /// Place a stone of the mover's colour on this point.
    Place(u8),
}

/// A point of the board: an index below 64.
pub type Point = u8;

/// A set of points of one board: bit `p` is point `p` (at most 64 points).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct PointSet(pub u64);

impl PointSet {
    /// No points.
    pub const EMPTY: PointSet = PointSet(0);

    /// The set of one point.
    #[inline]
    pub fn single(p: Point) -> PointSet {
        PointSet(1 << p)
    }

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        self.0 >> p & 1 == 1
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many points it holds.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The set of its lowest point (empty if it is empty).
    #[inline]
    pub fn lowest(self) -> PointSet {
        PointSet(self.0 & self.0.wrapping_neg())
    }

    /// Its lowest point, if any.
    #[inline]
    pub fn first(self) -> Option<Point> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as Point)
    }

    /// Its points, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Point> {
        bits(self.0)
    }
}

impl std::ops::BitAnd for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitand(self, o: PointSet) -> PointSet {
        PointSet(self.0 & o.0)
    }
}

impl std::ops::BitOr for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitor(self, o: PointSet) -> PointSet {
        PointSet(self.0 | o.0)
    }
}

impl std::ops::BitXor for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitxor(self, o: PointSet) -> PointSet {
        PointSet(self.0 ^ o.0)
    }
}

impl std::ops::Not for PointSet {
    type Output = PointSet;
    /// The complement among all 64 bits: intersect with the board's mask.
    #[inline]
    fn not(self) -> PointSet {
        PointSet(!self.0)
    }
}

impl std::ops::BitAndAssign for PointSet {
    #[inline]
    fn bitand_assign(&mut self, o: PointSet) {
        self.0 &= o.0;
    }
}

impl std::ops::BitOrAssign for PointSet {
    #[inline]
    fn bitor_assign(&mut self, o: PointSet) {
        self.0 |= o.0;
    }
}

impl std::ops::BitXorAssign for PointSet {
    #[inline]
    fn bitxor_assign(&mut self, o: PointSet) {
        self.0 ^= o.0;
    }
}

/// Iterates the set bits of a point set, lowest first.
#[inline]
pub fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let p = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(p)
        }
    })
}

impl Move {
    /// How many move codes there are: the pass and one per point of a
    /// 64-point board. Tables indexed by code have this many slots.
    pub const CODES: usize = 65;

    /// The move as a byte code: 0 = pass, p + 1 = point p (tables and files).
    #[inline]
    pub fn code(self) -> u8 {
        match self {
            Move::Pass => 0,
            Move::Place(p) => p + 1,
        }
    }

    /// The move of a code from [`Move::code`].
    #[inline]
    pub fn from_code(c: u8) -> Move {
        if c == 0 {
            Move::Pass
        } else {
            Move::Place(c - 1)
        }
    }
}
