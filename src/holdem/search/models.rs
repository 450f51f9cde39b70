//! Simple [`ActionModel`]s for the staged search until the expert library and the opponent
//! model land: a uniform model, an always-call model, and a cheap hand-strength model. They
//! are stand-ins and test fixtures, not claims about how opponents play.
use crate::holdem::eval::{rank5_unchecked, rank6_unchecked, rank7_unchecked};
use crate::holdem::hand_rank::HandRank;
use crate::holdem::policy::{ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::HandState;

/// `probabilities` with the classes the player to act cannot take set to 0 (a fold when
/// there is nothing to call, raises when none is legal), NaN and negative entries set to 0,
/// and the rest scaled to sum to 1; all on a call when nothing possible remains.
pub fn restrict_to_legal(
    hand: &HandState,
    probabilities: ClassProbabilities,
) -> ClassProbabilities {
    let can_raise = hand.raise_bounds().is_some();
    let mut out = [0.0f32; 5];
    let mut total = 0.0f32;
    for class in ActionClass::ALL {
        let possible = match class {
            ActionClass::Fold => hand.can_fold(),
            ActionClass::Call => true,
            _ => can_raise,
        };
        let p = probabilities[class.index()];
        if possible && p.is_finite() && p > 0.0 {
            out[class.index()] = p;
            total += p;
        }
    }
    if total > 0.0 {
        for p in &mut out {
            *p /= total;
        }
    } else {
        out[ActionClass::Call.index()] = 1.0;
    }
    out
}

/// Every possible class equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformModel;

impl ActionModel for UniformModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        restrict_to_legal(hand, [1.0; 5])
    }
}

/// Always checks or calls: a calling station.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallModel;

impl ActionModel for CallModel {
    fn predict(&self, _hand: &HandState) -> ClassProbabilities {
        [0.0, 1.0, 0.0, 0.0, 0.0]
    }
}

/// Plays by a crude strength of its holding in 0..=1: after the flop the rank of its best
/// hand with the board over the best rank (so a pair is about 0.2-0.55, two pair 0.55-0.67,
/// trips and better above), preflop a score of the two ranks with a bonus for a pair. Weak
/// holdings mostly check or fold, medium ones call, strong ones raise; every possible class
/// keeps a little probability so that a range is thinned, not emptied, by one surprise.
/// Costs one table-driven hand evaluation per call.
#[derive(Clone, Copy, Debug)]
pub struct StrengthModel {
    /// Below this strength a holding is weak.
    pub weak_below: f32,
    /// From this strength on a holding is strong.
    pub strong_from: f32,
}

impl Default for StrengthModel {
    fn default() -> Self {
        StrengthModel {
            weak_below: 0.2,
            strong_from: 0.6,
        }
    }
}

impl StrengthModel {
    /// The strength of the hole cards of the player to act, 0..=1 (0.5 when unknown).
    pub fn strength(hand: &HandState) -> f32 {
        let Some(actor) = hand.to_act() else {
            return 0.5;
        };
        let Some([a, b]) = hand.hole_cards(actor) else {
            return 0.5;
        };
        let board = hand.board();
        // The hand state keeps every dealt card distinct, as the unchecked ranks require.
        let rank = match *board {
            [c, d, e] => rank5_unchecked(&[a.byte(), b.byte(), c.byte(), d.byte(), e.byte()]),
            [c, d, e, f] => {
                rank6_unchecked(&[a.byte(), b.byte(), c.byte(), d.byte(), e.byte(), f.byte()])
            }
            [c, d, e, f, g] => rank7_unchecked(&[
                a.byte(),
                b.byte(),
                c.byte(),
                d.byte(),
                e.byte(),
                f.byte(),
                g.byte(),
            ]),
            _ => {
                // Ranks 0 (deuce) ..= 12 (ace): aces score 0.55, a pair adds 0.35.
                let (high, low) = (a.rank().max(b.rank()), a.rank().min(b.rank()));
                let pair = if high == low { 0.35 } else { 0.0 };
                let suited = if a.suit() == b.suit() { 0.05 } else { 0.0 };
                let score = f32::from(high) * 0.03 + f32::from(low) * 0.012 + pair + suited;
                return score.min(1.0);
            }
        };
        f32::from(rank) / f32::from(HandRank::BEST.get())
    }
}

impl ActionModel for StrengthModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let strength = Self::strength(hand);
        let facing_bet = hand.can_fold();
        let mix = if strength < self.weak_below {
            if facing_bet {
                [0.85, 0.12, 0.02, 0.01, 0.0]
            } else {
                [0.0, 0.88, 0.08, 0.04, 0.0]
            }
        } else if strength < self.strong_from {
            [0.1, 0.75, 0.1, 0.05, 0.0]
        } else {
            [0.01, 0.34, 0.35, 0.25, 0.05]
        };
        restrict_to_legal(hand, mix)
    }
}

/// The stand-in learns nothing.
impl crate::holdem::learned::LearnedPart for StrengthModel {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::{Action, HoldemConfig};

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    #[test]
    fn impossible_classes_get_nothing() {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.apply(Action::Call).unwrap();
        // The big blind may check: no fold.
        let p = UniformModel.predict(&hand);
        assert_eq!(p[0], 0.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let p = restrict_to_legal(&hand, [f32::NAN, -1.0, 0.0, 0.0, 0.0]);
        assert_eq!(p, [0.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn stronger_holdings_raise_more() {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for text in ["Kd", "7c", "2h"] {
            hand.deal_board_card(card(text)).unwrap();
        }
        let mut strong = hand.clone();
        strong.deal_hole_cards(0, [card("Ks"), card("Kh")]).unwrap();
        let mut weak = hand.clone();
        weak.deal_hole_cards(0, [card("4s"), card("3d")]).unwrap();
        let model = StrengthModel::default();
        let raise = |p: ClassProbabilities| p[2] + p[3] + p[4];
        assert!(StrengthModel::strength(&strong) > StrengthModel::strength(&weak));
        assert!(raise(model.predict(&strong)) > raise(model.predict(&weak)));
    }
}
