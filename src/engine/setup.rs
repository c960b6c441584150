//! A start position, as the rules hold it and a diagram gives it.

use crate::engine::position::Position;
use crate::engine::types::{Color, PointSet};

/// A start position: a colouring, the player to move, and the stones that
/// can never be captured (`koh` border stones; empty for other rulesets).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Setup {
    /// The start colouring.
    pub position: Position,
    /// Who moves first.
    pub to_move: Color,
    /// Stones assumed alive (`B` / `W` in a diagram).
    pub immortal: PointSet,
}

impl Setup {
    /// The empty board with Black to move.
    pub const EMPTY: Setup = Setup {
        position: Position::EMPTY,
        to_move: Color::Black,
        immortal: PointSet::EMPTY,
    };
}
