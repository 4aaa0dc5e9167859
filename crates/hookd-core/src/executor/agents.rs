//! Managed hooks for every coding agent: one set of hooks, written to
//! Claude Code's contract, guards Codex CLI, Gemini CLI, Cursor and GitHub
//! Copilot too.
//!
//! Each agent calls `hookd-emit --wait --agent NAME <its event>` with its
//! own payload and reads the answer in its own output contract (see
//! `docs/agent-hooks.md`). So the event is told to the managed hooks in
//! Claude Code's shape ([`claude_payload`]: Claude's event and tool names,
//! `tool_input` as an object), and their merged [`Outcome`] is told back in
//! the agent's ([`reply_for`]). A deny is a deny everywhere. What an agent
//! cannot take is said, not silently dropped: an `ask` becomes what the
//! agent supports (a deny where it cannot ask: the guard fails closed),
//! and each such loss is returned with the reply, for the hook runs'
//! records.

use hookd_proto::{AgentKind, Reply};
use serde_json::{Map, Value};

use super::outcome::{Outcome, cap_text};
use super::output::PermissionDecision;
use crate::settings::convert::{self, event_for};
use crate::settings::events::EventSpec;

/// The reason given when a hook blocked without one and the agent needs
/// one (Codex CLI refuses a deny without a reason, and would let the call
/// through).
pub const NO_REASON: &str = "blocked by a hookd managed hook";

/// The answer for one agent, and what of the merged outcome it could not
/// take.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentReply {
    /// What the agent's hook process prints and exits with.
    pub reply: Reply,
    /// What was changed or left out for this agent, one sentence each.
    pub losses: Vec<String>,
}

/// `payload` of `agent`'s event, told as Claude Code's `spec` event: its
/// `hook_event_name`, Claude's name of the tool (the agent's is kept as
/// `hookd_agent_tool_name`), `session_id`, `tool_name`, `tool_input` and
/// `tool_response` from the agent's own spellings (Copilot's `toolName`,
/// `toolArgs`; Cursor's `conversation_id`), a `tool_input` sent as a JSON
/// string parsed, and `hookd_agent` naming the agent. Every field the agent
/// sent stays. Claude Code's own payload is passed as it came.
#[must_use]
pub fn claude_payload(agent: AgentKind, spec: &EventSpec, payload: Value) -> Value {
    // Claude Code's own (every managed event of it) is moved, not copied.
    let mut out = match payload {
        payload if agent == AgentKind::Claude => return payload,
        Value::Object(map) => map,
        _ => Map::new(),
    };
    for (theirs, ours) in [
        ("sessionId", "session_id"),
        ("conversation_id", "session_id"),
        ("toolName", "tool_name"),
        ("toolArgs", "tool_input"),
        ("toolInput", "tool_input"),
        ("toolResult", "tool_response"),
    ] {
        if !out.contains_key(ours)
            && let Some(value) = out.get(theirs).cloned()
        {
            out.insert(ours.into(), value);
        }
    }
    if let Some(Value::String(text)) = out.get("tool_input")
        && let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(text)
    {
        out.insert("tool_input".into(), parsed);
    }
    if let Some(tool) = out
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned)
        && let Some(claude) = agent.claude_tool(&tool)
    {
        out.insert("hookd_agent_tool_name".into(), Value::String(tool));
        out.insert("tool_name".into(), Value::from(claude));
    }
    out.insert("hook_event_name".into(), Value::from(spec.name));
    out.insert("hookd_agent".into(), Value::from(agent.as_str()));
    Value::Object(out)
}

/// The merged `outcome` of the managed hooks told in `agent`'s output
/// contract for its event `agent_event` (the name it called hookd-emit
/// with), with what it could not take.
#[must_use]
pub fn reply_for(outcome: &Outcome, agent: AgentKind, agent_event: &str) -> AgentReply {
    match agent {
        AgentKind::Claude => AgentReply {
            reply: outcome.reply(),
            losses: Vec::new(),
        },
        AgentKind::Codex => codex(outcome),
        AgentKind::Gemini => gemini(outcome, agent_event),
        AgentKind::Cursor => cursor(outcome, agent_event),
        AgentKind::Copilot => copilot(outcome, agent_event),
    }
}

/// One agent's answer to an outcome, for showing every agent's side by
/// side (the Test bench).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentAnswer {
    /// The agent (`claude`, `codex`, …).
    pub agent: String,
    /// Its name for a person (`Codex CLI`).
    pub label: String,
    /// Its name of the event; `None`: it has no such event, so it never asks.
    pub event: Option<String>,
    /// What its hook process would exit with.
    pub exit_code: i32,
    /// What it would print on stdout.
    pub stdout: String,
    /// What it would print on stderr.
    pub stderr: String,
    /// What it could not take, one sentence each.
    pub losses: Vec<String>,
}

/// The answer every agent would get for `outcome`, Claude Code first.
#[must_use]
pub fn every_agent(outcome: &Outcome) -> Vec<AgentAnswer> {
    AgentKind::ALL
        .iter()
        .map(|&agent| {
            let label = convert::label(agent).to_owned();
            match event_for(agent, outcome.event.name) {
                Some(event) => {
                    let answer = reply_for(outcome, agent, event);
                    AgentAnswer {
                        agent: agent.as_str().to_owned(),
                        label,
                        event: Some(event.to_owned()),
                        exit_code: answer.reply.exit_code,
                        stdout: answer.reply.stdout,
                        stderr: answer.reply.stderr,
                        losses: answer.losses,
                    }
                }
                None => AgentAnswer {
                    agent: agent.as_str().to_owned(),
                    losses: vec![format!(
                        "{label} has no {} event: it never asks for this answer",
                        outcome.event.name
                    )],
                    label,
                    event: None,
                    exit_code: 0,
                    stdout: String::new(),
                    stderr: String::new(),
                },
            }
        })
        .collect()
}

/// The reasons joined, or [`NO_REASON`].
fn reason(reasons: &[String]) -> String {
    let joined = cap_text(&reasons.join("\n"));
    if joined.trim().is_empty() {
        NO_REASON.to_owned()
    } else {
        joined
    }
}

/// The text for the user: system messages, then error notes.
fn user_text(outcome: &Outcome) -> Option<String> {
    let lines: Vec<&str> = outcome
        .system_messages
        .iter()
        .chain(outcome.errors.iter())
        .map(String::as_str)
        .collect();
    (!lines.is_empty()).then(|| cap_text(&lines.join("\n")))
}

/// Exit 0 with `top` as JSON, or nothing at all when it is empty.
fn json(top: Map<String, Value>, losses: Vec<String>) -> AgentReply {
    let reply = if top.is_empty() {
        Reply::default()
    } else {
        Reply {
            exit_code: 0,
            stdout: Value::Object(top).to_string(),
            stderr: String::new(),
        }
    };
    AgentReply { reply, losses }
}

/// Codex CLI: Claude Code's shape with a stricter parser (docs/agent-hooks.md
/// §1.4): no `ask`, `allow` only with `updatedInput`, a deny or block needs
/// a reason, no `continue: false` or `suppressOutput` on tool events, no
/// `hookSpecificOutput` on Stop.
fn codex(outcome: &Outcome) -> AgentReply {
    let event = outcome.event.name;
    let mut losses = Vec::new();
    let mut reply = outcome.reply();
    if reply.exit_code == 2 && reply.stderr.trim().is_empty() {
        NO_REASON.clone_into(&mut reply.stderr);
    }
    let Ok(Value::Object(mut top)) = serde_json::from_str::<Value>(&reply.stdout) else {
        return AgentReply { reply, losses };
    };
    let tool_event = matches!(event, "PreToolUse" | "PermissionRequest" | "PostToolUse");
    if tool_event && top.remove("suppressOutput").is_some() {
        losses.push(format!(
            "Codex CLI takes no suppressOutput on {event}: the output stays in the transcript"
        ));
    }
    let mut specific = match top.remove("hookSpecificOutput") {
        Some(Value::Object(specific)) => specific,
        _ => Map::new(),
    };
    if matches!(event, "PreToolUse" | "PermissionRequest") && top.remove("continue").is_some() {
        let why = top
            .remove("stopReason")
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| NO_REASON.to_owned());
        losses.push(format!(
            "Codex CLI cannot stop the agent from {event}: the call was denied instead"
        ));
        specific.insert("hookEventName".into(), Value::from(event));
        if event == "PreToolUse" {
            specific.insert("permissionDecision".into(), Value::from("deny"));
            specific.insert("permissionDecisionReason".into(), Value::String(why));
            specific.remove("updatedInput");
        } else {
            specific.insert(
                "decision".into(),
                serde_json::json!({"behavior": "deny", "message": why}),
            );
        }
    }
    if event == "PreToolUse" {
        let decision = specific
            .get("permissionDecision")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let reason_given = specific
            .get("permissionDecisionReason")
            .and_then(Value::as_str)
            .filter(|r| !r.trim().is_empty())
            .map(str::to_owned);
        match decision.as_deref() {
            Some("ask") => {
                losses.push(
                    "Codex CLI cannot ask the user from a hook: the call was denied instead"
                        .to_owned(),
                );
                specific.insert("permissionDecision".into(), Value::from("deny"));
                specific.insert(
                    "permissionDecisionReason".into(),
                    Value::String(format!(
                        "a hookd managed hook asks to confirm this call, which Codex CLI cannot ask: {}",
                        reason_given.as_deref().unwrap_or(NO_REASON)
                    )),
                );
                specific.remove("updatedInput");
            }
            Some("deny") if reason_given.is_none() => {
                specific.insert("permissionDecisionReason".into(), Value::from(NO_REASON));
            }
            Some("allow" | "defer") | None if !specific.contains_key("updatedInput") => {
                if decision.as_deref() == Some("allow") {
                    losses.push(
                        "Codex CLI takes allow only with a rewritten input: the call is left to its own approval"
                            .to_owned(),
                    );
                }
                specific.remove("permissionDecision");
                specific.remove("permissionDecisionReason");
            }
            Some("allow" | "defer") | None => {
                if decision.as_deref() != Some("allow") {
                    losses.push(
                        "Codex CLI takes a rewritten input only with allow: it was given with allow"
                            .to_owned(),
                    );
                }
                specific.insert("permissionDecision".into(), Value::from("allow"));
                specific.remove("permissionDecisionReason");
            }
            Some(_) => {}
        }
    }
    if event == "PermissionRequest"
        && let Some(Value::Object(decision)) = specific.get_mut("decision")
    {
        let before = decision.len();
        decision.retain(|key, _| key == "behavior" || key == "message");
        if decision.len() < before {
            losses.push(
                "Codex CLI takes only behavior and message from a PermissionRequest decision: the rest was left out"
                    .to_owned(),
            );
        }
    }
    if top.get("decision").and_then(Value::as_str) == Some("block")
        && top
            .get("reason")
            .and_then(Value::as_str)
            .is_none_or(|r| r.trim().is_empty())
    {
        top.insert("reason".into(), Value::from(NO_REASON));
    }
    let stop_event = matches!(event, "Stop" | "SubagentStop");
    if specific.len() > 1 && !stop_event {
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    } else if specific.len() > 1 {
        losses.push(format!(
            "Codex CLI takes no hookSpecificOutput on {event}: its context was left out"
        ));
    }
    json(top, losses)
}

/// Gemini CLI: one JSON object on stdout with exit 0 (docs/agent-hooks.md
/// §2.4): `decision` `deny`/`ask`/`allow` with `reason`, `continue: false`
/// with `stopReason`, `systemMessage`, `suppressOutput`, and in
/// `hookSpecificOutput` the `additionalContext` and, before a tool, its
/// rewritten arguments as `tool_input`.
fn gemini(outcome: &Outcome, agent_event: &str) -> AgentReply {
    let mut losses = Vec::new();
    let mut top = Map::new();
    let mut specific = Map::new();
    if outcome.stopped {
        top.insert("continue".into(), Value::Bool(false));
        if let Some(why) = &outcome.stop_reason {
            top.insert("stopReason".into(), Value::String(why.clone()));
        }
    } else if let Some(p) = &outcome.permission {
        match p.decision {
            PermissionDecision::Deny => {
                top.insert("decision".into(), Value::from("deny"));
                top.insert("reason".into(), Value::String(reason(&p.reasons)));
            }
            PermissionDecision::Ask => {
                top.insert("decision".into(), Value::from("ask"));
                if !p.reasons.is_empty() {
                    top.insert("reason".into(), Value::String(reason(&p.reasons)));
                }
            }
            PermissionDecision::Allow => {
                top.insert("decision".into(), Value::from("allow"));
            }
            PermissionDecision::Defer => {}
        }
    } else if let Some(block) = &outcome.block {
        top.insert("decision".into(), Value::from("deny"));
        top.insert("reason".into(), Value::String(reason(&block.reasons)));
    } else if outcome.permission_request.is_some() {
        losses.push("Gemini CLI has no permission requests: the decision was left out".into());
    }
    let denied = top.get("decision").and_then(Value::as_str) == Some("deny");
    if let Some(input) = outcome.updated_input.as_ref().filter(|_| !denied) {
        specific.insert("tool_input".into(), input.clone());
    }
    if !outcome.contexts.is_empty() {
        specific.insert(
            "additionalContext".into(),
            Value::String(cap_text(&outcome.contexts.join("\n"))),
        );
    }
    if outcome.updated_tool_output.is_some() {
        losses.push("Gemini CLI takes no rewritten tool output: it was left out".into());
    }
    if !specific.is_empty() {
        specific.insert("hookEventName".into(), Value::from(agent_event));
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    if let Some(text) = user_text(outcome) {
        top.insert("systemMessage".into(), Value::String(text));
    }
    if outcome.suppress_output && !top.is_empty() {
        top.insert("suppressOutput".into(), Value::Bool(true));
    }
    json(top, losses)
}

/// Whether `event` is one of `names`, as the agent may spell it.
fn is(event: &str, names: &[&str]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(event.trim()))
}

/// Cursor: `permission` (`allow`/`deny`, `ask` only before a shell or MCP
/// call), `user_message` and `agent_message` before an action;
/// `continue: false` before a prompt; `followup_message` at a stop;
/// `additional_context` after a tool and at a session's start
/// (docs/agent-hooks.md §3.3, §3.4).
fn cursor(outcome: &Outcome, agent_event: &str) -> AgentReply {
    const PERMISSION: [&str; 6] = [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "beforeTabFileRead",
        "subagentStart",
    ];
    const ASKS: [&str; 2] = ["beforeShellExecution", "beforeMCPExecution"];
    const PROMPT: [&str; 1] = ["beforeSubmitPrompt"];
    const STOPS: [&str; 2] = ["stop", "subagentStop"];
    const CONTEXT: [&str; 2] = ["postToolUse", "sessionStart"];
    let mut losses = Vec::new();
    let mut top = Map::new();
    let permission_event = is(agent_event, &PERMISSION);
    let deny = |top: &mut Map<String, Value>, why: String| {
        top.insert("permission".into(), Value::from("deny"));
        top.insert("user_message".into(), Value::String(why.clone()));
        top.insert("agent_message".into(), Value::String(why));
    };
    if outcome.stopped {
        let why = outcome
            .stop_reason
            .clone()
            .unwrap_or_else(|| NO_REASON.to_owned());
        if permission_event {
            losses.push(format!(
                "Cursor cannot stop the agent from {agent_event}: the action was denied instead"
            ));
            deny(&mut top, why);
        } else if is(agent_event, &PROMPT) {
            top.insert("continue".into(), Value::Bool(false));
            top.insert("user_message".into(), Value::String(why));
        } else {
            losses.push(format!(
                "Cursor cannot stop the agent from {agent_event}: the stop was left out"
            ));
        }
    } else if let Some(p) = &outcome.permission {
        match p.decision {
            PermissionDecision::Deny => deny(&mut top, reason(&p.reasons)),
            PermissionDecision::Ask if is(agent_event, &ASKS) => {
                top.insert("permission".into(), Value::from("ask"));
                if !p.reasons.is_empty() {
                    top.insert("user_message".into(), Value::String(reason(&p.reasons)));
                }
            }
            PermissionDecision::Ask => {
                losses.push(format!(
                    "Cursor does not ask on {agent_event}: the action was denied instead"
                ));
                deny(
                    &mut top,
                    format!(
                        "a hookd managed hook asks to confirm this, which Cursor cannot ask here: {}",
                        reason(&p.reasons)
                    ),
                );
            }
            PermissionDecision::Allow => {
                top.insert("permission".into(), Value::from("allow"));
            }
            PermissionDecision::Defer => {}
        }
        if p.decision != PermissionDecision::Deny
            && let Some(input) = &outcome.updated_input
        {
            if is(agent_event, &["preToolUse"]) {
                top.insert("updated_input".into(), input.clone());
            } else {
                losses.push(format!(
                    "Cursor takes a rewritten input only on preToolUse, not {agent_event}: it was left out"
                ));
            }
        }
    } else if let Some(block) = &outcome.block {
        let why = reason(&block.reasons);
        if is(agent_event, &PROMPT) {
            top.insert("continue".into(), Value::Bool(false));
            top.insert("user_message".into(), Value::String(why));
        } else if is(agent_event, &STOPS) {
            top.insert("followup_message".into(), Value::String(why));
        } else if permission_event {
            deny(&mut top, why);
        } else {
            losses.push(format!(
                "Cursor cannot block {agent_event}: the block was left out"
            ));
        }
    }
    if !outcome.contexts.is_empty() {
        if is(agent_event, &CONTEXT) {
            top.insert(
                "additional_context".into(),
                Value::String(cap_text(&outcome.contexts.join("\n"))),
            );
        } else {
            losses.push(format!(
                "Cursor takes no context on {agent_event}: it was left out"
            ));
        }
    }
    if let Some(text) = user_text(outcome) {
        if (permission_event || is(agent_event, &PROMPT)) && !top.contains_key("user_message") {
            top.insert("user_message".into(), Value::String(text));
        } else if !top.contains_key("user_message") {
            losses.push(format!(
                "Cursor shows no message for {agent_event}: it was left out"
            ));
        }
    }
    json(top, losses)
}

/// GitHub Copilot: before a tool, `permissionDecision` (`allow`, `deny`,
/// `ask`; the cloud agent takes `ask` as a deny) with
/// `permissionDecisionReason` and `modifiedArgs`; a permission request's
/// `behavior` and `message`; a stop's `decision: "block"` and `reason`;
/// `additionalContext` after a tool, at a session's or subagent's start
/// and on a notification (docs/agent-hooks.md §4.3, §4.4).
fn copilot(outcome: &Outcome, agent_event: &str) -> AgentReply {
    const STOPS: [&str; 4] = ["agentStop", "subagentStop", "Stop", "SubagentStop"];
    const CONTEXT: [&str; 5] = [
        "postToolUse",
        "postToolUseFailure",
        "sessionStart",
        "subagentStart",
        "notification",
    ];
    let mut losses = Vec::new();
    let mut top = Map::new();
    let before_tool = is(agent_event, &["preToolUse"]);
    if outcome.stopped {
        if before_tool {
            losses.push(
                "GitHub Copilot cannot stop the agent from preToolUse: the call was denied instead"
                    .to_owned(),
            );
            top.insert("permissionDecision".into(), Value::from("deny"));
            top.insert(
                "permissionDecisionReason".into(),
                Value::String(
                    outcome
                        .stop_reason
                        .clone()
                        .unwrap_or_else(|| NO_REASON.to_owned()),
                ),
            );
        } else {
            losses.push(format!(
                "GitHub Copilot cannot stop the agent from {agent_event}: the stop was left out"
            ));
        }
    } else if let Some(p) = outcome.permission.as_ref().filter(|_| before_tool) {
        match p.decision {
            PermissionDecision::Deny => {
                top.insert("permissionDecision".into(), Value::from("deny"));
                top.insert(
                    "permissionDecisionReason".into(),
                    Value::String(reason(&p.reasons)),
                );
            }
            PermissionDecision::Ask | PermissionDecision::Allow => {
                top.insert(
                    "permissionDecision".into(),
                    Value::from(p.decision.as_str()),
                );
                if !p.reasons.is_empty() {
                    top.insert(
                        "permissionDecisionReason".into(),
                        Value::String(reason(&p.reasons)),
                    );
                }
            }
            PermissionDecision::Defer => {}
        }
        if p.decision != PermissionDecision::Deny
            && let Some(input) = &outcome.updated_input
        {
            top.insert("modifiedArgs".into(), input.clone());
        }
    } else if let Some(d) = &outcome.permission_request {
        top.insert("behavior".into(), Value::from(d.behavior.as_str()));
        if let Some(message) = &d.message {
            top.insert("message".into(), Value::String(message.clone()));
        }
        if d.updated_input.is_some() || d.updated_permissions.is_some() {
            losses.push(
                "GitHub Copilot takes only behavior and message from a permission request: the rest was left out"
                    .to_owned(),
            );
        }
    } else if let Some(block) = &outcome.block {
        if is(agent_event, &STOPS) {
            top.insert("decision".into(), Value::from("block"));
            top.insert("reason".into(), Value::String(reason(&block.reasons)));
        } else {
            losses.push(format!(
                "GitHub Copilot cannot block {agent_event} from a hook's answer: the block was left out"
            ));
        }
    } else if outcome.permission.is_some() {
        losses.push(format!(
            "GitHub Copilot takes a permission decision only on preToolUse, not {agent_event}: it was left out"
        ));
    }
    if !outcome.contexts.is_empty() {
        if is(agent_event, &CONTEXT) {
            top.insert(
                "additionalContext".into(),
                Value::String(cap_text(&outcome.contexts.join("\n"))),
            );
        } else {
            losses.push(format!(
                "GitHub Copilot takes no context on {agent_event}: it was left out"
            ));
        }
    }
    if user_text(outcome).is_some() {
        losses.push("GitHub Copilot shows no message from a hook: it was left out".into());
    }
    json(top, losses)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::executor::outcome::{MergedBlock, MergedPermission};
    use crate::settings::events;

    fn outcome(event: &str) -> Outcome {
        Outcome::empty(events::lookup(event).unwrap())
    }

    fn denied(event: &str, reasons: &[&str]) -> Outcome {
        Outcome {
            permission: Some(MergedPermission {
                decision: PermissionDecision::Deny,
                reasons: reasons.iter().map(|r| (*r).to_owned()).collect(),
                only_exit_code_2: true,
            }),
            ..outcome(event)
        }
    }

    fn asked(event: &str) -> Outcome {
        Outcome {
            permission: Some(MergedPermission {
                decision: PermissionDecision::Ask,
                reasons: vec!["touches production".into()],
                only_exit_code_2: false,
            }),
            ..outcome(event)
        }
    }

    fn stdout(answer: &AgentReply) -> Value {
        assert_eq!(answer.reply.exit_code, 0, "{answer:?}");
        serde_json::from_str(&answer.reply.stdout).unwrap()
    }

    #[test]
    fn a_deny_is_a_deny_in_every_agents_shape() {
        let deny = denied("PreToolUse", &["no rm -rf"]);
        let claude = reply_for(&deny, AgentKind::Claude, "PreToolUse");
        assert_eq!(claude.reply, deny.reply());
        assert_eq!(
            (claude.reply.exit_code, claude.reply.stderr.as_str()),
            (2, "no rm -rf")
        );

        let codex = reply_for(&deny, AgentKind::Codex, "PreToolUse");
        assert_eq!(
            (codex.reply.exit_code, codex.reply.stderr.as_str()),
            (2, "no rm -rf")
        );
        assert!(codex.losses.is_empty());

        assert_eq!(
            stdout(&reply_for(&deny, AgentKind::Gemini, "BeforeTool")),
            json!({"decision": "deny", "reason": "no rm -rf"})
        );
        assert_eq!(
            stdout(&reply_for(&deny, AgentKind::Cursor, "preToolUse")),
            json!({"permission": "deny", "user_message": "no rm -rf", "agent_message": "no rm -rf"})
        );
        assert_eq!(
            stdout(&reply_for(&deny, AgentKind::Copilot, "preToolUse")),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"})
        );
    }

    #[test]
    fn a_deny_without_a_reason_gets_one_where_the_agent_needs_it() {
        let deny = denied("PreToolUse", &[]);
        let codex = reply_for(&deny, AgentKind::Codex, "PreToolUse");
        assert_eq!(
            (codex.reply.exit_code, codex.reply.stderr.as_str()),
            (2, NO_REASON)
        );
        let mut json_deny = deny;
        json_deny.system_messages.push("see the log".into());
        let codex = stdout(&reply_for(&json_deny, AgentKind::Codex, "PreToolUse"));
        assert_eq!(
            codex["hookSpecificOutput"]["permissionDecisionReason"],
            NO_REASON
        );
        assert_eq!(codex["systemMessage"], "see the log");
    }

    #[test]
    fn an_ask_becomes_what_the_agent_supports_and_the_loss_is_said() {
        let ask = asked("PreToolUse");
        let codex = reply_for(&ask, AgentKind::Codex, "PreToolUse");
        let out = stdout(&codex);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert!(
            out["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap()
                .ends_with("which Codex CLI cannot ask: touches production")
        );
        assert_eq!(codex.losses.len(), 1, "{codex:?}");

        let gemini = reply_for(&ask, AgentKind::Gemini, "BeforeTool");
        assert_eq!(
            stdout(&gemini),
            json!({"decision": "ask", "reason": "touches production"})
        );
        assert!(gemini.losses.is_empty());

        // Cursor asks before a shell command, not on preToolUse.
        let shell = reply_for(&ask, AgentKind::Cursor, "beforeShellExecution");
        assert_eq!(stdout(&shell)["permission"], "ask");
        assert!(shell.losses.is_empty());
        let tool = reply_for(&ask, AgentKind::Cursor, "preToolUse");
        assert_eq!(stdout(&tool)["permission"], "deny");
        assert_eq!(tool.losses.len(), 1);

        let copilot = reply_for(&ask, AgentKind::Copilot, "preToolUse");
        assert_eq!(stdout(&copilot)["permissionDecision"], "ask");
    }

    #[test]
    fn codex_takes_allow_only_with_a_rewritten_input() {
        let mut allow = asked("PreToolUse");
        allow.permission.as_mut().unwrap().decision = PermissionDecision::Allow;
        let plain = reply_for(&allow, AgentKind::Codex, "PreToolUse");
        assert_eq!(
            plain.reply,
            Reply::default(),
            "no opinion rather than a refused allow"
        );
        assert_eq!(plain.losses.len(), 1);

        allow.updated_input = Some(json!({"command": "ls"}));
        let rewritten = stdout(&reply_for(&allow, AgentKind::Codex, "PreToolUse"));
        assert_eq!(
            rewritten["hookSpecificOutput"],
            json!({"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls"}})
        );
        // Gemini and Cursor and Copilot carry the new input their way.
        assert_eq!(
            stdout(&reply_for(&allow, AgentKind::Gemini, "BeforeTool"))["hookSpecificOutput"]["tool_input"],
            json!({"command": "ls"})
        );
        assert_eq!(
            stdout(&reply_for(&allow, AgentKind::Cursor, "preToolUse"))["updated_input"],
            json!({"command": "ls"})
        );
        assert_eq!(
            stdout(&reply_for(&allow, AgentKind::Copilot, "preToolUse"))["modifiedArgs"],
            json!({"command": "ls"})
        );
    }

    #[test]
    fn a_block_is_told_as_each_agent_blocks_that_event() {
        let block = |event: &str| Outcome {
            block: Some(MergedBlock {
                reasons: vec!["tests fail".into()],
                only_exit_code_2: false,
            }),
            ..outcome(event)
        };
        let stop = block("Stop");
        assert_eq!(
            stdout(&reply_for(&stop, AgentKind::Codex, "Stop")),
            json!({"decision": "block", "reason": "tests fail"})
        );
        assert_eq!(
            stdout(&reply_for(&stop, AgentKind::Gemini, "AfterAgent")),
            json!({"decision": "deny", "reason": "tests fail"})
        );
        assert_eq!(
            stdout(&reply_for(&stop, AgentKind::Cursor, "stop")),
            json!({"followup_message": "tests fail"})
        );
        assert_eq!(
            stdout(&reply_for(&stop, AgentKind::Copilot, "agentStop")),
            json!({"decision": "block", "reason": "tests fail"})
        );
        let prompt = block("UserPromptSubmit");
        assert_eq!(
            stdout(&reply_for(&prompt, AgentKind::Cursor, "beforeSubmitPrompt")),
            json!({"continue": false, "user_message": "tests fail"})
        );
        let lost = reply_for(&prompt, AgentKind::Copilot, "userPromptSubmitted");
        assert_eq!(lost.reply, Reply::default());
        assert_eq!(lost.losses.len(), 1, "{lost:?}");
    }

    #[test]
    fn a_stop_on_a_tool_event_is_a_deny_where_the_agent_cannot_stop_there() {
        let stop = Outcome {
            stopped: true,
            stop_reason: Some("quota reached".into()),
            ..outcome("PreToolUse")
        };
        let codex = reply_for(&stop, AgentKind::Codex, "PreToolUse");
        let out = stdout(&codex);
        assert!(out.get("continue").is_none(), "{out}");
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            out["hookSpecificOutput"]["permissionDecisionReason"],
            "quota reached"
        );
        assert_eq!(codex.losses.len(), 1);
        assert_eq!(
            stdout(&reply_for(&stop, AgentKind::Gemini, "BeforeTool")),
            json!({"continue": false, "stopReason": "quota reached"})
        );
    }

    #[test]
    fn every_agent_answers_side_by_side_and_one_without_the_event_says_so() {
        let answers = every_agent(&denied("PreToolUse", &["no"]));
        let agents: Vec<(&str, Option<&str>, i32)> = answers
            .iter()
            .map(|a| (a.agent.as_str(), a.event.as_deref(), a.exit_code))
            .collect();
        assert_eq!(
            agents,
            [
                ("claude", Some("PreToolUse"), 2),
                ("codex", Some("PreToolUse"), 2),
                ("gemini", Some("BeforeTool"), 0),
                ("cursor", Some("preToolUse"), 0),
                ("copilot", Some("preToolUse"), 0),
            ]
        );
        assert_eq!(answers[2].label, "Gemini CLI");
        let failure = every_agent(&outcome("PostToolUseFailure"));
        assert_eq!(failure[2].event, None);
        assert_eq!(
            failure[2].losses,
            ["Gemini CLI has no PostToolUseFailure event: it never asks for this answer"]
        );
        assert_eq!(failure[3].event.as_deref(), Some("postToolUseFailure"));
    }

    #[test]
    fn other_agents_payloads_are_told_in_claude_codes_shape() {
        let spec = events::lookup("PreToolUse").unwrap();
        let gemini = claude_payload(
            AgentKind::Gemini,
            spec,
            json!({"session_id": "s", "hook_event_name": "BeforeTool",
                "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        );
        assert_eq!(gemini["hook_event_name"], "PreToolUse");
        assert_eq!(gemini["tool_name"], "Bash");
        assert_eq!(gemini["hookd_agent_tool_name"], "run_shell_command");
        assert_eq!(gemini["tool_input"], json!({"command": "ls"}));
        assert_eq!(gemini["hookd_agent"], "gemini");

        let copilot = claude_payload(
            AgentKind::Copilot,
            spec,
            json!({"sessionId": "c1", "toolName": "bash",
                "toolArgs": "{\"command\":\"rm -rf /\"}"}),
        );
        assert_eq!(copilot["session_id"], "c1");
        assert_eq!(copilot["tool_input"], json!({"command": "rm -rf /"}));
        assert_eq!(
            copilot["toolArgs"], "{\"command\":\"rm -rf /\"}",
            "kept as sent"
        );

        let cursor = claude_payload(
            AgentKind::Cursor,
            spec,
            json!({"conversation_id": "k", "tool_name": "Shell", "tool_input": {"command": "ls"}}),
        );
        assert_eq!(
            (cursor["session_id"].as_str(), cursor["tool_name"].as_str()),
            (Some("k"), Some("Bash"))
        );
        let own = json!({"session_id": "s", "tool_name": "Bash"});
        assert_eq!(claude_payload(AgentKind::Claude, spec, own.clone()), own);
    }
}
