//! The search: exact values ([`solver`]) over a superko-sound table
//! ([`tt`]), the proofs extracted from it ([`proof`]), and a whole solve
//! run and measured ([`run`]).

pub mod proof;
pub mod run;
pub mod solver;
pub mod tt;
