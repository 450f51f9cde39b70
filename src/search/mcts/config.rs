//! Search configuration and what a search reports back.
use super::node::Proof;

/// How the move to play is chosen once the budget is spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FinalMove {
    /// The root child with the most simulations (ties: higher mean, then first generated).
    #[default]
    MostVisited,
    /// The root child the selection policy scores highest, as the Match-3 personas do.
    BestScore,
}

/// Who picks moves during playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// The game's `Game::playout_move` (uniform random unless the game overrides it).
    #[default]
    Game,
    /// Uniform random, ignoring any game override.
    Uniform,
}

/// Search settings. The selection policy is passed separately because formula policies are
/// not `Copy`; [`super::Selection`] covers the built-in ones for plain configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// A leaf is expanded (all its children at once) when it has been visited at least this
    /// many times before; 0 expands on first arrival, as the Match-3 paper's vanilla MCTS
    /// does. The root is always expanded.
    pub expand_threshold: u32,
    /// At most this many playout moves; a playout stopped early is scored by
    /// `Game::evaluate`. `u32::MAX` means no cutoff (the game must then end on its own);
    /// 0 scores every new leaf by `evaluate` directly.
    pub playout_cutoff: u32,
    /// Who picks playout moves.
    pub playout: PlayoutPolicy,
    /// How the final move is chosen.
    pub final_move: FinalMove,
    /// MCTS-Solver (Winands, Björnsson and Saito): back up proven wins and losses, play a
    /// proven win, avoid proven losses, and stop early once the root is proven. Sound only
    /// for deterministic `play` and, with two players, constant-sum rewards.
    pub solver: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            expand_threshold: 0,
            playout_cutoff: u32::MAX,
            playout: PlayoutPolicy::Game,
            final_move: FinalMove::MostVisited,
            solver: true,
        }
    }
}

/// What one call of `Mcts::search` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Iterations run (fewer than asked when the solver proved the root first).
    pub iterations: u32,
    /// Nodes in use after the search, root included.
    pub nodes_used: u32,
    /// Deepest leaf reached, in plies from the root.
    pub max_depth: u32,
    /// An expansion was refused for lack of storage; the search went on without growing.
    pub storage_full: bool,
    /// The solver's verdict on the root, for the player to move there.
    pub root_proof: Proof,
}

/// The answer of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the position has no legal move (or is terminal).
    pub best: Option<M>,
    /// What the search did.
    pub stats: Stats,
}

/// Where a search stands: the move it would play now and how sure it is
/// ([`Mcts::root_summary`](super::Mcts::root_summary)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootSummary<M> {
    /// The move [`Mcts::best_move`](super::Mcts::best_move) plays now; `None` before the
    /// root has children.
    pub best: Option<M>,
    /// Simulations through that move's node (prior pseudo-visits included).
    pub best_visits: u32,
    /// Its mean reward for the player to move at the root, in [0, 1]; 0 without visits.
    pub best_value: f32,
    /// Simulations through the root.
    pub root_visits: u32,
}

/// Statistics of one root child, for callers that want more than the best move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildInfo<M> {
    /// The move leading to the child.
    pub mv: M,
    /// Simulations through the child.
    pub visits: u32,
    /// Sum of rewards of the player to move at the root.
    pub wins: f32,
    /// AMAF simulations (0 unless the policy used AMAF).
    pub amaf_visits: u32,
    /// Sum of AMAF rewards.
    pub amaf_wins: f32,
    /// The solver's verdict for the player to move at the root.
    pub proof: Proof,
}
