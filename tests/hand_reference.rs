//! The evaluator against a deliberately simple reference written from the rules of poker:
//! on millions of random 5-, 6- and 7-card hands, sorting by the reference's strength must
//! sort by arbor's rank, with ties exactly where the reference ties.
use arbor::holdem::{Category, HandRank, rank_bytes};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// A comparable strength: (category 0..=8, tie-break ranks high to low).
type Strength = (u8, Vec<u8>);

/// The strength of exactly five cards, straight from the rules.
fn five_card_strength(cards: &[u8]) -> Strength {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c / 4).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c % 4 == cards[0] % 4);
    let distinct = {
        let mut d = ranks.clone();
        d.dedup();
        d
    };
    let straight_high = if distinct.len() == 5 && ranks[0] - ranks[4] == 4 {
        Some(ranks[0])
    } else if distinct == [12, 3, 2, 1, 0] {
        Some(3) // A-2-3-4-5: the ace plays low
    } else {
        None
    };
    // Group by count, larger groups first, then higher rank.
    let mut groups: Vec<(usize, u8)> = distinct
        .iter()
        .map(|&r| (ranks.iter().filter(|&&x| x == r).count(), r))
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let by_group: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let counts: Vec<usize> = groups.iter().map(|g| g.0).collect();
    match (straight_high, flush, counts.as_slice()) {
        (Some(high), true, _) => (8, vec![high]),
        (_, _, [4, 1]) => (7, by_group),
        (_, _, [3, 2]) => (6, by_group),
        (_, true, _) => (5, ranks),
        (Some(high), false, _) => (4, vec![high]),
        (_, _, [3, 1, 1]) => (3, by_group),
        (_, _, [2, 2, 1]) => (2, by_group),
        (_, _, [2, 1, 1, 1]) => (1, by_group),
        _ => (0, ranks),
    }
}

/// The best five-card strength among all five-card subsets.
fn reference_strength(cards: &[u8]) -> Strength {
    let n = cards.len();
    (0u32..1 << n)
        .filter(|mask| mask.count_ones() == 5)
        .map(|mask| {
            let five: Vec<u8> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| cards[i])
                .collect();
            five_card_strength(&five)
        })
        .max()
        .expect("at least one five-card subset")
}

fn random_hand(rng: &mut XorShiftRng, n: usize) -> Vec<u8> {
    let mut deck: Vec<u8> = (0..52).collect();
    for i in 0..n {
        let j = i + (rng.next_u64() % (52 - i) as u64) as usize;
        deck.swap(i, j);
    }
    deck.truncate(n);
    deck
}

fn check_ordering(n: usize, hands: usize, seed: u64) {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut rows: Vec<(Strength, u16)> = (0..hands)
        .map(|_| {
            let hand = random_hand(&mut rng, n);
            let rank = rank_bytes(&hand).expect("a valid hand");
            let strength = reference_strength(&hand);
            assert_eq!(
                rank.category() as u8,
                strength.0,
                "{n} cards {hand:?}: category {} against reference {}",
                rank.category(),
                strength.0
            );
            (strength, rank.get())
        })
        .collect();
    rows.sort_unstable();
    for pair in rows.windows(2) {
        let ((weaker, rank_a), (stronger, rank_b)) = (&pair[0], &pair[1]);
        if weaker == stronger {
            assert_eq!(
                rank_a, rank_b,
                "{n} cards: equal strengths {weaker:?} got ranks {rank_a} and {rank_b}"
            );
        } else {
            assert!(
                rank_a < rank_b,
                "{n} cards: {weaker:?} < {stronger:?} but ranks {rank_a} >= {rank_b}"
            );
        }
    }
}

#[test]
fn five_card_ordering_matches_the_reference() {
    check_ordering(5, 2_000_000, 5);
}

#[test]
fn six_card_ordering_matches_the_reference() {
    check_ordering(6, 1_000_000, 6);
}

#[test]
fn seven_card_ordering_matches_the_reference() {
    check_ordering(7, 1_000_000, 7);
}

#[test]
fn known_hands() {
    let rank = |text: &str| {
        let cards: Vec<u8> = text
            .split(' ')
            .map(|c| arbor::holdem::Card::parse(c).unwrap().byte())
            .collect();
        rank_bytes(&cards).unwrap()
    };
    assert_eq!(rank("7c 5d 4h 3s 2c"), HandRank::WORST);
    assert_eq!(rank("As Ks Qs Js Ts"), HandRank::BEST);
    assert_eq!(rank("Ah 2h 3h 4h 5h").category(), Category::StraightFlush);
    assert_eq!(rank("Ah 2h 3h 4h 5h"), Category::StraightFlush.first_rank());
    assert_eq!(rank("Ac 2d 3h 4s 5c"), Category::Straight.first_rank());
    assert!(rank("Ac 2d 3h 4s 5c") < rank("2c 3d 4h 5s 6c"));
    // Suits never break ties.
    assert_eq!(rank("As Kd Qh Jc 9s 2c 3d"), rank("Ah Kc Qd Js 9h 2d 3c"));
    // Seven cards: the better two pair, not three pair.
    assert_eq!(rank("As Ad Ks Kd Qs Qd 2c"), rank("As Ad Ks Kd Qs 3c 2c"));
}
