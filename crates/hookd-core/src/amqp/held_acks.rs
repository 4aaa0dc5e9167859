//! Deliveries stored in a ledger that is still being checked, whose acks
//! wait until the check passes, so that a crash in that time loses nothing.
//!
//! While a big ledger is checked in the background
//! ([`crate::ledger::checker`]: minutes at millions of rows), what is
//! written to it is only as safe as the file: should the check find it
//! damaged, the sink moves it aside and writes again what it kept in memory.
//! A consumer that dies meanwhile loses that copy. The daemon holds its
//! journal files for that time ([`crate::daemon::held`]); the consumer's
//! journal is the broker, so it holds the acks:
//! - a delivery stored in a ledger under check is not acked; it is acked
//!   once the sink says the check is over and the ledger stayed;
//! - when the ledger is moved aside, the delivery is requeued: the broker
//!   delivers it again, into the new ledger, which ignores an event it
//!   already holds (the sink writes again what it kept, up to its limit);
//! - a consumer stopped, or killed, with acks held leaves those deliveries
//!   unacked, and the broker delivers them again to the next one.
//!
//! The broker sends at most `prefetch` unacked deliveries, so while
//! `prefetch` are held the consumer takes no more: the events wait in the
//! durable queue until the check ends, rather than only in a file that may
//! be damaged.

use std::path::{Path, PathBuf};

/// What to do with a held delivery now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Release {
    /// Its ledger's check is over and the ledger stayed: ack it.
    Ack,
    /// Its ledger was moved aside: the broker delivers it again.
    Requeue,
}

/// Deliveries (`A`, an acker) held until their ledger's check is over, in
/// delivery order.
#[derive(Debug)]
pub(crate) struct HeldAcks<A> {
    held: Vec<(PathBuf, A)>,
}

impl<A> Default for HeldAcks<A> {
    fn default() -> Self {
        Self { held: Vec::new() }
    }
}

impl<A> HeldAcks<A> {
    /// Holds `acker`, stored in the ledger at `ledger`.
    pub(crate) fn hold(&mut self, ledger: &Path, acker: A) {
        self.held.push((ledger.to_path_buf(), acker));
    }

    /// How many deliveries are held.
    pub(crate) fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether none is held.
    pub(crate) fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Takes the deliveries whose ledger is no longer in `checking` (the
    /// ledgers being checked now), each with what to do: requeue those of a
    /// ledger in `moved_aside`, ack the rest. The others stay held.
    pub(crate) fn settle(
        &mut self,
        checking: &[PathBuf],
        moved_aside: &[PathBuf],
    ) -> Vec<(A, Release)> {
        let mut settled = Vec::new();
        let mut kept = Vec::with_capacity(self.held.len());
        for (ledger, acker) in std::mem::take(&mut self.held) {
            if moved_aside.contains(&ledger) {
                settled.push((acker, Release::Requeue));
            } else if checking.contains(&ledger) {
                kept.push((ledger, acker));
            } else {
                settled.push((acker, Release::Ack));
            }
        }
        self.held = kept;
        settled
    }

    /// Forgets every held delivery: its channel is gone, and the broker
    /// delivers it again.
    pub(crate) fn forget(&mut self) {
        self.held.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_until_the_check_is_over_and_requeued_when_the_ledger_moved() {
        let (a, b) = (
            PathBuf::from("/a/.hookd/mutations.db"),
            PathBuf::from("/b/.hookd/mutations.db"),
        );
        let mut held = HeldAcks::default();
        held.hold(&a, 1);
        held.hold(&b, 2);
        held.hold(&a, 3);
        assert!(held.settle(&[a.clone(), b.clone()], &[]).is_empty());
        assert_eq!(held.len(), 3);
        // b's check passed; a is still checked.
        assert_eq!(
            held.settle(std::slice::from_ref(&a), &[]),
            vec![(2, Release::Ack)]
        );
        // a proved damaged and was moved aside.
        assert_eq!(
            held.settle(&[], std::slice::from_ref(&a)),
            vec![(1, Release::Requeue), (3, Release::Requeue)]
        );
        assert!(held.is_empty());
        held.hold(&b, 4);
        held.forget();
        assert!(held.settle(&[], &[]).is_empty());
    }
}
