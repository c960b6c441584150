//! The search: exact values over a superko-sound table, the proofs
//! extracted from it ([`proof`]), and a whole solve run and what it
//! measured ([`run`]).
//!
//! The exact solver is split by concern: [`solver`] holds the shared state
//! and the main search (its steps numbered), [`facts`] why a stored bound
//! may be used on another path, `table_use` the table's use, `keys` the
//! keys and hashes, `syms` the symmetry maps, `ordering` the move order,
//! `paths` the history-dependent results kept by path for the proof,
//! `reach` the history states a small board's game can still ask about,
//! [`bounds`] the value range and static bounds, [`guide_file`] the guide
//! table kept on disk between runs, [`pattern`] the learned estimate that
//! steers where no guide does, [`checkpoint`] the table
//! written to disk and read back, `driver` the exact-value
//! driver, and [`root`] the first moves and their parallel search.

pub mod bounds;
pub mod checkpoint;
pub mod closed;
pub mod dfpn;
mod driver;
pub mod facts;
pub mod guide;
pub mod guide_file;
mod help;
mod keys;
mod ordering;
mod paths;
pub mod pattern;
pub mod proof;
mod reach;
pub mod root;
pub mod run;
pub mod solver;
mod syms;
mod table_use;
pub mod tt;
