//! The door: every TCP connection is counted from the moment it is accepted until it
//! closes, per peer address and in all, and a connection over a cap pushes out the oldest one
//! that holds no seat ([`crate::limits`] says why).

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::watch;

use crate::limits::{MAX_CONNECTIONS, MAX_PER_PEER};

/// The connections open now.
#[derive(Default)]
pub struct Gate {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    /// By id, so in the order they were accepted: the oldest first.
    entries: BTreeMap<u64, Entry>,
}

struct Entry {
    peer: IpAddr,
    seated: bool,
    push_out: watch::Sender<bool>,
}

/// One accepted connection, shared by its requests and its WebSocket; dropping the last
/// copy (the connection ended) takes it off the count.
pub struct Visitor {
    gate: Arc<Gate>,
    id: u64,
    /// When its TCP connection was accepted.
    pub accepted: Instant,
    pushed_out: watch::Receiver<bool>,
}

impl Gate {
    /// Counts a connection just accepted from `peer`, first pushing out the oldest
    /// connection without a seat of that peer (or of anyone) if a cap is reached; `None`
    /// when every connection holds a seat and the new one must be refused.
    pub fn admit(self: &Arc<Self>, peer: SocketAddr) -> Option<Arc<Visitor>> {
        let peer = peer.ip();
        let mut open = self.open();
        let from_peer = open.entries.values().filter(|e| e.peer == peer).count();
        if from_peer >= MAX_PER_PEER && !open.push_out_oldest(Some(peer)) {
            return None;
        }
        if open.entries.len() >= MAX_CONNECTIONS && !open.push_out_oldest(None) {
            return None;
        }
        let id = open.next;
        open.next += 1;
        let (push_out, pushed_out) = watch::channel(false);
        let entry = Entry {
            peer,
            seated: false,
            push_out,
        };
        open.entries.insert(id, entry);
        Some(Arc::new(Visitor {
            gate: Arc::clone(self),
            id,
            accepted: Instant::now(),
            pushed_out,
        }))
    }

    /// Connections counted now.
    #[cfg(test)]
    fn count(&self) -> usize {
        self.open().entries.len()
    }

    fn open(&self) -> MutexGuard<'_, Open> {
        // The map stays whole whatever panicked while it was held.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Open {
    /// Tells the oldest connection without a seat (of `peer`, or of anyone) to close, and
    /// stops counting it at once so that the new one takes its place; `false` if there is
    /// none.
    fn push_out_oldest(&mut self, peer: Option<IpAddr>) -> bool {
        let oldest = self
            .entries
            .iter()
            .find(|(_, e)| !e.seated && peer.is_none_or(|p| e.peer == p))
            .map(|(&id, _)| id);
        let Some(entry) = oldest.and_then(|id| self.entries.remove(&id)) else {
            return false;
        };
        let _ = entry.push_out.send(true);
        true
    }
}

impl Visitor {
    /// The connection holds a seat now: it is never pushed out to make room.
    pub fn seated(&self) {
        if let Some(entry) = self.gate.open().entries.get_mut(&self.id) {
            entry.seated = true;
        }
    }

    /// Resolves when the connection must close to make room for a newer one.
    pub async fn pushed_out(&self) {
        let mut pushed_out = self.pushed_out.clone();
        // An error: the entry is gone, which only happens once it was pushed out.
        let _ = pushed_out.wait_for(|&out| out).await;
    }
}

impl Drop for Visitor {
    fn drop(&mut self) {
        self.gate.open().entries.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(last: u8) -> SocketAddr {
        SocketAddr::from(([192, 168, 1, last], 40000))
    }

    #[tokio::test]
    async fn one_peer_over_its_cap_pushes_out_its_own_oldest_connection_and_no_one_elses() {
        let gate = Arc::new(Gate::default());
        let phone = gate.admit(peer(2)).unwrap();
        let mut flood: Vec<_> = (0..MAX_PER_PEER)
            .map(|_| gate.admit(peer(9)).unwrap())
            .collect();
        assert_eq!(gate.count(), MAX_PER_PEER + 1);
        let newest = gate.admit(peer(9)).unwrap();
        flood.first().unwrap().pushed_out().await;
        assert_eq!(gate.count(), MAX_PER_PEER + 1, "one in, one out");
        assert!(
            !*phone.pushed_out.borrow(),
            "the other peer's connection stays"
        );
        assert!(!*newest.pushed_out.borrow());
        flood.clear();
        drop(newest);
        assert_eq!(gate.count(), 1, "closed connections are not counted");
    }

    #[tokio::test]
    async fn when_all_are_full_the_oldest_without_a_seat_goes_and_a_seated_phone_stays() {
        let gate = Arc::new(Gate::default());
        let seated = gate.admit(peer(1)).unwrap();
        seated.seated();
        let loading = gate.admit(peer(2)).unwrap();
        let others: Vec<_> = (0..MAX_CONNECTIONS - 2)
            .map(|n| gate.admit(peer(10 + (n % 200) as u8)).unwrap())
            .collect();
        assert_eq!(gate.count(), MAX_CONNECTIONS);
        let _new = gate.admit(peer(250)).unwrap();
        loading.pushed_out().await;
        assert!(!*seated.pushed_out.borrow());
        assert_eq!(gate.count(), MAX_CONNECTIONS);
        drop(others);
    }

    #[test]
    fn a_new_connection_is_refused_only_when_every_one_holds_a_seat() {
        let gate = Arc::new(Gate::default());
        let seated: Vec<_> = (0..MAX_PER_PEER)
            .map(|_| {
                let visitor = gate.admit(peer(3)).unwrap();
                visitor.seated();
                visitor
            })
            .collect();
        assert!(gate.admit(peer(3)).is_none());
        assert!(gate.admit(peer(4)).is_some());
        drop(seated);
    }
}
