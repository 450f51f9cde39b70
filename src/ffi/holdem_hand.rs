//! C ABI of heads-up no-limit Hold'em hands: the rules (stacks and blinds, betting with
//! raise-to amounts, legal actions and raise bounds, payoffs), the ACPC reference dealer's
//! deal, and ACPC `MATCHSTATE` text in and out.
//!
//! A hand is an `arbor_holdem_hand` struct the caller holds by value: its stacks and blinds,
//! the cards dealt so far, and the actions played. Every call rebuilds the hand by replaying
//! those actions through the core's rules ([`HandState`]), so a struct changed by hand is
//! either the legal hand it describes or refused with `ARBOR_INVALID_ARGUMENT`, never
//! misread; a call that changes it writes it back only when everything succeeded.
//!
//! Actions cross the boundary as `uint32_t` codes: `ARBOR_HOLDEM_FOLD` (0), `ARBOR_HOLDEM_CALL`
//! (1, also a check), and any larger number `n` for a raise to `n` chips (the player's total
//! in the hand after the raise, as ACPC counts it; a raise-to is always above the big blind).
use core::ffi::c_char;

use super::arbor_status;
use super::boundary::{
    OptionalOut, Out, Plain, boundary, check_version, magic, read_in, slice_in, slice_out,
};
use super::status::ARBOR_ABI_VERSION;
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::holdem::Card;
use crate::holdem::acpc::MatchState;
use crate::holdem::bots::{BotView, HoldemBot, parse_bot};
use crate::holdem::deal::{CARDS_PER_HAND, Dealer, Mt19937, STATE_WORDS};
use crate::holdem::rules::{Action, ActionError, HandState, HoldemConfig, MAX_ACTIONS};

/// Action code of a fold.
pub const ARBOR_HOLDEM_FOLD: u32 = 0;
/// Action code of a call (a check when there is nothing to call).
pub const ARBOR_HOLDEM_CALL: u32 = 1;
/// No position or card: `arbor_holdem_info.to_act` when nobody is to act, `.folded` without a
/// fold, `arbor_holdem_hand.position` of a hand seen whole (by a dealer).
pub const ARBOR_HOLDEM_NONE: u32 = 0xFFFF_FFFF;
/// A card slot of `arbor_holdem_hand` not dealt or not seen.
pub const ARBOR_HOLDEM_NO_CARD: u8 = 0xFF;
/// Most actions a hand records (`arbor_holdem_hand.actions`).
pub const ARBOR_HOLDEM_MAX_ACTIONS: usize = 256;
const _: () = assert!(ARBOR_HOLDEM_MAX_ACTIONS == MAX_ACTIONS);
/// Stacks of the ACPC game `holdem.nolimit.2p.reverse_blinds`.
pub const ARBOR_HOLDEM_ACPC_STACK: u32 = 20_000;
/// Its big blind, posted by position 0.
pub const ARBOR_HOLDEM_ACPC_BIG_BLIND: u32 = 100;
/// Its small blind, posted by position 1.
pub const ARBOR_HOLDEM_ACPC_SMALL_BLIND: u32 = 50;
/// Cards the ACPC dealer draws per hand (`arbor_holdem_dealer_next`): position 0's two hole cards,
/// position 1's two, then the five board cards.
pub const ARBOR_HOLDEM_DEAL_CARDS: usize = 9;
const _: () = assert!(ARBOR_HOLDEM_DEAL_CARDS == CARDS_PER_HAND);
/// Bytes that hold any `MATCHSTATE` line of `arbor_holdem_matchstate_format` and its NUL (the
/// longest, 256 raises of ten-digit amounts, is about 3,000).
pub const ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX: usize = 4096;
/// Bytes that hold any action's ACPC text (`arbor_holdem_action_format`: `f`, `c`,
/// `r4294967295`) and its NUL.
pub const ARBOR_HOLDEM_ACTION_TEXT_MAX: usize = 12;

/// The `magic` of `arbor_holdem_hand`: "HEHD" (heads-up hand).
const HAND_MAGIC: u32 = magic(b"HEHD");

/// One hand of heads-up no-limit Hold'em, 1,072 bytes, held by value by C (copy it with
/// `memcpy`, save it): filled by `arbor_holdem_hand_init` or `arbor_holdem_matchstate_parse`,
/// changed by the `arbor_holdem_hand_*` calls; the fields may be read.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct arbor_holdem_hand {
    /// Set by arbor: marks a hand it filled.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Stacks at the start of the hand, by position (0 is the big blind).
    pub stacks: [u32; 2],
    /// The big blind, posted by position 0.
    pub big_blind: u32,
    /// The small blind, posted by position 1.
    pub small_blind: u32,
    /// The hand's number in its match (from `MATCHSTATE`; 0 from `arbor_holdem_hand_init`).
    pub hand_number: u32,
    /// The position whose view this is (from `MATCHSTATE`), or `ARBOR_HOLDEM_NONE` for a hand
    /// seen whole, as a dealer does.
    pub position: u32,
    /// Actions played, `actions[0 .. action_count]`.
    pub action_count: u32,
    /// Hole cards: `hole[0..2]` of position 0, `hole[2..4]` of position 1, each a card byte
    /// (`rank * 4 + suit`) or `ARBOR_HOLDEM_NO_CARD` for both of a position not dealt or not seen.
    pub hole: [u8; 4],
    /// Board cards dealt, `board[0 .. board_len]`; the rest `ARBOR_HOLDEM_NO_CARD`.
    pub board: [u8; 5],
    /// Board cards dealt, 0..=5.
    pub board_len: u8,
    /// Written as zero by arbor; ignored when read.
    pub reserved: [u8; 2],
    /// The actions played, as action codes.
    pub actions: [u32; ARBOR_HOLDEM_MAX_ACTIONS],
}

/// Bytes of `arbor_holdem_hand`.
pub const ARBOR_HOLDEM_HAND_BYTES: usize = 1072;
const _: () = assert!(core::mem::size_of::<arbor_holdem_hand>() == ARBOR_HOLDEM_HAND_BYTES);

// SAFETY: `repr(C)`, integers and integer arrays only, laid out without padding (the size
// assertion above: 9 * 4 + 4 + 5 + 1 + 2 + 256 * 4 = 1072), so every bit pattern is a value.
unsafe impl Plain for arbor_holdem_hand {}

/// What the rules say about a hand now (`arbor_holdem_hand_info`). 64 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_holdem_info {
    /// The betting round: 0 preflop, 1 flop, 2 turn, 3 river (the river after an all-in call,
    /// as ACPC has it).
    pub street: u32,
    /// The position to act, or `ARBOR_HOLDEM_NONE` (the hand is over, betting is over, or
    /// board cards are due first).
    pub to_act: u32,
    /// 1 once the hand is over (a fold, or a showdown with the board complete), else 0.
    pub over: u32,
    /// 1 once no more betting can happen (a fold, an all-in called, the river closed).
    pub betting_over: u32,
    /// The position that folded, or `ARBOR_HOLDEM_NONE`.
    pub folded: u32,
    /// Board cards to deal (`arbor_holdem_hand_deal_board`) before play goes on.
    pub board_cards_due: u32,
    /// Chips in the pot.
    pub pot: u32,
    /// Chips each position has put in the hand.
    pub spent: [u32; 2],
    /// The largest total any player has put in.
    pub current_bet: u32,
    /// 1 if the player to act may fold (faces a bet), else 0.
    pub can_fold: u32,
    /// 1 if the player to act may raise, else 0.
    pub can_raise: u32,
    /// The smallest legal raise-to (0 when no raise is possible).
    pub min_raise_to: u32,
    /// The largest legal raise-to, the player's stack (0 when no raise is possible).
    pub max_raise_to: u32,
    /// Actions played.
    pub action_count: u32,
    /// Written as zero.
    pub reserved: u32,
}

/// Bytes of `arbor_holdem_info`.
pub const ARBOR_HOLDEM_INFO_BYTES: usize = 64;
const _: () = assert!(core::mem::size_of::<arbor_holdem_info>() == ARBOR_HOLDEM_INFO_BYTES);

/// Stack, in bytes, that every `arbor_holdem_hand_*`, `arbor_holdem_matchstate_*`,
/// `arbor_holdem_action_*` and `arbor_holdem_dealer_*` call needs at most, for embedded targets
/// sizing their stacks. Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std
/// libraries): 19,840 bytes (a hand of minimum raises in every round replayed, its `MATCHSTATE`
/// text formatted on the stack and parsed back, the equity bot on a flop), including the
/// calling C frames; the limit leaves room for other
/// compilers and targets, and CI fails if a call needs more. `arbor_holdem_bot_act` with an
/// `expert` or `staged` spec needs `ARBOR_HOLDEM_BOT_STACK_BYTES` instead.
pub const ARBOR_HOLDEM_HAND_STACK_BYTES: usize = 32768;

pub(super) fn encode(action: Action) -> u32 {
    match action {
        Action::Fold => ARBOR_HOLDEM_FOLD,
        Action::Call => ARBOR_HOLDEM_CALL,
        Action::RaiseTo(to) => to,
    }
}

pub(super) fn decode(code: u32) -> Action {
    match code {
        ARBOR_HOLDEM_FOLD => Action::Fold,
        ARBOR_HOLDEM_CALL => Action::Call,
        to => Action::RaiseTo(to),
    }
}

/// The status of an action the rules refuse.
fn action_status(error: ActionError) -> Error {
    match error {
        ActionError::HandOver => Error::GameOver,
        ActionError::HistoryFull => Error::CapacityExhausted,
        _ => Error::IllegalMove,
    }
}

impl arbor_holdem_hand {
    /// The struct of `state`, seen from `position` (`ARBOR_HOLDEM_NONE`: whole).
    fn from_state(state: &HandState, hand_number: u32, position: u32) -> Self {
        let config = state.config();
        let mut hole = [ARBOR_HOLDEM_NO_CARD; 4];
        for seat in 0..2u8 {
            if let Some(cards) = state.hole_cards(seat) {
                let at = usize::from(seat) * 2;
                hole[at] = cards[0].byte();
                hole[at + 1] = cards[1].byte();
            }
        }
        let mut board = [ARBOR_HOLDEM_NO_CARD; 5];
        for (slot, card) in board.iter_mut().zip(state.board()) {
            *slot = card.byte();
        }
        let mut actions = [0u32; ARBOR_HOLDEM_MAX_ACTIONS];
        for (slot, action) in actions.iter_mut().zip(state.actions()) {
            *slot = encode(action);
        }
        arbor_holdem_hand {
            magic: HAND_MAGIC,
            version: ARBOR_ABI_VERSION,
            stacks: config.stacks(),
            big_blind: config.big_blind(),
            small_blind: config.small_blind(),
            hand_number,
            position,
            action_count: state.action_count() as u32,
            hole,
            board,
            board_len: state.board().len() as u8,
            reserved: [0; 2],
            actions,
        }
    }

    /// The stacks and blinds, checked. Errors: `NotInitialised`, `WrongVersion`,
    /// `InvalidArgument`.
    fn config(&self) -> Result<HoldemConfig, Error> {
        check_version(self.magic, self.version, HAND_MAGIC)?;
        HoldemConfig::new(self.stacks, self.big_blind, self.small_blind)
            .map_err(|_| Error::InvalidArgument)
    }

    /// The hand this struct describes, replayed through the rules: hole cards first, then the
    /// actions, each board card dealt as soon as the betting reaches it. Errors:
    /// `NotInitialised`, `WrongVersion`, `InvalidArgument` (anything the rules refuse).
    fn replay(&self) -> Result<HandState, Error> {
        let mut state = HandState::new(self.config()?);
        if self.position != ARBOR_HOLDEM_NONE && self.position > 1 {
            return Err(Error::InvalidArgument);
        }
        for seat in 0..2u8 {
            let at = usize::from(seat) * 2;
            match (self.hole[at], self.hole[at + 1]) {
                (ARBOR_HOLDEM_NO_CARD, ARBOR_HOLDEM_NO_CARD) => {}
                (first, second) => {
                    let cards = [Card::new_checked(first), Card::new_checked(second)];
                    let [Ok(first), Ok(second)] = cards else {
                        return Err(Error::InvalidArgument);
                    };
                    state
                        .deal_hole_cards(seat, [first, second])
                        .map_err(|_| Error::InvalidArgument)?;
                }
            }
        }
        let board_len = usize::from(self.board_len);
        let board = self.board.get(..board_len).ok_or(Error::InvalidArgument)?;
        let count = usize::try_from(self.action_count).map_err(|_| Error::InvalidArgument)?;
        let actions = self.actions.get(..count).ok_or(Error::InvalidArgument)?;
        let mut next_card = 0;
        let mut deal_due = |state: &mut HandState| -> Result<(), Error> {
            while state.board_cards_due() > 0 && next_card < board.len() {
                let card =
                    Card::new_checked(board[next_card]).map_err(|_| Error::InvalidArgument)?;
                state
                    .deal_board_card(card)
                    .map_err(|_| Error::InvalidArgument)?;
                next_card += 1;
            }
            Ok(())
        };
        for &code in actions {
            deal_due(&mut state)?;
            state
                .apply(decode(code))
                .map_err(|_| Error::InvalidArgument)?;
        }
        deal_due(&mut state)?;
        if next_card < board.len() {
            // More board cards than the betting has reached.
            return Err(Error::InvalidArgument);
        }
        Ok(state)
    }
}

/// Reads the hand behind `hand` and replays it. Errors: `NullPointer`, `NotInitialised`,
/// `WrongVersion`, `InvalidArgument`.
///
/// # Safety
/// `hand` must be NULL or valid for one read of `arbor_holdem_hand`.
pub(super) unsafe fn read_hand(
    hand: *const arbor_holdem_hand,
) -> Result<(arbor_holdem_hand, HandState), Error> {
    // SAFETY: forwarded caller guarantee.
    let held = unsafe { read_in(hand) }?;
    let state = held.replay()?;
    Ok((held, state))
}

/// Changes the hand at `hand` by `change` on its replayed state, and writes it back only if
/// `change` succeeds.
///
/// # Safety
/// `hand` must be NULL or valid for one read and one write of `arbor_holdem_hand`.
unsafe fn change_hand(
    hand: *mut arbor_holdem_hand,
    change: impl FnOnce(&mut HandState) -> Result<(), Error>,
) -> Result<(), Error> {
    // SAFETY: forwarded caller guarantee.
    let out = unsafe { Out::new(hand) }?;
    // SAFETY: forwarded caller guarantee.
    let (held, mut state) = unsafe { read_hand(hand) }?;
    change(&mut state)?;
    out.write(arbor_holdem_hand::from_state(
        &state,
        held.hand_number,
        held.position,
    ));
    Ok(())
}

/// Starts a hand: stacks (by position; position 0 posts the big blind) and blinds, the
/// blinds posted, no card dealt, position 1 (the small blind) to act. The ACPC game is
/// `ARBOR_HOLDEM_ACPC_STACK` twice, `ARBOR_HOLDEM_ACPC_BIG_BLIND` and
/// `ARBOR_HOLDEM_ACPC_SMALL_BLIND`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (a big blind of
/// 0, a small blind above the big blind, a stack not above the big blind or above 2^30).
///
/// # Safety
/// `out_hand` must be NULL or valid for one write of `arbor_holdem_hand`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_init(
    stack0: u32,
    stack1: u32,
    big_blind: u32,
    small_blind: u32,
    out_hand: *mut arbor_holdem_hand,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_hand) }?;
        let config = HoldemConfig::new([stack0, stack1], big_blind, small_blind)
            .map_err(|_| Error::InvalidArgument)?;
        out.write(arbor_holdem_hand::from_state(
            &HandState::new(config),
            0,
            ARBOR_HOLDEM_NONE,
        ));
        Ok(())
    })
}

/// Gives `position` (0 or 1) its two hole cards: `len` must be 2 and `cards` two card bytes.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`len` not 2),
/// `ARBOR_INVALID_CARD`, `ARBOR_DUPLICATE_CARD` (a card already dealt, or the two equal),
/// `ARBOR_INVALID_ARGUMENT` (no such position, the position has its cards already, or the hand
/// is damaged), `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read and one write of `arbor_holdem_hand`, `cards`
/// NULL or valid for `len` reads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_deal_hole(
    hand: *mut arbor_holdem_hand,
    position: u32,
    cards: *const u8,
    len: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let cards = unsafe { slice_in(cards, len) }?;
        let &[first, second] = cards else {
            return Err(Error::InvalidLength);
        };
        let (first, second) = (Card::new_checked(first)?, Card::new_checked(second)?);
        if first == second {
            return Err(Error::DuplicateCard);
        }
        let seat = u8::try_from(position)
            .ok()
            .filter(|&seat| seat < 2)
            .ok_or(Error::InvalidArgument)?;
        // SAFETY: forwarded caller guarantee.
        unsafe {
            change_hand(hand, |state| {
                if state.hole_cards(seat).is_some() {
                    return Err(Error::InvalidArgument);
                }
                state
                    .deal_hole_cards(seat, [first, second])
                    .map_err(|_| Error::DuplicateCard)
            })
        }
    })
}

/// Deals the next board card, `card` (a card byte). One is due when
/// `arbor_holdem_info.board_cards_due` is above 0: three for the flop, then one each for the
/// turn and the river, as the betting reaches them (all the rest at once after an all-in).
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_CARD`,
/// `ARBOR_DUPLICATE_CARD`, `ARBOR_ILLEGAL_MOVE` (no board card is due),
/// `ARBOR_INVALID_ARGUMENT` (a damaged hand), `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read and one write of `arbor_holdem_hand`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_deal_board(
    hand: *mut arbor_holdem_hand,
    card: u8,
) -> arbor_status {
    boundary(|| {
        let card = Card::new_checked(card)?;
        // SAFETY: forwarded caller guarantee.
        unsafe {
            change_hand(hand, |state| {
                if state.board_cards_due() == 0 {
                    return Err(Error::IllegalMove);
                }
                state
                    .deal_board_card(card)
                    .map_err(|_| Error::DuplicateCard)
            })
        }
    })
}

/// Plays `action` (an action code) for the position to act.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_GAME_OVER` (the hand is over),
/// `ARBOR_ILLEGAL_MOVE` (a fold when not facing a bet, a raise outside
/// `min_raise_to ..= max_raise_to` or when none is possible, board cards due first, betting
/// over), `ARBOR_CAPACITY_EXHAUSTED` (`ARBOR_HOLDEM_MAX_ACTIONS` played: only with stacks of
/// more than about 248 big blinds), `ARBOR_INVALID_ARGUMENT` (a damaged hand),
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read and one write of `arbor_holdem_hand`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_apply(
    hand: *mut arbor_holdem_hand,
    action: u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            change_hand(hand, |state| {
                state.apply(decode(action)).map_err(action_status)
            })
        }
    })
}

/// Writes what the rules say about the hand now to `*out_info`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (a damaged hand),
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read of `arbor_holdem_hand`, `out_info` NULL or valid
/// for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_info(
    hand: *const arbor_holdem_hand,
    out_info: *mut arbor_holdem_info,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_info) }?;
        // SAFETY: forwarded caller guarantee.
        let (_, state) = unsafe { read_hand(hand) }?;
        let position = |seat: Option<u8>| seat.map_or(ARBOR_HOLDEM_NONE, u32::from);
        let bounds = state.raise_bounds();
        out.write(arbor_holdem_info {
            street: state.street().index() as u32,
            to_act: position(state.to_act()),
            over: u32::from(state.is_over()),
            betting_over: u32::from(state.is_betting_over()),
            folded: position(state.folded()),
            board_cards_due: u32::from(state.board_cards_due()),
            pot: state.pot(),
            spent: [state.spent(0), state.spent(1)],
            current_bet: state.current_bet(),
            can_fold: u32::from(state.can_fold()),
            can_raise: u32::from(bounds.is_some()),
            min_raise_to: bounds.map_or(0, |(min, _)| min),
            max_raise_to: bounds.map_or(0, |(_, max)| max),
            action_count: state.action_count() as u32,
            reserved: 0,
        });
        Ok(())
    })
}

/// Writes the chips each position wins (positive) or loses (negative) to `out_payoffs[0]` and
/// `out_payoffs[1]` (room for `capacity` values, at least 2) once the hand is over; they add
/// up to zero.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`capacity` below
/// 2), `ARBOR_MISALIGNED`, `ARBOR_ILLEGAL_MOVE` (the hand is not over, or a showdown lacks a
/// player's hole cards), `ARBOR_INVALID_ARGUMENT` (a damaged hand), `ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read of `arbor_holdem_hand`, `out_payoffs` NULL or
/// valid for `capacity` writes of `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_hand_payoffs(
    hand: *const arbor_holdem_hand,
    out_payoffs: *mut i32,
    capacity: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { slice_out(out_payoffs, capacity) }?;
        let out = out.get_mut(..2).ok_or(Error::InvalidLength)?;
        // SAFETY: forwarded caller guarantee.
        let (_, state) = unsafe { read_hand(hand) }?;
        let payoffs = state.payoffs().map_err(|_| Error::IllegalMove)?;
        out.copy_from_slice(&payoffs);
        Ok(())
    })
}

/// Words of `arbor_holdem_dealer.state` (MT19937's state).
pub const ARBOR_HOLDEM_DEALER_STATE_WORDS: usize = 624;
const _: () = assert!(ARBOR_HOLDEM_DEALER_STATE_WORDS == STATE_WORDS);

/// The `magic` of `arbor_holdem_dealer`: "HEDL" (heads-up dealer).
const DEALER_MAGIC: u32 = magic(b"HEDL");

/// The ACPC reference dealer's card stream for one seeded match, 2,520 bytes, held by value by
/// C (copy it, save it to resume a match): filled by `arbor_holdem_dealer_init`, advanced by
/// `arbor_holdem_dealer_next`. The fields are the generator's (MT19937) and may be read.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct arbor_holdem_dealer {
    /// Set by arbor: marks a dealer it filled.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Index of the next state word to use, 0..=624.
    pub next: u32,
    /// Written as zero by arbor; ignored when read.
    pub reserved: u32,
    /// Hands dealt so far: the number of the next hand.
    pub hands_dealt: u64,
    /// The generator's state words.
    pub state: [u32; ARBOR_HOLDEM_DEALER_STATE_WORDS],
}

/// Bytes of `arbor_holdem_dealer`.
pub const ARBOR_HOLDEM_DEALER_BYTES: usize = 2520;
const _: () = assert!(core::mem::size_of::<arbor_holdem_dealer>() == ARBOR_HOLDEM_DEALER_BYTES);

// SAFETY: `repr(C)`, integers and an integer array only, laid out without padding (the size
// assertion above: 4 * 4 + 8 + 624 * 4 = 2520), so every bit pattern is a value.
unsafe impl Plain for arbor_holdem_dealer {}

impl arbor_holdem_dealer {
    fn from_dealer(dealer: &Dealer) -> Self {
        let (rng, hands_dealt) = dealer.to_parts();
        let (state, next) = rng.to_parts();
        arbor_holdem_dealer {
            magic: DEALER_MAGIC,
            version: ARBOR_ABI_VERSION,
            next,
            reserved: 0,
            hands_dealt,
            state,
        }
    }

    /// Errors: `NotInitialised`, `WrongVersion`, `InvalidArgument` (`next` above 624).
    fn dealer(&self) -> Result<Dealer, Error> {
        check_version(self.magic, self.version, DEALER_MAGIC)?;
        let rng = Mt19937::from_parts(self.state, self.next).ok_or(Error::InvalidArgument)?;
        Ok(Dealer::from_parts(rng, self.hands_dealt))
    }
}

/// Starts the card stream of a match seeded with `seed`, as the ACPC reference dealer does
/// (MT19937 `init_genrand(seed)`); its first hand is hand 0.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`.
///
/// # Safety
/// `out_dealer` must be NULL or valid for one write of `arbor_holdem_dealer`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_dealer_init(
    seed: u32,
    out_dealer: *mut arbor_holdem_dealer,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_dealer) }?;
        out.write(arbor_holdem_dealer::from_dealer(&Dealer::new(seed)));
        Ok(())
    })
}

/// Deals the next hand as the ACPC reference dealer does (a fresh deck, nine swap-remove
/// draws) into `out_cards` (room for `capacity` bytes, at least `ARBOR_HOLDEM_DEAL_CARDS`):
/// position 0's two hole cards, position 1's two, then the five board cards, as card bytes.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`capacity` below
/// `ARBOR_HOLDEM_DEAL_CARDS`), `ARBOR_INVALID_ARGUMENT` (`next` above 624),
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `dealer` must be NULL or valid for one read and one write of `arbor_holdem_dealer`;
/// `out_cards` NULL or valid for `capacity` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_dealer_next(
    dealer: *mut arbor_holdem_dealer,
    out_cards: *mut u8,
    capacity: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out_dealer = unsafe { Out::new(dealer) }?;
        // SAFETY: forwarded caller guarantee.
        let mut stream = unsafe { read_in(dealer) }?.dealer()?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { slice_out(out_cards, capacity) }?;
        let out = out
            .get_mut(..ARBOR_HOLDEM_DEAL_CARDS)
            .ok_or(Error::InvalidLength)?;
        let deal = stream.next_hand();
        let [[a, b], [c, d]] = deal.holes;
        let drawn = [a, b, c, d].into_iter().chain(deal.board);
        for (slot, card) in out.iter_mut().zip(drawn) {
            *slot = card.byte();
        }
        out_dealer.write(arbor_holdem_dealer::from_dealer(&stream));
        Ok(())
    })
}

/// Reads an ACPC `MATCHSTATE:<position>:<hand>:<betting>:<cards>` line (no line ending) of a
/// hand played with the stacks and blinds of `rules` (any hand, such as one from
/// `arbor_holdem_hand_init`) into `*out_hand`, seen from the message's position. The betting
/// is replayed through the rules, so every action must be legal and the board must hold the
/// cards the betting has reached.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (with the column and the reason in `*out_error`), and for `rules`
/// `ARBOR_INVALID_ARGUMENT`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `rules` NULL or valid for one read of
/// `arbor_holdem_hand`; `out_hand` NULL or valid for one write; `out_error` NULL or valid for
/// one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_matchstate_parse(
    text: *const u8,
    len: usize,
    rules: *const arbor_holdem_hand,
    out_hand: *mut arbor_holdem_hand,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, len) }?;
        // SAFETY: forwarded caller guarantee.
        let config = unsafe { read_in(rules) }?.config()?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_hand) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let parsed = MatchState::parse(text.as_bytes(), config).map_err(|error| {
            ParseFailure {
                line: 1,
                column: error.column(),
                message: error.reason(),
            }
            .report(out_error)
        })?;
        out.write(arbor_holdem_hand::from_state(
            &parsed.state,
            parsed.hand_number,
            u32::from(parsed.position),
        ));
        Ok(())
    })
}

/// Writes, as text out, the `MATCHSTATE` line (no line ending) a dealer sends `position`
/// (0 or 1) about this hand: the opponent's hole cards are left out unless the hand ended in a
/// showdown. `ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX` bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`*out_len`
/// says how long the text is), `ARBOR_INVALID_ARGUMENT` (no such position, a hand seen from
/// the other position, or a damaged hand), `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `hand` must be NULL or valid for one read of `arbor_holdem_hand`; `buf` NULL or valid for
/// `len` writes; `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_matchstate_format(
    hand: *const arbor_holdem_hand,
    position: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        // SAFETY: forwarded caller guarantee.
        let (held, mut state) = unsafe { read_hand(hand) }?;
        let seat = u8::try_from(position)
            .ok()
            .filter(|&seat| seat < 2)
            .ok_or(Error::InvalidArgument)?;
        if held.position != ARBOR_HOLDEM_NONE && held.position != position {
            return Err(Error::InvalidArgument);
        }
        let showdown = state.is_over() && state.folded().is_none();
        if !showdown {
            state.forget_hole_cards(1 - seat);
        }
        let message = MatchState {
            position: seat,
            hand_number: held.hand_number,
            state,
        };
        out.write_display::<ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX>(message)
    })
}

/// Writes the ACPC text of `action` (an action code: `f`, `c` or `r<to>`) as text out;
/// `ARBOR_HOLDEM_ACTION_TEXT_MAX` bytes always suffice. A reply to the dealer is the
/// `MATCHSTATE` line, `:`, and this text.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_action_format(
    action: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        out.write_display::<ARBOR_HOLDEM_ACTION_TEXT_MAX>(decode(action))
    })
}

/// Chooses the action of the bot named by `spec` for the position to act in `hand`, from what
/// that position sees (its hole cards, the board, the chips), and writes its action code to
/// `*out_action`. `spec` is `NAME[:key=value,...]`: `call`, `min-raise`, `all-in`,
/// `random[:seed=S]` (fold 0.06, call 0.47, raise 0.47 to a uniform raise-to, over the legal
/// ones), `equity[:samples=N,seed=S]` (exact equity against a random hand on the turn and
/// river, `N` samples on the flop and preflop; raises pot above 0.75, bets half the pot above
/// 0.6 when unbet, calls when the equity covers the pot odds). A bot draws its randomness from
/// its seed and `hand.hand_number` only, so the same call gives the same action. The action is
/// always legal in `hand`. The equity bot with its default 5,000 samples takes about a
/// millisecond on the flop. The expert and staged bots (`expert[:style=STYLE,seed=S]`,
/// `staged[:…]`, see `arbor_holdem_bot_init`) are accepted too; the staged bot's search
/// keeps its vectors on the stack, so with it this call needs the stack of
/// `ARBOR_HOLDEM_BOT_STACK_BYTES`, not `ARBOR_HOLDEM_HAND_STACK_BYTES`.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (an unknown bot or option, with the reason in `*out_error`),
/// `ARBOR_GAME_OVER` (the hand is over), `ARBOR_ILLEGAL_MOVE` (nobody is to act: betting is
/// over or board cards are due), `ARBOR_INVALID_ARGUMENT` (the hole cards of the position to
/// act are unknown, or a damaged hand), `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `spec` must be NULL or valid for `spec_len` reads; `hand` NULL or valid for one read of
/// `arbor_holdem_hand`; `out_action` NULL or valid for one write; `out_error` NULL or valid
/// for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_act(
    spec: *const u8,
    spec_len: usize,
    hand: *const arbor_holdem_hand,
    out_action: *mut u32,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let spec = unsafe { text_in(spec, spec_len) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_action) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        // SAFETY: forwarded caller guarantee.
        let (held, state) = unsafe { read_hand(hand) }?;
        let mut bot = parse_bot(spec).map_err(|error| {
            ParseFailure {
                line: 1,
                column: 0,
                message: error,
            }
            .report(out_error)
        })?;
        if state.is_over() {
            return Err(Error::GameOver);
        }
        let position = state.to_act().ok_or(Error::IllegalMove)?;
        let view = BotView::from_state(&state, position, u64::from(held.hand_number))
            .ok_or(Error::InvalidArgument)?;
        let action = bot.act(&view, &state.seen_by(position));
        // The baselines only play legal actions; a refusal here would be a bug, reported as
        // such rather than handed to the caller.
        state.check(action).map_err(|_| Error::InvalidArgument)?;
        out.write(encode(action));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acpc_hand() -> arbor_holdem_hand {
        let mut hand = core::mem::MaybeUninit::uninit();
        // SAFETY: `hand` is writable.
        let status = unsafe { arbor_holdem_hand_init(20_000, 20_000, 100, 50, hand.as_mut_ptr()) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        // SAFETY: written on success.
        unsafe { hand.assume_init() }
    }

    fn info(hand: &arbor_holdem_hand) -> arbor_holdem_info {
        let mut info = arbor_holdem_info::default();
        // SAFETY: both are valid.
        assert_eq!(
            unsafe { arbor_holdem_hand_info(hand, &mut info) },
            arbor_status::ARBOR_OK
        );
        info
    }

    fn format(hand: &arbor_holdem_hand, position: u32) -> String {
        let mut buf = [0 as c_char; ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX];
        let mut len = 0usize;
        // SAFETY: the buffer and length are valid.
        let status = unsafe {
            arbor_holdem_matchstate_format(hand, position, buf.as_mut_ptr(), buf.len(), &mut len)
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        let bytes: Vec<u8> = buf[..len].iter().map(|&c| c as u8).collect();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_hand_is_dealt_played_and_paid_through_the_abi() {
        let mut hand = acpc_hand();
        assert_eq!(hand.magic, u32::from_le_bytes(*b"HEHD"));
        let start = info(&hand);
        assert_eq!((start.to_act, start.pot, start.spent), (1, 150, [100, 50]));
        assert_eq!(
            (start.min_raise_to, start.max_raise_to, start.can_fold),
            (200, 20_000, 1)
        );
        let mut cards = [0u8; 9];
        let mut dealer = core::mem::MaybeUninit::uninit();
        // SAFETY: the dealer and the array are writable.
        let dealer = unsafe {
            assert_eq!(
                arbor_holdem_dealer_init(42, dealer.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            let mut dealer = dealer.assume_init();
            assert_eq!(
                arbor_holdem_dealer_next(&mut dealer, cards.as_mut_ptr(), cards.len()),
                arbor_status::ARBOR_OK
            );
            dealer
        };
        assert_eq!(
            (dealer.hands_dealt, dealer.magic),
            (1, u32::from_le_bytes(*b"HEDL"))
        );
        // SAFETY: `hand` and the card slices are valid.
        unsafe {
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 0, cards[0..].as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 1, cards[2..].as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
            // A raise below the minimum is refused and changes nothing.
            let before = hand;
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, 150),
                arbor_status::ARBOR_ILLEGAL_MOVE
            );
            assert_eq!(hand, before);
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, 300),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, ARBOR_HOLDEM_CALL),
                arbor_status::ARBOR_OK
            );
            assert_eq!(info(&hand).board_cards_due, 3);
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, ARBOR_HOLDEM_CALL),
                arbor_status::ARBOR_ILLEGAL_MOVE
            );
            for &card in &cards[4..7] {
                assert_eq!(
                    arbor_holdem_hand_deal_board(&mut hand, card),
                    arbor_status::ARBOR_OK
                );
            }
            assert_eq!(
                arbor_holdem_hand_deal_board(&mut hand, cards[7]),
                arbor_status::ARBOR_ILLEGAL_MOVE
            );
            // Position 0 bets, position 1 folds: position 0 wins the 300 position 1 put in.
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, 600),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, ARBOR_HOLDEM_FOLD),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_apply(&mut hand, ARBOR_HOLDEM_CALL),
                arbor_status::ARBOR_GAME_OVER
            );
            let mut payoffs = [0i32; 2];
            assert_eq!(
                arbor_holdem_hand_payoffs(&hand, payoffs.as_mut_ptr(), 2),
                arbor_status::ARBOR_OK
            );
            assert_eq!(payoffs, [300, -300]);
        }
        // The dealer's message to position 1 hides position 0's cards (the hand ended in a fold).
        assert_eq!(format(&hand, 1), "MATCHSTATE:1:0:r300c/r600f:|2hAc/5sKs7s");
    }

    #[test]
    fn a_matchstate_round_trips_and_a_bad_one_says_why() {
        let rules = acpc_hand();
        let text = b"MATCHSTATE:0:31:r300c/cr600:Jd4c|/8s2hQd";
        let mut hand = rules;
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        // SAFETY: every pointer is valid for its length.
        unsafe {
            let status = arbor_holdem_matchstate_parse(
                text.as_ptr(),
                text.len(),
                &rules,
                &mut hand,
                error.as_mut_ptr(),
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        assert_eq!(
            (hand.position, hand.hand_number, hand.action_count),
            (0, 31, 4)
        );
        let now = info(&hand);
        assert_eq!((now.to_act, now.min_raise_to, now.can_fold), (0, 900, 1));
        assert_eq!(format(&hand, 0).as_bytes(), text);
        let bad = b"MATCHSTATE:0:31:r150c:Jd4c|";
        // SAFETY: as above.
        let error = unsafe {
            let status = arbor_holdem_matchstate_parse(
                bad.as_ptr(),
                bad.len(),
                &rules,
                &mut hand,
                error.as_mut_ptr(),
            );
            assert_eq!(status, arbor_status::ARBOR_PARSE_ERROR);
            error.assume_init()
        };
        assert_eq!(error.column, 17);
        assert!(error.message_len > 0);
        assert_eq!(hand.hand_number, 31, "a failed parse writes nothing");
    }

    #[test]
    fn a_damaged_hand_is_refused_never_misread() {
        let mut hand = acpc_hand();
        let mut info_out = arbor_holdem_info::default();
        let mut damaged = hand;
        damaged.action_count = 1;
        damaged.actions[0] = 150; // a raise below the minimum
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_holdem_hand_info(&damaged, &mut info_out),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            damaged = hand;
            damaged.action_count = 9999;
            assert_eq!(
                arbor_holdem_hand_info(&damaged, &mut info_out),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            damaged = hand;
            damaged.board_len = 3; // board cards before the betting reached the flop
            damaged.board[..3].copy_from_slice(&[0, 1, 2]);
            assert_eq!(
                arbor_holdem_hand_info(&damaged, &mut info_out),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            damaged = hand;
            damaged.magic = 0;
            assert_eq!(
                arbor_holdem_hand_info(&damaged, &mut info_out),
                arbor_status::ARBOR_NOT_INITIALISED
            );
            damaged = hand;
            damaged.hole = [5, 5, 0xFF, 0xFF];
            assert_eq!(
                arbor_holdem_hand_info(&damaged, &mut info_out),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            assert_eq!(
                arbor_holdem_hand_info(core::ptr::null(), &mut info_out),
                arbor_status::ARBOR_NULL_POINTER
            );
            assert_eq!(
                arbor_holdem_hand_apply(core::ptr::null_mut(), 1),
                arbor_status::ARBOR_NULL_POINTER
            );
            let mut payoffs = [7i32; 2];
            assert_eq!(
                arbor_holdem_hand_payoffs(&hand, payoffs.as_mut_ptr(), 2),
                arbor_status::ARBOR_ILLEGAL_MOVE
            );
            assert_eq!(
                arbor_holdem_hand_payoffs(&hand, payoffs.as_mut_ptr(), 1),
                arbor_status::ARBOR_INVALID_LENGTH
            );
            assert_eq!(payoffs, [7, 7]);
            let two = [3u8, 3u8];
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 0, two.as_ptr(), 2),
                arbor_status::ARBOR_DUPLICATE_CARD
            );
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 2, [1u8, 2].as_ptr(), 2),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 0, [1u8, 52].as_ptr(), 2),
                arbor_status::ARBOR_INVALID_CARD
            );
            let mut dealer = core::mem::MaybeUninit::uninit();
            assert_eq!(
                arbor_holdem_dealer_init(1, dealer.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            let mut dealer = dealer.assume_init();
            let mut out = [0u8; 9];
            assert_eq!(
                arbor_holdem_dealer_next(&mut dealer, out.as_mut_ptr(), 8),
                arbor_status::ARBOR_INVALID_LENGTH
            );
            assert_eq!(dealer.hands_dealt, 0, "a refused call changes nothing");
            dealer.next = 625;
            assert_eq!(
                arbor_holdem_dealer_next(&mut dealer, out.as_mut_ptr(), 9),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
        }
    }

    #[test]
    fn bots_decide_from_a_matchstate() {
        let rules = acpc_hand();
        let text = b"MATCHSTATE:1:0::|AsAh";
        let mut hand = rules;
        let mut action = 99u32;
        // SAFETY: every pointer is valid for its length.
        unsafe {
            let parsed = arbor_holdem_matchstate_parse(
                text.as_ptr(),
                text.len(),
                &rules,
                &mut hand,
                core::ptr::null_mut(),
            );
            assert_eq!(parsed, arbor_status::ARBOR_OK);
            for (spec, expected) in [(&b"call"[..], 1), (b"min-raise", 200), (b"all-in", 20_000)] {
                let status = arbor_holdem_bot_act(
                    spec.as_ptr(),
                    spec.len(),
                    &hand,
                    &mut action,
                    core::ptr::null_mut(),
                );
                assert_eq!((status, action), (arbor_status::ARBOR_OK, expected));
            }
            // Aces raise: the equity bot's preflop equity against a random hand is about 0.85.
            let spec = b"equity:samples=2000";
            let status = arbor_holdem_bot_act(
                spec.as_ptr(),
                spec.len(),
                &hand,
                &mut action,
                core::ptr::null_mut(),
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
            assert!(action > 1, "aces raise, got {action}");
            let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
            action = 7;
            let spec = b"genius";
            let status = arbor_holdem_bot_act(
                spec.as_ptr(),
                spec.len(),
                &hand,
                &mut action,
                error.as_mut_ptr(),
            );
            assert_eq!((status, action), (arbor_status::ARBOR_PARSE_ERROR, 7));
            let error = error.assume_init();
            let message =
                core::str::from_utf8(&error.message[..error.message_len as usize]).unwrap();
            assert!(message.starts_with("unknown bot 'genius'"), "{message}");
            // The opponent's turn: its cards are unknown to this view.
            let to_opponent = b"MATCHSTATE:1:0:c:|AsAh";
            let parsed = arbor_holdem_matchstate_parse(
                to_opponent.as_ptr(),
                to_opponent.len(),
                &rules,
                &mut hand,
                core::ptr::null_mut(),
            );
            assert_eq!(parsed, arbor_status::ARBOR_OK);
            let spec = b"call";
            let status = arbor_holdem_bot_act(
                spec.as_ptr(),
                spec.len(),
                &hand,
                &mut action,
                core::ptr::null_mut(),
            );
            assert_eq!(status, arbor_status::ARBOR_INVALID_ARGUMENT);
        }
    }

    #[test]
    fn actions_have_their_acpc_text() {
        let mut buf = [0 as c_char; ARBOR_HOLDEM_ACTION_TEXT_MAX];
        let mut len = 0;
        for (code, text) in [
            (0u32, "f"),
            (1, "c"),
            (u32::MAX, "r4294967295"),
            (300, "r300"),
        ] {
            // SAFETY: the buffer is valid for its length.
            let status =
                unsafe { arbor_holdem_action_format(code, buf.as_mut_ptr(), buf.len(), &mut len) };
            assert_eq!(status, arbor_status::ARBOR_OK);
            let got: Vec<u8> = buf[..len].iter().map(|&c| c as u8).collect();
            assert_eq!(got, text.as_bytes());
        }
    }
}
