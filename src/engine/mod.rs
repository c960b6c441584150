//! The rules engine: the graph, colourings, rules as data and the game
//! state that owns the history. Nothing here allocates on the hot path,
//! and nothing here knows of search, files or the command line.
//!
//! Dependencies point down this list: [`types`] ← [`board`] ←
//! [`symmetry`], [`position`] ← [`setup`] ← [`diagram`] ← [`rules`] ←
//! [`game`], [`benson`].

pub mod benson;
pub mod board;
pub mod diagram;
pub mod game;
pub mod position;
pub mod rules;
pub mod setup;
pub mod symmetry;
pub mod types;
