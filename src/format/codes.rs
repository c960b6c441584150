//! The byte codes of the result file: moves, players, the cells of a
//! start colouring, and the marks of a proof's strategy stream. One place,
//! so the writer, the readers and the checker agree on every byte; every
//! decoding function rejects a code it does not know.

use crate::engine::types::{Color, Move};

/// The byte that marks a link.
pub const LINK: u8 = 0xFF;

/// The byte that marks a node where unconditional life decides the bound.
/// Without it a proof plays on to the end of the game against every reply,
/// however hopeless (3x4's passed 2 M owner nodes).
pub const SECURE: u8 = 0xFE;

/// The byte that marks an owner node where unconditional life decides
/// the bound once the owner's enclosed regions count whole for it: the
/// owner takes every opponent stone played there and passes otherwise
/// (positional and situational superko, where no earlier colouring had
/// an owner stone in those regions: [`crate::engine::benson::ranges`]).
pub const WHOLE: u8 = 0xFC;

/// The first byte of a *closed* strategy: one move per state of the game
/// that remembers only its last few colourings, links allowed to any
/// state already met (module doc of [`crate::verify`]). Never a move code
/// (at most 65) or another mark.
pub const CLOSED: u8 = 0xFD;

/// Writes a link to owner node `id`: [`LINK`], then `id` as LEB128 (seven
/// bits a byte, low first, the high bit set on all but the last).
pub fn push_link(out: &mut Vec<u8>, mut id: u32) {
    out.push(LINK);
    loop {
        let b = (id & 0x7F) as u8;
        id >>= 7;
        if id == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

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

/// The player of a file code from [`player_code`]; `None` for any other byte.
pub fn player(code: u8) -> Option<Color> {
    match code {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

/// One point of a start colouring.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A stone that can be captured.
    Stone(Color),
    /// A `koh` border stone, assumed alive.
    Border(Color),
}

/// A cell as a file code: 0 empty, 1 / 2 a black / white stone, 3 / 4 a
/// black / white border stone.
pub fn cell_code(c: Cell) -> u8 {
    match c {
        Cell::Empty => 0,
        Cell::Stone(p) => player_code(p),
        Cell::Border(p) => 2 + player_code(p),
    }
}

/// The cell of a file code from [`cell_code`]; `None` for any other byte.
pub fn cell(code: u8) -> Option<Cell> {
    match code {
        0 => Some(Cell::Empty),
        1 | 2 => player(code).map(Cell::Stone),
        3 | 4 => player(code - 2).map(Cell::Border),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_and_no_other_byte_decodes() {
        for b in 0..=u8::MAX {
            assert_eq!(
                player(b).map(player_code),
                (1..=2).contains(&b).then_some(b)
            );
            assert_eq!(cell(b).map(cell_code), (b <= 4).then_some(b));
            assert_eq!(decode(b, 9).map(code), (b <= 9).then_some(b));
        }
    }
}
