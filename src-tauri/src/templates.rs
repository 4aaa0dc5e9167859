//! The hook editor's Templates tab: the ready-made hooks of
//! `hooks-templates/`, where each one is installed, and one-click install and
//! uninstall into one of the six settings files.
//!
//! Everything is the core's [`hookd_core::settings::templates`] (the same code as
//! `hookd templates`): install copies the script and adds the handlers
//! through the safe settings write, so no other hook or key moves, and
//! installing twice changes nothing. This module only names the file the
//! window chose ([`FileRef`]) and shapes the answers for the UI.
//!
//! A managed template installed where the agent never hands its events to
//! hookd (a record-only or unconnected project) guards nothing: the answer
//! says so, with the core's reasons, and names the scope whose agent file
//! to switch to managed mode, so the window can offer the connect diff.

use hookd_core::settings::{Kind, NotRun, Scope};
use std::path::{Path, PathBuf};

use hookd_core::settings::SettingsLocation;
use hookd_core::settings::connect;
use hookd_core::settings::templates::{self, Catalog, ChangeReport, FileChange, Template};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::editor::{self, FileRef};
use crate::error::{AppError, ErrorKind, Result};
use crate::state::AppState;

/// One template as the Templates tab lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TemplateInfo {
    /// Unique name, e.g. `block-dangerous-shell`.
    pub name: String,
    /// One line saying what it does.
    pub description: String,
    /// The handlers it adds, in manifest order.
    pub hooks: Vec<TemplateHookInfo>,
    /// Programs it needs on `PATH`.
    pub requires: Vec<String>,
    /// Those of [`Self::requires`] this machine lacks: the hook would fail.
    pub missing_programs: Vec<String>,
    /// Platforms it is written for (`linux`, `macos`).
    pub platforms: Vec<String>,
    /// The kinds of settings file it can go into (the `hookd-emit` entries
    /// belong in the agent's files only).
    pub kinds: Vec<Kind>,
    /// The script copied into the hooks directory (none for `hookd-emit` entries).
    pub script: Option<String>,
    /// Where it is installed now.
    pub installed: Vec<TemplatePlacement>,
}

/// The Templates tab's answer: the catalogue, and the settings files that
/// could not be read (so where templates are installed in them is unknown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TemplateCatalog {
    /// Every template, in catalogue order.
    pub templates: Vec<TemplateInfo>,
    /// Settings files that exist but could not be read or parsed.
    pub unreadable: Vec<UnreadableFile>,
}

/// A settings file the Templates tab could not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct UnreadableFile {
    /// Agent or managed.
    pub kind: Kind,
    /// Global, project or local.
    pub scope: Scope,
    /// The settings file.
    pub settings: String,
    /// Why, with the line and column of a JSON error.
    pub reason: String,
}

/// One handler a template adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TemplateHookInfo {
    /// The agent event, e.g. `PreToolUse`.
    pub event: String,
    /// The group's matcher (none: every occurrence of the event).
    pub matcher: Option<String>,
    /// Timeout in seconds.
    pub timeout: Option<u64>,
}

/// A settings file a template is installed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TemplatePlacement {
    /// Agent or managed.
    pub kind: Kind,
    /// Global, project or local.
    pub scope: Scope,
    /// The settings file.
    pub settings: String,
    /// Every handler and the script are there, the script unchanged.
    pub complete: bool,
    /// What is missing or changed when not complete (installing again repairs it).
    pub missing: Vec<String>,
}

/// What happened to a template's script file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ScriptChange {
    /// It did not exist and was written.
    Created,
    /// It differed (content or mode) and was rewritten.
    Updated,
    /// It was already right (install) or is still used elsewhere (uninstall).
    Unchanged,
    /// It was deleted (uninstall).
    Removed,
    /// There is no script.
    Absent,
}

impl From<FileChange> for ScriptChange {
    fn from(change: FileChange) -> Self {
        match change {
            FileChange::Created => Self::Created,
            FileChange::Updated => Self::Updated,
            FileChange::Unchanged => Self::Unchanged,
            FileChange::Removed => Self::Removed,
            FileChange::Absent => Self::Absent,
        }
    }
}

/// What an install or uninstall did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TemplateChange {
    /// The template.
    pub template: String,
    /// The settings file.
    pub settings: String,
    /// Handlers added (install) or removed (uninstall), as `Event (matcher)`.
    pub handlers: Vec<String>,
    /// The settings file was written.
    pub written: bool,
    /// The copy of the previous settings file, when one was kept.
    pub backup: Option<String>,
    /// The script's path, for script templates.
    pub script: Option<String>,
    /// What happened to the script.
    pub script_change: ScriptChange,
    /// Nothing at all changed on disk (already installed, or not installed).
    pub unchanged: bool,
    /// After installing managed hooks: every reason they do not run for the
    /// project (empty when they run, and after an uninstall).
    pub idle: Vec<NotRun>,
    /// When connecting in managed mode would make them run: the scope of
    /// the agent file to switch (the first that records now; global when
    /// none calls hookd).
    pub switch_scope: Option<Scope>,
}

/// Every template of the embedded catalog, with where it is installed for
/// `project` (global files only without one). A settings file that cannot
/// be parsed is listed, not an error: the other files still answer.
pub fn catalog(state: &AppState, project: Option<&str>) -> Result<TemplateCatalog> {
    let catalog = embedded()?;
    let project = project.map(editor::project_dir).transpose()?;
    let roots = state.roots()?;
    let report = templates::installed(&catalog, roots, project.as_deref())?;
    let templates = catalog
        .templates
        .iter()
        .map(|t| {
            let placements = report
                .found
                .iter()
                .filter(|i| i.template == t.name)
                .map(|i| TemplatePlacement {
                    kind: i.kind,
                    scope: i.scope,
                    settings: editor::display(&i.settings),
                    complete: i.complete,
                    missing: i.missing.clone(),
                })
                .collect();
            info_of(t, placements)
        })
        .collect();
    let unreadable = report
        .unreadable
        .into_iter()
        .map(|u| UnreadableFile {
            kind: u.kind,
            scope: u.scope,
            settings: editor::display(&u.settings),
            reason: u.reason,
        })
        .collect();
    Ok(TemplateCatalog {
        templates,
        unreadable,
    })
}

/// Installs template `name` into `file`.
pub fn install(state: &AppState, name: &str, file: &FileRef) -> Result<TemplateChange> {
    let catalog = embedded()?;
    let template = catalog.get(name)?;
    let (location, project) = target(state, template, file)?;
    let roots = state.roots()?;
    let report = templates::install(template, roots, &location, project.as_deref())?;
    tracing::info!(template = name, file = %location.path.display(), handlers = report.handlers.len(), "installed a template");
    let mut change = change_of(name, &report);
    if location.kind == Kind::Managed {
        // The core's rule, as `hookd templates install` warns.
        let idle = templates::idle(template, roots, &location, project.as_deref())?;
        (change.idle, change.switch_scope) = (idle.reasons, idle.switch_scope);
    }
    Ok(change)
}

/// Removes exactly what installing template `name` into `file` adds.
pub fn uninstall(state: &AppState, name: &str, file: &FileRef) -> Result<TemplateChange> {
    let catalog = embedded()?;
    let template = catalog.get(name)?;
    let (location, project) = target(state, template, file)?;
    let roots = state.roots()?;
    let report = templates::uninstall(template, roots, &location, project.as_deref())?;
    tracing::info!(template = name, file = %location.path.display(), handlers = report.handlers.len(), "uninstalled a template");
    Ok(change_of(name, &report))
}

fn embedded() -> Result<Catalog> {
    Catalog::embedded().map_err(AppError::from)
}

/// The settings file and project root for `file`, refusing a kind the
/// template cannot go into before anything is touched.
fn target(
    state: &AppState,
    template: &Template,
    file: &FileRef,
) -> Result<(SettingsLocation, Option<PathBuf>)> {
    if file.scope == Scope::Policy {
        return Err(AppError::invalid_input(
            "the policy file is read-only; choose the global, project or local file",
        ));
    }
    if !kinds_of(template).contains(&file.kind) {
        return Err(AppError::new(
            ErrorKind::InvalidInput,
            format!(
                "{} adds hookd-emit entries, which belong in Claude Code's settings, not hookd's",
                template.name
            ),
        ));
    }
    let location = editor::location(state, file)?;
    let project = file
        .project
        .as_deref()
        .map(editor::project_dir)
        .transpose()?;
    Ok((location, project))
}

fn kinds_of(template: &Template) -> Vec<Kind> {
    if template.connect.is_some() {
        vec![Kind::Agent]
    } else {
        vec![Kind::Agent, Kind::Managed]
    }
}

fn info_of(t: &Template, installed: Vec<TemplatePlacement>) -> TemplateInfo {
    TemplateInfo {
        name: t.name.clone(),
        description: t.description.clone(),
        hooks: t
            .hooks
            .iter()
            .map(|h| TemplateHookInfo {
                event: h.event.clone(),
                matcher: h.matcher.clone(),
                timeout: h.timeout,
            })
            .collect(),
        missing_programs: t
            .requires
            .iter()
            .filter(|p| p.as_str() != connect::EMIT_PROGRAM && !connect::emit_found(p))
            .cloned()
            .collect(),
        requires: t.requires.clone(),
        platforms: t.platforms.clone(),
        kinds: kinds_of(t),
        script: t.script.clone(),
        installed,
    }
}

fn change_of(name: &str, report: &ChangeReport) -> TemplateChange {
    let path = |p: &Path| editor::display(p);
    TemplateChange {
        template: name.to_owned(),
        settings: path(&report.settings),
        handlers: report.handlers.clone(),
        written: report.write.is_some(),
        backup: report
            .write
            .as_ref()
            .and_then(|w| w.backup.as_deref())
            .map(path),
        script: report.script.as_deref().map(path),
        script_change: report.script_change.into(),
        unchanged: report.unchanged(),
        idle: Vec::new(),
        switch_scope: None,
    }
}
