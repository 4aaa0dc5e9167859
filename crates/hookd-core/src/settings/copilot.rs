//! GitHub Copilot's hooks files, as a place the agent calls `hookd-emit` from.
//!
//! Copilot CLI loads every `*.json` file of `~/.copilot/hooks/` (the user's)
//! and of a repository's `.github/hooks/` (which the cloud agent reads too),
//! each `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash":
//! "…", "timeoutSec": N}, …]}}` with flat entries (see `docs/agent-hooks.md`,
//! "GitHub Copilot"). So hookd writes a file of its own, `hookd.json`, never
//! the user's: connect adds hookd's entries to it (creating it), disconnect
//! takes them out and removes the file when nothing else is left in it. The
//! write is the same locked, surgical one as Claude Code's files
//! ([`super::connect`]), so whatever a user added to `hookd.json` stays.
//!
//! In managed mode ([`Mode::Managed`]) each entry runs `hookd-emit --wait
//! --agent copilot <event>`, which answers with the merged decision of
//! hookd's managed hooks in Copilot's own output shape (Copilot honours
//! only a deny).

use std::path::Path;

use serde_json::{Value, json};

use super::connect::{self, AgentConnectError, ChangeReport, ChangeStatus, Mode, ShapeError};
use super::connector::Connector;
use super::error::Result as SettingsResult;
use super::flat;
use super::location::{AgentFile, Scope, SettingsLocation, SettingsRoots};
use crate::AgentKind;

/// The name of hookd's own file in Copilot's hooks directories.
pub const FILE_NAME: &str = "hookd.json";

/// The events hookd records, camelCase (the spelling whose payload is
/// Copilot's own), in the order their entries are added: a session's start
/// and end, each prompt, each tool call before and after (shell commands
/// are tool `bash`, edits `edit` and `create`) and the end of each turn
/// (`agentStop`). Left out: `postToolUseFailure` and `errorOccurred` (a
/// failed call changed nothing), `permissionRequest` (asked again as
/// `preToolUse`), `userPromptTransformed` (the prompt once more, as the
/// model gets it), `subagentStart`/`subagentStop`, `preCompact` and
/// `notification`.
pub const EVENTS: [&str; 6] = [
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "agentStop",
];

/// hookd's Copilot hooks file of `scope`: `~/.copilot/hooks/hookd.json` for
/// [`Scope::Global`], `<project>/.github/hooks/hookd.json` for
/// [`Scope::Project`]. Copilot's policy files are an administrator's, which
/// hookd does not write.
pub fn location(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
) -> SettingsResult<SettingsLocation> {
    FILE.location(roots, scope, project)
}

/// hookd's Copilot hooks files.
const FILE: AgentFile = AgentFile {
    agent: "GitHub Copilot",
    global: ".copilot/hooks/hookd.json",
    project: ".github/hooks/hookd.json",
    expected: "--scope global (~/.copilot/hooks/hookd.json) or project (<project>/.github/hooks/hookd.json)",
    comments: false,
};

/// For a project's file: refuses a path that leads out of the project, then
/// makes `<project>/.github`. The shared write confines a project file to
/// the directory above its own (`.github` here, two levels down, where
/// Claude Code's files are one), which must exist: this checks against the
/// project itself first.
pub(crate) fn prepare_dir(location: &SettingsLocation) -> connect::Result<()> {
    if !location.scope.is_project() {
        return Ok(());
    }
    let path = &location.path;
    let (Some(github), Some(project)) = (
        path.parent().and_then(Path::parent),
        path.ancestors().nth(3),
    ) else {
        return Ok(());
    };
    crate::fs_atomic::confine::resolve_within(project, path).map_err(|source| {
        AgentConnectError::OutOfProject {
            path: path.clone(),
            source,
        }
    })?;
    std::fs::create_dir_all(github).map_err(|source| AgentConnectError::CreateDir {
        path: github.to_path_buf(),
        source,
    })
}

/// Removes hookd's file when a disconnect just wrote it as `{"version":
/// 1}` and nothing else, and the version that write kept
/// ([`super::backups`]): it held only hookd's entries, and would be
/// offered back by `hookd hooks restore-backup` for a file that is gone.
fn remove_if_emptied(location: &SettingsLocation, report: &ChangeReport) -> connect::Result<()> {
    let ChangeStatus::Written(outcome) = &report.status else {
        return Ok(());
    };
    let Ok(text) = std::fs::read(&location.path) else {
        return Ok(());
    };
    if serde_json::from_slice::<Value>(&text).ok() != Some(json!({"version": 1})) {
        return Ok(());
    }
    let remove = |path: &Path| {
        std::fs::remove_file(path).map_err(|source| AgentConnectError::Remove {
            path: path.to_path_buf(),
            source,
        })
    };
    remove(&location.path)?;
    if let Some(backup) = &outcome.backup {
        remove(backup)?;
    }
    Ok(())
}

/// True when `entry` is one of hookd's: a command entry (`type` absent or
/// `command`) whose `bash` (or `command`) runs a program named `hookd-emit`.
pub fn is_hookd_entry(entry: &Value) -> bool {
    hookd_mode(entry).is_some()
}

/// The mode of one of hookd's entries ([`is_hookd_entry`]); `None` for
/// any other entry.
fn hookd_mode(entry: &Value) -> Option<Mode> {
    flat::hookd_mode(entry, &["bash", "command"])
}

/// Adds hookd's entry of `mode` to each [`EVENTS`] event of a parsed
/// Copilot hooks file that has none, after any other entry (hookd's
/// entries of the other mode are replaced in place); a new (empty) file
/// gets `"version": 1` first. Returns the events that gained one.
pub fn add_hooks(file: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError> {
    flat::check_shape(file)?;
    connect::checked_edit(AgentKind::Copilot, file, |file| {
        flat::add_entries(file, &EVENTS, mode, hookd_mode, |event| {
            json!({
                "type": "command",
                "bash": connect::agent_command(emit, mode, "copilot", event),
                "timeoutSec": connect::agent_timeout_secs(mode, event == "userPromptSubmitted"),
            })
        })
    })
}

/// Removes every hookd entry from a parsed Copilot hooks file, and the
/// event lists and `hooks` object left empty by that (never ones that were
/// empty already); returns the event of each entry removed.
pub fn remove_hooks(file: &mut Value) -> Result<Vec<String>, ShapeError> {
    flat::remove_entries(file, is_hookd_entry)
}

/// GitHub Copilot's [`Connector`]: hookd's own file among Copilot's.
pub struct Copilot;

impl Connector for Copilot {
    fn agent(&self) -> AgentKind {
        AgentKind::Copilot
    }
    fn location(
        &self,
        roots: &SettingsRoots,
        scope: Scope,
        project: Option<&Path>,
    ) -> SettingsResult<SettingsLocation> {
        location(roots, scope, project)
    }
    fn events(&self, _mode: Mode) -> &'static [&'static str] {
        &EVENTS
    }
    fn add(&self, file: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError> {
        add_hooks(file, emit, mode)
    }
    fn remove(&self, file: &mut Value) -> Result<Vec<String>, ShapeError> {
        remove_hooks(file)
    }
    /// Nothing: Copilot asks no trust of a hooks file.
    fn connect_notes(&self, _location: &SettingsLocation) -> Vec<String> {
        Vec::new()
    }
    fn prepare(&self, location: &SettingsLocation) -> connect::Result<()> {
        prepare_dir(location)
    }
    fn after_disconnect(
        &self,
        location: &SettingsLocation,
        report: &ChangeReport,
    ) -> connect::Result<()> {
        remove_if_emptied(location, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_gets_one_entry_and_a_users_entry_stays() {
        let mut file = json!({});
        assert_eq!(
            add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap(),
            EVENTS.map(str::to_owned)
        );
        assert_eq!(file["version"], 1);
        assert_eq!(
            file["hooks"]["preToolUse"][0],
            json!({"type": "command", "bash": "hookd-emit --agent copilot preToolUse", "timeoutSec": 10})
        );
        assert!(
            add_hooks(&mut file, "hookd-emit", Mode::Record)
                .unwrap()
                .is_empty()
        );
        // A user's entry added to hookd's file is theirs to keep.
        file["hooks"]["preToolUse"]
            .as_array_mut()
            .unwrap()
            .push(json!({"bash": "./guard.sh", "comment": "mine"}));
        assert_eq!(remove_hooks(&mut file).unwrap().len(), EVENTS.len());
        assert_eq!(
            file,
            json!({"version": 1, "hooks": {"preToolUse": [{"bash": "./guard.sh", "comment": "mine"}]}})
        );
        assert!(is_hookd_entry(&json!({"command": "/opt/bin/hookd-emit x"})));
        assert!(!is_hookd_entry(
            &json!({"type": "http", "bash": "hookd-emit"})
        ));
    }

    #[test]
    fn what_copilot_would_reject_is_refused() {
        for (bad, path) in [
            (json!([]), "top level"),
            (json!({"version": "1"}), "version"),
            (json!({"hooks": {"preToolUse": {}}}), "hooks.preToolUse"),
            (json!({"hooks": {"preToolUse": [1]}}), "hooks.preToolUse[0]"),
        ] {
            let mut value = bad.clone();
            assert_eq!(
                add_hooks(&mut value, "hookd-emit", Mode::Record)
                    .unwrap_err()
                    .json_path,
                path
            );
            assert_eq!(value, bad);
        }
    }

    #[test]
    fn the_user_and_repository_directories_only() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let p = Path::new("/p");
        assert_eq!(
            location(&roots, Scope::Global, None).unwrap().path,
            Path::new("/h/.copilot/hooks/hookd.json")
        );
        assert_eq!(
            location(&roots, Scope::Project, Some(p)).unwrap().path,
            Path::new("/p/.github/hooks/hookd.json")
        );
        assert!(location(&roots, Scope::Local, Some(p)).is_err());
    }
}
