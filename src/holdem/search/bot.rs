//! The staged-search bot: preflop by a preflop policy (the equity bot until the expert
//! chart lands), from the flop on by [`search`](super::search) over the opponent's range,
//! tracked by Bayes under the opponent model.
use super::models::StrengthModel;
use super::{ChanceMode, SearchConfig, opponent_range, search};
use crate::holdem::bots::{BotView, DEFAULT_EQUITY_SAMPLES, EquityBot, HoldemBot};
use crate::holdem::policy::ActionModel;
use crate::holdem::rules::{Action, HandState, Street};
use crate::rng::stream_seed;

/// The staged bot's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StagedSettings {
    /// Seeds the sampled deals and the preflop policy.
    pub seed: u64,
    /// Cards drawn at each deal when searching from the flop (3..=48).
    pub flop_samples: u8,
    /// Whether the turn's river card is enumerated (else sampled like the flop's).
    pub exact_turn: bool,
    /// The most raises per round in the tree when searching from the turn or the river.
    pub max_raises_per_round: u8,
    /// The most raises per round in the tree when searching from the flop, whose tree spans
    /// three rounds (a smaller cap keeps it within the time budget).
    pub flop_max_raises_per_round: u8,
    /// Opponent branches below this reach-weighted probability are dropped.
    pub min_branch_probability: f32,
}

impl Default for StagedSettings {
    fn default() -> Self {
        StagedSettings {
            seed: 1,
            flop_samples: 4,
            exact_turn: true,
            max_raises_per_round: 1,
            flop_max_raises_per_round: 1,
            min_branch_probability: 0.02,
        }
    }
}

impl StagedSettings {
    /// The search settings for `street` (not preflop).
    pub fn config(&self, street: Street, seed: u64) -> SearchConfig {
        let sampled = ChanceMode::Sampled {
            cards_per_deal: self.flop_samples.max(3),
        };
        let chance = match street {
            Street::Turn if self.exact_turn => ChanceMode::Exact,
            Street::River => ChanceMode::Exact,
            _ => sampled,
        };
        SearchConfig {
            chance,
            max_raises_per_round: if street == Street::Flop {
                self.flop_max_raises_per_round
            } else {
                self.max_raises_per_round
            },
            min_branch_probability: self.min_branch_probability,
            seed,
        }
    }
}

/// Plays preflop by the equity bot, then by the staged search with `Opponent` as the model
/// of the opponent's actions (for its nodes and its range) and `Own` as our policy below the
/// root. The defaults are the stand-in [`StrengthModel`] for both.
#[derive(Clone, Debug)]
pub struct StagedBot<Opponent = StrengthModel, Own = StrengthModel> {
    settings: StagedSettings,
    opponent: Opponent,
    own: Own,
    preflop: EquityBot,
}

impl StagedBot {
    /// The bot with the stand-in models.
    pub fn new(settings: StagedSettings) -> StagedBot {
        StagedBot::with_models(settings, StrengthModel::default(), StrengthModel::default())
    }
}

impl<Opponent: ActionModel, Own: ActionModel> StagedBot<Opponent, Own> {
    /// The bot with these models.
    pub fn with_models(settings: StagedSettings, opponent: Opponent, own: Own) -> Self {
        StagedBot {
            settings,
            opponent,
            own,
            preflop: EquityBot::new(settings.seed, DEFAULT_EQUITY_SAMPLES),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &StagedSettings {
        &self.settings
    }
}

impl<Opponent: ActionModel, Own: ActionModel> HoldemBot for StagedBot<Opponent, Own> {
    fn name(&self) -> &str {
        "staged"
    }

    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        let me = view.position;
        // The search needs the hand itself; a view that does not match it (a caller that
        // passes only the summary) falls back to the preflop policy.
        let consistent = seen.to_act() == Some(me) && seen.hole_cards(me) == Some(view.hole);
        if seen.street() == Street::Preflop || !consistent {
            return self.preflop.act(view, seen);
        }
        let range = opponent_range(seen, me, &self.opponent);
        // Each decision's samples depend on the hand and the situation only.
        let situation = (seen.action_count() as u64) << 8 | u64::from(view.board_len);
        let seed = stream_seed(stream_seed(self.settings.seed, view.hand), situation);
        let config = self.settings.config(seen.street(), seed);
        match search(seen, me, &range, &self.opponent, &self.own, config) {
            Ok(result) if seen.is_legal(result.best.action) => result.best.action,
            _ => self.preflop.act(view, seen),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::bots::AlwaysCall;
    use crate::holdem::deal::Dealer;
    use crate::holdem::rules::HoldemConfig;

    /// Plays `hands` hands of the staged bot (position 0) against `other`, checking that
    /// every action is legal; returns the staged bot's actions after preflop.
    fn play(bot: &mut StagedBot, other: &mut dyn HoldemBot, hands: u64) -> Vec<Action> {
        let mut dealer = Dealer::new(11);
        let mut postflop = Vec::new();
        for number in 0..hands {
            let deal = dealer.next_hand();
            let mut hand = HandState::new(HoldemConfig::ACPC);
            hand.deal_hole_cards(0, deal.holes[0]).unwrap();
            hand.deal_hole_cards(1, deal.holes[1]).unwrap();
            while !hand.is_over() {
                if hand.board_cards_due() > 0 {
                    let next = deal.board[hand.board().len()];
                    hand.deal_board_card(next).unwrap();
                    continue;
                }
                let actor = hand.to_act().unwrap();
                let view = BotView::from_state(&hand, actor, number).unwrap();
                let seen = hand.seen_by(actor);
                let action = if actor == 0 {
                    let action = bot.act(&view, &seen);
                    if hand.street() != Street::Preflop {
                        postflop.push(action);
                    }
                    action
                } else {
                    other.act(&view, &seen)
                };
                hand.apply(action).unwrap();
            }
        }
        postflop
    }

    #[test]
    fn plays_legal_actions_and_searches_after_the_flop() {
        let settings = StagedSettings {
            flop_samples: 3,
            exact_turn: false,
            ..StagedSettings::default()
        };
        let mut bot = StagedBot::new(settings);
        let postflop = play(&mut bot, &mut AlwaysCall, 6);
        assert!(!postflop.is_empty());
        // The same seed plays the same way.
        let again = play(&mut StagedBot::new(settings), &mut AlwaysCall, 6);
        assert_eq!(postflop, again);
    }
}
