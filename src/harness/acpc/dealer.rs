//! One hand at the dealer's table: the core's table loop
//! ([`crate::holdem::expert::arena::play_hand_with`]: the reference dealer's cards and its
//! corrections of invalid actions) with the dealer's seats: every state sent to the clients,
//! the seat to act asked within the time limits, each correction a `WARNING:` line, and
//! the log line, chips and latencies returned.
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::seat::{Answer, Seat, SeatError};
use super::transactions::Transactions;
use super::transcript::Transcript;
use crate::holdem::acpc::{LogLine, MatchState, parse_reply};
use crate::holdem::deal::Deal;
use crate::holdem::expert::arena::{Players, play_hand_with};
use crate::holdem::rules::{Action, Correction, HandState, HoldemConfig, Position};

/// How the positions move round the table from hand to hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// The button moves every hand (the reference dealer's default): seat 0 is the big
    /// blind (position 0) in even hands.
    #[default]
    Rotating,
    /// The button stays (the reference's `-f`, `--fixed-seats on`): seat 0 is the big blind
    /// in every hand.
    Fixed,
}

impl Seating {
    /// The position seat `seat` holds in hand `hand`. With two seats the same formula maps a
    /// position back to its seat.
    pub fn position_of(self, seat: usize, hand: u64) -> Position {
        match self {
            Seating::Rotating => ((seat as u64 + hand) % 2) as Position,
            Seating::Fixed => (seat % 2) as Position,
        }
    }
}

/// The reference dealer's time limits within a hand (the match's average per hand is
/// checked over the CSV rows, see `run.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Per action (`--action-ms`, the reference's `--t_response`).
    pub action: Duration,
    /// A seat's actions in one hand, summed (`--hand-ms`, the reference's `--t_hand`).
    pub hand: Duration,
    /// Invalid actions (changed to call; clamped raises do not count) a seat may make
    /// since it was seated; one more ends the match (`--max-invalid`, the reference's
    /// `maxInvalidActions`, unlimited there unless rebuilt).
    pub invalid: Option<u32>,
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

/// What the table remembers of its seats from hand to hand: the invalid actions each seat
/// has made since it was seated (checked against [`Limits::invalid`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatCounts {
    pub invalid: [u32; 2],
}

/// The reference dealer's `WARNING:` text (after `WARNING: `) for a correction.
pub fn warning_text(correction: Correction) -> String {
    match correction {
        Correction::RaiseIncreased { from, to } => format!("raise of {from} increased to {to}"),
        Correction::RaiseDecreased { from, to } => format!("raise of {from} decreased to {to}"),
        Correction::ChangedToCall => "invalid action, changed to call".to_owned(),
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

/// The dealer's seats as the table loop asks them, for one hand.
struct Table<'a> {
    seats: &'a mut [Seat; 2],
    hand: u64,
    limits: Limits,
    seating: Seating,
    counts: &'a mut SeatCounts,
    /// A seat over [`Limits::invalid`], found when its action was corrected; the hand stops
    /// at its next question to the table.
    over_invalid: Option<usize>,
    warn: &'a mut dyn FnMut(String),
    transcript: Option<&'a mut Transcript>,
    transactions: Option<&'a mut Transactions>,
    /// The action being applied was played again from the transaction file (its
    /// correction, if any, was reported when it was first played).
    replaying: bool,
    warnings: u32,
    latency_ns: [Vec<u64>; 2],
    /// Each seat's time so far in this hand.
    used: [Duration; 2],
}

impl Table<'_> {
    /// Sends `state` to every client (and notes it in the transcript for every seat),
    /// returning the line seat `asked` was sent, when one was.
    fn tell_everyone(&mut self, state: &HandState, asked: usize) -> Result<String, HandError> {
        let mut request = String::new();
        if self.transcript.is_none() && !self.seats.iter().any(Seat::is_remote) {
            return Ok(request);
        }
        for (index, seat) in self.seats.iter_mut().enumerate() {
            let line =
                match_state_line(state, self.seating.position_of(index, self.hand), self.hand);
            seat.tell(&line).map_err(|error| HandError {
                seat: index,
                error: at_limit(error, self.limits.action),
            })?;
            if let Some(transcript) = self.transcript.as_deref_mut() {
                transcript.sent(index, &line);
            }
            if index == asked {
                request = line;
            }
        }
        Ok(request)
    }
}

impl Players for Table<'_> {
    type Error = HandError;

    fn act(&mut self, state: &HandState, position: Position) -> Result<Option<Action>, HandError> {
        self.check_invalid()?;
        let seat = usize::from(self.seating.position_of(usize::from(position), self.hand));
        self.replaying = false;
        if let Some(recorded) = self
            .transactions
            .as_deref_mut()
            .and_then(Transactions::next_recorded)
        {
            // Taken before the match stopped: nobody is told or asked again; its time
            // counts as it did.
            self.replaying = true;
            self.used[seat] += Duration::from_nanos(recorded.ns);
            self.latency_ns[seat].push(recorded.ns);
            return Ok(recorded.action);
        }
        let request = self.tell_everyone(state, seat)?;
        let started = Instant::now();
        // A client is waited for until the first limit it would break.
        let left_in_hand = self.limits.hand.saturating_sub(self.used[seat]);
        let wait = self.limits.action.min(left_in_hand);
        let deadline = started + wait;
        let limits = self.limits;
        let over_hand = |used: Duration| SeatError::OverHandLimit {
            limit_ms: limits.hand.as_millis() as u64,
            used_ms: used.as_millis() as u64,
        };
        let fail = |error| HandError { seat, error };
        let action = loop {
            let answer = match self.seats[seat].ask(state, position, self.hand, deadline) {
                Ok(answer) => answer,
                Err(SeatError::TimedOut { .. }) if wait < limits.action => {
                    return Err(fail(over_hand(self.used[seat] + started.elapsed())));
                }
                Err(error) => return Err(fail(at_limit(error, limits.action))),
            };
            match answer {
                Answer::Action(action) => {
                    if let Some(transcript) = self.transcript.as_deref_mut() {
                        transcript.received(seat, &format!("{request}:{action}"));
                    }
                    break Some(action);
                }
                Answer::Line(line) => {
                    if let Some(transcript) = self.transcript.as_deref_mut() {
                        transcript.received(seat, &line);
                    }
                    let echoed = line
                        .strip_prefix(request.as_str())
                        .is_some_and(|rest| rest.starts_with(':'));
                    if !echoed {
                        // A reply to another state (or a stray line) is skipped, as the
                        // reference dealer does; the clock keeps running.
                        self.warnings += 1;
                        (self.warn)(format!("ignoring un-requested response '{line}'"));
                        continue;
                    }
                    // The echoed state is the one sent, so a failure is in the action.
                    break parse_reply(line.as_bytes(), *state.config())
                        .ok()
                        .map(|(_, a)| a);
                }
            }
        };
        let elapsed = started.elapsed();
        if elapsed > limits.action {
            return Err(fail(SeatError::TimedOut {
                limit_ms: limits.action.as_millis() as u64,
            }));
        }
        self.used[seat] += elapsed;
        if self.used[seat] > limits.hand {
            return Err(fail(over_hand(self.used[seat])));
        }
        let ns = elapsed.as_nanos().min(u128::from(u64::MAX)) as u64;
        self.latency_ns[seat].push(ns);
        if let Some(transactions) = self.transactions.as_deref_mut() {
            transactions.record(action, ns);
        }
        Ok(action)
    }

    fn corrected(&mut self, position: Position, correction: Correction) {
        self.warnings += 1;
        if !self.replaying {
            (self.warn)(warning_text(correction));
        }
        if correction == Correction::ChangedToCall {
            let seat = usize::from(self.seating.position_of(usize::from(position), self.hand));
            let count = &mut self.counts.invalid[seat];
            *count = count.saturating_add(1);
            if self.limits.invalid.is_some_and(|cap| *count > cap) {
                self.over_invalid.get_or_insert(seat);
            }
        }
    }
}

impl Table<'_> {
    /// The reference ends the match at the invalid action past the cap (its `ERROR:
    /// invalid action`); the core's table loop has applied it as a call by then, so the
    /// hand stops before anything else is asked or logged.
    fn check_invalid(&self) -> Result<(), HandError> {
        match self.over_invalid {
            Some(seat) => Err(HandError {
                seat,
                error: SeatError::TooManyInvalid {
                    cap: self.limits.invalid.unwrap_or(0),
                },
            }),
            None => Ok(()),
        }
    }
}

/// How the dealer runs its table: the time and invalid-action limits, and whether the
/// button moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRules {
    pub limits: Limits,
    pub seating: Seating,
}

/// Plays hand `hand` with `deal` between `seats` (indexed by seat) under `rules`; `counts`
/// carries the seats' invalid actions from hand to hand; `warn` receives each warning's
/// text, `transcript` every message; `transactions` records every action (and gives back
/// those recorded before a stop, which are played again first).
#[allow(clippy::too_many_arguments)]
pub fn play_hand(
    seats: &mut [Seat; 2],
    names: &[String; 2],
    config: HoldemConfig,
    deal: &Deal,
    hand: u64,
    rules: TableRules,
    counts: &mut SeatCounts,
    warn: &mut dyn FnMut(String),
    transcript: Option<&mut Transcript>,
    transactions: Option<&mut Transactions>,
) -> Result<HandRecord, HandError> {
    let seating = rules.seating;
    let position_of = |seat: usize| seating.position_of(seat, hand);
    let mut table = Table {
        seats,
        hand,
        limits: rules.limits,
        seating,
        counts,
        over_invalid: None,
        transactions,
        replaying: false,
        warn,
        transcript,
        warnings: 0,
        latency_ns: [Vec::new(), Vec::new()],
        used: [Duration::ZERO; 2],
    };
    let mut state = HandState::new(config);
    play_hand_with(&mut table, config, deal, &mut state)?;
    // An invalid action past the cap that ended the hand stops the match all the same.
    table.check_invalid()?;
    // The final state goes to every client; a bot hears that the hand is over.
    table.tell_everyone(&state, 2)?;
    for (index, seat) in table.seats.iter_mut().enumerate() {
        let position = position_of(index);
        seat.hand_over(&state.seen_by(position), position);
    }
    let payoffs = state.payoffs().unwrap_or([0, 0]);
    let mut chips = [0i64; 2];
    for position in 0..2u8 {
        let seat = usize::from(position_of(usize::from(position)));
        chips[seat] = i64::from(payoffs[usize::from(position)]);
    }
    let by_position = |p: usize| names[usize::from(position_of(p))].as_str();
    let line = LogLine {
        hand_number: hand as u32,
        state,
        values: payoffs,
        names: [by_position(0), by_position(1)],
    };
    let mut log_line = String::new();
    let _ = write!(log_line, "{line}");
    Ok(HandRecord {
        log_line,
        chips,
        warnings: table.warnings,
        latency_ns: table.latency_ns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_read_as_the_reference_dealers_warnings() {
        assert_eq!(
            warning_text(Correction::RaiseIncreased { from: 150, to: 200 }),
            "raise of 150 increased to 200"
        );
        assert_eq!(
            warning_text(Correction::RaiseDecreased {
                from: 25_000,
                to: 20_000
            }),
            "raise of 25000 decreased to 20000"
        );
        assert_eq!(
            warning_text(Correction::ChangedToCall),
            "invalid action, changed to call"
        );
    }

    #[test]
    fn seats_rotate_every_hand_unless_fixed() {
        let rotating = Seating::Rotating;
        assert_eq!(
            [rotating.position_of(0, 0), rotating.position_of(1, 0)],
            [0, 1]
        );
        assert_eq!(
            [rotating.position_of(0, 1), rotating.position_of(1, 1)],
            [1, 0]
        );
        assert_eq!(rotating.position_of(0, 1_000_001), 1);
        for hand in [0, 1, 2, 1_000_001] {
            assert_eq!(
                [
                    Seating::Fixed.position_of(0, hand),
                    Seating::Fixed.position_of(1, hand)
                ],
                [0, 1]
            );
        }
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
