//! C ABI of the hand evaluator and cards.
use core::ffi::c_char;

use super::arbor_status;
use super::boundary::{OptionalOut, Out, boundary, slice_in, slice_out};
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
#[cfg(target_arch = "x86_64")]
use crate::holdem::eval::cpu;
use crate::holdem::{self, COMBOS, Card, Category, WeightedShowdowns, eval};

/// Bytes that hold any card's text (`arbor_card_format`) and its NUL.
pub const ARBOR_CARD_TEXT_MAX: usize = 3;
/// Stack, in bytes, that every hand, card, status, version and build-information call needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 728 bytes, including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_HAND_STACK_BYTES: usize = 2048;

/// Ranks the best five of `len` cards (5, 6 or 7) and writes the rank, 1 (worst) ..= 7462
/// (royal flush), to `*out_rank`.
///
/// `cards` points to `len` bytes, each `rank * 4 + suit` in 0..=51, read during the call
/// only. The checks load nothing beyond the ranking's own reads (their cost is measured in
/// docs/c-abi.md).
///
/// Errors (nothing written): `ARBOR_NULL_POINTER` (`cards` or `out_rank` NULL),
/// `ARBOR_INVALID_LENGTH` (`len` not 5, 6 or 7), `ARBOR_INVALID_CARD` (a byte above 51),
/// `ARBOR_DUPLICATE_CARD`.
///
/// # Safety
/// `cards` must be NULL or valid for `len` reads, `out_rank` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_hand_rank(
    cards: *const u8,
    len: usize,
    out_rank: *mut u16,
) -> arbor_status {
    #[cfg(target_arch = "x86_64")]
    if cpu::has_popcnt() {
        // SAFETY: the processor has `popcnt` (CPUID); forwarded caller guarantee.
        return unsafe { hand_rank_popcnt(cards, len, out_rank) };
    }
    // SAFETY: forwarded caller guarantee.
    unsafe { hand_rank_portable(cards, len, out_rank) }
}

/// [`arbor_hand_rank`] without `popcnt`. Not inlined, so that the entry point stays a
/// dispatch that saves no registers (inlined, the popcnt path paid for this one's: six
/// instructions a call, callgrind).
///
/// # Safety
/// As for [`arbor_hand_rank`].
#[inline(never)]
unsafe fn hand_rank_portable(cards: *const u8, len: usize, out_rank: *mut u16) -> arbor_status {
    // SAFETY: forwarded caller guarantee.
    unsafe { hand_rank::<false>(cards, len, out_rank) }
}

/// [`arbor_hand_rank`] with the repeat check as one `popcnt` where the portable bit count
/// takes twelve instructions (docs/c-abi.md).
///
/// # Safety
/// The processor must have `popcnt`; the pointers as for [`arbor_hand_rank`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn hand_rank_popcnt(cards: *const u8, len: usize, out_rank: *mut u16) -> arbor_status {
    // SAFETY: forwarded caller guarantee.
    unsafe { hand_rank::<true>(cards, len, out_rank) }
}

/// The body of [`arbor_hand_rank`]: seven distinct cards without a flush, the common case,
/// on one straight path; everything else (a flush, an error, five or six cards) out of line.
/// `POPCNT` as for [`eval::rank7_common`].
///
/// # Safety
/// As for [`arbor_hand_rank`].
#[inline(always)]
unsafe fn hand_rank<const POPCNT: bool>(
    cards: *const u8,
    len: usize,
    out_rank: *mut u16,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_rank) }?;
        if len == 7 {
            // SAFETY: forwarded caller guarantee.
            let seven = unsafe { slice_in(cards, 7) }?;
            if let Some(rank) = <&[u8; 7]>::try_from(seven)
                .ok()
                .and_then(eval::rank7_common::<POPCNT>)
            {
                out.write(rank);
                return Ok(());
            }
        }
        // SAFETY: forwarded caller guarantee.
        unsafe { hand_rank_rare(cards, len, out) }
    })
}

/// What [`hand_rank`] leaves: any length but 7, and seven bytes that are a flush or bad.
///
/// # Safety
/// `cards` must be NULL or valid for `len` reads.
#[cold]
#[inline(never)]
unsafe fn hand_rank_rare(cards: *const u8, len: usize, out: Out<u16>) -> Result<(), Error> {
    // SAFETY: forwarded caller guarantee.
    let cards = unsafe { slice_in(cards, len) }?;
    let rank = eval::rank_bytes_rest(cards)?;
    out.write(rank.get());
    Ok(())
}

/// Ranks `count` seven-card hands: hand `i` is `cards[7 * i] .. cards[7 * i + 6]`, and its
/// rank goes to `out_ranks[i]`.
///
/// `cards` holds `7 * count` bytes and `out_ranks` room for `count` values, both the
/// caller's and used during the call only. Every hand is checked before any rank is
/// written. `count` 0 does nothing (the pointers may then be NULL). The checks cost a few
/// percent of the ranking (see benches/hand_eval.rs).
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`7 * count`
/// above `PTRDIFF_MAX`), `ARBOR_MISALIGNED` (`out_ranks` not aligned for `uint16_t`),
/// `ARBOR_INVALID_CARD`, `ARBOR_DUPLICATE_CARD` (the error of the first bad hand).
///
/// # Safety
/// For `count > 0`, `cards` must be valid for `7 * count` reads and `out_ranks` for `count`
/// writes of `uint16_t`, and the two must not overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_hand_rank7_batch(
    cards: *const u8,
    count: usize,
    out_ranks: *mut u16,
) -> arbor_status {
    boundary(|| {
        let bytes = count.checked_mul(7).ok_or(Error::InvalidLength)?;
        // SAFETY: forwarded caller guarantee.
        let cards = unsafe { slice_in(cards, bytes) }?;
        // SAFETY: forwarded caller guarantee (no overlap with `cards`).
        let ranks = unsafe { slice_out(out_ranks, count) }?;
        // Checks every hand, then writes every rank.
        holdem::rank7_batch(cards, ranks)
    })
}

/// The category of a hand rank: 0 high card, 1 one pair, 2 two pair, 3 three of a kind,
/// 4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush; 255 if `rank` is
/// not in 1..=7462. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_hand_category(rank: u16) -> u8 {
    Category::of(rank).map_or(255, |category| category as u8)
}

/// Parses a card from text in, such as "As", "Td" or "2c" (a rank from `23456789TJQKA`,
/// then a suit from `cdhs`; other letter cases accepted; nothing else), into `*out_card`
/// (`rank * 4 + suit`).
///
/// `text` is read during the call only.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER` (`out_card` NULL, or
/// `text` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (line 1; column 1 for the rank, 2 for the suit, 3 for anything after).
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_card` and `out_error` NULL or valid
/// for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_card_parse(
    text: *const u8,
    len: usize,
    out_card: *mut u8,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, len) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_card) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let card = Card::parse_explained(text.as_bytes()).map_err(|error| {
            ParseFailure {
                line: 1,
                column: error.column(),
                message: error.message(),
            }
            .report(out_error)
        })?;
        out.write(card.byte());
        Ok(())
    })
}

/// Writes the text of `card` (0..=51), for example "As", as text out;
/// `ARBOR_CARD_TEXT_MAX` (3) bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`,
/// `ARBOR_INVALID_CARD` (`card` above 51; `*out_len` is then not written either),
/// `ARBOR_BUFFER_TOO_SMALL` (`*out_len` says 2).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_card_format(
    card: u8,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let card = Card::new_checked(card)?;
        out.write_display::<{ ARBOR_CARD_TEXT_MAX - 1 }>(card)
    })
}

/// The cards of `bytes`, each checked: `ARBOR_INVALID_CARD` for a byte above 51.
fn cards_of<const N: usize>(bytes: &[u8]) -> Result<heapless::Vec<Card, N>, Error> {
    let mut cards = heapless::Vec::new();
    for &byte in bytes {
        cards
            .push(Card::new_checked(byte)?)
            .map_err(|_| Error::InvalidLength)?;
    }
    Ok(cards)
}

/// A range of `len` weights: exactly `ARBOR_EQUITY_COMBOS`, else `ARBOR_INVALID_LENGTH`.
fn range_of(weights: &[f32]) -> Result<&[f32; COMBOS], Error> {
    weights.try_into().map_err(|_| Error::InvalidLength)
}

/// Stack, in bytes, that each `arbor_equity_…` call needs at most: 16,920 measured (x86-64,
/// gcc 12, the std library at opt-level 3, a river, turn and flop call), most of it the
/// range sweep's combo lists and radix-sort buffers; the limit leaves room for other
/// compilers and targets, and `.ci/stack.sh` fails if a call needs more.
pub const ARBOR_EQUITY_STACK_BYTES: usize = 32768;

/// Number of two-card combos in a range: weight `i` of a range belongs to the combo whose
/// card bytes `low < high` give `i = high * (high - 1) / 2 + low` (2c2d is 0, AhAs 1325).
pub const ARBOR_EQUITY_COMBOS: usize = 1326;
const _: () = assert!(ARBOR_EQUITY_COMBOS == COMBOS);

/// The exact all-in showdowns of hand A against hand B over every completion of a board:
/// writes how many boards A wins, ties and loses (their sum is the number of boards, for
/// example 1,712,304 preflop; A's equity is `(wins + ties / 2) / sum`).
///
/// `cards` holds `len` card bytes (`rank * 4 + suit`), read during the call only: A's two
/// cards, B's two, then the board's 0, 3, 4 or 5 cards (`len` 4, 7, 8 or 9). Preflop takes
/// a few milliseconds, a flop far less.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`len` not 4, 7,
/// 8 or 9), `ARBOR_INVALID_CARD` (a byte above 51), `ARBOR_DUPLICATE_CARD`.
///
/// # Safety
/// `cards` must be NULL or valid for `len` reads; each output NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_equity_hand_vs_hand(
    cards: *const u8,
    len: usize,
    out_wins: *mut u64,
    out_ties: *mut u64,
    out_losses: *mut u64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let (wins, ties, losses) = unsafe {
            (
                Out::new(out_wins)?,
                Out::new(out_ties)?,
                Out::new(out_losses)?,
            )
        };
        // SAFETY: forwarded caller guarantee.
        let bytes = unsafe { slice_in(cards, len) }?;
        if !matches!(len, 4 | 7 | 8 | 9) {
            return Err(Error::InvalidLength);
        }
        let cards = cards_of::<9>(bytes)?;
        let showdowns =
            holdem::hand_vs_hand([cards[0], cards[1]], [cards[2], cards[3]], &cards[4..])?;
        wins.write(showdowns.wins);
        ties.write(showdowns.ties);
        losses.write(showdowns.losses);
        Ok(())
    })
}

fn write_weighted(showdowns: WeightedShowdowns, win: Out<f64>, tie: Out<f64>, loss: Out<f64>) {
    win.write(showdowns.win);
    tie.write(showdowns.tie);
    loss.write(showdowns.loss);
}

/// The exact all-in equity of a hand against a weighted range over every completion of a
/// flop, turn or river board: writes the weight of the (villain combo, board) pairs the
/// hand wins, ties and loses; its equity is `(win + tie / 2) / (win + tie + loss)` (a sum
/// of 0 means every weighted combo is blocked).
///
/// `cards` holds `len` card bytes, read during the call only: the hand's two cards, then
/// the board's 3, 4 or 5 (`len` 5, 6 or 7). `villain` holds `villain_len` weights, exactly
/// `ARBOR_EQUITY_COMBOS` (1326), each finite and not negative, in the order that macro's
/// comment gives; combos holding a card of the hand or the board are skipped. A turn board
/// takes well under a millisecond, a flop about 25 times as long. Preflop equity is in the
/// Rust core only (`holdem::hand_vs_range`): it deals 2.1 million boards. Stack:
/// `ARBOR_EQUITY_STACK_BYTES`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`len` not 5, 6
/// or 7, or `villain_len` not 1326), `ARBOR_INVALID_CARD`, `ARBOR_DUPLICATE_CARD`,
/// `ARBOR_MISALIGNED` (`villain` not aligned for `float`), `ARBOR_INVALID_ARGUMENT` (a weight
/// negative, infinite or NaN).
///
/// # Safety
/// `cards` must be NULL or valid for `len` reads, `villain` NULL or valid for `villain_len`
/// reads of `float`; each output NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_equity_hand_vs_range(
    cards: *const u8,
    len: usize,
    villain: *const f32,
    villain_len: usize,
    out_win: *mut f64,
    out_tie: *mut f64,
    out_loss: *mut f64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let (win, tie, loss) =
            unsafe { (Out::new(out_win)?, Out::new(out_tie)?, Out::new(out_loss)?) };
        // SAFETY: forwarded caller guarantee.
        let bytes = unsafe { slice_in(cards, len) }?;
        // SAFETY: forwarded caller guarantee.
        let villain = range_of(unsafe { slice_in(villain, villain_len) }?)?;
        if !(5..=7).contains(&len) {
            return Err(Error::InvalidLength);
        }
        let cards = cards_of::<7>(bytes)?;
        let showdowns = holdem::hand_vs_range([cards[0], cards[1]], villain, &cards[2..])?;
        write_weighted(showdowns, win, tie, loss);
        Ok(())
    })
}

/// The exact all-in equity of one weighted range against another over every completion of
/// a flop, turn or river board: writes the weight (hero weight × villain weight) of the
/// (hero combo, villain combo, board) triples the hero wins, ties and loses; the hero's
/// equity is `(win + tie / 2) / (win + tie + loss)`. Combos holding a board card are
/// skipped, and so are pairs of combos sharing a card.
///
/// `hero` and `villain` hold `hero_len` and `villain_len` weights, exactly
/// `ARBOR_EQUITY_COMBOS` (1326) each, finite and not negative; `board` holds `board_len`
/// card bytes, 3, 4 or 5. All are read during the call only. On a turn board two full
/// ranges take about a millisecond, a flop about 25 times as long (see
/// benches/hand_eval.rs); preflop is in the Rust core only. Stack: `ARBOR_EQUITY_STACK_BYTES`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (a range not 1326
/// weights, `board_len` not 3, 4 or 5), `ARBOR_MISALIGNED` (a range not aligned for
/// `float`), `ARBOR_INVALID_CARD`, `ARBOR_DUPLICATE_CARD`, `ARBOR_INVALID_ARGUMENT` (a
/// weight negative, infinite or NaN).
///
/// # Safety
/// `hero` and `villain` must be NULL or valid for their lengths' reads of `float`, `board`
/// NULL or valid for `board_len` reads; each output NULL or valid for one write.
// The C ABI passes each range and the board as a pointer and a length.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_equity_range_vs_range(
    hero: *const f32,
    hero_len: usize,
    villain: *const f32,
    villain_len: usize,
    board: *const u8,
    board_len: usize,
    out_win: *mut f64,
    out_tie: *mut f64,
    out_loss: *mut f64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let (win, tie, loss) =
            unsafe { (Out::new(out_win)?, Out::new(out_tie)?, Out::new(out_loss)?) };
        // SAFETY: forwarded caller guarantee.
        let hero = range_of(unsafe { slice_in(hero, hero_len) }?)?;
        // SAFETY: forwarded caller guarantee.
        let villain = range_of(unsafe { slice_in(villain, villain_len) }?)?;
        // SAFETY: forwarded caller guarantee.
        let bytes = unsafe { slice_in(board, board_len) }?;
        if !(3..=5).contains(&board_len) {
            return Err(Error::InvalidLength);
        }
        let board = cards_of::<5>(bytes)?;
        let showdowns = holdem::range_vs_range(hero, villain, &board)?;
        write_weighted(showdowns, win, tie, loss);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_rank_checks_before_writing() {
        let royal = [51u8, 47, 43, 39, 35, 0, 5];
        let mut rank = 0u16;
        // SAFETY: the arrays and `rank` are valid for the lengths given.
        unsafe {
            assert_eq!(
                arbor_hand_rank(royal.as_ptr(), 7, &mut rank),
                arbor_status::ARBOR_OK
            );
            assert_eq!(rank, 7462);
            rank = 9;
            for (cards, len, status) in [
                (&[0u8, 1, 2, 3, 52][..], 5, arbor_status::ARBOR_INVALID_CARD),
                (
                    &[0, 1, 2, 3, 3, 4][..],
                    6,
                    arbor_status::ARBOR_DUPLICATE_CARD,
                ),
                (&[0, 1, 2, 3][..], 4, arbor_status::ARBOR_INVALID_LENGTH),
            ] {
                assert_eq!(arbor_hand_rank(cards.as_ptr(), len, &mut rank), status);
            }
            assert_eq!(rank, 9);
        }
    }

    #[test]
    fn hand_rank_agrees_with_the_rules_on_any_bytes() {
        // The entry point (with `popcnt` where the processor has it) and the portable body.
        type RankCall = fn(&[u8], &mut u16) -> arbor_status;
        let calls: [(&str, RankCall); 2] = [
            ("arbor_hand_rank", |hand, rank| {
                // SAFETY: `hand` is valid for its length, `rank` for one write.
                unsafe { arbor_hand_rank(hand.as_ptr(), hand.len(), rank) }
            }),
            ("portable", |hand, rank| {
                // SAFETY: as above.
                unsafe { hand_rank_portable(hand.as_ptr(), hand.len(), rank) }
            }),
        ];
        for (name, call) in calls {
            crate::holdem::eval::tests::on_any_bytes(|hand, expected| {
                let mut rank = 9u16;
                let status = call(hand, &mut rank);
                assert_eq!(status, arbor_status::from(expected), "{name} {hand:?}");
                assert_eq!(
                    rank,
                    expected.map_or(9, |rank| rank.get()),
                    "{name} {hand:?}"
                );
            });
        }
    }

    #[test]
    fn card_parse_reports_the_column() {
        let mut card = 99u8;
        let mut error = arbor_parse_error {
            line: 0,
            column: 0,
            message_len: 0,
            reserved: 7,
            message: [1; 120],
        };
        // SAFETY: the text, `card` and `error` are valid for the lengths given.
        unsafe {
            assert_eq!(
                arbor_card_parse(b"Ax".as_ptr(), 2, &mut card, &mut error),
                arbor_status::ARBOR_PARSE_ERROR
            );
            assert_eq!(card, 99);
            assert_eq!((error.line, error.column, error.reserved), (1, 2, 0));
            let message = &error.message[..error.message_len as usize];
            assert_eq!(message, b"expected a suit (one of cdhs) after the rank");
            assert_eq!(
                arbor_card_parse(b"td".as_ptr(), 2, &mut card, core::ptr::null_mut()),
                arbor_status::ARBOR_OK
            );
            assert_eq!(card, 8 * 4 + 1);
        }
    }
}
