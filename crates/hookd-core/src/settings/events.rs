//! The catalogue of agent hook events and what each one means for hooks:
//! which payload field its matcher is tested against, what exit code 2 does,
//! whether plain stdout becomes context, and the default timeout.
//!
//! One table, so the validator, the matcher, the executor and the CLI agree.
//! Facts from Claude Code's hooks reference (summarised in
//! `docs/hooks-contract.md`);
//! where the reference says nothing (e.g. a matcher for `ConfigChange`), the
//! event is treated conservatively: matcher ignored, exit 2 non-blocking.

use std::time::Duration;

/// What a matcher of an event is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchField {
    /// The event has no matcher support: a matcher is ignored and every group runs.
    None,
    /// A top-level payload field (`tool_name`, `source`, `trigger`, ...).
    Payload(&'static str),
}

/// What exit code 2 from a hook means for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitTwo {
    /// The action is blocked; stderr (or the JSON reason) says why.
    Blocks,
    /// The agent keeps working instead of stopping (Stop, SubagentStop, TeammateIdle).
    KeepsGoing,
    /// The action already happened; stderr is shown to the model.
    FeedsModel,
    /// Stderr is shown to the user only.
    ShowsUser,
    /// Exit 2 has no effect.
    Ignored,
}

/// Whether `hookd connect` makes the agent send an event to `hookd-emit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connected {
    /// Never: hookd neither records nor answers it.
    No,
    /// In both modes: recorded, and relayed to managed hooks when managed.
    Always,
    /// Only in managed mode, where hookd's managed hooks may answer it.
    Managed,
}

/// Everything hookd knows about one hook event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSpec {
    /// The agent's name for the event (`PreToolUse`).
    pub name: &'static str,
    /// What the matcher is tested against.
    pub matcher: MatchField,
    /// What exit code 2 means.
    pub exit_two: ExitTwo,
    /// Plain (non-JSON) stdout on exit 0 becomes context for the model.
    pub stdout_is_context: bool,
    /// Top-level `decision: "block"` is honoured.
    pub decision_block: bool,
    /// Default per-hook timeout in seconds.
    pub default_timeout_secs: u64,
    /// A hook that times out blocks the action instead of giving no
    /// decision (PreModelSwitch: a timed-out hook blocks the switch).
    pub timeout_blocks: bool,
    /// Whether `hookd connect` installs a `hookd-emit` handler for it.
    pub connected: Connected,
    /// When it fires, in one line (pickers, help text).
    pub description: &'static str,
}

impl EventSpec {
    /// The default timeout as a duration.
    pub fn default_timeout(&self) -> Duration {
        Duration::from_secs(self.default_timeout_secs)
    }

    /// True for events that concern one tool call.
    pub fn is_tool_event(&self) -> bool {
        self.matcher == MatchField::Payload("tool_name")
    }
}

/// Default timeout of command hooks (Claude Code moved from 60 s to 600 s in 2026).
pub const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// Default timeout for UserPromptSubmit hooks (and the model-switch events).
pub const PROMPT_TIMEOUT_SECS: u64 = 30;

const fn spec(
    name: &'static str,
    matcher: MatchField,
    exit_two: ExitTwo,
    stdout_is_context: bool,
    decision_block: bool,
) -> EventSpec {
    EventSpec {
        name,
        matcher,
        exit_two,
        stdout_is_context,
        decision_block,
        default_timeout_secs: DEFAULT_TIMEOUT_SECS,
        timeout_blocks: false,
        connected: Connected::No,
        description: "",
    }
}

/// `spec` with its one-line description.
const fn about(description: &'static str, spec: EventSpec) -> EventSpec {
    EventSpec {
        description,
        ..spec
    }
}

/// `spec` with `hookd connect` installing a handler for it.
const fn connected(spec: EventSpec, connected: Connected) -> EventSpec {
    EventSpec { connected, ..spec }
}

const TOOL: MatchField = MatchField::Payload("tool_name");
const NONE: MatchField = MatchField::None;

/// Every documented event.
pub const EVENTS: &[EventSpec] = &[
    about(
        "Before a tool runs; exit 2 or a deny decision blocks the call",
        connected(
            spec("PreToolUse", TOOL, ExitTwo::Blocks, false, false),
            Connected::Always,
        ),
    ),
    about(
        "When the agent is about to ask for permission to use a tool",
        connected(
            spec("PermissionRequest", TOOL, ExitTwo::Ignored, false, false),
            Connected::Managed,
        ),
    ),
    about(
        "After a tool call was denied permission",
        spec("PermissionDenied", TOOL, ExitTwo::ShowsUser, false, false),
    ),
    about(
        "After a tool call succeeded; sees the tool's input and response",
        connected(
            spec("PostToolUse", TOOL, ExitTwo::FeedsModel, false, true),
            Connected::Always,
        ),
    ),
    about(
        "After a tool call failed; sees the error",
        connected(
            spec("PostToolUseFailure", TOOL, ExitTwo::FeedsModel, false, true),
            Connected::Always,
        ),
    ),
    about(
        "After a batch of parallel tool calls finished",
        spec("PostToolBatch", NONE, ExitTwo::Blocks, false, true),
    ),
    about(
        "When a session starts, resumes, is cleared or compacted",
        connected(
            spec(
                "SessionStart",
                MatchField::Payload("source"),
                ExitTwo::ShowsUser,
                true,
                false,
            ),
            Connected::Always,
        ),
    ),
    about(
        "Once when the agent sets up a new project or session",
        spec(
            "Setup",
            MatchField::Payload("trigger"),
            ExitTwo::Ignored,
            false,
            false,
        ),
    ),
    about(
        "When a session ends (clear, logout, exit, ...)",
        connected(
            spec(
                "SessionEnd",
                MatchField::Payload("reason"),
                ExitTwo::ShowsUser,
                false,
                false,
            ),
            Connected::Always,
        ),
    ),
    about(
        "When the user submits a prompt, before the model sees it",
        EventSpec {
            default_timeout_secs: PROMPT_TIMEOUT_SECS,
            connected: Connected::Always,
            ..spec("UserPromptSubmit", NONE, ExitTwo::Blocks, true, true)
        },
    ),
    about(
        "When a typed slash command or MCP prompt is expanded; exit 2 blocks it",
        spec(
            "UserPromptExpansion",
            MatchField::Payload("command_name"),
            ExitTwo::Blocks,
            true,
            true,
        ),
    ),
    about(
        "When the agent finishes its turn; exit 2 keeps it working",
        connected(
            spec("Stop", NONE, ExitTwo::KeepsGoing, false, true),
            Connected::Always,
        ),
    ),
    about(
        "When a turn ends because of an error",
        spec(
            "StopFailure",
            MatchField::Payload("error"),
            ExitTwo::Ignored,
            false,
            false,
        ),
    ),
    about(
        "When a subagent (Task) starts",
        connected(
            spec(
                "SubagentStart",
                MatchField::Payload("agent_type"),
                ExitTwo::ShowsUser,
                false,
                false,
            ),
            Connected::Always,
        ),
    ),
    about(
        "When a subagent finishes; exit 2 keeps it working",
        connected(
            spec(
                "SubagentStop",
                MatchField::Payload("agent_type"),
                ExitTwo::KeepsGoing,
                false,
                true,
            ),
            Connected::Always,
        ),
    ),
    about(
        "When a task is created in the agent's task list",
        spec("TaskCreated", NONE, ExitTwo::Blocks, false, false),
    ),
    about(
        "When a task is marked completed",
        spec("TaskCompleted", NONE, ExitTwo::Blocks, false, false),
    ),
    about(
        "When a teammate agent goes idle",
        spec("TeammateIdle", NONE, ExitTwo::KeepsGoing, false, false),
    ),
    about(
        "When the agent sends a notification (permission prompt, idle, ...)",
        connected(
            spec(
                "Notification",
                MatchField::Payload("notification_type"),
                ExitTwo::Ignored,
                false,
                false,
            ),
            Connected::Always,
        ),
    ),
    about(
        "When a message is displayed to the user",
        spec("MessageDisplay", NONE, ExitTwo::ShowsUser, false, false),
    ),
    about(
        "Before the conversation is compacted (manual or auto)",
        connected(
            spec(
                "PreCompact",
                MatchField::Payload("trigger"),
                ExitTwo::Blocks,
                false,
                true,
            ),
            Connected::Always,
        ),
    ),
    about(
        "After the conversation was compacted",
        connected(
            spec(
                "PostCompact",
                MatchField::Payload("trigger"),
                ExitTwo::ShowsUser,
                false,
                false,
            ),
            Connected::Managed,
        ),
    ),
    about(
        "When instruction files (CLAUDE.md, rules) are loaded",
        spec(
            "InstructionsLoaded",
            MatchField::Payload("load_reason"),
            ExitTwo::Ignored,
            false,
            false,
        ),
    ),
    about(
        "When a settings file changes during a session",
        spec(
            "ConfigChange",
            MatchField::Payload("source"),
            ExitTwo::Blocks,
            false,
            true,
        ),
    ),
    about(
        "When the working directory changes",
        spec("CwdChanged", NONE, ExitTwo::ShowsUser, false, false),
    ),
    about(
        "When a directory is added to the session",
        spec(
            "DirectoryAdded",
            MatchField::Payload("source"),
            ExitTwo::ShowsUser,
            false,
            false,
        ),
    ),
    about(
        "When a watched file changes on disk",
        spec(
            "FileChanged",
            MatchField::Payload("filename"),
            ExitTwo::ShowsUser,
            false,
            false,
        ),
    ),
    about(
        "When a git worktree is created for the session",
        spec("WorktreeCreate", NONE, ExitTwo::ShowsUser, false, false),
    ),
    about(
        "When a git worktree is removed",
        spec("WorktreeRemove", NONE, ExitTwo::ShowsUser, false, false),
    ),
    about(
        "When an MCP server asks the user for input",
        spec(
            "Elicitation",
            MatchField::Payload("mcp_server_name"),
            ExitTwo::Blocks,
            false,
            false,
        ),
    ),
    about(
        "After the user answered an MCP server's request for input",
        spec(
            "ElicitationResult",
            MatchField::Payload("mcp_server_name"),
            ExitTwo::Blocks,
            false,
            false,
        ),
    ),
    about(
        "Before a model switch the user asked for; exit 2, a deny or a timeout blocks it",
        EventSpec {
            default_timeout_secs: PROMPT_TIMEOUT_SECS,
            timeout_blocks: true,
            ..spec(
                "PreModelSwitch",
                MatchField::Payload("to_model"),
                ExitTwo::Blocks,
                false,
                true,
            )
        },
    ),
    about(
        "After the model was switched (also automatically); stdout is context",
        EventSpec {
            default_timeout_secs: PROMPT_TIMEOUT_SECS,
            ..spec(
                "PostModelSwitch",
                MatchField::Payload("to_model"),
                ExitTwo::Ignored,
                true,
                false,
            )
        },
    ),
];

/// The spec of an event by its agent name (`PreToolUse`) or any spelling
/// hookd normalises to the same snake case (`pre_tool_use`).
pub fn lookup(name: &str) -> Option<&'static EventSpec> {
    if let Some(found) = EVENTS.iter().find(|e| e.name == name) {
        return Some(found);
    }
    let wanted = crate::names::normalize_hook_type(name);
    EVENTS
        .iter()
        .find(|e| crate::names::normalize_hook_type(e.name) == wanted)
}

/// The value a matcher of `event` is tested against in `payload`, if any.
pub fn match_target<'a>(event: &EventSpec, payload: &'a serde_json::Value) -> Option<&'a str> {
    match event.matcher {
        MatchField::None => None,
        MatchField::Payload(field) => payload.get(field).and_then(serde_json::Value::as_str),
    }
}

/// One line saying when an event fires, for pickers and help text. Every
/// event of [`EVENTS`] has one; an unknown name gets an empty string.
pub fn description(name: &str) -> &'static str {
    lookup(name).map_or("", |event| event.description)
}

/// The values a matcher of `event` is usually tested against, to show which
/// of them a matcher matches: the known tool names for tool events, the
/// documented `source`, `reason`, `trigger` and `notification_type` values,
/// the built-in agent types. Empty when the values are open-ended
/// (`FileChanged`) or the event takes no matcher.
pub fn known_targets(event: &EventSpec) -> &'static [&'static str] {
    match (event.name, event.matcher) {
        (_, MatchField::None) => &[],
        (_, MatchField::Payload("tool_name")) => &crate::names::KNOWN_TOOLS,
        ("ConfigChange", _) => &[
            "user_settings",
            "project_settings",
            "local_settings",
            "policy_settings",
            "skills",
        ],
        ("DirectoryAdded", _) => &["slash_command", "register_repo_root"],
        ("Setup", _) => &["init", "maintenance"],
        (_, MatchField::Payload("source")) => &["startup", "resume", "clear", "compact", "fork"],
        (_, MatchField::Payload("reason")) => {
            &["clear", "resume", "logout", "prompt_input_exit", "other"]
        }
        (_, MatchField::Payload("trigger")) => &["manual", "auto"],
        (_, MatchField::Payload("load_reason")) => &[
            "session_start",
            "nested_traversal",
            "path_glob_match",
            "include",
            "compact",
        ],
        (_, MatchField::Payload("error")) => &[
            "rate_limit",
            "overloaded",
            "authentication_failed",
            "oauth_org_not_allowed",
            "account_on_hold",
            "billing_error",
            "invalid_request",
            "model_not_found",
            "server_error",
            "max_output_tokens",
            "cloud_credential_error",
            "unknown",
        ],
        (_, MatchField::Payload("notification_type")) => &[
            "permission_prompt",
            "idle_prompt",
            "auth_success",
            "elicitation_dialog",
            "elicitation_url_dialog",
            "elicitation_complete",
            "elicitation_response",
            "agent_needs_input",
            "agent_completed",
        ],
        (_, MatchField::Payload("agent_type")) => &["general-purpose", "Explore", "Plan"],
        (_, MatchField::Payload(_)) => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_accepts_agent_and_snake_case_names() {
        assert_eq!(lookup("PreToolUse").map(|e| e.name), Some("PreToolUse"));
        assert_eq!(lookup("pre_tool_use").map(|e| e.name), Some("PreToolUse"));
        assert_eq!(
            lookup("post_tool_use_failure").map(|e| e.name),
            Some("PostToolUseFailure")
        );
        assert_eq!(lookup("NoSuchEvent"), None);
    }

    #[test]
    fn names_are_unique_and_prompts_time_out_sooner() {
        for (i, a) in EVENTS.iter().enumerate() {
            assert!(
                EVENTS[i + 1..].iter().all(|b| b.name != a.name),
                "{} twice",
                a.name
            );
        }
        assert_eq!(lookup("UserPromptSubmit").unwrap().default_timeout_secs, 30);
        assert_eq!(lookup("Stop").unwrap().default_timeout_secs, 600);
    }

    #[test]
    fn match_targets_follow_the_event() {
        let payload =
            serde_json::json!({"tool_name": "Bash", "source": "resume", "trigger": "auto"});
        assert_eq!(
            match_target(lookup("PreToolUse").unwrap(), &payload),
            Some("Bash")
        );
        assert_eq!(
            match_target(lookup("SessionStart").unwrap(), &payload),
            Some("resume")
        );
        assert_eq!(
            match_target(lookup("PreCompact").unwrap(), &payload),
            Some("auto")
        );
        assert_eq!(match_target(lookup("Stop").unwrap(), &payload), None);
    }

    #[test]
    fn every_event_has_a_one_line_description() {
        for event in EVENTS {
            let text = description(event.name);
            assert!(!text.is_empty(), "{} has no description", event.name);
            assert!(!text.contains('\n') && !text.ends_with('.'), "{text:?}");
        }
        assert_eq!(description("NoSuchEvent"), "");
    }

    #[test]
    fn known_targets_follow_the_match_field() {
        let targets = |name| known_targets(lookup(name).unwrap());
        assert!(targets("PreToolUse").contains(&"Bash"));
        assert_eq!(targets("PostToolUse"), targets("PreToolUse"));
        assert!(targets("SessionStart").contains(&"resume"));
        assert_eq!(targets("PreCompact"), ["manual", "auto"]);
        assert!(targets("Stop").is_empty());
        assert!(targets("FileChanged").is_empty());
        assert_eq!(targets("Setup"), ["init", "maintenance"]);
        assert!(targets("ConfigChange").contains(&"policy_settings"));
        assert!(targets("StopFailure").contains(&"rate_limit"));
    }

    #[test]
    fn the_catalogue_has_the_agents_33_events_with_the_model_switch_pair() {
        assert_eq!(EVENTS.len(), 33);
        let pre = lookup("PreModelSwitch").unwrap();
        assert_eq!(pre.matcher, MatchField::Payload("to_model"));
        assert_eq!(
            (pre.exit_two, pre.default_timeout_secs),
            (ExitTwo::Blocks, 30)
        );
        assert!(pre.timeout_blocks);
        let post = lookup("post_model_switch").unwrap();
        assert!(post.stdout_is_context && !post.timeout_blocks);
        assert!(EVENTS.iter().filter(|e| e.timeout_blocks).count() == 1);
    }
}
