//! One hand at a table, as the ACPC dealer runs it: deal the hand's cards, ask the position
//! to act, correct an invalid action as the reference dealer does
//! ([`HandState::corrected`]), play it, until the hand is over. [`play_hand_with`] is that
//! loop for any players (the harness's dealer seats TCP clients and timed bots through it);
//! [`play_hand`] seats two in-process bots, for statistics and quick matches.
use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::deal::Deal;
use crate::holdem::rules::{Action, Correction, HandState, HoldemConfig, Position};

/// The players of one hand, as the table loop asks them.
pub trait Players {
    /// Why the hand cannot go on (a client gone, a time limit run out).
    type Error;

    /// The action of `position`, the player to act in `state`; `None` for a reply that
    /// names no action (the table plays a call, as the reference dealer does).
    fn act(&mut self, state: &HandState, position: Position)
    -> Result<Option<Action>, Self::Error>;

    /// The table played a corrected action for `position`.
    fn corrected(&mut self, position: Position, correction: Correction) {
        let _ = (position, correction);
    }
}

/// Plays one hand of `deal` under `config` with `players` in `state` (started afresh; the
/// caller's storage, so that the hand is not copied on its way out), to the end (payoffs
/// from [`HandState::payoffs`]) or to the first error a player gives.
pub fn play_hand_with<P: Players>(
    players: &mut P,
    config: HoldemConfig,
    deal: &Deal,
    state: &mut HandState,
) -> Result<(), P::Error> {
    *state = HandState::new(config);
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
        let (action, correction) = match players.act(state, position)? {
            Some(wanted) => state.corrected(wanted),
            None => (Action::Call, Some(Correction::ChangedToCall)),
        };
        if let Some(correction) = correction {
            players.corrected(position, correction);
        }
        // A corrected action is legal; should it not be, a call is, and failing that the
        // hand ends rather than loop.
        if state.apply(action).is_err() && state.apply(Action::Call).is_err() {
            break;
        }
    }
    Ok(())
}

/// Two in-process bots, `bots[p]` at position `p`, in hand number `hand`.
struct Bots<'a, 'b> {
    bots: [&'a mut (dyn HoldemBot + 'b); 2],
    hand: u64,
}

impl Players for Bots<'_, '_> {
    type Error = core::convert::Infallible;

    fn act(
        &mut self,
        state: &HandState,
        position: Position,
    ) -> Result<Option<Action>, Self::Error> {
        let seen = state.seen_by(position);
        // The table asks only the position to act, whose cards it dealt.
        Ok(Some(
            BotView::from_state(state, position, self.hand).map_or(Action::Call, |view| {
                self.bots[usize::from(position)].act(&view, &seen)
            }),
        ))
    }
}

/// Plays hand number `hand` of `deal` with `bots[p]` at position `p` and returns the
/// finished hand (payoffs from [`HandState::payoffs`]). Each bot hears `hand_over`.
pub fn play_hand(
    bots: [&mut dyn HoldemBot; 2],
    config: HoldemConfig,
    deal: &Deal,
    hand: u64,
) -> HandState {
    let mut table = Bots { bots, hand };
    let mut state = HandState::new(config);
    let Ok(()) = play_hand_with(&mut table, config, deal, &mut state);
    for position in 0..2u8 {
        table.bots[usize::from(position)].hand_over(&state.seen_by(position), position);
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

    /// Players that answer from a script and note the corrections.
    struct Scripted {
        replies: [Option<Action>; 3],
        asked: usize,
        corrections: [Option<Correction>; 3],
    }

    impl Players for Scripted {
        type Error = ();
        fn act(&mut self, _: &HandState, _: Position) -> Result<Option<Action>, ()> {
            let reply = self.replies.get(self.asked).copied().ok_or(())?;
            self.asked += 1;
            Ok(reply)
        }
        fn corrected(&mut self, _: Position, correction: Correction) {
            self.corrections[self.asked - 1] = Some(correction);
        }
    }

    #[test]
    fn the_table_corrects_invalid_replies_and_stops_at_a_players_error() {
        let deal = Dealer::new(1).next_hand();
        // The small blind raises to 1 (raised to 200), the big blind goes all-in, and the
        // small blind's unreadable reply is a call.
        let mut players = Scripted {
            replies: [
                Some(Action::RaiseTo(1)),
                Some(Action::RaiseTo(20_000)),
                None,
            ],
            asked: 0,
            corrections: [None; 3],
        };
        let mut state = HandState::new(HoldemConfig::ACPC);
        play_hand_with(&mut players, HoldemConfig::ACPC, &deal, &mut state).unwrap();
        assert_eq!(
            players.corrections,
            [
                Some(Correction::RaiseIncreased { from: 1, to: 200 }),
                None,
                Some(Correction::ChangedToCall)
            ]
        );
        let played: heapless::Vec<Action, 4> = state.actions().collect();
        assert_eq!(
            played.as_slice(),
            [Action::RaiseTo(200), Action::RaiseTo(20_000), Action::Call]
        );
        assert!(state.is_over());
        // A player whose script runs out stops the hand with its error.
        let mut short = Scripted {
            replies: [Some(Action::Call); 3],
            asked: 0,
            corrections: [None; 3],
        };
        assert!(play_hand_with(&mut short, HoldemConfig::ACPC, &deal, &mut state).is_err());
        assert!(!state.is_over());
    }
}
