//! The reference dealer's limit on a seat's average time per hand over a match
//! (`--t_per_hand`, here `--match-ms-per-hand`): in each half (one reference match) a bot
//! may spend at most that many milliseconds times the half's hands, summed over all its
//! actions, and the match ends with an `ERROR` at the hand where it goes over. It is
//! checked on the CSV rows in match order, so a resumed or distributed match stops at the
//! same hand as one uninterrupted run.
use std::time::Duration;

use super::report::Row;
use crate::harness::Failure;

pub struct MatchTime {
    per_hand: Duration,
    hands: u64,
    /// Nanoseconds used so far, by half and bot.
    used_ns: [[u64; 2]; 2],
}

impl MatchTime {
    pub fn new(per_hand: Duration, hands: u64) -> MatchTime {
        MatchTime {
            per_hand,
            hands,
            used_ns: [[0; 2]; 2],
        }
    }

    /// A bot's budget for a half, nanoseconds.
    fn budget_ns(&self) -> u64 {
        let total = self
            .per_hand
            .as_nanos()
            .saturating_mul(u128::from(self.hands));
        total.min(u128::from(u64::MAX)) as u64
    }

    /// Adds `row`'s action times to its bots' totals; the `ERROR` that ends the match when
    /// a bot (named by `names`, bot0 and bot1) goes over its budget.
    pub fn charge(&mut self, row: &Row, names: &[String; 2]) -> Result<(), Failure> {
        let budget = self.budget_ns();
        let half = usize::from(row.half.min(1));
        for (bot, times) in row.latency_ns.iter().enumerate() {
            let spent: u64 = times.iter().fold(0u64, |sum, &ns| sum.saturating_add(ns));
            let used = &mut self.used_ns[half][bot];
            *used = used.saturating_add(spent);
            if *used > budget {
                // bot0 sits in seat 0 in the first half, seat 1 in the swapped one.
                let seat = bot ^ half;
                return Err(Failure::Job(format!(
                    "ERROR: hand {}: seat {seat} ({}): ran out of time: {} ms in this match, \
                     over the limit of {} ms a hand on average ({} ms for {} hands)",
                    row.hand,
                    names[bot],
                    *used / 1_000_000,
                    self.per_hand.as_millis(),
                    budget / 1_000_000,
                    self.hands
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(half: u8, hand: u64, bot0_ms: &[u64], bot1_ms: &[u64]) -> Row {
        let ns = |ms: &[u64]| ms.iter().map(|m| m * 1_000_000).collect();
        Row {
            half,
            hand,
            chips: [0, 0],
            warnings: 0,
            latency_ns: [ns(bot0_ms), ns(bot1_ms)],
            state: String::new(),
        }
    }

    #[test]
    fn a_bot_over_its_average_time_per_hand_ends_the_match_at_that_hand() {
        let names = ["fast".to_owned(), "slow".to_owned()];
        // 10 ms a hand over 4 hands: 40 ms for each bot in each half.
        let mut time = MatchTime::new(Duration::from_millis(10), 4);
        // One slow hand is allowed while the total stays within the budget.
        time.charge(&row(0, 0, &[1], &[30]), &names).unwrap();
        time.charge(&row(0, 1, &[1], &[10]), &names).unwrap();
        // The second half starts its own budget.
        time.charge(&row(1, 0, &[1], &[40]), &names).unwrap();
        let error = time.charge(&row(0, 2, &[1], &[1]), &names).unwrap_err();
        let (Failure::Job(text) | Failure::Usage(text)) = error;
        assert_eq!(
            text,
            "ERROR: hand 2: seat 1 (slow): ran out of time: 41 ms in this match, over the \
             limit of 10 ms a hand on average (40 ms for 4 hands)"
        );
        // In the swapped half bot1 sits in seat 0.
        let error = time.charge(&row(1, 1, &[], &[1]), &names).unwrap_err();
        let (Failure::Job(text) | Failure::Usage(text)) = error;
        assert!(text.starts_with("ERROR: hand 1: seat 0 (slow)"), "{text}");
    }
}
