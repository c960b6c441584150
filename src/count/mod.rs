//! Exact counts that check the rules engine, as perft checks a chess move
//! generator: legal positions ([`positions`]) and complete games or
//! game-tree nodes per depth ([`games`]).

pub mod games;
pub mod positions;
