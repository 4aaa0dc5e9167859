//! The six settings files of a project as the editor shows them: where
//! each is, whether it exists, its version token, its validation problems
//! with their JSON paths, its groups whose matcher is no valid pattern (the
//! agent loads the file and never matches them: flagged, not refused), the
//! hooks it disabled through hookd, and its `hooks` tree structured per
//! event → matcher group → handler, each handler with whether it really
//! runs for the project and why not (so the editor never says "runs" for a
//! guard the agent never hands an event to).
//!
//! Every group and handler carries its raw JSON: the window edits only a
//! group's `matcher` and a command handler's `command` and `timeout`, and
//! sends the rest back as it got it, so keys and handler types the editor
//! does not know survive every save (they are listed so the window can show
//! them read-only). A tree whose *shape* is wrong (a group that is not an
//! object, say) cannot be edited in a form: the file is then marked not
//! editable and its problems say where to fix it.

use hookd_core::settings::events;
use hookd_core::settings::runs::file_verdicts;
use hookd_core::settings::validate::HANDLER_TYPES;
use hookd_core::settings::{
    DisabledStore, RunVerdict, SettingsDocument, SettingsError, SettingsLocation, bad_matchers,
};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::{EDITABLE, FileRef, display, location, settings_error};
use crate::error::Result;
use crate::state::AppState;
use hookd_core::settings::version_token;

/// One settings file, structured for the editor.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct HookFile {
    /// Which file.
    pub file: FileRef,
    /// Its path.
    pub path: String,
    /// It exists (a missing file is shown empty and created by a save).
    pub exists: bool,
    /// hookd never writes it.
    pub read_only: bool,
    /// Token of the bytes shown; saves and toggles refuse when it is stale.
    pub version: String,
    /// The file is not JSON at all: nothing can be shown or edited.
    pub parse_error: Option<String>,
    /// What the core's validator objects to, with JSON paths; a save must fix them.
    pub problems: Vec<Problem>,
    /// Groups whose matcher is not a valid pattern: the agent loads the
    /// file and never matches them. They do not block a save (the file stays
    /// editable); a save only refuses to add a new one.
    pub bad_matchers: Vec<BadMatcher>,
    /// The `hooks` tree has a shape a form can edit.
    pub editable: bool,
    /// The hooks, per event in file order.
    pub events: Vec<EventHooks>,
    /// Top-level keys other than `hooks` (kept as they are by every save).
    pub other_keys: Vec<String>,
    /// Hooks of this file disabled through hookd (kept in its store).
    pub disabled: Vec<DisabledEntry>,
}

/// A validation problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct Problem {
    /// Where, e.g. `hooks.PreToolUse[1].matcher`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// A group whose matcher is not a valid pattern (the core's
/// [`hookd_core::settings::BadMatcher`]), e.g. `Bash(*docker*)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BadMatcher {
    /// Where, e.g. `hooks.PreToolUse[0].matcher`.
    pub path: String,
    /// The matcher as written.
    pub text: String,
    /// Why it is not a pattern, with the position the regex compiler names.
    pub why: String,
}

/// The groups of one event.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct EventHooks {
    /// The event's key under `hooks`.
    pub event: String,
    /// The key is an event of the catalogue.
    pub known: bool,
    /// Its one-line description (empty when unknown).
    pub description: String,
    /// Its matcher groups, in order.
    pub groups: Vec<HookGroup>,
}

/// One matcher group.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct HookGroup {
    /// Its `matcher` (`None`: absent).
    pub matcher: Option<String>,
    /// The group's JSON as in the file.
    pub raw: serde_json::Value,
    /// Keys other than `matcher` and `hooks` (kept as they are).
    pub extra_keys: Vec<String>,
    /// Its handlers, in order.
    pub handlers: Vec<HookHandler>,
}

/// One handler.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct HookHandler {
    /// The handler's JSON as in the file.
    pub raw: serde_json::Value,
    /// Its `type` (empty when missing).
    pub handler_type: String,
    /// The command of a command handler.
    pub command: Option<String>,
    /// Its `timeout` in seconds.
    pub timeout: Option<f64>,
    /// A command handler: its command and timeout can be edited. Other
    /// types (and unknown ones) are shown read-only and kept verbatim.
    pub editable: bool,
    /// The type is one the agent knows.
    pub known_type: bool,
    /// Keys the editor does not edit (`async`, `statusMessage`, ...), kept as they are.
    pub extra_keys: Vec<String>,
    /// Whether it really runs for the project and every reason it does not
    /// (the core's `settings::runs`); `null` when the file could not be
    /// judged (its shape is wrong).
    pub runs: Option<RunVerdict>,
}

/// A hook disabled through hookd: out of the file, kept in hookd's store.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct DisabledEntry {
    /// Its event.
    pub event: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// Its command (command handlers).
    pub command: Option<String>,
    /// The handler, verbatim.
    pub handler: serde_json::Value,
    /// When it was disabled (RFC 3339).
    pub disabled_at: String,
}

/// The six files of `project` (agent global, project, local; then managed),
/// each structured. One unreadable file does not hide the others: its
/// problem is in its `parse_error`.
pub fn hook_files(state: &AppState, project: &str) -> Result<Vec<HookFile>> {
    EDITABLE
        .iter()
        .map(|(kind, scope)| {
            hook_file(
                state,
                &FileRef {
                    project: Some(project.to_owned()),
                    kind: *kind,
                    scope: *scope,
                },
            )
        })
        .collect()
}

/// One file, structured (see [`HookFile`]).
pub fn hook_file(state: &AppState, file: &FileRef) -> Result<HookFile> {
    let location = location(state, file)?;
    let disabled = disabled_for(state, &location)?;
    let mut out = HookFile {
        file: file.clone(),
        path: display(&location.path),
        exists: location.path.exists(),
        read_only: location.read_only,
        version: "absent".to_owned(),
        parse_error: None,
        problems: Vec::new(),
        bad_matchers: Vec::new(),
        editable: false,
        events: Vec::new(),
        other_keys: Vec::new(),
        disabled,
    };
    let doc = match SettingsDocument::load(&location) {
        Ok(doc) => doc,
        Err(SettingsError::Parse { message, .. }) => {
            out.version = version_token(std::fs::read(&location.path).ok().as_deref());
            out.parse_error = Some(format!("not valid JSON: {message}"));
            return Ok(out);
        }
        Err(err) => return Err(settings_error(err)),
    };
    out.version = doc.version();
    out.exists = doc.existed();
    out.problems = doc
        .errors()
        .into_iter()
        .map(|e| Problem {
            path: e.path,
            message: e.message,
        })
        .collect();
    out.bad_matchers = bad_matchers(doc.value())
        .into_iter()
        .map(|b| BadMatcher {
            path: b.path,
            text: b.text,
            why: b.why,
        })
        .collect();
    if let Value::Object(root) = doc.value() {
        out.other_keys = root.keys().filter(|k| *k != "hooks").cloned().collect();
    }
    match structure(doc.value().get("hooks")) {
        Some(events) => {
            out.editable = !location.read_only;
            out.events = events;
        }
        None => out.editable = false,
    }
    judge(state, file, &location, &mut out.events)?;
    Ok(out)
}

/// Puts on each handler of `events` its verdict for the file's project, as
/// the project's whole view judges it (the hooks are matched by event,
/// group and handler index, which the view keeps as in the file).
fn judge(
    state: &AppState,
    file: &FileRef,
    location: &SettingsLocation,
    events: &mut [EventHooks],
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let project = file
        .project
        .as_deref()
        .map(super::project_dir)
        .transpose()?;
    let judged = file_verdicts(
        state.roots()?,
        file.kind,
        project.as_deref(),
        &location.path,
    )
    .map_err(settings_error)?;
    // Disabled hooks are out of the file (in hookd's store): their indices
    // are not the file's.
    for (hook, verdict) in judged.into_iter().filter(|(hook, _)| hook.enabled) {
        let handler = events
            .iter_mut()
            .find(|e| e.event == hook.event.name())
            .and_then(|e| e.groups.get_mut(hook.group_index))
            .and_then(|g| g.handlers.get_mut(hook.handler_index));
        if let Some(handler) = handler {
            handler.runs = Some(verdict);
        }
    }
    Ok(())
}

/// The hooks of `location` that hookd's store holds as disabled.
fn disabled_for(state: &AppState, location: &SettingsLocation) -> Result<Vec<DisabledEntry>> {
    let store = DisabledStore::for_roots(state.roots()?);
    let hooks = store.for_location(location).map_err(settings_error)?;
    Ok(hooks
        .into_iter()
        .map(|d| DisabledEntry {
            command: d.command().map(str::to_owned),
            event: d.event,
            matcher: d.matcher,
            handler: d.handler,
            disabled_at: d.disabled_at.to_rfc3339(),
        })
        .collect())
}

/// The `hooks` tree as events → groups → handlers; `None` when its shape
/// cannot be represented (the validator says where).
fn structure(hooks: Option<&Value>) -> Option<Vec<EventHooks>> {
    let Some(hooks) = hooks else {
        return Some(Vec::new());
    };
    let hooks = hooks.as_object()?;
    hooks
        .iter()
        .map(|(event, groups)| {
            let spec = events::EVENTS.iter().find(|e| e.name == event);
            let groups = groups
                .as_array()?
                .iter()
                .map(group)
                .collect::<Option<Vec<_>>>()?;
            Some(EventHooks {
                event: event.clone(),
                known: spec.is_some(),
                description: events::description(event).to_owned(),
                groups,
            })
        })
        .collect()
}

fn group(value: &Value) -> Option<HookGroup> {
    let object = value.as_object()?;
    let matcher = match object.get("matcher") {
        None => None,
        Some(Value::String(text)) => Some(text.clone()),
        // A non-string matcher cannot be shown in a text field.
        Some(_) => return None,
    };
    let handlers = match object.get("hooks") {
        None => Vec::new(),
        Some(Value::Array(handlers)) => handlers.iter().map(handler).collect::<Option<_>>()?,
        Some(_) => return None,
    };
    Some(HookGroup {
        matcher,
        raw: value.clone(),
        extra_keys: object
            .keys()
            .filter(|k| *k != "matcher" && *k != "hooks")
            .cloned()
            .collect(),
        handlers,
    })
}

fn handler(value: &Value) -> Option<HookHandler> {
    let object = value.as_object()?;
    let handler_type = object
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let editable = handler_type == "command"
        && object.get("command").is_none_or(Value::is_string)
        && object.get("timeout").is_none_or(Value::is_number);
    Some(HookHandler {
        raw: value.clone(),
        command: object
            .get("command")
            .and_then(Value::as_str)
            .filter(|_| handler_type == "command")
            .map(str::to_owned),
        timeout: object.get("timeout").and_then(Value::as_f64),
        editable,
        known_type: HANDLER_TYPES.contains(&handler_type.as_str()),
        extra_keys: object
            .keys()
            .filter(|k| !matches!(k.as_str(), "type" | "command" | "timeout"))
            .cloned()
            .collect(),
        handler_type,
        runs: None,
    })
}
