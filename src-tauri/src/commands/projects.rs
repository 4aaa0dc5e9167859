//! The Projects screen's commands: the known repositories and adding folders.

use std::path::PathBuf;

use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::error::Result;
use crate::projects::{self, AddProjectsResult, ProjectInfo};

command! {
    /// Every project, newest activity first.
    pub(crate) async fn list_projects<R: Runtime>[app: AppHandle<R>]() -> Result<Vec<ProjectInfo>> {
        blocking(&app, projects::list_projects).await
    }
}

command! {
    /// Adds folders as projects; each refused one comes back with the reason.
    pub(crate) async fn add_projects<R: Runtime>[app: AppHandle<R>](
        paths: Vec<String>,
    ) -> Result<AddProjectsResult> {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        blocking(&app, move |state| projects::add_projects(state, &paths)).await
    }
}
