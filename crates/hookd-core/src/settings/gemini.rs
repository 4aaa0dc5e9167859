//! Gemini CLI's settings files, as a place the agent calls `hookd-emit` from.
//!
//! Gemini CLI keeps its hooks under `hooks` in `settings.json`, in Claude
//! Code's shape (event → groups with a `matcher` → command handlers), with
//! its own event names (`BeforeTool`, `AfterTool`, `BeforeAgent`, …), a
//! handler `name` and a `timeout` in milliseconds (see `docs/agent-hooks.md`,
//! "Gemini CLI"). hookd records a Gemini session when each event runs
//! `hookd-emit --agent gemini <Event>`; this module adds those entries to
//! the user's file (`~/.gemini/settings.json`) or a project's
//! (`<project>/.gemini/settings.json`, which Gemini loads only in a trusted
//! folder) and takes them out again, with the same locked, surgical write
//! as Claude Code's files ([`super::connect`]): every byte outside the
//! entries added stays as it was, comments included.
//!
//! In managed mode ([`Mode::Managed`]) each entry runs `hookd-emit --wait
//! --agent gemini <Event>`, which answers with the merged decision of
//! hookd's managed hooks in Gemini CLI's own output shape.

use std::path::Path;

use serde_json::{Value, json};

use super::connect::{self, Mode, ShapeError};
use super::connector::Connector;
use super::error::Result as SettingsResult;
use super::location::{AgentFile, Scope, SettingsLocation, SettingsRoots};
use crate::AgentKind;

/// The events hookd records, in the order their entries are added: a
/// session's start and end, each prompt and answer (`BeforeAgent`,
/// `AfterAgent`), each tool call before and after, compaction and
/// notifications. The model events (`BeforeModel`, `AfterModel`,
/// `BeforeToolSelection`) fire per request and streamed chunk, carry the
/// whole conversation, and are left out.
pub const EVENTS: [&str; 8] = [
    "SessionStart",
    "SessionEnd",
    "BeforeAgent",
    "AfterAgent",
    "BeforeTool",
    "AfterTool",
    "PreCompress",
    "Notification",
];

/// The events whose matcher is tested against the tool's name.
const TOOL_EVENTS: [&str; 2] = ["BeforeTool", "AfterTool"];

/// `timeout` of hookd's recording handlers, in milliseconds (Gemini's
/// unit): a broken emitter never stalls the agent for Gemini's default
/// minute. Managed handlers wait as long as hookd's managed hooks may run
/// (610 s, 40 s for `BeforeAgent`, as Claude Code's managed entries do).
pub const HANDLER_TIMEOUT_MS: u64 = connect::HANDLER_TIMEOUT_SECS * 1000;

/// The Gemini CLI settings file of `scope`: the user's for
/// [`Scope::Global`], `<project>/.gemini/settings.json` for
/// [`Scope::Project`]. Gemini CLI has no local file; its system files are
/// an administrator's, which hookd does not write.
pub fn location(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
) -> SettingsResult<SettingsLocation> {
    FILE.location(roots, scope, project)
}

/// Gemini CLI's settings files.
const FILE: AgentFile = AgentFile {
    agent: "Gemini CLI",
    global: ".gemini/settings.json",
    project: ".gemini/settings.json",
    expected: "--scope global (~/.gemini/settings.json) or project (<project>/.gemini/settings.json)",
    // Gemini CLI strips comments before it parses its settings.
    comments: true,
};

/// Adds hookd's group of `mode` to each [`EVENTS`] event of a parsed
/// Gemini CLI settings document that has no `hookd-emit` handler of that
/// mode, after the user's groups (hookd's handlers of the other mode are
/// taken out); returns the events that gained one.
pub fn add_hooks(settings: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError> {
    connect::check_shape(settings)?;
    connect::checked_edit(AgentKind::Gemini, settings, |settings| {
        connect::add_groups(settings, &EVENTS, &TOOL_EVENTS, mode, |event| {
            handler(event, emit, mode)
        })
    })
}

/// hookd's handler for `event`.
fn handler(event: &str, emit: &str, mode: Mode) -> Value {
    json!({
        "type": "command",
        "name": format!("hookd {event}"),
        "command": connect::agent_command(emit, mode, "gemini", event),
        "timeout": connect::agent_timeout_secs(mode, event == "BeforeAgent") * 1000,
    })
}

/// Gemini CLI's [`Connector`].
pub struct Gemini;

impl Connector for Gemini {
    fn agent(&self) -> AgentKind {
        AgentKind::Gemini
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
        connect::remove_each(file)
    }
    /// A project's hooks run only in a folder Gemini CLI trusts.
    fn connect_notes(&self, location: &SettingsLocation) -> Vec<String> {
        (location.scope == Scope::Project)
            .then(|| "Gemini CLI runs a project's hooks only in a trusted folder (it asks when it opens one)".to_owned())
            .into_iter()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_gets_one_recording_entry_and_the_users_hooks_stay() {
        let mut settings = json!({
            "theme": "dark",
            "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 5000}]}]}
        });
        let added = add_hooks(&mut settings, "hookd-emit", Mode::Record).unwrap();
        assert_eq!(added, EVENTS.map(str::to_owned));
        let before = &settings["hooks"]["BeforeTool"];
        assert_eq!(before.as_array().unwrap().len(), 2);
        assert_eq!(before[0]["hooks"][0]["command"], "./guard.sh");
        assert_eq!(
            before[1],
            json!({"matcher": "*", "hooks": [{"type": "command", "name": "hookd BeforeTool",
                "command": "hookd-emit --agent gemini BeforeTool", "timeout": 10000}]})
        );
        assert!(
            settings["hooks"]["SessionStart"][0]
                .get("matcher")
                .is_none()
        );
        // Connected already: nothing more.
        assert!(
            add_hooks(&mut settings, "hookd-emit", Mode::Record)
                .unwrap()
                .is_empty()
        );
        // Managed mode replaces each recording entry with a waiting one.
        let mut managed = settings.clone();
        assert_eq!(
            add_hooks(&mut managed, "hookd-emit", Mode::Managed).unwrap(),
            EVENTS.map(str::to_owned)
        );
        assert_eq!(managed["hooks"]["BeforeTool"].as_array().unwrap().len(), 2);
        assert_eq!(
            managed["hooks"]["BeforeTool"][1]["hooks"][0],
            json!({"type": "command", "name": "hookd BeforeTool",
                "command": "hookd-emit --wait --agent gemini BeforeTool", "timeout": 610_000})
        );
        assert_eq!(
            managed["hooks"]["BeforeAgent"][0]["hooks"][0]["timeout"],
            40_000
        );
        // And gone again, the user's hook kept.
        let (events, removed) = connect::remove_hooks(&mut settings).unwrap();
        assert_eq!((events.len(), removed), (8, 8));
        assert_eq!(
            settings,
            json!({"theme": "dark", "hooks": {"BeforeTool": [{"matcher": "write_file",
                "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5000}]}]}})
        );
    }

    #[test]
    fn geminis_settings_under_hooks_are_left_alone() {
        let mut settings = json!({"hooks": {"disabled": ["my-hook"], "enabled": true}});
        add_hooks(&mut settings, "hookd-emit", Mode::Record).unwrap();
        connect::remove_hooks(&mut settings).unwrap();
        assert_eq!(
            settings,
            json!({"hooks": {"disabled": ["my-hook"], "enabled": true}})
        );
    }

    #[test]
    fn the_user_and_project_files_only() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let p = Path::new("/p");
        assert_eq!(
            location(&roots, Scope::Global, None).unwrap().path,
            Path::new("/h/.gemini/settings.json")
        );
        assert_eq!(
            location(&roots, Scope::Project, Some(p)).unwrap().path,
            Path::new("/p/.gemini/settings.json")
        );
        assert!(location(&roots, Scope::Local, Some(p)).is_err());
        assert!(location(&roots, Scope::Project, None).is_err());
    }
}
