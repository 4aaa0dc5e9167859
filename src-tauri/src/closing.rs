//! What a closed window hands to the next one.
//!
//! Closing the window destroys its webview (so its memory goes back), and
//! with it everything only the page held: the screen it showed and the Hook
//! editor's unsaved edits. So a close is a short handshake: the backend
//! holds the close, asks the page ([`WINDOW_CLOSING_EVENT`]) to hand over
//! its drafts ([`Handover::stash_drafts`]), and destroys the window when
//! the page says it is done ([`finish_close`]) or after [`CLOSE_GRACE`] if
//! it never does (a hung or placeholder page must not keep the window
//! open). The next window opens on the same screen and takes the drafts
//! back ([`Handover::take_drafts`]), reconciling them with the files on
//! disk as after any change there.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tauri::{AppHandle, Emitter, Manager, Runtime, Window};

use crate::MAIN_WINDOW;
use crate::error::{AppError, Result};

/// Asks the page to hand over what it must not lose, then call `finish_window_close`.
pub const WINDOW_CLOSING_EVENT: &str = "window-closing";

/// How long a close waits for the page before destroying the window anyway.
pub const CLOSE_GRACE: Duration = Duration::from_millis(1500);

/// The largest stash kept (its JSON): settings files are small, so more
/// than this is a bug on the page, refused rather than held in memory.
pub const MAX_STASH_BYTES: usize = 4 * 1024 * 1024;

/// What the last closed window left behind, managed by the app.
#[derive(Debug, Default)]
pub struct Handover {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The route the closed window showed (`timeline?repo=…`).
    route: Option<String>,
    /// The page's unsaved drafts, opaque to the backend.
    drafts: Option<Value>,
    /// Bumped by every close that waits for the page, so a late timer
    /// cannot destroy a window built after that close finished.
    close_attempt: u64,
    /// A close is waiting for the page.
    closing: bool,
}

impl Handover {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The data stays valid whatever panicked while holding the lock.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `drafts` for the next window, replacing what was kept.
    pub fn stash_drafts(&self, drafts: Value) -> Result<()> {
        let size = serde_json::to_vec(&drafts)
            .map_err(|e| AppError::internal(format!("cannot measure the unsaved edits: {e}")))?
            .len();
        if size > MAX_STASH_BYTES {
            return Err(AppError::invalid_input(format!(
                "the unsaved edits are too large to keep while the window is closed ({size} bytes; the limit is {MAX_STASH_BYTES})"
            )));
        }
        self.lock().drafts = (!drafts.is_null()).then_some(drafts);
        Ok(())
    }

    /// The kept drafts, once: a second window does not get them again.
    pub fn take_drafts(&self) -> Option<Value> {
        self.lock().drafts.take()
    }

    /// The route the closed window showed, once.
    pub fn take_route(&self) -> Option<String> {
        self.lock().route.take()
    }

    /// Starts a close: records `route` and returns the attempt's number, or
    /// `None` when a close is already waiting for the page.
    fn begin_close(&self, route: Option<String>) -> Option<u64> {
        let mut inner = self.lock();
        if inner.closing {
            return None;
        }
        inner.closing = true;
        inner.close_attempt += 1;
        inner.route = route;
        Some(inner.close_attempt)
    }

    /// Ends the waiting close (`attempt`, or whichever is waiting when
    /// `None`); false when there is none, or another one is waiting.
    fn end_close(&self, attempt: Option<u64>) -> bool {
        let mut inner = self.lock();
        let ours = inner.closing && attempt.is_none_or(|a| a == inner.close_attempt);
        if ours {
            inner.closing = false;
        }
        ours
    }
}

/// The route a window URL shows: its fragment without `/`, e.g.
/// `timeline?repo=/src/app` for `tauri://localhost/index.html#/timeline?repo=/src/app`.
pub fn route_of(url: &tauri::Url) -> Option<String> {
    let route = url.fragment()?.trim_start_matches('/');
    (!route.is_empty()).then(|| route.to_owned())
}

/// Handles a close request of the main window: holds it, keeps the route
/// it shows, asks the page for its drafts and arms the [`CLOSE_GRACE`] timer.
pub fn on_close_requested<R: Runtime>(window: &Window<R>, api: &tauri::CloseRequestApi) {
    let app = window.app_handle();
    let Some(handover) = app.try_state::<Handover>() else {
        return;
    };
    api.prevent_close();
    let route = app
        .get_webview_window(MAIN_WINDOW)
        .and_then(|webview| webview.url().ok())
        .and_then(|url| route_of(&url));
    let Some(attempt) = handover.begin_close(route) else {
        return; // A second click while the page answers the first.
    };
    if let Err(err) = window.emit_to(MAIN_WINDOW, WINDOW_CLOSING_EVENT, ()) {
        tracing::warn!(error = %err, "cannot ask the window for its unsaved edits; closing it");
        let _ = destroy(app, Some(attempt));
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(CLOSE_GRACE).await;
        if destroy(&app, Some(attempt)) {
            tracing::warn!(
                "the window did not answer its close within {CLOSE_GRACE:?}; closed it anyway"
            );
        }
    });
}

/// The page has handed over its drafts: the waiting close goes ahead.
pub fn finish_close<R: Runtime>(app: &AppHandle<R>) {
    let _ = destroy(app, None);
}

/// Destroys the main window if close `attempt` (or any, for `None`) is
/// still the one waiting; false when it was not (already closed, or a
/// later close is waiting).
fn destroy<R: Runtime>(app: &AppHandle<R>, attempt: Option<u64>) -> bool {
    let Some(handover) = app.try_state::<Handover>() else {
        return false;
    };
    if !handover.end_close(attempt) {
        return false;
    }
    if let Some(window) = app.get_webview_window(MAIN_WINDOW)
        && let Err(err) = window.destroy()
    {
        tracing::error!(error = %err, "cannot close the window");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_window_url_gives_the_route_in_its_fragment() {
        let url = |s: &str| tauri::Url::parse(s).unwrap();
        assert_eq!(
            route_of(&url(
                "tauri://localhost/index.html#/timeline?repo=/src/app&agent=a"
            ))
            .as_deref(),
            Some("timeline?repo=/src/app&agent=a")
        );
        assert_eq!(
            route_of(&url("http://tauri.localhost/#/settings")).as_deref(),
            Some("settings")
        );
        assert_eq!(route_of(&url("tauri://localhost/index.html")), None);
        assert_eq!(route_of(&url("tauri://localhost/index.html#/")), None);
    }

    #[test]
    fn drafts_are_taken_once_and_null_clears_them() {
        let handover = Handover::default();
        assert_eq!(handover.take_drafts(), None);
        let drafts = json!({"version": 1, "projects": [["/src/app", []]]});
        handover.stash_drafts(drafts.clone()).unwrap();
        assert_eq!(handover.take_drafts(), Some(drafts.clone()));
        assert_eq!(handover.take_drafts(), None, "a second window gets nothing");

        handover.stash_drafts(drafts).unwrap();
        handover.stash_drafts(Value::Null).unwrap();
        assert_eq!(handover.take_drafts(), None);
    }

    #[test]
    fn an_oversized_stash_is_refused_and_the_previous_one_kept() {
        let handover = Handover::default();
        handover.stash_drafts(json!({"kept": true})).unwrap();
        let huge = Value::String("x".repeat(MAX_STASH_BYTES));
        let err = handover.stash_drafts(huge).unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::InvalidInput);
        assert!(err.message.contains("too large"), "{}", err.message);
        assert_eq!(handover.take_drafts(), Some(json!({"kept": true})));
    }

    #[test]
    fn a_close_waits_once_and_a_late_timer_spares_the_next_window() {
        let handover = Handover::default();
        let first = handover.begin_close(Some("settings".into())).unwrap();
        assert_eq!(handover.begin_close(None), None, "a second click waits too");
        assert_eq!(handover.take_route().as_deref(), Some("settings"));
        // The page answered: the close ends.
        assert!(handover.end_close(None));
        // The next window is closed; the first close's timer fires late.
        let second = handover.begin_close(None).unwrap();
        assert_ne!(first, second);
        assert!(
            !handover.end_close(Some(first)),
            "the late timer does nothing"
        );
        assert!(handover.end_close(Some(second)));
        assert!(!handover.end_close(None), "nothing is waiting any more");
    }
}
