//! Each coding agent's hooks file checked as that agent reads it: Codex
//! CLI's `hooks.json`, the `hooks` of Gemini CLI's `settings.json`,
//! Cursor's `hooks.json` and a GitHub Copilot hooks file
//! (`docs/agent-hooks.md` §1.2, §2.2, §3.2, §4.2).
//!
//! The agents differ in what they do with a file they do not like, and the
//! check says which: an **error** is what makes the agent drop the file or
//! the hook (Codex CLI drops a whole `hooks.json` with an unknown top-level
//! key; a command entry without a command never runs), a **warning** what it
//! skips with a warning and goes on (Gemini CLI reports type errors and
//! still loads the file; an unknown event is skipped everywhere). Paths are
//! JSON paths into the file, as for Claude Code's files
//! ([`mod@super::validate`]).
//!
//! Values the agent changes rather than refuses are warnings that say what
//! the agent makes of them (Codex CLI raises a timeout of 0 to 1 second and
//! ignores the old `timeoutSec`), and matchers are compiled as the agent
//! compiles them: Codex CLI skips a group whose regex does not compile,
//! Gemini CLI compares such a matcher of a tool event as plain text.

use serde::Serialize;
use serde_json::{Map, Value};

use super::validate::ValidationError;
use crate::AgentKind;

/// What an agent would make of one hooks file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AgentFileCheck {
    /// What makes the agent drop the file or a hook of it.
    pub errors: Vec<ValidationError>,
    /// What it skips or ignores, with a warning of its own or none.
    pub warnings: Vec<ValidationError>,
}

/// Codex CLI's events (§1.3).
const CODEX_EVENTS: &[&str] = &[
    "SessionStart",
    "SubagentStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SubagentStop",
    "Stop",
    "SessionEnd",
    "Interrupt",
];

/// Gemini CLI's events (§2.3).
const GEMINI_EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "Notification",
];

/// Keys under Gemini CLI's `hooks` that are settings, not events: it skips
/// them without a word (`HOOKS_CONFIG_FIELDS` in its `hooks/types.ts`; the
/// docs' troubleshooting still shows `"hooks": {"disabled": [...]}`). The
/// check, the connect that edits around them and the listing of an agent's
/// hooks all pass them over by this list.
pub(crate) const GEMINI_CONFIG_FIELDS: &[&str] = &["enabled", "disabled", "notifications"];

/// Cursor's events (§3.3).
const CURSOR_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
    "workspaceOpen",
];

/// GitHub Copilot's events, camelCase and PascalCase (§4.3).
const COPILOT_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "permissionRequest",
    "postToolUse",
    "postToolUseFailure",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "preCompact",
    "notification",
    "errorOccurred",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "ErrorOccurred",
];

/// `agent`'s events, spelled as its hooks files key them, in the order of
/// `docs/agent-hooks.md` (Copilot's camelCase then PascalCase). Claude
/// Code's are the catalogue's ([`super::events::EVENTS`]), not listed here:
/// empty.
pub fn events(agent: AgentKind) -> &'static [&'static str] {
    match agent {
        AgentKind::Claude => &[],
        AgentKind::Codex => CODEX_EVENTS,
        AgentKind::Gemini => GEMINI_EVENTS,
        AgentKind::Cursor => CURSOR_EVENTS,
        AgentKind::Copilot => COPILOT_EVENTS,
    }
}

/// Collects the findings with their paths.
#[derive(Default)]
struct Findings(AgentFileCheck);

impl Findings {
    fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.errors.push(ValidationError {
            path: path.into(),
            message: message.into(),
        });
    }

    fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.warnings.push(ValidationError {
            path: path.into(),
            message: message.into(),
        });
    }
}

/// Checks `value`, the whole hooks file (for Gemini CLI its whole
/// `settings.json`), as `agent` reads it. Claude Code's files are
/// [`super::validate()`]'s.
#[must_use]
pub fn check(agent: AgentKind, value: &Value) -> AgentFileCheck {
    let mut f = Findings::default();
    let Some(top) = value.as_object() else {
        f.error("top level", "expected an object");
        return f.0;
    };
    match agent {
        AgentKind::Claude => {
            f.0.errors = super::validate::validate(value);
        }
        AgentKind::Codex => codex(top, &mut f),
        AgentKind::Gemini => gemini(top, &mut f),
        AgentKind::Cursor | AgentKind::Copilot => flat(agent, top, &mut f),
    }
    f.0
}

/// The `hooks` object, or a finding; `None` when there is none to read.
fn hooks_object<'a>(
    top: &'a Map<String, Value>,
    required: bool,
    name: &str,
    f: &mut Findings,
) -> Option<&'a Map<String, Value>> {
    match top.get("hooks") {
        Some(Value::Object(hooks)) => Some(hooks),
        Some(_) => {
            f.error(
                "hooks",
                format!("expected an object of events; {name} cannot read it"),
            );
            None
        }
        None if required => {
            f.error(
                "hooks",
                format!("missing: {name} finds no hooks in this file"),
            );
            None
        }
        None => None,
    }
}

/// An unknown event: the agent skips it.
fn known_event(event: &str, known: &[&str], name: &str, f: &mut Findings) -> bool {
    if known.contains(&event) {
        return true;
    }
    let hint = known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(event))
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default();
    f.warn(
        format!("hooks.{event}"),
        format!("not a {name} event{hint}: it is skipped"),
    );
    false
}

fn codex(top: &Map<String, Value>, f: &mut Findings) {
    for key in top.keys() {
        if key != "hooks" && key != "description" {
            f.error(
                key.as_str(),
                "Codex CLI allows only \"hooks\" and \"description\" here: it drops the whole file",
            );
        }
    }
    let Some(hooks) = hooks_object(top, true, "Codex CLI", f) else {
        return;
    };
    grouped(
        hooks,
        CODEX_EVENTS,
        &[],
        "Codex CLI",
        f,
        codex_matcher,
        |event, path, handler, f| {
            let Some(h) = handler.as_object() else {
                f.error(path, "expected an object");
                return;
            };
            match h.get("type").and_then(Value::as_str) {
                Some("command") => {}
                Some("mcp_tool") => {
                    // A tool of a connected MCP server, called with `input`
                    // (the official hooks page, "MCP tool hooks").
                    for key in ["server", "tool"] {
                        command_field(h, key, &path, f);
                    }
                    if h.get("input").is_some_and(|i| !i.is_object()) {
                        f.error(format!("{path}.input"), "expected an object of arguments");
                    }
                    codex_timeout(event, h, &path, f);
                    return;
                }
                Some(other @ ("prompt" | "agent")) => {
                    f.warn(
                        format!("{path}.type"),
                        format!("Codex CLI skips {other:?} hooks"),
                    );
                    return;
                }
                _ => {
                    f.error(
                        format!("{path}.type"),
                        "expected \"command\" or \"mcp_tool\"",
                    );
                    return;
                }
            }
            command_field(h, "command", &path, f);
            if h.contains_key("commandWindows") && h.contains_key("command_windows") {
                f.error(
                    path.clone(),
                    "both commandWindows and command_windows: Codex CLI refuses the duplicate",
                );
            }
            codex_timeout(event, h, &path, f);
            bool_field(h, "async", &path, f);
        },
    );
}

/// Codex CLI's default timeout, in seconds (`discovery.rs`
/// `timeout_sec.unwrap_or(600).max(1)`).
const CODEX_DEFAULT_TIMEOUT_SECS: u64 = 600;

/// The events whose hooks Codex CLI gives 1 second by default (and 3 at
/// most, `normalize_command_hook`, §1.2; the cap is not checked here: the
/// converter still writes longer `SessionEnd` timeouts, and its files must
/// check clean).
const CODEX_SHORT_TIMEOUT_EVENTS: [&str; 2] = ["SessionEnd", "Interrupt"];

/// A Codex CLI handler's timeout, as Codex reads it (§1.2): `timeout`, whole
/// seconds (`Option<u64>` in `hook_config.rs`: anything else fails the
/// parse, and Codex drops the whole file; `null` is no timeout), 0 raised
/// to 1 second (the hook still runs: a warning). `timeoutSec`, an alias
/// before hook trust existed, is an unknown key to the trust-era
/// `hook_config.rs`: ignored, so the hook gets the default.
fn codex_timeout(event: &str, h: &Map<String, Value>, path: &str, f: &mut Findings) {
    let short = CODEX_SHORT_TIMEOUT_EVENTS.contains(&event);
    let timeout = h.get("timeout").filter(|t| !t.is_null());
    if h.contains_key("timeoutSec") {
        let message = match timeout {
            Some(t) => format!(
                "Codex CLI ignores \"timeoutSec\" (its older spelling): \"timeout\" ({t}) counts"
            ),
            None => {
                let default = if short { 1 } else { CODEX_DEFAULT_TIMEOUT_SECS };
                format!(
                    "Codex CLI ignores \"timeoutSec\" (its older spelling): this hook gets its default of {default} second{}; write \"timeout\"",
                    if default == 1 { "" } else { "s" }
                )
            }
        };
        f.warn(format!("{path}.timeoutSec"), message);
    }
    let Some(t) = timeout else {
        return;
    };
    match t.as_u64() {
        None => f.error(
            format!("{path}.timeout"),
            "expected whole seconds (0 or more): Codex CLI cannot parse it and drops the whole file",
        ),
        Some(0) => f.warn(
            format!("{path}.timeout"),
            "0 seconds: Codex CLI raises it to 1 second",
        ),
        Some(_) => {}
    }
}

/// The events whose matcher Codex CLI never reads, so never compiles
/// (`matcher_pattern_for_event` in `events/common.rs`; the trust hash
/// drops it too, [`super::codex_trust`]).
const CODEX_MATCHERLESS_EVENTS: [&str; 3] = ["UserPromptSubmit", "Stop", "Interrupt"];

/// The start of the message of a Codex CLI matcher that does not compile:
/// Codex skips that group, not the file ([`codex_drops_file`]).
const CODEX_MATCHER_SKIPPED: &str = "not a valid regular expression";

/// A Codex CLI group's matcher, as `validate_matcher_pattern`
/// (`codex-rs/hooks/src/events/common.rs`, `0b9770ed`) checks it: `*`,
/// empty, or only letters, digits, `_` and `|` (exact names) is no regex;
/// anything else is compiled with Rust's `regex` crate, the very engine
/// Codex uses, so what fails here fails there. Codex then skips the group
/// and its hooks with a warning ("invalid matcher … in …", `discovery.rs`).
fn codex_matcher(event: &str, matcher: &str, path: String, f: &mut Findings) {
    if CODEX_MATCHERLESS_EVENTS.contains(&event)
        || matcher.is_empty()
        || matcher == "*"
        || matcher
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
    {
        return;
    }
    if let Err(err) = regex::Regex::new(matcher) {
        f.error(
            path,
            format!(
                "{CODEX_MATCHER_SKIPPED} ({}): Codex CLI skips this group and its hooks, with a warning",
                regex_problem(&err)
            ),
        );
    }
}

/// Whether Codex CLI drops the whole file for `error`, one of [`check`]'s
/// errors for it: for all but two it cannot parse the file (§1.2), so
/// [`super::agent_runs`] says the file is dropped; a matcher that does not
/// compile drops its group, an empty command its hook (`discovery.rs`
/// "skipping empty hook command").
pub(crate) fn codex_drops_file(error: &ValidationError) -> bool {
    !(error.message.starts_with(CODEX_MATCHER_SKIPPED) || error.message == EMPTY_COMMAND)
}

/// The regex engine's complaint, without the pattern it repeats: the last
/// line of its message (`unclosed group`).
fn regex_problem(err: &regex::Error) -> String {
    let text = err.to_string();
    let last = text.lines().last().unwrap_or_default().trim();
    last.strip_prefix("error: ").unwrap_or(last).to_owned()
}

/// Gemini CLI's events whose matcher is a regular expression (tested
/// against the tool name); its other events compare the matcher as exact
/// text or ignore it (`hookPlanner.ts` `matchesContext`).
const GEMINI_REGEX_EVENTS: [&str; 2] = ["BeforeTool", "AfterTool"];

/// A Gemini CLI group's matcher, as `hookPlanner.ts` (`5411f113`) uses it:
/// trimmed, `*` or empty matches everything; for a tool event `new
/// RegExp(matcher)`, and when that throws, the matcher is compared with the
/// tool name as plain text (a warning: the file and the group still load).
///
/// Gemini's engine is JavaScript's, not Rust's `regex`: JavaScript also
/// accepts look-around, back-references, identity escapes (`\q`), a `{`
/// that is no repetition and classes such as `[^]` or `[[:x]`, which Rust
/// refuses; Rust accepts some JavaScript refuses (`(?i)`, `a**`). So a
/// matcher is named only when Rust refuses it and it has none of `\`, `{`,
/// `}`, `(?` nor a closed class: in what is left (groups, `|`, `.`, `*`,
/// `+`, `?`, anchors, an unclosed `[`) the two engines fail alike. What
/// only JavaScript refuses goes unnamed.
fn gemini_matcher(event: &str, matcher: &str, path: String, f: &mut Findings) {
    let matcher = matcher.trim();
    if !GEMINI_REGEX_EVENTS.contains(&event) || matcher.is_empty() || matcher == "*" {
        return;
    }
    let engines_differ = ["\\", "{", "}", "(?"].iter().any(|s| matcher.contains(s))
        || (matcher.contains('[') && matcher.contains(']'));
    if engines_differ {
        return;
    }
    if let Err(err) = regex::Regex::new(matcher) {
        f.warn(
            path,
            format!(
                "not a valid JavaScript regular expression ({}): Gemini CLI compares it with the tool name as plain text, so it matches only a tool named exactly {matcher:?}",
                regex_problem(&err)
            ),
        );
    }
}

fn gemini(top: &Map<String, Value>, f: &mut Findings) {
    // Gemini CLI reports a type error and still loads the file: warnings.
    let Some(hooks) = hooks_object(top, false, "Gemini CLI", f) else {
        return;
    };
    let mut inner = Findings::default();
    grouped(
        hooks,
        GEMINI_EVENTS,
        GEMINI_CONFIG_FIELDS,
        "Gemini CLI",
        &mut inner,
        gemini_matcher,
        |_event, path, handler, f| {
            let Some(h) = handler.as_object() else {
                f.error(path, "expected an object");
                return;
            };
            if h.get("type").and_then(Value::as_str) != Some("command") {
                f.error(format!("{path}.type"), "expected \"command\"");
                return;
            }
            command_field(h, "command", &path, f);
            if let Some(t) = h.get("timeout")
                && !t.as_f64().is_some_and(|t| t > 0.0)
            {
                f.error(
                    format!("{path}.timeout"),
                    "expected a positive number of milliseconds",
                );
            } else if let Some(t) = h.get("timeout").and_then(Value::as_f64)
                && t < 1000.0
            {
                f.warn(
                    format!("{path}.timeout"),
                    format!("{t} milliseconds: Gemini CLI counts milliseconds, not seconds"),
                );
            }
        },
    );
    let AgentFileCheck { errors, warnings } = inner.0;
    for e in errors {
        f.warn(
            e.path,
            format!("{} (Gemini CLI warns and skips it)", e.message),
        );
    }
    f.0.warnings.extend(warnings);
}

/// The groups of each event (Codex CLI and Gemini CLI): `matcher` (a
/// string one checked by `matcher`, with its event) and a `hooks` list, each
/// handler checked by `handler` (with its event); the keys in `settings`
/// are not events and are passed over.
fn grouped(
    hooks: &Map<String, Value>,
    known: &[&str],
    settings: &[&str],
    name: &str,
    f: &mut Findings,
    mut matcher: impl FnMut(&str, &str, String, &mut Findings),
    mut handler: impl FnMut(&str, String, &Value, &mut Findings),
) {
    for (event, groups) in hooks {
        if settings.contains(&event.as_str()) || !known_event(event, known, name, f) {
            continue;
        }
        let Some(groups) = groups.as_array() else {
            f.error(format!("hooks.{event}"), "expected an array of groups");
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let path = format!("hooks.{event}[{g}]");
            let Some(group) = group.as_object() else {
                f.error(path, "expected an object");
                continue;
            };
            match group.get("matcher") {
                Some(Value::String(m)) => matcher(event, m, format!("{path}.matcher"), f),
                Some(_) => f.error(format!("{path}.matcher"), "expected a string"),
                None => {}
            }
            match group.get("hooks").and_then(Value::as_array) {
                Some(list) => {
                    for (h, entry) in list.iter().enumerate() {
                        handler(event, format!("{path}.hooks[{h}]"), entry, f);
                    }
                }
                None => f.error(format!("{path}.hooks"), "expected an array of hooks"),
            }
        }
    }
}

/// Cursor's and Copilot's flat files: `version: 1`, entries under each event.
fn flat(agent: AgentKind, top: &Map<String, Value>, f: &mut Findings) {
    let (name, known) = match agent {
        AgentKind::Cursor => ("Cursor", CURSOR_EVENTS),
        _ => ("GitHub Copilot", COPILOT_EVENTS),
    };
    match top.get("version") {
        Some(v) if v.as_u64() == Some(1) => {}
        Some(_) => f.error("version", "expected 1"),
        None if agent == AgentKind::Copilot => f.error("version", "missing: expected 1"),
        None => {}
    }
    let Some(hooks) = hooks_object(top, true, name, f) else {
        return;
    };
    for (event, entries) in hooks {
        if !known_event(event, known, name, f) {
            continue;
        }
        let Some(entries) = entries.as_array() else {
            f.error(format!("hooks.{event}"), "expected an array of entries");
            continue;
        };
        for (i, entry) in entries.iter().enumerate() {
            let path = format!("hooks.{event}[{i}]");
            let Some(e) = entry.as_object() else {
                f.error(path, "expected an object");
                continue;
            };
            if e.contains_key("hooks") {
                f.error(
                    format!("{path}.hooks"),
                    format!("{name} has no groups: each entry is one hook, its matcher beside it"),
                );
            }
            if let Some(m) = e.get("matcher")
                && !m.is_string()
            {
                f.error(format!("{path}.matcher"), "expected a string");
            }
            if agent == AgentKind::Cursor {
                cursor_entry(e, &path, f);
            } else {
                copilot_entry(e, &path, f);
            }
        }
    }
}

fn cursor_entry(e: &Map<String, Value>, path: &str, f: &mut Findings) {
    match e.get("type").and_then(Value::as_str).unwrap_or("command") {
        "command" => command_field(e, "command", path, f),
        "prompt" => {
            if !e.get("prompt").is_some_and(Value::is_string) {
                f.error(format!("{path}.prompt"), "a prompt hook needs its prompt");
            }
        }
        other => f.error(
            format!("{path}.type"),
            format!("{other:?} is not a Cursor hook type"),
        ),
    }
    number_field(e, "timeout", path, f);
    bool_field(e, "failClosed", path, f);
}

fn copilot_entry(e: &Map<String, Value>, path: &str, f: &mut Findings) {
    match e.get("type").and_then(Value::as_str).unwrap_or("command") {
        "command" => {
            let exec = e.contains_key("exec");
            let shells = ["bash", "powershell", "command"];
            if exec && shells.iter().any(|k| e.contains_key(*k)) {
                f.error(
                    path,
                    "exec runs without a shell: not with bash, powershell or command",
                );
            }
            if !exec
                && !shells
                    .iter()
                    .any(|k| e.get(*k).is_some_and(Value::is_string))
            {
                f.error(path, "a command hook needs bash, powershell or command");
            }
            for key in shells {
                if e.contains_key(key) {
                    command_field(e, key, path, f);
                }
            }
        }
        "http" => {
            if !e.get("url").and_then(Value::as_str).is_some_and(|u| {
                u.starts_with("https://")
                    || u.starts_with("http://localhost")
                    || u.starts_with("http://127.0.0.1")
            }) {
                f.error(format!("{path}.url"), "an http hook needs an https:// URL");
            }
        }
        "prompt" => {
            if !e.get("prompt").is_some_and(Value::is_string) {
                f.error(format!("{path}.prompt"), "a prompt hook needs its prompt");
            }
        }
        other => f.error(
            format!("{path}.type"),
            format!("{other:?} is not a Copilot hook type"),
        ),
    }
    for key in ["timeoutSec", "timeout"] {
        number_field(e, key, path, f);
    }
}

/// What an empty command is told: the agent skips that hook.
const EMPTY_COMMAND: &str = "empty: it never runs";

/// A non-empty command string.
fn command_field(h: &Map<String, Value>, key: &str, path: &str, f: &mut Findings) {
    match h.get(key) {
        Some(Value::String(c)) if !c.trim().is_empty() => {}
        Some(Value::String(_)) => f.error(format!("{path}.{key}"), EMPTY_COMMAND),
        Some(_) => f.error(format!("{path}.{key}"), "expected a string"),
        None => f.error(format!("{path}.{key}"), "missing: the hook never runs"),
    }
}

fn bool_field(h: &Map<String, Value>, key: &str, path: &str, f: &mut Findings) {
    if h.get(key).is_some_and(|v| !v.is_boolean()) {
        f.error(format!("{path}.{key}"), "expected true or false");
    }
}

fn number_field(h: &Map<String, Value>, key: &str, path: &str, f: &mut Findings) {
    if h.get(key)
        .is_some_and(|v| !v.as_f64().is_some_and(|t| t > 0.0))
    {
        f.error(
            format!("{path}.{key}"),
            "expected a positive number of seconds",
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn paths(list: &[ValidationError]) -> Vec<&str> {
        list.iter().map(|e| e.path.as_str()).collect()
    }

    /// The agents' own documented examples (docs/agent-hooks.md §1.6, §2.6,
    /// §3.6, §4.6) check clean.
    #[test]
    fn the_agents_documented_examples_pass() {
        let examples = [
            (
                AgentKind::Codex,
                json!({"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
                    {"type": "command", "command": "python3 /tmp/pre.py", "timeout": 10, "statusMessage": "checking"}]}]}}),
            ),
            (
                AgentKind::Codex,
                json!({"description": "policy", "hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
                    {"type": "command", "command": "/usr/bin/python3 \"$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py\"",
                     "timeout": 30, "statusMessage": "Checking Bash command"}]}]}}),
            ),
            (
                AgentKind::Gemini,
                json!({"theme": "dark", "hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
                    {"name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000}]}]}}),
            ),
            (
                AgentKind::Gemini,
                json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "node ${extensionPath}/scripts/on-start.js"}]}]}}),
            ),
            (
                AgentKind::Cursor,
                json!({"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}]}}),
            ),
            (
                AgentKind::Cursor,
                json!({"hooks": {"beforeShellExecution": [{"command": "./scripts/approve-network.sh", "timeout": 30, "matcher": "curl|wget|nc"}]}}),
            ),
            (
                AgentKind::Copilot,
                json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "YOUR_BASH_COMMAND",
                    "powershell": "YOUR_POWERSHELL_COMMAND", "cwd": "OPTIONAL/WORKING/DIRECTORY", "env": {"VAR": "VALUE"}, "timeoutSec": 30}]}}),
            ),
        ];
        for (agent, file) in examples {
            let found = check(agent, &file);
            assert_eq!(found, AgentFileCheck::default(), "{agent}: {file}");
        }
    }

    #[test]
    fn what_an_agent_drops_is_an_error_and_what_it_skips_a_warning() {
        // Codex CLI drops the whole file for one unknown top-level key.
        let codex = check(
            AgentKind::Codex,
            &json!({"$schema": "x", "version": 1, "hooks": {
                "PreToolUse": [{"hooks": [{"type": "command", "command": ""}, {"type": "prompt", "prompt": "p"}]}],
                "preToolUse": [],
                "Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 0.5}]}]}}),
        );
        assert_eq!(
            paths(&codex.errors),
            [
                "$schema",
                "version",
                "hooks.PreToolUse[0].hooks[0].command",
                "hooks.Stop[0].hooks[0].timeout"
            ]
        );
        assert!(codex.errors[0].message.contains("drops the whole file"));
        assert_eq!(
            paths(&codex.warnings),
            ["hooks.PreToolUse[0].hooks[1].type", "hooks.preToolUse"]
        );
        assert!(
            codex.warnings[1]
                .message
                .contains("did you mean PreToolUse?")
        );

        // Gemini CLI warns about a type error and loads the file anyway.
        let gemini = check(
            AgentKind::Gemini,
            &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "timeout": 5}]}], "PreToolUse": []}}),
        );
        assert!(gemini.errors.is_empty(), "{gemini:?}");
        assert_eq!(
            paths(&gemini.warnings),
            [
                "hooks.BeforeTool[0].hooks[0].command",
                "hooks.BeforeTool[0].hooks[0].timeout",
                "hooks.PreToolUse"
            ]
        );
        assert!(gemini.warnings[1].message.contains("milliseconds"));

        // Cursor's and Copilot's entries are flat.
        let cursor = check(
            AgentKind::Cursor,
            &json!({"version": 2, "hooks": {"preToolUse": [{"matcher": "Shell", "hooks": [{"command": "x"}]}]}}),
        );
        assert_eq!(
            paths(&cursor.errors),
            [
                "version",
                "hooks.preToolUse[0].hooks",
                "hooks.preToolUse[0].command"
            ]
        );
        let copilot = check(
            AgentKind::Copilot,
            &json!({"hooks": {"preToolUse": [{"type": "command", "timeoutSec": -1},
                {"type": "http", "url": "http://example.test"}]}}),
        );
        assert_eq!(
            paths(&copilot.errors),
            [
                "version",
                "hooks.preToolUse[0]",
                "hooks.preToolUse[0].timeoutSec",
                "hooks.preToolUse[1].url"
            ]
        );
        assert!(check(AgentKind::Copilot, &json!([1])).errors[0].path == "top level");
    }

    /// Codex CLI runs `mcp_tool` handlers (its hooks page, "MCP tool
    /// hooks"), and Gemini CLI passes over the `enabled`, `disabled` and
    /// `notifications` settings kept under `hooks` (its troubleshooting page
    /// shows `"hooks": {"disabled": [...]}`): both were reported as problems.
    #[test]
    fn codex_mcp_tool_hooks_and_gemini_hook_settings_are_what_the_agents_document() {
        let mcp = json!({"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
            {"type": "mcp_tool", "server": "scanner", "tool": "scan_patch",
             "input": {"patch": "${tool_input.command}"}, "timeout": 30,
             "statusMessage": "Scanning edited files"}]}]}});
        assert_eq!(check(AgentKind::Codex, &mcp), AgentFileCheck::default());
        let broken = json!({"hooks": {"PostToolUse": [{"hooks": [
            {"type": "mcp_tool", "tool": 7, "input": "x", "timeout": 1.5},
            {"type": "http", "url": "https://x.test"}]}]}});
        let found = check(AgentKind::Codex, &broken);
        assert_eq!(
            paths(&found.errors),
            [
                "hooks.PostToolUse[0].hooks[0].server",
                "hooks.PostToolUse[0].hooks[0].tool",
                "hooks.PostToolUse[0].hooks[0].input",
                "hooks.PostToolUse[0].hooks[0].timeout",
                "hooks.PostToolUse[0].hooks[1].type"
            ]
        );

        let settings = json!({"hooks": {"enabled": true, "disabled": ["my-hook-name"],
            "notifications": false, "disabledd": []}});
        let found = check(AgentKind::Gemini, &settings);
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(
            paths(&found.warnings),
            ["hooks.disabledd"],
            "a typo still warns"
        );
        // Codex CLI has no such settings: there `disabled` is no event.
        let codex = check(AgentKind::Codex, &json!({"hooks": {"disabled": []}}));
        assert_eq!(paths(&codex.warnings), ["hooks.disabled"]);
    }

    /// Codex CLI raises a timeout of 0 to 1 second (`discovery.rs`:
    /// `unwrap_or(600).max(1)`): the hook runs, with another timeout than
    /// written, a warning. The trust-era `hook_config.rs` reads only `timeout`
    /// (`timeoutSec` lost its alias): an ignored key, the hook gets the
    /// default. A timeout that is no whole number of seconds fails Codex's
    /// parse, and it drops the whole file: an error.
    #[test]
    fn codex_timeouts_are_checked_as_codex_reads_them() {
        let file = json!({"hooks": {
            "PreToolUse": [{"hooks": [
                {"type": "command", "command": "./a.sh", "timeout": 0},
                {"type": "command", "command": "./b.sh", "timeoutSec": 30},
                {"type": "command", "command": "./c.sh", "timeout": null}]}],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "./d.sh", "timeoutSec": 2}]}],
            "Stop": [{"hooks": [
                {"type": "command", "command": "./e.sh", "timeout": -1},
                {"type": "command", "command": "./f.sh", "timeout": "5"}]}],
            "PostToolUse": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t", "timeout": 0}]}]
        }});
        let found = check(AgentKind::Codex, &file);
        assert_eq!(
            paths(&found.errors),
            [
                "hooks.Stop[0].hooks[0].timeout",
                "hooks.Stop[0].hooks[1].timeout"
            ]
        );
        assert!(
            found
                .errors
                .iter()
                .all(|e| e.message.contains("drops the whole file")),
            "{found:?}"
        );
        assert_eq!(
            paths(&found.warnings),
            [
                "hooks.PreToolUse[0].hooks[0].timeout",
                "hooks.PreToolUse[0].hooks[1].timeoutSec",
                "hooks.SessionEnd[0].hooks[0].timeoutSec",
                "hooks.PostToolUse[0].hooks[0].timeout"
            ]
        );
        let said: Vec<&str> = found.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(said[0].contains("raises it to 1 second"), "{said:?}");
        assert!(
            said[1].contains("ignores") && said[1].contains("600 seconds"),
            "{said:?}"
        );
        assert!(said[2].contains("default of 1 second;"), "{said:?}");
        assert!(said[3].contains("raises it to 1 second"), "{said:?}");
        // `timeoutSec` beside `timeout`: only `timeout` counts.
        let both = json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "./g.sh", "timeout": 5, "timeoutSec": 30}]}]}});
        let found = check(AgentKind::Codex, &both);
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(
            paths(&found.warnings),
            ["hooks.Stop[0].hooks[0].timeoutSec"]
        );
        assert!(found.warnings[0].message.contains("\"timeout\" (5)"));
    }

    /// Codex CLI compiles a group's matcher with Rust's `regex` (unless it is
    /// `*`, empty or plain names) and skips a group whose matcher does not
    /// compile; Gemini CLI compiles a tool event's matcher as a JavaScript
    /// regex and compares one that does not compile with the tool name as
    /// plain text. Matchers of events that ignore them are not compiled.
    #[test]
    fn invalid_matcher_regexes_are_named_as_each_agent_treats_them() {
        let codex = check(
            AgentKind::Codex,
            &json!({"hooks": {
                "PreToolUse": [
                    {"matcher": "Bash(", "hooks": [{"type": "command", "command": "./a.sh"}]},
                    {"matcher": "^Bash$|mcp__.*", "hooks": [{"type": "command", "command": "./b.sh"}]},
                    {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./c.sh"}]}],
                "SessionStart": [{"matcher": "[startup", "hooks": [{"type": "command", "command": "./d.sh"}]}],
                "Stop": [{"matcher": "(", "hooks": [{"type": "command", "command": "./e.sh"}]}]
            }}),
        );
        assert_eq!(
            paths(&codex.errors),
            [
                "hooks.PreToolUse[0].matcher",
                "hooks.SessionStart[0].matcher"
            ]
        );
        assert!(
            codex.errors[0].message.contains("unclosed group")
                && codex.errors[0].message.contains("skips this group"),
            "{codex:?}"
        );
        assert!(codex.warnings.is_empty(), "{codex:?}");

        let gemini = check(
            AgentKind::Gemini,
            &json!({"hooks": {
                "BeforeTool": [
                    {"matcher": " Bash( ", "hooks": [{"type": "command", "command": "./a.sh"}]},
                    // Valid JavaScript, which Rust's regex refuses: not flagged.
                    {"matcher": "(?!read_)\\w+|a{", "hooks": [{"type": "command", "command": "./b.sh"}]},
                    {"matcher": "[^]", "hooks": [{"type": "command", "command": "./c.sh"}]}],
                "AfterTool": [{"matcher": "*write", "hooks": [{"type": "command", "command": "./d.sh"}]}],
                // Compared as exact text, never compiled.
                "SessionStart": [{"matcher": "startup(", "hooks": [{"type": "command", "command": "./e.sh"}]}]
            }}),
        );
        assert!(gemini.errors.is_empty(), "{gemini:?}");
        assert_eq!(
            paths(&gemini.warnings),
            ["hooks.BeforeTool[0].matcher", "hooks.AfterTool[0].matcher"]
        );
        assert!(
            gemini.warnings[0]
                .message
                .contains("only a tool named exactly \"Bash(\""),
            "{gemini:?}"
        );

        // Cursor does not document its matcher as a regex: not compiled.
        let cursor = check(
            AgentKind::Cursor,
            &json!({"version": 1, "hooks": {"preToolUse": [{"command": "./x.sh", "matcher": "Shell("}]}}),
        );
        assert_eq!(cursor, AgentFileCheck::default());
    }

    /// What hookd itself writes for each agent checks clean: the converter's
    /// files of every template.
    #[test]
    fn the_converters_files_pass_their_agents_check() {
        let claude = json!({
            "PreToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 10}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./tests-pass.sh"}]}],
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "./ctx.sh"}]}]
        });
        for agent in [
            AgentKind::Codex,
            AgentKind::Gemini,
            AgentKind::Cursor,
            AgentKind::Copilot,
        ] {
            let converted = super::super::convert::convert(claude.as_object().unwrap(), agent);
            assert_eq!(
                check(agent, &converted.document),
                AgentFileCheck::default(),
                "{agent}: {}",
                converted.document
            );
        }
    }
}
