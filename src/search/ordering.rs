//! Move ordering (the search's Step 5): the table's best move, this ply's
//! killer, captures, then (by default) the pass, then the rest; captures
//! and the rest by the work their earlier cutoffs saved.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::position::flood;
use crate::engine::types::{ByColor, Color, Move, PointSet};

/// The moves of one node, in the order they are tried.
pub(super) struct Order {
    moves: [Move; Move::CODES],
    len: usize,
    taken: [bool; Move::CODES],
}

impl Order {
    fn new() -> Order {
        Order {
            moves: [Move::Pass; Move::CODES],
            len: 0,
            taken: [false; Move::CODES],
        }
    }

    /// Appends `m` unless it is already there.
    fn add(&mut self, m: Move) {
        let c = m.code() as usize;
        if !self.taken[c] {
            self.taken[c] = true;
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// The moves, first to try first.
    pub(super) fn moves(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// What one thread learns about moves as it searches.
pub(super) struct MoveOrder {
    /// Per player and move code: nodes searched below the cutoffs it made.
    cutoff_work: ByColor<[u64; Move::CODES]>,
    /// Per ply: the move of the last cutoff there.
    killer: Vec<Option<Move>>,
}

impl MoveOrder {
    pub(super) fn new() -> MoveOrder {
        MoveOrder {
            cutoff_work: ByColor {
                black: [0; Move::CODES],
                white: [0; Move::CODES],
            },
            killer: vec![None; 1024],
        }
    }

    /// The moves to try at `g`, `ply` turns into the game's history:
    /// `first` (the table's best), then the killer where `killers` (only
    /// with a table: without a table's move to come first, killers sent
    /// searches into capture wars; cycle:5's 0.7 M nodes became over
    /// 60 s), captures, the pass where `pass_first`, the other
    /// candidates, and the pass last otherwise.
    pub(super) fn order(
        &mut self,
        g: &Game,
        ply: usize,
        first: Option<Move>,
        killers: bool,
        pass_first: bool,
    ) -> Order {
        if ply >= self.killer.len() {
            self.killer.resize(2 * ply + 2, None);
        }
        let mover = g.to_move();
        let mut order = Order::new();
        if let Some(m) = first {
            order.add(m);
        }
        if let (true, Some(m)) = (killers, self.killer[ply]) {
            order.add(m);
        }
        let captures = capture_points(g);
        let from = order.len;
        for p in captures.iter() {
            order.add(Move::Place(p));
        }
        self.by_work(mover, &mut order.moves[from..order.len]);
        let pass_ok = g.pass_allowed();
        if pass_ok && pass_first {
            order.add(Move::Pass);
        }
        let from = order.len;
        for p in (g.candidates() & !captures).iter() {
            order.add(Move::Place(p));
        }
        self.by_work(mover, &mut order.moves[from..order.len]);
        if pass_ok && !pass_first {
            order.add(Move::Pass);
        }
        order
    }

    /// Records that `m` of player `mover` cut off at `ply` after `work` nodes.
    pub(super) fn cutoff(&mut self, mover: Color, m: Move, ply: usize, work: u64) {
        self.cutoff_work[mover][m.code() as usize] += work;
        self.killer[ply] = Some(m);
    }

    /// Sorts moves by cutoff work, most first (stable, no allocation).
    #[inline]
    fn by_work(&self, mover: Color, moves: &mut [Move]) {
        let h = &self.cutoff_work[mover];
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && h[moves[j - 1].code() as usize] < h[moves[j].code() as usize] {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// Empty points that would capture: the only liberty of an opponent group.
fn capture_points(g: &Game) -> PointSet {
    let pos = g.position();
    let board: &Board = g.board();
    let opp = pos.stones(g.to_move().opp());
    let empty = pos.empty(board) & g.candidates();
    let mut out = PointSet::EMPTY;
    let mut todo = opp;
    while !todo.is_empty() {
        let grp = flood(board, todo.lowest(), opp);
        todo &= !grp;
        let libs = board.spread(grp) & pos.empty(board);
        if libs.len() == 1 {
            out |= libs & empty;
        }
    }
    out
}
