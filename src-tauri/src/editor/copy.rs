//! "Copy to …" in the Hook editor: one hook as another coding agent's
//! hooks-file entry, with what degrades on the way (the core's
//! `settings::convert`, the same as `hookd hooks convert`). The window shows
//! it for the user to paste into that agent's file: hookd writes only
//! Claude Code's files and its own.

use hookd_core::AgentKind;
use hookd_core::settings::convert::{self, HookConversion};
use serde::Serialize;
use serde_json::{Map, Value, json};
use ts_rs::TS;

use crate::error::{AppError, Result};

/// One hook converted for another agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct HookCopy {
    /// The agent (`codex`, …).
    pub agent: String,
    /// Its name for a person (`Codex CLI`).
    pub label: String,
    /// Where that agent reads hooks from.
    pub files: String,
    /// That agent's hooks file holding just this hook, as pretty JSON (empty
    /// when the hook is left out).
    pub text: String,
    /// What it became and what degrades.
    pub conversion: HookConversion,
}

/// The hook (`handler` in a group of `matcher` under `event`) as `to`'s entry.
pub fn copy_hook(
    event: &str,
    matcher: Option<&str>,
    handler: &Value,
    to: &str,
) -> Result<HookCopy> {
    let agent = AgentKind::parse(to)
        .filter(|a| *a != AgentKind::Claude)
        .ok_or_else(|| {
            AppError::invalid_input(format!(
                "to: {to:?} is not an agent a hook can be copied to (codex, gemini, cursor, copilot)"
            ))
        })?;
    if !handler.is_object() {
        return Err(AppError::invalid_input("handler: not a JSON object"));
    }
    let mut group = Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), Value::from(m));
    }
    group.insert("hooks".into(), json!([handler]));
    let mut hooks = Map::new();
    hooks.insert(event.to_owned(), json!([group]));
    let mut converted = convert::convert(&hooks, agent);
    let conversion = converted
        .hooks
        .pop()
        .ok_or_else(|| AppError::invalid_input("the hook could not be read"))?;
    let text = if conversion.target_event.is_some() {
        serde_json::to_string_pretty(&converted.document).unwrap_or_default()
    } else {
        String::new()
    };
    Ok(HookCopy {
        agent: agent.as_str().to_owned(),
        label: convert::label(agent).to_owned(),
        files: convert::hooks_files(agent).to_owned(),
        text,
        conversion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_becomes_the_agents_entry_or_is_left_out_with_why() {
        let handler = json!({"type": "command", "command": "./guard.sh", "timeout": 5});
        let copy = copy_hook("PreToolUse", Some("Bash"), &handler, "gemini").unwrap();
        assert_eq!(copy.label, "Gemini CLI");
        let text: Value = serde_json::from_str(&copy.text).unwrap();
        assert_eq!(
            text,
            json!({"hooks": {"BeforeTool": [{"matcher": "^(?:run_shell_command)$", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 5000}]}]}})
        );
        assert!(copy.files.contains(".gemini/settings.json"));

        let left = copy_hook("PostToolUseFailure", None, &handler, "codex").unwrap();
        assert_eq!(left.text, "");
        assert_eq!(left.conversion.target_event, None);
        assert!(!left.conversion.lost.is_empty());

        assert!(copy_hook("PreToolUse", None, &handler, "claude").is_err());
        assert!(copy_hook("PreToolUse", None, &handler, "vim").is_err());
        assert!(copy_hook("PreToolUse", None, &json!("x"), "codex").is_err());
    }
}
