//! C ABI of the hand evaluator and cards.
use core::ffi::c_char;

use super::arbor_status;
use super::legacy::{read_prefix, write_bytes};
use crate::holdem::{self, Card, Category};

/// Ranks the best five of `len` cards (5, 6 or 7) and writes the rank, 1 (worst) ..= 7462
/// (royal flush), to `*out_rank`.
///
/// `cards` points to `len` readable bytes, each `rank * 4 + suit` in 0..=51. arbor reads
/// them during the call only. On error `*out_rank` is left unchanged.
/// Errors: `ARBOR_NULL_POINTER` (`cards` or `out_rank` is NULL), `ARBOR_INVALID_LENGTH`
/// (`len` not 5, 6 or 7), `ARBOR_INVALID_CARD` (a byte above 51), `ARBOR_DUPLICATE_CARD`.
///
/// # Safety
/// `cards` must be valid for `len` reads and `out_rank` for one write, or be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_hand_rank(
    cards: *const u8,
    len: usize,
    out_rank: *mut u16,
) -> arbor_status {
    if cards.is_null() || out_rank.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if !(5..=7).contains(&len) {
        return arbor_status::ARBOR_INVALID_LENGTH;
    }
    // SAFETY: `cards` is non-NULL and the caller guarantees `len` readable bytes; `len` is at
    // most 7, so the slice is small and cannot overflow `isize`.
    let cards = unsafe { core::slice::from_raw_parts(cards, len) };
    match holdem::rank_bytes(cards) {
        Ok(rank) => {
            // SAFETY: `out_rank` is non-NULL and the caller guarantees it is writable.
            unsafe { out_rank.write_unaligned(rank.get()) };
            arbor_status::ARBOR_OK
        }
        Err(error) => error.into(),
    }
}

/// Ranks `count` seven-card hands: hand `i` is `cards[7 * i] .. cards[7 * i + 6]`, and its
/// rank goes to `out_ranks[i]`.
///
/// `cards` must hold `7 * count` readable bytes and `out_ranks` room for `count` values;
/// arbor uses them during the call only. Every hand is checked before any rank is written,
/// so on error `out_ranks` is unchanged. `count` 0 is allowed and does nothing (the pointers
/// may then be NULL).
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (`7 * count` overflows),
/// `ARBOR_INVALID_ARGUMENT` (`out_ranks` not aligned for `uint16_t`), `ARBOR_INVALID_CARD`,
/// `ARBOR_DUPLICATE_CARD` (for the first bad hand).
///
/// # Safety
/// For `count > 0`, `cards` must be valid for `7 * count` reads and `out_ranks` for `count`
/// aligned `uint16_t` writes, and the two must not overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_hand_rank7_batch(
    cards: *const u8,
    count: usize,
    out_ranks: *mut u16,
) -> arbor_status {
    if count == 0 {
        return arbor_status::ARBOR_OK;
    }
    if cards.is_null() || out_ranks.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some(bytes) = count
        .checked_mul(7)
        .filter(|&bytes| bytes <= isize::MAX as usize)
    else {
        return arbor_status::ARBOR_INVALID_LENGTH;
    };
    if !out_ranks.is_aligned() {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    // SAFETY: both pointers are non-NULL; the caller guarantees `bytes` readable bytes at
    // `cards` and `count` writable, aligned (checked above) u16 at `out_ranks`, not
    // overlapping; `bytes` fits in isize (checked above).
    let (cards, ranks) = unsafe {
        (
            core::slice::from_raw_parts(cards, bytes),
            core::slice::from_raw_parts_mut(out_ranks, count),
        )
    };
    holdem::rank7_batch(cards, ranks).into()
}

/// The category of a hand rank: 0 high card, 1 one pair, 2 two pair, 3 three of a kind,
/// 4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush; 255 if `rank` is
/// not in 1..=7462.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_hand_category(rank: u16) -> u8 {
    Category::of(rank).map_or(255, |category| category as u8)
}

/// Parses a card from NUL-terminated text such as "As", "Td" or "2c" (rank from
/// `23456789TJQKA`, suit from `cdhs`; other letter cases accepted) into `*out_card`.
///
/// arbor reads `text` during the call only. On error `*out_card` is unchanged.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_PARSE_ERROR` (anything but a rank and a suit).
///
/// # Safety
/// `text` must be NULL or point to a NUL-terminated string; `out_card` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_card_parse(text: *const c_char, out_card: *mut u8) -> arbor_status {
    if text.is_null() || out_card.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // Three bytes at most: a card is two characters, so a third one is already an error.
    // SAFETY: `text` is non-NULL and the caller guarantees it is NUL-terminated.
    let (bytes, len) = unsafe { read_prefix::<3>(text) };
    match Card::parse_bytes(&bytes[..len]) {
        Ok(card) => {
            // SAFETY: `out_card` is non-NULL and the caller guarantees it is writable.
            unsafe { out_card.write(card.byte()) };
            arbor_status::ARBOR_OK
        }
        Err(error) => error.into(),
    }
}

/// Writes the text of `card` (for example "As") and a terminating NUL into `buf`, which has
/// room for `len` bytes; 3 bytes are needed.
///
/// arbor writes into `buf` during the call only. On error nothing is written.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_CARD` (`card` above 51),
/// `ARBOR_BUFFER_TOO_SMALL` (`len` < 3).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_card_format(card: u8, buf: *mut c_char, len: usize) -> arbor_status {
    if buf.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let card = match Card::new_checked(card) {
        Ok(card) => card,
        Err(error) => return error.into(),
    };
    // SAFETY: `buf` is non-NULL and the caller guarantees `len` writable bytes.
    unsafe { write_bytes(&card.to_ascii(), buf, len) }
}
