//! Looking into a result file: the board and rules it was solved under,
//! the stored strategies along a line of moves, and exports (SGF, CSV).

use crate::engine::benson;
use crate::engine::board::{Board, Layout};
use crate::engine::diagram;
use crate::engine::game::Game;
use crate::engine::rules::{Rules, half_points};
use crate::engine::types::{Color, Move, PointSet};
use crate::format::codes::{CLOSED, LINK, SECURE, WHOLE, code, decode, player};
use crate::format::gsr::{Claim, ProofInfo, ResultFile};
use crate::search::closed::{self, Step};

/// Why a line of moves could not be read or followed in a result file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(pub String);

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// Parses a space-separated line of moves (`pass` or point names).
pub fn parse_line(board: &Board, text: &str) -> Result<Vec<Move>, LineError> {
    text.split_whitespace()
        .map(|w| {
            if w.eq_ignore_ascii_case("pass") {
                Ok(Move::Pass)
            } else {
                board
                    .parse_point(w)
                    .map(Move::Place)
                    .ok_or_else(|| LineError(format!("`{w}` is not a point of {}", board.name())))
            }
        })
        .collect()
}

/// What a stored strategy says at the end of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The line leaves the strategy (a move the owner does not play, or the
    /// game ended before).
    Off,
    /// The owner moves here and plays this.
    Plays(Move),
    /// The other side moves here; the strategy answers every reply.
    Answers,
    /// The game is over here.
    Over,
    /// The bound holds from here whatever happens: the points each side
    /// keeps by unconditional life decide it.
    Secure,
    /// The bound holds from here: the owner's enclosed regions count whole
    /// for it, and it takes every stone the other side plays there.
    Whole,
}

/// Follows one strategy along `line` (moves after the class's first move).
struct Follow<'a, 'b> {
    bytes: &'a [u8],
    owner: Color,
    /// Byte offset of each owner node, by id, and where in `trail` the
    /// walk stood there.
    offsets: Vec<(usize, usize)>,
    line: &'b [Move],
    /// Every move the walk played, as (index of the move before, move);
    /// index 0 is the first move. A link's target is walked again from its
    /// own line: under the current history some replies it answered may be
    /// refused, and its bytes must still be skipped.
    trail: Vec<(usize, Move)>,
    /// Where in `trail` the walk stands.
    here: usize,
}

impl Follow<'_, '_> {
    fn byte(&self, at: &mut usize) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(*at)
            .ok_or("the strategy ends too early (run `gosolve verify`)")?;
        *at += 1;
        Ok(b)
    }

    /// Walks the node at `g` from byte `at`; `depth` moves of the line have
    /// been followed, or `None` once off it. Returns what was found at the
    /// line's end, if reached.
    fn node(
        &mut self,
        g: &mut Game,
        at: &mut usize,
        depth: Option<usize>,
    ) -> Result<Option<Found>, String> {
        let target = depth == Some(self.line.len());
        if g.outcome().is_some() {
            return Ok(target.then_some(Found::Over));
        }
        if g.to_move() != self.owner {
            if target {
                return Ok(Some(Found::Answers));
            }
            let n = g.board().len() as u8;
            for m in std::iter::once(Move::Pass).chain((0..n).map(Move::Place)) {
                let Some(u) = g.try_play(m) else { continue };
                let on = depth.filter(|&d| self.line[d] == m).map(|d| d + 1);
                let r = self.step(g, at, on, m);
                g.undo(u);
                if !matches!(r, Ok(None)) {
                    return r;
                }
            }
            return Ok(None);
        }
        let c = self.byte(at)?;
        if c == SECURE {
            // The strategy passes from here on: the rest of the line is
            // covered only if the owner's moves in it are passes.
            let Some(d) = depth else { return Ok(None) };
            let passes = self.line[d..].iter().step_by(2).all(|&m| m == Move::Pass);
            return Ok(Some(if passes { Found::Secure } else { Found::Off }));
        }
        if c == WHOLE {
            let Some(d) = depth else { return Ok(None) };
            let keeps = keeps_regions(g, self.owner, &self.line[d..]);
            return Ok(Some(if keeps { Found::Whole } else { Found::Off }));
        }
        if c == LINK {
            let (mut id, mut shift) = (0usize, 0);
            loop {
                let b = self.byte(at)?;
                id |= ((b & 0x7F) as usize) << shift;
                shift += 7;
                if b & 0x80 == 0 || shift > 28 {
                    break;
                }
            }
            // Off the line a link needs no walking.
            if depth.is_none() {
                return Ok(None);
            }
            let (mut there, mark) = *self.offsets.get(id).ok_or("a link to an unknown node")?;
            // Replay the target's own line from the start.
            let mut moves = Vec::new();
            let mut k = mark;
            while k != 0 {
                moves.push(self.trail[k].1);
                k = self.trail[k].0;
            }
            let mut h = Game::new(g.board(), g.rules());
            h.try_play(self.trail[0].1)
                .ok_or("a link's own line is not legal")?;
            for &m in moves.iter().rev() {
                h.try_play(m).ok_or("a link's own line is not legal")?;
            }
            let saved = std::mem::take(&mut self.offsets);
            self.offsets = saved[..id].to_vec();
            let here = std::mem::replace(&mut self.here, mark);
            let r = self.node(&mut h, &mut there, depth);
            self.offsets = saved;
            self.here = here;
            return r;
        }
        self.offsets.push((*at - 1, self.here));
        let m = decode(c, g.board().len()).ok_or("a bad move code")?;
        if target {
            return Ok(Some(Found::Plays(m)));
        }
        if let Some(d) = depth {
            if self.line[d] != m {
                return Ok(Some(Found::Off));
            }
        }
        let u = g.try_play(m).ok_or("the strategy plays an illegal move")?;
        let r = self.step(g, at, depth.map(|d| d + 1), m);
        g.undo(u);
        r
    }

    /// Walks the node after move `m` (already played on `g`).
    fn step(
        &mut self,
        g: &mut Game,
        at: &mut usize,
        depth: Option<usize>,
        m: Move,
    ) -> Result<Option<Found>, String> {
        self.trail.push((self.here, m));
        let before = std::mem::replace(&mut self.here, self.trail.len() - 1);
        let r = self.node(g, at, depth);
        self.here = before;
        r
    }
}

/// What the stored strategies say about the position after `line`.
pub struct LineReport {
    /// The class's value.
    pub class_value: i32,
    /// Whether it is exact or a bound (only its owner has a strategy).
    pub class_claim: Claim,
    /// (owner, bound, what it says).
    pub found: Vec<(Color, i32, Found)>,
    /// The player to move, and whether the game is over.
    pub to_move: Color,
    /// The game ended on the line.
    pub over: bool,
}

/// Follows the stored strategies along `line` from the start.
pub fn look_up(
    f: &ResultFile,
    board: &Board,
    rules: &Rules,
    line: &[Move],
) -> Result<LineReport, LineError> {
    follow_line(f, board, rules, line).map_err(LineError)
}

fn follow_line(
    f: &ResultFile,
    board: &Board,
    rules: &Rules,
    line: &[Move],
) -> Result<LineReport, String> {
    let mut g = Game::new(board, rules);
    for (i, &m) in line.iter().enumerate() {
        if g.try_play(m).is_none() {
            return Err(format!(
                "move {} ({}) is not legal there",
                i + 1,
                board.move_name(m)
            ));
        }
    }
    let first = *line.first().ok_or("the line is empty")?;
    let (k, class) = f
        .classes
        .iter()
        .enumerate()
        .find(|(_, c)| c.members.iter().any(|m| m.mv == code(first)))
        .ok_or("the first move is in no stored class")?;
    let member = class
        .members
        .iter()
        .find(|m| m.mv == code(first))
        .expect("found");
    // Map the line into the representative's frame.
    let mut inv = vec![0u8; board.len()];
    for (p, &q) in member.perm.iter().enumerate() {
        inv[q as usize] = p as u8;
    }
    let mapped: Vec<Move> = line
        .iter()
        .map(|&m| match m {
            Move::Pass => Move::Pass,
            Move::Place(p) => Move::Place(inv[p as usize]),
        })
        .collect();
    let mut found = Vec::new();
    for p in f.proofs.iter().filter(|p| p.class as usize == k) {
        let owner = player(p.owner).ok_or("a strategy's owner is no player")?;
        found.push((owner, p.bound, follow(p, owner, board, rules, &mapped)?));
    }
    // Report moves in the line's own frame.
    for x in &mut found {
        if let Found::Plays(Move::Place(q)) = x.2 {
            x.2 = Found::Plays(Move::Place(member.perm[q as usize]));
        }
    }
    Ok(LineReport {
        class_value: class.value,
        class_claim: class.claim,
        found,
        to_move: g.to_move(),
        over: g.outcome().is_some(),
    })
}

fn follow(
    p: &ProofInfo,
    owner: Color,
    board: &Board,
    rules: &Rules,
    line: &[Move],
) -> Result<Found, String> {
    let mut g = Game::new(board, rules);
    // A damaged symmetry can map a legal first move to an illegal one.
    g.try_play(line[0])
        .ok_or("the first move, mapped by the class's symmetry, is not legal")?;
    if p.bytes.first() == Some(&CLOSED) {
        return follow_closed(p, owner, &mut g, &line[1..]);
    }
    let mut fw = Follow {
        bytes: &p.bytes,
        owner,
        offsets: Vec::new(),
        line: &line[1..],
        trail: vec![(0, line[0])],
        here: 0,
    };
    let mut at = 0;
    Ok(fw.node(&mut g, &mut at, Some(0))?.unwrap_or(Found::Off))
}

/// Whether `line`, played from `g`, has the owner play as a [`WHOLE`]
/// mark's strategy may: while the other side has a stone in the owner's
/// enclosed regions (as they are at `g`), a placing there; otherwise a pass.
fn keeps_regions(g: &mut Game, owner: Color, line: &[Move]) -> bool {
    let (regions, _) = benson::ranges(g.board(), &g.position(), g.rules()).of(owner);
    let mut undo = Vec::with_capacity(line.len());
    let mut keeps = true;
    for &m in line {
        if g.to_move() == owner {
            let intruders = !(g.position().stones(owner.opp()) & regions).is_empty();
            keeps = match m {
                Move::Pass => !intruders,
                Move::Place(p) => intruders && regions.contains(p),
            };
        }
        if !keeps {
            break;
        }
        match g.try_play(m) {
            Some(u) => undo.push(u),
            None => {
                keeps = false;
                break;
            }
        }
    }
    while let Some(u) = undo.pop() {
        g.undo(u);
    }
    keeps
}

/// [`follow`] for a closed strategy ([`crate::search::closed`]): the
/// owner's move is looked up by the state's key along the line.
fn follow_closed(
    p: &ProofInfo,
    owner: Color,
    g: &mut Game,
    line: &[Move],
) -> Result<Found, String> {
    let reading = closed::read(g, owner, &p.bytes)?;
    let mut cols: Vec<_> = g.history().iter().map(|e| e.pos).collect();
    for d in 0..=line.len() {
        let target = d == line.len();
        if g.outcome().is_some() {
            return Ok(if target { Found::Over } else { Found::Off });
        }
        if g.to_move() == owner {
            match reading.at(&cols, owner, g.passes()) {
                None => return Ok(Found::Off),
                Some(Step::Secure) => {
                    let passes = line[d..].iter().step_by(2).all(|&m| m == Move::Pass);
                    return Ok(if passes { Found::Secure } else { Found::Off });
                }
                Some(Step::Plays(m)) if target => return Ok(Found::Plays(m)),
                Some(Step::Plays(m)) if m != line[d] => return Ok(Found::Off),
                Some(Step::Plays(_)) => {}
            }
        } else if target {
            return Ok(Found::Answers);
        }
        g.try_play(line[d])
            .ok_or("the line plays an illegal move")?;
        cols.push(g.position());
    }
    unreachable!("the line's end returns")
}

/// The first-move table as CSV: value, the moves of the class, and the
/// claim (`exact`, or `at most` / `at least` for a bound).
pub fn csv(f: &ResultFile, board: &Board, rules: &Rules) -> String {
    let scored = rules.ruleset.has_score();
    let mut out = String::from("value,moves,claim\n");
    for c in &f.classes {
        let names: Vec<String> = c
            .members
            .iter()
            .map(|m| board.move_name(decode(m.mv, board.len()).expect("checked")))
            .collect();
        out += &format!(
            "{},{},{}\n",
            crate::engine::rules::value_text(scored, c.value),
            names.join(" "),
            c.claim.name()
        );
    }
    out
}

/// Text as an SGF property value, with `\` and `]` escaped.
pub fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF point of a move: grids by column and row from the top; other
/// graphs as a one-row board of the points in index order.
pub fn sgf_point(board: &Board, m: Move) -> String {
    let letter = |i: usize| {
        let c = if i < 26 {
            b'a' + i as u8
        } else {
            b'A' + (i - 26) as u8
        };
        c as char
    };
    match (m, board.layout()) {
        (Move::Pass, _) => String::new(),
        (Move::Place(p), Layout::Grid { rows, cols, .. }) => {
            let (r, c) = (p as usize / cols, p as usize % cols);
            format!("{}{}", letter(c), letter(rows - 1 - r))
        }
        (Move::Place(p), Layout::Graph) => format!("{}a", letter(p as usize)),
    }
}

/// The root node's properties for a solution's SGF (game, board size,
/// rules, komi, result, start position) and its comment (the value, and
/// what SGF cannot draw of the board), which the caller puts in `C[]`.
pub fn sgf_root(f: &ResultFile, board: &Board, rules: &Rules) -> (String, String) {
    let scored = rules.ruleset.has_score();
    let (size, note) = match board.layout() {
        Layout::Grid {
            rows, cols, torus, ..
        } => (
            if rows == cols {
                format!("{cols}")
            } else {
                format!("{cols}:{rows}")
            },
            if torus {
                " The board is a torus: SGF cannot say that its edges wrap around."
            } else {
                ""
            },
        ),
        Layout::Graph => (
            format!("{}:1", board.len()),
            " The board is a graph that SGF cannot draw: it is shown as one row of its points in index order; its edges are listed here.",
        ),
    };
    let mut root = format!(
        "FF[4]GM[1]CA[UTF-8]AP[gosolve:{}]SZ[{size}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        sgf_escape(&f.rules.description)
    );
    if rules.ruleset.has_score() {
        root += &format!("KM[{}]", half_points(rules.komi.0));
    }
    let v = f.value;
    let re = if !scored {
        if v > 0 { "B+" } else { "W+" }.to_string()
    } else if v > 0 {
        format!("B+{}", half_points(v))
    } else if v < 0 {
        format!("W+{}", half_points(-v))
    } else {
        "0".into()
    };
    root += &format!("RE[{re}]");
    let mut comment = format!(
        "{} under {}: value {}.{note}",
        f.board.name,
        f.rules.description,
        crate::engine::rules::value_text(scored, v)
    );
    if matches!(board.layout(), Layout::Graph) {
        let edges: Vec<String> = f
            .board
            .edges
            .iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect();
        comment += &format!(" Edges: {}.", edges.join(" "));
    }
    // The start position.
    let setup = &rules.setup;
    let stones = |set: PointSet| -> String {
        set.iter()
            .map(|p| format!("[{}]", sgf_point(board, Move::Place(p))))
            .collect()
    };
    if !setup.position.black.is_empty() {
        root += &format!("AB{}", stones(setup.position.black));
    }
    if !setup.position.white.is_empty() {
        root += &format!("AW{}", stones(setup.position.white));
    }
    if setup.to_move == Color::White {
        root += "PL[W]";
    }
    (root, comment)
}

/// The solution as SGF `FF[4]`: the principal variation as the main line,
/// every other first-move class as a variation carrying its value.
pub fn sgf(f: &ResultFile, board: &Board, rules: &Rules) -> String {
    let scored = rules.ruleset.has_score();
    let v = f.value;
    let (props, comment) = sgf_root(f, board, rules);
    let root = format!("(;{props}C[{}]", sgf_escape(&comment));
    let node = |g: &Game, m: Move, text: Option<String>| {
        let who = if g.to_move() == Color::Black {
            "B"
        } else {
            "W"
        };
        let mut s = format!(";{who}[{}]", sgf_point(board, m));
        if let Some(t) = text {
            s += &format!("C[{}]", sgf_escape(&t));
        }
        s
    };
    let mut vars = Vec::new();
    // The main line: the principal variation.
    let mut g = Game::new(board, rules);
    let mut main = String::from("(");
    for (i, &c) in f.pv.iter().enumerate() {
        let m = decode(c, board.len()).expect("checked");
        let text = (i == 0).then(|| {
            format!(
                "Best first move, value {}. The principal variation follows.",
                crate::engine::rules::value_text(scored, v)
            )
        });
        main += &node(&g, m, text);
        if g.try_play(m).is_none() {
            break;
        }
    }
    if g.outcome().is_some() && rules.ruleset.has_score() {
        let (b, w) = g.scores();
        main += &format!("C[Final score: Black {b}, White {w}.]");
    }
    main += ")";
    vars.push(main);
    let g0 = Game::new(board, rules);
    let first_pv = f.pv.first().copied();
    for c in &f.classes {
        for m in &c.members {
            if Some(m.mv) == first_pv {
                continue;
            }
            let mv = decode(m.mv, board.len()).expect("checked");
            vars.push(format!(
                "({})",
                node(
                    &g0,
                    mv,
                    Some(format!(
                        "Value {}.",
                        c.claim
                            .text(&crate::engine::rules::value_text(scored, c.value))
                    ))
                )
            ));
        }
    }
    root + &vars.concat() + ")\n"
}

/// The start and the position after each move of the principal variation, as diagrams.
pub fn pv_diagrams(f: &ResultFile, board: &Board, rules: &Rules) -> Vec<(String, String)> {
    let mut g = Game::new(board, rules);
    let mut out = vec![(
        "start".to_string(),
        diagram::render(board, &g.position(), rules.setup.immortal),
    )];
    for (i, &c) in f.pv.iter().enumerate() {
        let m = decode(c, board.len()).expect("checked");
        let who = if g.to_move() == Color::Black {
            "Black"
        } else {
            "White"
        };
        if g.try_play(m).is_none() {
            break;
        }
        out.push((
            format!("{}. {who} {}", i + 1, board.move_name(m)),
            diagram::render(board, &g.position(), rules.setup.immortal),
        ));
    }
    out
}
