//! The expert bot: the preflop chart's rule (with the real price and the opponent's
//! observed ranges), then the postflop rules on the exact equity of its hand against the
//! opponent's range, narrowed by Bayes from the opponent's actions under the expert model.
//! Randomness (bluffs) comes from a generator seeded per decision from the bot's seed, the
//! hand's number and the situation, so a decision depends on nothing but those and what
//! the bot has learnt from earlier hands.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::chart::{decide_with_odds, situation};
use super::classes::HandClass;
use super::model::{Blended, ExpertModel};
use super::opponent::OpponentStats;
use super::postflop::probabilities;
use super::range_equity::sampled_equity;
use super::style::Style;
use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::equity::{COMBOS, hand_vs_range};
use crate::holdem::learned::{LearnedError, LearnedReader, LearnedWriter};
use crate::holdem::policy::ActionClass;
use crate::holdem::range::Range;
use crate::holdem::rules::{Action, HandState, Position};
use crate::rng::stream_seed;

/// Deals sampled for the flop equity.
pub const FLOP_SAMPLES: u32 = 1000;

/// The expert bot: a [`Style`], a seed and what it has learnt of its opponent.
#[derive(Clone, Debug)]
pub struct ExpertBot {
    style: Style,
    seed: u64,
    opponent: OpponentStats,
}

impl ExpertBot {
    pub fn new(style: Style, seed: u64) -> ExpertBot {
        ExpertBot {
            style,
            seed,
            opponent: OpponentStats::default(),
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
        let opponent = me ^ 1;
        let mut range = Range::uniform();
        let trust = self.opponent.trust();
        seen.replay(|before, actor, action| {
            if actor != opponent || trust <= 0.0 {
                return;
            }
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
        range
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

    // Not inlined into a caller that dispatches among bots (`Baseline`): its range and
    // models would make every bot's call reserve its stack.
    #[inline(never)]
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        if let Some(action) = self.preflop(view, seen) {
            return action;
        }
        let me = view.position;
        let range = self.opponent_range(seen, me);
        let decision = (u64::from(view.board_len) << 40)
            ^ (u64::from(view.committed[0]) << 20)
            ^ u64::from(view.committed[1]);
        let mut rng =
            XorShiftRng::seed_from_u64(stream_seed(stream_seed(self.seed, view.hand), decision));
        // Exact on the turn and river (a few milliseconds), sampled on the flop.
        let equity = if view.board().len() >= 4 {
            hand_vs_range(view.hole, range.weights(), view.board())
                .map(|s| s.equity() as f32)
                .unwrap_or(0.5)
        } else {
            sampled_equity(
                view.hole,
                range.weights(),
                view.board(),
                FLOP_SAMPLES,
                &mut rng,
            )
        };
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
