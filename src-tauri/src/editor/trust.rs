//! The Hook editor's trust banner: which of a project's managed hook files
//! hookd will not run because the user has not approved their content, what
//! they would run, and the Trust button that approves exactly what was shown.
//!
//! The rule lives in `hookd_core::settings::trust`; this adapts it.

use std::path::Path;

use hookd_core::settings::trust::{self, FileReview};

use super::{project_dir, settings_error};
use crate::error::{AppError, Result};
use crate::state::AppState;

/// The project's managed hook files (project and local scope), with their
/// trust and hooks.
pub fn trust_review(state: &AppState, project: &str) -> Result<Vec<FileReview>> {
    let project = project_dir(project)?;
    trust::review(state.roots()?, &project).map_err(settings_error)
}

/// Approves `path` (one of the project's managed hook files) if its bytes
/// still hash to `digest`, the one the window showed; a file changed since
/// is a conflict and nothing is approved. Returns the review afterwards.
pub fn trust_approve(
    state: &AppState,
    project: &str,
    path: &str,
    digest: &str,
) -> Result<Vec<FileReview>> {
    let before = trust_review(state, project)?;
    let Some(file) = before.iter().find(|f| f.path == Path::new(path)) else {
        return Err(AppError::invalid_input(format!(
            "{path} is not one of this project's managed hook files"
        )));
    };
    trust::approve_reviewed(state.roots()?, &file.path, digest).map_err(settings_error)?;
    trust_review(state, project)
}
