//! The game interface the search needs, and the one random helper every policy shares.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// A game the MCTS can search: one or two players (indices 0 and 1), moves into a bounded
/// list, and rewards in [0, 1].
///
/// Chance (a refill of a Match-3-like board, a dealt card) stays inside the state: `play`
/// draws it from a generator the state owns, so the search needs no chance nodes. Because
/// every iteration starts from a clone of the root state, each iteration sees the same chance
/// outcomes unless [`Game::begin_iteration`] reseeds them.
///
/// `play` must be deterministic given the state: the tree stores moves, not states, and
/// replays them from the root on every iteration (or from a state the caller let the search
/// keep, see [`Game::replays_exactly`]).
pub trait Game: Clone {
    /// A move. `Default` gives the placeholder stored in the root node (never played);
    /// `PartialEq` finds a move among the children for tree reuse and RAVE.
    type Move: Copy + PartialEq + Default;

    /// The legal moves of one position, for example `heapless::Vec<Self::Move, N>` with `N`
    /// the game's own maximum (48 for 8x8 Breakthrough, 112 for a swap game on 8x8), so each
    /// game pays only for its own bound.
    type Moves: AsRef<[Self::Move]>;

    /// The player to move: 0, or 1 in a two-player game.
    fn side_to_move(&self) -> u8;

    /// All legal moves, in a deterministic order. An empty list makes the state terminal.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays `mv`, which came from `legal_moves` of this state.
    fn play(&mut self, mv: Self::Move);

    /// Whether the game is over.
    fn is_terminal(&self) -> bool;

    /// Reward of `player` in a terminal state, in [0, 1] (values outside are clamped, NaN
    /// counts as 0). Two-player games must be constant-sum (the two rewards add up to 1: win
    /// 1/0, draw 0.5/0.5) for the solver and tree reuse to be sound; the solver proves only
    /// states whose reward is exactly 0, 0.5 or 1.
    fn reward(&self, player: u8) -> f32;

    /// Reward of `player` when a playout is cut off in this non-terminal state (see
    /// `Config::playout_cutoff`): a heuristic estimate in [0, 1]. The default is `reward`,
    /// which suits games whose reward is meaningful mid-game (a score so far).
    fn evaluate(&self, player: u8) -> f32 {
        self.reward(player)
    }

    /// A number describing this state as the child its last move led to (for example its
    /// number of legal moves), read by formula policies. Called once per node, on the state
    /// reached the first time a search descends into the node, and only if the policy asks
    /// for it: policies score unvisited children without it, so computing it lazily costs
    /// nothing but one call per visited node.
    fn feature(&self) -> f32 {
        0.0
    }

    /// Offline knowledge H(d) of `mv` for the MoGo score, in [0, 1]: higher is more promising.
    /// Called once per child at expansion if the policy asks for it. The default 0.5 means
    /// "no knowledge".
    fn prior(&self, _mv: Self::Move) -> f32 {
        0.5
    }

    /// Index into `moves` (never empty) of the move a playout plays here. The default is
    /// uniform random. An out-of-range answer is replaced by 0.
    fn playout_move(&self, moves: &[Self::Move], rng: &mut XorShiftRng) -> usize {
        random_index(rng, moves.len())
    }

    /// Plays the move a playout plays here and returns it; `None` when there is no legal
    /// move. The default lists the moves and plays `playout_move`'s pick. A game that can
    /// find that pick without listing every move (the k-th set bit of a mask) may override
    /// this, with the same draws from `rng` and the same move.
    fn play_playout_move(&mut self, rng: &mut XorShiftRng) -> Option<Self::Move> {
        play_listed(self, rng, |state, moves, rng| {
            state.playout_move(moves, rng)
        })
    }

    /// Called on each iteration's copy of the root state before anything is played. A game
    /// with chance inside `play` may reseed its chance generator from `rng` here so that
    /// iterations sample different outcomes (open-loop search). The stored moves are then
    /// replayed in states where they may be illegal, so `play` must tolerate that, and the
    /// solver and tree reuse should be off. The default does nothing.
    fn begin_iteration(&mut self, _rng: &mut XorShiftRng) {}

    /// Whether, within one search, the same moves played from the same state always reach
    /// the same state: `play` is deterministic and `begin_iteration` changes nothing and draws
    /// nothing. Only then does [`Mcts::search_with_states`](super::Mcts::search_with_states)
    /// reuse the states it reached; the default `false` makes it replay, like
    /// [`Mcts::search`](super::Mcts::search).
    fn replays_exactly(&self) -> bool {
        false
    }

    /// An identity of this position, such as a Zobrist hash, so that a search never
    /// continues a tree that was built for another position with the same legal moves. The
    /// default `None` leaves only the move lists to compare.
    fn position_key(&self) -> Option<u64> {
        None
    }
}

/// Lists the moves of `state` and plays the one `pick` chooses (the first if its answer is out
/// of range: the hook is game code); `None`, playing nothing, without a legal move.
pub(crate) fn play_listed<G: Game>(
    state: &mut G,
    rng: &mut XorShiftRng,
    pick: impl FnOnce(&G, &[G::Move], &mut XorShiftRng) -> usize,
) -> Option<G::Move> {
    let list = state.legal_moves();
    let moves = list.as_ref();
    let first = *moves.first()?;
    let mv = moves.get(pick(state, moves, rng)).copied().unwrap_or(first);
    state.play(mv);
    Some(mv)
}

/// A uniform index in `0..n` (0 when `n` is 0), by multiply-shift: one draw, no loop, and a
/// bias below n / 2^32 that no game-sized `n` can notice.
pub fn random_index(rng: &mut XorShiftRng, n: usize) -> usize {
    let n = n.min(u32::MAX as usize) as u64;
    ((u64::from(rng.next_u32()) * n) >> 32) as usize
}

/// The search's generator seeded from a `u64`, so callers (and C) need not name `rand_core`.
pub fn seeded_rng(seed: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(seed)
}
