//! Heads-up no-limit Texas Hold'em: cards, the hand evaluator and the ACPC dealer's deal.
pub mod card;
pub mod deal;
pub mod equity;
pub mod eval;
pub mod hand_rank;
mod tables;

pub use card::{Card, CardParseError, CardParseErrorKind};
pub use equity::{
    COMBOS, Showdowns, WeightedShowdowns, combo_cards, combo_index, hand_vs_hand, hand_vs_range,
    range_vs_range,
};
pub use eval::{
    best_five, for_each_seven_card_rank, rank_bytes, rank_cards, rank5_unchecked, rank6_unchecked,
    rank7_batch, rank7_batch_unchecked, rank7_unchecked,
};
pub use hand_rank::{Category, HandRank};
pub use tables::TABLE_BYTES;
