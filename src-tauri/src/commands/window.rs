//! The window's own commands: the close handshake and the Hook editor's
//! drafts kept while the window is closed ([`crate::closing`]).

// Tauri hands commands their extractors (`State`, `AppHandle`) by value.
#![allow(clippy::needless_pass_by_value)]

use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

use super::registry::command;
use crate::closing::{self, Handover};
use crate::error::Result;

command! {
    /// Keeps the Hook editor's unsaved edits while the window is closed
    /// (null forgets them); refused above 4 MiB.
    pub(crate) fn stash_hook_drafts[handover: State<'_, Handover>](drafts: Value) -> Result<()> {
        handover.stash_drafts(drafts)
    }
}

command! {
    /// The edits a closed window left, once.
    pub(crate) fn take_hook_drafts[handover: State<'_, Handover>]() -> Option<Value> {
        handover.take_drafts()
    }
}

command! {
    /// The page has handed over what it keeps: the close it was asked about
    /// (`window-closing`) goes ahead.
    pub(crate) fn finish_window_close<R: Runtime>[app: AppHandle<R>]() {
        closing::finish_close(&app);
    }
}
