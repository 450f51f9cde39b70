//! The rules of one hand of heads-up no-limit Texas Hold'em, as the ACPC game
//! `holdem.nolimit.2p.reverse_blinds` plays it: a state machine over the betting and the deal.
//!
//! - Position 0 posts the big blind and position 1 the small blind. Position 1 acts first
//!   preflop, position 0 first on the flop, turn and river (ACPC `firstPlayer = 2 1 1 1`).
//! - A raise goes *to* a total: the player's chips in the pot for the whole hand after it.
//! - Call (or check) is always legal; fold only when facing a bet.
//! - The smallest raise-to is the current bet plus the larger of the big blind and the
//!   largest raise increment of the round; the largest is the player's stack. A player whose
//!   stack is below the smallest may still raise all-in. No raise is possible when the
//!   opponent is all-in or when calling already takes the player's whole stack.
//! - Once a player is all-in and the round closes, there is no more betting: the board is
//!   dealt to the end and the hand goes to showdown.
//!
//! [`HandState`] also holds the cards, so that a dealer, a chance node of a search and a
//! parser of ACPC text all deal through the same checks; each card slot may stay unknown (a
//! player's view of the opponent's hole cards).
use core::fmt;

use super::card::Card;
use super::eval::rank7_unchecked;
use crate::Error;

/// The largest stack a configuration accepts, so that a pot (two stacks) and every payoff fit
/// an `i32` with room to spare.
pub const MAX_STACK: u32 = 1 << 30;

/// Most actions of one betting round. ACPC's game logic keeps at most 64 actions per round
/// and so allows no raise once a round holds 63 (the 64th must call or fold); arbor follows
/// it, as OpenSpiel's `universal_poker` (ACPC's own code) confirms.
pub const MAX_ROUND_ACTIONS: usize = 64;

/// Most actions one hand records: 4 rounds of at most [`MAX_ROUND_ACTIONS`], whatever the
/// stacks. (The stacks bound it too: every raise but an all-in lifts the bet by a big blind,
/// so ACPC's 20,000 stacks and 100 big blind allow at most 200 raises and 208 actions.)
pub const MAX_ACTIONS: usize = 256;

/// Cards on the board once each street is dealt: none preflop, 3, 4, 5.
const BOARD_AFTER: [u8; 4] = [0, 3, 4, 5];
/// Who acts first in each betting round (ACPC `firstPlayer 2 1 1 1`, 0-based).
const FIRST_TO_ACT: [u8; 4] = [1, 0, 0, 0];

/// A position at the table: 0 (big blind) or 1 (small blind). Functions taking a position
/// treat any other value as "no such position" and answer 0, `None` or an error.
pub type Position = u8;

/// Chips: stacks, blinds, bets.
pub type Chips = u32;

/// The stacks and blinds of a hand. The seating is fixed: position 0 posts the big blind and
/// acts first after the flop, position 1 posts the small blind and acts first preflop. Stacks
/// are reset every hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HoldemConfig {
    stacks: [Chips; 2],
    big_blind: Chips,
    small_blind: Chips,
}

impl HoldemConfig {
    /// The ACPC game `holdem.nolimit.2p.reverse_blinds`: stacks of 20,000, blinds 100/50.
    pub const ACPC: HoldemConfig = HoldemConfig {
        stacks: [20_000, 20_000],
        big_blind: 100,
        small_blind: 50,
    };

    /// Stacks (by position) and blinds, validated: the big blind must be positive, the small
    /// blind at most the big blind, and each stack larger than the big blind (so both players
    /// have chips behind after the blinds and the first round has betting) and at most
    /// [`MAX_STACK`].
    pub const fn new(
        stacks: [Chips; 2],
        big_blind: Chips,
        small_blind: Chips,
    ) -> Result<HoldemConfig, ConfigError> {
        if big_blind == 0 {
            return Err(ConfigError::ZeroBigBlind);
        }
        if small_blind > big_blind {
            return Err(ConfigError::SmallBlindAboveBigBlind);
        }
        let mut position = 0;
        while position < 2 {
            if stacks[position] <= big_blind {
                return Err(ConfigError::StackNotAboveBigBlind);
            }
            if stacks[position] > MAX_STACK {
                return Err(ConfigError::StackTooLarge);
            }
            position += 1;
        }
        Ok(HoldemConfig {
            stacks,
            big_blind,
            small_blind,
        })
    }

    /// The stack of `position` at the start of the hand (0 for no such position).
    pub const fn stack(&self, position: Position) -> Chips {
        match position {
            0 | 1 => self.stacks[position as usize],
            _ => 0,
        }
    }

    /// Both stacks, by position.
    pub const fn stacks(&self) -> [Chips; 2] {
        self.stacks
    }

    /// The big blind, posted by position 0.
    pub const fn big_blind(&self) -> Chips {
        self.big_blind
    }

    /// The small blind, posted by position 1.
    pub const fn small_blind(&self) -> Chips {
        self.small_blind
    }

    /// The blind `position` posts (0 for no such position).
    pub const fn blind(&self, position: Position) -> Chips {
        match position {
            0 => self.big_blind,
            1 => self.small_blind,
            _ => 0,
        }
    }
}

impl Default for HoldemConfig {
    /// [`HoldemConfig::ACPC`].
    fn default() -> Self {
        HoldemConfig::ACPC
    }
}

/// Why a [`HoldemConfig`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConfigError {
    /// The big blind is zero.
    ZeroBigBlind,
    /// The small blind is larger than the big blind.
    SmallBlindAboveBigBlind,
    /// A stack is not larger than the big blind.
    StackNotAboveBigBlind,
    /// A stack is above [`MAX_STACK`].
    StackTooLarge,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ConfigError::ZeroBigBlind => "the big blind must be at least 1 chip",
            ConfigError::SmallBlindAboveBigBlind => {
                "the small blind must not be larger than the big blind"
            }
            ConfigError::StackNotAboveBigBlind => "each stack must be larger than the big blind",
            ConfigError::StackTooLarge => "a stack must be at most 2^30 chips",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ConfigError {}

impl From<ConfigError> for Error {
    fn from(_: ConfigError) -> Error {
        Error::InvalidArgument
    }
}

/// A betting round, and the street whose board it is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Street {
    /// No board; position 1 acts first.
    Preflop = 0,
    /// Three board cards.
    Flop = 1,
    /// Four board cards.
    Turn = 2,
    /// Five board cards.
    River = 3,
}

impl Street {
    /// The streets in order.
    pub const ALL: [Street; 4] = [Street::Preflop, Street::Flop, Street::Turn, Street::River];

    /// 0 (preflop) ..= 3 (river).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Board cards once this street is dealt: 0, 3, 4, 5.
    pub const fn board_cards(self) -> usize {
        BOARD_AFTER[self as usize] as usize
    }

    /// The position that acts first in this round.
    pub const fn first_to_act(self) -> Position {
        FIRST_TO_ACT[self as usize]
    }
}

/// A betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Give up the hand; legal only when facing a bet.
    Fold,
    /// Match the current bet (a check when there is nothing to match), or as much of it as
    /// the stack allows. Always legal while the player is to act.
    Call,
    /// Raise so that the player's total chips in the hand (all streets) become this much.
    RaiseTo(Chips),
}

impl fmt::Display for Action {
    /// The ACPC form: `f`, `c`, `r<to>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fold => f.write_str("f"),
            Action::Call => f.write_str("c"),
            Action::RaiseTo(to) => write!(f, "r{to}"),
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionError {
    /// The hand is over.
    HandOver,
    /// Betting has ended (a player is all-in); only board cards remain to be dealt.
    BettingOver,
    /// The board needs this many more cards before the round can be played.
    BoardNotDealt {
        /// Cards still missing.
        missing: u8,
    },
    /// Fold when there is no bet to face (a check is free).
    FoldNotFacingBet,
    /// No raise is possible: the opponent is all-in, or calling already takes the player's
    /// whole stack.
    RaiseNotAllowed,
    /// The raise-to is below the smallest legal one.
    RaiseBelowMinimum {
        /// The raise-to asked for.
        to: Chips,
        /// The smallest legal raise-to.
        min: Chips,
    },
    /// The raise-to is above the player's stack.
    RaiseAboveMaximum {
        /// The raise-to asked for.
        to: Chips,
        /// The largest legal raise-to (the stack).
        max: Chips,
    },
    /// The hand already holds [`MAX_ACTIONS`] actions. The per-round cap makes this
    /// impossible; it stays so that the history is never written past its end.
    HistoryFull,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ActionError::HandOver => f.write_str("the hand is over"),
            ActionError::BettingOver => {
                f.write_str("betting is over (a player is all-in); only the board remains")
            }
            ActionError::BoardNotDealt { missing } => {
                write!(
                    f,
                    "the board needs {missing} more card(s) before anyone acts"
                )
            }
            ActionError::FoldNotFacingBet => {
                f.write_str("fold is not allowed when not facing a bet (check instead)")
            }
            ActionError::RaiseNotAllowed => f.write_str(
                "no raise is possible (the opponent is all-in, or calling takes the whole stack)",
            ),
            ActionError::RaiseBelowMinimum { to, min } => {
                write!(f, "raise to {to} is below the minimum {min}")
            }
            ActionError::RaiseAboveMaximum { to, max } => {
                write!(f, "raise to {to} is above the maximum {max} (the stack)")
            }
            ActionError::HistoryFull => {
                write!(f, "the hand already holds {MAX_ACTIONS} actions")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ActionError {}

impl From<ActionError> for Error {
    fn from(error: ActionError) -> Error {
        match error {
            ActionError::HistoryFull => Error::CapacityExhausted,
            ActionError::HandOver => Error::GameOver,
            _ => Error::IllegalMove,
        }
    }
}

/// Why a card could not be dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DealError {
    /// The card is already in a hand or on the board.
    Duplicate(Card),
    /// This position already has its hole cards.
    HoleCardsAlreadyDealt,
    /// No board card is due: the round is still being played, the board is complete, or the
    /// hand ended by a fold.
    NoBoardCardDue,
    /// There is no such position.
    NoSuchPosition,
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::Duplicate(card) => write!(f, "the card {card} is already dealt"),
            DealError::HoleCardsAlreadyDealt => {
                f.write_str("this position already has its hole cards")
            }
            DealError::NoBoardCardDue => f.write_str("no board card is due now"),
            DealError::NoSuchPosition => f.write_str("the position must be 0 or 1"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DealError {}

impl From<DealError> for Error {
    fn from(error: DealError) -> Error {
        match error {
            DealError::Duplicate(_) => Error::DuplicateCard,
            DealError::HoleCardsAlreadyDealt | DealError::NoBoardCardDue => Error::IllegalMove,
            DealError::NoSuchPosition => Error::InvalidArgument,
        }
    }
}

/// Why payoffs are not known yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PayoffError {
    /// The betting is not over.
    HandNotOver,
    /// A showdown needs the complete board; this many cards are missing.
    BoardIncomplete {
        /// Cards still missing.
        missing: u8,
    },
    /// A showdown needs both players' hole cards; this position's are unknown.
    HoleCardsUnknown(Position),
}

impl fmt::Display for PayoffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayoffError::HandNotOver => f.write_str("the hand is not over"),
            PayoffError::BoardIncomplete { missing } => {
                write!(f, "the showdown needs {missing} more board card(s)")
            }
            PayoffError::HoleCardsUnknown(position) => {
                write!(f, "the showdown needs position {position}'s hole cards")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PayoffError {}

impl From<PayoffError> for Error {
    fn from(_: PayoffError) -> Error {
        Error::IllegalMove
    }
}

/// An action in the history: 0 fold, 1 call, anything else a raise to that many chips (a
/// raise-to is always above the big blind, so at least 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Recorded(Chips);

impl Recorded {
    const FOLD: Recorded = Recorded(0);
    const CALL: Recorded = Recorded(1);

    const fn of(action: Action) -> Recorded {
        match action {
            Action::Fold => Recorded::FOLD,
            Action::Call => Recorded::CALL,
            Action::RaiseTo(to) => Recorded(to),
        }
    }

    const fn action(self) -> Action {
        match self.0 {
            0 => Action::Fold,
            1 => Action::Call,
            to => Action::RaiseTo(to),
        }
    }
}

/// One hand: the betting so far, the cards dealt, and everything the rules derive from them.
///
/// Betting goes through [`HandState::apply`]; cards through [`HandState::deal_hole_cards`]
/// and [`HandState::deal_board_card`]. Board cards must be dealt before a round is played
/// ([`HandState::board_cards_due`] says how many are due); hole cards may stay unknown until a
/// showdown needs them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HandState {
    config: HoldemConfig,
    spent: [Chips; 2],
    /// The round being played, or the last one once betting is over (ACPC moves an all-in
    /// hand straight to the river round, which is why its betting text ends `///`).
    round: u8,
    to_act: Position,
    /// The largest raise increment of this round, at least the big blind.
    last_increment: Chips,
    folded: Option<Position>,
    betting_over: bool,
    /// Where each round's actions begin in `history`.
    round_start: [u16; 4],
    action_count: u16,
    history: [Recorded; MAX_ACTIONS],
    hole: [Option<[Card; 2]>; 2],
    board: [Card; 5],
    board_len: u8,
    /// Every dealt card, one bit per card byte.
    dealt: u64,
}

impl HandState {
    /// A new hand under `config`: blinds posted, no cards dealt, position 1 to act.
    pub fn new(config: HoldemConfig) -> HandState {
        HandState {
            config,
            spent: [config.big_blind, config.small_blind],
            round: 0,
            to_act: FIRST_TO_ACT[0],
            last_increment: config.big_blind,
            folded: None,
            betting_over: false,
            round_start: [0; 4],
            action_count: 0,
            history: [Recorded::CALL; MAX_ACTIONS],
            hole: [None; 2],
            board: [PLACEHOLDER_CARD; 5],
            board_len: 0,
            dealt: 0,
        }
    }

    /// The configuration of this hand.
    pub const fn config(&self) -> &HoldemConfig {
        &self.config
    }

    /// The betting round being played (the last one reached once the hand is over; the river
    /// after an all-in call, as ACPC has it).
    pub const fn street(&self) -> Street {
        Street::ALL[(self.round & 3) as usize]
    }

    /// The position to act, `None` when nobody is: the hand is over, betting is over, or
    /// board cards are due first.
    pub fn to_act(&self) -> Option<Position> {
        if self.folded.is_some() || self.betting_over || self.board_cards_due() > 0 {
            None
        } else {
            Some(self.to_act)
        }
    }

    /// Whether the hand is over: a player folded, or betting is over and the board complete.
    pub fn is_over(&self) -> bool {
        self.folded.is_some() || (self.betting_over && self.board_len == 5)
    }

    /// Whether betting is over (a fold, the river closed, or a player all-in); board cards may
    /// still be due.
    pub const fn is_betting_over(&self) -> bool {
        self.folded.is_some() || self.betting_over
    }

    /// The position that folded, if one did.
    pub const fn folded(&self) -> Option<Position> {
        self.folded
    }

    /// Board cards due before play goes on: the rest of the street's cards while betting
    /// continues, the rest of the board after an all-in, none after a fold.
    pub fn board_cards_due(&self) -> u8 {
        let wanted = if self.folded.is_some() {
            self.board_len
        } else if self.betting_over {
            5
        } else {
            BOARD_AFTER[usize::from(self.round & 3)]
        };
        wanted.saturating_sub(self.board_len)
    }

    /// Chips `position` has put into the pot this hand, blinds included (0 for no such
    /// position).
    pub fn spent(&self, position: Position) -> Chips {
        self.spent.get(usize::from(position)).copied().unwrap_or(0)
    }

    /// Chips `position` still has behind (0 for no such position).
    pub fn behind(&self, position: Position) -> Chips {
        self.config
            .stack(position)
            .saturating_sub(self.spent(position))
    }

    /// Both players' chips in the pot.
    pub const fn pot(&self) -> Chips {
        self.spent[0] + self.spent[1]
    }

    /// The current bet: the largest total any player has put in.
    pub const fn current_bet(&self) -> Chips {
        if self.spent[0] > self.spent[1] {
            self.spent[0]
        } else {
            self.spent[1]
        }
    }

    /// The largest raise increment of the current round, at least the big blind: the next
    /// raise must add at least this much to the current bet (unless it is all-in).
    pub const fn last_raise_increment(&self) -> Chips {
        self.last_increment
    }

    /// Whether the player to act may fold (facing a bet). `false` when nobody is to act.
    pub fn can_fold(&self) -> bool {
        match self.to_act() {
            Some(me) => self.spent(me) < self.current_bet(),
            None => false,
        }
    }

    /// The smallest and largest legal raise-to of the player to act, `None` when no raise is
    /// possible (nobody to act, the opponent all-in, calling takes the whole stack, or the
    /// round already holds `MAX_ROUND_ACTIONS - 1` actions).
    pub fn raise_bounds(&self) -> Option<(Chips, Chips)> {
        let me = self.to_act()?;
        let max = self.config.stack(me);
        let bet = self.current_bet();
        if self.behind(1 - me) == 0
            || max <= bet
            || self.round_action_count() + 1 >= MAX_ROUND_ACTIONS
        {
            return None;
        }
        let min = bet.saturating_add(self.last_increment).min(max);
        Some((min, max))
    }

    /// Whether `action` is legal for the player to act.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Why `action` is not legal for the player to act, or `Ok` if it is.
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
        if self.folded.is_some() || (self.betting_over && self.board_len == 5) {
            return Err(ActionError::HandOver);
        }
        if self.betting_over {
            return Err(ActionError::BettingOver);
        }
        let missing = self.board_cards_due();
        if missing > 0 {
            return Err(ActionError::BoardNotDealt { missing });
        }
        if self.action_count as usize >= MAX_ACTIONS {
            return Err(ActionError::HistoryFull);
        }
        match action {
            Action::Call => Ok(()),
            Action::Fold if self.can_fold() => Ok(()),
            Action::Fold => Err(ActionError::FoldNotFacingBet),
            Action::RaiseTo(to) => {
                let (min, max) = self.raise_bounds().ok_or(ActionError::RaiseNotAllowed)?;
                if to < min {
                    Err(ActionError::RaiseBelowMinimum { to, min })
                } else if to > max {
                    Err(ActionError::RaiseAboveMaximum { to, max })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays `action` for the player to act, or says why it is not legal (and changes
    /// nothing).
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.check(action)?;
        let me = usize::from(self.to_act & 1);
        let opponent = 1 - me;
        let first_of_round = usize::from(self.action_count)
            == usize::from(self.round_start[usize::from(self.round & 3)]);
        self.history[usize::from(self.action_count)] = Recorded::of(action);
        self.action_count += 1;
        match action {
            Action::Fold => self.folded = Some(me as Position),
            Action::RaiseTo(to) => {
                let increment = to - self.current_bet();
                self.last_increment = self.last_increment.max(increment);
                self.spent[me] = to;
                self.to_act = opponent as Position;
            }
            Action::Call => {
                self.spent[me] = self.current_bet().min(self.config.stacks[me]);
                if first_of_round {
                    self.to_act = opponent as Position;
                } else {
                    self.close_round();
                }
            }
        }
        Ok(())
    }

    /// Ends the current round: on to the next, or, after the river or with a player all-in,
    /// the end of betting (ACPC then counts the hand as in the river round).
    fn close_round(&mut self) {
        let someone_all_in = self.behind(0) == 0 || self.behind(1) == 0;
        if self.round >= 3 || someone_all_in {
            self.betting_over = true;
            while self.round < 3 {
                self.round += 1;
                self.round_start[usize::from(self.round)] = self.action_count;
            }
        } else {
            self.round += 1;
            self.round_start[usize::from(self.round)] = self.action_count;
            self.to_act = FIRST_TO_ACT[usize::from(self.round)];
            self.last_increment = self.config.big_blind;
        }
    }

    /// Number of actions played so far in the current round.
    pub fn round_action_count(&self) -> usize {
        self.action_count()
            .saturating_sub(usize::from(self.round_start[usize::from(self.round & 3)]))
    }

    /// Number of actions played so far.
    pub const fn action_count(&self) -> usize {
        self.action_count as usize
    }

    /// The `index`-th action of the hand, if played.
    pub fn action(&self, index: usize) -> Option<Action> {
        self.history[..self.action_count()]
            .get(index)
            .map(|recorded| recorded.action())
    }

    /// All actions of the hand, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.history[..self.action_count()]
            .iter()
            .map(|recorded| recorded.action())
    }

    /// The actions of one betting round, in order (empty for a round not reached).
    pub fn round_actions(&self, street: Street) -> impl Iterator<Item = Action> + '_ {
        let round = street.index();
        let (start, end) = if round > usize::from(self.round) {
            (0, 0)
        } else {
            let start = usize::from(self.round_start[round]);
            let end = if round == usize::from(self.round) {
                self.action_count()
            } else {
                usize::from(self.round_start[round + 1])
            };
            (start, end)
        };
        self.history
            .get(start..end)
            .unwrap_or(&[])
            .iter()
            .map(|recorded| recorded.action())
    }

    /// Gives `position` its two hole cards. Refused if the position has them already or a
    /// card is dealt elsewhere (or the two are the same card).
    pub fn deal_hole_cards(
        &mut self,
        position: Position,
        cards: [Card; 2],
    ) -> Result<(), DealError> {
        let slot = self
            .hole
            .get(usize::from(position))
            .ok_or(DealError::NoSuchPosition)?;
        if slot.is_some() {
            return Err(DealError::HoleCardsAlreadyDealt);
        }
        let first = card_bit(cards[0]);
        if self.dealt & first != 0 {
            return Err(DealError::Duplicate(cards[0]));
        }
        let second = card_bit(cards[1]);
        if (self.dealt | first) & second != 0 {
            return Err(DealError::Duplicate(cards[1]));
        }
        self.dealt |= first | second;
        self.hole[usize::from(position & 1)] = Some(cards);
        Ok(())
    }

    /// Deals the next board card. Refused when no board card is due
    /// ([`HandState::board_cards_due`]) or the card is already dealt.
    pub fn deal_board_card(&mut self, card: Card) -> Result<(), DealError> {
        if self.board_cards_due() == 0 {
            return Err(DealError::NoBoardCardDue);
        }
        let bit = card_bit(card);
        if self.dealt & bit != 0 {
            return Err(DealError::Duplicate(card));
        }
        self.dealt |= bit;
        self.board[usize::from(self.board_len)] = card;
        self.board_len += 1;
        Ok(())
    }

    /// The hole cards of `position`, if known.
    pub fn hole_cards(&self, position: Position) -> Option<[Card; 2]> {
        self.hole.get(usize::from(position)).copied().flatten()
    }

    /// The board dealt so far (0 to 5 cards).
    pub fn board(&self) -> &[Card] {
        &self.board[..usize::from(self.board_len)]
    }

    /// Every card dealt (hole cards and board), as bits `1 << card.byte()`.
    pub const fn dealt_mask(&self) -> u64 {
        self.dealt
    }

    /// Removes `position`'s hole cards, so that other cards can be dealt in their place (a
    /// determinization of what a player cannot see). Does nothing for no such position.
    pub fn forget_hole_cards(&mut self, position: Position) {
        if let Some(slot) = self.hole.get_mut(usize::from(position)) {
            if let Some(cards) = slot.take() {
                self.dealt &= !(card_bit(cards[0]) | card_bit(cards[1]));
            }
        }
    }

    /// Whether `other` is the same situation apart from the hole cards: the same rules,
    /// betting and board. Cheaper than comparing whole states (it reads only the actions
    /// played), for models that cache what they computed for one situation.
    pub fn same_but_hole_cards(&self, other: &HandState) -> bool {
        let played = usize::from(self.action_count);
        self.config == other.config
            && self.spent == other.spent
            && self.round == other.round
            && self.to_act == other.to_act
            && self.last_increment == other.last_increment
            && self.folded == other.folded
            && self.betting_over == other.betting_over
            && self.round_start == other.round_start
            && self.action_count == other.action_count
            && self.history.get(..played) == other.history.get(..played)
            && self.board() == other.board()
    }

    /// Calls `visit(before, actor, action)` for each action of the hand, in order, replaying
    /// it from the start with the board dealt as it was: `before` holds the hole cards this
    /// state holds and the board up to that action.
    pub fn replay(&self, mut visit: impl FnMut(&HandState, Position, Action)) {
        let mut hand = HandState::new(self.config);
        for position in 0..2u8 {
            if let Some(cards) = self.hole_cards(position) {
                // Cards from a consistent state deal without error into an empty hand.
                let _ = hand.deal_hole_cards(position, cards);
            }
        }
        let board = self.board();
        for action in self.actions() {
            while hand.board_cards_due() > 0 {
                match board.get(hand.board().len()) {
                    Some(card) => {
                        let _ = hand.deal_board_card(*card);
                    }
                    None => return,
                }
            }
            let Some(actor) = hand.to_act() else {
                return;
            };
            visit(&hand, actor, action);
            if hand.apply(action).is_err() {
                return;
            }
        }
    }

    /// The hand as `position` sees it: its own hole cards, the board and the betting, and the
    /// opponent's hole cards only after a showdown (the ACPC dealer's rule).
    pub fn seen_by(&self, position: Position) -> HandState {
        let mut seen = self.clone();
        if !(self.is_over() && self.folded.is_none()) {
            seen.forget_hole_cards(1 - position.min(1));
        }
        seen
    }

    /// The chips each position wins (positive) or loses (negative) once the hand is over; the
    /// two add up to zero. After a fold the folder loses what it put in. At a showdown the
    /// better best-five-of-seven hand wins what the other put in, matched by its own stake (a
    /// player all-in for less cannot win more than it staked); equal hands split, which with
    /// two players is each taking back its own chips, so there is never an odd chip.
    pub fn payoffs(&self) -> Result<[i32; 2], PayoffError> {
        if let Some(folder) = self.folded {
            let lost = self.spent(folder) as i32;
            return Ok(if folder == 0 {
                [-lost, lost]
            } else {
                [lost, -lost]
            });
        }
        if !self.betting_over {
            return Err(PayoffError::HandNotOver);
        }
        let missing = self.board_cards_due();
        if missing > 0 {
            return Err(PayoffError::BoardIncomplete { missing });
        }
        let strength = |position: Position| {
            let hole = self
                .hole_cards(position)
                .ok_or(PayoffError::HoleCardsUnknown(position))?;
            let mut seven = [0u8; 7];
            seven[0] = hole[0].byte();
            seven[1] = hole[1].byte();
            for (slot, card) in seven[2..].iter_mut().zip(self.board()) {
                *slot = card.byte();
            }
            // The dealt mask guarantees seven distinct cards in range.
            Ok(rank7_unchecked(&seven))
        };
        let (mine, theirs) = (strength(0)?, strength(1)?);
        let stake = self.spent[0].min(self.spent[1]) as i32;
        Ok(match mine.cmp(&theirs) {
            core::cmp::Ordering::Greater => [stake, -stake],
            core::cmp::Ordering::Less => [-stake, stake],
            core::cmp::Ordering::Equal => [0, 0],
        })
    }
}

/// The bit of `card` in a dealt mask.
const fn card_bit(card: Card) -> u64 {
    1 << card.byte()
}

/// What fills card slots not dealt yet (never read: `board()` stops at the dealt ones).
pub(crate) const PLACEHOLDER_CARD: Card = Card::ALL[0];

/// What the ACPC reference dealer changed in an invalid action before playing it (the
/// dealer prints a `WARNING:` line for each; the text is the caller's to format).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Correction {
    /// A raise-to below the smallest legal one was raised to it.
    RaiseIncreased { from: Chips, to: Chips },
    /// A raise-to above the stack was lowered to it.
    RaiseDecreased { from: Chips, to: Chips },
    /// Any other invalid action (a fold with nothing to face, a raise where none is
    /// possible, or a reply that is no action at all) became a call.
    ChangedToCall,
}

impl HandState {
    /// The action the reference dealer plays for `action` from the player to act, and what
    /// it corrected: an out-of-range raise is clamped into the legal range, any other
    /// invalid action becomes a call (always legal while a player is to act).
    pub fn corrected(&self, action: Action) -> (Action, Option<Correction>) {
        let to_call = (Action::Call, Some(Correction::ChangedToCall));
        match action {
            Action::RaiseTo(from) => match self.raise_bounds() {
                Some((low, _)) if from < low => (
                    Action::RaiseTo(low),
                    Some(Correction::RaiseIncreased { from, to: low }),
                ),
                Some((_, high)) if from > high => (
                    Action::RaiseTo(high),
                    Some(Correction::RaiseDecreased { from, to: high }),
                ),
                Some(_) => (action, None),
                None => to_call,
            },
            _ if self.is_legal(action) => (action, None),
            _ => to_call,
        }
    }
}

#[cfg(test)]
mod correction_tests {
    use super::*;

    #[test]
    fn invalid_actions_are_corrected_as_the_reference_dealer_does() {
        // Preflop, the small blind (position 1) to act facing the big blind.
        let mut state = HandState::new(HoldemConfig::ACPC);
        assert_eq!(
            state.corrected(Action::RaiseTo(300)),
            (Action::RaiseTo(300), None)
        );
        assert_eq!(
            state.corrected(Action::RaiseTo(150)),
            (
                Action::RaiseTo(200),
                Some(Correction::RaiseIncreased { from: 150, to: 200 })
            )
        );
        assert_eq!(
            state.corrected(Action::RaiseTo(25_000)),
            (
                Action::RaiseTo(20_000),
                Some(Correction::RaiseDecreased {
                    from: 25_000,
                    to: 20_000
                })
            )
        );
        assert_eq!(state.corrected(Action::Fold), (Action::Fold, None));
        assert_eq!(state.corrected(Action::Call), (Action::Call, None));
        // The small blind calls: the big blind may check, so a fold is invalid.
        state.apply(Action::Call).unwrap();
        assert_eq!(
            state.corrected(Action::Fold),
            (Action::Call, Some(Correction::ChangedToCall))
        );
        // All in and called: no raise is possible, so a raise becomes a call.
        state.apply(Action::RaiseTo(20_000)).unwrap();
        assert_eq!(
            state.corrected(Action::RaiseTo(20_000)),
            (Action::Call, Some(Correction::ChangedToCall))
        );
    }
}
