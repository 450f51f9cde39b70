//! Opponent models for heads-up no-limit: what class of action ([`ActionClass`]) the player
//! to act will take, given that player's hole cards, the board and the betting so far.
//!
//! - [`MarginalModel`]: the class frequencies of a training set, the "majority class"
//!   baseline (its most likely legal class is the majority class).
//! - [`FrequencyModel`]: counts keyed by street and the last classes of the round, with
//!   backoff; trained by counting, allocation-free.
//! - [`CnnModel`]: the paper's kind of small CNN on 20×20 planes ([`features`]), trained in
//!   the harness (`arbor holdem train-model`), shipped as a const table ([`weights`]).
//! - [`OnlineModel`]: any other model calibrated, situation by situation, to the action
//!   frequencies of the opponent it watches during a match, keeping that model's reading
//!   of the cards.
//!
//! All implement [`ActionModel`] and give 0 to the impossible classes (no fold when there
//! is nothing to call, no raise when none is legal). Everything here is `no_std` and fixed
//! size.
pub mod cnn;
pub mod features;
pub mod frequency;
pub mod history;
pub mod online;
pub mod range_update;
pub mod weights;

pub use cnn::{CachingCnn, CnnModel, CnnWeights, Prepared, WEIGHT_BYTES};
pub use frequency::{FrequencyModel, MarginalModel};
pub use online::OnlineModel;
pub use range_update::observe_with_cnn;

use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ClassProbabilities};
use crate::holdem::rules::HandState;

/// Which classes the player to act in `hand` can play: call always, fold only facing a bet,
/// the raises only when a raise is legal. All false when nobody is to act.
pub fn legal_classes(hand: &HandState) -> [bool; ACTION_CLASSES] {
    if hand.to_act().is_none() {
        return [false; ACTION_CLASSES];
    }
    let raise = hand.raise_bounds().is_some();
    [hand.can_fold(), true, raise, raise, raise]
}

/// The uniform distribution over the legal classes.
pub fn uniform_legal(legal: [bool; ACTION_CLASSES]) -> ClassProbabilities {
    normalise_legal([1.0; ACTION_CLASSES], legal)
}

/// `weights` with the illegal classes zeroed, scaled to sum to 1; uniform over the legal
/// classes when the legal weights sum to nothing (or are not finite).
pub fn normalise_legal(
    mut weights: [f32; ACTION_CLASSES],
    legal: [bool; ACTION_CLASSES],
) -> ClassProbabilities {
    let mut total = 0.0;
    for (weight, &ok) in weights.iter_mut().zip(&legal) {
        if !ok || !weight.is_finite() || *weight < 0.0 {
            *weight = 0.0;
        }
        total += *weight;
    }
    if total <= 0.0 || !total.is_finite() {
        let count = legal.iter().filter(|&&ok| ok).count();
        if count == 0 {
            return [0.0; ACTION_CLASSES];
        }
        let share = 1.0 / count as f32;
        return legal.map(|ok| if ok { share } else { 0.0 });
    }
    weights.map(|weight| weight / total)
}

/// The softmax of `logits` over the legal classes (0 for the others).
pub fn softmax_legal(
    logits: [f32; ACTION_CLASSES],
    legal: [bool; ACTION_CLASSES],
) -> ClassProbabilities {
    let mut top = f32::NEG_INFINITY;
    for (&logit, &ok) in logits.iter().zip(&legal) {
        if ok && logit > top {
            top = logit;
        }
    }
    let mut weights = [0.0f32; ACTION_CLASSES];
    for ((weight, &logit), &ok) in weights.iter_mut().zip(&logits).zip(&legal) {
        if ok {
            *weight = libm::expf(logit - top);
        }
    }
    normalise_legal(weights, legal)
}

/// The most likely class of `probabilities` (the first on a tie).
pub fn most_likely(probabilities: &ClassProbabilities) -> ActionClass {
    let mut best = 0;
    for (index, &p) in probabilities.iter().enumerate() {
        if p > probabilities[best] {
            best = index;
        }
    }
    ActionClass::ALL[best]
}

#[cfg(test)]
mod tests;
