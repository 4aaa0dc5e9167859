//! A hook's JSON stdout, parsed into a typed [`HookOutput`], with a precise
//! message for everything that makes the agent ignore all or part of it.
//!
//! "My JSON output is silently ignored" is one of the most common hook
//! complaints: a missing `hookEventName`, a field at the wrong nesting level,
//! `"Allow"` instead of `"allow"`, shell-profile noise before the `{`. The
//! parser is written by hand rather than derived so that each of these gets a
//! message naming the field, what was expected and what was found, instead
//! of serde's `invalid type at line 1 column 37`.
//!
//! Strictness mirrors Claude Code, which validates the whole object against
//! its schema: a syntax error or a wrongly typed known field rejects the whole
//! output ([`OutputError`]). A `hookSpecificOutput` without the right
//! `hookEventName` is dropped on its own and the rest is kept
//! ([`OutputWarning`]). `null` counts as absent. Unknown fields are kept.

use serde::Serialize;
use serde_json::{Map, Value};

/// Keys that belong inside `hookSpecificOutput`, to spot them at the top level.
const SPECIFIC_KEYS: &[&str] = &[
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "additionalContext",
    "updatedToolOutput",
];

/// A hook's parsed JSON output.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HookOutput {
    /// `continue`: `false` stops the agent altogether (default `true`).
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: shown to the user when `continue` is false.
    #[serde(rename = "stopReason", skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `systemMessage`: a warning shown to the user.
    #[serde(rename = "systemMessage", skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `suppressOutput`: hide the hook's stdout from the transcript.
    #[serde(rename = "suppressOutput", skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// Top-level `decision` (`block` on decision events, legacy `approve`/`block` on PreToolUse).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<TopLevelDecision>,
    /// Top-level `reason` accompanying `decision`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `hookSpecificOutput`, kept only when its `hookEventName` names the event.
    #[serde(rename = "hookSpecificOutput", skip_serializing_if = "Option::is_none")]
    pub hook_specific: Option<HookSpecificOutput>,
    /// Top-level fields hookd does not know, kept verbatim.
    #[serde(flatten)]
    pub unknown: Map<String, Value>,
}

/// The top-level `decision` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TopLevelDecision {
    /// `"approve"`: legacy PreToolUse allow.
    Approve,
    /// `"block"`: block (or, on PreToolUse, the legacy deny).
    Block,
}

impl TopLevelDecision {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::Block => "block",
        }
    }
}

/// `hookSpecificOutput`: fields whose meaning depends on the event.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookSpecificOutput {
    /// `hookEventName`: must equal the event the hook ran for.
    pub hook_event_name: String,
    /// PreToolUse `permissionDecision`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// PreToolUse `permissionDecisionReason` (to the model on deny, to the user otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// PreToolUse `updatedInput`: replaces the tool input (an object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// `additionalContext`: text added to the model's context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// PostToolUse `updatedToolOutput`: replaces what the model sees of the tool's output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// PermissionRequest `decision`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// Fields hookd does not know, kept verbatim.
    #[serde(flatten)]
    pub unknown: Map<String, Value>,
}

/// PreToolUse `permissionDecision`, ordered by merge precedence (weakest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionDecision {
    /// Run the tool without asking.
    Allow,
    /// Ask the user.
    Ask,
    /// Leave the decision to the agent's normal permission flow.
    Defer,
    /// Refuse the tool call; the reason goes to the model.
    Deny,
}

impl PermissionDecision {
    /// The JSON spelling, also the label used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Defer => "defer",
            Self::Deny => "deny",
        }
    }
}

/// PermissionRequest `hookSpecificOutput.decision`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequestDecision {
    /// `behavior`: allow or deny the permission request.
    pub behavior: Behavior,
    /// `updatedInput`: replaces the tool input on allow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// `updatedPermissions`: permission rule updates to apply on allow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
    /// `message`: why, on deny.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Fields hookd does not know (`interrupt`, ...), kept verbatim.
    #[serde(flatten)]
    pub unknown: Map<String, Value>,
}

/// PermissionRequest `decision.behavior`, ordered by merge precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Behavior {
    /// Grant the permission.
    Allow,
    /// Refuse it.
    Deny,
}

impl Behavior {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Deny => "deny",
        }
    }
}

/// How a hook's stdout is to be read, by its first non-whitespace character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stdout<'a> {
    /// Nothing but whitespace.
    Empty,
    /// Plain text (trimmed).
    Plain(&'a str),
    /// Starts with `{`: to be parsed as JSON (trimmed).
    Json(&'a str),
}

/// Classifies stdout the way Claude Code does: JSON only when `{` comes first.
pub fn classify(stdout: &str) -> Stdout<'_> {
    let trimmed = stdout.trim();
    if trimmed.is_empty() {
        Stdout::Empty
    } else if trimmed.starts_with('{') {
        Stdout::Json(trimmed)
    } else {
        Stdout::Plain(trimmed)
    }
}

/// In plain stdout, the 1-based line where a valid JSON object starts and runs
/// to the end: the telltale of shell-profile output printed before the JSON.
pub fn stray_json_line(plain: &str) -> Option<usize> {
    let mut offset = 0;
    for (index, line) in plain.split_inclusive('\n').enumerate() {
        if index > 0 && line.trim_start().starts_with('{') {
            let rest = plain[offset..].trim();
            if matches!(serde_json::from_str::<Value>(rest), Ok(Value::Object(_))) {
                return Some(index + 1);
            }
        }
        offset += line.len();
    }
    None
}

/// A known field with the wrong type or value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` must be {expected}, not {found}")]
pub struct FieldProblem {
    /// Path of the field, e.g. `hookSpecificOutput.permissionDecision`.
    pub field: String,
    /// What the agent accepts there.
    pub expected: &'static str,
    /// What the hook printed, described.
    pub found: String,
}

/// Why a hook's JSON stdout was rejected as a whole (no decision taken from it).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Not valid JSON.
    #[error("stdout starts with `{{` but is not valid JSON: {source}{hint}")]
    Syntax {
        /// The parser's error, with line and column.
        source: serde_json::Error,
        /// Advice for the common causes.
        hint: &'static str,
    },
    /// Valid JSON but not an object.
    #[error("stdout JSON is not an object")]
    NotAnObject,
    /// Known fields with wrong types or values.
    #[error("JSON output ignored: {}", join_problems(.0))]
    Invalid(Vec<FieldProblem>),
}

fn join_problems(problems: &[FieldProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Something in the output the agent ignores while honouring the rest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputWarning {
    /// `hookSpecificOutput` without `hookEventName`.
    #[error(
        "hookSpecificOutput ignored: it has no `hookEventName` (add \"hookEventName\": \"{event}\")"
    )]
    MissingEventName {
        /// The event the hook ran for.
        event: String,
    },
    /// `hookSpecificOutput` naming another event.
    #[error(
        "hookSpecificOutput ignored: its hookEventName is \"{found}\" but the hook ran for \"{event}\""
    )]
    WrongEventName {
        /// What the hook wrote.
        found: String,
        /// The event the hook ran for.
        event: String,
    },
    /// A `hookSpecificOutput` field written at the top level.
    #[error(
        "`{field}` ignored: it belongs inside hookSpecificOutput (with \"hookEventName\": \"{event}\")"
    )]
    Misplaced {
        /// The misplaced key.
        field: String,
        /// The event the hook ran for.
        event: String,
    },
    /// A field that means nothing for this event.
    #[error("`{field}` ignored: it has no effect on {event}")]
    NotHonoured {
        /// The field (and value, where that is what matters).
        field: String,
        /// The event the hook ran for.
        event: String,
    },
    /// JSON on stdout together with exit code 2.
    #[error(
        "stdout JSON ignored: the hook exited with code 2, which takes its reason from stderr (exit 0 to use JSON output)"
    )]
    JsonWithExitTwo,
    /// Text before the JSON object.
    #[error(
        "stdout treated as plain text: a JSON object starts on line {line}, but JSON is only parsed when `{{` is the first non-space character (shell profile output?)"
    )]
    TextBeforeJson {
        /// 1-based line of the `{`.
        line: usize,
    },
}

/// A successfully parsed output and what in it is ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The typed output.
    pub output: HookOutput,
    /// Parts the agent ignores.
    pub warnings: Vec<OutputWarning>,
}

/// Parses JSON stdout (already known to start with `{`) of a hook run for `event`.
pub fn parse(json: &str, event: &str) -> Result<Parsed, OutputError> {
    let value: Value = serde_json::from_str(json).map_err(|source| {
        let hint = if source.to_string().contains("trailing characters") {
            " (print exactly one JSON object on stdout; send anything else to stderr)"
        } else {
            ""
        };
        OutputError::Syntax { source, hint }
    })?;
    let Value::Object(top) = value else {
        return Err(OutputError::NotAnObject);
    };
    let mut problems = Vec::new();
    let mut warnings = Vec::new();

    for key in SPECIFIC_KEYS {
        if top.contains_key(*key) {
            warnings.push(OutputWarning::Misplaced {
                field: (*key).to_owned(),
                event: event.to_owned(),
            });
        }
    }

    let mut f = Fields {
        obj: &top,
        prefix: "",
        problems: &mut problems,
    };
    let continue_ = f.bool("continue");
    let stop_reason = f.string("stopReason");
    let system_message = f.string("systemMessage");
    let suppress_output = f.bool("suppressOutput");
    let decision = f.choice(
        "decision",
        "\"approve\" or \"block\"",
        &[
            ("approve", TopLevelDecision::Approve),
            ("block", TopLevelDecision::Block),
        ],
    );
    let reason = f.string("reason");
    let specific = f.object("hookSpecificOutput");

    let hook_specific = match specific {
        None => None,
        Some(obj) => match obj.get("hookEventName") {
            None | Some(Value::Null) => {
                warnings.push(OutputWarning::MissingEventName {
                    event: event.to_owned(),
                });
                None
            }
            Some(Value::String(name)) if name == event => {
                Some(parse_specific(obj, name, &mut problems))
            }
            Some(Value::String(name)) => {
                warnings.push(OutputWarning::WrongEventName {
                    found: name.clone(),
                    event: event.to_owned(),
                });
                None
            }
            Some(other) => {
                problems.push(FieldProblem {
                    field: "hookSpecificOutput.hookEventName".into(),
                    expected: "a string",
                    found: describe(other),
                });
                None
            }
        },
    };

    if !problems.is_empty() {
        return Err(OutputError::Invalid(problems));
    }
    let unknown = unknown_fields(
        &top,
        &[
            "continue",
            "stopReason",
            "systemMessage",
            "suppressOutput",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
    );
    Ok(Parsed {
        output: HookOutput {
            continue_,
            stop_reason,
            system_message,
            suppress_output,
            decision,
            reason,
            hook_specific,
            unknown,
        },
        warnings,
    })
}

fn parse_specific(
    obj: &Map<String, Value>,
    name: &str,
    problems: &mut Vec<FieldProblem>,
) -> HookSpecificOutput {
    let mut f = Fields {
        obj,
        prefix: "hookSpecificOutput.",
        problems,
    };
    let permission_decision = f.choice(
        "permissionDecision",
        "one of \"allow\", \"deny\", \"ask\", \"defer\"",
        &[
            ("allow", PermissionDecision::Allow),
            ("deny", PermissionDecision::Deny),
            ("ask", PermissionDecision::Ask),
            ("defer", PermissionDecision::Defer),
        ],
    );
    let permission_decision_reason = f.string("permissionDecisionReason");
    let updated_input = f.object("updatedInput").cloned().map(Value::Object);
    let additional_context = f.string("additionalContext");
    let updated_tool_output = f.any("updatedToolOutput");
    let decision = f
        .object("decision")
        .and_then(|d| parse_request_decision(d, f.problems));
    HookSpecificOutput {
        hook_event_name: name.to_owned(),
        permission_decision,
        permission_decision_reason,
        updated_input,
        additional_context,
        updated_tool_output,
        decision,
        unknown: unknown_fields(
            obj,
            &[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
                "updatedToolOutput",
                "decision",
            ],
        ),
    }
}

fn parse_request_decision(
    obj: &Map<String, Value>,
    problems: &mut Vec<FieldProblem>,
) -> Option<PermissionRequestDecision> {
    let mut f = Fields {
        obj,
        prefix: "hookSpecificOutput.decision.",
        problems,
    };
    let behavior = f.choice(
        "behavior",
        "\"allow\" or \"deny\"",
        &[("allow", Behavior::Allow), ("deny", Behavior::Deny)],
    );
    let updated_input = f.object("updatedInput").cloned().map(Value::Object);
    let updated_permissions = f.array("updatedPermissions");
    let message = f.string("message");
    let Some(behavior) = behavior else {
        if !obj.contains_key("behavior") {
            f.problems.push(FieldProblem {
                field: "hookSpecificOutput.decision.behavior".into(),
                expected: "\"allow\" or \"deny\"",
                found: "nothing (it is required)".into(),
            });
        }
        return None;
    };
    Some(PermissionRequestDecision {
        behavior,
        updated_input,
        updated_permissions,
        message,
        unknown: unknown_fields(
            obj,
            &["behavior", "updatedInput", "updatedPermissions", "message"],
        ),
    })
}

/// Typed access to the fields of one JSON object, collecting problems.
struct Fields<'a, 'p> {
    obj: &'a Map<String, Value>,
    prefix: &'static str,
    problems: &'p mut Vec<FieldProblem>,
}

impl<'a> Fields<'a, '_> {
    /// The value of `key`, `None` when absent or null.
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.obj.get(key).filter(|v| !v.is_null())
    }

    fn wrong(&mut self, key: &str, expected: &'static str, found: &Value) {
        self.problems.push(FieldProblem {
            field: format!("{}{key}", self.prefix),
            expected,
            found: describe(found),
        });
    }

    fn bool(&mut self, key: &str) -> Option<bool> {
        match self.get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.wrong(key, "true or false", other);
                None
            }
        }
    }

    fn string(&mut self, key: &str) -> Option<String> {
        match self.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.wrong(key, "a string", other);
                None
            }
        }
    }

    fn object(&mut self, key: &str) -> Option<&'a Map<String, Value>> {
        match self.get(key)? {
            Value::Object(map) => Some(map),
            other => {
                self.wrong(key, "an object", other);
                None
            }
        }
    }

    fn array(&mut self, key: &str) -> Option<Value> {
        match self.get(key)? {
            v @ Value::Array(_) => Some(v.clone()),
            other => {
                self.wrong(key, "an array", other);
                None
            }
        }
    }

    fn any(&mut self, key: &str) -> Option<Value> {
        self.get(key).cloned()
    }

    fn choice<T: Copy>(
        &mut self,
        key: &str,
        expected: &'static str,
        choices: &[(&str, T)],
    ) -> Option<T> {
        let value = self.get(key)?;
        let found = value
            .as_str()
            .and_then(|s| choices.iter().find(|(name, _)| *name == s));
        match found {
            Some((_, choice)) => Some(*choice),
            None => {
                self.wrong(key, expected, value);
                None
            }
        }
    }
}

fn unknown_fields(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Describes a JSON value for an error message: `the string "Allow"`, `a number (1)`.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("a number ({n})"),
        Value::String(s) => {
            let shown: String = s.chars().take(60).collect();
            format!("the string {shown:?}")
        }
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(json: &str, event: &str) -> Parsed {
        parse(json, event).unwrap()
    }

    #[test]
    fn classify_follows_the_first_non_space_character() {
        assert_eq!(classify(" \n\t"), Stdout::Empty);
        assert_eq!(classify("  {\"a\":1}\n"), Stdout::Json("{\"a\":1}"));
        assert_eq!(classify("hello {\n"), Stdout::Plain("hello {"));
    }

    #[test]
    fn parses_every_known_field() {
        let parsed = ok(
            r#"{"continue": false, "stopReason": "done", "systemMessage": "hi",
                "suppressOutput": true, "decision": "block", "reason": "no",
                "extra": 1,
                "hookSpecificOutput": {"hookEventName": "PreToolUse",
                  "permissionDecision": "ask", "permissionDecisionReason": "why",
                  "updatedInput": {"command": "ls"}, "additionalContext": "ctx",
                  "updatedToolOutput": "out", "custom": true}}"#,
            "PreToolUse",
        );
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        let out = parsed.output;
        assert_eq!(out.continue_, Some(false));
        assert_eq!(out.stop_reason.as_deref(), Some("done"));
        assert_eq!(out.system_message.as_deref(), Some("hi"));
        assert_eq!(out.suppress_output, Some(true));
        assert_eq!(out.decision, Some(TopLevelDecision::Block));
        assert_eq!(out.reason.as_deref(), Some("no"));
        assert_eq!(out.unknown.get("extra"), Some(&Value::from(1)));
        let spec = out.hook_specific.unwrap();
        assert_eq!(spec.permission_decision, Some(PermissionDecision::Ask));
        assert_eq!(spec.permission_decision_reason.as_deref(), Some("why"));
        assert_eq!(
            spec.updated_input,
            Some(serde_json::json!({"command": "ls"}))
        );
        assert_eq!(spec.additional_context.as_deref(), Some("ctx"));
        assert_eq!(spec.updated_tool_output, Some(Value::from("out")));
        assert_eq!(spec.unknown.get("custom"), Some(&Value::Bool(true)));
    }

    #[test]
    fn serialises_back_with_the_agent_spelling_and_unknown_fields() {
        let text = r#"{"continue":false,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"x":[1]}"#;
        let out = ok(text, "PreToolUse").output;
        let back = serde_json::to_value(&out).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(text).unwrap());
    }

    #[test]
    fn permission_request_decision_is_typed() {
        let out = ok(
            r#"{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "nope", "interrupt": true,
                             "updatedPermissions": [{"type": "addRules"}]}}}"#,
            "PermissionRequest",
        )
        .output;
        let d = out.hook_specific.unwrap().decision.unwrap();
        assert_eq!(d.behavior, Behavior::Deny);
        assert_eq!(d.message.as_deref(), Some("nope"));
        assert_eq!(d.unknown.get("interrupt"), Some(&Value::Bool(true)));
        assert!(d.updated_permissions.unwrap().is_array());
    }

    #[test]
    fn missing_or_wrong_event_name_drops_only_hook_specific_output() {
        let parsed = ok(
            r#"{"systemMessage": "kept", "hookSpecificOutput": {"permissionDecision": "deny"}}"#,
            "PreToolUse",
        );
        assert_eq!(parsed.output.system_message.as_deref(), Some("kept"));
        assert_eq!(parsed.output.hook_specific, None);
        assert_eq!(
            parsed.warnings,
            vec![OutputWarning::MissingEventName {
                event: "PreToolUse".into()
            }]
        );
        assert!(parsed.warnings[0].to_string().contains("hookEventName"));

        let parsed = ok(
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}"#,
            "PreToolUse",
        );
        assert_eq!(parsed.output.hook_specific, None);
        let msg = parsed.warnings[0].to_string();
        assert!(
            msg.contains("\"PostToolUse\"") && msg.contains("\"PreToolUse\""),
            "{msg}"
        );
    }

    #[test]
    fn wrong_types_reject_the_whole_output_and_name_every_field() {
        let err = parse(
            r#"{"continue": "no", "systemMessage": 3,
                "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Allow"}}"#,
            "PreToolUse",
        )
        .unwrap_err();
        let OutputError::Invalid(problems) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(problems.len(), 3, "{problems:?}");
        let msg = err.to_string();
        assert!(
            msg.contains("`continue` must be true or false, not the string \"no\""),
            "{msg}"
        );
        assert!(
            msg.contains("`systemMessage` must be a string, not a number (3)"),
            "{msg}"
        );
        assert!(
            msg.contains("`hookSpecificOutput.permissionDecision` must be one of"),
            "{msg}"
        );
        assert!(msg.contains("\"Allow\""), "{msg}");
    }

    #[test]
    fn updated_input_must_be_an_object_and_behavior_is_required() {
        let err = parse(
            r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": "ls"}}"#,
            "PreToolUse",
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("`hookSpecificOutput.updatedInput` must be an object"),
            "{err}"
        );
        let err = parse(
            r#"{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"message": "x"}}}"#,
            "PermissionRequest",
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("`hookSpecificOutput.decision.behavior` must be"),
            "{err}"
        );
    }

    #[test]
    fn null_counts_as_absent() {
        let out = ok(r#"{"reason": null, "continue": null}"#, "Stop").output;
        assert_eq!(out.reason, None);
        assert_eq!(out.continue_, None);
    }

    #[test]
    fn syntax_errors_say_where_and_hint_at_trailing_output() {
        let err = parse("{\"a\": }", "Stop").unwrap_err();
        assert!(matches!(err, OutputError::Syntax { .. }));
        assert!(err.to_string().contains("line 1"), "{err}");
        let err = parse("{\"a\": 1}\nall good", "Stop").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("trailing characters") && msg.contains("exactly one JSON object"),
            "{msg}"
        );
    }

    #[test]
    fn top_level_hook_specific_keys_are_flagged_as_misplaced() {
        let parsed = ok(
            r#"{"permissionDecision": "deny", "additionalContext": "x"}"#,
            "PreToolUse",
        );
        assert_eq!(parsed.warnings.len(), 2);
        assert!(
            parsed.warnings[0]
                .to_string()
                .contains("belongs inside hookSpecificOutput")
        );
        // Still kept verbatim as unknown fields.
        assert!(parsed.output.unknown.contains_key("permissionDecision"));
    }

    #[test]
    fn stray_json_after_text_is_found() {
        assert_eq!(
            stray_json_line("Welcome to bash\n{\"continue\": false}"),
            Some(2)
        );
        assert_eq!(stray_json_line("a\nb\n  {\"x\": {\"y\": 1}}\n"), Some(3));
        assert_eq!(stray_json_line("just text\n{ not json"), None);
        assert_eq!(stray_json_line("one line only"), None);
    }
}
