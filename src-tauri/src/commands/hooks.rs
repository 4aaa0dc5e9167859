//! The Hook editor's commands: the event catalogue, a project's six settings
//! files and their effective view, live matcher checks, previewed saves,
//! disabling hooks, previewed moves, a hook copied for another agent, the
//! other agents' hooks files (listed, a hook added or removed, previewed),
//! and the watcher behind `settings-changed`.

// Tauri hands commands their extractors (`State`, `AppHandle`) by value.
#![allow(clippy::needless_pass_by_value)]

use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

use super::blocking;
use super::registry::command;
use crate::editor::agent_files::{
    AgentEditPreview, AgentEditResult, AgentHookFile, AgentHookRef, AgentHookRules,
    AgentHookToggled,
};
use crate::editor::agent_runs::AgentFileVerdicts;
use crate::editor::{
    self, EffectiveView, FileRef, HookCopy, HookEventInfo, HookFile, HookRef, MatcherCheck,
    MovePreview, MoveResult, MoveVersions, SavePreview, SaveResult,
};
use crate::error::Result;
use crate::settings_watch::SettingsWatch;
use hookd_core::settings::agent_edit::AgentEdit;
use hookd_core::settings::trust::FileReview;

command! {
    /// The event catalogue for the editor's picker.
    pub(crate) fn hook_events() -> Vec<HookEventInfo> {
        editor::hook_events()
    }
}

command! {
    /// The six settings files of a project, structured.
    pub(crate) async fn hook_files<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<Vec<HookFile>> {
        blocking(&app, move |state| editor::hook_files(state, &project)).await
    }
}

command! {
    /// The hooks files of the other coding agents that exist for a project
    /// (Codex CLI, Gemini CLI, Cursor, GitHub Copilot; the user's and the
    /// project's).
    pub(crate) async fn agent_hook_files<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<Vec<AgentHookFile>> {
        blocking(&app, move |state| {
            editor::agent_files::agent_hook_files(state, &project)
        })
        .await
    }
}

command! {
    /// What the "Add hook" form offers for each other agent: its events,
    /// where a matcher goes, its timeout unit.
    pub(crate) fn agent_hook_rules() -> Vec<AgentHookRules> {
        editor::agent_files::agent_hook_rules()
    }
}

command! {
    /// An agent's hooks file (one `agent_hook_files` lists for the project)
    /// before and after adding or removing one hook; writes nothing.
    pub(crate) async fn agent_hook_preview<R: Runtime>[app: AppHandle<R>](
        project: String,
        path: String,
        edit: AgentEdit,
    ) -> Result<AgentEditPreview> {
        blocking(&app, move |state| {
            editor::agent_files::agent_hook_preview(state, &project, &path, &edit)
        })
        .await
    }
}

command! {
    /// Adds or removes the hook as the preview of `version` showed; a file
    /// changed since is a `conflict`.
    pub(crate) async fn agent_hook_apply<R: Runtime>[app: AppHandle<R>](
        project: String,
        path: String,
        edit: AgentEdit,
        version: String,
    ) -> Result<AgentEditResult> {
        blocking(&app, move |state| {
            editor::agent_files::agent_hook_apply(state, &project, &path, &edit, &version)
        })
        .await
    }
}

command! {
    /// Disables (takes out of the file, keeps in hookd's store) or enables
    /// (puts back exactly) one hook of an agent's file; `version` is the
    /// file's token the window showed (else a `conflict`).
    pub(crate) async fn set_agent_hook_enabled<R: Runtime>[app: AppHandle<R>](
        project: String,
        path: String,
        hook: AgentHookRef,
        enabled: bool,
        version: String,
    ) -> Result<AgentHookToggled> {
        blocking(&app, move |state| {
            editor::agent_files::set_agent_hook_enabled(
                state,
                &project,
                &path,
                (&hook.json_path, hook.command.as_deref()),
                enabled,
                &version,
            )
        })
        .await
    }
}

command! {
    /// Every hook that applies to a project, and the file it comes from.
    pub(crate) async fn effective_hooks<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<EffectiveView> {
        blocking(&app, move |state| editor::effective_hooks(state, &project)).await
    }
}

command! {
    /// The project's managed hook files with their trust and what they run
    /// (the Hook editor's banner).
    pub(crate) async fn trust_review<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<Vec<FileReview>> {
        blocking(&app, move |state| editor::trust::trust_review(state, &project)).await
    }
}

command! {
    /// Approves one managed hook file of the project if it still has the
    /// content shown (`digest`); a changed file is a `conflict`.
    pub(crate) async fn trust_approve<R: Runtime>[app: AppHandle<R>](
        project: String,
        path: String,
        digest: String,
    ) -> Result<Vec<FileReview>> {
        blocking(&app, move |state| {
            editor::trust::trust_approve(state, &project, &path, &digest)
        })
        .await
    }
}

command! {
    /// One hook as another coding agent's hooks-file entry (`to`: codex,
    /// gemini, cursor, copilot), with what degrades; writes nothing.
    pub(crate) fn copy_hook(
        event: String,
        matcher: Option<String>,
        handler: Value,
        to: String,
    ) -> Result<HookCopy> {
        editor::copy_hook(&event, matcher.as_deref(), &handler, &to)
    }
}

command! {
    /// Live validation of a matcher (null: none) for an event.
    pub(crate) fn check_matcher(event: String, text: Option<String>) -> Result<MatcherCheck> {
        editor::check_matcher(&event, text.as_deref())
    }
}

command! {
    /// A settings file before and after its `hooks` object is replaced; writes nothing.
    pub(crate) async fn preview_hooks_save<R: Runtime>[app: AppHandle<R>](
        file: FileRef,
        hooks: Value,
        version: String,
    ) -> Result<SavePreview> {
        blocking(&app, move |state| {
            editor::preview_hooks_save(state, &file, hooks, &version)
        })
        .await
    }
}

command! {
    /// Writes `hooks` into a settings file; a stale `version` is a `conflict`
    /// unless `force`.
    pub(crate) async fn save_hooks<R: Runtime>[app: AppHandle<R>](
        file: FileRef,
        hooks: Value,
        version: String,
        force: bool,
    ) -> Result<SaveResult> {
        blocking(&app, move |state| {
            editor::save_hooks(state, &file, hooks, &version, force)
        })
        .await
    }
}

command! {
    /// Disables a hook into hookd's store, or enables it again; resolves with
    /// the number of hooks changed.
    pub(crate) async fn set_hook_enabled<R: Runtime>[app: AppHandle<R>](
        file: FileRef,
        hook: HookRef,
        enabled: bool,
        version: String,
    ) -> Result<u64> {
        blocking(&app, move |state| {
            editor::set_hook_enabled(state, &file, &hook, enabled, &version)
        })
        .await
    }
}

command! {
    /// Both settings files before and after moving a hook from one to the
    /// other; writes nothing.
    pub(crate) async fn preview_move_hook<R: Runtime>[app: AppHandle<R>](
        from: FileRef,
        to: FileRef,
        hook: HookRef,
        version: String,
    ) -> Result<MovePreview> {
        blocking(&app, move |state| {
            editor::preview_move_hook(state, &from, &to, &hook, &version)
        })
        .await
    }
}

command! {
    /// Moves a hook from one settings file to another, as previewed: either
    /// file changed since its token in `versions` is a `conflict`.
    pub(crate) async fn move_hook<R: Runtime>[app: AppHandle<R>](
        from: FileRef,
        to: FileRef,
        hook: HookRef,
        versions: MoveVersions,
    ) -> Result<MoveResult> {
        blocking(&app, move |state| {
            editor::move_hook(state, &from, &to, &hook, &versions)
        })
        .await
    }
}

command! {
    /// Reports changes of the project's settings files as `settings-changed`
    /// events; resolves with the files watched.
    pub(crate) fn watch_settings[watch: State<'_, SettingsWatch>](
        project: String,
    ) -> Result<Vec<String>> {
        let project = editor::project_dir(&project)?;
        watch.watch_project(&project)
    }
}

command! {
    /// Whether each hook of the other coding agents' files will run for a
    /// project, and why not, per file in `agent_hook_files`' order.
    pub(crate) async fn agent_verdicts<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<Vec<AgentFileVerdicts>> {
        blocking(&app, move |state| {
            editor::agent_runs::agent_verdicts(state, &project)
        })
        .await
    }
}
