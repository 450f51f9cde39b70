//! The 169 preflop hand classes: 13 pairs, 78 suited and 78 offsuit two-card hands, up to
//! the suits. A class is the cell of the usual 13 × 13 grid: `high * 13 + low` for a suited
//! hand (high rank above low), `low * 13 + high` for an offsuit one, `rank * 14` for a pair
//! (ranks 0 = deuce ..= 12 = ace).
use core::fmt;

use crate::holdem::card::Card;

/// How many hand classes there are.
pub const CLASSES: usize = 169;

/// A preflop hand class, 0..[`CLASSES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandClass(u8);

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";

impl HandClass {
    /// The class of two different cards (`None` for the same card twice).
    pub const fn of(a: Card, b: Card) -> Option<HandClass> {
        if a.byte() == b.byte() {
            return None;
        }
        let (high, low) = if a.rank() >= b.rank() {
            (a.rank(), b.rank())
        } else {
            (b.rank(), a.rank())
        };
        let index = if high == low || a.suit() == b.suit() {
            high as usize * 13 + low as usize
        } else {
            low as usize * 13 + high as usize
        };
        Some(HandClass(index as u8))
    }

    /// The class with this index, `None` from [`CLASSES`] on.
    pub const fn from_index(index: usize) -> Option<HandClass> {
        if index < CLASSES {
            Some(HandClass(index as u8))
        } else {
            None
        }
    }

    /// 0..[`CLASSES`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The higher and the lower rank (equal for a pair).
    pub const fn ranks(self) -> (u8, u8) {
        let (row, column) = (self.0 / 13, self.0 % 13);
        if row >= column {
            (row, column)
        } else {
            (column, row)
        }
    }

    pub const fn is_pair(self) -> bool {
        self.0 / 13 == self.0 % 13
    }

    pub const fn is_suited(self) -> bool {
        self.0 / 13 > self.0 % 13
    }

    /// Two-card combos in the class: 6 for a pair, 4 suited, 12 offsuit.
    pub const fn combos(self) -> u32 {
        if self.is_pair() {
            6
        } else if self.is_suited() {
            4
        } else {
            12
        }
    }

    /// The class's combos: `out[..n]` with `n` returned (at most 12, an offsuit class).
    pub fn combo_cards(self, out: &mut [[Card; 2]; 12]) -> usize {
        let (high, low) = self.ranks();
        let mut count = 0;
        for first in 0..4u8 {
            for second in 0..4u8 {
                let keep = if self.is_pair() {
                    first < second
                } else if self.is_suited() {
                    first == second
                } else {
                    first != second
                };
                if keep {
                    if let (Ok(a), Ok(b)) = (
                        Card::from_rank_suit(high, first),
                        Card::from_rank_suit(low, second),
                    ) {
                        out[count] = [a, b];
                        count += 1;
                    }
                }
            }
        }
        count
    }

    /// Parses `AA`, `AKs`, `72o` (rank letters as in card text, either case).
    pub fn parse(text: &str) -> Option<HandClass> {
        let bytes = text.as_bytes();
        let rank = |c: u8| {
            RANK_CHARS
                .iter()
                .position(|&r| r == c.to_ascii_uppercase())
                .map(|r| r as u8)
        };
        let (a, b) = (rank(*bytes.first()?)?, rank(*bytes.get(1)?)?);
        let (high, low) = (a.max(b), a.min(b));
        let index = match (bytes.get(2).map(u8::to_ascii_lowercase), bytes.len()) {
            (None, 2) if high == low => high as usize * 14,
            (Some(b's'), 3) if high != low => high as usize * 13 + low as usize,
            (Some(b'o'), 3) if high != low => low as usize * 13 + high as usize,
            _ => return None,
        };
        HandClass::from_index(index)
    }

    /// Every class in index order.
    pub fn all() -> impl Iterator<Item = HandClass> {
        (0..CLASSES as u8).map(HandClass)
    }
}

impl fmt::Display for HandClass {
    /// `AA`, `AKs`, `72o`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (high, low) = self.ranks();
        let high_char = RANK_CHARS[high as usize] as char;
        let low_char = RANK_CHARS[low as usize] as char;
        if self.is_pair() {
            write!(f, "{high_char}{low_char}")
        } else {
            let kind = if self.is_suited() { 's' } else { 'o' };
            write!(f, "{high_char}{low_char}{kind}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn the_classes_partition_the_1326_combos() {
        let mut counts = [0u32; CLASSES];
        for a in 0..52u8 {
            for b in a + 1..52 {
                let class = HandClass::of(Card::ALL[a as usize], Card::ALL[b as usize]).unwrap();
                counts[class.index()] += 1;
            }
        }
        let pairs = HandClass::all().filter(|c| c.is_pair()).count();
        let suited = HandClass::all().filter(|c| c.is_suited()).count();
        assert_eq!((pairs, suited, CLASSES - pairs - suited), (13, 78, 78));
        for class in HandClass::all() {
            assert_eq!(counts[class.index()], class.combos(), "{class}");
            let mut cards = [[Card::ALL[0]; 2]; 12];
            let n = class.combo_cards(&mut cards);
            assert_eq!(n as u32, class.combos());
            for [a, b] in &cards[..n] {
                assert_eq!(HandClass::of(*a, *b), Some(class));
            }
        }
        assert_eq!(counts.iter().sum::<u32>(), 1326);
    }

    #[test]
    fn names_parse_back() {
        for class in HandClass::all() {
            assert_eq!(HandClass::parse(&class.to_string()), Some(class));
        }
        let ak = HandClass::parse("AKs").unwrap();
        let card = |t| Card::parse(t).unwrap();
        assert_eq!(HandClass::of(card("Kh"), card("Ah")), Some(ak));
        assert_eq!(HandClass::parse("72o").unwrap().to_string(), "72o");
        assert_eq!(HandClass::parse("tt").unwrap().to_string(), "TT");
        for bad in ["", "A", "AAs", "AK", "AKx", "AKso", "1Ks"] {
            assert_eq!(HandClass::parse(bad), None, "{bad}");
        }
        assert_eq!(HandClass::from_index(CLASSES), None);
        assert_eq!(HandClass::of(card("As"), card("As")), None);
    }
}
