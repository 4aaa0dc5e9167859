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
//! Only recording: hookd answers in Claude Code's output shape, so managed
//! mode is not offered for Gemini CLI yet.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::connect::{self, ChangeReport, EditPreview, ShapeError};
use super::error::Result as SettingsResult;
use super::location::{AgentFile, Scope, SettingsLocation, SettingsRoots};

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

/// `timeout` of hookd's handlers, in milliseconds (Gemini's unit): a broken
/// emitter never stalls the agent for Gemini's default minute.
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

/// Adds hookd's entry to every [`EVENTS`] event of the file at `location`
/// that has none (creating the file and its directory if needed); `emit` is
/// the command prefix ([`connect::emit_command_for`]). Nothing is written
/// when nothing is missing, or in a dry run.
pub fn connect(
    location: &SettingsLocation,
    emit: &str,
    dry_run: bool,
) -> connect::Result<ChangeReport> {
    connect::add_at(location, dry_run, |settings| add_hooks(settings, emit))
}

/// What [`connect()`] would write: the file before and after.
pub fn preview_connect(location: &SettingsLocation, emit: &str) -> connect::Result<EditPreview> {
    connect::preview_add_at(location, |settings| add_hooks(settings, emit))
}

/// Removes every `hookd-emit` handler from the file at `location`, and the
/// groups, event lists and `hooks` object that only held them (the shape is
/// Claude Code's, so this is [`connect::disconnect_at`]).
pub fn disconnect(location: &SettingsLocation, dry_run: bool) -> connect::Result<ChangeReport> {
    connect::disconnect_at(location, dry_run)
}

/// What [`disconnect()`] would write.
pub fn preview_disconnect(location: &SettingsLocation) -> connect::Result<EditPreview> {
    connect::preview_disconnect_at(location)
}

/// Adds hookd's group to each [`EVENTS`] event of a parsed Gemini CLI
/// settings document that has no `hookd-emit` handler, after the user's
/// groups; returns the events that gained one.
pub fn add_hooks(settings: &mut Value, emit: &str) -> Result<Vec<String>, ShapeError> {
    connect::check_shape(settings)?;
    let Value::Object(root) = settings else {
        return Err(connect::shape("top level".into(), "an object"));
    };
    let mut added = Vec::new();
    for event in EVENTS {
        let present = root
            .get("hooks")
            .and_then(|hooks| hooks.get(event))
            .and_then(Value::as_array)
            .is_some_and(|groups| {
                groups
                    .iter()
                    .filter_map(|g| g.get("hooks").and_then(Value::as_array))
                    .flatten()
                    .any(connect::is_hookd_handler)
            });
        if present {
            continue;
        }
        connect::push_group(root, event, group(event, emit))?;
        added.push(event.to_owned());
    }
    Ok(added)
}

/// hookd's group for `event`: every tool for the tool events (`*`), no
/// matcher for the others (they match everything without one).
fn group(event: &str, emit: &str) -> Value {
    let handler = json!({
        "type": "command",
        "name": format!("hookd {event}"),
        "command": format!("{emit} --agent gemini {event}"),
        "timeout": HANDLER_TIMEOUT_MS,
    });
    let mut group = Map::new();
    if TOOL_EVENTS.contains(&event) {
        group.insert("matcher".into(), "*".into());
    }
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
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
        let added = add_hooks(&mut settings, "hookd-emit").unwrap();
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
        assert!(add_hooks(&mut settings, "hookd-emit").unwrap().is_empty());
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
