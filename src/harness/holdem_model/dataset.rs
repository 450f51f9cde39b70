//! Hand histories from matches between members of the population, every decision a sample
//! (the dealer knows the actor's cards), split into training decisions, held-out hands and
//! the held-out bot's decisions.
use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::deal::Dealer;
use crate::holdem::policy::ActionClass;
use crate::holdem::rules::{Action, HandState, HoldemConfig};

use super::population::Member;

/// Decisions sampled per hand at most: a min-raise war runs to 200 raises, which would
/// otherwise swamp the data with one situation.
pub const MAX_DECISIONS_PER_HAND: usize = 16;

/// Every fifth hand of each training match is held out.
pub const HELD_OUT_EVERY: u64 = 5;

/// One decision: the hand, the action's index in it, its class and the bot that acted.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    pub hand: usize,
    pub action: usize,
    pub class: ActionClass,
    pub bot: usize,
}

/// The finished hands (both hole cards known) and the decisions in them, by split.
#[derive(Debug, Default)]
pub struct Dataset {
    pub hands: Vec<HandState>,
    pub train: Vec<Decision>,
    pub held_out_hands: Vec<Decision>,
    pub held_out_bot: Vec<Decision>,
}

impl Dataset {
    /// The hand of `decision` just before the action: replayed from the finished hand.
    pub fn before(&self, decision: &Decision) -> HandState {
        state_before(&self.hands[decision.hand], decision.action)
    }
}

/// `finished` replayed up to (not including) its `index`-th action, the cards dealt as in
/// `finished`.
pub fn state_before(finished: &HandState, index: usize) -> HandState {
    let mut hand = HandState::new(*finished.config());
    for position in 0..2u8 {
        if let Some(cards) = finished.hole_cards(position) {
            let _ = hand.deal_hole_cards(position, cards);
        }
    }
    let board = finished.board();
    let deal_due = |hand: &mut HandState| {
        while hand.board_cards_due() > 0 {
            let Some(&card) = board.get(hand.board().len()) else {
                return;
            };
            if hand.deal_board_card(card).is_err() {
                return;
            }
        }
    };
    for action in finished.actions().take(index) {
        deal_due(&mut hand);
        if hand.apply(action).is_err() {
            break;
        }
    }
    deal_due(&mut hand);
    hand
}

/// Where a match's decisions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchUse {
    /// Both bots are training bots: most hands train, every fifth is held out.
    Training,
    /// One bot is held out: only its decisions are kept, to test on.
    HeldOutBot { seat: usize },
}

/// Plays `hands` hands between `bots` (seats rotating every hand, as the ACPC dealer
/// does) on the reference dealer's cards for `seed`, and records the decisions.
pub fn play_match(
    bots: [&mut Member; 2],
    ids: [usize; 2],
    hands: u64,
    seed: u32,
    usage: MatchUse,
    data: &mut Dataset,
) {
    let [first, second] = bots;
    let seats: [&mut Member; 2] = [first, second];
    let mut dealer = Dealer::new(seed);
    for hand_number in 0..hands {
        let deal = dealer.next_hand();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        for position in 0..2u8 {
            let _ = hand.deal_hole_cards(position, deal.holes[usize::from(position)]);
        }
        let mut decisions = Vec::new();
        loop {
            while hand.board_cards_due() > 0 {
                let next = deal.board[hand.board().len().min(4)];
                let _ = hand.deal_board_card(next);
            }
            let Some(position) = hand.to_act() else {
                break;
            };
            // Seat 0 is the big blind (position 0) in even hands.
            let seat = ((u64::from(position) + hand_number) % 2) as usize;
            let Some(view) = BotView::from_state(&hand, position, hand_number) else {
                break;
            };
            let seen = hand.seen_by(position);
            let mut action = seats[seat].act(&view, &seen);
            if !hand.is_legal(action) {
                action = Action::Call;
            }
            if decisions.len() < MAX_DECISIONS_PER_HAND {
                decisions.push((hand.action_count(), ActionClass::of(&hand, action), seat));
            }
            if hand.apply(action).is_err() {
                let _ = hand.apply(Action::Call);
            }
        }
        let index = data.hands.len();
        data.hands.push(hand);
        for (action, class, seat) in decisions {
            let decision = Decision {
                hand: index,
                action,
                class,
                bot: ids[seat],
            };
            match usage {
                MatchUse::Training if hand_number % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 => {
                    data.held_out_hands.push(decision)
                }
                MatchUse::Training => data.train.push(decision),
                MatchUse::HeldOutBot { seat: held } if held == seat => {
                    data.held_out_bot.push(decision)
                }
                MatchUse::HeldOutBot { .. } => {}
            }
        }
    }
}

/// Every pair of the training population plays `hands` hands, and the held-out bot plays
/// `hands` against each of them. Match `k` uses the deal seed `seed + k`.
pub fn generate(
    population: &mut [(String, Member)],
    holdout: &mut Member,
    hands: u64,
    seed: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Dataset {
    let mut data = Dataset::default();
    let n = population.len();
    let total = n * (n - 1) / 2 + n;
    let mut played = 0;
    for i in 0..n {
        for j in i + 1..n {
            let (left, right) = population.split_at_mut(j);
            let bots = [&mut left[i].1, &mut right[0].1];
            let match_seed = seed.wrapping_add(played as u32);
            play_match(
                bots,
                [i, j],
                hands,
                match_seed,
                MatchUse::Training,
                &mut data,
            );
            played += 1;
            progress(played, total);
        }
    }
    for (i, (_, bot)) in population.iter_mut().enumerate() {
        let match_seed = seed.wrapping_add(played as u32);
        let usage = MatchUse::HeldOutBot { seat: 1 };
        play_match([bot, holdout], [i, n], hands, match_seed, usage, &mut data);
        played += 1;
        progress(played, total);
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::holdem_model::population::parse_member;

    #[test]
    fn replayed_states_match_the_play_and_the_splits_are_apart() {
        let mut population: Vec<(String, Member)> = ["random:seed=2", "style:seed=4", "call"]
            .iter()
            .map(|s| (s.to_string(), parse_member(s).unwrap()))
            .collect();
        let mut holdout = parse_member("style:seed=9").unwrap();
        let data = generate(&mut population, &mut holdout, 10, 7, &mut |_, _| {});
        assert_eq!(data.hands.len(), 6 * 10);
        assert!(!data.train.is_empty() && !data.held_out_hands.is_empty());
        assert!(data.held_out_bot.iter().all(|d| d.bot == 3));
        assert!(data.train.iter().all(|d| d.bot < 3));
        for decision in data.train.iter().chain(&data.held_out_bot) {
            let before = data.before(decision);
            assert_eq!(before.action_count(), decision.action);
            let action = data.hands[decision.hand].action(decision.action).unwrap();
            assert!(before.is_legal(action));
            assert_eq!(ActionClass::of(&before, action), decision.class);
        }
        let train_hands: std::collections::HashSet<usize> =
            data.train.iter().map(|d| d.hand).collect();
        assert!(
            data.held_out_hands
                .iter()
                .all(|d| !train_hands.contains(&d.hand))
        );
    }
}
