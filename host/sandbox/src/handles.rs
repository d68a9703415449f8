//! Host-side game handles.
//!
//! When a plugin fails, its instance is thrown away and a fresh one takes its place: every
//! live game is lost, and the fresh instance hands out handles 0, 1, … again. Were the
//! plugin's own handles given to callers, an old handle would then silently address a new,
//! unrelated game. So callers get host handles, each remembering the instance *generation*
//! it belongs to: an old handle gets a clear "lost" error instead.
//!
//! Host handles are allocated exactly like `veillee_sdk::GameTable` allocates its own
//! (reuse the most recently freed, else the next number), so while nothing fails they are
//! equal to the plugin's handles and to a native engine's.

use veillee_sdk::Handle;

#[derive(Clone, Copy, Debug)]
enum Slot {
    Free,
    Game {
        guest: Handle,
        generation: u64,
        /// Seats of the game (the manifest's most for a game loaded from bytes): what its
        /// answers are checked against.
        players: u8,
    },
}

/// Why a host handle cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stale {
    /// Never handed out, or dropped.
    Unknown,
    /// Its game was lost when the plugin was restarted after a failure.
    Lost,
}

/// The host handles of one plugin instance line.
#[derive(Debug, Default)]
pub(crate) struct Handles {
    generation: u64,
    slots: Vec<Slot>,
    free: Vec<Handle>,
}

impl Handles {
    /// Registers a game of `players` seats the current instance created; returns its host
    /// handle.
    pub(crate) fn insert(&mut self, guest: Handle, players: u8) -> Handle {
        let slot = Slot::Game {
            guest,
            generation: self.generation,
            players,
        };
        if let Some(handle) = self.free.pop() {
            if let Some(free) = self.slots.get_mut(handle as usize) {
                *free = slot;
                return handle;
            }
        }
        self.slots.push(slot);
        // More than u32::MAX live games is impossible in a 32-bit plugin memory; saturating
        // only keeps this total.
        Handle::try_from(self.slots.len() - 1).unwrap_or(Handle::MAX)
    }

    /// The plugin's handle behind a host handle, and the game's number of seats.
    pub(crate) fn game(&self, host: Handle) -> Result<(Handle, u8), Stale> {
        match self.slots.get(host as usize) {
            Some(Slot::Game {
                guest,
                generation,
                players,
            }) if *generation == self.generation => Ok((*guest, *players)),
            Some(Slot::Game { .. }) => Err(Stale::Lost),
            _ => Err(Stale::Unknown),
        }
    }

    /// Forgets a host handle; returns the plugin's handle if its game is live in the
    /// current instance (then the plugin must be told too).
    pub(crate) fn remove(&mut self, host: Handle) -> Option<Handle> {
        let slot = self.slots.get_mut(host as usize)?;
        let Slot::Game {
            guest, generation, ..
        } = *slot
        else {
            return None;
        };
        *slot = Slot::Free;
        self.free.push(host);
        (generation == self.generation).then_some(guest)
    }

    /// The instance was replaced: every current game is lost. Their slots stay taken (and
    /// report [`Stale::Lost`]) until the caller drops them, so they are never reused for
    /// another game behind the caller's back.
    pub(crate) fn restart(&mut self) {
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_game_table_allocation() {
        let mut h = Handles::default();
        assert_eq!(h.insert(0, 2), 0);
        assert_eq!(h.insert(1, 2), 1);
        assert_eq!(h.insert(2, 2), 2);
        assert_eq!(h.remove(1), Some(1));
        assert_eq!(h.remove(0), Some(0));
        assert_eq!(h.insert(0, 2), 0);
        assert_eq!(h.insert(1, 2), 1);
        assert_eq!(h.insert(3, 4), 3);
        assert_eq!(h.game(3), Ok((3, 4)));
        assert_eq!(h.game(9), Err(Stale::Unknown));
    }

    #[test]
    fn old_handles_are_lost_not_reused() {
        let mut h = Handles::default();
        let a = h.insert(0, 2);
        h.restart();
        assert_eq!(h.game(a), Err(Stale::Lost));
        let b = h.insert(0, 2);
        assert_ne!(a, b);
        assert_eq!(h.game(b), Ok((0, 2)));
        assert_eq!(h.remove(a), None);
        assert_eq!(h.game(a), Err(Stale::Unknown));
        assert_eq!(h.remove(a), None);
    }
}
