//! A step only the root may take (reading or writing the run's files), whose outcome every
//! rank then needs: the root runs it and broadcasts the value or the failure, so that every
//! rank goes on with the same value or stops with the same error.
use super::wire::{Wire, from_bytes, to_bytes};
use crate::harness::Failure;

/// Runs `step` on the root and returns its outcome on every rank (a collective: every rank
/// calls it; on the other ranks `step` is not run).
pub fn from_root<T: Wire>(step: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    if super::size() == 1 {
        return step();
    }
    let message = if super::is_root() {
        to_bytes(&encode(step()))
    } else {
        Vec::new()
    };
    decode(from_bytes(&super::broadcast(message)).map_err(Failure::Job)?)
}

/// A failure's kind (1: usage, 2: job) and message, or the value (kind 0).
type Outcome<T> = (u8, (Option<T>, String));

fn encode<T>(outcome: Result<T, Failure>) -> Outcome<T> {
    match outcome {
        Ok(value) => (0, (Some(value), String::new())),
        Err(Failure::Usage(why)) => (1, (None, why)),
        Err(Failure::Job(why)) => (2, (None, why)),
    }
}

fn decode<T>(outcome: Outcome<T>) -> Result<T, Failure> {
    match outcome {
        (0, (Some(value), _)) => Ok(value),
        (1, (_, why)) => Err(Failure::Usage(why)),
        (_, (_, why)) => Err(Failure::Job(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_failures_cross_the_broadcast_unchanged() {
        let round = |outcome: Result<u64, Failure>| {
            decode::<u64>(from_bytes(&to_bytes(&encode(outcome))).unwrap())
        };
        assert!(matches!(round(Ok(7)), Ok(7)));
        assert!(
            matches!(round(Err(Failure::Usage("u".into()))), Err(Failure::Usage(w)) if w == "u")
        );
        assert!(matches!(round(Err(Failure::Job("j".into()))), Err(Failure::Job(w)) if w == "j"));
    }
}
