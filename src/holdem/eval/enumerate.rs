//! Every seven-card hand's rank in lexicographic order of card bytes, incrementally.
//!
//! The ranks of the hands that share their first five cards are the ranks of every pair of
//! cards above the fifth, and those pairs are a suffix of all 1,326 pairs in lexicographic
//! order. So a table of the ranks of all pairs, filled once for the ranks of the first five
//! cards, gives each five-card prefix its hands as one walk over a suffix, with no branch
//! per hand; flushes are written over that table's few pairs that make one, and undone.
use super::{Automaton, FIVE, SEVEN, SIX, SUIT_START, card_key, flush_band};
use crate::holdem::tables::{RANK_KEY, SUIT_SHIFT};

/// First rank of the high group (J): its cards only change the high field of a key.
const HIGH_GROUP_START: usize = 9;
/// Number of pairs of distinct cards.
const PAIRS: usize = 52 * 51 / 2;
/// Entries one copy moves when a row of [`LastTwoCards::by_pair`] is filled: the longest row
/// above a fifth card (46 pairs), rounded up to whole 16-byte moves. One fixed-size copy a
/// row, without a loop, writes past the row's end into the next row (filled after it) or
/// the padding.
const ROW_COPY: usize = 48;

/// The index of the pair of cards `sixth < seventh` in lexicographic order: the pairs of the
/// sixth cards below it come first, `51 - s` of them for each `s`.
#[inline(always)]
const fn pair_index(sixth: usize, seventh: usize) -> usize {
    sixth * (103 - sixth) / 2 + seventh - sixth - 1
}

/// The cards of the one suit that may make a flush: the suit, how many of the first five
/// cards hold it, and the sum of their [`RANK_KEY`]s.
#[derive(Clone, Copy)]
struct SuitedPart {
    suit: usize,
    count: u64,
    ranks_key: u64,
}

impl SuitedPart {
    /// The suit holding three or more of five cards, if one does (then no other can).
    #[inline(always)]
    fn of(cards: &[u8; 5], five_key: u64) -> Option<SuitedPart> {
        // A counter starts at 3: three cards take it to 6, and 2 more set its bit 3.
        let three_or_more = ((five_key >> SUIT_SHIFT) + 0x2222) & 0x8888;
        if three_or_more == 0 {
            return None;
        }
        let suit = (three_or_more.trailing_zeros() / 4) as usize;
        let ranks_key = cards
            .iter()
            .filter(|&&card| usize::from(card & 3) == suit)
            .fold(0, |key, &card| key + RANK_KEY[usize::from(card >> 2)]);
        Some(SuitedPart {
            suit,
            count: ((five_key >> (SUIT_SHIFT + 4 * suit as u32)) & 0xf) - 3,
            ranks_key,
        })
    }

    /// The flush rank of the five cards with `extra` (0, 1 or 2) more cards of the suit,
    /// whose rank keys sum to `extra_key`, when they make five or more of the suit.
    #[inline(always)]
    fn flush_rank(self, extra: u64, extra_key: u64) -> u16 {
        let automaton: &Automaton = match self.count + extra {
            7 => &SEVEN,
            6 => &SIX,
            _ => &FIVE,
        };
        flush_band(automaton.rank(self.ranks_key + extra_key))
    }

    /// Calls `flush(sixth, seventh, rank)` for every pair of cards above `fifth` that makes
    /// a flush with this part, with the hand's rank.
    #[inline(always)]
    fn for_each_flush_pair(self, fifth: usize, mut flush: impl FnMut(usize, usize, u16)) {
        let first_suited = |above: usize| above + 1 + (self.suit.wrapping_sub(above + 1) & 3);
        if self.count == 3 {
            // Only pairs of two suited cards: a short walk over the suit's cards.
            for sixth in (first_suited(fifth)..51).step_by(4) {
                let sixth_key = RANK_KEY[sixth >> 2];
                for seventh in (sixth + 4..52).step_by(4) {
                    let rank = self.flush_rank(2, sixth_key + RANK_KEY[seventh >> 2]);
                    flush(sixth, seventh, rank);
                }
            }
            return;
        }
        // Four or five suited: every pair with a suited card flushes, and with five, every
        // pair. A pair with one suited card has the rank of that card's rank alone, read
        // once here; with four, a sixth card of another suit pairs with suited cards only.
        let mut with_one = [0u16; 13];
        for (rank, with_one) in with_one.iter_mut().enumerate().skip(fifth >> 2) {
            *with_one = self.flush_rank(1, RANK_KEY[rank]);
        }
        let with_none = self.flush_rank(0, 0);
        for sixth in fifth + 1..51 {
            let sixth_suited = sixth & 3 == self.suit;
            if sixth_suited || self.count == 5 {
                for seventh in sixth + 1..52 {
                    let rank = match (sixth_suited, seventh & 3 == self.suit) {
                        (true, true) => {
                            self.flush_rank(2, RANK_KEY[sixth >> 2] + RANK_KEY[seventh >> 2])
                        }
                        (true, false) => with_one[sixth >> 2],
                        (false, true) => with_one[seventh >> 2],
                        (false, false) => with_none,
                    };
                    flush(sixth, seventh, rank);
                }
            } else {
                for seventh in (first_suited(sixth)..52).step_by(4) {
                    flush(sixth, seventh, with_one[seventh >> 2]);
                }
            }
        }
    }
}

/// The ranks of the last two cards' hands for the current first five cards.
struct LastTwoCards {
    /// `by_seventh[r][t]`: the non-flush rank of the five cards with a sixth card of rank
    /// `r` and the seventh card `t`, for `t >= 4 * r` (padded for [`ROW_COPY`] copies).
    by_seventh: [[u16; 51 + ROW_COPY]; 13],
    /// The rank of each pair of last cards at its [`pair_index`], for the pairs above the
    /// fifth card (padded for [`ROW_COPY`] copies).
    by_pair: [u16; PAIRS + ROW_COPY],
}

impl LastTwoCards {
    /// Fills the tables for the five cards whose key is `five_key` and whose fifth (highest)
    /// card is `fifth`. Out of line: once per rank of the fifth card, and the hot loop keeps
    /// its registers.
    #[inline(never)]
    fn fill(&mut self, five_key: u64, fifth: usize) {
        self.fill_by_seventh(five_key, fifth >> 2);
        self.fill_by_pair(fifth + 1);
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

    /// Copies the non-flush ranks from `by_seventh` into `by_pair` for every sixth card from
    /// `first_sixth` on, lowest first (a row's last copy spills into the next).
    #[inline(always)]
    fn fill_by_pair(&mut self, first_sixth: usize) {
        for sixth in first_sixth..51 {
            let at = pair_index(sixth, sixth + 1);
            self.by_pair[at..at + ROW_COPY]
                .copy_from_slice(&self.by_seventh[sixth >> 2][sixth + 1..sixth + 1 + ROW_COPY]);
        }
    }

    /// Visits the ranks of every pair of cards above `fifth`, flushes with `suited` included.
    #[inline(always)]
    fn visit_pairs_above(
        &mut self,
        fifth: usize,
        suited: Option<SuitedPart>,
        visit: &mut impl FnMut(u16),
    ) {
        let Some(suited) = suited else {
            // The common case: no suit holds three of the five, no pair makes a flush.
            for &rank in &self.by_pair[pair_index(fifth + 1, fifth + 2)..PAIRS] {
                visit(rank);
            }
            return;
        };
        self.visit_pairs_with_flushes(fifth, suited, visit);
    }

    /// [`Self::visit_pairs_above`] when some pairs make a flush: they are written into
    /// `by_pair` for the walk, then put back. Out of line, which keeps the common case's
    /// registers free.
    #[inline(never)]
    fn visit_pairs_with_flushes(
        &mut self,
        fifth: usize,
        suited: SuitedPart,
        visit: &mut impl FnMut(u16),
    ) {
        let by_pair = &mut self.by_pair;
        suited.for_each_flush_pair(fifth, |sixth, seventh, rank| {
            by_pair[pair_index(sixth, seventh)] = rank;
        });
        for &rank in &by_pair[pair_index(fifth + 1, fifth + 2)..PAIRS] {
            visit(rank);
        }
        // Undo the flushes for the next fifth card that shares the table.
        let by_seventh = &self.by_seventh;
        suited.for_each_flush_pair(fifth, |sixth, seventh, _| {
            by_pair[pair_index(sixth, seventh)] = by_seventh[sixth >> 2][seventh];
        });
    }
}

/// Calls `visit` with the rank of every one of the 133,784,560 seven-card hands, in
/// lexicographic order of card bytes. Keys are summed incrementally; the automaton is read
/// once per pair of ranks of the last two cards and rank of the fifth card, not once per
/// hand; the hands of each five first cards are one walk over a table of pairs of last
/// cards, into which only the pairs that make a flush are written separately.
pub fn for_each_seven_card_rank(mut visit: impl FnMut(u16)) {
    let mut cards = [0u8; 5];
    let mut last_two = LastTwoCards {
        by_seventh: [[0; 51 + ROW_COPY]; 13],
        by_pair: [0; PAIRS + ROW_COPY],
    };
    for a in 0..46u8 {
        let ka = SUIT_START + card_key(a);
        cards[0] = a;
        for b in a + 1..47 {
            let kb = ka + card_key(b);
            cards[1] = b;
            for c in b + 1..48 {
                let kc = kb + card_key(c);
                cards[2] = c;
                for d in c + 1..49 {
                    let kd = kc + card_key(d);
                    cards[3] = d;
                    for e in d + 1..50 {
                        cards[4] = e;
                        let five_key = kd + card_key(e);
                        // The non-flush ranks depend on the five cards' ranks only: shared
                        // by the suits of the fifth card.
                        if e == d + 1 || e & 3 == 0 {
                            last_two.fill(five_key, usize::from(e));
                        }
                        let suited = SuitedPart::of(&cards, five_key);
                        last_two.visit_pairs_above(usize::from(e), suited, &mut visit);
                    }
                }
            }
        }
    }
}
