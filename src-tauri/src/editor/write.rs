//! Every change the editor makes to a file, each through the core: a
//! preview (the whole file before and after, rendered in its own
//! formatting, for the diff), a save of a file's `hooks` tree, enabling and
//! disabling a hook through hookd's store, and moving a hook to another
//! file, previewed first like a save (both files before and after, rendered
//! by the same code the move writes with, so the review is byte-exact).
//!
//! Each takes the version token the window showed and refuses with
//! [`ErrorKind::Conflict`], writing nothing, when the file's bytes changed
//! since (unless forced); the core's save checks again between its own read
//! and write. A save replaces only the `hooks` key: every other key, and
//! every field of a handler the editor does not know, is written back as it
//! was read.

use hookd_core::settings::{
    DisabledStore, HookSelector, SettingsDocument, SettingsError, SettingsLocation, add_hook,
    remove_hook, replace_hooks,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::{FileRef, conflict, display, location, settings_error};
use crate::error::{AppError, ErrorKind, Result};
use crate::state::AppState;
use hookd_core::settings::version_token;

/// What a save would write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SavePreview {
    /// The file.
    pub path: String,
    /// Its text now (empty when it does not exist).
    pub before: String,
    /// Its text after the save, in the file's own formatting.
    pub after: String,
    /// The save would change the file.
    pub changed: bool,
    /// The save would create the file.
    pub creates: bool,
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SaveResult {
    /// The file written.
    pub path: String,
    /// It did not exist before.
    pub created: bool,
    /// Where the previous contents were kept (in hookd's data directory;
    /// `hookd hooks restore-backup` brings them back).
    pub backup: Option<String>,
    /// The new version token.
    pub version: String,
}

/// One command hook, as hookd's disable/enable and move address it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HookRef {
    /// The event (`PreToolUse`).
    pub event: String,
    /// Its group's matcher; `None` addresses that command in any group of the event.
    pub matcher: Option<String>,
    /// The command, exactly.
    pub command: String,
}

impl From<&HookRef> for HookSelector {
    fn from(hook: &HookRef) -> Self {
        Self {
            event: hook.event.clone(),
            matcher: hook.matcher.clone(),
            command: hook.command.clone(),
        }
    }
}

/// What a move did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MoveResult {
    /// The file the hook left.
    pub from: String,
    /// The file it is now in.
    pub to: String,
    /// How many handlers moved (the same command in several groups moves together).
    pub moved: u64,
}

/// What a move would write, for the review: both files before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MovePreview {
    /// The file the hook would leave.
    pub from: SavePreview,
    /// The file it would go to.
    pub to: SavePreview,
    /// How many handlers would move (the same command in several groups moves together).
    pub moved: u64,
    /// Both files' version tokens as previewed: [`move_hook`] takes them
    /// back and refuses when either file changed since, so what is written
    /// is what was reviewed.
    pub versions: MoveVersions,
}

/// The version tokens of both files of a move, as the window reviewed them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MoveVersions {
    /// The token of the file the hook leaves.
    pub from: String,
    /// The token of the file it goes to.
    pub to: String,
}

/// The document at `file` with `hooks` as its `hooks` tree, after checking
/// that the file is still what the window showed.
fn edited(
    state: &AppState,
    file: &FileRef,
    hooks: Value,
    version: &str,
    force: bool,
) -> Result<(SettingsLocation, SettingsDocument)> {
    let location = location(state, file)?;
    let mut doc = SettingsDocument::load(&location).map_err(settings_error)?;
    if !force && !doc.is_version(version) {
        return Err(conflict(&location.path));
    }
    replace_hooks(&mut doc, hooks).map_err(settings_error)?;
    Ok((location, doc))
}

/// The file as a save of `hooks` would write it; refuses a stale `version`
/// and hooks the core would not write (with every problem's JSON path).
pub fn preview_hooks_save(
    state: &AppState,
    file: &FileRef,
    hooks: Value,
    version: &str,
) -> Result<SavePreview> {
    let (location, doc) = edited(state, file, hooks, version, false)?;
    preview_of(&location, &doc)
}

/// `doc` before (its bytes as read) and after (as a save of it writes them).
fn preview_of(location: &SettingsLocation, doc: &SettingsDocument) -> Result<SavePreview> {
    let after = doc.render().map_err(settings_error)?;
    let before = doc.original_bytes().unwrap_or_default();
    Ok(SavePreview {
        path: display(&location.path),
        before: String::from_utf8_lossy(before).into_owned(),
        changed: doc.original_bytes() != Some(after.as_slice()),
        creates: !doc.existed(),
        after: String::from_utf8_lossy(&after).into_owned(),
    })
}

/// Writes `hooks` as the file's `hooks` tree through the core's safe write
/// (validated, atomic, with a backup). A stale `version` is a conflict
/// unless `force`.
pub fn save_hooks(
    state: &AppState,
    file: &FileRef,
    hooks: Value,
    version: &str,
    force: bool,
) -> Result<SaveResult> {
    let (location, doc) = edited(state, file, hooks, version, force)?;
    // The bytes the save writes (it renders the same document the same way).
    let written = doc.render().map_err(settings_error)?;
    let outcome = doc.save(force).map_err(settings_error)?;
    tracing::info!(file = %location.path.display(), created = outcome.created, "hooks saved");
    Ok(SaveResult {
        path: display(&location.path),
        created: outcome.created,
        backup: outcome.backup.as_deref().map(display),
        version: version_token(Some(&written)),
    })
}

/// Disables (takes out of the file into hookd's store) or enables (puts
/// back where it was) the command hook `hook` of `file`. `version` is the
/// file's token the window showed.
pub fn set_hook_enabled(
    state: &AppState,
    file: &FileRef,
    hook: &HookRef,
    enabled: bool,
    version: &str,
) -> Result<u64> {
    let location = location(state, file)?;
    let store = DisabledStore::for_roots(state.roots()?);
    let selector = HookSelector::from(hook);
    // The version is compared under the file's lock, with what is edited.
    let changed = if enabled {
        store.enable_if_version(&location, &selector, version)
    } else {
        store.disable_if_version(&location, &selector, version)
    }
    .map_err(|err| match err {
        SettingsError::ChangedOnDisk { path } => conflict(&path),
        other => settings_error(other),
    })?;
    tracing::info!(file = %location.path.display(), event = %hook.event, command = %hook.command, enabled, "hook toggled");
    Ok(changed.len() as u64)
}

/// A move checked and made in memory: both files as the move writes them.
struct PlannedMove {
    from: SettingsLocation,
    to: SettingsLocation,
    /// The source without the hook.
    source: SettingsDocument,
    /// The destination with it.
    target: SettingsDocument,
    /// The destination as read.
    target_before: SettingsDocument,
    moved: u64,
}

/// Loads both files, checks them against the tokens the window showed
/// (`to_version`: `None` takes the destination as it is now), and makes
/// the move in memory; the core refuses what it would refuse on a write
/// (a destination that already has the hook, say).
fn plan_move(
    state: &AppState,
    from: &FileRef,
    to: &FileRef,
    hook: &HookRef,
    version: &str,
    to_version: Option<&str>,
) -> Result<PlannedMove> {
    let from_loc = location(state, from)?;
    let to_loc = location(state, to)?;
    if from_loc.path == to_loc.path {
        return Err(AppError::invalid_input(
            "the hook is already in that file: pick another scope or kind",
        ));
    }
    let mut source = SettingsDocument::load(&from_loc).map_err(settings_error)?;
    if !source.is_version(version) {
        return Err(conflict(&from_loc.path));
    }
    let removed = remove_hook(&mut source, &HookSelector::from(hook)).map_err(settings_error)?;
    let mut target = SettingsDocument::load(&to_loc).map_err(settings_error)?;
    if to_version.is_some_and(|token| !target.is_version(token)) {
        return Err(conflict(&to_loc.path));
    }
    let target_before = target.clone();
    for one in &removed {
        add_hook(
            &mut target,
            &one.event,
            one.matcher.as_deref(),
            one.handler.clone(),
        )
        .map_err(settings_error)?;
    }
    Ok(PlannedMove {
        from: from_loc,
        to: to_loc,
        source,
        target,
        target_before,
        moved: removed.len() as u64,
    })
}

/// Both files as moving the command hook `hook` from `from` to `to` would
/// write them (rendered by the same code [`move_hook`] writes with); writes
/// nothing. Refuses what the move would refuse: a stale `version`, the same
/// file, a hook that is not there or already in the destination.
pub fn preview_move_hook(
    state: &AppState,
    from: &FileRef,
    to: &FileRef,
    hook: &HookRef,
    version: &str,
) -> Result<MovePreview> {
    let plan = plan_move(state, from, to, hook, version, None)?;
    Ok(MovePreview {
        from: preview_of(&plan.from, &plan.source)?,
        to: preview_of(&plan.to, &plan.target)?,
        moved: plan.moved,
        versions: MoveVersions {
            from: version.to_owned(),
            to: plan.target_before.version(),
        },
    })
}

/// Moves the command hook `hook` from one file to another (another scope or
/// kind), as [`preview_move_hook`] showed it: `versions` are the tokens of
/// the source and the destination the window reviewed, and either file
/// changed since is a conflict. The hook is never lost:
/// both edits are checked before anything is written, the destination is
/// written first (for a moment the hook is in both files, where the agent
/// runs it once), then the source; if the source cannot be written the
/// destination is put back, and if even that fails the error says the hook
/// is in both files.
pub fn move_hook(
    state: &AppState,
    from: &FileRef,
    to: &FileRef,
    hook: &HookRef,
    versions: &MoveVersions,
) -> Result<MoveResult> {
    let PlannedMove {
        from: from_loc,
        to: to_loc,
        source,
        target,
        target_before,
        moved,
    } = plan_move(state, from, to, hook, &versions.from, Some(&versions.to))?;
    let written = target.save(false).map_err(settings_error)?;
    if let Err(err) = source.save(false) {
        let err = settings_error(err);
        return Err(
            match undo_add(&to_loc, &target, &target_before, written.created) {
                Ok(()) => AppError::new(
                    err.kind,
                    format!(
                        "{}; the hook stays in {} (nothing was moved)",
                        err.message,
                        from_loc.path.display()
                    ),
                ),
                Err(undo) => AppError::new(
                    err.kind,
                    format!(
                        "{}; the hook is now in both {} and {} (the agent runs it once): remove it from one of them. Undoing the copy failed: {}",
                        err.message,
                        from_loc.path.display(),
                        to_loc.path.display(),
                        undo.message
                    ),
                ),
            },
        );
    }
    tracing::info!(from = %from_loc.path.display(), to = %to_loc.path.display(), event = %hook.event, command = %hook.command, "hook moved");
    Ok(MoveResult {
        from: display(&from_loc.path),
        to: display(&to_loc.path),
        moved,
    })
}

/// Takes the copy out of the destination again after the source could not
/// be written: only if the destination still holds exactly what was written.
fn undo_add(
    location: &SettingsLocation,
    written: &SettingsDocument,
    before: &SettingsDocument,
    created: bool,
) -> Result<()> {
    let now = SettingsDocument::load(location).map_err(settings_error)?;
    let expected = written.render().map_err(settings_error)?;
    if now.original_bytes() != Some(expected.as_slice()) {
        return Err(AppError::new(
            ErrorKind::Conflict,
            format!("{} changed again meanwhile", location.path.display()),
        ));
    }
    if created {
        return std::fs::remove_file(&location.path).map_err(AppError::from);
    }
    let mut back = now;
    *back.value_mut() = before.value().clone();
    back.save(false).map_err(settings_error)?;
    Ok(())
}
