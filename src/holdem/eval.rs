//! The hand evaluator: the rank of the best five cards out of 5, 6 or 7.
//!
//! Checked functions take [`Card`]s or bytes, reject duplicates and out-of-range bytes, and
//! return a [`HandRank`]. The `_unchecked` fast paths trust their input: with distinct cards
//! in 0..=51 they return the same rank as a number; with anything else they return some
//! number in 0..=7462 (0 is no rank), and never panic or read out of bounds.
use super::card::Card;
use super::hand_rank::{Category, HandRank};
use super::tables::{
    BAD_CARD_SHIFT, CARD_BIT, GROUP_DENSE, HIGH_MASK_KEY, HIGH_SHIFT, HIGH5, HIGH6, LOW_MASK_KEY,
    LOW5, LOW6, LOW7, MID_MASK_KEY, MID_SHIFT, MID5, MID6, SEVEN_CARD, SUIT_RANK_BIT, SUIT_SHIFT,
    SUIT_START, largest,
};
use crate::Error;

#[cfg(target_arch = "x86_64")]
pub(crate) mod cpu;
mod enumerate;
pub use enumerate::for_each_seven_card_rank;

const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
/// Nonzero in a key summed over bytes of which one or more is above 51.
const BAD_CARD_BITS: u64 = 0xff << BAD_CARD_SHIFT;

/// The three tables of the rank automaton for one hand size. Only [`FIVE`], [`SIX`] and
/// [`SEVEN`] exist, and their unchecked reads rely on `rows_fit` for each (asserted below).
struct Automaton {
    low: &'static [u16],
    mid: &'static [u16],
    high: &'static [u16],
}

const FIVE: Automaton = Automaton {
    low: &LOW5,
    mid: &MID5,
    high: &HIGH5,
};
const SIX: Automaton = Automaton {
    low: &LOW6,
    mid: &MID6,
    high: &HIGH6,
};
const SEVEN: Automaton = Automaton {
    low: &SEVEN_CARD.low,
    mid: &SEVEN_CARD.mid,
    high: &SEVEN_CARD.high,
};
// The hot path relies on these lengths to index without bounds checks.
const _: () =
    assert!(LOW7.len() == 1 << MID_SHIFT && GROUP_DENSE.len() == 1 << (HIGH_SHIFT - MID_SHIFT));

/// A table read that cannot fail: only garbage input to a fast path reaches the `None` arm.
#[inline(always)]
fn read(table: &[u16], index: usize) -> u16 {
    match table.get(index) {
        Some(value) => *value,
        None => 0,
    }
}

/// The largest value of [`GROUP_DENSE`]: what any key's field can add to a row offset.
const LARGEST_DENSE: usize = largest(&GROUP_DENSE) as usize;

/// Whether every row offset in `offsets` plus any dense index stays inside `table`: the
/// generator pads the tables so that it does, for any key, valid or not.
const fn rows_fit(offsets: &[u16], table: &[u16]) -> bool {
    largest(offsets) as usize + LARGEST_DENSE < table.len()
}

// What the unchecked reads of the mid and high tables rely on (`Automaton::read_row`).
const _: () = assert!(
    rows_fit(&LOW5, &MID5)
        && rows_fit(&MID5, &HIGH5)
        && rows_fit(&LOW6, &MID6)
        && rows_fit(&MID6, &HIGH6)
        && rows_fit(&SEVEN_CARD.low, &SEVEN_CARD.mid)
        && rows_fit(&SEVEN_CARD.mid, &SEVEN_CARD.high)
);

impl Automaton {
    /// The value at `offset + dense` of the mid or high table `table`, where `dense` is a
    /// value of [`GROUP_DENSE`]. Unchecked: a bounds test here cost two instructions a read
    /// on the hot path (issue 17, callgrind).
    ///
    /// # Safety
    /// `offset` must be a value of the table one level above `table` in the same automaton
    /// (its low table for its mid table, its mid table for its high table).
    #[inline(always)]
    unsafe fn read_row(table: &'static [u16], offset: u16, dense: u16) -> u16 {
        let index = usize::from(offset) + usize::from(dense);
        debug_assert!(index < table.len());
        // SAFETY: by the contract, `offset` is at most the largest value of the table above,
        // `dense` at most the largest of `GROUP_DENSE`, and the compile-time assertion on
        // `rows_fit` shows that the two added stay below `table.len()` for each automaton.
        unsafe { *table.get_unchecked(index) }
    }

    /// The row of the high table chosen by the low and mid fields of `key`.
    #[inline(always)]
    fn high_row(&self, key: u64) -> u16 {
        let mid = SEVEN_CARD.group_dense[((key >> MID_SHIFT) & 0x3ff) as usize];
        let mid_row = read(self.low, (key & 0xfff) as usize);
        // SAFETY: `mid_row` is a value of this automaton's low table, or the 0 that `read`
        // gives out of bounds (no more than its largest value).
        unsafe { Self::read_row(self.mid, mid_row, mid) }
    }

    /// The rank in the high table's row `high_row` chosen by the high field of `key`.
    ///
    /// # Safety
    /// `high_row` must be what [`Automaton::high_row`] of this automaton returned.
    #[inline(always)]
    unsafe fn rank_in_row(&self, high_row: u16, key: u64) -> u16 {
        let high = SEVEN_CARD.group_dense[((key >> HIGH_SHIFT) & 0x3ff) as usize];
        // SAFETY: `high_row` is a value of this automaton's mid table (the contract).
        unsafe { Self::read_row(self.high, high_row, high) }
    }

    /// The non-flush rank of the hand whose card keys sum to `key`.
    #[inline(always)]
    fn rank(&self, key: u64) -> u16 {
        // SAFETY: the row comes from this automaton's `high_row`.
        unsafe { self.rank_in_row(self.high_row(key), key) }
    }
}

#[inline(always)]
fn card_key(card: u8) -> u64 {
    SEVEN_CARD.card_key[card as usize]
}

#[inline(always)]
fn hand_key(cards: &[u8]) -> u64 {
    cards
        .iter()
        .fold(SUIT_START, |key, &card| key.wrapping_add(card_key(card)))
}

#[inline(always)]
fn rank_with(automaton: &Automaton, cards: &[u8]) -> u16 {
    let key = hand_key(cards);
    if key & FLUSH_BITS != 0 {
        return flush_rank(cards, key);
    }
    automaton.rank(key)
}

/// The rank of a hand holding five or more cards of one suit. With at most seven cards a
/// flush rules out full houses and quads, so only the flush suit matters.
#[cold]
#[inline(never)]
fn flush_rank(cards: &[u8], key: u64) -> u16 {
    let suit_bits = cards
        .iter()
        .fold(0u64, |bits, &card| bits | suit_rank_bit(card));
    flush_rank_of(suit_bits, key)
}

#[inline(always)]
fn suit_rank_bit(card: u8) -> u64 {
    SUIT_RANK_BIT[usize::from(card & 63)]
}

/// The flush rank of a hand whose key shows a flush, from the union of its cards'
/// [`SUIT_RANK_BIT`]s.
///
/// The flush suit's ranks are all different, so their best five as a non-flush hand is a
/// straight or a high card, ranked by the automaton for that many cards; the flush bands
/// hold the same hands in the same order, so an offset moves the rank there. This costs
/// about 40 instructions where the bit loop it replaced cost about 250 (issue 17).
#[inline(always)]
fn flush_rank_of(suit_bits: u64, key: u64) -> u16 {
    let suit = ((key & FLUSH_BITS)
        .trailing_zeros()
        .wrapping_sub(SUIT_SHIFT + 3)
        / 4)
        & 3;
    let counter = (key >> (SUIT_SHIFT + 4 * suit)) & 0xf;
    let mask = (suit_bits >> (16 * suit)) as usize & 0x1fff;
    let ranks_key = LOW_MASK_KEY[mask & 0x1f]
        + MID_MASK_KEY[(mask >> 5) & 0xf]
        + HIGH_MASK_KEY[(mask >> 9) & 0xf];
    // The counter started at 3: 8, 9, 10 are five, six, seven suited cards. Anything else
    // only comes from garbage on a fast path.
    let automaton = match counter {
        9 => &SIX,
        10 => &SEVEN,
        _ => &FIVE,
    };
    flush_band(automaton.rank(ranks_key))
}

/// The flush rank of the flush suit's ranks from their non-flush rank `rank` (a straight
/// or a high card, as the ranks are all different): the flush bands hold the same hands in
/// the same order.
#[inline(always)]
fn flush_band(rank: u16) -> u16 {
    let straight = Category::Straight.first_rank().get();
    if rank == 0 {
        0
    } else if rank < Category::OnePair.first_rank().get() {
        rank + Category::Flush.first_rank().get() - Category::HighCard.first_rank().get()
    } else if (straight..Category::Flush.first_rank().get()).contains(&rank) {
        rank + Category::StraightFlush.first_rank().get() - straight
    } else {
        // Distinct ranks make no pair: only garbage on a fast path gets here.
        0
    }
}

/// A partial seven-card hand for callers that rank many hands sharing cards (equity): the
/// key sum and the suit rank masks of the cards added so far. Adding cards to a shared part
/// and ranking costs a few instructions more than [`rank7_unchecked`] saves in key sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PartialHand {
    key: u64,
    suit_bits: u64,
}

impl PartialHand {
    /// No cards yet: the suit counters' starting values are in the key.
    pub(crate) const EMPTY: PartialHand = PartialHand {
        key: SUIT_START,
        suit_bits: 0,
    };
    /// No cards and no starting values: a part to add to an [`EMPTY`](Self::EMPTY)-based one.
    pub(crate) const NOTHING: PartialHand = PartialHand {
        key: 0,
        suit_bits: 0,
    };

    #[inline(always)]
    pub(crate) fn with(self, card: u8) -> PartialHand {
        PartialHand {
            key: self.key.wrapping_add(card_key(card)),
            suit_bits: self.suit_bits | suit_rank_bit(card),
        }
    }

    /// The union of two parts with disjoint cards.
    #[inline(always)]
    pub(crate) fn join(self, other: PartialHand) -> PartialHand {
        PartialHand {
            key: self.key.wrapping_add(other.key),
            suit_bits: self.suit_bits | other.suit_bits,
        }
    }

    /// The rank of exactly seven distinct cards added to [`EMPTY`](Self::EMPTY).
    #[inline(always)]
    pub(crate) fn rank7(self) -> u16 {
        if self.key & FLUSH_BITS != 0 {
            flush_rank_of(self.suit_bits, self.key)
        } else {
            SEVEN.rank(self.key)
        }
    }
}

/// Rank of five distinct cards in 0..=51 (see the module doc for other input).
#[inline]
pub fn rank5_unchecked(cards: &[u8; 5]) -> u16 {
    rank_with(&FIVE, cards)
}

/// Rank of the best five of six distinct cards in 0..=51.
#[inline]
pub fn rank6_unchecked(cards: &[u8; 6]) -> u16 {
    rank_with(&SIX, cards)
}

/// Rank of the best five of seven distinct cards in 0..=51: seven table reads for the
/// card keys and three for the automaton.
#[inline]
pub fn rank7_unchecked(cards: &[u8; 7]) -> u16 {
    rank_with(&SEVEN, cards)
}

/// The checks of the checked paths, gathered without a branch per card: the union and the
/// sum of the cards' bits. The sum equals the union only when no bit repeats, and a byte
/// above 51 brings bit 63. The bits come from a table rather than a shift, which also keeps
/// the compiler from vectorising variable shifts (a threefold slowdown of the batch call
/// without AVX2).
#[derive(Clone, Copy)]
struct CardBits {
    union: u64,
    sum: u64,
}

impl CardBits {
    const EMPTY: CardBits = CardBits { union: 0, sum: 0 };

    #[inline(always)]
    fn add(self, card: u8) -> CardBits {
        let bit = CARD_BIT[usize::from(card)];
        CardBits {
            union: self.union | bit,
            sum: self.sum.wrapping_add(bit),
        }
    }

    /// Nonzero if a card is out of range or repeated (one test for the common case).
    #[inline(always)]
    fn bad(self) -> u64 {
        (self.union >> Card::COUNT) | (self.union ^ self.sum)
    }

    /// Which error [`CardBits::bad`] found, if any.
    #[inline(always)]
    fn check(self) -> Result<(), Error> {
        if self.bad() == 0 {
            Ok(())
        } else if self.union >> Card::COUNT != 0 {
            Err(Error::InvalidCard)
        } else {
            Err(Error::DuplicateCard)
        }
    }

    #[inline(always)]
    fn of(cards: &[u8]) -> CardBits {
        cards
            .iter()
            .fold(CardBits::EMPTY, |bits, &card| bits.add(card))
    }
}

/// The rank of `N` card bytes if they are distinct cards in range without a flush, `None`
/// for the rare rest (a flush, a bad byte), which the caller takes out of line. The checks
/// load nothing: a byte above 51 shows in the key's bad-card bits, and with every byte in
/// range a repeated card leaves fewer than `N` bits in the union of `1 << card`. A valid
/// hand without a flush thus costs the unchecked path's reads and a few register
/// operations. With `POPCNT` the union's bits are counted by `count_ones`, one instruction
/// where the caller enables `popcnt` ([`rank7_common`]).
#[inline(always)]
fn common_rank<const N: usize, const POPCNT: bool>(
    automaton: &Automaton,
    cards: &[u8; N],
) -> Option<u16> {
    let (first, rest) = cards.split_first()?;
    let mut key = SEVEN_CARD.first_card_key[usize::from(*first)];
    let mut union = 1u64 << (first & 63);
    for &card in rest {
        key = key.wrapping_add(card_key(card));
        union |= 1 << (card & 63);
    }
    // The checks branch before the automaton's reads in program order, which keeps the
    // card bytes out of registers (with the reads first, the compiler held all seven for
    // the checks and saved five registers: 3 instructions a call more, callgrind). The
    // processor predicts the branch and starts the reads before the checks finish anyway.
    if POPCNT {
        // One branch on both, as below: with a branch each, the compiler moved the key's or
        // the union's work past the first and held all seven bytes for it (one to three
        // registers saved and restored, callgrind).
        let repeats = u64::from(union.count_ones() ^ N as u32);
        if (key & (FLUSH_BITS | BAD_CARD_BITS)) | repeats != 0 {
            return None;
        }
    } else if (key & (FLUSH_BITS | BAD_CARD_BITS)) | repeat_bit::<N>(union) != 0 {
        return None;
    }
    Some(automaton.rank(key))
}

/// [`common_rank`] as a [`HandRank`].
#[inline(always)]
fn rank_unless_rare<const N: usize>(automaton: &Automaton, cards: &[u8; N]) -> Option<HandRank> {
    // Distinct cards in range without a flush always have a rank.
    HandRank::from_table(common_rank::<N, false>(automaton, cards)?)
}

/// The rank, 1..=7462, of seven card bytes that are distinct cards in range without a
/// flush, `None` for any other bytes ([`rank_bytes_rest`] ranks or rejects those): the
/// checked C call's hot path. `POPCNT` counts the union of the cards' bits with
/// `count_ones`: set it only inside a function compiled with `popcnt` enabled, where that
/// is one instruction (elsewhere it is a longer bit count than the default's).
///
/// The rank is the automaton's without `HandRank`'s test for zero: every seven distinct
/// cards without a flush have a rank (`tests/hand_exhaustive.rs` ranks them all).
#[inline(always)]
pub(crate) fn rank7_common<const POPCNT: bool>(cards: &[u8; 7]) -> Option<u16> {
    common_rank::<7, POPCNT>(&SEVEN, cards)
}

/// 1 if `union`, the union of `1 << (byte & 63)` over `N` (1..=64) bytes in 0..=62, has
/// fewer than `N` bits set (a byte repeats), else 0: the lowest set bit cleared `N - 1`
/// times leaves nothing, and nothing minus one sets bit 63. (A byte of 63 or more can give 1
/// too; callers flag such bytes anyway.) An integer rather than a `bool` so that the
/// compiler merges it with the other checks into one branch; twelve register operations
/// for seven cards, without the `popcnt` instruction that baseline x86-64 lacks.
#[inline(always)]
fn repeat_bit<const N: usize>(union: u64) -> u64 {
    let mut rest = union;
    for _ in 1..N {
        rest &= rest.wrapping_sub(1);
    }
    rest.wrapping_sub(1) >> 63
}

/// The rank of the best five of 5, 6 or 7 card bytes. Errors: `InvalidLength`,
/// `InvalidCard` (a byte above 51), `DuplicateCard`.
#[inline]
pub fn rank_bytes(cards: &[u8]) -> Result<HandRank, Error> {
    // Seven cards without a flush, the common case in Hold'em, inline; everything else
    // behind one call, which keeps this path short and its registers free.
    if let Ok(seven) = <&[u8; 7]>::try_from(cards)
        && let Some(rank) = rank_unless_rare(&SEVEN, seven)
    {
        return Ok(rank);
    }
    rank_bytes_rest(cards)
}

/// [`rank_bytes`] for what its inline path leaves: five or six cards, seven that are a flush
/// or bad, any other length. Seven distinct cards in range without a flush are not its
/// business ([`rank7_common`] ranks them).
#[cold]
#[inline(never)]
pub(crate) fn rank_bytes_rest(cards: &[u8]) -> Result<HandRank, Error> {
    let rank = match cards.len() {
        5 | 6 => {
            let rank = if let Ok(six) = <&[u8; 6]>::try_from(cards) {
                rank_unless_rare(&SIX, six)
            } else {
                <&[u8; 5]>::try_from(cards)
                    .ok()
                    .and_then(|five| rank_unless_rare(&FIVE, five))
            };
            match rank {
                Some(rank) => return Ok(rank),
                None => flush_or_error(cards),
            }
        }
        7 => flush_or_error(cards),
        _ => Err(Error::InvalidLength),
    }?;
    Ok(rank)
}

/// The rank of 5 to 7 cards that [`rank_unless_rare`] left: a flush, or the error.
#[inline(never)]
fn flush_or_error(cards: &[u8]) -> Result<HandRank, Error> {
    let key = hand_key(cards);
    if key & BAD_CARD_BITS != 0 {
        return Err(Error::InvalidCard);
    }
    if CardBits::of(cards).bad() != 0 {
        return Err(Error::DuplicateCard);
    }
    let rank = if key & FLUSH_BITS != 0 {
        flush_rank(cards, key)
    } else {
        0
    };
    // Distinct cards in range always have a rank.
    HandRank::from_table(rank).ok_or(Error::InvalidCard)
}

/// The rank of the best five of 5, 6 or 7 cards. Errors: `InvalidLength`, `DuplicateCard`.
pub fn rank_cards(cards: &[Card]) -> Result<HandRank, Error> {
    let mut bytes = [0u8; 7];
    let hand = bytes.get_mut(..cards.len()).ok_or(Error::InvalidLength)?;
    for (byte, card) in hand.iter_mut().zip(cards) {
        *byte = card.byte();
    }
    rank_bytes(hand)
}

/// Ranks many seven-card hands: hand `i` is `cards[7 * i..7 * i + 7]`, its rank goes to
/// `ranks[i]`. Every hand is checked first, so on error nothing is written.
/// Errors: `InvalidLength` if `cards.len()` is not `7 * ranks.len()`, then `InvalidCard` or
/// `DuplicateCard` for the first bad hand.
///
/// The check is a pass of its own, branch-free per hand: the hands' problems are OR-ed
/// together and only a batch with one is scanned again to name the first. On x86-64 it
/// compares two hands at a time in SSE2 or SSSE3 registers, or four in AVX2 ones (with
/// `std`, which can ask whether the operating system saves them), a fraction of the
/// ranking's cost.
pub fn rank7_batch(cards: &[u8], ranks: &mut [u16]) -> Result<(), Error> {
    if Some(cards.len()) != ranks.len().checked_mul(7) {
        return Err(Error::InvalidLength);
    }
    if batch_may_be_bad(cards) {
        for hand in cards.chunks_exact(7) {
            CardBits::of(hand).check()?;
        }
    }
    rank7_batch_unchecked(cards, ranks);
    Ok(())
}

/// Whether some seven-card hand of `cards` (a multiple of 7 bytes) holds a byte above 51
/// or a repeated card; `false` only if none does.
fn batch_may_be_bad(cards: &[u8]) -> bool {
    let (bad, checked) = vector_check(cards);
    bad || rest_may_be_bad(&cards[checked..])
}

/// The widest vector check this processor has, over the hands of `cards` that it reaches:
/// whether one is bad, and how many bytes it checked (none without one).
fn vector_check(cards: &[u8]) -> (bool, usize) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (asked just now).
        return unsafe { avx2::four_hands_at_a_time(cards) };
    }
    #[cfg(target_arch = "x86_64")]
    if cpu::has_ssse3() {
        // SAFETY: the processor has SSSE3 (CPUID).
        unsafe { ssse3::two_hands_at_a_time(cards) }
    } else {
        // SAFETY: SSE2 is part of every x86-64 target.
        unsafe { sse2::two_hands_at_a_time(cards) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = cards;
        (false, 0)
    }
}

/// [`batch_may_be_bad`] for the hands that the vector check left, one at a time.
fn rest_may_be_bad(cards: &[u8]) -> bool {
    cards
        .chunks_exact(7)
        .fold(0u64, |bad, hand| bad | CardBits::of(hand).bad())
        != 0
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_setr_epi8, _mm_setzero_si128, _mm_srli_si128,
        _mm_subs_epu8,
    };

    /// Checks the hands of `cards` two at a time while 16 bytes can be read (SSE2 is part
    /// of x86-64): whether a checked hand is bad, and how many bytes were checked (a
    /// multiple of 14; the caller checks the rest).
    ///
    /// Each load holds hands A (bytes 0–6), B (7–13) and two cards of the next hand C
    /// (14, 15). B's bytes gain 64 and C's 128, so with every card below 52 (checked on the
    /// raw bytes) bytes of different hands never compare equal when the register is
    /// compared with itself shifted by 1 to 6 bytes (the zeros coming in at the top meet
    /// only B's and C's bytes): an equality is two equal cards of A or of B (or of C, which
    /// is bad too).
    #[target_feature(enable = "sse2")]
    pub(super) fn two_hands_at_a_time(cards: &[u8]) -> (bool, usize) {
        let tags = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 64, 64, 64, 64, 64, 64, 64, -128, -128);
        let mut equal = _mm_setzero_si128();
        let mut highest = _mm_setzero_si128();
        let mut at = 0;
        while let Some(bytes) = cards.get(at..at + 16) {
            // SAFETY: `bytes` is 16 readable bytes; the load needs no alignment.
            let x = unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) };
            highest = _mm_max_epu8(highest, x);
            let z = _mm_add_epi8(x, tags);
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<1>(z)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<2>(z)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<3>(z)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<4>(z)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<5>(z)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(z, _mm_srli_si128::<6>(z)));
            at += 14;
        }
        // A byte above 51 leaves something after subtracting 51 (saturating).
        let above = _mm_subs_epu8(highest, _mm_set1_epi8(51));
        let in_range = _mm_movemask_epi8(_mm_cmpeq_epi8(above, _mm_setzero_si128())) == 0xFFFF;
        (_mm_movemask_epi8(equal) != 0 || !in_range, at)
    }
}

/// The batch check with SSSE3's byte shuffle, half the work of [`sse2`]'s.
#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_subs_epu8,
    };

    /// The shuffle that turns each of the register's two seven-byte hands by `turn` places
    /// (byte `i` of a hand takes byte `(i + turn) % 7`); bytes 14 and 15 become zeros, and
    /// their comparisons are masked off.
    pub(super) const fn turn(turn: i8) -> [i8; 16] {
        let mut order = [-128i8; 16];
        let mut i = 0;
        while i < 7 {
            order[i as usize] = (i + turn) % 7;
            order[i as usize + 7] = 7 + (i + turn) % 7;
            i += 1;
        }
        order
    }

    /// [`super::sse2::two_hands_at_a_time`] with the same answer: each load holds hands A
    /// (bytes 0–6) and B (7–13), and every pair of a hand's cards lies one, two or three
    /// places apart around the hand (a pair four to six places apart is three to one the
    /// other way round), so three comparisons with the hands turned in place find any
    /// repeat, where byte shifts need six. Bytes 14 and 15, the next hand's first two, are
    /// checked for range here and for repeats with their hand.
    ///
    /// # Safety
    /// The processor must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) fn two_hands_at_a_time(cards: &[u8]) -> (bool, usize) {
        let [one, two, three] = [turn(1), turn(2), turn(3)].map(|order| {
            // SAFETY: 16 bytes read from an array of 16 bytes; no alignment needed.
            unsafe { _mm_loadu_si128(order.as_ptr().cast::<__m128i>()) }
        });
        let mut equal = _mm_setzero_si128();
        let mut highest = _mm_setzero_si128();
        let mut at = 0;
        while let Some(bytes) = cards.get(at..at + 16) {
            // SAFETY: `bytes` is 16 readable bytes; the load needs no alignment.
            let x = unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) };
            highest = _mm_max_epu8(highest, x);
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, one)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, two)));
            equal = _mm_or_si128(equal, _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, three)));
            at += 14;
        }
        // A byte above 51 leaves something after subtracting 51 (saturating).
        let above = _mm_subs_epu8(highest, _mm_set1_epi8(51));
        let in_range = _mm_movemask_epi8(_mm_cmpeq_epi8(above, _mm_setzero_si128())) == 0xFFFF;
        let repeats = _mm_movemask_epi8(equal) & 0x3fff != 0;
        (repeats || !in_range, at)
    }
}

/// The batch check with AVX2: [`ssse3`]'s, on two 16-byte lanes at once, so four hands a
/// step (the byte shuffle works within each lane).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx2 {
    use core::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
        _mm256_loadu2_m128i, _mm256_max_epu8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_subs_epu8,
    };

    /// [`super::ssse3::two_hands_at_a_time`] with the same answer, on hands A and B in the
    /// low lane (bytes 0–13 of a step) and C and D in the high lane (bytes 14–27): the same
    /// three turns find any repeat within a hand. Bytes 14 and 15 of each lane, the next
    /// hand's first two, are checked for range here and for repeats with their hand.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn four_hands_at_a_time(cards: &[u8]) -> (bool, usize) {
        let [one, two, three] = [1, 2, 3].map(|turn| {
            let order = super::ssse3::turn(turn);
            // SAFETY: 16 bytes read from an array of 16 bytes; no alignment needed.
            _mm256_broadcastsi128_si256(unsafe {
                _mm_loadu_si128(order.as_ptr().cast::<__m128i>())
            })
        });
        let mut equal = _mm256_setzero_si256();
        let mut highest = _mm256_setzero_si256();
        let mut at = 0;
        while let Some(bytes) = cards.get(at..at + 30) {
            // SAFETY: `bytes` holds 30 readable bytes, the two loads read 0..16 and 14..30;
            // no alignment needed.
            let x = unsafe {
                _mm256_loadu2_m128i(
                    bytes[14..].as_ptr().cast::<__m128i>(),
                    bytes.as_ptr().cast::<__m128i>(),
                )
            };
            highest = _mm256_max_epu8(highest, x);
            equal = _mm256_or_si256(equal, _mm256_cmpeq_epi8(x, _mm256_shuffle_epi8(x, one)));
            equal = _mm256_or_si256(equal, _mm256_cmpeq_epi8(x, _mm256_shuffle_epi8(x, two)));
            equal = _mm256_or_si256(equal, _mm256_cmpeq_epi8(x, _mm256_shuffle_epi8(x, three)));
            at += 28;
        }
        // A byte above 51 leaves something after subtracting 51 (saturating).
        let above = _mm256_subs_epu8(highest, _mm256_set1_epi8(51));
        let in_range = _mm256_movemask_epi8(_mm256_cmpeq_epi8(above, _mm256_setzero_si256())) == -1;
        // Bytes 0..14 of each lane are the lane's two hands.
        let repeats = _mm256_movemask_epi8(equal) & 0x3fff_3fff != 0;
        (repeats || !in_range, at)
    }
}

/// [`rank7_batch`] without the checks: stops at the shorter of the two slices.
pub fn rank7_batch_unchecked(cards: &[u8], ranks: &mut [u16]) {
    for (hand, rank) in cards.chunks_exact(7).zip(ranks) {
        let hand: &[u8; 7] = hand.try_into().expect("chunks_exact(7) yields 7 bytes");
        *rank = rank7_unchecked(hand);
    }
}

/// The best five cards of a 5-, 6- or 7-card hand, highest rank first, and their rank.
pub fn best_five(cards: &[Card]) -> Result<([Card; 5], HandRank), Error> {
    let rank = rank_cards(cards)?;
    // At most 21 five-card subsets; keep the first that reaches the hand's rank.
    for keep in 0u8..(1 << cards.len()) {
        if keep.count_ones() != 5 {
            continue;
        }
        let mut five = [cards[0]; 5];
        let chosen = cards
            .iter()
            .enumerate()
            .filter(|(index, _)| keep >> index & 1 == 1);
        for (slot, (_, &card)) in five.iter_mut().zip(chosen) {
            *slot = card;
        }
        if rank_cards(&five)? == rank {
            five.sort_unstable_by_key(|card| core::cmp::Reverse(card.rank()));
            return Ok((five, rank));
        }
    }
    unreachable!("the hand's rank is the rank of one of its five-card subsets")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    fn bytes(text: &str) -> Vec<u8> {
        text.split(' ')
            .map(|card| Card::parse(card).unwrap().byte())
            .collect()
    }

    #[test]
    fn fast_paths_survive_garbage() {
        // Out-of-range bytes and repeated cards: any number, but no panic and no wild read.
        let mut rng = XorShiftRng::seed_from_u64(1);
        for _ in 0..200_000 {
            let raw = rng.next_u64().to_le_bytes();
            let seven: [u8; 7] = raw[..7].try_into().unwrap();
            let repeated = [raw[0] % 52; 7];
            for hand in [seven, repeated] {
                assert!(rank7_unchecked(&hand) <= HandRank::BEST.get());
                assert!(rank6_unchecked(&hand[..6].try_into().unwrap()) <= HandRank::BEST.get());
                assert!(rank5_unchecked(&hand[..5].try_into().unwrap()) <= HandRank::BEST.get());
            }
        }
    }

    #[test]
    fn checked_paths_name_the_error() {
        assert_eq!(rank_bytes(&bytes("As Kd Qh Jc")), Err(Error::InvalidLength));
        assert_eq!(
            rank_bytes(&bytes("As Kd Qh Jc Ts 9s 8s 7s")),
            Err(Error::InvalidLength)
        );
        assert_eq!(rank_bytes(&[0, 1, 2, 3, 52]), Err(Error::InvalidCard));
        assert_eq!(rank_bytes(&[0, 1, 2, 3, 255, 255]), Err(Error::InvalidCard));
        assert_eq!(rank_bytes(&[0, 1, 2, 3, 3]), Err(Error::DuplicateCard));
        let mut ranks = [9u16; 2];
        let mut hands = [bytes("As Kd Qh Jc Ts 9s 8s"), bytes("2c 3c 4c 5c 6c 7c 8c")].concat();
        assert_eq!(
            rank7_batch(&hands, &mut ranks[..1]),
            Err(Error::InvalidLength)
        );
        hands[13] = hands[7];
        assert_eq!(rank7_batch(&hands, &mut ranks), Err(Error::DuplicateCard));
        assert_eq!(ranks, [9, 9], "nothing written on error");
    }

    #[test]
    fn checked_path_agrees_with_the_rules_on_any_bytes() {
        on_any_bytes(|hand, expected| assert_eq!(rank_bytes(hand), expected, "{hand:?}"));
    }

    /// Calls `check` with 300,000 hands and the result the rules give each: hands of 4 to 8
    /// bytes of valid cards, repeats, and bytes above 51 (63 and 127 alias bit 63 of the
    /// repeat check, 64 and 116 alias cards 0 and 52 modulo 64), every outcome often.
    pub(crate) fn on_any_bytes(check: impl Fn(&[u8], Result<HandRank, Error>)) {
        let mut rng = XorShiftRng::seed_from_u64(15);
        let odd_bytes = [52u8, 53, 63, 64, 116, 127, 128, 179, 255];
        let mut seen = [0usize; 4];
        for _ in 0..300_000 {
            let len = 4 + (rng.next_u64() % 5) as usize;
            let mut hand = [0u8; 8];
            for i in 0..len {
                let draw = rng.next_u64();
                hand[i] = match draw % 16 {
                    0 => odd_bytes[(draw >> 8) as usize % odd_bytes.len()],
                    1 if i > 0 => hand[(draw >> 8) as usize % i],
                    _ => ((draw >> 8) % 52) as u8,
                };
            }
            let hand = &hand[..len];
            let expected = if !(5..=7).contains(&len) {
                Err(Error::InvalidLength)
            } else if hand.iter().any(|&card| card > 51) {
                Err(Error::InvalidCard)
            } else if (1..len).any(|i| hand[..i].contains(&hand[i])) {
                Err(Error::DuplicateCard)
            } else {
                let rank = match len {
                    5 => rank5_unchecked(hand.try_into().unwrap()),
                    6 => rank6_unchecked(hand.try_into().unwrap()),
                    _ => rank7_unchecked(hand.try_into().unwrap()),
                };
                Ok(HandRank::new(rank).unwrap())
            };
            check(hand, expected);
            seen[match expected {
                Ok(rank)
                    if matches!(rank.category(), Category::Flush | Category::StraightFlush) =>
                {
                    0
                }
                Ok(_) => 1,
                Err(Error::DuplicateCard) => 2,
                Err(_) => 3,
            }] += 1;
        }
        // Every outcome came up often: flushes, plain ranks, repeats, other errors.
        assert!(seen.iter().all(|&count| count > 500), "{seen:?}");
    }

    /// The batch check as [`rank7_batch`] runs it, and each vector check this processor has.
    fn batch_checks() -> Vec<fn(&[u8]) -> bool> {
        let mut checks: Vec<fn(&[u8]) -> bool> = vec![batch_may_be_bad];
        #[cfg(target_arch = "x86_64")]
        {
            checks.push(|cards| {
                // SAFETY: SSE2 is part of every x86-64 target.
                let (bad, checked) = unsafe { sse2::two_hands_at_a_time(cards) };
                bad || rest_may_be_bad(&cards[checked..])
            });
            if cpu::has_ssse3() {
                checks.push(|cards| {
                    // SAFETY: the processor has SSSE3 (checked above).
                    let (bad, checked) = unsafe { ssse3::two_hands_at_a_time(cards) };
                    bad || rest_may_be_bad(&cards[checked..])
                });
            }
            #[cfg(feature = "std")]
            if std::is_x86_feature_detected!("avx2") {
                checks.push(|cards| {
                    // SAFETY: the processor has AVX2 (checked above).
                    let (bad, checked) = unsafe { avx2::four_hands_at_a_time(cards) };
                    bad || rest_may_be_bad(&cards[checked..])
                });
            }
        }
        checks
    }

    #[test]
    fn the_batch_check_finds_every_repeat_and_every_byte_out_of_range() {
        for batch_may_be_bad in batch_checks() {
            batch_check_finds_every_repeat_and_every_byte_out_of_range(batch_may_be_bad);
        }
    }

    fn batch_check_finds_every_repeat_and_every_byte_out_of_range(
        batch_may_be_bad: fn(&[u8]) -> bool,
    ) {
        let mut rng = XorShiftRng::seed_from_u64(7);
        for count in [1usize, 2, 3, 5, 8, 13] {
            for _ in 0..20 {
                let mut cards = Vec::new();
                for _ in 0..count {
                    let mut deck: Vec<u8> = (0..52).collect();
                    for i in 0..7 {
                        let j = i + (rng.next_u64() % (52 - i as u64)) as usize;
                        deck.swap(i, j);
                    }
                    cards.extend_from_slice(&deck[..7]);
                }
                assert!(!batch_may_be_bad(&cards));
                for hand in 0..count {
                    for i in 0..7 {
                        for j in i + 1..7 {
                            let mut bad = cards.clone();
                            bad[7 * hand + j] = bad[7 * hand + i];
                            assert!(batch_may_be_bad(&bad), "{count} {hand} {i} {j}");
                        }
                        for byte in [52, 63, 64, 128, 179, 255] {
                            let mut bad = cards.clone();
                            bad[7 * hand + i] = byte;
                            assert!(batch_may_be_bad(&bad), "{count} {hand} {i} {byte}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn batch_matches_single_hands() {
        let hands = [
            bytes("As Kd Qh Jc Ts 9s 8s"),
            bytes("2c 3c 4c 5c 6c 7c 8c"),
            bytes("2d 2h 2s 7c 7d 9h Jc"),
        ];
        let mut ranks = [0u16; 3];
        rank7_batch(&hands.concat(), &mut ranks).unwrap();
        for (hand, rank) in hands.iter().zip(ranks) {
            assert_eq!(rank_bytes(hand).unwrap().get(), rank);
        }
        assert_eq!(
            HandRank::new(ranks[2]).unwrap().category(),
            Category::FullHouse
        );
    }

    #[test]
    fn best_five_reaches_the_rank() {
        let cards: Vec<Card> = "Ah 2h 3h 4h 5h Kd Kc"
            .split(' ')
            .map(|c| Card::parse(c).unwrap())
            .collect();
        let (five, rank) = best_five(&cards).unwrap();
        assert_eq!(rank.category(), Category::StraightFlush);
        assert_eq!(rank_cards(&five).unwrap(), rank);
        assert!(five.iter().all(|card| card.suit() == 2));
        assert_eq!(best_five(&cards[..4]), Err(Error::InvalidLength));
    }
}
