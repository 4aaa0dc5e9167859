//! Forwards the daemon's commit notices to the window as the `ledger-commit`
//! event, batched: Tauri's events are not built for high throughput, and an
//! agent burst can commit hundreds of batches a second. The first notice
//! after a quiet spell goes out at once (live feels live); after that at most
//! one event per [`BATCH_INTERVAL`] carries every notice since the last.

//!
//! Attached to a daemon the app does not run there are no notices to
//! forward; [`poll_attached`] polls the known ledgers instead and emits the
//! same event.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hookd_core::ledger::watch::LedgerWatch;
use hookd_core::record::CommitNotice;
use serde::Serialize;
use tokio::sync::broadcast::{self, error::RecvError, error::TryRecvError};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use ts_rs::TS;

/// Name of the event the window listens to.
pub const LEDGER_COMMIT_EVENT: &str = "ledger-commit";

/// Minimum time between two `ledger-commit` events.
pub const BATCH_INTERVAL: Duration = Duration::from_millis(100);

/// Payload of `ledger-commit`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct LedgerCommit {
    /// Every notice since the previous event, in commit order.
    pub notices: Vec<CommitNotice>,
}

/// Forwards notices from `notices` to `emit` until the daemon stops.
pub async fn forward(
    mut notices: broadcast::Receiver<CommitNotice>,
    mut emit: impl FnMut(LedgerCommit) + Send,
) {
    let mut last_emit: Option<Instant> = None;
    loop {
        let first = match notices.recv().await {
            Ok(notice) => notice,
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "live updates fell behind; some commit notices were dropped"
                );
                continue;
            }
            Err(RecvError::Closed) => return,
        };
        let mut batch = vec![first];
        if let Some(last) = last_emit {
            tokio::time::sleep_until(last + BATCH_INTERVAL).await;
        }
        loop {
            match notices.try_recv() {
                Ok(notice) => batch.push(notice),
                Err(TryRecvError::Lagged(missed)) => {
                    tracing::warn!(
                        missed,
                        "live updates fell behind; some commit notices were dropped"
                    );
                }
                Err(TryRecvError::Empty | TryRecvError::Closed) => break,
            }
        }
        emit(LedgerCommit { notices: batch });
        last_emit = Some(Instant::now());
    }
}

/// How often an attached app polls the other daemon's ledgers.
pub const ATTACHED_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// Live updates while attached to a daemon the app does not run: polls the
/// known ledgers ([`LedgerWatch`]) every [`ATTACHED_POLL_INTERVAL`] and emits
/// what was committed since, as the same batched `ledger-commit` event,
/// until `stop` fires. What the ledgers hold when this is called is history,
/// not news: that first reading happens here, before the returned task runs.
pub fn poll_attached(
    data_dir: PathBuf,
    stop: CancellationToken,
    mut emit: impl FnMut(LedgerCommit) + Send + 'static,
) -> impl Future<Output = ()> + Send + 'static {
    let mut watch = LedgerWatch::new();
    let read = |watch: &mut LedgerWatch, dir: &Path| match LedgerWatch::known_ledgers(dir) {
        Ok(ledgers) => watch.poll(&ledgers),
        Err(err) => {
            tracing::warn!(error = %err, "cannot list the known ledgers");
            Vec::new()
        }
    };
    read(&mut watch, &data_dir);
    async move {
        let mut ticks = tokio::time::interval(ATTACHED_POLL_INTERVAL);
        ticks.tick().await;
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                () = stop.cancelled() => return,
            }
            let dir = data_dir.clone();
            // SQLite reads stay off the async workers.
            let polled = tokio::task::spawn_blocking(move || {
                let notices = read(&mut watch, &dir);
                (watch, notices)
            })
            .await;
            let Ok((returned, notices)) = polled else {
                tracing::error!("the ledger poll panicked; live updates stop");
                return;
            };
            watch = returned;
            if !notices.is_empty() {
                emit(LedgerCommit { notices });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex};

    use hookd_core::record::CommittedEvent;

    use super::*;

    fn notice(n: usize) -> CommitNotice {
        CommitNotice {
            ledger: PathBuf::from("/repo/.hookd/mutations.db"),
            events: vec![CommittedEvent {
                event_id: format!("e{n}"),
                hook_type: "post_tool_use".into(),
                tool_name: Some("Write".into()),
                tool_use_id: Some(format!("t{n}")),
            }],
            mutations: 1,
            hook_runs: 0,
        }
    }

    type Emitted = Arc<Mutex<Vec<(Instant, LedgerCommit)>>>;

    fn collector() -> (Emitted, impl FnMut(LedgerCommit) + Send) {
        let emitted: Emitted = Arc::default();
        let sink = Arc::clone(&emitted);
        (emitted, move |batch| {
            sink.lock().unwrap().push((Instant::now(), batch));
        })
    }

    #[tokio::test(start_paused = true)]
    async fn bursts_are_batched_at_most_once_per_interval() {
        let (tx, rx) = broadcast::channel(64);
        let (emitted, emit) = collector();
        let task = tokio::spawn(forward(rx, emit));

        // The first notice goes out at once.
        tx.send(notice(0)).unwrap();
        tokio::time::sleep(Duration::from_millis(1)).await;
        assert_eq!(emitted.lock().unwrap().len(), 1);

        // A burst inside the interval becomes one event.
        for n in 1..=5 {
            tx.send(notice(n)).unwrap();
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(BATCH_INTERVAL).await;
        drop(tx);
        task.await.unwrap();

        let emitted = emitted.lock().unwrap();
        let sizes: Vec<usize> = emitted.iter().map(|(_, b)| b.notices.len()).collect();
        assert_eq!(sizes, [1, 5]);
        assert!(emitted[1].0 - emitted[0].0 >= BATCH_INTERVAL);
        let ids: Vec<&str> = emitted[1]
            .1
            .notices
            .iter()
            .map(|n| n.events[0].event_id.as_str())
            .collect();
        assert_eq!(ids, ["e1", "e2", "e3", "e4", "e5"]);
    }

    #[test]
    fn payload_is_notices_as_the_core_serialises_them() {
        let value = serde_json::to_value(LedgerCommit {
            notices: vec![notice(7)],
        })
        .unwrap();
        assert_eq!(
            value,
            serde_json::json!({"notices": [{
                "ledger": "/repo/.hookd/mutations.db",
                "events": [{"event_id": "e7", "hook_type": "post_tool_use", "tool_name": "Write", "tool_use_id": "t7"}],
                "mutations": 1,
                "hook_runs": 0
            }]})
        );
    }
}
