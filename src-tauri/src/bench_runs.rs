//! The Test bench's runs in flight, so Cancel (and quitting the app) can
//! stop a run whose hooks hang. A leaf module: the app state holds the list
//! and the Test bench registers its runs in it, without either importing
//! the other.

use std::sync::{Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// The test bench's runs in flight, each with the token that cancels it.
#[derive(Debug, Default)]
pub struct BenchRuns {
    running: Mutex<Vec<(u64, CancellationToken)>>,
    next_id: std::sync::atomic::AtomicU64,
}

impl BenchRuns {
    /// Registers a run until the returned guard drops.
    pub(crate) fn start(&self) -> InFlight<'_> {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let token = CancellationToken::new();
        self.lock().push((id, token.clone()));
        InFlight {
            runs: self,
            id,
            token,
        }
    }

    /// Cancels every run in flight; returns how many.
    pub fn cancel_all(&self) -> usize {
        let running = self.lock();
        for (_, token) in running.iter() {
            token.cancel();
        }
        running.len()
    }

    /// How many runs are in flight.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no run is in flight.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, CancellationToken)>> {
        // A panic while holding the list leaves it usable: it only holds tokens.
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A run in [`BenchRuns`]; leaves the list when dropped.
pub(crate) struct InFlight<'a> {
    runs: &'a BenchRuns,
    id: u64,
    /// Cancelled when the run is to stop.
    pub(crate) token: CancellationToken,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.runs.lock().retain(|(id, _)| *id != self.id);
    }
}
