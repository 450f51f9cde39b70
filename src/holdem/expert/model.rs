//! The expert library as an [`ActionModel`]: the preflop chart before the flop, the
//! postflop rules after it, with the hand's equity estimated cheaply from a
//! [`StrengthTable`] built once per board. This is what a search calls at the bot's own
//! nodes (thousands of times a decision) and what the bot narrows its opponent's range
//! with. The bot itself, deciding once, uses exact equity instead.
use core::cell::RefCell;

use super::chart::{Chart, situation};
use super::classes::HandClass;
use super::postflop::{Draws, Features, probabilities};
use super::style::Style;
use crate::holdem::card::Card;
use crate::holdem::equity::{COMBOS, combo_cards};
use crate::holdem::eval::{rank5_unchecked, rank6_unchecked, rank7_unchecked};
use crate::holdem::policy::{ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::HandState;

/// Each combo's made-hand rank on one board, and a range's weight sorted by rank, so that a
/// hand's share of the range it beats now (ties half) is a binary search. Card removal
/// between the hand and the range is ignored; draws are added by [`draw_potential`].
#[derive(Clone, Debug)]
pub struct StrengthTable {
    board: [Card; 5],
    board_len: u8,
    /// Rank of each combo with the board; `u16::MAX` for combos that hold a board card.
    ranks: [u16; COMBOS],
    /// Distinct ranks ascending, and the range's weight below each and at each.
    sorted: [u16; COMBOS],
    below: [f32; COMBOS],
    at: [f32; COMBOS],
    distinct: usize,
    total: f32,
}

impl StrengthTable {
    /// The table for `board` (3, 4 or 5 cards; otherwise every strength is 0.5) and the
    /// range `weights`.
    pub fn new(board: &[Card], weights: &[f32; COMBOS]) -> StrengthTable {
        let mut table = StrengthTable {
            board: [Card::ALL[0]; 5],
            board_len: 0,
            ranks: [u16::MAX; COMBOS],
            sorted: [0; COMBOS],
            below: [0.0; COMBOS],
            at: [0.0; COMBOS],
            distinct: 0,
            total: 0.0,
        };
        if !matches!(board.len(), 3..=5) {
            return table;
        }
        table.board[..board.len()].copy_from_slice(board);
        table.board_len = board.len() as u8;
        let dead = board.iter().fold(0u64, |m, c| m | 1 << c.byte());
        let mut order = [0u16; COMBOS];
        let mut count = 0;
        for index in 0..COMBOS {
            let Some(cards) = combo_cards(index) else {
                continue;
            };
            if dead & (1 << cards[0].byte() | 1 << cards[1].byte()) != 0 {
                continue;
            }
            table.ranks[index] = rank_with(cards, board);
            order[count] = index as u16;
            count += 1;
        }
        let order = &mut order[..count];
        order.sort_unstable_by_key(|&i| table.ranks[usize::from(i)]);
        let mut running = 0f32;
        for &index in order.iter() {
            let rank = table.ranks[usize::from(index)];
            let weight = weights[usize::from(index)].max(0.0);
            if table.distinct == 0 || table.sorted[table.distinct - 1] != rank {
                table.sorted[table.distinct] = rank;
                table.below[table.distinct] = running;
                table.distinct += 1;
            }
            table.at[table.distinct - 1] += weight;
            running += weight;
        }
        table.total = running;
        table
    }

    /// The board the table is for.
    pub fn board(&self) -> &[Card] {
        &self.board[..usize::from(self.board_len)]
    }

    /// The share of the range that `hole` beats now, ties half (0.5 with an empty range or a
    /// board of the wrong size).
    pub fn strength(&self, hole: [Card; 2]) -> f32 {
        if self.board_len < 3 || self.total <= 0.0 {
            return 0.5;
        }
        let rank = rank_with(hole, self.board());
        let sorted = &self.sorted[..self.distinct];
        let position = sorted.partition_point(|&r| r < rank);
        let (below, at) = if position < self.distinct {
            let equal = sorted[position] == rank;
            (
                self.below[position],
                if equal { self.at[position] } else { 0.0 },
            )
        } else {
            (self.total, 0.0)
        };
        (below + at / 2.0) / self.total
    }
}

/// The rank of the best five of `hole` and `board` (3 to 5 cards).
fn rank_with(hole: [Card; 2], board: &[Card]) -> u16 {
    let mut cards = [0u8; 7];
    cards[0] = hole[0].byte();
    cards[1] = hole[1].byte();
    for (slot, card) in cards[2..].iter_mut().zip(board) {
        *slot = card.byte();
    }
    match board.len() {
        3 => rank5_unchecked(&[cards[0], cards[1], cards[2], cards[3], cards[4]]),
        4 => rank6_unchecked(&[cards[0], cards[1], cards[2], cards[3], cards[4], cards[5]]),
        _ => rank7_unchecked(&cards),
    }
}

/// The chance a draw improves past the current strength by the river: the usual outs
/// estimates (a flush draw has 9 outs: about 35% with two cards to come, 20% with one).
pub fn draw_potential(draws: Draws, board_len: usize) -> f32 {
    let two_cards = board_len == 3;
    let outs: f32 = if draws.flush && (draws.open_ended || draws.gutshot) {
        12.0
    } else if draws.flush {
        9.0
    } else if draws.open_ended {
        8.0
    } else if draws.gutshot {
        4.0
    } else {
        return 0.0;
    };
    if two_cards {
        1.0 - (1.0 - outs / 47.0) * (1.0 - outs / 46.0)
    } else if board_len == 4 {
        outs / 46.0
    } else {
        0.0
    }
}

/// The expert library as an action model: probabilities of each action class for the
/// player to act, from the chart preflop and from the postflop rules with the equity of
/// [`StrengthTable::strength`] plus [`draw_potential`].
#[derive(Clone, Debug)]
pub struct ExpertModel {
    style: Style,
    table: StrengthTable,
    /// The table of the last other board asked about (against a uniform range): a search
    /// asks about one board's holdings many times in a row, then moves on.
    other_board: RefCell<StrengthTable>,
    /// The opponent's observed rate of folding to a bet.
    fold_to_bet: f32,
}

impl ExpertModel {
    /// The model of `style` for hands on `board`, whose holdings are compared with the range
    /// `weights` (the opponent's, as seen by the player to act; a uniform range when unknown).
    /// On another board the model works too, against a uniform range, building a table for
    /// each new board it is asked about (33 µs) and keeping the last.
    pub fn new(style: Style, board: &[Card], weights: &[f32; COMBOS]) -> ExpertModel {
        ExpertModel {
            style,
            table: StrengthTable::new(board, weights),
            other_board: RefCell::new(StrengthTable::new(&[], &[1.0; COMBOS])),
            fold_to_bet: 0.35,
        }
    }

    /// The same model for an opponent that folds to a bet `rate` of the time.
    pub fn with_fold_to_bet(mut self, rate: f32) -> ExpertModel {
        self.fold_to_bet = if rate.is_finite() {
            rate.clamp(0.0, 1.0)
        } else {
            0.35
        };
        self
    }

    /// The features of the player to act in `hand` with `equity`; `None` when nobody is to
    /// act or its cards are unknown.
    pub fn features(hand: &HandState, equity: f32, fold_to_bet: f32) -> Option<Features> {
        let actor = hand.to_act()?;
        let hole = hand.hole_cards(actor)?;
        let spent = hand.spent(actor);
        let to_call = hand.current_bet().saturating_sub(spent);
        Some(Features {
            equity,
            to_call,
            pot: hand.pot(),
            behind: hand.behind(actor).saturating_sub(to_call),
            // Position 0 acts first after the flop.
            in_position: actor == 1,
            draws: Draws::of(hole, hand.board()),
            can_fold: hand.can_fold(),
            can_raise: hand.raise_bounds().is_some(),
            fold_to_bet,
        })
    }

    /// The cheap equity estimate of `hole` on `board`.
    fn equity(&self, hole: [Card; 2], board: &[Card]) -> f32 {
        let strength = if self.table.board() == board {
            self.table.strength(hole)
        } else {
            let mut other = self.other_board.borrow_mut();
            if other.board() != board {
                *other = StrengthTable::new(board, &[1.0; COMBOS]);
            }
            other.strength(hole)
        };
        with_draws(strength, hole, board)
    }
}

/// The model's cheap equity of `hole` on `board` (3 to 5 cards) against the range
/// `weights`, what [`ExpertModel`] plays on: the share of the range beaten now plus the
/// chance the draws improve past it. One [`StrengthTable`] (33 µs).
pub fn cheap_equity(hole: [Card; 2], board: &[Card], weights: &[f32; COMBOS]) -> f32 {
    with_draws(
        StrengthTable::new(board, weights).strength(hole),
        hole,
        board,
    )
}

/// `strength` raised by the [`draw_potential`] of `hole`'s draws on `board`.
fn with_draws(strength: f32, hole: [Card; 2], board: &[Card]) -> f32 {
    let draws = Draws::of(hole, board);
    strength + (1.0 - strength) * draw_potential(draws, board.len())
}

impl ActionModel for ExpertModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let mut out = [0f32; 5];
        let Some(actor) = hand.to_act() else {
            out[ActionClass::Call.index()] = 1.0;
            return out;
        };
        let Some(hole) = hand.hole_cards(actor) else {
            out[ActionClass::Call.index()] = 1.0;
            return out;
        };
        if let Some((spot, depth)) = situation(hand) {
            let Some(class) = HandClass::of(hole[0], hole[1]) else {
                out[ActionClass::Call.index()] = 1.0;
                return out;
            };
            let cell = if self.style == Style::BALANCED {
                Chart::shipped_cell(class, spot, depth)
            } else {
                super::chart::decide(class, spot, depth, &self.style, spot.nominal_range_share())
            };
            let legal = cell.to_action(hand);
            out[ActionClass::of(hand, legal).index()] = 1.0;
            return out;
        }
        let equity = self.equity(hole, hand.board());
        match ExpertModel::features(hand, equity, self.fold_to_bet) {
            Some(features) => probabilities(&features, &self.style),
            None => {
                out[ActionClass::Call.index()] = 1.0;
                out
            }
        }
    }
}

/// A model mixed with ignorance: `trust` of the inner model's probability and the rest a
/// constant, so that an opponent whose actions say little about its cards narrows its
/// range little.
pub struct Blended<'a> {
    pub inner: &'a dyn ActionModel,
    pub trust: f32,
}

impl ActionModel for Blended<'_> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let trust = self.trust.clamp(0.0, 1.0);
        let mut p = self.inner.predict(hand);
        for x in &mut p {
            *x = trust * *x + (1.0 - trust) * 0.5;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::equity::hand_vs_range;
    use crate::holdem::rules::{Action, HoldemConfig};

    fn cards<const N: usize>(text: &str) -> [Card; N] {
        let mut out = [Card::ALL[0]; N];
        for (slot, word) in out.iter_mut().zip(text.split_whitespace()) {
            *slot = Card::parse(word).unwrap();
        }
        out
    }

    #[test]
    fn river_strength_is_the_exact_equity_against_a_uniform_range() {
        // On the river, the share of hands beaten now is the showdown equity, up to card
        // removal between the hand and the range.
        let board = cards::<5>("Ks 9d 4c 2h 7s");
        let table = StrengthTable::new(&board, &[1.0; COMBOS]);
        for hole in ["As Ad", "Kd Qc", "8c 6c", "3d 5d"] {
            let hole = cards::<2>(hole);
            let exact = hand_vs_range(hole, &[1.0; COMBOS], &board)
                .unwrap()
                .equity() as f32;
            let cheap = table.strength(hole);
            assert!((exact - cheap).abs() < 0.02, "{exact} {cheap}");
        }
        assert_eq!(
            StrengthTable::new(&[], &[1.0; COMBOS]).strength(cards("As Ad")),
            0.5
        );
    }

    #[test]
    fn the_model_plays_the_chart_preflop_and_the_rules_after() {
        let model = ExpertModel::new(Style::BALANCED, &[], &[1.0; COMBOS]);
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(1, cards("As Ah")).unwrap();
        let p = model.predict(&hand);
        assert!(p[2] + p[3] + p[4] == 1.0, "{p:?}");
        hand.forget_hole_cards(1);
        hand.deal_hole_cards(1, cards("7d 2c")).unwrap();
        let p = model.predict(&hand);
        assert!(p[0] + p[1] == 1.0, "{p:?}");
        // On a flop, the nut flush bets and air checks or bluffs.
        let mut flop = HandState::new(HoldemConfig::ACPC);
        flop.deal_hole_cards(0, cards("Ah Kh")).unwrap();
        flop.apply(Action::Call).unwrap();
        flop.apply(Action::Call).unwrap();
        for card in cards::<3>("Qh 7h 2h") {
            flop.deal_board_card(card).unwrap();
        }
        let model = ExpertModel::new(Style::BALANCED, flop.board(), &[1.0; COMBOS]);
        let p = model.predict(&flop);
        assert!(p[2] + p[3] + p[4] == 1.0, "{p:?}");
        // Blended with no trust, every holding looks alike.
        let blind = Blended {
            inner: &model,
            trust: 0.0,
        };
        assert_eq!(blind.predict(&flop), [0.5; 5]);
    }
}
