//! Every five-, six- and seven-card hand: category counts and class counts against the
//! published totals (copied from ../shared/reference/poker-hands.md).
use arbor::holdem::{
    Category, HandRank, for_each_seven_card_rank, rank5_unchecked, rank6_unchecked,
};

/// Per category, high card first: (5-card hands, 5-card classes, 6-card hands,
/// 7-card hands, 7-card classes).
const EXPECTED: [(u64, usize, u64, u64, usize); 9] = [
    (1_302_540, 1277, 6_612_900, 23_294_460, 407),
    (1_098_240, 2860, 9_730_740, 58_627_800, 1470),
    (123_552, 858, 2_532_816, 31_433_400, 763),
    (54_912, 858, 732_160, 6_461_620, 575),
    (10_200, 10, 361_620, 6_180_020, 10),
    (5_108, 1277, 205_792, 4_047_644, 1277),
    (3_744, 156, 165_984, 3_473_184, 156),
    (624, 156, 14_664, 224_848, 156),
    (40, 10, 1_844, 41_584, 10),
];

struct Tally {
    hands: [u64; 9],
    seen: Vec<bool>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            hands: [0; 9],
            seen: vec![false; 7463],
        }
    }

    fn add(&mut self, rank: u16) {
        let category = HandRank::new(rank)
            .unwrap_or_else(|| panic!("rank {rank} out of range"))
            .category();
        self.hands[category as usize] += 1;
        self.seen[rank as usize] = true;
    }

    fn classes(&self, category: Category) -> usize {
        let first = category.first_rank().get() as usize;
        let end = Category::ALL
            .get(category as usize + 1)
            .map_or(7463, |next| next.first_rank().get() as usize);
        self.seen[first..end].iter().filter(|&&seen| seen).count()
    }

    fn total_classes(&self) -> usize {
        self.seen.iter().filter(|&&seen| seen).count()
    }
}

/// Calls `visit` with every `n`-card combination of the 52 cards.
fn for_each_combination<const N: usize>(mut visit: impl FnMut(&[u8; N])) {
    let mut hand = [0u8; N];
    for (i, card) in hand.iter_mut().enumerate() {
        *card = i as u8;
    }
    loop {
        visit(&hand);
        let mut i = N;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if (hand[i] as usize) < 52 - N + i {
                break;
            }
        }
        hand[i] += 1;
        for j in i + 1..N {
            hand[j] = hand[j - 1] + 1;
        }
    }
}

#[test]
fn all_five_card_hands() {
    let mut tally = Tally::new();
    for_each_combination(|hand: &[u8; 5]| tally.add(rank5_unchecked(hand)));
    assert_eq!(tally.hands.iter().sum::<u64>(), 2_598_960);
    for category in Category::ALL {
        let (hands, classes, ..) = EXPECTED[category as usize];
        assert_eq!(tally.hands[category as usize], hands, "{category} hands");
        assert_eq!(tally.classes(category), classes, "{category} classes");
    }
    assert_eq!(tally.total_classes(), 7462);
}

#[test]
fn all_six_card_hands() {
    let mut tally = Tally::new();
    for_each_combination(|hand: &[u8; 6]| tally.add(rank6_unchecked(hand)));
    assert_eq!(tally.hands.iter().sum::<u64>(), 20_358_520);
    for category in Category::ALL {
        assert_eq!(
            tally.hands[category as usize], EXPECTED[category as usize].2,
            "{category} hands"
        );
    }
    assert_eq!(tally.total_classes(), 6075);
}

#[test]
fn all_seven_card_hands() {
    let mut tally = Tally::new();
    for_each_seven_card_rank(|rank| tally.add(rank));
    assert_eq!(tally.hands.iter().sum::<u64>(), 133_784_560);
    for category in Category::ALL {
        let (.., hands, classes) = EXPECTED[category as usize];
        assert_eq!(tally.hands[category as usize], hands, "{category} hands");
        assert_eq!(tally.classes(category), classes, "{category} classes");
    }
    assert_eq!(tally.total_classes(), 4824);
}

#[test]
fn incremental_enumeration_matches_the_one_shot_path() {
    let mut expected = Vec::with_capacity(133_784_560);
    for_each_combination(|hand: &[u8; 7]| expected.push(arbor::holdem::rank7_unchecked(hand)));
    let mut index = 0;
    for_each_seven_card_rank(|rank| {
        assert_eq!(rank, expected[index], "hand {index}");
        index += 1;
    });
    assert_eq!(index, expected.len());
}
