//! Installing and uninstalling a template into one settings file.
//!
//! The script is written first (mode 0755) so a handler never points at a
//! missing file; the handlers go in through [`settings::add_hook`] and
//! [`SettingsDocument::save`], so nothing else in the settings file moves.
//! Installing twice changes nothing; uninstalling removes exactly the
//! handlers installed, and the script once no settings file sharing that
//! hooks directory uses it any more.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::{
    Result, Template, TemplateError, TemplateHook, command_for, handlers, hooks_dir, io_err, label,
    legacy_local_command, script_bytes,
};
use crate::fs_atomic::{self, confine};
use crate::settings::connect::{self, ChangeStatus};
use crate::settings::document::SettingsLock;
use crate::settings::location::MANAGED_PROJECT_DIR;
use crate::settings::{
    self, HookSelector, Kind, Scope, SettingsDocument, SettingsError, SettingsLocation,
    SettingsRoots, WriteOutcome,
};
use crate::state_dir::{GITIGNORE, GitignoreNeed, keep_gitignore};

/// What happened to the script file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileChange {
    /// It did not exist and was written.
    Created,
    /// It differed (content or mode) and was rewritten.
    Updated,
    /// It was already exactly right (install) or is still in use (uninstall).
    Unchanged,
    /// It was deleted (uninstall).
    Removed,
    /// There was none.
    Absent,
}

/// What [`install`] or [`uninstall`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeReport {
    /// The settings file edited.
    pub settings: PathBuf,
    /// Handlers added (install) or removed (uninstall), as `Event (matcher)`.
    pub handlers: Vec<String>,
    /// The settings file's write, when it was written.
    pub write: Option<WriteOutcome>,
    /// The installed script, for script templates.
    pub script: Option<PathBuf>,
    /// What happened to the script.
    pub script_change: FileChange,
    /// True when `<project>/.hookd/.gitignore` was written (created, or
    /// brought up to date so a project-scope script can be committed).
    pub gitignore_changed: bool,
}

impl ChangeReport {
    /// True when nothing at all was changed on disk.
    pub fn unchanged(&self) -> bool {
        self.write.is_none()
            && self.handlers.is_empty()
            && !self.gitignore_changed
            && matches!(
                self.script_change,
                FileChange::Unchanged | FileChange::Absent
            )
    }
}

/// Installs `template` into the settings file at `location` (`project` is
/// the project root for project and local scopes). The script is written
/// first so a handler never points at a missing file. Idempotent: when the
/// script is identical (bytes and mode 0755) and every handler is already in
/// its group, nothing is written.
pub fn install(
    template: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
) -> Result<ChangeReport> {
    if location.read_only {
        return Err(SettingsError::ReadOnly {
            path: location.path.clone(),
        }
        .into());
    }
    let Some(script) = &template.script else {
        return install_connect(template, location);
    };
    let bytes = script_bytes(script).ok_or_else(|| TemplateError::Invalid {
        template: template.name.clone(),
        problem: format!("script {script:?} is not embedded"),
    })?;
    let dir = hooks_dir(roots, location.scope, project)?;
    let path = dir.join(script);
    let gitignore = project.map(|p| p.join(MANAGED_PROJECT_DIR).join(GITIGNORE));
    if let (Some(project), Some(gitignore), true) =
        (project, &gitignore, location.scope.is_project())
    {
        // A cloned repository may have planted links: never write beyond one.
        beyond_no_link(project, &path)?;
        beyond_no_link(project, gitignore)?;
    }
    // Held from here: the settings file is checked (a project file must
    // not lead out of the project) before the script is written, and
    // edited as it is now.
    let lock = SettingsLock::acquire(location)?;
    let script_change = write_script(&dir, &path, bytes)?;
    let mut gitignore_changed = false;
    if let (Some(project), true) = (project, location.scope.is_project()) {
        // A project-scope script must be committable and a local one must
        // not; see SHARED_GITIGNORE.
        let need = if location.scope == Scope::Project {
            GitignoreNeed::Shared
        } else {
            GitignoreNeed::Private
        };
        gitignore_changed = keep_gitignore(&project.join(MANAGED_PROJECT_DIR), need)
            .map_err(crate::settings::SettingsError::from)?;
    }

    let mut doc = lock.load()?;
    let mut handlers = Vec::new();
    // A local install from before hooks-local/ runs the shared copy: move it.
    let moved = if location.scope == Scope::Local && doc.existed() {
        remove_handlers(&mut doc, template, |h| {
            legacy_local_command(h, script, roots)
        })?
    } else {
        Vec::new()
    };
    for hook in &template.hooks {
        let command = command_for(hook, script, roots, location.scope);
        let timeout = hook.timeout.map(|s| s as f64);
        let handler = settings::command_handler(&command, timeout);
        match settings::add_hook(&mut doc, &hook.event, hook.matcher.as_deref(), handler) {
            Ok(_) => handlers.push(label(hook)),
            Err(SettingsError::Duplicate { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let write = if handlers.is_empty() && moved.is_empty() {
        None
    } else {
        Some(lock.save(&doc, false)?)
    };
    drop(lock);
    if !moved.is_empty() {
        remove_legacy_local_script(template, script, roots, project)?;
    }
    Ok(ChangeReport {
        settings: location.path.clone(),
        handlers,
        write,
        script: Some(path),
        script_change,
        gitignore_changed,
    })
}

/// Refuses `path` when a part of it below `project` is a symbolic link.
fn beyond_no_link(project: &Path, path: &Path) -> Result<()> {
    confine::no_symlink_below(project, path)
        .map_err(|e| TemplateError::Settings(SettingsError::Write(e.into())))
}

fn write_script(dir: &Path, path: &Path, bytes: &[u8]) -> Result<FileChange> {
    let existing = match fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err("cannot read", path)(e)),
    };
    let mode_ok = fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o7777 == 0o755);
    if existing.as_deref() == Some(bytes) && mode_ok {
        return Ok(FileChange::Unchanged);
    }
    fs::create_dir_all(dir).map_err(io_err("cannot create directory", dir))?;
    fs_atomic::write_atomic(path, bytes)
        .map_err(|e| TemplateError::Settings(SettingsError::Write(e)))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(io_err("cannot make executable", path))?;
    Ok(if existing.is_some() {
        FileChange::Updated
    } else {
        FileChange::Created
    })
}

fn install_connect(template: &Template, location: &SettingsLocation) -> Result<ChangeReport> {
    if location.kind != Kind::Agent {
        return Err(TemplateError::AgentOnly(template.name.clone()));
    }
    // `hookd connect --managed` already records every event (and relays
    // managed hooks); switching it back to record-only would silently turn
    // the managed hooks off, so that counts as installed.
    if let Ok(doc) = SettingsDocument::load(location)
        && has_managed_emit(doc.value())
    {
        return Ok(ChangeReport {
            settings: location.path.clone(),
            handlers: Vec::new(),
            write: None,
            script: None,
            script_change: FileChange::Absent,
            gitignore_changed: false,
        });
    }
    let emit = connect::emit_command_for(None, location.scope)?;
    let report = connect::connect_at(location, &emit, connect::Mode::Record, false)?;
    Ok(connect_report(location, report))
}

fn connect_report(location: &SettingsLocation, report: connect::ChangeReport) -> ChangeReport {
    let write = match report.status {
        ChangeStatus::Written(outcome) => Some(outcome),
        _ => None,
    };
    ChangeReport {
        settings: location.path.clone(),
        handlers: if write.is_some() {
            report.events
        } else {
            Vec::new()
        },
        write,
        script: None,
        script_change: FileChange::Absent,
        gitignore_changed: false,
    }
}

/// Removes exactly the handlers [`install`] adds for `template` from the
/// settings file at `location`, then the script when no settings file
/// sharing its hooks directory (both kinds, same scopes) still runs it and
/// no disabled hook in hookd's store names it. Uninstalling what is not
/// installed changes nothing.
pub fn uninstall(
    template: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
) -> Result<ChangeReport> {
    if location.read_only {
        return Err(SettingsError::ReadOnly {
            path: location.path.clone(),
        }
        .into());
    }
    let Some(script) = &template.script else {
        if location.kind != Kind::Agent {
            return Err(TemplateError::AgentOnly(template.name.clone()));
        }
        let report = connect::disconnect_at(location, false)?;
        return Ok(connect_report(location, report));
    };
    if let (Some(project), true) = (project, location.scope.is_project()) {
        // Removing the script must not delete a file a planted link points to.
        let path = hooks_dir(roots, location.scope, Some(project))?.join(script);
        beyond_no_link(project, &path)?;
    }
    let lock = SettingsLock::acquire(location)?;
    let mut doc = lock.load()?;
    let commands: Vec<String> = template
        .hooks
        .iter()
        .map(|h| command_for(h, script, roots, location.scope))
        .collect();
    let mut handlers = Vec::new();
    let mut legacy = Vec::new();
    if doc.existed() {
        handlers = remove_handlers(&mut doc, template, |h| {
            command_for(h, script, roots, location.scope)
        })?;
        if location.scope == Scope::Local {
            legacy = remove_handlers(&mut doc, template, |h| {
                legacy_local_command(h, script, roots)
            })?;
        }
    }
    let write = if handlers.is_empty() && legacy.is_empty() {
        None
    } else {
        Some(lock.save(&doc, false)?)
    };
    drop(lock);
    let dir = hooks_dir(roots, location.scope, project)?;
    let mut path = dir.join(script);
    let mut script_change =
        remove_unused_script(roots, location.scope, project, &commands, script)?;
    if !legacy.is_empty() {
        let old = remove_legacy_local_script(template, script, roots, project)?;
        if script_change == FileChange::Absent && old.1 != FileChange::Absent {
            (path, script_change) = old;
        }
    }
    for label in legacy {
        if !handlers.contains(&label) {
            handlers.push(label);
        }
    }
    Ok(ChangeReport {
        settings: location.path.clone(),
        handlers,
        write,
        script: Some(path),
        script_change,
        gitignore_changed: false,
    })
}

/// Removes from `doc` the handlers of `template` whose command is
/// `command(hook)`; the labels of those removed.
fn remove_handlers(
    doc: &mut SettingsDocument,
    template: &Template,
    command: impl Fn(&TemplateHook) -> String,
) -> Result<Vec<String>> {
    let mut removed = Vec::new();
    for hook in &template.hooks {
        let selector = HookSelector {
            event: hook.event.clone(),
            matcher: hook.matcher.clone(),
            command: command(hook),
        };
        match settings::remove_hook(doc, &selector) {
            Ok(_) => removed.push(label(hook)),
            Err(SettingsError::NotFound { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(removed)
}

/// Deletes the script of `scope` (and its directory once empty) unless a
/// settings file still runs it through one of `commands`.
fn remove_unused_script(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
    commands: &[String],
    script: &str,
) -> Result<FileChange> {
    let dir = hooks_dir(roots, scope, project)?;
    let path = dir.join(script);
    if let (Some(project), true) = (project, scope.is_project()) {
        beyond_no_link(project, &path)?;
    }
    Ok(if !path.exists() {
        FileChange::Absent
    } else if script_in_use(roots, scope, project, commands, script)? {
        FileChange::Unchanged
    } else {
        fs::remove_file(&path).map_err(io_err("cannot remove", &path))?;
        // The directory goes too when it is now empty; otherwise it stays.
        let _ = fs::remove_dir(&dir);
        FileChange::Removed
    })
}

/// After a local install's handlers left the shared `.hookd/hooks/` copy:
/// deletes that copy unless something still runs it.
fn remove_legacy_local_script(
    template: &Template,
    script: &str,
    roots: &SettingsRoots,
    project: Option<&Path>,
) -> Result<(PathBuf, FileChange)> {
    let commands: Vec<String> = template
        .hooks
        .iter()
        .map(|h| legacy_local_command(h, script, roots))
        .collect();
    let path = hooks_dir(roots, Scope::Project, project)?.join(script);
    let change = remove_unused_script(roots, Scope::Project, project, &commands, script)?;
    Ok((path, change))
}

/// True when a settings file that could run scripts of `scope`'s hooks
/// directory still has a handler running one of `commands`, or the store of
/// disabled hooks mentions the script. Both project scopes are looked at:
/// local installs of earlier versions ran the shared `.hookd/hooks/` copy.
/// A file that cannot be read counts as using it: keeping a script is
/// harmless, deleting one still in use is not.
fn script_in_use(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
    commands: &[String],
    script: &str,
) -> Result<bool> {
    let scopes: &[Scope] = if scope.is_project() {
        &[Scope::Project, Scope::Local]
    } else {
        &[Scope::Global]
    };
    for kind in Kind::ALL {
        for &scope in scopes {
            let location = roots.location(kind, scope, project)?;
            let Ok(doc) = SettingsDocument::load(&location) else {
                return Ok(true);
            };
            if has_command(doc.value(), commands) {
                return Ok(true);
            }
        }
    }
    match fs::read_to_string(roots.disabled_store()) {
        Ok(text) => Ok(text.contains(script)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(_) => Ok(true),
    }
}

fn has_command(value: &Value, commands: &[String]) -> bool {
    handlers(value)
        .filter_map(|h| h.get("command").and_then(Value::as_str))
        .any(|c| commands.iter().any(|m| m == c))
}

/// True when the file has `hookd-emit --wait` handlers (managed mode).
pub(super) fn has_managed_emit(value: &Value) -> bool {
    let flag = format!(" {} ", connect::WAIT_FLAG);
    handlers(value).any(|h| {
        connect::is_hookd_handler(h)
            && h.get("command")
                .and_then(Value::as_str)
                .is_some_and(|c| c.contains(&flag))
    })
}
