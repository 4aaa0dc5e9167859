//! The Projects screen's "Connect" button: `hookd connect` (and
//! `hookd disconnect`) for one project, agent and scope, showing the exact
//! change to the agent's hooks file before writing it. Claude Code's files
//! go through [`connect`]; every other agent's through its
//! [`connector::Connector`], as `hookd connect --agent` does, with what
//! keeps that agent from running the entries at all (an administrator's
//! switch, [`connector::connect_warnings`]) beside the preview and the
//! result, as `hookd connect` prints it.
//!
//! A preview is the core's plan of the edit rendered instead of saved
//! ([`connect::preview_connect`]), so the diff shown is byte for byte
//! what an apply writes. The preview carries a version token of the file as
//! it was read; an apply whose file changed since then (the user's editor,
//! the agent's `/hooks`, another hookd) is refused with
//! [`ErrorKind::Conflict`] and writes nothing, so nobody approves one diff
//! and gets another.

use std::path::PathBuf;

use hookd_core::AgentKind;
use hookd_core::settings::connect::{self, ChangeStatus, EditPreview, Mode};
use hookd_core::settings::connector::{self, Connector};
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};
use serde::Serialize;
use ts_rs::TS;

use crate::error::core;
use crate::error::{AppError, ErrorKind, Result};
use crate::project::project_root;
use crate::state::AppState;

/// The change a connect or disconnect would make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ConnectPreview {
    /// The settings file.
    pub path: String,
    /// It exists now.
    pub exists: bool,
    /// Applying would write it (false: already connected, or nothing to remove).
    pub changes: bool,
    /// Its text now (empty when it does not exist).
    pub before: String,
    /// Its text after applying (equal to `before` when nothing changes).
    pub after: String,
    /// Events that gain a hookd entry (connect) or lose one (disconnect).
    pub events: Vec<String>,
    /// The command prefix the entries run (connect; empty for disconnect).
    pub emit_command: String,
    /// That command's program exists (beside the app or on `PATH`).
    pub emit_found: bool,
    /// The file sets `disableAllHooks: true`: the agent runs no hook at all.
    pub hooks_disabled: bool,
    /// Token of the file as read; give it back to apply.
    pub version: String,
    /// What the user must know once it is applied (e.g. Codex CLI runs a
    /// new hook only once trusted in its `/hooks`); empty for Claude Code.
    pub notes: Vec<String>,
    /// Why the agent will not run the entries wherever they are written,
    /// one sentence each, as `hookd connect --agent` prints them
    /// ([`connector::connect_warnings`]: e.g. Codex CLI's administrator's
    /// `[features] hooks = false`); empty for a disconnect.
    pub warnings: Vec<String>,
}

/// What an apply did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ConnectResult {
    /// The settings file.
    pub path: String,
    /// It was written.
    pub written: bool,
    /// It did not exist before.
    pub created: bool,
    /// The copy of the previous file, when one was kept.
    pub backup: Option<String>,
    /// Events that gained (connect) or lost (disconnect) a hookd entry.
    pub events: Vec<String>,
    /// Why the agent will not run the entries, as in [`ConnectPreview`]
    /// (connect; empty for a disconnect).
    pub warnings: Vec<String>,
}

/// The agent named `name` (`claude`, `codex`, …).
pub fn agent_of(name: &str) -> Result<AgentKind> {
    AgentKind::parse(name).ok_or_else(|| {
        AppError::invalid_input(format!(
            "unknown agent {name:?}: expected one of {}",
            AgentKind::names()
        ))
    })
}

/// What `connect_apply` would write: the file before and after adding
/// hookd's entries in `mode` to `agent`'s file of `scope`.
pub fn connect_preview(
    state: &AppState,
    project: &str,
    agent: AgentKind,
    scope: Scope,
    mode: Mode,
) -> Result<ConnectPreview> {
    let emit = connect::emit_command_for(None, scope).map_err(core)?;
    if let Some(connector) = connector::of(agent) {
        let target = agent_target(state, connector, project, scope)?;
        let preview = connector
            .preview_connect(&target.location, &emit, mode)
            .map_err(core)?;
        let mut out = preview_of(&preview, emit);
        if out.changes {
            out.notes = connector.connect_notes(&target.location);
        }
        // Also when nothing changes, as `hookd connect` prints them.
        out.warnings = target.warnings(agent);
        return Ok(out);
    }
    let location = settings_location(state, project, scope)?;
    let preview = connect::preview_connect_at(&location, &emit, mode).map_err(core)?;
    Ok(preview_of(&preview, emit))
}

/// Adds hookd's entries to the file, provided it still is what the preview
/// with `version` showed (else [`ErrorKind::Conflict`], nothing written).
pub fn connect_apply(
    state: &AppState,
    project: &str,
    agent: AgentKind,
    scope: Scope,
    mode: Mode,
    version: &str,
) -> Result<ConnectResult> {
    let emit = connect::emit_command_for(None, scope).map_err(core)?;
    let (report, warnings) = if let Some(connector) = connector::of(agent) {
        let target = agent_target(state, connector, project, scope)?;
        let report = connector
            .connect_if(&target.location, &emit, mode, version)
            .map_err(core)?;
        (report, target.warnings(agent))
    } else {
        let location = settings_location(state, project, scope)?;
        // The version is compared under the file's lock, with what is written.
        let report =
            connect::connect_checked(&location, &emit, mode, |now| check_version(now, version))?;
        (report, Vec::new())
    };
    tracing::info!(file = %report.path.display(), %agent, ?mode, added = report.count, "connected hookd");
    Ok(ConnectResult {
        warnings,
        ..result_of(&report)
    })
}

/// What `disconnect_apply` would write: the file without hookd's entries.
pub fn disconnect_preview(
    state: &AppState,
    project: &str,
    agent: AgentKind,
    scope: Scope,
) -> Result<ConnectPreview> {
    let preview = if let Some(connector) = connector::of(agent) {
        let target = agent_target(state, connector, project, scope)?;
        connector.preview_disconnect(&target.location)
    } else {
        connect::preview_disconnect_at(&settings_location(state, project, scope)?)
    };
    Ok(preview_of(&preview.map_err(core)?, String::new()))
}

/// Removes hookd's entries from the file, provided it still is what the
/// preview with `version` showed.
pub fn disconnect_apply(
    state: &AppState,
    project: &str,
    agent: AgentKind,
    scope: Scope,
    version: &str,
) -> Result<ConnectResult> {
    let report = if let Some(connector) = connector::of(agent) {
        let target = agent_target(state, connector, project, scope)?;
        connector
            .disconnect_if(&target.location, version)
            .map_err(core)?
    } else {
        let location = settings_location(state, project, scope)?;
        connect::disconnect_checked(&location, |now| check_version(now, version))?
    };
    tracing::info!(file = %report.path.display(), %agent, removed = report.count, "disconnected hookd");
    Ok(result_of(&report))
}

/// Another agent's hooks file that a connect or disconnect edits, with
/// what [`connector::connect_warnings`] reads beside it.
struct AgentTarget<'a> {
    /// The settings roots (home, the administrator's directories).
    roots: &'a SettingsRoots,
    /// The project's root; `None` for the global scope, as in `hookd
    /// connect --agent`, which reads no project's settings there.
    project: Option<PathBuf>,
    /// The hooks file.
    location: SettingsLocation,
}

impl AgentTarget<'_> {
    /// Why `agent` will not run the entries written to this file.
    fn warnings(&self, agent: AgentKind) -> Vec<String> {
        connector::connect_warnings(self.roots, agent, self.project.as_deref())
    }
}

/// `connector`'s hooks file of `scope` for `project` (the user's for the
/// global scope); the agent's missing scopes are refused by the core.
fn agent_target<'a>(
    state: &'a AppState,
    connector: &dyn Connector,
    project: &str,
    scope: Scope,
) -> Result<AgentTarget<'a>> {
    let roots = state.roots()?;
    let project = match scope {
        Scope::Global => None,
        _ => Some(project_root(project)?),
    };
    let location = connector
        .location(roots, scope, project.as_deref())
        .map_err(core)?;
    Ok(AgentTarget {
        roots,
        project,
        location,
    })
}

/// The agent settings file of `scope`, with what a write must respect (a
/// project or local file that leads out of the project is refused).
fn settings_location(state: &AppState, project: &str, scope: Scope) -> Result<SettingsLocation> {
    let roots = state.roots()?;
    let location = match scope {
        Scope::Global => roots.location(Kind::Agent, Scope::Global, None),
        Scope::Project | Scope::Local => {
            roots.location(Kind::Agent, scope, Some(&project_root(project)?))
        }
        Scope::Policy => {
            return Err(AppError::invalid_input(
                "the policy settings file is the administrator's; hookd never writes it",
            ));
        }
    };
    location.map_err(core)
}

fn preview_of(preview: &EditPreview, emit: String) -> ConnectPreview {
    let text = |bytes: Option<&Vec<u8>>| {
        bytes
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    };
    let report = &preview.report;
    ConnectPreview {
        path: report.path.display().to_string(),
        exists: preview.before.is_some(),
        changes: matches!(report.status, ChangeStatus::WouldWrite { .. }),
        before: text(preview.before.as_ref()),
        after: text(preview.after.as_ref()),
        events: report.events.clone(),
        emit_found: emit.is_empty() || connect::emit_found(&emit),
        emit_command: emit,
        hooks_disabled: report.hooks_disabled,
        version: preview.version(),
        notes: Vec::new(),
        warnings: Vec::new(),
    }
}

fn result_of(report: &connect::ChangeReport) -> ConnectResult {
    let (written, created, backup) = match &report.status {
        ChangeStatus::Written(outcome) => (
            true,
            outcome.created,
            outcome.backup.as_ref().map(|b| b.display().to_string()),
        ),
        _ => (false, false, None),
    };
    ConnectResult {
        path: report.path.display().to_string(),
        written,
        created,
        backup,
        events: report.events.clone(),
        warnings: Vec::new(),
    }
}

/// Refuses when the file is no longer what the preview with `version` read.
fn check_version(now: &EditPreview, version: &str) -> Result<()> {
    if now.version() == version {
        return Ok(());
    }
    Err(AppError::new(
        ErrorKind::Conflict,
        format!(
            "{} changed since the preview; nothing was written. Review the new change and apply again",
            now.report.path.display()
        ),
    ))
}
