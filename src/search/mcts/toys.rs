//! Small games for the tests: two-player Nim and tic-tac-toe, one-player score games, and
//! games that misbehave on purpose.
extern crate std;

use core::cell::Cell;
use std::rc::Rc;

use heapless::Vec;
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::{ChildStats, Needs, Policy};
use crate::search::game::{
    Game, Knowledge, MoveIndex, Ply, Prior, PriorSink, Turn, play_listed, random_index, seeded_rng,
};

/// Traces of the toys: none plays longer than 200 plies.
pub type Trace = Vec<Ply<u8>, 256>;

/// What the toys know beyond the rules, read by [`Hints`] and [`Scored`]: a prior per move,
/// a cut-off evaluation, a playout pick, and a feature of the state.
pub trait Toy: Game<Move = u8> {
    fn prior(&self, _mv: u8) -> f32 {
        0.5
    }

    fn evaluate(&self) -> [f32; 2] {
        self.returns()
    }

    /// An index into `moves` (maybe out of range, to test that), or `None` for uniform.
    fn playout_pick(&self, _moves: &[u8]) -> Option<usize> {
        None
    }

    fn feature(&self) -> f32 {
        0.0
    }
}

/// The toys' [`Toy`] hooks as MCTS knowledge.
pub struct Hints;

impl<G: Toy> Knowledge<G> for Hints {
    fn priors(&self, state: &G, moves: &[u8], out: &mut impl PriorSink) {
        for (i, &mv) in moves.iter().enumerate() {
            let value = state.prior(mv);
            out.set(i, Prior { value, weight: 0.0 });
        }
    }

    fn evaluate(&self, state: &G) -> [f32; 2] {
        state.evaluate()
    }

    fn playout_move(&self, state: &G, moves: &[u8], rng: &mut XorShiftRng) -> usize {
        state
            .playout_pick(moves)
            .unwrap_or_else(|| random_index(rng, moves.len()))
    }

    fn play_playout_move(&self, state: &mut G, rng: &mut XorShiftRng) -> Option<u8> {
        play_listed(state, rng, |state, moves, rng| {
            self.playout_move(state, moves, rng)
        })
    }
}

/// A test policy scoring visited children with a closure over (wins, visits, parent visits,
/// feature), unvisited children first, the feature being the toy's: the shape of Match-3's
/// persona policy, on toys.
pub struct Scored<F>(pub F);

impl<G: Toy, F: Fn(f64, f64, f64, f64) -> f64> Policy<G> for Scored<F> {
    fn needs(&self) -> Needs {
        Needs {
            feature: true,
            ..Needs::default()
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        if child.visits == 0 {
            return f64::INFINITY;
        }
        (self.0)(
            child.wins,
            f64::from(child.visits),
            f64::from(child.parent_visits),
            child.feature,
        )
    }

    fn observe(&self, state: &G) -> f32 {
        state.feature()
    }
}

/// Moves of every toy are small numbers: the move is its index.
macro_rules! small_moves {
    ($($toy:ty),*) => {$(
        impl MoveIndex for $toy {
            const MOVE_SPACE: usize = 16;
            type PlayerMoveTable = [u8; 32];
            fn move_index(mv: u8) -> usize {
                usize::from(mv & 15)
            }
        }
    )*};
}

small_moves!(Nim, TicTacToe, Collect, Walk, Rogue, Coin);

impl<G: Toy + MoveIndex> MoveIndex for Counted<G> {
    const MOVE_SPACE: usize = G::MOVE_SPACE;
    type PlayerMoveTable = G::PlayerMoveTable;
    fn move_index(mv: u8) -> usize {
        G::move_index(mv)
    }
}

/// Over when `over`, else `player` to move.
fn turn(over: bool, player: u8) -> Turn {
    if over {
        Turn::Over
    } else {
        Turn::Player(player)
    }
}

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
    type Trace = Trace;

    fn turn(&self) -> Turn {
        turn(self.stones == 0, self.to_move)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        *moves = (1..=self.stones.min(3)).collect();
    }

    fn play(&mut self, take: u8) {
        self.stones = self.stones.saturating_sub(take);
        self.to_move ^= 1;
    }

    fn returns(&self) -> [f32; 2] {
        // The player who just moved took the last stone.
        if self.to_move == 0 {
            [0.0, 1.0]
        } else {
            [1.0, 0.0]
        }
    }

    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | u64::from(self.to_move)
    }
}

impl Toy for Nim {}

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
    type Trace = Trace;

    fn turn(&self) -> Turn {
        turn(self.winner().is_some() || self.full(), self.to_move)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let taken = self.boards[0] | self.boards[1];
        *moves = (0..9u8).filter(|&c| taken & (1 << c) == 0).collect();
    }

    fn play(&mut self, cell: u8) {
        self.boards[self.to_move as usize] |= 1 << cell;
        self.to_move ^= 1;
    }

    fn returns(&self) -> [f32; 2] {
        match self.winner() {
            Some(0) => [1.0, 0.0],
            Some(_) => [0.0, 1.0],
            None => [0.5, 0.5],
        }
    }

    fn hash(&self) -> u64 {
        u64::from(self.boards[0]) | u64::from(self.boards[1]) << 16
    }
}

impl Toy for TicTacToe {
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
    type Trace = Trace;

    fn turn(&self) -> Turn {
        turn(self.played >= self.rounds, 0)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.played < self.rounds {
            *moves = (0..4).collect();
        }
    }

    fn play(&mut self, value: u8) {
        self.played += 1;
        self.total += u32::from(value);
        self.last = value;
    }

    fn returns(&self) -> [f32; 2] {
        let reward = self.total as f32 / (3.0 * f32::from(self.rounds.max(1)));
        [reward, reward]
    }

    fn hash(&self) -> u64 {
        u64::from(self.played) | u64::from(self.total) << 8 | u64::from(self.last) << 40
    }
}

impl Toy for Collect {
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
    type Trace = Trace;

    fn turn(&self) -> Turn {
        turn(self.steps >= 200, 0)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.steps < 200 {
            *moves = (0..2).collect();
        }
    }

    fn play(&mut self, mv: u8) {
        self.steps += 1;
        self.ones += u32::from(mv);
    }

    fn returns(&self) -> [f32; 2] {
        [0.0, 0.0]
    }

    fn hash(&self) -> u64 {
        u64::from(self.steps) << 32 | u64::from(self.ones)
    }
}

impl Toy for Walk {
    fn evaluate(&self) -> [f32; 2] {
        let share = self.ones as f32 / self.steps.max(1) as f32;
        [share, share]
    }
}

/// Not terminal, yet no legal move.
#[derive(Clone, Debug)]
pub struct Stuck;

impl Game for Stuck {
    type Move = u8;
    type Moves = Vec<u8, 1>;
    type Trace = Trace;

    fn turn(&self) -> Turn {
        Turn::Player(0)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
    }

    fn play(&mut self, _mv: u8) {}

    fn returns(&self) -> [f32; 2] {
        [0.5, 0.5]
    }

    fn hash(&self) -> u64 {
        0
    }
}

impl Toy for Stuck {}

impl MoveIndex for Stuck {
    const MOVE_SPACE: usize = 0;
    type PlayerMoveTable = [u8; 0];
    fn move_index(_mv: u8) -> usize {
        0
    }
}

/// Nim whose hooks misbehave: NaN rewards, out-of-range playout picks, NaN features and
/// priors, and player numbers beyond 1.
#[derive(Clone, Debug)]
pub struct Rogue(pub Nim);

impl Game for Rogue {
    type Move = u8;
    type Moves = Vec<u8, 3>;
    type Trace = Trace;

    fn turn(&self) -> Turn {
        match self.0.turn() {
            Turn::Player(player) => Turn::Player(player * 7),
            other => other,
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        self.0.legal_moves(moves)
    }

    fn play(&mut self, mv: u8) {
        self.0.play(mv)
    }

    fn returns(&self) -> [f32; 2] {
        [f32::NAN, 7.0]
    }

    fn hash(&self) -> u64 {
        self.0.hash()
    }
}

impl Toy for Rogue {
    fn feature(&self) -> f32 {
        f32::NAN
    }

    fn prior(&self, _mv: u8) -> f32 {
        f32::INFINITY
    }

    fn playout_pick(&self, moves: &[u8]) -> Option<usize> {
        Some(moves.len() + 5)
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
    type Trace = Trace;

    fn turn(&self) -> Turn {
        turn(self.right.is_some(), 0)
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.right.is_none() {
            *moves = (0..2).collect();
        }
    }

    fn play(&mut self, guess: u8) {
        // The chance event: a flip drawn from the state's own generator.
        let flip = seeded_rng(self.seed).next_u32() & 1;
        self.right = Some(u32::from(guess) == flip);
    }

    fn returns(&self) -> [f32; 2] {
        if self.right == Some(true) {
            [1.0, 1.0]
        } else {
            [0.0, 0.0]
        }
    }

    fn hash(&self) -> u64 {
        self.seed
    }

    fn begin_iteration(&mut self, rng: &mut XorShiftRng) {
        if self.reseed {
            self.seed = rng.next_u64();
        }
    }
}

impl Toy for Coin {}

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

impl<G: Toy> Game for Counted<G> {
    type Move = u8;
    type Moves = G::Moves;
    type Trace = G::Trace;

    fn turn(&self) -> Turn {
        self.game.turn()
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        self.game.legal_moves(moves)
    }

    fn play(&mut self, mv: u8) {
        self.plays.set(self.plays.get() + 1);
        self.game.play(mv)
    }

    fn returns(&self) -> [f32; 2] {
        self.game.returns()
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn replays_exactly(&self) -> bool {
        true
    }
}

impl<G: Toy> Toy for Counted<G> {
    fn evaluate(&self) -> [f32; 2] {
        self.game.evaluate()
    }

    fn feature(&self) -> f32 {
        self.game.feature()
    }

    fn prior(&self, mv: u8) -> f32 {
        self.game.prior(mv)
    }
}

/// A one-player dice race: reach `goal` points within `turns` turns. Each turn the player
/// picks 1, 2 or 3 dice (moves 1..=3); then chance rolls them (a chance turn whose outcome
/// `16 + points` is what the roll scores): the sum, or a single point if any die shows a 1.
/// Returns 1 for reaching the goal, else 0. Small enough to solve exactly by recursion.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceRace {
    pub goal: u8,
    pub score: u8,
    pub turns: u8,
    /// Dice chosen this turn, waiting for chance to roll them (0: the player's turn).
    pub dice: u8,
}

/// The first chance outcome code: outcome `16 + points`.
pub const ROLLED: u8 = 16;

impl DiceRace {
    /// Ways (out of 6^dice) that `dice` dice score `points`.
    pub fn ways(dice: u8, points: u8) -> u32 {
        let mut ways = 0;
        for roll in 0..6u32.pow(u32::from(dice)) {
            let faces = (0..dice).map(|d| (roll / 6u32.pow(u32::from(d))) % 6 + 1);
            let scored = if faces.clone().any(|face| face == 1) {
                1
            } else {
                faces.sum()
            };
            ways += u32::from(scored == u32::from(points));
        }
        ways
    }

    fn over(&self) -> bool {
        self.score >= self.goal || self.turns == 0
    }
}

impl Game for DiceRace {
    type Move = u8;
    // The outcomes of three dice: 1, or 6..=18.
    type Moves = Vec<u8, 14>;
    type Trace = Trace;

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else if self.dice > 0 {
            Turn::Chance
        } else {
            Turn::Player(0)
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.over() {
        } else if self.dice > 0 {
            *moves = (1..=18u8)
                .filter(|&points| DiceRace::ways(self.dice, points) > 0)
                .map(|points| ROLLED + points)
                .collect();
        } else {
            *moves = (1..=3).collect();
        }
    }

    fn play(&mut self, mv: u8) {
        if self.dice > 0 {
            self.score = self.score.saturating_add(mv.saturating_sub(ROLLED));
            self.turns = self.turns.saturating_sub(1);
            self.dice = 0;
        } else {
            self.dice = mv.clamp(1, 3);
        }
    }

    fn outcome_weight(&self, outcome: u8) -> f32 {
        DiceRace::ways(self.dice, outcome.saturating_sub(ROLLED)) as f32
    }

    fn returns(&self) -> [f32; 2] {
        let won = if self.score >= self.goal { 1.0 } else { 0.0 };
        [won, won]
    }

    fn hash(&self) -> u64 {
        u64::from_le_bytes([self.goal, self.score, self.turns, self.dice, 0, 0, 0, 0])
    }
}

impl Toy for DiceRace {}

/// Kuhn poker as the CFR solvers play it.
pub use crate::search::cfr::Kuhn;

impl Toy for Kuhn {}
