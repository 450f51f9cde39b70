//! A game in progress: the board, the chance stream that refills it, and the metrics.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::board::{Board, Swap, rect};
use super::level::Level;
use crate::Error;
use crate::search::mcts::random_index;

/// Most legal swaps on any board: 8x8 has 7·8 horizontal and 8·7 vertical pairs.
pub const MAX_MOVES: usize = 112;

/// The legal swaps of a position, in increasing order of their byte code.
pub type Moves = heapless::Vec<Swap, MAX_MOVES>;

/// Attempts at a permutation with no line and a legal move before a reshuffle gives up on
/// the board's own cells and draws a fresh board (then as many attempts again).
const RESHUFFLE_ATTEMPTS: u32 = 100;

/// What one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Points gained, multipliers included.
    pub points: u32,
    /// Cascade steps after the first match (0: no combo).
    pub combos: u32,
    /// The board had no legal move afterwards and was reshuffled.
    pub reshuffled: bool,
    /// Legal moves available before the move (the per-move "available moves").
    pub legal_before: u32,
}

/// Metrics of a game so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Score.
    pub score: u32,
    /// Moves played.
    pub moves: u32,
    /// Combos (cascade steps after the first match of a move), summed over moves.
    pub combos: u32,
    /// Reshuffles (boards left without a legal move, including at the start).
    pub reshuffles: u32,
    /// Sum over the moves played of the legal moves available before each.
    pub legal_sum: u32,
}

impl Metrics {
    /// Average number of legal moves before each move (the paper's "available moves"); 0
    /// before the first move.
    pub fn average_available(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            f64::from(self.legal_sum) / f64::from(self.moves)
        }
    }
}

/// Rule options. Only the paper's rules exist today; power-ups (a four or five making a
/// special cell) would be a new field here, off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Reserved for power-up cells; must be `false` (not implemented).
    pub power_ups: bool,
}

/// A game of Match-3 on a level: board, chance stream, counters. `Clone` is a plain copy of
/// a few hundred bytes; the level is borrowed, not copied.
#[derive(Clone, Debug)]
pub struct Match3<'l> {
    level: &'l Level,
    board: Board,
    rng: XorShiftRng,
    fall_pos: [u8; 8],
    legal: (u64, u64),
    metrics: Metrics,
}

impl<'l> Match3<'l> {
    /// Starts a game on `level` with chance seed `seed` (the generated board, if the level
    /// has no grid, and every cell after the level's fall lists come from it).
    pub fn new(level: &'l Level, seed: u64) -> Match3<'l> {
        let mut game = Match3 {
            level,
            board: Board::filled_clamped(level.width, level.height, level.colours),
            rng: XorShiftRng::seed_from_u64(seed),
            fall_pos: [0; 8],
            legal: (0, 0),
            metrics: Metrics::default(),
        };
        match &level.grid {
            Some(grid) => game.board = *grid,
            None => {
                for _ in 0..RESHUFFLE_ATTEMPTS {
                    game.generate();
                    if game.board.legal_count() > 0 {
                        break;
                    }
                }
            }
        }
        game.legal = game.board.legal_masks();
        if game.legal == (0, 0) {
            game.reshuffle();
        }
        game
    }

    /// Starts a game with the level's own seed.
    pub fn start(level: &'l Level) -> Match3<'l> {
        Match3::new(level, level.seed)
    }

    /// The level.
    pub fn level(&self) -> &'l Level {
        self.level
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Metrics so far.
    pub fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// Score so far.
    pub fn score(&self) -> u32 {
        self.metrics.score
    }

    /// Moves played.
    pub fn moves_played(&self) -> u32 {
        self.metrics.moves
    }

    /// Moves left before the limit.
    pub fn moves_left(&self) -> u32 {
        u32::from(self.level.moves).saturating_sub(self.metrics.moves)
    }

    /// Over: the move limit is reached, or no legal move is left even after a reshuffle.
    pub fn is_over(&self) -> bool {
        self.moves_left() == 0 || self.legal == (0, 0)
    }

    /// A hash of the game: board, metrics and the chance stream to come (equal games, equal
    /// hashes), so that a search never continues a tree built for another game.
    pub fn hash(&self) -> u64 {
        let mut chance = self.rng.clone();
        let words = (0..self.board.colours())
            .map(|colour| self.board.colour_bits(colour))
            .chain([
                u64::from(self.metrics.score) << 32 | u64::from(self.metrics.moves),
                u64::from(self.metrics.legal_sum),
                chance.next_u64(),
            ]);
        words.fold(0, |hash, word| crate::rng::splitmix64(hash ^ word))
    }

    /// Legal swaps as `(horizontal, vertical)` masks of their lower or left cells.
    pub fn legal_masks(&self) -> (u64, u64) {
        self.legal
    }

    /// Number of legal swaps now.
    pub fn legal_count(&self) -> u32 {
        self.legal.0.count_ones() + self.legal.1.count_ones()
    }

    /// The legal swaps, in increasing code order (empty when the game is over).
    pub fn legal_moves(&self) -> Moves {
        let mut moves = Moves::new();
        if self.moves_left() == 0 {
            return moves;
        }
        for (mut mask, vertical) in [(self.legal.0, 0x00u8), (self.legal.1, 0x40u8)] {
            while mask != 0 {
                let cell = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                // At most 56 bits per mask, so 112 in all: the push cannot fail.
                let _ = moves.push(Swap::from_code(cell | vertical).unwrap_or_default());
            }
        }
        moves
    }

    /// The `index`-th legal swap without listing them (for random playouts).
    pub fn nth_legal(&self, index: u32) -> Option<Swap> {
        let h = self.legal.0.count_ones();
        let (mut mask, vertical, mut k) = if index < h {
            (self.legal.0, 0u8, index)
        } else {
            (self.legal.1, 0x40u8, index - h)
        };
        while mask != 0 {
            let cell = mask.trailing_zeros() as u8;
            if k == 0 {
                return Swap::from_code(cell | vertical);
            }
            k -= 1;
            mask &= mask - 1;
        }
        None
    }

    /// Whether `swap` is legal now.
    pub fn is_legal(&self, swap: Swap) -> bool {
        if self.moves_left() == 0 {
            return false;
        }
        let mask = if swap.is_vertical() {
            self.legal.1
        } else {
            self.legal.0
        };
        mask & (1u64 << swap.cell()) != 0
    }

    /// Plays `swap` if legal; otherwise fails with `Error::IllegalMove` and changes nothing.
    pub fn try_play(&mut self, swap: Swap) -> Result<Outcome, Error> {
        if !self.is_legal(swap) {
            return Err(Error::IllegalMove);
        }
        Ok(self.play_legal(swap))
    }

    /// Plays `swap`, which must be legal: an illegal swap is counted as a move that scores
    /// nothing (the paper's undone swap), which is what replaying a stored search move in a
    /// differently refilled board needs.
    pub fn play(&mut self, swap: Swap) -> Outcome {
        if self.is_legal(swap) {
            self.play_legal(swap)
        } else {
            let legal_before = self.legal_count();
            if self.moves_left() > 0 {
                self.metrics.legal_sum += legal_before;
                self.metrics.moves += 1;
            }
            Outcome {
                legal_before,
                ..Outcome::default()
            }
        }
    }

    fn play_legal(&mut self, swap: Swap) -> Outcome {
        let mut outcome = Outcome {
            legal_before: self.legal_count(),
            ..Outcome::default()
        };
        self.metrics.legal_sum += outcome.legal_before;
        self.metrics.moves += 1;
        let mut found = match self.board.exchange(swap) {
            Some(colours) => self.board.score_swap(colours),
            None => (0, 0),
        };
        let mut multiplier = 1;
        let mut steps = 0;
        loop {
            let (points, removed) = found;
            if removed == 0 {
                break;
            }
            outcome.points += points * multiplier;
            multiplier += 1;
            steps += 1;
            let (level, fall_pos, rng) = (self.level, &mut self.fall_pos, &mut self.rng);
            let colours = self.board.colours();
            self.board.collapse(removed, |col| {
                let c = usize::from(col);
                let pos = fall_pos[c];
                if pos < level.fall_len[c] {
                    fall_pos[c] += 1;
                    level.fall[c][usize::from(pos)]
                } else {
                    random_index(rng, usize::from(colours)) as u8
                }
            });
            found = self.board.score_lines();
        }
        outcome.combos = steps.max(1) - 1;
        self.metrics.score += outcome.points;
        self.metrics.combos += outcome.combos;
        self.legal = self.board.legal_masks();
        if self.legal == (0, 0) {
            self.reshuffle();
            outcome.reshuffled = true;
        }
        outcome
    }

    /// Replaces the chance stream by one seeded from `rng` (open-loop search: the future
    /// refills become unknown). Level fall lists still come first.
    pub fn reseed(&mut self, rng: &mut XorShiftRng) {
        use rand_core::Rng;
        self.rng = XorShiftRng::seed_from_u64(rng.next_u64());
    }

    /// Fills the board with random colours so that no line forms: each cell draws among the
    /// colours that do not complete a line with the two cells to its left or below.
    fn generate(&mut self) {
        let colours = self.board.colours();
        for row in 0..self.board.height() {
            for col in 0..self.board.width() {
                let mut banned = 0u16;
                if col >= 2 {
                    let a = self.board.get(col - 1, row).unwrap_or(0);
                    if self.board.get(col - 2, row) == Some(a) {
                        banned |= 1 << a;
                    }
                }
                if row >= 2 {
                    let a = self.board.get(col, row - 1).unwrap_or(0);
                    if self.board.get(col, row - 2) == Some(a) {
                        banned |= 1 << a;
                    }
                }
                let allowed = u32::from(colours) - banned.count_ones();
                let mut k = random_index(&mut self.rng, allowed as usize) as u32;
                for colour in 0..colours {
                    if banned & (1 << colour) != 0 {
                        continue;
                    }
                    if k == 0 {
                        self.board.set(col, row, colour);
                        break;
                    }
                    k -= 1;
                }
            }
        }
    }

    /// Reshuffles a board without legal moves, deterministically from the chance stream:
    /// random permutations of its cells until one has no line and a legal move; failing
    /// that, fresh boards. Counted in the metrics. If all attempts fail (tiny boards), the
    /// game is over.
    fn reshuffle(&mut self) {
        self.metrics.reshuffles += 1;
        let (w, h) = (self.board.width(), self.board.height());
        let cells: heapless::Vec<usize, 64> = (0..64usize)
            .filter(|&i| rect(w, h) & (1u64 << i) != 0)
            .collect();
        for _ in 0..RESHUFFLE_ATTEMPTS {
            let grid = self.board.cells_mut();
            for k in (1..cells.len()).rev() {
                let j = random_index(&mut self.rng, k + 1);
                grid.swap(cells[k], cells[j]);
            }
            self.board.rebuild();
            if self.board.matched() == 0 {
                self.legal = self.board.legal_masks();
                if self.legal != (0, 0) {
                    return;
                }
            }
        }
        for _ in 0..RESHUFFLE_ATTEMPTS {
            self.generate();
            self.legal = self.board.legal_masks();
            if self.legal != (0, 0) {
                return;
            }
        }
    }
}
