//! The flop, turn and river rules: from a hand's features (equity against the opponent's
//! range, pot odds, draws, position, stack-to-pot ratio) to probabilities over the five
//! action classes. Bluffs and semi-bluffs are the only mixed choices; everything else is a
//! threshold on equity moved by the style.
use super::style::Style;
use crate::holdem::card::Card;
use crate::holdem::policy::{ActionClass, ClassProbabilities};

/// What the rules look at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Share of the pot the hand wins against the opponent's range at showdown (0..=1).
    pub equity: f32,
    /// Chips to call.
    pub to_call: u32,
    /// Chips in the pot before calling.
    pub pot: u32,
    /// Chips the player has behind before calling.
    pub behind: u32,
    /// Whether the player acts last on this street.
    pub in_position: bool,
    pub draws: Draws,
    /// Whether a fold is legal, and whether a raise is.
    pub can_fold: bool,
    pub can_raise: bool,
    /// How often this opponent folds to a bet (its observed rate; 0.35 knowing nothing).
    pub fold_to_bet: f32,
}

/// Draws of a hand on a flop or turn (none on the river: nothing is left to draw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draws {
    /// Four cards of a suit, at least one of them a hole card.
    pub flush: bool,
    /// Four ranks in a row open at both ends, using a hole card.
    pub open_ended: bool,
    /// Four of five ranks in a row (one missing inside), using a hole card.
    pub gutshot: bool,
}

impl Draws {
    /// The draws of `hole` on `board` (3 or 4 cards; any other length has none). A draw
    /// that is already made (a flush, a straight) is not flagged.
    pub fn of(hole: [Card; 2], board: &[Card]) -> Draws {
        if !matches!(board.len(), 3 | 4) {
            return Draws::default();
        }
        let mut suits = [0u8; 4];
        let mut hole_suits = [false; 4];
        for card in board {
            suits[usize::from(card.suit())] += 1;
        }
        for card in hole {
            suits[usize::from(card.suit())] += 1;
            hole_suits[usize::from(card.suit())] = true;
        }
        let flush = (0..4).any(|s| suits[s] == 4 && hole_suits[s]);
        let ranks = |cards: &mut dyn Iterator<Item = &Card>| {
            cards.fold(0u16, |mask, card| {
                let bit = 1u16 << (card.rank() + 1);
                // The ace also plays low.
                mask | bit | if card.rank() == 12 { 1 } else { 0 }
            })
        };
        let all = ranks(&mut hole.iter().chain(board));
        let board_only = ranks(&mut board.iter());
        let (mut open_ended, mut gutshot) = (false, false);
        for low in 0..=9u16 {
            let window = 0b11111u16 << low;
            if all & window == window {
                return Draws {
                    flush,
                    ..Draws::default()
                };
            }
        }
        for low in 0..=9u16 {
            let window = 0b11111u16 << low;
            let have = all & window;
            if have.count_ones() == 4 && board_only & window != have {
                let missing = window & !have;
                if low <= 8 && (missing == 1 << low || missing == 1 << (low + 4)) && low != 0 {
                    open_ended = true;
                } else {
                    gutshot = true;
                }
            }
        }
        Draws {
            flush,
            open_ended,
            gutshot: gutshot && !open_ended,
        }
    }

    /// Whether there is any draw.
    pub fn any(self) -> bool {
        self.flush || self.open_ended || self.gutshot
    }
}

/// The probabilities of each action class for `features` and `style`; illegal classes get
/// 0, and the rest add up to 1.
pub fn probabilities(features: &Features, style: &Style) -> ClassProbabilities {
    let mut out = [0f32; 5];
    let f = features;
    let aggressive = style.aggression - 0.5;
    let loose = style.looseness - 0.5;
    let risky = style.risk - 0.5;
    let pot = f.pot.max(1) as f32;
    let spr = f.behind as f32 / pot;
    // Against an opponent who never folds, bluffs are burned and thinner value bets pay.
    let folds = f.fold_to_bet.clamp(0.0, 1.0);
    let value_at = 0.64 - 0.12 * aggressive - 0.1 * (0.35 - folds).max(0.0) * 2.0;
    let raise_at = 0.8 - 0.1 * aggressive - 0.6 * (0.35 - folds).max(0.0);
    let size_for = |equity: f32| -> ActionClass {
        if spr <= 1.5 || (equity >= 0.93 - 0.08 * risky && spr <= 4.0) {
            ActionClass::AllIn
        } else if equity >= 0.85 || folds < 0.15 {
            ActionClass::BigRaise
        } else {
            ActionClass::SmallRaise
        }
    };
    let bluff_rate = style.bluff * (folds / 0.35).min(2.0) * if f.in_position { 1.0 } else { 0.7 };
    let draw_rate = if f.draws.flush || f.draws.open_ended {
        (0.3 + 0.6 * style.aggression) * (folds / 0.35).min(1.5)
    } else if f.draws.gutshot {
        0.5 * bluff_rate
    } else {
        0.0
    };
    let bet_weak = (bluff_rate.max(draw_rate)).clamp(0.0, 0.9);
    if f.to_call == 0 {
        if f.can_raise && f.equity >= value_at {
            out[size_for(f.equity).index()] = 1.0;
        } else if f.can_raise && f.equity < 0.45 && bet_weak > 0.0 {
            out[ActionClass::SmallRaise.index()] = bet_weak;
            out[ActionClass::Call.index()] = 1.0 - bet_weak;
        } else {
            out[ActionClass::Call.index()] = 1.0;
        }
        return out;
    }
    let odds = f.to_call as f32 / (pot + f.to_call as f32);
    // A big bet (over the pot) asks more of a careful player.
    let big_bet = f.to_call as f32 > pot * 0.5;
    // Big bets from a player who rarely folds (a maniac) say less: no margin against them.
    let margin = if big_bet && folds >= 0.15 {
        0.04 - 0.1 * risky
    } else {
        0.0
    };
    let call_at = odds * (1.0 - 0.5 * loose) + margin;
    if f.can_raise && f.equity >= raise_at {
        out[size_for(f.equity).index()] = 1.0;
    } else if f.equity >= call_at || !f.can_fold {
        if f.can_raise && f.draws.any() && bet_weak > 0.0 && !big_bet {
            let raise = 0.5 * bet_weak;
            out[ActionClass::SmallRaise.index()] = raise;
            out[ActionClass::Call.index()] = 1.0 - raise;
        } else {
            out[ActionClass::Call.index()] = 1.0;
        }
    } else if f.can_raise && !big_bet && bet_weak > 0.0 && f.draws.any() {
        let raise = 0.5 * bet_weak;
        out[ActionClass::SmallRaise.index()] = raise;
        out[ActionClass::Fold.index()] = 1.0 - raise;
    } else {
        out[ActionClass::Fold.index()] = 1.0;
    }
    out
}

/// The most likely class of [`probabilities`] (the first of equals): a deterministic
/// suggestion.
pub fn suggest(features: &Features, style: &Style) -> ActionClass {
    let p = probabilities(features, style);
    let mut best = ActionClass::Call;
    for class in ActionClass::ALL {
        if p[class.index()] > p[best.index()] {
            best = class;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards<const N: usize>(text: &str) -> [Card; N] {
        let mut out = [Card::ALL[0]; N];
        for (slot, word) in out.iter_mut().zip(text.split_whitespace()) {
            *slot = Card::parse(word).unwrap();
        }
        out
    }

    #[test]
    fn draws_are_flagged() {
        let d = Draws::of(cards("Ah 5h"), &cards::<3>("Kh 9h 2c"));
        assert!(d.flush && !d.open_ended && !d.gutshot);
        let d = Draws::of(cards("8c 9d"), &cards::<3>("Th Jh 2c"));
        assert!(d.open_ended && !d.flush);
        let d = Draws::of(cards("8c 9d"), &cards::<3>("Jh Qh 2c"));
        assert!(d.gutshot && !d.open_ended);
        // A wheel draw with the ace: A-2-3-4 is open at one end only.
        let d = Draws::of(cards("Ac 2d"), &cards::<3>("3h 4s 9c"));
        assert!(d.gutshot && !d.open_ended);
        // A made straight and the board's own four-flush are not draws.
        assert!(!Draws::of(cards("8c 9d"), &cards::<3>("Th Jh Qc")).any());
        assert!(!Draws::of(cards("2c 7d"), &cards::<4>("Ah Kh 9h 4h")).flush);
        assert!(!Draws::of(cards("Ah 5h"), &cards::<5>("Kh 9h 2c 3d 4s")).any());
    }

    fn facing(equity: f32, to_call: u32) -> Features {
        Features {
            equity,
            to_call,
            pot: 1000,
            behind: 10_000,
            in_position: true,
            draws: Draws::default(),
            can_fold: to_call > 0,
            can_raise: true,
            fold_to_bet: 0.35,
        }
    }

    #[test]
    fn the_rules_follow_equity_and_pot_odds() {
        let style = Style::BALANCED;
        // A 500 bet into 1000 (the pot holds the bet): pot odds 500 / 1500 = 1/3.
        assert_eq!(suggest(&facing(0.36, 500), &style), ActionClass::Call);
        assert_eq!(suggest(&facing(0.3, 500), &style), ActionClass::Fold);
        assert!(suggest(&facing(0.9, 500), &style).is_raise());
        assert!(suggest(&facing(0.7, 0), &style).is_raise());
        assert_eq!(suggest(&facing(0.5, 0), &style), ActionClass::Call);
        // A loose caller calls where a rock folds.
        let station = Style::parse("station").unwrap();
        let rock = Style::parse("rock").unwrap();
        assert_eq!(suggest(&facing(0.29, 500), &station), ActionClass::Call);
        assert_eq!(suggest(&facing(0.29, 500), &rock), ActionClass::Fold);
        // Probabilities add up to 1 and illegal classes get none.
        for equity in [0.0, 0.3, 0.6, 0.95] {
            for to_call in [0, 500, 5000] {
                let mut f = facing(equity, to_call);
                f.draws.flush = true;
                f.can_raise = to_call < 5000;
                let p = probabilities(&f, &Style::parse("maniac").unwrap());
                assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{p:?}");
                assert!(f.can_fold || p[0] == 0.0);
                assert!(f.can_raise || p[2..].iter().all(|x| *x == 0.0));
            }
        }
        // A maniac bluffs where a rock almost never does.
        let bluffs = |style: &Style| probabilities(&facing(0.2, 0), style)[2];
        assert!(bluffs(&Style::parse("maniac").unwrap()) > 5.0 * bluffs(&rock));
        // No bluffs against an opponent who never folds.
        let mut never_folds = facing(0.2, 0);
        never_folds.fold_to_bet = 0.0;
        assert_eq!(
            probabilities(&never_folds, &Style::parse("maniac").unwrap())[2],
            0.0
        );
    }
}
