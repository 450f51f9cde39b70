//! Equity of a hand against a weighted range: by seeded Monte Carlo, the bot's flop
//! estimate, and exactly on the turn in steps that a stop can interrupt. The exact sweep ([`crate::holdem::equity::hand_vs_range`]) deals the 1,081
//! turn-and-river pairs of a flop and measured about 40 ms a decision here, which made the
//! bot play some 20 hands a second; a thousand sampled deals take well under a
//! millisecond and are within about ±0.03 (95%).
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use crate::Error;
use crate::holdem::card::Card;
use crate::holdem::equity::{COMBOS, WeightedShowdowns, combo_cards, hand_vs_range};
use crate::holdem::eval::rank7_unchecked;
use crate::search::mcts::Stop;

/// The share of the pot `hole` wins against `weights` (combos with a seen card are skipped)
/// over `samples` deals of an opponent holding (by weight) and the rest of `board` (0 to 5
/// cards). 0.5 when no holding is possible.
pub fn sampled_equity(
    hole: [Card; 2],
    weights: &[f32; COMBOS],
    board: &[Card],
    samples: u32,
    rng: &mut XorShiftRng,
) -> f32 {
    let board = &board[..board.len().min(5)];
    let dead = hole
        .iter()
        .chain(board)
        .fold(0u64, |mask, card| mask | 1 << card.byte());
    let mut cumulative = [0f32; COMBOS];
    let mut running = 0f32;
    for (index, slot) in cumulative.iter_mut().enumerate() {
        let possible =
            combo_cards(index).is_some_and(|[a, b]| dead & (1 << a.byte() | 1 << b.byte()) == 0);
        if possible && weights[index] > 0.0 && weights[index].is_finite() {
            running += weights[index];
        }
        *slot = running;
    }
    if running <= 0.0 {
        return 0.5;
    }
    let mut mine = [0u8; 7];
    mine[0] = hole[0].byte();
    mine[1] = hole[1].byte();
    for (slot, card) in mine[2..].iter_mut().zip(board) {
        *slot = card.byte();
    }
    let (mut points, mut dealt) = (0u64, 0u64);
    for _ in 0..samples.max(1) {
        let target = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * running;
        let index = cumulative.partition_point(|&c| c <= target).min(COMBOS - 1);
        let Some([a, b]) = combo_cards(index) else {
            continue;
        };
        points += deal_and_score(
            mine,
            2 + board.len(),
            dead | 1 << a.byte() | 1 << b.byte(),
            [a.byte(), b.byte()],
            rng,
        );
        dealt += 2;
    }
    if dealt == 0 {
        0.5
    } else {
        points as f32 / dealt as f32
    }
}

/// [`hand_vs_range`]'s equity of `hole` against `weights` on `board`, bit for bit, with a
/// turn swept one river card at a time and `stop` asked before each (at most 46 polls, about
/// 0.1 ms of work apart): `Ok(None)` once it says stop. Other boards take one sweep and do
/// not poll (a river is a single board). Errors are `hand_vs_range`'s.
///
/// Bit for bit because the sweep adds each river's showdowns to its running sums in card
/// order, and one river's sweep starts its sums at zero: adding its totals in the same
/// order repeats the same additions (a test compares the bits).
pub fn exact_equity_until(
    hole: [Card; 2],
    weights: &[f32; COMBOS],
    board: &[Card],
    stop: &mut dyn Stop,
) -> Result<Option<f32>, Error> {
    let [a, b, c, d] = match board {
        [a, b, c, d] => [*a, *b, *c, *d],
        _ => return hand_vs_range(hole, weights, board).map(|s| Some(s.equity() as f32)),
    };
    let dead = [a, b, c, d, hole[0], hole[1]]
        .iter()
        .fold(0u64, |mask, card| mask | 1 << card.byte());
    let mut total = WeightedShowdowns::default();
    let mut polls = 0;
    for river in Card::ALL {
        if dead & 1 << river.byte() != 0 {
            continue;
        }
        if stop.stop(polls) {
            return Ok(None);
        }
        polls += 1;
        let one = hand_vs_range(hole, weights, &[a, b, c, d, river])?;
        total.win += one.win;
        total.tie += one.tie;
        total.loss += one.loss;
    }
    Ok(Some(total.equity() as f32))
}

/// Deals `hand[from..]` uniformly from the cards not in `used` (by rejection, one 32-bit draw
/// a try), then scores `hand` at showdown against the same cards with `villain`'s hole cards
/// in place of its own: 2 for a win, 1 for a tie, 0 for a loss.
pub(super) fn deal_and_score(
    mut hand: [u8; 7],
    from: usize,
    mut used: u64,
    villain: [u8; 2],
    rng: &mut XorShiftRng,
) -> u64 {
    for slot in hand.iter_mut().skip(from) {
        let card = loop {
            let card = ((u64::from(rng.next_u32()) * 52) >> 32) as u8;
            if used & (1 << card) == 0 {
                break card;
            }
        };
        used |= 1 << card;
        *slot = card;
    }
    let mut theirs = hand;
    theirs[..2].copy_from_slice(&villain);
    match rank7_unchecked(&hand).cmp(&rank7_unchecked(&theirs)) {
        core::cmp::Ordering::Greater => 2,
        core::cmp::Ordering::Equal => 1,
        core::cmp::Ordering::Less => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::Never;
    use crate::search::mcts::PollCounter;
    use rand_core::SeedableRng;

    #[test]
    fn the_turn_swept_river_by_river_is_the_whole_sweep_bit_for_bit() {
        let mut rng = XorShiftRng::seed_from_u64(11);
        for spot in 0..40 {
            // Seven distinct cards: the hole, then the board.
            let mut used = 0u64;
            let mut cards = [Card::ALL[0]; 7];
            for slot in cards.iter_mut() {
                let card = loop {
                    let card = ((u64::from(rng.next_u32()) * 52) >> 32) as u8;
                    if used & 1 << card == 0 {
                        break card;
                    }
                };
                used |= 1 << card;
                *slot = Card::ALL[usize::from(card)];
            }
            // Ranges from uniform to sparse, with uneven weights.
            let mut weights = [0f32; COMBOS];
            for weight in weights.iter_mut() {
                let draw = rng.next_u32();
                if draw % 4 < 4 - spot % 4 {
                    *weight = (draw >> 8) as f32 / (1u32 << 24) as f32;
                }
            }
            let hole = [cards[0], cards[1]];
            for board in [&cards[2..6], &cards[2..7], &cards[2..5]] {
                let whole = hand_vs_range(hole, &weights, board).unwrap().equity() as f32;
                let mut never = PollCounter {
                    polls: 0,
                    fire_at: u32::MAX,
                };
                let stepped = exact_equity_until(hole, &weights, board, &mut never);
                assert_eq!(stepped.unwrap().unwrap().to_bits(), whole.to_bits());
                // The turn polls once a river card, the others never.
                let rivers = if board.len() == 4 { 46 } else { 0 };
                assert_eq!(never.polls, rivers);
            }
        }
        // A stop at the third poll ends the turn's sweep there.
        let card = |t| Card::parse(t).unwrap();
        let turn = [card("Ks"), card("9d"), card("4c"), card("2h")];
        let mut third = PollCounter {
            polls: 0,
            fire_at: 3,
        };
        let hole = [card("As"), card("Ad")];
        let stopped = exact_equity_until(hole, &[1.0; COMBOS], &turn, &mut third);
        assert_eq!((stopped, third.polls), (Ok(None), 3));
        // Invalid input is an error, as from the whole sweep.
        let clash = [card("As"), card("9d"), card("4c"), card("2h")];
        assert!(exact_equity_until(hole, &[1.0; COMBOS], &clash, &mut Never).is_err());
    }

    #[test]
    fn sampled_equity_is_close_to_the_exact_sweep() {
        let card = |t| Card::parse(t).unwrap();
        let board = [card("Ks"), card("9d"), card("4c")];
        // A range of the top pairs and better-ish: every king and every pair.
        let mut weights = [0f32; COMBOS];
        for (index, weight) in weights.iter_mut().enumerate() {
            let [a, b] = combo_cards(index).unwrap();
            if a.rank() == b.rank() || a.rank() == 11 || b.rank() == 11 {
                *weight = 1.0;
            }
        }
        for hole in [[card("As"), card("Ad")], [card("Qh"), card("Jh")]] {
            let exact = hand_vs_range(hole, &weights, &board).unwrap().equity() as f32;
            let mut rng = XorShiftRng::seed_from_u64(5);
            let sampled = sampled_equity(hole, &weights, &board, 4000, &mut rng);
            assert!((exact - sampled).abs() < 0.03, "{exact} {sampled}");
        }
        let mut rng = XorShiftRng::seed_from_u64(5);
        let none = sampled_equity(
            [card("As"), card("Ad")],
            &[0.0; COMBOS],
            &board,
            10,
            &mut rng,
        );
        assert_eq!(none, 0.5);
    }
}
