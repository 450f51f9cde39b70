//! The rules of a hand, the ACPC text and the search interface pinned by small deterministic
//! cases. The betting rules were confirmed against OpenSpiel's universal_poker, which runs
//! ACPC's own legality checks (see tests/holdem_openspiel.rs for the wholesale comparison).
use super::Card;
use super::acpc::{
    AcpcErrorKind, LogLine, MatchState, Score, parse_reply, write_betting, write_to_bytes,
};
use super::game::{ActionAbstraction, HoldemGame, HoldemMove};
use super::rules::{
    Action, ActionError, ConfigError, DealError, HandState, HoldemConfig, MAX_ROUND_ACTIONS,
    PayoffError, Street,
};
use crate::search::mcts::{Config, Mcts, Node, Ucb1, seeded_rng};
use crate::search::{Game, Hidden, Turn};

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

fn cards<const N: usize>(text: &str) -> [Card; N] {
    let mut out = [Card::ALL[0]; N];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = card(&text[2 * i..2 * i + 2]);
    }
    out
}

fn acpc_hand() -> HandState {
    HandState::new(HoldemConfig::ACPC)
}

fn deal_board(state: &mut HandState, text: &str) {
    for i in 0..text.len() / 2 {
        state
            .deal_board_card(card(&text[2 * i..2 * i + 2]))
            .unwrap();
    }
}

fn play(state: &mut HandState, actions: &[Action]) {
    for &action in actions {
        state.apply(action).unwrap();
    }
}

fn betting(state: &HandState) -> String {
    let mut text = String::new();
    write_betting(state, &mut text).unwrap();
    text
}

use Action::{Call, Fold, RaiseTo};

#[test]
fn blinds_first_to_act_and_opening_bounds() {
    let state = acpc_hand();
    assert_eq!(
        (state.spent(0), state.spent(1), state.pot()),
        (100, 50, 150)
    );
    assert_eq!(
        state.to_act(),
        Some(1),
        "the small blind acts first preflop"
    );
    assert_eq!(state.raise_bounds(), Some((200, 20_000)));
    assert!(state.can_fold());
    assert_eq!(state.street(), Street::Preflop);
    assert_eq!(state.spent(2), 0, "no position 2");
}

#[test]
fn min_raise_chain_follows_the_largest_increment() {
    let mut state = acpc_hand();
    state.apply(RaiseTo(300)).unwrap(); // increment 200
    assert_eq!(state.raise_bounds(), Some((500, 20_000)));
    state.apply(RaiseTo(1000)).unwrap(); // increment 700
    assert_eq!(state.raise_bounds(), Some((1700, 20_000)));
    state.apply(RaiseTo(2000)).unwrap(); // increment 1000
    assert_eq!(state.raise_bounds(), Some((3000, 20_000)));
    assert_eq!(
        state.apply(RaiseTo(2999)),
        Err(ActionError::RaiseBelowMinimum {
            to: 2999,
            min: 3000
        })
    );
    assert_eq!(
        state.apply(RaiseTo(20_001)),
        Err(ActionError::RaiseAboveMaximum {
            to: 20_001,
            max: 20_000
        })
    );
    assert_eq!(betting(&state), "r300r1000r2000");
}

#[test]
fn big_blind_has_the_option_and_each_street_opens_at_one_big_blind() {
    let mut state = acpc_hand();
    state.apply(Call).unwrap(); // the small blind completes
    assert_eq!(state.to_act(), Some(0), "a limp does not close the round");
    assert!(!state.can_fold(), "nothing to face");
    assert_eq!(state.apply(Fold), Err(ActionError::FoldNotFacingBet));
    assert_eq!(state.raise_bounds(), Some((200, 20_000)));
    state.apply(Call).unwrap();
    assert_eq!(state.street(), Street::Flop);
    assert_eq!(state.to_act(), None, "the flop must be dealt first");
    assert_eq!(state.board_cards_due(), 3);
    assert_eq!(
        state.apply(Call),
        Err(ActionError::BoardNotDealt { missing: 3 })
    );
    deal_board(&mut state, "2c7d9h");
    assert_eq!(
        state.to_act(),
        Some(0),
        "the big blind acts first after the flop"
    );
    assert_eq!(state.raise_bounds(), Some((200, 20_000)));
    assert_eq!(state.apply(Fold), Err(ActionError::FoldNotFacingBet));
    state.apply(Call).unwrap();
    assert_eq!(
        state.street(),
        Street::Flop,
        "a check does not close the round"
    );
    state.apply(RaiseTo(400)).unwrap();
    assert_eq!(state.raise_bounds(), Some((700, 20_000)));
    state.apply(Call).unwrap();
    assert_eq!(state.street(), Street::Turn);
    assert_eq!(betting(&state), "cc/cr400c/");
}

#[test]
fn fold_pays_what_the_folder_put_in() {
    let mut state = acpc_hand();
    state.apply(Fold).unwrap();
    assert!(state.is_over());
    assert_eq!(state.payoffs(), Ok([50, -50]));
    assert_eq!(state.apply(Call), Err(ActionError::HandOver));

    let mut state = acpc_hand();
    play(&mut state, &[RaiseTo(300), RaiseTo(900), Fold]);
    assert_eq!(state.payoffs(), Ok([300, -300]));
    assert_eq!(state.folded(), Some(1));
    assert_eq!(state.board_cards_due(), 0, "no board after a fold");
}

#[test]
fn all_in_call_runs_the_board_out() {
    let mut state = acpc_hand();
    state.deal_hole_cards(0, cards("AsAh")).unwrap();
    state.deal_hole_cards(1, cards("KsKh")).unwrap();
    play(&mut state, &[RaiseTo(20_000)]);
    assert_eq!(state.raise_bounds(), None, "the opponent is all-in");
    state.apply(Call).unwrap();
    assert!(state.is_betting_over());
    assert!(!state.is_over());
    assert_eq!(
        state.street(),
        Street::River,
        "ACPC moves to the last round"
    );
    assert_eq!(betting(&state), "r20000c///");
    assert_eq!(state.board_cards_due(), 5);
    assert_eq!(state.to_act(), None);
    assert_eq!(state.apply(Call), Err(ActionError::BettingOver));
    assert_eq!(
        state.payoffs(),
        Err(PayoffError::BoardIncomplete { missing: 5 })
    );
    deal_board(&mut state, "2c7d9hJc3d");
    assert!(state.is_over());
    assert_eq!(state.payoffs(), Ok([20_000, -20_000]));
}

#[test]
fn all_in_for_less_leaves_only_call_or_fold() {
    // Position 1 has 730: after the big blind's raise to 500 (increment 400, so the minimum
    // re-raise would be 900) it can still go all-in to 730, and then nobody can raise.
    let config = HoldemConfig::new([20_000, 730], 100, 50).unwrap();
    let mut state = HandState::new(config);
    play(&mut state, &[Call, RaiseTo(500)]);
    assert_eq!(state.raise_bounds(), Some((730, 730)));
    state.apply(RaiseTo(730)).unwrap();
    assert_eq!(state.to_act(), Some(0));
    assert!(state.can_fold());
    assert_eq!(state.raise_bounds(), None);
    assert_eq!(
        state.apply(RaiseTo(1_000)),
        Err(ActionError::RaiseNotAllowed)
    );
    state.apply(Call).unwrap();
    assert_eq!(betting(&state), "cr500r730c///");
}

#[test]
fn calling_for_less_stakes_only_the_short_stack() {
    let config = HoldemConfig::new([20_000, 730], 100, 50).unwrap();
    let mut state = HandState::new(config);
    state.deal_hole_cards(0, cards("2c7d")).unwrap();
    state.deal_hole_cards(1, cards("AsAh")).unwrap();
    play(&mut state, &[Call, RaiseTo(5_000)]);
    assert_eq!(state.raise_bounds(), None, "calling takes the whole stack");
    state.apply(Call).unwrap();
    assert_eq!((state.spent(0), state.spent(1)), (5_000, 730));
    deal_board(&mut state, "KdQc9h5s3h");
    assert_eq!(state.payoffs(), Ok([-730, 730]));
}

#[test]
fn equal_hands_split_with_no_odd_chip() {
    let mut state = acpc_hand();
    state.deal_hole_cards(0, cards("2c3c")).unwrap();
    state.deal_hole_cards(1, cards("2d3d")).unwrap();
    play(&mut state, &[RaiseTo(333), Call]);
    deal_board(&mut state, "AsKsQs");
    play(&mut state, &[Call, Call]);
    deal_board(&mut state, "Js");
    play(&mut state, &[Call, Call]);
    deal_board(&mut state, "Ts");
    play(&mut state, &[Call, RaiseTo(1_001), Call]);
    assert!(state.is_over());
    assert_eq!(state.pot(), 2 * 1_001);
    assert_eq!(state.payoffs(), Ok([0, 0]));
}

#[test]
fn showdown_needs_both_hands() {
    let mut state = acpc_hand();
    state.deal_hole_cards(0, cards("AsAh")).unwrap();
    play(&mut state, &[RaiseTo(20_000), Call]);
    deal_board(&mut state, "2c7d9hJc3d");
    assert_eq!(state.payoffs(), Err(PayoffError::HoleCardsUnknown(1)));
    assert_eq!(acpc_hand().payoffs(), Err(PayoffError::HandNotOver));
}

#[test]
fn no_raise_once_a_round_holds_63_actions() {
    let config = HoldemConfig::new([200_000, 200_000], 10, 5).unwrap();
    let mut state = HandState::new(config);
    for _ in 0..MAX_ROUND_ACTIONS - 1 {
        let (min, _) = state.raise_bounds().unwrap();
        state.apply(RaiseTo(min)).unwrap();
    }
    assert_eq!(state.round_action_count(), 63);
    assert_eq!(state.raise_bounds(), None);
    assert_eq!(
        state.apply(RaiseTo(100_000)),
        Err(ActionError::RaiseNotAllowed)
    );
    state.apply(Call).unwrap();
    assert_eq!(state.street(), Street::Flop);
}

#[test]
fn cards_are_dealt_once() {
    let mut state = acpc_hand();
    state.deal_hole_cards(0, cards("AsAh")).unwrap();
    assert_eq!(
        state.deal_hole_cards(0, cards("KsKh")),
        Err(DealError::HoleCardsAlreadyDealt)
    );
    assert_eq!(
        state.deal_hole_cards(1, cards("KsAs")),
        Err(DealError::Duplicate(card("As")))
    );
    assert_eq!(
        state.deal_hole_cards(1, cards("KsKs")),
        Err(DealError::Duplicate(card("Ks")))
    );
    assert_eq!(
        state.deal_hole_cards(2, cards("KsKh")),
        Err(DealError::NoSuchPosition)
    );
    assert_eq!(
        state.deal_board_card(card("2c")),
        Err(DealError::NoBoardCardDue)
    );
    play(&mut state, &[Call, Call]);
    assert_eq!(
        state.deal_board_card(card("Ah")),
        Err(DealError::Duplicate(card("Ah")))
    );
    state.forget_hole_cards(0);
    state.deal_board_card(card("Ah")).unwrap();
    assert_eq!(state.hole_cards(0), None);
}

#[test]
fn configs_are_validated() {
    assert_eq!(HoldemConfig::default(), HoldemConfig::ACPC);
    assert_eq!(
        HoldemConfig::new([20_000, 20_000], 0, 0),
        Err(ConfigError::ZeroBigBlind)
    );
    assert_eq!(
        HoldemConfig::new([20_000, 20_000], 100, 101),
        Err(ConfigError::SmallBlindAboveBigBlind)
    );
    assert_eq!(
        HoldemConfig::new([100, 20_000], 100, 50),
        Err(ConfigError::StackNotAboveBigBlind)
    );
    assert_eq!(
        HoldemConfig::new([20_000, (1 << 30) + 1], 100, 50),
        Err(ConfigError::StackTooLarge)
    );
    assert!(HoldemConfig::new([101, 1 << 30], 100, 0).is_ok());
}

#[test]
fn error_messages_say_what_is_wrong() {
    let text = ActionError::RaiseBelowMinimum { to: 150, min: 200 }.to_string();
    assert_eq!(text, "raise to 150 is below the minimum 200");
    assert!(
        ActionError::FoldNotFacingBet
            .to_string()
            .contains("not facing a bet")
    );
    assert!(DealError::Duplicate(card("As")).to_string().contains("As"));
    assert!(ConfigError::ZeroBigBlind.to_string().contains("big blind"));
}

// ---- ACPC text ----

fn round_trip(line: &str) -> MatchState {
    let parsed = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC)
        .unwrap_or_else(|error| panic!("{line}: {error}"));
    assert_eq!(parsed.to_string(), line);
    let mut buffer = [0u8; 256];
    let n = write_to_bytes(&parsed, &mut buffer).unwrap();
    assert_eq!(&buffer[..n], line.as_bytes());
    parsed
}

#[test]
fn matchstate_lines_print_back_byte_identical() {
    let start = round_trip("MATCHSTATE:0:0::As2c|");
    assert!(start.state.to_act() == Some(1) && !start.is_my_turn());
    let raised = round_trip("MATCHSTATE:1:31:r300r900:|JdTc");
    assert!(raised.is_my_turn());
    assert_eq!(raised.state.raise_bounds(), Some((1500, 20_000)));
    let flop = round_trip("MATCHSTATE:0:5:cc/r250c/cc/r1000f:Ks2c|/7h8h9h/Th/2d");
    assert_eq!(flop.state.payoffs(), Ok([250, -250]));
    let all_in = round_trip("MATCHSTATE:1:7:r20000c///:|2hAc/2c3c4c/5c/6c");
    assert!(all_in.state.is_betting_over());
    let showdown = round_trip("MATCHSTATE:0:9:cc/cc/cc/cc:AsAh|KsKh/2c7d9h/Jc/3d");
    assert_eq!(showdown.state.payoffs(), Ok([100, -100]));
    round_trip("MATCHSTATE:0:4294967295:cc/:As2c|/2d2h2s");
}

#[test]
fn log_and_score_lines_round_trip() {
    // Position 0 checks, then folds to position 1's bet: it loses the 300 it put in.
    let line = "STATE:3:r300c/cr600f:9sKs|8dTc/2c7d9h:-300|300:Alice|Bob";
    let parsed = LogLine::parse(line, HoldemConfig::ACPC).unwrap();
    assert_eq!(parsed.values, [-300, 300]);
    assert_eq!(parsed.names, ["Alice", "Bob"]);
    assert_eq!(parsed.to_string(), line);
    let wrong = "STATE:3:r300c/cr600f:9sKs|8dTc/2c7d9h:300|-300:Alice|Bob";
    let error = LogLine::parse(wrong, HoldemConfig::ACPC).unwrap_err();
    assert_eq!(
        (error.kind(), error.column()),
        (AcpcErrorKind::WrongValues, 39)
    );
    let score = "SCORE:411841|-411841:Alice|Bob";
    assert_eq!(Score::parse(score).unwrap().to_string(), score);
    assert_eq!(
        Score::parse("SCORE:1|-1:Al ice|Bob").unwrap_err().kind(),
        AcpcErrorKind::BadName
    );
    assert_eq!(
        Score::parse("SCORE:-0|0:Alice|Bob").unwrap_err().kind(),
        AcpcErrorKind::BadNumber
    );
    for too_big in [
        "SCORE:99999999999999999999|1:Alice|Bob",
        "SCORE:9223372036854775808|1:Alice|Bob",
        "SCORE:-18446744073709551616|1:Alice|Bob",
    ] {
        assert_eq!(
            Score::parse(too_big).unwrap_err().kind(),
            AcpcErrorKind::BadNumber,
            "{too_big}"
        );
    }
    let largest = "SCORE:9223372036854775807|-9223372036854775807:Alice|Bob";
    assert_eq!(Score::parse(largest).unwrap().to_string(), largest);
}

#[test]
fn bad_lines_say_what_and_where() {
    let fails = |line: &str, kind: AcpcErrorKind, column: u32| {
        let error = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC).unwrap_err();
        assert_eq!(
            (error.kind(), error.column()),
            (kind, column),
            "{line}: {error}"
        );
    };
    use AcpcErrorKind::*;
    fails("MATCHSTAT:0:0::As2c|", ExpectedTag, 1);
    fails("MATCHSTATE:2:0::As2c|", BadPosition, 12);
    fails("MATCHSTATE:0:01::As2c|", BadNumber, 14);
    fails("MATCHSTATE:0:1:r0300:As2c|", BadNumber, 17);
    fails(
        "MATCHSTATE:0:1:r150:As2c|",
        IllegalAction(ActionError::RaiseBelowMinimum { to: 150, min: 200 }),
        16,
    );
    fails(
        "MATCHSTATE:0:1:cf:As2c|",
        IllegalAction(ActionError::FoldNotFacingBet),
        17,
    );
    fails("MATCHSTATE:0:1:x:As2c|", BadAction, 16);
    fails("MATCHSTATE:0:1:c/:As2c|", UnexpectedRoundEnd, 17);
    fails("MATCHSTATE:0:1:ccc:As2c|/2d2h2s", MissingRoundEnd, 18);
    fails("MATCHSTATE:0:1:cc:As2c|/2d2h2s", MissingRoundEnd, 18);
    fails("MATCHSTATE:0:1:cc/:As2c|", BoardTooShort, 25);
    fails("MATCHSTATE:0:1:cc/:As2c|/2d2h2s/3c", BoardTooLong, 33);
    fails(
        "MATCHSTATE:0:1:cc/:As2c|/2d2hAs",
        DuplicateCard(card("As")),
        30,
    );
    fails("MATCHSTATE:0:1::As2c|As3c", DuplicateCard(card("As")), 22);
    fails("MATCHSTATE:0:1::As2|", BadHoleCards, 17);
    fails("MATCHSTATE:0:1::As2x|", BadCard, 19);
    fails("MATCHSTATE:0:1::as2c|", BadCard, 17);
    fails("MATCHSTATE:0:1::AS2c|", BadCard, 17);
    fails("MATCHSTATE:0:1::As2c", MissingHandSeparator, 21);
    fails("MATCHSTATE:0:1:cc/:As2c|/2d2h", BadBoardStreet, 26);
    fails("MATCHSTATE:0:1::As2c|:c", TrailingText, 22);
    fails("MATCHSTATE:0", MissingField, 13);
    fails("MATCHSTATE:0:4294967296::As2c|", BadNumber, 14);
    fails("MATCHSTATE:0:1:r99999999999999999999:As2c|", BadNumber, 17);
    let error = MatchState::parse(b"MATCHSTATE:0:1:r150:As2c|", HoldemConfig::ACPC).unwrap_err();
    assert_eq!(
        error.to_string(),
        "raise to 150 is below the minimum 200 (at column 16)"
    );
}

#[test]
fn replies_accept_the_dealers_spellings() {
    let reply = |text: &str| parse_reply(text.as_bytes(), HoldemConfig::ACPC);
    let (state, action) = reply("MATCHSTATE:1:31:r300r900:|JdTc:c").unwrap();
    assert_eq!((state.hand_number, action), (31, Call));
    assert_eq!(reply("MATCHSTATE:1:31:r300r900:|JdTc:K").unwrap().1, Call);
    assert_eq!(reply("MATCHSTATE:1:31:r300r900:|JdTc:F").unwrap().1, Fold);
    assert_eq!(
        reply("MATCHSTATE:1:31:r300r900:|JdTc:b2000").unwrap().1,
        RaiseTo(2000)
    );
    assert_eq!(
        reply("MATCHSTATE:1:31:r300r900:|JdTc:R2000").unwrap().1,
        RaiseTo(2000)
    );
    assert_eq!(
        reply("MATCHSTATE:1:31:r300r900:|JdTc:r99999999999999999999999")
            .unwrap()
            .1,
        RaiseTo(u32::MAX)
    );
    for bad in [
        "MATCHSTATE:1:31:r300r900:|JdTc",
        "MATCHSTATE:1:31:r300r900:|JdTc:",
        "MATCHSTATE:1:31:r300r900:|JdTc:r",
        "MATCHSTATE:1:31:r300r900:|JdTc:x",
        "MATCHSTATE:1:31:r300r900:|JdTc:cc",
        "MATCHSTATE:1:31:r300r900:|JdTc: c",
    ] {
        assert!(reply(bad).is_err(), "{bad}");
    }
}

#[test]
fn hostile_text_never_panics() {
    // Lines glued from fragments of real ones, so that the parsers get deep before they fail.
    const FRAGMENTS: [&str; 24] = [
        "MATCHSTATE:",
        "STATE:",
        "SCORE:",
        "0",
        "1",
        ":",
        "|",
        "/",
        "c",
        "f",
        "r",
        "k",
        "b",
        "200",
        "20000",
        "99999999999999999999",
        "-",
        "As",
        "Kd",
        "2c",
        "Th",
        "x",
        "Alice",
        "é",
    ];
    let mut seed = 0x1234_5678_u64;
    for _ in 0..50_000 {
        let mut line = String::new();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut bits = seed;
        for _ in 0..(bits % 16) {
            bits = bits.rotate_right(5).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            line.push_str(FRAGMENTS[(bits >> 40) as usize % FRAGMENTS.len()]);
        }
        if seed & 1 == 0 {
            line.insert_str(0, "MATCHSTATE:0:1:");
        }
        let _ = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC);
        let _ = parse_reply(line.as_bytes(), HoldemConfig::ACPC);
        let _ = LogLine::parse(&line, HoldemConfig::ACPC);
        let _ = Score::parse(&line);
        for cut in 0..line.len() {
            let _ = MatchState::parse(&line.as_bytes()[..cut], HoldemConfig::ACPC);
        }
    }
}

// ---- the search interface ----

#[test]
fn deal_and_abstraction_moves() {
    let mut game = HoldemGame::new(HoldemConfig::ACPC, ActionAbstraction::default());
    let mut moves = <HoldemGame as Game>::Moves::default();
    assert_eq!(game.turn(), Turn::Chance);
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 52);
    for text in ["As", "Ah", "Ks", "Kh"] {
        game.play(HoldemMove::Deal(card(text)));
    }
    assert_eq!(game.hand().hole_cards(1), Some(cards("KsKh")));
    assert_eq!(game.turn(), Turn::Player(1));
    game.legal_moves(&mut moves);
    // Half the pot after calling (200) is the minimum raise; the pot is a raise to 300.
    assert_eq!(
        moves.as_slice(),
        [
            HoldemMove::Fold,
            HoldemMove::Call,
            HoldemMove::RaiseTo(200),
            HoldemMove::RaiseTo(300),
            HoldemMove::RaiseTo(20_000)
        ]
    );
    game.play(HoldemMove::RaiseTo(20_000));
    game.play(HoldemMove::Call);
    assert_eq!(game.turn(), Turn::Chance);
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 48);
    for text in ["2c", "7d", "9h", "Jc", "3d"] {
        game.play(HoldemMove::Deal(card(text)));
    }
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.returns(), [1.0, 0.0]);
}

#[test]
fn determinization_keeps_what_the_observer_saw() {
    let view = MatchState::parse(
        b"MATCHSTATE:1:3:cr300c/r600:|JdTc/2c7d9h",
        HoldemConfig::ACPC,
    )
    .unwrap();
    let game = HoldemGame::from_hand(view.state, ActionAbstraction::default());
    let mut rng = seeded_rng(7);
    let mut seen_opponent = std::collections::HashSet::new();
    for _ in 0..2_000 {
        let mut sample = game.clone();
        sample.determinize(1, &mut rng);
        let hand = sample.hand();
        assert_eq!(hand.hole_cards(1), Some(cards("JdTc")));
        assert_eq!(hand.board(), cards::<3>("2c7d9h"));
        let opponent = hand.hole_cards(0).expect("the opponent gets cards");
        let mut all: Vec<u8> = [opponent[0], opponent[1], card("Jd"), card("Tc")]
            .iter()
            .chain(hand.board())
            .map(|c| c.byte())
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 7, "a card dealt twice");
        assert_eq!(sample.info_key(1), game.info_key(1));
        assert_eq!(sample.turn(), Turn::Player(1));
        seen_opponent.insert(opponent);
    }
    assert!(seen_opponent.len() > 500, "the opponent's cards vary");
}

#[test]
fn mcts_searches_a_hand_without_panicking() {
    let mut nodes = vec![Node::default(); 50_000];
    let config = Config {
        solver: false,
        ..Config::default()
    };
    let policy = Ucb1::default();
    let mut rng = seeded_rng(11);
    // Both hands known (a perfect-information search), through the board's chance turns.
    let mut start = HoldemGame::new(HoldemConfig::ACPC, ActionAbstraction::default());
    for text in ["As", "Ah", "Ks", "Kh"] {
        start.play(HoldemMove::Deal(card(text)));
    }
    let mut tree = Mcts::new(&mut nodes);
    let found = tree
        .search(&start, &policy, &(), &config, 400, &mut rng)
        .unwrap();
    assert_eq!(found.stats.iterations, 400);
    // A player's view, by information-set search.
    let view = MatchState::parse(
        b"MATCHSTATE:1:3:cr300c/r600:|JdTc/2c7d9h",
        HoldemConfig::ACPC,
    )
    .unwrap();
    let game = HoldemGame::from_hand(view.state, ActionAbstraction::default());
    let mut tree = Mcts::new(&mut nodes);
    let found = tree
        .search_information_set(&game, &policy, &(), &config, 400, &mut rng)
        .unwrap();
    let mut legal = <HoldemGame as Game>::Moves::default();
    let mut dealt = game.clone();
    dealt.determinize(1, &mut rng);
    dealt.legal_moves(&mut legal);
    assert!(legal.contains(&found.best.unwrap()));
    assert_eq!(found.stats.iterations, 400);
}
