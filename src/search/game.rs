//! The one game interface every search works on, and the optional capabilities some searches
//! need on top of it.
//!
//! - [`Game`]: whose turn it is (a player, chance, or the end), the legal moves (or chance
//!   outcomes, with [`Game::outcome_weight`]) into a caller list,
//!   `play`, the returns of both players, a position hash, and the game's bounds
//!   ([`Game::MAX_MOVES`], [`Game::MAX_PLIES`]) that size move lists and traces.
//! - [`MoveIndex`]: a dense index of moves, for tables over moves (move-indexed AMAF, priors).
//! - [`Knowledge`]: a game's offline knowledge for MCTS (priors for a whole move list as a value
//!   and a weight in equivalent visits, a static evaluation for cut-off playouts, the playout
//!   policy). It is a separate value so that one game can be searched with several.
//! - [`Hidden`]: information sets and determinization, for games of imperfect information.
//! - [`ProofHints`]: what proof-number solvers may use beyond the rules (an immediate win, a
//!   static value, moves that can be left out).
//!
//! A game implements [`Game`] once; MCTS ([`super::mcts`]) and the proof-number solvers
//! ([`super::proof`]) all take it. A studio adding its own game writes this much (the
//! capabilities are optional: here a move index, so RAVE can be used, and a prior):
//!
//! ```
//! use arbor::search::mcts::{Config, Mcts, Node, Rave};
//! use arbor::search::{Game, Knowledge, MoveIndex, Ply, Prior, PriorSink, Turn};
//!
//! /// Players add 1, 2 or 3 to a running total; whoever reaches 21 wins.
//! #[derive(Clone)]
//! struct TwentyOne { total: u8, to_move: u8 }
//!
//! impl Game for TwentyOne {
//!     type Move = u8;
//!     type Moves = heapless::Vec<u8, 3>;       // at most 3 moves
//!     type Trace = heapless::Vec<Ply<u8>, 21>; // at most 21 plies
//!     fn turn(&self) -> Turn {
//!         if self.total >= 21 { Turn::Over } else { Turn::Player(self.to_move) }
//!     }
//!     fn legal_moves(&self, moves: &mut Self::Moves) { *moves = (1..=3).collect(); }
//!     fn play(&mut self, add: u8) { self.total += add; self.to_move ^= 1; }
//!     fn returns(&self) -> [f32; 2] { // the player who just moved reached 21
//!         if self.to_move == 1 { [1.0, 0.0] } else { [0.0, 1.0] }
//!     }
//!     fn hash(&self) -> u64 { u64::from(self.total) << 1 | u64::from(self.to_move) }
//! }
//!
//! impl MoveIndex for TwentyOne { // moves 1..=3 are their own index
//!     const MOVE_SPACE: usize = 4;
//!     type PlayerMoveTable = [u8; 8];
//!     fn move_index(add: u8) -> usize { usize::from(add & 3) }
//! }
//!
//! /// A hunch worth 10 simulations: leave the opponent a total of 1 more than a multiple of 4.
//! struct Hunch;
//! impl Knowledge<TwentyOne> for Hunch {
//!     fn weighs_priors(&self) -> bool { true }
//!     fn priors(&self, state: &TwentyOne, moves: &[u8], out: &mut impl PriorSink) {
//!         for (i, &add) in moves.iter().enumerate() {
//!             let good = (state.total + add) % 4 == 1;
//!             out.set(i, Prior { value: if good { 1.0 } else { 0.3 }, weight: 10.0 });
//!         }
//!     }
//! }
//!
//! let mut nodes = vec![Node::default(); 20_000];
//! let mut tree = Mcts::new(&mut nodes);
//! let mut rng = arbor::search::mcts::seeded_rng(1);
//! let start = TwentyOne { total: 10, to_move: 0 };
//! let found = tree.search(&start, &Rave::default(), &Hunch, &Config::default(), 3000, &mut rng);
//! assert_eq!(found.unwrap().best, Some(3)); // 13 = 4·3 + 1
//! ```
use core::ops::Deref;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Player 0 or, in a two-player game, player 1 is to move.
    Player(u8),
    /// Chance moves: [`Game::legal_moves`] lists the outcomes and
    /// [`Game::outcome_weight`] how likely each is.
    Chance,
    /// The game is over: [`Game::returns`] are final.
    Over,
}

impl Turn {
    /// The player to move, `None` at the end.
    pub const fn player(self) -> Option<u8> {
        match self {
            Turn::Player(player) => Some(player),
            Turn::Chance | Turn::Over => None,
        }
    }
}

/// A bounded list whose capacity the game chooses: `heapless::Vec<T, N>` is one. Move lists
/// ([`Game::Moves`]) and simulation traces ([`Game::Trace`]) are such lists, so each game pays
/// only for its own bounds and generic code holds them on the stack.
pub trait Bounded<T>: Default + Deref<Target = [T]> {
    /// Most items the list holds.
    const CAPACITY: usize;
    /// Empties the list.
    fn clear(&mut self);
    /// Appends `item`, or hands it back when the list is full.
    fn push(&mut self, item: T) -> Result<(), T>;
}

impl<T, const N: usize, L: heapless::LenType> Bounded<T> for heapless::Vec<T, N, L> {
    const CAPACITY: usize = N;

    #[inline]
    fn clear(&mut self) {
        heapless::Vec::clear(self);
    }

    #[inline]
    fn push(&mut self, item: T) -> Result<(), T> {
        heapless::Vec::push(self, item)
    }
}

/// One ply of a simulation as the search records it: the move and who played it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ply<M> {
    /// The move.
    pub mv: M,
    /// The player who played it.
    pub player: u8,
}

/// A game that every search of arbor can work on: one or two players (indices 0 and 1),
/// moves into a bounded list, returns in [0, 1] for each player.
///
/// `play` must be deterministic given the state: MCTS stores moves, not states, and replays
/// them from the root on every iteration (or from a state it was allowed to keep, see
/// [`Game::replays_exactly`]). Chance that a game keeps inside its state (the refill of a
/// Match-3 board) is drawn from a generator the state owns; [`Game::begin_iteration`] lets
/// an MCTS iteration reseed it.
pub trait Game: Clone {
    /// A move. `Default` gives the placeholder stored where no move was played (an MCTS
    /// root); `PartialEq` finds a move among a node's children.
    type Move: Copy + PartialEq + Default;

    /// The legal moves of one position: a bounded list with room for [`Game::MAX_MOVES`]
    /// moves, for example `heapless::Vec<Self::Move, 48>` for 8x8 Breakthrough.
    type Moves: Bounded<Self::Move>;

    /// The plies of one simulation, for AMAF: a bounded list with room for
    /// [`Game::MAX_PLIES`] plies. Plies beyond it still count for the returns, only not for
    /// AMAF.
    type Trace: Bounded<Ply<Self::Move>>;

    /// Most legal moves in any position of the game (sizes move lists, MCTS children and
    /// solver jobs).
    const MAX_MOVES: usize = <Self::Moves as Bounded<Self::Move>>::CAPACITY;

    /// Most plies of one game played from its start, or the longest simulation AMAF follows
    /// for a game without such a bound.
    const MAX_PLIES: usize = <Self::Trace as Bounded<Ply<Self::Move>>>::CAPACITY;

    /// Whose turn it is, or the end.
    fn turn(&self) -> Turn;

    /// Replaces the contents of `moves` with the legal moves, in a deterministic order. An
    /// empty list while [`Game::turn`] names a player also ends the game.
    fn legal_moves(&self, moves: &mut Self::Moves);

    /// Plays `mv`, which came from `legal_moves` of this state.
    fn play(&mut self, mv: Self::Move);

    /// The returns of players 0 and 1, each in [0, 1] (values outside are clamped, NaN counts
    /// as 0), final once the game is over. Two-player games must be constant-sum (the two add
    /// up to 1: win 1/0, draw 0.5/0.5) for the MCTS-Solver and tree reuse to be sound; the
    /// solver proves only returns of exactly 0, 0.5 or 1. A one-player game fills index 0.
    fn returns(&self) -> [f32; 2];

    /// A hash of the position (equal positions, equal hashes; all 64 bits well mixed, as
    /// tables pick buckets with the low bits and check the high ones), for transposition
    /// tables and for MCTS to tell a tree built for another position apart.
    fn hash(&self) -> u64;

    /// The relative likelihood of the chance outcome `outcome` (one of `legal_moves` in a
    /// [`Turn::Chance`] state): its probability, or any weight proportional to it (the search
    /// divides by the sum). Asked only in chance turns; the default 1 makes all outcomes
    /// equally likely (a die). A deterministic game never returns `Turn::Chance` and leaves
    /// this alone: chance is part of this trait, not a capability, because every search must
    /// handle a chance turn wherever it meets one.
    fn outcome_weight(&self, _outcome: Self::Move) -> f32 {
        1.0
    }

    /// Plays a uniformly random legal move and returns it; `None`, playing nothing, when
    /// there is none. It must draw from `rng` and pick exactly as listing the moves and taking
    /// [`random_index`] of their number does (the default); a game that finds that pick
    /// without listing every move (the k-th set bit of a mask) overrides it for speed.
    fn play_random_move(&mut self, rng: &mut XorShiftRng) -> Option<Self::Move> {
        play_listed(self, rng, |_, moves, rng| random_index(rng, moves.len()))
    }

    /// Plays uniformly random moves, chance outcomes included, until the game is over (or a
    /// player has no move) or `limit` moves are played, handing each move and whose turn it
    /// was to `record`; returns the number played. It must play, draw and record exactly
    /// what calling [`Game::play_random_move`] (and [`play_outcome`] in chance turns) move
    /// after move does (the default). MCTS simulates through it, so a game may override it to
    /// choose something once per simulation rather than once per move, for example an
    /// instruction-set-specific copy of its move generation.
    fn play_random_moves(
        &mut self,
        rng: &mut XorShiftRng,
        limit: u32,
        mut record: impl FnMut(Self::Move, Turn),
    ) -> u32 {
        simulate(self, rng, limit, &mut record, |state, rng| {
            state.play_random_move(rng)
        })
    }

    /// Called by MCTS on each iteration's copy of the root state before anything is played.
    /// A game with chance inside `play` may reseed its chance generator from `rng` here so
    /// that iterations sample different outcomes (open-loop search). The stored moves are then
    /// replayed in states where they may be illegal, so `play` must tolerate that, and the
    /// solver and tree reuse should be off. The default does nothing.
    fn begin_iteration(&mut self, _rng: &mut XorShiftRng) {}

    /// Whether, within one search, the same moves played from the same state always reach the
    /// same state: `play` is deterministic and `begin_iteration` changes nothing and draws
    /// nothing. Only then may MCTS reuse the states it reached
    /// ([`Mcts::search_with_states`](super::mcts::Mcts::search_with_states)); the default
    /// `false` makes it replay.
    fn replays_exactly(&self) -> bool {
        false
    }
}

/// A game of imperfect information: what each player has seen, and full states consistent
/// with it, for information-set search
/// ([`Mcts::search_information_set`](super::mcts::Mcts::search_information_set)).
pub trait Hidden: Game {
    /// A hash of what `player` knows (the information set): equal for two states `player`
    /// cannot tell apart, different (but for collisions) for states it can.
    fn info_key(&self, player: u8) -> u64;

    /// Replaces what `observer` cannot see (the opponent's cards, the deck's order) by a
    /// sample from `rng`, consistent with everything `observer` has seen: a full state
    /// `observer` could be in.
    fn determinize(&mut self, observer: u8, rng: &mut XorShiftRng);
}

/// A dense index of a game's moves, `0..MOVE_SPACE`, for tables over moves: move-indexed
/// AMAF (each simulation marks the moves it played once, and every child looks its move up)
/// and per-move priors.
pub trait MoveIndex: Game {
    /// Number of distinct move indices.
    const MOVE_SPACE: usize;

    /// A table with one entry per move index and player: `[u8; 2 * MOVE_SPACE]` (stable Rust
    /// cannot spell that array from the constant in generic code, so the game names it).
    type PlayerMoveTable: Table;

    /// The index of `mv`, below [`MoveIndex::MOVE_SPACE`].
    fn move_index(mv: Self::Move) -> usize;
}

/// A fixed-size table of bytes, zeroed when made: `[u8; N]` is one for every `N`.
pub trait Table: AsRef<[u8]> + AsMut<[u8]> {
    /// A table of zeros.
    fn zeroed() -> Self;
}

impl<const N: usize> Table for [u8; N] {
    #[inline]
    fn zeroed() -> Self {
        [0; N]
    }
}

/// A prior for one move: a value in [0, 1] for the player making it, and how many simulations
/// it is worth. MoGo's score reads the value as H(d); a weight above 0 also enters the move's
/// statistics at creation as that many simulations with that mean (Go engines' "equivalent
/// visits").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// Value in [0, 1] (0.5: no opinion).
    pub value: f32,
    /// Equivalent simulations, 0 or more.
    pub weight: f32,
}

impl Default for Prior {
    /// No knowledge: value 0.5, weight 0.
    fn default() -> Self {
        Prior {
            value: 0.5,
            weight: 0.0,
        }
    }
}

/// Where [`Knowledge::priors`] writes: the search's new children, one per move.
pub trait PriorSink {
    /// Sets the prior of the `index`-th move; an index past the moves is ignored.
    fn set(&mut self, index: usize, prior: Prior);
}

/// Offline knowledge of a game for MCTS: priors, a static evaluation and a playout policy.
/// `()` is no knowledge: no priors, the returns as evaluation, uniformly random playouts.
pub trait Knowledge<G: Game> {
    /// Gives the prior of each of `moves` (all legal moves of `state`, for the player to
    /// move) to `out`, as `out.set(i, prior)` for `moves[i]`; moves left out keep
    /// [`Prior::default`]. Called once per expansion, when the policy reads prior values (the
    /// MoGo score) or [`Knowledge::weighs_priors`] says the weights count. The default has no
    /// opinion.
    fn priors(&self, _state: &G, _moves: &[G::Move], _out: &mut impl PriorSink) {}

    /// Whether the priors carry weights (equivalent simulations) that every policy must see:
    /// then they are asked for at every expansion, whatever the policy reads. `false` (the
    /// default) asks only for policies that read prior values, which saves the work for the
    /// others.
    fn weighs_priors(&self) -> bool {
        false
    }

    /// The returns of both players when a playout is cut off in `state`, which is not over:
    /// a heuristic estimate in [0, 1]. The default is [`Game::returns`], which suits games
    /// whose returns mean something mid-game (a score so far).
    fn evaluate(&self, state: &G) -> [f32; 2] {
        state.returns()
    }

    /// Index into `moves` (never empty) of the move a playout plays in `state`. The default is
    /// uniform random. An out-of-range answer is replaced by 0.
    fn playout_move(&self, _state: &G, moves: &[G::Move], rng: &mut XorShiftRng) -> usize {
        random_index(rng, moves.len())
    }

    /// Plays the move a playout plays in `state` and returns it; `None` when there is no legal
    /// move. Must agree with [`Knowledge::playout_move`] (same draws, same move); the default,
    /// for uniform playouts, is [`Game::play_random_move`].
    fn play_playout_move(&self, state: &mut G, rng: &mut XorShiftRng) -> Option<G::Move> {
        state.play_random_move(rng)
    }

    /// Plays a simulation: playout moves in players' turns and [`play_outcome`] in chance
    /// turns, until the game is over (or a player has no move) or `limit` moves are played,
    /// handing each move and whose turn it was to `record`; returns the number played. It
    /// must play, draw and record exactly what that loop of
    /// [`Knowledge::play_playout_move`] does (the default). Knowledge whose playouts are
    /// uniform may hand it to [`Game::play_random_moves`], which a game may speed up.
    fn play_playout_moves(
        &self,
        state: &mut G,
        rng: &mut XorShiftRng,
        limit: u32,
        mut record: impl FnMut(G::Move, Turn),
    ) -> u32 {
        simulate(state, rng, limit, &mut record, |state, rng| {
            self.play_playout_move(state, rng)
        })
    }
}

impl<G: Game> Knowledge<G> for () {}

/// The simulation loop of [`Game::play_random_moves`] and [`Knowledge::play_playout_moves`]:
/// `player_move` in players' turns and [`play_outcome`] in chance turns, until the game is
/// over (or a player has no move) or `limit` moves are played; returns the number played.
fn simulate<G: Game>(
    state: &mut G,
    rng: &mut XorShiftRng,
    limit: u32,
    record: &mut impl FnMut(G::Move, Turn),
    mut player_move: impl FnMut(&mut G, &mut XorShiftRng) -> Option<G::Move>,
) -> u32 {
    let mut played = 0;
    while played < limit {
        let turn = state.turn();
        let mv = match turn {
            Turn::Over => break,
            Turn::Player(_) => player_move(state, rng),
            Turn::Chance => play_outcome(state, rng),
        };
        let Some(mv) = mv else {
            break;
        };
        record(mv, turn);
        played += 1;
    }
    played
}

/// What the proof-number solvers need beyond [`Game`]: two players who alternate, no draws,
/// no cycles (the positions reachable from a position form a DAG), a game that ends; and what
/// they may use beyond the rules. Every answer must be exact; the defaults know nothing.
pub trait ProofHints: Game {
    /// The player to move, also once the game is over (the one who would move next): the
    /// solvers score every position for its player to move.
    fn to_move(&self) -> u8;

    /// The number of legal moves, for the mobility heuristic (initial disproof numbers). The
    /// default lists them.
    fn mobility(&self) -> u32 {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves.len() as u32
    }

    /// The initial disproof number of a position that goes on and has no static value,
    /// under the mobility heuristic: how much work showing that the side to move loses is
    /// expected to take. The default is [`ProofHints::mobility`]; a game may scale it by
    /// what else makes a disproof long (any value is sound: it orders the search only).
    fn disproof_estimate(&self) -> u32 {
        self.mobility()
    }

    /// `true` only if the side to move (the game not being over) is certain to win with its
    /// next move.
    fn wins_next_move(&self) -> bool {
        false
    }

    /// `Some(true)` if the side to move is known to win, `Some(false)` if it is known to lose,
    /// `None` if unknown; asked only when the game goes on and `wins_next_move` is false.
    fn static_value(&self) -> Option<bool> {
        None
    }

    /// Removes from `moves` (the legal moves) those that certainly lose, so that a proof need
    /// not refute them one by one. The default keeps them all.
    fn prune_losing_moves(&self, _moves: &mut Self::Moves) {}

    /// What the three hints above say of a position that goes on, in one call, as the
    /// solvers ask for a node they have just reached: [`ProofHint::Win`] if
    /// [`wins_next_move`](Self::wins_next_move), else the [`static_value`](Self::static_value)
    /// if any, else [`ProofHint::Open`] with the
    /// [`disproof_estimate`](Self::disproof_estimate) when `estimate` (0 otherwise). The
    /// default asks them in that order; a game whose hints read the same things (masks,
    /// counts) may answer in one pass, but must answer exactly that.
    fn proof_hint(&self, estimate: bool) -> ProofHint {
        if self.wins_next_move() {
            return ProofHint::Win;
        }
        match self.static_value() {
            Some(true) => ProofHint::Win,
            Some(false) => ProofHint::Loss,
            None => ProofHint::Open(if estimate {
                self.disproof_estimate()
            } else {
                0
            }),
        }
    }
}

/// What [`ProofHints::proof_hint`] knows of a position that goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofHint {
    /// The side to move is known to win.
    Win,
    /// The side to move is known to lose.
    Loss,
    /// Not known; the disproof estimate if it was asked for, else 0.
    Open(u32),
}

/// Lists the moves of `state` and plays the one `pick` chooses (the first if its answer is out
/// of range: the hook is game code); `None`, playing nothing, without a legal move. The
/// listed path behind [`Game::play_random_move`], and the way a [`Knowledge`] with its own
/// `playout_move` plays it.
pub fn play_listed<G: Game>(
    state: &mut G,
    rng: &mut XorShiftRng,
    pick: impl FnOnce(&G, &[G::Move], &mut XorShiftRng) -> usize,
) -> Option<G::Move> {
    let mut list = G::Moves::default();
    state.legal_moves(&mut list);
    let first = *list.first()?;
    let mv = list.get(pick(state, &list, rng)).copied().unwrap_or(first);
    state.play(mv);
    Some(mv)
}

/// Index into `outcomes` (the outcomes of a chance turn of `state`, never empty) of one drawn
/// with the probabilities [`Game::outcome_weight`] gives; uniform when the weights do not
/// make a distribution (none positive, or not finite). One draw from `rng`.
pub fn sample_outcome<G: Game>(state: &G, outcomes: &[G::Move], rng: &mut XorShiftRng) -> usize {
    let weights = outcomes.iter().map(|&mv| state.outcome_weight(mv));
    draw_weighted(weights, rng)
}

/// Index of one of `weights` drawn in proportion to it (negative and NaN weights count as 0),
/// with one draw from `rng`; uniform when they make no distribution (none positive, or an
/// infinite sum).
pub(crate) fn draw_weighted(
    weights: impl ExactSizeIterator<Item = f32> + Clone,
    rng: &mut XorShiftRng,
) -> usize {
    let positive = |w: f32| if w > 0.0 { f64::from(w) } else { 0.0 };
    let total: f64 = weights.clone().map(positive).sum();
    let n = weights.len();
    if !(total > 0.0 && total.is_finite()) {
        return random_index(rng, n);
    }
    // A point in [0, total), then the weight whose share of the line holds it.
    let mut point = (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0 * total;
    for (i, w) in weights.enumerate() {
        point -= positive(w);
        if point < 0.0 {
            return i;
        }
    }
    n.saturating_sub(1)
}

/// Plays a chance outcome of `state` drawn by [`sample_outcome`] and returns it; `None`,
/// playing nothing, when the turn lists no outcome.
pub fn play_outcome<G: Game>(state: &mut G, rng: &mut XorShiftRng) -> Option<G::Move> {
    play_listed(state, rng, sample_outcome)
}

/// A uniform index in `0..n` (0 when `n` is 0), by multiply-shift: one draw, no loop, and a
/// bias below n / 2^32 that no game-sized `n` can notice.
pub fn random_index(rng: &mut XorShiftRng, n: usize) -> usize {
    random_below(rng, n.min(u32::MAX as usize) as u32) as usize
}

/// [`random_index`] for an `n` that is already a `u32`: the same draw, without the clamp.
#[inline]
pub(crate) fn random_below(rng: &mut XorShiftRng, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// The search's generator seeded from a `u64`, so callers (and C) need not name `rand_core`.
pub fn seeded_rng(seed: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(seed)
}
