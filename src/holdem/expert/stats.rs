//! The statistics that show a style: VPIP (share of hands where the player put chips in
//! preflop of its own will: a call that cost chips or a raise; the big blind's check does
//! not count), PFR (share of hands with a preflop raise) and the aggression factor (bets and
//! raises over calls after the flop; checks count as neither).
use crate::holdem::rules::{Action, HandState, Position, Street};

/// Counts over hands of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StyleStats {
    pub hands: u64,
    pub voluntary: u64,
    pub preflop_raises: u64,
    /// After the flop: bets and raises, and calls of a bet.
    pub aggressive: u64,
    pub calls: u64,
}

impl StyleStats {
    /// Adds the hand `hand` as played by `position`.
    pub fn observe(&mut self, hand: &HandState, position: Position) {
        let (mut voluntary, mut raised) = (false, false);
        hand.replay(|before, actor, action| {
            if actor != position {
                return;
            }
            let costs = before.current_bet() > before.spent(actor);
            let preflop = before.street() == Street::Preflop;
            match action {
                Action::RaiseTo(_) if preflop => {
                    voluntary = true;
                    raised = true;
                }
                Action::Call if preflop => voluntary |= costs,
                Action::RaiseTo(_) => self.aggressive += 1,
                Action::Call if costs => self.calls += 1,
                _ => {}
            }
        });
        self.hands += 1;
        self.voluntary += u64::from(voluntary);
        self.preflop_raises += u64::from(raised);
    }

    /// VPIP, 0..=1 (0 with no hands).
    pub fn vpip(&self) -> f64 {
        ratio(self.voluntary, self.hands)
    }

    /// PFR, 0..=1.
    pub fn pfr(&self) -> f64 {
        ratio(self.preflop_raises, self.hands)
    }

    /// Aggression factor: bets and raises per call after the flop (infinite with raises and
    /// no call, 0 with neither).
    pub fn aggression_factor(&self) -> f64 {
        if self.calls == 0 {
            if self.aggressive == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            self.aggressive as f64 / self.calls as f64
        }
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::HoldemConfig;

    #[test]
    fn vpip_pfr_and_aggression_are_counted() {
        let mut stats = StyleStats::default();
        // The small blind limps, the big blind checks; on the flop the big blind bets, the
        // small blind raises, the big blind calls.
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for byte in 0..3 {
            hand.deal_board_card(Card::ALL[byte * 5]).unwrap();
        }
        hand.apply(Action::RaiseTo(200)).unwrap();
        hand.apply(Action::RaiseTo(600)).unwrap();
        hand.apply(Action::Call).unwrap();
        stats.observe(&hand, 0);
        assert_eq!((stats.voluntary, stats.preflop_raises), (0, 0));
        assert_eq!((stats.aggressive, stats.calls), (1, 1));
        stats.observe(&hand, 1);
        assert_eq!(
            (stats.hands, stats.voluntary, stats.preflop_raises),
            (2, 1, 0)
        );
        assert_eq!(stats.aggression_factor(), 2.0);
        // An open raise: VPIP and PFR.
        let mut open = HandState::new(HoldemConfig::ACPC);
        open.apply(Action::RaiseTo(250)).unwrap();
        open.apply(Action::Fold).unwrap();
        stats.observe(&open, 1);
        assert_eq!(stats.pfr(), 1.0 / 3.0);
        assert_eq!(stats.vpip(), 2.0 / 3.0);
        assert_eq!(StyleStats::default().aggression_factor(), 0.0);
    }
}
