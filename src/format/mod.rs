//! The result file: its data ([`file`](mod@file)), its container codec ([`gsr`]), the byte
//! codes of moves, players, cells and proof marks ([`codes`]), and the
//! strict checks every decoded file passes ([`check`]: the board rebuilt,
//! the rules validated). It knows the engine's board, rules and vocabulary
//! types and nothing above them.

pub mod check;
pub mod codes;
pub mod file;
pub mod gsr;
