//! The game state: a position plus everything the rules need to know of the
//! past — player to move, consecutive passes, prisoners, the points ever
//! played (`koh`) and the superko history. Legal turns and results come only
//! from here.
//!
//! Decisions where `RULES.md` leaves a case open:
//!
//! - Situational superko: the history holds (colouring, player to move)
//!   after every turn, passes included (a pass does create a new such
//!   state). A placing may not produce a state already in it.
//! - `--superko none`: a placing may not recreate the colouring from before
//!   the opponent's last turn (basic ko); after any turn, a state (colouring,
//!   player to move) already seen ends the game as a tie, value 0 — except
//!   the second of two consecutive passes, which ends the game scored as
//!   under every ruleset. (It always recreates the state before the first
//!   pass; counting that as a repetition made every game a tie: 2x4 and
//!   3x3 came out 0 instead of the published +8 and +9.)
//! - `conway-replacement` passes never enter the history (seed 001: a pass
//!   "does not constitute a move").
//! - `koh` checks no repetition: a point once played is never played again,
//!   so the game is finite without one.

use crate::engine::board::Board;
use crate::engine::position::Position;
use crate::engine::rules::{PassRule, Rules, Ruleset, Suicide, Superko};
use crate::engine::types::{ByColor, Color, Move, Point, PointSet, ToMove};

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// Black's score − White's score − komi, in half points. A repetition
    /// under `--superko none` scores 0.
    Score(i32),
    /// The winner of a normal-play game (`conway`, `conway-replacement`, `koh`).
    Win(Color),
}

/// One entry of the superko history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HistoryEntry {
    /// The colouring.
    pub pos: Position,
    /// The player to move, as far as the superko kind counts it.
    pub to_move: ToMove,
}

/// Boards up to this many points keep a bitmap of the states seen, indexed
/// by the colouring read as a base-3 number (3^16 · 2 bits = 10.8 MB), so a
/// superko test is one bit; larger boards scan the history.
const BITMAP_POINTS: usize = 16;

/// `TERNARY[b]` reads the bits of `b` as base-3 digits.
const TERNARY: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut pow, mut i) = (0u64, 1u64, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The colouring as a base-3 number: digit p is 0 empty, 1 black, 2 white.
#[inline]
pub fn ternary(pos: Position) -> u64 {
    let (mut code, mut scale) = (0u64, 1u64);
    let (mut b, mut w) = (pos.black.0, pos.white.0);
    while b | w != 0 {
        code += (TERNARY[(b & 255) as usize] + 2 * TERNARY[(w & 255) as usize]) * scale;
        scale = scale.wrapping_mul(6561);
        b >>= 8;
        w >>= 8;
    }
    code
}

/// The colouring of `n` points whose [`ternary`] code is `code`.
pub fn from_ternary(mut code: u64, n: usize) -> Position {
    let mut pos = Position::EMPTY;
    for p in 0..n {
        match code % 3 {
            1 => pos.black |= PointSet::single(p as Point),
            2 => pos.white |= PointSet::single(p as Point),
            _ => {}
        }
        code /= 3;
    }
    pos
}

/// The number of a history state: its colouring read as a base-3 number,
/// doubled and plus the player to move unless only colourings count.
#[inline]
pub fn state_index(key: HistoryEntry) -> usize {
    let i = ternary(key.pos) as usize;
    match key.to_move {
        ToMove::Either => i,
        side => 2 * i + side as usize,
    }
}

/// The history's entry for colouring `pos` with `to_move` to move under
/// `superko`: positional superko compares colourings only.
#[inline]
pub fn history_entry(superko: Superko, pos: Position, to_move: Color) -> HistoryEntry {
    let to_move = match superko {
        Superko::Positional => ToMove::Either,
        _ => ToMove::of(to_move),
    };
    HistoryEntry { pos, to_move }
}

/// Everything about the game now except the history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// The colouring.
    pub pos: Position,
    /// The player to move.
    pub to_move: Color,
    /// Consecutive passes (`Free` pass rule only).
    pub passes: u8,
    /// The last turn repeated an earlier state (`--superko none`): a tie.
    pub repeated: bool,
    /// Stones each player holds (Black's are white stones it took).
    pub prisoners: ByColor<u32>,
    /// Points that have held a stone (`koh` never replays them).
    pub played: PointSet,
}

/// What [`Game::undo`] needs to take a turn back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    state: State,
    pushed: bool,
    new_bit: bool,
}

/// A game in progress on a board under a set of rules.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    board: &'a Board,
    rules: Rules,
    pass_rule: PassRule,
    s: State,
    history: Vec<HistoryEntry>,
    /// Bitmap of the history's states (small boards), or empty.
    seen: Vec<u64>,
    /// The history's entries chained by stone count: `by_count[c]` is the
    /// newest entry with c stones (`u32::MAX`: none), `older[i]` the next
    /// older one with the same count as entry i.
    by_count: [u32; 65],
    older: Vec<u32>,
}

impl<'a> Game<'a> {
    /// The start of a game: the rules' start position and player to move.
    pub fn new(board: &'a Board, rules: &Rules) -> Game<'a> {
        let setup = rules.setup;
        let mut game = Game {
            board,
            rules: *rules,
            pass_rule: rules.ruleset.pass_rule(),
            s: State {
                pos: setup.position,
                to_move: setup.to_move,
                passes: 0,
                repeated: false,
                prisoners: ByColor::default(),
                played: setup.position.occupied(),
            },
            history: Vec::with_capacity(4 * board.len() + 8),
            seen: Vec::new(),
            by_count: [u32::MAX; 65],
            older: Vec::with_capacity(4 * board.len() + 8),
        };
        if game.uses_history() {
            if board.len() <= BITMAP_POINTS {
                let states = 3usize.pow(board.len() as u32) * 2;
                game.seen = vec![0; states.div_ceil(64)];
            }
            let key = game.key(game.s.pos, game.s.to_move);
            let bit = if game.seen.is_empty() {
                0
            } else {
                state_index(key)
            };
            game.remember(key, bit);
        }
        game
    }

    /// Sets the prisoners each side holds (`koh` and `conway-replacement`
    /// start positions may come with some).
    pub fn set_prisoners(&mut self, black_holds: u32, white_holds: u32) {
        self.s.prisoners = ByColor {
            black: black_holds,
            white: white_holds,
        };
    }

    fn uses_history(&self) -> bool {
        self.rules.ruleset != Ruleset::Koh
    }

    #[inline]
    fn key(&self, pos: Position, to_move: Color) -> HistoryEntry {
        history_entry(self.rules.superko, pos, to_move)
    }

    /// Appends `key`, whose bitmap index ([`state_index`]) is `bit`, to the history. Returns
    /// (whether `key` was there before, whether its bit was newly set).
    #[inline]
    fn remember(&mut self, key: HistoryEntry, bit: usize) -> (bool, bool) {
        let c = key.pos.occupied().len() as usize;
        self.older.push(self.by_count[c]);
        self.by_count[c] = self.history.len() as u32;
        if self.seen.is_empty() {
            let before = self.rules.superko == Superko::None && self.history.contains(&key);
            self.history.push(key);
            return (before, false);
        }
        self.history.push(key);
        let new = self.seen[bit / 64] >> (bit % 64) & 1 == 0;
        self.seen[bit / 64] |= 1 << (bit % 64);
        (!new, new)
    }

    /// The state without the history.
    #[inline]
    pub fn state(&self) -> &State {
        &self.s
    }

    /// The states of the history as a bitmap by [`state_index`] (boards of
    /// up to 16 points; empty otherwise and under `koh`).
    #[inline]
    pub fn seen(&self) -> &[u64] {
        &self.seen
    }

    /// The current state as the history records it.
    #[inline]
    pub fn current_key(&self) -> HistoryEntry {
        self.key(self.s.pos, self.s.to_move)
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current colouring.
    #[inline]
    pub fn position(&self) -> Position {
        self.s.pos
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.s.to_move
    }

    /// Consecutive passes so far.
    pub fn passes(&self) -> u8 {
        self.s.passes
    }

    /// Prisoners held by `c` (opponent stones it removed).
    pub fn prisoners(&self, c: Color) -> u32 {
        self.s.prisoners[c]
    }

    /// Points that have held a stone (`koh` never replays them).
    pub fn played(&self) -> PointSet {
        self.s.played
    }

    /// The superko history, oldest first; the current state is last (empty under `koh`).
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// The history entries at indices below `before` whose colouring has
    /// between `min` and `max` stones, as (index, entry), newest first per count.
    pub fn earlier_with_stones(
        &self,
        min: u8,
        max: u8,
        before: usize,
    ) -> impl Iterator<Item = (usize, &HistoryEntry)> + '_ {
        (min as usize..=(max as usize).min(64)).flat_map(move |c| {
            let mut i = self.by_count[c];
            std::iter::from_fn(move || {
                while i != u32::MAX {
                    let here = i as usize;
                    i = self.older[here];
                    if here < before {
                        return Some((here, &self.history[here]));
                    }
                }
                None
            })
        })
    }

    /// True when the last turn repeated an earlier state (`--superko none`).
    pub fn repeated(&self) -> bool {
        self.s.repeated
    }

    /// Points where a stone may be tried: empty, and under `koh` never played.
    #[inline]
    pub fn candidates(&self) -> PointSet {
        let empty = self.s.pos.empty(self.board);
        if self.rules.ruleset == Ruleset::Koh {
            empty & !self.s.played
        } else {
            empty
        }
    }

    /// Under `--superko none`: the points where basic ko forbids a placing
    /// now, because it would recreate the colouring from before the
    /// opponent's last turn (0 under the other rules).
    ///
    /// Only two kinds of placing can recreate it. After a pass or a lone
    /// stone's suicide (the colouring unchanged), a lone stone's suicide.
    /// Otherwise the placing must put back a stone of the mover's that the
    /// last turn took (a placing that captures keeps its stone). Those
    /// candidates are then tried.
    pub fn ko_bans(&self) -> PointSet {
        let n = self.history.len();
        if self.rules.superko != Superko::None || self.rules.ruleset == Ruleset::Koh || n < 2 {
            return PointSet::EMPTY;
        }
        let before = self.history[n - 2].pos;
        let now = self.s.pos;
        let me = self.s.to_move;
        let empty = now.empty(self.board);
        let candidates = if before == now {
            empty & !self.board.spread(empty)
        } else {
            before.stones(me) & !now.stones(me)
        } & self.candidates();
        let immortal = self.rules.setup.immortal;
        candidates
            .iter()
            .filter(|&p| now.place(self.board, p, me, immortal).position == before)
            .fold(PointSet::EMPTY, |a, p| a | PointSet::single(p))
    }

    /// The point basic ko would ban to the mover now, whatever the superko
    /// rule: where the last turn placed a stone that took exactly one
    /// stone and is left alone with that point as its one liberty. (Under
    /// `--superko none` it is what [`Game::ko_bans`] bans.) Bit operations
    /// on the history's last two entries, for the hot path; `None` where
    /// the history does not show the last turn (`koh`, passes that cost a
    /// prisoner).
    #[inline]
    pub fn ko_point(&self) -> Option<u8> {
        let n = self.history.len();
        if self.s.passes > 0 || n < 2 || self.pass_rule != PassRule::Free {
            return None;
        }
        let before = self.history[n - 2].pos;
        let now = self.s.pos;
        let me = self.s.to_move;
        let lost = before.stones(me) & !now.stones(me);
        let placed = now.stones(me.opp()) & !before.stones(me.opp());
        if lost.len() != 1 || placed.len() != 1 {
            return None;
        }
        let near = self.board.neighbours(placed.first()?);
        ((near & now.stones(me.opp())).is_empty() && near & now.empty(self.board) == lost)
            .then(|| lost.first())
            .flatten()
    }

    /// True when passing is a legal turn now (the game not being over).
    #[inline]
    pub fn pass_allowed(&self) -> bool {
        match self.pass_rule {
            PassRule::Free => true,
            PassRule::Never => false,
            PassRule::CostsPrisoner => self.s.prisoners[self.s.to_move] > 0,
        }
    }

    /// The colouring after placing on `p`, if that placing is legal.
    /// The colouring after placing on `p` if that placing is legal, with the
    /// history entry it will make (when the history is a bitmap, its bit).
    #[inline]
    fn check_place(&self, p: u8) -> Option<(crate::engine::position::Placed, usize)> {
        if !self.candidates().contains(p) {
            return None;
        }
        let immortal = self.rules.setup.immortal;
        let placed = self.s.pos.place(self.board, p, self.s.to_move, immortal);
        if placed.suicided > 0 && self.rules.suicide == Suicide::Forbidden {
            return None;
        }
        if self.rules.ruleset == Ruleset::Koh {
            return Some((placed, 0));
        }
        let key = self.key(placed.position, self.s.to_move.opp());
        let bit = if self.seen.is_empty() {
            0
        } else {
            state_index(key)
        };
        let forbidden = if self.rules.superko == Superko::None {
            let n = self.history.len();
            n >= 2 && self.history[n - 2].pos == placed.position
        } else if self.seen.is_empty() {
            self.history.iter().rev().any(|k| *k == key)
        } else {
            self.seen[bit / 64] >> (bit % 64) & 1 == 1
        };
        (!forbidden).then_some((placed, bit))
    }

    /// For a placing that [`Game::try_play`] refused: the index in the
    /// history of the state it would have repeated, if superko (or, under
    /// `--superko none`, basic ko) was the reason. Slow; for the rare refusals.
    pub fn superko_hit(&self, p: u8) -> Option<usize> {
        if self.rules.ruleset == Ruleset::Koh || !self.candidates().contains(p) {
            return None;
        }
        let placed = self
            .s
            .pos
            .place(self.board, p, self.s.to_move, self.rules.setup.immortal);
        if placed.suicided > 0 && self.rules.suicide == Suicide::Forbidden {
            return None;
        }
        if self.rules.superko == Superko::None {
            let n = self.history.len();
            return (n >= 2 && self.history[n - 2].pos == placed.position).then(|| n - 2);
        }
        let key = self.key(placed.position, self.s.to_move.opp());
        self.history.iter().position(|k| *k == key)
    }

    /// Under `--superko none`, after a turn that repeated a state: the index
    /// of the earlier occurrence.
    pub fn repetition_index(&self) -> Option<usize> {
        if !self.s.repeated {
            return None;
        }
        let (last, earlier) = self.history.split_last()?;
        earlier.iter().position(|k| k == last)
    }

    /// True when `mv` is legal now (false once the game is over).
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.is_over_by_rule() {
            return false;
        }
        match mv {
            Move::Pass => self.pass_allowed(),
            Move::Place(p) => (p as usize) < self.board.len() && self.check_place(p).is_some(),
        }
    }

    /// Plays `mv` if it is legal and returns how to take it back; otherwise
    /// returns `None` and leaves the game as it was.
    #[inline]
    pub fn try_play(&mut self, mv: Move) -> Option<Undo> {
        if self.is_over_by_rule() {
            return None;
        }
        let mut undo = Undo {
            state: self.s,
            pushed: false,
            new_bit: false,
        };
        let mover = self.s.to_move;
        let mut bit = usize::MAX;
        match mv {
            Move::Pass => {
                if !self.pass_allowed() {
                    return None;
                }
                if self.pass_rule == PassRule::CostsPrisoner {
                    self.s.prisoners[mover] -= 1;
                } else {
                    self.s.passes += 1;
                }
            }
            Move::Place(p) => {
                let (placed, b) = self.check_place(p)?;
                bit = b;
                self.s.pos = placed.position;
                self.s.passes = 0;
                self.s.played |= PointSet::single(p);
                self.s.prisoners[mover] += placed.captured;
                self.s.prisoners[mover.opp()] += placed.suicided;
            }
        }
        self.s.to_move = mover.opp();
        let push = match mv {
            Move::Place(_) => self.uses_history(),
            Move::Pass => {
                self.pass_rule == PassRule::Free && self.rules.superko != Superko::Positional
            }
        };
        if push {
            let key = self.key(self.s.pos, self.s.to_move);
            if bit == usize::MAX && !self.seen.is_empty() {
                bit = state_index(key);
            }
            let (before, new_bit) = self.remember(key, bit);
            // Two passes end the game and it is scored, although the
            // second one always recreates the state before the first.
            if self.rules.superko == Superko::None {
                self.s.repeated = before && self.s.passes < 2;
            }
            undo.new_bit = new_bit;
            undo.pushed = true;
        }
        Some(undo)
    }

    /// Plays a move known to be legal.
    ///
    /// # Panics
    /// If the move is illegal.
    pub fn play(&mut self, mv: Move) -> Undo {
        self.try_play(mv)
            .unwrap_or_else(|| panic!("illegal move {mv:?}"))
    }

    /// Takes back the turn that returned `undo`.
    #[inline]
    pub fn undo(&mut self, undo: Undo) {
        if undo.pushed {
            let key = self.history.pop().expect("history entry");
            let c = key.pos.occupied().len() as usize;
            self.by_count[c] = self.older.pop().expect("count chain");
            if undo.new_bit {
                let i = state_index(key);
                self.seen[i / 64] &= !(1 << (i % 64));
            }
        }
        self.s = undo.state;
    }

    /// Over by two passes or by a repetition (`--superko none`); the
    /// normal-play rulesets end instead when the mover has no legal turn.
    #[inline]
    pub fn is_over_by_rule(&self) -> bool {
        self.s.repeated || self.s.passes >= 2
    }

    /// Every legal turn, passes first, in point order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.is_over_by_rule() {
            return out;
        }
        if self.pass_allowed() {
            out.push(Move::Pass);
        }
        for p in self.candidates().iter() {
            if self.check_place(p).is_some() {
                out.push(Move::Place(p));
            }
        }
        out
    }

    /// True when the player to move has at least one legal turn.
    pub fn has_legal_turn(&self) -> bool {
        if self.is_over_by_rule() {
            return false;
        }
        self.pass_allowed()
            || self
                .candidates()
                .iter()
                .any(|p| self.check_place(p).is_some())
    }

    /// The result if the game is over, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.s.repeated {
            return Some(Outcome::Score(0));
        }
        if self.rules.ruleset.has_score() {
            (self.s.passes >= 2).then(|| self.final_score())
        } else {
            (!self.has_legal_turn()).then_some(Outcome::Win(self.s.to_move.opp()))
        }
    }

    /// Black − White − komi in half points if the game were scored now.
    pub fn final_score(&self) -> Outcome {
        Outcome::Score(self.score_with(self.s.pos.area(self.board)))
    }

    /// [`Game::final_score`]'s half points were each side's area (stones
    /// and the empty points counted for it) `area`, as when a search
    /// guesses the area of a game far from over.
    pub fn score_with(&self, area: (u32, u32)) -> i32 {
        let (b, w) = self.scores_of(area);
        2 * (b as i32 - w as i32) - self.rules.komi.0
    }

    /// Each player's score as the ruleset counts it, komi not included:
    /// area for `tromp-taylor`; under `ggg` empty regions touching no stone
    /// count for both; `logical` adds prisoners.
    pub fn scores(&self) -> (u32, u32) {
        self.scores_of(self.s.pos.area(self.board))
    }

    /// Black − White − komi in half points were the game over now with
    /// colouring `pos` (the prisoners as they are): how a closed strategy
    /// ([`crate::search::closed`]) scores the states it has not played to.
    pub fn score_at(&self, pos: Position) -> i32 {
        let (b, w) = self.scores_in(pos, pos.area(self.board));
        2 * (b as i32 - w as i32) - self.rules.komi.0
    }

    /// [`Game::scores`] with each side's area given.
    fn scores_of(&self, area: (u32, u32)) -> (u32, u32) {
        self.scores_in(self.s.pos, area)
    }

    /// [`Game::scores_of`] for colouring `pos`.
    fn scores_in(&self, pos: Position, (b, w): (u32, u32)) -> (u32, u32) {
        match self.rules.ruleset {
            Ruleset::Ggg => {
                let both = pos.untouched(self.board);
                (b + both, w + both)
            }
            Ruleset::Logical => (b + self.s.prisoners.black, w + self.s.prisoners.white),
            _ => (b, w),
        }
    }
}
