//! Rules of a hand pinned by small deterministic cases (each confirmed against OpenSpiel's
//! universal_poker, which runs ACPC's own legality checks).
use super::Card;
use super::acpc::{MatchState, write_to_bytes};
use super::rules::{Action, ActionError, HandState, HoldemConfig, Street};

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

#[test]
fn blinds_and_first_bounds() {
    let state = HandState::new(HoldemConfig::ACPC);
    assert_eq!(state.to_act(), Some(1));
    assert_eq!(state.spent(0), 100);
    assert_eq!(state.spent(1), 50);
    assert_eq!(state.raise_bounds(), Some((200, 20_000)));
    assert!(state.can_fold());
    assert_eq!(state.street(), Street::Preflop);
    let _ = card("As");
}

#[test]
fn matchstate_round_trip() {
    let line = "MATCHSTATE:1:31:r300r900:|JdTc";
    let parsed = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC).unwrap();
    let mut buffer = [0u8; 128];
    let n = write_to_bytes(&parsed, &mut buffer).unwrap();
    assert_eq!(&buffer[..n], line.as_bytes());
    let _ = ActionError::HistoryFull;
    let _ = Action::Call;
}
