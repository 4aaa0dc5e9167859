//! What hook runs mean: each run's [`HookEffect`] (from its exit code, stdout
//! and stderr, per the event's [`EventSpec`]), the merge of all runs of one
//! event into an [`Outcome`], and the one [`Reply`] that stands in for all of
//! them towards the agent.
//!
//! Kept apart from the process code and free of I/O so every rule of the
//! contract is unit-tested with plain values. The rules themselves are listed
//! in the `executor` module's documentation.

use std::time::Duration;

use hookd_proto::Reply;
use serde_json::{Map, Value};

use super::HookInvocation;
use super::output::{
    self, Behavior, HookOutput, OutputWarning, PermissionDecision, PermissionRequestDecision,
    Stdout, TopLevelDecision,
};
use super::process::Termination;
use crate::settings::events::{EventSpec, ExitTwo};

/// Most characters of any text the agent will see (reason, context, system
/// message), as Claude Code caps hook output strings.
pub const TEXT_CAP_CHARS: usize = 10_000;

/// Appended to text cut at [`TEXT_CAP_CHARS`].
const CUT_MARKER: &str = "\n[… truncated by hookd]";

/// Most characters of a command quoted in an error note.
const LABEL_CHARS: usize = 60;

/// Caps text at [`TEXT_CAP_CHARS`] characters, marking the cut.
pub fn cap_text(text: &str) -> String {
    if text.chars().count() <= TEXT_CAP_CHARS {
        return text.to_owned();
    }
    let keep = TEXT_CAP_CHARS - CUT_MARKER.chars().count();
    let mut capped: String = text.chars().take(keep).collect();
    capped.push_str(CUT_MARKER);
    capped
}

/// How a hook run ended, as the assessment needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The process exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// hookd killed it after this timeout.
    TimedOut(Duration),
    /// It could not be started or waited for: the message.
    NotStarted(String),
}

impl From<Termination> for RunEnd {
    fn from(t: Termination) -> Self {
        match t {
            Termination::Exited(code) => Self::Exited(code),
            Termination::Signaled(signal) => Self::Signaled(signal),
            Termination::TimedOut(after) => Self::TimedOut(after),
        }
    }
}

/// A non-blocking problem with one run: the action proceeds, the user is told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// Exit code other than 0 and 2.
    #[error("exited with code {code}{}", first_line.as_ref().map(|l| format!(": {l}")).unwrap_or_default())]
    Exit {
        /// The exit code.
        code: i32,
        /// First non-empty line of stderr.
        first_line: Option<String>,
    },
    /// Killed by a signal hookd did not send.
    #[error("was killed by signal {0}")]
    Signal(i32),
    /// Killed by hookd at its timeout.
    #[error("timed out after {}, no decision", humantime::format_duration(*.0))]
    TimedOut(Duration),
    /// Could not be started.
    #[error("could not be run: {0}")]
    NotStarted(String),
    /// All or part of its JSON output was ignored.
    #[error("{0}")]
    Json(String),
}

/// How a decision came about, which decides how the reply can render it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// Exit code 2, reason from stderr.
    ExitCode2,
    /// JSON output.
    Json,
}

/// A run's verdict on the action.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// No decision: the action goes ahead as if the hook had not run.
    None,
    /// PreToolUse permission decision; exit code 2 is a deny.
    Permission {
        /// allow, ask, defer or deny.
        decision: PermissionDecision,
        /// `permissionDecisionReason`, the legacy top-level `reason`, or exit-2 stderr.
        reason: Option<String>,
        /// JSON or exit code 2.
        via: Via,
    },
    /// PermissionRequest decision.
    PermissionRequest(Box<PermissionRequestDecision>),
    /// A block on any event but PreToolUse, whose meaning is the event's:
    /// the action is refused (UserPromptSubmit: prompt erased), the agent
    /// keeps working (Stop, SubagentStop) or the reason goes to the model
    /// (PostToolUse).
    Block {
        /// Why (capped); may be empty for a JSON block without `reason`.
        reason: String,
        /// Exit code 2 or JSON.
        via: Via,
    },
}

/// What one run means for the agent.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEffect {
    /// Its verdict on the action.
    pub verdict: Verdict,
    /// `continue: false`: stop the agent altogether.
    pub stops_agent: bool,
    /// `stopReason` that came with `continue: false` (capped).
    pub stop_reason: Option<String>,
    /// Text for the model: `additionalContext`, or plain stdout on events where it is context (capped).
    pub context: Option<String>,
    /// Text for the user: `systemMessage`, or exit-2 stderr on events where it is shown to the user (capped).
    pub system_message: Option<String>,
    /// `suppressOutput: true`.
    pub suppress_output: bool,
    /// PreToolUse `updatedInput`.
    pub updated_input: Option<Value>,
    /// PostToolUse `updatedToolOutput`.
    pub updated_tool_output: Option<Value>,
    /// A non-blocking problem to report.
    pub error: Option<RunError>,
}

impl HookEffect {
    /// No effect at all.
    pub fn none() -> Self {
        Self {
            verdict: Verdict::None,
            stops_agent: false,
            stop_reason: None,
            context: None,
            system_message: None,
            suppress_output: false,
            updated_input: None,
            updated_tool_output: None,
            error: None,
        }
    }

    /// Short label for records: `stop`, `deny`, `allow`, `ask`, `defer`, `block`, or `None`.
    pub fn decision(&self) -> Option<&'static str> {
        if self.stops_agent {
            return Some("stop");
        }
        match &self.verdict {
            Verdict::None => None,
            Verdict::Permission { decision, .. } => Some(decision.as_str()),
            Verdict::PermissionRequest(d) => Some(d.behavior.as_str()),
            Verdict::Block { .. } => Some("block"),
        }
    }
}

/// One run's assessment: its effect plus the parsed output and JSON problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// What the run means for the agent.
    pub effect: HookEffect,
    /// Parsed JSON output (exit 0, stdout starting with `{`, valid).
    pub output: Option<HookOutput>,
    /// Why all or part of the JSON output is ignored.
    pub json_error: Option<String>,
}

fn is_pre_tool_use(event: &EventSpec) -> bool {
    event.name == "PreToolUse"
}

fn is_permission_request(event: &EventSpec) -> bool {
    event.name == "PermissionRequest"
}

fn short_label(command: &str) -> String {
    let first = command.lines().next().unwrap_or_default().trim();
    if first.chars().count() > LABEL_CHARS || command.trim().contains('\n') {
        let cut: String = first.chars().take(LABEL_CHARS).collect();
        format!("{cut}…")
    } else {
        first.to_owned()
    }
}

/// Assesses one run of a hook for `event` from how it ended and its output.
pub fn assess(
    event: &EventSpec,
    end: &RunEnd,
    stdout: &str,
    stderr: &str,
    command: &str,
) -> Assessment {
    let mut effect = HookEffect::none();
    let mut output = None;
    let mut warnings: Vec<String> = Vec::new();
    match end {
        RunEnd::Exited(0) => match output::classify(stdout) {
            Stdout::Empty => {}
            Stdout::Plain(text) => {
                if event.stdout_is_context {
                    effect.context = Some(cap_text(text));
                }
                if let Some(line) = output::stray_json_line(text) {
                    warnings.push(OutputWarning::TextBeforeJson { line }.to_string());
                }
            }
            Stdout::Json(text) => match output::parse(text, event.name) {
                Err(e) => warnings.push(e.to_string()),
                Ok(parsed) => {
                    warnings.extend(parsed.warnings.iter().map(ToString::to_string));
                    apply_output(event, &parsed.output, &mut effect, &mut warnings);
                    output = Some(parsed.output);
                }
            },
        },
        RunEnd::Exited(2) => {
            let json = matches!(output::classify(stdout), Stdout::Json(_));
            if json {
                warnings.push(OutputWarning::JsonWithExitTwo.to_string());
            }
            let text = stderr.trim();
            match event.exit_two {
                ExitTwo::Blocks | ExitTwo::KeepsGoing | ExitTwo::FeedsModel => {
                    let reason = if text.is_empty() {
                        json_reason(stdout).unwrap_or_else(|| {
                            format!(
                                "hook `{}` exited with code 2 (no stderr output)",
                                short_label(command)
                            )
                        })
                    } else {
                        text.to_owned()
                    };
                    let reason = cap_text(&reason);
                    effect.verdict = if is_pre_tool_use(event) {
                        Verdict::Permission {
                            decision: PermissionDecision::Deny,
                            reason: Some(reason),
                            via: Via::ExitCode2,
                        }
                    } else {
                        Verdict::Block {
                            reason,
                            via: Via::ExitCode2,
                        }
                    };
                }
                ExitTwo::ShowsUser => {
                    effect.system_message = (!text.is_empty()).then(|| cap_text(text));
                }
                ExitTwo::Ignored => {}
            }
        }
        RunEnd::Exited(code) => {
            effect.error = Some(RunError::Exit {
                code: *code,
                first_line: stderr
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .map(cap_text),
            });
        }
        RunEnd::Signaled(signal) => effect.error = Some(RunError::Signal(*signal)),
        RunEnd::TimedOut(after) => effect.error = Some(RunError::TimedOut(*after)),
        RunEnd::NotStarted(message) => effect.error = Some(RunError::NotStarted(message.clone())),
    }
    let json_error = (!warnings.is_empty()).then(|| warnings.join("; "));
    if let Some(message) = &json_error {
        effect
            .error
            .get_or_insert_with(|| RunError::Json(message.clone()));
    }
    Assessment {
        effect,
        output,
        json_error,
    }
}

/// A failed run of a hook that must not fail open: one with `onFailure:
/// "block"` ([`HookInvocation::fail_closed`]) that could not start, timed
/// out, was killed or exited with a code other than 0 and 2, and any
/// timed-out hook of an event whose timeout blocks (PreModelSwitch). Such a
/// run counts as exit code 2 with the failure as its reason, with the
/// event's meaning of exit 2; its error is kept for the record. Any other
/// run is returned as assessed.
pub fn fail_closed(
    event: &EventSpec,
    end: &RunEnd,
    invocation: &HookInvocation,
    assessed: Assessment,
) -> Assessment {
    let failed = match end {
        RunEnd::Exited(0 | 2) => false,
        RunEnd::TimedOut(_) => invocation.fail_closed || event.timeout_blocks,
        RunEnd::Exited(_) | RunEnd::Signaled(_) | RunEnd::NotStarted(_) => invocation.fail_closed,
    };
    let Some(error) = assessed.effect.error.clone().filter(|_| failed) else {
        return assessed;
    };
    let why = if invocation.fail_closed {
        "it has onFailure: \"block\""
    } else {
        "a timed-out hook of this event blocks"
    };
    let reason = format!(
        "hook `{}` {error}; blocked because {why}",
        short_label(&invocation.command)
    );
    let mut blocked = assess(event, &RunEnd::Exited(2), "", &reason, &invocation.command);
    blocked.effect.error = Some(error);
    blocked
}

/// The reason a JSON stdout carried, used for exit 2 when stderr is empty so
/// the model is not told "blocked" without a why.
fn json_reason(stdout: &str) -> Option<String> {
    let value: Value = serde_json::from_str(stdout.trim()).ok()?;
    let pick = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    pick(value.get("reason")).or_else(|| {
        pick(
            value
                .get("hookSpecificOutput")
                .and_then(|s| s.get("permissionDecisionReason")),
        )
    })
}

/// Turns a valid JSON output into the run's effect, noting ignored fields.
fn apply_output(
    event: &EventSpec,
    out: &HookOutput,
    effect: &mut HookEffect,
    warnings: &mut Vec<String>,
) {
    let not_honoured = |field: &str| {
        OutputWarning::NotHonoured {
            field: field.to_owned(),
            event: event.name.to_owned(),
        }
        .to_string()
    };
    if out.continue_ == Some(false) {
        effect.stops_agent = true;
        effect.stop_reason = out.stop_reason.as_deref().map(cap_text);
    } else if out.stop_reason.is_some() {
        warnings.push(not_honoured("stopReason (without \"continue\": false)"));
    }
    effect.system_message = out.system_message.as_deref().map(cap_text);
    effect.suppress_output = out.suppress_output == Some(true);

    let reason = out.reason.as_deref().map(cap_text);
    match out.decision {
        None => {}
        Some(legacy) if is_pre_tool_use(event) => {
            // Deprecated top-level approve/block: approve → allow, block → deny.
            effect.verdict = Verdict::Permission {
                decision: match legacy {
                    TopLevelDecision::Approve => PermissionDecision::Allow,
                    TopLevelDecision::Block => PermissionDecision::Deny,
                },
                reason,
                via: Via::Json,
            };
        }
        Some(TopLevelDecision::Block) if event.decision_block => {
            effect.verdict = Verdict::Block {
                reason: reason.unwrap_or_default(),
                via: Via::Json,
            };
        }
        Some(other) => warnings.push(not_honoured(&format!("decision \"{}\"", other.as_str()))),
    }

    let Some(spec) = &out.hook_specific else {
        return;
    };
    if let Some(decision) = spec.permission_decision {
        if is_pre_tool_use(event) {
            // hookSpecificOutput wins over the deprecated top-level field.
            effect.verdict = Verdict::Permission {
                decision,
                reason: spec.permission_decision_reason.as_deref().map(cap_text),
                via: Via::Json,
            };
        } else {
            warnings.push(not_honoured("hookSpecificOutput.permissionDecision"));
        }
    }
    if let Some(input) = &spec.updated_input {
        if is_pre_tool_use(event) {
            effect.updated_input = Some(input.clone());
        } else {
            warnings.push(not_honoured("hookSpecificOutput.updatedInput"));
        }
    }
    if let Some(decision) = &spec.decision {
        if is_permission_request(event) {
            let mut decision = decision.clone();
            decision.message = decision.message.as_deref().map(cap_text);
            effect.verdict = Verdict::PermissionRequest(Box::new(decision));
        } else {
            warnings.push(not_honoured("hookSpecificOutput.decision"));
        }
    }
    if let Some(tool_output) = &spec.updated_tool_output {
        if event.name == "PostToolUse" {
            effect.updated_tool_output = Some(tool_output.clone());
        } else {
            warnings.push(not_honoured("hookSpecificOutput.updatedToolOutput"));
        }
    }
    // additionalContext is passed on for every event: where the agent does
    // not read it, it would not have read it from the hook directly either.
    effect.context = spec.additional_context.as_deref().map(cap_text);
}

/// PreToolUse permission merged across runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedPermission {
    /// The winning decision (deny > defer > ask > allow).
    pub decision: PermissionDecision,
    /// Non-empty reasons of the runs at the winning level, in finish order.
    pub reasons: Vec<String>,
    /// Every run at the winning level was an exit code 2 (so exit 2 can render it).
    pub only_exit_code_2: bool,
}

/// A block merged across runs (events other than PreToolUse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedBlock {
    /// Non-empty reasons, in finish order.
    pub reasons: Vec<String>,
    /// Every block was an exit code 2 (so exit 2 can render it).
    pub only_exit_code_2: bool,
}

/// The merged result of all runs of one event.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The event the hooks ran for.
    pub event: &'static EventSpec,
    /// Some run said `continue: false`: the agent stops. Dominates everything.
    pub stopped: bool,
    /// The first `stopReason` by finish order.
    pub stop_reason: Option<String>,
    /// PreToolUse permission decision (exit-2 blocks count as deny).
    pub permission: Option<MergedPermission>,
    /// PermissionRequest decision (deny > allow).
    pub permission_request: Option<PermissionRequestDecision>,
    /// Block of any other event (exit 2 on blocking events, JSON `decision: "block"`).
    pub block: Option<MergedBlock>,
    /// Context for the model, in finish order.
    pub contexts: Vec<String>,
    /// Messages for the user, in finish order.
    pub system_messages: Vec<String>,
    /// Some run asked to hide its output from the transcript.
    pub suppress_output: bool,
    /// PreToolUse `updatedInput` of the last run to finish that returned one.
    pub updated_input: Option<Value>,
    /// PostToolUse `updatedToolOutput` of the last run to finish that returned one.
    pub updated_tool_output: Option<Value>,
    /// Non-blocking problems, one note per run (`hook `cmd` exited with code 1: ...`).
    pub errors: Vec<String>,
}

impl Outcome {
    /// The outcome of no runs: nothing to say.
    pub fn empty(event: &'static EventSpec) -> Self {
        Self {
            event,
            stopped: false,
            stop_reason: None,
            permission: None,
            permission_request: None,
            block: None,
            contexts: Vec::new(),
            system_messages: Vec::new(),
            suppress_output: false,
            updated_input: None,
            updated_tool_output: None,
            errors: Vec::new(),
        }
    }

    /// Merges runs given in FINISH order as `(command, effect)` pairs.
    pub fn merge<'a>(
        event: &'static EventSpec,
        runs: impl IntoIterator<Item = (&'a str, &'a HookEffect)>,
    ) -> Self {
        let mut outcome = Self::empty(event);
        let mut permissions: Vec<(PermissionDecision, Option<String>, Via)> = Vec::new();
        let mut requests: Vec<&PermissionRequestDecision> = Vec::new();
        let mut blocks: Vec<(&str, Via)> = Vec::new();
        for (command, effect) in runs {
            if effect.stops_agent {
                outcome.stopped = true;
                if outcome.stop_reason.is_none() {
                    outcome.stop_reason.clone_from(&effect.stop_reason);
                }
            }
            match &effect.verdict {
                Verdict::None => {}
                Verdict::Permission {
                    decision,
                    reason,
                    via,
                } => permissions.push((*decision, reason.clone(), *via)),
                Verdict::Block { reason, via } => blocks.push((reason.as_str(), *via)),
                Verdict::PermissionRequest(d) => requests.push(d),
            }
            outcome.contexts.extend(effect.context.clone());
            outcome
                .system_messages
                .extend(effect.system_message.clone());
            outcome.suppress_output |= effect.suppress_output;
            if effect.updated_input.is_some() {
                outcome.updated_input.clone_from(&effect.updated_input);
            }
            if effect.updated_tool_output.is_some() {
                outcome
                    .updated_tool_output
                    .clone_from(&effect.updated_tool_output);
            }
            if let Some(error) = &effect.error {
                outcome
                    .errors
                    .push(format!("hook `{}` {error}", short_label(command)));
            }
        }
        outcome.permission = merge_permissions(&permissions);
        outcome.permission_request = merge_requests(&requests);
        if !blocks.is_empty() {
            outcome.block = Some(MergedBlock {
                reasons: blocks
                    .iter()
                    .filter(|(r, _)| !r.trim().is_empty())
                    .map(|(r, _)| (*r).to_owned())
                    .collect(),
                only_exit_code_2: blocks.iter().all(|(_, via)| *via == Via::ExitCode2),
            });
        }
        outcome
    }

    /// Short label for records and the CLI: `stop`, `deny`, `allow`, `ask`,
    /// `defer` (PreToolUse), `allow`/`deny` (PermissionRequest), `block`, or `None`.
    pub fn decision(&self) -> Option<&str> {
        if self.stopped {
            Some("stop")
        } else if let Some(p) = &self.permission {
            Some(p.decision.as_str())
        } else if let Some(r) = &self.permission_request {
            Some(r.behavior.as_str())
        } else if self.block.is_some() {
            Some("block")
        } else {
            None
        }
    }

    /// Exactly what the agent's hook process prints and exits with, standing
    /// in for all the runs (rules in the `executor` module documentation).
    pub fn reply(&self) -> Reply {
        let event = self.event;
        if self.stopped {
            let mut top = Map::new();
            top.insert("continue".into(), Value::Bool(false));
            if let Some(reason) = &self.stop_reason {
                top.insert("stopReason".into(), Value::String(reason.clone()));
            }
            self.add_user_fields(&mut top);
            return json_reply(top);
        }
        // Extras: what an exit-2 reply could not carry, forcing JSON.
        let has_extras = !self.contexts.is_empty()
            || !self.system_messages.is_empty()
            || self.updated_tool_output.is_some();

        if let Some(p) = &self.permission {
            if p.decision == PermissionDecision::Deny && p.only_exit_code_2 && !has_extras {
                return exit_two(&p.reasons);
            }
            let mut specific = self.specific();
            specific.insert(
                "permissionDecision".into(),
                Value::from(p.decision.as_str()),
            );
            if !p.reasons.is_empty() {
                specific.insert(
                    "permissionDecisionReason".into(),
                    Value::String(join_capped(&p.reasons)),
                );
            }
            if p.decision != PermissionDecision::Deny
                && let Some(input) = &self.updated_input
            {
                specific.insert("updatedInput".into(), input.clone());
            }
            self.add_context(&mut specific);
            let mut top = Map::new();
            self.add_user_fields(&mut top);
            top.insert("hookSpecificOutput".into(), Value::Object(specific));
            return json_reply(top);
        }

        if let Some(block) = &self.block {
            if !event.decision_block || (block.only_exit_code_2 && !has_extras) {
                return exit_two(&block.reasons);
            }
            let mut top = Map::new();
            top.insert("decision".into(), Value::from("block"));
            if !block.reasons.is_empty() {
                top.insert("reason".into(), Value::String(join_capped(&block.reasons)));
            }
            self.add_user_fields(&mut top);
            let mut specific = self.specific();
            self.add_context(&mut specific);
            self.add_tool_output(&mut specific);
            if specific.len() > 1 {
                top.insert("hookSpecificOutput".into(), Value::Object(specific));
            }
            return json_reply(top);
        }

        let mut specific = self.specific();
        if let Some(d) = &self.permission_request
            && let Ok(value) = serde_json::to_value(d)
        {
            specific.insert("decision".into(), value);
        }
        if is_pre_tool_use(event)
            && let Some(input) = &self.updated_input
        {
            specific.insert("updatedInput".into(), input.clone());
        }
        self.add_context(&mut specific);
        self.add_tool_output(&mut specific);
        // `suppressOutput` and error notes alone are not worth a JSON reply.
        if !self.system_messages.is_empty() || specific.len() > 1 {
            let mut top = Map::new();
            self.add_user_fields(&mut top);
            if specific.len() > 1 {
                top.insert("hookSpecificOutput".into(), Value::Object(specific));
            }
            return json_reply(top);
        }
        if !self.errors.is_empty() {
            // Nothing else to say: exit 1 is how Claude Code itself reports a
            // failing hook (first stderr line shown, the action proceeds).
            let line = format!("hookd: {}", self.errors.join("; ")).replace('\n', " ");
            return Reply {
                exit_code: 1,
                stdout: String::new(),
                stderr: cap_text(&line),
            };
        }
        Reply::default()
    }

    /// A `hookSpecificOutput` holding only the event name.
    fn specific(&self) -> Map<String, Value> {
        let mut specific = Map::new();
        specific.insert("hookEventName".into(), Value::from(self.event.name));
        specific
    }

    fn add_context(&self, specific: &mut Map<String, Value>) {
        if !self.contexts.is_empty() {
            specific.insert(
                "additionalContext".into(),
                Value::String(join_capped(&self.contexts)),
            );
        }
    }

    fn add_tool_output(&self, specific: &mut Map<String, Value>) {
        if let Some(out) = &self.updated_tool_output {
            specific.insert("updatedToolOutput".into(), out.clone());
        }
    }

    /// `systemMessage` (messages, then error notes) and `suppressOutput`.
    fn add_user_fields(&self, top: &mut Map<String, Value>) {
        let lines: Vec<String> = self
            .system_messages
            .iter()
            .chain(self.errors.iter())
            .cloned()
            .collect();
        if !lines.is_empty() {
            top.insert("systemMessage".into(), Value::String(join_capped(&lines)));
        }
        if self.suppress_output {
            top.insert("suppressOutput".into(), Value::Bool(true));
        }
    }
}

fn join_capped(parts: &[String]) -> String {
    cap_text(&parts.join("\n"))
}

fn exit_two(reasons: &[String]) -> Reply {
    Reply {
        exit_code: 2,
        stdout: String::new(),
        stderr: join_capped(reasons),
    }
}

fn json_reply(top: Map<String, Value>) -> Reply {
    Reply {
        exit_code: 0,
        stdout: Value::Object(top).to_string(),
        stderr: String::new(),
    }
}

fn merge_permissions(
    permissions: &[(PermissionDecision, Option<String>, Via)],
) -> Option<MergedPermission> {
    let best = permissions.iter().map(|(d, _, _)| *d).max()?;
    let winners: Vec<_> = permissions.iter().filter(|(d, _, _)| *d == best).collect();
    Some(MergedPermission {
        decision: best,
        reasons: winners
            .iter()
            .filter_map(|(_, r, _)| r.clone())
            .filter(|r| !r.trim().is_empty())
            .collect(),
        only_exit_code_2: winners.iter().all(|(_, _, via)| *via == Via::ExitCode2),
    })
}

/// deny > allow. A deny keeps the first denier's fields with every deny
/// message joined; an allow takes the last `updatedInput` to finish and all
/// `updatedPermissions` rules.
fn merge_requests(requests: &[&PermissionRequestDecision]) -> Option<PermissionRequestDecision> {
    let best = requests.iter().map(|d| d.behavior).max()?;
    let winners: Vec<&PermissionRequestDecision> = requests
        .iter()
        .copied()
        .filter(|d| d.behavior == best)
        .collect();
    let mut merged = (*winners.first()?).clone();
    let messages: Vec<String> = winners.iter().filter_map(|d| d.message.clone()).collect();
    merged.message = (!messages.is_empty()).then(|| join_capped(&messages));
    if best == Behavior::Allow {
        merged.updated_input = winners.iter().rev().find_map(|d| d.updated_input.clone());
        let mut rules = Vec::new();
        let mut any = false;
        for d in &winners {
            if let Some(Value::Array(items)) = &d.updated_permissions {
                any = true;
                rules.extend(items.iter().cloned());
            }
        }
        merged.updated_permissions = any.then_some(Value::Array(rules));
    }
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::events::lookup;
    use serde_json::json;

    fn ev(name: &str) -> &'static EventSpec {
        lookup(name).unwrap()
    }

    fn run(event: &str, code: i32, stdout: &str, stderr: &str) -> Assessment {
        assess(ev(event), &RunEnd::Exited(code), stdout, stderr, "hook.sh")
    }

    fn merged(event: &str, effects: &[HookEffect]) -> Outcome {
        Outcome::merge(ev(event), effects.iter().map(|e| ("hook.sh", e)))
    }

    fn stdout_json(reply: &Reply) -> Value {
        assert_eq!(reply.exit_code, 0, "{reply:?}");
        serde_json::from_str(&reply.stdout).unwrap()
    }

    fn permission(decision: PermissionDecision, reason: &str) -> HookEffect {
        HookEffect {
            verdict: Verdict::Permission {
                decision,
                reason: Some(reason.into()),
                via: Via::Json,
            },
            ..HookEffect::none()
        }
    }

    #[test]
    fn cap_text_counts_characters_and_marks_the_cut() {
        assert_eq!(cap_text("short"), "short");
        let long = "é".repeat(TEXT_CAP_CHARS + 5);
        let capped = cap_text(&long);
        assert_eq!(capped.chars().count(), TEXT_CAP_CHARS);
        assert!(capped.ends_with("truncated by hookd]"));
    }

    #[test]
    fn exit_zero_plain_stdout_is_context_only_where_the_event_says() {
        let a = run("UserPromptSubmit", 0, "  remember X\n", "");
        assert_eq!(a.effect.context.as_deref(), Some("remember X"));
        let a = run("PreToolUse", 0, "debug chatter", "");
        assert_eq!(a.effect, HookEffect::none());
        assert_eq!(a.json_error, None);
    }

    #[test]
    fn text_before_json_is_flagged() {
        let a = run("PreToolUse", 0, "profile loaded\n{\"continue\": false}", "");
        assert!(!a.effect.stops_agent);
        assert!(a.json_error.unwrap().contains("line 2"));
        assert!(matches!(a.effect.error, Some(RunError::Json(_))));
    }

    #[test]
    fn invalid_json_is_no_decision_and_a_non_blocking_note() {
        let a = run("PreToolUse", 0, "{\"hookSpecificOutput\": ", "");
        assert_eq!(a.effect.verdict, Verdict::None);
        assert_eq!(a.output, None);
        assert!(a.json_error.unwrap().contains("not valid JSON"));
        let outcome = merged("PreToolUse", &[a.effect]);
        let reply = outcome.reply();
        assert_eq!(reply.exit_code, 1);
        assert!(
            reply
                .stderr
                .starts_with("hookd: hook `hook.sh` stdout starts with")
        );
    }

    #[test]
    fn exit_two_follows_the_event() {
        let a = run("PreToolUse", 2, "", "no rm -rf\n");
        assert_eq!(
            a.effect.verdict,
            Verdict::Permission {
                decision: PermissionDecision::Deny,
                reason: Some("no rm -rf".into()),
                via: Via::ExitCode2
            }
        );
        assert_eq!(a.effect.decision(), Some("deny"));
        let a = run("UserPromptSubmit", 2, "", "secret in prompt");
        assert_eq!(
            a.effect.verdict,
            Verdict::Block {
                reason: "secret in prompt".into(),
                via: Via::ExitCode2
            }
        );
        assert_eq!(a.effect.decision(), Some("block"));
        let a = run("SessionStart", 2, "", "heads up");
        assert_eq!(a.effect.verdict, Verdict::None);
        assert_eq!(a.effect.system_message.as_deref(), Some("heads up"));
        let a = run("PermissionRequest", 2, "", "ignored");
        assert_eq!(a.effect, HookEffect::none());
        let a = run("Stop", 2, "", "");
        let Verdict::Block { reason, .. } = &a.effect.verdict else {
            panic!()
        };
        assert!(reason.contains("no stderr output"), "{reason}");
    }

    #[test]
    fn exit_two_ignores_stdout_json_but_says_so() {
        let a = run(
            "PreToolUse",
            2,
            r#"{"continue": false, "reason": "from json"}"#,
            "from stderr",
        );
        assert!(!a.effect.stops_agent);
        assert_eq!(
            a.effect.verdict,
            Verdict::Permission {
                decision: PermissionDecision::Deny,
                reason: Some("from stderr".into()),
                via: Via::ExitCode2
            }
        );
        assert!(a.json_error.unwrap().contains("exited with code 2"));
        // With empty stderr the JSON reason stands in.
        let a = run("Stop", 2, r#"{"reason": "from json"}"#, "");
        assert!(
            matches!(&a.effect.verdict, Verdict::Block { reason, .. } if reason == "from json")
        );
    }

    #[test]
    fn other_exit_codes_are_errors_with_the_first_stderr_line() {
        let a = run(
            "PreToolUse",
            1,
            "{\"continue\": false}",
            "\n  boom \nmore\n",
        );
        assert!(!a.effect.stops_agent);
        assert_eq!(
            a.effect.error,
            Some(RunError::Exit {
                code: 1,
                first_line: Some("boom".into())
            })
        );
    }

    #[test]
    fn legacy_decisions_map_on_pre_tool_use_only() {
        let a = run(
            "PreToolUse",
            0,
            r#"{"decision": "approve", "reason": "ok"}"#,
            "",
        );
        assert_eq!(
            a.effect.verdict,
            permission(PermissionDecision::Allow, "ok").verdict
        );
        let a = run(
            "PreToolUse",
            0,
            r#"{"decision": "block", "reason": "no"}"#,
            "",
        );
        assert_eq!(
            a.effect.verdict,
            permission(PermissionDecision::Deny, "no").verdict
        );
        let a = run(
            "SessionStart",
            0,
            r#"{"decision": "block", "reason": "no"}"#,
            "",
        );
        assert_eq!(a.effect.verdict, Verdict::None);
        assert!(
            a.json_error
                .unwrap()
                .contains("`decision \"block\"` ignored: it has no effect on SessionStart")
        );
    }

    #[test]
    fn hook_specific_output_beats_the_legacy_decision() {
        let a = run(
            "PreToolUse",
            0,
            r#"{"decision": "approve", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}"#,
            "",
        );
        assert!(matches!(
            a.effect.verdict,
            Verdict::Permission {
                decision: PermissionDecision::Ask,
                ..
            }
        ));
    }

    #[test]
    fn permission_precedence_is_deny_defer_ask_allow() {
        use PermissionDecision::*;
        let effects = [
            permission(Allow, "a"),
            permission(Ask, "b"),
            permission(Defer, "c"),
            permission(Ask, "d"),
        ];
        let o = merged("PreToolUse", &effects);
        assert_eq!(o.decision(), Some("defer"));
        let o = merged("PreToolUse", &effects[..2]);
        assert_eq!(o.decision(), Some("ask"));
        let mut all = effects.to_vec();
        all.push(permission(Deny, "e"));
        all.push(permission(Deny, "f"));
        let o = merged("PreToolUse", &all);
        assert_eq!(o.decision(), Some("deny"));
        let reply = stdout_json(&o.reply());
        assert_eq!(
            reply,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "e\nf"}})
        );
    }

    #[test]
    fn updated_input_last_to_finish_wins_and_is_dropped_on_deny() {
        let mut first = permission(PermissionDecision::Allow, "");
        first.updated_input = Some(json!({"command": "first"}));
        let mut second = permission(PermissionDecision::Allow, "");
        second.updated_input = Some(json!({"command": "second"}));
        let o = merged(
            "PreToolUse",
            &[first.clone(), second.clone(), HookEffect::none()],
        );
        assert_eq!(o.updated_input, Some(json!({"command": "second"})));
        let reply = stdout_json(&o.reply());
        assert_eq!(
            reply["hookSpecificOutput"]["updatedInput"],
            json!({"command": "second"})
        );
        assert!(
            reply["hookSpecificOutput"]
                .get("permissionDecisionReason")
                .is_none()
        );
        let o = merged("PreToolUse", &[second, first]);
        assert_eq!(o.updated_input, Some(json!({"command": "first"})));
        let mut deny = permission(PermissionDecision::Deny, "x");
        deny.updated_input = Some(json!({"command": "third"}));
        let reply = stdout_json(&merged("PreToolUse", &[deny]).reply());
        assert!(reply["hookSpecificOutput"].get("updatedInput").is_none());
    }

    #[test]
    fn exit_two_deny_alone_replies_exit_two_but_json_when_anything_else_is_said() {
        let block = run("PreToolUse", 2, "", "dangerous").effect;
        let o = merged("PreToolUse", std::slice::from_ref(&block));
        assert_eq!(
            o.reply(),
            Reply {
                exit_code: 2,
                stdout: String::new(),
                stderr: "dangerous".into()
            }
        );
        // An error note alone does not force JSON.
        let failing = run("PreToolUse", 1, "", "oops").effect;
        assert_eq!(
            merged("PreToolUse", &[block.clone(), failing])
                .reply()
                .exit_code,
            2
        );
        // A JSON deny competes: render JSON with both reasons.
        let json_deny = permission(PermissionDecision::Deny, "policy");
        let reply = stdout_json(&merged("PreToolUse", &[block.clone(), json_deny]).reply());
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecisionReason"],
            "dangerous\npolicy"
        );
        // A system message needs JSON too.
        let mut message = HookEffect::none();
        message.system_message = Some("note".into());
        let reply = stdout_json(&merged("PreToolUse", &[block, message]).reply());
        assert_eq!(reply["systemMessage"], "note");
        assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
    }

    #[test]
    fn continue_false_dominates_and_the_first_stop_reason_wins() {
        let mut stop1 = HookEffect::none();
        stop1.stops_agent = true;
        let mut stop2 = HookEffect::none();
        stop2.stops_agent = true;
        stop2.stop_reason = Some("second".into());
        let mut stop3 = stop2.clone();
        stop3.stop_reason = Some("third".into());
        let deny = permission(PermissionDecision::Deny, "x");
        let o = merged("PreToolUse", &[deny, stop1, stop2, stop3]);
        assert_eq!(o.decision(), Some("stop"));
        assert_eq!(
            stdout_json(&o.reply()),
            json!({"continue": false, "stopReason": "second"})
        );
    }

    #[test]
    fn blocks_join_reasons_and_pick_exit_two_or_json() {
        let a = run("Stop", 2, "", "keep going: tests fail").effect;
        let b = run("Stop", 2, "", "and lint").effect;
        let o = merged("Stop", &[a.clone(), b]);
        assert_eq!(o.decision(), Some("block"));
        let reply = o.reply();
        assert_eq!(reply.exit_code, 2);
        assert_eq!(reply.stderr, "keep going: tests fail\nand lint");
        let json_block = run("Stop", 0, r#"{"decision": "block", "reason": "more"}"#, "").effect;
        let reply = stdout_json(&merged("Stop", &[a, json_block]).reply());
        assert_eq!(
            reply,
            json!({"decision": "block", "reason": "keep going: tests fail\nmore"})
        );
        // Events with no JSON block form always use exit 2.
        let t = run("TaskCreated", 2, "", "no").effect;
        let mut ctx = HookEffect::none();
        ctx.system_message = Some("hello".into());
        assert_eq!(merged("TaskCreated", &[t, ctx]).reply().exit_code, 2);
    }

    #[test]
    fn post_tool_use_feeds_the_model_and_carries_updated_output() {
        let fed = run("PostToolUse", 2, "", "lint failed").effect;
        assert_eq!(
            merged("PostToolUse", std::slice::from_ref(&fed))
                .reply()
                .exit_code,
            2
        );
        let update = run(
            "PostToolUse",
            0,
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "clean", "additionalContext": "ctx"}}"#,
            "",
        )
        .effect;
        let reply = stdout_json(&merged("PostToolUse", &[fed, update]).reply());
        assert_eq!(
            reply,
            json!({"decision": "block", "reason": "lint failed",
                "hookSpecificOutput": {"hookEventName": "PostToolUse",
                    "additionalContext": "ctx", "updatedToolOutput": "clean"}})
        );
    }

    #[test]
    fn contexts_and_messages_concatenate_in_finish_order() {
        let a = run("SessionStart", 0, "plain context", "").effect;
        let b = run(
            "SessionStart",
            0,
            r#"{"systemMessage": "m1", "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "json context"}}"#,
            "",
        )
        .effect;
        let c = run("SessionStart", 2, "", "shown to user").effect;
        let reply = stdout_json(&merged("SessionStart", &[a, b, c]).reply());
        assert_eq!(
            reply,
            json!({"systemMessage": "m1\nshown to user",
                "hookSpecificOutput": {"hookEventName": "SessionStart",
                    "additionalContext": "plain context\njson context"}})
        );
    }

    #[test]
    fn joined_text_is_capped_again() {
        let big = "x".repeat(TEXT_CAP_CHARS);
        let a = run("UserPromptSubmit", 0, &big, "").effect;
        let b = run("UserPromptSubmit", 0, &big, "").effect;
        let reply = stdout_json(&merged("UserPromptSubmit", &[a, b]).reply());
        let ctx = reply["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert_eq!(ctx.chars().count(), TEXT_CAP_CHARS);
    }

    #[test]
    fn nothing_said_is_an_empty_exit_zero() {
        assert_eq!(Outcome::empty(ev("PreToolUse")).reply(), Reply::default());
        let quiet = run("PreToolUse", 0, "", "").effect;
        let debug = run("PreToolUse", 0, "just logging", "stderr is debug too").effect;
        let suppress = run("PreToolUse", 0, r#"{"suppressOutput": true}"#, "").effect;
        let o = merged("PreToolUse", &[quiet, debug, suppress]);
        assert_eq!(o.reply(), Reply::default());
        assert_eq!(o.decision(), None);
    }

    #[test]
    fn errors_join_the_system_message_when_json_is_rendered() {
        let timed_out = assess(
            ev("UserPromptSubmit"),
            &RunEnd::TimedOut(Duration::from_secs(30)),
            "",
            "",
            "slow.sh",
        )
        .effect;
        let ctx = run("UserPromptSubmit", 0, "ctx", "").effect;
        let o = Outcome::merge(
            ev("UserPromptSubmit"),
            [("slow.sh", &timed_out), ("fast.sh", &ctx)],
        );
        let reply = stdout_json(&o.reply());
        assert_eq!(
            reply["systemMessage"],
            "hook `slow.sh` timed out after 30s, no decision"
        );
        assert_eq!(reply["hookSpecificOutput"]["additionalContext"], "ctx");
    }

    #[test]
    fn permission_request_deny_beats_allow() {
        let allow = run(
            "PermissionRequest",
            0,
            r#"{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedPermissions": [{"a": 1}]}}}"#,
            "",
        )
        .effect;
        let deny = run(
            "PermissionRequest",
            0,
            r#"{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no"}}}"#,
            "",
        )
        .effect;
        let o = merged("PermissionRequest", &[allow.clone(), deny]);
        assert_eq!(o.decision(), Some("deny"));
        assert_eq!(
            stdout_json(&o.reply()),
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "no"}}})
        );
        let o = merged("PermissionRequest", &[allow.clone(), allow]);
        assert_eq!(
            stdout_json(&o.reply())["hookSpecificOutput"]["decision"],
            json!({"behavior": "allow", "updatedPermissions": [{"a": 1}, {"a": 1}]})
        );
    }

    #[test]
    fn fields_for_other_events_are_noted_not_applied() {
        let a = run(
            "PostToolUse",
            0,
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny", "updatedInput": {}}}"#,
            "",
        );
        assert_eq!(a.effect.verdict, Verdict::None);
        assert_eq!(a.effect.updated_input, None);
        let note = a.json_error.unwrap();
        assert!(note.contains("permissionDecision"), "{note}");
        assert!(note.contains("updatedInput"), "{note}");
    }
}
