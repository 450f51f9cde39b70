use super::models::{CallModel, StrengthModel, UniformModel};
use super::*;
use crate::holdem::card::Card;
use crate::holdem::equity::hand_vs_range;
use crate::holdem::rules::HoldemConfig;

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

/// A hand where we (position 0) hold `hole`, both players checked or called through every
/// earlier round, and `board` (3 to 5 cards) is dealt: position 0 is first to act.
fn checked_to(hole: [&str; 2], board: &[&str]) -> HandState {
    let mut hand = HandState::new(HoldemConfig::ACPC);
    hand.deal_hole_cards(0, [card(hole[0]), card(hole[1])])
        .unwrap();
    let mut dealt = 0;
    loop {
        while hand.board_cards_due() > 0 {
            hand.deal_board_card(card(board[dealt])).unwrap();
            dealt += 1;
        }
        if dealt == board.len() {
            return hand;
        }
        hand.apply(Action::Call).unwrap();
    }
}

fn value_of(result: &SearchResult, class: ActionClass) -> f32 {
    result
        .values
        .iter()
        .find(|v| v.class == class)
        .map(|v| v.value)
        .unwrap()
}

/// The value of checking (stake 100 each) or betting `bet` more against a player who calls
/// everything: the stake times (wins - losses) over the uniform range, plus the 100 we had
/// in, from the independent range sweep of `equity.rs`.
fn call_station_value(hand: &HandState, stake: f32) -> f32 {
    let uniform = [1.0f32; COMBOS];
    let showdowns = hand_vs_range(hand.hole_cards(0).unwrap(), &uniform, hand.board()).unwrap();
    let total = showdowns.total() as f32;
    stake * (showdowns.win - showdowns.loss) as f32 / total + 100.0
}

#[test]
fn river_values_against_a_call_station_match_the_range_sweep() {
    let hand = checked_to(["Ah", "Td"], &["Kd", "7c", "2h", "Ts", "4d"]);
    let result = search(
        &hand,
        0,
        &Range::uniform(),
        &CallModel,
        &CallModel,
        SearchConfig::EXACT,
    )
    .unwrap();
    // Check: the 100 each already in. Half pot: 100 more each. Pot: 200 more.
    for (class, stake) in [
        (ActionClass::Call, 100.0),
        (ActionClass::SmallRaise, 200.0),
        (ActionClass::BigRaise, 300.0),
        (ActionClass::AllIn, 20_000.0),
    ] {
        let expected = call_station_value(&hand, stake);
        let got = value_of(&result, class);
        assert!(
            (got - expected).abs() < 1e-3 * stake,
            "{class:?}: {got} {expected}"
        );
    }
    // No fold when nothing is to be called.
    assert!(result.values.iter().all(|v| v.action != Action::Fold));
}

#[test]
fn turn_values_enumerate_every_river() {
    // Both players check the river down: the exact walk averages over every river card
    // and must agree with the sweep over all rivers.
    let hand = checked_to(["9s", "8s"], &["Kd", "7c", "2s", "Ts"]);
    let result = search(
        &hand,
        0,
        &Range::uniform(),
        &CallModel,
        &CallModel,
        SearchConfig::EXACT,
    )
    .unwrap();
    let expected = call_station_value(&hand, 100.0);
    let got = value_of(&result, ActionClass::Call);
    assert!((got - expected).abs() < 0.05, "{got} {expected}");
    // Every river (52 - 2 - 4 cards) below each of the four root actions.
    assert_eq!(result.values.len(), 4);
    assert_eq!(result.stats.boards, 4 * 46);
}

#[test]
fn sampled_values_converge_to_the_exact_ones_on_the_turn() {
    let hand = checked_to(["Qh", "Jh"], &["Kd", "7c", "2h", "Th"]);
    let model = StrengthModel::default();
    let run = |chance, seed| {
        let config = SearchConfig {
            chance,
            seed,
            ..SearchConfig::EXACT
        };
        search(&hand, 0, &Range::uniform(), &model, &model, config).unwrap()
    };
    let exact = run(ChanceMode::Exact, 0);
    let error = |cards_per_deal: u8| {
        let mut total = 0.0f32;
        for seed in 0..6 {
            let sampled = run(ChanceMode::Sampled { cards_per_deal }, seed);
            for (s, e) in sampled.values.iter().zip(&exact.values) {
                assert_eq!(s.action, e.action);
                total += (s.value - e.value).abs();
            }
        }
        total / (6 * exact.values.len()) as f32
    };
    let (few, more, all) = (error(4), error(16), error(46));
    assert!(few > 0.0, "sampling 4 of 46 rivers must differ somewhere");
    assert!(
        more < few,
        "error with 16 cards {more} not below 4 cards {few}"
    );
    assert!(all < 0.01, "sampling every card must be exact: {all}");
}

#[test]
fn the_nuts_never_fold_on_the_river() {
    // A royal flush, facing a pot-sized bet and then an all-in.
    let mut hand = checked_to(["As", "Ks"], &["Ts", "Js", "Qs", "2d", "3c"]);
    hand.apply(Action::Call).unwrap();
    hand.apply(Action::RaiseTo(300)).unwrap();
    for opponent in [&UniformModel as &dyn ActionModel, &StrengthModel::default()] {
        let result = search(
            &hand,
            0,
            &Range::uniform(),
            opponent,
            &StrengthModel::default(),
            SearchConfig::EXACT,
        )
        .unwrap();
        assert_ne!(result.best.action, Action::Fold);
        assert!(value_of(&result, ActionClass::Fold) < value_of(&result, ActionClass::Call));
    }
    let mut shoved = hand.clone();
    shoved.apply(Action::RaiseTo(1_000)).unwrap();
    shoved.apply(Action::RaiseTo(20_000)).unwrap();
    let result = search(
        &shoved,
        0,
        &Range::uniform(),
        &UniformModel,
        &UniformModel,
        SearchConfig::EXACT,
    )
    .unwrap();
    assert_eq!(result.best.action, Action::Call);
}

#[test]
fn a_hand_that_cannot_win_does_not_bet_into_a_call_station() {
    // The board plays for us (A K Q J 9): every holding ties or wins.
    let hand = checked_to(["2c", "3d"], &["As", "Kd", "Qh", "Jc", "9s"]);
    let result = search(
        &hand,
        0,
        &Range::uniform(),
        &CallModel,
        &StrengthModel::default(),
        SearchConfig::EXACT,
    )
    .unwrap();
    assert_eq!(result.best.action, Action::Call);
    for value in &result.values {
        if value.class.is_raise() {
            assert!(value.value < value_of(&result, ActionClass::Call));
        }
    }
}

#[test]
fn flop_search_samples_by_seed() {
    let hand = checked_to(["Ah", "Kh"], &["Kd", "7c", "2h"]);
    let model = StrengthModel::default();
    let config = |seed| SearchConfig {
        chance: ChanceMode::Sampled { cards_per_deal: 4 },
        seed,
        ..SearchConfig::EXACT
    };
    let run = |seed| search(&hand, 0, &Range::uniform(), &model, &model, config(seed)).unwrap();
    let (a, b, c) = (run(3), run(3), run(4));
    assert_eq!(a, b);
    assert_ne!(a.values, c.values);
    assert!(a.values.iter().all(|v| v.value.is_finite()));
    // Top pair, top kicker bets on a dry flop against the stand-in model.
    assert!(a.best.class.is_raise(), "{:?}", a.values);
}

#[test]
fn searches_that_cannot_run_say_why() {
    let model = UniformModel;
    let preflop = {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(1, [card("Ah"), card("Kh")]).unwrap();
        hand
    };
    let run = |hand: &HandState, me, range: &Range, config| {
        search(hand, me, range, &model, &model, config).err()
    };
    let exact = SearchConfig::EXACT;
    assert_eq!(
        run(&preflop, 1, &Range::uniform(), exact),
        Some(SearchError::Preflop)
    );
    let flop = checked_to(["Ah", "Kh"], &["Kd", "7c", "2h"]);
    assert_eq!(
        run(&flop, 1, &Range::uniform(), exact),
        Some(SearchError::NotOurTurn)
    );
    let mut unknown = flop.clone();
    unknown.forget_hole_cards(0);
    assert_eq!(
        run(&unknown, 0, &Range::uniform(), exact),
        Some(SearchError::HoleCardsUnknown)
    );
    // A range of only holdings that collide with our cards.
    let mut weights = [0.0f32; COMBOS];
    weights[crate::holdem::equity::combo_index(card("Ah"), card("Ad")).unwrap()] = 1.0;
    assert_eq!(
        run(&flop, 0, &Range::from_weights(weights), exact),
        Some(SearchError::EmptyRange)
    );
    let sampled = SearchConfig {
        chance: ChanceMode::Sampled { cards_per_deal: 2 },
        ..exact
    };
    assert_eq!(
        run(&flop, 0, &Range::uniform(), sampled),
        Some(SearchError::TooFewSamples)
    );
}

/// A flop spot whose search has several root actions, and its settings.
fn flop_spot() -> (HandState, SearchConfig) {
    let hand = checked_to(["Ah", "Kh"], &["Kd", "7c", "2h"]);
    let config = SearchConfig {
        chance: ChanceMode::Sampled { cards_per_deal: 3 },
        seed: 5,
        ..SearchConfig::EXACT
    };
    (hand, config)
}

/// The bits of every value, to compare results bit for bit.
fn value_bits(result: &SearchResult) -> Vec<(Action, u32)> {
    result
        .values
        .iter()
        .map(|v| (v.action, v.value.to_bits()))
        .collect()
}

#[test]
fn a_stop_that_never_fires_changes_nothing() {
    let (hand, config) = flop_spot();
    let model = StrengthModel::default();
    let range = Range::uniform();
    let plain = search(&hand, 0, &range, &model, &model, config).unwrap();
    let mut never = |_: u32| false;
    let until = search_until(&hand, 0, &range, &model, &model, config, &mut never).unwrap();
    assert_eq!(value_bits(&plain), value_bits(&until));
    assert_eq!(plain, until);
    assert!(!until.stopped);
    assert_eq!(until.values.len(), 4, "{:?}", until.values);
    assert!(until.stats.polls > 0);
}

#[test]
fn a_search_stopped_after_k_polls_answers_from_the_root_actions_it_finished() {
    let (hand, config) = flop_spot();
    let model = StrengthModel::default();
    let range = Range::uniform();
    let full = search(&hand, 0, &range, &model, &model, config).unwrap();
    let walk = Walk {
        me: 0,
        opponent: &model,
        own: &model,
        config,
        root_spent: hand.spent(0),
        stats: WalkStats::default(),
        stop: &mut crate::search::mcts::Never,
        stopped: false,
    };
    let (_, expert) = walk.own_choice(&hand);
    let total = full.stats.polls;
    let mut previous_measured = 0;
    for k in [0, 1, total / 4, total / 2, total * 3 / 4, total - 1] {
        let mut polls = 0u64;
        let mut after_k = |done: u32| {
            assert_eq!(u64::from(done), polls);
            polls += 1;
            polls > k
        };
        let cut = search_until(&hand, 0, &range, &model, &model, config, &mut after_k).unwrap();
        assert!(cut.stopped, "k = {k}");
        assert_eq!(
            cut.stats.polls,
            k + 1,
            "polled until it fired, then never again"
        );
        assert!(hand.is_legal(cut.best.action));
        assert!(cut.values.len() < full.values.len());
        // What it measured, it measured exactly, and it measured more with more polls.
        for value in &cut.values {
            assert!(full.values.contains(value), "{value:?}");
        }
        assert!(cut.values.len() >= previous_measured);
        previous_measured = cut.values.len();
        match cut.values.first() {
            // Nothing finished: the expert's action, unmeasured.
            None => {
                assert_eq!(cut.best.action, expert);
                assert!(cut.best.value.is_nan());
            }
            // The expert's action is measured first, and the best measured is played.
            Some(_) => {
                assert!(cut.values.iter().any(|v| v.action == expert));
                let top = cut.values.iter().map(|v| v.value).fold(f32::MIN, f32::max);
                assert_eq!(cut.best.value, top);
            }
        }
    }
    assert!(
        previous_measured > 0,
        "three quarters of the polls finish a root action"
    );
}

#[test]
fn a_search_cancelled_before_it_starts_plays_the_expert_action() {
    let (hand, config) = flop_spot();
    let model = StrengthModel::default();
    let flag = core::sync::atomic::AtomicBool::new(true);
    let mut cancel = crate::search::mcts::Cancel(&flag);
    let cut = search_until(
        &hand,
        0,
        &Range::uniform(),
        &model,
        &model,
        config,
        &mut cancel,
    )
    .unwrap();
    assert!(cut.stopped && cut.values.is_empty());
    assert_eq!(cut.stats.polls, 1);
    assert!(hand.is_legal(cut.best.action));
    assert!(cut.best.value.is_nan());
}
