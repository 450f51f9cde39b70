//! Every seven-card hand's rank in lexicographic order of card bytes, incrementally.
//!
//! The hands that share their first five cards are the pairs of cards above the fifth, and
//! those pairs are a suffix of the pairs above the lowest card of the fifth card's rank, in
//! lexicographic order. So one table of the non-flush ranks of those pairs per rank of the
//! fifth card, filled for the ranks of the first four cards (shared by the suits of the
//! fourth), gives each five-card prefix its hands as one walk over a suffix, with no branch
//! per hand. When some of those pairs make a flush, the suffix is copied, the flushes are
//! written over the copy, and the copy is walked.
use core::ops::Range;

use super::{SEVEN, SUIT_START, card_key, flush_rank_of, suit_rank_bit};
use crate::holdem::tables::{RANK_KEY, SUIT_SHIFT};

/// First rank of the high group (J): its cards only change the high field of a key.
const HIGH_GROUP_START: usize = 9;
/// Number of pairs of distinct cards.
const PAIRS: usize = 52 * 51 / 2;
/// Entries one copy moves when a row of a pair table is filled: the longest row above a
/// fifth card (46 pairs), rounded up to whole 16-byte moves. One fixed-size copy a row,
/// without a loop, writes past the row's end into the next row (filled after it) or the
/// padding.
const ROW_COPY: usize = 48;

/// The index of the pair of cards `sixth < seventh` in lexicographic order: the pairs of the
/// sixth cards below it come first, `51 - s` of them for each `s`.
#[inline(always)]
const fn pair_index(sixth: usize, seventh: usize) -> usize {
    sixth * (103 - sixth) / 2 + seventh - sixth - 1
}

/// Where the pair table of each rank of the fifth card starts in [`PairTables::by_fifth_rank`]:
/// the table of rank `r` holds the pairs of cards above `4 * r`, lowest ranks' tables first.
const TABLE_START: [usize; 14] = {
    let mut starts = [0; 14];
    let mut rank = 0;
    while rank < 13 {
        let cards_above = 51 - 4 * rank;
        starts[rank + 1] = starts[rank] + cards_above * (cards_above - 1) / 2;
        rank += 1;
    }
    starts
};

/// The index in [`PairTables::by_fifth_rank`] of the pair `sixth < seventh` above a fifth card
/// of rank `fifth_rank`.
#[inline(always)]
const fn pair_slot(fifth_rank: usize, sixth: usize, seventh: usize) -> usize {
    let lowest = 4 * fifth_rank + 1;
    TABLE_START[fifth_rank] + pair_index(sixth, seventh) - pair_index(lowest, lowest + 1)
}

/// Where the hands of each fifth card start and end in [`PairTables::by_fifth_rank`].
const HANDS_OF_FIFTH: [(usize, usize); 50] = {
    let mut bounds = [(0, 0); 50];
    let mut fifth = 0;
    while fifth < 50 {
        let rank = fifth / 4;
        bounds[fifth] = (pair_slot(rank, fifth + 1, fifth + 2), TABLE_START[rank + 1]);
        fifth += 1;
    }
    bounds
};

/// The flush rank of every set of five to seven ranks of one suit, at the set's mask (bit
/// `r` for rank `r`; 0 for fewer than five ranks). Built once an enumeration, in 8,192
/// automaton reads: it then ranks a flush in one read where the automaton takes about twenty
/// instructions.
struct FlushRanks([u16; 1 << 13]);

impl FlushRanks {
    fn new() -> FlushRanks {
        let mut ranks = [0; 1 << 13];
        for (mask, rank) in ranks.iter_mut().enumerate() {
            let count = u64::from(mask.count_ones());
            if (5..=7).contains(&count) {
                // The key of `count` cards of the first suit (clubs), whose ranks are `mask`.
                *rank = flush_rank_of(mask as u64, SUIT_START + (count << SUIT_SHIFT));
            }
        }
        FlushRanks(ranks)
    }

    #[inline(always)]
    fn of(&self, mask: usize) -> u16 {
        self.0[mask & 0x1fff]
    }
}

/// The one suit that may make a flush with cards above the fifth: the suit, how many of the
/// first five cards hold it, and their ranks as a mask (bit `r` for rank `r`).
#[derive(Clone, Copy)]
struct SuitedPart {
    suit: usize,
    count: usize,
    mask: usize,
}

/// The lowest card of `suit` above `card` (52 or more if there is none).
#[inline(always)]
fn first_suited_above(card: usize, suit: usize) -> usize {
    card + 1 + (suit.wrapping_sub(card + 1) & 3)
}

impl SuitedPart {
    /// The suit holding three or more of five cards, if one does (then no other can) and some
    /// pair of cards above the fifth card `fifth` makes a flush with them. `five_key` is the
    /// five cards' key and `suit_bits` the union of their [`suit_rank_bit`]s.
    #[inline(always)]
    fn of(fifth: usize, five_key: u64, suit_bits: u64) -> Option<SuitedPart> {
        // A counter starts at 3: three cards take it to 6, and 2 more set its bit 3.
        let three_or_more = ((five_key >> SUIT_SHIFT) + 0x2222) & 0x8888;
        if three_or_more == 0 {
            return None;
        }
        let suit = (three_or_more.trailing_zeros() / 4) as usize;
        let count = (((five_key >> (SUIT_SHIFT + 4 * suit as u32)) & 0xf) - 3) as usize;
        // Three of the suit need two more above the fifth card, four need one.
        if first_suited_above(fifth, suit) + 4 * (5 - count) > 55 {
            return None;
        }
        Some(SuitedPart {
            suit,
            count,
            mask: (suit_bits >> (16 * suit)) as usize & 0x1fff,
        })
    }

    /// Writes the flush rank of every pair of cards above `fifth` that makes a flush with
    /// this part over `pairs`, the ranks of those pairs in lexicographic order.
    #[inline(always)]
    fn write_flushes(self, fifth: usize, flushes: &FlushRanks, pairs: &mut [u16]) {
        let first_pair = pair_index(fifth + 1, fifth + 2);
        // With three suited, only the rows of a suited sixth card hold flushes.
        let (first_sixth, step) = if self.count == 3 {
            (first_suited_above(fifth, self.suit), 4)
        } else {
            (fifth + 1, 1)
        };
        for sixth in (first_sixth..51).step_by(step) {
            // `pairs[row + seventh]` is the pair of `sixth` and `seventh`.
            let row = pair_index(sixth, 0).wrapping_sub(first_pair);
            let sixth_suited = sixth & 3 == self.suit;
            let row_mask = self.mask | usize::from(sixth_suited) << (sixth >> 2);
            if self.count + usize::from(sixth_suited) >= 5 {
                // Every seventh card makes a flush, of six cards if it is suited too.
                for seventh in sixth + 1..52 {
                    let seventh_suited = usize::from(seventh & 3 == self.suit);
                    if let Some(slot) = pairs.get_mut(row.wrapping_add(seventh)) {
                        *slot = flushes.of(row_mask | seventh_suited << (seventh >> 2));
                    }
                }
            } else {
                // Four suited with the sixth card: the suited seventh cards make five.
                for seventh in (first_suited_above(sixth, self.suit)..52).step_by(4) {
                    if let Some(slot) = pairs.get_mut(row.wrapping_add(seventh)) {
                        *slot = flushes.of(row_mask | 1 << (seventh >> 2));
                    }
                }
            }
        }
    }
}

/// The ranks of the last two cards' hands for the current first four cards.
struct PairTables {
    /// `by_seventh[r][t]`: the non-flush rank of the five cards being filled with a sixth
    /// card of rank `r` and the seventh card `t`, for `t >= 4 * r` (padded for [`ROW_COPY`]
    /// copies).
    by_seventh: [[u16; 51 + ROW_COPY]; 13],
    /// For each rank of the fifth card from the fourth card's rank up, the non-flush rank of
    /// each pair of last cards above that rank's lowest card, at its [`pair_slot`] (padded
    /// for [`ROW_COPY`] copies).
    by_fifth_rank: [u16; TABLE_START[13] + ROW_COPY],
    /// A five-card prefix's pairs with its flushes written in, when it has some.
    with_flushes: [u16; PAIRS],
}

impl PairTables {
    /// Fills the tables of every rank of the fifth card from `fourth_rank` on, for the four
    /// cards whose key is `four_key` and whose highest rank is `fourth_rank`. Out of line:
    /// once per rank of the fourth card, and the hot loop keeps its registers.
    #[inline(never)]
    fn fill(&mut self, four_key: u64, fourth_rank: usize) {
        // No fifth card of rank 0 has a fourth card below it: its table would go unused.
        for (fifth_rank, fifth_key) in RANK_KEY.iter().enumerate().skip(fourth_rank.max(1)) {
            self.fill_by_seventh(four_key + fifth_key, fifth_rank);
            self.fill_pairs(fifth_rank);
        }
    }

    /// Fills `by_seventh` for the five cards whose key is `five_key` and whose highest rank
    /// is `fifth_rank`: one automaton read for each pair of ranks of the last two cards.
    #[inline(always)]
    fn fill_by_seventh(&mut self, five_key: u64, fifth_rank: usize) {
        // Cards of the high group (J..A) change only the high field of a key, so the row of
        // the high table they read is fixed by the cards below them.
        let five_high_row = SEVEN.high_row(five_key);
        for (sixth_rank, by_seventh) in self.by_seventh.iter_mut().enumerate().skip(fifth_rank) {
            let six_key = five_key + RANK_KEY[sixth_rank];
            let high_row = if sixth_rank >= HIGH_GROUP_START {
                five_high_row
            } else {
                SEVEN.high_row(six_key)
            };
            for seventh_rank in sixth_rank..13 {
                let key = six_key + RANK_KEY[seventh_rank];
                let rank = if seventh_rank >= HIGH_GROUP_START {
                    // SAFETY: `high_row` comes from `SEVEN.high_row`.
                    unsafe { SEVEN.rank_in_row(high_row, key) }
                } else {
                    SEVEN.rank(key)
                };
                by_seventh[4 * seventh_rank..4 * seventh_rank + 4].fill(rank);
            }
        }
    }

    /// Copies the non-flush ranks from `by_seventh` into the table of `fifth_rank`, row by
    /// row of a sixth card, lowest first (a row's last copy spills into the next).
    #[inline(always)]
    fn fill_pairs(&mut self, fifth_rank: usize) {
        // Rows shorter than 32 and 16 pairs take shorter copies.
        let first = 4 * fifth_rank + 1;
        self.copy_rows::<ROW_COPY>(fifth_rank, first..first.max(20));
        self.copy_rows::<32>(fifth_rank, first.max(20)..first.max(36));
        self.copy_rows::<16>(fifth_rank, first.max(36)..51);
    }

    /// Copies the rows of the sixth cards `sixths` into the table of `fifth_rank`, `COPY`
    /// entries each (at least the row's length).
    #[inline(always)]
    fn copy_rows<const COPY: usize>(&mut self, fifth_rank: usize, sixths: Range<usize>) {
        for sixth in sixths {
            let at = pair_slot(fifth_rank, sixth, sixth + 1);
            self.by_fifth_rank[at..at + COPY]
                .copy_from_slice(&self.by_seventh[sixth >> 2][sixth + 1..sixth + 1 + COPY]);
        }
    }

    /// The ranks of the hands of the five cards `cards` in order: the pairs of cards above
    /// the fifth, with flushes if `suited` makes some.
    #[inline(always)]
    fn hands(&mut self, fifth: usize, suited: Option<SuitedPart>, flushes: &FlushRanks) -> &[u16] {
        match suited {
            None => {
                let (start, end) = HANDS_OF_FIFTH[fifth];
                &self.by_fifth_rank[start..end]
            }
            Some(suited) => self.hands_with_flushes(fifth, suited, flushes),
        }
    }

    /// [`Self::hands`] when some pairs make a flush: a copy of the pairs with the flushes
    /// written over it. Out of line: only a third of five-card sets get here.
    #[inline(never)]
    fn hands_with_flushes(
        &mut self,
        fifth: usize,
        suited: SuitedPart,
        flushes: &FlushRanks,
    ) -> &[u16] {
        let (start, end) = HANDS_OF_FIFTH[fifth];
        let pairs = &self.by_fifth_rank[start..end];
        let copy = &mut self.with_flushes[..pairs.len()];
        copy.copy_from_slice(pairs);
        suited.write_flushes(fifth, flushes, copy);
        copy
    }
}

/// Calls `visit` with the rank of every one of the 133,784,560 seven-card hands, in
/// lexicographic order of card bytes. Keys are summed incrementally; the automaton is read
/// once per rank of the last three cards and rank of the fourth card, not once per hand;
/// the hands of each five first cards are one walk over a table of pairs of last cards,
/// into a copy of which only the pairs that make a flush are written separately.
pub fn for_each_seven_card_rank(visit: impl FnMut(u16)) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx2")))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `walk_all_avx2` needs AVX2, and the processor was just asked for it.
        return unsafe { walk_all_avx2(visit) };
    }
    walk_all(visit)
}

/// [`walk_all`] compiled with AVX2, the caller's `visit` inlined into its walks. The
/// measured reason for the `unsafe` call: see docs/holdem.md.
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx2")))]
#[target_feature(enable = "avx2")]
fn walk_all_avx2(visit: impl FnMut(u16)) {
    walk_all(visit)
}

/// The enumeration itself (see [`for_each_seven_card_rank`]). Always inlined, so that
/// `walk_all_avx2`'s copy is compiled with AVX2.
#[inline(always)]
fn walk_all(mut visit: impl FnMut(u16)) {
    let flushes = FlushRanks::new();
    let mut tables = PairTables {
        by_seventh: [[0; 51 + ROW_COPY]; 13],
        by_fifth_rank: [0; TABLE_START[13] + ROW_COPY],
        with_flushes: [0; PAIRS],
    };
    for a in 0..46u8 {
        let (ka, sa) = (SUIT_START + card_key(a), suit_rank_bit(a));
        for b in a + 1..47 {
            let (kb, sb) = (ka + card_key(b), sa | suit_rank_bit(b));
            for c in b + 1..48 {
                let (kc, sc) = (kb + card_key(c), sb | suit_rank_bit(c));
                for d in c + 1..49 {
                    let (kd, sd) = (kc + card_key(d), sc | suit_rank_bit(d));
                    // The non-flush ranks depend on the four cards' ranks only: shared by
                    // the suits of the fourth card.
                    if d == c + 1 || d & 3 == 0 {
                        tables.fill(kd, usize::from(d >> 2));
                    }
                    for e in d + 1..50 {
                        let fifth = usize::from(e);
                        let suits = sd | suit_rank_bit(e);
                        let suited = SuitedPart::of(fifth, kd + card_key(e), suits);
                        for &rank in tables.hands(fifth, suited, &flushes) {
                            visit(rank);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(all(
    test,
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "avx2")
))]
mod tests {
    use super::*;

    /// The number of ranks `enumerate` visits and an order-sensitive digest of them.
    fn digest(enumerate: impl FnOnce(&mut dyn FnMut(u16))) -> (u64, u64) {
        let (mut count, mut hash) = (0u64, 0u64);
        enumerate(&mut |rank| {
            count += 1;
            hash = hash
                .wrapping_mul(0x100_0000_01b3)
                .wrapping_add(u64::from(rank));
        });
        (count, hash)
    }

    /// The AVX2 copy visits the portable copy's ranks in the same order, both with a visitor
    /// it cannot see into and with a sum it compiles into wide adds (where the processor has
    /// AVX2; `tests/hand_exhaustive.rs` checks every hand of the copy that runs).
    #[test]
    fn the_avx2_enumeration_equals_the_portable_one() {
        if !std::is_x86_feature_detected!("avx2") {
            std::eprintln!("skipped: this processor has no AVX2, so only the portable copy runs");
            return;
        }
        let portable = digest(|visit| walk_all(visit));
        assert_eq!(portable.0, 133_784_560);
        assert_eq!(digest(|visit| for_each_seven_card_rank(visit)), portable);
        let (mut portable_sum, mut sum) = (0u64, 0u64);
        walk_all(|rank| portable_sum += u64::from(rank));
        for_each_seven_card_rank(|rank| sum += u64::from(rank));
        assert_eq!((sum, portable_sum), (450_468_187_308, 450_468_187_308));
    }
}
