//! A finished solve as a result file: names, and the conversion from the
//! program's types to the file's plain data.

use crate::engine::board::Board;
use crate::engine::rules::{Rules, half_points};
use crate::engine::rules::{Ruleset, Suicide};
use crate::engine::types::Color;
use crate::format::codes::{Cell, cell_code, code, player_code};
use crate::format::gsr::{BoardInfo, ClassInfo, Member, ProofInfo, ResultFile, RulesInfo, RunInfo};
use crate::search::run::Report;
use crate::search::solver::{Config, FirstMoves};
use std::path::{Path, PathBuf};

/// A 32-bit FNV-1a digest of some words, for short, stable file names.
fn digest(words: impl IntoIterator<Item = u64>) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for x in words {
        for b in x.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h as u32
}

/// Where a solve writes by default: [`default_path`], and under
/// `--first-moves bounds` beside it, `-bounds` added to the name, so that
/// it never replaces a file with every first move's exact value (nor
/// shares its resume file).
pub fn result_path(board: &Board, rules: &Rules, first_moves: FirstMoves) -> PathBuf {
    let exact = default_path(board, rules);
    if first_moves == FirstMoves::Exact {
        return exact;
    }
    let stem = exact.file_stem().expect("a file name").to_string_lossy();
    exact.with_file_name(format!("{stem}-bounds.gsr"))
}

/// `results/<board>-<rules>[-<options>].gsr`: options other than the
/// ruleset's defaults are spelled out; a start position adds a short hash.
/// A `file:` board is named by its file's stem, which two folders can
/// share (`ga/g.txt`, `gb/g.txt`), so its name adds a digest of its points
/// and edges: one board, one name, wherever its file is.
pub fn default_path(board: &Board, rules: &Rules) -> PathBuf {
    let mut name: String = board
        .name()
        .trim_start_matches("file:")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    name = name.trim_matches('-').to_string();
    if board.name().starts_with("file:") {
        let edges = board
            .edges()
            .into_iter()
            .map(|(a, b)| (a as u64) << 8 | b as u64);
        name += &format!(
            "-{:08x}",
            digest(std::iter::once(board.len() as u64).chain(edges))
        );
    }
    name += &format!("-{}", rules.ruleset.name());
    let defaults = Rules::new(rules.ruleset);
    if rules.ruleset != Ruleset::Koh && rules.superko != defaults.superko {
        name += &format!("-superko-{}", rules.superko.name());
    }
    if rules.suicide != defaults.suicide {
        name += &format!(
            "-suicide-{}",
            match rules.suicide {
                Suicide::Allowed => "allowed",
                Suicide::Forbidden => "forbidden",
            }
        );
    }
    if rules.komi.0 != 0 {
        name += &format!("-komi-{}", half_points(rules.komi.0));
    }
    if rules.setup != defaults.setup {
        let h = digest([
            rules.setup.position.black.0,
            rules.setup.position.white.0,
            rules.setup.immortal.0,
            rules.setup.to_move as u64,
        ]);
        name += &format!("-start-{h:08x}");
    }
    PathBuf::from("results").join(format!("{name}.gsr"))
}

/// A result file that cannot be written where asked.
#[derive(Debug)]
pub struct Unwritable {
    /// Where.
    pub path: PathBuf,
    /// Why.
    pub error: std::io::Error,
}

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a file cannot be written at {}: {}",
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for Unwritable {}

/// Checks, before the work that a file at `path` would keep, that it can
/// be written: its folder exists or can be made, it is not a folder, and a
/// file can be created beside it (a probe, named as the atomic writer's
/// temporary files are, created and removed). A solve used to run to the
/// end and only then find it could not save.
pub fn check_writable(path: &Path) -> Result<(), Unwritable> {
    let fail = |error| Unwritable {
        path: path.to_path_buf(),
        error,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    if path.is_dir() {
        return Err(fail(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder",
        )));
    }
    let name = path
        .file_name()
        .map_or("result".into(), |n| n.to_string_lossy());
    let probe = dir.join(format!(".{name}.{}-probe.tmp", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

/// The board as result and resume files store it.
pub fn board_info(board: &Board) -> BoardInfo {
    BoardInfo {
        name: board.name().to_string(),
        points: board.len() as u32,
        edges: board.edges(),
    }
}

/// The rules as result and resume files store them.
pub fn rules_info(board: &Board, rules: &Rules) -> RulesInfo {
    let setup = &rules.setup;
    let start = (0..board.len() as u8)
        .map(|p| {
            let colour = if setup.position.black.contains(p) {
                Color::Black
            } else if setup.position.white.contains(p) {
                Color::White
            } else {
                return cell_code(Cell::Empty);
            };
            cell_code(if setup.immortal.contains(p) {
                Cell::Border(colour)
            } else {
                Cell::Stone(colour)
            })
        })
        .collect();
    RulesInfo {
        ruleset: rules.ruleset.name().into(),
        superko: rules.superko.name().into(),
        suicide: rules.suicide.name().into(),
        komi_half: rules.komi.0,
        start,
        to_move: player_code(setup.to_move),
        description: rules.describe(),
    }
}

/// The result file of a solve run with `prove`.
pub fn result_file(board: &Board, rules: &Rules, r: &Report, config: &Config) -> ResultFile {
    let n = board.len();
    let syms = crate::engine::symmetry::symmetries(board, rules);
    let classes = r
        .solution
        .moves
        .iter()
        .map(|m| ClassInfo {
            value: m.value,
            claim: m.claim,
            members: m
                .class
                .iter()
                .map(|&x| {
                    let a = syms
                        .iter()
                        .find(|a| a.map_move(m.mv) == x)
                        .expect("a class member is a symmetric image");
                    Member {
                        mv: code(x),
                        perm: (0..n as u8).map(|p| a.point(p)).collect(),
                    }
                })
                .collect(),
        })
        .collect();
    let proofs = r
        .strategies
        .iter()
        .map(|(k, s)| ProofInfo {
            class: *k as u32,
            owner: player_code(s.owner),
            bound: s.bound,
            nodes: s.nodes,
            bytes: s.bytes.clone(),
        })
        .collect();
    ResultFile {
        board: board_info(board),
        rules: rules_info(board, rules),
        run: RunInfo {
            program: format!("gosolve {}", env!("CARGO_PKG_VERSION")),
            date: crate::format::gsr::now_utc(),
            nodes: r.solution.nodes,
            seconds: r.seconds,
            proof_seconds: r.proof_seconds,
            threads: r.threads as u32,
            tt_mb: config.tt_mb as u32,
        },
        value: r.solution.value,
        classes,
        pv: r.solution.pv.iter().map(|&m| code(m)).collect(),
        proofs,
    }
}

/// Whether `old` makes the claims `new` makes: board, rules, value, every
/// first move's value and the principal variation, all of which a solve
/// determines. The run's facts (date, timings, nodes) and the strategies'
/// shape differ from run to run (threads share the table).
pub fn same_claims(old: &ResultFile, new: &ResultFile) -> bool {
    old.board == new.board
        && old.rules == new.rules
        && old.value == new.value
        && old.classes == new.classes
        && old.pv == new.pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Komi, RuleOptions};

    /// A bounds file sits beside the exact one, even where the name has a
    /// dot of its own (komi 0.5).
    #[test]
    fn bounds_files_sit_beside_the_exact_ones() {
        let board = Board::parse("2x2").unwrap();
        let opts = RuleOptions {
            komi: Some(Komi(1)),
            ..RuleOptions::default()
        };
        let rules = Rules::build(Ruleset::TrompTaylor, &opts, &board).unwrap();
        let exact = default_path(&board, &rules);
        assert_eq!(exact, Path::new("results/2x2-tromp-taylor-komi-0.5.gsr"));
        assert_eq!(result_path(&board, &rules, FirstMoves::Exact), exact);
        assert_eq!(
            result_path(&board, &rules, FirstMoves::Bounds),
            Path::new("results/2x2-tromp-taylor-komi-0.5-bounds.gsr")
        );
    }
}
