//! The Timeline's Revert commands: preview a revert (of a tool call, a
//! session, an agent's changes, or a file back to a version), apply exactly
//! what was previewed, and preview undoing a revert. The plans and their
//! rules are hookd-core's; [`crate::rewind`] keeps a preview's plan until
//! it is applied.

use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::error::Result;
use crate::rewind::{self, RewindApplied, RewindConflicts, RewindPreview, RewindTarget};

command! {
    /// What reverting `target` in the repository holding `repo` would do,
    /// file by file; writes nothing. Apply it with `rewind_apply` and the
    /// preview's id.
    pub(crate) async fn rewind_preview<R: Runtime>[app: AppHandle<R>](
        repo: String,
        target: RewindTarget,
    ) -> Result<RewindPreview> {
        blocking(&app, move |state| rewind::rewind_preview(state, &repo, &target)).await
    }
}

command! {
    /// Carries out exactly the plan of the preview `preview`, recorded so it
    /// can be undone. Nothing is written when a file is not restorable, when
    /// one conflicts and `conflicts` is `refuse`, or when one changed since
    /// the preview (`conflict`: preview again).
    pub(crate) async fn rewind_apply<R: Runtime>[app: AppHandle<R>](
        preview: String,
        conflicts: RewindConflicts,
    ) -> Result<RewindApplied> {
        blocking(&app, move |state| rewind::rewind_apply(state, &preview, conflicts)).await
    }
}

command! {
    /// What undoing the revert `rewind` (the newest one recorded in the
    /// repository when null) would do; apply it with `rewind_apply`.
    pub(crate) async fn rewind_undo<R: Runtime>[app: AppHandle<R>](
        repo: String,
        rewind: Option<String>,
    ) -> Result<RewindPreview> {
        blocking(&app, move |state| rewind::rewind_undo(state, &repo, rewind.as_deref())).await
    }
}
