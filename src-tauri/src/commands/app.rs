//! The app's own commands: what the footer and the Settings screen show
//! (version, daemon, launch on login) and the window's paint marks.

// Tauri hands commands their extractors (`State`, `AppHandle`) by value.
#![allow(clippy::needless_pass_by_value)]

use hookd_core::daemon::status::DaemonStatus;
use tauri::{AppHandle, Runtime, State};

use super::blocking;
use super::registry::command;
use crate::error::Result;
use crate::perf::{self, UiMark};
use crate::state::{AppInfo, AppState};

command! {
    /// Version, daemon status, data directory.
    pub(crate) fn app_info[state: State<'_, AppState>]() -> AppInfo {
        state.app_info()
    }
}

command! {
    /// The status file of the daemon on the app's socket (own or attached);
    /// null when there is none.
    pub(crate) async fn daemon_status<R: Runtime>[app: AppHandle<R>]()
        -> Result<Option<DaemonStatus>>
    {
        blocking(&app, AppState::daemon_status).await
    }
}

command! {
    /// The window painted something worth timing; logged.
    pub(crate) fn ui_mark(mark: UiMark) {
        perf::record(&mark);
    }
}

command! {
    /// Turns the XDG autostart entry on or off; resolves with the state afterwards.
    pub(crate) fn set_launch_on_login<R: Runtime>[app: AppHandle<R>](
        enabled: bool,
    ) -> Result<bool> {
        let on = crate::autostart::set_for_app(&app, enabled)?;
        crate::tray::refresh_in_background(&app, false);
        Ok(on)
    }
}

command! {
    /// Whether the app starts on login.
    pub(crate) fn launch_on_login<R: Runtime>[app: AppHandle<R>]() -> Result<bool> {
        crate::autostart::is_enabled_for_app(&app)
    }
}
