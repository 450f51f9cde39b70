//! An opponent model asked once per bucket of similar holdings in each situation, for
//! models too slow to ask about every holding at every opponent node of a search (the CNN
//! costs about 2.6 µs a holding, the expert model 0.14 µs).
//!
//! A holding's bucket is its made-hand strength with the board (its rank over the best
//! rank, cut into `levels` equal steps) and, before the river, whether it holds a flush
//! draw (four of a suit with the board, one of them its own). Every holding of a bucket
//! gets the prediction of the first one asked in that situation; the search asks in holding
//! order, so that is the bucket's lowest-index live holding, and the result is
//! deterministic. Situations without a board (preflop) are asked holding by holding.
use core::cell::RefCell;

use super::models::StrengthModel;
use crate::holdem::policy::{ActionModel, ClassProbabilities};
use crate::holdem::rules::HandState;

/// The most strength levels (a level then spans about 116 of the 7,462 hand ranks).
pub const MAX_STRENGTH_LEVELS: u8 = 64;

/// Buckets at the most levels: each level with and without a flush draw.
const KEYS: usize = 2 * MAX_STRENGTH_LEVELS as usize;

/// `model` asked once per bucket of holdings in each situation.
pub struct Bucketed<'a> {
    model: &'a dyn ActionModel,
    levels: u8,
    cache: RefCell<Cache>,
}

/// The predictions of the last situation asked about, by bucket.
struct Cache {
    situation: Option<HandState>,
    known: [Option<ClassProbabilities>; KEYS],
}

impl<'a> Bucketed<'a> {
    /// `model` with holdings bucketed into `levels` strength steps (clamped to 1 ..=
    /// [`MAX_STRENGTH_LEVELS`]), each split by flush draws.
    pub fn new(model: &'a dyn ActionModel, levels: u8) -> Bucketed<'a> {
        Bucketed {
            model,
            levels: levels.clamp(1, MAX_STRENGTH_LEVELS),
            cache: RefCell::new(Cache {
                situation: None,
                known: [None; KEYS],
            }),
        }
    }

    /// The bucket of the player to act's holding in `hand` (below `2 * levels`), or `None`
    /// when nobody is to act, the holding is unknown or there is no board.
    pub fn bucket(hand: &HandState, levels: u8) -> Option<usize> {
        let levels = levels.clamp(1, MAX_STRENGTH_LEVELS);
        let hole = hand.hole_cards(hand.to_act()?)?;
        let board = hand.board();
        if board.len() < 3 {
            return None;
        }
        let strength = StrengthModel::strength(hand);
        let level = ((strength * f32::from(levels)) as usize).min(usize::from(levels) - 1);
        let flush_draw = board.len() < 5
            && hole.iter().any(|own| {
                let suited = |card: &&crate::holdem::card::Card| card.suit() == own.suit();
                hole.iter().filter(suited).count() + board.iter().filter(suited).count() == 4
            });
        Some(2 * level + usize::from(flush_draw))
    }
}

impl ActionModel for Bucketed<'_> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let Some(key) = Self::bucket(hand, self.levels) else {
            return self.model.predict(hand);
        };
        let mut cache = self.cache.borrow_mut();
        let same = cache
            .situation
            .as_ref()
            .is_some_and(|situation| situation.same_but_hole_cards(hand));
        if !same {
            cache.situation = Some(hand.clone());
            cache.known = [None; KEYS];
        }
        *cache.known[key].get_or_insert_with(|| self.model.predict(hand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::{Action, HoldemConfig};

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    /// A flop after a limp and a check, the first player after the flop to act.
    fn flop(board: [&str; 3]) -> HandState {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for text in board {
            hand.deal_board_card(card(text)).unwrap();
        }
        hand
    }

    /// Predicts from the holding's bucket alone, so bucketing loses nothing.
    struct ByBucket(u8);

    impl ActionModel for ByBucket {
        fn predict(&self, hand: &HandState) -> ClassProbabilities {
            let key = Bucketed::bucket(hand, self.0).map_or(0.0, |key| key as f32);
            [0.0, 1.0, key, 0.5, 0.0]
        }
    }

    #[test]
    fn a_bucket_shares_its_first_holdings_prediction_until_the_situation_changes() {
        let model = StrengthModel::default();
        let bucketed = Bucketed::new(&model, 8);
        let hand = flop(["Kd", "7c", "2h"]);
        let actor = hand.to_act().unwrap();
        let with = |hand: &HandState, cards: [&str; 2]| {
            let mut hand = hand.clone();
            hand.deal_hole_cards(actor, [card(cards[0]), card(cards[1])])
                .unwrap();
            hand
        };
        let kings = with(&hand, ["Ks", "Qs"]);
        let other_kings = with(&hand, ["Kh", "Jc"]);
        assert_eq!(
            Bucketed::bucket(&kings, 8),
            Bucketed::bucket(&other_kings, 8)
        );
        let first = bucketed.predict(&kings);
        assert_eq!(first, model.predict(&kings));
        assert_eq!(bucketed.predict(&other_kings), first);
        // Air is another bucket, asked of the model itself.
        let air = with(&hand, ["4s", "3d"]);
        assert_ne!(Bucketed::bucket(&air, 8), Bucketed::bucket(&kings, 8));
        assert_eq!(bucketed.predict(&air), model.predict(&air));
        // After a bet the situation is new: its first holding is asked again.
        let mut bet = hand.clone();
        bet.apply(Action::RaiseTo(400)).unwrap();
        let facing = with(&bet, ["Kh", "Jc"]);
        assert_eq!(bucketed.predict(&facing), model.predict(&facing));
        // Preflop every holding is asked of the model.
        let mut preflop = HandState::new(HoldemConfig::ACPC);
        preflop
            .deal_hole_cards(1, [card("Ah"), card("Ad")])
            .unwrap();
        assert_eq!(Bucketed::bucket(&preflop, 8), None);
        assert_eq!(bucketed.predict(&preflop), model.predict(&preflop));
    }

    #[test]
    fn flush_draws_and_strength_levels_split_buckets() {
        let hand = flop(["Kd", "7d", "2h"]);
        let actor = hand.to_act().unwrap();
        let bucket = |cards: [&str; 2], levels: u8| {
            let mut hand = hand.clone();
            hand.deal_hole_cards(actor, [card(cards[0]), card(cards[1])])
                .unwrap();
            Bucketed::bucket(&hand, levels).unwrap()
        };
        // Two diamonds with the board's two: a draw; the same ranks off suit: none.
        assert_eq!(bucket(["Ad", "4d"], 8), bucket(["Ac", "4s"], 8) + 1);
        // One level: strength alone no longer separates a pair of kings from air.
        assert_eq!(bucket(["Ks", "Qs"], 1), bucket(["4s", "3c"], 1));
        assert!(bucket(["Ks", "Qs"], 64) > bucket(["4s", "3c"], 64));
        assert!(bucket(["Ks", "Qs"], 64) < 2 * usize::from(MAX_STRENGTH_LEVELS));
    }

    #[test]
    fn a_model_of_the_bucket_alone_searches_the_same_bucketed_or_not() {
        use crate::holdem::range::Range;
        use crate::holdem::search::{SearchConfig, search};
        // A turn checked to: the first to act searches exactly over the 46 rivers.
        let mut hand = flop(["Kd", "7c", "2h"]);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.deal_board_card(card("9s")).unwrap();
        let me = hand.to_act().unwrap();
        hand.deal_hole_cards(me, [card("Ah"), card("Kh")]).unwrap();
        let model = ByBucket(16);
        let own = StrengthModel::default();
        let range = Range::uniform();
        let exact = search(&hand, me, &range, &model, &own, SearchConfig::EXACT).unwrap();
        let bucketed = Bucketed::new(&model, 16);
        let shared = search(&hand, me, &range, &bucketed, &own, SearchConfig::EXACT).unwrap();
        assert_eq!(shared, exact);
        // The raise branches were walked, so the buckets' predictions mattered.
        assert!(exact.stats.nodes > 100, "{:?}", exact.stats);
    }
}
