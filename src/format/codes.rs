//! The byte codes of the result file: moves, players, and the marks of a
//! proof's strategy stream. One place, so the writer, the readers and the
//! checker agree on every byte.

use crate::engine::types::{Color, Move};

/// The byte that marks a link.
pub const LINK: u8 = 0xFF;

/// The byte that marks a node where unconditional life decides the bound.
/// Without it a proof plays on to the end of the game against every reply,
/// however hopeless (3x4's passed 2 M owner nodes).
pub const SECURE: u8 = 0xFE;

/// A move as a file code: 0 = pass, p + 1 = point p.
pub fn code(m: Move) -> u8 {
    m.code()
}

/// The move of a file code, if it fits a board of `n` points.
pub fn decode(c: u8, n: usize) -> Option<Move> {
    (c as usize <= n).then(|| Move::from_code(c))
}

/// A player as a file code: 1 Black, 2 White (who moves first, a strategy's owner).
pub fn player_code(c: Color) -> u8 {
    if c == Color::Black { 1 } else { 2 }
}

/// The player of a file code from [`player_code`].
pub fn player(code: u8) -> Color {
    if code == 1 {
        Color::Black
    } else {
        Color::White
    }
}
