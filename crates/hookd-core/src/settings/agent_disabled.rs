//! Turning a hook of another coding agent's file off without losing it.
//!
//! Cursor and GitHub Copilot have no per-hook switch; Codex CLI has one
//! (`[hooks.state."<key>"] enabled = false`, keyed by the hook's place)
//! and Gemini CLI another (`hooksConfig.disabled`, by name). One rule for
//! every agent, the one [`super::disabled`] has for Claude Code, is easier
//! to trust and gives the file back exactly: a disabled hook is taken out
//! of the agent's file (the way [`super::agent_edit`] removes one, every
//! other byte kept) and kept in hookd's store of disabled hooks
//! (`$HOOKD_HOME/disabled.json`), the same store as Claude Code's: one
//! place holds every hook hookd took out, and its record
//! ([`DisabledHook`]) already says where a hook was (file, event, group and
//! handler index, matcher, the handler verbatim). For these files the
//! record also carries an [`AgentPlace`]: the agent, the file's format,
//! the hook's JSON path and command as the list showed them, and the exact
//! bytes the removal took out and where. A second store would have meant a
//! second lock and a second roll-back for the same kind of record, and
//! Claude Code's readers of the store only take records of their own files
//! ([`DisabledHook::belongs_to`] leaves these out).
//!
//! Enabling puts those bytes back where they were when the file is the
//! very file the removal left: then a disable followed by an enable gives
//! back the original file byte for byte, JSON files and Codex CLI's
//! `config.toml` alike. Several hooks of one file disabled in a row come
//! back exactly in any order: the ones disabled after the hook enabled are
//! put back first (each onto the file its removal left), the hook, and
//! they are taken out again where they now stand (their records follow).
//! When the file changed otherwise, the bytes go back at their offset if
//! taking the hook out again gives the file as it is now; failing that a
//! JSON file gets the hook back at its old place in its event (its group
//! recreated, rendered in the file's style), and a `config.toml` is
//! refused with the hook kept in the store, since hookd cannot place it
//! there without changing other bytes. A `config.toml` with every hook
//! disabled is no longer an agent file hookd lists; [`unlisted`] names it,
//! so it can still be enabled.
//!
//! Only a file [`agent_edit::file_location`] accepts is touched: an
//! administrator's file or an extension's is refused
//! ([`AgentFileRefused`]). The store is written first and rolled back if
//! the agent's file cannot be written; both are read and written holding
//! the file's lock and then the store's, in that order, as
//! [`super::disabled`] does, and only when the file is still the version
//! the window showed.

use std::path::{Path, PathBuf};

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::agent_edit::{self, AgentEdit, AgentFileRefused};
use super::agent_files::{self, AgentHook};
use super::codex_toml::{self, CodexTomlError};
use super::connect::ShapeError;
use super::connector;
use super::disabled::{DisabledHook, DisabledStore};
use super::document::{SettingsDocument, SettingsLock};
use super::error::SettingsError;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::version::version_token;
use crate::AgentKind;

/// The format of an agent's hooks file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AgentFileFormat {
    /// A JSON file (`hooks.json`, Gemini CLI's `settings.json`, with
    /// comments).
    Json,
    /// Codex CLI's `config.toml`.
    Toml,
}

/// Where a disabled hook of another agent's file was, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentPlace {
    /// The agent (`codex`, `gemini`, `cursor`, `copilot`).
    pub agent: String,
    /// The file's format.
    pub format: AgentFileFormat,
    /// Its JSON path when it was disabled (`hooks.stop[1]`).
    pub json_path: String,
    /// The command it ran, as listed (`None`: none).
    pub command: Option<String>,
    /// Byte offset in the file, after the removal, where `removed` goes
    /// back.
    pub offset: usize,
    /// The bytes the removal took out, verbatim.
    pub removed: String,
    /// The bytes the removal put in their place (usually none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub inserted: String,
    /// The version token of the file right after the removal: a file
    /// still that version gets exactly its old bytes back.
    pub after_version: String,
}

/// Why a hook of an agent's file could not be disabled or enabled.
#[derive(Debug, thiserror::Error)]
pub enum AgentDisableError {
    /// Not a file hookd edits (an administrator's, an extension's, one not
    /// listed for the project).
    #[error(transparent)]
    Refused(#[from] AgentFileRefused),
    /// The file no longer is the version the window showed; nothing
    /// changed.
    #[error("{path} changed since it was shown; nothing was changed")]
    ChangedOnDisk {
        /// The file.
        path: PathBuf,
    },
    /// The hook cannot be taken out: it is not there any more, it is
    /// hookd's own, or the file is of a shape hookd does not edit.
    #[error("refusing to disable a hook of {path}: {shape}")]
    Shape {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        shape: ShapeError,
    },
    /// The file is not JSON or TOML hookd can read.
    #[error("refusing to edit {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// No such hook is disabled in that file.
    #[error("no disabled hook at {json_path} of {path}")]
    NotDisabled {
        /// The file.
        path: PathBuf,
        /// The JSON path asked for.
        json_path: String,
    },
    /// Codex CLI's `config.toml` changed around the hook's place: hookd
    /// keeps it disabled rather than put it back elsewhere.
    #[error(
        "{path} changed where the {event} hook {command:?} (at {json_path}) was, and hookd cannot put it back there without changing other lines; it stays disabled in hookd's store of disabled hooks: to run it again, add it back to the file yourself"
    )]
    CannotRestore {
        /// The file.
        path: PathBuf,
        /// Its event, the agent's own name.
        event: String,
        /// The command it runs (empty: none).
        command: String,
        /// Its JSON path when it was disabled.
        json_path: String,
    },
    /// The file a disabled hook was taken out of is gone.
    #[error(
        "{path} is gone, so hookd cannot put its disabled hook back into it; the hook stays in hookd's store of disabled hooks: put the file back and enable it again"
    )]
    FileGone {
        /// The file.
        path: PathBuf,
    },
    /// Reading or writing the file, or hookd's store.
    #[error(transparent)]
    Settings(#[from] SettingsError),
}

/// Result alias for this module.
pub type Result<T, E = AgentDisableError> = std::result::Result<T, E>;

/// How [`enable`] put a hook back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restored {
    /// The file is again byte for byte what it was before the hook was
    /// disabled (but for other hooks still disabled).
    Exactly,
    /// Its bytes went back at their offset in a file that changed
    /// elsewhere.
    AtOffset,
    /// The file changed around it: the hook went back at its old place
    /// in its event, the file rendered again in its style (JSON only).
    AtItsPlace,
}

/// What a disable or an enable did.
#[derive(Debug, Clone)]
pub struct Toggled {
    /// The hook's record (for an enable, as it was kept).
    pub hook: DisabledHook,
    /// How an enable put it back; `None` for a disable.
    pub restored: Option<Restored>,
    /// What the user must know (Codex CLI's trust kept by position), as
    /// [`agent_edit::notes`] words it.
    pub notes: Vec<String>,
}

/// The version token of the file at `path` as it is now (what an editor
/// shows and gives back to [`disable`] or [`enable`]).
pub fn version_of(path: &Path) -> String {
    version_token(std::fs::read(path).ok().as_deref())
}

/// The disabled hooks of another agent's file at `path`, oldest first.
pub fn disabled_in(store: &DisabledStore, path: &Path) -> Result<Vec<DisabledHook>> {
    let mut all = store.load()?;
    all.retain(|d| d.agent.is_some() && d.path == path);
    Ok(all)
}

/// [`enable`] when `enabled`, else [`disable`]: what the app's switch and
/// `hookd hooks enable|disable --agent-file` both ask.
pub fn set_enabled(
    store: &DisabledStore,
    roots: &SettingsRoots,
    project: Option<&Path>,
    path: &Path,
    at: (&str, Option<&str>),
    version: &str,
    enabled: bool,
) -> Result<Toggled> {
    if enabled {
        enable(store, roots, project, path, at, version)
    } else {
        disable(store, roots, project, path, at, version)
    }
}

/// Disables the hook at `json_path` (running `command`, as listed) of the
/// agent file at `path`, one [`agent_edit::file_location`] accepts for
/// `project`, provided the file is still `version`: takes it out of the
/// file and keeps it in `store`. Returns its record and the notes.
pub fn disable(
    store: &DisabledStore,
    roots: &SettingsRoots,
    project: Option<&Path>,
    path: &Path,
    (json_path, command): (&str, Option<&str>),
    version: &str,
) -> Result<Toggled> {
    let (agent, location) = agent_edit::file_location(roots, project, path)?;
    let lock = SettingsLock::acquire(&location)?;
    let _store = store.lock(&lock)?;
    let bytes = lock.read()?;
    check_version(&location, bytes.as_deref(), version)?;
    let Some(bytes) = bytes else {
        return Err(shape(&location, json_path, "the file is gone"));
    };
    let before = text(&location, &bytes)?;
    let removal = remove(agent, &location, before, json_path, command)?;
    let mut hook = removal.hook;
    hook.agent = Some(place_of(
        agent,
        &location,
        json_path,
        command,
        before,
        &removal.after,
    ));
    let old = store.load()?;
    let mut new = old.clone();
    new.push(hook.clone());
    store.save(&new)?;
    if let Err(err) = lock.put_bytes(removal.after.as_bytes(), true) {
        store.roll_back(&old);
        return Err(err.into());
    }
    Ok(Toggled {
        notes: agent_edit::notes(
            agent,
            &location,
            &AgentEdit::Remove {
                json_path: json_path.to_owned(),
                command: command.map(str::to_owned),
            },
        ),
        hook,
        restored: None,
    })
}

/// Enables the hook disabled at `json_path` (running `command`) of the
/// agent file at `path` (the newest such, when several were), provided
/// the file is still `version`: puts it back where it was and drops it
/// from `store`. Returns its record, how it went back and the notes.
pub fn enable(
    store: &DisabledStore,
    roots: &SettingsRoots,
    project: Option<&Path>,
    path: &Path,
    (json_path, command): (&str, Option<&str>),
    version: &str,
) -> Result<Toggled> {
    let (agent, location) = locate(store, roots, project, path)?;
    let lock = SettingsLock::acquire(&location)?;
    let _store = store.lock(&lock)?;
    let old = store.load()?;
    let index = old
        .iter()
        .rposition(|d| {
            d.path == location.path
                && d.agent
                    .as_ref()
                    .is_some_and(|p| p.json_path == json_path && p.command.as_deref() == command)
        })
        .ok_or_else(|| AgentDisableError::NotDisabled {
            path: location.path.clone(),
            json_path: json_path.to_owned(),
        })?;
    let bytes = lock.read()?;
    check_version(&location, bytes.as_deref(), version)?;
    let existed = bytes.is_some();
    let now = text(&location, bytes.as_deref().unwrap_or_default())?;
    let hook = old[index].clone();
    let Some(place) = hook.agent.clone() else {
        unreachable!("chosen for its place")
    };
    // The hooks of this file disabled after this one.
    let newer: Vec<usize> = (index + 1..old.len())
        .filter(|&i| old[i].path == location.path && old[i].agent.is_some())
        .collect();
    let mut new = old.clone();
    let (after, restored) =
        if let Some((after, redone)) = exactly(agent, &location, now, &hook, &newer, &old) {
            for (i, record) in newer.iter().zip(redone) {
                new[*i] = record;
            }
            (after, Restored::Exactly)
        } else if let Some(after) = put_back(agent, &location, now, &place) {
            (after, Restored::AtOffset)
        } else if place.format == AgentFileFormat::Json {
            (
                restore_value(agent, &location, now, &hook)?,
                Restored::AtItsPlace,
            )
        } else {
            return Err(AgentDisableError::CannotRestore {
                path: location.path.clone(),
                event: hook.event,
                command: place.command.unwrap_or_default(),
                json_path: place.json_path,
            });
        };
    new.remove(index);
    store.save(&new)?;
    if let Err(err) = lock.put_bytes(after.as_bytes(), existed) {
        store.roll_back(&old);
        return Err(err.into());
    }
    Ok(Toggled {
        notes: agent_edit::enable_notes(agent),
        hook,
        restored: Some(restored),
    })
}

/// The agent and location of `path` for an enable: a file
/// [`agent_edit::file_location`] accepts, or Codex CLI's `config.toml` of
/// the user or the project whose hooks were all disabled (it is listed
/// only while it has some) when `store` keeps one of them.
fn locate(
    store: &DisabledStore,
    roots: &SettingsRoots,
    project: Option<&Path>,
    path: &Path,
) -> Result<(AgentKind, SettingsLocation)> {
    let refused = match agent_edit::file_location(roots, project, path) {
        Err(refused @ AgentFileRefused::NotListed { .. }) => refused,
        other => return Ok(other?),
    };
    if !path.exists() && !disabled_in(store, path)?.is_empty() {
        return Err(AgentDisableError::FileGone {
            path: path.to_path_buf(),
        });
    }
    let kept = disabled_in(store, path)?.iter().any(|d| {
        d.agent
            .as_ref()
            .is_some_and(|p| p.format == AgentFileFormat::Toml)
    });
    let codex = connector::of(AgentKind::Codex).filter(|_| kept);
    for scope in [Scope::Global, Scope::Project] {
        let Some(Ok(mut location)) = codex.map(|c| c.location(roots, scope, project)) else {
            continue;
        };
        if location.path.with_file_name("config.toml") == path {
            location.path = path.to_path_buf();
            return Ok((AgentKind::Codex, location));
        }
    }
    Err(refused.into())
}

/// The files of `project` (and the user's) that hold no hook any more but
/// some disabled in `store`, which the list of agent files leaves out
/// (Codex CLI's `config.toml` with every hook disabled): the agent, scope
/// and path of each, so an editor can still offer to enable them.
pub fn unlisted(
    store: &DisabledStore,
    roots: &SettingsRoots,
    project: Option<&Path>,
) -> Result<Vec<(AgentKind, Scope, PathBuf)>> {
    let listed: Vec<PathBuf> = agent_files::agent_hook_files(roots, project)
        .into_iter()
        .map(|f| f.path)
        .collect();
    let mut out: Vec<(AgentKind, Scope, PathBuf)> = Vec::new();
    for d in store.load()? {
        if d.agent.is_none() || listed.contains(&d.path) || out.iter().any(|o| o.2 == d.path) {
            continue;
        }
        if let Ok((agent, location)) = locate(store, roots, project, &d.path) {
            out.push((agent, location.scope, d.path));
        }
    }
    Ok(out)
}

/// The file's format for `agent` at `location`.
fn format_of(agent: AgentKind, location: &SettingsLocation) -> AgentFileFormat {
    if agent_files::is_codex_config(agent, &location.path) {
        AgentFileFormat::Toml
    } else {
        AgentFileFormat::Json
    }
}

/// Refuses a file that is no longer `version`.
fn check_version(location: &SettingsLocation, bytes: Option<&[u8]>, version: &str) -> Result<()> {
    if version_token(bytes) == version {
        Ok(())
    } else {
        Err(AgentDisableError::ChangedOnDisk {
            path: location.path.clone(),
        })
    }
}

/// The file's bytes as text.
fn text<'a>(location: &SettingsLocation, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| AgentDisableError::Parse {
        path: location.path.clone(),
        message: e.to_string(),
    })
}

fn shape(location: &SettingsLocation, json_path: &str, problem: &'static str) -> AgentDisableError {
    AgentDisableError::Shape {
        path: location.path.clone(),
        shape: ShapeError {
            json_path: json_path.to_owned(),
            problem: problem.into(),
        },
    }
}

/// A hook taken out of a file's text: the text after, and the record of
/// where it was (its [`AgentPlace`] still to add).
struct Removal {
    after: String,
    hook: DisabledHook,
}

/// Takes the hook at `json_path` (running `command`) out of `text`, the
/// file of `agent` at `location`, as [`agent_edit`] removes one.
fn remove(
    agent: AgentKind,
    location: &SettingsLocation,
    text: &str,
    json_path: &str,
    command: Option<&str>,
) -> Result<Removal> {
    let edit = AgentEdit::Remove {
        json_path: json_path.to_owned(),
        command: command.map(str::to_owned),
    };
    let shape_error = |shape| AgentDisableError::Shape {
        path: location.path.clone(),
        shape,
    };
    let parse_error = |message: String| AgentDisableError::Parse {
        path: location.path.clone(),
        message,
    };
    let (value, after) = if format_of(agent, location) == AgentFileFormat::Toml {
        let value = codex_toml::hooks_value(text).map_err(|e| parse_error(e.to_string()))?;
        let (_, after) = codex_toml::edit(text, &edit).map_err(|e| match e {
            CodexTomlError::Parse(m) => parse_error(m),
            CodexTomlError::Shape(s) => shape_error(s),
        })?;
        (value, after)
    } else {
        let doc = SettingsDocument::parse(location, Some(text.as_bytes().to_vec()))
            .map_err(|e| parse_error(e.to_string()))?;
        let mut edited = doc.clone();
        agent_edit::edit_value(agent, edited.value_mut(), &edit).map_err(shape_error)?;
        let bytes = edited.render()?;
        let after = String::from_utf8(bytes).map_err(|e| parse_error(e.to_string()))?;
        (doc.value().clone(), after)
    };
    let hook = record(agent, location, &value, json_path)
        .ok_or_else(|| shape(location, json_path, "not found in the file"))?;
    Ok(Removal { after, hook })
}

/// The record of the hook at `json_path` of `file` (parsed), before it is
/// taken out: its event, entry and handler index, matcher, the handler
/// (a flat entry: the entry) verbatim, and what the removal also takes
/// with it (the group, the event's list, `hooks`).
fn record(
    agent: AgentKind,
    location: &SettingsLocation,
    file: &Value,
    json_path: &str,
) -> Option<DisabledHook> {
    let listed = agent_files::hooks(agent, file);
    let event = listed
        .iter()
        .find(|h| h.json_path == json_path)?
        .event
        .clone();
    let (index, handler) = agent_edit::position(agent, file, &event, json_path)?;
    let root = file.as_object()?;
    let hooks = root.get("hooks")?.as_object()?;
    let entries = hooks.get(&event)?.as_array()?;
    let entry = entries.get(index)?;
    let (value, group, matcher, last_in_entry) = match handler {
        None => (
            entry.clone(),
            None,
            entry
                .get("matcher")
                .and_then(Value::as_str)
                .map(str::to_owned),
            true,
        ),
        Some(j) => {
            let handlers = entry.get("hooks")?.as_array()?;
            let mut template = entry.as_object()?.clone();
            template.insert("hooks".into(), Value::Array(Vec::new()));
            (
                handlers.get(j)?.clone(),
                (handlers.len() == 1).then_some(Value::Object(template)),
                entry
                    .get("matcher")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                handlers.len() == 1,
            )
        }
    };
    let event_goes = last_in_entry && entries.len() == 1;
    Some(DisabledHook {
        kind: location.kind,
        scope: location.scope,
        path: location.path.clone(),
        event: event.clone(),
        matcher,
        group_index: index,
        handler_index: handler.unwrap_or(0),
        handler: value,
        disabled_at: Utc::now(),
        group,
        event_index: event_goes
            .then(|| hooks.keys().position(|k| *k == event))
            .flatten(),
        hooks_index: (event_goes && hooks.len() == 1)
            .then(|| root.keys().position(|k| k == "hooks"))
            .flatten(),
        agent: None,
    })
}

/// Where `before` and `after` differ: the offset, the bytes of `before`
/// there and those of `after` (on character boundaries).
fn splice_of<'a>(before: &'a str, after: &'a str) -> (usize, &'a str, &'a str) {
    let (b, a) = (before.as_bytes(), after.as_bytes());
    let mut prefix = b.iter().zip(a).take_while(|(x, y)| x == y).count();
    while !before.is_char_boundary(prefix) || !after.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let most = b.len().min(a.len()) - prefix;
    let mut suffix = b
        .iter()
        .rev()
        .zip(a.iter().rev())
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    while !before.is_char_boundary(b.len() - suffix) || !after.is_char_boundary(a.len() - suffix) {
        suffix -= 1;
    }
    (
        prefix,
        &before[prefix..b.len() - suffix],
        &after[prefix..a.len() - suffix],
    )
}

/// `text` with the bytes `place` took out put back at its offset (and
/// what the removal put there taken out); `None` when those are not there.
fn splice(text: &str, place: &AgentPlace) -> Option<String> {
    let end = place.offset.checked_add(place.inserted.len())?;
    if text.get(place.offset..end)? != place.inserted {
        return None;
    }
    Some(format!(
        "{}{}{}",
        &text[..place.offset],
        place.removed,
        &text[end..]
    ))
}

/// `now` with the bytes `place` took out put back at its offset, provided
/// taking the hook out of the result again gives exactly `now` (it is
/// back where it was); `None` otherwise.
fn put_back(
    agent: AgentKind,
    location: &SettingsLocation,
    now: &str,
    place: &AgentPlace,
) -> Option<String> {
    let candidate = splice(now, place)?;
    let again = remove(
        agent,
        location,
        &candidate,
        &place.json_path,
        place.command.as_deref(),
    )
    .ok()?;
    (again.after == now).then_some(candidate)
}

/// The hooks of a file's text, as listed.
fn listed(agent: AgentKind, location: &SettingsLocation, text: &str) -> Option<Vec<AgentHook>> {
    let value = if format_of(agent, location) == AgentFileFormat::Toml {
        codex_toml::hooks_value(text).ok()?
    } else {
        SettingsDocument::parse(location, Some(text.as_bytes().to_vec()))
            .ok()?
            .value()
            .clone()
    };
    Some(agent_files::hooks(agent, &value))
}

/// Two listed hooks alike but for their place.
fn alike(a: &AgentHook, b: &AgentHook) -> bool {
    (
        &a.event,
        &a.matcher,
        &a.command,
        &a.handler_type,
        &a.name,
        a.timeout_secs,
    ) == (
        &b.event,
        &b.matcher,
        &b.command,
        &b.handler_type,
        &b.name,
        b.timeout_secs,
    )
}

/// `now` with `hook` put back exactly, when nothing but hookd's disables
/// changed the file since: the hooks disabled after it (`newer`, indices
/// into `records`) are put back newest first, each onto the very file its
/// removal left, then `hook` the same way, then the newer ones are taken
/// out again, oldest first, each where it now stands. Returns the file
/// and the newer ones' new records; `None` when a file on the way is not
/// what a removal left.
fn exactly(
    agent: AgentKind,
    location: &SettingsLocation,
    now: &str,
    hook: &DisabledHook,
    newer: &[usize],
    records: &[DisabledHook],
) -> Option<(String, Vec<DisabledHook>)> {
    let at_removal = |text: &str, place: &AgentPlace| {
        version_token(Some(text.as_bytes())) == place.after_version
    };
    let mut text = now.to_owned();
    // The file just before each newer one was taken out, without `hook`.
    let mut befores = Vec::new();
    for &i in newer.iter().rev() {
        let place = records[i].agent.as_ref()?;
        if !at_removal(&text, place) {
            return None;
        }
        text = splice(&text, place)?;
        befores.push(text.clone());
    }
    befores.reverse();
    let place = hook.agent.as_ref()?;
    if !at_removal(&text, place) {
        return None;
    }
    let mut text = splice(&text, place)?;
    let mut redone = Vec::new();
    for (&i, before) in newer.iter().zip(&befores) {
        let was = records[i].agent.as_ref()?;
        let without = listed(agent, location, before)?;
        let with = listed(agent, location, &text)?;
        // `hook` is back where the two lists first differ.
        let back = (0..with.len())
            .find(|&k| without.get(k).is_none_or(|h| !alike(h, &with[k])))
            .unwrap_or(with.len());
        let k = without.iter().position(|h| h.json_path == was.json_path)?;
        let there = with.get(if k >= back { k + 1 } else { k })?;
        let removal = remove(
            agent,
            location,
            &text,
            &there.json_path,
            was.command.as_deref(),
        )
        .ok()?;
        let mut record = removal.hook;
        record.disabled_at = records[i].disabled_at;
        record.agent = Some(place_of(
            agent,
            location,
            &there.json_path,
            was.command.as_deref(),
            &text,
            &removal.after,
        ));
        redone.push(record);
        text = removal.after;
    }
    Some((text, redone))
}

/// The [`AgentPlace`] of the hook at `json_path` (running `command`) of
/// the file `before`, which its removal made `after`.
fn place_of(
    agent: AgentKind,
    location: &SettingsLocation,
    json_path: &str,
    command: Option<&str>,
    before: &str,
    after: &str,
) -> AgentPlace {
    let (offset, removed, inserted) = splice_of(before, after);
    AgentPlace {
        agent: agent.as_str().to_owned(),
        format: format_of(agent, location),
        json_path: json_path.to_owned(),
        command: command.map(str::to_owned),
        offset,
        removed: removed.to_owned(),
        inserted: inserted.to_owned(),
        after_version: version_token(Some(after.as_bytes())),
    }
}

/// `now` (a JSON file that changed around the hook) with the hook put
/// back at its old place in its event: into its group when that group is
/// still there with the same matcher (Codex CLI, Gemini CLI), else its
/// group recreated; a flat entry at its old index. Rendered in the file's
/// style, every other byte kept.
fn restore_value(
    agent: AgentKind,
    location: &SettingsLocation,
    now: &str,
    hook: &DisabledHook,
) -> Result<String> {
    let parse_error = |message: String| AgentDisableError::Parse {
        path: location.path.clone(),
        message,
    };
    let bytes = (!now.is_empty()).then(|| now.as_bytes().to_vec());
    let mut doc =
        SettingsDocument::parse(location, bytes).map_err(|e| parse_error(e.to_string()))?;
    let broken = || shape(location, "hooks", "not an object of event lists any more");
    let root = doc.value_mut().as_object_mut().ok_or_else(broken)?;
    if !root.contains_key("hooks") {
        let at = hook.hooks_index.unwrap_or(root.len()).min(root.len());
        root.shift_insert(at, "hooks".into(), Value::Object(Map::new()));
    }
    let hooks = root
        .get_mut("hooks")
        .and_then(Value::as_object_mut)
        .ok_or_else(broken)?;
    if !hooks.contains_key(&hook.event) {
        let at = hook.event_index.unwrap_or(hooks.len()).min(hooks.len());
        hooks.shift_insert(at, hook.event.clone(), Value::Array(Vec::new()));
    }
    let entries = hooks
        .get_mut(&hook.event)
        .and_then(Value::as_array_mut)
        .ok_or_else(broken)?;
    let flat = matches!(agent, AgentKind::Cursor | AgentKind::Copilot);
    let at = hook.group_index.min(entries.len());
    let same_group =
        |e: &Value| e.get("matcher").and_then(Value::as_str) == hook.matcher.as_deref();
    if flat {
        entries.insert(at, hook.handler.clone());
    } else if let Some(group) = entries
        .get_mut(hook.group_index)
        .filter(|g| hook.group.is_none() && same_group(g))
        .and_then(|g| g.get_mut("hooks"))
        .and_then(Value::as_array_mut)
    {
        let j = hook.handler_index.min(group.len());
        group.insert(j, hook.handler.clone());
    } else {
        let mut group = match &hook.group {
            Some(Value::Object(template)) => template.clone(),
            _ => {
                let mut g = Map::new();
                if let Some(m) = &hook.matcher {
                    g.insert("matcher".into(), m.clone().into());
                }
                g
            }
        };
        group.insert("hooks".into(), Value::Array(vec![hook.handler.clone()]));
        entries.insert(at, Value::Object(group));
    }
    let bytes = doc.render()?;
    String::from_utf8(bytes).map_err(|e| parse_error(e.to_string()))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::settings::agent_edit::tests::{CODEX, COPILOT, CURSOR, GEMINI};
    use crate::settings::agent_files::tests::setup;
    use crate::settings::agent_files::{AgentHook, agent_hook_files};
    use crate::settings::codex_toml::tests::{CONFIG, INLINE};
    use crate::settings::location::Kind;
    use hookd_testkit::write_file as write;

    /// A Cursor file with three entries, two under one event.
    const CURSOR_THREE: &str = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      {\n        \"command\": \"./net.sh\",\n        \"matcher\": \"curl\"\n      },\n      { \"command\": \"./log.sh\" }\n    ],\n    \"stop\": [\n      {\n        \"command\": \"./done.sh\"\n      }\n    ]\n  }\n}\n";
    /// A Codex CLI hooks.json with two handlers in one group and another group.
    const CODEX_TWO: &str = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"./a.sh\"},\n          {\"type\": \"command\", \"command\": \"./b.sh\", \"timeout\": 5}\n        ]\n      },\n      {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"hookd-emit --agent codex PreToolUse\"}]}\n    ],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./stop.sh\"}]}]\n  }\n}\n";

    fn token(path: &Path) -> String {
        version_token(fs::read(path).ok().as_deref())
    }

    /// The hooks hookd lists for the file at `path`.
    fn hooks_of(roots: &SettingsRoots, project: &Path, path: &Path) -> Vec<AgentHook> {
        agent_hook_files(roots, Some(project))
            .into_iter()
            .find(|f| f.path == path)
            .map(|f| f.hooks)
            .unwrap_or_default()
    }

    fn every_agents_file(roots: &SettingsRoots, project: &Path) -> Vec<(PathBuf, &'static str)> {
        vec![
            (project.join(".cursor/hooks.json"), CURSOR),
            (project.join(".cursor/hooks.json"), CURSOR_THREE),
            (project.join(".github/hooks/guard.json"), COPILOT),
            (
                project.join(".github/hooks/two.json"),
                "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"./one.sh\"}, {\"type\": \"command\", \"bash\": \"./two.sh\", \"matcher\": \"bash\"}], \"agentStop\": [{\"type\": \"command\", \"bash\": \"./end.sh\"}]}}",
            ),
            (project.join(".gemini/settings.json"), GEMINI),
            (roots.codex_home.join("hooks.json"), CODEX),
            (roots.codex_home.join("hooks.json"), CODEX_TWO),
            (roots.codex_home.join("config.toml"), CONFIG),
            (project.join(".codex/config.toml"), INLINE),
        ]
    }

    #[test]
    fn agent_hook_disabled_then_enabled_gives_each_file_back_byte_for_byte() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        for (path, text) in every_agents_file(&roots, &project) {
            write(&path, text);
            let listed = hooks_of(&roots, &project, &path);
            assert!(!listed.is_empty(), "{}", path.display());
            for hook in listed.iter().filter(|h| !h.hookd) {
                let key = (hook.json_path.as_str(), hook.command.as_deref());
                let off = disable(&store, &roots, Some(&project), &path, key, &token(&path))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let after = fs::read_to_string(&path).unwrap();
                assert_ne!(after, text, "{}: taken out", path.display());
                let now = hooks_of(&roots, &project, &path);
                assert_eq!(now.len(), listed.len() - 1, "{}: {after}", path.display());
                assert_eq!(off.hook.event, hook.event);
                assert_eq!(off.restored, None);
                let codex = path.starts_with(&roots.codex_home) || path.ends_with("config.toml");
                assert_eq!(
                    off.notes.iter().any(|n| n.contains("by position")),
                    codex,
                    "{}: {:?}",
                    path.display(),
                    off.notes
                );
                let kept = disabled_in(&store, &path).unwrap();
                assert_eq!(kept.len(), 1);
                assert_eq!(kept[0].agent.as_ref().unwrap().json_path, hook.json_path);
                assert_eq!(kept[0].event, hook.event);
                let on = enable(&store, &roots, Some(&project), &path, key, &token(&path))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(on.restored, Some(Restored::Exactly));
                assert_eq!(
                    on.notes.iter().any(|n| n.contains("move down")),
                    codex,
                    "{:?}",
                    on.notes
                );
                assert_eq!(
                    fs::read_to_string(&path).unwrap(),
                    text,
                    "{} {}: back byte for byte",
                    path.display(),
                    hook.json_path
                );
                assert!(store.load().unwrap().is_empty());
            }
        }
    }

    #[test]
    fn agent_hooks_disabled_one_after_another_come_back_in_any_order() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        for (path, text) in every_agents_file(&roots, &project) {
            write(&path, text);
            let ours = |roots: &SettingsRoots| {
                hooks_of(roots, &project, &path)
                    .into_iter()
                    .filter(|h| !h.hookd)
                    .collect::<Vec<_>>()
            };
            let listed = ours(&roots);
            if listed.len() < 2 {
                continue;
            }
            // Disable the first two, each as then listed.
            let mut keys = Vec::new();
            for _ in 0..2 {
                let first = ours(&roots).remove(0);
                let key = (first.json_path.clone(), first.command.clone());
                disable(
                    &store,
                    &roots,
                    Some(&project),
                    &path,
                    (&key.0, key.1.as_deref()),
                    &token(&path),
                )
                .unwrap();
                keys.push(key);
            }
            assert_eq!(disabled_in(&store, &path).unwrap().len(), 2);
            // A config.toml left without hooks is no longer listed: still
            // offered, for its disabled ones.
            let gone = hooks_of(&roots, &project, &path).is_empty();
            let offered = unlisted(&store, &roots, Some(&project)).unwrap();
            assert_eq!(offered.iter().any(|u| u.2 == path), gone, "{offered:?}");
            // Newest first: exactly the file back.
            for (json_path, command) in keys.iter().rev() {
                enable(
                    &store,
                    &roots,
                    Some(&project),
                    &path,
                    (json_path, command.as_deref()),
                    &token(&path),
                )
                .unwrap();
            }
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                text,
                "{}",
                path.display()
            );
            // Oldest first: every hook back, in its order.
            for (json_path, command) in &keys {
                disable(
                    &store,
                    &roots,
                    Some(&project),
                    &path,
                    (json_path, command.as_deref()),
                    &token(&path),
                )
                .unwrap();
            }
            for (_, command) in &keys {
                // Where it is now kept: the ones disabled after it moved.
                let kept = disabled_in(&store, &path).unwrap();
                let place = kept
                    .iter()
                    .filter_map(|d| d.agent.as_ref())
                    .find(|p| p.command == *command)
                    .unwrap();
                enable(
                    &store,
                    &roots,
                    Some(&project),
                    &path,
                    (&place.json_path, command.as_deref()),
                    &token(&path),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            }
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                text,
                "{}: oldest first, byte for byte too",
                path.display()
            );
            let back: Vec<_> = ours(&roots)
                .into_iter()
                .map(|h| (h.event, h.command, h.matcher))
                .collect();
            let was: Vec<_> = listed
                .into_iter()
                .map(|h| (h.event, h.command, h.matcher))
                .collect();
            assert_eq!(back, was, "{}", path.display());
            assert!(store.load().unwrap().is_empty());
        }
    }

    #[test]
    fn agent_hook_of_an_administrators_or_extensions_file_is_refused() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        write(&roots.cursor_enterprise, CURSOR);
        let ext = roots.home.join(".gemini/extensions/audit");
        write(
            &ext.join("gemini-extension.json"),
            r#"{"name": "audit", "version": "1.0.0"}"#,
        );
        let hooks = ext.join("hooks/hooks.json");
        write(
            &hooks,
            r#"{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "./a.sh"}]}]}}"#,
        );
        for (path, json_path, command) in [
            (
                roots.cursor_enterprise.clone(),
                "hooks.stop[0]",
                "./done.sh",
            ),
            (hooks, "hooks.AfterAgent[0].hooks[0]", "./a.sh"),
        ] {
            let before = fs::read(&path).unwrap();
            let err = disable(
                &store,
                &roots,
                Some(&project),
                &path,
                (json_path, Some(command)),
                &token(&path),
            )
            .unwrap_err();
            assert!(
                matches!(
                    err,
                    AgentDisableError::Refused(
                        AgentFileRefused::ReadOnly { .. } | AgentFileRefused::Extension { .. }
                    )
                ),
                "{err:?}"
            );
            assert_eq!(fs::read(&path).unwrap(), before);
        }
        assert!(store.load().unwrap().is_empty());
    }

    #[test]
    fn agent_hook_is_not_disabled_or_enabled_in_a_file_that_changed_on_disk() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        let path = project.join(".cursor/hooks.json");
        write(&path, CURSOR_THREE);
        let shown = token(&path);
        let theirs = CURSOR_THREE.replace("./log.sh", "./theirs.sh");
        fs::write(&path, &theirs).unwrap();
        let key = ("hooks.stop[0]", Some("./done.sh"));
        let err = disable(&store, &roots, Some(&project), &path, key, &shown).unwrap_err();
        assert!(
            matches!(err, AgentDisableError::ChangedOnDisk { .. }),
            "{err:?}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), theirs);
        assert!(store.load().unwrap().is_empty());

        disable(&store, &roots, Some(&project), &path, key, &token(&path)).unwrap();
        let disabled = fs::read_to_string(&path).unwrap();
        let err = enable(&store, &roots, Some(&project), &path, key, &shown).unwrap_err();
        assert!(
            matches!(err, AgentDisableError::ChangedOnDisk { .. }),
            "{err:?}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), disabled);
        assert_eq!(disabled_in(&store, &path).unwrap().len(), 1);
        // Not Claude Code's: its files' lists leave it out.
        let claude = roots
            .location(Kind::Agent, Scope::Project, Some(&project))
            .unwrap();
        let mut as_claude = claude;
        as_claude.path = path.clone();
        assert!(store.for_location(&as_claude).unwrap().is_empty());
        // hookd's own entry is hookd disconnect's, and a hook no longer
        // there is refused.
        let err = disable(
            &store,
            &roots,
            Some(&project),
            &path,
            ("hooks.stop[3]", Some("./x.sh")),
            &token(&path),
        )
        .unwrap_err();
        assert!(matches!(err, AgentDisableError::Shape { .. }), "{err:?}");
        let err = enable(
            &store,
            &roots,
            Some(&project),
            &path,
            ("hooks.stop[3]", Some("./x.sh")),
            &token(&path),
        )
        .unwrap_err();
        assert!(
            matches!(err, AgentDisableError::NotDisabled { .. }),
            "{err:?}"
        );
    }

    #[test]
    fn agent_hook_disable_rolls_back_the_store_when_the_file_cannot_be_written() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        let path = project.join(".cursor/hooks.json");
        write(&path, CURSOR_THREE);
        // The backups' directory is a file: the write's backup fails.
        write(&roots.backups, "not a directory");
        let err = disable(
            &store,
            &roots,
            Some(&project),
            &path,
            ("hooks.stop[0]", Some("./done.sh")),
            &token(&path),
        )
        .unwrap_err();
        assert!(matches!(err, AgentDisableError::Settings(_)), "{err:?}");
        assert_eq!(fs::read_to_string(&path).unwrap(), CURSOR_THREE);
        assert!(store.load().unwrap().is_empty(), "rolled back");
    }

    #[test]
    fn agent_hook_comes_back_at_its_place_when_the_file_changed_around_it() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        let path = project.join(".cursor/hooks.json");
        write(&path, CURSOR_THREE);
        disable(
            &store,
            &roots,
            Some(&project),
            &path,
            ("hooks.beforeShellExecution[0]", Some("./net.sh")),
            &token(&path),
        )
        .unwrap();
        // Someone else rewrites the file (another layout, one more hook).
        fs::write(
            &path,
            r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./log.sh"}], "stop": [{"command": "./done.sh"}, {"command": "./new.sh"}]}}"#,
        )
        .unwrap();
        let on = enable(
            &store,
            &roots,
            Some(&project),
            &path,
            ("hooks.beforeShellExecution[0]", Some("./net.sh")),
            &token(&path),
        )
        .unwrap();
        assert_eq!(on.restored, Some(Restored::AtItsPlace));
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            value["hooks"]["beforeShellExecution"],
            serde_json::json!([{"command": "./net.sh", "matcher": "curl"}, {"command": "./log.sh"}])
        );
        assert_eq!(value["hooks"]["stop"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn agent_hook_of_a_deleted_file_is_not_enabled_and_its_record_stays() {
        let (_dir, roots, project) = setup();
        let store = DisabledStore::for_roots(&roots);
        let path = project.join(".cursor/hooks.json");
        write(&path, CURSOR_THREE);
        let key = ("hooks.beforeShellExecution[0]", Some("./net.sh"));
        disable(&store, &roots, Some(&project), &path, key, &token(&path)).unwrap();
        fs::remove_file(&path).unwrap();
        let err = enable(&store, &roots, Some(&project), &path, key, &token(&path)).unwrap_err();
        assert!(matches!(err, AgentDisableError::FileGone { .. }), "{err}");
        let message = err.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(
            message.contains("is gone") && message.contains("stays"),
            "{message}"
        );
        assert_eq!(disabled_in(&store, &path).unwrap().len(), 1);
    }

    #[test]
    fn agent_hook_that_cannot_go_back_into_a_changed_config_toml_is_named_in_neutral_words() {
        let err = AgentDisableError::CannotRestore {
            path: PathBuf::from("/h/.codex/config.toml"),
            event: "Stop".into(),
            command: "./stop.sh".into(),
            json_path: "hooks.Stop[0].hooks[0]".into(),
        }
        .to_string();
        assert!(!err.contains("Add hook"), "{err}");
        assert!(err.contains("Stop") && err.contains("./stop.sh"), "{err}");
        assert!(err.contains("stays disabled in hookd's store"), "{err}");
    }
}
