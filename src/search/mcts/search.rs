//! The search loop: selection, expansion, simulation, backpropagation, and the final choice.
use rand_xorshift::XorShiftRng;

use super::config::{Config, FinalMove, PlayoutPolicy, SearchResult, Stats};
use super::game::{Game, random_index};
use super::node::{Node, Proof};
use super::playout::{Trace, playout, rewards};
use super::policy::{ChildStats, FORMULA_LANES, Formula, Needs, Policy};
use super::states::{CachedState, StateCache};
use super::tree::Mcts;
use crate::Error;

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Runs `iterations` MCTS iterations from `state` and returns the move to play.
    ///
    /// If the tree already holds a root (after [`Mcts::advance`] or a previous search), the
    /// search continues it, provided its root children are exactly `state`'s legal moves and
    /// the positions' keys ([`Game::position_key`]) do not differ; otherwise it starts afresh. All randomness comes from `rng`, so the same tree, state,
    /// settings and generator give the same result.
    ///
    /// The move is `None` only if `state` is terminal or has no legal move (the tree is then
    /// cleared). With zero
    /// iterations, or storage too small to expand the root, it is still a legal move: the
    /// tree's choice if the root has children, else the playout policy's pick.
    ///
    /// Fails only with `Error::CapacityExhausted` when the storage cannot hold even the root.
    pub fn search<G, P>(
        &mut self,
        state: &G,
        policy: &P,
        config: &Config,
        iterations: u32,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy + ?Sized,
    {
        self.search_with_states(state, policy, config, iterations, rng, &mut [])
    }

    /// [`Mcts::search`], keeping in `states` the state reached at each tree node it plays
    /// into, if the game [replays exactly](Game::replays_exactly): an iteration then starts
    /// from the state of the deepest kept node on its path and plays only the moves below it.
    /// The result is the same as `search`'s, bit for bit; only the time differs. On a fresh
    /// tree an iteration keeps at most two new states (the leaf it expands and the child it
    /// plays out from) and at most three quarters of the slots are used, so three slots per
    /// iteration keep every state (a reused tree's nodes are kept too, as they are first
    /// replayed); fewer keep the first ones, and an empty slice keeps none.
    pub fn search_with_states<G, P>(
        &mut self,
        state: &G,
        policy: &P,
        config: &Config,
        iterations: u32,
        rng: &mut XorShiftRng,
        states: &mut [CachedState<G>],
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M>,
        P: Policy + ?Sized,
    {
        if self.capacity() == 0 {
            return Err(Error::CapacityExhausted);
        }
        let list = state.legal_moves();
        let moves = list.as_ref();
        if state.is_terminal() || moves.is_empty() {
            self.clear();
            let stats = Stats::default();
            return Ok(SearchResult { best: None, stats });
        }
        self.prepare_root(state.side_to_move(), moves, state.position_key());

        let needs = policy.needs();
        let mut stats = Stats::default();
        let mut trace = Trace::new();
        let states: &mut [CachedState<G>] = if state.replays_exactly() {
            states
        } else {
            &mut []
        };
        let mut cache = StateCache::new(states);
        while stats.iterations < iterations {
            if config.solver && self.nodes[0].proof() != Proof::Unknown {
                break;
            }
            let scratch = Scratch {
                trace: &mut trace,
                cache: &mut cache,
            };
            self.iterate(state, policy, config, needs, rng, scratch, &mut stats);
            stats.iterations += 1;
        }
        stats.nodes_used = self.len;
        stats.root_proof = self.root_proof();

        let best = match self.best_move(policy, config) {
            Some(mv) => mv,
            None => {
                let pick = match config.playout {
                    PlayoutPolicy::Game => state.playout_move(moves, rng),
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
    fn prepare_root(&mut self, side: u8, moves: &[M], key: Option<u64>) {
        let known_other = matches!((self.root_key, key), (Some(old), Some(new)) if old != new);
        self.root_key = key;
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
    fn iterate<G, P>(
        &mut self,
        root_state: &G,
        policy: &P,
        config: &Config,
        needs: Needs,
        rng: &mut XorShiftRng,
        scratch: Scratch<'_, '_, G>,
        stats: &mut Stats,
    ) where
        G: Game<Move = M>,
        P: Policy + ?Sized,
    {
        let Scratch { trace, cache } = scratch;
        let mut state = root_state.clone();
        state.begin_iteration(rng);
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
                    self.backup(index, depth, &rewards, trace, needs.amaf, false);
                    return;
                }
            }
            if node.child_count == 0 {
                break;
            }
            index = self.select(index, policy, config.solver, rng);
            self.step(&mut state, &mut pending, cache, index, trace, needs);
            depth += 1;
        }
        cache.restore(&mut state, &mut pending);

        // Expansion: all children at once, then one of them is chosen by the policy.
        let node = self.nodes[index as usize];
        let ready = index == 0 || node.visits >= config.expand_threshold;
        if !node.is_expanded() && ready && !state.is_terminal() {
            let list = state.legal_moves();
            let moves = list.as_ref();
            if !moves.is_empty() {
                if self.expand(index, &state, moves, needs) {
                    index = self.select(index, policy, config.solver, rng);
                    self.step(&mut state, &mut pending, cache, index, trace, needs);
                    depth += 1;
                } else {
                    stats.storage_full = true;
                }
            }
        }
        stats.max_depth = stats.max_depth.max(depth);

        // Simulation, then backpropagation.
        let end = playout(&mut state, config, rng, trace);
        let rewards = rewards(&state, end);
        let mut proven = false;
        if end.terminal && end.steps == 0 {
            // The leaf itself is terminal: remember it, so it is never expanded.
            let leaf = &mut self.nodes[index as usize];
            if !leaf.is_expanded() {
                leaf.set_expanded(0, 0);
            }
            proven = config.solver && self.prove_terminal(index, &rewards);
        }
        self.backup(index, depth, &rewards, trace, needs.amaf, proven);
    }

    /// Plays the move of node `index` on `state` and records it; on the node's first visit,
    /// reads the game's feature of the state reached, if the policy needs it. If the state
    /// of `index` is kept in `cache`, nothing is played: `pending` remembers it instead;
    /// otherwise the state reached is kept.
    fn step<G: Game<Move = M>>(
        &mut self,
        state: &mut G,
        pending: &mut Option<usize>,
        cache: &mut StateCache<'_, G>,
        index: u32,
        trace: &mut Trace<M>,
        needs: Needs,
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
            node.feature = state.feature();
        }
        let _ = trace.push(super::playout::Ply {
            mv: node.mv,
            player: node.mover,
        });
    }

    /// The child of `parent` with the highest score, ties broken uniformly at random. With
    /// the solver, children proven lost for the chooser are skipped (all of them cannot be:
    /// the parent would then be proven and never descended).
    fn select<P: Policy + ?Sized>(
        &self,
        parent: u32,
        policy: &P,
        solver: bool,
        rng: &mut XorShiftRng,
    ) -> u32 {
        let node = &self.nodes[parent as usize];
        let mut pick = Pick::new(node.first_child);
        match policy.formula() {
            Some(formula) if !solver => self.offer_by_formula(node, formula, &mut pick, rng),
            _ => self.offer_by_policy(node, policy, solver, &mut pick, rng),
        }
        pick.best
    }

    /// Offers the children of `node` to `pick`, scored by `policy` in batches of
    /// `ChildStats`.
    fn offer_by_policy<P: Policy + ?Sized>(
        &self,
        node: &Node<M>,
        policy: &P,
        solver: bool,
        pick: &mut Pick,
        rng: &mut XorShiftRng,
    ) {
        let mut stats = [ChildStats::default(); STATS_BATCH];
        let mut indices = [0u32; STATS_BATCH];
        let mut scores = [0.0f64; STATS_BATCH];
        let mut children = node.children().filter(|&index| {
            // With the solver, children proven lost for the chooser are never chosen.
            !(solver && self.nodes[index as usize].proof() == Proof::Loss)
        });
        loop {
            let mut n = 0;
            for (slot, index) in indices.iter_mut().zip(children.by_ref()) {
                *slot = index;
                stats[n] = self.child_stats(node, &self.nodes[index as usize]);
                n += 1;
            }
            if n == 0 {
                break;
            }
            policy.score_all(&stats[..n], &mut scores[..n]);
            for (&index, &score) in indices[..n].iter().zip(&scores[..n]) {
                pick.offer(index, score, rng);
            }
        }
    }

    /// Offers the children of `node` to `pick`, scored as a formula policy scores them:
    /// unvisited children +∞ without the formula, visited ones written straight from the
    /// nodes into the formula's lanes, a full set of lanes at a time (each result bit for bit
    /// the formula's `eval`).
    fn offer_by_formula(
        &self,
        node: &Node<M>,
        formula: &dyn Formula,
        pick: &mut Pick,
        rng: &mut XorShiftRng,
    ) {
        let mut lanes = [[0.0f64; FORMULA_LANES]; 4];
        lanes[2] = [f64::from(node.visits); FORMULA_LANES];
        let mut slots = [0usize; FORMULA_LANES];
        let mut values = [0.0f64; FORMULA_LANES];
        let mut index = node.first_child;
        for chunk in self.nodes[node.children_usize()].chunks(SCORE_BATCH) {
            let mut scores = [f64::INFINITY; SCORE_BATCH];
            let mut n = 0;
            for (slot, child) in chunk.iter().enumerate() {
                // Every child is written to the next lane, which only a visited child keeps:
                // no branch to mispredict on the mix of visited and unvisited children.
                lanes[0][n] = f64::from(child.wins);
                lanes[1][n] = f64::from(child.visits);
                lanes[3][n] = f64::from(child.feature);
                slots[n] = slot;
                n += usize::from(child.visits != 0);
                if n == FORMULA_LANES {
                    formula.eval_lanes(&lanes, n, &mut values);
                    scatter(&slots[..n], &values, &mut scores);
                    n = 0;
                }
            }
            if n > 0 {
                formula.eval_lanes(&lanes, n, &mut values);
                scatter(&slots[..n], &values, &mut scores);
            }
            for &score in &scores[..chunk.len()] {
                pick.offer(index, score, rng);
                index += 1;
            }
        }
    }

    /// The move the tree recommends now, or `None` if the root has no children.
    ///
    /// With the solver on, a child proven won is played and children proven lost are
    /// avoided (unless every child is lost); among the rest `config.final_move` decides.
    pub fn best_move<P: Policy + ?Sized>(&self, policy: &P, config: &Config) -> Option<M> {
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
            let stats = self.child_stats(root, child);
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
        best.map(|(child, _)| child.mv)
    }
}

/// What one iteration works in, lent by the search: the plies it records and the states
/// kept so far.
struct Scratch<'a, 'c, G: Game> {
    trace: &'a mut Trace<G::Move>,
    cache: &'a mut StateCache<'c, G>,
}

/// Rewards of both players when the player `mover` is known to get exactly `value`.
fn exact_rewards(mover: u8, value: f32) -> [f32; 2] {
    if mover == 0 {
        [value, 1.0 - value]
    } else {
        [1.0 - value, value]
    }
}

/// Children whose `ChildStats` are built for one `Policy::score_all` call.
const STATS_BATCH: usize = 16;

/// Children a formula policy scores in one batch: their scores are kept until the last lanes
/// of visited children are evaluated, then offered in child order. Wide enough for a
/// Match-3 node's children (about 20) to fill full sets of lanes.
const SCORE_BATCH: usize = 32;

/// `scores[slots[i]] = values[i]`.
fn scatter(slots: &[usize], values: &[f64], scores: &mut [f64]) {
    for (&slot, &value) in slots.iter().zip(values) {
        if let Some(score) = scores.get_mut(slot) {
            *score = value;
        }
    }
}

/// The running choice of a selection: the best score so far, exact ties broken uniformly at
/// random by reservoir sampling (the k-th tied child replaces the pick with probability
/// 1/k), so the draws depend only on the scores in child order, not on how they were batched.
struct Pick {
    best: u32,
    score: f64,
    ties: usize,
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
    fn offer(&mut self, index: u32, score: f64, rng: &mut XorShiftRng) {
        let score = if score.is_nan() {
            f64::NEG_INFINITY
        } else {
            score
        };
        if self.ties == 0 || score > self.score {
            self.best = index;
            self.score = score;
            self.ties = 1;
        } else if score == self.score {
            self.ties += 1;
            if random_index(rng, self.ties) == 0 {
                self.best = index;
            }
        }
    }
}
