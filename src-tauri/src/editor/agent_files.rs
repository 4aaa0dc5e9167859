//! The Hook editor's tabs of the other coding agents: each hooks file of
//! Codex CLI, Gemini CLI, Cursor and GitHub Copilot that exists for the
//! project, with its hooks and what the agent would make of it.
//!
//! The core reads them (`hookd_core::settings::agent_files`); this adapts
//! its answer for the window: the agent's name and label as strings, paths
//! and errors as text, the check's findings as the editor's [`Problem`]s.
//! The window shows them read-only: hookd writes those files only through
//! `hookd connect --agent` and `hookd hooks convert --write`.

use hookd_core::settings::Scope;
use hookd_core::settings::agent_files::{self, AgentHookFile as CoreFile};
use hookd_core::settings::convert;
use hookd_core::settings::validate::ValidationError;
use serde::Serialize;
use ts_rs::TS;

use super::files::Problem;
use super::{display, project_dir};
use crate::error::Result;
use crate::state::AppState;

/// One hooks file of another coding agent, as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AgentHookFile {
    /// The agent (`codex`, `gemini`, `cursor`, `copilot`).
    pub agent: String,
    /// Its name for a person (`Codex CLI`).
    pub label: String,
    /// The user's file (`global`) or the project's (`project`).
    pub scope: Scope,
    /// Where it is.
    pub path: String,
    /// Its file name (Copilot keeps several files per scope).
    pub name: String,
    /// Why it could not be read (then it shows no hooks).
    pub error: Option<String>,
    /// Its hooks, in file order.
    pub hooks: Vec<AgentHook>,
    /// What makes the agent drop the file or a hook of it, with JSON paths.
    pub errors: Vec<Problem>,
    /// What the agent skips or ignores, with JSON paths.
    pub warnings: Vec<Problem>,
    /// What to know about its timeouts (Gemini CLI counts milliseconds).
    pub timeout_note: Option<String>,
}

/// One hook of an agent's file.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AgentHook {
    /// Its event, as the agent spells it (`BeforeTool`).
    pub event: String,
    /// The Claude Code event it is (`PreToolUse`); `null`: none.
    pub claude_event: Option<String>,
    /// Its matcher (`null`: absent).
    pub matcher: Option<String>,
    /// The entry's type (`command`, `prompt`, `http`, …).
    pub handler_type: String,
    /// The command it runs; `null` for another type or a missing command.
    pub command: Option<String>,
    /// Its timeout in seconds (`null`: the agent's default).
    pub timeout_secs: Option<f64>,
    /// hookd's own entry (it runs `hookd-emit`).
    pub hookd: bool,
    /// Where it is in the file (`hooks.BeforeTool[0].hooks[1]`).
    pub json_path: String,
}

/// Every other agent's hooks file that exists for `project` (the user's
/// and the project's), in agent order.
pub fn agent_hook_files(state: &AppState, project: &str) -> Result<Vec<AgentHookFile>> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    Ok(agent_files::agent_hook_files(roots, Some(&project))
        .into_iter()
        .map(adapt)
        .collect())
}

/// The core's file as the window's.
fn adapt(file: CoreFile) -> AgentHookFile {
    let problems = |found: Vec<ValidationError>| {
        found
            .into_iter()
            .map(|e| Problem {
                path: e.path,
                message: e.message,
            })
            .collect()
    };
    AgentHookFile {
        agent: file.agent.as_str().to_owned(),
        label: convert::label(file.agent).to_owned(),
        scope: file.scope,
        path: display(&file.path),
        name: file.file_name(),
        error: file.error.as_ref().map(ToString::to_string),
        hooks: file
            .hooks
            .into_iter()
            .map(|h| AgentHook {
                event: h.event,
                claude_event: h.claude_event,
                matcher: h.matcher,
                handler_type: h.handler_type,
                command: h.command,
                timeout_secs: h.timeout_secs,
                hookd: h.hookd,
                json_path: h.json_path,
            })
            .collect(),
        errors: problems(file.check.errors),
        warnings: problems(file.check.warnings),
        timeout_note: file.timeout_note.map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use hookd_core::settings::SettingsRoots;

    use super::*;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn each_agent_file_is_labelled_with_its_hooks_and_findings() {
        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("proj");
        fs::create_dir_all(&project).unwrap();
        let state = AppState::new(
            home.path().join("data"),
            home.path().join("hookd.sock"),
            Some(SettingsRoots::under(home.path())),
        );
        assert!(
            agent_hook_files(&state, &project.display().to_string())
                .unwrap()
                .is_empty()
        );
        write(
            &home.path().join(".gemini/settings.json"),
            r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": "hookd-emit --agent gemini BeforeTool", "timeout": 10000}]}]}}"#,
        );
        write(
            &project.join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {"stop": [{"command": "./done.sh"}, {"timeout": 3}]}}"#,
        );
        let files = agent_hook_files(&state, &project.display().to_string()).unwrap();
        let shown: Vec<(&str, &str, Scope, &str)> = files
            .iter()
            .map(|f| (f.agent.as_str(), f.label.as_str(), f.scope, f.name.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("gemini", "Gemini CLI", Scope::Global, "settings.json"),
                ("cursor", "Cursor", Scope::Project, "hooks.json"),
            ]
        );
        let gemini = &files[0];
        assert!(
            gemini
                .timeout_note
                .as_deref()
                .unwrap()
                .contains("milliseconds")
        );
        assert_eq!(
            gemini.hooks,
            [AgentHook {
                event: "BeforeTool".into(),
                claude_event: Some("PreToolUse".into()),
                matcher: Some("run_shell_command".into()),
                handler_type: "command".into(),
                command: Some("hookd-emit --agent gemini BeforeTool".into()),
                timeout_secs: Some(10.0),
                hookd: true,
                json_path: "hooks.BeforeTool[0].hooks[0]".into(),
            }]
        );
        let cursor = &files[1];
        assert_eq!(
            cursor.path,
            project.join(".cursor/hooks.json").display().to_string()
        );
        assert_eq!(cursor.hooks.len(), 2);
        assert!(
            cursor
                .errors
                .iter()
                .any(|e| e.path.starts_with("hooks.stop[1]")),
            "{:?}",
            cursor.errors
        );
        // Not a project: refused, as every editor command does.
        assert!(agent_hook_files(&state, "relative/path").is_err());
    }

    #[test]
    fn an_unreadable_file_carries_its_error_as_text() {
        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("proj");
        write(&project.join(".codex/hooks.json"), "{ not json");
        let state = AppState::new(
            home.path().join("data"),
            home.path().join("hookd.sock"),
            Some(SettingsRoots::under(home.path())),
        );
        let files = agent_hook_files(&state, &project.display().to_string()).unwrap();
        assert_eq!(files.len(), 1);
        assert!(
            files[0]
                .error
                .as_deref()
                .unwrap()
                .contains("not valid JSON"),
            "{:?}",
            files[0].error
        );
        assert!(files[0].hooks.is_empty());
    }
}
