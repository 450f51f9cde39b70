//! Hand ranks: one `u16` per five-card equivalence class, higher is better.
use core::fmt;

use super::tables::CATEGORY_START;

/// The class of a poker hand, 1 (7-5-4-3-2 unsuited) ..= 7462 (royal flush). Any two ranks
/// compare directly; suits never break ties.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct HandRank(u16);

impl HandRank {
    /// The lowest rank, 7-5-4-3-2 unsuited.
    pub const WORST: HandRank = HandRank(1);
    /// The highest rank, a royal flush.
    pub const BEST: HandRank = HandRank(7462);

    /// The rank with this number, if it is in 1..=7462.
    pub const fn new(value: u16) -> Option<HandRank> {
        if value >= Self::WORST.0 && value <= Self::BEST.0 {
            Some(HandRank(value))
        } else {
            None
        }
    }

    /// The rank a table of the evaluator gave, `None` for its 0 (no rank). One test where
    /// [`HandRank::new`] makes two: the tables hold nothing above 7462 (`tables.rs` asserts
    /// it at compile time).
    #[inline(always)]
    pub(crate) const fn from_table(value: u16) -> Option<HandRank> {
        if value == 0 {
            None
        } else {
            Some(HandRank(value))
        }
    }

    /// The number, 1..=7462.
    pub const fn get(self) -> u16 {
        self.0
    }

    /// The category this rank belongs to.
    pub const fn category(self) -> Category {
        Category::of(self.0).expect("a HandRank is always in 1..=7462")
    }
}

impl fmt::Display for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Hand categories, weakest first. The number is the C ABI's category code.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Category {
    HighCard = 0,
    OnePair = 1,
    TwoPair = 2,
    ThreeOfAKind = 3,
    Straight = 4,
    Flush = 5,
    FullHouse = 6,
    FourOfAKind = 7,
    StraightFlush = 8,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The category of a rank number, or `None` outside 1..=7462.
    pub const fn of(rank: u16) -> Option<Category> {
        if rank < HandRank::WORST.0 || rank > HandRank::BEST.0 {
            return None;
        }
        let mut index = Self::ALL.len() - 1;
        while CATEGORY_START[index] > rank {
            index -= 1;
        }
        Some(Self::ALL[index])
    }

    /// The first (lowest) rank in this category.
    pub const fn first_rank(self) -> HandRank {
        HandRank(CATEGORY_START[self as usize])
    }

    /// An English name, for example "full house".
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_bands_have_the_published_class_counts() {
        let counts = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10];
        let mut next = 1u16;
        for (category, count) in Category::ALL.into_iter().zip(counts) {
            assert_eq!(category.first_rank().get(), next, "{category}");
            next += count;
        }
        assert_eq!(next, 7463);
    }

    #[test]
    fn category_of_edges() {
        assert_eq!(Category::of(0), None);
        assert_eq!(Category::of(7463), None);
        assert_eq!(Category::of(1), Some(Category::HighCard));
        assert_eq!(Category::of(1277), Some(Category::HighCard));
        assert_eq!(Category::of(1278), Some(Category::OnePair));
        assert_eq!(Category::of(7462), Some(Category::StraightFlush));
        assert_eq!(HandRank::new(0), None);
        assert_eq!(HandRank::BEST.category(), Category::StraightFlush);
    }
}
