//! Short partizan combinatorial games (seed 003, *Mathematical Go*): exact
//! dyadic numbers, canonical forms, sums and comparison, standard notation,
//! stops, thermographs, cooling, and seed 003's chilling and warming.

pub mod dyadic;
pub mod game;
pub mod notation;
pub mod plot;
pub mod thermo;

pub use dyadic::Dyadic;
pub use game::Game;
