//! One hand at the dealer's table: deal the reference dealer's cards, ask the seat whose
//! position acts, correct invalid actions as the reference dealer does (a raise out of range
//! is clamped, any other invalid action becomes a call, each with a `WARNING:` line), keep
//! the clients informed, and return the log line, the chips and the latencies.
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::seat::{Answer, Seat, SeatError};
use crate::holdem::acpc::{LogLine, MatchState, parse_reply};
use crate::holdem::deal::Deal;
use crate::holdem::rules::{Action, HandState, HoldemConfig, Position};

/// The position seat `seat` holds in hand `hand`: seats rotate every hand, so seat 0 is the
/// big blind (position 0) in even hands. With two seats the same formula maps a position
/// back to its seat.
pub fn position_of(seat: usize, hand: u64) -> Position {
    ((seat as u64 + hand) % 2) as Position
}

/// A finished hand.
#[derive(Clone, Debug, PartialEq)]
pub struct HandRecord {
    /// The `STATE:` line of the dealer's log.
    pub log_line: String,
    /// Chips won by seat 0 and seat 1.
    pub chips: [i64; 2],
    /// Invalid actions corrected in this hand.
    pub warnings: u32,
    /// Each seat's time per action, in nanoseconds.
    pub latency_ns: [Vec<u64>; 2],
}

/// Why a hand stopped: the seat at fault and what went wrong.
#[derive(Debug)]
pub struct HandError {
    pub seat: usize,
    pub error: SeatError,
}

/// What the dealer does with an action: play it, or play a corrected one with a warning.
pub fn correct(state: &HandState, action: Action) -> (Action, Option<String>) {
    let invalid = || {
        (
            Action::Call,
            Some("invalid action, changed to call".to_owned()),
        )
    };
    match action {
        Action::RaiseTo(to) => match state.raise_bounds() {
            Some((low, _)) if to < low => (
                Action::RaiseTo(low),
                Some(format!("raise of {to} increased to {low}")),
            ),
            Some((_, high)) if to > high => (
                Action::RaiseTo(high),
                Some(format!("raise of {to} decreased to {high}")),
            ),
            Some(_) => (action, None),
            None => invalid(),
        },
        Action::Fold if !state.can_fold() => invalid(),
        _ if state.is_legal(action) => (action, None),
        _ => invalid(),
    }
}

/// The MATCHSTATE line `position` sees: the opponent's hole cards only at a showdown.
pub fn match_state_line(state: &HandState, position: Position, hand: u64) -> String {
    let message = MatchState {
        position,
        hand_number: hand as u32,
        state: state.seen_by(position),
    };
    message.to_string()
}

/// A seat's timeout, reported with the dealer's limit.
fn at_limit(error: SeatError, limit: Duration) -> SeatError {
    match error {
        SeatError::TimedOut { .. } => SeatError::TimedOut {
            limit_ms: limit.as_millis() as u64,
        },
        error => error,
    }
}

/// Plays hand `hand` with `deal` between `seats` (indexed by seat), each action within
/// `limit`; `warn` receives each warning's text.
pub fn play_hand(
    seats: &mut [Seat; 2],
    names: &[String; 2],
    config: HoldemConfig,
    deal: &Deal,
    hand: u64,
    limit: Duration,
    warn: &mut dyn FnMut(String),
) -> Result<HandRecord, HandError> {
    let mut state = HandState::new(config);
    for position in 0..2u8 {
        // A fresh deal of nine distinct cards into an empty hand cannot be refused.
        let _ = state.deal_hole_cards(position, deal.holes[usize::from(position)]);
    }
    let any_remote = seats.iter().any(Seat::is_remote);
    let mut record = HandRecord {
        log_line: String::new(),
        chips: [0, 0],
        warnings: 0,
        latency_ns: [Vec::new(), Vec::new()],
    };
    loop {
        while state.board_cards_due() > 0 {
            let next = deal.board[state.board().len().min(4)];
            let _ = state.deal_board_card(next);
        }
        let Some(position) = state.to_act() else {
            break;
        };
        let seat = usize::from(position_of(usize::from(position), hand));
        let mut request = String::new();
        if any_remote {
            for (index, other) in seats.iter_mut().enumerate() {
                if other.is_remote() {
                    let line = match_state_line(&state, position_of(index, hand), hand);
                    other.tell(&line).map_err(|error| HandError {
                        seat: index,
                        error: at_limit(error, limit),
                    })?;
                    if index == seat {
                        request = line;
                    }
                }
            }
        }
        let started = Instant::now();
        let deadline = started + limit;
        let fail = |error| HandError { seat, error };
        let action = loop {
            let answer = seats[seat]
                .ask(&state, position, hand, deadline)
                .map_err(|error| fail(at_limit(error, limit)))?;
            match answer {
                Answer::Action(action) => break Some(action),
                Answer::Line(line) => {
                    let echoed = line
                        .strip_prefix(request.as_str())
                        .is_some_and(|rest| rest.starts_with(':'));
                    if !echoed {
                        // A reply to another state (or a stray line) is skipped, as the
                        // reference dealer does; the clock keeps running.
                        record.warnings += 1;
                        warn(format!("ignoring un-requested response '{line}'"));
                        continue;
                    }
                    // The echoed state is the one sent, so a failure is in the action.
                    break parse_reply(line.as_bytes(), config).ok().map(|(_, a)| a);
                }
            }
        };
        let elapsed = started.elapsed();
        if elapsed > limit {
            return Err(fail(SeatError::TimedOut {
                limit_ms: limit.as_millis() as u64,
            }));
        }
        record.latency_ns[seat].push(elapsed.as_nanos().min(u128::from(u64::MAX)) as u64);
        let (played, warning) = match action {
            Some(action) => correct(&state, action),
            None => (
                Action::Call,
                Some("invalid action, changed to call".to_owned()),
            ),
        };
        if let Some(text) = warning {
            record.warnings += 1;
            warn(text);
        }
        if state.apply(played).is_err() {
            // `correct` leaves only legal actions; a call is legal whenever a player acts.
            let _ = state.apply(Action::Call);
        }
    }
    let payoffs = state.payoffs().unwrap_or([0, 0]);
    for position in 0..2u8 {
        let seat = usize::from(position_of(usize::from(position), hand));
        record.chips[seat] = i64::from(payoffs[usize::from(position)]);
    }
    for (index, seat) in seats.iter_mut().enumerate() {
        let position = position_of(index, hand);
        if seat.is_remote() {
            let line = match_state_line(&state, position, hand);
            seat.tell(&line).map_err(|error| HandError {
                seat: index,
                error: at_limit(error, limit),
            })?;
        } else {
            seat.hand_over(&state.seen_by(position), position);
        }
    }
    let by_position = |p: usize| names[usize::from(position_of(p, hand))].as_str();
    let line = LogLine {
        hand_number: hand as u32,
        state,
        values: payoffs,
        names: [by_position(0), by_position(1)],
    };
    let _ = write!(record.log_line, "{line}");
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_actions_are_corrected_as_the_reference_dealer_does() {
        // Preflop, the small blind (position 1) to act facing the big blind.
        let mut state = HandState::new(HoldemConfig::ACPC);
        assert_eq!(
            correct(&state, Action::RaiseTo(300)),
            (Action::RaiseTo(300), None)
        );
        let (action, warning) = correct(&state, Action::RaiseTo(150));
        assert_eq!(action, Action::RaiseTo(200));
        assert_eq!(warning.as_deref(), Some("raise of 150 increased to 200"));
        let (action, warning) = correct(&state, Action::RaiseTo(25_000));
        assert_eq!(action, Action::RaiseTo(20_000));
        assert_eq!(
            warning.as_deref(),
            Some("raise of 25000 decreased to 20000")
        );
        assert_eq!(correct(&state, Action::Fold), (Action::Fold, None));
        // The small blind calls: the big blind may check, so a fold is invalid.
        state.apply(Action::Call).unwrap();
        let (action, warning) = correct(&state, Action::Fold);
        assert_eq!(action, Action::Call);
        assert_eq!(warning.as_deref(), Some("invalid action, changed to call"));
        // All in and called: no raise is possible, so a raise becomes a call.
        state.apply(Action::RaiseTo(20_000)).unwrap();
        let (action, warning) = correct(&state, Action::RaiseTo(20_000));
        assert_eq!(action, Action::Call);
        assert!(warning.is_some());
    }

    #[test]
    fn seats_rotate_every_hand() {
        assert_eq!([position_of(0, 0), position_of(1, 0)], [0, 1]);
        assert_eq!([position_of(0, 1), position_of(1, 1)], [1, 0]);
        assert_eq!(position_of(0, 1_000_001), 1);
    }

    #[test]
    fn players_see_the_opponents_cards_only_at_a_showdown() {
        let mut state = HandState::new(HoldemConfig::ACPC);
        let card = |text: &str| crate::holdem::Card::parse(text).unwrap();
        state.deal_hole_cards(0, [card("Ah"), card("2c")]).unwrap();
        state.deal_hole_cards(1, [card("Kd"), card("3s")]).unwrap();
        assert_eq!(match_state_line(&state, 1, 4), "MATCHSTATE:1:4::|Kd3s");
        assert_eq!(match_state_line(&state, 0, 4), "MATCHSTATE:0:4::Ah2c|");
        state.apply(Action::RaiseTo(20_000)).unwrap();
        state.apply(Action::Call).unwrap();
        for text in ["5h", "6h", "7h", "8d", "9d"] {
            state.deal_board_card(card(text)).unwrap();
        }
        assert_eq!(
            match_state_line(&state, 0, 4),
            "MATCHSTATE:0:4:r20000c///:Ah2c|Kd3s/5h6h7h/8d/9d"
        );
    }
}
