//! What the expert bot learns about its opponent across hands (from the ends of hands it
//! sees): how often it raises preflop in each kind of spot, how often it folds to a bet,
//! and whether its actions say anything about its cards. Counts only; no allocation.
use super::chart::{Situation, situation};
use super::classes::{CLASSES, HandClass};
use super::preflop_equity::equity_vs_classes;
use crate::holdem::learned::{LearnedError, LearnedReader, LearnedWriter};
use crate::holdem::policy::ActionClass;
use crate::holdem::rules::{HandState, Position};

/// The trust at and below which an opponent counts as card-blind.
pub const CARD_BLIND_TRUST: f32 = 0.2;

/// Observations of one yes/no event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    pub hits: u32,
    pub chances: u32,
}

impl Rate {
    fn record(&mut self, hit: bool) {
        self.chances = self.chances.saturating_add(1);
        self.hits = self.hits.saturating_add(u32::from(hit));
    }

    /// The rate, pulled toward `prior` as if `weight` chances had shown it.
    pub fn share(&self, prior: f32, weight: f32) -> f32 {
        (self.hits as f32 + prior * weight) / (self.chances as f32 + weight)
    }
}

/// The opponent's tendencies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpponentStats {
    /// Preflop, raising when nobody has raised yet.
    pub first_raise: Rate,
    /// Preflop, raising when facing a raise.
    pub reraise: Rate,
    /// Preflop, going all-in when a raise is possible.
    pub all_in: Rate,
    /// After the flop, folding when facing a bet.
    pub fold_to_bet: Rate,
    /// Every action, by class.
    pub actions: [u32; 5],
    /// Showdowns after raising: the sum of the shown hands' strength (equity against a
    /// uniform range) and their number.
    pub raiser_strength: f32,
    pub raiser_showdowns: u32,
}

impl OpponentStats {
    /// Learns from a finished hand, seen by `me`.
    pub fn observe_hand(&mut self, seen: &HandState, me: Position) {
        let opponent = me ^ 1;
        let mut raised = false;
        seen.replay(|before, actor, action| {
            if actor != opponent {
                return;
            }
            let class = ActionClass::of(before, action);
            self.actions[class.index()] = self.actions[class.index()].saturating_add(1);
            raised |= class.is_raise();
            let can_raise = before.raise_bounds().is_some();
            if let Some((spot, _)) = situation(before) {
                if can_raise {
                    self.all_in.record(class == ActionClass::AllIn);
                    match spot {
                        Situation::SbOpen | Situation::BbVsLimp => {
                            self.first_raise.record(class.is_raise())
                        }
                        Situation::VsAllIn => {}
                        _ => self.reraise.record(class.is_raise()),
                    }
                }
            } else if before.can_fold() {
                self.fold_to_bet.record(class == ActionClass::Fold);
            }
        });
        if raised {
            if let Some(class) = seen
                .hole_cards(opponent)
                .and_then(|[a, b]| HandClass::of(a, b))
            {
                self.raiser_strength += equity_vs_classes(class, &[1.0; CLASSES]);
                self.raiser_showdowns = self.raiser_showdowns.saturating_add(1);
            }
        }
    }

    /// Appends the statistics to a learned block (15 words: the four rates, the five action
    /// counts, the raisers' strength and showdowns).
    pub fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        for rate in [
            self.first_raise,
            self.reraise,
            self.all_in,
            self.fold_to_bet,
        ] {
            out.u32(rate.hits);
            out.u32(rate.chances);
        }
        for &count in &self.actions {
            out.u32(count);
        }
        out.f32(self.raiser_strength);
        out.u32(self.raiser_showdowns);
    }

    /// The statistics [`OpponentStats::write_learned`] wrote. Errors: a rate with more hits
    /// than chances, a strength that is not a sum of equities (negative, not finite, or
    /// above the showdowns it sums).
    pub fn read_learned(input: &mut LearnedReader<'_>) -> Result<OpponentStats, LearnedError> {
        let mut rates = [Rate::default(); 4];
        for rate in &mut rates {
            let hits = input.u32()?;
            let chances = input.u32()?;
            if hits > chances {
                return Err(LearnedError::BadPayload);
            }
            *rate = Rate { hits, chances };
        }
        let mut actions = [0u32; 5];
        for count in &mut actions {
            *count = input.u32()?;
        }
        let raiser_strength = input.count()?;
        let raiser_showdowns = input.u32()?;
        if raiser_strength > raiser_showdowns as f32 {
            return Err(LearnedError::BadPayload);
        }
        let [first_raise, reraise, all_in, fold_to_bet] = rates;
        Ok(OpponentStats {
            first_raise,
            reraise,
            all_in,
            fold_to_bet,
            actions,
            raiser_strength,
            raiser_showdowns,
        })
    }

    /// The share of hands the opponent is taken to hold in `spot`: the nominal share, or
    /// more when it has been seen to act so more often.
    pub fn implied_share(&self, spot: Situation) -> f32 {
        let nominal = spot.nominal_range_share();
        let observed = match spot {
            Situation::SbOpen | Situation::BbVsLimp => return nominal,
            Situation::VsRaiseSmall | Situation::VsRaiseMedium | Situation::VsRaiseBig => {
                self.first_raise.share(nominal, 10.0)
            }
            Situation::VsAllIn => self.all_in.share(nominal, 10.0),
            _ => self.reraise.share(nominal, 10.0),
        };
        // An opponent whose actions say little about its cards holds more than its
        // frequencies show: with no trust at all, any hand.
        let share = nominal.max(observed).min(1.0);
        share + (1.0 - share) * (1.0 - self.trust())
    }

    /// The opponent's rate of folding to a bet after the flop (0.35 before any evidence).
    pub fn fold_to_bet(&self) -> f32 {
        self.fold_to_bet.share(0.35, 5.0)
    }

    /// Whether its actions are seen to say (almost) nothing about its cards: a
    /// [`trust`](OpponentStats::trust) of at most [`CARD_BLIND_TRUST`]. With no evidence the
    /// trust is 1; an opponent of one action class reaches 0 after 20 actions, one of mixed
    /// actions after about 20 showdowns of average hands it raised with.
    pub fn card_blind(&self) -> bool {
        self.trust() <= CARD_BLIND_TRUST
    }

    /// Whether it is seen to fold (almost) never: fewer than 1 action in 100, over 20 or
    /// more. Such an opponent calls a bet of any size.
    pub fn never_folds(&self) -> bool {
        let total: u32 = self.actions.iter().sum();
        let folds = self.actions[ActionClass::Fold.index()];
        total >= 20 && u64::from(folds) * 100 < u64::from(total)
    }

    /// How much its actions say about its cards, 0..=1: near 0 for a player that almost
    /// always plays the same class of action, or whose raises show average hands.
    pub fn trust(&self) -> f32 {
        let total: u32 = self.actions.iter().sum();
        let dominant = self.actions.iter().copied().max().unwrap_or(0);
        let monotone = if total < 20 {
            1.0
        } else {
            ((0.95 - dominant as f32 / total as f32) / 0.2).clamp(0.0, 1.0)
        };
        // Prior: three showdowns of strong raisers.
        let mean = (self.raiser_strength + 3.0 * 0.65) / (self.raiser_showdowns as f32 + 3.0);
        let informative = ((mean - 0.5) / 0.1).clamp(0.0, 1.0);
        monotone * informative
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::{Action, HoldemConfig};

    #[test]
    fn a_shover_widens_its_all_in_range_and_loses_trust() {
        let mut stats = OpponentStats::default();
        assert_eq!(stats.implied_share(Situation::VsAllIn), 0.12);
        assert!(stats.trust() > 0.9);
        for _ in 0..40 {
            // The opponent (position 1) shoves first in; we fold.
            let mut hand = HandState::new(HoldemConfig::ACPC);
            hand.apply(Action::RaiseTo(20_000)).unwrap();
            hand.apply(Action::Fold).unwrap();
            stats.observe_hand(&hand, 0);
        }
        assert!(stats.implied_share(Situation::VsAllIn) > 0.75);
        assert_eq!(stats.trust(), 0.0);
        assert_eq!(stats.first_raise.chances, 40);
    }

    #[test]
    fn replay_visits_every_action_with_its_board() {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, [Card::ALL[0], Card::ALL[1]])
            .unwrap();
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for byte in 10..13 {
            hand.deal_board_card(Card::ALL[byte]).unwrap();
        }
        hand.apply(Action::RaiseTo(300)).unwrap();
        hand.apply(Action::Fold).unwrap();
        let mut seen = [0usize; 4];
        let mut count = 0;
        hand.replay(|before, actor, _| {
            seen[count] = before.board().len() * 10 + usize::from(actor);
            count += 1;
        });
        assert_eq!(count, 4);
        assert_eq!(seen, [1, 0, 30, 31]);
        let mut stats = OpponentStats::default();
        stats.observe_hand(&hand, 0);
        assert_eq!(
            stats.fold_to_bet,
            Rate {
                hits: 1,
                chances: 1
            }
        );
    }
}
