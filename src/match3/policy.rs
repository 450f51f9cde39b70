//! Persona selection: a formula over the paper's persona variables (section IV.C) as an MCTS
//! selection policy. The variables are Match-3's own, so the policy lives here, on the search's
//! generic [`Policy`] interface.
use super::agent::Searched;
use crate::search::mcts::{ChildStats, Needs, Node, Policy};

/// A selection formula over the Match-3 persona variables: child wins W, child visits N,
/// parent visits NP and the child's number of legal moves M. Any
/// `Fn(f64, f64, f64, f64) -> f64` is one; an evolved bytecode program implements it directly.
pub trait Formula {
    /// The score of a visited child.
    fn eval(&self, wins: f64, visits: f64, parent_visits: f64, feature: f64) -> f64;

    /// `out[i]` = `eval` of lane `i` of `vars` (the lanes of wins, visits, parent visits
    /// and feature, in that order) for `i < len`, bit for bit; lanes from `len` on are
    /// ignored and their outputs unspecified. Selection fills the lanes straight from the
    /// nodes; a formula whose per-call cost is mostly overhead (an interpreted program)
    /// overrides this to pay it once per batch.
    fn eval_lanes(
        &self,
        vars: &[[f64; FORMULA_LANES]; 4],
        len: usize,
        out: &mut [f64; FORMULA_LANES],
    ) {
        for (lane, o) in out.iter_mut().enumerate().take(len) {
            *o = self.eval(vars[0][lane], vars[1][lane], vars[2][lane], vars[3][lane]);
        }
    }

    /// `out[i]` = `eval` of `vars[i]` = [wins, visits, parent visits, feature], bit for bit,
    /// by batches of [`Formula::eval_lanes`].
    fn eval_all(&self, vars: &[[f64; 4]], out: &mut [f64]) {
        for (rows, out) in vars
            .chunks(FORMULA_LANES)
            .zip(out.chunks_mut(FORMULA_LANES))
        {
            let mut lanes = [[0.0; FORMULA_LANES]; 4];
            for (lane, row) in rows.iter().enumerate() {
                for (variable, &value) in lanes.iter_mut().zip(row) {
                    variable[lane] = value;
                }
            }
            let mut values = [0.0; FORMULA_LANES];
            self.eval_lanes(&lanes, rows.len(), &mut values);
            for (o, &value) in out.iter_mut().zip(&values) {
                *o = value;
            }
        }
    }
}

/// Children a [`Formula`] scores side by side in one [`Formula::eval_lanes`] call.
pub const FORMULA_LANES: usize = 8;

impl<F: Fn(f64, f64, f64, f64) -> f64> Formula for F {
    fn eval(&self, wins: f64, visits: f64, parent_visits: f64, feature: f64) -> f64 {
        self(wins, visits, parent_visits, feature)
    }
}

/// Selection by a [`Formula`] in place of UCB1. Unvisited children come first (score +∞, as
/// under UCB1), so a formula never sees zero visits and never divides by them. The feature M
/// of a child is its number of legal moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulaPolicy<F>(pub F);

impl<F: Formula> Policy<Searched<'_>> for FormulaPolicy<F> {
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
        self.0.eval(
            child.wins,
            f64::from(child.visits),
            f64::from(child.parent_visits),
            child.feature,
        )
    }

    /// Unvisited children +∞ without the formula; visited ones written straight from the
    /// nodes into the formula's lanes, a full set of lanes at a time (each result bit for bit
    /// the formula's `eval`).
    fn score_children(
        &self,
        parent: &Node<super::Swap>,
        children: &[Node<super::Swap>],
        scores: &mut [f64],
    ) {
        let mut lanes = [[0.0f64; FORMULA_LANES]; 4];
        lanes[2] = [f64::from(parent.visits()); FORMULA_LANES];
        let mut slots = [0usize; FORMULA_LANES];
        let mut values = [0.0f64; FORMULA_LANES];
        scores.fill(f64::INFINITY);
        let mut n = 0;
        for (slot, child) in children.iter().enumerate() {
            // Every child is written to the next lane, which only a visited child keeps: no
            // branch to mispredict on the mix of visited and unvisited children.
            lanes[0][n] = f64::from(child.wins());
            lanes[1][n] = f64::from(child.visits());
            lanes[3][n] = f64::from(child.feature());
            slots[n] = slot;
            n += usize::from(child.visits() != 0);
            if n == FORMULA_LANES {
                self.0.eval_lanes(&lanes, n, &mut values);
                scatter(&slots[..n], &values, scores);
                n = 0;
            }
        }
        if n > 0 {
            self.0.eval_lanes(&lanes, n, &mut values);
            scatter(&slots[..n], &values, scores);
        }
    }

    /// M: the number of legal moves in the child's state.
    fn observe(&self, state: &Searched<'_>) -> f32 {
        state.legal_count() as f32
    }
}

/// `scores[slots[i]] = values[i]`.
fn scatter(slots: &[usize], values: &[f64], scores: &mut [f64]) {
    for (&slot, &value) in slots.iter().zip(values) {
        if let Some(score) = scores.get_mut(slot) {
            *score = value;
        }
    }
}
