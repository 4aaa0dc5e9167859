//! The Hook editor's tabs of the other coding agents: each hooks file of
//! Codex CLI, Gemini CLI, Cursor and GitHub Copilot that exists for the
//! project, with its hooks and what the agent would make of it.
//!
//! The core reads them (`hookd_core::settings::agent_files`); this adapts
//! its answer for the window: the agent's name and label as strings, paths
//! and errors as text, the check's findings as the editor's [`Problem`]s.
//! Three edits are made here ([`agent_hook_preview`], [`agent_hook_apply`]):
//! a hook added with the agent's own event list and field rules, one
//! changed in place, or one removed, each shown as a diff first and written
//! with the core's locked, byte-preserving write
//! (`hookd_core::settings::agent_edit`; for Codex CLI's `config.toml` the
//! same, as TOML), only to a file the list above holds for the project and
//! never to an administrator's file or an extension's (the core refuses).

use std::path::Path;

use hookd_core::AgentKind;
use hookd_core::settings::agent_disabled::{self, AgentDisableError};
use hookd_core::settings::agent_edit::{self, AgentEdit};
use hookd_core::settings::agent_files::{self, AgentHookFile as CoreFile};
use hookd_core::settings::agent_schema;
use hookd_core::settings::connect::{ChangeStatus, EditPreview};
use hookd_core::settings::convert;
use hookd_core::settings::validate::ValidationError;
use hookd_core::settings::{DisabledHook, DisabledStore, Scope};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::files::Problem;
use super::{conflict, display, project_dir, settings_error};
use crate::error::{AppError, ErrorKind, Result, core};
use crate::state::AppState;

/// One hooks file of another coding agent, as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AgentHookFile {
    /// The agent (`codex`, `gemini`, `cursor`, `copilot`).
    pub agent: String,
    /// Its name for a person (`Codex CLI`).
    pub label: String,
    /// The user's file (`global`), the project's (`project`) or the
    /// administrator's (`policy`: read only, never edited here).
    pub scope: Scope,
    /// The Gemini CLI extension that ships this file (`null`: none); such a
    /// file is the extension's, read only.
    pub extension: Option<String>,
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
    /// Its hooks hookd's store keeps disabled (taken out of the file), in
    /// the order they were disabled.
    pub disabled: Vec<AgentDisabledHook>,
    /// Token of the file as read; give it back to disable or enable.
    pub version: String,
}

/// A hook of an agent's file that hookd keeps disabled.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AgentDisabledHook {
    /// Its event, as the agent spells it.
    pub event: String,
    /// The Claude Code event it is; `null`: none.
    pub claude_event: Option<String>,
    /// Its matcher (`null`: none).
    pub matcher: Option<String>,
    /// The command it runs (`null`: none).
    pub command: Option<String>,
    /// Where it was in the file; give it back to enable it.
    pub json_path: String,
    /// When it was disabled (RFC 3339).
    pub disabled_at: String,
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
    /// Gemini CLI's handler `name` (`null`: none, or another agent).
    pub name: Option<String>,
    /// Where it is in the file (`hooks.BeforeTool[0].hooks[1]`).
    pub json_path: String,
}

/// Every other agent's hooks file that exists for `project` (the user's
/// and the project's), in agent order.
/// Each with its disabled hooks; a file left without hooks but with
/// disabled ones (Codex CLI's `config.toml`) is listed too, to enable them.
pub fn agent_hook_files(state: &AppState, project: &str) -> Result<Vec<AgentHookFile>> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    let store = DisabledStore::for_roots(roots);
    let mut files: Vec<AgentHookFile> = agent_files::agent_hook_files(roots, Some(&project))
        .into_iter()
        .map(|f| {
            let disabled = agent_disabled::disabled_in(&store, &f.path).unwrap_or_default();
            adapt(f, disabled)
        })
        .collect();
    // An unreadable store hides only the disabled hooks (the files are
    // still listed), as for the listed files above.
    let unlisted = agent_disabled::unlisted(&store, roots, Some(&project)).unwrap_or_else(|err| {
        tracing::warn!(store = %store.path().display(), error = %err, "cannot read the store of disabled hooks");
        Vec::new()
    });
    for (agent, scope, path) in unlisted {
        let disabled = agent_disabled::disabled_in(&store, &path).unwrap_or_default();
        files.push(AgentHookFile {
            agent: agent.as_str().to_owned(),
            label: convert::label(agent).to_owned(),
            scope,
            extension: None,
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            version: agent_disabled::version_of(&path),
            path: display(&path),
            error: None,
            hooks: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            timeout_note: None,
            disabled: disabled.into_iter().filter_map(disabled_entry).collect(),
        });
    }
    Ok(files)
}

/// A hook of an agent's file as the window names it for a disable or an
/// enable: where it is (or was, disabled) and the command it runs there.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
pub struct AgentHookRef {
    /// Its JSON path ([`AgentHook::json_path`], [`AgentDisabledHook::json_path`]).
    pub json_path: String,
    /// Its command as listed (`null`: none).
    pub command: Option<String>,
}

/// What a disable or an enable did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AgentHookToggled {
    /// The file.
    pub path: String,
    /// The hook's event.
    pub event: String,
    /// Where the hook was (disabled) or is again (enabled), as it was
    /// disabled.
    pub json_path: String,
    /// The hook is enabled now.
    pub enabled: bool,
    /// What the user must know (Codex CLI's trust kept by position), the
    /// core's sentences.
    pub notes: Vec<String>,
}

/// Disables (takes out of the file and keeps in hookd's store) or enables
/// (puts back exactly where it was) the hook at `json_path`, running
/// `command`, of the agent file at `path` (one [`agent_hook_files`] lists
/// for `project`; an administrator's or an extension's file is refused).
/// `version` is the file's token the window showed (else a `conflict`).
pub fn set_agent_hook_enabled(
    state: &AppState,
    project: &str,
    path: &str,
    (json_path, command): (&str, Option<&str>),
    enabled: bool,
    version: &str,
) -> Result<AgentHookToggled> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    let store = DisabledStore::for_roots(roots);
    let done = agent_disabled::set_enabled(
        &store,
        roots,
        Some(&project),
        Path::new(path),
        (json_path, command),
        version,
        enabled,
    )
    .map_err(disable_error)?;
    let hook = done.hook;
    tracing::info!(file = %hook.path.display(), event = %hook.event, json_path, enabled, "agent hook toggled");
    Ok(AgentHookToggled {
        path: display(&hook.path),
        event: hook.event,
        json_path: json_path.to_owned(),
        enabled,
        notes: done.notes,
    })
}

/// The core's refusal of a disable or an enable as the window's error.
fn disable_error(err: AgentDisableError) -> AppError {
    match err {
        AgentDisableError::ChangedOnDisk { path } => conflict(&path),
        AgentDisableError::Settings(e) => settings_error(e),
        AgentDisableError::NotDisabled { .. } => {
            AppError::new(ErrorKind::NotFound, err.to_string())
        }
        other => AppError::invalid_input(other.to_string()),
    }
}

/// A disabled hook of an agent's file as the window's.
fn disabled_entry(d: DisabledHook) -> Option<AgentDisabledHook> {
    let place = d.agent?;
    let claude_event = AgentKind::parse(&place.agent)
        .and_then(|agent| agent_files::claude_event(agent, &d.event))
        .map(str::to_owned);
    Some(AgentDisabledHook {
        claude_event,
        matcher: d.matcher,
        command: place.command,
        json_path: place.json_path,
        disabled_at: d.disabled_at.to_rfc3339(),
        event: d.event,
    })
}

/// What the "Add hook" form of one agent offers: its events, where a
/// matcher goes, the unit of its timeouts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AgentHookRules {
    /// The agent (`codex`, `gemini`, `cursor`, `copilot`).
    pub agent: String,
    /// Its name for a person (`Codex CLI`).
    pub label: String,
    /// Its events, as its files spell them.
    pub events: Vec<String>,
    /// The events whose hooks take a matcher.
    pub matcher_events: Vec<String>,
    /// The unit of its timeouts: `seconds` or `milliseconds` (Gemini CLI).
    pub timeout_unit: String,
    /// The key its timeout goes under (`timeout`, Copilot's `timeoutSec`).
    pub timeout_key: String,
    /// Its hooks take a `name` (Gemini CLI).
    pub named: bool,
}

/// A hook added to or removed from an agent's file, before it is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AgentEditPreview {
    /// The file.
    pub path: String,
    /// Applying would write it.
    pub changes: bool,
    /// Its text now.
    pub before: String,
    /// Its text after applying.
    pub after: String,
    /// The event the edit touches.
    pub events: Vec<String>,
    /// Token of the file as read; give it back to apply.
    pub version: String,
    /// What the user must know once it is applied (Codex CLI runs a new
    /// hook only once trusted in its `/hooks`).
    pub notes: Vec<String>,
}

/// What an applied edit did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AgentEditResult {
    /// The file.
    pub path: String,
    /// It was written.
    pub written: bool,
    /// The copy of the previous file, when one was kept.
    pub backup: Option<String>,
    /// The event the edit touched.
    pub events: Vec<String>,
    /// What the user must know now (as in the preview).
    pub notes: Vec<String>,
}

/// The "Add hook" form's rules of every other agent, in agent order.
pub fn agent_hook_rules() -> Vec<AgentHookRules> {
    let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect();
    AgentKind::ALL
        .into_iter()
        .filter(|agent| *agent != AgentKind::Claude)
        .map(|agent| AgentHookRules {
            agent: agent.as_str().to_owned(),
            label: convert::label(agent).to_owned(),
            events: owned(agent_schema::events(agent)),
            matcher_events: owned(agent_edit::matcher_events(agent)),
            timeout_unit: agent_edit::timeout_unit(agent).to_owned(),
            timeout_key: agent_edit::timeout_key(agent).to_owned(),
            named: agent == AgentKind::Gemini,
        })
        .collect()
}

/// What `edit` would write to the agent file at `path`, one of those
/// [`agent_hook_files`] lists for `project` (any other path is refused).
pub fn agent_hook_preview(
    state: &AppState,
    project: &str,
    path: &str,
    edit: &AgentEdit,
) -> Result<AgentEditPreview> {
    let (agent, location) = edit_location(state, project, path)?;
    let preview = agent_edit::preview(&location, agent, edit).map_err(core)?;
    let changes = matches!(preview.report.status, ChangeStatus::WouldWrite { .. });
    Ok(AgentEditPreview {
        path: display(&location.path),
        changes,
        before: text(&preview, false),
        after: text(&preview, true),
        events: preview.report.events.clone(),
        version: preview.version(),
        notes: if changes {
            agent_edit::notes(agent, &location, edit)
        } else {
            Vec::new()
        },
    })
}

/// Makes `edit` to the agent file at `path`, provided it is still what
/// the preview of `version` read (else a `conflict`, nothing written).
pub fn agent_hook_apply(
    state: &AppState,
    project: &str,
    path: &str,
    edit: &AgentEdit,
    version: &str,
) -> Result<AgentEditResult> {
    let (agent, location) = edit_location(state, project, path)?;
    let report = agent_edit::apply(&location, agent, edit, version).map_err(core)?;
    let (written, backup) = match &report.status {
        ChangeStatus::Written(outcome) => (true, outcome.backup.as_deref().map(display)),
        _ => (false, None),
    };
    tracing::info!(file = %report.path.display(), %agent, events = ?report.events, "edited an agent's hooks file");
    Ok(AgentEditResult {
        path: display(&report.path),
        written,
        backup,
        events: report.events,
        notes: if written {
            agent_edit::notes(agent, &location, edit)
        } else {
            Vec::new()
        },
    })
}

/// The agent and location of `path`, provided the core lists it for
/// `project` and it could be read.
fn edit_location(
    state: &AppState,
    project: &str,
    path: &str,
) -> Result<(AgentKind, hookd_core::settings::SettingsLocation)> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    agent_edit::file_location(roots, Some(&project), Path::new(path))
        .map_err(|err| AppError::invalid_input(err.to_string()))
}

/// A preview's text before or after the edit (empty: no file).
fn text(preview: &EditPreview, after: bool) -> String {
    let bytes = if after {
        preview.after.as_deref()
    } else {
        preview.before.as_deref()
    };
    bytes
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

/// The core's file, with its disabled hooks, as the window's.
fn adapt(file: CoreFile, disabled: Vec<DisabledHook>) -> AgentHookFile {
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
        extension: file.extension.clone(),
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
                name: h.name,
                json_path: h.json_path,
            })
            .collect(),
        errors: problems(file.check.errors),
        warnings: problems(file.check.warnings),
        timeout_note: file.timeout_note.map(str::to_owned),
        version: agent_disabled::version_of(&file.path),
        disabled: disabled.into_iter().filter_map(disabled_entry).collect(),
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
                name: None,
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
    fn a_hook_is_added_and_removed_as_previewed_and_only_in_a_listed_file() {
        use hookd_core::settings::agent_edit::NewAgentHook;

        use crate::error::ErrorKind;

        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("proj");
        let codex = project.join(".codex/hooks.json");
        let text = "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [{\"type\": \"command\", \"command\": \"./done.sh\"}]\n      }\n    ]\n  }\n}\n";
        write(&codex, text);
        let state = AppState::new(
            home.path().join("data"),
            home.path().join("hookd.sock"),
            Some(SettingsRoots::under(home.path())),
        );
        let root = project.display().to_string();
        let path = codex.display().to_string();
        let add = AgentEdit::Add {
            hook: NewAgentHook {
                event: "PreToolUse".into(),
                matcher: Some("Bash".into()),
                command: "./guard.sh".into(),
                timeout: Some(5),
                name: None,
            },
        };
        let preview = agent_hook_preview(&state, &root, &path, &add).unwrap();
        assert!(preview.changes);
        assert_eq!(preview.before, text);
        assert_eq!(preview.events, ["PreToolUse"]);
        assert!(preview.notes[0].contains("/hooks"), "{:?}", preview.notes);
        // Someone writes the file meanwhile: a conflict, nothing written.
        let theirs = text.replace("./done.sh", "./theirs.sh");
        fs::write(&codex, &theirs).unwrap();
        let err = agent_hook_apply(&state, &root, &path, &add, &preview.version).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Conflict, "{err:?}");
        assert_eq!(fs::read_to_string(&codex).unwrap(), theirs);
        fs::write(&codex, text).unwrap();
        let done = agent_hook_apply(&state, &root, &path, &add, &preview.version).unwrap();
        assert!(done.written);
        assert_eq!(fs::read_to_string(&codex).unwrap(), preview.after);
        let kept = &text[..=text.rfind(']').unwrap()];
        assert!(
            preview.after.starts_with(kept),
            "bytes before the new hook kept: {}",
            preview.after
        );

        let listed = agent_hook_files(&state, &root).unwrap();
        let new = listed[0]
            .hooks
            .iter()
            .find(|h| h.command.as_deref() == Some("./guard.sh"))
            .unwrap();
        let remove = AgentEdit::Remove {
            json_path: new.json_path.clone(),
            command: new.command.clone(),
        };
        let preview = agent_hook_preview(&state, &root, &path, &remove).unwrap();
        agent_hook_apply(&state, &root, &path, &remove, &preview.version).unwrap();
        assert_eq!(fs::read_to_string(&codex).unwrap(), text);

        // A path the list does not hold is refused, whatever it is.
        let elsewhere = home.path().join("elsewhere.json");
        write(&elsewhere, text);
        for other in [elsewhere.display().to_string(), "/etc/hosts".into()] {
            let err = agent_hook_preview(&state, &root, &other, &add).unwrap_err();
            assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");
            assert!(agent_hook_apply(&state, &root, &other, &add, "v").is_err());
        }
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), text);
        // An edit Codex CLI would reject: refused.
        let empty = AgentEdit::Add {
            hook: NewAgentHook {
                event: "Stop".into(),
                matcher: None,
                command: " ".into(),
                timeout: None,
                name: None,
            },
        };
        let err = agent_hook_preview(&state, &root, &path, &empty).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");
    }

    #[test]
    fn a_hook_is_added_to_codexs_config_toml_and_removed_byte_for_byte() {
        use hookd_core::settings::agent_edit::NewAgentHook;

        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("proj");
        let config = project.join(".codex/config.toml");
        let text = "model = \"o3\" # mine\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./done.sh\" }]\n";
        write(&config, text);
        let state = AppState::new(
            home.path().join("data"),
            home.path().join("hookd.sock"),
            Some(SettingsRoots::under(home.path())),
        );
        let root = project.display().to_string();
        let path = config.display().to_string();
        let files = agent_hook_files(&state, &root).unwrap();
        assert_eq!(files[0].name, "config.toml");
        let add = AgentEdit::Add {
            hook: NewAgentHook {
                event: "PreToolUse".into(),
                matcher: Some("Bash".into()),
                command: "./guard.sh".into(),
                timeout: Some(5),
                name: None,
            },
        };
        let preview = agent_hook_preview(&state, &root, &path, &add).unwrap();
        assert!(preview.changes);
        assert_eq!(
            preview.after,
            format!(
                "{text}\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 5\n"
            )
        );
        assert!(
            preview
                .notes
                .iter()
                .any(|n| n.contains(".codex/config.toml")),
            "{:?}",
            preview.notes
        );
        let done = agent_hook_apply(&state, &root, &path, &add, &preview.version).unwrap();
        assert!(done.written && done.backup.is_some(), "{done:?}");
        let listed = agent_hook_files(&state, &root).unwrap();
        let new = listed[0]
            .hooks
            .iter()
            .find(|h| h.command.as_deref() == Some("./guard.sh"))
            .unwrap();
        let remove = AgentEdit::Remove {
            json_path: new.json_path.clone(),
            command: new.command.clone(),
        };
        let preview = agent_hook_preview(&state, &root, &path, &remove).unwrap();
        agent_hook_apply(&state, &root, &path, &remove, &preview.version).unwrap();
        assert_eq!(fs::read_to_string(&config).unwrap(), text);
    }

    #[test]
    fn agent_hook_disabled_is_listed_greyed_and_enabled_back_byte_for_byte() {
        use crate::error::ErrorKind;

        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("proj");
        let config = project.join(".codex/config.toml");
        let text = "model = \"o3\" # mine\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./done.sh\" }]\n";
        write(&config, text);
        let roots = SettingsRoots::under(home.path());
        write(
            &roots.cursor_enterprise,
            r#"{"version": 1, "hooks": {"stop": [{"command": "./a.sh"}]}}"#,
        );
        let state = AppState::new(
            home.path().join("data"),
            home.path().join("hookd.sock"),
            Some(roots.clone()),
        );
        let root = project.display().to_string();
        let path = config.display().to_string();
        let file =
            |files: &[AgentHookFile]| files.iter().find(|f| f.path == path).cloned().unwrap();
        let shown = file(&agent_hook_files(&state, &root).unwrap());
        assert!(shown.disabled.is_empty());
        let hook = shown.hooks[0].clone();
        let key = (hook.json_path.as_str(), hook.command.as_deref());
        // A stale token is a conflict; nothing changes.
        let err = set_agent_hook_enabled(&state, &root, &path, key, false, "stale").unwrap_err();
        assert_eq!(err.kind, ErrorKind::Conflict);
        assert_eq!(fs::read_to_string(&config).unwrap(), text);
        let done =
            set_agent_hook_enabled(&state, &root, &path, key, false, &shown.version).unwrap();
        assert_eq!((done.event.as_str(), done.enabled), ("Stop", false));
        assert!(!fs::read_to_string(&config).unwrap().contains("done.sh"));
        // Its only hook disabled, config.toml is still a tab, with it greyed.
        let shown = file(&agent_hook_files(&state, &root).unwrap());
        assert!(shown.hooks.is_empty());
        assert_eq!(
            shown.disabled,
            [AgentDisabledHook {
                event: "Stop".into(),
                claude_event: Some("Stop".into()),
                matcher: None,
                command: Some("./done.sh".into()),
                json_path: hook.json_path.clone(),
                disabled_at: shown.disabled[0].disabled_at.clone(),
            }]
        );
        set_agent_hook_enabled(&state, &root, &path, key, true, &shown.version).unwrap();
        assert_eq!(fs::read_to_string(&config).unwrap(), text, "byte for byte");
        assert!(
            file(&agent_hook_files(&state, &root).unwrap())
                .disabled
                .is_empty()
        );
        // The administrator's file is refused.
        let admin = roots.cursor_enterprise.display().to_string();
        let err = set_agent_hook_enabled(
            &state,
            &root,
            &admin,
            ("hooks.stop[0]", Some("./a.sh")),
            false,
            "x",
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidInput);
        assert!(err.message.contains("never writes it"), "{}", err.message);
    }

    #[test]
    fn every_other_agent_has_its_form_rules() {
        let rules = agent_hook_rules();
        let agents: Vec<&str> = rules.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(agents, ["codex", "gemini", "cursor", "copilot"]);
        let gemini = &rules[1];
        assert_eq!(gemini.timeout_unit, "milliseconds");
        assert!(gemini.named);
        assert_eq!(gemini.matcher_events, ["BeforeTool", "AfterTool"]);
        assert_eq!(rules[3].timeout_key, "timeoutSec");
        assert!(
            rules
                .iter()
                .all(|r| r.matcher_events.iter().all(|m| r.events.contains(m)))
        );
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
