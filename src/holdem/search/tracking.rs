//! The opponent's range as the hand goes: uniform at the start, each opponent action
//! weighted in by Bayes under the opponent model, the seen cards ruled out.
use crate::holdem::policy::{ActionClass, ActionModel};
use crate::holdem::range::Range;
use crate::holdem::rules::{HandState, Position};
use crate::search::mcts::{Never, Stop};

/// The range of `me`'s opponent after the betting of `seen` (the hand as `me` sees it):
/// every opponent action so far observed with `model` (its class by [`ActionClass::of`],
/// which is how an off-tree bet size is translated), then our cards and the board ruled
/// out. The model is shown the public cards and the opponent's hypothetical holding, never
/// our cards. Replaying from the start keeps the bot free of state between decisions.
pub fn opponent_range(seen: &HandState, me: Position, model: &dyn ActionModel) -> Range {
    // A stop that never fires: the range always comes.
    opponent_range_until(seen, me, model, &mut Never).unwrap_or_else(Range::uniform)
}

/// [`opponent_range`] that asks `stop` before each opponent action it weighs in (each asks
/// the model about every holding: milliseconds with the expert model); `None` once it says
/// stop.
pub fn opponent_range_until(
    seen: &HandState,
    me: Position,
    model: &dyn ActionModel,
    stop: &mut dyn Stop,
) -> Option<Range> {
    let opponent = 1 - me.min(1);
    let mut range = Range::uniform();
    let mut observed = 0u32;
    let mut stopped = false;
    // The replay holds our cards too; `observe` forgets the actor's and deals each holding.
    seen.replay(|before, actor, action| {
        if actor == opponent && !stopped {
            stopped = stop.stop(observed);
            if !stopped {
                range.observe(before, opponent, ActionClass::of(before, action), model);
                observed += 1;
            }
        }
    });
    if stopped {
        return None;
    }
    let mut dead = seen.dealt_mask();
    if let Some([a, b]) = seen.hole_cards(opponent) {
        // The opponent's own cards are never dead to its range.
        dead &= !(1 << a.byte() | 1 << b.byte());
    }
    range.remove_dead(dead);
    Some(range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::equity::combo_index;
    use crate::holdem::rules::{Action, HoldemConfig};
    use crate::holdem::search::models::StrengthModel;

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    #[test]
    fn a_flop_bet_shifts_weight_to_made_hands_and_rules_out_seen_cards() {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, [card("Ah"), card("Qd")]).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for text in ["Kd", "7c", "2h"] {
            hand.deal_board_card(card(text)).unwrap();
        }
        hand.apply(Action::Call).unwrap();
        // The small blind (position 1) bets the pot on the flop.
        hand.apply(Action::RaiseTo(300)).unwrap();
        let range = opponent_range(&hand, 0, &StrengthModel::default());
        let set = combo_index(card("7h"), card("7d")).unwrap();
        let air = combo_index(card("4s"), card("3d")).unwrap();
        assert!(range.weight(set) > 5.0 * range.weight(air));
        for dead in [("Ah", "5c"), ("Kd", "9s"), ("Qd", "Jc")] {
            let index = combo_index(card(dead.0), card(dead.1)).unwrap();
            assert_eq!(range.weight(index), 0.0, "{dead:?}");
        }
    }
}
