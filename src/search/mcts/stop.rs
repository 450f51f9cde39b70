//! Stop conditions: what ends a search before its iteration budget, polled once before every
//! iteration, so that a cancel or a deadline takes effect within one iteration.
//!
//! A stop is a type parameter of the search, so [`Never`] compiles to nothing and the plain
//! entry points ([`Mcts::search`](super::Mcts::search) and the others) run the same loop at
//! the same speed as before stops existed.
use core::sync::atomic::{AtomicBool, Ordering};

/// Decides, before each iteration, whether a search stops there.
pub trait Stop {
    /// `true` to stop before the next iteration; `iterations_done` counts the iterations of
    /// this call so far (not those of earlier calls continued by it).
    fn stop(&mut self, iterations_done: u32) -> bool;
}

/// Never stops: the search runs its whole iteration budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Never;

impl Stop for Never {
    #[inline(always)]
    fn stop(&mut self, _: u32) -> bool {
        false
    }
}

impl Stop for () {
    #[inline(always)]
    fn stop(&mut self, _: u32) -> bool {
        false
    }
}

/// Says stop at its `fire_at`-th poll (counting from 1) and counts the polls: for tests of
/// where a computation polls its stop and what it answers when stopped there.
#[cfg(test)]
pub(crate) struct PollCounter {
    pub(crate) polls: u32,
    pub(crate) fire_at: u32,
}

#[cfg(test)]
impl Stop for PollCounter {
    fn stop(&mut self, _: u32) -> bool {
        self.polls += 1;
        self.polls >= self.fire_at
    }
}

/// Any `FnMut(iterations_done) -> bool` is a stop.
impl<F: FnMut(u32) -> bool> Stop for F {
    #[inline(always)]
    fn stop(&mut self, iterations_done: u32) -> bool {
        self(iterations_done)
    }
}

/// Stops as soon as either stops (for example a cancel flag and a deadline).
impl<A: Stop, B: Stop> Stop for (A, B) {
    #[inline(always)]
    fn stop(&mut self, iterations_done: u32) -> bool {
        self.0.stop(iterations_done) || self.1.stop(iterations_done)
    }
}

/// Stops once the flag is set, from any thread. The load is relaxed: the flag orders no
/// other memory, and a store becomes visible within an iteration or so on every target.
#[derive(Clone, Copy, Debug)]
pub struct Cancel<'a>(pub &'a AtomicBool);

impl Stop for Cancel<'_> {
    #[inline(always)]
    fn stop(&mut self, _: u32) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Stops once a caller's clock reaches a limit. The clock is any monotonic count of
/// microseconds (`FnMut() -> u64`), so no_std targets bring their own timer; it is read once
/// per iteration.
#[derive(Clone, Copy, Debug)]
pub struct Deadline<C> {
    clock: C,
    until: u64,
}

impl<C: FnMut() -> u64> Deadline<C> {
    /// Stops when `clock()` returns `until` or more.
    pub fn at(clock: C, until: u64) -> Self {
        Deadline { clock, until }
    }

    /// Stops `budget` microseconds after now, by `clock`.
    pub fn after(mut clock: C, budget: u64) -> Self {
        let until = clock().saturating_add(budget);
        Deadline { clock, until }
    }

    /// The clock reading at which the search stops.
    pub fn until(&self) -> u64 {
        self.until
    }
}

impl<C: FnMut() -> u64> Stop for Deadline<C> {
    #[inline]
    fn stop(&mut self, _: u32) -> bool {
        (self.clock)() >= self.until
    }
}

/// Stops at an [`Instant`](std::time::Instant) (`std` only). `Instant::now` is a vDSO call
/// of a few tens of nanoseconds, about 1 % of an iteration, so it is read every iteration.
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstantDeadline(pub std::time::Instant);

#[cfg(feature = "std")]
impl InstantDeadline {
    /// Stops `budget` from now.
    pub fn after(budget: core::time::Duration) -> Self {
        InstantDeadline(std::time::Instant::now() + budget)
    }
}

#[cfg(feature = "std")]
impl Stop for InstantDeadline {
    #[inline]
    fn stop(&mut self, _: u32) -> bool {
        std::time::Instant::now() >= self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_answer_as_documented() {
        assert!(!Never.stop(u32::MAX));
        assert!(!().stop(7));
        let mut at_three = |done: u32| done >= 3;
        assert!(!at_three.stop(2));
        assert!(at_three.stop(3));

        let flag = AtomicBool::new(false);
        let mut cancel = Cancel(&flag);
        assert!(!cancel.stop(0));
        flag.store(true, Ordering::Relaxed);
        assert!(cancel.stop(0));

        let mut now = 100u64;
        let mut deadline = Deadline::after(
            || {
                now += 10;
                now
            },
            25,
        );
        assert_eq!(deadline.until(), 135);
        // Readings 120, 130, 140.
        assert!(!deadline.stop(0));
        assert!(!deadline.stop(1));
        assert!(deadline.stop(2));

        let mut either = (Never, |done: u32| done == 1);
        assert!(!either.stop(0));
        assert!(either.stop(1));
    }

    #[cfg(feature = "std")]
    #[test]
    fn an_instant_deadline_in_the_past_stops() {
        let mut past = InstantDeadline(std::time::Instant::now());
        assert!(past.stop(0));
        let mut later = InstantDeadline::after(core::time::Duration::from_secs(3600));
        assert!(!later.stop(0));
    }
}
