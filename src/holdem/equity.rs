//! Exact all-in equity: every remaining board is dealt, none sampled.
//!
//! Three questions, each on a board of 0, 3, 4 or 5 cards:
//! - [`hand_vs_hand`]: two known hands; counts of boards won, tied and lost.
//! - [`hand_vs_range`]: a known hand against a weighted range of the 1,326 two-card combos.
//! - [`range_vs_range`]: two weighted ranges (the bot's hot path, on a turn board).
//!
//! A range is `&[f32; COMBOS]`, one weight per combo in [`combo_index`] order; combos that
//! share a card with the board or the known hand are skipped, and a pair of combos counts
//! only with the boards that share no card with either. Results are weighted sums of
//! (hero weight × villain weight) over every compatible (hero combo, villain combo, board);
//! because every compatible pair has the same number of boards, this is the exact equity
//! of the two weighted ranges.
//!
//! Cost: a range sweep ranks each side's combos once per board, sorts them by rank, and
//! counts wins with running sums per card (blockers), so a board costs O(n log n), not
//! O(n²). A turn board (44 or so rivers) takes about a millisecond for two full ranges
//! (benches/hand_eval.rs), a flop board about 25 times as long; a preflop range equity
//! deals 2.1 million boards and takes minutes: allowed, but meant for tables built offline.
//! Hand against hand preflop (1,712,304 boards) takes a few milliseconds.
//!
//! No allocation. The range functions keep about 16 KB on the stack (the candidate combos,
//! their ranks in two sort buffers, per-card sums); [`hand_vs_hand`] under 1 KB.
use super::card::Card;
use super::eval::PartialHand;
use crate::Error;

/// Number of two-card combos: C(52, 2).
pub const COMBOS: usize = 1326;

/// The cards of each combo, lower byte first, in [`combo_index`] order.
static COMBO_CARDS: [[u8; 2]; COMBOS] = {
    let mut cards = [[0u8; 2]; COMBOS];
    let mut high = 1;
    while high < 52 {
        let mut low = 0;
        while low < high {
            cards[high * (high - 1) / 2 + low] = [low as u8, high as u8];
            low += 1;
        }
        high += 1;
    }
    cards
};

/// The index of the combo of two different cards in a range: with bytes `low < high`,
/// `high * (high - 1) / 2 + low` (so 2c2d is 0 and AhAs is 1325). `None` if the cards are
/// the same.
pub const fn combo_index(a: Card, b: Card) -> Option<usize> {
    let (a, b) = (a.byte() as usize, b.byte() as usize);
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    if low == high {
        None
    } else {
        Some(high * (high - 1) / 2 + low)
    }
}

/// The two cards of combo `index` (lower byte first), `None` if `index >= COMBOS`.
pub fn combo_cards(index: usize) -> Option<[Card; 2]> {
    let [low, high] = *COMBO_CARDS.get(index)?;
    Some([Card::new_checked(low).ok()?, Card::new_checked(high).ok()?])
}

/// Boards won, tied and lost by the first hand of [`hand_vs_hand`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Showdowns {
    pub wins: u64,
    pub ties: u64,
    pub losses: u64,
}

impl Showdowns {
    /// Boards dealt.
    pub const fn total(&self) -> u64 {
        self.wins + self.ties + self.losses
    }

    /// The share of the pot, ties split: (wins + ties / 2) / total; 0 if no board was dealt
    /// (never the case for valid input).
    pub fn equity(&self) -> f64 {
        share(self.wins as f64, self.ties as f64, self.total() as f64)
    }
}

/// Weighted sums of (hero weight × villain weight) over the compatible (hero combo,
/// villain combo, board) triples won, tied and lost by the hero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WeightedShowdowns {
    pub win: f64,
    pub tie: f64,
    pub loss: f64,
}

impl WeightedShowdowns {
    /// The total weight of the compatible triples.
    pub fn total(&self) -> f64 {
        self.win + self.tie + self.loss
    }

    /// The hero's share of the pot, ties split; 0 if no pair of combos is compatible (an
    /// empty range, or every combo blocked).
    pub fn equity(&self) -> f64 {
        share(self.win, self.tie, self.total())
    }
}

fn share(win: f64, tie: f64, total: f64) -> f64 {
    if total > 0.0 {
        (win + tie / 2.0) / total
    } else {
        0.0
    }
}

/// The cards of a board as a bit mask, checking its length (0, 3, 4 or 5) and repeats.
fn board_mask(board: &[Card]) -> Result<u64, Error> {
    if !matches!(board.len(), 0 | 3 | 4 | 5) {
        return Err(Error::InvalidLength);
    }
    add_cards(0, board)
}

/// `mask` with `cards` added; `DuplicateCard` if one is already there or repeats.
fn add_cards(mut mask: u64, cards: &[Card]) -> Result<u64, Error> {
    for card in cards {
        let bit = 1u64 << card.byte();
        if mask & bit != 0 {
            return Err(Error::DuplicateCard);
        }
        mask |= bit;
    }
    Ok(mask)
}

fn partial(cards: &[Card], start: PartialHand) -> PartialHand {
    cards
        .iter()
        .fold(start, |hand, card| hand.with(card.byte()))
}

/// Calls `visit` with every completion of `board` to five cards avoiding `dead` (which
/// holds the board's cards): the full board's partial hand and its card mask.
fn for_each_board(
    board: PartialHand,
    mask: u64,
    dead: u64,
    missing: usize,
    visit: &mut impl FnMut(PartialHand, u64),
) {
    fn deal(
        from: u8,
        board: PartialHand,
        mask: u64,
        dead: u64,
        missing: usize,
        visit: &mut impl FnMut(PartialHand, u64),
    ) {
        if missing == 0 {
            visit(board, mask);
            return;
        }
        // Leave room for the cards still to deal after this one.
        for card in from..Card::COUNT - (missing as u8 - 1) {
            if dead >> card & 1 == 0 {
                let bit = 1u64 << card;
                deal(
                    card + 1,
                    board.with(card),
                    mask | bit,
                    dead | bit,
                    missing - 1,
                    visit,
                );
            }
        }
    }
    deal(0, board, mask, dead, missing, visit);
}

/// The exact showdown counts of `hero` against `villain` over every completion of `board`
/// (0, 3, 4 or 5 cards). Errors: `InvalidLength` (another board size), `DuplicateCard`
/// (a card in two places).
pub fn hand_vs_hand(
    hero: [Card; 2],
    villain: [Card; 2],
    board: &[Card],
) -> Result<Showdowns, Error> {
    let on_board = board_mask(board)?;
    let dead = add_cards(add_cards(on_board, &hero)?, &villain)?;
    let hero = partial(&hero, PartialHand::NOTHING);
    let villain = partial(&villain, PartialHand::NOTHING);
    let mut showdowns = Showdowns::default();
    let start = partial(board, PartialHand::EMPTY);
    for_each_board(start, on_board, dead, 5 - board.len(), &mut |full, _| {
        let ours = full.join(hero).rank7();
        let theirs = full.join(villain).rank7();
        // Branch-free tallies: showdowns are a coin flip to a predictor.
        showdowns.wins += u64::from(ours > theirs);
        showdowns.ties += u64::from(ours == theirs);
        showdowns.losses += u64::from(ours < theirs);
    });
    Ok(showdowns)
}

/// `InvalidArgument` unless every weight is finite and not negative.
fn check_weights(weights: &[f32; COMBOS]) -> Result<(), Error> {
    if weights.iter().all(|w| w.is_finite() && *w >= 0.0) {
        Ok(())
    } else {
        Err(Error::InvalidArgument)
    }
}

fn combo_mask(combo: usize) -> u64 {
    let [low, high] = COMBO_CARDS[combo];
    1u64 << low | 1u64 << high
}

/// The weights of one side: a range, or one known hand.
#[derive(Clone, Copy)]
enum Weights<'a> {
    /// One combo with weight 1.
    One(usize),
    Range(&'a [f32; COMBOS]),
}

/// One side's weights and the cards its combos may not hold.
#[derive(Clone, Copy)]
struct Side<'a> {
    weights: Weights<'a>,
    dead: u64,
}

impl Side<'_> {
    /// The weight of `combo` on this side: 0 if it holds a dead card.
    fn weight(&self, combo: usize) -> f64 {
        if combo_mask(combo) & self.dead != 0 {
            return 0.0;
        }
        match self.weights {
            Weights::One(one) => f64::from(u8::from(combo == one)),
            Weights::Range(weights) => f64::from(weights[combo]),
        }
    }
}

/// The combos either side holds with weight, ranked and sorted once per board for both
/// sides (a combo's rank on a board does not depend on whose it is).
struct Sweep<'a> {
    hero: Side<'a>,
    villain: Side<'a>,
    candidates: [u16; COMBOS],
    len: usize,
    /// Per board: `rank << 16 | combo` of the candidates the board leaves, sorted by rank.
    sorted: [u32; COMBOS],
    sorted_len: usize,
    /// The radix sort's other buffer.
    scratch: [u32; COMBOS],
}

impl<'a> Sweep<'a> {
    fn new(hero: Side<'a>, villain: Side<'a>) -> Sweep<'a> {
        let mut sweep = Sweep {
            hero,
            villain,
            candidates: [0; COMBOS],
            len: 0,
            sorted: [0; COMBOS],
            sorted_len: 0,
            scratch: [0; COMBOS],
        };
        for combo in 0..COMBOS {
            if hero.weight(combo) > 0.0 || villain.weight(combo) > 0.0 {
                sweep.candidates[sweep.len] = combo as u16;
                sweep.len += 1;
            }
        }
        sweep
    }

    /// Ranks the candidates that share no card with `board_cards`, in rank order.
    ///
    /// Ranks fit 13 bits, so two counting passes (the low 8 bits, then the high 5) sort
    /// them; the sweep needs no order among equal ranks. This beats a comparison sort of a
    /// thousand entries per board.
    fn rank_on(&mut self, board: PartialHand, board_cards: u64) {
        let mut len = 0;
        let (mut low_starts, mut high_starts) = ([0usize; 257], [0usize; 33]);
        for &combo in &self.candidates[..self.len] {
            let [low, high] = COMBO_CARDS[usize::from(combo)];
            if (1u64 << low | 1u64 << high) & board_cards == 0 {
                let rank = board.with(low).with(high).rank7();
                self.sorted[len] = u32::from(rank) << 16 | u32::from(combo);
                low_starts[usize::from(rank & 0xff) + 1] += 1;
                high_starts[usize::from(rank >> 8 & 0x1f) + 1] += 1;
                len += 1;
            }
        }
        for i in 1..low_starts.len() {
            low_starts[i] += low_starts[i - 1];
        }
        for i in 1..high_starts.len() {
            high_starts[i] += high_starts[i - 1];
        }
        for &entry in &self.sorted[..len] {
            let bucket = (entry >> 16 & 0xff) as usize;
            self.scratch[low_starts[bucket]] = entry;
            low_starts[bucket] += 1;
        }
        for &entry in &self.scratch[..len] {
            let bucket = (entry >> 24 & 0x1f) as usize;
            self.sorted[high_starts[bucket]] = entry;
            high_starts[bucket] += 1;
        }
        self.sorted_len = len;
    }

    /// Adds the showdowns on one full board: for each hero combo, the villain weight
    /// below its rank, up to it, and in all, less the villain combos it blocks.
    fn add_board(&mut self, full: PartialHand, full_cards: u64, total: &mut WeightedShowdowns) {
        self.rank_on(full, full_cards);
        let (hero, villain) = (self.hero, self.villain);
        let entries = &self.sorted[..self.sorted_len];
        let (mut all, mut below, mut up_to) = (Sums::ZERO, Sums::ZERO, Sums::ZERO);
        for &entry in entries {
            let combo = (entry & 0xffff) as usize;
            all.add(combo, villain.weight(combo));
        }
        let (mut next_below, mut next_up_to) = (0, 0);
        for &entry in entries {
            let (rank, combo) = (entry >> 16, (entry & 0xffff) as usize);
            let weight = hero.weight(combo);
            if weight == 0.0 {
                continue;
            }
            while let Some(&v) = entries.get(next_below).filter(|&&v| v >> 16 < rank) {
                below.add((v & 0xffff) as usize, villain.weight((v & 0xffff) as usize));
                next_below += 1;
            }
            while let Some(&v) = entries.get(next_up_to).filter(|&&v| v >> 16 <= rank) {
                up_to.add((v & 0xffff) as usize, villain.weight((v & 0xffff) as usize));
                next_up_to += 1;
            }
            // The villain's same combo, if it plays, has the same rank: not below, but up
            // to.
            let same = villain.weight(combo);
            let win = below.without(combo, 0.0);
            let at_most = up_to.without(combo, same);
            let compatible = all.without(combo, same);
            // Rounding may leave a tiny negative difference; a count cannot be.
            total.win += weight * win;
            total.tie += weight * (at_most - win).max(0.0);
            total.loss += weight * (compatible - at_most).max(0.0);
        }
    }
}

/// Running weight sums of villain combos, in all and per card (to remove the combos a hero
/// combo blocks).
struct Sums {
    all: f64,
    per_card: [f64; 52],
}

impl Sums {
    const ZERO: Sums = Sums {
        all: 0.0,
        per_card: [0.0; 52],
    };

    fn add(&mut self, combo: usize, weight: f64) {
        let [low, high] = COMBO_CARDS[combo];
        self.all += weight;
        self.per_card[usize::from(low)] += weight;
        self.per_card[usize::from(high)] += weight;
    }

    /// The sum over the combos sharing no card with `combo`, given that combo's own weight
    /// if it is in the sum (it is removed twice, once per card).
    fn without(&self, combo: usize, own_weight: f64) -> f64 {
        let [low, high] = COMBO_CARDS[combo];
        self.all - self.per_card[usize::from(low)] - self.per_card[usize::from(high)] + own_weight
    }
}

/// The weighted showdowns of `hero` against `villain` over every completion of `board`
/// avoiding `dead` (the board and any known hand).
fn sweep(hero: Side, villain: Side, board: &[Card], dead: u64) -> WeightedShowdowns {
    let mut sweep = Sweep::new(hero, villain);
    let mut total = WeightedShowdowns::default();
    for_each_board(
        partial(board, PartialHand::EMPTY),
        partial_mask(board),
        dead,
        5 - board.len(),
        &mut |full, full_cards| sweep.add_board(full, full_cards, &mut total),
    );
    total
}

fn partial_mask(board: &[Card]) -> u64 {
    board
        .iter()
        .fold(0, |mask, card| mask | 1u64 << card.byte())
}

/// The exact equity of `hero` against the weighted range `villain` over every completion
/// of `board` (0, 3, 4 or 5 cards). Villain combos holding a card of the board or of the
/// hero's hand are skipped. Errors: `InvalidLength` (board size), `DuplicateCard`,
/// `InvalidArgument` (a weight negative, infinite or NaN).
pub fn hand_vs_range(
    hero: [Card; 2],
    villain: &[f32; COMBOS],
    board: &[Card],
) -> Result<WeightedShowdowns, Error> {
    let on_board = board_mask(board)?;
    let dead = add_cards(on_board, &hero)?;
    check_weights(villain)?;
    let hero_combo = combo_index(hero[0], hero[1]).ok_or(Error::DuplicateCard)?;
    let hero = Side {
        weights: Weights::One(hero_combo),
        dead: on_board,
    };
    let villain = Side {
        weights: Weights::Range(villain),
        dead,
    };
    Ok(sweep(hero, villain, board, dead))
}

/// The exact equity of the weighted range `hero` against the weighted range `villain` over
/// every completion of `board` (0, 3, 4 or 5 cards): combos holding a board card are
/// skipped, and so are pairs of combos that share a card. Errors: `InvalidLength` (board
/// size), `DuplicateCard` (in the board), `InvalidArgument` (a weight negative, infinite
/// or NaN).
pub fn range_vs_range(
    hero: &[f32; COMBOS],
    villain: &[f32; COMBOS],
    board: &[Card],
) -> Result<WeightedShowdowns, Error> {
    let on_board = board_mask(board)?;
    check_weights(hero)?;
    check_weights(villain)?;
    let hero = Side {
        weights: Weights::Range(hero),
        dead: on_board,
    };
    let villain = Side {
        weights: Weights::Range(villain),
        dead: on_board,
    };
    Ok(sweep(hero, villain, board, on_board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::rank_cards;
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|card| Card::parse(card).unwrap())
            .collect()
    }

    fn hand(text: &str) -> [Card; 2] {
        cards(text).try_into().unwrap()
    }

    /// Hand against hand the slow way: every board from the deck, ranked with the checked
    /// path on seven `Card`s.
    fn brute_force(hero: [Card; 2], villain: [Card; 2], board: &[Card]) -> Showdowns {
        let dead: Vec<Card> = hero.iter().chain(&villain).chain(board).copied().collect();
        let deck: Vec<Card> = (0..52)
            .map(|b| Card::new_checked(b).unwrap())
            .filter(|card| !dead.contains(card))
            .collect();
        let mut showdowns = Showdowns::default();
        let missing = 5 - board.len();
        let mut chosen = Vec::new();
        fn walk(
            deck: &[Card],
            from: usize,
            missing: usize,
            chosen: &mut Vec<Card>,
            visit: &mut dyn FnMut(&[Card]),
        ) {
            if missing == 0 {
                visit(chosen);
                return;
            }
            for i in from..deck.len() {
                chosen.push(deck[i]);
                walk(deck, i + 1, missing - 1, chosen, visit);
                chosen.pop();
            }
        }
        walk(&deck, 0, missing, &mut chosen, &mut |extra| {
            let full: Vec<Card> = board.iter().chain(extra).copied().collect();
            let rank = |hole: [Card; 2]| {
                let seven: Vec<Card> = hole.iter().chain(&full).copied().collect();
                rank_cards(&seven).unwrap()
            };
            match rank(hero).cmp(&rank(villain)) {
                core::cmp::Ordering::Greater => showdowns.wins += 1,
                core::cmp::Ordering::Equal => showdowns.ties += 1,
                core::cmp::Ordering::Less => showdowns.losses += 1,
            }
        });
        showdowns
    }

    #[test]
    fn aces_against_kings_preflop_match_brute_force_and_published_counts() {
        // GNU poker-eval's hcmp2, as published: AdAc against KhKs wins 1,388,072 of the
        // 1,712,304 boards, ties 6,538 and loses 317,694.
        let (aces, kings) = (hand("Ad Ac"), hand("Kh Ks"));
        let exact = hand_vs_hand(aces, kings, &[]).unwrap();
        let published = Showdowns {
            wins: 1_388_072,
            ties: 6_538,
            losses: 317_694,
        };
        assert_eq!(exact, published);
        assert_eq!(exact, brute_force(aces, kings, &[]));
        let reverse = hand_vs_hand(kings, aces, &[]).unwrap();
        assert_eq!(
            (reverse.wins, reverse.ties, reverse.losses),
            (exact.losses, exact.ties, exact.wins)
        );
        // Sharing both suits, the kings lose their flushes: 82.6 % for the aces (published
        // to one decimal), against 81.3 % with no suit shared.
        let same_suits = hand_vs_hand(hand("As Ah"), hand("Ks Kh"), &[]).unwrap();
        assert_eq!(same_suits, brute_force(hand("As Ah"), hand("Ks Kh"), &[]));
        assert!(
            (same_suits.equity() - 0.826).abs() < 0.0005,
            "{same_suits:?}"
        );
        assert!((exact.equity() - 0.813).abs() < 0.0005);
    }

    #[test]
    fn flop_turn_and_river_match_brute_force() {
        let mut rng = XorShiftRng::seed_from_u64(17);
        for _ in 0..30 {
            let mut deck: Vec<Card> = (0..52).map(|b| Card::new_checked(b).unwrap()).collect();
            for i in 0..9 {
                let j = i + (rng.next_u64() % (52 - i as u64)) as usize;
                deck.swap(i, j);
            }
            for board_len in [3, 4, 5] {
                let (hero, villain) = ([deck[0], deck[1]], [deck[2], deck[3]]);
                let board = &deck[4..4 + board_len];
                assert_eq!(
                    hand_vs_hand(hero, villain, board).unwrap(),
                    brute_force(hero, villain, board)
                );
            }
        }
    }

    #[test]
    fn a_board_that_plays_ties_every_time() {
        let board = cards("As Ks Qs Js Ts");
        let showdowns = hand_vs_hand(hand("2c 3d"), hand("4h 5c"), &board).unwrap();
        assert_eq!(
            showdowns,
            Showdowns {
                wins: 0,
                ties: 1,
                losses: 0
            }
        );
        assert_eq!(showdowns.equity(), 0.5);
        // Same ranks, other suits: symmetric, so the equity is exactly one half.
        let mirrored = hand_vs_hand(hand("Ac Kd"), hand("Ad Kc"), &[]).unwrap();
        assert_eq!(mirrored.wins, mirrored.losses);
        assert_eq!(mirrored.equity(), 0.5);
    }

    #[test]
    fn bad_input_is_an_error() {
        let (a, b) = (hand("As Ah"), hand("Ks Kh"));
        assert_eq!(
            hand_vs_hand(a, hand("As Kd"), &[]),
            Err(Error::DuplicateCard)
        );
        assert_eq!(
            hand_vs_hand(a, b, &cards("2c 2c 3c")),
            Err(Error::DuplicateCard)
        );
        assert_eq!(
            hand_vs_hand(a, b, &cards("Kh 2c 3c")),
            Err(Error::DuplicateCard)
        );
        assert_eq!(
            hand_vs_hand(a, b, &cards("2c 3c")),
            Err(Error::InvalidLength)
        );
        let mut range = [1.0f32; COMBOS];
        assert_eq!(
            hand_vs_range(hand("As As"), &range, &[]),
            Err(Error::DuplicateCard)
        );
        range[7] = -1.0;
        assert_eq!(
            range_vs_range(&[1.0; COMBOS], &range, &cards("2c 3c 4c 5c")),
            Err(Error::InvalidArgument)
        );
        range[7] = f32::NAN;
        assert_eq!(
            hand_vs_range(a, &range, &cards("2c 3c 4c 5c")),
            Err(Error::InvalidArgument)
        );
    }

    #[test]
    fn combo_indices_round_trip() {
        for index in 0..COMBOS {
            let [a, b] = combo_cards(index).unwrap();
            assert!(a.byte() < b.byte());
            assert_eq!(combo_index(b, a), Some(index));
        }
        assert_eq!(combo_cards(COMBOS), None);
        let ace = Card::parse("As").unwrap();
        assert_eq!(combo_index(ace, ace), None);
    }

    fn random_range(rng: &mut XorShiftRng, density: u64) -> [f32; COMBOS] {
        core::array::from_fn(|_| {
            if rng.next_u64() % 100 < density {
                (rng.next_u64() % 4) as f32
            } else {
                0.0
            }
        })
    }

    /// Range against range the slow way: every pair of combos, hand against hand.
    fn pairwise(
        hero: &[f32; COMBOS],
        villain: &[f32; COMBOS],
        board: &[Card],
    ) -> WeightedShowdowns {
        let mut total = WeightedShowdowns::default();
        for h in (0..COMBOS).filter(|&h| hero[h] > 0.0) {
            for v in (0..COMBOS).filter(|&v| villain[v] > 0.0) {
                let Ok(showdowns) =
                    hand_vs_hand(combo_cards(h).unwrap(), combo_cards(v).unwrap(), board)
                else {
                    continue;
                };
                let weight = f64::from(hero[h]) * f64::from(villain[v]);
                total.win += weight * showdowns.wins as f64;
                total.tie += weight * showdowns.ties as f64;
                total.loss += weight * showdowns.losses as f64;
            }
        }
        total
    }

    #[test]
    fn range_sweeps_equal_pairwise_sums_on_river_turn_and_flop() {
        let mut rng = XorShiftRng::seed_from_u64(5);
        for (board, density) in [("Ah 7d 7c 2s Ts", 40), ("Kh Qh 9h 3c", 6), ("5s 6s 7d", 1)] {
            let board = cards(board);
            let (hero, villain) = (
                random_range(&mut rng, density),
                random_range(&mut rng, density),
            );
            let fast = range_vs_range(&hero, &villain, &board).unwrap();
            let slow = pairwise(&hero, &villain, &board);
            // Integer weights: every sum is exact.
            assert_eq!(fast, slow);
            assert!(fast.total() > 0.0);
        }
    }

    #[test]
    fn a_hand_against_a_range_is_the_weighted_sum_of_its_hands() {
        let mut rng = XorShiftRng::seed_from_u64(9);
        let villain = random_range(&mut rng, 30);
        let board = cards("Jd 8c 4h 4s");
        let hero = hand("Ac Qd");
        let fast = hand_vs_range(hero, &villain, &board).unwrap();
        let mut one = [0.0f32; COMBOS];
        one[combo_index(hero[0], hero[1]).unwrap()] = 1.0;
        assert_eq!(fast, pairwise(&one, &villain, &board));
        assert_eq!(fast, range_vs_range(&one, &villain, &board).unwrap());
        // A range holding only blocked combos has no showdown.
        let mut blocked = [0.0f32; COMBOS];
        blocked[combo_index(hero[0], board[0]).unwrap()] = 1.0;
        assert_eq!(hand_vs_range(hero, &blocked, &board).unwrap().total(), 0.0);
    }
}
