//! The Connect dialog's commands: previewing and applying the hookd entries
//! in a coding agent's hooks file (`agent`: `claude`, `codex`, `gemini`,
//! `cursor`, `copilot`; record or managed mode), and removing them.

use hookd_core::settings::Scope;
use hookd_core::settings::connect::Mode;
use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::connect::{self, ConnectPreview, ConnectResult};
use crate::error::Result;

command! {
    /// The settings file of `scope` before and after connecting; writes nothing.
    pub(crate) async fn connect_preview<R: Runtime>[app: AppHandle<R>](
        project: String,
        agent: String,
        scope: Scope,
        mode: Mode,
    ) -> Result<ConnectPreview> {
        let agent = connect::agent_of(&agent)?;
        blocking(&app, move |state| {
            connect::connect_preview(state, &project, agent, scope, mode)
        })
        .await
    }
}

command! {
    /// Connects: writes what the preview of `version` showed; a stale
    /// version is a `conflict`.
    pub(crate) async fn connect_apply<R: Runtime>[app: AppHandle<R>](
        project: String,
        agent: String,
        scope: Scope,
        mode: Mode,
        version: String,
    ) -> Result<ConnectResult> {
        let agent = connect::agent_of(&agent)?;
        blocking(&app, move |state| {
            connect::connect_apply(state, &project, agent, scope, mode, &version)
        })
        .await
    }
}

command! {
    /// The settings file of `scope` before and after removing hookd's entries.
    pub(crate) async fn disconnect_preview<R: Runtime>[app: AppHandle<R>](
        project: String,
        agent: String,
        scope: Scope,
    ) -> Result<ConnectPreview> {
        let agent = connect::agent_of(&agent)?;
        blocking(&app, move |state| {
            connect::disconnect_preview(state, &project, agent, scope)
        })
        .await
    }
}

command! {
    /// Disconnects: removes hookd's entries as previewed; a stale version is
    /// a `conflict`.
    pub(crate) async fn disconnect_apply<R: Runtime>[app: AppHandle<R>](
        project: String,
        agent: String,
        scope: Scope,
        version: String,
    ) -> Result<ConnectResult> {
        let agent = connect::agent_of(&agent)?;
        blocking(&app, move |state| {
            connect::disconnect_apply(state, &project, agent, scope, &version)
        })
        .await
    }
}
