//! The Hook editor's Templates tab: the catalogue of ready-made hooks and
//! installing one into (or removing it from) a settings file.

use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::editor::FileRef;
use crate::error::Result;
use crate::templates::{self, TemplateCatalog, TemplateChange};

command! {
    /// Every ready-made hook, where it is installed (for `project`, or the
    /// global files only when null), and the settings files that could not
    /// be read.
    pub(crate) async fn templates_catalog<R: Runtime>[app: AppHandle<R>](
        project: Option<String>,
    ) -> Result<TemplateCatalog> {
        blocking(&app, move |state| {
            templates::catalog(state, project.as_deref())
        })
        .await
    }
}

command! {
    /// Copies the template's script and adds its handlers to `file`;
    /// installing twice changes nothing.
    pub(crate) async fn install_template<R: Runtime>[app: AppHandle<R>](
        name: String,
        file: FileRef,
    ) -> Result<TemplateChange> {
        blocking(&app, move |state| templates::install(state, &name, &file)).await
    }
}

command! {
    /// Removes exactly what installing the template added.
    pub(crate) async fn uninstall_template<R: Runtime>[app: AppHandle<R>](
        name: String,
        file: FileRef,
    ) -> Result<TemplateChange> {
        blocking(&app, move |state| templates::uninstall(state, &name, &file)).await
    }
}
