//! Exact best responses and exploitability for games small enough to walk in full (Kuhn,
//! Leduc), in caller storage: a table of the best responder's information sets with one
//! counterfactual value per action.
//!
//! The best action at an information set depends on the best actions below it. With perfect
//! recall every history of an information set has the same number of earlier actions by its
//! player (its depth), so the walk decides the deepest sets first: pass `k` adds up, at every
//! set of depth `k`, the counterfactual value of each action (opponent and chance reach times
//! the value below, where the deeper sets already play their best action); sets of depth `k`
//! then play their best action in the passes above. One last pass values the root.
use super::solver::{chance_probability, chance_total};
use super::table::InfoTable;
use super::{CfrError, MAX_ACTIONS, MAX_DEPTH, Strategy, utility};
use crate::search::game::{Hidden, Turn};

/// How far a profile is from equilibrium, in the solver's utility units (player 0's return
/// minus player 1's, see [`utility`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploitability {
    /// The profile's value for player 0.
    pub value: f64,
    /// What a best response gets against the profile: as player 0, as player 1.
    pub best_response: [f64; 2],
    /// The sum of the two best-response gains (NashConv); 0 at an equilibrium.
    pub nash_conv: f64,
    /// NashConv / 2: what a best responder gains on average over the two seats (OpenSpiel's
    /// `exploitability`).
    pub exploitability: f64,
}

/// Which p-node decisions a walk makes.
#[derive(Clone, Copy)]
enum Pass {
    /// Explore every action of the responder everywhere, to find the deepest set.
    Measure,
    /// Sum action values at the responder's sets of this depth, explore all actions above,
    /// play the best action below.
    Depth(usize),
    /// Play the best action everywhere, and return the value.
    Value,
}

/// The best-response calculator and its table: `actions + 1` values per information set of
/// the responder (one counterfactual value per action, then the chosen action plus one, 0
/// while undecided).
pub struct BestResponse<'a> {
    table: InfoTable<'a>,
    actions: usize,
    deepest: usize,
}

impl<'a> BestResponse<'a> {
    /// Values needed for `infosets` information sets of at most `actions` actions; `None` on
    /// overflow.
    pub fn values_len(infosets: usize, actions: usize) -> Option<usize> {
        infosets.checked_mul(actions.checked_add(1)?)
    }

    /// A calculator over `keys` (one per information set of one player) and `values`
    /// ([`BestResponse::values_len`] of it).
    pub fn new(
        keys: &'a mut [u64],
        values: &'a mut [f64],
        actions: usize,
    ) -> Result<Self, CfrError> {
        if actions == 0 || actions > MAX_ACTIONS {
            return Err(CfrError::TooManyActions {
                found: actions,
                limit: MAX_ACTIONS,
            });
        }
        Ok(BestResponse {
            table: InfoTable::new(keys, values, actions + 1)?,
            actions,
            deepest: 0,
        })
    }

    /// The value for `responder` of a best response from `root` to `profile`'s strategy of
    /// the other player.
    pub fn value<G: Hidden>(
        &mut self,
        root: &G,
        responder: u8,
        profile: &impl Strategy<G>,
    ) -> Result<f64, CfrError> {
        self.clear();
        self.deepest = 0;
        self.walk(root, responder, profile, Pass::Measure, 1.0, 0, 0)?;
        for depth in (0..=self.deepest).rev() {
            self.walk(root, responder, profile, Pass::Depth(depth), 1.0, 0, 0)?;
        }
        self.walk(root, responder, profile, Pass::Value, 1.0, 0, 0)
    }

    fn clear(&mut self) {
        self.table.clear();
    }

    /// One pass; returns the responder's value where the pass computes one (0 elsewhere).
    /// `reach` is the opponent's and chance's probability of reaching `state`, `own_depth` the
    /// responder's actions so far.
    #[allow(clippy::too_many_arguments)]
    fn walk<G: Hidden>(
        &mut self,
        state: &G,
        responder: u8,
        profile: &impl Strategy<G>,
        pass: Pass,
        reach: f64,
        own_depth: usize,
        plies: usize,
    ) -> Result<f64, CfrError> {
        if plies > MAX_DEPTH {
            return Err(CfrError::TooDeep { limit: MAX_DEPTH });
        }
        let mut moves = G::Moves::default();
        state.legal_moves(&mut moves);
        let player = match state.turn() {
            Turn::Over => return Ok(utility(state, responder)),
            Turn::Chance => {
                let total = chance_total(state, &moves);
                let mut value = 0.0;
                for &mv in moves.iter() {
                    let p = chance_probability(state, mv, total, moves.len());
                    if p > 0.0 {
                        let mut child = state.clone();
                        child.play(mv);
                        value += p * self.walk(
                            &child,
                            responder,
                            profile,
                            pass,
                            reach * p,
                            own_depth,
                            plies + 1,
                        )?;
                    }
                }
                return Ok(value);
            }
            Turn::Player(player) => player,
        };
        let n = moves.len();
        if n == 0 {
            return Ok(utility(state, responder));
        }
        if n > self.actions {
            return Err(CfrError::TooManyActions {
                found: n,
                limit: self.actions,
            });
        }
        if player != responder {
            let mut odds = [0.0; MAX_ACTIONS];
            profile.probabilities(state, player, n, &mut odds)?;
            let mut value = 0.0;
            for (&mv, &p) in moves.iter().zip(&odds[..n]) {
                if p > 0.0 {
                    let mut child = state.clone();
                    child.play(mv);
                    value += p * self.walk(
                        &child,
                        responder,
                        profile,
                        pass,
                        reach * p,
                        own_depth,
                        plies + 1,
                    )?;
                }
            }
            return Ok(value);
        }
        let deeper = own_depth + 1;
        let below = |this: &mut Self, mv: G::Move, pass: Pass| {
            let mut child = state.clone();
            child.play(mv);
            this.walk(&child, responder, profile, pass, reach, deeper, plies + 1)
        };
        match pass {
            Pass::Measure => {
                self.deepest = self.deepest.max(own_depth);
                for &mv in moves.iter() {
                    below(self, mv, pass)?;
                }
                Ok(0.0)
            }
            Pass::Depth(depth) if own_depth < depth => {
                if reach > 0.0 {
                    for &mv in moves.iter() {
                        below(self, mv, pass)?;
                    }
                }
                Ok(0.0)
            }
            Pass::Depth(depth) if own_depth == depth => {
                if reach > 0.0 {
                    let key = InfoTable::slot_key(state.info_key(player), player);
                    let slot = self.table.find_or_insert(key)?;
                    for (i, &mv) in moves.iter().enumerate() {
                        let value = below(self, mv, pass)?;
                        self.table.row_mut(slot)[i] += reach * value;
                    }
                }
                Ok(0.0)
            }
            Pass::Depth(_) | Pass::Value => {
                if reach == 0.0 {
                    return Ok(0.0);
                }
                let best = self.best_action(state, player, n);
                below(self, moves[best], pass)
            }
        }
    }

    /// The responder's chosen action at its set in `state` (deciding it from the summed
    /// values on first use); action 0 for a set no pass reached.
    fn best_action<G: Hidden>(&mut self, state: &G, player: u8, n: usize) -> usize {
        let key = InfoTable::slot_key(state.info_key(player), player);
        let Some(slot) = self.table.find(key) else {
            return 0;
        };
        let actions = self.actions;
        let row = self.table.row_mut(slot);
        if row[actions] == 0.0 {
            let mut best = 0;
            for i in 1..n {
                if row[i] > row[best] {
                    best = i;
                }
            }
            row[actions] = (best + 1) as f64;
        }
        (row[actions] as usize).saturating_sub(1).min(n - 1)
    }
}

/// The value for player 0 of both players following `profile` from `root`.
pub fn expected_value<G: Hidden>(root: &G, profile: &impl Strategy<G>) -> Result<f64, CfrError> {
    value_walk(root, profile, 0)
}

fn value_walk<G: Hidden>(
    state: &G,
    profile: &impl Strategy<G>,
    plies: usize,
) -> Result<f64, CfrError> {
    if plies > MAX_DEPTH {
        return Err(CfrError::TooDeep { limit: MAX_DEPTH });
    }
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    let n = moves.len();
    let mut odds = [0.0; MAX_ACTIONS];
    match state.turn() {
        Turn::Over => return Ok(utility(state, 0)),
        _ if n == 0 => return Ok(utility(state, 0)),
        Turn::Chance => {
            let total = chance_total(state, &moves);
            let mut value = 0.0;
            for &mv in moves.iter() {
                let p = chance_probability(state, mv, total, n);
                let mut child = state.clone();
                child.play(mv);
                value += p * value_walk(&child, profile, plies + 1)?;
            }
            return Ok(value);
        }
        Turn::Player(player) => {
            if n > MAX_ACTIONS {
                return Err(CfrError::TooManyActions {
                    found: n,
                    limit: MAX_ACTIONS,
                });
            }
            profile.probabilities(state, player, n, &mut odds)?;
        }
    }
    let mut value = 0.0;
    for (&mv, &p) in moves.iter().zip(&odds[..n]) {
        if p > 0.0 {
            let mut child = state.clone();
            child.play(mv);
            value += p * value_walk(&child, profile, plies + 1)?;
        }
    }
    Ok(value)
}

/// The exploitability of `profile` (both players' strategies) from `root`, with `storage` for
/// the best responses.
pub fn exploitability<G: Hidden>(
    root: &G,
    profile: &impl Strategy<G>,
    storage: &mut BestResponse<'_>,
) -> Result<Exploitability, CfrError> {
    let value = expected_value(root, profile)?;
    let best_response = [
        storage.value(root, 0, profile)?,
        storage.value(root, 1, profile)?,
    ];
    // Zero-sum: the two best responses gain over the profile's values, +value and -value.
    let nash_conv = best_response[0] + best_response[1];
    Ok(Exploitability {
        value,
        best_response,
        nash_conv,
        exploitability: nash_conv / 2.0,
    })
}
