//! ACPC protocol 2.0 text for heads-up no-limit hold'em, without allocation.
//!
//! - The dealer's message to a player: `MATCHSTATE:<position>:<hand>:<betting>:<cards>`
//!   ([`MatchState`]); the player's reply is that line followed by `:<action>`
//!   ([`parse_reply`]).
//! - The dealer's log: one `STATE:<hand>:<betting>:<cards>:<v0>|<v1>:<name0>|<name1>` line
//!   per hand ([`LogLine`]) and a final `SCORE:<v0>|<v1>:<name0>|<name1>` ([`Score`]).
//!
//! `betting` is the rounds' actions joined by `/` (a `/` once a round closes; after an
//! all-in call the remaining rounds show empty, `r20000c///`), with actions `f`, `c` and
//! `r<to>`. `cards` is `<hole0>|<hole1>` then `/<flop>/<turn>/<river>` as far as dealt, an
//! unknown hand left empty.
//!
//! Parsing replays the betting on a [`HandState`], so every action must be legal, no card may
//! repeat, and the board must hold exactly the cards the betting has reached. Printing a
//! parsed line gives back the same bytes. Errors name what is wrong and the 1-based byte
//! column where.
use core::fmt;

use super::card::Card;
use super::rules::{
    Action, ActionError, Chips, DealError, HandState, HoldemConfig, PLACEHOLDER_CARD, Position,
};
use crate::Error;

/// What is wrong with a line of ACPC text; [`AcpcError::message`] says it in English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AcpcErrorKind {
    /// The line does not start with the expected tag (`MATCHSTATE:`, `STATE:`, `SCORE:`).
    ExpectedTag,
    /// A `:` separating the fields is missing.
    MissingField,
    /// The position is not `0` or `1`.
    BadPosition,
    /// A number (hand number, raise-to, value) is missing, malformed, has a leading zero, or
    /// is out of range.
    BadNumber,
    /// A character of the betting is none of `f`, `c`, `r` and `/`.
    BadAction,
    /// An action that the rules refuse.
    IllegalAction(ActionError),
    /// A `/` where the round has not closed.
    UnexpectedRoundEnd,
    /// The round closed, but no `/` follows.
    MissingRoundEnd,
    /// A card is not a rank then a suit.
    BadCard,
    /// A card appears twice.
    DuplicateCard(Card),
    /// A hand is not two cards (or empty when unknown).
    BadHoleCards,
    /// The `|` between the two hands is missing.
    MissingHandSeparator,
    /// A board street has the wrong number of cards.
    BadBoardStreet,
    /// The board has fewer cards than the betting has reached.
    BoardTooShort,
    /// The board has more cards than the betting has reached.
    BoardTooLong,
    /// The values of a log line are not what the hand pays.
    WrongValues,
    /// A player name is empty or holds `:`, `|` or a control or space character.
    BadName,
    /// Text follows the end of the line.
    TrailingText,
    /// A reply's action is missing or malformed.
    BadReplyAction,
}

/// A line of ACPC text that could not be parsed: what is wrong and at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AcpcError {
    kind: AcpcErrorKind,
    column: u32,
}

impl AcpcError {
    fn at(kind: AcpcErrorKind, offset: usize) -> AcpcError {
        AcpcError {
            kind,
            column: u32::try_from(offset + 1).unwrap_or(u32::MAX),
        }
    }

    /// What is wrong.
    pub const fn kind(&self) -> AcpcErrorKind {
        self.kind
    }

    /// The 1-based byte column of the problem.
    pub const fn column(&self) -> u32 {
        self.column
    }

    /// What is wrong, in English (the rules' reason for an illegal action is in the
    /// [`Display`](fmt::Display) form).
    pub const fn message(&self) -> &'static str {
        use AcpcErrorKind::*;
        match self.kind {
            ExpectedTag => "expected the line to start with MATCHSTATE:, STATE: or SCORE:",
            MissingField => "expected ':' and another field",
            BadPosition => "the position must be 0 or 1",
            BadNumber => "expected a number (digits, no leading zero, in range)",
            BadAction => "expected an action (f, c, r<to>) or '/'",
            IllegalAction(_) => "the rules do not allow this action",
            UnexpectedRoundEnd => "'/' before the betting round has closed",
            MissingRoundEnd => "the betting round has closed: expected '/'",
            BadCard => "expected a card: a rank (23456789TJQKA) then a suit (cdhs)",
            DuplicateCard(_) => "this card is already dealt",
            BadHoleCards => "a hand is two cards, or empty when unknown",
            MissingHandSeparator => "expected '|' between the two hands",
            BadBoardStreet => "a board street has the wrong number of cards (3, 1, 1)",
            BoardTooShort => "the betting has reached a street whose cards are missing",
            BoardTooLong => "the board has cards for a street the betting has not reached",
            WrongValues => "the values are not what this hand pays",
            BadName => "a name must be non-empty, without ':', '|', spaces or control characters",
            TrailingText => "unexpected text at the end of the line",
            BadReplyAction => "expected a reply action: f, c, k, r<to> or b<to>",
        }
    }
}

impl AcpcError {
    /// What is wrong without the column (which [`AcpcError::column`] gives): the rules' reason
    /// for an illegal action, the card that is dealt twice, else [`AcpcError::message`].
    pub fn reason(&self) -> impl fmt::Display + '_ {
        Reason(self)
    }
}

/// [`AcpcError::reason`].
struct Reason<'e>(&'e AcpcError);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.kind {
            AcpcErrorKind::IllegalAction(why) => write!(f, "{why}"),
            AcpcErrorKind::DuplicateCard(card) => write!(f, "the card {card} is already dealt"),
            _ => f.write_str(self.0.message()),
        }
    }
}

impl fmt::Display for AcpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at column {})", self.reason(), self.column)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for AcpcError {}

impl From<AcpcError> for Error {
    fn from(error: AcpcError) -> Error {
        match error.kind {
            AcpcErrorKind::DuplicateCard(_) => Error::DuplicateCard,
            _ => Error::Parse,
        }
    }
}

/// A cursor over the bytes of one line; offsets count from the start of the line.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a [u8]) -> Cursor<'a> {
        Cursor { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn fail<T>(&self, kind: AcpcErrorKind) -> Result<T, AcpcError> {
        Err(AcpcError::at(kind, self.at))
    }

    fn expect_tag(&mut self, tag: &[u8]) -> Result<(), AcpcError> {
        if self.text.starts_with(tag) {
            self.at += tag.len();
            Ok(())
        } else {
            self.fail(AcpcErrorKind::ExpectedTag)
        }
    }

    fn expect(&mut self, byte: u8, kind: AcpcErrorKind) -> Result<(), AcpcError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            self.fail(kind)
        }
    }

    /// The bytes up to (not including) the next `stop` or the end.
    fn field(&mut self, stop: &[u8]) -> (usize, &'a [u8]) {
        let start = self.at;
        while let Some(byte) = self.peek() {
            if stop.contains(&byte) {
                break;
            }
            self.at += 1;
        }
        (start, &self.text[start..self.at])
    }

    /// A decimal number in canonical form (no sign, no leading zero) at most `max`.
    fn number(&mut self, max: u64) -> Result<u64, AcpcError> {
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            if self.at > start && value == 0 {
                return Err(AcpcError::at(AcpcErrorKind::BadNumber, start));
            }
            let next = value
                .checked_mul(10)
                .and_then(|tens| tens.checked_add(u64::from(digit - b'0')));
            value = match next {
                Some(next) if next <= max => next,
                _ => return Err(AcpcError::at(AcpcErrorKind::BadNumber, start)),
            };
            self.at += 1;
        }
        if self.at == start {
            return Err(AcpcError::at(AcpcErrorKind::BadNumber, start));
        }
        Ok(value)
    }

    /// A signed decimal number (a `-` then a canonical number) within `i64`'s range.
    fn signed(&mut self) -> Result<i64, AcpcError> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let start = self.at;
        let magnitude = self.number(i64::MAX as u64)? as i64;
        if negative && magnitude == 0 {
            // `-0` would not print back as written.
            return Err(AcpcError::at(AcpcErrorKind::BadNumber, start));
        }
        Ok(if negative { -magnitude } else { magnitude })
    }

    fn end(&self) -> Result<(), AcpcError> {
        if self.at == self.text.len() {
            Ok(())
        } else {
            self.fail(AcpcErrorKind::TrailingText)
        }
    }
}

/// The cards of a line, read before the betting is replayed (the board must be dealt as the
/// rounds are reached).
struct CardsField {
    /// Each hand's cards (if shown) and the offset of its first card.
    hole: [Option<([Card; 2], usize)>; 2],
    /// Each board card and its offset.
    board: [(Card, usize); 5],
    board_len: usize,
    end: usize,
}

/// A card as ACPC writes it: an upper-case rank then a lower-case suit (other spellings
/// would not print back as written).
fn parse_card(text: &[u8], offset: usize) -> Result<Card, AcpcError> {
    let two = text.get(..2).unwrap_or(text);
    match Card::parse_bytes(two) {
        Ok(card) if card.to_ascii() == two => Ok(card),
        _ => Err(AcpcError::at(AcpcErrorKind::BadCard, offset)),
    }
}

/// Reads `<hole0>|<hole1>[/flop[/turn[/river]]]` up to the next `:` or the end.
fn parse_cards(cursor: &mut Cursor<'_>) -> Result<CardsField, AcpcError> {
    let mut cards = CardsField {
        hole: [None; 2],
        board: [(PLACEHOLDER_CARD, 0); 5],
        board_len: 0,
        end: 0,
    };
    for position in 0..2 {
        if position == 1 {
            cursor.expect(b'|', AcpcErrorKind::MissingHandSeparator)?;
        }
        let (start, text) = cursor.field(b"|/:");
        match text.len() {
            0 => {}
            4 => {
                let first = parse_card(text, start)?;
                let second = parse_card(&text[2..], start + 2)?;
                cards.hole[position] = Some(([first, second], start));
            }
            _ => return Err(AcpcError::at(AcpcErrorKind::BadHoleCards, start)),
        }
    }
    for street_cards in [3, 1, 1] {
        if cursor.peek() != Some(b'/') {
            break;
        }
        cursor.at += 1;
        let (start, text) = cursor.field(b"/:|");
        if text.len() != 2 * street_cards {
            return Err(AcpcError::at(AcpcErrorKind::BadBoardStreet, start));
        }
        for i in 0..street_cards {
            let offset = start + 2 * i;
            cards.board[cards.board_len] = (parse_card(&text[2 * i..], offset)?, offset);
            cards.board_len += 1;
        }
    }
    cards.end = cursor.at;
    Ok(cards)
}

/// Replays `betting` (which starts at `betting_offset`) on a new hand under `config`, dealing
/// `cards` as the rounds are reached, and checks that the board holds exactly what the betting
/// reached.
fn replay(
    config: HoldemConfig,
    betting: &[u8],
    betting_offset: usize,
    cards: &CardsField,
) -> Result<HandState, AcpcError> {
    let mut state = HandState::new(config);
    let deal_error = |error: DealError, offset: usize| match error {
        DealError::Duplicate(card) => AcpcError::at(AcpcErrorKind::DuplicateCard(card), offset),
        _ => AcpcError::at(AcpcErrorKind::BoardTooLong, offset),
    };
    for (position, hole) in cards.hole.iter().enumerate() {
        if let Some((hole, offset)) = *hole {
            state
                .deal_hole_cards(position as Position, hole)
                .map_err(|error| deal_error(error, offset))?;
        }
    }
    let mut next_board = 0;
    let mut deal_due = |state: &mut HandState, at: usize| -> Result<(), AcpcError> {
        while state.board_cards_due() > 0 {
            let Some(&(card, offset)) = cards
                .board
                .get(..cards.board_len)
                .and_then(|b| b.get(next_board))
            else {
                return Err(AcpcError::at(AcpcErrorKind::BoardTooShort, at));
            };
            state
                .deal_board_card(card)
                .map_err(|error| deal_error(error, offset))?;
            next_board += 1;
        }
        Ok(())
    };
    let mut cursor = Cursor::new(betting);
    let mut rounds_closed = 0;
    while let Some(byte) = cursor.peek() {
        let at = betting_offset + cursor.at;
        if byte == b'/' {
            if rounds_closed >= state.street().index() {
                return Err(AcpcError::at(AcpcErrorKind::UnexpectedRoundEnd, at));
            }
            rounds_closed += 1;
            cursor.at += 1;
            continue;
        }
        if rounds_closed < state.street().index() {
            return Err(AcpcError::at(AcpcErrorKind::MissingRoundEnd, at));
        }
        cursor.at += 1;
        let action = match byte {
            b'f' => Action::Fold,
            b'c' => Action::Call,
            b'r' => {
                let to = cursor.number(u64::from(Chips::MAX)).map_err(|error| {
                    AcpcError::at(error.kind, betting_offset + error.column as usize - 1)
                })?;
                Action::RaiseTo(to as Chips)
            }
            _ => return Err(AcpcError::at(AcpcErrorKind::BadAction, at)),
        };
        deal_due(&mut state, cards.end)?;
        state
            .apply(action)
            .map_err(|why| AcpcError::at(AcpcErrorKind::IllegalAction(why), at))?;
    }
    if rounds_closed < state.street().index() {
        return Err(AcpcError::at(
            AcpcErrorKind::MissingRoundEnd,
            betting_offset + betting.len(),
        ));
    }
    deal_due(&mut state, cards.end)?;
    if let Some(&(_, offset)) = cards
        .board
        .get(next_board..cards.board_len)
        .and_then(|rest| rest.first())
    {
        return Err(AcpcError::at(AcpcErrorKind::BoardTooLong, offset));
    }
    Ok(state)
}

/// Writes the betting of `state` in ACPC form: `r300c/cr600f`, `r20000c///`.
pub fn write_betting(state: &HandState, out: &mut impl fmt::Write) -> fmt::Result {
    for street in super::rules::Street::ALL {
        if street > state.street() {
            break;
        }
        if street.index() > 0 {
            out.write_char('/')?;
        }
        for action in state.round_actions(street) {
            write!(out, "{action}")?;
        }
    }
    Ok(())
}

/// Writes the cards of `state` in ACPC form: `<hole0>|<hole1>` then each dealt street of the
/// board after a `/`; unknown hole cards are left empty.
pub fn write_cards(state: &HandState, out: &mut impl fmt::Write) -> fmt::Result {
    for position in 0..2 {
        if position == 1 {
            out.write_char('|')?;
        }
        if let Some([first, second]) = state.hole_cards(position) {
            write!(out, "{first}{second}")?;
        }
    }
    for (i, card) in state.board().iter().enumerate() {
        if matches!(i, 0 | 3 | 4) {
            out.write_char('/')?;
        }
        write!(out, "{card}")?;
    }
    Ok(())
}

/// What the dealer tells one player: `MATCHSTATE:<position>:<hand>:<betting>:<cards>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MatchState {
    /// The position of the player the message is for.
    pub position: Position,
    /// The hand number.
    pub hand_number: u32,
    /// The hand so far, as this player sees it (the opponent's hole cards are unknown until a
    /// showdown shows them).
    pub state: HandState,
}

impl MatchState {
    /// Parses a `MATCHSTATE:` line (no line ending) of a hand under `config`.
    pub fn parse(text: &[u8], config: HoldemConfig) -> Result<MatchState, AcpcError> {
        let mut cursor = Cursor::new(text);
        let state = Self::parse_fields(&mut cursor, config)?;
        cursor.end()?;
        Ok(state)
    }

    fn parse_fields(
        cursor: &mut Cursor<'_>,
        config: HoldemConfig,
    ) -> Result<MatchState, AcpcError> {
        cursor.expect_tag(b"MATCHSTATE:")?;
        let position = match cursor.peek() {
            Some(b'0') => 0,
            Some(b'1') => 1,
            _ => return cursor.fail(AcpcErrorKind::BadPosition),
        };
        cursor.at += 1;
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let hand_number = cursor.number(u64::from(u32::MAX))? as u32;
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let (betting_offset, betting) = cursor.field(b":");
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let cards = parse_cards(cursor)?;
        let state = replay(config, betting, betting_offset, &cards)?;
        Ok(MatchState {
            position,
            hand_number,
            state,
        })
    }

    /// Writes the line (no line ending).
    pub fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        write!(out, "MATCHSTATE:{}:{}:", self.position, self.hand_number)?;
        write_betting(&self.state, out)?;
        out.write_char(':')?;
        write_cards(&self.state, out)
    }

    /// Whether the player the message is for is to act (and so must reply).
    pub fn is_my_turn(&self) -> bool {
        self.state.to_act() == Some(self.position)
    }
}

impl fmt::Display for MatchState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

/// Parses a player's reply: the `MATCHSTATE:` line it answers, `:`, and an action (`f`,
/// `c` or `k` for call, `r<to>` or `b<to>` for a raise, letters in either case). The action
/// is returned as read, not checked against the rules: the dealer decides what to do with an
/// illegal one. A raise-to beyond `u32::MAX` reads as `u32::MAX` (illegal either way).
pub fn parse_reply(text: &[u8], config: HoldemConfig) -> Result<(MatchState, Action), AcpcError> {
    let mut cursor = Cursor::new(text);
    let state = MatchState::parse_fields(&mut cursor, config)?;
    cursor.expect(b':', AcpcErrorKind::MissingField)?;
    let action = match cursor.peek().map(|byte| byte.to_ascii_lowercase()) {
        Some(b'f') => Action::Fold,
        Some(b'c' | b'k') => Action::Call,
        Some(b'r' | b'b') => {
            cursor.at += 1;
            let start = cursor.at;
            let mut to: u64 = 0;
            while let Some(digit @ b'0'..=b'9') = cursor.peek() {
                to = (to * 10 + u64::from(digit - b'0')).min(u64::from(Chips::MAX));
                cursor.at += 1;
            }
            if cursor.at == start {
                return cursor.fail(AcpcErrorKind::BadReplyAction);
            }
            cursor.end()?;
            return Ok((state, Action::RaiseTo(to as Chips)));
        }
        _ => return cursor.fail(AcpcErrorKind::BadReplyAction),
    };
    cursor.at += 1;
    cursor.end()?;
    Ok((state, action))
}

/// Reads `<a>|<b>` names up to the end of the line.
fn parse_names<'a>(cursor: &mut Cursor<'a>) -> Result<[&'a str; 2], AcpcError> {
    let mut names = [""; 2];
    for (i, name) in names.iter_mut().enumerate() {
        if i == 1 {
            cursor.expect(b'|', AcpcErrorKind::BadName)?;
        }
        let (start, text) = cursor.field(b"|");
        let bad = |byte: &u8| *byte == b':' || *byte <= b' ' || *byte == 0x7f;
        if text.is_empty() || text.iter().any(bad) {
            return Err(AcpcError::at(AcpcErrorKind::BadName, start));
        }
        *name =
            core::str::from_utf8(text).map_err(|_| AcpcError::at(AcpcErrorKind::BadName, start))?;
    }
    Ok(names)
}

/// Reads `<v0>|<v1>`.
fn parse_values(cursor: &mut Cursor<'_>) -> Result<[i64; 2], AcpcError> {
    let first = cursor.signed()?;
    cursor.expect(b'|', AcpcErrorKind::MissingHandSeparator)?;
    let second = cursor.signed()?;
    Ok([first, second])
}

/// One hand of the dealer's log:
/// `STATE:<hand>:<betting>:<hole0>|<hole1>/<board>:<v0>|<v1>:<name0>|<name1>`, values and names
/// by position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LogLine<'a> {
    /// The hand number.
    pub hand_number: u32,
    /// The finished hand, both hole cards known.
    pub state: HandState,
    /// Chips won by positions 0 and 1: the hand's payoffs.
    pub values: [i32; 2],
    /// The players' names, by position.
    pub names: [&'a str; 2],
}

impl<'a> LogLine<'a> {
    /// Parses a `STATE:` line (no line ending); the hand must be over and the values must be
    /// its payoffs.
    pub fn parse(text: &'a str, config: HoldemConfig) -> Result<LogLine<'a>, AcpcError> {
        let mut cursor = Cursor::new(text.as_bytes());
        cursor.expect_tag(b"STATE:")?;
        let hand_number = cursor.number(u64::from(u32::MAX))? as u32;
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let (betting_offset, betting) = cursor.field(b":");
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let cards = parse_cards(&mut cursor)?;
        let state = replay(config, betting, betting_offset, &cards)?;
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let values_offset = cursor.at;
        let values = parse_values(&mut cursor)?;
        let payoffs = state
            .payoffs()
            .map_err(|_| AcpcError::at(AcpcErrorKind::WrongValues, values_offset))?;
        if values != [i64::from(payoffs[0]), i64::from(payoffs[1])] {
            return Err(AcpcError::at(AcpcErrorKind::WrongValues, values_offset));
        }
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let names = parse_names(&mut cursor)?;
        cursor.end()?;
        Ok(LogLine {
            hand_number,
            state,
            values: payoffs,
            names,
        })
    }

    /// Writes the line (no line ending).
    pub fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        write!(out, "STATE:{}:", self.hand_number)?;
        write_betting(&self.state, out)?;
        out.write_char(':')?;
        write_cards(&self.state, out)?;
        let [v0, v1] = self.values;
        let [n0, n1] = self.names;
        write!(out, ":{v0}|{v1}:{n0}|{n1}")
    }
}

impl fmt::Display for LogLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

/// The dealer's final line: `SCORE:<v0>|<v1>:<name0>|<name1>`, totals by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score<'a> {
    /// Chips won over the match, by seat.
    pub values: [i64; 2],
    /// The players' names, by seat.
    pub names: [&'a str; 2],
}

impl<'a> Score<'a> {
    /// Parses a `SCORE:` line (no line ending).
    pub fn parse(text: &'a str) -> Result<Score<'a>, AcpcError> {
        let mut cursor = Cursor::new(text.as_bytes());
        cursor.expect_tag(b"SCORE:")?;
        let values = parse_values(&mut cursor)?;
        cursor.expect(b':', AcpcErrorKind::MissingField)?;
        let names = parse_names(&mut cursor)?;
        cursor.end()?;
        Ok(Score { values, names })
    }

    /// Writes the line (no line ending).
    pub fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let [v0, v1] = self.values;
        let [n0, n1] = self.names;
        write!(out, "SCORE:{v0}|{v1}:{n0}|{n1}")
    }
}

impl fmt::Display for Score<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

/// Writes `item`'s text into `buffer` and returns the number of bytes written, or
/// `Error::BufferTooSmall` (the buffer's contents are then unspecified).
pub fn write_to_bytes(item: &impl fmt::Display, buffer: &mut [u8]) -> Result<usize, Error> {
    struct SliceWriter<'b> {
        buffer: &'b mut [u8],
        len: usize,
    }
    impl fmt::Write for SliceWriter<'_> {
        fn write_str(&mut self, text: &str) -> fmt::Result {
            let end = self.len.checked_add(text.len()).ok_or(fmt::Error)?;
            let slot = self.buffer.get_mut(self.len..end).ok_or(fmt::Error)?;
            slot.copy_from_slice(text.as_bytes());
            self.len = end;
            Ok(())
        }
    }
    let mut writer = SliceWriter { buffer, len: 0 };
    fmt::write(&mut writer, format_args!("{item}")).map_err(|_| Error::BufferTooSmall)?;
    Ok(writer.len)
}
