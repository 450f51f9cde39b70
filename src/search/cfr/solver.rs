//! The solver: CFR+ and discounted CFR by full traversals, and Monte-Carlo CFR with external
//! sampling, over any two-player zero-sum [`Hidden`] game, with its tables in caller storage.
use rand_xorshift::XorShiftRng;

use super::table::InfoTable;
use super::{CfrError, MAX_ACTIONS, MAX_DEPTH, Strategy, utility};
use crate::search::game::{Hidden, Turn, random_index, sample_outcome};

/// How the solver updates regrets and the average strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// CFR+ (Tammelin 2014): regret matching+, alternating updates, the average strategy
    /// weighted by the iteration number. Full traversals: exact small games.
    CfrPlus,
    /// Discounted CFR (Brown and Sandholm 2019) with α = 1.5, β = 0, γ = 2: positive regrets
    /// scaled by t^α/(t^α + 1), negative ones halved, the average strategy by (t/(t+1))^γ
    /// after each iteration. Full traversals.
    Dcfr,
    /// Monte-Carlo CFR with external sampling (Lanctot et al. 2009): the traverser's actions
    /// all explored, the opponent's and chance's sampled, plain regret matching. One sampled
    /// traversal per player per iteration: for games too large to walk in full.
    ExternalSampling,
    /// Monte-Carlo CFR with outcome sampling (Lanctot et al. 2009): one trajectory per player
    /// per iteration, the traverser exploring with probability [`OUTCOME_EXPLORATION`],
    /// values and regrets corrected by importance weights. Cheapest per iteration, noisiest.
    OutcomeSampling,
}

/// Outcome sampling's exploration: the traverser samples a uniform action this often.
pub const OUTCOME_EXPLORATION: f64 = 0.6;

impl Algorithm {
    /// The names the harness uses: `cfr+`, `dcfr`, `mccfr-es`, `mccfr-os`.
    pub const NAMES: [&'static str; 4] = ["cfr+", "dcfr", "mccfr-es", "mccfr-os"];

    /// The algorithm called `name` (one of [`Algorithm::NAMES`]).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "cfr+" => Some(Algorithm::CfrPlus),
            "dcfr" => Some(Algorithm::Dcfr),
            "mccfr-es" => Some(Algorithm::ExternalSampling),
            "mccfr-os" => Some(Algorithm::OutcomeSampling),
            _ => None,
        }
    }
}

/// DCFR's exponents.
const DCFR_ALPHA: f64 = 1.5;
const DCFR_GAMMA: f64 = 2.0;
/// DCFR's factor for negative regrets: t^β/(t^β + 1) with β = 0.
const DCFR_NEGATIVE: f64 = 0.5;

/// A counterfactual-regret solver whose information sets live in caller storage.
///
/// Each information set takes one slot: a key, and `3 × actions` values (cumulative regrets,
/// this iteration's regrets, the strategy sum). [`Cfr::values_len`] says how many values
/// a capacity needs; running out of slots is [`CfrError::TableFull`].
pub struct Cfr<'a> {
    table: InfoTable<'a>,
    actions: usize,
    algorithm: Algorithm,
    iterations: u64,
}

impl<'a> Cfr<'a> {
    /// Values (`f64`) needed for `infosets` information sets of up to `actions` actions, with
    /// one `u64` key each; `None` on overflow.
    pub fn values_len(infosets: usize, actions: usize) -> Option<usize> {
        infosets.checked_mul(actions)?.checked_mul(3)
    }

    /// Bytes of storage for `infosets` information sets of up to `actions` actions (keys and
    /// values); `None` on overflow.
    pub fn bytes(infosets: usize, actions: usize) -> Option<usize> {
        let values = Self::values_len(infosets, actions)?.checked_mul(8)?;
        values.checked_add(infosets.checked_mul(8)?)
    }

    /// A solver over `keys` (one per information set: the capacity) and `values`
    /// ([`Cfr::values_len`] of it), for information sets of at most `actions` actions
    /// (1..=[`MAX_ACTIONS`]). Clears the storage.
    pub fn new(
        keys: &'a mut [u64],
        values: &'a mut [f64],
        actions: usize,
        algorithm: Algorithm,
    ) -> Result<Self, CfrError> {
        if actions == 0 || actions > MAX_ACTIONS {
            return Err(CfrError::TooManyActions {
                found: actions,
                limit: MAX_ACTIONS,
            });
        }
        Ok(Cfr {
            table: InfoTable::new(keys, values, 3 * actions)?,
            actions,
            algorithm,
            iterations: 0,
        })
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Information sets in the table.
    pub fn infosets(&self) -> usize {
        self.table.used()
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The keys and values as stored, to compare two runs bit for bit.
    pub fn raw(&self) -> (&[u64], &[f64]) {
        self.table.raw()
    }

    /// Runs `iterations` iterations from `root` (each updates player 0, then player 1).
    /// `rng` is drawn from by external sampling only. On an error the iteration in progress
    /// is left half done; the tables stay usable for queries.
    pub fn iterate<G: Hidden>(
        &mut self,
        root: &G,
        iterations: u64,
        rng: &mut XorShiftRng,
    ) -> Result<(), CfrError> {
        for _ in 0..iterations {
            let t = self.iterations + 1;
            for player in 0..2u8 {
                match self.algorithm {
                    Algorithm::ExternalSampling => {
                        self.sampled_walk(root, player, 0, rng)?;
                    }
                    Algorithm::OutcomeSampling => {
                        let reach = Reach {
                            own: 1.0,
                            others: 1.0,
                            sample: 1.0,
                        };
                        self.outcome_walk(root, player, reach, 0, rng)?;
                    }
                    Algorithm::CfrPlus | Algorithm::Dcfr => {
                        // CFR+ weighs iteration t's strategy by t; DCFR adds it with weight
                        // 1 and discounts all the sums afterwards.
                        let weight = match self.algorithm {
                            Algorithm::CfrPlus => t as f64,
                            _ => 1.0,
                        };
                        self.full_walk(root, player, 1.0, 1.0, weight, 0)?;
                        self.apply_regrets(player, t);
                    }
                }
            }
            self.iterations = t;
        }
        Ok(())
    }

    /// The current strategy (regret matching on the positive regrets) of the first `n`
    /// actions of a row, into `out`.
    fn current(&self, slot: usize, n: usize, out: &mut [f64; MAX_ACTIONS]) {
        let regrets = &self.table.row(slot)[..n];
        normalised(regrets.iter().map(|&r| r.max(0.0)), n, out);
    }

    /// The slot of the information set of `player` to move in `state` with `n` actions.
    fn slot<G: Hidden>(&mut self, state: &G, player: u8, n: usize) -> Result<usize, CfrError> {
        if n > self.actions {
            return Err(CfrError::TooManyActions {
                found: n,
                limit: self.actions,
            });
        }
        self.table
            .find_or_insert(InfoTable::slot_key(state.info_key(player), player))
    }

    /// One CFR traversal for `traverser`, returning its expected utility at `state`;
    /// `reach_own` is the traverser's probability of playing to here, `reach_others` the
    /// opponent's times chance's. Regrets go to the pending row, applied after the walk, so
    /// every visit of an information set in one walk sees the same strategy.
    fn full_walk<G: Hidden>(
        &mut self,
        state: &G,
        traverser: u8,
        reach_own: f64,
        reach_others: f64,
        weight: f64,
        depth: usize,
    ) -> Result<f64, CfrError> {
        if depth > MAX_DEPTH {
            return Err(CfrError::TooDeep { limit: MAX_DEPTH });
        }
        let mut moves = G::Moves::default();
        let player = match state.turn() {
            Turn::Over => return Ok(utility(state, traverser)),
            Turn::Chance => {
                state.legal_moves(&mut moves);
                let total = chance_total(state, &moves);
                let mut value = 0.0;
                for &mv in moves.iter() {
                    let p = chance_probability(state, mv, total, moves.len());
                    let mut child = state.clone();
                    child.play(mv);
                    let others = reach_others * p;
                    value += p * self.full_walk(
                        &child,
                        traverser,
                        reach_own,
                        others,
                        weight,
                        depth + 1,
                    )?;
                }
                return Ok(value);
            }
            Turn::Player(player) => player,
        };
        state.legal_moves(&mut moves);
        let n = moves.len();
        if n == 0 {
            return Ok(utility(state, traverser));
        }
        let slot = self.slot(state, player, n)?;
        let mut sigma = [0.0; MAX_ACTIONS];
        self.current(slot, n, &mut sigma);
        let mut values = [0.0; MAX_ACTIONS];
        let mut value = 0.0;
        for (i, &mv) in moves.iter().enumerate() {
            let (own, others) = if player == traverser {
                (reach_own * sigma[i], reach_others)
            } else {
                (reach_own, reach_others * sigma[i])
            };
            // Nothing below a branch neither reach gets to can change a table.
            if own == 0.0 && others == 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.play(mv);
            values[i] = self.full_walk(&child, traverser, own, others, weight, depth + 1)?;
            value += sigma[i] * values[i];
        }
        if player == traverser {
            let actions = self.actions;
            let row = self.table.row_mut(slot);
            for i in 0..n {
                row[actions + i] += reach_others * (values[i] - value);
                row[2 * actions + i] += weight * reach_own * sigma[i];
            }
        }
        Ok(value)
    }

    /// After `player`'s walk of iteration `t`: adds the pending regrets of its information
    /// sets to their totals, with CFR+'s floor at 0 or DCFR's discounts.
    fn apply_regrets(&mut self, player: u8, t: u64) {
        let actions = self.actions;
        let t = t as f64;
        let positive = libm::pow(t, DCFR_ALPHA) / (libm::pow(t, DCFR_ALPHA) + 1.0);
        let average = libm::pow(t / (t + 1.0), DCFR_GAMMA);
        for slot in 0..self.table.capacity() {
            let key = self.table.key(slot);
            if !self.table.occupied(slot) || InfoTable::key_player(key) != player {
                continue;
            }
            let row = self.table.row_mut(slot);
            for i in 0..actions {
                let total = row[i] + row[actions + i];
                row[actions + i] = 0.0;
                row[i] = match self.algorithm {
                    Algorithm::Dcfr if total > 0.0 => total * positive,
                    Algorithm::Dcfr => total * DCFR_NEGATIVE,
                    _ => total.max(0.0),
                };
                if self.algorithm == Algorithm::Dcfr {
                    row[2 * actions + i] *= average;
                }
            }
        }
    }

    /// One external-sampling traversal for `traverser`: its own actions all explored, the
    /// opponent's and chance's drawn from `rng`. Regrets are added at once (plain regret
    /// matching); the opponent's strategy sums get its current strategy where it is sampled.
    fn sampled_walk<G: Hidden>(
        &mut self,
        state: &G,
        traverser: u8,
        depth: usize,
        rng: &mut XorShiftRng,
    ) -> Result<f64, CfrError> {
        if depth > MAX_DEPTH {
            return Err(CfrError::TooDeep { limit: MAX_DEPTH });
        }
        let mut moves = G::Moves::default();
        let player = match state.turn() {
            Turn::Over => return Ok(utility(state, traverser)),
            Turn::Chance => {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    return Ok(utility(state, traverser));
                }
                let mut child = state.clone();
                child.play(moves[sample_outcome(state, &moves, rng)]);
                return self.sampled_walk(&child, traverser, depth + 1, rng);
            }
            Turn::Player(player) => player,
        };
        state.legal_moves(&mut moves);
        let n = moves.len();
        if n == 0 {
            return Ok(utility(state, traverser));
        }
        let slot = self.slot(state, player, n)?;
        let mut sigma = [0.0; MAX_ACTIONS];
        self.current(slot, n, &mut sigma);
        let actions = self.actions;
        if player != traverser {
            let row = self.table.row_mut(slot);
            for i in 0..n {
                row[2 * actions + i] += sigma[i];
            }
            let pick = draw(&sigma[..n], rng);
            let mut child = state.clone();
            child.play(moves[pick]);
            return self.sampled_walk(&child, traverser, depth + 1, rng);
        }
        let mut values = [0.0; MAX_ACTIONS];
        let mut value = 0.0;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.play(mv);
            values[i] = self.sampled_walk(&child, traverser, depth + 1, rng)?;
            value += sigma[i] * values[i];
        }
        let row = self.table.row_mut(slot);
        for i in 0..n {
            row[i] += values[i] - value;
        }
        Ok(value)
    }

    /// One outcome-sampling trajectory for `traverser`; returns its sampled value at `state`
    /// divided by the probability of sampling the rest of the trajectory. Chance is drawn
    /// with its own odds, which cancel out of every ratio and so stay out of the reaches.
    fn outcome_walk<G: Hidden>(
        &mut self,
        state: &G,
        traverser: u8,
        reach: Reach,
        depth: usize,
        rng: &mut XorShiftRng,
    ) -> Result<f64, CfrError> {
        if depth > MAX_DEPTH {
            return Err(CfrError::TooDeep { limit: MAX_DEPTH });
        }
        let mut moves = G::Moves::default();
        state.legal_moves(&mut moves);
        let player = match state.turn() {
            Turn::Over => return Ok(utility(state, traverser)),
            _ if moves.is_empty() => return Ok(utility(state, traverser)),
            Turn::Chance => {
                let mut child = state.clone();
                child.play(moves[sample_outcome(state, &moves, rng)]);
                return self.outcome_walk(&child, traverser, reach, depth + 1, rng);
            }
            Turn::Player(player) => player,
        };
        let n = moves.len();
        let slot = self.slot(state, player, n)?;
        let mut sigma = [0.0; MAX_ACTIONS];
        self.current(slot, n, &mut sigma);
        let mut sampling = sigma;
        if player == traverser {
            for p in sampling.iter_mut().take(n) {
                *p = OUTCOME_EXPLORATION / n as f64 + (1.0 - OUTCOME_EXPLORATION) * *p;
            }
        }
        let pick = draw(&sampling[..n], rng);
        let next = if player == traverser {
            Reach {
                own: reach.own * sigma[pick],
                ..reach
            }
        } else {
            Reach {
                others: reach.others * sigma[pick],
                ..reach
            }
        };
        let next = Reach {
            sample: reach.sample * sampling[pick],
            ..next
        };
        let mut child = state.clone();
        child.play(moves[pick]);
        let below = self.outcome_walk(&child, traverser, next, depth + 1, rng)?;
        // The sampled action's value, importance-weighted; the others count 0.
        let sampled = below / sampling[pick];
        let value = sigma[pick] * sampled;
        let actions = self.actions;
        let row = self.table.row_mut(slot);
        if player == traverser {
            let scale = reach.others / reach.sample;
            for (i, regret) in row.iter_mut().take(n).enumerate() {
                let action = if i == pick { sampled } else { 0.0 };
                *regret += scale * (action - value);
            }
        } else {
            let scale = reach.others / reach.sample;
            for i in 0..n {
                row[2 * actions + i] += scale * sigma[i];
            }
        }
        Ok(value)
    }

    /// The average strategy at `player`'s information set `info_key` over its first `n`
    /// actions, into `out` (uniform for a set never updated). Errors when `n` is above the
    /// table's actions or `out` is shorter than `n`.
    pub fn average(
        &self,
        info_key: u64,
        player: u8,
        n: usize,
        out: &mut [f64],
    ) -> Result<(), CfrError> {
        if n > self.actions || n > out.len() {
            return Err(CfrError::TooManyActions {
                found: n,
                limit: self.actions.min(out.len()),
            });
        }
        let mut probabilities = [0.0; MAX_ACTIONS];
        match self.table.find(InfoTable::slot_key(info_key, player)) {
            Some(slot) => {
                let sums = &self.table.row(slot)[2 * self.actions..2 * self.actions + n];
                normalised(sums.iter().copied(), n, &mut probabilities);
            }
            None => normalised(core::iter::repeat_n(0.0, n), n, &mut probabilities),
        }
        out[..n].copy_from_slice(&probabilities[..n]);
        Ok(())
    }
}

impl<G: Hidden> Strategy<G> for Cfr<'_> {
    /// The average strategy, the one that converges to equilibrium.
    fn probabilities(
        &self,
        state: &G,
        player: u8,
        n: usize,
        out: &mut [f64],
    ) -> Result<(), CfrError> {
        self.average(state.info_key(player), player, n, out)
    }
}

/// The reaches an outcome-sampling walk carries: the traverser's, the opponent's, and the
/// probability of having sampled the trajectory so far.
#[derive(Clone, Copy)]
struct Reach {
    own: f64,
    others: f64,
    sample: f64,
}

/// `weights` (non-negative) divided by their sum into `out[..n]`; uniform when they sum to 0.
pub(crate) fn normalised(
    weights: impl Iterator<Item = f64> + Clone,
    n: usize,
    out: &mut [f64; MAX_ACTIONS],
) {
    let total: f64 = weights.clone().sum();
    if total > 0.0 && total.is_finite() {
        for (slot, w) in out.iter_mut().zip(weights).take(n) {
            *slot = w / total;
        }
    } else {
        for slot in out.iter_mut().take(n) {
            *slot = 1.0 / n as f64;
        }
    }
}

/// The sum of the weights of a chance turn's `outcomes` (negative and non-finite ones count
/// as 0), for [`chance_probability`].
pub(crate) fn chance_total<G: Hidden>(state: &G, outcomes: &[G::Move]) -> f64 {
    outcomes.iter().map(|&mv| chance_weight(state, mv)).sum()
}

fn chance_weight<G: Hidden>(state: &G, outcome: G::Move) -> f64 {
    let w = f64::from(state.outcome_weight(outcome));
    if w > 0.0 && w.is_finite() { w } else { 0.0 }
}

/// The probability of `outcome`, one of `n` outcomes whose weights sum to `total`; uniform
/// when the weights make no distribution.
pub(crate) fn chance_probability<G: Hidden>(
    state: &G,
    outcome: G::Move,
    total: f64,
    n: usize,
) -> f64 {
    if total > 0.0 && total.is_finite() {
        chance_weight(state, outcome) / total
    } else {
        1.0 / n.max(1) as f64
    }
}

/// An index drawn from the probabilities `odds` (summing to 1), one draw from `rng`.
fn draw(odds: &[f64], rng: &mut XorShiftRng) -> usize {
    // A point in [0, 1) to 2^-32 precision, then the probability whose share holds it.
    let mut point = random_index(rng, 1 << 31) as f64 / (1u64 << 31) as f64;
    for (i, &p) in odds.iter().enumerate() {
        point -= p;
        if point < 0.0 {
            return i;
        }
    }
    odds.len().saturating_sub(1)
}
