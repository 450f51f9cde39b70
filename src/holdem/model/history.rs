//! The betting so far, read back as a sequence of classed steps: who acted, on which street,
//! what class of action, and the chips each player had in before it. The features and the
//! frequency models read the history through this walk, which follows the chips by
//! arithmetic instead of replaying a whole `HandState` for every step.
use crate::holdem::policy::{ActionClass, SMALL_RAISE_POT_FRACTION};
use crate::holdem::rules::{Action, Chips, HandState, Position, Street};

/// One action of the history, with the chips before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub street: Street,
    /// The position that acted.
    pub actor: Position,
    pub class: ActionClass,
    /// The action's place in its betting round, from 0.
    pub index_in_round: usize,
    /// Chips each position had put in (the whole hand) just before the action.
    pub spent_before: [Chips; 2],
}

/// Calls `visit` for every action of `hand`, in order.
pub fn for_each_step(hand: &HandState, mut visit: impl FnMut(&Step)) {
    let config = *hand.config();
    let stacks = config.stacks();
    let mut spent = [config.big_blind(), config.small_blind()];
    for street in Street::ALL {
        let mut actor = street.first_to_act();
        for (index_in_round, action) in hand.round_actions(street).enumerate() {
            let me = usize::from(actor & 1);
            let bet = spent[0].max(spent[1]);
            let class = match action {
                Action::Fold => ActionClass::Fold,
                Action::Call => ActionClass::Call,
                Action::RaiseTo(to) if to >= stacks[me] => ActionClass::AllIn,
                Action::RaiseTo(to) => {
                    let increment = f64::from(to.saturating_sub(bet));
                    if increment <= SMALL_RAISE_POT_FRACTION * f64::from(bet.saturating_mul(2)) {
                        ActionClass::SmallRaise
                    } else {
                        ActionClass::BigRaise
                    }
                }
            };
            visit(&Step {
                street,
                actor,
                class,
                index_in_round,
                spent_before: spent,
            });
            match action {
                Action::Fold => {}
                Action::Call => spent[me] = bet.min(stacks[me]),
                Action::RaiseTo(to) => spent[me] = to.min(stacks[me]),
            }
            actor = 1 - (actor & 1);
        }
    }
}

/// Raises (of any size) in the current round so far.
pub fn raises_this_round(hand: &HandState) -> usize {
    let street = hand.street();
    let mut raises = 0;
    for_each_step(hand, |step| {
        if step.street == street && step.class.is_raise() {
            raises += 1;
        }
    });
    raises
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::HoldemConfig;

    #[test]
    fn the_walk_classes_actions_as_a_replay_does() {
        let actions = [
            Action::RaiseTo(300),
            Action::RaiseTo(1_000),
            Action::Call,
            Action::Call,
            Action::RaiseTo(1_200),
            Action::RaiseTo(5_000),
            Action::Call,
            Action::RaiseTo(6_000),
            Action::RaiseTo(20_000),
        ];
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let mut replayed = Vec::new();
        let mut next_card = 0u8;
        for action in actions {
            while hand.board_cards_due() > 0 {
                hand.deal_board_card(Card::from_rank_suit(next_card, 1).unwrap())
                    .unwrap();
                next_card += 1;
            }
            replayed.push((
                hand.street(),
                hand.to_act().unwrap(),
                ActionClass::of(&hand, action),
                [hand.spent(0), hand.spent(1)],
            ));
            hand.apply(action).unwrap();
        }
        let mut walked = Vec::new();
        for_each_step(&hand, |step| {
            walked.push((step.street, step.actor, step.class, step.spent_before))
        });
        assert_eq!(walked, replayed);
        assert!(walked.iter().any(|w| w.2 == ActionClass::SmallRaise));
        assert!(walked.iter().any(|w| w.2 == ActionClass::BigRaise));
        assert_eq!(walked.last().unwrap().2, ActionClass::AllIn);
        // Before the all-in: the turn holds a raise and a re-raise.
        let mut before = HandState::new(HoldemConfig::ACPC);
        let mut next_card = 0u8;
        for action in &actions[..8] {
            while before.board_cards_due() > 0 {
                before
                    .deal_board_card(Card::from_rank_suit(next_card, 1).unwrap())
                    .unwrap();
                next_card += 1;
            }
            before.apply(*action).unwrap();
        }
        assert_eq!(before.street(), Street::Turn);
        assert_eq!(raises_this_round(&before), 1);
    }
}
