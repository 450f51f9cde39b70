use super::features::{BETTING_PLANE, BOARD_PLANE, CHIPS_PLANE, HOLE_PLANE, encode};
use super::*;
use crate::holdem::card::Card;
use crate::holdem::policy::{ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::{Action, HandState, HoldemConfig};
use rand_core::Rng;

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

/// A hand with hole cards AhKh (position 1) and 7c7d (position 0) after `actions`, the
/// board 2h 9h Tc | Js | 3d dealt when due.
fn hand_after(actions: &[Action]) -> HandState {
    let mut hand = HandState::new(HoldemConfig::ACPC);
    hand.deal_hole_cards(1, [card("Ah"), card("Kh")]).unwrap();
    hand.deal_hole_cards(0, [card("7c"), card("7d")]).unwrap();
    let board = ["2h", "9h", "Tc", "Js", "3d"];
    for &action in actions {
        while hand.board_cards_due() > 0 {
            let next = board[hand.board().len()];
            hand.deal_board_card(card(next)).unwrap();
        }
        hand.apply(action).unwrap();
    }
    while hand.board_cards_due() > 0 {
        let next = board[hand.board().len()];
        hand.deal_board_card(card(next)).unwrap();
    }
    hand
}

fn random_weights(seed: u64) -> CnnWeights {
    let mut rng = crate::search::game::seeded_rng(seed);
    let mut weights = CnnWeights::ZERO;
    let mut draw = || (rng.next_u32() as f32 / u32::MAX as f32 - 0.5) * 0.4;
    for filter in &mut weights.conv1 {
        filter
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|w| *w = draw());
    }
    for filter in &mut weights.conv2 {
        filter
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|w| *w = draw());
    }
    weights.dense.iter_mut().flatten().for_each(|w| *w = draw());
    weights.conv1_bias.iter_mut().for_each(|w| *w = draw());
    weights.dense_bias.iter_mut().for_each(|w| *w = draw());
    weights
}

#[test]
fn the_planes_hold_the_actors_cards_the_board_and_the_betting() {
    // Preflop raise, call; on the flop position 0 checks: position 1 to act.
    let hand = hand_after(&[Action::RaiseTo(300), Action::Call, Action::Call]);
    assert_eq!(hand.to_act(), Some(1));
    let planes = encode(&hand, 1, hand.hole_cards(1).unwrap());
    let hole = &planes[HOLE_PLANE];
    // Hearts are suit 2 in arbor's order (c d h s); the ace is rank 12.
    let (hearts, ace, king) = (
        usize::from(card("Ah").suit()),
        usize::from(card("Ah").rank()),
        usize::from(card("Kh").rank()),
    );
    assert_eq!(hole[hearts][ace], 1.0);
    assert_eq!(hole[hearts][king], 1.0);
    assert_eq!(hole.iter().flatten().filter(|&&v| v != 0.0).count(), 4);
    let board = &planes[BOARD_PLANE];
    assert_eq!(
        board[..4].iter().flatten().filter(|&&v| v == 1.0).count(),
        3
    );
    assert_eq!(
        board[11..].iter().flatten().filter(|&&v| v != 0.0).count(),
        0
    );
    let betting = &planes[BETTING_PLANE];
    // The preflop raise to 300 (pot after calling 200, increment 200 > 150) is a big
    // raise by the actor; the call was the opponent's; the flop check the opponent's.
    assert_eq!(betting[ActionClass::BigRaise.index()][0], 1.0);
    assert_eq!(betting[ActionClass::Call.index()][1], -1.0);
    assert_eq!(betting[5 + ActionClass::Call.index()][0], -1.0);
    let chips = &planes[CHIPS_PLANE];
    // Each put 300 in preflop, of a pot of 600; nothing on the flop; nothing to call.
    assert_eq!(chips[0][0], 0.5);
    assert_eq!(chips[4][0], 0.5);
    assert_eq!(chips[0][5], 0.0);
    assert_eq!(chips[8][0], 0.0);
    assert_eq!(chips[12][0], 0.0, "position 1 is the small blind");
    assert_eq!(chips[16][5], 1.0, "the flop is being played");
    assert!(
        planes
            .iter()
            .flatten()
            .flatten()
            .all(|v| (-1.0..=1.0).contains(v))
    );
}

#[test]
fn the_prepared_path_agrees_with_the_full_network() {
    let weights = random_weights(5);
    let model = CnnModel::new(&weights);
    let hand = hand_after(&[Action::RaiseTo(300), Action::RaiseTo(900)]);
    let prepared = model.prepare(&hand).unwrap();
    let legal = legal_classes(&hand);
    for hole in [["As", "Ad"], ["2c", "7d"], ["Jh", "Th"]] {
        let hole = hole.map(card);
        let full = model.predict_planes(&encode(&hand, 1, hole), legal);
        let fast = prepared.predict(hole);
        for (a, b) in full.iter().zip(&fast) {
            assert!((a - b).abs() < 1e-5, "{full:?} {fast:?}");
        }
        assert!((fast.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
    // Different holdings give different predictions.
    let a = prepared.predict([card("As"), card("Ad")]);
    let b = prepared.predict([card("2c"), card("7d")]);
    assert_ne!(a, b);
}

#[test]
fn the_caching_cnn_gives_exactly_what_the_cnn_gives() {
    let weights = random_weights(6);
    let model = CnnModel::new(&weights);
    let caching = CachingCnn::new(model);
    // Two situations in turn, several holdings each, so the cache is hit and replaced.
    let first = hand_after(&[Action::RaiseTo(300), Action::RaiseTo(900)]);
    let second = hand_after(&[Action::RaiseTo(300), Action::Call, Action::Call]);
    for situation in [&first, &second, &first] {
        let actor = situation.to_act().unwrap();
        for hole in [["As", "Ad"], ["4c", "5c"], ["Qs", "8d"]] {
            let mut hand = situation.clone();
            hand.forget_hole_cards(actor);
            hand.deal_hole_cards(actor, hole.map(card)).unwrap();
            assert_eq!(caching.predict(&hand), model.predict(&hand));
        }
    }
}

#[test]
fn impossible_classes_get_nothing() {
    let weights = random_weights(9);
    // Position 0 may check after the small blind's call: no fold.
    let checked = hand_after(&[Action::Call]);
    // Facing an all-in: fold or call only.
    let shoved = hand_after(&[Action::RaiseTo(20_000)]);
    let models: [&dyn ActionModel; 4] = [
        &CnnModel::new(&weights),
        &FrequencyModel::new(),
        &MarginalModel::new(),
        &CnnModel::shipped(),
    ];
    for model in models {
        let p = model.predict(&checked);
        assert_eq!(p[0], 0.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let p = model.predict(&shoved);
        assert_eq!(&p[2..], &[0.0; 3]);
        assert!(p[0] > 0.0 && p[1] > 0.0);
    }
    let over = hand_after(&[Action::Fold]);
    assert_eq!(CnnModel::new(&weights).predict(&over), [0.0; 5]);
}

#[test]
fn the_frequency_model_learns_the_sequence_and_backs_off() {
    let mut model = FrequencyModel::new();
    let start = hand_after(&[]);
    let after_raise = hand_after(&[Action::RaiseTo(300)]);
    for _ in 0..50 {
        model.observe(&start, ActionClass::BigRaise);
        model.observe(&after_raise, ActionClass::Fold);
    }
    assert!(model.predict(&start)[ActionClass::BigRaise.index()] > 0.9);
    assert!(model.predict(&after_raise)[ActionClass::Fold.index()] > 0.9);
    // An unseen preflop sequence falls back on the street's counts (half raises, half
    // folds), which the masks then shape.
    let unseen = hand_after(&[Action::Call]);
    let p = model.predict(&unseen);
    assert_eq!(p[0], 0.0);
    assert!(p[ActionClass::BigRaise.index()] > 0.5, "{p:?}");
    // A flop never seen: uniform over the legal classes.
    let flop = hand_after(&[Action::Call, Action::Call]);
    let p = model.predict(&flop);
    assert!((p[1] - 0.25).abs() < 1e-5, "{p:?}");
}

#[test]
fn the_online_model_adapts_to_an_always_raising_opponent() {
    let mut prior = FrequencyModel::new();
    let start = hand_after(&[]);
    let flop = hand_after(&[Action::Call, Action::Call]);
    // The population mostly calls.
    for _ in 0..1_000 {
        prior.observe(&start, ActionClass::Call);
        prior.observe(&flop, ActionClass::Call);
    }
    let mut online = OnlineModel::new(prior.clone(), 10.0);
    assert!(online.predict(&start)[ActionClass::Call.index()] > 0.9);
    for _ in 0..40 {
        online.observe(&start, Action::RaiseTo(20_000));
    }
    let p = online.predict(&start);
    assert!(p[ActionClass::AllIn.index()] > 0.75, "{p:?}");
    assert_eq!(online.observations(&start), 40.0);
    // Another situation keeps the prior.
    assert!(online.predict(&flop)[ActionClass::Call.index()] > 0.9);
    online.reset();
    assert!(online.predict(&start)[ActionClass::Call.index()] > 0.9);
}

/// Raises 80% of the time with a pair, 10% otherwise; calls the rest.
struct PairsRaiseMore;

impl ActionModel for PairsRaiseMore {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let pair = hand
            .to_act()
            .and_then(|actor| hand.hole_cards(actor))
            .is_some_and(|[a, b]| a.rank() == b.rank());
        let raise = if pair { 0.8 } else { 0.1 };
        normalise_legal([0.0, 1.0 - raise, raise, 0.0, 0.0], legal_classes(hand))
    }
}

/// `hand` with the player to act holding `cards` instead.
fn holding(hand: &HandState, cards: [&str; 2]) -> HandState {
    let mut hand = hand.clone();
    let actor = hand.to_act().unwrap();
    hand.forget_hole_cards(actor);
    hand.deal_hole_cards(actor, [card(cards[0]), card(cards[1])])
        .unwrap();
    hand
}

#[test]
fn the_online_model_keeps_the_priors_reading_of_the_cards() {
    let start = hand_after(&[]);
    let unseen = {
        let mut hand = start.clone();
        hand.forget_hole_cards(hand.to_act().unwrap());
        hand
    };
    let (pair, other) = (holding(&start, ["Qs", "Qd"]), holding(&start, ["Qs", "8d"]));
    let odds = |model: &OnlineModel<PairsRaiseMore>, hand: &HandState| {
        let p = model.predict(hand);
        p[ActionClass::SmallRaise.index()] / p[ActionClass::Call.index()]
    };
    let mut online = OnlineModel::new(PairsRaiseMore, 10.0);
    // The prior: a raise is 36 times likelier, in odds, from a pair.
    let ratio = odds(&online, &pair) / odds(&online, &other);
    assert!((ratio - 36.0).abs() < 1e-3, "{ratio}");
    // An opponent that only calls, its cards never seen.
    for _ in 0..200 {
        online.observe(&unseen, Action::Call);
    }
    assert_eq!(online.observations(&start), 200.0);
    // Every holding now calls, so a call says little about the cards (the prior: 0.2
    // from a pair, 0.9 from another hand)...
    let call = ActionClass::Call.index();
    let (from_pair, from_other) = (online.predict(&pair)[call], online.predict(&other)[call]);
    assert!(
        from_pair > 0.85 && from_other > 0.99,
        "{from_pair} {from_other}"
    );
    // ... while the odds between two holdings are still the prior's.
    let ratio = odds(&online, &pair) / odds(&online, &other);
    assert!((ratio - 36.0).abs() < 1e-2, "{ratio}");
    // The prior's expectation for shown cards is theirs: a pair that raised once
    // surprises the model less than an unknown hand that raised.
    let mut shown = OnlineModel::new(PairsRaiseMore, 10.0);
    let mut hidden = OnlineModel::new(PairsRaiseMore, 10.0);
    shown.observe_class(&pair, ActionClass::SmallRaise);
    hidden.observe_class(&unseen, ActionClass::SmallRaise);
    let raise = ActionClass::SmallRaise.index();
    assert!(shown.scales(&start)[raise] < hidden.scales(&start)[raise]);
    assert!(shown.scales(&start)[raise] > 1.0);
}

#[test]
fn normalising_survives_bad_weights() {
    let legal = [false, true, true, false, false];
    assert_eq!(
        normalise_legal([f32::NAN, 0.0, 0.0, 1.0, -1.0], legal),
        [0.0, 0.5, 0.5, 0.0, 0.0]
    );
    assert_eq!(normalise_legal([1.0; 5], [false; 5]), [0.0; 5]);
    let p = softmax_legal([1000.0, 1.0, 1.0, -1000.0, 3.0], legal);
    assert!((p[1] - 0.5).abs() < 1e-6 && p[0] == 0.0);
    assert_eq!(
        most_likely(&[0.1, 0.2, 0.6, 0.1, 0.0]),
        ActionClass::SmallRaise
    );
}
