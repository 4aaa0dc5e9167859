//! Cursor's `hooks.json` files, as a place the agent calls `hookd-emit` from.
//!
//! Cursor keeps its hooks in a file of their own, `~/.cursor/hooks.json`
//! (the user's) or `<project>/.cursor/hooks.json` (a project's, run only in a
//! trusted workspace), in a flat shape unlike Claude Code's groups:
//! `{"version": 1, "hooks": {"<camelEvent>": [{"command": "…"}, …]}}` (see
//! `docs/agent-hooks.md`, "Cursor"). hookd records a Cursor session when each
//! event runs `hookd-emit --agent cursor <event>`; this module adds those
//! entries and takes them out again with the same locked, surgical write as
//! Claude Code's files ([`super::connect`]): every byte outside the entries
//! edited stays as it was, the user's entries and unknown keys included.
//!
//! In managed mode ([`Mode::Managed`]) each entry runs `hookd-emit --wait
//! --agent cursor <event>`, which answers with the merged decision of
//! hookd's managed hooks in Cursor's own output shape.

use std::path::Path;

use serde_json::{Value, json};

use super::connect::{self, Mode, ShapeError};
use super::connector::Connector;
use super::error::Result as SettingsResult;
use super::flat;
use super::location::{AgentFile, Scope, SettingsLocation, SettingsRoots};
use crate::AgentKind;

/// The events hookd records, in the order their entries are added: a
/// session's start and end, each prompt (`beforeSubmitPrompt`), each tool
/// call before and after (`preToolUse`/`postToolUse`: the shell arrives as
/// tool `Shell` with a `tool_use_id`, which pairs the repository's state
/// around a command as Claude Code's `Bash` does), each agent file edit
/// (`afterFileEdit`: the file and its edits) and the end of each turn
/// (`stop`). Left out: `beforeShellExecution`/`afterShellExecution` (the same
/// commands as `Shell` tool calls again, without an id to pair them), the
/// MCP and read events (nothing changes), the model's text and thoughts
/// (`afterAgentResponse`, `afterAgentThought`: the conversation itself),
/// the Tab events (keystroke completions) and `workspaceOpen`.
pub const EVENTS: [&str; 7] = [
    "sessionStart",
    "sessionEnd",
    "beforeSubmitPrompt",
    "preToolUse",
    "postToolUse",
    "afterFileEdit",
    "stop",
];

/// The Cursor hooks file of `scope`: `~/.cursor/hooks.json` for
/// [`Scope::Global`], `<project>/.cursor/hooks.json` for [`Scope::Project`].
/// Cursor has no local file; its enterprise files are an administrator's,
/// which hookd does not write.
pub fn location(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
) -> SettingsResult<SettingsLocation> {
    FILE.location(roots, scope, project)
}

/// Cursor's hooks files.
const FILE: AgentFile = AgentFile {
    agent: "Cursor",
    global: ".cursor/hooks.json",
    project: ".cursor/hooks.json",
    expected: "--scope global (~/.cursor/hooks.json) or project (<project>/.cursor/hooks.json)",
    comments: false,
};

/// True when `entry` is one of hookd's: a command entry (`type` absent or
/// `command`) whose program's basename is `hookd-emit`.
pub fn is_hookd_entry(entry: &Value) -> bool {
    hookd_mode(entry).is_some()
}

/// The mode of one of hookd's entries ([`is_hookd_entry`]); `None` for
/// any other entry.
fn hookd_mode(entry: &Value) -> Option<Mode> {
    flat::hookd_mode(entry, &["command"])
}

/// Adds hookd's entry of `mode` to each [`EVENTS`] event of a parsed
/// Cursor hooks file that has none, after the user's entries (hookd's
/// entries of the other mode are replaced in place); a new (empty) file
/// gets `"version": 1` first. Returns the events that gained one.
pub fn add_hooks(
    hooks_file: &mut Value,
    emit: &str,
    mode: Mode,
) -> Result<Vec<String>, ShapeError> {
    flat::check_shape(hooks_file)?;
    connect::checked_edit(AgentKind::Cursor, hooks_file, |hooks_file| {
        flat::add_entries(hooks_file, &EVENTS, mode, hookd_mode, |event| {
            json!({
                "command": connect::agent_command(emit, mode, "cursor", event),
                "timeout": connect::agent_timeout_secs(mode, event == "beforeSubmitPrompt"),
            })
        })
    })
}

/// Removes every hookd entry from a parsed Cursor hooks file, and the event
/// lists and `hooks` object left empty by that (never ones that were empty
/// already); returns the event of each entry removed, in document order.
pub fn remove_hooks(hooks_file: &mut Value) -> Result<Vec<String>, ShapeError> {
    flat::remove_entries(hooks_file, is_hookd_entry)
}

/// Cursor's [`Connector`].
pub struct Cursor;

impl Connector for Cursor {
    fn agent(&self) -> AgentKind {
        AgentKind::Cursor
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
    /// A project's hooks run only in a workspace Cursor trusts.
    fn connect_notes(&self, location: &SettingsLocation) -> Vec<String> {
        (location.scope == Scope::Project)
            .then(|| "Cursor runs a project's hooks only in a trusted workspace".to_owned())
            .into_iter()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_gets_one_entry_and_the_users_entries_and_keys_stay() {
        let mut file = json!({
            "version": 1,
            "x-team": {"owner": "me"},
            "hooks": {
                "afterFileEdit": [{"command": "./hooks/format.sh"}],
                "beforeShellExecution": [{"command": "./approve.sh", "timeout": 30, "matcher": "curl|wget"}],
                "workspaceOpen": []
            }
        });
        let original = file.clone();
        let added = add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap();
        assert_eq!(added, EVENTS.map(str::to_owned));
        let edits = file["hooks"]["afterFileEdit"].as_array().unwrap();
        assert_eq!(edits.len(), 2);
        assert_eq!(edits[0]["command"], "./hooks/format.sh");
        assert_eq!(
            edits[1],
            json!({"command": "hookd-emit --agent cursor afterFileEdit", "timeout": 10})
        );
        assert!(
            add_hooks(&mut file, "hookd-emit", Mode::Record)
                .unwrap()
                .is_empty()
        );
        // Managed mode turns each of hookd's entries into a waiting one in
        // place; recording turns them back.
        let recording = file.clone();
        add_hooks(&mut file, "hookd-emit", Mode::Managed).unwrap();
        assert_eq!(
            file["hooks"]["afterFileEdit"][1],
            json!({"command": "hookd-emit --wait --agent cursor afterFileEdit", "timeout": 610})
        );
        assert_eq!(file["hooks"]["beforeSubmitPrompt"][0]["timeout"], 40);
        assert_eq!(
            add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap(),
            EVENTS.map(str::to_owned)
        );
        assert_eq!(file, recording);
        let removed = remove_hooks(&mut file).unwrap();
        assert_eq!(removed.len(), EVENTS.len());
        // The user's entries, the empty list they had and their own key stay.
        assert_eq!(file, original);
    }

    #[test]
    fn a_new_file_gets_version_1_and_loses_hooks_again_on_removal() {
        let mut file = json!({});
        add_hooks(&mut file, "/opt/hookd-emit", Mode::Record).unwrap();
        assert_eq!(file["version"], 1);
        assert_eq!(file.as_object().unwrap().keys().next().unwrap(), "version");
        assert!(is_hookd_entry(&file["hooks"]["stop"][0]));
        remove_hooks(&mut file).unwrap();
        assert_eq!(file, json!({"version": 1}));
        // A prompt hook naming hookd-emit is not a command entry of hookd's.
        assert!(!is_hookd_entry(
            &json!({"type": "prompt", "command": "hookd-emit"})
        ));
    }

    #[test]
    fn the_users_keys_after_hooks_keep_their_order_when_hooks_goes() {
        let mut file = json!({"version": 1});
        add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap();
        let root = file.as_object_mut().unwrap();
        root.insert("a".into(), json!(1));
        root.insert("b".into(), json!(2));
        remove_hooks(&mut file).unwrap();
        let keys: Vec<&String> = file.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["version", "a", "b"]);
    }

    #[test]
    fn what_cursor_would_not_read_is_refused() {
        for (bad, path) in [
            (json!([]), "top level"),
            (json!({"version": "1"}), "version"),
            (json!({"hooks": []}), "hooks"),
            (json!({"hooks": {"stop": {}}}), "hooks.stop"),
            (json!({"hooks": {"stop": ["x"]}}), "hooks.stop[0]"),
        ] {
            let mut value = bad.clone();
            assert_eq!(
                add_hooks(&mut value, "hookd-emit", Mode::Record)
                    .unwrap_err()
                    .json_path,
                path
            );
            assert_eq!(value, bad, "nothing changed");
            assert!(remove_hooks(&mut value).is_err());
        }
    }

    #[test]
    fn the_user_and_project_files_only() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let p = Path::new("/p");
        assert_eq!(
            location(&roots, Scope::Global, None).unwrap().path,
            Path::new("/h/.cursor/hooks.json")
        );
        assert_eq!(
            location(&roots, Scope::Project, Some(p)).unwrap().path,
            Path::new("/p/.cursor/hooks.json")
        );
        assert!(location(&roots, Scope::Local, Some(p)).is_err());
        assert!(location(&roots, Scope::Project, None).is_err());
    }
}
