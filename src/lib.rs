//! gosolve: an exhaustive solver for Go on tiny boards and small graphs.
//!
//! The layers, each depending only on those above it:
//!
//! - [`board`]: the graph (at most 64 points, a point set is a `u64`).
//! - [`position`]: a colouring as two bitboards; placing, captures, scoring.
//! - [`diagram`]: ASCII diagrams in and out.
//! - [`rules`] and [`game`]: every ruleset of `RULES.md` as data, and the
//!   game state that owns history, passes and prisoners.
//! - [`plain`]: a second, plain implementation of the rules for checking.
//! - [`count`] and [`games`]: exact counts (legal positions, games, perft).
//! - [`solver`] (with [`tt`], [`benson`]): exact values; [`report`] runs it.
//! - [`proof`]: both sides' strategies after a solve; [`gsr`] the result
//!   file, [`save`] and [`inspect`] its conversions, [`resume`] the
//!   first-move values of an interrupted solve; [`verify`] the
//!   independent checker (plain rules only).
//! - [`cgt`]: short partizan games (canonical forms, thermographs, seed
//!   003's chilling and warming), independent of the layers above except
//!   that Go regions ([`cgt::region`], [`cgt::koh`]) use [`board`] and
//!   [`position`].
//!
//! ```
//! use gosolve::{board::Board, game::Game, rules::{Rules, Ruleset}, types::Move};
//! let board = Board::parse("1x3").unwrap();
//! let rules = Rules::new(Ruleset::TrompTaylor);
//! let mut game = Game::new(&board, &rules);
//! game.play(Move::Place(1));
//! game.play(Move::Pass);
//! game.play(Move::Pass);
//! assert_eq!(game.outcome(), Some(gosolve::game::Outcome::Score(6))); // +3, in half points
//! ```

#![deny(missing_docs)]

pub mod batch;
pub mod benson;
pub mod board;
pub mod cgt;
pub mod count;
pub mod diagram;
pub mod game;
pub mod games;
pub mod gsr;
pub mod inspect;
pub mod plain;
pub mod plain_life;
pub mod position;
pub mod proof;
pub mod published;
pub mod report;
pub mod resume;
pub mod rules;
pub mod save;
pub mod solver;
pub mod tt;
pub mod types;
pub mod verify;
