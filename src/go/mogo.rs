//! MoGo's sequence-like playout policy (Wang and Gelly 2007; Gelly and Silver's MoGo with the
//! expert knowledge of Chaslot et al., Algorithms 1-4), as the MoGo implementation notes
//! (section 3) read it. For the player to move `me`, with `last` the opponent's last move (the
//! local rules are skipped after a pass), the move is the first rule that gives a candidate:
//!
//! 1. **save atari**: a string of `me` next to `last` in atari: its liberty when that gives it
//!    2 liberties or more, or the liberty of an opponent string in atari that touches it;
//! 2. **nakade**: an empty neighbour of `last` in an eye space of exactly 3 points bordered by
//!    the opponent only: its centre (the vital point of a straight or bent three);
//! 3. **fill board**: up to `fill_board_tries` random points of the board; the first empty one
//!    whose 8 neighbours are empty points is played;
//! 4. **patterns**: the empty points among the 8 around `last` where a MoGo 3x3 pattern
//!    matches; one is drawn, and when it is a self-atari, with probability
//!    `approach_probability` the **approach move** replaces it: the one liberty the string
//!    would keep (the connecting or outside-liberty move), when that is no self-atari itself;
//! 5. **capture**: the liberty of an opponent string in atari anywhere on the board;
//! 6. **random**: the light rule ([`Board::play_light_move`]): uniform over legal points that do
//!    not fill an own eye; a pass when there is none.
//!
//! Every rule draws uniformly among its candidates. Every candidate must be legal under simple
//! ko and must not fill the mover's own eye (the light playout's eye rule), so a pass is played
//! only when nothing else is playable.
//!
//! The hot path reads only the board's incremental strings (exact liberty counts and sums,
//! the set of strings in atari) and the cells around `last`; nothing walks the board. The
//! capture rule draws among the opponent's strings in atari anywhere, in an order the
//! playouts were pinned with: [`mogo_playout`] remembers its list from turn to turn and
//! updates it from the two moves played since; it is listed afresh from the board's atari set
//! (in the order a walk of the empty points would meet the strings) at the start of a
//! playout, when more than 8 strings are in atari, and for a single [`MogoPolicy::play`] (as
//! MCTS calls it through [`Knowledge`]).
//!
//! Speed (one core of the project's shared 2-core box, empty 9x9 board, komi 7.5):
//! `docs/go.md` has the figures and how they were taken; Pachi's MoGo-like policy measured
//! 15.7k/s on the same box.
//! Mean 104.6 stones placed, Black wins 45.1% (light: 107.3 and 41.9%).
//!
//! ```
//! use arbor::go::{Board, MogoConfig, MogoPolicy, mogo_playout};
//! use arbor::search::game::seeded_rng;
//!
//! let policy = MogoPolicy::new(MogoConfig::default());
//! let playout = mogo_playout(&Board::new(9).unwrap(), &policy, &mut seeded_rng(1));
//! assert!(playout.stones_placed > 40);
//! ```

use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::Color;
use super::board::{Board, EMPTY, MAX_POINTS, Move, Point, stone};
use super::game::GoGame;
use super::patterns::is_mogo_pattern_for;
use super::playout::Playout;
use super::tactics::{self, Candidates};
use crate::search::game::{Knowledge, random_index};

/// Which rules of the MoGo policy are on, and their parameters. [`Default`] is the paper's
/// full policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MogoConfig {
    /// Rule 1, save atari.
    pub save_atari: bool,
    /// Rule 2, nakade.
    pub nakade: bool,
    /// Rule 3, fill board.
    pub fill_board: bool,
    /// Random points fill board draws per move (0 turns the rule off too).
    pub fill_board_tries: u8,
    /// Rule 4, the 3x3 patterns around the last move.
    pub patterns: bool,
    /// The approach-move refinement of the pattern rule (3.6).
    pub approach: bool,
    /// The chance that a self-atari pattern move is replaced by its approach move.
    pub approach_probability: f32,
    /// Rule 5, capture anywhere.
    pub capture: bool,
}

impl MogoConfig {
    /// The default number of fill-board tries.
    ///
    /// The paper gives none; the notes read 1 to 10 on 9x9. A try costs one random draw and
    /// a look at 9 cells, far less than a move, so the cost does not decide it. What does is
    /// the rule's reach: on an empty 9x9 board 49 of the 81 points qualify, and the rule
    /// should stop firing once the board is broken up rather than crowd out the patterns. With
    /// 4 tries it fires nearly always while a quarter of the points still qualify
    /// (1 - 0.75^4 = 68%) and rarely once a tenth do (34%), which spreads the first stones
    /// over the board in the opening and leaves the middle game to the local rules. Untuned
    /// (no strength matches were run for this choice).
    pub const DEFAULT_FILL_BOARD_TRIES: u8 = 4;

    /// Every rule off: the light policy.
    pub const LIGHT: MogoConfig = MogoConfig {
        save_atari: false,
        nakade: false,
        fill_board: false,
        fill_board_tries: 0,
        patterns: false,
        approach: false,
        approach_probability: 0.0,
        capture: false,
    };
}

impl Default for MogoConfig {
    /// The full policy: every rule on, [`MogoConfig::DEFAULT_FILL_BOARD_TRIES`] fill-board
    /// tries, approach moves half of the time (the paper's 1/2).
    fn default() -> Self {
        MogoConfig {
            save_atari: true,
            nakade: true,
            fill_board: true,
            fill_board_tries: MogoConfig::DEFAULT_FILL_BOARD_TRIES,
            patterns: true,
            approach: true,
            approach_probability: 0.5,
            capture: true,
        }
    }
}

/// The rule that chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    SaveAtari,
    Nakade,
    FillBoard,
    Pattern,
    /// A self-atari pattern move replaced by its approach move.
    Approach,
    Capture,
    Random,
    /// The random rule found nothing.
    Pass,
}

/// The MoGo playout policy for a [`MogoConfig`]. See the module text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MogoPolicy {
    config: MogoConfig,
    /// `approach_probability` as a threshold for a 32-bit draw (2^32 is always).
    approach_threshold: u64,
}

impl Default for MogoPolicy {
    fn default() -> Self {
        MogoPolicy::new(MogoConfig::default())
    }
}

impl MogoPolicy {
    /// The policy for `config`. A probability outside [0, 1] is clamped, NaN is 0.
    pub fn new(config: MogoConfig) -> Self {
        let p = if config.approach_probability.is_nan() {
            0.0
        } else {
            config.approach_probability.clamp(0.0, 1.0)
        };
        MogoPolicy {
            config,
            approach_threshold: (f64::from(p) * 4_294_967_296.0) as u64,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MogoConfig {
        &self.config
    }

    /// Plays the policy's move for the player to move and returns it. A board whose game is
    /// over is left as it is (and a pass returned).
    #[inline]
    pub fn play(&self, board: &mut Board, rng: &mut XorShiftRng) -> Move {
        self.play_traced(board, rng).0
    }

    /// [`MogoPolicy::play`] that also tells which rule chose the move.
    pub fn play_traced(&self, board: &mut Board, rng: &mut XorShiftRng) -> (Move, Rule) {
        self.play_remembering(board, rng, &mut Memory::default())
    }

    /// [`MogoPolicy::play_traced`] with what earlier moves of the same playout left in
    /// `memory` (see [`Memory`]).
    #[inline]
    fn play_remembering(
        &self,
        board: &mut Board,
        rng: &mut XorShiftRng,
        memory: &mut Memory,
    ) -> (Move, Rule) {
        if board.is_over() {
            return (Move::Pass, Rule::Pass);
        }
        if let Some((p, rule)) = self.rule_move(board, rng, memory) {
            // Every candidate is an empty point of the board, legal under simple ko.
            let mv = Move::Play(point_of(p));
            board.play_unchecked(mv);
            memory.fill.placed = memory.fill.placed.wrapping_add(1);
            return (mv, rule);
        }
        match board.play_light_move(rng) {
            Move::Pass => (Move::Pass, Rule::Pass),
            mv => {
                memory.fill.placed = memory.fill.placed.wrapping_add(1);
                (mv, Rule::Random)
            }
        }
    }

    /// The move of the first rule (1-5) that has a candidate, as a padded-array index.
    #[inline]
    fn rule_move(
        &self,
        board: &Board,
        rng: &mut XorShiftRng,
        memory: &mut Memory,
    ) -> Option<(usize, Rule)> {
        let c = &self.config;
        let me = board.to_move();
        let ataris = &mut memory.ataris[me.index()];
        let cx = Context {
            board,
            me: board.to_move(),
            ko: board.ko_index(),
        };
        let last = match board.last_move() {
            Move::Play(point) if board.cell(point.index()) != EMPTY => Some(point.index()),
            _ => None,
        };
        if c.capture {
            ataris.update(board, me.opponent(), last);
        }
        if let Some(last) = last {
            if c.save_atari
                && let Some(p) = cx.save_atari(last, rng)
            {
                return Some((p, Rule::SaveAtari));
            }
            if c.nakade
                && let Some(p) = cx.nakade(last, rng)
            {
                return Some((p, Rule::Nakade));
            }
        }
        if c.fill_board {
            if memory.fill.still_closed(board) {
                // No point qualifies: every try misses, and draws all the same.
                for _ in 0..c.fill_board_tries {
                    rng.next_u32();
                }
            } else if let Some(p) = cx.fill_board(c.fill_board_tries, rng) {
                return Some((p, Rule::FillBoard));
            } else {
                memory.fill.look(board);
            }
        }
        if c.patterns
            && let Some(last) = last
            && let Some(m) = cx.pattern(last, rng)
        {
            if c.approach
                && let Some(a) = tactics::approach_move(board, m, cx.me)
                && cx.playable(a)
                && u64::from(rng.next_u32()) < self.approach_threshold
            {
                return Some((a, Rule::Approach));
            }
            return Some((m, Rule::Pattern));
        }
        if c.capture {
            if ataris.turn != Some(board.turns()) && !ataris.collect(board, me.opponent()) {
                // Too many to remember: walk the board.
                if let Some(p) = cx.capture(rng) {
                    return Some((p, Rule::Capture));
                }
                return None;
            }
            let mut found = Candidates::new();
            for &s in ataris.stones() {
                let lib = usize::from(board.string_liberty_sum(usize::from(s)));
                if cx.playable(lib) {
                    found.push_string(lib);
                }
            }
            if let Some(p) = found.pick(rng) {
                return Some((p, Rule::Capture));
            }
        }
        None
    }
}

/// What the policy remembers between the moves of one playout ([`mogo_playout`]) to save
/// the capture rule its walk of the board: per player, the opponent strings in atari at that
/// player's turn. Two turns later a string can be in atari only if it was then, or if it
/// touches the player's own move since, or if it holds the opponent's last move (liberties
/// shrink only where stones are placed), so the list is brought up to date from those few
/// strings. The candidates are the same as the walk's, found in another order (so a playout
/// with memory and one move at a time with [`MogoPolicy::play`] follow the same distribution,
/// not the same draws).
#[derive(Clone, Copy, Debug, Default)]
struct Memory {
    ataris: [Ataris; 2],
    fill: Fill,
}

/// What fill board knows of the open points (empty, with 8 empty neighbours: the points it
/// plays), to skip its tries' tests when there is none. Placing a stone never opens a point,
/// and neither does a capture of fewer than 9 stones: after it every stone next to a captured
/// one is a stone or the edge, so a point that opens has its 3x3 among the stones captured
/// by that one move (a point outside them with a captured stone in its 3x3 would have been
/// their liberty, or would touch one). So once a look finds none, there is none while every
/// move since captured fewer than 9 stones, which the key tells: the empty points plus the
/// stones placed since the playout began rise by the stones captured, and never fall.
#[derive(Clone, Copy, Debug, Default)]
struct Fill {
    /// Stones placed through this memory (wrapping).
    placed: u16,
    /// The key when a look found no open point; `None` when not known.
    closed: Option<u16>,
    /// An open point a look found (0, a border cell, for none): while it stays open, no look
    /// is needed.
    open: u16,
}

impl Fill {
    /// The empty points plus the stones placed, wrapping.
    #[inline(always)]
    fn key(&self, board: &Board) -> u16 {
        (board.empty_list().len() as u16).wrapping_add(self.placed)
    }

    /// Whether no point is open: none was at the last look, and the moves since then
    /// captured fewer than 9 stones in all (so each of them did). Refreshes the key.
    #[inline(always)]
    fn still_closed(&mut self, board: &Board) -> bool {
        let key = self.key(board);
        match self.closed {
            Some(then) if key.wrapping_sub(then) < 9 => {
                self.closed = Some(key);
                true
            }
            _ => false,
        }
    }

    /// After fill board's tries missed: notes that no point is open when none is.
    #[inline]
    fn look(&mut self, board: &Board) {
        if tactics::is_empty_3x3(board, usize::from(self.open)) {
            return;
        }
        match board
            .empty_list()
            .iter()
            .find(|&&p| tactics::is_empty_3x3(board, usize::from(p)))
        {
            Some(&p) => self.open = p,
            None => self.closed = Some(self.key(board)),
        }
    }
}

/// Opponent strings in atari at one player's turn, by one stone each.
#[derive(Clone, Copy, Debug, Default)]
struct Ataris {
    /// The turn the list is right for; `None` when unknown.
    turn: Option<u16>,
    len: usize,
    stones: [u16; Ataris::CAPACITY],
}

impl Ataris {
    /// More strings in atari than this at once is rare; the policy then draws from the
    /// board's atari set directly.
    const CAPACITY: usize = 8;

    fn stones(&self) -> &[u16] {
        &self.stones[..self.len]
    }

    /// Adds the string of the stone `s` if it is an `enemy` string in atari not yet listed;
    /// false when the list is full.
    #[inline(always)]
    fn add(&mut self, board: &Board, s: usize, enemy: u8) -> bool {
        if board.cell(s) != enemy || board.string_liberties(s) != 1 {
            return true;
        }
        let id = board.string_id(s);
        if self
            .stones()
            .iter()
            .any(|&t| board.string_id(usize::from(t)) == id)
        {
            return true;
        }
        if self.len == Ataris::CAPACITY {
            return false;
        }
        self.stones[self.len] = s as u16;
        self.len += 1;
        true
    }

    /// Brings the list from two turns ago up to this turn, or forgets it.
    #[inline]
    fn update(&mut self, board: &Board, enemy_color: Color, last: Option<usize>) {
        let turns = board.turns();
        if self.turn != Some(turns.wrapping_sub(2)) {
            self.turn = None;
            return;
        }
        if !board.has_atari(enemy_color) {
            // None at all: the list is empty whatever it held.
            self.len = 0;
            self.turn = Some(turns);
            return;
        }
        let enemy = stone(enemy_color);
        let old = *self;
        self.len = 0;
        let mut fits = true;
        for &s in old.stones() {
            fits &= self.add(board, usize::from(s), enemy);
        }
        if let Some(last) = last {
            fits &= self.add(board, last, enemy);
        }
        if let Move::Play(mine) = board.previous_move() {
            for n in tactics::around(board, mine.index()) {
                fits &= self.add(board, n, enemy);
            }
        }
        self.turn = fits.then_some(turns);
    }

    /// Lists the strings in atari from the board's set of them; false (and unknown) when
    /// they do not fit.
    ///
    /// The list comes in the order a walk of the empty points would meet the strings (the
    /// order the playouts were pinned with): each string at its liberty's place in the empty
    /// list, strings sharing a liberty in the order of that point's neighbours, each by its
    /// first stone there.
    #[inline]
    fn collect(&mut self, board: &Board, enemy_color: Color) -> bool {
        self.len = 0;
        self.turn = None;
        let mut keys = [0usize; Ataris::CAPACITY];
        for anchor in board.strings_in_atari(enemy_color) {
            if self.len == Ataris::CAPACITY {
                return false;
            }
            let id = anchor.index();
            let liberty = usize::from(board.string_liberty_sum(id));
            let (first, stone) = tactics::around(board, liberty)
                .into_iter()
                .enumerate()
                .find(|&(_, n)| board.string_id(n) == id)
                .unwrap_or((0, id));
            let key = 4 * board.empty_index(liberty) + first;
            // Insertion into the sorted list: at most 8 strings.
            let mut i = self.len;
            while i > 0 && keys[i - 1] > key {
                keys[i] = keys[i - 1];
                self.stones[i] = self.stones[i - 1];
                i -= 1;
            }
            keys[i] = key;
            self.stones[i] = stone as u16;
            self.len += 1;
        }
        self.turn = Some(board.turns());
        true
    }
}

/// What every rule looks at: the board, the player to move and the ko point.
struct Context<'a> {
    board: &'a Board,
    me: Color,
    ko: usize,
}

impl Context<'_> {
    /// Whether `p` is empty, legal under simple ko, and not an own eye.
    #[inline(always)]
    fn playable(&self, p: usize) -> bool {
        self.board.cell(p) == EMPTY && self.playable_empty(p)
    }

    /// [`Context::playable`] for a point known to be empty. A point with an empty neighbour
    /// is legal, no eye and not the ko point (whose neighbours are all stones or border), so
    /// the eye and legality tests run only for points without one, as the light move does.
    #[inline(always)]
    fn playable_empty(&self, p: usize) -> bool {
        self.board.neighbour_counts(p)[usize::from(EMPTY)] > 0
            || (p != self.ko
                && !self.board.is_own_eye(p, self.me)
                && self.board.is_legal_at(p, self.me))
    }

    /// Rule 1.
    #[inline]
    fn save_atari(&self, last: usize, rng: &mut XorShiftRng) -> Option<usize> {
        let own = stone(self.me);
        // Without a string of `me` in atari anywhere (the board's set), none is next to
        // `last`: one look at the set rather than four at the neighbours.
        if !self.board.has_atari(self.me)
            || !tactics::around(self.board, last)
                .into_iter()
                .any(|n| self.board.cell(n) == own && self.board.string_liberties(n) == 1)
        {
            return None;
        }
        let mut found = Candidates::new();
        tactics::save_atari(self.board, last, self.me, &mut found);
        found.retain(|p| self.playable(p));
        found.pick(rng)
    }

    /// Rule 2.
    #[inline]
    fn nakade(&self, last: usize, rng: &mut XorShiftRng) -> Option<usize> {
        let board = self.board;
        let mut found = [0usize; 4];
        let mut len = 0;
        let own = usize::from(stone(self.me));
        for x in tactics::around(board, last) {
            // A point of a 3-point space has 1 or 2 empty neighbours and none of `me`.
            let counts = board.neighbour_counts(x);
            if board.cell(x) == EMPTY
                && counts[own] == 0
                && matches!(counts[usize::from(EMPTY)], 1 | 2)
                && let Some(centre) = tactics::nakade_centre(board, x, self.me)
                && !found[..len].contains(&centre)
                && self.playable(centre)
            {
                found[len] = centre;
                len += 1;
            }
        }
        match len {
            0 => None,
            1 => Some(found[0]),
            n => Some(found[random_index(rng, n)]),
        }
    }

    /// Rule 3.
    #[inline]
    fn fill_board(&self, tries: u8, rng: &mut XorShiftRng) -> Option<usize> {
        let board = self.board;
        let size = usize::from(board.size());
        let stride = board.stride_cells();
        for _ in 0..tries {
            // A uniform point of the board: a row and a column from the two halves of one
            // draw by multiply-shift (a bias below size / 2^16, which no playout can notice).
            let draw = rng.next_u32() as usize;
            let row = ((draw >> 16) * size) >> 16;
            let col = ((draw & 0xffff) * size) >> 16;
            let p = (row + 1) * stride + col + 1;
            if tactics::is_empty_3x3(board, p) {
                return Some(p);
            }
        }
        None
    }

    /// Rule 4 before the approach refinement.
    #[inline]
    fn pattern(&self, last: usize, rng: &mut XorShiftRng) -> Option<usize> {
        let board = self.board;
        let mut found = Candidates::new();
        let window = tactics::window(board, last);
        // The empty points of the window, read from the code of `last` (a field is 0 exactly
        // on an empty cell, and field `k` is `window[k]`), visited in the window's order
        // without a look at the other cells.
        let code = board.code(last);
        let mut empty = !(code | (code >> 1)) & 0x5555;
        while empty != 0 {
            let q = window[(empty.trailing_zeros() / 2) as usize];
            empty &= empty - 1;
            // The board keeps every point's code, so the table is asked at once (every
            // MoGo pattern has a stone next to its centre; the table knows it).
            if is_mogo_pattern_for(board.code(q), self.me) && self.playable_empty(q) {
                found.push(q);
            }
        }
        found.pick(rng)
    }

    /// Rule 5 from the board's set of strings in atari (when too many are in atari to
    /// remember).
    #[inline]
    fn capture(&self, rng: &mut XorShiftRng) -> Option<usize> {
        let mut liberties = [0u16; MAX_POINTS];
        let count =
            tactics::capture_liberties(self.board, self.me.opponent(), &mut liberties, |p| {
                self.playable(p)
            });
        if count == 0 {
            return None;
        }
        Some(usize::from(liberties[random_index(rng, count)]))
    }
}

/// The point of a padded-array index the board gave us.
#[inline(always)]
fn point_of(p: usize) -> Point {
    Board::point_at(p)
}

/// Plays a MoGo playout on a copy of `board` with `policy` and returns who won and how many
/// stones were placed, exactly as [`super::light_playout`] does for the light policy: until
/// two passes or the game-length cap, scored by stones plus empty points whose neighbours are
/// all one colour. A board whose game is over is scored as it stands. For many playouts from
/// one board, [`MogoPlayouts`] saves most of the copying.
pub fn mogo_playout(board: &Board, policy: &MogoPolicy, rng: &mut XorShiftRng) -> Playout {
    play_out(&mut board.clone(), policy, rng)
}

/// MoGo playouts from one start board, run on a scratch board that each playout resets from
/// the start by copying only the cells the board's size uses (a clone copies the arrays of a
/// 19x19 board, about 9 KB, which costs a 9x9 playout 6% of its instructions).
#[derive(Clone, Debug)]
pub struct MogoPlayouts {
    start: Board,
    scratch: Board,
    policy: MogoPolicy,
}

impl MogoPlayouts {
    /// Playouts from `start` with `policy`.
    pub fn new(start: &Board, policy: MogoPolicy) -> MogoPlayouts {
        MogoPlayouts {
            start: start.clone(),
            scratch: start.clone(),
            policy,
        }
    }

    /// The board every playout starts from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// One playout from the start board, as [`mogo_playout`] plays it (the same moves for
    /// the same generator).
    pub fn run(&mut self, rng: &mut XorShiftRng) -> Playout {
        self.scratch.copy_from(&self.start);
        play_out(&mut self.scratch, &self.policy, rng)
    }
}

/// Plays `board` out with `policy` and scores it.
#[inline]
fn play_out(board: &mut Board, policy: &MogoPolicy, rng: &mut XorShiftRng) -> Playout {
    let mut stones_placed = 0;
    let mut memory = Memory::default();
    while !board.is_over() {
        if let (Move::Play(_), _) = policy.play_remembering(board, rng, &mut memory) {
            stones_placed += 1;
        }
    }
    Playout::scored(board, stones_placed)
}

/// MCTS playouts for Go with the MoGo policy: moves are played straight on the game's board
/// under simple ko (as the light playouts of [`GoGame`] are), with the position recorded.
impl Knowledge<GoGame> for MogoPolicy {
    fn playout_move(&self, state: &GoGame, moves: &[Move], rng: &mut XorShiftRng) -> usize {
        let mut board = state.board().clone();
        let mv = self.play(&mut board, rng);
        // A move the superko list refuses falls back to the pass, listed last.
        moves
            .iter()
            .position(|&m| m == mv)
            .unwrap_or(moves.len().saturating_sub(1))
    }

    fn play_playout_move(&self, state: &mut GoGame, rng: &mut XorShiftRng) -> Option<Move> {
        if state.board().is_over() {
            return None;
        }
        Some(state.play_on_board(|board| self.play(board, rng)))
    }
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::go::diagram;
    use crate::go::patterns::{Cell, is_mogo_pattern, neighbourhood_code};

    /// The point of a GTP vertex such as "C3".
    fn at(board: &Board, vertex: &str) -> Point {
        let col = diagram::COLUMNS
            .iter()
            .position(|&c| c == vertex.as_bytes()[0])
            .unwrap() as u8;
        let row: u8 = vertex[1..].parse().unwrap();
        board.point(col, row - 1).unwrap()
    }

    /// A diagram, then `last` played by `by`: the other player is to move.
    fn position(text: &str, by: Color, last: &str) -> Board {
        let mut board = diagram::parse(text).unwrap();
        board.set_to_move(by);
        let mv = Move::Play(at(&board, last));
        board.try_play(mv).unwrap();
        board
    }

    /// How often each move and rule comes out of one position over `seeds` seeds.
    fn moves(board: &Board, config: MogoConfig, seeds: u64) -> std::vec::Vec<(Move, Rule)> {
        let policy = MogoPolicy::new(config);
        (0..seeds)
            .map(|seed| {
                let mut b = board.clone();
                policy.play_traced(&mut b, &mut XorShiftRng::seed_from_u64(seed))
            })
            .collect()
    }

    fn share(found: &[(Move, Rule)], mv: Move) -> f64 {
        found.iter().filter(|(m, _)| *m == mv).count() as f64 / found.len() as f64
    }

    fn only(f: impl FnOnce(&mut MogoConfig)) -> MogoConfig {
        let mut config = MogoConfig::LIGHT;
        f(&mut config);
        config
    }

    /// The 3x3 code of `point` for the player to move, read through the public API only.
    fn public_code(board: &Board, point: Point) -> u16 {
        let (col, row) = board.coords(point).unwrap();
        let me = board.to_move();
        let mut cells = [Cell::OffBoard; 8];
        // NW N NE W E SW S SE with north the row above (any rigid reading will do).
        let offsets = [
            (-1, 1),
            (0, 1),
            (1, 1),
            (-1, 0),
            (1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        for (cell, (dc, dr)) in cells.iter_mut().zip(offsets) {
            let (c, r) = (i16::from(col) + dc, i16::from(row) + dr);
            if let (Ok(c), Ok(r)) = (u8::try_from(c), u8::try_from(r))
                && let Some(q) = board.point(c, r)
            {
                *cell = match board.color_at(q) {
                    None => Cell::Empty,
                    Some(color) if color == me => Cell::Mover,
                    Some(_) => Cell::Opponent,
                };
            }
        }
        neighbourhood_code(cells)
    }

    /// Whether the player to move may play `point` in a playout: legal under simple ko and
    /// not an own eye.
    fn playable(board: &Board, point: Point) -> bool {
        board.check(Move::Play(point)).is_ok() && !board.is_own_eye(point.index(), board.to_move())
    }

    fn is_neighbour8(board: &Board, a: Point, b: Point) -> bool {
        let (ac, ar) = board.coords(a).unwrap();
        let (bc, br) = board.coords(b).unwrap();
        a != b && ac.abs_diff(bc) <= 1 && ar.abs_diff(br) <= 1
    }

    /// Random positions: light playouts from empty boards of several sizes, stopped after a
    /// random number of turns.
    fn random_positions(count: usize, seed: u64) -> std::vec::Vec<Board> {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        (0..count)
            .map(|i| {
                let size = [5u8, 7, 9, 9, 13, 19][i % 6];
                let mut board = Board::new(size).unwrap();
                let turns = random_index(&mut rng, usize::from(size) * usize::from(size) * 2);
                for _ in 0..turns {
                    if board.is_over() {
                        break;
                    }
                    board.play_light_move(&mut rng);
                }
                board
            })
            .collect()
    }

    const ESCAPE: &str = "
 7 . . . . . . .
 6 . . . . . . .
 5 . . . . . . .
 4 . . . . . . .
 3 . O X . . . .
 2 . . O . . . .
 1 . . . . . . .
";

    #[test]
    fn save_atari_plays_the_escape_that_gives_two_liberties() {
        // White C4 puts C3 in atari; D3 gives it 3 liberties.
        let board = position(ESCAPE, Color::White, "C4");
        let d3 = Move::Play(at(&board, "D3"));
        let found = moves(&board, MogoConfig::default(), 200);
        assert!(
            found.iter().all(|&f| f == (d3, Rule::SaveAtari)),
            "{found:?}"
        );
        // Switched off, the escape is one move among many.
        let off = MogoConfig {
            save_atari: false,
            ..MogoConfig::default()
        };
        let found = moves(&board, off, 400);
        assert!(found.iter().all(|&(_, r)| r != Rule::SaveAtari));
        let rate = share(&found, d3);
        println!("D3 without save atari: {:.1}%", 100.0 * rate);
        assert!(rate < 0.6, "{rate}");
        assert!(share(&moves(&board, MogoConfig::LIGHT, 400), d3) < 0.1);
    }

    #[test]
    fn save_atari_also_captures_an_adjacent_string_in_atari() {
        // White D4 puts D3 in atari (liberty D2); White C3, next to it, is in atari (C2).
        let board = position(
            "
 7 . . . . . . .
 6 . . . . . . .
 5 . . . . . . .
 4 . . X . . . .
 3 . X O X O . .
 2 . . . . . . .
 1 . . . . . . .
",
            Color::White,
            "D4",
        );
        let (d2, c2) = (Move::Play(at(&board, "D2")), Move::Play(at(&board, "C2")));
        let found = moves(&board, MogoConfig::default(), 400);
        assert!(
            found
                .iter()
                .all(|&(m, r)| r == Rule::SaveAtari && (m == d2 || m == c2)),
            "{found:?}"
        );
        let rate = share(&found, c2);
        assert!((0.4..0.6).contains(&rate), "capture {rate}");
    }

    #[test]
    fn a_hopeless_escape_is_not_chosen_by_save_atari() {
        // White C3 puts C2 in atari; C1 would leave it one liberty (B1).
        let board = position(
            "
 5 . . . . .
 4 . . . . .
 3 . . . . .
 2 . O X O .
 1 . . . O .
",
            Color::White,
            "C3",
        );
        let found = moves(&board, only(|c| c.save_atari = true), 400);
        assert!(found.iter().all(|&(_, r)| r == Rule::Random), "{found:?}");
        assert!(share(&found, Move::Play(at(&board, "C1"))) < 0.2);
    }

    #[test]
    fn capture_takes_a_string_in_atari_anywhere() {
        // White C6 is in atari (C7), far from White's last move G1.
        let board = position(
            "
 7 . . . . . . .
 6 . X O X . . .
 5 . . X . . . .
 4 . . . . . . .
 3 . . . . . . .
 2 . . . . . . .
 1 . . . . . . .
",
            Color::White,
            "G1",
        );
        let c7 = Move::Play(at(&board, "C7"));
        let found = moves(&board, only(|c| c.capture = true), 100);
        assert!(found.iter().all(|&f| f == (c7, Rule::Capture)), "{found:?}");
        let found = moves(&board, MogoConfig::default(), 200);
        assert!(found.contains(&(c7, Rule::Capture)));
        let off = MogoConfig {
            capture: false,
            ..MogoConfig::default()
        };
        let found = moves(&board, off, 400);
        assert!(found.iter().all(|&(_, r)| r != Rule::Capture));
        assert!(share(&found, c7) < 0.1);
    }

    #[test]
    fn nakade_plays_the_vital_point_of_straight_and_bent_threes() {
        // White B3 closes a straight three B2 C2 D2: its centre is C2.
        let straight = position(
            "
 7 . . . . . . .
 6 . . . . . . .
 5 . . . . . . .
 4 . . . . . . .
 3 O . O O O . .
 2 O . . . O . .
 1 O O O O O . .
",
            Color::White,
            "B3",
        );
        // White C3 closes a bent three B2 C2 B1: its centre is B2.
        let bent = position(
            "
 7 . . . . . . .
 6 . . . . . . .
 5 . . . . . . .
 4 . . . . . . .
 3 O O . O . . .
 2 O . . O . . .
 1 O . O O . . .
",
            Color::White,
            "C3",
        );
        for (board, centre) in [(&straight, "C2"), (&bent, "B2")] {
            let vital = Move::Play(at(board, centre));
            let found = moves(board, MogoConfig::default(), 200);
            assert!(
                found.iter().all(|&f| f == (vital, Rule::Nakade)),
                "{found:?}"
            );
            let off = MogoConfig {
                nakade: false,
                ..MogoConfig::default()
            };
            let found = moves(board, off, 400);
            assert!(found.iter().all(|&(_, r)| r != Rule::Nakade));
            let rate = share(&found, vital);
            println!("{centre} without nakade: {:.1}%", 100.0 * rate);
            assert!(rate < 0.7, "{rate}");
        }
    }

    #[test]
    fn fill_board_plays_only_points_whose_3x3_is_empty() {
        let config = only(|c| {
            c.fill_board = true;
            c.fill_board_tries = 10;
        });
        let policy = MogoPolicy::new(config);
        let mut rng = XorShiftRng::seed_from_u64(3);
        let mut filled = 0;
        for mut board in random_positions(120, 11) {
            while !board.is_over() {
                let before = board.clone();
                let (mv, rule) = policy.play_traced(&mut board, &mut rng);
                if rule == Rule::FillBoard {
                    filled += 1;
                    let Move::Play(p) = mv else { panic!() };
                    assert_eq!(before.color_at(p), None);
                    assert_eq!(public_code(&before, p), 0, "{before:?} {p:?}");
                } else {
                    assert_eq!(
                        rule,
                        if mv == Move::Pass {
                            Rule::Pass
                        } else {
                            Rule::Random
                        }
                    );
                }
            }
        }
        assert!(filled > 100, "{filled}");
        // Off (0 tries, or the switch), it never plays.
        for off in [
            MogoConfig {
                fill_board_tries: 0,
                ..config
            },
            MogoConfig {
                fill_board: false,
                ..config
            },
        ] {
            let found = moves(&Board::new(9).unwrap(), off, 200);
            assert!(found.iter().all(|&(_, r)| r == Rule::Random));
        }
        let found = moves(&Board::new(9).unwrap(), config, 200);
        assert!(found.iter().all(|&(_, r)| r == Rule::FillBoard));
    }

    #[test]
    fn patterns_play_only_matching_points_around_the_last_move() {
        let policy = MogoPolicy::new(only(|c| c.patterns = true));
        let mut rng = XorShiftRng::seed_from_u64(5);
        let (mut matched, mut random) = (0, 0);
        for mut board in random_positions(150, 12) {
            while !board.is_over() {
                let before = board.clone();
                let (mv, rule) = policy.play_traced(&mut board, &mut rng);
                let matching = match before.last_move() {
                    Move::Play(last) => before
                        .empty_points()
                        .filter(|&q| {
                            is_neighbour8(&before, q, last)
                                && is_mogo_pattern(public_code(&before, q))
                                && playable(&before, q)
                        })
                        .count(),
                    Move::Pass => 0,
                };
                match (rule, mv) {
                    (Rule::Pattern, Move::Play(p)) => {
                        matched += 1;
                        let Move::Play(last) = before.last_move() else {
                            panic!()
                        };
                        assert!(is_neighbour8(&before, p, last));
                        assert!(is_mogo_pattern(public_code(&before, p)), "{before:?} {p:?}");
                    }
                    _ => {
                        random += 1;
                        assert_eq!(matching, 0, "a pattern was missed: {before:?}");
                    }
                }
            }
        }
        println!("pattern moves {matched}, others {random}");
        assert!(matched > 1000, "{matched}");
        // Off, no pattern move.
        let mut board = random_positions(1, 13).pop().unwrap();
        let policy = MogoPolicy::new(MogoConfig::LIGHT);
        while !board.is_over() {
            let rule = policy.play_traced(&mut board, &mut rng).1;
            assert!(rule == Rule::Random || rule == Rule::Pass);
        }
    }

    /// Black to move after White's C7 (a position found by a search over light playouts,
    /// the `#[ignore]`d test below): the only pattern move is D7, a self-atari (its one
    /// liberty is E7); E7 connects to the E6 string and is no self-atari.
    const APPROACH: &str = "
 7 X . . . . X .
 6 . . . O X . O
 5 O O O . X . .
 4 . X X . X X .
 3 . . X X . . .
 2 O . O O . . .
 1 . . . . O O X
";

    #[test]
    fn approach_moves_replace_a_self_atari_pattern_move_half_the_time() {
        const SEEDS: u64 = 4000;
        let board = position(APPROACH, Color::White, "C7");
        let (d7, e7) = (Move::Play(at(&board, "D7")), Move::Play(at(&board, "E7")));
        let config = only(|c| {
            c.patterns = true;
            c.approach = true;
            c.approach_probability = 0.5;
        });
        let found = moves(&board, config, SEEDS);
        assert!(
            found
                .iter()
                .all(|&f| f == (d7, Rule::Pattern) || f == (e7, Rule::Approach)),
            "{found:?}"
        );
        // 4 standard errors of 4000 draws at 1/2: 0.032.
        let rate = share(&found, e7);
        println!("approach rate {:.2}%", 100.0 * rate);
        assert!((0.468..0.532).contains(&rate), "{rate}");
        // Always with probability 1; never when switched off or at probability 0.
        let always = MogoConfig {
            approach_probability: 1.0,
            ..config
        };
        assert!(
            moves(&board, always, 200)
                .iter()
                .all(|&f| f == (e7, Rule::Approach))
        );
        for off in [
            MogoConfig {
                approach: false,
                ..config
            },
            MogoConfig {
                approach_probability: 0.0,
                ..config
            },
        ] {
            assert!(
                moves(&board, off, 200)
                    .iter()
                    .all(|&f| f == (d7, Rule::Pattern))
            );
        }
        // With the patterns off, neither rule plays.
        let found = moves(
            &board,
            MogoConfig {
                patterns: false,
                ..config
            },
            200,
        );
        assert!(found.iter().all(|&(_, r)| r == Rule::Random));
    }

    /// Finds positions like [`APPROACH`]: after a light move, exactly one playable pattern
    /// point around it, a self-atari with a playable approach move. Run by hand with
    /// `cargo test --lib find_approach -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn find_approach_positions() {
        let mut rng = XorShiftRng::seed_from_u64(1);
        let mut shown = 0;
        for _ in 0..20_000 {
            let mut board = Board::new(7).unwrap();
            while !board.is_over() && shown < 6 {
                let before = board.clone();
                let Move::Play(last) = board.play_light_move(&mut rng) else {
                    continue;
                };
                if board.ko().is_some() {
                    continue;
                }
                let found: std::vec::Vec<Point> = board
                    .empty_points()
                    .filter(|&q| {
                        is_neighbour8(&board, q, last)
                            && is_mogo_pattern(public_code(&board, q))
                            && playable(&board, q)
                    })
                    .collect();
                let [m] = found[..] else { continue };
                let Some(a) = tactics::approach_move(&board, m.index(), board.to_move()) else {
                    continue;
                };
                if !playable(&board, Board::point_at(a)) {
                    continue;
                }
                shown += 1;
                let mut text = std::string::String::new();
                diagram::write(&before, &mut text).unwrap();
                println!(
                    "{text}{:?} played {:?}, pattern {:?}, approach {:?}\n",
                    before.to_move(),
                    board.coords(last),
                    board.coords(m),
                    board.coords(Board::point_at(a))
                );
            }
            if shown >= 6 {
                break;
            }
        }
    }

    #[test]
    fn the_policy_never_plays_an_illegal_move_or_fills_its_own_eye() {
        let mut rng = XorShiftRng::seed_from_u64(9);
        let policies = [
            MogoPolicy::default(),
            MogoPolicy::new(MogoConfig {
                approach_probability: 1.0,
                fill_board_tries: 10,
                ..MogoConfig::default()
            }),
        ];
        let mut moves = 0u32;
        for (i, mut board) in random_positions(1200, 21).into_iter().enumerate() {
            let policy = &policies[i % 2];
            while !board.is_over() {
                let before = board.clone();
                let mv = policy.play(&mut board, &mut rng);
                assert_eq!(before.check(mv), Ok(()), "{before:?} {mv:?}");
                if let Move::Play(p) = mv {
                    assert!(
                        !before.is_own_eye(p.index(), before.to_move()),
                        "{before:?} {p:?}"
                    );
                } else {
                    // A pass only when nothing else is playable.
                    assert!(
                        before.empty_points().all(|q| !playable(&before, q)),
                        "{before:?}"
                    );
                }
                moves += 1;
            }
            board.assert_consistent();
        }
        assert!(moves > 50_000, "{moves}");
    }

    /// The walk of the empty points that listed the strings in atari before the board kept
    /// them: `collect` must give the same list in the same order.
    fn collect_by_walk(board: &Board, enemy_color: Color) -> Option<Ataris> {
        let enemy = stone(enemy_color);
        let mut ataris = Ataris::default();
        for &e in board.empty_list() {
            let p = usize::from(e);
            if board.neighbour_counts(p)[usize::from(enemy)] == 0 {
                continue;
            }
            for n in tactics::around(board, p) {
                if !ataris.add(board, n, enemy) {
                    return None;
                }
            }
        }
        Some(ataris)
    }

    #[test]
    fn the_atari_list_comes_in_the_walks_order() {
        let policy = MogoPolicy::default();
        let mut rng = XorShiftRng::seed_from_u64(23);
        let (mut lists, mut overflows) = (0, 0);
        for mut board in random_positions(300, 37) {
            while !board.is_over() {
                for enemy in [Color::Black, Color::White] {
                    let mut from_board = Ataris::default();
                    let fits = from_board.collect(&board, enemy);
                    match collect_by_walk(&board, enemy) {
                        Some(walked) => {
                            assert!(fits, "{board:?}");
                            assert_eq!(from_board.stones(), walked.stones(), "{board:?}");
                            lists += usize::from(walked.len > 1);
                        }
                        None => {
                            assert!(!fits);
                            overflows += 1;
                        }
                    }
                }
                policy.play(&mut board, &mut rng);
            }
        }
        assert!(lists > 1000 && overflows > 0, "{lists} {overflows}");
    }

    /// The capture rule's memory of strings in atari, brought up to date move by move, is
    /// always the list a walk of the board finds.
    #[test]
    fn the_remembered_ataris_are_those_on_the_board() {
        let policy = MogoPolicy::default();
        let mut rng = XorShiftRng::seed_from_u64(17);
        let mut checked = 0;
        for mut board in random_positions(300, 31) {
            let mut memory = Memory::default();
            while !board.is_over() {
                let me = board.to_move();
                let last = match board.last_move() {
                    Move::Play(p) => Some(p.index()),
                    Move::Pass => None,
                };
                let mut kept = memory.ataris[me.index()];
                kept.update(&board, me.opponent(), last);
                if kept.turn.is_some() {
                    let mut fresh = Ataris::default();
                    if fresh.collect(&board, me.opponent()) {
                        let ids = |a: &Ataris| {
                            let mut ids: std::vec::Vec<usize> = a
                                .stones()
                                .iter()
                                .map(|&s| board.string_id(usize::from(s)))
                                .collect();
                            ids.sort_unstable();
                            ids
                        };
                        assert_eq!(ids(&kept), ids(&fresh), "{board:?}");
                        checked += 1;
                    }
                }
                policy.play_remembering(&mut board, &mut rng, &mut memory);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn mogo_playouts_from_the_empty_9x9_board_end_and_are_scored() {
        const PLAYOUTS: u32 = 4000;
        let board = Board::new(9).unwrap();
        let policy = MogoPolicy::default();
        let mut rng = XorShiftRng::seed_from_u64(2026);
        let (mut sum, mut black) = (0f64, 0u32);
        for _ in 0..PLAYOUTS {
            let playout = mogo_playout(&board, &policy, &mut rng);
            sum += f64::from(playout.stones_placed);
            black += u32::from(playout.winner == Color::Black);
        }
        let mean = sum / f64::from(PLAYOUTS);
        let rate = f64::from(black) / f64::from(PLAYOUTS);
        println!(
            "MoGo playouts from the empty 9x9 board: mean stones {mean:.2}, Black wins {:.1}%",
            100.0 * rate
        );
        assert!((60.0..160.0).contains(&mean), "{mean}");
        assert!((0.2..0.8).contains(&rate), "{rate}");
        // A finished board is scored as it stands.
        let mut done = Board::new(5).unwrap();
        done.play(Move::Pass);
        done.play(Move::Pass);
        let playout = mogo_playout(&done, &policy, &mut rng);
        assert_eq!((playout.winner, playout.stones_placed), (Color::White, 0));
    }

    /// A fingerprint of every MoGo-playout move (and its rule) played from empty boards of
    /// three sizes: speed work on the board and the policy must not change a single draw
    /// (pinned before issue 16's speed work).
    #[test]
    fn mogo_playout_moves_are_pinned() {
        let policy = MogoPolicy::default();
        let mut rng = XorShiftRng::seed_from_u64(16);
        let mut fingerprint = 0xcbf2_9ce4_8422_2325u64;
        for (size, playouts) in [(9u8, 200), (13, 40), (19, 10)] {
            let start = Board::new(size).unwrap();
            for _ in 0..playouts {
                let mut board = start.clone();
                let mut memory = Memory::default();
                while !board.is_over() {
                    let (mv, rule) = policy.play_remembering(&mut board, &mut rng, &mut memory);
                    let code = match mv {
                        Move::Pass => 0,
                        Move::Play(p) => p.index() as u64,
                    };
                    fingerprint =
                        (fingerprint ^ code ^ ((rule as u64) << 12)).wrapping_mul(0x0100_0000_01b3);
                }
                let score = board.playout_score();
                fingerprint =
                    (fingerprint ^ (u64::from(score.black) << 16) ^ u64::from(score.white))
                        .wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(fingerprint, 1537639523438318483);
    }

    #[test]
    fn reused_playouts_play_the_same_games_as_fresh_ones() {
        let mut board = Board::new(9).unwrap();
        board.play(Move::Play(board.point(4, 4).unwrap()));
        let policy = MogoPolicy::default();
        let mut runs = MogoPlayouts::new(&board, policy);
        let (mut a, mut b) = (XorShiftRng::seed_from_u64(5), XorShiftRng::seed_from_u64(5));
        for _ in 0..50 {
            assert_eq!(runs.run(&mut a), mogo_playout(&board, &policy, &mut b));
        }
        assert!(runs.start() == &board);
    }

    #[test]
    fn mcts_searches_go_with_mogo_playouts() {
        use crate::search::mcts::{Config, Mcts, Node, Ucb1};
        let game = GoGame::new(7).unwrap();
        let mut nodes = std::vec![Node::default(); 20_000];
        let mut tree = Mcts::new(&mut nodes);
        let mut rng = XorShiftRng::seed_from_u64(4);
        let found = tree
            .search(
                &game,
                &Ucb1::default(),
                &MogoPolicy::default(),
                &Config::default(),
                300,
                &mut rng,
            )
            .unwrap();
        assert!(matches!(found.best, Some(Move::Play(_))));
        // The listed-move form agrees with the played one.
        let mut moves = <GoGame as crate::search::Game>::Moves::default();
        crate::search::Game::legal_moves(&game, &mut moves);
        let policy = MogoPolicy::default();
        let i = policy.playout_move(&game, &moves, &mut XorShiftRng::seed_from_u64(8));
        let mut played = game.clone();
        let mv = policy.play_playout_move(&mut played, &mut XorShiftRng::seed_from_u64(8));
        assert_eq!(Some(moves[i]), mv);
    }
}
