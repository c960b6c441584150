//! A Go Text Protocol 2 engine that plays by exact values: the result
//! file's where it has them, a live search's elsewhere. Grids only (GTP
//! names points by column letter and row number).
//!
//! [`Engine::handle`] answers one command line; the command line's `gtp`
//! feeds it standard input. Besides the core commands it speaks
//! `rectangular_boardsize` (Sabaki's non-square boards), `lz-analyze` and
//! `kata-analyze` (one round of `info` lines, then the response ends: an
//! exact value does not improve with time) and GoGui's analyze commands.

use crate::engine::board::{Board, Layout};
use crate::engine::diagram;
use crate::engine::game::Outcome;
use crate::engine::rules::{Komi, RuleOptions, Rules, Ruleset, half_points};
use crate::engine::types::{Color, Move};
use crate::play::oracle::{self, Limits, Oracle, why_illegal};
use crate::play::probe::{Asked, Probe, probe};
use std::collections::HashMap;

mod analyze;
use std::path::PathBuf;

/// Every command the engine knows, as `list_commands` gives them.
pub const COMMANDS: [&str; 21] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
    "gosolve-values",
    "gosolve-probe",
    "gosolve-value",
];

/// What the engine is started with.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Its options (the start position is a diagram of the first board).
    pub options: RuleOptions,
    /// Where result files are looked up by their default names.
    pub results: PathBuf,
    /// How long one command may search.
    pub limits: Limits,
    /// The search's table size in megabytes.
    pub tt_mb: usize,
}

/// One GTP response: success or failure, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `=` or `?`.
    pub ok: bool,
    /// The text after it (lines, no blank one).
    pub text: String,
    /// The session ends after this reply (`quit`).
    pub quit: bool,
}

impl Reply {
    pub(super) fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: true,
            text: text.into(),
            quit: false,
        }
    }

    pub(super) fn err(text: impl Into<String>) -> Reply {
        Reply {
            ok: false,
            text: text.into(),
            quit: false,
        }
    }

    /// The reply as GTP sends it, with the command's id if it had one.
    pub fn wire(&self, id: Option<&str>) -> String {
        let head = if self.ok { "=" } else { "?" };
        let text = self.text.trim_end();
        let sep = if text.is_empty() || text.starts_with('\n') {
            ""
        } else {
            " "
        };
        format!("{head}{}{sep}{text}\n\n", id.unwrap_or(""))
    }
}

/// The boards the engine has played on. An [`Oracle`] borrows its board
/// for as long as it lives, so each board is made once and kept for the
/// session: at most one per grid size asked for.
struct Boards(HashMap<(usize, usize), &'static Board>);

impl Boards {
    fn get(&mut self, rows: usize, cols: usize) -> Result<&'static Board, String> {
        if let Some(b) = self.0.get(&(rows, cols)) {
            return Ok(b);
        }
        let b = Board::grid(rows, cols).map_err(|e| e.to_string())?;
        let b: &'static Board = Box::leak(Box::new(b));
        self.0.insert((rows, cols), b);
        Ok(b)
    }
}

/// The engine: the setting, the game's moves, and the oracle that values them.
pub struct Engine {
    setup: Setup,
    boards: Boards,
    oracle: Oracle<'static>,
    /// The moves since the start (GTP's `play`s and `genmove`s).
    line: Vec<Move>,
    /// The result file backing the oracle, if any.
    file: Option<PathBuf>,
}

impl Engine {
    /// An engine on `board` (a grid spec) under `setup`.
    pub fn new(board: &str, setup: Setup) -> Result<Engine, String> {
        let b = Board::parse(board).map_err(|e| e.to_string())?;
        let (rows, cols) = match b.layout() {
            Layout::Grid {
                rows,
                cols,
                torus: false,
            } => (rows, cols),
            _ => {
                return Err(format!(
                    "GTP names the points of grids only, and `{}` is not a grid",
                    b.name()
                ));
            }
        };
        let mut boards = Boards(HashMap::new());
        let board = boards.get(rows, cols)?;
        let (oracle, file) = Engine::oracle(&setup, board)?;
        Ok(Engine {
            setup,
            boards,
            oracle,
            line: Vec::new(),
            file,
        })
    }

    fn oracle(
        setup: &Setup,
        board: &'static Board,
    ) -> Result<(Oracle<'static>, Option<PathBuf>), String> {
        let rules =
            Rules::build(setup.ruleset, &setup.options, board).map_err(|e| e.to_string())?;
        let found = oracle::result_file(&setup.results, board, &rules)?;
        let (path, file) = found.map_or((None, None), |(p, f)| (Some(p), Some(f)));
        let oracle = Oracle::new(board, &rules, file, setup.tt_mb).map_err(|e| e.to_string())?;
        Ok((oracle, path))
    }

    /// The result file in use, if any.
    pub fn file(&self) -> Option<&std::path::Path> {
        self.file.as_deref()
    }

    /// The moves played so far.
    pub fn line(&self) -> &[Move] {
        &self.line
    }

    /// The board now.
    pub fn board(&self) -> &'static Board {
        self.oracle.board()
    }

    /// Answers one line of input: `None` for a blank or comment line,
    /// else the response as sent (with the command's id) and whether the
    /// session ends.
    pub fn handle(&mut self, input: &str) -> Option<(String, bool)> {
        // GTP: control characters other than tab and newline are dropped,
        // tabs are spaces, `#` starts a comment.
        let clean: String = input
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let clean = clean.split('#').next().unwrap_or("").trim();
        let mut words = clean.split_whitespace().peekable();
        let id = words
            .next_if(|w| w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string);
        let command = words.next()?;
        let args: Vec<&str> = words.collect();
        let reply = self.command(command, &args);
        Some((reply.wire(id.as_deref()), reply.quit))
    }

    /// Runs one command.
    pub fn command(&mut self, command: &str, args: &[&str]) -> Reply {
        match command {
            "protocol_version" => Reply::ok("2"),
            "name" => Reply::ok("gosolve"),
            "version" => Reply::ok(env!("CARGO_PKG_VERSION")),
            "known_command" => Reply::ok(
                args.first()
                    .is_some_and(|c| COMMANDS.contains(c))
                    .to_string(),
            ),
            "list_commands" => Reply::ok(COMMANDS.join("\n")),
            "quit" => Reply {
                quit: true,
                ..Reply::ok("")
            },
            "boardsize" => match args {
                [n] => match n.parse::<usize>() {
                    Ok(n) => self.resize(n, n),
                    Err(_) => Reply::err("syntax error"),
                },
                _ => Reply::err("syntax error"),
            },
            "rectangular_boardsize" => match args {
                [w, h] => match (w.parse::<usize>(), h.parse::<usize>()) {
                    (Ok(w), Ok(h)) => self.resize(h, w),
                    _ => Reply::err("syntax error"),
                },
                _ => Reply::err("syntax error"),
            },
            "clear_board" => {
                self.line.clear();
                Reply::ok("")
            }
            "komi" => match args {
                [k] => self.komi(k),
                _ => Reply::err("syntax error"),
            },
            "play" => match args {
                [c, v] => self.play(c, v),
                _ => Reply::err("syntax error"),
            },
            "genmove" => match args {
                [c] => self.genmove(c),
                _ => Reply::err("syntax error"),
            },
            "undo" => match self.line.pop() {
                Some(_) => Reply::ok(""),
                None => Reply::err("cannot undo"),
            },
            "showboard" => self.showboard(),
            "final_score" => self.final_score(),
            "lz-analyze" | "kata-analyze" => self.analyze(command == "kata-analyze", args),
            "gogui-analyze_commands" => Reply::ok(
                "gfx/Move values/gosolve-values\nstring/Probe this position/gosolve-probe\nstring/Value/gosolve-value",
            ),
            "gosolve-values" => self.values(),
            "gosolve-probe" => self.probe_text(),
            "gosolve-value" => self.value_text(),
            _ => Reply::err("unknown command"),
        }
    }

    pub(super) fn scored(&self) -> bool {
        self.oracle.rules().ruleset.has_score()
    }

    /// A new board: its rules rebuilt, its result file looked up, the game cleared.
    fn resize(&mut self, rows: usize, cols: usize) -> Reply {
        if rows == 0 || cols == 0 || rows * cols > 64 {
            return Reply::err("unacceptable size");
        }
        let board = match self.boards.get(rows, cols) {
            Ok(b) => b,
            Err(_) => return Reply::err("unacceptable size"),
        };
        match Engine::oracle(&self.setup, board) {
            Ok((o, f)) => {
                self.oracle = o;
                self.file = f;
                self.line.clear();
                Reply::ok("")
            }
            // A start position of another size, or a bad result file.
            Err(e) => Reply::err(format!("unacceptable size: {e}")),
        }
    }

    fn komi(&mut self, text: &str) -> Reply {
        let komi = match text.parse::<f64>() {
            Ok(k) if k.is_finite() => k,
            _ => return Reply::err("syntax error"),
        };
        let komi = match format!("{komi}").parse::<Komi>() {
            Ok(k) => k,
            Err(e) => return Reply::err(e.to_string()),
        };
        if !self.scored() && komi.0 != 0 {
            return Reply::err(format!(
                "komi does not apply: `{}` is won or lost, not scored",
                self.setup.ruleset
            ));
        }
        let mut setup = self.setup.clone();
        setup.options.komi = Some(komi);
        match Engine::oracle(&setup, self.board()) {
            Ok((o, f)) => {
                self.setup = setup;
                self.oracle = o;
                self.file = f;
                Reply::ok("")
            }
            Err(e) => Reply::err(e),
        }
    }

    pub(super) fn color(&self, text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// Refuses a colour that is not to move: the game alternates (a
    /// pass is a turn), so the engine does not add passes of its own.
    pub(super) fn check_turn(&self, c: Color) -> Result<(), Reply> {
        let g = self.oracle.replay(&self.line).expect("the line is legal");
        if g.outcome().is_some() {
            return Err(Reply::err("illegal move: the game is over"));
        }
        if g.to_move() != c {
            return Err(Reply::err(format!(
                "illegal move: {} is to move",
                g.to_move().name()
            )));
        }
        Ok(())
    }

    fn play(&mut self, color: &str, vertex: &str) -> Reply {
        let Some(c) = self.color(color) else {
            return Reply::err("syntax error");
        };
        let board = self.board();
        let m = if vertex.eq_ignore_ascii_case("pass") {
            Move::Pass
        } else {
            match board.parse_point(vertex) {
                Some(p) => Move::Place(p),
                None => return Reply::err(format!("illegal move: {vertex} is not on the board")),
            }
        };
        if let Err(r) = self.check_turn(c) {
            return r;
        }
        let g = self.oracle.replay(&self.line).expect("the line is legal");
        if !g.is_legal(m) {
            return Reply::err(format!("illegal move: {}", why_illegal(&g, m)));
        }
        self.line.push(m);
        Reply::ok("")
    }

    pub(super) fn probe(&self, pv: bool) -> Result<Probe, Reply> {
        let budget = self.oracle.budget(self.setup.limits);
        let asked = Asked { search: true, pv };
        probe(&self.oracle, &self.line, &budget, asked).map_err(|e| Reply::err(e.to_string()))
    }

    fn genmove(&mut self, color: &str) -> Reply {
        let Some(c) = self.color(color) else {
            return Reply::err("syntax error");
        };
        if let Err(r) = self.check_turn(c) {
            return r;
        }
        let p = match self.probe(false) {
            Ok(p) => p,
            Err(r) => return r,
        };
        // Best first: the move with the best value (or, where a search
        // stopped, the best bound).
        // No legal turn (normal play: the mover has lost): nothing to push
        // that the line could replay.
        let Some(m) = p.moves.first().map(|r| r.mv) else {
            return Reply::ok("resign");
        };
        self.line.push(m);
        Reply::ok(self.board().move_name(m))
    }

    fn showboard(&self) -> Reply {
        let g = self.oracle.replay(&self.line).expect("the line is legal");
        let mut text = String::from("\n");
        text += &diagram::render(
            self.board(),
            &g.position(),
            self.oracle.rules().setup.immortal,
        );
        let state = if g.outcome().is_some() {
            "game over".to_string()
        } else {
            format!("{} to move", g.to_move().name())
        };
        text += &format!("{state}; {}", self.oracle.rules().describe());
        Reply::ok(text)
    }

    fn final_score(&self) -> Reply {
        let g = self.oracle.replay(&self.line).expect("the line is legal");
        let outcome = match g.outcome() {
            Some(o) => o,
            None if self.scored() => g.final_score(),
            None => return Reply::err("cannot score: the game is not over"),
        };
        Reply::ok(match outcome {
            Outcome::Win(Color::Black) => "B+".to_string(),
            Outcome::Win(Color::White) => "W+".to_string(),
            Outcome::Score(0) => "0".to_string(),
            Outcome::Score(v) if v > 0 => format!("B+{}", half_points(v)),
            Outcome::Score(v) => format!("W+{}", half_points(-v)),
        })
    }
}
