//! Adds and removes the hooks that make Claude Code call `hookd-emit`.
//!
//! Settings files belong to the user and usually hold much more than hooks
//! (permissions, env, plugins, other people's hooks). A known failure of peer
//! tools is a save that erased those, so every edit here is surgical: the file
//! is parsed with key order preserved, only hookd's own handlers are added or
//! removed, the original indentation and trailing newline are kept, a file of
//! an unexpected shape is refused rather than "repaired", and the write goes
//! through [`crate::fs_atomic`] with a backup. hookd's handlers are recognised
//! by their command alone (first word's basename is `hookd-emit`), so no marker
//! field is needed and a moved binary is still found.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use crate::fs_atomic::{FsAtomicError, WriteOutcome};
use crate::settings::document::{SettingsDocument, SettingsLock, read_if_exists};
use crate::settings::error::SettingsError;
use crate::settings::events::{Connected, EVENTS, EventSpec};
use crate::settings::location::{Kind, Scope, SettingsLocation};

/// Basename of the program hookd's handlers run; also how they are recognised.
pub const EMIT_PROGRAM: &str = "hookd-emit";

/// Timeout (seconds) put on every hookd handler, so a broken emitter can never
/// stall the agent for the default 600 s.
pub const HANDLER_TIMEOUT_SECS: u64 = 10;

/// One hook hookd installs: an agent event and the argument `hookd-emit` gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    /// Claude Code event name, the key under `hooks`.
    pub event: &'static str,
    /// First argument to `hookd-emit`: the event in snake_case.
    pub arg: String,
    /// The group's matcher; `None` leaves the key out, which means "all".
    pub matcher: Option<&'static str>,
}

impl HookSpec {
    fn of(spec: &EventSpec) -> Self {
        Self {
            event: spec.name,
            arg: crate::names::normalize_hook_type(spec.name),
            // No tool name in the command: hookd-emit reads it from the
            // payload, so one "*" group covers every tool, MCP ones included.
            matcher: spec.is_tool_event().then_some("*"),
        }
    }
}

/// Every hook [`connect`] adds, in the order they are added: the events the
/// catalogue ([`EVENTS`]) marks [`Connected::Always`], in its order.
pub static HOOKS: LazyLock<Vec<HookSpec>> = LazyLock::new(|| {
    EVENTS
        .iter()
        .filter(|e| e.connected == Connected::Always)
        .map(HookSpec::of)
        .collect()
});

/// Every hook [`Mode::Managed`] installs: the recorded events plus the ones
/// hookd's managed hooks may want to answer ([`Connected::Managed`]:
/// PermissionRequest, PostCompact).
pub static MANAGED_HOOKS: LazyLock<Vec<HookSpec>> = LazyLock::new(|| {
    EVENTS
        .iter()
        .filter(|e| e.connected != Connected::No)
        .map(HookSpec::of)
        .collect()
});

/// Flag that turns `hookd-emit` into managed mode.
pub const WAIT_FLAG: &str = "--wait";

/// What the agent's hook entries do.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ConnectMode"))]
pub enum Mode {
    /// `hookd-emit <event>`: record only, never change what the agent does.
    #[default]
    Record,
    /// `hookd-emit --wait <event>`: record, and relay the answer of hookd's
    /// managed hooks (`~/.hookd/settings.json`, `<project>/.hookd/…`).
    Managed,
}

impl Mode {
    /// The hooks this mode installs.
    pub fn hooks(self) -> &'static [HookSpec] {
        match self {
            Self::Record => HOOKS.as_slice(),
            Self::Managed => MANAGED_HOOKS.as_slice(),
        }
    }

    /// The handler timeout in seconds: short when only recording; when
    /// managed, longer than the managed hooks' own default timeout (600 s,
    /// 30 s for UserPromptSubmit) plus hookd-emit's margin, so the agent never
    /// kills the relay before the hooks' answer.
    pub fn timeout_secs(self, spec: &HookSpec) -> u64 {
        match self {
            Self::Record => HANDLER_TIMEOUT_SECS,
            Self::Managed if spec.event == "UserPromptSubmit" => 40,
            Self::Managed => 610,
        }
    }

    /// The handler's command for `spec`.
    pub fn command(self, emit: &str, spec: &HookSpec) -> String {
        match self {
            Self::Record => format!("{emit} {}", spec.arg),
            Self::Managed => format!("{emit} {WAIT_FLAG} {}", spec.arg),
        }
    }
}

/// A settings file whose structure is not what Claude Code expects, located
/// by a JSON path such as `hooks.PreToolUse[1]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{json_path}: {problem}")]
pub struct ShapeError {
    /// Where in the document, e.g. `hooks.PreToolUse[1]` (`top level` for the root).
    pub json_path: String,
    /// What is wrong there, e.g. "expected an object".
    pub problem: Cow<'static, str>,
}

/// Errors from connecting or disconnecting; each names the file involved.
///
/// Messages leave the underlying error out and expose it as `source()`, so a
/// chain printer (`{:#}` in anyhow) shows it exactly once.
#[derive(Debug, thiserror::Error)]
pub enum AgentConnectError {
    /// The settings file exists but could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The settings file.
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// The settings file is not valid JSON; it is left alone.
    #[error("refusing to edit {path}: not valid JSON")]
    Parse {
        /// The settings file.
        path: PathBuf,
        /// Where and why parsing failed.
        source: serde_json::Error,
    },
    /// Codex CLI's `config.toml` is not valid TOML; it is left alone.
    #[error("refusing to edit {path}: not valid TOML: {message}")]
    ParseToml {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// The settings file is JSON of the wrong shape; it is left alone.
    #[error("refusing to edit {path}: {shape}")]
    Shape {
        /// The settings file.
        path: PathBuf,
        /// What is wrong and where.
        shape: ShapeError,
    },
    /// The directory that should hold a new settings file could not be created.
    #[error("cannot create directory {path}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// Writing the settings file (or its backup) failed.
    #[error(transparent)]
    Write(#[from] FsAtomicError),
    /// A project's hooks file leads out of the project (a symbolic link
    /// on the way), so hookd does not make the directory it would sit in.
    #[error("refusing to write {path}")]
    OutOfProject {
        /// The hooks file.
        path: PathBuf,
        /// Where the path leads and why that is refused.
        source: crate::fs_atomic::confine::ConfineError,
    },
    /// A hooks file of hookd's own, left empty by a disconnect, could not
    /// be removed.
    #[error("cannot remove {path}")]
    Remove {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// The file is no longer what the preview approved (another editor,
    /// the agent, another hookd wrote it since); nothing was written.
    #[error("{path} changed since the preview; nothing was written")]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// An explicit emit command that does not run `hookd-emit`.
    #[error(
        "emit command {0:?} does not run a program named hookd-emit; hookd finds its hooks by that name, so disconnect could never remove them"
    )]
    EmitCommand(String),
}

/// Result alias for this module.
pub type Result<T, E = AgentConnectError> = std::result::Result<T, E>;

/// What [`connect`] or [`disconnect`] did (or, in a dry run, would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeReport {
    /// The settings file that was examined.
    pub path: PathBuf,
    /// Events that gained a hookd group (connect) or lost hookd handlers
    /// (disconnect), in file order.
    pub events: Vec<String>,
    /// Hook groups added (connect) or hookd handlers removed (disconnect).
    pub count: usize,
    /// Whether the file was written, would be, or needed nothing.
    pub status: ChangeStatus,
    /// True when the file sets `disableAllHooks: true`, so the agent runs no hook at all.
    pub hooks_disabled: bool,
}

/// Outcome of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeStatus {
    /// The file was written.
    Written(WriteOutcome),
    /// Dry run: the file would be written (`creates`: it does not exist yet).
    WouldWrite {
        /// True when the file does not exist yet.
        creates: bool,
    },
    /// Nothing to change; the file was not touched.
    Unchanged,
    /// The file does not exist, so there is nothing to remove.
    Missing,
}

/// Adds hookd's hook groups to the settings file at `path` (creating it and
/// its directory if needed), skipping events that already call `hookd-emit`
/// with the same argument. `emit` is the shell command prefix, normally from
/// [`emit_command`]. When nothing is missing the file is not rewritten.
/// A bare path keeps no backup: the CLI and the app connect a location
/// from [`super::SettingsRoots`] ([`connect_at`]), which does.
pub fn connect(path: &Path, emit: &str, dry_run: bool) -> Result<ChangeReport> {
    connect_mode(path, emit, Mode::Record, dry_run)
}

/// [`connect`] in the given [`Mode`]. hookd handlers of the other mode are
/// replaced (their events are reported as added), so switching between
/// recording and managed mode leaves one hookd entry per event.
///
/// The file is read, edited and written under its
/// [`SettingsLock`], so a concurrent `hookd hooks add`, app save or
/// template install is neither lost nor loses this edit.
pub fn connect_mode(path: &Path, emit: &str, mode: Mode, dry_run: bool) -> Result<ChangeReport> {
    connect_at(&location(path), emit, mode, dry_run)
}

/// [`connect_mode`] on a settings location: a project or local file whose
/// path leads out of the project through a symbolic link is refused (see
/// [`SettingsLock`]), where a bare path is only followed.
pub fn connect_at(
    location: &SettingsLocation,
    emit: &str,
    mode: Mode,
    dry_run: bool,
) -> Result<ChangeReport> {
    if dry_run {
        return Ok(plan_connect(read(location)?, emit, mode)?.report);
    }
    let lock = lock(location)?;
    let plan = plan_connect(read_locked(&lock)?, emit, mode)?;
    write(&lock, plan)
}

/// Adds hookd's entries to the file at `location` with `add` (which
/// returns the events that gained one), as [`connect_at`] does: under the
/// file's lock, only when anything is missing, every other byte kept. The
/// way another agent's files are connected (`super::gemini`).
pub(crate) fn add_at(
    location: &SettingsLocation,
    dry_run: bool,
    add: impl FnOnce(&mut Value) -> Result<Vec<String>, ShapeError>,
) -> Result<ChangeReport> {
    if dry_run {
        return Ok(plan_add(read(location)?, add)?.report);
    }
    let lock = lock(location)?;
    let plan = plan_add(read_locked(&lock)?, add)?;
    write(&lock, plan)
}

/// [`add_at`], provided the file is still what the preview of `version`
/// ([`EditPreview::version`]) read: compared under the file's lock with
/// what is written, else [`AgentConnectError::Changed`] and nothing is.
pub(crate) fn add_if(
    location: &SettingsLocation,
    version: &str,
    add: impl FnOnce(&mut Value) -> Result<Vec<String>, ShapeError>,
) -> Result<ChangeReport> {
    let lock = lock(location)?;
    let plan = plan_add(read_locked(&lock)?, add)?;
    same_version(&preview(&plan)?, version)?;
    write(&lock, plan)
}

/// Refuses an edit whose file is no longer what the preview of `version`
/// read.
pub(crate) fn same_version(now: &EditPreview, version: &str) -> Result<()> {
    if now.version() == version {
        Ok(())
    } else {
        Err(AgentConnectError::Changed {
            path: now.report.path.clone(),
        })
    }
}

/// What [`add_at`] would write: the file before and after.
pub(crate) fn preview_add_at(
    location: &SettingsLocation,
    add: impl FnOnce(&mut Value) -> Result<Vec<String>, ShapeError>,
) -> Result<EditPreview> {
    preview(&plan_add(read(location)?, add)?)
}

/// What an edit of a file's text worked out: the events it touched and the
/// file's new bytes. The way a file hookd does not parse as JSON is edited
/// (Codex CLI's `config.toml`, `super::codex_toml`) with the same lock,
/// version check, backup and atomic write as [`add_if`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextEdit {
    /// The events the edit touched, in file order.
    pub(crate) events: Vec<String>,
    /// The file's new bytes (the old ones: nothing changes).
    pub(crate) after: Vec<u8>,
}

/// What [`edit_text_if`] would write to the file at `location` with
/// `edit` (given the file's bytes, `None` when it does not exist): the
/// file before and after.
pub(crate) fn preview_text_at(
    location: &SettingsLocation,
    edit: impl FnOnce(Option<&[u8]>) -> Result<TextEdit>,
) -> Result<EditPreview> {
    let before = read_if_exists(&location.path).map_err(|e| from_settings(&location.path, e))?;
    plan_text(&location.path, before, edit)
}

/// Writes what `edit` makes of the file at `location`, provided the file
/// is still what the preview of `version` ([`EditPreview::version`]) read:
/// read, compared and written under the file's lock, with a backup, else
/// [`AgentConnectError::Changed`] and nothing is written. When the text
/// does not change, nothing is written.
pub(crate) fn edit_text_if(
    location: &SettingsLocation,
    version: &str,
    edit: impl FnOnce(Option<&[u8]>) -> Result<TextEdit>,
) -> Result<ChangeReport> {
    let lock = lock(location)?;
    let before = lock.read().map_err(|e| from_settings(&location.path, e))?;
    let existed = before.is_some();
    let plan = plan_text(&location.path, before, edit)?;
    same_version(&plan, version)?;
    let EditPreview {
        mut report, after, ..
    } = plan;
    if let (ChangeStatus::WouldWrite { .. }, Some(after)) = (&report.status, after) {
        let outcome = lock
            .put_bytes(&after, existed)
            .map_err(|e| from_settings(&location.path, e))?;
        report.status = ChangeStatus::Written(outcome);
    }
    Ok(report)
}

/// The preview of a text edit of the file at `path`, whose bytes are
/// `before`.
fn plan_text(
    path: &Path,
    before: Option<Vec<u8>>,
    edit: impl FnOnce(Option<&[u8]>) -> Result<TextEdit>,
) -> Result<EditPreview> {
    let TextEdit { events, after } = edit(before.as_deref())?;
    let status = if before.as_deref() == Some(after.as_slice()) {
        ChangeStatus::Unchanged
    } else {
        ChangeStatus::WouldWrite {
            creates: before.is_none(),
        }
    };
    Ok(EditPreview {
        report: ChangeReport {
            path: path.to_path_buf(),
            count: events.len(),
            events,
            status,
            hooks_disabled: false,
        },
        before,
        after: Some(after),
    })
}

/// Removes every `hookd-emit` handler from the settings file at `path`, and
/// the groups, event lists and `hooks` object that only held them. Anything
/// else stays byte-for-byte equivalent; with nothing to remove the file is not
/// rewritten. Read, edited and written under the file's lock, like
/// [`connect_mode`].
pub fn disconnect(path: &Path, dry_run: bool) -> Result<ChangeReport> {
    disconnect_at(&location(path), dry_run)
}

/// [`disconnect`] on a settings location (see [`connect_at`]).
pub fn disconnect_at(location: &SettingsLocation, dry_run: bool) -> Result<ChangeReport> {
    if dry_run {
        return Ok(plan_disconnect(read(location)?)?.report);
    }
    let lock = lock(location)?;
    let plan = plan_disconnect(read_locked(&lock)?)?;
    write(&lock, plan)
}

/// A settings file's exact text before and after an edit, so the change can
/// be shown (and approved) before anything is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditPreview {
    /// What the edit would report with `dry_run` (status `WouldWrite`,
    /// `Unchanged` or `Missing`).
    pub report: ChangeReport,
    /// The file's bytes now; `None` when it does not exist.
    pub before: Option<Vec<u8>>,
    /// The bytes the edit would write (formatting kept); equal to `before`
    /// when nothing changes.
    pub after: Option<Vec<u8>>,
}

impl EditPreview {
    /// The version token of the file as this preview read it
    /// ([`crate::settings::version`]).
    pub fn version(&self) -> String {
        crate::settings::version::version_token(self.before.as_deref())
    }
}

/// What [`connect_mode`] would write to `path`, from one read of the file:
/// the same plan the real edit follows, rendered instead of saved.
pub fn preview_connect(path: &Path, emit: &str, mode: Mode) -> Result<EditPreview> {
    preview_connect_at(&location(path), emit, mode)
}

/// [`preview_connect`] of a settings location (what [`connect_at`] would write).
pub fn preview_connect_at(
    location: &SettingsLocation,
    emit: &str,
    mode: Mode,
) -> Result<EditPreview> {
    preview(&plan_connect(read(location)?, emit, mode)?)
}

/// What [`disconnect`] would write to `path`.
pub fn preview_disconnect(path: &Path) -> Result<EditPreview> {
    preview_disconnect_at(&location(path))
}

/// [`preview_disconnect`] of a settings location (what [`disconnect_at`] would write).
pub fn preview_disconnect_at(location: &SettingsLocation) -> Result<EditPreview> {
    preview(&plan_disconnect(read(location)?)?)
}

/// An edit worked out but not written.
struct Plan {
    /// The report as a dry run gives it.
    report: ChangeReport,
    /// The file as planned from (its bytes, `None`: it did not exist).
    doc: SettingsDocument,
    /// The edited document, when anything changes.
    edited: Option<SettingsDocument>,
}

fn plan_connect(doc: SettingsDocument, emit: &str, mode: Mode) -> Result<Plan> {
    plan_add(doc, |settings| {
        add_hooks_for(settings, emit, mode)
            .map(|added| added.into_iter().map(str::to_owned).collect())
    })
}

/// The plan of adding hookd's entries to `doc` with `add` (which returns
/// the events that gained one): Claude Code's [`add_hooks_for`], or
/// another agent's (`super::gemini`).
fn plan_add(
    doc: SettingsDocument,
    add: impl FnOnce(&mut Value) -> Result<Vec<String>, ShapeError>,
) -> Result<Plan> {
    let path = doc.path().to_path_buf();
    let mut edited = doc.clone();
    let added = add(edited.value_mut()).map_err(|shape| shape_error(&path, shape))?;
    let mut report = ChangeReport {
        count: added.len(),
        events: added,
        status: ChangeStatus::Unchanged,
        hooks_disabled: hooks_disabled(edited.value()),
        path,
    };
    let edited = if report.events.is_empty() {
        None
    } else {
        report.status = ChangeStatus::WouldWrite {
            creates: !doc.existed(),
        };
        Some(edited)
    };
    Ok(Plan {
        report,
        doc,
        edited,
    })
}

fn plan_disconnect(doc: SettingsDocument) -> Result<Plan> {
    let path = doc.path().to_path_buf();
    let mut report = ChangeReport {
        path: path.clone(),
        events: Vec::new(),
        count: 0,
        status: ChangeStatus::Missing,
        hooks_disabled: false,
    };
    if !doc.existed() {
        return Ok(Plan {
            report,
            doc,
            edited: None,
        });
    }
    let mut edited = doc.clone();
    let (events, count) =
        remove_hooks(edited.value_mut()).map_err(|shape| shape_error(&path, shape))?;
    report.events = events;
    report.count = count;
    report.hooks_disabled = hooks_disabled(edited.value());
    let edited = if count == 0 {
        report.status = ChangeStatus::Unchanged;
        None
    } else {
        report.status = ChangeStatus::WouldWrite { creates: false };
        Some(edited)
    };
    Ok(Plan {
        report,
        doc,
        edited,
    })
}

fn preview(plan: &Plan) -> Result<EditPreview> {
    let after = match &plan.edited {
        Some(doc) => Some(render(doc)?),
        None => plan.doc.original_bytes().map(<[u8]>::to_vec),
    };
    Ok(EditPreview {
        report: plan.report.clone(),
        before: plan.doc.original_bytes().map(<[u8]>::to_vec),
        after,
    })
}

/// [`connect_mode`], provided `check` accepts the preview of the edit as
/// worked out under the file's lock: an editor that showed the user a
/// preview passes a check of its version token
/// ([`EditPreview::version`]), which is then compared with the file as it
/// is written, not as it was a moment before. A refusal writes nothing.
/// `location` is the file's (see [`connect_at`]: a project or local file
/// that leads out of its project is refused).
pub fn connect_checked<E: From<AgentConnectError>>(
    location: &SettingsLocation,
    emit: &str,
    mode: Mode,
    check: impl FnOnce(&EditPreview) -> std::result::Result<(), E>,
) -> std::result::Result<ChangeReport, E> {
    let lock = lock(location)?;
    let plan = plan_connect(read_locked(&lock)?, emit, mode)?;
    check(&preview(&plan)?)?;
    Ok(write(&lock, plan)?)
}

/// [`disconnect`], provided `check` accepts the preview worked out under
/// the file's lock (see [`connect_checked`]).
pub fn disconnect_checked<E: From<AgentConnectError>>(
    location: &SettingsLocation,
    check: impl FnOnce(&EditPreview) -> std::result::Result<(), E>,
) -> std::result::Result<ChangeReport, E> {
    let lock = lock(location)?;
    let plan = plan_disconnect(read_locked(&lock)?)?;
    check(&preview(&plan)?)?;
    Ok(write(&lock, plan)?)
}

/// Writes a plan's edit through the lock it was planned under.
fn write(lock: &SettingsLock, plan: Plan) -> Result<ChangeReport> {
    let Plan {
        mut report,
        doc,
        edited,
    } = plan;
    if let Some(edited) = edited {
        let outcome = lock
            .put(&edited)
            .map_err(|e| from_settings(doc.path(), e))?;
        report.status = ChangeStatus::Written(outcome);
    }
    Ok(report)
}

/// Adds hookd's groups to a parsed settings document, appending after the
/// user's groups; returns the events that gained one.
pub fn add_hooks(settings: &mut Value, emit: &str) -> Result<Vec<&'static str>, ShapeError> {
    add_hooks_for(settings, emit, Mode::Record)
}

/// [`add_hooks`] for a [`Mode`]; hookd handlers of the other mode are removed first.
pub fn add_hooks_for(
    settings: &mut Value,
    emit: &str,
    mode: Mode,
) -> Result<Vec<&'static str>, ShapeError> {
    check_shape(settings)?;
    remove_hooks_where(settings, |handler| handler_mode(handler) != Some(mode))?;
    let Value::Object(root) = settings else {
        return Err(shape("top level".into(), "an object"));
    };
    let mut added = Vec::new();
    for spec in mode.hooks() {
        let present = root
            .get("hooks")
            .and_then(|hooks| hooks.get(spec.event))
            .and_then(Value::as_array)
            .is_some_and(|groups| groups.iter().any(|g| has_emit_handler(g, &spec.arg, mode)));
        if present {
            continue;
        }
        push_group(root, spec.event, hook_group(spec, emit, mode))?;
        added.push(spec.event);
    }
    Ok(added)
}

/// Adds hookd's group (`handler(event)`, matching every tool (`*`) for the
/// events in `tool_events`) to each of `events` in a parsed hooks file of
/// Claude Code's shape (another agent's: Gemini CLI's `settings.json`,
/// Codex CLI's `hooks.json`) that has no hookd handler of `mode`, after the
/// user's groups. hookd's handlers of the other mode become
/// `handler(event)` where they stand, or go where `events` has no such
/// event, so switching modes leaves one hookd entry per event in its
/// place. Returns the events that gained one.
pub(crate) fn add_groups(
    settings: &mut Value,
    events: &[&str],
    tool_events: &[&str],
    mode: Mode,
    handler: impl Fn(&str) -> Value,
) -> Result<Vec<String>, ShapeError> {
    check_shape(settings)?;
    let mut added = Vec::new();
    if let Some(Value::Object(hooks)) = settings.get_mut("hooks") {
        for (event, groups) in hooks.iter_mut() {
            if !events.contains(&event.as_str()) {
                continue;
            }
            let handlers = groups
                .as_array_mut()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut))
                .flatten();
            for slot in handlers {
                if handler_mode(slot).is_some_and(|m| m != mode) {
                    *slot = handler(event);
                    added.push(event.clone());
                }
            }
        }
    }
    remove_hooks_where(settings, |h| handler_mode(h).is_some_and(|m| m != mode))?;
    let Value::Object(root) = settings else {
        return Err(shape("top level".into(), "an object"));
    };
    for &event in events {
        let present = root
            .get("hooks")
            .and_then(|hooks| hooks.get(event))
            .and_then(Value::as_array)
            .is_some_and(|groups| {
                groups
                    .iter()
                    .filter_map(|g| g.get("hooks").and_then(Value::as_array))
                    .flatten()
                    .any(|h| handler_mode(h) == Some(mode))
            });
        if present {
            continue;
        }
        let mut group = Map::new();
        if tool_events.contains(&event) {
            group.insert("matcher".into(), "*".into());
        }
        group.insert("hooks".into(), Value::Array(vec![handler(event)]));
        push_group(root, event, Value::Object(group))?;
        added.push(event.to_owned());
    }
    // In the order of `events`, however the file orders them.
    added.sort_by_key(|event| events.iter().position(|e| e == event));
    Ok(added)
}

/// The command of hookd's entry for `agent`'s `event` (its own spelling):
/// `<emit> --agent <agent> <event>`, with [`WAIT_FLAG`] first in
/// [`Mode::Managed`].
pub(crate) fn agent_command(emit: &str, mode: Mode, agent: &str, event: &str) -> String {
    match mode {
        Mode::Record => format!("{emit} --agent {agent} {event}"),
        Mode::Managed => format!("{emit} {WAIT_FLAG} --agent {agent} {event}"),
    }
}

/// The timeout, in seconds, of hookd's entry for another agent's event in
/// `mode` (`prompt`: the event of a submitted prompt), as
/// [`Mode::timeout_secs`] chooses it for Claude Code's.
pub(crate) fn agent_timeout_secs(mode: Mode, prompt: bool) -> u64 {
    match (mode, prompt) {
        (Mode::Record, _) => HANDLER_TIMEOUT_SECS,
        (Mode::Managed, true) => 40,
        (Mode::Managed, false) => 610,
    }
}

/// Appends `group` to `event`'s list under `hooks` in the settings object
/// `root`, creating either when missing (`entry` appends new keys at the
/// end, so the user's keys keep their order).
pub(crate) fn push_group(
    root: &mut Map<String, Value>,
    event: &str,
    group: Value,
) -> Result<(), ShapeError> {
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(shape("hooks".into(), "an object"));
    };
    let groups = hooks
        .entry(event)
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(groups) = groups else {
        return Err(shape(event_path(event), "an array"));
    };
    groups.push(group);
    Ok(())
}

/// Removes every hookd handler from a parsed settings document; returns the
/// events that lost one (in document order) and how many handlers went.
pub fn remove_hooks(settings: &mut Value) -> Result<(Vec<String>, usize), ShapeError> {
    remove_hooks_where(settings, |_| true)
}

/// [`remove_hooks`] for another agent's file of Claude Code's shape (Gemini
/// CLI's, Codex CLI's): returns the event of each handler removed, in
/// document order, as the flat files report it.
pub(crate) fn remove_each(settings: &mut Value) -> Result<Vec<String>, ShapeError> {
    let each: Vec<String> = settings
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .flat_map(|(event, groups)| {
            groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get("hooks").and_then(Value::as_array))
                .flatten()
                .filter(|h| is_hookd_handler(h))
                .map(move |_| event.clone())
        })
        .collect();
    remove_hooks(settings)?;
    Ok(each)
}

/// Removes the hookd handlers for which `doomed` is true (see [`remove_hooks`]).
fn remove_hooks_where(
    settings: &mut Value,
    doomed: impl Fn(&Value) -> bool,
) -> Result<(Vec<String>, usize), ShapeError> {
    check_shape(settings)?;
    let Value::Object(root) = settings else {
        return Err(shape("top level".into(), "an object"));
    };
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return Ok((Vec::new(), 0));
    };
    let mut events = Vec::new();
    let mut removed = 0;
    hooks.retain(|event, groups| {
        let Value::Array(groups) = groups else {
            return true;
        };
        let before = removed;
        groups.retain_mut(|group| {
            let Some(Value::Array(handlers)) = group.get_mut("hooks") else {
                return true;
            };
            let len = handlers.len();
            handlers.retain(|h| !(is_hookd_handler(h) && doomed(h)));
            let gone = len - handlers.len();
            removed += gone;
            // A group the user left empty is theirs to keep; only drop the
            // ones that were emptied here.
            !(gone > 0 && handlers.is_empty())
        });
        if removed == before {
            return true;
        }
        events.push(event.clone());
        !groups.is_empty()
    });
    if removed > 0 && hooks.is_empty() {
        // `shift_remove`, not `remove`: with preserve_order the latter swaps
        // the last key into this position.
        root.shift_remove("hooks");
    }
    Ok((events, removed))
}

/// The events a parsed settings document has the agent call hookd for,
/// with the strongest [`Mode`] among its hookd handlers there
/// ([`Mode::Managed`] wins over [`Mode::Record`]), keyed by the event's
/// key under `hooks`. What is not an object or array is skipped.
pub fn relayed_events(settings: &Value) -> BTreeMap<String, Mode> {
    let mut out = BTreeMap::new();
    let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in hooks {
        let modes = groups
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|group| group.get("hooks").and_then(Value::as_array))
            .flatten()
            .filter_map(handler_mode);
        if let Some(mode) = modes.max() {
            out.insert(event.clone(), mode);
        }
    }
    out
}

/// Whether the hooks file at `location` has an entry of hookd's, as
/// `is_ours` reads the parsed file; a missing or unreadable file has none.
pub(crate) fn file_has(location: &SettingsLocation, is_ours: impl FnOnce(&Value) -> bool) -> bool {
    read(location).is_ok_and(|doc| doc.existed() && is_ours(doc.value()))
}

/// True when `handler` is one of hookd's: a command handler whose program's
/// basename is `hookd-emit`, wherever it lives and however it is quoted.
pub fn is_hookd_handler(handler: &Value) -> bool {
    handler.get("type").and_then(Value::as_str) == Some("command")
        && handler
            .get("command")
            .and_then(Value::as_str)
            .is_some_and(runs_hookd_emit)
}

/// The command prefix for hookd's handlers: `given` if it runs `hookd-emit`
/// (quoted for the shell when it is a bare path that needs it), else the
/// [`default_emit_command`].
pub fn emit_command(given: Option<&str>) -> Result<String> {
    let Some(given) = given else {
        return Ok(default_emit_command());
    };
    // Either a ready shell command (`hookd-emit --flag`, already quoted) or a
    // bare path with spaces; try both readings before refusing.
    if runs_hookd_emit(given) {
        return Ok(given.to_owned());
    }
    let quoted = shell_quote(given);
    if runs_hookd_emit(&quoted) {
        return Ok(quoted.into_owned());
    }
    Err(AgentConnectError::EmitCommand(given.to_owned()))
}

/// [`emit_command`] for the settings file at `scope`: without a command
/// given, a committed project file (`<project>/.claude/settings.json`,
/// shared with every clone) names plain `hookd-emit`, found on each
/// machine's `PATH`, never this machine's install path; the user's own
/// files get [`default_emit_command`].
pub fn emit_command_for(given: Option<&str>, scope: Scope) -> Result<String> {
    match (given, scope) {
        (None, Scope::Project) => Ok(EMIT_PROGRAM.to_owned()),
        (given, _) => emit_command(given),
    }
}

/// `hookd-emit` beside the running executable (absolute, shell-quoted) when
/// it exists there, else plain `hookd-emit` to be found on the agent's PATH.
pub fn default_emit_command() -> String {
    // Installed side by side, the absolute path keeps working even when the
    // agent starts with a PATH that lacks hookd's directory.
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(EMIT_PROGRAM)))
        .filter(|emit| emit.is_file())
        .and_then(|emit| emit.to_str().map(|s| shell_quote(s).into_owned()))
        .unwrap_or_else(|| EMIT_PROGRAM.to_owned())
}

/// Whether the program of the emit command `emit` can be found: a path
/// (absolute or relative) must be an existing file, a bare name must be on
/// `PATH`. A command whose hooks would fail deserves a warning before the
/// agent starts calling it.
pub fn emit_found(emit: &str) -> bool {
    let Some(program) = shell_words(emit, 1).into_iter().next() else {
        return false;
    };
    if program.contains('/') {
        return Path::new(&program).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(&program).is_file()))
}

/// Quotes `s` for a POSIX shell, leaving it as is when nothing needs quoting.
pub fn shell_quote(s: &str) -> Cow<'_, str> {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(format!("'{}'", s.replace('\'', r"'\''")))
    }
}

fn hook_group(spec: &HookSpec, emit: &str, mode: Mode) -> Value {
    let handler = json!({
        "type": "command",
        "command": mode.command(emit, spec),
        "timeout": mode.timeout_secs(spec),
    });
    let mut group = Map::new();
    if let Some(matcher) = spec.matcher {
        group.insert("matcher".into(), matcher.into());
    }
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}

fn has_emit_handler(group: &Value, arg: &str, mode: Mode) -> bool {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .is_some_and(|handlers| {
            handlers.iter().any(|h| {
                handler_mode(h) == Some(mode) && handler_event_arg(h).as_deref() == Some(arg)
            })
        })
}

/// The mode of a hookd handler (`None` for other handlers).
fn handler_mode(handler: &Value) -> Option<Mode> {
    if !is_hookd_handler(handler) {
        return None;
    }
    let command = handler.get("command").and_then(Value::as_str)?;
    Some(command_mode(command))
}

/// The mode of a `hookd-emit` command: [`Mode::Managed`] when [`WAIT_FLAG`]
/// is among its options (`hookd-emit --wait <event>`, `hookd-emit --agent
/// gemini --wait <event>`), else [`Mode::Record`].
pub(crate) fn command_mode(command: &str) -> Mode {
    let words = shell_words(command, 5);
    if words.iter().skip(1).any(|word| word == WAIT_FLAG) {
        Mode::Managed
    } else {
        Mode::Record
    }
}

/// The event argument of a hookd handler: the first word after the program
/// and its `--wait` flag.
fn handler_event_arg(handler: &Value) -> Option<String> {
    let command = handler.get("command").and_then(Value::as_str)?;
    let mut words = shell_words(command, 3).into_iter().skip(1);
    let first = words.next()?;
    if first == WAIT_FLAG {
        words.next()
    } else {
        Some(first)
    }
}

pub(crate) fn runs_hookd_emit(command: &str) -> bool {
    shell_words(command, 1)
        .first()
        .is_some_and(|program| program.rsplit('/').next() == Some(EMIT_PROGRAM))
}

/// Splits the first `max` words of a shell command, honouring the quoting a
/// path is likely to carry (single, double, backslash). Not a full shell
/// parser: it only has to find the program and its first argument.
pub(crate) fn shell_words(command: &str, max: usize) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = command.chars().peekable();
    while words.len() < max {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut word = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
            match c {
                '\'' => word.extend(chars.by_ref().take_while(|&c| c != '\'')),
                '"' => {
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => match chars.next_if(|n| matches!(n, '"' | '\\' | '$' | '`')) {
                                Some(escaped) => word.push(escaped),
                                None => word.push('\\'),
                            },
                            _ => word.push(c),
                        }
                    }
                }
                '\\' => word.extend(chars.next()),
                _ => word.push(c),
            }
        }
        words.push(word);
    }
    words
}

/// Refuses documents Claude Code itself would not accept, before anything is
/// changed, so hookd never "repairs" a file by dropping what it cannot read.
/// Checks that `settings` has the shape hookd edits: an object whose
/// `hooks`, when present, maps events to arrays of groups (Gemini CLI's
/// settings under `hooks` aside).
pub(crate) fn check_shape(settings: &Value) -> Result<(), ShapeError> {
    let Value::Object(root) = settings else {
        return Err(shape("top level".into(), "an object"));
    };
    let Some(hooks) = root.get("hooks") else {
        return Ok(());
    };
    let Value::Object(hooks) = hooks else {
        return Err(shape("hooks".into(), "an object"));
    };
    for (event, groups) in hooks {
        // Gemini CLI's settings kept under `hooks`: no event is named so,
        // so an edit leaves them alone.
        if super::agent_schema::GEMINI_CONFIG_FIELDS.contains(&event.as_str()) {
            continue;
        }
        let Value::Array(groups) = groups else {
            return Err(shape(event_path(event), "an array"));
        };
        for (i, group) in groups.iter().enumerate() {
            let Value::Object(group) = group else {
                return Err(shape(format!("{}[{i}]", event_path(event)), "an object"));
            };
            if group.get("hooks").is_some_and(|h| !h.is_array()) {
                return Err(shape(
                    format!("{}[{i}].hooks", event_path(event)),
                    "an array",
                ));
            }
        }
    }
    Ok(())
}

pub(crate) fn event_path(event: &str) -> String {
    if !event.is_empty() && event.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("hooks.{event}")
    } else {
        format!("hooks[{}]", Value::from(event))
    }
}

/// A [`ShapeError`] at `json_path`: "expected `expected`".
pub(crate) fn shape(json_path: String, expected: &'static str) -> ShapeError {
    ShapeError {
        json_path,
        problem: Cow::Owned(format!("expected {expected}")),
    }
}

/// Makes `edit` to a copy of the hooks file `file` of `agent` and keeps it
/// only when the agent would read the result whole, as
/// [`super::agent_schema::check`] finds it: hookd does not add its entries
/// to a file the agent may drop with them, nor edit around a broken hook
/// the user should see first. What the edit itself supplies (the `hooks`
/// of a new file, Copilot's `version`) is no refusal. The first error is
/// named, with how many more there are; `file` is untouched on any error.
pub(crate) fn checked_edit<T>(
    agent: crate::AgentKind,
    file: &mut Value,
    edit: impl FnOnce(&mut Value) -> Result<T, ShapeError>,
) -> Result<T, ShapeError> {
    let mut edited = file.clone();
    let out = edit(&mut edited)?;
    agent_check(agent, &edited)?;
    *file = edited;
    Ok(out)
}

/// [`checked_edit`]'s check: the first error `agent` finds in `file`.
fn agent_check(agent: crate::AgentKind, file: &Value) -> Result<(), ShapeError> {
    let errors = super::agent_schema::check(agent, file).errors;
    let Some(first) = errors.first() else {
        return Ok(());
    };
    let more = match errors.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more problem; hookd hooks validate --agent lists them)".to_owned(),
        n => format!(" (and {n} more problems; hookd hooks validate --agent lists them)"),
    };
    Err(ShapeError {
        json_path: first.path.clone(),
        problem: Cow::Owned(format!(
            "{}, which {} would not read{more}",
            first.message,
            super::convert::label(agent)
        )),
    })
}

fn shape_error(path: &Path, shape: ShapeError) -> AgentConnectError {
    AgentConnectError::Shape {
        path: path.to_path_buf(),
        shape,
    }
}

fn hooks_disabled(settings: &Value) -> bool {
    settings.get("disableAllHooks") == Some(&Value::Bool(true))
}

/// `path` as a settings file of the agent that hookd may write, its links
/// followed (`connect` is given a path: the CLI and the app work out which).
fn location(path: &Path) -> SettingsLocation {
    SettingsLocation {
        kind: Kind::Agent,
        scope: Scope::Global,
        path: path.to_path_buf(),
        read_only: false,
        trust_store: None,
        kept_store: None,
        backup_store: None,
        comments: false,
    }
}

/// The file at `location` as it is now, without the lock (dry runs, previews).
fn read(location: &SettingsLocation) -> Result<SettingsDocument> {
    let bytes = read_if_exists(&location.path).map_err(|e| from_settings(&location.path, e))?;
    parse(location, bytes)
}

fn lock(location: &SettingsLocation) -> Result<SettingsLock> {
    SettingsLock::acquire(location).map_err(|e| from_settings(&location.path, e))
}

/// The file as it is under `lock`.
fn read_locked(lock: &SettingsLock) -> Result<SettingsDocument> {
    let location = lock.location();
    let bytes = lock.read().map_err(|e| from_settings(&location.path, e))?;
    parse(location, bytes)
}

/// Parses the bytes of the settings file at `location`. An empty file
/// counts as `{}`: there is nothing in it to lose.
fn parse(location: &SettingsLocation, bytes: Option<Vec<u8>>) -> Result<SettingsDocument> {
    SettingsDocument::parse(location, bytes).map_err(|source| AgentConnectError::Parse {
        path: location.path.clone(),
        source,
    })
}

/// The bytes a write of `doc` puts in its file ([`SettingsDocument::render`]).
fn render(doc: &SettingsDocument) -> Result<Vec<u8>> {
    doc.render().map_err(|e| from_settings(doc.path(), e))
}

/// A settings error of reading, locking or writing, as this module's.
fn from_settings(path: &Path, err: SettingsError) -> AgentConnectError {
    match err {
        SettingsError::Write(e) => AgentConnectError::Write(e),
        SettingsError::Io {
            action: "cannot create directory",
            path,
            source,
        } => AgentConnectError::CreateDir { path, source },
        SettingsError::Io { path, source, .. } => AgentConnectError::Read { path, source },
        // Not expected: an agent location is writable and nothing here
        // validates or compares. Kept whole as the write's cause.
        other => AgentConnectError::Write(FsAtomicError::Write {
            path: path.to_path_buf(),
            source: io::Error::other(other),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::format::detect_indent;
    use hookd_testkit::names_in;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    const EMIT: &str = "/opt/hookd/bin/hookd-emit";

    /// A realistic user file: other keys, other events with handler types
    /// hookd never runs and unknown fields, and a PreToolUse group of theirs.
    const USER_SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(git status)"],
    "deny": []
  },
  "env": {
    "FOO": "bar"
  },
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "~/bin/guard.sh", "timeout": 5, "statusMessage": "guarding", "x-custom": {"keep": true}}
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {"type": "prompt", "prompt": "Is the task done?", "model": "haiku"}
        ]
      }
    ],
    "PostCompact": [
      {
        "hooks": [
          {"type": "http", "url": "https://example.invalid/h", "headers": {"X-Token": "$TOKEN"}, "allowedEnvVars": ["TOKEN"]}
        ]
      }
    ]
  },
  "statusLine": {"type": "command", "command": "status.sh"}
}
"#;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path
    }

    /// `path`'s location with its backups kept in `store`.
    fn kept(path: &Path, store: &Path) -> SettingsLocation {
        SettingsLocation {
            backup_store: Some(store.to_path_buf()),
            ..location(path)
        }
    }

    fn read_json(path: &Path) -> Value {
        serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
    }

    fn keys(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect()
    }

    fn handler(emit: &str, arg: &str) -> Value {
        json!({"type": "command", "command": format!("{emit} {arg}"), "timeout": 10})
    }

    #[test]
    fn connect_into_user_file_keeps_everything_and_appends() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", USER_SETTINGS);
        let original = read_json(&path);
        let store = tmp.path().join("store");

        let report = connect_at(&kept(&path, &store), EMIT, Mode::Record, false).unwrap();
        assert_eq!(report.count, 11);
        assert_eq!(
            report.events,
            HOOKS.iter().map(|h| h.event).collect::<Vec<_>>()
        );
        let ChangeStatus::Written(outcome) = &report.status else {
            panic!("not written: {report:?}");
        };
        let backup = outcome
            .backup
            .as_deref()
            .expect("the previous version kept");
        assert!(backup.starts_with(&store), "{}", backup.display());

        let after = read_json(&path);
        // Top-level keys: same keys, same order, untouched values except hooks.
        assert_eq!(keys(&after), keys(&original));
        for key in ["permissions", "env", "model", "statusLine"] {
            assert_eq!(after[key], original[key], "{key}");
        }
        // User events first, in their order; hookd's new events appended.
        let mut expected_events = vec!["PreToolUse", "Stop", "PostCompact"];
        expected_events.extend(
            HOOKS
                .iter()
                .map(|h| h.event)
                .filter(|e| !["PreToolUse", "Stop"].contains(e)),
        );
        assert_eq!(keys(&after["hooks"]), expected_events);
        // The user's groups come first and are byte-for-byte the same values.
        assert_eq!(
            after["hooks"]["PreToolUse"],
            json!([
                original["hooks"]["PreToolUse"][0],
                {"matcher": "*", "hooks": [handler(EMIT, "pre_tool_use")]}
            ])
        );
        assert_eq!(
            after["hooks"]["Stop"],
            json!([original["hooks"]["Stop"][0], {"hooks": [handler(EMIT, "stop")]}])
        );
        assert_eq!(
            after["hooks"]["PostCompact"],
            original["hooks"]["PostCompact"]
        );
        assert_eq!(
            after["hooks"]["PostToolUseFailure"],
            json!([{"matcher": "*", "hooks": [handler(EMIT, "post_tool_use_failure")]}])
        );
        assert_eq!(
            after["hooks"]["Notification"],
            json!([{"hooks": [handler(EMIT, "notification")]}])
        );
        // Key order inside the user's handler is kept too.
        assert_eq!(
            keys(&after["hooks"]["PreToolUse"][0]["hooks"][0]),
            ["type", "command", "timeout", "statusMessage", "x-custom"]
        );
        assert_eq!(fs::read(backup).unwrap(), USER_SETTINGS.as_bytes());
        assert_eq!(names_in(tmp.path()), ["settings.json", "store"]);
    }

    #[test]
    fn connect_twice_changes_nothing_the_second_time() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", USER_SETTINGS);
        let location = kept(&path, &tmp.path().join("store"));
        let report = connect_at(&location, EMIT, Mode::Record, false).unwrap();
        let ChangeStatus::Written(outcome) = report.status else {
            panic!("not written");
        };
        let backup = outcome.backup.unwrap();
        let bytes = fs::read(&path).unwrap();
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        let backup_mtime = fs::metadata(&backup).unwrap().modified().unwrap();
        let entries = fs::read_dir(tmp.path()).unwrap().count();

        std::thread::sleep(std::time::Duration::from_millis(20));
        // A different emit path still counts as connected: recognition is by basename.
        let report = connect_at(&location, "'/other dir/hookd-emit'", Mode::Record, false).unwrap();
        assert_eq!(report.status, ChangeStatus::Unchanged);
        assert_eq!(report.count, 0);
        assert!(report.events.is_empty());
        assert_eq!(fs::read(&path).unwrap(), bytes);
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), mtime);
        assert_eq!(
            fs::metadata(&backup).unwrap().modified().unwrap(),
            backup_mtime
        );
        assert_eq!(fs::read(&backup).unwrap(), USER_SETTINGS.as_bytes());
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), entries);
        assert_eq!(
            fs::read_dir(backup.parent().unwrap()).unwrap().count(),
            2,
            "one version and its record"
        );
    }

    #[test]
    fn connect_only_adds_missing_events() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(
            tmp.path(),
            "settings.json",
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"/my bin/hookd-emit\" stop"}]}],
                "SessionEnd": [{"hooks": [{"type": "command", "command": "hookd-emit session_start"}]}]}}"#,
        );
        let report = connect(&path, EMIT, false).unwrap();
        assert_eq!(report.count, 10);
        assert!(!report.events.contains(&"Stop".to_owned()));
        // Same program under SessionEnd but a different event argument: ours is still added.
        assert!(report.events.contains(&"SessionEnd".to_owned()));
        let after = read_json(&path);
        assert_eq!(after["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert_eq!(after["hooks"]["SessionEnd"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn disconnect_removes_exactly_ours() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", USER_SETTINGS);
        let original = read_json(&path);
        connect(&path, EMIT, false).unwrap();

        let report = disconnect(&path, false).unwrap();
        assert_eq!(report.count, 11);
        assert!(matches!(report.status, ChangeStatus::Written(_)));
        let after = read_json(&path);
        assert_eq!(after, original);
        // Value equality ignores key order; check it separately.
        assert_eq!(keys(&after), keys(&original));
        assert_eq!(keys(&after["hooks"]), keys(&original["hooks"]));
        // The round trip gives back the very bytes: inline arrays and
        // objects, spacing, everything.
        assert_eq!(
            String::from_utf8(fs::read(&path).unwrap()).unwrap(),
            USER_SETTINGS
        );

        // Nothing left to remove: not rewritten.
        let bytes = fs::read(&path).unwrap();
        let again = disconnect(&path, false).unwrap();
        assert_eq!(again.status, ChangeStatus::Unchanged);
        assert_eq!(fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn connect_then_disconnect_without_hooks_gives_back_the_same_value() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n  \"model\": \"sonnet\",\n  \"env\": {\"A\": \"1\"}\n}\n";
        let path = write(tmp.path(), "settings.json", text);
        connect(&path, EMIT, false).unwrap();
        assert_eq!(keys(&read_json(&path)), ["model", "env", "hooks"]);
        disconnect(&path, false).unwrap();
        let after = read_json(&path);
        assert_eq!(after, json!({"model": "sonnet", "env": {"A": "1"}}));
        assert_eq!(keys(&after), ["model", "env"]);
    }

    #[test]
    fn removing_the_hooks_key_keeps_the_order_of_the_others() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(
            tmp.path(),
            "settings.json",
            r#"{"a": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookd-emit stop"}]}]}, "y": 2, "z": 3}"#,
        );
        disconnect(&path, false).unwrap();
        let after = read_json(&path);
        assert_eq!(keys(&after), ["a", "y", "z"]);
    }

    #[test]
    fn mixed_group_loses_only_our_handler() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(
            tmp.path(),
            "settings.json",
            r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "prettier --write", "async": true},
          {"type": "command", "command": "'/home/u/my tools/hookd-emit' pre_tool_use", "timeout": 10},
          {"type": "mcp_tool", "server": "memory", "tool": "save"}
        ]
      },
      {"matcher": "Bash", "hooks": []}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "hookd-emit stop"}]}
    ]
  }
}
"#,
        );
        let report = disconnect(&path, false).unwrap();
        assert_eq!(report.count, 2);
        assert_eq!(report.events, ["PreToolUse", "Stop"]);
        assert_eq!(
            read_json(&path),
            json!({"hooks": {"PreToolUse": [
                {"matcher": "Edit|Write", "hooks": [
                    {"type": "command", "command": "prettier --write", "async": true},
                    {"type": "mcp_tool", "server": "memory", "tool": "save"}
                ]},
                // The user's own empty group is not ours to clean up.
                {"matcher": "Bash", "hooks": []}
            ]}})
        );
    }

    #[test]
    fn not_ours_unless_the_program_is_hookd_emit() {
        for command in [
            "hookd-emit-dev pre_tool_use",
            "echo hookd-emit",
            "/usr/bin/hookd pre_tool_use",
            "sh -c 'hookd-emit stop'",
        ] {
            let h = json!({"type": "command", "command": command});
            assert!(!is_hookd_handler(&h), "{command}");
        }
        for command in [
            "hookd-emit stop",
            "/usr/local/bin/hookd-emit stop",
            "'/a b/hookd-emit' stop",
            "\"$HOME/bin/hookd-emit\" stop",
            r"/a\ b/hookd-emit stop",
        ] {
            let h = json!({"type": "command", "command": command});
            assert!(is_hookd_handler(&h), "{command}");
        }
        // Same command under another handler type is not something hookd runs.
        assert!(!is_hookd_handler(
            &json!({"type": "http", "command": "hookd-emit stop"})
        ));
    }

    #[test]
    fn invalid_files_are_refused_and_untouched() {
        let cases = [
            ("{\"hooks\": {", "not valid JSON"),
            ("[1, 2]", "top level: expected an object"),
            ("{\"hooks\": []}", "hooks: expected an object"),
            (
                "{\"hooks\": {\"PreToolUse\": {\"matcher\": \"*\"}}}",
                "hooks.PreToolUse: expected an array",
            ),
            (
                "{\"hooks\": {\"PreToolUse\": [{\"hooks\": []}, \"oops\"]}}",
                "hooks.PreToolUse[1]: expected an object",
            ),
            (
                "{\"hooks\": {\"Stop\": [{\"hooks\": {\"type\": \"command\"}}]}}",
                "hooks.Stop[0].hooks: expected an array",
            ),
            (
                "{\"hooks\": {\"my event\": 3}}",
                "hooks[\"my event\"]: expected an array",
            ),
        ];
        let tmp = tempfile::tempdir().unwrap();
        for (text, message) in cases {
            // Some hookd handlers are present, so disconnect would have work to do.
            let text = text.replace(
                "\"hooks\": []}",
                "\"hooks\": [{\"type\": \"command\", \"command\": \"hookd-emit stop\"}]}",
            );
            let path = write(tmp.path(), "settings.json", &text);
            for result in [connect(&path, EMIT, false), disconnect(&path, false)] {
                let err = result.unwrap_err();
                let shown = err.to_string();
                assert!(shown.contains(message), "{shown:?} lacks {message:?}");
                assert!(shown.contains(&path.display().to_string()), "{shown}");
                assert_eq!(fs::read(&path).unwrap(), text.as_bytes());
            }
            assert_eq!(names_in(tmp.path()), ["settings.json"]);
        }
    }

    #[test]
    fn missing_file_connect_creates_it_and_disconnect_does_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".claude/settings.local.json");
        let report = disconnect(&path, false).unwrap();
        assert_eq!(report.status, ChangeStatus::Missing);
        assert!(!path.exists());
        assert!(!path.parent().unwrap().exists());

        let report = connect(&path, "hookd-emit", false).unwrap();
        let ChangeStatus::Written(outcome) = report.status else {
            panic!("not written");
        };
        assert!(outcome.created);
        assert_eq!(outcome.backup, None);
        let text = String::from_utf8(fs::read(&path).unwrap()).unwrap();
        assert!(
            text.starts_with("{\n  \"hooks\": {\n    \"PreToolUse\": [\n"),
            "{text}"
        );
        assert!(text.ends_with("}\n"));
        assert_eq!(
            read_json(&path)["hooks"]["SessionStart"],
            json!([{"hooks": [handler("hookd-emit", "session_start")]}])
        );
        assert_eq!(keys(&read_json(&path)["hooks"]).len(), 11);
    }

    #[test]
    fn dry_run_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", USER_SETTINGS);
        let report = connect(&path, EMIT, true).unwrap();
        assert_eq!(report.status, ChangeStatus::WouldWrite { creates: false });
        assert_eq!(report.count, 11);
        assert_eq!(fs::read(&path).unwrap(), USER_SETTINGS.as_bytes());
        assert_eq!(names_in(tmp.path()), ["settings.json"]);

        let missing = tmp.path().join("new/.claude/settings.json");
        let report = connect(&missing, EMIT, true).unwrap();
        assert_eq!(report.status, ChangeStatus::WouldWrite { creates: true });
        assert!(!tmp.path().join("new").exists());

        connect(&path, EMIT, false).unwrap();
        let bytes = fs::read(&path).unwrap();
        let report = disconnect(&path, true).unwrap();
        assert_eq!(report.status, ChangeStatus::WouldWrite { creates: false });
        assert_eq!(report.count, 11);
        assert_eq!(fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn backup_and_mode_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", USER_SETTINGS);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let location = kept(&path, &tmp.path().join("store"));
        let written = |report: ChangeReport| match report.status {
            ChangeStatus::Written(outcome) => outcome.backup.unwrap(),
            other => panic!("not written: {other:?}"),
        };
        let backup = written(connect_at(&location, EMIT, Mode::Record, false).unwrap());
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(fs::read(&backup).unwrap(), USER_SETTINGS.as_bytes());
        assert_eq!(mode(&backup), 0o600);

        let connected = fs::read(&path).unwrap();
        let backup = written(disconnect_at(&location, false).unwrap());
        assert_eq!(fs::read(&backup).unwrap(), connected);
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn four_space_indent_and_missing_newline_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n    \"model\": \"opus\",\n    \"env\": {\n        \"A\": \"1\"\n    }\n}";
        let path = write(tmp.path(), "settings.json", text);
        connect(&path, EMIT, false).unwrap();
        let written = String::from_utf8(fs::read(&path).unwrap()).unwrap();
        assert!(written.starts_with("{\n    \"model\": \"opus\",\n    \"env\": {\n        \"A\": \"1\"\n    },\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n"), "{written}");
        assert!(written.ends_with("\n}"), "{written:?}");
        disconnect(&path, false).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn tab_indent_crlf_and_bom_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "\u{feff}{\r\n\t\"model\": \"opus\"\r\n}\r\n";
        let path = write(tmp.path(), "settings.json", text);
        connect(&path, EMIT, false).unwrap();
        disconnect(&path, false).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn detects_indent() {
        assert_eq!(detect_indent("{\n  \"a\": 1\n}"), "  ");
        assert_eq!(detect_indent("{\n    \"a\": 1\n}"), "    ");
        assert_eq!(detect_indent("{\n\t\"a\": 1\n}"), "\t");
        assert_eq!(detect_indent("{\"a\": 1}"), "  ");
        assert_eq!(detect_indent("{\n\n    \"a\": 1\n}"), "    ");
        assert_eq!(detect_indent("{\n\"a\": 1\n}"), "  ");
    }

    #[test]
    fn empty_file_counts_as_empty_object() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", "\n");
        assert_eq!(
            disconnect(&path, false).unwrap().status,
            ChangeStatus::Unchanged
        );
        connect(&path, EMIT, false).unwrap();
        assert_eq!(keys(&read_json(&path)), ["hooks"]);
    }

    #[test]
    fn reports_disable_all_hooks() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "settings.json", r#"{"disableAllHooks": true}"#);
        assert!(connect(&path, EMIT, true).unwrap().hooks_disabled);
    }

    #[test]
    fn emit_command_validation_and_quoting() {
        assert_eq!(emit_command(Some("hookd-emit")).unwrap(), "hookd-emit");
        assert_eq!(
            emit_command(Some("/opt/my dir/hookd-emit")).unwrap(),
            "'/opt/my dir/hookd-emit'"
        );
        assert_eq!(
            emit_command(Some("'/opt/my dir/hookd-emit' --verbose")).unwrap(),
            "'/opt/my dir/hookd-emit' --verbose"
        );
        assert!(matches!(
            emit_command(Some("/usr/bin/true")),
            Err(AgentConnectError::EmitCommand(_))
        ));
        assert!(emit_command(Some("")).is_err());
        let default = emit_command(None).unwrap();
        assert!(runs_hookd_emit(&default), "{default}");
    }

    #[test]
    fn shell_quote_only_when_needed() {
        assert_eq!(shell_quote("/usr/bin/hookd-emit"), "/usr/bin/hookd-emit");
        assert_eq!(shell_quote("/a b/hookd-emit"), "'/a b/hookd-emit'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(
            shell_words(&shell_quote("/x'y z/hookd-emit"), 1),
            ["/x'y z/hookd-emit"]
        );
    }

    fn commands(value: &Value) -> Vec<String> {
        let mut out = Vec::new();
        for groups in value["hooks"]
            .as_object()
            .into_iter()
            .flat_map(|h| h.values())
        {
            for group in groups.as_array().into_iter().flatten() {
                for handler in group["hooks"].as_array().into_iter().flatten() {
                    if let Some(command) = handler["command"].as_str() {
                        out.push(command.to_owned());
                    }
                }
            }
        }
        out
    }

    #[test]
    fn managed_mode_installs_wait_entries_and_replaces_recording_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, USER_SETTINGS).unwrap();
        connect(&path, EMIT, false).unwrap();

        let report = connect_mode(&path, EMIT, Mode::Managed, false).unwrap();
        assert_eq!(report.count, MANAGED_HOOKS.len());
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let ours: Vec<String> = commands(&value)
            .into_iter()
            .filter(|c| c.starts_with(EMIT))
            .collect();
        assert_eq!(
            ours.len(),
            MANAGED_HOOKS.len(),
            "one hookd entry per event: {ours:?}"
        );
        assert!(
            ours.iter()
                .all(|c| c.starts_with(&format!("{EMIT} --wait "))),
            "{ours:?}"
        );
        assert!(ours.contains(&format!("{EMIT} --wait permission_request")));
        let pre = &value["hooks"]["PreToolUse"];
        assert_eq!(
            pre[0]["hooks"][0]["command"], "~/bin/guard.sh",
            "the user's group stays first"
        );
        assert_eq!(pre[1]["matcher"], "*");
        assert_eq!(pre[1]["hooks"][0]["timeout"], 610);
        assert_eq!(
            value["hooks"]["UserPromptSubmit"][0]["hooks"][0]["timeout"],
            40
        );
        assert_eq!(value["model"], "opus");

        // Same mode again: nothing to do. Back to recording: the managed entries go.
        let again = connect_mode(&path, EMIT, Mode::Managed, false).unwrap();
        assert!(matches!(again.status, ChangeStatus::Unchanged));
        connect(&path, EMIT, false).unwrap();
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let ours: Vec<String> = commands(&value)
            .into_iter()
            .filter(|c| c.starts_with(EMIT))
            .collect();
        assert_eq!(ours.len(), HOOKS.len());
        assert!(ours.iter().all(|c| !c.contains("--wait")), "{ours:?}");

        // Disconnect removes either kind and restores the user's file.
        connect_mode(&path, EMIT, Mode::Managed, false).unwrap();
        disconnect(&path, false).unwrap();
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let original: Value = serde_json::from_str(USER_SETTINGS).unwrap();
        assert_eq!(value, original);
    }

    #[test]
    fn previews_are_exactly_what_the_edit_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), ".claude/settings.json", USER_SETTINGS);

        let preview = preview_connect(&path, EMIT, Mode::Managed).unwrap();
        assert_eq!(preview.before.as_deref(), Some(USER_SETTINGS.as_bytes()));
        assert_eq!(
            preview.report.status,
            ChangeStatus::WouldWrite { creates: false }
        );
        assert_eq!(preview.report.count, MANAGED_HOOKS.len());
        assert_eq!(
            fs::read(&path).unwrap(),
            USER_SETTINGS.as_bytes(),
            "nothing written"
        );
        connect_mode(&path, EMIT, Mode::Managed, false).unwrap();
        assert_eq!(Some(fs::read(&path).unwrap()), preview.after);

        let same = preview_connect(&path, EMIT, Mode::Managed).unwrap();
        assert_eq!(same.report.status, ChangeStatus::Unchanged);
        assert_eq!(same.after, same.before);

        let off = preview_disconnect(&path).unwrap();
        assert_eq!(
            off.report.status,
            ChangeStatus::WouldWrite { creates: false }
        );
        disconnect(&path, false).unwrap();
        assert_eq!(Some(fs::read(&path).unwrap()), off.after);

        let missing = dir.path().join("none/settings.local.json");
        let new = preview_connect(&missing, EMIT, Mode::Record).unwrap();
        assert_eq!(new.before, None);
        assert_eq!(
            new.report.status,
            ChangeStatus::WouldWrite { creates: true }
        );
        connect(&missing, EMIT, false).unwrap();
        assert_eq!(Some(fs::read(&missing).unwrap()), new.after);
        let gone = preview_disconnect(&dir.path().join("nope.json")).unwrap();
        assert_eq!(
            (gone.report.status, gone.before, gone.after),
            (ChangeStatus::Missing, None, None)
        );
    }

    #[test]
    fn emit_found_checks_paths_and_path() {
        let dir = tempfile::tempdir().unwrap();
        let emit = write(dir.path(), "bin dir/hookd-emit", "#!/bin/sh\n");
        let quoted = shell_quote(emit.to_str().unwrap()).into_owned();
        assert!(emit_found(&format!("{quoted} --wait")));
        assert!(!emit_found(&format!(
            "{}/nope/hookd-emit",
            dir.path().display()
        )));
        assert!(emit_found("sh -c true"), "sh is on PATH");
        assert!(!emit_found("hookd-emit-surely-not-installed-here"));
        assert!(!emit_found("  "));
    }

    #[test]
    fn checked_edits_write_only_what_the_check_accepts() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "settings.json", USER_SETTINGS);
        let shown = preview_connect(&path, EMIT, Mode::Record).unwrap();
        // The file changes after the preview: its token no longer matches.
        fs::write(&path, "{}\n").unwrap();
        let stale = |p: &EditPreview| {
            if p.version() == shown.version() {
                Ok(())
            } else {
                Err(AgentConnectError::EmitCommand("stale".into()))
            }
        };
        assert!(connect_checked(&location(&path), EMIT, Mode::Record, stale).is_err());
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{}\n",
            "nothing written"
        );
        let report = connect_checked(&location(&path), EMIT, Mode::Record, |p: &EditPreview| {
            assert_eq!(p.before.as_deref(), Some(&b"{}\n"[..]));
            assert!(matches!(p.report.status, ChangeStatus::WouldWrite { .. }));
            Ok::<_, AgentConnectError>(())
        })
        .unwrap();
        assert!(matches!(report.status, ChangeStatus::Written(_)));
        let report = disconnect_checked(&location(&path), |_: &EditPreview| {
            Ok::<_, AgentConnectError>(())
        })
        .unwrap();
        assert_eq!(report.count, HOOKS.len());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n");
    }
}
