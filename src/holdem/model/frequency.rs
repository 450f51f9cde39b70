//! Counting models: the class frequencies of a population, overall ([`MarginalModel`]) and
//! by betting sequence ([`FrequencyModel`]).
use super::history::for_each_step;
use super::{legal_classes, normalise_legal};
use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::HandState;

/// The class frequencies of the training decisions, whatever the situation (masked to the
/// legal classes): the majority-class baseline with probabilities, so that its log-loss is
/// finite.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginalModel {
    pub counts: [f32; ACTION_CLASSES],
}

impl MarginalModel {
    /// No observations: uniform.
    pub const fn new() -> MarginalModel {
        MarginalModel {
            counts: [0.0; ACTION_CLASSES],
        }
    }

    /// Counts one decision.
    pub fn observe(&mut self, class: ActionClass) {
        self.counts[class.index()] += 1.0;
    }
}

impl Default for MarginalModel {
    fn default() -> Self {
        MarginalModel::new()
    }
}

impl ActionModel for MarginalModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        normalise_legal(self.counts.map(|c| c + 1.0), legal_classes(hand))
    }
}

/// How many of the round's last classes the longest context holds.
pub const ORDER: usize = 3;
/// Symbols of a context: the five classes and "start of the round".
const SYMBOLS: usize = ACTION_CLASSES + 1;
const START: usize = ACTION_CLASSES;
/// Contexts of each order 0..=ORDER: 4 streets × 6^order.
const CONTEXTS: [usize; ORDER + 1] = [4, 4 * 6, 4 * 36, 4 * 216];
/// Where each order's contexts begin in the table.
const OFFSETS: [usize; ORDER + 1] = [0, 4, 4 + 24, 4 + 24 + 144];
/// Rows of the table.
pub const FREQUENCY_CONTEXTS: usize = OFFSETS[ORDER] + CONTEXTS[ORDER];

/// An n-gram model of the betting: class counts keyed by the street and the last
/// [`ORDER`] classes of the round (padded with "start of round"), interpolated with the
/// shorter contexts: p_n = (counts_n + BACKOFF · p_(n−1)) / (total_n + BACKOFF), from the
/// street's counts down to the uniform distribution. It ignores the cards: the baseline
/// for the CNN, and a cheap prior for [`super::OnlineModel`].
#[derive(Clone, Debug, PartialEq)]
pub struct FrequencyModel {
    /// Counts by context row (see [`FrequencyModel::contexts`]) and class.
    pub counts: [[f32; ACTION_CLASSES]; FREQUENCY_CONTEXTS],
}

impl FrequencyModel {
    /// Pseudo-count of the shorter context's distribution in each interpolation.
    pub const BACKOFF: f32 = 2.0;

    /// No observations.
    pub const fn new() -> FrequencyModel {
        FrequencyModel {
            counts: [[0.0; ACTION_CLASSES]; FREQUENCY_CONTEXTS],
        }
    }

    /// The table rows of the player to act's situation in `hand`, shortest context first.
    pub fn contexts(hand: &HandState) -> [usize; ORDER + 1] {
        let street = hand.street();
        let mut last = [START; ORDER];
        for_each_step(hand, |step| {
            if step.street == street {
                last.rotate_left(1);
                last[ORDER - 1] = step.class.index();
            }
        });
        let mut rows = [0; ORDER + 1];
        for (order, row) in rows.iter_mut().enumerate() {
            let mut key = street.index();
            for &symbol in &last[ORDER - order..] {
                key = key * SYMBOLS + symbol;
            }
            *row = OFFSETS[order] + key;
        }
        rows
    }

    /// Counts the player to act in `hand` playing `class`.
    pub fn observe(&mut self, hand: &HandState, class: ActionClass) {
        if hand.to_act().is_none() {
            return;
        }
        for row in FrequencyModel::contexts(hand) {
            self.counts[row][class.index()] += 1.0;
        }
    }
}

impl Default for FrequencyModel {
    fn default() -> Self {
        FrequencyModel::new()
    }
}

impl ActionModel for FrequencyModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let legal = legal_classes(hand);
        let mut p = super::uniform_legal(legal);
        for row in FrequencyModel::contexts(hand) {
            let counts = &self.counts[row];
            let mut total = 0.0;
            for (&count, &ok) in counts.iter().zip(&legal) {
                if ok {
                    total += count;
                }
            }
            for ((q, &count), &ok) in p.iter_mut().zip(counts).zip(&legal) {
                *q = if ok {
                    (count + Self::BACKOFF * *q) / (total + Self::BACKOFF)
                } else {
                    0.0
                };
            }
        }
        normalise_legal(p, legal)
    }
}
