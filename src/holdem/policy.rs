//! The vocabulary the Hold'em bot's parts share: a betting action reduced to one of five
//! classes (what an opponent model predicts, what a range is updated with, what the
//! expert library suggests), and the trait of a model that gives their probabilities.
use super::rules::{Action, Chips, HandState, Position};

/// A betting action by kind and coarse size. A raise's size is its increment over the bet
/// to call, as a fraction of the pot after calling (so a pot-sized raise is 1.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ActionClass {
    /// Fold.
    Fold = 0,
    /// Check or call.
    Call = 1,
    /// A raise of at most [`SMALL_RAISE_POT_FRACTION`] of the pot (min-raises, half-pot
    /// bets), short of all-in.
    SmallRaise = 2,
    /// A larger raise, short of all-in.
    BigRaise = 3,
    /// A raise of the whole stack.
    AllIn = 4,
}

/// How many [`ActionClass`]es there are.
pub const ACTION_CLASSES: usize = 5;

/// The largest raise, as a fraction of the pot after calling, that is still
/// [`ActionClass::SmallRaise`]: halfway between the half-pot and pot sizes.
pub const SMALL_RAISE_POT_FRACTION: f64 = 0.75;

impl ActionClass {
    /// The classes in order of their index.
    pub const ALL: [ActionClass; ACTION_CLASSES] = [
        ActionClass::Fold,
        ActionClass::Call,
        ActionClass::SmallRaise,
        ActionClass::BigRaise,
        ActionClass::AllIn,
    ];

    /// 0..[`ACTION_CLASSES`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the class is a raise of any size.
    pub const fn is_raise(self) -> bool {
        matches!(
            self,
            ActionClass::SmallRaise | ActionClass::BigRaise | ActionClass::AllIn
        )
    }

    /// The class of `action` by the player to act in `hand` (the state before the action).
    /// Works for illegal actions too, by their size: the class says what was meant.
    pub fn of(hand: &HandState, action: Action) -> ActionClass {
        let to = match action {
            Action::Fold => return ActionClass::Fold,
            Action::Call => return ActionClass::Call,
            Action::RaiseTo(to) => to,
        };
        let Some(actor) = hand.to_act() else {
            return ActionClass::Call;
        };
        if to >= hand.spent(actor) + hand.behind(actor) {
            return ActionClass::AllIn;
        }
        let (bet, pot_after_call) = bet_and_pot_after_call(hand);
        let increment = f64::from(to.saturating_sub(bet));
        if increment <= SMALL_RAISE_POT_FRACTION * f64::from(pot_after_call) {
            ActionClass::SmallRaise
        } else {
            ActionClass::BigRaise
        }
    }

    /// A legal action of this class for the player to act in `hand`: the small raise is half
    /// the pot, the big raise the pot, each clamped to the legal raise range; a raise when
    /// none is legal becomes a call, and a fold when there is nothing to call a check.
    /// `None` when nobody is to act.
    pub fn representative(self, hand: &HandState) -> Option<Action> {
        hand.to_act()?;
        let raise = |percent: u32| -> Action {
            let Some((min, max)) = hand.raise_bounds() else {
                return Action::Call;
            };
            let (bet, pot_after_call) = bet_and_pot_after_call(hand);
            let to = match percent {
                0 => max,
                percent => bet.saturating_add(pot_after_call.saturating_mul(percent) / 100),
            };
            Action::RaiseTo(to.clamp(min, max))
        };
        Some(match self {
            ActionClass::Fold if hand.can_fold() => Action::Fold,
            ActionClass::Fold | ActionClass::Call => Action::Call,
            ActionClass::SmallRaise => raise(50),
            ActionClass::BigRaise => raise(100),
            ActionClass::AllIn => raise(0),
        })
    }
}

/// The largest total either player has put in, and the pot once the player to act calls it.
fn bet_and_pot_after_call(hand: &HandState) -> (Chips, Chips) {
    let bet = hand.spent(0).max(hand.spent(1));
    (bet, bet.saturating_mul(2))
}

/// Probabilities of the [`ActionClass`]es, by index; they add up to 1 over the classes
/// that are possible.
pub type ClassProbabilities = [f32; ACTION_CLASSES];

/// A model of how a player acts: the probability of each action class for the player to
/// act in a hand. Used for the opponent's nodes of a search and to update the opponent's
/// range by Bayes.
pub trait ActionModel {
    /// The probabilities for the player to act in `hand`. The model may read that player's
    /// hole cards (a search sets each holding it considers), the board and the betting,
    /// never the other player's cards. A fold is impossible when there is nothing to call,
    /// and raises when no raise is legal: those classes get 0. Not called when nobody is to
    /// act.
    fn predict(&self, hand: &HandState) -> ClassProbabilities;

    /// A hand is over: `seen` is its end as `observer` saw it. A model that adapts to its
    /// player during a match learns from the other position's actions here; the default
    /// learns nothing.
    fn observe_hand(&mut self, seen: &HandState, observer: Position) {
        let _ = (seen, observer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::HoldemConfig;

    /// The hand after `actions`, with board cards dealt (2c 3c 4c …) whenever due.
    fn after(actions: &[Action]) -> HandState {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let mut next_card = 0u8;
        for &action in actions {
            while hand.board_cards_due() > 0 {
                hand.deal_board_card(Card::from_rank_suit(next_card, 0).unwrap())
                    .unwrap();
                next_card += 1;
            }
            hand.apply(action).unwrap();
        }
        hand
    }

    #[test]
    fn raises_are_classed_by_their_share_of_the_pot() {
        // Preflop, the small blind (50) faces the big blind (100): the pot after calling is
        // 200, so a raise to 250 (increment 150) is 0.75 pot, a raise to 251 is more.
        let start = after(&[]);
        assert_eq!(ActionClass::of(&start, Action::Fold), ActionClass::Fold);
        assert_eq!(ActionClass::of(&start, Action::Call), ActionClass::Call);
        assert_eq!(
            ActionClass::of(&start, Action::RaiseTo(250)),
            ActionClass::SmallRaise
        );
        assert_eq!(
            ActionClass::of(&start, Action::RaiseTo(251)),
            ActionClass::BigRaise
        );
        assert_eq!(
            ActionClass::of(&start, Action::RaiseTo(19_999)),
            ActionClass::BigRaise
        );
        assert_eq!(
            ActionClass::of(&start, Action::RaiseTo(20_000)),
            ActionClass::AllIn
        );
    }

    #[test]
    fn representatives_are_legal_and_of_their_class() {
        let hands = [
            after(&[]),
            after(&[Action::Call]),
            after(&[Action::RaiseTo(300), Action::RaiseTo(900)]),
            after(&[Action::Call, Action::Call, Action::RaiseTo(200)]),
            after(&[Action::RaiseTo(20_000)]),
        ];
        for hand in &hands {
            for class in ActionClass::ALL {
                let action = class.representative(hand).unwrap();
                assert!(hand.is_legal(action), "{class:?} gave {action:?}");
                let possible = match class {
                    ActionClass::Fold => hand.can_fold(),
                    ActionClass::Call => true,
                    _ => hand.raise_bounds().is_some(),
                };
                if possible {
                    // The min-raise clamp may turn a half-pot raise into a bigger class
                    // only when the minimum itself is bigger.
                    let got = ActionClass::of(hand, action);
                    assert!(
                        got == class || (class.is_raise() && got.is_raise()),
                        "{class:?} gave {got:?}"
                    );
                }
            }
        }
        // After an all-in, only fold and call remain; a raise class falls back to a call.
        assert_eq!(
            ActionClass::AllIn.representative(&hands[4]),
            Some(Action::Call)
        );
    }
}
