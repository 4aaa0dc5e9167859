//! Codex CLI's `hooks.json` files, as a place the agent calls `hookd-emit`
//! from.
//!
//! Codex CLI reads hooks from a `hooks.json` beside each of its config
//! layers: the user's (`$CODEX_HOME/hooks.json`, default
//! `~/.codex/hooks.json`) and a project's (`<project>/.codex/hooks.json`,
//! loaded only when the project is trusted), in Claude Code's shape (event
//! → groups with a `matcher` → command handlers, `timeout` in seconds)
//! with Claude Code's event names (see `docs/agent-hooks.md`, "Codex CLI").
//! hookd records a Codex session when each event runs `hookd-emit --agent
//! codex <Event>`; this module adds those entries and takes them out again
//! with the same locked, surgical write as Claude Code's files
//! ([`super::connect`]).
//!
//! Two of Codex's rules shape what is done here:
//! - its `hooks.json` may hold nothing but `hooks` and `description` at
//!   the top level: a file with any other key (`$schema`, `version`) is
//!   dropped whole, with a warning. hookd refuses such a file, naming the
//!   key, rather than connect a file Codex would never read;
//! - every hook runs only once the user has trusted its exact definition
//!   (a hash kept in Codex's `config.toml`, set from Codex's `/hooks`
//!   browser). hookd never writes that trust: an entry hookd adds or
//!   changes waits for the user to trust it, and the connector's notes say so.

use std::path::Path;

use serde_json::{Value, json};

use super::connect::{self, Mode, ShapeError};
use super::connector::Connector;
use super::error::Result as SettingsResult;
use super::location::{AgentFile, Scope, SettingsLocation, SettingsRoots};
use crate::AgentKind;

/// The events hookd records, in the order their entries are added: a
/// session's start and end (a thread-spawned subagent's start and stop
/// too), each prompt, each tool call before and after (shell commands are
/// tool `Bash`, file edits `apply_patch`), compaction and the end of each
/// turn. `PermissionRequest` (the same call asked again) is added only in
/// managed mode ([`MANAGED_EVENTS`]), where a managed hook may answer it;
/// `Interrupt` tells nothing hookd keeps.
pub const EVENTS: [&str; 10] = [
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "Stop",
];

/// The events of managed mode: [`EVENTS`] and `PermissionRequest`.
pub const MANAGED_EVENTS: [&str; 11] = [
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "Stop",
];

/// The events whose matcher is tested against the tool's name.
const TOOL_EVENTS: [&str; 3] = ["PreToolUse", "PermissionRequest", "PostToolUse"];

/// The top-level keys Codex CLI accepts in a `hooks.json`.
pub const TOP_LEVEL_KEYS: [&str; 2] = ["hooks", "description"];

/// Codex CLI caps the timeout of `SessionEnd` hooks at this many seconds
/// (and warns about a larger one): a session's end must not wait.
const SESSION_END_TIMEOUT_SECS: u64 = 3;

/// The Codex CLI hooks file of `scope`: `$CODEX_HOME/hooks.json` (default
/// `~/.codex/hooks.json`) for [`Scope::Global`],
/// `<project>/.codex/hooks.json` for [`Scope::Project`]. Inline `[hooks]`
/// in `config.toml` are read by Codex too; hookd connects only the JSON
/// file (a hook at a time is edited in `config.toml` too,
/// [`super::codex_toml`]); the system and `requirements.toml` hooks are an
/// administrator's.
pub fn location(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
) -> SettingsResult<SettingsLocation> {
    let mut location = FILE.location(roots, scope, project)?;
    if scope == Scope::Global {
        location.path = roots.codex_home.join("hooks.json");
    }
    Ok(location)
}

/// Codex CLI's hooks files (the user's is under `$CODEX_HOME`, see
/// [`location`]).
const FILE: AgentFile = AgentFile {
    agent: "Codex CLI",
    global: ".codex/hooks.json",
    project: ".codex/hooks.json",
    expected: "--scope global ($CODEX_HOME/hooks.json, default ~/.codex/hooks.json) or project (<project>/.codex/hooks.json)",
    // Codex parses hooks.json with serde_json: no comments.
    comments: false,
};

/// Adds hookd's group of `mode` to each event of [`EVENTS`]
/// ([`MANAGED_EVENTS`] when managed) in a parsed Codex hooks file that has
/// no `hookd-emit` handler of that mode, after the user's groups; returns
/// the events that gained one.
pub fn add_hooks(file: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError> {
    check_top_level(file)?;
    connect::checked_edit(AgentKind::Codex, file, |file| {
        connect::add_groups(file, Codex.events(mode), &TOOL_EVENTS, mode, |event| {
            handler(event, emit, mode)
        })
    })
}

/// Removes every hookd handler from a parsed Codex hooks file; returns the
/// event of each handler removed (so their count is the handlers').
pub fn remove_hooks(file: &mut Value) -> Result<Vec<String>, ShapeError> {
    check_top_level(file)?;
    connect::remove_each(file)
}

/// hookd's handler for `event`.
fn handler(event: &str, emit: &str, mode: Mode) -> Value {
    let timeout = if event == "SessionEnd" {
        SESSION_END_TIMEOUT_SECS
    } else {
        connect::agent_timeout_secs(mode, event == "UserPromptSubmit")
    };
    json!({
        "type": "command",
        "command": connect::agent_command(emit, mode, "codex", event),
        "timeout": timeout,
    })
}

/// Refuses a file Codex CLI would drop whole: one with a top-level key
/// other than [`TOP_LEVEL_KEYS`].
pub(crate) fn check_top_level(file: &Value) -> Result<(), ShapeError> {
    let Value::Object(root) = file else {
        return Err(connect::shape("top level".into(), "an object"));
    };
    match root
        .keys()
        .find(|key| !TOP_LEVEL_KEYS.contains(&key.as_str()))
    {
        Some(key) => Err(ShapeError {
            json_path: Value::from(key.as_str()).to_string(),
            problem: "Codex CLI reads a hooks.json only when its top level holds nothing but \"hooks\" and \"description\", and drops this file whole".into(),
        }),
        None => Ok(()),
    }
}

/// Codex CLI's [`Connector`].
pub struct Codex;

impl Connector for Codex {
    fn agent(&self) -> AgentKind {
        AgentKind::Codex
    }
    fn location(
        &self,
        roots: &SettingsRoots,
        scope: Scope,
        project: Option<&Path>,
    ) -> SettingsResult<SettingsLocation> {
        location(roots, scope, project)
    }
    fn events(&self, mode: Mode) -> &'static [&'static str] {
        match mode {
            Mode::Record => &EVENTS,
            Mode::Managed => &MANAGED_EVENTS,
        }
    }
    fn add(&self, file: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError> {
        add_hooks(file, emit, mode)
    }
    fn remove(&self, file: &mut Value) -> Result<Vec<String>, ShapeError> {
        remove_hooks(file)
    }
    /// The entries run only once trusted in Codex (hookd never writes
    /// trust), a project's only in a trusted project, and a layer whose
    /// `config.toml` (inline `[hooks]`, which Codex also runs) already
    /// calls `hookd-emit` would record each event twice.
    fn connect_notes(&self, location: &SettingsLocation) -> Vec<String> {
        let mut notes = vec![
            "Codex CLI runs a new or changed hook only once you trust it: open /hooks in Codex and trust hookd's entries (hookd never writes trust for you)".to_owned(),
        ];
        if location.scope == Scope::Project {
            notes.push(
                "Codex CLI loads a project's .codex/hooks.json only when the project is trusted ([projects] trust_level = \"trusted\" in your config.toml)".to_owned(),
            );
        }
        let config = location.path.with_file_name("config.toml");
        if std::fs::read_to_string(&config).is_ok_and(|text| text.contains(connect::EMIT_PROGRAM)) {
            notes.push(format!(
                "{} also names hookd-emit (inline [hooks]): Codex runs both files, so remove one or each event is recorded twice",
                config.display()
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_gets_one_recording_entry_in_claudes_shape_and_the_users_hooks_stay() {
        let mut file = json!({
            "description": "team hooks",
            "hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 5}]}]}
        });
        let original = file.clone();
        let added = add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap();
        assert_eq!(added, EVENTS.map(str::to_owned));
        let pre = file["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2);
        assert_eq!(
            pre[1],
            json!({"matcher": "*", "hooks": [{"type": "command",
                "command": "hookd-emit --agent codex PreToolUse", "timeout": 10}]})
        );
        assert!(file["hooks"]["Stop"][0].get("matcher").is_none());
        assert_eq!(file["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);
        assert!(
            add_hooks(&mut file, "hookd-emit", Mode::Record)
                .unwrap()
                .is_empty()
        );
        let removed = remove_hooks(&mut file).unwrap();
        assert_eq!(removed.len(), EVENTS.len());
        assert_eq!(file, original);
    }

    #[test]
    fn managed_mode_waits_and_answers_permission_requests_too() {
        let mut file = json!({});
        add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap();
        let added = add_hooks(&mut file, "hookd-emit", Mode::Managed).unwrap();
        assert_eq!(added.len(), MANAGED_EVENTS.len());
        assert_eq!(
            file["hooks"]["PermissionRequest"][0]["hooks"][0],
            json!({"type": "command", "command": "hookd-emit --wait --agent codex PermissionRequest", "timeout": 610})
        );
        assert_eq!(
            file["hooks"]["UserPromptSubmit"][0]["hooks"][0]["timeout"],
            40
        );
        // One entry per event, the waiting one.
        assert_eq!(file["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
        // Back to recording: PermissionRequest's entry goes.
        add_hooks(&mut file, "hookd-emit", Mode::Record).unwrap();
        assert!(file["hooks"].get("PermissionRequest").is_none());
        assert_eq!(
            file["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "hookd-emit --agent codex PreToolUse"
        );
    }

    #[test]
    fn a_file_codex_would_drop_is_refused_untouched() {
        for (bad, path) in [
            (json!({"$schema": "x", "hooks": {}}), "\"$schema\""),
            (json!({"version": 1}), "\"version\""),
            (json!([]), "top level"),
            (json!({"hooks": []}), "hooks"),
            (json!({"hooks": {"Stop": {}}}), "hooks.Stop"),
        ] {
            let mut value = bad.clone();
            let err = add_hooks(&mut value, "hookd-emit", Mode::Record).unwrap_err();
            assert_eq!(err.json_path, path, "{bad}");
            assert_eq!(value, bad);
            assert!(remove_hooks(&mut value).is_err());
        }
        // A type error Codex's parser fails on drops the file whole: no
        // entries go in (taking hookd's out of it still works).
        let bad = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": 7}]}]}});
        let mut value = bad.clone();
        let err = add_hooks(&mut value, "hookd-emit", Mode::Record).unwrap_err();
        assert_eq!(err.json_path, "hooks.Stop[0].hooks[0].command");
        assert!(err.problem.contains("Codex CLI would not read"), "{err}");
        assert_eq!(value, bad);
    }

    #[test]
    fn the_codex_home_and_project_files_only() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let p = Path::new("/p");
        assert_eq!(
            location(&roots, Scope::Global, None).unwrap().path,
            Path::new("/h/.codex/hooks.json")
        );
        let elsewhere = SettingsRoots {
            codex_home: "/c".into(),
            ..roots.clone()
        };
        assert_eq!(
            location(&elsewhere, Scope::Global, None).unwrap().path,
            Path::new("/c/hooks.json")
        );
        assert_eq!(
            location(&roots, Scope::Project, Some(p)).unwrap().path,
            Path::new("/p/.codex/hooks.json")
        );
        assert!(location(&roots, Scope::Local, Some(p)).is_err());
    }
}
