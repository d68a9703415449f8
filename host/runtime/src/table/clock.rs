//! The host's turn timer: when each seat now to act started its turn.
//!
//! A seat's turn starts when it becomes one of the seats to act and lasts while it stays one
//! (a turn of several moves is timed as one). An undo or a redo starts every turn afresh.
//! The time is measured on the host, never by a plugin (it sees no clock), and is saved with
//! each move, so a replay reports the very same times to the house rules.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use veillee_sdk::Seat;

/// When each seat to act started its turn.
#[derive(Debug, Default)]
pub(crate) struct TurnClock {
    started: BTreeMap<Seat, Instant>,
}

impl TurnClock {
    /// Follows the seats now to act: a seat that just became one starts its turn, a seat no
    /// longer to act ends it.
    pub(crate) fn follow(&mut self, to_act: &[Seat]) {
        self.started.retain(|seat, _| to_act.contains(seat));
        let now = Instant::now();
        for &seat in to_act {
            self.started.entry(seat).or_insert(now);
        }
    }

    /// Every seat to act starts a new turn now.
    pub(crate) fn restart(&mut self, to_act: &[Seat]) {
        self.started.clear();
        self.follow(to_act);
    }

    /// When `seat`'s turn started (now, for a seat the clock does not follow).
    pub(crate) fn started(&self, seat: Seat) -> Instant {
        self.started
            .get(&seat)
            .copied()
            .unwrap_or_else(Instant::now)
    }

    /// How long `seat`'s turn has lasted so far, in whole milliseconds.
    pub(crate) fn elapsed_ms(&self, seat: Seat) -> u64 {
        millis(self.started(seat).elapsed())
    }
}

/// A duration in whole milliseconds (saturating: a turn never lasts 500 million years).
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_that_stays_to_act_keeps_its_turn_and_a_new_one_starts_afresh() {
        let mut clock = TurnClock::default();
        clock.follow(&[0]);
        let first = clock.started(0);
        std::thread::sleep(Duration::from_millis(5));
        clock.follow(&[0, 1]);
        assert_eq!(clock.started(0), first, "seat 0 is still in its turn");
        assert!(
            clock.started(1) > first,
            "seat 1's turn starts when it is asked"
        );
        clock.follow(&[1]);
        clock.follow(&[0, 1]);
        assert!(
            clock.started(0) > first,
            "seat 0 left its turn and starts another"
        );
    }

    #[test]
    fn a_restart_starts_every_turn_again() {
        let mut clock = TurnClock::default();
        clock.follow(&[2]);
        let before = clock.started(2);
        std::thread::sleep(Duration::from_millis(5));
        clock.restart(&[2]);
        assert!(clock.started(2) > before);
        assert!(clock.elapsed_ms(2) < 60_000);
    }
}
