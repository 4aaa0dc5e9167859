//! The Hook editor's backend: the six settings files of a project (the
//! agent's and hookd's, each at global, project and local scope) as
//! structured, editable hooks; the effective view; matcher checks; and
//! saves, enables, disables and moves that all go through the core's safe
//! write.
//!
//! Everything here adapts `hookd_core::settings`: reading, validating,
//! editing and writing stay in the core, so the editor, the CLI and the
//! daemon agree on what a file means and how it is written. The editor adds
//! two things the window needs: a *version* token per file (a hash of the
//! bytes it showed, so a save made after someone else changed the file is
//! refused with [`ErrorKind::Conflict`] instead of overwriting their change),
//! and a structure of the `hooks` tree that keeps each group's and
//! handler's raw JSON, so fields and handler types the editor does not know
//! are shown read-only and written back untouched.
//!
//! - [`catalogue`]: the event picker's catalogue and live matcher checks;
//! - [`files`]: the six files, structured;
//! - [`view`]: the effective hooks of a project;
//! - [`trust`](mod@trust): which managed files are not approved, and approving them;
//! - [`copy`]: "Copy to …", one hook as another coding agent's entry;
//! - [`write`](mod@write): preview (diff), save, enable/disable, and move
//!   (previewed too).

pub mod agent_files;
pub mod agent_runs;
pub mod catalogue;
pub mod copy;
pub mod files;
pub mod trust;
pub mod view;
pub mod write;

use std::path::{Path, PathBuf};

use hookd_core::settings::{Kind, Scope, SettingsError, SettingsLocation};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{AppError, ErrorKind, Result};
use crate::state::AppState;

pub use catalogue::{HookEventInfo, MatcherCheck, check_matcher, hook_events};
pub use copy::{HookCopy, copy_hook};
pub use files::{
    BadMatcher, DisabledEntry, EventHooks, HookFile, HookGroup, HookHandler, Problem, hook_file,
    hook_files,
};
pub use view::{EffectiveEntry, EffectiveFile, EffectiveView, effective_hooks};
pub use write::{
    HookRef, MovePreview, MoveResult, MoveVersions, SavePreview, SaveResult, move_hook,
    preview_hooks_save, preview_move_hook, save_hooks, set_hook_enabled,
};

/// One settings file, named by what it is rather than by its path, so the
/// window can only ever write one of the files hookd manages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileRef {
    /// The project's root; required for the project and local scopes.
    pub project: Option<String>,
    /// Agent or managed.
    pub kind: Kind,
    /// Global, project or local.
    pub scope: Scope,
}

/// The six files the editor shows, in tab order: the agent's, then hookd's.
pub const EDITABLE: [(Kind, Scope); 6] = [
    (Kind::Agent, Scope::Global),
    (Kind::Agent, Scope::Project),
    (Kind::Agent, Scope::Local),
    (Kind::Managed, Scope::Global),
    (Kind::Managed, Scope::Project),
    (Kind::Managed, Scope::Local),
];

/// A project root from the window: it must be an existing absolute directory.
pub fn project_dir(project: &str) -> Result<PathBuf> {
    let path = PathBuf::from(project);
    if !path.is_absolute() {
        return Err(AppError::invalid_input(format!(
            "project {project:?} is not an absolute path"
        )));
    }
    if !path.is_dir() {
        return Err(AppError::new(
            ErrorKind::NotFound,
            format!("project {project} is not an existing folder"),
        ));
    }
    Ok(path)
}

/// Where `file` is on disk.
pub(crate) fn location(state: &AppState, file: &FileRef) -> Result<SettingsLocation> {
    let project = file.project.as_deref().map(project_dir).transpose()?;
    state
        .roots()?
        .location(file.kind, file.scope, project.as_deref())
        .map_err(settings_error)
}

/// A core settings error as the window gets it (changed on disk is a
/// conflict, a refused edit invalid input, ...).
pub(crate) fn settings_error(err: SettingsError) -> AppError {
    AppError::from(hookd_core::Error::from(err))
}

/// A path for the window.
pub(crate) fn display(path: &Path) -> String {
    path.display().to_string()
}

/// The refusal for a file whose bytes are no longer those the window showed.
pub(crate) fn conflict(path: &Path) -> AppError {
    AppError::new(
        ErrorKind::Conflict,
        format!(
            "{} changed on disk since it was loaded; nothing was written (reload it, or merge your edits into the new contents)",
            path.display()
        ),
    )
}
