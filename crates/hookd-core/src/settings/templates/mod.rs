//! The hooks-templates catalog: ready-made hooks (`hooks-templates/index.json`
//! plus their scripts) that `hookd templates` and the app list, show,
//! install, uninstall and find installed.
//!
//! The catalog and every script are embedded in the binary, so an installed
//! `hookd` works anywhere; a test checks the embedded copy against the files
//! on disk. Installing copies a template's script (mode 0755) to
//! `<project>/.hookd/hooks/` (project scope, committed with the project),
//! `<project>/.hookd/hooks-local/` (local scope, never committed) or
//! `<hookd home>/hooks/` (global scope), then adds its handlers through
//! [`settings::add_hook`] and [`SettingsDocument::save`], so nothing else in
//! the settings file moves.
//!
//! - [`catalog`]: the manifest's types and its validation.
//! - [`install`](mod@install): install and uninstall, idempotent and exact.
//! - [`installed`](mod@installed): which templates the six settings files
//!   hold, and whether each is complete.
//!
//! A template with `connect` (record-into-hookd) has no script: it is the
//! `hookd-emit` entries of `hookd connect`, installed and removed through
//! [`crate::settings::connect`] so the two never disagree.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::settings::connect::{self, AgentConnectError};
use crate::settings::{self, Scope, SettingsError, SettingsRoots};

pub mod catalog;
pub mod install;
pub mod installed;

pub use catalog::{Catalog, Template, TemplateHook};
pub use install::{ChangeReport, FileChange, install, uninstall};
pub use installed::{Idle, Installation, InstalledReport, UnreadableSettings, idle, installed};

#[cfg(doc)]
use crate::settings::SettingsDocument;

/// The catalog manifest, as shipped in `hooks-templates/index.json`.
pub const INDEX_JSON: &str = include_str!("../../../../../hooks-templates/index.json");

/// Every script the catalog refers to: file name and bytes.
pub const SCRIPTS: &[(&str, &[u8])] = &[
    (
        "block-dangerous-shell.py",
        include_bytes!("../../../../../hooks-templates/block-dangerous-shell.py"),
    ),
    (
        "protect-secrets.py",
        include_bytes!("../../../../../hooks-templates/protect-secrets.py"),
    ),
    (
        "protect-main-branch.py",
        include_bytes!("../../../../../hooks-templates/protect-main-branch.py"),
    ),
    (
        "stay-in-project.py",
        include_bytes!("../../../../../hooks-templates/stay-in-project.py"),
    ),
    (
        "session-git-context.sh",
        include_bytes!("../../../../../hooks-templates/session-git-context.sh"),
    ),
    (
        "log-bash-commands.py",
        include_bytes!("../../../../../hooks-templates/log-bash-commands.py"),
    ),
    (
        "format-on-edit.py",
        include_bytes!("../../../../../hooks-templates/format-on-edit.py"),
    ),
    (
        "stop-run-tests.py",
        include_bytes!("../../../../../hooks-templates/stop-run-tests.py"),
    ),
    (
        "notify-desktop.py",
        include_bytes!("../../../../../hooks-templates/notify-desktop.py"),
    ),
];

/// The placeholder in a template's command that installing replaces with
/// the installed script's path.
pub const SCRIPT_PLACEHOLDER: &str = "{script}";

/// The directory (inside `.hookd/` or hookd's home) installed scripts go to;
/// in a project it is committed (see
/// [`crate::state_dir::SHARED_GITIGNORE`]), so teammates get the scripts
/// the project's committed hooks run.
pub const HOOKS_DIR: &str = "hooks";

/// The directory inside `.hookd/` for the scripts of local-scope hooks
/// (`settings.local.json`): private to this checkout, like those files.
pub const LOCAL_HOOKS_DIR: &str = "hooks-local";

/// The only catalog schema version this build reads.
pub const CATALOG_VERSION: u32 = 1;

/// Errors from loading the catalog or installing a template.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// The manifest is not JSON of the catalog's shape.
    #[error("the templates catalog is not valid: {0}")]
    Parse(#[source] serde_json::Error),
    /// The manifest parsed but breaks a rule of the schema.
    #[error("the templates catalog is not valid: template {template:?}: {problem}")]
    Invalid {
        /// The template's name (or `#index` when it has none).
        template: String,
        /// What is wrong.
        problem: String,
    },
    /// No template of that name.
    #[error("no template named {name:?} (see `hookd templates list`)")]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// A `connect` template only exists as agent hooks.
    #[error(
        "template {0:?} installs the agent's own hookd-emit hooks: use --kind agent (managed hooks are run by hookd itself)"
    )]
    AgentOnly(String),
    /// A project scope without a project directory.
    #[error("the {0} scope needs a project directory")]
    NoProject(Scope),
    /// Reading, checking or saving a settings file failed.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Editing the agent's hookd-emit hooks failed.
    #[error(transparent)]
    Connect(#[from] AgentConnectError),
    /// A file-system operation on a script failed.
    #[error("{action} {path}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Result alias for this module.
pub type Result<T, E = TemplateError> = std::result::Result<T, E>;

/// The embedded bytes of the script `name`.
pub fn script_bytes(name: &str) -> Option<&'static [u8]> {
    SCRIPTS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// The directory of a scope's scripts relative to the project root, for the
/// project scopes: `.hookd/hooks` (project) or `.hookd/hooks-local` (local).
fn project_hooks_dir(scope: Scope) -> String {
    let dir = if scope == Scope::Local {
        LOCAL_HOOKS_DIR
    } else {
        HOOKS_DIR
    };
    format!("{}/{dir}", settings::location::MANAGED_PROJECT_DIR)
}

/// Where installed scripts live for a scope: `<project>/.hookd/hooks` for
/// project, `<project>/.hookd/hooks-local` for local, `<hookd home>/hooks`
/// for global.
pub fn hooks_dir(roots: &SettingsRoots, scope: Scope, project: Option<&Path>) -> Result<PathBuf> {
    if scope.is_project() {
        let project = project.ok_or(TemplateError::NoProject(scope))?;
        Ok(project.join(project_hooks_dir(scope)))
    } else {
        Ok(roots.hookd_home.join(HOOKS_DIR))
    }
}

/// The handler command of `hook` for a script installed at `scope`: project
/// scopes go through `$CLAUDE_PROJECT_DIR` so a committed file works in every
/// checkout; the global scope uses the absolute path.
pub fn command_for(
    hook: &TemplateHook,
    script: &str,
    roots: &SettingsRoots,
    scope: Scope,
) -> String {
    let path = if scope.is_project() {
        format!(
            "\"$CLAUDE_PROJECT_DIR\"/{}/{}",
            project_hooks_dir(scope),
            connect::shell_quote(script)
        )
    } else {
        let abs = roots.hookd_home.join(HOOKS_DIR).join(script);
        connect::shell_quote(&abs.to_string_lossy()).into_owned()
    };
    hook.command.replace(SCRIPT_PLACEHOLDER, &path)
}

/// The command earlier versions of hookd installed for a local-scope
/// script, which lived in the shared `.hookd/hooks/`: the project scope's.
fn legacy_local_command(hook: &TemplateHook, script: &str, roots: &SettingsRoots) -> String {
    command_for(hook, script, roots, Scope::Project)
}

/// `Event (matcher)`, or just the event when the hook has no matcher.
fn label(hook: &TemplateHook) -> String {
    match &hook.matcher {
        Some(m) => format!("{} ({m})", hook.event),
        None => hook.event.clone(),
    }
}

fn io_err<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> TemplateError + 'a {
    move |source| TemplateError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Every matcher group of a settings document with its event name, in file
/// order.
fn groups(value: &Value) -> impl Iterator<Item = (&str, &Value)> {
    value
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|hooks| hooks.iter())
        .filter_map(|(event, groups)| Some((event.as_str(), groups.as_array()?)))
        .flat_map(|(event, groups)| groups.iter().map(move |g| (event, g)))
}

/// The handlers of one matcher group.
fn group_handlers(group: &Value) -> impl Iterator<Item = &Value> {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Every handler of a settings document, in file order.
fn handlers(value: &Value) -> impl Iterator<Item = &Value> {
    groups(value).flat_map(|(_, g)| group_handlers(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_commands_go_through_claude_project_dir() {
        let roots = SettingsRoots::under(Path::new("/home/u"));
        let hook = TemplateHook {
            event: "PreToolUse".into(),
            matcher: Some("Bash".into()),
            command: "{script}".into(),
            timeout: None,
        };
        assert_eq!(
            command_for(&hook, "a.py", &roots, Scope::Project),
            "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/a.py"
        );
        assert_eq!(
            command_for(&hook, "a.py", &roots, Scope::Local),
            "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks-local/a.py"
        );
        assert_eq!(
            hooks_dir(&roots, Scope::Local, Some(Path::new("/p"))).unwrap(),
            Path::new("/p/.hookd/hooks-local")
        );
        assert_eq!(
            command_for(&hook, "a.py", &roots, Scope::Global),
            "/home/u/.hookd/hooks/a.py"
        );
    }
}
