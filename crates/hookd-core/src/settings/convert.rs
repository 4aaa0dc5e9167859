//! Converting Claude Code hooks to another coding agent's hooks file, and
//! saying, hook by hook, what degrades.
//!
//! The agents' hook systems are of one family but differ in every detail
//! (`docs/agent-hooks.md`): event names (`PreToolUse` is Gemini CLI's
//! `BeforeTool`, Copilot's `preToolUse`), tool names in matchers (`Bash` is
//! `run_shell_command`, `Shell`, `bash`), the matcher dialect, the file's
//! shape (Cursor's and Copilot's entries are flat, without groups), the
//! timeout unit (Gemini CLI counts milliseconds), and which handler fields
//! and output fields exist at all. A hook copied by hand loses some of that
//! silently; a guard that no longer fires is worse than none. So every
//! conversion comes with its report: what was **lost** (an event with no
//! counterpart, a tool the agent does not have, a field it cannot take)
//! and what to **check** (a regex written with Claude Code's tool names, an
//! answer in Claude Code's JSON shape that the agent reads differently).
//!
//! Only the conversion is here; it reads a Claude `hooks` object and
//! returns the target document, which the caller prints or writes.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::events::{self, MatchField};
use super::matcher::Matcher;
use crate::AgentKind;

/// One Claude Code hook and what it became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HookConversion {
    /// Its Claude Code event.
    pub event: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// What it runs (command, URL, prompt).
    pub runs: String,
    /// The agent's event it became; `None`: left out.
    pub target_event: Option<String>,
    /// The agent's matcher it got.
    pub target_matcher: Option<String>,
    /// What was lost on the way, one sentence each.
    pub lost: Vec<String>,
    /// What to check by hand, one sentence each.
    pub check: Vec<String>,
}

/// A whole conversion: the agent's document and each hook's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Conversion {
    /// The agent converted to (`codex`, …).
    #[serde(serialize_with = "agent_name")]
    pub agent: AgentKind,
    /// The agent's hooks file holding the converted hooks (Codex CLI's
    /// `hooks.json`, the `hooks` of Gemini CLI's `settings.json`, Cursor's
    /// `hooks.json`, a Copilot hooks file).
    pub document: Value,
    /// Every hook of the input, in order.
    pub hooks: Vec<HookConversion>,
}

fn agent_name<S: serde::Serializer>(agent: &AgentKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(agent.as_str())
}

impl Conversion {
    /// The hooks that were left out.
    pub fn left_out(&self) -> usize {
        self.hooks
            .iter()
            .filter(|h| h.target_event.is_none())
            .count()
    }
}

/// The agent's name for a person (`Codex CLI`).
#[must_use]
pub fn label(agent: AgentKind) -> &'static str {
    match agent {
        AgentKind::Claude => "Claude Code",
        AgentKind::Codex => "Codex CLI",
        AgentKind::Gemini => "Gemini CLI",
        AgentKind::Cursor => "Cursor",
        AgentKind::Copilot => "GitHub Copilot",
    }
}

/// Where `agent` reads hooks from, for a person pasting a converted one
/// (`docs/agent-hooks.md` §1.1, §2.1, §3.1, §4.1).
#[must_use]
pub fn hooks_files(agent: AgentKind) -> &'static str {
    match agent {
        AgentKind::Claude => {
            "\"hooks\" of ~/.claude/settings.json or <project>/.claude/settings.json"
        }
        AgentKind::Codex => {
            "~/.codex/hooks.json or <repo>/.codex/hooks.json (Codex runs a new hook once you trust it in /hooks)"
        }
        AgentKind::Gemini => {
            "\"hooks\" of ~/.gemini/settings.json or <project>/.gemini/settings.json"
        }
        AgentKind::Cursor => "~/.cursor/hooks.json or <project>/.cursor/hooks.json",
        AgentKind::Copilot => "<repo>/.github/hooks/<name>.json or ~/.copilot/hooks/<name>.json",
    }
}

/// The name `agent` gives Claude Code's `event`, or `None` when it has no
/// such event (`docs/agent-hooks.md` §5); Claude Code's own events are
/// their own.
#[must_use]
pub fn event_for(agent: AgentKind, event: &str) -> Option<&'static str> {
    let table: &[(&str, &str)] = match agent {
        AgentKind::Claude => return events::lookup(event).map(|spec| spec.name),
        AgentKind::Codex => &[
            ("PreToolUse", "PreToolUse"),
            ("PermissionRequest", "PermissionRequest"),
            ("PostToolUse", "PostToolUse"),
            ("UserPromptSubmit", "UserPromptSubmit"),
            ("SessionStart", "SessionStart"),
            ("SessionEnd", "SessionEnd"),
            ("Stop", "Stop"),
            ("SubagentStart", "SubagentStart"),
            ("SubagentStop", "SubagentStop"),
            ("PreCompact", "PreCompact"),
            ("PostCompact", "PostCompact"),
        ],
        AgentKind::Gemini => &[
            ("PreToolUse", "BeforeTool"),
            ("PostToolUse", "AfterTool"),
            ("UserPromptSubmit", "BeforeAgent"),
            ("Stop", "AfterAgent"),
            ("SessionStart", "SessionStart"),
            ("SessionEnd", "SessionEnd"),
            ("PreCompact", "PreCompress"),
            ("Notification", "Notification"),
        ],
        AgentKind::Cursor => &[
            ("PreToolUse", "preToolUse"),
            ("PostToolUse", "postToolUse"),
            ("PostToolUseFailure", "postToolUseFailure"),
            ("UserPromptSubmit", "beforeSubmitPrompt"),
            ("SessionStart", "sessionStart"),
            ("SessionEnd", "sessionEnd"),
            ("Stop", "stop"),
            ("SubagentStart", "subagentStart"),
            ("SubagentStop", "subagentStop"),
            ("PreCompact", "preCompact"),
        ],
        AgentKind::Copilot => &[
            ("PreToolUse", "preToolUse"),
            ("PermissionRequest", "permissionRequest"),
            ("PostToolUse", "postToolUse"),
            ("PostToolUseFailure", "postToolUseFailure"),
            ("UserPromptSubmit", "userPromptSubmitted"),
            ("SessionStart", "sessionStart"),
            ("SessionEnd", "sessionEnd"),
            ("Stop", "agentStop"),
            ("SubagentStart", "subagentStart"),
            ("SubagentStop", "subagentStop"),
            ("PreCompact", "preCompact"),
            ("Notification", "notification"),
        ],
    };
    table.iter().find(|(c, _)| *c == event).map(|(_, t)| *t)
}

/// The agent's name of a Claude Code tool (documented names only).
fn target_tool(agent: AgentKind, tool: &str) -> Option<&'static str> {
    let table: &[(&str, &str)] = match agent {
        AgentKind::Claude => &[],
        AgentKind::Codex => &[
            ("Bash", "Bash"),
            ("Write", "apply_patch"),
            ("Edit", "apply_patch"),
            ("MultiEdit", "apply_patch"),
        ],
        AgentKind::Gemini => &[
            ("Bash", "run_shell_command"),
            ("Write", "write_file"),
            ("Edit", "replace"),
            ("MultiEdit", "replace"),
        ],
        AgentKind::Cursor => &[
            ("Bash", "Shell"),
            ("Write", "Write"),
            ("Edit", "Write"),
            ("MultiEdit", "Write"),
            ("Read", "Read"),
        ],
        AgentKind::Copilot => &[
            ("Bash", "bash"),
            ("Write", "create"),
            ("Edit", "edit"),
            ("MultiEdit", "edit"),
            ("Read", "view"),
            ("Grep", "grep"),
            ("Glob", "glob"),
            ("WebFetch", "web_fetch"),
            ("WebSearch", "web_search"),
            ("Task", "task"),
            ("Agent", "task"),
            ("TodoWrite", "update_todo"),
            ("AskUserQuestion", "ask_user"),
        ],
    };
    table.iter().find(|(c, _)| *c == tool).map(|(_, t)| *t)
}

/// Whether the agent tests a matcher on its `event` (the target's name).
fn takes_matcher(agent: AgentKind, claude_event: &str, target: &str) -> bool {
    let tool_event = events::lookup(claude_event)
        .is_some_and(|spec| spec.matcher == MatchField::Payload("tool_name"));
    match agent {
        AgentKind::Claude | AgentKind::Codex | AgentKind::Gemini => true,
        // Cursor documents matchers for its tool and subagent events.
        AgentKind::Cursor => tool_event || matches!(target, "subagentStart" | "subagentStop"),
        AgentKind::Copilot => {
            tool_event || matches!(target, "notification" | "preCompact" | "subagentStart")
        }
    }
}

/// Converts the hooks of a Claude Code `hooks` object to `agent`'s file,
/// with a report per hook. Converting to Claude Code gives the hooks back
/// as they are.
#[must_use]
pub fn convert(hooks: &Map<String, Value>, agent: AgentKind) -> Conversion {
    let mut out_events: Map<String, Value> = Map::new();
    let mut report = Vec::new();
    for (event, matcher, handler) in super::plugins::handlers(hooks) {
        let runs = super::plugins::handler_runs(handler);
        let mut conversion = HookConversion {
            event: event.clone(),
            matcher: matcher.map(str::to_owned),
            runs,
            target_event: None,
            target_matcher: None,
            lost: Vec::new(),
            check: Vec::new(),
        };
        if agent == AgentKind::Claude {
            conversion.target_event = Some(event.clone());
            conversion.target_matcher = conversion.matcher.clone();
            report.push(conversion);
            continue;
        }
        if let Some(entry) = convert_one(agent, event, matcher, handler, &mut conversion) {
            push_entry(agent, &mut out_events, &conversion, entry);
        }
        report.push(conversion);
    }
    let document = match agent {
        AgentKind::Claude => json!({ "hooks": hooks }),
        AgentKind::Codex | AgentKind::Gemini => json!({ "hooks": out_events }),
        AgentKind::Cursor | AgentKind::Copilot => json!({ "version": 1, "hooks": out_events }),
    };
    Conversion {
        agent,
        document,
        hooks: report,
    }
}

/// Adds `entry` under its event: in a group of its matcher for the agents
/// with groups (one per matcher, in order), as a flat entry for the others.
fn push_entry(
    agent: AgentKind,
    events: &mut Map<String, Value>,
    conversion: &HookConversion,
    entry: Value,
) {
    let Some(event) = &conversion.target_event else {
        return;
    };
    let list = events
        .entry(event.clone())
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(list) = list else { return };
    match agent {
        AgentKind::Codex | AgentKind::Gemini | AgentKind::Claude => {
            let same = |g: &&mut Value| {
                g.get("matcher").and_then(Value::as_str) == conversion.target_matcher.as_deref()
            };
            if let Some(Value::Array(handlers)) =
                list.iter_mut().rfind(same).and_then(|g| g.get_mut("hooks"))
            {
                handlers.push(entry);
                return;
            }
            let mut group = Map::new();
            if let Some(m) = &conversion.target_matcher {
                group.insert("matcher".into(), Value::String(m.clone()));
            }
            group.insert("hooks".into(), Value::Array(vec![entry]));
            list.push(Value::Object(group));
        }
        AgentKind::Cursor | AgentKind::Copilot => list.push(entry),
    }
}

/// The agent's entry for one Claude handler, or `None` when it is left
/// out; what degrades goes into `conversion`.
fn convert_one(
    agent: AgentKind,
    event: &str,
    matcher: Option<&str>,
    handler: &Value,
    conversion: &mut HookConversion,
) -> Option<Value> {
    let name = label(agent);
    let Some(target) = event_for(agent, event) else {
        conversion
            .lost
            .push(format!("{name} has no {event} event: the hook is left out"));
        return None;
    };
    let matcher_text = matcher
        .map(str::trim)
        .filter(|m| !m.is_empty() && *m != "*");
    let target_matcher = match matcher_text {
        None => None,
        Some(text) if !takes_matcher(agent, event, target) => {
            conversion.lost.push(format!(
                "{name} tests no matcher on {target}: {text:?} is dropped and the hook runs on every {target}"
            ));
            None
        }
        Some(text) => match convert_matcher(agent, event, text, conversion) {
            Ok(m) => m,
            Err(()) => return None,
        },
    };
    let handler_type = handler.get("type").and_then(Value::as_str).unwrap_or("");
    let mut entry = Map::new();
    match (agent, handler_type) {
        (_, "command") => {}
        (AgentKind::Copilot, "http") => {}
        (AgentKind::Copilot, "prompt") if target == "sessionStart" => {}
        (_, other) => {
            conversion.lost.push(format!(
                "{name} runs no {other:?} hooks here: the hook is left out"
            ));
            return None;
        }
    }
    let command = handler.get("command").and_then(Value::as_str);
    let timeout = handler.get("timeout").and_then(Value::as_f64);
    match agent {
        AgentKind::Claude => return Some(handler.clone()),
        AgentKind::Codex => {
            entry.insert("type".into(), Value::from("command"));
            entry.insert("command".into(), Value::from(command.unwrap_or_default()));
            if let Some(t) = timeout {
                entry.insert("timeout".into(), json!(t.ceil().max(1.0) as u64));
            }
            for key in ["async", "statusMessage"] {
                if let Some(v) = handler.get(key) {
                    entry.insert(key.into(), v.clone());
                }
            }
        }
        AgentKind::Gemini => {
            entry.insert("type".into(), Value::from("command"));
            entry.insert("command".into(), Value::from(command.unwrap_or_default()));
            if let Some(t) = timeout {
                entry.insert("timeout".into(), json!((t * 1000.0).round() as u64));
            }
            if let Some(Value::String(status)) = handler.get("statusMessage") {
                entry.insert("description".into(), Value::String(status.clone()));
            }
        }
        AgentKind::Cursor => {
            entry.insert("command".into(), Value::from(command.unwrap_or_default()));
            if let Some(m) = &target_matcher {
                entry.insert("matcher".into(), Value::String(m.clone()));
            }
            if let Some(t) = timeout {
                entry.insert("timeout".into(), json!(t.ceil().max(1.0) as u64));
            }
            // Cursor's own spelling of "block when the hook fails".
            if handler.get("onFailure").and_then(Value::as_str) == Some("block") {
                entry.insert("failClosed".into(), Value::Bool(true));
            }
        }
        AgentKind::Copilot => {
            entry.insert("type".into(), Value::from(handler_type));
            match handler_type {
                "command" => {
                    entry.insert("bash".into(), Value::from(command.unwrap_or_default()));
                }
                "http" => {
                    for key in ["url", "headers", "allowedEnvVars"] {
                        if let Some(v) = handler.get(key) {
                            entry.insert(key.into(), v.clone());
                        }
                    }
                }
                _ => {
                    if let Some(v) = handler.get("prompt") {
                        entry.insert("prompt".into(), v.clone());
                    }
                }
            }
            if let Some(m) = &target_matcher {
                entry.insert("matcher".into(), Value::String(m.clone()));
            }
            if let Some(t) = timeout {
                entry.insert("timeoutSec".into(), json!(t.ceil().max(1.0) as u64));
            }
        }
    }
    handler_losses(agent, event, target, handler, conversion);
    conversion.target_event = Some(target.to_owned());
    conversion.target_matcher = target_matcher;
    Some(Value::Object(entry))
}

/// The agent's matcher for a Claude matcher on `event`; `Err` when none of
/// its tools exist there (the hook is left out, said in `conversion`).
fn convert_matcher(
    agent: AgentKind,
    event: &str,
    text: &str,
    conversion: &mut HookConversion,
) -> Result<Option<String>, ()> {
    let name = label(agent);
    let on_tools =
        events::lookup(event).is_some_and(|spec| spec.matcher == MatchField::Payload("tool_name"));
    if !on_tools {
        return Ok(Some(text.to_owned()));
    }
    match Matcher::parse(Some(text)) {
        Ok(Matcher::All) => Ok(None),
        Ok(Matcher::Exact(names)) => {
            let mut mapped: Vec<String> = Vec::new();
            for tool in &names {
                let target = if tool.starts_with("mcp__") {
                    conversion.check.push(format!(
                        "{tool} is Claude Code's name of an MCP tool; {name} names MCP tools its own way: kept as written"
                    ));
                    Some(tool.clone())
                } else {
                    target_tool(agent, tool).map(str::to_owned)
                };
                match target {
                    Some(t) if !mapped.contains(&t) => mapped.push(t),
                    Some(_) => {}
                    None => conversion.lost.push(format!(
                        "{name} has no tool that is Claude Code's {tool}: it is left out of the matcher"
                    )),
                }
            }
            if mapped.is_empty() {
                conversion.lost.push(format!(
                    "none of its tools ({}) is one of {name}'s: the hook is left out",
                    names.join(", ")
                ));
                return Err(());
            }
            let list = mapped.join("|");
            Ok(Some(match agent {
                // An unanchored JavaScript regex: anchored, it matches
                // these names only, as Claude Code's exact list does.
                AgentKind::Gemini => format!("^(?:{list})$"),
                _ => list,
            }))
        }
        Ok(Matcher::Regex(_)) | Err(_) => {
            conversion.check.push(format!(
                "its matcher {text:?} is a regex written for Claude Code's tool names; {name} names its tools differently: kept as written"
            ));
            Ok(Some(text.to_owned()))
        }
    }
}

/// The handler fields and behaviours `agent` does not have.
fn handler_losses(
    agent: AgentKind,
    event: &str,
    target: &str,
    handler: &Value,
    conversion: &mut HookConversion,
) {
    let name = label(agent);
    let kept: &[&str] = match agent {
        AgentKind::Claude => return,
        AgentKind::Codex => &["type", "command", "timeout", "async", "statusMessage"],
        AgentKind::Gemini => &["type", "command", "timeout", "statusMessage"],
        AgentKind::Cursor => &["type", "command", "timeout", "onFailure"],
        AgentKind::Copilot => &[
            "type",
            "command",
            "timeout",
            "url",
            "headers",
            "allowedEnvVars",
            "prompt",
        ],
    };
    if let Some(fields) = handler.as_object() {
        for (key, value) in fields {
            if kept.contains(&key.as_str()) {
                continue;
            }
            let why = match key.as_str() {
                "if" => format!(
                    "{name} has no \"if\" rule: {value} is dropped, so the hook runs on every call its matcher matches"
                ),
                "onFailure" => format!(
                    "{name} has no \"onFailure\": a hook that cannot start or times out lets the action through"
                ),
                "once" => format!("{name} has no \"once\": the hook runs every time"),
                "async" => format!("{name} has no \"async\": the hook runs in the foreground"),
                other => format!("{name} has no {other:?} field: it is dropped"),
            };
            conversion.lost.push(why);
        }
    }
    if agent == AgentKind::Copilot && event == "UserPromptSubmit" {
        conversion.lost.push(
            "GitHub Copilot ignores a command hook's answer on userPromptSubmitted: it can no longer block or add to the prompt"
                .to_owned(),
        );
    }
    let command = handler.get("command").and_then(Value::as_str).unwrap_or("");
    if command.contains("CLAUDE_PROJECT_DIR")
        && matches!(agent, AgentKind::Codex | AgentKind::Copilot)
    {
        conversion.check.push(format!(
            "it uses $CLAUDE_PROJECT_DIR, which {name} is not documented to set: use a path relative to the repository root"
        ));
    }
    if let Some(shape) = answer_shape(agent, event) {
        conversion.check.push(format!(
            "exit 2 with the reason on stderr blocks on {name}'s {target} too; an answer in Claude Code's JSON shape is not {name}'s ({shape}): rewrite it, or keep the hook in hookd's managed hooks, which answer every agent in its own shape"
        ));
    }
}

/// How `agent` takes a decision on Claude Code's `event` where that differs
/// from Claude Code's JSON (`docs/agent-hooks.md` §1.4, §2.4, §3.4, §4.4);
/// `None` where Claude Code's answer works as it is, or decides nothing.
fn answer_shape(agent: AgentKind, event: &str) -> Option<&'static str> {
    let before_tool = matches!(event, "PreToolUse" | "PermissionRequest");
    match (agent, event) {
        (AgentKind::Codex, _) if before_tool => Some(
            "Claude Code's, but without \"ask\", \"allow\" only with \"updatedInput\", and a deny needs a reason",
        ),
        (AgentKind::Gemini, _) if before_tool => Some("{\"decision\": \"deny\", \"reason\"}"),
        (AgentKind::Cursor, "PreToolUse") => {
            Some("{\"permission\": \"deny\", \"user_message\", \"agent_message\"}")
        }
        (AgentKind::Cursor, "UserPromptSubmit") => Some("{\"continue\": false, \"user_message\"}"),
        (AgentKind::Cursor, "Stop" | "SubagentStop") => {
            Some("{\"followup_message\"} carries what a block's reason says")
        }
        (AgentKind::Cursor | AgentKind::Copilot, "PostToolUse") => {
            Some("it cannot block after a tool; only additional context is read")
        }
        (AgentKind::Copilot, "PreToolUse") => Some(
            "{\"permissionDecision\": \"deny\", \"permissionDecisionReason\"} at the top level",
        ),
        (AgentKind::Copilot, "PermissionRequest") => {
            Some("{\"behavior\", \"message\"} at the top level")
        }
        _ => None,
    }
}

/// Converts the `hooks` of a Claude Code settings document (`{"hooks":
/// {...}}`; a bare `hooks` object is taken too).
#[must_use]
pub fn convert_settings(settings: &Value, agent: AgentKind) -> Conversion {
    let empty = Map::new();
    let hooks = match settings.get("hooks") {
        Some(Value::Object(hooks)) => hooks,
        Some(_) => &empty,
        None => settings.as_object().unwrap_or(&empty),
    };
    convert(hooks, agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hooks(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn each_agent_gets_its_event_tool_names_shape_and_timeout_unit() {
        let claude = hooks(json!({
            "PreToolUse": [{"matcher": "Bash|Write", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 10}]}]
        }));
        let codex = convert(&claude, AgentKind::Codex);
        assert_eq!(
            codex.document,
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 10}]}]}})
        );
        let gemini = convert(&claude, AgentKind::Gemini);
        assert_eq!(
            gemini.document,
            json!({"hooks": {"BeforeTool": [{"matcher": "^(?:run_shell_command|write_file)$", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 10000}]}]}})
        );
        let cursor = convert(&claude, AgentKind::Cursor);
        assert_eq!(
            cursor.document,
            json!({"version": 1, "hooks": {"preToolUse": [
                {"command": "./guard.sh", "matcher": "Shell|Write", "timeout": 10}]}})
        );
        let copilot = convert(&claude, AgentKind::Copilot);
        assert_eq!(
            copilot.document,
            json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": "./guard.sh", "matcher": "bash|create", "timeoutSec": 10}]}})
        );
        for c in [&codex, &gemini, &cursor, &copilot] {
            assert_eq!(c.hooks.len(), 1);
            assert!(c.hooks[0].lost.is_empty(), "{c:?}");
            assert!(
                c.hooks[0].check.iter().any(|n| n.contains("exit 2")),
                "the answer's shape is named: {c:?}"
            );
        }
    }

    #[test]
    fn what_degrades_is_named_hook_by_hook() {
        let claude = hooks(json!({
            "PreToolUse": [
                {"matcher": "Read|Grep", "hooks": [{"type": "command", "command": "./reads.sh"}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./g.sh",
                    "if": "Bash(git push *)", "onFailure": "block", "async": true}]},
                {"matcher": "^mcp__.*", "hooks": [{"type": "command", "command": "./mcp.sh"}]},
                {"hooks": [{"type": "http", "url": "https://example.test/hook"}]}
            ],
            "PostToolUseFailure": [{"hooks": [{"type": "command", "command": "./fail.sh"}]}],
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "./ctx.sh"}]}]
        }));
        let gemini = convert(&claude, AgentKind::Gemini);
        let by_runs = |c: &Conversion, runs: &str| {
            c.hooks
                .iter()
                .find(|h| h.runs.contains(runs))
                .unwrap()
                .clone()
        };
        let reads = by_runs(&gemini, "reads.sh");
        assert_eq!(reads.target_event, None);
        assert!(
            reads
                .lost
                .iter()
                .any(|l| l.contains("no tool that is Claude Code's Read"))
        );
        assert!(
            reads
                .lost
                .iter()
                .any(|l| l.contains("the hook is left out"))
        );
        let guard = by_runs(&gemini, "g.sh");
        assert_eq!(guard.target_event.as_deref(), Some("BeforeTool"));
        assert!(
            guard.lost.iter().any(|l| l.contains("no \"if\" rule")),
            "{guard:?}"
        );
        assert!(guard.lost.iter().any(|l| l.contains("no \"onFailure\"")));
        assert!(guard.lost.iter().any(|l| l.contains("no \"async\"")));
        let mcp = by_runs(&gemini, "mcp.sh");
        assert!(
            mcp.check.iter().any(|c| c.contains("is a regex")),
            "{mcp:?}"
        );
        let http = by_runs(&gemini, "example.test");
        assert_eq!(http.target_event, None);
        let fail = by_runs(&gemini, "fail.sh");
        assert_eq!(
            fail.lost,
            ["Gemini CLI has no PostToolUseFailure event: the hook is left out"]
        );
        assert_eq!(gemini.left_out(), 3);
        // A lifecycle matcher stays for Gemini (exact there), and Cursor drops it.
        assert_eq!(
            gemini.document["hooks"]["SessionStart"][0]["matcher"],
            "startup"
        );
        let cursor = convert(&claude, AgentKind::Cursor);
        // onFailure: block is Cursor's failClosed, so nothing is lost there.
        let guarded = by_runs(&cursor, "g.sh");
        assert!(
            !guarded.lost.iter().any(|l| l.contains("onFailure")),
            "{guarded:?}"
        );
        assert!(
            cursor.document["hooks"]["preToolUse"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["command"] == "./g.sh" && e["failClosed"] == true)
        );
        let ctx = by_runs(&cursor, "ctx.sh");
        assert_eq!(ctx.target_matcher, None);
        assert!(
            ctx.lost
                .iter()
                .any(|l| l.contains("tests no matcher on sessionStart"))
        );
        // Cursor keeps the failure event and the Read tool; Copilot the http hook.
        assert_eq!(
            by_runs(&cursor, "fail.sh").target_event.as_deref(),
            Some("postToolUseFailure")
        );
        assert_eq!(
            by_runs(&cursor, "reads.sh").target_matcher.as_deref(),
            Some("Read")
        );
        let copilot = convert(&claude, AgentKind::Copilot);
        assert_eq!(
            by_runs(&copilot, "example.test").target_event.as_deref(),
            Some("preToolUse")
        );
        assert_eq!(
            by_runs(&copilot, "reads.sh").target_matcher.as_deref(),
            Some("view|grep")
        );
    }

    #[test]
    fn every_template_converts_to_every_agent_in_a_shape_it_accepts() {
        let catalog = super::super::templates::catalog::Catalog::embedded().unwrap();
        for agent in [
            AgentKind::Codex,
            AgentKind::Gemini,
            AgentKind::Cursor,
            AgentKind::Copilot,
        ] {
            for template in &catalog.templates {
                let mut claude = Map::new();
                for hook in &template.hooks {
                    let mut group = Map::new();
                    if let Some(m) = &hook.matcher {
                        group.insert("matcher".into(), Value::String(m.clone()));
                    }
                    let script = template.script.as_deref().unwrap_or("script");
                    let mut handler = json!({"type": "command",
                        "command": hook.command.replace("{script}", &format!("./{script}"))});
                    if let Some(t) = hook.timeout {
                        handler["timeout"] = json!(t);
                    }
                    group.insert("hooks".into(), json!([handler]));
                    claude
                        .entry(hook.event.clone())
                        .or_insert_with(|| json!([]))
                        .as_array_mut()
                        .unwrap()
                        .push(Value::Object(group));
                }
                let c = convert(&claude, agent);
                assert_eq!(c.hooks.len(), template.hooks.len(), "{}", template.name);
                check_shape(agent, &c.document, &template.name);
                for hook in &c.hooks {
                    // Left out only with a reason.
                    if hook.target_event.is_none() {
                        assert!(!hook.lost.is_empty(), "{} {agent}: {hook:?}", template.name);
                    }
                }
            }
        }
    }

    /// A conversion is a file its agent takes as it is: no error, no warning
    /// ([`super::super::agent_schema`]).
    fn check_shape(agent: AgentKind, document: &Value, what: &str) {
        let found = super::super::agent_schema::check(agent, document);
        assert!(
            found.errors.is_empty() && found.warnings.is_empty(),
            "{what} as {agent}: {found:?}\n{document}"
        );
    }
}
