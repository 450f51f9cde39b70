//! Accuracy and log-loss of a model on a set of decisions.
use crate::holdem::model::most_likely;
use crate::holdem::policy::{ActionModel, ClassProbabilities};
use crate::holdem::rules::HandState;

use super::dataset::{Dataset, Decision};

/// The smallest probability the log-loss takes, so that one impossible-looking action
/// costs ln(10⁷) ≈ 16 nats instead of infinity.
pub const PROBABILITY_FLOOR: f32 = 1e-7;

/// A model's score on a set of decisions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    pub decisions: usize,
    pub correct: usize,
    /// Summed −ln p(class played), in nats.
    pub loss: f64,
}

impl Score {
    pub fn add(&mut self, probabilities: &ClassProbabilities, played: usize) {
        self.decisions += 1;
        if most_likely(probabilities).index() == played {
            self.correct += 1;
        }
        let p = probabilities[played].max(PROBABILITY_FLOOR);
        self.loss -= f64::from(p.ln());
    }

    pub fn accuracy(&self) -> f64 {
        self.correct as f64 / self.decisions.max(1) as f64
    }

    pub fn log_loss(&self) -> f64 {
        self.loss / self.decisions.max(1) as f64
    }
}

/// `model` on `decisions`.
pub fn score(model: &dyn ActionModel, data: &Dataset, decisions: &[Decision]) -> Score {
    score_with(data, decisions, |hand| model.predict(hand))
}

/// A prediction function on `decisions`.
pub fn score_with(
    data: &Dataset,
    decisions: &[Decision],
    mut predict: impl FnMut(&HandState) -> ClassProbabilities,
) -> Score {
    let mut total = Score::default();
    for decision in decisions {
        let before = data.before(decision);
        total.add(&predict(&before), decision.class.index());
    }
    total
}
