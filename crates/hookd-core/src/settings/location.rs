//! Where hook settings live: two kinds of files (the agent's own and
//! hookd's managed ones), each at three scopes, plus the agent's read-only
//! policy file.
//!
//! Both kinds share Claude Code's format so a hook can move between them
//! unchanged; only who runs it differs. Paths are computed here and nowhere
//! else, so the CLI, the daemon and the app always agree on which files make
//! up a project's hooks.

use std::env;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::error::{Result, SettingsError};

/// Environment variable naming hookd's per-user home (`~/.hookd` by default).
pub const HOOKD_HOME_ENV: &str = "HOOKD_HOME";

/// Environment variable overriding where the agent's policy settings are read
/// from (tests; machines where the administrator put them elsewhere).
pub const POLICY_ENV: &str = "HOOKD_POLICY_SETTINGS";

/// Environment variable naming Codex CLI's home (default `~/.codex`), where
/// its user `hooks.json` and `config.toml` live.
pub const CODEX_HOME_ENV: &str = "CODEX_HOME";

/// Environment variable overriding the directory of Codex CLI's system
/// layer (its `config.toml`, `hooks.json` and the administrator's
/// `requirements.toml`; default [`DEFAULT_CODEX_SYSTEM_DIR`]). Codex itself
/// has no such override: this one is hookd's (tests; a machine where the
/// files were copied elsewhere to be looked at).
pub const CODEX_SYSTEM_DIR_ENV: &str = "HOOKD_CODEX_SYSTEM_DIR";

/// Where Codex CLI reads its system `config.toml` and `requirements.toml`
/// on Unix (`docs/agent-hooks.md` §1.1).
pub const DEFAULT_CODEX_SYSTEM_DIR: &str = "/etc/codex";

/// Environment variable Gemini CLI reads its system settings file from
/// (`docs/agent-hooks.md` §2.1); hookd honours it too.
pub const GEMINI_SYSTEM_SETTINGS_ENV: &str = "GEMINI_CLI_SYSTEM_SETTINGS_PATH";

/// Environment variable Gemini CLI reads its `system-defaults.json` from
/// (default: beside the system settings file); hookd honours it too.
pub const GEMINI_SYSTEM_DEFAULTS_ENV: &str = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH";

/// Gemini CLI's system settings file on this platform (§2.1).
pub const DEFAULT_GEMINI_SYSTEM_SETTINGS: &str = if cfg!(target_os = "macos") {
    "/Library/Application Support/GeminiCli/settings.json"
} else {
    "/etc/gemini-cli/settings.json"
};

/// Environment variable overriding where Cursor's enterprise hooks file is
/// read from (default [`DEFAULT_CURSOR_ENTERPRISE_HOOKS`]); hookd's own,
/// Cursor has none.
pub const CURSOR_ENTERPRISE_ENV: &str = "HOOKD_CURSOR_ENTERPRISE_HOOKS";

/// Cursor's enterprise (MDM) hooks file on this platform (§3.1).
pub const DEFAULT_CURSOR_ENTERPRISE_HOOKS: &str = if cfg!(target_os = "macos") {
    "/Library/Application Support/Cursor/hooks.json"
} else {
    "/etc/cursor/hooks.json"
};

/// Where Claude Code reads managed (policy) settings on Linux.
pub const DEFAULT_POLICY_PATH: &str = "/etc/claude-code/managed-settings.json";

/// Directory inside a project that holds hookd's files (ledger, managed hooks).
pub const MANAGED_PROJECT_DIR: &str = crate::dirs::REPO_STATE_DIR;

/// Who runs the hooks of a settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The agent (Claude Code) runs them itself: `.claude/settings*.json`.
    Agent,
    /// hookd's daemon runs them: `.hookd/settings*.json`.
    Managed,
}

impl Kind {
    /// Both kinds, agent first.
    pub const ALL: [Self; 2] = [Self::Agent, Self::Managed];

    /// The name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Agent => "agent",
            Self::Managed => "managed",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = SettingsError;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "agent" => Ok(Self::Agent),
            "managed" => Ok(Self::Managed),
            other => Err(SettingsError::UnknownKind(other.to_owned())),
        }
    }
}

/// Which file of a kind, in the order hooks are concatenated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Per user: every project.
    Global,
    /// `<project>/.claude|.hookd/settings.json`: committed, shared with the team.
    Project,
    /// `<project>/.claude|.hookd/settings.local.json`: this checkout only.
    Local,
    /// The administrator's managed settings (agent kind only, never written).
    Policy,
}

impl Scope {
    /// The scopes a user can write, in concatenation order.
    pub const WRITABLE: [Self; 3] = [Self::Global, Self::Project, Self::Local];

    /// The name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Global => "global",
            Self::Project => "project",
            Self::Local => "local",
            Self::Policy => "policy",
        }
    }

    /// True for the scopes whose file lives inside a project.
    pub fn is_project(self) -> bool {
        matches!(self, Self::Project | Self::Local)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = SettingsError;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "global" => Ok(Self::Global),
            "project" => Ok(Self::Project),
            "local" => Ok(Self::Local),
            "policy" => Ok(Self::Policy),
            other => Err(SettingsError::UnknownScope(other.to_owned())),
        }
    }
}

/// One settings file: its kind, scope and path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct SettingsLocation {
    /// Who runs its hooks.
    pub kind: Kind,
    /// Which level it is.
    pub scope: Scope,
    /// The file (it need not exist yet).
    pub path: PathBuf,
    /// hookd must never write it (policy settings).
    pub read_only: bool,
    /// The store of approved contents ([`super::trust`]) for a file whose
    /// hooks hookd runs only once approved (a project's managed files):
    /// saving such a file keeps an approval the old content had.
    #[serde(skip)]
    pub trust_store: Option<PathBuf>,
    /// hookd's record of the empty containers its writes filled in this
    /// file ([`super::containers`]), so removing the hook again keeps them;
    /// `None`: such containers are dropped when emptied.
    #[serde(skip)]
    pub kept_store: Option<PathBuf>,
    /// Where the versions this file had before each of hookd's writes are
    /// kept ([`super::backups`], in hookd's data directory, never beside
    /// the file); `None`: no backup.
    #[serde(skip)]
    pub backup_store: Option<PathBuf>,
    /// The file may hold comments (Gemini CLI's settings are JSON with
    /// comments; Claude Code's are plain JSON): they are read and kept
    /// through an edit, and a file whose comments an edit cannot keep is
    /// refused rather than rewritten without them.
    #[serde(skip)]
    pub comments: bool,
}

impl SettingsLocation {
    /// The project a project or local file belongs to: `<project>` of
    /// `<project>/.claude|.hookd/<file>`, the only layout
    /// [`SettingsRoots::location`] builds. `None` for the other scopes.
    pub fn project_root(&self) -> Option<&Path> {
        if !self.scope.is_project() {
            return None;
        }
        self.path.parent()?.parent()
    }
}

/// Where another coding agent keeps the hooks file hookd connects it
/// through, at the two scopes such an agent has: the user's (under home)
/// and a project's. Its local and policy scopes do not exist or are an
/// administrator's, which hookd does not write.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentFile {
    /// The agent, for a person (`Cursor`).
    pub(crate) agent: &'static str,
    /// The user's file, relative to home (`.cursor/hooks.json`).
    pub(crate) global: &'static str,
    /// A project's file, relative to the project (`.cursor/hooks.json`).
    pub(crate) project: &'static str,
    /// The scopes it has, as the refusal of another one says them.
    pub(crate) expected: &'static str,
    /// The file may hold comments ([`SettingsLocation::comments`]).
    pub(crate) comments: bool,
}

impl AgentFile {
    /// The file of `scope` (`project` for [`Scope::Project`]).
    pub(crate) fn location(
        &self,
        roots: &SettingsRoots,
        scope: Scope,
        project: Option<&Path>,
    ) -> Result<SettingsLocation> {
        let path = match (scope, project) {
            (Scope::Global, _) => roots.home.join(self.global),
            (Scope::Project, Some(project)) => project.join(self.project),
            (Scope::Project, None) => return Err(SettingsError::NoProject("project")),
            (Scope::Local | Scope::Policy, _) => {
                return Err(SettingsError::NoSuchScope {
                    agent: self.agent,
                    scope: scope.as_str(),
                    expected: self.expected,
                });
            }
        };
        Ok(SettingsLocation {
            kind: Kind::Agent,
            scope,
            path,
            read_only: false,
            trust_store: None,
            kept_store: Some(roots.hookd_home.join(super::containers::KEPT_FILE_NAME)),
            backup_store: Some(roots.backups.clone()),
            comments: self.comments,
        })
    }
}

/// The directories every settings path derives from. [`SettingsRoots::from_env`]
/// reads them from the environment once; tests and embedders build their own
/// so nothing depends on process-wide state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsRoots {
    /// The user's home (`~/.claude/settings.json` lives here).
    pub home: PathBuf,
    /// hookd's home (`$HOOKD_HOME`, default `~/.hookd`): global managed
    /// settings and the store of disabled hooks.
    pub hookd_home: PathBuf,
    /// The agent's policy settings file, which may not exist.
    pub policy: PathBuf,
    /// Codex CLI's home (`$CODEX_HOME`, default `~/.codex`): its user
    /// `hooks.json` and `config.toml`.
    pub codex_home: PathBuf,
    /// Codex CLI's system directory (`$HOOKD_CODEX_SYSTEM_DIR`, default
    /// `/etc/codex`): its system `config.toml` and `hooks.json`, and the
    /// administrator's `requirements.toml`. Read only.
    pub codex_system: PathBuf,
    /// Gemini CLI's system settings (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`,
    /// default [`DEFAULT_GEMINI_SYSTEM_SETTINGS`]). Read only.
    pub gemini_system_settings: PathBuf,
    /// Gemini CLI's system defaults (`$GEMINI_CLI_SYSTEM_DEFAULTS_PATH`,
    /// default `system-defaults.json` beside the system settings). Read only.
    pub gemini_system_defaults: PathBuf,
    /// Cursor's enterprise hooks file (`$HOOKD_CURSOR_ENTERPRISE_HOOKS`,
    /// default [`DEFAULT_CURSOR_ENTERPRISE_HOOKS`]). Read only.
    pub cursor_enterprise: PathBuf,
    /// Where the previous versions of the files hookd writes are kept
    /// (`<data dir>/settings-backups`, [`super::backups`]).
    pub backups: PathBuf,
}

impl SettingsRoots {
    /// `$HOME`, `$HOOKD_HOME` (default `~/.hookd`), `$HOOKD_POLICY_SETTINGS`
    /// (default [`DEFAULT_POLICY_PATH`]), `$CODEX_HOME` (default
    /// `~/.codex`) and the other agents' system paths (each variable's
    /// constant above).
    pub fn from_env() -> Result<Self> {
        let home = crate::dirs::home_dir().map_err(|_| SettingsError::NoHome)?;
        let hookd_home = env::var_os(HOOKD_HOME_ENV)
            .filter(|d| !d.is_empty())
            .map_or_else(|| home.join(".hookd"), PathBuf::from);
        let policy = env::var_os(POLICY_ENV)
            .filter(|p| !p.is_empty())
            .map_or_else(|| PathBuf::from(DEFAULT_POLICY_PATH), PathBuf::from);
        let codex_home = env::var_os(CODEX_HOME_ENV)
            .filter(|d| !d.is_empty())
            .map_or_else(|| home.join(".codex"), PathBuf::from);
        let backups = crate::dirs::data_dir()
            .map_err(|_| SettingsError::NoHome)?
            .join(super::backups::BACKUPS_DIR);
        let from = |name: &str, default: &str| {
            env::var_os(name)
                .filter(|p| !p.is_empty())
                .map_or_else(|| PathBuf::from(default), PathBuf::from)
        };
        let gemini_system_settings =
            from(GEMINI_SYSTEM_SETTINGS_ENV, DEFAULT_GEMINI_SYSTEM_SETTINGS);
        let gemini_system_defaults = env::var_os(GEMINI_SYSTEM_DEFAULTS_ENV)
            .filter(|p| !p.is_empty())
            .map_or_else(
                || gemini_system_settings.with_file_name(GEMINI_SYSTEM_DEFAULTS_FILE),
                PathBuf::from,
            );
        Ok(Self {
            home,
            hookd_home,
            policy,
            codex_home,
            codex_system: from(CODEX_SYSTEM_DIR_ENV, DEFAULT_CODEX_SYSTEM_DIR),
            gemini_system_settings,
            gemini_system_defaults,
            cursor_enterprise: from(CURSOR_ENTERPRISE_ENV, DEFAULT_CURSOR_ENTERPRISE_HOOKS),
            backups,
        })
    }

    /// Everything under one directory: home `base`, hookd home `base/.hookd`,
    /// policy `base/managed-settings.json`, Codex home `base/.codex`, the
    /// agents' system files under `base/etc` (`etc/codex`,
    /// `etc/gemini-cli/settings.json` and `system-defaults.json`,
    /// `etc/cursor/hooks.json`), backups
    /// `base/.local/share/hookd/settings-backups`. For tests: nothing of
    /// the real `/etc` is read.
    pub fn under(base: &Path) -> Self {
        Self {
            home: base.to_path_buf(),
            hookd_home: base.join(".hookd"),
            policy: base.join("managed-settings.json"),
            codex_home: base.join(".codex"),
            codex_system: base.join("etc/codex"),
            gemini_system_settings: base.join("etc/gemini-cli/settings.json"),
            gemini_system_defaults: base
                .join("etc/gemini-cli")
                .join(GEMINI_SYSTEM_DEFAULTS_FILE),
            cursor_enterprise: base.join("etc/cursor/hooks.json"),
            backups: base
                .join(".local/share/hookd")
                .join(super::backups::BACKUPS_DIR),
        }
    }

    /// The same roots with another hookd home (the daemon is given its own).
    #[must_use]
    pub fn with_hookd_home(mut self, hookd_home: PathBuf) -> Self {
        self.hookd_home = hookd_home;
        self
    }

    /// The store of disabled hooks: `<hookd home>/disabled.json`.
    pub fn disabled_store(&self) -> PathBuf {
        self.hookd_home.join(DISABLED_FILE_NAME)
    }

    /// The settings file of `kind` at `scope`. `project` is required for the
    /// project and local scopes and ignored otherwise; it is used as given
    /// (the CLI resolves it to the git root first).
    pub fn location(
        &self,
        kind: Kind,
        scope: Scope,
        project: Option<&Path>,
    ) -> Result<SettingsLocation> {
        let project_file = |name: &str| -> Result<PathBuf> {
            let project = project.ok_or(SettingsError::NoProject(scope.as_str()))?;
            let dir = match kind {
                Kind::Agent => ".claude",
                Kind::Managed => MANAGED_PROJECT_DIR,
            };
            Ok(project.join(dir).join(name))
        };
        let path = match (kind, scope) {
            (Kind::Agent, Scope::Global) => self.home.join(".claude").join("settings.json"),
            (Kind::Managed, Scope::Global) => self.hookd_home.join("settings.json"),
            (_, Scope::Project) => project_file("settings.json")?,
            (_, Scope::Local) => project_file("settings.local.json")?,
            (Kind::Agent, Scope::Policy) => self.policy.clone(),
            (Kind::Managed, Scope::Policy) => {
                // hookd has no policy level of its own.
                return Err(SettingsError::UnknownScope("policy (managed kind)".into()));
            }
        };
        Ok(SettingsLocation {
            kind,
            scope,
            path,
            read_only: scope == Scope::Policy,
            trust_store: (kind == Kind::Managed && scope.is_project())
                .then(|| self.hookd_home.join(super::trust::TRUST_FILE_NAME)),
            kept_store: (scope != Scope::Policy)
                .then(|| self.hookd_home.join(super::containers::KEPT_FILE_NAME)),
            backup_store: (scope != Scope::Policy).then(|| self.backups.clone()),
            comments: false,
        })
    }

    /// Every settings file of `kind`, in the order their hooks are
    /// concatenated: global, then project and local (when a project is
    /// given), then policy (agent kind, only when the file exists).
    ///
    /// A project file that is the global one (the project is the home
    /// directory) is listed once, as global: the agent reads it once too.
    pub fn locations(&self, kind: Kind, project: Option<&Path>) -> Result<Vec<SettingsLocation>> {
        let mut out = vec![self.location(kind, Scope::Global, None)?];
        if project.is_some() {
            for scope in [Scope::Project, Scope::Local] {
                let loc = self.location(kind, scope, project)?;
                if !out.iter().any(|o| same_file(&o.path, &loc.path)) {
                    out.push(loc);
                }
            }
        }
        if kind == Kind::Agent && self.policy.is_file() {
            out.push(self.location(kind, Scope::Policy, None)?);
        }
        Ok(out)
    }
}

/// Gemini CLI's system defaults file, beside its system settings.
const GEMINI_SYSTEM_DEFAULTS_FILE: &str = "system-defaults.json";

/// File name of the store of disabled hooks inside hookd's home.
pub const DISABLED_FILE_NAME: &str = "disabled.json";

/// hookd's per-user home: `$HOOKD_HOME`, else `~/.hookd`.
pub fn hookd_home() -> Result<PathBuf> {
    Ok(SettingsRoots::from_env()?.hookd_home)
}

/// The settings file of `kind` at `scope`, with roots from the environment
/// (see [`SettingsRoots::location`]).
pub fn location(kind: Kind, scope: Scope, project: Option<&Path>) -> Result<SettingsLocation> {
    SettingsRoots::from_env()?.location(kind, scope, project)
}

/// Every settings file of `kind`, with roots from the environment (see
/// [`SettingsRoots::locations`]): global first, then project, local, and
/// policy for the agent kind when it exists.
pub fn locations(kind: Kind, project: Option<&Path>) -> Result<Vec<SettingsLocation>> {
    SettingsRoots::from_env()?.locations(kind, project)
}

/// Same file, also when one path goes through a symlink or `..`: compares
/// the canonical parent directories (the files themselves may not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    let canonical = |p: &Path| -> Option<PathBuf> {
        let parent = fs::canonicalize(p.parent()?).ok()?;
        Some(parent.join(p.file_name()?))
    };
    matches!((canonical(a), canonical(b)), (Some(x), Some(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(kind.as_str().parse::<Kind>().unwrap(), kind);
        }
        for scope in [Scope::Global, Scope::Project, Scope::Local, Scope::Policy] {
            assert_eq!(scope.as_str().parse::<Scope>().unwrap(), scope);
        }
        assert!("user".parse::<Scope>().is_err());
        assert!("hookd".parse::<Kind>().is_err());
    }

    #[test]
    fn paths_of_each_kind_and_scope() {
        let roots = SettingsRoots::under(Path::new("/h"));
        let p = Some(Path::new("/p"));
        let path = |kind, scope| roots.location(kind, scope, p).unwrap().path;
        assert_eq!(
            path(Kind::Agent, Scope::Global),
            Path::new("/h/.claude/settings.json")
        );
        assert_eq!(
            path(Kind::Agent, Scope::Project),
            Path::new("/p/.claude/settings.json")
        );
        assert_eq!(
            path(Kind::Agent, Scope::Local),
            Path::new("/p/.claude/settings.local.json")
        );
        assert_eq!(
            path(Kind::Managed, Scope::Global),
            Path::new("/h/.hookd/settings.json")
        );
        assert_eq!(
            path(Kind::Managed, Scope::Project),
            Path::new("/p/.hookd/settings.json")
        );
        assert_eq!(
            path(Kind::Managed, Scope::Local),
            Path::new("/p/.hookd/settings.local.json")
        );
        assert!(
            roots
                .location(Kind::Agent, Scope::Policy, None)
                .unwrap()
                .read_only
        );
        assert!(roots.location(Kind::Managed, Scope::Policy, None).is_err());
        assert!(matches!(
            roots.location(Kind::Agent, Scope::Local, None),
            Err(SettingsError::NoProject("local"))
        ));
        assert_eq!(roots.disabled_store(), Path::new("/h/.hookd/disabled.json"));
        assert_eq!(
            roots
                .location(Kind::Managed, Scope::Local, p)
                .unwrap()
                .project_root(),
            p
        );
        assert_eq!(
            roots
                .location(Kind::Agent, Scope::Global, p)
                .unwrap()
                .project_root(),
            None
        );
    }

    #[test]
    fn locations_order_policy_only_when_present_and_home_project_once() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let project = tmp.path().join("proj");
        let scopes = |kind, project: Option<&Path>| -> Vec<Scope> {
            roots
                .locations(kind, project)
                .unwrap()
                .iter()
                .map(|l| l.scope)
                .collect()
        };
        assert_eq!(scopes(Kind::Agent, None), [Scope::Global]);
        assert_eq!(
            scopes(Kind::Agent, Some(&project)),
            [Scope::Global, Scope::Project, Scope::Local]
        );
        fs::write(&roots.policy, "{}").unwrap();
        assert_eq!(
            scopes(Kind::Agent, Some(&project)),
            [Scope::Global, Scope::Project, Scope::Local, Scope::Policy]
        );
        assert_eq!(
            scopes(Kind::Managed, Some(&project)),
            [Scope::Global, Scope::Project, Scope::Local]
        );
        // The home directory as project: its .claude/settings.json is the global file.
        assert_eq!(
            scopes(Kind::Agent, Some(tmp.path())),
            [Scope::Global, Scope::Local, Scope::Policy]
        );
    }
}
