//! Pausing the recording. A user may not want a session in the ledger (a
//! demo, a secret in a prompt); pausing makes the daemon leave events out of
//! the ledgers while it keeps answering every hook call and running managed
//! hooks, so agents behave exactly as before. What was left out is counted
//! (`events_unrecorded`), never silently lost from sight.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the daemon records events; cheap to clone, shared by the daemon
/// and whoever controls it (the desktop app's tray).
#[derive(Debug, Clone, Default)]
pub struct RecordingSwitch(Arc<AtomicBool>);

impl RecordingSwitch {
    /// A switch that records (not paused).
    pub fn new() -> Self {
        Self::default()
    }

    /// True while events are left out of the ledgers.
    pub fn is_paused(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Pauses (`true`) or resumes (`false`) recording.
    pub fn set_paused(&self, paused: bool) {
        self.0.store(paused, Ordering::Relaxed);
    }

    /// Flips the state; returns whether recording is now paused.
    pub fn toggle(&self) -> bool {
        !self.0.fetch_xor(true, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::RecordingSwitch;

    #[test]
    fn clones_share_the_state_and_toggle_flips_it() {
        let switch = RecordingSwitch::new();
        let tray = switch.clone();
        assert!(!switch.is_paused());
        assert!(tray.toggle());
        assert!(switch.is_paused());
        switch.set_paused(false);
        assert!(!tray.is_paused());
        assert!(tray.toggle());
        assert!(!tray.toggle());
    }
}
