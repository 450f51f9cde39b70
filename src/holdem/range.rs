//! A player's range: a weight for each of the 1,326 two-card holdings, narrowed by the cards
//! that are seen and updated by Bayes' rule from the player's actions under a model.
use super::card::Card;
use super::equity::{COMBOS, combo_cards};
use super::policy::{ActionClass, ActionModel};
use super::rules::{HandState, Position};

/// The least likelihood an observed action gives a holding, so that one surprising action
/// (a model is never exact) thins a holding out instead of ruling it out for good.
pub const MIN_LIKELIHOOD: f32 = 1e-3;

/// Weights over the holdings, by [`combo_index`](super::equity::combo_index): not
/// necessarily normalized; 0 is impossible.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    weights: [f32; COMBOS],
}

impl Default for Range {
    fn default() -> Self {
        Range::uniform()
    }
}

impl Range {
    /// Every holding with weight 1.
    pub const fn uniform() -> Range {
        Range {
            weights: [1.0; COMBOS],
        }
    }

    /// A range with these weights. Negative, infinite and NaN weights become 0.
    pub fn from_weights(weights: [f32; COMBOS]) -> Range {
        let mut range = Range { weights };
        for weight in &mut range.weights {
            if !(weight.is_finite() && *weight > 0.0) {
                *weight = 0.0;
            }
        }
        range
    }

    /// The weights, by combo index.
    pub const fn weights(&self) -> &[f32; COMBOS] {
        &self.weights
    }

    /// The weight of combo `index` (0 outside the range of indices).
    pub fn weight(&self, index: usize) -> f32 {
        self.weights.get(index).copied().unwrap_or(0.0)
    }

    /// The sum of the weights.
    pub fn total(&self) -> f32 {
        self.weights.iter().sum()
    }

    /// Rules out every holding with a card in the bit set `dead` (`1 << card.byte()`).
    pub fn remove_dead(&mut self, dead: u64) {
        for (index, weight) in self.weights.iter_mut().enumerate() {
            if combo_mask(index) & dead != 0 {
                *weight = 0.0;
            }
        }
    }

    /// Rules out every holding with one of `cards`.
    pub fn remove_cards(&mut self, cards: &[Card]) {
        let dead = cards
            .iter()
            .fold(0u64, |dead, card| dead | 1 << card.byte());
        self.remove_dead(dead);
    }

    /// Scales each weight to sum to 1; `false` (and unchanged) when every weight is 0.
    pub fn normalize(&mut self) -> bool {
        let total = self.total();
        if !(total > 0.0 && total.is_finite()) {
            return false;
        }
        for weight in &mut self.weights {
            *weight /= total;
        }
        true
    }

    /// Multiplies each possible holding's weight by `likelihood(index, cards)` (clamped to
    /// [`MIN_LIKELIHOOD`]..=1; NaN counts as the minimum).
    pub fn reweight(&mut self, mut likelihood: impl FnMut(usize, [Card; 2]) -> f32) {
        for (index, weight) in self.weights.iter_mut().enumerate() {
            if *weight == 0.0 {
                continue;
            }
            let Some(cards) = combo_cards(index) else {
                continue;
            };
            let p = likelihood(index, cards);
            *weight *= if p >= MIN_LIKELIHOOD {
                p.min(1.0)
            } else {
                MIN_LIKELIHOOD
            };
        }
    }

    /// Bayes' rule for one observed action: `before` is the hand just before `actor` played
    /// an action of class `observed`; each holding of `actor` is weighted by the probability
    /// `model` gives that class with those cards. Holdings that collide with cards dealt in
    /// `before` (other than `actor`'s own, which are ignored) are ruled out.
    pub fn observe(
        &mut self,
        before: &HandState,
        actor: Position,
        observed: ActionClass,
        model: &dyn ActionModel,
    ) {
        let mut hypothesis = before.clone();
        hypothesis.forget_hole_cards(actor);
        self.remove_dead(hypothesis.dealt_mask());
        let base = hypothesis;
        self.reweight(|_, cards| {
            let mut hypothesis = base.clone();
            if hypothesis.deal_hole_cards(actor, cards).is_err() {
                return 0.0;
            }
            model.predict(&hypothesis)[observed.index()]
        });
    }
}

/// The bit set of combo `index`'s two cards (0 outside the range of indices).
fn combo_mask(index: usize) -> u64 {
    combo_cards(index).map_or(0, |[a, b]| 1 << a.byte() | 1 << b.byte())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::equity::combo_index;
    use crate::holdem::policy::ClassProbabilities;
    use crate::holdem::rules::{Action, HoldemConfig};

    /// Raises with a pair, calls otherwise.
    struct PairsRaise;

    impl ActionModel for PairsRaise {
        fn predict(&self, hand: &HandState) -> ClassProbabilities {
            let actor = hand.to_act().unwrap();
            let [a, b] = hand.hole_cards(actor).unwrap();
            if a.rank() == b.rank() {
                [0.0, 0.0, 1.0, 0.0, 0.0]
            } else {
                [0.0, 1.0, 0.0, 0.0, 0.0]
            }
        }
    }

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    #[test]
    fn seen_cards_rule_holdings_out() {
        let mut range = Range::uniform();
        range.remove_cards(&[card("As"), card("Kd")]);
        // 51 holdings hold the ace of spades, 51 the king of diamonds, one holds both.
        assert_eq!(range.total(), (COMBOS - 101) as f32);
        assert!(range.normalize());
        assert!((range.total() - 1.0).abs() < 1e-4);
        let mut empty = Range::from_weights([0.0; COMBOS]);
        assert!(!empty.normalize());
        assert_eq!(Range::from_weights([f32::NAN; COMBOS]).total(), 0.0);
    }

    #[test]
    fn a_raise_under_a_pairs_only_model_leaves_the_pairs() {
        let mut before = HandState::new(HoldemConfig::ACPC);
        before.deal_hole_cards(0, [card("Ah"), card("Ac")]).unwrap();
        let mut range = Range::uniform();
        range.observe(&before, 1, ActionClass::SmallRaise, &PairsRaise);
        let pair = combo_index(card("7h"), card("7d")).unwrap();
        let offsuit = combo_index(card("7h"), card("8d")).unwrap();
        let blocked = combo_index(card("Ah"), card("As")).unwrap();
        assert_eq!(range.weight(pair), 1.0);
        assert_eq!(range.weight(offsuit), MIN_LIKELIHOOD);
        assert_eq!(range.weight(blocked), 0.0);
        // 78 pairs minus the five that use the hero's aces.
        let pairs = 13 * 6 - 5;
        let others = COMBOS - 101 - pairs;
        let expected = pairs as f32 + others as f32 * MIN_LIKELIHOOD;
        assert!((range.total() - expected).abs() < 1e-2, "{}", range.total());
        // The state itself is not changed by the hypotheses.
        assert!(before.apply(Action::RaiseTo(300)).is_ok());
    }
}
