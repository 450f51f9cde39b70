//! C ABI of the hand evaluator and cards.
use core::ffi::c_char;

use super::arbor_status;
use super::boundary::{OptionalOut, Out, boundary, slice_in, slice_out};
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::holdem::{self, Card, Category};

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
/// only. The checks cost about as much as a third of the ranking (see benches/hand_eval.rs).
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
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_rank) }?;
        // SAFETY: forwarded caller guarantee.
        let cards = unsafe { slice_in(cards, len) }?;
        let rank = holdem::rank_bytes(cards)?;
        out.write(rank.get());
        Ok(())
    })
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
