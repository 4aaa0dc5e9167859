//! The Effective tab: every hook that applies to a project, both kinds, in
//! the order they run, each with its source file, whether it is disabled,
//! which earlier hook it duplicates (so it runs once), and whether it
//! really runs for the project and why not (a managed hook in a
//! record-only project does not: the user must not believe it guards
//! anything). Built by the
//! core's lenient effective view, so a broken file is listed as skipped
//! with its problem instead of hiding every other hook.
//!
//! The agent also runs hooks no settings file holds: those installed
//! plugins ship (`hooks/hooks.json`), and those skills and subagents carry
//! in their frontmatter (which run only while that skill or agent is
//! active). They are listed beside the others, read-only and with their
//! plugin, skill or agent, enabled or not (the core's `settings::plugins`
//! and `settings::components`), so nothing that runs is hidden from the
//! user; a frontmatter the agent cannot read is a warning, not an error.

use hookd_core::settings::components::{ComponentHook, ComponentProblem, component_hooks};
use hookd_core::settings::plugins::{PluginHook, plugin_hooks};
use hookd_core::settings::{
    EffectiveHooks, Kind, RunVerdict, Scope, Verdicts, effective_lenient_in,
};
use serde::Serialize;
use ts_rs::TS;

use super::{display, project_dir, settings_error};
use crate::error::Result;
use crate::state::AppState;

/// The effective hooks of a project.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct EffectiveView {
    /// The files read, in order (agent then managed; global, project, local, policy).
    pub files: Vec<EffectiveFile>,
    /// Every hook, in the order the files were read.
    pub hooks: Vec<EffectiveEntry>,
    /// Files that could not be used, with why (they were skipped).
    pub errors: Vec<String>,
    /// Files whose `disableAllHooks: true` turns off every hook of their kind.
    pub all_disabled_by: Vec<String>,
    /// The hooks installed plugins ship, read-only, in plugin order; a
    /// disabled plugin's are listed too (`enabled: false`: they do not run).
    pub plugins: Vec<PluginHook>,
    /// The hooks skills and subagents carry in their frontmatter,
    /// read-only; each runs only while its skill or agent is active.
    pub components: Vec<ComponentHook>,
    /// Skill and agent files whose frontmatter or hooks the agent would not
    /// load, with why (their hooks are not listed).
    pub component_problems: Vec<ComponentProblem>,
}

/// A file of the effective view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct EffectiveFile {
    /// Agent or managed.
    pub kind: Kind,
    /// Global, project, local or policy.
    pub scope: Scope,
    /// The file.
    pub path: String,
    /// It exists.
    pub exists: bool,
    /// It was skipped as unreadable or invalid.
    pub skipped: bool,
    /// hookd never writes it (policy).
    pub read_only: bool,
}

/// One hook of the effective view.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct EffectiveEntry {
    /// Its position in [`EffectiveView::hooks`].
    pub index: u64,
    /// Who runs it.
    pub kind: Kind,
    /// Which file of that kind.
    pub scope: Scope,
    /// That file.
    pub path: String,
    /// Its event.
    pub event: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// Index of its group in the event's array.
    pub group_index: u64,
    /// Index within the group.
    pub handler_index: u64,
    /// `command`, `http`, `prompt`, `mcp_tool`, `agent` (or unknown).
    pub handler_type: String,
    /// What it runs: the command, URL or prompt, else its JSON.
    pub summary: String,
    /// The command of a command handler.
    pub command: Option<String>,
    /// Its timeout in seconds.
    pub timeout: Option<f64>,
    /// False when disabled through hookd.
    pub enabled: bool,
    /// Index of the identical hook earlier in the list that runs instead.
    pub duplicate_of: Option<u64>,
    /// Why hookd does not run it (its project file is not approved); `null` when it may run.
    pub untrusted: Option<String>,
    /// Whether it really runs for the project, and every reason it does
    /// not (the core's `settings::runs`, worded there).
    pub runs: RunVerdict,
}

/// The effective hooks of `project`, agent then managed.
pub fn effective_hooks(state: &AppState, project: &str) -> Result<EffectiveView> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    let plugins = plugin_hooks(roots, Some(&project)).map_err(settings_error)?;
    let components = component_hooks(roots, Some(&project)).map_err(settings_error)?;
    let mut view = EffectiveHooks::default();
    let mut errors = Vec::new();
    let mut verdicts = Vec::new();
    for kind in Kind::ALL {
        let (one, problems) =
            effective_lenient_in(roots, kind, Some(&project)).map_err(settings_error)?;
        // Judged per kind: a managed file's `disableAllHooks` stops only its kind.
        verdicts.extend(
            Verdicts::read(roots, Some(&project), &one)
                .map_err(settings_error)?
                .0,
        );
        view.append(one);
        errors.extend(problems.iter().map(|e| crate::error::chain(e)));
    }
    Ok(EffectiveView {
        files: view
            .files
            .iter()
            .map(|f| EffectiveFile {
                kind: f.location.kind,
                scope: f.location.scope,
                path: display(&f.location.path),
                exists: f.exists,
                skipped: f.skipped,
                read_only: f.location.read_only,
            })
            .collect(),
        hooks: view
            .hooks
            .iter()
            .zip(verdicts)
            .enumerate()
            .map(|(i, (h, runs))| EffectiveEntry {
                index: i as u64,
                kind: h.kind,
                scope: h.scope,
                path: display(&h.path),
                event: h.event.name().to_owned(),
                matcher: h.matcher.clone(),
                group_index: h.group_index as u64,
                handler_index: h.handler_index as u64,
                handler_type: h.handler_type.clone(),
                summary: h.summary(),
                command: h.command.clone(),
                timeout: h.timeout,
                enabled: h.enabled,
                duplicate_of: h.duplicate_of.map(|d| d as u64),
                untrusted: h.untrusted.clone(),
                runs,
            })
            .collect(),
        errors,
        all_disabled_by: view
            .all_disabled_by
            .iter()
            .map(|l| display(&l.path))
            .collect(),
        plugins,
        components: components.hooks,
        component_problems: components.problems,
    })
}
