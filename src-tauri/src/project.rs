//! Projects named by the window: a path string must be absolute before the
//! core's one project-root rule ([`hookd_core::project::project_root`])
//! turns it into a project root.

use std::path::{Path, PathBuf};

use crate::error::{AppError, Result, core};

/// The project's root: the folder given, or the root of the git work tree
/// it is in (what `hookd hooks test --project` uses).
pub fn project_root(project: &str) -> Result<PathBuf> {
    let path = Path::new(project);
    if project.trim().is_empty() || !path.is_absolute() {
        return Err(AppError::invalid_input(format!(
            "project {project:?} is not an absolute path"
        )));
    }
    hookd_core::project::project_root(path).map_err(core)
}
