//! Heads-up no-limit Texas Hold'em: cards, the hand evaluator, the ACPC dealer's deal, the
//! rules of a hand, ACPC text, a hand as a game for the searches, exact equity, baseline
//! bots and the statistics of duplicate matches.
pub mod acpc;
pub mod bots;
pub mod card;
pub mod deal;
pub mod equity;
pub mod eval;
pub mod expert;
pub mod game;
pub mod hand_rank;
pub mod learned;
pub mod model;
pub mod paired;
pub mod policy;
pub mod range;
pub mod resolve;
pub mod rules;
pub mod search;
mod tables;
#[cfg(test)]
mod tests_rules;

pub use card::{Card, CardParseError, CardParseErrorKind};
pub use equity::{
    COMBOS, Showdowns, WeightedShowdowns, combo_cards, combo_index, hand_vs_hand, hand_vs_range,
    range_vs_range,
};
pub use eval::{
    best_five, for_each_seven_card_rank, rank_bytes, rank_cards, rank5_unchecked, rank6_unchecked,
    rank7_batch, rank7_batch_unchecked, rank7_unchecked,
};
pub use game::{ActionAbstraction, HoldemGame, HoldemMove};
pub use hand_rank::{Category, HandRank};
pub use policy::{ACTION_CLASSES, ActionClass, ActionModel, ClassProbabilities};
pub use range::Range;
pub use rules::{
    Action, ActionError, Chips, ConfigError, DealError, HandState, HoldemConfig, MAX_ACTIONS,
    MAX_ROUND_ACTIONS, MAX_STACK, PayoffError, Position, Street,
};
pub use tables::TABLE_BYTES;
