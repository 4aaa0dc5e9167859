//! Waiting for something another process or task does: one contract for
//! every suite.
//!
//! [`wait_until`] polls a condition until it holds and panics, naming what
//! it waited for, when the time runs out; [`poll_until`] is the same loop
//! for a caller that wants the value found, or `None`, and words its own
//! failure (to show the last state it saw, or to prove something does *not*
//! happen). The `_async` twins keep the same contract for tests running on
//! tokio, where a blocking sleep would stall the tasks being waited for; they
//! take an async closure, so a condition may await (a broker round trip).

use std::time::Duration;

/// How often a condition is checked again.
pub const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// Checks `condition` every [`POLL_INTERVAL`] until it holds; panics with
/// "timed out after {timeout} waiting for {what}" when it does not within
/// `timeout`. The condition is checked once more at the deadline.
pub fn wait_until(timeout: Duration, what: &str, mut condition: impl FnMut() -> bool) {
    if poll_until(timeout, || condition().then_some(())).is_none() {
        timed_out(timeout, what);
    }
}

/// Calls `probe` every [`POLL_INTERVAL`] until it returns `Some`, which is
/// returned; `None` when `timeout` passes first.
pub fn poll_until<T>(timeout: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        if std::time::Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(POLL_INTERVAL);
    }
}

/// [`wait_until`] for async tests: sleeps on tokio's clock between checks.
pub async fn wait_until_async(
    timeout: Duration,
    what: &str,
    mut condition: impl AsyncFnMut() -> bool,
) {
    if poll_until_async(timeout, async || condition().await.then_some(()))
        .await
        .is_none()
    {
        timed_out(timeout, what);
    }
}

/// [`poll_until`] for async tests: sleeps on tokio's clock between checks.
pub async fn poll_until_async<T>(
    timeout: Duration,
    mut probe: impl AsyncFnMut() -> Option<T>,
) -> Option<T> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(found) = probe().await {
            return Some(found);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

fn timed_out(timeout: Duration, what: &str) -> ! {
    panic!("timed out after {timeout:?} waiting for {what}")
}
