//! Playing cards: a byte `rank * 4 + suit`, with the text form `As`, `Td`, `2c`.
use core::fmt;
use core::str::FromStr;

use crate::Error;

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// One of the 52 cards. Rank 0 is the deuce and 12 the ace; suits 0..=3 are clubs,
/// diamonds, hearts, spades. The byte form is `rank * 4 + suit`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// Number of distinct cards.
    pub const COUNT: u8 = 52;

    /// Every card, in byte order (`ALL[b].byte() == b`).
    pub const ALL: [Card; 52] = {
        let mut all = [Card(0); 52];
        let mut byte = 0;
        while byte < 52 {
            all[byte] = Card(byte as u8);
            byte += 1;
        }
        all
    };

    /// The card with this byte, or `Error::InvalidCard` outside 0..=51.
    pub const fn new_checked(byte: u8) -> Result<Card, Error> {
        if byte < Self::COUNT {
            Ok(Card(byte))
        } else {
            Err(Error::InvalidCard)
        }
    }

    /// The card of `rank` (0..=12) and `suit` (0..=3), or `Error::InvalidCard`.
    pub const fn from_rank_suit(rank: u8, suit: u8) -> Result<Card, Error> {
        if rank < 13 && suit < 4 {
            Ok(Card(rank * 4 + suit))
        } else {
            Err(Error::InvalidCard)
        }
    }

    /// The byte form, `rank * 4 + suit`.
    pub const fn byte(self) -> u8 {
        self.0
    }

    /// 0 (deuce) ..= 12 (ace).
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }

    /// 0 (clubs), 1 (diamonds), 2 (hearts), 3 (spades).
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }

    /// Parses two characters: a rank from `23456789TJQKA` and a suit from `cdhs`. Rank
    /// letters may be lower case and suits upper case; anything else is `Error::Parse`.
    pub fn parse(text: &str) -> Result<Card, Error> {
        Self::parse_bytes(text.as_bytes())
    }

    /// [`Card::parse`] on raw bytes (the C ABI's input).
    pub fn parse_bytes(text: &[u8]) -> Result<Card, Error> {
        Self::parse_explained(text).map_err(Error::from)
    }

    /// [`Card::parse_bytes`] saying what is wrong and where.
    pub fn parse_explained(text: &[u8]) -> Result<Card, CardParseError> {
        let fail = |kind, column| CardParseError { kind, column };
        let rank = text
            .first()
            .and_then(|rank| {
                RANK_CHARS
                    .iter()
                    .position(|&c| c == rank.to_ascii_uppercase())
            })
            .ok_or(fail(CardParseErrorKind::Rank, 1))?;
        let suit = text
            .get(1)
            .and_then(|suit| {
                SUIT_CHARS
                    .iter()
                    .position(|&c| c == suit.to_ascii_lowercase())
            })
            .ok_or(fail(CardParseErrorKind::Suit, 2))?;
        if text.len() > 2 {
            return Err(fail(CardParseErrorKind::TrailingText, 3));
        }
        Ok(Card((rank * 4 + suit) as u8))
    }

    /// The two ASCII characters of the text form, for example `*b"As"`.
    pub const fn to_ascii(self) -> [u8; 2] {
        [
            RANK_CHARS[self.rank() as usize],
            SUIT_CHARS[self.suit() as usize],
        ]
    }
}

/// Card text that could not be parsed: what is wrong and at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardParseError {
    kind: CardParseErrorKind,
    column: u32,
}

/// What is wrong with a card's text; [`CardParseError::message`] says it in English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardParseErrorKind {
    /// The first character is missing or not a rank.
    Rank,
    /// The second character is missing or not a suit.
    Suit,
    /// Something follows the suit.
    TrailingText,
}

impl CardParseError {
    /// What is wrong.
    pub const fn kind(&self) -> CardParseErrorKind {
        self.kind
    }

    /// The 1-based byte column of the problem (1 rank, 2 suit, 3 what follows).
    pub const fn column(&self) -> u32 {
        self.column
    }

    /// What is wrong, in English.
    pub const fn message(&self) -> &'static str {
        match self.kind {
            CardParseErrorKind::Rank => {
                "expected a rank (one of 23456789TJQKA), then a suit, like As, Td, 2c"
            }
            CardParseErrorKind::Suit => "expected a suit (one of cdhs) after the rank",
            CardParseErrorKind::TrailingText => "a card is two characters, like As, Td, 2c",
        }
    }
}

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at column {})", self.message(), self.column)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CardParseError {}

impl From<CardParseError> for Error {
    fn from(_: CardParseError) -> Error {
        Error::Parse
    }
}

impl FromStr for Card {
    type Err = Error;

    fn from_str(text: &str) -> Result<Card, Error> {
        Card::parse(text)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [rank, suit] = self.to_ascii();
        write!(f, "{}{}", rank as char, suit as char)
    }
}

impl TryFrom<u8> for Card {
    type Error = Error;

    fn try_from(byte: u8) -> Result<Card, Error> {
        Card::new_checked(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for byte in 0..52 {
            let card = Card::new_checked(byte).unwrap();
            let text = card.to_ascii();
            assert_eq!(Card::parse_bytes(&text), Ok(card));
        }
    }

    #[test]
    fn layout_matches_the_documented_encoding() {
        assert_eq!(Card::parse("2c").unwrap().byte(), 0);
        assert_eq!(Card::parse("2s").unwrap().byte(), 3);
        assert_eq!(Card::parse("Td").unwrap().byte(), 8 * 4 + 1);
        assert_eq!(Card::parse("As").unwrap().byte(), 51);
        assert_eq!(Card::parse("ah").unwrap(), Card::parse("AH").unwrap());
    }

    #[test]
    fn bad_text_is_an_error() {
        for text in ["", "A", "Ass", "1s", "Ax", "10s", "é", "s A", " As"] {
            assert_eq!(Card::parse(text), Err(Error::Parse), "{text:?}");
        }
        let where_ = |text: &str| Card::parse_explained(text.as_bytes()).unwrap_err();
        assert_eq!(where_("").kind(), CardParseErrorKind::Rank);
        assert_eq!(where_("1s").column(), 1);
        assert_eq!(where_("A").kind(), CardParseErrorKind::Suit);
        assert_eq!(where_("Ax").column(), 2);
        assert_eq!(where_("Ass").kind(), CardParseErrorKind::TrailingText);
        assert_eq!(where_("Ass").column(), 3);
        assert_eq!(Card::new_checked(52), Err(Error::InvalidCard));
        assert_eq!(Card::from_rank_suit(13, 0), Err(Error::InvalidCard));
        assert_eq!(Card::from_rank_suit(0, 4), Err(Error::InvalidCard));
    }
}
