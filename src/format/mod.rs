//! The result file as bytes: its container codec ([`gsr`]) and the byte
//! codes of moves, players and proof marks ([`codes`]). It knows the engine's
//! move and colour types and nothing above them.

pub mod codes;
pub mod gsr;
