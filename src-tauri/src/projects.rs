//! Projects: the core's registry of known repositories, each with what its
//! ledger holds and whether Claude Code is connected to hookd there.
//!
//! The registry is the single list (the daemon adds every repository that
//! sends an event, the app and the CLI add folders by hand), so projects
//! added here survive restarts and show up in `hookd query --all` too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use hookd_core::AgentKind;
use hookd_core::dirs;
use hookd_core::ledger::Ledger;
use hookd_core::ledger::registry::{KnownRepo, Origin, Registry};
use hookd_core::project::ProjectError;
use hookd_core::settings::SettingsDocument;
use hookd_core::settings::connect::is_hookd_handler;
use hookd_core::settings::connector;
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::state::AppState;

/// Name of the event sent after folders were dropped on the window.
pub const PROJECTS_CHANGED_EVENT: &str = "projects-changed";

/// One project as the Projects screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ProjectInfo {
    /// The project's root (its git work-tree root, or the folder as added).
    pub root: String,
    /// The last path component of `root`.
    pub name: String,
    /// `event` (the daemon saw it) or `manual` (a user added it).
    pub origin: String,
    /// When it entered the registry.
    pub first_seen: String,
    /// Newest `event_timestamp` in its ledger; `null` without events.
    pub last_activity: Option<String>,
    /// Rows in the ledger's `events` table.
    pub events: i64,
    /// Rows in the ledger's `mutations` table.
    pub mutations: i64,
    /// Whether `<root>/.hookd/mutations.db` exists.
    pub has_ledger: bool,
    /// Which Claude Code settings scopes call `hookd-emit`.
    pub connected: Connected,
    /// The coding agents that called `hookd-emit` here, by the ledger
    /// (`claude`, `codex`, `gemini`, `cursor`, `copilot`); empty without one.
    pub agent_kinds: Vec<String>,
    /// The other coding agents whose hooks file calls `hookd-emit` for
    /// this project, the user's or the project's (`codex`, `gemini`,
    /// `cursor`, `copilot`, in that order), as `hookd connect --agent`
    /// writes them; Claude Code's are in `connected`.
    pub agents_connected: Vec<String>,
}

/// Whether each Claude Code settings scope has hookd's handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, TS)]
pub struct Connected {
    /// `~/.claude/settings.json` (the global scope).
    pub global: bool,
    /// `<root>/.claude/settings.json`.
    pub project: bool,
    /// `<root>/.claude/settings.local.json`.
    pub local: bool,
}

/// What `add_projects` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AddProjectsResult {
    /// Projects registered by this call.
    pub added: Vec<ProjectInfo>,
    /// Projects that were listed already (nothing changed for them).
    pub known: Vec<ProjectInfo>,
    /// Paths that could not be added, and why.
    pub rejected: Vec<Rejected>,
}

/// A path `add_projects` refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct Rejected {
    /// The path as given.
    pub path: String,
    /// Why, for people: `does not exist`, `not a folder`, ...
    pub reason: String,
}

/// Every known project, newest activity first (projects without events last,
/// then by name).
pub fn list_projects(state: &AppState) -> Result<Vec<ProjectInfo>> {
    let registry = Registry::open(&state.data_dir)?;
    let roots = state.settings_roots.as_ref();
    let global = Global::of(roots);
    let mut projects: Vec<ProjectInfo> = registry
        .list()?
        .iter()
        .map(|known| project_info(known, roots, &global))
        .collect();
    sort_by_activity(&mut projects);
    Ok(projects)
}

/// Registers each folder in `paths` (by its git root when inside a
/// repository) and reports what it did per path. Only a failing registry
/// fails the whole call.
pub fn add_projects(state: &AppState, paths: &[PathBuf]) -> Result<AddProjectsResult> {
    let registry = Registry::open(&state.data_dir)?;
    let roots = state.settings_roots.as_ref();
    let global = Global::of(roots);
    let mut added = Vec::new();
    let mut known_before: HashSet<PathBuf> = registry.list()?.into_iter().map(|k| k.root).collect();
    let mut already = Vec::new();
    let mut rejected = Vec::new();
    let mut seen = HashSet::new();
    let home = roots
        .map(|r| r.home.clone())
        .or_else(|| hookd_core::dirs::home_dir().ok());
    for path in paths {
        let root = match typed_path(path, home.as_deref()).and_then(|path| project_root_for(&path))
        {
            Ok(root) => root,
            Err(Rejection(reason)) => {
                rejected.push(Rejected {
                    path: path.display().to_string(),
                    reason,
                });
                continue;
            }
        };
        if !seen.insert(root.clone()) {
            continue;
        }
        registry.add(&root, Origin::Manual)?;
        let known = registry
            .list()?
            .into_iter()
            .find(|k| k.root == root)
            .ok_or_else(|| {
                AppError::internal(format!("{} vanished from the registry", root.display()))
            })?;
        let info = project_info(&known, roots, &global);
        if known_before.insert(root) {
            tracing::info!(root = %known.root.display(), origin = %known.origin, "project added");
            added.push(info);
        } else {
            already.push(info);
        }
    }
    Ok(AddProjectsResult {
        added,
        known: already,
        rejected,
    })
}

/// [`add_projects`] for folders dropped on the window: nobody awaits a
/// result there, so a failure of the whole call becomes a rejection of
/// every path, and the UI shows it like any other (`projects-changed`).
pub fn add_dropped(state: &AppState, paths: &[PathBuf]) -> AddProjectsResult {
    add_projects(state, paths).unwrap_or_else(|err| {
        tracing::warn!(error = %err, "cannot add dropped folders");
        AddProjectsResult {
            added: Vec::new(),
            known: Vec::new(),
            rejected: paths
                .iter()
                .map(|path| Rejected {
                    path: path.display().to_string(),
                    reason: err.message.clone(),
                })
                .collect(),
        }
    })
}

/// The root a dropped or picked path is registered under (the core's one
/// project-root rule), or why it cannot be, in the words the window shows.
pub fn project_root_for(path: &Path) -> std::result::Result<PathBuf, Rejection> {
    if path.as_os_str().is_empty() {
        return Err(Rejection("empty path".into()));
    }
    hookd_core::project::project_root(path).map_err(|err| {
        Rejection(match &err {
            _ if err.is_not_found() => "does not exist".into(),
            ProjectError::NotADirectory(_) => "not a folder".into(),
            ProjectError::Unreadable { source, .. } => format!("cannot be read: {source}"),
        })
    })
}

/// A path as a person types it into the window: `~` and `$HOME` (or
/// `${HOME}`) at its start are `home`, as a shell would have made them. A
/// relative path is refused with what to give instead: the window has no
/// working directory a person could mean.
pub fn typed_path(path: &Path, home: Option<&Path>) -> std::result::Result<PathBuf, Rejection> {
    let text = path.to_string_lossy();
    let rest = ["~", "$HOME", "${HOME}"].iter().find_map(|prefix| {
        let rest = text.strip_prefix(prefix)?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    });
    if let Some(rest) = rest {
        let Some(home) = home else {
            return Err(Rejection(
                "the home directory is not known here: give the full path".to_owned(),
            ));
        };
        return Ok(home.join(rest.trim_start_matches('/')));
    }
    if path.as_os_str().is_empty() || path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    if text.starts_with('~') {
        return Err(Rejection(
            "another user's home (~name) is not expanded: give the full path".to_owned(),
        ));
    }
    Err(Rejection(
        "a relative path: give the full path (/home/you/src/app, or ~/src/app)".to_owned(),
    ))
}

/// Why a path cannot be added as a project, as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection(pub String);

fn project_info(known: &KnownRepo, roots: Option<&SettingsRoots>, global: &Global) -> ProjectInfo {
    let root = &known.root;
    let ledger_path = dirs::repo_ledger_path(root);
    let has_ledger = ledger_path.is_file();
    let (events, mutations, last_activity, agent_kinds) = if has_ledger {
        ledger_summary(&ledger_path).unwrap_or_else(|err| {
            // One unreadable ledger must not hide every project.
            tracing::warn!(ledger = %ledger_path.display(), error = %err, "cannot read ledger");
            (0, 0, None, Vec::new())
        })
    } else {
        (0, 0, None, Vec::new())
    };
    ProjectInfo {
        root: root.display().to_string(),
        name: root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        origin: known.origin.clone(),
        first_seen: known.first_seen.clone(),
        last_activity,
        events,
        mutations,
        has_ledger,
        connected: connected(roots, root, global.claude),
        agent_kinds,
        agents_connected: agents_connected(roots, root, global),
    }
}

/// Event and mutation counts, the newest event time and the coding agents
/// of one ledger.
fn ledger_summary(path: &Path) -> Result<(i64, i64, Option<String>, Vec<String>)> {
    let ledger = Ledger::open_existing(path)?;
    let (events, mutations) = ledger.totals()?;
    // Stored timestamps share one RFC 3339 UTC shape, so MAX is the newest.
    let newest: Option<String> = ledger
        .connection()
        .query_row("SELECT MAX(event_timestamp) FROM events", [], |row| {
            row.get(0)
        })
        .map_err(|e| hookd_core::Error::sqlite(path, e))?;
    Ok((events, mutations, newest, ledger.agent_kinds()?))
}

fn sort_by_activity(projects: &mut [ProjectInfo]) {
    projects.sort_by(|a, b| {
        // RFC 3339 UTC strings of one shape sort chronologically; None last.
        b.last_activity
            .cmp(&a.last_activity)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.root.cmp(&b.root))
    });
}

/// Which of Claude Code's settings scopes call hookd for `root`; paths come
/// from the core's [`SettingsRoots`] so the app and `hookd connect` agree.
/// `global` is computed once per call by the caller (it is the same file for
/// every project).
fn connected(roots: Option<&SettingsRoots>, root: &Path, global: bool) -> Connected {
    let scope = |scope| {
        roots
            .and_then(|r| r.location(Kind::Agent, scope, Some(root)).ok())
            .is_some_and(|location| scope_connected(&location))
    };
    Connected {
        global,
        project: scope(Scope::Project),
        local: scope(Scope::Local),
    }
}

/// What the user's own hooks files connect, the same for every project:
/// read once per listing.
struct Global {
    /// `~/.claude/settings.json` calls hookd.
    claude: bool,
    /// The other agents whose user file calls hookd.
    agents: Vec<AgentKind>,
}

impl Global {
    fn of(roots: Option<&SettingsRoots>) -> Self {
        let agents = roots.map_or_else(Vec::new, |roots| {
            AgentKind::ALL
                .into_iter()
                .filter(|&agent| agent_connected(roots, agent, Scope::Global, None))
                .collect()
        });
        Self {
            claude: global_connected(roots),
            agents,
        }
    }
}

/// The other agents that call hookd for the project at `root`: from the
/// user's file (`global`) or the project's.
fn agents_connected(roots: Option<&SettingsRoots>, root: &Path, global: &Global) -> Vec<String> {
    let Some(roots) = roots else {
        return Vec::new();
    };
    AgentKind::ALL
        .into_iter()
        .filter(|&agent| {
            global.agents.contains(&agent)
                || agent_connected(roots, agent, Scope::Project, Some(root))
        })
        .map(|agent| agent.as_str().to_owned())
        .collect()
}

/// Whether `agent`'s hooks file of `scope` has hookd's entries (never for
/// Claude Code, whose files `connected` reads).
fn agent_connected(
    roots: &SettingsRoots,
    agent: AgentKind,
    scope: Scope,
    project: Option<&Path>,
) -> bool {
    connector::of(agent).is_some_and(|connector| {
        connector
            .location(roots, scope, project)
            .is_ok_and(|location| connector.is_connected(&location))
    })
}

fn global_connected(roots: Option<&SettingsRoots>) -> bool {
    roots
        .and_then(|r| r.location(Kind::Agent, Scope::Global, None).ok())
        .is_some_and(|location| scope_connected(&location))
}

/// True when the settings file has at least one handler that runs
/// `hookd-emit` (recognised by the same rule `hookd connect` uses). A
/// missing or unreadable file is not connected.
fn scope_connected(location: &SettingsLocation) -> bool {
    let Ok(doc) = SettingsDocument::load(location) else {
        return false;
    };
    let Some(Value::Object(events)) = doc.value().get("hooks") else {
        return false;
    };
    events
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group.get("hooks").and_then(Value::as_array))
        .flatten()
        .any(is_hookd_handler)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, last: Option<&str>) -> ProjectInfo {
        ProjectInfo {
            root: format!("/{name}"),
            name: name.into(),
            origin: "manual".into(),
            first_seen: "2026-01-01T00:00:00.000Z".into(),
            last_activity: last.map(str::to_owned),
            events: 0,
            mutations: 0,
            has_ledger: last.is_some(),
            connected: Connected::default(),
            agents_connected: Vec::new(),
            agent_kinds: Vec::new(),
        }
    }

    #[test]
    fn newest_activity_first_then_idle_projects_by_name() {
        let mut projects = vec![
            info("zeta", None),
            info("old", Some("2026-01-01T00:00:00.000Z")),
            info("alpha", None),
            info("new", Some("2026-03-01T00:00:00.000Z")),
        ];
        sort_by_activity(&mut projects);
        let names: Vec<&str> = projects.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["new", "old", "alpha", "zeta"]);
    }

    #[test]
    fn hookd_handlers_are_recognised_in_any_event() {
        let dir = tempfile::tempdir().unwrap();
        let location = SettingsRoots::under(dir.path())
            .location(Kind::Agent, Scope::Project, Some(dir.path()))
            .unwrap();
        assert!(!scope_connected(&location), "missing file");
        std::fs::create_dir_all(location.path.parent().unwrap()).unwrap();
        std::fs::write(
            &location.path,
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]}}"#,
        )
        .unwrap();
        assert!(!scope_connected(&location), "someone else's hook");
        std::fs::write(
            &location.path,
            r#"{"permissions":{},"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/opt/hookd/bin/hookd-emit' post_tool_use","timeout":10}]}]}}"#,
        )
        .unwrap();
        assert!(scope_connected(&location));
        std::fs::write(&location.path, "{not json").unwrap();
        assert!(!scope_connected(&location), "invalid JSON");
    }
}
