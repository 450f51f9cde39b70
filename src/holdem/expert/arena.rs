//! One hand between two bots in process, for statistics and quick matches: the dealer's
//! loop without a network, logs or clocks. An out-of-range raise is clamped and any other
//! illegal action becomes a call, as the ACPC dealer corrects them.
use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::deal::Deal;
use crate::holdem::rules::{Action, HandState, HoldemConfig};

/// Plays hand number `hand` of `deal` with `bots[p]` at position `p` and returns the
/// finished hand (payoffs from [`HandState::payoffs`]). Each bot hears `hand_over`.
pub fn play_hand(
    bots: [&mut dyn HoldemBot; 2],
    config: HoldemConfig,
    deal: &Deal,
    hand: u64,
) -> HandState {
    let mut state = HandState::new(config);
    for position in 0..2u8 {
        // Nine distinct cards deal without error into an empty hand.
        let _ = state.deal_hole_cards(position, deal.holes[usize::from(position)]);
    }
    loop {
        while state.board_cards_due() > 0 {
            let next = deal.board[state.board().len().min(4)];
            if state.deal_board_card(next).is_err() {
                break;
            }
        }
        let Some(position) = state.to_act() else {
            break;
        };
        let seen = state.seen_by(position);
        let Some(view) = BotView::from_state(&state, position, hand) else {
            break;
        };
        let wanted = bots[usize::from(position)].act(&view, &seen);
        let action = match (wanted, state.raise_bounds()) {
            (Action::RaiseTo(to), Some((low, high))) => Action::RaiseTo(to.clamp(low, high)),
            (action, _) if state.is_legal(action) => action,
            _ => Action::Call,
        };
        if state.apply(action).is_err() {
            break;
        }
    }
    for position in 0..2u8 {
        bots[usize::from(position)].hand_over(&state.seen_by(position), position);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::bots::{AllIn, AlwaysCall};
    use crate::holdem::deal::Dealer;

    #[test]
    fn hands_finish_with_payoffs() {
        let mut dealer = Dealer::new(3);
        for hand in 0..20 {
            let deal = dealer.next_hand();
            let (mut a, mut b) = (AllIn, AlwaysCall);
            let state = play_hand([&mut a, &mut b], HoldemConfig::ACPC, &deal, hand);
            assert!(state.is_over());
            let payoffs = state.payoffs().unwrap();
            assert_eq!(payoffs[0] + payoffs[1], 0);
            assert!(matches!(payoffs[0].abs(), 0 | 20_000), "{payoffs:?}");
        }
    }
}
