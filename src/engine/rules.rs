//! Rules as plain data: a ruleset and its options, with string round-trips
//! that the command line uses directly. See `RULES.md` for the rulesets.

use crate::engine::board::Board;
use crate::engine::diagram;
use crate::engine::setup::Setup;
use std::fmt;
use std::str::FromStr;

/// Why a rule or option was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal $(| $alias:literal)*,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum $name { $($(#[$vm])* $variant,)* }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The command-line name.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($text $(| $alias)* => Ok($name::$variant),)*
                    _ => Err(RulesError(format!(
                        "unknown {} `{}` (expected one of: {})",
                        stringify!($name).to_ascii_lowercase(),
                        s,
                        [$($text),*].join(", ")
                    ))),
                }
            }
        }
    };
}

named_enum! {
    /// The six rulesets of `RULES.md`.
    Ruleset {
        /// Area scoring, positional superko, suicide allowed, two passes end.
        TrompTaylor = "tromp-taylor" | "tt",
        /// General Graph Go: Tromp-Taylor on any graph and start colouring.
        Ggg = "ggg",
        /// Conway Go without replacement: no passes; who cannot move loses.
        Conway = "conway",
        /// Conway Go with replacement: a pass gives back one prisoner.
        ConwayReplacement = "conway-replacement" | "conway-rep",
        /// The Logical Rules: area scoring plus prisoners.
        Logical = "logical",
        /// The endgame rules of combinatorial game theory (seed 003).
        Koh = "koh",
    }
}

named_enum! {
    /// Which repetitions a placing may not create.
    Superko {
        /// No earlier colouring.
        Positional = "positional" | "psk",
        /// No earlier colouring with the same player to move.
        Situational = "situational" | "ssk",
        /// Basic ko only; any other repetition ends the game as a tie.
        None = "none" | "basic",
    }
}

named_enum! {
    /// Whether a placing may remove the mover's own stones.
    Suicide {
        /// Suicide is a legal move.
        Allowed = "allowed" | "yes",
        /// Suicide is illegal.
        Forbidden = "forbidden" | "no",
    }
}

/// How a ruleset treats passing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PassRule {
    /// Always allowed; two consecutive passes end the game.
    Free,
    /// Not a legal turn.
    Never,
    /// Allowed while the mover holds a prisoner, which it gives back; no
    /// two-pass ending, and the pass does not enter the superko history.
    CostsPrisoner,
}

impl Ruleset {
    /// True when the game ends in a score rather than a win or a loss.
    pub fn has_score(self) -> bool {
        matches!(self, Ruleset::TrompTaylor | Ruleset::Ggg | Ruleset::Logical)
    }

    /// The pass rule.
    pub fn pass_rule(self) -> PassRule {
        match self {
            Ruleset::TrompTaylor | Ruleset::Ggg | Ruleset::Logical => PassRule::Free,
            Ruleset::Conway => PassRule::Never,
            Ruleset::ConwayReplacement | Ruleset::Koh => PassRule::CostsPrisoner,
        }
    }

    /// Whether the prisoners each side holds can change the rest of a game:
    /// they are scored (`logical`) or a pass spends one.
    pub fn prisoners_matter(self) -> bool {
        self == Ruleset::Logical || self.pass_rule() == PassRule::CostsPrisoner
    }

    /// Suicide unless told otherwise: every ruleset allows it but `koh`.
    pub fn default_suicide(self) -> Suicide {
        if self == Ruleset::Koh {
            Suicide::Forbidden
        } else {
            Suicide::Allowed
        }
    }
}

/// Komi in half points (a multiple of 0.5), subtracted from Black's score.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Komi(pub i32);

/// The largest komi, in points, either way. The search keeps values as
/// 16-bit half points (at most 32,767); a value is a score (at most 64
/// points either way, area) less the komi, and under `logical` the
/// search's value range (prisoners included) does not widen with komi.
/// 1,000 points keeps every value inside both, and is far beyond what
/// any board of 64 points can score.
pub const MAX_KOMI: i32 = 1000;

impl Komi {
    /// Komi of `half` half points, if within [`MAX_KOMI`].
    pub fn from_half(half: i32) -> Result<Komi, RulesError> {
        if half.unsigned_abs() > 2 * MAX_KOMI as u32 {
            return Err(RulesError(format!(
                "komi {} is out of range: at most {MAX_KOMI} points either way",
                half_points(half)
            )));
        }
        Ok(Komi(half))
    }
}

impl FromStr for Komi {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Komi, RulesError> {
        let bad = || {
            RulesError(format!(
                "bad komi `{s}`: expected a multiple of 0.5, e.g. 7 or -2.5"
            ))
        };
        let x: f64 = s.trim().parse().map_err(|_| bad())?;
        let half = x * 2.0;
        if !half.is_finite() || half.fract() != 0.0 {
            return Err(bad());
        }
        if half.abs() > 2.0 * MAX_KOMI as f64 {
            return Err(RulesError(format!(
                "komi {} is out of range: at most {MAX_KOMI} points either way",
                s.trim()
            )));
        }
        Komi::from_half(half as i32)
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&half_points(self.0))
    }
}

/// Formats a number of half points: `7`, `-2.5`, `0.5`.
pub fn half_points(h: i32) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    if a % 2 == 0 {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

/// A value for people: `+9`, `-2.5`, `0`, or who wins.
pub fn value_text(scored: bool, v: i32) -> String {
    if !scored {
        return if v > 0 {
            "Black wins".into()
        } else {
            "White wins".into()
        };
    }
    let s = half_points(v);
    if v > 0 { format!("+{s}") } else { s }
}

/// A ruleset with every option settled and checked against a board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Rules {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// The repetition rule (not used by `koh`, where no point is replayed).
    pub superko: Superko,
    /// Whether suicide is legal.
    pub suicide: Suicide,
    /// Komi (scored rulesets only).
    pub komi: Komi,
    /// The start position.
    pub setup: Setup,
}

/// The options as given, before they are checked against a ruleset and board.
#[derive(Clone, Debug, Default)]
pub struct RuleOptions {
    /// `--superko`.
    pub superko: Option<Superko>,
    /// `--suicide`.
    pub suicide: Option<Suicide>,
    /// `--komi`.
    pub komi: Option<Komi>,
    /// `--start`, a diagram.
    pub start: Option<String>,
}

impl Rules {
    /// The ruleset with its defaults on the empty board.
    pub fn new(ruleset: Ruleset) -> Rules {
        Rules {
            ruleset,
            superko: Superko::Positional,
            suicide: ruleset.default_suicide(),
            komi: Komi(0),
            setup: Setup::EMPTY,
        }
    }

    /// Settles `opts` for `ruleset` on `board`, rejecting combinations the
    /// ruleset does not define:
    ///
    /// - komi only where there is a score;
    /// - `--superko none` (repetition is a tie) only where there is a score;
    /// - `koh` takes no superko option (no point is played twice, so nothing
    ///   repeats) and forbids suicide, as seed 003 states;
    /// - `B` / `W` (stones assumed alive) only under `koh`;
    /// - the start colouring must be legal: every group reaches an empty point
    ///   (under `koh`, every group without a border stone).
    pub fn build(ruleset: Ruleset, opts: &RuleOptions, board: &Board) -> Result<Rules, RulesError> {
        let mut rules = Rules::new(ruleset);
        let err = |s: String| Err(RulesError(s));
        if let Some(k) = opts.komi {
            if k.0 != 0 && !ruleset.has_score() {
                return err(format!(
                    "`{ruleset}` is won or lost, not scored: komi does not apply"
                ));
            }
            rules.komi = k;
        }
        if let Some(s) = opts.superko {
            if ruleset == Ruleset::Koh {
                return err(
                    "`koh` has no superko option: a point once played is never played again".into(),
                );
            }
            if s == Superko::None && !ruleset.has_score() {
                return err(format!(
                    "`--superko none` scores a repetition as a tie, and `{ruleset}` has no ties"
                ));
            }
            rules.superko = s;
        }
        if let Some(s) = opts.suicide {
            if ruleset == Ruleset::Koh && s == Suicide::Allowed {
                return err("`koh` forbids suicide (seed 003)".into());
            }
            rules.suicide = s;
        }
        if let Some(text) = &opts.start {
            let setup = diagram::parse(board, text).map_err(|e| RulesError(e.to_string()))?;
            if !setup.immortal.is_empty() && ruleset != Ruleset::Koh {
                return err("`B` and `W` (stones assumed alive) exist only under `koh`".into());
            }
            if !setup.position.is_legal(board, setup.immortal) {
                return err("the start position has a group with no liberty".into());
            }
            rules.setup = setup;
        }
        rules.validate(board)?;
        Ok(rules)
    }

    /// Checks a settled value against `board`, as read back from a file:
    /// every combination [`Rules::build`] refuses is refused here too (komi
    /// only where scored and within [`MAX_KOMI`], `--superko none` only
    /// where scored, `koh` with its own superko and suicide, border stones
    /// only under `koh`), and the start must be a legal colouring of the
    /// board.
    pub fn validate(&self, board: &Board) -> Result<(), RulesError> {
        let err = |s: String| Err(RulesError(s));
        let ruleset = self.ruleset;
        Komi::from_half(self.komi.0)?;
        if self.komi.0 != 0 && !ruleset.has_score() {
            return err(format!(
                "`{ruleset}` is won or lost, not scored: komi does not apply"
            ));
        }
        if self.superko == Superko::None && !ruleset.has_score() {
            return err(format!(
                "`--superko none` scores a repetition as a tie, and `{ruleset}` has no ties"
            ));
        }
        if ruleset == Ruleset::Koh && self.superko != Rules::new(ruleset).superko {
            return err(
                "`koh` has no superko option: a point once played is never played again".into(),
            );
        }
        if ruleset == Ruleset::Koh && self.suicide == Suicide::Allowed {
            return err("`koh` forbids suicide (seed 003)".into());
        }
        let s = &self.setup;
        let stones = s.position.black | s.position.white;
        if !(s.position.black & s.position.white).is_empty()
            || !(stones & !board.mask()).is_empty()
            || !(s.immortal & !stones).is_empty()
        {
            return err("the start position is not a colouring of the board".into());
        }
        if !s.immortal.is_empty() && ruleset != Ruleset::Koh {
            return err("`B` and `W` (stones assumed alive) exist only under `koh`".into());
        }
        if !s.position.is_legal(board, s.immortal) {
            return err("the start position has a group with no liberty".into());
        }
        Ok(())
    }

    /// Whether a repetition is a tie and easy to force: `--superko none`
    /// (a repetition ends the game at 0) with suicide allowed (a lone
    /// stone's suicide changes nothing but the player to move).
    pub fn suicide_ties(&self) -> bool {
        self.superko == Superko::None && self.suicide == Suicide::Allowed
    }

    /// A short description: `tromp-taylor, positional superko, suicide allowed, komi 0`.
    pub fn describe(&self) -> String {
        let mut parts = vec![self.ruleset.name().to_string()];
        if self.ruleset != Ruleset::Koh {
            parts.push(format!("{} superko", self.superko));
        }
        parts.push(format!("suicide {}", self.suicide));
        if self.ruleset.has_score() {
            parts.push(format!("komi {}", self.komi));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Ruleset::ALL {
            assert_eq!(r.name().parse::<Ruleset>().unwrap(), *r);
        }
        for s in Superko::ALL {
            assert_eq!(s.to_string().parse::<Superko>().unwrap(), *s);
        }
        assert!("japanese".parse::<Ruleset>().is_err());
        for k in ["0", "7", "-2.5", "0.5", "-0.5", "6.5"] {
            assert_eq!(k.parse::<Komi>().unwrap().to_string(), k);
        }
        assert!("0.3".parse::<Komi>().is_err());
        assert_eq!("-1000".parse::<Komi>(), Ok(Komi(-2000)));
        assert!("1000.5".parse::<Komi>().is_err());
        assert!("16385".parse::<Komi>().is_err());
        assert!(Komi::from_half(i32::MIN).is_err());
        assert!("nan".parse::<Komi>().is_err());
    }

    #[test]
    fn options_are_checked() {
        let b = Board::parse("2x2").unwrap();
        let komi = RuleOptions {
            komi: Some(Komi(1)),
            ..Default::default()
        };
        assert!(Rules::build(Ruleset::Conway, &komi, &b).is_err());
        assert_eq!(
            Rules::build(Ruleset::Logical, &komi, &b).unwrap().komi,
            Komi(1)
        );
        let none = RuleOptions {
            superko: Some(Superko::None),
            ..Default::default()
        };
        assert!(Rules::build(Ruleset::ConwayReplacement, &none, &b).is_err());
        let dead = RuleOptions {
            start: Some("XO/OX".into()),
            ..Default::default()
        };
        assert!(Rules::build(Ruleset::TrompTaylor, &dead, &b).is_err());
        let alive = RuleOptions {
            start: Some("BW/.O".into()),
            ..Default::default()
        };
        assert!(Rules::build(Ruleset::Koh, &alive, &b).is_ok());
        assert!(Rules::build(Ruleset::Ggg, &alive, &b).is_err());
        assert_eq!(Rules::new(Ruleset::Koh).suicide, Suicide::Forbidden);
    }
}
