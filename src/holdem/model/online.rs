//! A model that adapts during a match by calibrating another model (the prior) to this
//! opponent, situation by situation (street × facing a bet or not × raises so far in the
//! round: 1 or none, 2, 3+), without losing what the prior knows about the cards.
//!
//! In each situation it counts the opponent's actions by class, `c(a)`, and what the prior
//! expected of them, `E(a)`: the prior's probability of each class for the opponent's
//! holding, summed over the decisions counted. The holding is known after a showdown; in
//! the other hands the expectation is over the opponent's range, tracked through the hand
//! by Bayes under the prior itself. The opponent's marginal frequencies are a Dirichlet
//! posterior with the prior's marginal `m(a) = E(a)/n` as mean and `strength` as weight,
//! `q(a) = (c(a) + strength·m(a)) / (n + strength)`, and a holding's prediction is the
//! prior's, each class scaled by `q(a)/m(a)` and renormalised.
//!
//! So the opponent's marginals replace the population's as it is watched, while the prior's
//! ranking of holdings within a class stays: an opponent that calls everything gets a call
//! from every holding (its calls then say nothing of its cards), one that raises more than
//! the population has its raises read as coming from more holdings. The first version mixed
//! card-blind counts into the prediction additively, which after a few hundred hands erased
//! the prior's card dependence, so the range learned nothing from the actions (it lost to the
//! equity bot where the CNN alone wins, `docs/holdem-bot.md`).
use super::history::raises_this_round;
use super::{legal_classes, normalise_legal};
use crate::holdem::learned::{LearnedError, LearnedPart, LearnedReader, LearnedWriter};
use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::range::Range;
use crate::holdem::rules::{Action, HandState, Position};

/// Kinds of decision in a round: not facing a bet, facing the first bet or raise (or the
/// blind), facing a re-raise, facing a third raise or more.
const KINDS: usize = 4;
/// Situations: 4 streets × [`KINDS`].
pub const SITUATIONS: usize = 4 * KINDS;
/// The least marginal the prior is taken to give a class: only a guard against dividing by
/// 0 (a class the prior gives nearly nothing must still be learnable, so the floor is far
/// below any real prediction; the largest scale, about count / 1e-30, stays finite in f32).
const MIN_MARGINAL: f32 = 1e-30;

/// Per-situation counts of the opponent's actions and of the prior's expectation of them.
#[derive(Clone, Debug)]
pub struct OnlineModel<P> {
    prior: P,
    strength: f32,
    /// The opponent's actions by class.
    counts: [[f32; ACTION_CLASSES]; SITUATIONS],
    /// The prior's probabilities of each class for the opponent's holding at each counted
    /// decision, summed.
    expected: [[f32; ACTION_CLASSES]; SITUATIONS],
}

impl<P: ActionModel> OnlineModel<P> {
    /// A model that starts as `prior`, whose marginals weigh as much as `strength`
    /// observations (negative or non-finite strengths count as 0).
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
            expected: [[0.0; ACTION_CLASSES]; SITUATIONS],
        }
    }

    /// The situation of the player to act in `hand`.
    pub fn situation(hand: &HandState) -> usize {
        let kind = if hand.can_fold() {
            raises_this_round(hand).clamp(1, KINDS - 1)
        } else {
            0
        };
        hand.street().index() * KINDS + kind
    }

    /// Counts the player to act in `before` playing `action` (ignored when nobody is to act).
    /// The prior's expectation is for the actor's hole cards in `before`, or over every
    /// holding when they are unknown.
    pub fn observe(&mut self, before: &HandState, action: Action) {
        if before.to_act().is_some() {
            self.observe_class(before, ActionClass::of(before, action));
        }
    }

    /// Counts the player to act in `before` playing an action of class `class`.
    pub fn observe_class(&mut self, before: &HandState, class: ActionClass) {
        if let Some(actor) = before.to_act() {
            self.count(&mut Range::uniform(), before, actor, class);
        }
    }

    /// Counts `actor` playing `class` in `before`, with the prior's expectation for its hole
    /// cards when `before` shows them, else over `range` (which the action then narrows).
    fn count(
        &mut self,
        range: &mut Range,
        before: &HandState,
        actor: Position,
        class: ActionClass,
    ) {
        let expected = if before.hole_cards(actor).is_some() {
            self.prior.predict(before)
        } else {
            self.expected_over(range, before, actor, class)
        };
        let situation = Self::situation(before);
        self.counts[situation][class.index()] += 1.0;
        for (sum, p) in self.expected[situation].iter_mut().zip(expected) {
            *sum += p;
        }
    }

    /// The prior's probabilities for `actor` in `before`, averaged over `range`; then
    /// `range` narrowed by Bayes for `actor` having played `class` (as `Range::observe`).
    fn expected_over(
        &self,
        range: &mut Range,
        before: &HandState,
        actor: Position,
        class: ActionClass,
    ) -> ClassProbabilities {
        let mut base = before.clone();
        base.forget_hole_cards(actor);
        range.remove_dead(base.dealt_mask());
        let weights = *range.weights();
        let (mut sum, mut total) = ([0f32; ACTION_CLASSES], 0f32);
        range.reweight(|index, cards| {
            let mut hypothesis = base.clone();
            if hypothesis.deal_hole_cards(actor, cards).is_err() {
                return 0.0;
            }
            let p = self.prior.predict(&hypothesis);
            let weight = weights[index];
            for (s, &q) in sum.iter_mut().zip(&p) {
                *s += weight * q;
            }
            total += weight;
            p[class.index()]
        });
        if total > 0.0 {
            sum.map(|s| s / total)
        } else {
            [0.0; ACTION_CLASSES]
        }
    }

    /// The observations so far in the situation of `hand`.
    pub fn observations(&self, hand: &HandState) -> f32 {
        self.counts[Self::situation(hand)].iter().sum()
    }

    /// How much the opponent's frequency of each class in the situation of `hand` differs
    /// from the prior's: `q(a)/m(a)` (all 1 before any observation).
    pub fn scales(&self, hand: &HandState) -> [f32; ACTION_CLASSES] {
        let situation = Self::situation(hand);
        let counts = &self.counts[situation];
        let n: f32 = counts.iter().sum();
        if n <= 0.0 {
            return [1.0; ACTION_CLASSES];
        }
        let mut scales = [1.0; ACTION_CLASSES];
        for ((scale, &count), &expected) in
            scales.iter_mut().zip(counts).zip(&self.expected[situation])
        {
            let marginal = (expected / n).max(MIN_MARGINAL);
            *scale = (count + self.strength * marginal) / ((n + self.strength) * marginal);
        }
        scales
    }

    /// Forgets every observation.
    pub fn reset(&mut self) {
        self.counts = [[0.0; ACTION_CLASSES]; SITUATIONS];
        self.expected = [[0.0; ACTION_CLASSES]; SITUATIONS];
    }

    pub fn prior(&self) -> &P {
        &self.prior
    }
}

/// The counts, then the expectations, situation by situation (2 × [`SITUATIONS`] ×
/// [`ACTION_CLASSES`] reals: 640 bytes); the prior and its strength come from the spec.
impl<P> LearnedPart for OnlineModel<P> {
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        for &count in self.counts.iter().chain(&self.expected).flatten() {
            out.f32(count);
        }
    }

    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        let mut counts = [[0.0f32; ACTION_CLASSES]; SITUATIONS];
        let mut expected = [[0.0f32; ACTION_CLASSES]; SITUATIONS];
        for count in counts.iter_mut().chain(&mut expected).flatten() {
            *count = input.count()?;
        }
        self.counts = counts;
        self.expected = expected;
        Ok(())
    }
}

impl<P: ActionModel> ActionModel for OnlineModel<P> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let legal = legal_classes(hand);
        let prior = self.prior.predict(hand);
        let scales = self.scales(hand);
        let mut weights = [0.0f32; ACTION_CLASSES];
        for ((weight, &scale), &p) in weights.iter_mut().zip(&scales).zip(&prior) {
            *weight = scale * p;
        }
        normalise_legal(weights, legal)
    }

    /// Counts every action the opponent of `observer` played in the hand, with the prior's
    /// expectation for its shown cards, or over its range tracked through the hand.
    fn observe_hand(&mut self, seen: &HandState, observer: Position) {
        // The replayed states carry the hole cards `seen` shows.
        let opponent = observer ^ 1;
        let mut range = Range::uniform();
        seen.replay(|before, actor, action| {
            if actor == opponent {
                self.count(&mut range, before, actor, ActionClass::of(before, action));
            }
        });
    }
}
