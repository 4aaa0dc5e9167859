//! Checks a settings document against the hook contract before anything is
//! written, and reports every problem with its JSON path.
//!
//! A settings file the agent rejects silently disables every hook in it, and
//! a file "repaired" by dropping what a tool did not understand loses the
//! user's work, so hookd refuses to write an invalid document and says
//! exactly where each problem is (`hooks.PreToolUse[1].hooks[0].timeout`).
//! Only the `hooks` tree is checked; every other key belongs to the agent and
//! is left to it. Handler types hookd does not run are checked only for the
//! fields the agent requires, and kept verbatim.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::settings::events::{self, EVENTS};
use crate::settings::matcher::Matcher;

/// Handler types the agent knows; hookd itself runs only `command`.
pub const HANDLER_TYPES: [&str; 5] = ["command", "http", "prompt", "mcp_tool", "agent"];

/// One problem in a settings document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValidationError {
    /// Where, e.g. `hooks.PreToolUse[1].hooks[0].timeout` (`top level` for the root).
    pub path: String,
    /// What is wrong, e.g. `expected a positive number`.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ValidationError {}

/// Every problem in `value`, in document order; empty when the hooks are
/// valid. A missing `hooks` key is valid (no hooks).
pub fn validate(value: &Value) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    let Value::Object(root) = value else {
        errors.push(error("top level", "expected an object"));
        return errors;
    };
    let Some(hooks) = root.get("hooks") else {
        return errors;
    };
    let Value::Object(hooks) = hooks else {
        errors.push(error("hooks", "expected an object"));
        return errors;
    };
    for (event, groups) in hooks {
        let path = event_path(event);
        if !EVENTS.iter().any(|e| e.name == event) {
            let message = match suggest_event(event) {
                Some(close) => format!("unknown event (did you mean {close}?)"),
                None => "unknown event".to_owned(),
            };
            errors.push(error(&path, message));
        }
        let Value::Array(groups) = groups else {
            errors.push(error(&path, "expected an array of matcher groups"));
            continue;
        };
        for (i, group) in groups.iter().enumerate() {
            validate_group(&format!("{path}[{i}]"), group, &mut errors);
        }
    }
    errors
}

/// A group's matcher that is not a valid pattern (e.g. `Bash(*docker*)`).
/// The agent loads such a file and simply never matches that group, so it
/// does not make the file invalid: the file is listed and edited as usual,
/// the group flagged ([`BadMatcher::warning`]). A save never adds a new one
/// ([`BadMatcher::refusal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMatcher {
    /// Where, e.g. `hooks.PreToolUse[0].matcher`.
    pub path: String,
    /// The matcher as written.
    pub text: String,
    /// Why it is not a pattern, with the position.
    pub why: String,
}

impl BadMatcher {
    /// As a warning about a file that has it.
    pub fn warning(&self) -> ValidationError {
        error(
            &self.path,
            format!(
                "{}; the agent loads the file and never matches this group",
                self.why
            ),
        )
    }

    /// As the reason a save that would add it is refused.
    pub fn refusal(&self) -> ValidationError {
        error(&self.path, self.why.clone())
    }
}

/// Every matcher of `value` that is not a valid pattern, in document order.
pub fn bad_matchers(value: &Value) -> Vec<BadMatcher> {
    let Some(Value::Object(hooks)) = value.get("hooks") else {
        return Vec::new();
    };
    let mut bad = Vec::new();
    for (event, groups) in hooks {
        let Value::Array(groups) = groups else {
            continue;
        };
        for (i, group) in groups.iter().enumerate() {
            if let Some(Value::String(text)) = group.get("matcher")
                && let Err(err) = Matcher::parse(Some(text))
            {
                bad.push(BadMatcher {
                    path: format!("{}[{i}].matcher", event_path(event)),
                    text: text.clone(),
                    why: err.to_string(),
                });
            }
        }
    }
    bad
}

/// The known event closest to `name`: the same event in another spelling
/// (`pre_tool_use`, `pretooluse`), else one within a small edit distance.
pub fn suggest_event(name: &str) -> Option<&'static str> {
    if let Some(spec) = events::lookup(name) {
        return Some(spec.name);
    }
    let wanted = name.to_ascii_lowercase();
    let (distance, best) = EVENTS
        .iter()
        .map(|e| (edit_distance(&wanted, &e.name.to_ascii_lowercase()), e.name))
        .min()?;
    // Beyond a third of the name the "suggestion" is just another event.
    (distance <= (name.chars().count() / 3).max(2)).then_some(best)
}

/// The JSON path of an event's array: `hooks.PreToolUse`, or
/// `hooks["odd name"]` when the name is not a plain identifier.
pub fn event_path(event: &str) -> String {
    if !event.is_empty() && event.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("hooks.{event}")
    } else {
        format!("hooks[{}]", Value::from(event))
    }
}

fn validate_group(path: &str, group: &Value, errors: &mut Vec<ValidationError>) {
    let Value::Object(group) = group else {
        errors.push(error(
            path,
            "expected an object with \"hooks\" (and \"matcher\")",
        ));
        return;
    };
    // A matcher that is not a valid pattern is no error: see [`bad_matchers`].
    if group.get("matcher").is_some_and(|m| !m.is_string()) {
        errors.push(error(&format!("{path}.matcher"), "expected a string"));
    }
    match group.get("hooks") {
        None => errors.push(error(
            &format!("{path}.hooks"),
            "missing (expected an array of handlers)",
        )),
        Some(Value::Array(handlers)) => {
            for (i, handler) in handlers.iter().enumerate() {
                validate_handler(&format!("{path}.hooks[{i}]"), handler, errors);
            }
        }
        Some(_) => errors.push(error(
            &format!("{path}.hooks"),
            "expected an array of handlers",
        )),
    }
}

fn validate_handler(path: &str, handler: &Value, errors: &mut Vec<ValidationError>) {
    let Value::Object(handler) = handler else {
        errors.push(error(path, "expected a handler object"));
        return;
    };
    let expected_types = || format!("expected one of {}", HANDLER_TYPES.join(", "));
    match handler.get("type") {
        None => errors.push(error(
            &format!("{path}.type"),
            format!("missing ({})", expected_types()),
        )),
        Some(Value::String(kind)) => {
            let required = match kind.as_str() {
                "command" => Some("command"),
                "http" => Some("url"),
                "prompt" => Some("prompt"),
                "mcp_tool" | "agent" => None,
                other => {
                    errors.push(error(
                        &format!("{path}.type"),
                        format!("unknown handler type {other:?}: {}", expected_types()),
                    ));
                    None
                }
            };
            if let Some(field) = required {
                require_text(path, handler, field, kind, errors);
            }
        }
        Some(_) => errors.push(error(&format!("{path}.type"), expected_types())),
    }
    if let Some(timeout) = handler.get("timeout")
        && !timeout.as_f64().is_some_and(|t| t.is_finite() && t > 0.0)
    {
        errors.push(error(
            &format!("{path}.timeout"),
            "expected a positive number (seconds)",
        ));
    }
    for flag in ["async", "once"] {
        if handler.get(flag).is_some_and(|v| !v.is_boolean()) {
            errors.push(error(&format!("{path}.{flag}"), "expected true or false"));
        }
    }
    // `onFailure: "block"` (command and http hooks) makes a failed run
    // block; `if` is one permission rule such as `Bash(git *)`.
    for field in ["onFailure", "if"] {
        if handler.get(field).is_some_and(|v| !v.is_string()) {
            errors.push(error(&format!("{path}.{field}"), "expected a string"));
        }
    }
}

fn require_text(
    path: &str,
    handler: &Map<String, Value>,
    field: &str,
    kind: &str,
    errors: &mut Vec<ValidationError>,
) {
    let path = format!("{path}.{field}");
    match handler.get(field) {
        None => errors.push(error(
            &path,
            format!("missing (required for {kind} handlers)"),
        )),
        Some(Value::String(s)) if s.trim().is_empty() => {
            errors.push(error(&path, "expected a non-empty string"));
        }
        Some(Value::String(_)) => {}
        Some(_) => errors.push(error(&path, "expected a non-empty string")),
    }
}

fn error(path: &str, message: impl Into<String>) -> ValidationError {
    ValidationError {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Levenshtein distance over chars; event names are short, so the simple
/// two-row version is plenty.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != *cb);
            row[j + 1] = substitute.min(prev[j + 1] + 1).min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(value: &Value) -> Vec<String> {
        validate(value).into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn a_valid_document_with_every_handler_type() {
        let doc = json!({
            "model": "opus",
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 1.5, "async": true}]},
                    {"hooks": [{"type": "http", "url": "https://h", "extra": [1]}]}
                ],
                "Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}, {"type": "agent", "prompt": "p"}, {"type": "mcp_tool", "server": "s"}]}]
            }
        });
        assert_eq!(paths(&doc), Vec::<String>::new());
        assert!(validate(&json!({})).is_empty());
    }

    #[test]
    fn every_problem_has_its_path() {
        let doc = json!({
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]},
                    {"matcher": "Edit(", "hooks": [{"type": "command", "command": "y", "timeout": 0}]},
                    {"matcher": 3, "hooks": {}},
                    "nope",
                    {}
                ],
                "PreToolUs": [],
                "Stop": {},
                "Notification": [{"hooks": [
                    {"type": "command"},
                    {"type": "command", "command": " "},
                    {"type": "http"},
                    {"type": "prompt", "prompt": 1},
                    {"type": "shell", "command": "z"},
                    {"command": "z", "async": "yes", "once": 1, "timeout": "30", "onFailure": true, "if": ["Bash"]},
                    7
                ]}]
            }
        });
        assert_eq!(
            paths(&doc),
            [
                "hooks.PreToolUse[1].hooks[0].timeout: expected a positive number (seconds)",
                "hooks.PreToolUse[2].matcher: expected a string",
                "hooks.PreToolUse[2].hooks: expected an array of handlers",
                "hooks.PreToolUse[3]: expected an object with \"hooks\" (and \"matcher\")",
                "hooks.PreToolUse[4].hooks: missing (expected an array of handlers)",
                "hooks.PreToolUs: unknown event (did you mean PreToolUse?)",
                "hooks.Stop: expected an array of matcher groups",
                "hooks.Notification[0].hooks[0].command: missing (required for command handlers)",
                "hooks.Notification[0].hooks[1].command: expected a non-empty string",
                "hooks.Notification[0].hooks[2].url: missing (required for http handlers)",
                "hooks.Notification[0].hooks[3].prompt: expected a non-empty string",
                "hooks.Notification[0].hooks[4].type: unknown handler type \"shell\": expected one of command, http, prompt, mcp_tool, agent",
                "hooks.Notification[0].hooks[5].type: missing (expected one of command, http, prompt, mcp_tool, agent)",
                "hooks.Notification[0].hooks[5].timeout: expected a positive number (seconds)",
                "hooks.Notification[0].hooks[5].async: expected true or false",
                "hooks.Notification[0].hooks[5].once: expected true or false",
                "hooks.Notification[0].hooks[5].onFailure: expected a string",
                "hooks.Notification[0].hooks[5].if: expected a string",
                "hooks.Notification[0].hooks[6]: expected a handler object",
            ]
        );
    }

    #[test]
    fn a_matcher_that_is_no_pattern_is_flagged_not_an_error() {
        let doc = json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash(*docker*)", "hooks": [{"type": "command", "command": "x"}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "y"}]}
            ],
            "Stop": [{"matcher": "Edit(", "hooks": []}]
        }});
        assert_eq!(paths(&doc), Vec::<String>::new());
        let bad = bad_matchers(&doc);
        assert_eq!(
            bad.iter()
                .map(|b| b.warning().to_string())
                .collect::<Vec<_>>(),
            [
                "hooks.PreToolUse[0].matcher: invalid regex \"Bash(*docker*)\" at position 5: repetition operator missing expression; the agent loads the file and never matches this group",
                "hooks.Stop[0].matcher: invalid regex \"Edit(\" at position 4: unclosed group; the agent loads the file and never matches this group",
            ]
        );
        assert_eq!(bad[1].text, "Edit(");
        assert_eq!(
            bad[1].refusal().to_string(),
            "hooks.Stop[0].matcher: invalid regex \"Edit(\" at position 4: unclosed group"
        );
    }

    #[test]
    fn top_level_and_hooks_shapes() {
        assert_eq!(paths(&json!([])), ["top level: expected an object"]);
        assert_eq!(paths(&json!({"hooks": []})), ["hooks: expected an object"]);
        assert_eq!(
            paths(&json!({"hooks": {"my event": []}})),
            ["hooks[\"my event\"]: unknown event"]
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest_event("pre_tool_use"), Some("PreToolUse"));
        assert_eq!(suggest_event("preToolUse"), Some("PreToolUse"));
        assert_eq!(suggest_event("SesionStart"), Some("SessionStart"));
        assert_eq!(suggest_event("Notifcation"), Some("Notification"));
        assert_eq!(suggest_event("Banana"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
