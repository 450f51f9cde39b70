//! A model that adapts during a match: action frequencies per situation (street × facing a
//! bet or not × raises so far in the round: 0, 1, 2, 3+), starting from a Dirichlet prior
//! whose mean is another model's prediction. After n observations in a situation the
//! prediction is (counts + strength · prior) / (n + strength), so a real opponent's habits
//! take over from the training population's after a few dozen of its actions.
use super::history::raises_this_round;
use super::{legal_classes, normalise_legal};
use crate::holdem::learned::{LearnedError, LearnedPart, LearnedReader, LearnedWriter};
use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::{Action, HandState, Position};

/// Raise-count buckets: 0, 1, 2, 3 or more.
const RAISE_BUCKETS: usize = 4;
/// Situations: 4 streets × facing a bet or not × raise buckets.
pub const SITUATIONS: usize = 4 * 2 * RAISE_BUCKETS;

/// Per-situation counts over a prior model `P`.
#[derive(Clone, Debug)]
pub struct OnlineModel<P> {
    prior: P,
    strength: f32,
    counts: [[f32; ACTION_CLASSES]; SITUATIONS],
}

impl<P: ActionModel> OnlineModel<P> {
    /// A model that starts as `prior`, which weighs as much as `strength` observations
    /// (negative or non-finite strengths count as 0).
    pub fn new(prior: P, strength: f32) -> OnlineModel<P> {
        let strength = if strength.is_finite() {
            strength.max(0.0)
        } else {
            0.0
        };
        OnlineModel {
            prior,
            strength,
            counts: [[0.0; ACTION_CLASSES]; SITUATIONS],
        }
    }

    /// The situation of the player to act in `hand`.
    pub fn situation(hand: &HandState) -> usize {
        let facing = usize::from(hand.can_fold());
        let raises = raises_this_round(hand).min(RAISE_BUCKETS - 1);
        (hand.street().index() * 2 + facing) * RAISE_BUCKETS + raises
    }

    /// Counts the player to act in `before` playing `action` (ignored when nobody is to act).
    pub fn observe(&mut self, before: &HandState, action: Action) {
        if before.to_act().is_some() {
            self.observe_class(before, ActionClass::of(before, action));
        }
    }

    /// Counts the player to act in `before` playing an action of class `class`.
    pub fn observe_class(&mut self, before: &HandState, class: ActionClass) {
        if before.to_act().is_some() {
            self.counts[Self::situation(before)][class.index()] += 1.0;
        }
    }

    /// The observations so far in the situation of `hand`.
    pub fn observations(&self, hand: &HandState) -> f32 {
        self.counts[Self::situation(hand)].iter().sum()
    }

    /// Forgets every observation.
    pub fn reset(&mut self) {
        self.counts = [[0.0; ACTION_CLASSES]; SITUATIONS];
    }

    pub fn prior(&self) -> &P {
        &self.prior
    }
}

/// The counts, situation by situation ([`SITUATIONS`] × [`ACTION_CLASSES`] reals); the prior
/// and its strength come from the spec.
impl<P> LearnedPart for OnlineModel<P> {
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        for &count in self.counts.iter().flatten() {
            out.f32(count);
        }
    }

    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        let mut counts = [[0.0f32; ACTION_CLASSES]; SITUATIONS];
        for count in counts.iter_mut().flatten() {
            *count = input.count()?;
        }
        self.counts = counts;
        Ok(())
    }
}

impl<P: ActionModel> ActionModel for OnlineModel<P> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let legal = legal_classes(hand);
        let prior = self.prior.predict(hand);
        let counts = &self.counts[Self::situation(hand)];
        let mut weights = [0.0f32; ACTION_CLASSES];
        for ((weight, &count), &p) in weights.iter_mut().zip(counts).zip(&prior) {
            *weight = count + self.strength * p;
        }
        normalise_legal(weights, legal)
    }

    /// Counts every action the opponent of `observer` played in the hand.
    fn observe_hand(&mut self, seen: &HandState, observer: Position) {
        seen.replay(|before, actor, action| {
            if actor != observer {
                self.observe(before, action);
            }
        });
    }
}
