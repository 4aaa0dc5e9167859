//! Adding a hook to another coding agent's hooks file, changing one in
//! place, and removing one.
//!
//! [`mod@super::agent_files`] lists the hooks files of Codex CLI, Gemini
//! CLI, Cursor and GitHub Copilot as they are. The two edits people make
//! there most are adding a hook and removing one, and each agent has rules
//! of its own for both (`docs/agent-hooks.md` §1.2, §2.2, §3.2, §4.2): its
//! own event names ([`agent_schema::events`]), matcher groups (Codex CLI,
//! Gemini CLI) or flat entries with the matcher beside the command
//! (Cursor, Copilot), matchers only on some events, and timeouts in
//! seconds, Copilot's `timeoutSec` or Gemini CLI's milliseconds. An
//! [`AgentEdit`] is one such edit in the agent's own terms; [`preview`]
//! renders what it would write, [`apply`] writes it only if the file is
//! still what the preview read, both with the locked, surgical write of
//! [`super::connect`], so every byte outside the hook added or removed
//! stays as it was (Gemini CLI's comments included). The `[hooks]` of Codex
//! CLI's `config.toml` are edited by the same rules and the same locked
//! write, as TOML ([`super::codex_toml`]).
//!
//! An edit is refused, the file untouched, when the agent would not read
//! the result (a command left empty, an event it does not have, a matcher
//! where it takes none), and a removal names the hook it removes (its JSON
//! path and command, as the list showed them): a file that changed so that
//! another hook stands there is refused rather than losing the wrong hook.
//! A change ([`AgentEdit::Change`]) names its hook the same way and sets its
//! command, matcher, timeout (and Gemini CLI's name) where it stands,
//! keeping the entry's other keys and its place (Codex CLI keys its trust
//! by place); a matcher its group shares with other hooks is refused
//! rather than changed for them too. A move ([`AgentEdit::Move`]) swaps a
//! hook with its neighbour in its event (the handler beside it in its
//! group, its group when it is alone in it, a flat entry with the next),
//! named and checked the same way; only the two entries swapped are
//! rewritten.
//! hookd's own recording entries are `hookd disconnect --agent`'s to
//! remove. Only a file [`agent_files::agent_hook_files`] lists for the
//! project can be edited ([`file_location`]): a window cannot make hookd
//! write any other path.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::agent_files;
use super::agent_schema;
use super::codex_toml::{self, CodexTomlError};
use super::connect::{self, ChangeReport, EditPreview, ShapeError, TextEdit};
use super::connector;
use super::convert;
use super::error::SettingsError;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::{codex, flat};
use crate::AgentKind;

/// A hook to add to an agent's file, in that agent's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NewAgentHook {
    /// The event, as the agent spells it ([`agent_schema::events`]).
    pub event: String,
    /// The matcher; only on the agent's [`matcher_events`] (`null` or
    /// empty: none, which matches everything).
    pub matcher: Option<String>,
    /// The shell command it runs (Copilot's `bash`).
    pub command: String,
    /// The timeout in the agent's unit ([`timeout_unit`]): seconds, Gemini
    /// CLI's milliseconds; `null`: the agent's default.
    pub timeout: Option<u64>,
    /// Gemini CLI's handler `name` (its `hooks.disabled` list names hooks
    /// by it); other agents take none.
    pub name: Option<String>,
}

/// One edit of an agent's hooks file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AgentEdit {
    /// Adds a hook: a new matcher group after the event's groups (Codex
    /// CLI, Gemini CLI), a new entry after the event's entries (Cursor,
    /// Copilot).
    Add {
        /// The hook.
        hook: NewAgentHook,
    },
    /// Changes one hook where it stands: its command, matcher, timeout
    /// and (Gemini CLI) name become `hook`'s; its event stays (`hook.event`
    /// must be it) and so do its other keys.
    Change {
        /// Where it is ([`agent_files::AgentHook::json_path`]).
        json_path: String,
        /// The command it runs there, as listed (`null`: it has none);
        /// another hook at that place is not changed.
        command: Option<String>,
        /// What it becomes.
        hook: NewAgentHook,
    },
    /// Moves one hook a place up or down within its event: past the
    /// handler next to it in its group, else (alone in its group) its
    /// group past the next one (Codex CLI, Gemini CLI); a flat entry past
    /// the next entry (Cursor, Copilot). Only the two entries swapped are
    /// rewritten (in Codex CLI's `config.toml`, their tables).
    Move {
        /// Where it is ([`agent_files::AgentHook::json_path`]).
        json_path: String,
        /// The command it runs there, as listed (`null`: none).
        command: Option<String>,
        /// Up (towards the event's first hook), else down.
        up: bool,
    },
    /// Removes one hook (a handler, or a flat entry) and the group or
    /// event list only it was left in.
    Remove {
        /// Where it is ([`agent_files::AgentHook::json_path`]:
        /// `hooks.Stop[0].hooks[1]`, `hooks.stop[2]`).
        json_path: String,
        /// The command it runs there, as listed (`null`: it has none);
        /// another hook at that place is not removed.
        command: Option<String>,
    },
}

impl AgentEdit {
    /// The event the edit touches; `None` for a removal (its JSON path
    /// says).
    fn added_event(&self) -> Option<&str> {
        match self {
            Self::Add { hook } | Self::Change { hook, .. } => Some(&hook.event),
            Self::Remove { .. } | Self::Move { .. } => None,
        }
    }
}

/// Why a path given for an edit is not a hooks file hookd edits.
#[derive(Debug, thiserror::Error)]
pub enum AgentFileRefused {
    /// Not one of the files [`agent_files::agent_hook_files`] lists for the
    /// project.
    #[error("{path} is not a hooks file of another coding agent for this project")]
    NotListed {
        /// The path given.
        path: PathBuf,
    },
    /// Listed, but it cannot be read (or leads out of the project).
    #[error("{path} cannot be edited: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        reason: String,
    },
    /// An administrator's file ([`Scope::Policy`]: Codex CLI's system
    /// layer or `requirements.toml`, Gemini CLI's system settings, Cursor's
    /// enterprise file): listed and judged, never written.
    #[error(
        "{path} is the administrator's ({agent} reads it as a system or managed layer); hookd lists it but never writes it"
    )]
    ReadOnly {
        /// The file.
        path: PathBuf,
        /// The agent, for a person (`Codex CLI`).
        agent: &'static str,
    },
    /// The hooks file a Gemini CLI extension ships: the extension's,
    /// listed and judged, never written.
    #[error(
        "{path} belongs to the Gemini CLI extension {extension}; hookd lists it but never writes it (update or disable the extension instead)"
    )]
    Extension {
        /// The file.
        path: PathBuf,
        /// The extension's name.
        extension: String,
    },
    /// The agent's file location could not be worked out.
    #[error("cannot locate {path}")]
    Location {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: SettingsError,
    },
}

/// The agent and settings location of `path`, provided it is one of the
/// files [`agent_files::agent_hook_files`] lists for `project` and could be
/// read: the location has the agent's rules for its scope (a project's file
/// is confined to the project). Copilot keeps several files per scope, and
/// Codex CLI a `config.toml` beside its `hooks.json`; the location is the
/// scope's, with the file's own path.
pub fn file_location(
    roots: &SettingsRoots,
    project: Option<&Path>,
    path: &Path,
) -> Result<(AgentKind, SettingsLocation), AgentFileRefused> {
    let not_listed = || AgentFileRefused::NotListed {
        path: path.to_path_buf(),
    };
    let files = agent_files::agent_hook_files(roots, project);
    let file = files
        .iter()
        .find(|f| f.path == path)
        .ok_or_else(not_listed)?;
    if let Some(extension) = &file.extension {
        return Err(AgentFileRefused::Extension {
            path: path.to_path_buf(),
            extension: extension.clone(),
        });
    }
    if file.scope == Scope::Policy {
        return Err(AgentFileRefused::ReadOnly {
            path: path.to_path_buf(),
            agent: convert::label(file.agent),
        });
    }
    if let Some(error) = &file.error {
        return Err(AgentFileRefused::Unreadable {
            path: path.to_path_buf(),
            reason: error.to_string(),
        });
    }
    let connector = connector::of(file.agent).ok_or_else(not_listed)?;
    let mut location = connector
        .location(roots, file.scope, project)
        .map_err(|source| AgentFileRefused::Location {
            path: path.to_path_buf(),
            source,
        })?;
    // Copilot's files, and Codex CLI's config.toml beside its hooks.json,
    // are in the directory of the scope's file, under names of their own.
    if file.agent == AgentKind::Copilot || agent_files::is_codex_config(file.agent, &file.path) {
        if location.path.parent() != file.path.parent() {
            return Err(not_listed());
        }
        location.path = file.path.clone();
    } else if location.path != file.path {
        return Err(not_listed());
    }
    Ok((file.agent, location))
}

/// The events of `agent` whose hooks take a matcher (matched against the
/// tool, for Cursor's shell events the command): a hook of another event
/// gets none.
pub fn matcher_events(agent: AgentKind) -> &'static [&'static str] {
    match agent {
        AgentKind::Claude => &[],
        AgentKind::Codex => &["PreToolUse", "PermissionRequest", "PostToolUse"],
        AgentKind::Gemini => &["BeforeTool", "AfterTool"],
        AgentKind::Cursor => &[
            "preToolUse",
            "postToolUse",
            "postToolUseFailure",
            "beforeShellExecution",
            "afterShellExecution",
            "beforeReadFile",
            "afterFileEdit",
        ],
        AgentKind::Copilot => &[
            "preToolUse",
            "postToolUse",
            "permissionRequest",
            "PreToolUse",
            "PermissionRequest",
        ],
    }
}

/// The unit of `agent`'s timeouts: `milliseconds` for Gemini CLI, else
/// `seconds`.
pub fn timeout_unit(agent: AgentKind) -> &'static str {
    match agent {
        AgentKind::Gemini => "milliseconds",
        _ => "seconds",
    }
}

/// The key a new hook's timeout goes under: Copilot's `timeoutSec`, else
/// `timeout`.
pub fn timeout_key(agent: AgentKind) -> &'static str {
    match agent {
        AgentKind::Copilot => "timeoutSec",
        _ => "timeout",
    }
}

/// What [`apply`] would write to `agent`'s file at `location`: the file
/// before and after; nothing is written.
pub fn preview(
    location: &SettingsLocation,
    agent: AgentKind,
    edit: &AgentEdit,
) -> connect::Result<EditPreview> {
    if agent_files::is_codex_config(agent, &location.path) {
        return connect::preview_text_at(location, |text| edit_toml(&location.path, text, edit));
    }
    connect::preview_add_at(location, |file| edit_value(agent, file, edit))
}

/// Makes `edit` to `agent`'s file at `location`, provided it is still what
/// the preview of `version` ([`EditPreview::version`]) read: compared
/// under the file's lock, else [`connect::AgentConnectError::Changed`] and
/// nothing is written.
pub fn apply(
    location: &SettingsLocation,
    agent: AgentKind,
    edit: &AgentEdit,
    version: &str,
) -> connect::Result<ChangeReport> {
    if agent_files::is_codex_config(agent, &location.path) {
        return connect::edit_text_if(location, version, |text| {
            edit_toml(&location.path, text, edit)
        });
    }
    connect::add_if(location, version, |file| edit_value(agent, file, edit))
}

/// `edit` made to the text of Codex CLI's `config.toml` at `path`
/// ([`codex_toml::edit`]): refused when the file is gone, is no TOML, or
/// the edit is refused.
fn edit_toml(path: &Path, text: Option<&[u8]>, edit: &AgentEdit) -> connect::Result<TextEdit> {
    let Some(bytes) = text else {
        return Err(connect::AgentConnectError::Read {
            path: path.to_path_buf(),
            source: std::io::ErrorKind::NotFound.into(),
        });
    };
    let text = std::str::from_utf8(bytes).map_err(|e| connect::AgentConnectError::ParseToml {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let (events, after) = codex_toml::edit(text, edit).map_err(|err| match err {
        CodexTomlError::Parse(message) => connect::AgentConnectError::ParseToml {
            path: path.to_path_buf(),
            message,
        },
        CodexTomlError::Shape(shape) => connect::AgentConnectError::Shape {
            path: path.to_path_buf(),
            shape,
        },
    })?;
    Ok(TextEdit {
        events,
        after: after.into_bytes(),
    })
}

/// What the user must know once `edit` is in `agent`'s file at `location`:
/// the agent's trust before it runs a new hook (Codex CLI's `/hooks`, a
/// trusted folder; a project's `.codex/hooks.json` or `.codex/config.toml`
/// only in a trusted project), and that Codex CLI keys its trust by
/// position.
pub fn notes(agent: AgentKind, location: &SettingsLocation, edit: &AgentEdit) -> Vec<String> {
    let project = location.scope == Scope::Project;
    let mut out = Vec::new();
    match (agent, edit.added_event()) {
        (AgentKind::Codex, Some(_)) => {
            out.push(CODEX_TRUST_NOTE.to_owned());
            if project {
                let file = if agent_files::is_codex_config(agent, &location.path) {
                    "config.toml"
                } else {
                    "hooks.json"
                };
                out.push(format!("Codex CLI loads a project's .codex/{file} only when the project is trusted ([projects] trust_level = \"trusted\" in your config.toml)"));
            }
        }
        (AgentKind::Codex, None) if matches!(edit, AgentEdit::Move { .. }) => out.push(
            codex_position_note("the two hooks that swap places get new keys (when a whole group moves, every hook of both groups does)"),
        ),
        (AgentKind::Codex, None) => out.push(codex_position_note(
            "the hooks after this one under its event move up",
        )),
        (AgentKind::Gemini, Some(_)) if project => out.push(
            "Gemini CLI runs a project's hooks only in a trusted folder (it asks when it opens one)"
                .to_owned(),
        ),
        (AgentKind::Cursor, Some(_)) if project => {
            out.push("Cursor runs a project's hooks only in a trusted workspace".to_owned());
        }
        _ => {}
    }
    out
}

/// Codex CLI's trust kept by position (`[hooks.state."<file>:<event>:<group>:<handler>"]`):
/// `what` says which hooks it touches.
pub fn codex_position_note(what: &str) -> String {
    format!(
        "Codex CLI keeps its trust by position: {what}, and Codex may ask you to trust them again in /hooks"
    )
}

/// What the user must know once a disabled hook of `agent` is back in its
/// file: for Codex CLI, the trust of the hooks after it (they move down)
/// and of the hook itself.
pub fn enable_notes(agent: AgentKind) -> Vec<String> {
    if agent == AgentKind::Codex {
        vec![
            codex_position_note("the hooks after this one under its event move down"),
            CODEX_TRUST_NOTE.to_owned(),
        ]
    } else {
        Vec::new()
    }
}

/// Codex CLI's rule for a hook added or changed.
pub const CODEX_TRUST_NOTE: &str = "Codex CLI runs a new or changed hook only once you trust it: open /hooks in Codex and trust it (hookd never writes trust for you)";

/// `edit` made to a parsed hooks file of `agent`; returns the event it
/// touched. A file the agent would not read, or an edit it would reject,
/// is refused with `file` untouched.
pub fn edit_value(
    agent: AgentKind,
    file: &mut Value,
    edit: &AgentEdit,
) -> Result<Vec<String>, ShapeError> {
    check_file(agent, file)?;
    match edit {
        AgentEdit::Add { hook } => {
            let (path, entry) = new_entry(agent, file, hook)?;
            connect::checked_edit(agent, file, |file| {
                let Value::Object(root) = file else {
                    return Err(connect::shape("top level".into(), "an object"));
                };
                if root.is_empty() && matches!(agent, AgentKind::Cursor | AgentKind::Copilot) {
                    root.insert("version".into(), json!(1));
                }
                connect::push_group(root, &hook.event, entry)?;
                Ok(vec![hook.event.clone()])
            })
            .map_err(|mut e| {
                // The agent's finding names the new hook's place: say so.
                if e.json_path.starts_with(&path) {
                    e.problem = Cow::Owned(format!("the new hook: {}", e.problem));
                }
                e
            })
        }
        AgentEdit::Change {
            json_path,
            command,
            hook,
        } => {
            let (event, index, handler) = listed_at(agent, file, json_path, command.as_deref())?;
            let (_, new) = new_entry(agent, file, hook)?;
            if hook.event != event {
                return Err(refusal(
                    json_path.as_str(),
                    format!(
                        "a change keeps the hook's event ({event}): remove it and add one for {}",
                        hook.event
                    ),
                ));
            }
            connect::checked_edit(agent, file, |file| {
                change(agent, file, (&event, index, handler), json_path, &new)
            })
        }
        AgentEdit::Remove { json_path, command } => {
            remove(agent, file, json_path, command.as_deref())
        }
        AgentEdit::Move {
            json_path,
            command,
            up,
        } => {
            let (event, index, handler) = listed_at(agent, file, json_path, command.as_deref())?;
            connect::checked_edit(agent, file, |file| {
                move_hook(file, (&event, index, handler), json_path, *up)
            })
        }
    }
}

/// Swaps the hook at (`event`, `index`, `handler`) with its neighbour
/// above (`up`) or below: the handler next to it in its group, else its
/// group (when it is alone in it) with the next group, or a flat entry
/// with the next entry. Refused at the event's first or last place, and
/// at the edge of a group it shares with other hooks.
fn move_hook(
    file: &mut Value,
    (event, index, handler): (&str, usize, Option<usize>),
    json_path: &str,
    up: bool,
) -> Result<Vec<String>, ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let entries = event_entries(file, event).ok_or_else(missing)?;
    let next = |i: usize, len: usize| {
        if up {
            i.checked_sub(1)
        } else {
            Some(i + 1).filter(|n| *n < len)
        }
    };
    let edge = || {
        refusal(
            json_path,
            format!(
                "already the {} hook of {event}",
                if up { "first" } else { "last" }
            ),
        )
    };
    if let Some(j) = handler {
        let handlers = entries
            .get_mut(index)
            .and_then(|g| g.get_mut("hooks"))
            .and_then(Value::as_array_mut)
            .ok_or_else(missing)?;
        let len = handlers.len();
        if let Some(k) = next(j, len) {
            handlers.swap(j, k);
            return Ok(vec![event.to_owned()]);
        }
        if len > 1 {
            if next(index, entries.len()).is_none() {
                return Err(edge());
            }
            return Err(refusal(
                json_path,
                format!(
                    "the {} hook of a group it shares with {} other hook(s) (one matcher for all): move the group in the file, or remove this hook and add it with its own",
                    if up { "first" } else { "last" },
                    len - 1
                ),
            ));
        }
    }
    let k = next(index, entries.len()).ok_or_else(edge)?;
    entries.swap(index, k);
    Ok(vec![event.to_owned()])
}

/// Sets the hook at (`event`, `index`, `handler`) to `new` (what
/// [`new_entry`] built: a group holding one handler, or a flat entry):
/// the keys hookd writes take `new`'s values or go when `new` has none,
/// every other key stays, in its place.
fn change(
    agent: AgentKind,
    file: &mut Value,
    (event, index, handler): (&str, usize, Option<usize>),
    json_path: &str,
    new: &Value,
) -> Result<Vec<String>, ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let entries = event_entries(file, event).ok_or_else(missing)?;
    let entry = entries.get_mut(index).ok_or_else(missing)?;
    let (target, fields) = match handler {
        None => (entry, new.as_object().ok_or_else(missing)?),
        Some(j) => {
            let group = entry.as_object_mut().ok_or_else(missing)?;
            let siblings = group
                .get("hooks")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let matcher = new.get("matcher");
            if group.get("matcher") != matcher {
                if siblings > 1 {
                    return Err(refusal(
                        format!(
                            "{}.matcher",
                            json_path
                                .rsplit_once(".hooks[")
                                .map_or(json_path, |(g, _)| g)
                        ),
                        format!(
                            "this hook shares its group's matcher with {} other hook(s): change the matcher in the file, or remove this hook and add it with its own",
                            siblings - 1
                        ),
                    ));
                }
                set_or_remove(group, "matcher", matcher);
            }
            let handler = group
                .get_mut("hooks")
                .and_then(Value::as_array_mut)
                .and_then(|h| h.get_mut(j))
                .ok_or_else(missing)?;
            let fields = new
                .get("hooks")
                .and_then(|h| h.get(0))
                .and_then(Value::as_object)
                .ok_or_else(missing)?;
            (handler, fields)
        }
    };
    let target = target.as_object_mut().ok_or_else(missing)?;
    // The command goes where it was read from (Copilot's `bash` or
    // `command`), the timeout under the key the entry already uses.
    let command_key = match agent {
        AgentKind::Copilot => ["bash", "command", "powershell"]
            .into_iter()
            .find(|k| target.contains_key(*k))
            .unwrap_or("bash"),
        _ => "command",
    };
    set_or_remove(
        target,
        command_key,
        fields.get("bash").or_else(|| fields.get("command")),
    );
    // Codex CLI's `timeoutSec` is none of these: kept as the other keys.
    let timeout_key = agent_files::timeout_keys(agent)
        .iter()
        .copied()
        .find(|k| target.contains_key(*k))
        .unwrap_or(timeout_key(agent));
    set_or_remove(target, timeout_key, fields.get(self::timeout_key(agent)));
    if handler.is_none() {
        set_or_remove(target, "matcher", fields.get("matcher"));
    }
    if agent == AgentKind::Gemini {
        set_or_remove(target, "name", fields.get("name"));
    }
    Ok(vec![event.to_owned()])
}

/// Sets `key` of `object` to `value` where it stands (a new key goes last),
/// or removes it (keeping the others' order) when `value` is `None`.
fn set_or_remove(object: &mut Map<String, Value>, key: &str, value: Option<&Value>) {
    match value {
        Some(value) => {
            if object.get(key) != Some(value) {
                object.insert(key.to_owned(), value.clone());
            }
        }
        None => {
            object.shift_remove(key);
        }
    }
}

/// Refuses a file of a shape hookd does not edit for `agent`.
fn check_file(agent: AgentKind, file: &Value) -> Result<(), ShapeError> {
    match agent {
        AgentKind::Claude => Err(refusal(
            "top level",
            "Claude Code's settings files are edited in the Hook editor's own tabs",
        )),
        AgentKind::Codex => {
            codex::check_top_level(file)?;
            connect::check_shape(file)
        }
        AgentKind::Gemini => connect::check_shape(file),
        AgentKind::Cursor | AgentKind::Copilot => flat::check_shape(file),
    }
}

/// A refusal at `json_path`.
/// The entries of `event` in `file` (`hooks.<event>`), if it has that array.
fn event_entries<'a>(file: &'a mut Value, event: &str) -> Option<&'a mut Vec<Value>> {
    file.get_mut("hooks")
        .and_then(|h| h.get_mut(event))
        .and_then(Value::as_array_mut)
}

fn refusal(json_path: impl Into<String>, problem: impl Into<Cow<'static, str>>) -> ShapeError {
    ShapeError {
        json_path: json_path.into(),
        problem: problem.into(),
    }
}

/// The new hook's JSON path in `file` and what goes under its event: a
/// matcher group holding its handler (Codex CLI, Gemini CLI), or its flat
/// entry (Cursor, Copilot). What the agent would reject is refused here.
fn new_entry(
    agent: AgentKind,
    file: &Value,
    hook: &NewAgentHook,
) -> Result<(String, Value), ShapeError> {
    let label = convert::label(agent);
    let event = hook.event.as_str();
    let event_path = connect::event_path(event);
    if !agent_schema::events(agent).contains(&event) {
        return Err(refusal(
            event_path,
            format!("not a {label} event: it would never run"),
        ));
    }
    let index = file
        .get("hooks")
        .and_then(|hooks| hooks.get(event))
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let grouped = matches!(agent, AgentKind::Codex | AgentKind::Gemini);
    let path = if grouped {
        format!("{event_path}[{index}].hooks[0]")
    } else {
        format!("{event_path}[{index}]")
    };
    let command = hook.command.as_str();
    if command.trim().is_empty() {
        return Err(refusal(
            format!("{path}.command"),
            "the new hook's command is empty: it would never run",
        ));
    }
    let matcher = hook.matcher.as_deref().filter(|m| !m.trim().is_empty());
    if matcher.is_some() && !matcher_events(agent).contains(&event) {
        return Err(refusal(
            format!("{path}.matcher"),
            format!("{label} takes no matcher on {event}"),
        ));
    }
    if hook.timeout == Some(0) {
        return Err(refusal(
            format!("{path}.{}", timeout_key(agent)),
            format!("expected 1 or more {}", timeout_unit(agent)),
        ));
    }
    let name = hook.name.as_deref().filter(|n| !n.trim().is_empty());
    if name.is_some() && agent != AgentKind::Gemini {
        return Err(refusal(
            format!("{path}.name"),
            format!("{label} hooks take no name"),
        ));
    }
    let mut entry = Map::new();
    match agent {
        AgentKind::Codex | AgentKind::Gemini => {
            entry.insert("type".into(), "command".into());
            if let Some(name) = name {
                entry.insert("name".into(), name.into());
            }
            entry.insert("command".into(), command.into());
        }
        AgentKind::Cursor => {
            entry.insert("command".into(), command.into());
            if let Some(matcher) = matcher {
                entry.insert("matcher".into(), matcher.into());
            }
        }
        AgentKind::Copilot | AgentKind::Claude => {
            entry.insert("type".into(), "command".into());
            entry.insert("bash".into(), command.into());
            if let Some(matcher) = matcher {
                entry.insert("matcher".into(), matcher.into());
            }
        }
    }
    if let Some(timeout) = hook.timeout {
        entry.insert(timeout_key(agent).into(), timeout.into());
    }
    if !grouped {
        return Ok((path, Value::Object(entry)));
    }
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), matcher.into());
    }
    group.insert("hooks".into(), Value::Array(vec![Value::Object(entry)]));
    Ok((path, Value::Object(group)))
}

/// Removes the hook at `json_path` of a parsed file of `agent`, provided it
/// still runs `command` and is not hookd's own; the group, the event's
/// list and `hooks` go when this emptied them. Returns the event.
fn remove(
    agent: AgentKind,
    file: &mut Value,
    json_path: &str,
    command: Option<&str>,
) -> Result<Vec<String>, ShapeError> {
    let (event, index, handler) = listed_at(agent, file, json_path, command)?;
    let missing = || refusal(json_path, "not found in the file");
    let root = file.as_object_mut().ok_or_else(missing)?;
    let hooks = root
        .get_mut("hooks")
        .and_then(Value::as_object_mut)
        .ok_or_else(missing)?;
    let entries = hooks
        .get_mut(&event)
        .and_then(Value::as_array_mut)
        .ok_or_else(missing)?;
    match handler {
        None => {
            entries.remove(index);
        }
        Some(j) => {
            let handlers = entries
                .get_mut(index)
                .and_then(|g| g.get_mut("hooks"))
                .and_then(Value::as_array_mut)
                .ok_or_else(missing)?;
            handlers.remove(j);
            if handlers.is_empty() {
                entries.remove(index);
            }
        }
    }
    if entries.is_empty() {
        // `shift_remove`: with preserve_order `remove` swaps the last key
        // into this place, moving the user's keys.
        hooks.shift_remove(&event);
    }
    if hooks.is_empty() {
        root.shift_remove("hooks");
    }
    Ok(vec![event])
}

/// The event, entry index and handler index (`None`: a flat entry) of the
/// hook listed at `json_path`, provided it still runs `command` (as the
/// list showed it) and is not hookd's own.
fn listed_at(
    agent: AgentKind,
    file: &Value,
    json_path: &str,
    command: Option<&str>,
) -> Result<(String, usize, Option<usize>), ShapeError> {
    let label = convert::label(agent);
    let listed = agent_files::hooks(agent, file);
    let Some(hook) = listed.iter().find(|h| h.json_path == json_path) else {
        return Err(refusal(
            json_path,
            format!("no hook of this {label} file is here any more (the file changed): reload it"),
        ));
    };
    if hook.command.as_deref() != command {
        return Err(refusal(
            json_path,
            format!(
                "the hook here now runs {}, not {} (the file changed): reload it",
                shown(hook.command.as_deref()),
                shown(command)
            ),
        ));
    }
    if hook.hookd {
        return Err(refusal(
            json_path,
            format!(
                "hookd's own entry: hookd disconnect --agent {} removes it",
                agent.as_str()
            ),
        ));
    }
    let (index, handler) = position(agent, file, &hook.event, json_path)
        .ok_or_else(|| refusal(json_path, "not found in the file"))?;
    Ok((hook.event.clone(), index, handler))
}

/// A command for a message.
fn shown(command: Option<&str>) -> String {
    command.map_or_else(|| "no command".to_owned(), |c| format!("{c:?}"))
}

/// The entry index and handler index (`None`: a flat entry) of the hook at
/// `json_path` under `event`.
pub(crate) fn position(
    agent: AgentKind,
    file: &Value,
    event: &str,
    json_path: &str,
) -> Option<(usize, Option<usize>)> {
    let entries = file.get("hooks")?.get(event)?.as_array()?;
    let event_path = connect::event_path(event);
    for (i, entry) in entries.iter().enumerate() {
        if matches!(agent, AgentKind::Cursor | AgentKind::Copilot) {
            if format!("{event_path}[{i}]") == json_path {
                return Some((i, None));
            }
            continue;
        }
        let handlers = entry.get("hooks").and_then(Value::as_array);
        for j in 0..handlers.map_or(0, Vec::len) {
            if format!("{event_path}[{i}].hooks[{j}]") == json_path {
                return Some((i, Some(j)));
            }
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fs;

    use super::*;
    use crate::settings::agent_files::tests::setup;
    use crate::settings::connect::{AgentConnectError, ChangeStatus};
    use hookd_testkit::write_file as write;

    fn add(event: &str, matcher: Option<&str>, command: &str, timeout: Option<u64>) -> AgentEdit {
        AgentEdit::Add {
            hook: NewAgentHook {
                event: event.into(),
                matcher: matcher.map(str::to_owned),
                command: command.into(),
                timeout,
                name: None,
            },
        }
    }

    pub(crate) const CODEX: &str = "{\n    \"description\": \"team hooks\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"^Bash$\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5}]\n            }\n        ]\n    }\n}\n";
    pub(crate) const GEMINI: &str = r#"{
  // the user's theme
  "theme": "dark",
  "hooks": {
    /* guards */
    "BeforeTool": [{"matcher": "write_file", "hooks": [
      {"type": "command", "name": "guard", "command": "./guard.sh", "timeout": 5000}]}],
    "disabled": ["guard"]
  } // end of hooks
}
"#;
    pub(crate) const CURSOR: &str = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./done.sh\"\n      }\n    ]\n  }\n}\n";
    pub(crate) const COPILOT: &str = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"./guard.sh\", \"timeoutSec\": 15}]}}";

    /// Each agent's file, its text, and a hook to add to it.
    fn cases(
        roots: &SettingsRoots,
        project: &Path,
    ) -> Vec<(AgentKind, PathBuf, &'static str, AgentEdit)> {
        let mut gemini = add(
            "AfterTool",
            Some("run_shell_command"),
            "./after.sh",
            Some(2500),
        );
        if let AgentEdit::Add { hook } = &mut gemini {
            hook.name = Some("after".into());
        }
        vec![
            (
                AgentKind::Codex,
                roots.codex_home.join("hooks.json"),
                CODEX,
                add(
                    "PreToolUse",
                    Some("apply_patch"),
                    "./check-edit.sh",
                    Some(30),
                ),
            ),
            (
                AgentKind::Gemini,
                project.join(".gemini/settings.json"),
                GEMINI,
                gemini,
            ),
            (
                AgentKind::Cursor,
                project.join(".cursor/hooks.json"),
                CURSOR,
                add(
                    "beforeShellExecution",
                    Some("curl|wget"),
                    "./net-guard.sh",
                    Some(3),
                ),
            ),
            (
                AgentKind::Copilot,
                project.join(".github/hooks/guard.json"),
                COPILOT,
                add("agentStop", None, "./done.sh", None),
            ),
        ]
    }

    /// A change of the hook at `json_path` (running `command`) to `hook`.
    fn change(json_path: &str, command: &str, hook: NewAgentHook) -> AgentEdit {
        AgentEdit::Change {
            json_path: json_path.into(),
            command: Some(command.into()),
            hook,
        }
    }

    /// A hook to add, in the agent's terms (no Gemini name).
    pub(crate) fn hook(
        event: &str,
        matcher: Option<&str>,
        command: &str,
        timeout: Option<u64>,
    ) -> NewAgentHook {
        NewAgentHook {
            event: event.into(),
            matcher: matcher.map(str::to_owned),
            command: command.into(),
            timeout,
            name: None,
        }
    }

    #[test]
    fn a_hook_changed_in_place_keeps_its_place_its_other_keys_and_every_other_byte() {
        let (_dir, roots, project) = setup();
        let mut gemini = hook("BeforeTool", Some("replace"), "./guard2.sh", Some(8000));
        gemini.name = Some("guard2".into());
        let copilot_file = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"cwd\": \"scripts\", \"timeoutSec\": 15}, {\"type\": \"command\", \"bash\": \"./second.sh\"}]}}";
        let cases = [
            (
                AgentKind::Codex,
                roots.codex_home.join("hooks.json"),
                CODEX,
                change("hooks.PreToolUse[0].hooks[0]", "./guard.sh", hook("PreToolUse", Some("^Bash$"), "./guard --strict", None)),
                "{\n    \"description\": \"team hooks\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"^Bash$\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"./guard --strict\"}]\n            }\n        ]\n    }\n}\n".to_owned(),
            ),
            (
                AgentKind::Gemini,
                project.join(".gemini/settings.json"),
                GEMINI,
                change("hooks.BeforeTool[0].hooks[0]", "./guard.sh", gemini),
                GEMINI
                    .replace("\"matcher\": \"write_file\"", "\"matcher\": \"replace\"")
                    .replace("\"name\": \"guard\", \"command\": \"./guard.sh\", \"timeout\": 5000", "\"name\": \"guard2\", \"command\": \"./guard2.sh\", \"timeout\": 8000"),
            ),
            (
                AgentKind::Cursor,
                project.join(".cursor/hooks.json"),
                CURSOR,
                change("hooks.stop[0]", "./done.sh", hook("stop", None, "./done.sh --quiet", Some(4))),
                "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./done.sh --quiet\",\n        \"timeout\": 4\n      }\n    ]\n  }\n}\n".to_owned(),
            ),
            (
                // Copilot: the command stays under the key it was read
                // from, the timeout under timeoutSec, cwd as it was.
                AgentKind::Copilot,
                project.join(".github/hooks/guard.json"),
                copilot_file,
                change("hooks.preToolUse[0]", "./guard.sh", hook("preToolUse", None, "./guard2.sh", Some(20))),
                copilot_file.replace("\"command\": \"./guard.sh\"", "\"command\": \"./guard2.sh\"").replace("15", "20"),
            ),
        ];
        for (agent, path, text, edit, expected) in cases {
            write(&path, text);
            let (_, location) = file_location(&roots, Some(&project), &path).unwrap();
            let shown = preview(&location, agent, &edit).unwrap();
            apply(&location, agent, &edit, &shown.version()).unwrap();
            assert_eq!(fs::read_to_string(&path).unwrap(), expected, "{agent:?}");
            let notes = notes(agent, &location, &edit);
            assert_eq!(
                notes.iter().any(|n| n == CODEX_TRUST_NOTE),
                agent == AgentKind::Codex,
                "{notes:?}"
            );
        }
    }

    #[test]
    fn a_change_is_refused_untouched_when_it_would_change_other_hooks_or_the_event() {
        let (_dir, roots, project) = setup();
        let path = roots.codex_home.join("hooks.json");
        let text = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "./a.sh"},
          {"type": "command", "command": "./b.sh"},
          {"type": "command", "command": "hookd-emit --agent codex PreToolUse"}
        ]
      }
    ]
  }
}
"#;
        write(&path, text);
        let (_, location) = file_location(&roots, Some(&project), &path).unwrap();
        let refused = |edit: AgentEdit| {
            let err = preview(&location, AgentKind::Codex, &edit).unwrap_err();
            assert_eq!(fs::read_to_string(&path).unwrap(), text);
            err.to_string()
        };
        // The matcher is the group's, shared with two other hooks.
        let err = refused(change(
            "hooks.PreToolUse[0].hooks[0]",
            "./a.sh",
            hook("PreToolUse", Some("Edit"), "./a.sh", None),
        ));
        assert!(
            err.contains("hooks.PreToolUse[0].matcher")
                && err.contains("shares its group's matcher with 2 other hook(s)"),
            "{err}"
        );
        // Another event is a removal and an addition.
        let err = refused(change(
            "hooks.PreToolUse[0].hooks[0]",
            "./a.sh",
            hook("Stop", None, "./a.sh", None),
        ));
        assert!(err.contains("keeps the hook's event (PreToolUse)"), "{err}");
        // The hook there is no longer the one listed.
        let err = refused(change(
            "hooks.PreToolUse[0].hooks[1]",
            "./a.sh",
            hook("PreToolUse", Some("Bash"), "./c.sh", None),
        ));
        assert!(err.contains("now runs \"./b.sh\""), "{err}");
        // hookd's own entry.
        let err = refused(change(
            "hooks.PreToolUse[0].hooks[2]",
            "hookd-emit --agent codex PreToolUse",
            hook("PreToolUse", Some("Bash"), "./x.sh", None),
        ));
        assert!(err.contains("hookd's own entry"), "{err}");
        // The same matcher, a new command: fine, and only that handler changes.
        let edit = change(
            "hooks.PreToolUse[0].hooks[1]",
            "./b.sh",
            hook("PreToolUse", Some("Bash"), "./b2.sh", Some(7)),
        );
        let shown = preview(&location, AgentKind::Codex, &edit).unwrap();
        apply(&location, AgentKind::Codex, &edit, &shown.version()).unwrap();
        let after = fs::read_to_string(&path).unwrap();
        assert_eq!(
            after,
            text.replace(
                r#""command": "./b.sh"}"#,
                r#""command": "./b2.sh", "timeout": 7}"#
            )
        );
    }

    #[test]
    fn a_hook_added_then_removed_gives_each_agents_file_back_byte_for_byte() {
        let (_dir, roots, project) = setup();
        for (agent, path, text, edit) in cases(&roots, &project) {
            write(&path, text);
            let (found, location) = file_location(&roots, Some(&project), &path).unwrap();
            assert_eq!(found, agent);
            let shown = preview(&location, agent, &edit).unwrap();
            assert_eq!(shown.before.as_deref(), Some(text.as_bytes()));
            assert_eq!(
                shown.report.status,
                ChangeStatus::WouldWrite { creates: false }
            );
            assert_eq!(fs::read_to_string(&path).unwrap(), text, "nothing written");
            let report = apply(&location, agent, &edit, &shown.version()).unwrap();
            assert!(matches!(report.status, ChangeStatus::Written(_)));
            let written = fs::read(&path).unwrap();
            assert_eq!(
                Some(&written),
                shown.after.as_ref(),
                "{agent:?}: the diff shown is what was written"
            );

            // The new hook is listed last, with what was asked.
            let read =
                agent_files::read_file(agent, location.scope, &path, location.comments, None)
                    .unwrap();
            assert!(read.check.errors.is_empty(), "{agent:?}: {:?}", read.check);
            let AgentEdit::Add { hook } = &edit else {
                unreachable!()
            };
            let new = read
                .hooks
                .iter()
                .find(|h| h.command.as_deref() == Some(hook.command.as_str()))
                .unwrap();
            assert_eq!(new.event, hook.event);
            assert_eq!(new.matcher, hook.matcher, "{agent:?}");
            let secs = hook.timeout.map(|t| {
                if agent == AgentKind::Gemini {
                    t as f64 / 1000.0
                } else {
                    t as f64
                }
            });
            assert_eq!(new.timeout_secs, secs, "{agent:?}");

            let removal = AgentEdit::Remove {
                json_path: new.json_path.clone(),
                command: new.command.clone(),
            };
            let shown = preview(&location, agent, &removal).unwrap();
            assert_eq!(shown.after.as_deref(), Some(text.as_bytes()), "{agent:?}");
            apply(&location, agent, &removal, &shown.version()).unwrap();
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                text,
                "{agent:?}: back byte for byte"
            );
        }
    }

    /// A move of the hook at `json_path` (running `command`).
    fn moved(json_path: &str, command: &str, up: bool) -> AgentEdit {
        AgentEdit::Move {
            json_path: json_path.into(),
            command: Some(command.into()),
            up,
        }
    }

    /// Codex CLI ignores `timeoutSec` (no alias): a change neither takes
    /// it for the hook's timeout nor drops it; a timeout set goes under
    /// `timeout`, the one Codex reads. In hooks.json and config.toml.
    #[test]
    fn a_codex_change_keeps_a_timeout_sec_it_did_not_touch_and_writes_timeout() {
        let (_dir, roots, project) = setup();
        let json = roots.codex_home.join("hooks.json");
        let toml = roots.codex_home.join("config.toml");
        let json_text = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./a.sh\", \"timeoutSec\": 30}]}]}}\n";
        let toml_text = "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./a.sh\", timeoutSec = 30 }]\n";
        for (path, text, command_changed, timeout_set) in [
            (
                &json,
                json_text,
                json_text.replace("./a.sh", "./b.sh"),
                json_text.replace(
                    "\"timeoutSec\": 30}",
                    "\"timeoutSec\": 30, \"timeout\": 60}",
                ),
            ),
            (
                &toml,
                toml_text,
                toml_text.replace("./a.sh", "./b.sh"),
                toml_text.replace("timeoutSec = 30 }", "timeoutSec = 30, timeout = 60 }"),
            ),
        ] {
            // As listed (no timeout: Codex's default), the command changed.
            write(path, text);
            let (agent, location) = file_location(&roots, Some(&project), path).unwrap();
            let edit = change(
                "hooks.Stop[0].hooks[0]",
                "./a.sh",
                hook("Stop", None, "./b.sh", None),
            );
            let shown = preview(&location, agent, &edit).unwrap();
            apply(&location, agent, &edit, &shown.version()).unwrap();
            assert_eq!(fs::read_to_string(path).unwrap(), command_changed);
            // A timeout set: under `timeout`, `timeoutSec` as it was.
            write(path, text);
            let edit = change(
                "hooks.Stop[0].hooks[0]",
                "./a.sh",
                hook("Stop", None, "./a.sh", Some(60)),
            );
            let shown = preview(&location, agent, &edit).unwrap();
            apply(&location, agent, &edit, &shown.version()).unwrap();
            assert_eq!(fs::read_to_string(path).unwrap(), timeout_set);
        }
    }

    #[test]
    fn agent_hook_moved_up_or_down_swaps_only_the_two_entries() {
        let (_dir, roots, project) = setup();
        let entry = |c: &str| format!("      {{\n        \"command\": \"{c}\"\n      }}");
        let cursor_file = |a: &str, b: &str, c: &str| {
            format!(
                "{{\n  \"version\": 1,\n  \"hooks\": {{\n    \"stop\": [\n{},\n{},\n{}\n    ]\n  }}\n}}\n",
                entry(a),
                entry(b),
                entry(c)
            )
        };
        let codex_text = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"./a.sh\"},\n          {\"type\": \"command\", \"command\": \"./b.sh\"}\n        ]\n      },\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./c.sh\"}]},\n      {\"matcher\": \"Read\", \"hooks\": [{\"type\": \"command\", \"command\": \"./d.sh\"}]}\n    ]\n  }\n}\n";
        let cursor = project.join(".cursor/hooks.json");
        let codex = roots.codex_home.join("hooks.json");
        let cursor_cases = [
            (
                moved("hooks.stop[1]", "./b.sh", true),
                cursor_file("./b.sh", "./a.sh", "./c.sh"),
            ),
            (
                moved("hooks.stop[1]", "./b.sh", false),
                cursor_file("./a.sh", "./c.sh", "./b.sh"),
            ),
        ];
        for (edit, expected) in cursor_cases {
            write(&cursor, &cursor_file("./a.sh", "./b.sh", "./c.sh"));
            let (agent, location) = file_location(&roots, Some(&project), &cursor).unwrap();
            let shown = preview(&location, agent, &edit).unwrap();
            apply(&location, agent, &edit, &shown.version()).unwrap();
            assert_eq!(fs::read_to_string(&cursor).unwrap(), expected);
        }
        let codex_cases = [
            // Within its group: the two handlers swap.
            (
                moved("hooks.PreToolUse[0].hooks[1]", "./b.sh", true),
                codex_text.replace("./a.sh", "./x").replace("./b.sh", "./a.sh").replace("./x", "./b.sh"),
            ),
            // Alone in its group: the groups swap.
            (
                moved("hooks.PreToolUse[1].hooks[0]", "./c.sh", false),
                codex_text
                    .replace("{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./c.sh\"}]}", "X")
                    .replace("{\"matcher\": \"Read\", \"hooks\": [{\"type\": \"command\", \"command\": \"./d.sh\"}]}", "{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./c.sh\"}]}")
                    .replace("X", "{\"matcher\": \"Read\", \"hooks\": [{\"type\": \"command\", \"command\": \"./d.sh\"}]}"),
            ),
        ];
        for (edit, expected) in codex_cases {
            write(&codex, codex_text);
            let (agent, location) = file_location(&roots, Some(&project), &codex).unwrap();
            let shown = preview(&location, agent, &edit).unwrap();
            apply(&location, agent, &edit, &shown.version()).unwrap();
            assert_eq!(fs::read_to_string(&codex).unwrap(), expected);
        }
        // Refused, nothing written: the first hook up, the last one down,
        // the edge of a shared group.
        write(&codex, codex_text);
        let (agent, location) = file_location(&roots, Some(&project), &codex).unwrap();
        for (edit, problem) in [
            (
                moved("hooks.PreToolUse[0].hooks[0]", "./a.sh", true),
                "already the first hook of PreToolUse",
            ),
            (
                moved("hooks.PreToolUse[2].hooks[0]", "./d.sh", false),
                "already the last hook",
            ),
            (
                moved("hooks.PreToolUse[0].hooks[1]", "./b.sh", false),
                "a group it shares with 1 other hook(s)",
            ),
        ] {
            let err = preview(&location, agent, &edit).unwrap_err().to_string();
            assert!(err.contains(problem), "{err}");
        }
        assert_eq!(fs::read_to_string(&codex).unwrap(), codex_text);
        // config.toml: its groups' tables swap (codex_toml's tests).
        let toml = roots.codex_home.join("config.toml");
        let a = "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./a.sh\" }]\n";
        let b = "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./b.sh\" }]\n";
        write(&toml, &format!("{a}\n{b}"));
        let (agent, location) = file_location(&roots, Some(&project), &toml).unwrap();
        let edit = moved("hooks.Stop[1].hooks[0]", "./b.sh", true);
        let shown = preview(&location, agent, &edit).unwrap();
        apply(&location, agent, &edit, &shown.version()).unwrap();
        assert_eq!(fs::read_to_string(&toml).unwrap(), format!("{b}\n{a}"));
    }

    #[test]
    fn each_agents_shape_and_units_are_written() {
        let mut codex =
            json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./a.sh"}]}]}});
        edit_value(
            AgentKind::Codex,
            &mut codex,
            &add("Stop", None, "./b.sh", Some(7)),
        )
        .unwrap();
        assert_eq!(
            codex["hooks"]["Stop"][1],
            json!({"hooks": [{"type": "command", "command": "./b.sh", "timeout": 7}]})
        );
        let mut gemini = json!({});
        let mut edit = add("BeforeTool", Some("write_file"), "./g.sh", Some(1500));
        if let AgentEdit::Add { hook } = &mut edit {
            hook.name = Some("guard".into());
        }
        edit_value(AgentKind::Gemini, &mut gemini, &edit).unwrap();
        assert_eq!(
            gemini,
            json!({"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
                {"type": "command", "name": "guard", "command": "./g.sh", "timeout": 1500}]}]}})
        );
        // A new flat file gets `"version": 1` first.
        let mut cursor = json!({});
        edit_value(
            AgentKind::Cursor,
            &mut cursor,
            &add("preToolUse", Some("Shell"), "./c.sh", Some(3)),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&cursor).unwrap(),
            r#"{"version":1,"hooks":{"preToolUse":[{"command":"./c.sh","matcher":"Shell","timeout":3}]}}"#
        );
        let mut copilot = json!({});
        edit_value(
            AgentKind::Copilot,
            &mut copilot,
            &add("sessionStart", None, "./s.sh", Some(20)),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&copilot).unwrap(),
            r#"{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"./s.sh","timeoutSec":20}]}}"#
        );
        // An empty matcher is none.
        let mut file = json!({"hooks": {}});
        edit_value(
            AgentKind::Codex,
            &mut file,
            &add("PreToolUse", Some(" "), "./x.sh", None),
        )
        .unwrap();
        assert_eq!(
            file["hooks"]["PreToolUse"][0],
            json!({"hooks": [{"type": "command", "command": "./x.sh"}]})
        );
    }

    #[test]
    fn what_the_agent_would_reject_is_refused_untouched() {
        for agent in AgentKind::ALL.into_iter().skip(1) {
            // An event without a matcher.
            let event = *agent_schema::events(agent)
                .iter()
                .find(|e| !matcher_events(agent).contains(e))
                .unwrap();
            let mut file = json!({"hooks": {}});
            for (edit, problem) in [
                (add(event, None, "  ", None), "empty"),
                (add("NoSuchEvent", None, "./x.sh", None), "not a"),
                (add(event, Some("Bash"), "./x.sh", None), "no matcher"),
                (add(event, None, "./x.sh", Some(0)), "expected 1 or more"),
            ] {
                let err = edit_value(agent, &mut file, &edit).unwrap_err();
                assert!(err.to_string().contains(problem), "{agent:?}: {err}");
                assert_eq!(file, json!({"hooks": {}}), "{agent:?}");
            }
        }
        // A name only on Gemini CLI's handlers.
        let mut edit = add("Stop", None, "./x.sh", None);
        if let AgentEdit::Add { hook } = &mut edit {
            hook.name = Some("n".into());
        }
        assert!(edit_value(AgentKind::Codex, &mut json!({}), &edit).is_err());
        // A file Codex CLI would drop whole is not edited.
        let mut bad = json!({"version": 1, "hooks": {}});
        assert!(
            edit_value(
                AgentKind::Codex,
                &mut bad,
                &add("Stop", None, "./x.sh", None)
            )
            .is_err()
        );
    }

    #[test]
    fn an_empty_command_is_refused_on_disk_too() {
        let (_dir, roots, project) = setup();
        let path = project.join(".codex/hooks.json");
        write(&path, CODEX);
        let (agent, location) = file_location(&roots, Some(&project), &path).unwrap();
        let err = preview(&location, agent, &add("Stop", None, "", None)).unwrap_err();
        assert!(matches!(err, AgentConnectError::Shape { .. }), "{err}");
        assert!(
            err.to_string().contains("hooks.Stop[0].hooks[0].command"),
            "{err}"
        );
        let err = apply(&location, agent, &add("Stop", None, "", None), "any").unwrap_err();
        assert!(matches!(err, AgentConnectError::Shape { .. }), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), CODEX);
    }

    #[test]
    fn a_stale_version_is_refused_untouched() {
        let (_dir, roots, project) = setup();
        let path = project.join(".cursor/hooks.json");
        write(&path, CURSOR);
        let (agent, location) = file_location(&roots, Some(&project), &path).unwrap();
        let edit = add("stop", None, "./more.sh", None);
        let shown = preview(&location, agent, &edit).unwrap();
        let theirs = CURSOR.replace("./done.sh", "./theirs.sh");
        fs::write(&path, &theirs).unwrap();
        let stale = apply(&location, agent, &edit, &shown.version());
        assert!(
            matches!(stale, Err(AgentConnectError::Changed { .. })),
            "{stale:?}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), theirs);
    }

    #[test]
    fn a_removal_where_that_hook_no_longer_is_is_refused() {
        let (_dir, roots, project) = setup();
        let path = roots.codex_home.join("hooks.json");
        let text = r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "./one.sh"},
            {"type": "command", "command": "hookd-emit --agent codex Stop", "timeout": 10}]}]}}"#;
        write(&path, text);
        let (agent, location) = file_location(&roots, Some(&project), &path).unwrap();
        for (json_path, command, problem) in [
            (
                "hooks.Stop[0].hooks[0]",
                Some("./two.sh"),
                "now runs \"./one.sh\"",
            ),
            ("hooks.Stop[1].hooks[0]", Some("./one.sh"), "any more"),
            (
                "hooks.Stop[0].hooks[1]",
                Some("hookd-emit --agent codex Stop"),
                "hookd disconnect --agent codex",
            ),
        ] {
            let removal = AgentEdit::Remove {
                json_path: json_path.into(),
                command: command.map(str::to_owned),
            };
            let err = preview(&location, agent, &removal).unwrap_err();
            assert!(err.to_string().contains(problem), "{err}");
            let err = apply(
                &location,
                agent,
                &removal,
                &preview(&location, agent, &add("Stop", None, "./x", None))
                    .unwrap()
                    .version(),
            )
            .unwrap_err();
            assert!(err.to_string().contains(problem), "{err}");
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        // The right one goes; its group stays for hookd's entry.
        let removal = AgentEdit::Remove {
            json_path: "hooks.Stop[0].hooks[0]".into(),
            command: Some("./one.sh".into()),
        };
        let shown = preview(&location, agent, &removal).unwrap();
        apply(&location, agent, &removal, &shown.version()).unwrap();
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            value,
            json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookd-emit --agent codex Stop", "timeout": 10}]}]}})
        );
    }

    #[test]
    fn only_a_listed_readable_file_is_edited() {
        let (dir, roots, project) = setup();
        write(&project.join(".cursor/hooks.json"), CURSOR);
        write(&project.join(".codex/hooks.json"), "{ not json");
        let outside = dir.path().join("elsewhere.json");
        write(&outside, CURSOR);
        for path in [
            outside,
            project.join(".cursor/other.json"),
            project.join(".cursor/../.cursor/hooks.json"),
            PathBuf::from("/etc/passwd"),
        ] {
            assert!(
                matches!(
                    file_location(&roots, Some(&project), &path),
                    Err(AgentFileRefused::NotListed { .. })
                ),
                "{}",
                path.display()
            );
        }
        assert!(matches!(
            file_location(&roots, Some(&project), &project.join(".codex/hooks.json")),
            Err(AgentFileRefused::Unreadable { .. })
        ));
        // An administrator's file is listed, and refused with its reason.
        for admin in [
            roots.codex_system.join("requirements.toml"),
            roots.codex_system.join("hooks.json"),
            roots.codex_system.join("config.toml"),
        ] {
            if admin.extension().is_some_and(|e| e == "json") {
                write(
                    &admin,
                    r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./a.sh"}]}]}}"#,
                );
            } else {
                write(
                    &admin,
                    "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./a.sh\" }]\n",
                );
            }
            let refused = file_location(&roots, Some(&project), &admin).unwrap_err();
            assert!(
                matches!(
                    refused,
                    AgentFileRefused::ReadOnly {
                        agent: "Codex CLI",
                        ..
                    }
                ),
                "{refused:?}"
            );
            assert!(refused.to_string().contains("never writes it"), "{refused}");
        }
        // So are Gemini CLI's system settings and Cursor's enterprise file,
        // and a Gemini extension's hooks are the extension's.
        let hooks =
            r#"{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "./a.sh"}]}]}}"#;
        write(&roots.gemini_system_settings, hooks);
        write(&roots.cursor_enterprise, CURSOR);
        for admin in [&roots.gemini_system_settings, &roots.cursor_enterprise] {
            assert!(matches!(
                file_location(&roots, Some(&project), admin),
                Err(AgentFileRefused::ReadOnly { .. })
            ));
        }
        let ext = roots.home.join(".gemini/extensions/audit");
        write(
            &ext.join("gemini-extension.json"),
            r#"{"name": "audit", "version": "1.0.0"}"#,
        );
        write(&ext.join("hooks/hooks.json"), hooks);
        let refused =
            file_location(&roots, Some(&project), &ext.join("hooks/hooks.json")).unwrap_err();
        assert!(
            matches!(&refused, AgentFileRefused::Extension { extension, .. } if extension == "audit"),
            "{refused:?}"
        );
        // Codex CLI's config.toml hooks are listed, and edited there.
        let toml = project.join(".codex/config.toml");
        write(
            &toml,
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./s.sh\" }]\n",
        );
        let (agent, location) = file_location(&roots, Some(&project), &toml).unwrap();
        assert_eq!((agent, &location.path), (AgentKind::Codex, &toml));
        assert_eq!(location.scope, Scope::Project);
        // Copilot's files are each their own, in their scope's directory.
        write(&project.join(".github/hooks/guard.json"), COPILOT);
        let (agent, location) = file_location(
            &roots,
            Some(&project),
            &project.join(".github/hooks/guard.json"),
        )
        .unwrap();
        assert_eq!(agent, AgentKind::Copilot);
        assert_eq!(location.path, project.join(".github/hooks/guard.json"));
        assert_eq!(location.scope, Scope::Project);
    }

    #[test]
    fn codex_edits_carry_its_trust_notes() {
        let (_dir, roots, project) = setup();
        let location = connector::of(AgentKind::Codex)
            .unwrap()
            .location(&roots, Scope::Project, Some(&project))
            .unwrap();
        let added = notes(AgentKind::Codex, &location, &add("Stop", None, "./x", None));
        assert_eq!(added[0], CODEX_TRUST_NOTE);
        assert_eq!(added.len(), 2);
        let removed = notes(
            AgentKind::Codex,
            &location,
            &AgentEdit::Remove {
                json_path: "hooks.Stop[0].hooks[0]".into(),
                command: None,
            },
        );
        assert!(removed[0].contains("by position"), "{removed:?}");
        let moved = notes(
            AgentKind::Codex,
            &location,
            &AgentEdit::Move {
                json_path: "hooks.Stop[0].hooks[0]".into(),
                command: None,
                up: false,
            },
        );
        assert!(moved[0].contains("every hook of both groups"), "{moved:?}");
        assert_eq!(
            enable_notes(AgentKind::Codex)[0],
            codex_position_note("the hooks after this one under its event move down")
        );
        assert!(
            notes(
                AgentKind::Copilot,
                &location,
                &add("stop", None, "./x", None)
            )
            .is_empty()
        );
    }
}
