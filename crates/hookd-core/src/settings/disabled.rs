//! Turning a hook off without losing it.
//!
//! The agent has no per-hook switch (only `disableAllHooks`), so a disabled
//! hook is taken out of its settings file, which is the only way to make the
//! agent skip it, and kept in hookd's own store, `$HOOKD_HOME/disabled.json`,
//! with everything needed to put it back exactly where it was: the file, the
//! event, the group's matcher and index, the handler's index and the handler
//! verbatim. Enabling restores it and drops it from the store, so a disable
//! followed by an enable gives back the original file byte for byte.
//!
//! The store is written first and rolled back if the settings file cannot be
//! saved (changed on disk, invalid, read-only), so a hook is never in
//! neither place. Both are read and written holding the settings file's
//! lock and then the store's (always in that order), so concurrent disables
//! and enables, of one file or several, each see the others' writes.
//!
//! The other coding agents' hooks files keep their disabled hooks here too
//! ([`super::agent_disabled`]): the same record, with an [`AgentPlace`]
//! saying which agent and the exact bytes taken out, so one store, one
//! lock order and one roll-back serve every agent.

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fs_atomic::{DirLock, FsAtomicError, LOCK_WAIT};

use super::agent_disabled::AgentPlace;
use super::document::{SettingsDocument, SettingsLock};
use super::edit::{HookSelector, RemovedHook, remove_hook, resolve_event, restore_hook};
use super::error::{Result, SettingsError};
use super::location::{Kind, Scope, SettingsLocation, SettingsRoots};
use super::store;

/// Version of the store's file format.
pub const STORE_VERSION: u32 = 1;

/// One disabled hook, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisabledHook {
    /// Kind of the settings file it was taken from.
    pub kind: Kind,
    /// Scope of that file.
    pub scope: Scope,
    /// That file.
    pub path: PathBuf,
    /// The event's key under `hooks`.
    pub event: String,
    /// Its group's matcher (`None`: the group had none).
    pub matcher: Option<String>,
    /// Index its group had in the event's array.
    pub group_index: usize,
    /// Index it had in the group's `hooks`.
    pub handler_index: usize,
    /// The handler, verbatim.
    pub handler: Value,
    /// When it was disabled.
    pub disabled_at: DateTime<Utc>,
    /// The group's other keys, when disabling removed the group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Value>,
    /// Position of the event's key, when disabling removed the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_index: Option<usize>,
    /// Position of `hooks`, when disabling removed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks_index: Option<usize>,
    /// For a hook of another coding agent's file
    /// ([`super::agent_disabled`]): the agent, the file's format and the
    /// exact bytes taken out; `None` for Claude Code's and hookd's own
    /// files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentPlace>,
}

impl DisabledHook {
    fn new(location: &SettingsLocation, removed: RemovedHook, at: DateTime<Utc>) -> Self {
        Self {
            kind: location.kind,
            scope: location.scope,
            path: location.path.clone(),
            event: removed.event,
            matcher: removed.matcher,
            group_index: removed.group_index,
            handler_index: removed.handler_index,
            handler: removed.handler,
            disabled_at: at,
            group: removed.group,
            event_index: removed.event_index,
            hooks_index: removed.hooks_index,
            agent: None,
        }
    }

    /// What [`restore_hook`] needs to put it back.
    pub fn to_removed(&self) -> RemovedHook {
        RemovedHook {
            event: self.event.clone(),
            matcher: self.matcher.clone(),
            group_index: self.group_index,
            handler_index: self.handler_index,
            handler: self.handler.clone(),
            group: self.group.clone(),
            event_index: self.event_index,
            hooks_index: self.hooks_index,
        }
    }

    /// True when it came from the file at `location` (another agent's
    /// file's hooks are [`super::agent_disabled`]'s, never a settings
    /// location's).
    pub fn belongs_to(&self, location: &SettingsLocation) -> bool {
        self.agent.is_none() && self.kind == location.kind && self.path == location.path
    }

    /// The command of a command handler.
    pub fn command(&self) -> Option<&str> {
        (self.handler.get("type").and_then(Value::as_str) == Some("command"))
            .then(|| self.handler.get("command").and_then(Value::as_str))
            .flatten()
    }

    fn selected_by(&self, event: &str, selector: &HookSelector) -> bool {
        self.event == event
            && selector
                .matcher
                .as_ref()
                .is_none_or(|m| self.matcher.as_ref() == Some(m))
            && self.command() == Some(selector.command.as_str())
    }
}

/// The on-disk shape of the store.
#[derive(Debug, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    disabled: Vec<DisabledHook>,
}

/// hookd's store of disabled hooks (a JSON file, written atomically).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisabledStore {
    path: PathBuf,
}

impl DisabledStore {
    /// The store at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The store in hookd's home (`$HOOKD_HOME/disabled.json`).
    pub fn for_roots(roots: &SettingsRoots) -> Self {
        Self::new(roots.disabled_store())
    }

    /// The store in hookd's home, with roots from the environment.
    pub fn from_env() -> Result<Self> {
        Ok(Self::for_roots(&SettingsRoots::from_env()?))
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every disabled hook, oldest first; a missing store is empty.
    pub fn load(&self) -> Result<Vec<DisabledHook>> {
        let file: Option<StoreFile> = store::read(
            &self.path,
            "store of disabled hooks",
            |f: &StoreFile| f.version,
            STORE_VERSION,
        )?;
        Ok(file.map(|f| f.disabled).unwrap_or_default())
    }

    /// The disabled hooks that came from the file at `location`.
    pub fn for_location(&self, location: &SettingsLocation) -> Result<Vec<DisabledHook>> {
        let mut all = self.load()?;
        all.retain(|d| d.belongs_to(location));
        Ok(all)
    }

    /// Disables the command handlers `selector` matches in the file at
    /// `location`: removes them from it (saved with the concurrency check,
    /// skipped by `force`) and records them here. Returns what was disabled.
    pub fn disable(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        force: bool,
    ) -> Result<Vec<DisabledHook>> {
        self.disable_at(location, selector, force, None)
    }

    /// [`DisabledStore::disable`] for an editor that showed the file at
    /// `version` ([`SettingsDocument::version`]): a file that is no longer
    /// that version when the lock is held is
    /// [`SettingsError::ChangedOnDisk`], and nothing changes.
    pub fn disable_if_version(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        version: &str,
    ) -> Result<Vec<DisabledHook>> {
        self.disable_at(location, selector, false, Some(version))
    }

    /// [`DisabledStore::enable`] for an editor that showed the file at
    /// `version` (see [`DisabledStore::disable_if_version`]).
    pub fn enable_if_version(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        version: &str,
    ) -> Result<Vec<DisabledHook>> {
        self.enable_at(location, selector, false, Some(version))
    }

    fn disable_at(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        force: bool,
        version: Option<&str>,
    ) -> Result<Vec<DisabledHook>> {
        let event = resolve_event(&selector.event)?.name;
        let lock = SettingsLock::acquire(location)?;
        let _store = self.lock(&lock)?;
        let mut doc = lock.load()?;
        check_version(&doc, version)?;
        let before = self.load()?;
        let removed = match remove_hook(&mut doc, selector) {
            Ok(removed) => removed,
            Err(SettingsError::NotFound { path, what })
                if before
                    .iter()
                    .any(|d| d.belongs_to(location) && d.selected_by(event, selector)) =>
            {
                return Err(SettingsError::NotFound {
                    path,
                    what: format!("enabled {what} (it is already disabled)"),
                });
            }
            Err(e) => return Err(e),
        };
        let now = Utc::now();
        let added: Vec<DisabledHook> = removed
            .into_iter()
            .map(|r| DisabledHook::new(location, r, now))
            .collect();
        let mut after = before.clone();
        after.extend(added.iter().cloned());
        self.save(&after)?;
        if let Err(err) = lock.save(&doc, force) {
            self.roll_back(&before);
            return Err(err);
        }
        Ok(added)
    }

    /// Enables the disabled command handlers `selector` matches for the file
    /// at `location`: puts each back where it was (see [`restore_hook`]),
    /// saves the file (concurrency check unless `force`) and drops them from
    /// the store. Returns what was enabled.
    pub fn enable(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        force: bool,
    ) -> Result<Vec<DisabledHook>> {
        self.enable_at(location, selector, force, None)
    }

    fn enable_at(
        &self,
        location: &SettingsLocation,
        selector: &HookSelector,
        force: bool,
        version: Option<&str>,
    ) -> Result<Vec<DisabledHook>> {
        let event = resolve_event(&selector.event)?.name;
        let lock = SettingsLock::acquire(location)?;
        let _store = self.lock(&lock)?;
        let before = self.load()?;
        let (chosen, kept): (Vec<DisabledHook>, Vec<DisabledHook>) = before
            .iter()
            .cloned()
            .partition(|d| d.belongs_to(location) && d.selected_by(event, selector));
        if chosen.is_empty() {
            return Err(SettingsError::NotFound {
                path: location.path.clone(),
                what: format!(
                    "disabled {}",
                    HookSelector {
                        event: event.to_owned(),
                        ..selector.clone()
                    }
                    .describe()
                ),
            });
        }
        let mut doc = lock.load()?;
        check_version(&doc, version)?;
        // Newest first: each was recorded against the file as it was right
        // after the ones before it were removed.
        for hook in chosen.iter().rev() {
            restore_hook(&mut doc, &hook.to_removed())?;
        }
        self.save(&kept)?;
        if let Err(err) = lock.save(&doc, force) {
            self.roll_back(&before);
            return Err(err);
        }
        Ok(chosen)
    }

    /// Locks the store's directory (creating it) after `settings` was
    /// locked; `None` when that is the directory `settings` already holds
    /// (hookd's global settings sit beside the store).
    pub(crate) fn lock(&self, settings: &SettingsLock) -> Result<Option<DirLock>> {
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        fs::create_dir_all(dir)
            .map_err(|e| SettingsError::io("cannot create directory", dir, e))?;
        let same = |a: &Path, b: &Path| matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y);
        if same(dir, settings.dir()) {
            return Ok(None);
        }
        let lock = DirLock::acquire(dir, &self.path, LOCK_WAIT).map_err(FsAtomicError::from)?;
        Ok(Some(lock))
    }

    pub(crate) fn save(&self, hooks: &[DisabledHook]) -> Result<()> {
        let file = StoreFile {
            version: STORE_VERSION,
            disabled: hooks.to_vec(),
        };
        store::write(&self.path, &file)
    }

    /// Puts the store back after the settings file could not be saved. A
    /// failure here is logged: the error that caused the roll-back is the
    /// one worth reporting.
    pub(crate) fn roll_back(&self, before: &[DisabledHook]) {
        if let Err(err) = self.save(before) {
            tracing::error!(store = %self.path.display(), error = %err, "cannot roll back the store of disabled hooks");
        }
    }
}

/// Refuses `doc` unless it is `version` (when one is given).
fn check_version(doc: &SettingsDocument, version: Option<&str>) -> Result<()> {
    match version {
        Some(v) if !doc.is_version(v) => Err(SettingsError::ChangedOnDisk {
            path: doc.path().to_path_buf(),
        }),
        _ => Ok(()),
    }
}

/// Disables hooks with the store from the environment; see [`DisabledStore::disable`].
pub fn disable(
    location: &SettingsLocation,
    selector: &HookSelector,
    force: bool,
) -> Result<Vec<DisabledHook>> {
    DisabledStore::from_env()?.disable(location, selector, force)
}

/// Enables hooks with the store from the environment; see [`DisabledStore::enable`].
pub fn enable(
    location: &SettingsLocation,
    selector: &HookSelector,
    force: bool,
) -> Result<Vec<DisabledHook>> {
    DisabledStore::from_env()?.enable(location, selector, force)
}
