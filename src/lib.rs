//! gosolve: an exhaustive solver for Go on tiny boards and small graphs.
//!
//! One folder per layer; each depends only on the layers above it in this
//! list:
//!
//! - [`engine`]: the graph (at most 64 points, so a `PointSet` is one
//!   `u64`), its symmetries, colourings, rules as data, the game state that
//!   owns the superko history, Benson's life.
//! - [`format`](mod@format): the result file as bytes: container and codes.
//! - [`count`]: exact counts of legal positions and games (perft).
//! - [`search`]: exact values over a superko-sound table, the proofs, a
//!   whole solve run and measured.
//! - [`store`]: result files in use: saving a solve, reading one back,
//!   resuming an interrupted one.
//! - [`play`]: a solved board in use: every move's value at any position
//!   (from the proof, else a live search within a budget), a GTP engine,
//!   SGF with a value on every node.
//! - [`verify`]: the independent checker, with its own plain rules code; it
//!   reads the result file and shares no code with `engine` or `search`
//!   beyond the rules' names.
//! - [`cgt`]: combinatorial game values; its Go regions use `engine`.
//! - [`cli`]: the command line, batches, the published table and progress
//!   bars: the application, which nothing else imports.
//!
//! ```
//! use gosolve::engine::{board::Board, game::{Game, Outcome}, rules::{Rules, Ruleset}, types::Move};
//! let board = Board::parse("1x3").unwrap();
//! let rules = Rules::new(Ruleset::TrompTaylor);
//! let mut game = Game::new(&board, &rules);
//! game.play(Move::Place(1));
//! game.play(Move::Pass);
//! game.play(Move::Pass);
//! assert_eq!(game.outcome(), Some(Outcome::Score(6))); // +3, in half points
//! ```

#![deny(missing_docs)]

pub mod cgt;
pub mod cli;
pub mod count;
pub mod engine;
pub mod format;
pub mod play;
pub mod search;
pub mod store;
pub mod verify;
