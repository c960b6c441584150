//! Short partizan combinatorial games (seed 003, *Mathematical Go*): exact
//! dyadic numbers, canonical forms, sums and comparison, standard notation,
//! stops, thermographs, cooling, and seed 003's chilling and warming; Go
//! regions under seed 003's rules as games, and sums of regions and games.

pub mod dyadic;
pub mod game;
pub mod koh;
pub mod notation;
pub mod plot;
pub mod region;
pub mod sum;
pub mod thermo;

/// Why a number, a game or a sum could not be read; the message names the
/// input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

pub use dyadic::Dyadic;
pub use game::Game;
