//! The Health view's command: the core's health check of one project.

use hookd_core::health::HealthReport;
use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::error::Result;
use crate::health;

command! {
    /// The health of the project's hooks over the last `days` (7 when null):
    /// findings, the serious ones first, and the managed hooks' evidence.
    pub(crate) async fn project_health<R: Runtime>[app: AppHandle<R>](
        project: String,
        days: Option<u32>,
    ) -> Result<HealthReport> {
        blocking(&app, move |state| health::project_health(state, &project, days)).await
    }
}
