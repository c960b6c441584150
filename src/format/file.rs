//! What a result file holds, as plain data: the board, the rules, how it
//! was solved, the value, every first move's class and value, the principal
//! variation and the proofs. [`crate::format::gsr`] turns it into bytes and
//! back; [`crate::format::check`] checks every field of one read back.

use serde::{Deserialize, Serialize};

/// The board as stored: enough to rebuild it without the program's names.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// The board spec it was solved as (`3x3`, `cycle:6`, `file:...`).
    pub name: String,
    /// Number of points.
    pub points: u32,
    /// Every edge once, as point indices.
    pub edges: Vec<(u8, u8)>,
}

/// The rules as stored.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RulesInfo {
    /// Ruleset name (`tromp-taylor`, ...).
    pub ruleset: String,
    /// Superko name.
    pub superko: String,
    /// Suicide name.
    pub suicide: String,
    /// Komi in half points.
    pub komi_half: i32,
    /// The start colouring, one cell per point (0 empty, 1 black, 2 white,
    /// 3 / 4 black / white border stones that are never captured).
    pub start: Vec<u8>,
    /// Who moves first: 1 Black, 2 White.
    pub to_move: u8,
    /// The rules in words.
    pub description: String,
}

impl RulesInfo {
    /// Whether the stored ruleset scores (false: won or lost, or unknown).
    pub fn scored(&self) -> bool {
        self.ruleset
            .parse::<crate::engine::rules::Ruleset>()
            .is_ok_and(|r| r.has_score())
    }
}

/// How the solve was run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Program name and version.
    pub program: String,
    /// UTC date and time of the solve, ISO 8601.
    pub date: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds until the value was known (with the extraction of the
    /// strategies of classes settled on the way, from 2026-11-30).
    pub seconds: f64,
    /// Seconds of the proof extraction after that.
    pub proof_seconds: f64,
    /// Threads.
    pub threads: u32,
    /// Table size in megabytes.
    pub tt_mb: u32,
}

/// One move of a first-move class and the symmetry that maps the class's
/// representative (the first member) onto it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The move code.
    pub mv: u8,
    /// The board automorphism as the image of each point.
    pub perm: Vec<u8>,
}

/// What a first-move class's stored value claims (format version 4; every
/// class of an older file is exact).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The class's exact value: both sides' strategies prove it.
    Exact,
    /// The class's value is at most the stored one: only White's strategy
    /// proves it (a first move worse for Black, who moves first, than the
    /// board's value; `solve --first-moves bounds`).
    AtMost,
    /// The class's value is at least the stored one: only Black's strategy
    /// proves it (a first move worse for White, who moves first).
    AtLeast,
}

impl Claim {
    /// The value's text with the claim: "+2", "≤ −1".
    pub fn text(self, value: &str) -> String {
        match self {
            Claim::Exact => value.to_string(),
            Claim::AtMost => format!("≤ {value}"),
            Claim::AtLeast => format!("≥ {value}"),
        }
    }

    /// Whether Black's strategy (`black`) or White's is part of the
    /// proof: both for an exact value, the bound's owner's for a bound.
    pub fn proved_by(self, black: bool) -> bool {
        match self {
            Claim::Exact => true,
            Claim::AtMost => !black,
            Claim::AtLeast => black,
        }
    }

    /// Its name in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Claim::Exact => "exact",
            Claim::AtMost => "at most",
            Claim::AtLeast => "at least",
        }
    }
}

/// A class of symmetric first moves and its value.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    /// Black − White − komi in half points (normal play: ±1).
    pub value: i32,
    /// Whether `value` is exact or a bound.
    pub claim: Claim,
    /// The moves, the representative first.
    pub members: Vec<Member>,
}

/// One stored strategy: after the class's representative move, the
/// owner's strategy guarantees the bound.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ProofInfo {
    /// Index into the classes.
    pub class: u32,
    /// 1 Black (value ≥ bound), 2 White (value ≤ bound).
    pub owner: u8,
    /// The bound, in Black's half points (normal play: ±1).
    pub bound: i32,
    /// Owner nodes in the stream.
    pub nodes: u32,
    /// The strategy stream.
    pub bytes: Vec<u8>,
}

/// Everything a result file holds.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ResultFile {
    /// The board.
    pub board: BoardInfo,
    /// The rules.
    pub rules: RulesInfo,
    /// How it was solved.
    pub run: RunInfo,
    /// The value: Black − White − komi in half points (normal play: ±1).
    pub value: i32,
    /// Every legal first move, by class.
    pub classes: Vec<ClassInfo>,
    /// A principal variation, as move codes.
    pub pv: Vec<u8>,
    /// The proofs.
    pub proofs: Vec<ProofInfo>,
}
