//! The expert bot: the preflop chart's rule (with the real price and the opponent's
//! observed ranges), then the postflop rules on the exact equity of its hand against the
//! opponent's range, narrowed by Bayes from the opponent's actions under the expert model.
//! Randomness (bluffs) comes from a generator seeded per decision from the bot's seed, the
//! hand's number and the situation, so a decision depends on nothing but those and what
//! the bot has learnt from earlier hands.
//!
//! Under a stop (`act_until`), the postflop decision asks it before each Bayes update of the
//! range (one of the opponent's actions, about 0.4 ms) and, on the turn, before each river
//! card of the exact equity (about 0.1 ms each). Once it says stop the bot does no more of
//! either: it plays the same rules on the range narrowed by the actions observed so far, with
//! the cheap equity the expert model uses in a search ([`cheap_equity`]: the share of that
//! range beaten now plus the draws' chances, 33 µs) in place of the exact or sampled one.
//! The preflop rule is a few microseconds and does not poll.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::chart::{decide_with_odds, situation};
use super::classes::HandClass;
use super::exploit::{self, UniformEquity};
use super::model::{Blended, ExpertModel, cheap_equity};
use super::opponent::OpponentStats;
use super::postflop::probabilities;
use super::range_equity::{exact_equity_until, sampled_equity};
use super::style::Style;
use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::equity::COMBOS;
use crate::holdem::learned::{LearnedError, LearnedReader, LearnedWriter};
use crate::holdem::policy::ActionClass;
use crate::holdem::range::Range;
use crate::holdem::rules::{Action, HandState, Position};
use crate::rng::stream_seed;
use crate::search::mcts::{Never, Stop};

/// Deals sampled for the flop equity.
pub const FLOP_SAMPLES: u32 = 1000;

/// The expert bot: a [`Style`], a seed and what it has learnt of its opponent.
#[derive(Clone, Debug)]
pub struct ExpertBot {
    style: Style,
    seed: u64,
    opponent: OpponentStats,
    /// The shove threshold of the best response to a card-blind opponent
    /// ([`exploit`](super::exploit)), `None` when off.
    exploit: Option<f64>,
    /// The exploit's equities against a uniform range, cached.
    uniform: UniformEquity,
}

impl ExpertBot {
    pub fn new(style: Style, seed: u64) -> ExpertBot {
        ExpertBot {
            style,
            seed,
            opponent: OpponentStats::default(),
            exploit: None,
            uniform: UniformEquity::default(),
        }
    }

    /// The draws of one decision: a stream of the seed, the hand and the decision's place in
    /// it, so a decision does not depend on the ones before it.
    fn decision_rng(&self, view: &BotView) -> XorShiftRng {
        let decision = (u64::from(view.board_len) << 40)
            ^ (u64::from(view.committed[0]) << 20)
            ^ u64::from(view.committed[1]);
        XorShiftRng::seed_from_u64(stream_seed(stream_seed(self.seed, view.hand), decision))
    }

    /// The bot that, once its opponent is seen to be card-blind, plays the best response to
    /// a uniform range ([`exploit`](super::exploit)), going all in with an equity of
    /// `shove_percent`% or more; `0` turns it off.
    pub fn with_exploit(self, shove_percent: u8) -> ExpertBot {
        ExpertBot {
            exploit: (shove_percent > 0).then(|| f64::from(shove_percent) / 100.0),
            ..self
        }
    }

    pub fn style(&self) -> &Style {
        &self.style
    }

    /// What it has learnt of its opponent.
    pub fn opponent(&self) -> &OpponentStats {
        &self.opponent
    }

    /// The opponent's range as `me` sees it in `seen`: every holding without a seen card,
    /// weighted by Bayes for each of the opponent's actions under the balanced expert model,
    /// trusted as far as [`OpponentStats::trust`] says.
    pub fn opponent_range(&self, seen: &HandState, me: Position) -> Range {
        self.opponent_range_until(seen, me, &mut Never).0
    }

    /// [`opponent_range`](ExpertBot::opponent_range) asking `stop` before each of the
    /// opponent's actions it learns from: once stopped, the range narrowed by the actions
    /// before, and `true`.
    pub fn opponent_range_until(
        &self,
        seen: &HandState,
        me: Position,
        stop: &mut dyn Stop,
    ) -> (Range, bool) {
        let opponent = me ^ 1;
        let mut range = Range::uniform();
        let trust = self.opponent.trust();
        let (mut polls, mut stopped) = (0, false);
        seen.replay(|before, actor, action| {
            if stopped || actor != opponent || trust <= 0.0 {
                return;
            }
            if stop.stop(polls) {
                stopped = true;
                return;
            }
            polls += 1;
            let class = ActionClass::of(before, action);
            // The opponent's strength is judged against a uniform range for us.
            let model = ExpertModel::new(Style::BALANCED, before.board(), &[1.0; COMBOS]);
            let blended = Blended {
                inner: &model,
                trust,
            };
            range.observe(before, opponent, class, &blended);
        });
        range.remove_dead(seen.dealt_mask());
        (range, stopped)
    }

    fn preflop(&self, view: &BotView, seen: &HandState) -> Option<Action> {
        let (spot, depth) = situation(seen)?;
        let class = HandClass::of(view.hole[0], view.hole[1])?;
        let to_call = view.to_call() as f32;
        let pot_after_call = view.pot() as f32 + to_call;
        let behind_after_call = seen.behind(view.position) as f32 - to_call;
        let share = self.opponent.implied_share(spot);
        // The chart's rule at the real price, against the range this opponent has shown.
        let cell = decide_with_odds(
            class,
            spot,
            depth,
            &self.style,
            share,
            Some((to_call, pot_after_call, behind_after_call)),
        );
        Some(cell.to_action(seen))
    }
}

impl HoldemBot for ExpertBot {
    fn name(&self) -> &str {
        "expert"
    }

    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        self.act_until(view, seen, &mut Never)
    }

    // Not inlined into a caller that dispatches among bots (`Baseline`): its range and
    // models would make every bot's call reserve its stack.
    #[inline(never)]
    fn act_until(&mut self, view: &BotView, seen: &HandState, stop: &mut dyn Stop) -> Action {
        if let Some(shove_at) = self.exploit.filter(|_| self.opponent.card_blind()) {
            let mut rng = self.decision_rng(view);
            return exploit::decide(
                view,
                seen,
                &self.opponent,
                shove_at,
                &mut self.uniform,
                &mut rng,
            );
        }
        if let Some(action) = self.preflop(view, seen) {
            return action;
        }
        let mut rng = self.decision_rng(view);
        let me = view.position;
        let (range, stopped) = self.opponent_range_until(seen, me, stop);
        // Exact on the turn and river (milliseconds on the turn, so it polls), sampled on
        // the flop (well under a millisecond); once stopped, the cheap estimate.
        let equity = if stopped {
            None
        } else if view.board().len() >= 4 {
            exact_equity_until(view.hole, range.weights(), view.board(), stop).unwrap_or(Some(0.5))
        } else {
            Some(sampled_equity(
                view.hole,
                range.weights(),
                view.board(),
                FLOP_SAMPLES,
                &mut rng,
            ))
        };
        let equity =
            equity.unwrap_or_else(|| cheap_equity(view.hole, view.board(), range.weights()));
        let Some(features) = ExpertModel::features(seen, equity, self.opponent.fold_to_bet())
        else {
            return Action::Call;
        };
        let p = probabilities(&features, &self.style);
        let draw = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        let mut class = ActionClass::Call;
        let mut running = 0.0;
        for candidate in ActionClass::ALL {
            running += p[candidate.index()];
            if p[candidate.index()] > 0.0 {
                class = candidate;
                if draw < running {
                    break;
                }
            }
        }
        class.representative(seen).unwrap_or(Action::Call)
    }

    fn hand_over(&mut self, seen: &HandState, position: Position) {
        self.opponent.observe_hand(seen, position);
    }

    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        self.opponent.write_learned(out);
    }

    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        self.opponent = OpponentStats::read_learned(input)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::bots::parse_bot;
    use crate::holdem::card::Card;
    use crate::holdem::rules::HoldemConfig;
    use crate::search::mcts::PollCounter;

    const NEVER: u32 = u32::MAX;

    /// The turn or the river, the opponent having raised preflop and bet every street since:
    /// the hand as the player to act sees it, and its view. The opponent acted three times
    /// on the turn, four on the river.
    fn facing_bets(streets: usize) -> (HandState, BotView) {
        let card = |text| Card::parse(text).unwrap();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let opponent = hand.to_act().unwrap();
        let me = opponent ^ 1;
        hand.deal_hole_cards(me, [card("Qh"), card("Jh")]).unwrap();
        hand.deal_hole_cards(opponent, [card("Ac"), card("Kd")])
            .unwrap();
        hand.apply(Action::RaiseTo(300)).unwrap();
        hand.apply(Action::Call).unwrap();
        let board = ["Ts", "9h", "2c", "4h", "8d"];
        let mut bet = 300;
        for (street, cards) in [&board[..3], &board[3..4], &board[4..]].iter().enumerate() {
            for text in cards.iter() {
                hand.deal_board_card(card(text)).unwrap();
            }
            if hand.to_act() == Some(me) {
                hand.apply(Action::Call).unwrap();
            }
            bet *= 2;
            hand.apply(Action::RaiseTo(bet)).unwrap();
            if street + 1 == streets {
                break;
            }
            hand.apply(Action::Call).unwrap();
        }
        let seen = hand.seen_by(me);
        let view = BotView::from_state(&seen, me, 9).unwrap();
        (seen, view)
    }

    fn act_with_stop_at(
        bot: &mut dyn HoldemBot,
        seen: &HandState,
        view: &BotView,
        fire_at: u32,
    ) -> (Action, u32) {
        let mut stop = PollCounter { polls: 0, fire_at };
        let action = bot.act_until(view, seen, &mut stop);
        (action, stop.polls)
    }

    #[test]
    fn a_stop_that_never_fires_gives_acts_decision() {
        for (streets, polls) in [(2, 3 + 46), (3, 4)] {
            let (seen, view) = facing_bets(streets);
            let mut bot = ExpertBot::new(Style::BALANCED, 5);
            // Three (four) Bayes updates, and on the turn one poll a river card.
            let (action, polled) = act_with_stop_at(&mut bot, &seen, &view, NEVER);
            assert_eq!(polled, polls);
            assert_eq!(action, bot.act(&view, &seen));
        }
    }

    #[test]
    fn a_stop_gives_a_legal_action_at_once() {
        let (seen, view) = facing_bets(2);
        let mut bot = ExpertBot::new(Style::BALANCED, 5);
        let mut decisions = [Action::Fold; 3 + 46];
        for fire_at in 1..=3 + 46 {
            let (action, polls) = act_with_stop_at(&mut bot, &seen, &view, fire_at);
            // Nothing more is asked, so nothing more is computed, after the stop.
            assert_eq!(polls, fire_at);
            assert!(seen.is_legal(action), "{fire_at}: {action:?}");
            decisions[fire_at as usize - 1] = action;
        }
        // Stopped at the first poll the range is uniform; never stopped, narrowed.
        let mut stop = PollCounter {
            polls: 0,
            fire_at: 1,
        };
        let me = view.position;
        let (uniform, stopped) = bot.opponent_range_until(&seen, me, &mut stop);
        assert!(stopped);
        let mut expected = Range::uniform();
        expected.remove_dead(seen.dealt_mask());
        assert_eq!(uniform.weights(), expected.weights());
        let (narrowed, stopped) = bot.opponent_range_until(&seen, me, &mut Never);
        assert!(!stopped);
        assert_ne!(narrowed.weights(), uniform.weights());
        // The bot made by the spec parser (the dealer's) polls and decides the same way.
        let mut spec = parse_bot("expert:seed=5").unwrap();
        for fire_at in [1, 4, 49] {
            let (action, polls) = act_with_stop_at(&mut spec, &seen, &view, fire_at);
            assert_eq!((action, polls), (decisions[fire_at as usize - 1], fire_at));
        }
    }
}
