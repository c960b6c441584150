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

pub use dyadic::Dyadic;
pub use game::Game;
