//! A conversion ([`super::convert`]) written into the agent's own hooks
//! file: `hookd hooks convert --to X --write`.
//!
//! Printing a converted file leaves the user to merge it into the agent's
//! by hand; writing it must not cost them anything already there. So the
//! converted groups (Codex CLI, Gemini CLI) or entries (Cursor, Copilot)
//! are appended after the file's own under each event, with the same
//! locked, surgical write as `hookd connect` ([`super::connect`]): every
//! byte outside what is added stays, a file the agent would not read is
//! refused untouched, and what is there already (a second run) is not
//! added twice. Copilot reads every file of its hooks directories, so the
//! conversion gets a file of its own there ([`COPILOT_FILE_NAME`]) rather
//! than hookd's recording file.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::connect::{self, ChangeReport, EditPreview, ShapeError};
use super::convert::Conversion;
use super::error::Result as SettingsResult;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::{codex, connector, copilot, flat};
use crate::AgentKind;

/// The file a conversion for GitHub Copilot is written to, in
/// `~/.copilot/hooks/` or `<project>/.github/hooks/`.
pub const COPILOT_FILE_NAME: &str = "claude-hooks.json";

/// The hooks file a conversion to `agent` is written into at `scope`: the
/// file `hookd connect --agent` edits ([`connector::Connector::location`]),
/// or for Copilot [`COPILOT_FILE_NAME`] beside it. `None` for Claude Code.
pub fn location(
    agent: AgentKind,
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
) -> Option<SettingsResult<SettingsLocation>> {
    let connector = connector::of(agent)?;
    Some(
        connector
            .location(roots, scope, project)
            .map(|mut location| {
                if agent == AgentKind::Copilot {
                    location.path.set_file_name(COPILOT_FILE_NAME);
                }
                location
            }),
    )
}

/// Appends `conversion`'s groups or entries to the file at `location`
/// (created, with its directory, when missing), skipping each one the file
/// holds already; the report names the event of each one added. Nothing is
/// written when nothing is new, or in a dry run.
pub fn write(
    conversion: &Conversion,
    location: &SettingsLocation,
    dry_run: bool,
) -> connect::Result<ChangeReport> {
    if !dry_run && conversion.agent == AgentKind::Copilot {
        copilot::prepare_dir(location)?;
    }
    connect::add_at(location, dry_run, |file| merge(file, conversion))
}

/// What [`write()`] would write: the file before and after.
pub fn preview(
    conversion: &Conversion,
    location: &SettingsLocation,
) -> connect::Result<EditPreview> {
    connect::preview_add_at(location, |file| merge(file, conversion))
}

/// Appends the converted groups or entries of `conversion` to a parsed
/// hooks file of its agent, after what each event holds, skipping any the
/// event holds already; returns the event of each one added.
pub fn merge(file: &mut Value, conversion: &Conversion) -> Result<Vec<String>, ShapeError> {
    match conversion.agent {
        AgentKind::Codex => {
            codex::check_top_level(file)?;
            connect::check_shape(file)?;
        }
        AgentKind::Gemini | AgentKind::Claude => connect::check_shape(file)?,
        AgentKind::Cursor | AgentKind::Copilot => flat::check_shape(file)?,
    }
    let flat = matches!(conversion.agent, AgentKind::Cursor | AgentKind::Copilot);
    let Value::Object(root) = file else {
        return Err(connect::shape("top level".into(), "an object"));
    };
    let mut added = Vec::new();
    let converted = conversion
        .document
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten();
    for (event, items) in converted {
        for item in items.as_array().into_iter().flatten() {
            let present = root
                .get("hooks")
                .and_then(|hooks| hooks.get(event))
                .and_then(Value::as_array)
                .is_some_and(|list| list.contains(item));
            if present {
                continue;
            }
            if flat && root.is_empty() {
                root.insert("version".into(), json!(1));
            }
            let hooks = root
                .entry("hooks")
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(hooks) = hooks else {
                return Err(connect::shape("hooks".into(), "an object"));
            };
            let list = hooks
                .entry(event.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            let Value::Array(list) = list else {
                return Err(connect::shape(connect::event_path(event), "an array"));
            };
            list.push(item.clone());
            added.push(event.clone());
        }
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::convert::convert_settings;

    fn guard() -> Value {
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 5}]}]}})
    }

    #[test]
    fn a_conversion_goes_after_the_files_own_hooks_and_only_once() {
        let conversion = convert_settings(&guard(), AgentKind::Codex);
        let mut file = json!({"description": "mine", "hooks": {"PreToolUse": [
            {"matcher": "apply_patch", "hooks": [{"type": "command", "command": "./fmt.sh"}]}]}});
        assert_eq!(merge(&mut file, &conversion).unwrap(), ["PreToolUse"]);
        let groups = file["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0]["hooks"][0]["command"], "./fmt.sh");
        assert_eq!(groups[1], conversion.document["hooks"]["PreToolUse"][0]);
        assert!(merge(&mut file, &conversion).unwrap().is_empty());
    }

    #[test]
    fn flat_files_get_entries_and_a_new_one_its_version() {
        let conversion = convert_settings(&guard(), AgentKind::Cursor);
        let mut file = json!({});
        merge(&mut file, &conversion).unwrap();
        assert_eq!(file["version"], 1);
        assert_eq!(file["hooks"], conversion.document["hooks"]);
    }

    #[test]
    fn a_file_the_agent_would_not_read_is_refused_untouched() {
        let conversion = convert_settings(&guard(), AgentKind::Codex);
        let mut file = json!({"$schema": "x"});
        assert!(merge(&mut file, &conversion).is_err());
        assert_eq!(file, json!({"$schema": "x"}));
        let conversion = convert_settings(&guard(), AgentKind::Cursor);
        let mut file = json!({"version": "1"});
        assert!(merge(&mut file, &conversion).is_err());
    }

    #[test]
    fn copilot_gets_a_file_of_its_own_beside_hookds() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let path = |agent| {
            location(agent, &roots, Scope::Project, Some(Path::new("/p")))
                .unwrap()
                .unwrap()
                .path
        };
        assert_eq!(
            path(AgentKind::Copilot),
            Path::new("/p/.github/hooks/claude-hooks.json")
        );
        assert_eq!(path(AgentKind::Codex), Path::new("/p/.codex/hooks.json"));
        assert!(location(AgentKind::Claude, &roots, Scope::Global, None).is_none());
    }
}
