//! One position looked at the way tablebase pages show it: the value
//! after a line of moves, and every legal move there with its value (best
//! first), where that value came from, and a principal variation.

use crate::engine::types::{Color, Move};
use crate::play::known::{Known, Source, best_first};
use crate::play::oracle::{Budget, Oracle};
use crate::store::inspect::LineError;

/// One legal move and what follows it.
#[derive(Clone, Debug)]
pub struct MoveReport {
    /// The move.
    pub mv: Move,
    /// Its value (the value of the position after it).
    pub known: Known,
    /// A principal variation starting with the move, when the value is exact.
    pub pv: Vec<Move>,
    /// The number of turns to the end of the game along `pv`, once the
    /// variation reaches the end (the budget may stop it before).
    pub remoteness: Option<usize>,
}

/// The position after a line.
#[derive(Clone, Debug)]
pub struct Probe {
    /// Who moves.
    pub to_move: Color,
    /// The game is over.
    pub over: bool,
    /// The position's value.
    pub known: Known,
    /// Every legal move, best for the mover first.
    pub moves: Vec<MoveReport>,
    /// Some question ran out of budget.
    pub stopped: bool,
}

/// What to work out besides the proof's values.
#[derive(Clone, Copy, Debug)]
pub struct Asked {
    /// Search where the proof does not give the exact value.
    pub search: bool,
    /// Find each move's principal variation.
    pub pv: bool,
}

/// Probes the position after `line` (replayed from the start: superko
/// depends on all of it).
pub fn probe(o: &Oracle, line: &[Move], budget: &Budget, asked: Asked) -> Result<Probe, LineError> {
    let g = o.replay(line)?;
    let to_move = g.to_move();
    let own = o.known(line, budget, false)?;
    if g.outcome().is_some() {
        return Ok(Probe {
            to_move,
            over: true,
            known: own,
            moves: Vec::new(),
            stopped: false,
        });
    }
    let mut next = line.to_vec();
    let mut moves = Vec::new();
    for m in g.legal_moves() {
        next.push(m);
        moves.push((m, o.known(&next, budget, asked.search)?));
        next.pop();
    }
    best_first(to_move, &mut moves);
    let mut stopped = moves
        .iter()
        .any(|(_, k)| k.source == Source::Search && k.exact().is_none());
    let mut reports = Vec::new();
    for (m, known) in moves {
        let mut report = MoveReport {
            mv: m,
            known,
            pv: vec![m],
            remoteness: None,
        };
        if let (Some(v), true) = (known.exact(), asked.pv) {
            next.push(m);
            let (rest, whole) = o.pv(&next, v, budget)?;
            next.pop();
            report.pv.extend(rest);
            stopped |= !whole;
            report.remoteness = whole.then_some(report.pv.len());
        }
        reports.push(report);
    }
    let known = combine(own, to_move, &reports);
    Ok(Probe {
        to_move,
        over: false,
        known,
        moves: reports,
        stopped,
    })
}

/// The position's value from its own proof bounds and its moves': the
/// mover takes the best, so its bounds are the best of the moves' bounds.
fn combine(own: Known, mover: Color, moves: &[MoveReport]) -> Known {
    if own.exact().is_some() {
        return own;
    }
    let pick = |a: i32, b: i32| {
        if mover == Color::Black {
            a.max(b)
        } else {
            a.min(b)
        }
    };
    let lo = moves
        .iter()
        .map(|r| r.known.lo)
        .reduce(pick)
        .unwrap_or(own.lo);
    let hi = moves
        .iter()
        .map(|r| r.known.hi)
        .reduce(pick)
        .unwrap_or(own.hi);
    // Looking one move ahead is a search of its own; the weakest source
    // among the moves is what the value rests on.
    let source = match moves.iter().map(|r| r.known.source).min() {
        Some(Source::Over) => Source::Search,
        Some(s) => s,
        None => own.source,
    };
    let (lo, hi) = (lo.max(own.lo), hi.min(own.hi));
    if (lo, hi) == (own.lo, own.hi) && own.source != Source::Unknown {
        return own;
    }
    Known { lo, hi, source }
}
