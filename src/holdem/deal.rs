//! The ACPC dealer's deal, bit for bit: a 32-bit Mersenne Twister (MT19937, Matsumoto and
//! Nishimura 1998) seeded with `init_genrand(seed)`, and nine cards a hand drawn by
//! swap-removal from a fresh deck.
//!
//! Matches between ACPC bots are compared by their logs, and duplicate matches need the same
//! cards for the same seed and hand number whoever deals them. So arbor deals exactly as the
//! reference dealer does: for every hand a deck laid out suit by suit (clubs 2…A, then
//! diamonds, hearts, spades; a card's id is `rank * 4 + suit`), then nine draws, each at index
//! `genrand_int32() % remaining`, the last card of the deck moving into the gap: position 0's
//! two hole cards, position 1's two, then the five board cards. Every hand draws nine numbers
//! whatever is played, so hand `h` depends only on the seed and `h`.

use super::Card;

/// Words of MT19937's state.
pub const STATE_WORDS: usize = 624;
/// The split point of the twist.
const SHIFT_WORDS: usize = 397;
const MATRIX_A: u32 = 0x9908_B0DF;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7FFF_FFFF;

/// The 32-bit Mersenne Twister, as the ACPC dealer (and the reference C code, C++'s
/// `std::mt19937`, numpy's legacy seeding) runs it. 2.5 KB of state, no allocation.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; STATE_WORDS],
    next: usize,
}

impl Mt19937 {
    /// The generator after `init_genrand(seed)`.
    ///
    /// ```
    /// // C++'s default-seeded std::mt19937 gives 3499211612 first.
    /// let mut mt = arbor::holdem::deal::Mt19937::new(5489);
    /// assert_eq!(mt.next_u32(), 3_499_211_612);
    /// ```
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; STATE_WORDS];
        state[0] = seed;
        for i in 1..STATE_WORDS {
            let previous = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(previous ^ (previous >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 {
            state,
            next: STATE_WORDS,
        }
    }

    /// `genrand_int32()`: the next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.next >= STATE_WORDS {
            self.twist();
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }

    /// The state words and the index of the next word to temper, for saving the generator
    /// (the C ABI keeps a dealer in a caller struct).
    pub fn to_parts(&self) -> ([u32; STATE_WORDS], u32) {
        (self.state, self.next as u32)
    }

    /// The generator saved by [`Mt19937::to_parts`]; `None` for an index above 624. Every
    /// state is a valid generator state (the all-zero one only gives zeros, as the reference
    /// would).
    pub fn from_parts(state: [u32; STATE_WORDS], next: u32) -> Option<Mt19937> {
        let next = usize::try_from(next)
            .ok()
            .filter(|&next| next <= STATE_WORDS)?;
        Some(Mt19937 { state, next })
    }

    fn twist(&mut self) {
        for i in 0..STATE_WORDS {
            let joined =
                (self.state[i] & UPPER_MASK) | (self.state[(i + 1) % STATE_WORDS] & LOWER_MASK);
            let mut mixed = joined >> 1;
            if joined & 1 != 0 {
                mixed ^= MATRIX_A;
            }
            self.state[i] = self.state[(i + SHIFT_WORDS) % STATE_WORDS] ^ mixed;
        }
        self.next = 0;
    }
}

/// Cards dealt for one hand: both positions' hole cards and the five board cards, whether or
/// not the betting reaches them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    /// `holes[p]` are position `p`'s hole cards (position 0 is the big blind in the
    /// reverse-blinds game), in the order they were drawn.
    pub holes: [[Card; 2]; 2],
    /// Flop (3), turn, river, in the order they were drawn.
    pub board: [Card; 5],
}

/// Cards drawn per hand: 2 + 2 hole cards and 5 board cards.
pub const CARDS_PER_HAND: usize = 9;

/// Deals hands in the ACPC reference dealer's order from one seed.
#[derive(Clone)]
pub struct Dealer {
    rng: Mt19937,
    hands_dealt: u64,
}

impl Dealer {
    /// A dealer for a match seeded with `seed`; its first [`Dealer::next_hand`] is hand 0.
    pub fn new(seed: u32) -> Dealer {
        Dealer {
            rng: Mt19937::new(seed),
            hands_dealt: 0,
        }
    }

    /// A dealer whose next hand is `hand` (for resuming a match): the earlier hands are
    /// drawn and dropped, nine numbers each.
    pub fn starting_at(seed: u32, hand: u64) -> Dealer {
        let mut dealer = Dealer::new(seed);
        for _ in 0..hand {
            dealer.next_hand();
        }
        dealer
    }

    /// The generator and the number of hands dealt, for saving the dealer.
    pub fn to_parts(&self) -> (&Mt19937, u64) {
        (&self.rng, self.hands_dealt)
    }

    /// The dealer saved by [`Dealer::to_parts`].
    pub fn from_parts(rng: Mt19937, hands_dealt: u64) -> Dealer {
        Dealer { rng, hands_dealt }
    }

    /// How many hands this dealer has dealt, which is the number of the next one.
    pub fn hands_dealt(&self) -> u64 {
        self.hands_dealt
    }

    /// The next hand's cards.
    pub fn next_hand(&mut self) -> Deal {
        let mut deck = [Card::ALL[0]; 52];
        for (index, slot) in deck.iter_mut().enumerate() {
            let (suit, rank) = (index / 13, index % 13);
            *slot = Card::ALL[rank * 4 + suit];
        }
        let mut remaining = deck.len();
        let mut drawn = [Card::ALL[0]; CARDS_PER_HAND];
        for card in drawn.iter_mut() {
            let index = (self.rng.next_u32() % remaining as u32) as usize;
            *card = deck[index];
            remaining -= 1;
            deck[index] = deck[remaining];
        }
        // A dealer restored from a caller's bytes may start anywhere; the count saturates.
        self.hands_dealt = self.hands_dealt.saturating_add(1);
        Deal {
            holes: [[drawn[0], drawn[1]], [drawn[2], drawn[3]]],
            board: [drawn[4], drawn[5], drawn[6], drawn[7], drawn[8]],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cards: &[Card]) -> heapless::String<32> {
        use core::fmt::Write;
        let mut out = heapless::String::new();
        for (i, card) in cards.iter().enumerate() {
            if i > 0 {
                out.push(' ').unwrap();
            }
            write!(out, "{card}").unwrap();
        }
        out
    }

    fn all_nine(deal: &Deal) -> [Card; 9] {
        let [[a, b], [c, d]] = deal.holes;
        let [e, f, g, h, i] = deal.board;
        [a, b, c, d, e, f, g, h, i]
    }

    #[test]
    fn mersenne_twister_matches_the_reference_outputs() {
        // Outputs of the reference generator measured here with numpy's MT19937 under
        // `_legacy_seeding` (which is `init_genrand`): the first and the 10,000th for the
        // default seed 5489 (also C++'s published check value), and the first five for 42.
        let mut mt = Mt19937::new(5489);
        assert_eq!(mt.next_u32(), 3_499_211_612);
        for _ in 1..9_999 {
            mt.next_u32();
        }
        assert_eq!(mt.next_u32(), 4_123_659_995);
        let mut mt = Mt19937::new(42);
        let first: [u32; 5] = core::array::from_fn(|_| mt.next_u32());
        assert_eq!(
            first,
            [
                1_608_637_542,
                3_421_126_067,
                4_083_286_876,
                787_846_414,
                3_143_890_026
            ]
        );
    }

    #[test]
    fn deals_the_reference_dealers_cards() {
        // The expected cards come from an independent implementation of the rule in the module
        // text (numpy's MT19937, the deck suit by suit, swap-removal), run here.
        let mut dealer = Dealer::new(42);
        assert_eq!(
            text(&all_nine(&dealer.next_hand())),
            "7d 3d 2h Ac 5s Ks 7s 9s 6h"
        );
        assert_eq!(
            text(&all_nine(&dealer.next_hand())),
            "9h 6s 3d 3h 5s 3s 8h 9d 5c"
        );
        assert_eq!(
            text(&all_nine(&dealer.next_hand())),
            "4d 6c Qs Jh 3c 9s Jc 2d Ts"
        );
        let mut dealer = Dealer::new(0);
        assert_eq!(
            text(&all_nine(&dealer.next_hand())),
            "5d 5c 9h Qd 8d As 8s 4h 6d"
        );
        let mut late = Dealer::starting_at(7, 999);
        assert_eq!(late.hands_dealt(), 999);
        assert_eq!(
            text(&all_nine(&late.next_hand())),
            "5c Jd Kd Ah 8s Qs 2c 6d 9d"
        );
    }

    #[test]
    fn a_saved_dealer_deals_on_where_it_stopped() {
        let mut dealer = Dealer::new(11);
        for _ in 0..100 {
            dealer.next_hand();
        }
        let (rng, hands) = dealer.to_parts();
        let (state, next) = rng.to_parts();
        let mut restored = Dealer::from_parts(Mt19937::from_parts(state, next).unwrap(), hands);
        assert_eq!(restored.hands_dealt(), 100);
        for _ in 0..200 {
            assert_eq!(restored.next_hand(), dealer.next_hand());
        }
        assert!(Mt19937::from_parts(state, 625).is_none());
    }

    #[test]
    fn a_restored_dealer_at_the_end_of_the_count_still_deals() {
        let rng = Dealer::new(5).to_parts().0.clone();
        let mut dealer = Dealer::from_parts(rng, u64::MAX);
        dealer.next_hand();
        assert_eq!(dealer.hands_dealt(), u64::MAX);
    }

    #[test]
    fn every_hand_has_nine_distinct_cards() {
        let mut dealer = Dealer::new(3);
        for _ in 0..2_000 {
            let cards = all_nine(&dealer.next_hand());
            let mask = cards.iter().fold(0u64, |m, c| m | 1 << c.byte());
            assert_eq!(mask.count_ones(), 9);
        }
    }
}
