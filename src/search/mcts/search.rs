//! The search loop: selection, expansion, simulation, backpropagation, and the final choice.
use rand_xorshift::XorShiftRng;

use super::amaf::Amaf;
use super::config::{Config, FinalMove, PlayoutPolicy, RootSummary, SearchResult, Stats};
use super::node::{CHANCE, Node, Proof};
use super::playout::{playout, rewards};
use super::policy::{Needs, Policy};
use super::states::{CachedState, StateCache};
use super::stop::{Never, Stop};
use super::tree::Mcts;
use crate::Error;
use crate::search::game::{
    Bounded, Game, Hidden, Knowledge, Ply, Turn, draw_weighted, random_below, random_index,
};

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Runs `iterations` MCTS iterations from `state` and returns the move to play.
    ///
    /// `knowledge` gives the priors (if the policy reads them), the evaluation of cut-off
    /// playouts and the playout policy; `&()` is none.
    ///
    /// If the tree already holds a root (after [`Mcts::advance`] or a previous search), the
    /// search continues it, provided its root children are exactly `state`'s legal moves and
    /// the positions' hashes ([`Game::hash`]) do not differ; otherwise it starts afresh. All
    /// randomness comes from `rng`, so the same tree, state, settings and generator give the
    /// same result.
    ///
    /// The move is `None` only if `state` is terminal or has no legal move (the tree is then
    /// cleared). With zero
    /// iterations, or storage too small to expand the root, it is still a legal move: the
    /// tree's choice if the root has children, else the playout policy's pick.
    ///
    /// Fails only with `Error::CapacityExhausted` when the storage cannot hold even the root.
    pub fn search<G, P, K>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        iterations: u32,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
    {
        self.search_until(state, policy, knowledge, config, iterations, Never, rng)
    }

    /// [`Mcts::search`] that also ends when `stop` says so: it is asked before every
    /// iteration, so a cancel or deadline takes effect within one iteration, and the result
    /// is the tree's choice after the iterations run (`stats.iterations` says how many).
    ///
    /// Resumable: the tree and the generator are all the search keeps, so `k` calls of `n`
    /// iterations each on the same tree and generator grow exactly the tree, and choose
    /// exactly the move, of one call of `k · n` iterations, also when the tree is detached
    /// with [`Mcts::parts`] and re-attached with [`Mcts::from_tree_parts`] between calls.
    /// (The exception: a call that ends with no root children, from zero iterations on a
    /// fresh tree or storage too small for the root's children, draws its fallback move
    /// from `rng`.)
    #[allow(clippy::too_many_arguments)]
    pub fn search_until<G, P, K, S>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        max_iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
        S: Stop,
    {
        let no_states = &mut [];
        self.search_with_states_until(
            state,
            policy,
            knowledge,
            config,
            max_iterations,
            stop,
            rng,
            no_states,
        )
    }

    /// [`Mcts::search`], keeping in `states` the state reached at each tree node it plays
    /// into, if the game [replays exactly](Game::replays_exactly): an iteration then starts
    /// from the state of the deepest kept node on its path and plays only the moves below it.
    /// The result is the same as `search`'s, bit for bit; only the time differs. On a fresh
    /// tree an iteration keeps at most two new states (the leaf it expands and the child it
    /// plays out from) and at most three quarters of the slots are used, so three slots per
    /// iteration keep every state (a reused tree's nodes are kept too, as they are first
    /// replayed); fewer keep the first ones, and an empty slice keeps none.
    #[allow(clippy::too_many_arguments)]
    pub fn search_with_states<G, P, K>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        iterations: u32,
        rng: &mut XorShiftRng,
        states: &mut [CachedState<G>],
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
    {
        self.search_with_states_until(
            state, policy, knowledge, config, iterations, Never, rng, states,
        )
    }

    /// [`Mcts::search_with_states`] that also ends when `stop` says so, as
    /// [`Mcts::search_until`]. The kept states belong to one call: a continued search
    /// replays what it needs, with the same result.
    #[allow(clippy::too_many_arguments)]
    pub fn search_with_states_until<G, P, K, S>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        max_iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
        states: &mut [CachedState<G>],
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
        S: Stop,
    {
        let states: &mut [CachedState<G>] = if state.replays_exactly() {
            states
        } else {
            &mut []
        };
        let root = Root {
            state,
            key: state.hash(),
            prepare: |state: &mut G, rng: &mut XorShiftRng| state.begin_iteration(rng),
        };
        let budget = Budget {
            max_iterations,
            stop,
        };
        self.run(root, policy, knowledge, config, budget, rng, states)
    }

    /// [`Mcts::search_parallel`] on `threads` threads where the build has threads (the `std`
    /// feature), else [`Mcts::search`] on one, whatever `threads` asks: one call for callers
    /// that serve both builds. A count of 0 or above
    /// [`MAX_SEARCH_THREADS`](super::MAX_SEARCH_THREADS) searches on one thread too.
    #[allow(clippy::too_many_arguments)]
    pub fn search_on_threads<G, P, K>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        iterations: u32,
        threads: usize,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M> + Sync,
        P: Policy<G> + Sync + ?Sized,
        K: Knowledge<G> + Sync + ?Sized,
        M: Send,
    {
        self.search_on_threads_until(
            state, policy, knowledge, config, iterations, threads, Never, rng,
        )
    }

    /// [`Mcts::search_on_threads`] that also ends when `stop` says so: every thread polls
    /// its own clone of `stop` before each of its iterations, so a stop shared through a
    /// reference ([`Cancel`](super::Cancel)) or a clock ([`Deadline`](super::Deadline))
    /// ends them all.
    #[allow(clippy::too_many_arguments)]
    pub fn search_on_threads_until<G, P, K, S>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        max_iterations: u32,
        threads: usize,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M> + Sync,
        P: Policy<G> + Sync + ?Sized,
        K: Knowledge<G> + Sync + ?Sized,
        S: Stop + Clone + Send,
        M: Send,
    {
        #[cfg(feature = "std")]
        {
            let threads = if (1..=super::MAX_SEARCH_THREADS).contains(&threads) {
                threads
            } else {
                1
            };
            self.search_parallel_until(
                state,
                policy,
                knowledge,
                config,
                max_iterations,
                threads,
                stop,
                rng,
            )
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = threads;
            self.search_until(state, policy, knowledge, config, max_iterations, stop, rng)
        }
    }

    /// Information-set MCTS with a single observer (Cowling, Powley and Whitehouse, 2012)
    /// for games of imperfect information: the player to move in `state` is the observer,
    /// and every iteration starts from a fresh [determinization](Hidden::determinize) of
    /// `state` for it, so the tree's statistics average over the states the observer cannot
    /// tell apart. The tree is keyed by the observer's information set
    /// ([`Hidden::info_key`]) for reuse. The legal moves at a tree node must not depend on
    /// what the observer cannot see (true of betting games), or `play` must tolerate moves
    /// that became illegal. The solver is off (proofs on sampled states prove nothing).
    ///
    /// Otherwise as [`Mcts::search`]: same settings, same seed, same result.
    pub fn search_information_set<G, P, K>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        iterations: u32,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Hidden<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
    {
        self.search_information_set_until(state, policy, knowledge, config, iterations, Never, rng)
    }

    /// [`Mcts::search_information_set`] that also ends when `stop` says so, as
    /// [`Mcts::search_until`].
    #[allow(clippy::too_many_arguments)]
    pub fn search_information_set_until<G, P, K, S>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        max_iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Hidden<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
        S: Stop,
    {
        let observer = state.turn().player().unwrap_or(0);
        let root = Root {
            state,
            key: state.info_key(observer),
            prepare: |state: &mut G, rng: &mut XorShiftRng| {
                state.determinize(observer, rng);
                state.begin_iteration(rng);
            },
        };
        let config = Config {
            solver: false,
            ..*config
        };
        let budget = Budget {
            max_iterations,
            stop,
        };
        self.run(root, policy, knowledge, &config, budget, rng, &mut [])
    }

    /// The search loop shared by every entry point: `root.prepare` makes each iteration's
    /// state from a clone of `root.state`; `budget.stop` is asked before each iteration
    /// within the budget.
    #[allow(clippy::too_many_arguments)]
    fn run<G, P, K, F, S>(
        &mut self,
        root: Root<'_, G, F>,
        policy: &P,
        knowledge: &K,
        config: &Config,
        budget: Budget<S>,
        rng: &mut XorShiftRng,
        states: &mut [CachedState<G>],
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
        F: Fn(&mut G, &mut XorShiftRng),
        S: Stop,
    {
        let Budget {
            max_iterations,
            mut stop,
        } = budget;
        if self.capacity() == 0 {
            return Err(Error::CapacityExhausted);
        }
        let state = root.state;
        let mut list = G::Moves::default();
        // Only a player's turn has a move to choose.
        let side = match state.turn() {
            Turn::Player(side) => {
                state.legal_moves(&mut list);
                side
            }
            Turn::Chance | Turn::Over => 0,
        };
        let moves = &*list;
        if moves.is_empty() {
            self.clear();
            let stats = Stats::default();
            return Ok(SearchResult { best: None, stats });
        }
        self.prepare_root(side, moves, root.key);

        let mut stats = Stats::default();
        let mut trace = G::Trace::default();
        let mut cache = StateCache::new(states);
        while stats.iterations < max_iterations && !stop.stop(stats.iterations) {
            if config.solver && self.nodes[0].proof() != Proof::Unknown {
                break;
            }
            let scratch = Scratch {
                trace: &mut trace,
                cache: &mut cache,
            };
            let mut start = state.clone();
            (root.prepare)(&mut start, rng);
            self.iterate(start, policy, knowledge, config, rng, scratch, &mut stats);
            stats.iterations += 1;
        }
        stats.nodes_used = self.len;
        stats.root_proof = self.root_proof();

        let best = match self.best_move(policy, config) {
            Some(mv) => mv,
            None => {
                let pick = match config.playout {
                    PlayoutPolicy::Game => knowledge.playout_move(state, moves, rng),
                    PlayoutPolicy::Uniform => random_index(rng, moves.len()),
                };
                moves.get(pick).copied().unwrap_or(moves[0])
            }
        };
        Ok(SearchResult {
            best: Some(best),
            stats,
        })
    }

    /// Keeps the current root if it matches the position, else starts a new one. A reused
    /// root entered by the opponent is turned to the view of the player to move.
    fn prepare_root(&mut self, side: u8, moves: &[M], key: u64) {
        let known_other = self.root_key.is_some_and(|old| old != key);
        self.root_key = Some(key);
        if self.len == 0 || known_other {
            self.reset_root(side);
            return;
        }
        // A root without children holds nothing worth keeping, and may be stale.
        let children = &self.nodes[self.nodes[0].children_usize()];
        let same = !children.is_empty()
            && children.len() == moves.len()
            && children
                .iter()
                .zip(moves)
                .all(|(child, &mv)| child.mv == mv);
        if !same {
            self.reset_root(side);
            return;
        }
        let root = &mut self.nodes[0];
        if root.mover != side {
            root.set_proof(root.proof().flip());
            root.wins = root.visits as f32 - root.wins;
            root.mover = side;
        }
    }

    /// One iteration: descend by the policy, expand, play out, back up.
    #[allow(clippy::too_many_arguments)]
    fn iterate<G, P, K>(
        &mut self,
        mut state: G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        rng: &mut XorShiftRng,
        scratch: Scratch<'_, '_, G>,
        stats: &mut Stats,
    ) where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
        K: Knowledge<G> + ?Sized,
    {
        let Scratch { trace, cache } = scratch;
        let needs = policy.needs();
        trace.clear();
        let mut index = 0u32;
        let mut depth = 0u32;
        // The kept state `state` stands for, set only once something needs the state.
        let mut pending = None;

        // Selection. A proven node needs no simulation: its exact value is backed up.
        loop {
            let node = self.nodes[index as usize];
            if config.solver {
                if let Some(value) = node.proof().reward() {
                    let rewards = exact_rewards(node.mover, value);
                    stats.max_depth = stats.max_depth.max(depth);
                    self.backup(index, &rewards, false);
                    self.update_amaf(policy, index, depth, trace, &rewards);
                    return;
                }
            }
            if node.child_count == 0 {
                break;
            }
            index = self.choose(index, policy, config.solver, rng);
            self.step(
                &mut state,
                &mut pending,
                cache,
                index,
                trace,
                (policy, needs),
            );
            depth += 1;
        }
        cache.restore(&mut state, &mut pending);

        // Expansion: all children at once, then one of them is chosen by the policy.
        let node = self.nodes[index as usize];
        let ready = index == 0 || node.visits >= config.expand_threshold;
        let mover = match state.turn() {
            Turn::Player(player) => Some(player),
            Turn::Chance => Some(CHANCE),
            Turn::Over => None,
        };
        if let (false, true, Some(mover)) = (node.is_expanded(), ready, mover) {
            let mut list = G::Moves::default();
            state.legal_moves(&mut list);
            if !list.is_empty() {
                if self.expand(index, &state, mover, &list, knowledge, needs) {
                    index = self.choose(index, policy, config.solver, rng);
                    self.step(
                        &mut state,
                        &mut pending,
                        cache,
                        index,
                        trace,
                        (policy, needs),
                    );
                    depth += 1;
                } else {
                    stats.storage_full = true;
                }
            }
        }
        stats.max_depth = stats.max_depth.max(depth);

        // Simulation, then backpropagation.
        let traced = if needs.amaf { Some(&mut *trace) } else { None };
        let end = playout(&mut state, knowledge, config, rng, traced);
        let rewards = rewards(&state, knowledge, end);
        let mut proven = false;
        if end.terminal && end.steps == 0 {
            // The leaf itself is terminal: remember it, so it is never expanded.
            let leaf = &mut self.nodes[index as usize];
            if !leaf.is_expanded() {
                leaf.set_expanded(0, 0);
            }
            proven = config.solver && self.prove_terminal(index, &rewards);
        }
        self.backup(index, &rewards, proven);
        self.update_amaf(policy, index, depth, trace, &rewards);
    }

    /// Lets a policy that reads AMAF add the simulation to its statistics.
    fn update_amaf<G, P>(
        &mut self,
        policy: &P,
        leaf: u32,
        depth: u32,
        trace: &[Ply<M>],
        rewards: &[f32; 2],
    ) where
        G: Game<Move = M>,
        P: Policy<G> + ?Sized,
    {
        if policy.needs().amaf {
            policy.update_amaf(Amaf {
                nodes: &mut *self.nodes,
                leaf,
                depth,
                trace,
                rewards,
            });
        }
    }

    /// Plays the move of node `index` on `state` and records it; on the node's first visit,
    /// reads the policy's feature of the state reached, if the policy needs it. If the state
    /// of `index` is kept in `cache`, nothing is played: `pending` remembers it instead;
    /// otherwise the state reached is kept.
    fn step<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &mut self,
        state: &mut G,
        pending: &mut Option<usize>,
        cache: &mut StateCache<'_, G>,
        index: u32,
        trace: &mut G::Trace,
        (policy, needs): (&P, Needs),
    ) {
        let node = &mut self.nodes[index as usize];
        match cache.find(index) {
            Some(slot) => *pending = Some(slot),
            None => {
                cache.restore(state, pending);
                state.play(node.mv);
                cache.insert(index, state);
            }
        }
        if needs.feature && node.visits == 0 {
            cache.restore(state, pending);
            node.feature = policy.observe(state);
        }
        // Only AMAF reads the plies.
        if needs.amaf {
            let _ = trace.push(Ply {
                mv: node.mv,
                player: node.mover,
            });
        }
    }

    /// The child of `parent` an iteration descends into: a chance outcome drawn by its
    /// weight below a chance node, else the policy's choice.
    fn choose<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &self,
        parent: u32,
        policy: &P,
        solver: bool,
        rng: &mut XorShiftRng,
    ) -> u32 {
        let node = &self.nodes[parent as usize];
        let children = &self.nodes[node.children_usize()];
        if children.first().is_some_and(|child| child.mover == CHANCE) {
            node.first_child + draw_weighted(children.iter().map(|child| child.prior), rng) as u32
        } else {
            self.select(parent, policy, solver, rng)
        }
    }

    /// The child of `parent` with the highest score, ties broken uniformly at random. With
    /// the solver, children proven lost for the chooser are skipped (all of them cannot be:
    /// the parent would then be proven and never descended).
    fn select<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &self,
        parent: u32,
        policy: &P,
        solver: bool,
        rng: &mut XorShiftRng,
    ) -> u32 {
        let node = &self.nodes[parent as usize];
        let mut pick = Pick::new(node.first_child);
        let mut index = node.first_child;
        // The tie draws step a copy of the generator, which stays in registers through the
        // loop, and hand its state back at the end: the same draws, without a load and a
        // store of the state per draw.
        let mut draws = rng.clone();
        for chunk in self.nodes[node.children_usize()].chunks(SCORE_BATCH) {
            let mut scores = [0.0f64; SCORE_BATCH];
            let scores = &mut scores[..chunk.len()];
            policy.score_children(node, chunk, scores);
            for (child, &score) in chunk.iter().zip(scores.iter()) {
                // With the solver, children proven lost for the chooser are never chosen.
                if !(solver && child.is_proven_loss()) {
                    pick.offer(index, score, &mut draws);
                }
                index += 1;
            }
        }
        *rng = draws;
        pick.best
    }

    /// The move the tree recommends now, or `None` if the root has no children.
    ///
    /// With the solver on, a child proven won is played and children proven lost are
    /// avoided (unless every child is lost); among the rest `config.final_move` decides.
    pub fn best_move<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &self,
        policy: &P,
        config: &Config,
    ) -> Option<M> {
        self.best_child(policy, config).map(|child| child.mv)
    }

    /// Where the search stands, read from the tree without changing it (one pass over the
    /// root's children): the move [`Mcts::best_move`] would play now, with its statistics.
    /// For progress reports between or after calls of a resumable search.
    pub fn root_summary<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &self,
        policy: &P,
        config: &Config,
    ) -> RootSummary<M> {
        let best = self.best_child(policy, config);
        RootSummary {
            best: best.map(|child| child.mv),
            best_visits: best.map_or(0, |child| child.visits),
            best_value: best.map_or(0.0, |child| {
                if child.visits == 0 {
                    0.0
                } else {
                    child.wins / child.visits as f32
                }
            }),
            root_visits: self.root_visits(),
        }
    }

    /// The root child [`Mcts::best_move`] plays.
    fn best_child<G: Game<Move = M>, P: Policy<G> + ?Sized>(
        &self,
        policy: &P,
        config: &Config,
    ) -> Option<&Node<M>> {
        if self.len == 0 {
            return None;
        }
        let root = &self.nodes[0];
        let children = &self.nodes[root.children_usize()];
        if children.is_empty() {
            return None;
        }
        let (win, not_lost) = if config.solver {
            let win = children.iter().any(|c| c.proof() == Proof::Win);
            let not_lost = children.iter().any(|c| c.proof() != Proof::Loss);
            (win, not_lost)
        } else {
            (false, false)
        };
        let eligible = |proof: Proof| {
            if win {
                proof == Proof::Win
            } else if not_lost {
                proof != Proof::Loss
            } else {
                true
            }
        };
        // Key compared lexicographically; the first child wins exact ties.
        let key = |child: &Node<M>| -> (f64, f64) {
            let stats = child.stats(root);
            let score = match config.final_move {
                FinalMove::MostVisited => f64::from(child.visits),
                FinalMove::BestScore => policy.score(&stats),
            };
            let score = if score.is_nan() {
                f64::NEG_INFINITY
            } else {
                score
            };
            let tie = match config.final_move {
                FinalMove::MostVisited => stats.mean(),
                FinalMove::BestScore => f64::from(child.visits),
            };
            (score, tie)
        };
        let mut best: Option<(&Node<M>, (f64, f64))> = None;
        for child in children.iter().filter(|c| eligible(c.proof())) {
            let k = key(child);
            if best.is_none_or(|(_, b)| k.0 > b.0 || (k.0 == b.0 && k.1 > b.1)) {
                best = Some((child, k));
            }
        }
        best.map(|(child, _)| child)
    }
}

/// What one iteration works in, lent by the search: the plies it records and the states
/// kept so far.
struct Scratch<'a, 'c, G: Game> {
    trace: &'a mut G::Trace,
    cache: &'a mut StateCache<'c, G>,
}

/// The start of a search: the state, its key for tree reuse, and how each iteration's state
/// is made from a clone of it.
struct Root<'g, G, F> {
    state: &'g G,
    key: u64,
    prepare: F,
}

/// How long a search may run: at most `max_iterations`, fewer if `stop` says so.
struct Budget<S> {
    max_iterations: u32,
    stop: S,
}

/// Rewards of both players when the player `mover` is known to get exactly `value`.
fn exact_rewards(mover: u8, value: f32) -> [f32; 2] {
    if mover == 0 {
        [value, 1.0 - value]
    } else {
        [1.0 - value, value]
    }
}

/// Children scored in one [`Policy::score_children`] call: wide enough for a Match-3 node's
/// children (about 20) to fill a formula's batches of lanes.
const SCORE_BATCH: usize = 32;

/// The running choice of a selection: the best score so far, exact ties broken uniformly at
/// random by reservoir sampling (the k-th tied child replaces the pick with probability
/// 1/k), so the draws depend only on the scores in child order, not on how they were batched.
struct Pick {
    best: u32,
    score: f64,
    /// Children tied at `score` so far (at most the parent's `child_count`, a `u32`).
    ties: u32,
}

impl Pick {
    fn new(first: u32) -> Pick {
        Pick {
            best: first,
            score: f64::NEG_INFINITY,
            ties: 0,
        }
    }

    /// Considers child `index` with `score`; NaN counts as −∞.
    ///
    /// The kept score is never NaN, so a NaN `score` can only tie a kept −∞ and never beat
    /// it: the comparisons below give the choices and the draws of comparing `score` with NaN
    /// replaced by −∞, without replacing it first for every child (the common cases, greater
    /// and equal, come first).
    #[inline(always)]
    fn offer(&mut self, index: u32, score: f64, rng: &mut XorShiftRng) {
        let tie = if score > self.score {
            false
        } else if score == self.score {
            self.ties != 0
        } else if self.ties != 0 {
            if !(score.is_nan() && self.score == f64::NEG_INFINITY) {
                return;
            }
            true
        } else {
            false
        };
        if tie {
            self.ties += 1;
            if random_below(rng, self.ties) == 0 {
                self.best = index;
            }
        } else {
            self.best = index;
            self.score = if score.is_nan() {
                f64::NEG_INFINITY
            } else {
                score
            };
            self.ties = 1;
        }
    }
}
