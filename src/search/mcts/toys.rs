//! Small games for the tests: two-player Nim and tic-tac-toe, one-player score games, and
//! games that misbehave on purpose.
extern crate std;

use core::cell::Cell;
use std::rc::Rc;

use heapless::Vec;
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::game::Game;

/// One pile; take 1 to 3 stones; whoever takes the last stone wins. The player to move
/// wins iff the pile is not a multiple of 4, by leaving one.
#[derive(Clone, Debug)]
pub struct Nim {
    pub stones: u8,
    pub to_move: u8,
}

impl Nim {
    pub fn new(stones: u8) -> Self {
        Nim { stones, to_move: 0 }
    }
}

impl Game for Nim {
    type Move = u8;
    // At most three moves: take 1, 2 or 3.
    type Moves = Vec<u8, 3>;

    fn side_to_move(&self) -> u8 {
        self.to_move
    }

    fn legal_moves(&self) -> Self::Moves {
        (1..=self.stones.min(3)).collect()
    }

    fn play(&mut self, take: u8) {
        self.stones = self.stones.saturating_sub(take);
        self.to_move ^= 1;
    }

    fn is_terminal(&self) -> bool {
        self.stones == 0
    }

    fn reward(&self, player: u8) -> f32 {
        // The player who just moved took the last stone.
        if player == self.to_move { 0.0 } else { 1.0 }
    }

    fn position_key(&self) -> Option<u64> {
        Some(u64::from(self.stones) << 1 | u64::from(self.to_move))
    }
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Tic-tac-toe on two 9-bit boards; cell 0 is the top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct TicTacToe {
    pub boards: [u16; 2],
    pub to_move: u8,
}

impl TicTacToe {
    /// From nine characters `X`, `O` or `.`, row by row; X moved first.
    pub fn parse(text: &str) -> Self {
        let mut boards = [0u16; 2];
        for (cell, ch) in text
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .enumerate()
        {
            match ch {
                b'X' => boards[0] |= 1 << cell,
                b'O' => boards[1] |= 1 << cell,
                _ => {}
            }
        }
        let to_move = u8::from(boards[0].count_ones() > boards[1].count_ones());
        TicTacToe { boards, to_move }
    }

    fn winner(&self) -> Option<u8> {
        (0..2u8).find(|&p| LINES.iter().any(|&l| self.boards[p as usize] & l == l))
    }

    fn full(&self) -> bool {
        (self.boards[0] | self.boards[1]) == 0x1ff
    }
}

impl Game for TicTacToe {
    type Move = u8;
    // At most nine empty cells.
    type Moves = Vec<u8, 9>;

    fn side_to_move(&self) -> u8 {
        self.to_move
    }

    fn legal_moves(&self) -> Self::Moves {
        if self.winner().is_some() {
            return Vec::new();
        }
        let taken = self.boards[0] | self.boards[1];
        (0..9u8).filter(|&c| taken & (1 << c) == 0).collect()
    }

    fn play(&mut self, cell: u8) {
        self.boards[self.to_move as usize] |= 1 << cell;
        self.to_move ^= 1;
    }

    fn is_terminal(&self) -> bool {
        self.winner().is_some() || self.full()
    }

    fn reward(&self, player: u8) -> f32 {
        match self.winner() {
            Some(w) if w == player => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    // Knowledge for MoGo tests: the centre, then corners.
    fn prior(&self, cell: u8) -> f32 {
        match cell {
            4 => 0.9,
            0 | 2 | 6 | 8 => 0.6,
            _ => 0.4,
        }
    }
}

/// One player, `rounds` moves; each move adds its value 0..=3 to the total. The reward is
/// the total over the maximum, so always taking 3 is best. The feature of a state is the
/// value of the move that led to it; with `knows`, so is its prior (value / 3).
#[derive(Clone, Debug)]
pub struct Collect {
    pub rounds: u8,
    pub played: u8,
    pub total: u32,
    pub knows: bool,
    /// The value of the last move, the feature of a state.
    pub last: u8,
}

impl Collect {
    pub fn new(rounds: u8) -> Self {
        Collect {
            rounds,
            played: 0,
            total: 0,
            knows: false,
            last: 0,
        }
    }

    pub fn with_prior(rounds: u8) -> Self {
        Collect {
            knows: true,
            ..Collect::new(rounds)
        }
    }
}

impl Game for Collect {
    type Move = u8;
    // Values 0..=3.
    type Moves = Vec<u8, 4>;

    fn side_to_move(&self) -> u8 {
        0
    }

    fn legal_moves(&self) -> Self::Moves {
        if self.played >= self.rounds {
            Vec::new()
        } else {
            (0..4).collect()
        }
    }

    fn play(&mut self, value: u8) {
        self.played += 1;
        self.total += u32::from(value);
        self.last = value;
    }

    fn is_terminal(&self) -> bool {
        self.played >= self.rounds
    }

    fn reward(&self, _player: u8) -> f32 {
        self.total as f32 / (3.0 * f32::from(self.rounds.max(1)))
    }

    fn feature(&self) -> f32 {
        f32::from(self.last)
    }

    fn prior(&self, value: u8) -> f32 {
        if self.knows {
            f32::from(value) / 3.0
        } else {
            0.5
        }
    }
}

/// One player walks 200 steps choosing 0 or 1; the end of the walk is worth nothing, so
/// only the cutoff heuristic (the share of 1s so far) tells moves apart.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    pub steps: u32,
    pub ones: u32,
}

impl Game for Walk {
    type Move = u8;
    type Moves = Vec<u8, 2>;

    fn side_to_move(&self) -> u8 {
        0
    }

    fn legal_moves(&self) -> Self::Moves {
        if self.is_terminal() {
            Vec::new()
        } else {
            (0..2).collect()
        }
    }

    fn play(&mut self, mv: u8) {
        self.steps += 1;
        self.ones += u32::from(mv);
    }

    fn is_terminal(&self) -> bool {
        self.steps >= 200
    }

    fn reward(&self, _player: u8) -> f32 {
        0.0
    }

    fn evaluate(&self, _player: u8) -> f32 {
        self.ones as f32 / self.steps.max(1) as f32
    }
}

/// Not terminal, yet no legal move.
#[derive(Clone, Debug)]
pub struct Stuck;

impl Game for Stuck {
    type Move = u8;
    type Moves = [u8; 0];

    fn side_to_move(&self) -> u8 {
        0
    }

    fn legal_moves(&self) -> Self::Moves {
        []
    }

    fn play(&mut self, _mv: u8) {}

    fn is_terminal(&self) -> bool {
        false
    }

    fn reward(&self, _player: u8) -> f32 {
        0.5
    }
}

/// Nim whose hooks misbehave: NaN rewards, out-of-range playout picks, NaN features and
/// priors, and player numbers beyond 1.
#[derive(Clone, Debug)]
pub struct Rogue(pub Nim);

impl Game for Rogue {
    type Move = u8;
    type Moves = Vec<u8, 3>;

    fn side_to_move(&self) -> u8 {
        self.0.to_move * 7
    }

    fn legal_moves(&self) -> Self::Moves {
        self.0.legal_moves()
    }

    fn play(&mut self, mv: u8) {
        self.0.play(mv)
    }

    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    fn reward(&self, player: u8) -> f32 {
        if player == 0 { f32::NAN } else { 7.0 }
    }

    fn feature(&self) -> f32 {
        f32::NAN
    }

    fn prior(&self, _mv: u8) -> f32 {
        f32::INFINITY
    }

    fn playout_move(&self, moves: &[u8], _rng: &mut XorShiftRng) -> usize {
        moves.len() + 5
    }
}

/// One player guesses a coin (move 0 or 1) that `play` then flips from the state's own seed.
/// With `reseed`, `begin_iteration` draws a fresh seed, so iterations see fresh flips.
#[derive(Clone, Debug)]
pub struct Coin {
    pub seed: u64,
    pub reseed: bool,
    pub right: Option<bool>,
}

impl Game for Coin {
    type Move = u8;
    type Moves = Vec<u8, 2>;

    fn side_to_move(&self) -> u8 {
        0
    }

    fn legal_moves(&self) -> Self::Moves {
        if self.right.is_some() {
            Vec::new()
        } else {
            (0..2).collect()
        }
    }

    fn play(&mut self, guess: u8) {
        // The chance event: a flip drawn from the state's own generator.
        let flip = super::game::seeded_rng(self.seed).next_u32() & 1;
        self.right = Some(u32::from(guess) == flip);
    }

    fn is_terminal(&self) -> bool {
        self.right.is_some()
    }

    fn reward(&self, _player: u8) -> f32 {
        if self.right == Some(true) { 1.0 } else { 0.0 }
    }

    fn begin_iteration(&mut self, rng: &mut XorShiftRng) {
        if self.reseed {
            self.seed = rng.next_u64();
        }
    }
}

/// Any game that replays exactly, counting every move its copies play (tree moves and
/// playouts) in a counter they share.
#[derive(Clone, Debug)]
pub struct Counted<G> {
    pub game: G,
    pub plays: Rc<Cell<u64>>,
}

impl<G> Counted<G> {
    pub fn new(game: G) -> Self {
        Counted {
            game,
            plays: Rc::new(Cell::new(0)),
        }
    }
}

impl<G: Game> Game for Counted<G> {
    type Move = G::Move;
    type Moves = G::Moves;

    fn side_to_move(&self) -> u8 {
        self.game.side_to_move()
    }

    fn legal_moves(&self) -> Self::Moves {
        self.game.legal_moves()
    }

    fn play(&mut self, mv: G::Move) {
        self.plays.set(self.plays.get() + 1);
        self.game.play(mv)
    }

    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }

    fn reward(&self, player: u8) -> f32 {
        self.game.reward(player)
    }

    fn evaluate(&self, player: u8) -> f32 {
        self.game.evaluate(player)
    }

    fn feature(&self) -> f32 {
        self.game.feature()
    }

    fn prior(&self, mv: G::Move) -> f32 {
        self.game.prior(mv)
    }

    fn replays_exactly(&self) -> bool {
        true
    }
}
