//! The flags that pick one settings file, shared by `hookd hooks` and
//! `hookd templates` so both spell scopes and kinds the same way:
//! `--scope global|project|local` (`user` is accepted for `global`) and
//! `--kind agent|managed`, plus the project directory they resolve against.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::ValueEnum;
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};

/// Which settings file of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// Per user: ~/.claude/settings.json or $HOOKD_HOME/settings.json (template scripts in
    /// $HOOKD_HOME/hooks/).
    #[value(alias = "user")]
    Global,
    /// Shared with the team (committed): DIR/.claude/settings.json or DIR/.hookd/settings.json.
    Project,
    /// This checkout only (not committed): DIR/.claude/settings.local.json or
    /// DIR/.hookd/settings.local.json.
    Local,
}

impl From<ScopeArg> for Scope {
    fn from(scope: ScopeArg) -> Self {
        match scope {
            ScopeArg::Global => Self::Global,
            ScopeArg::Project => Self::Project,
            ScopeArg::Local => Self::Local,
        }
    }
}

/// Which kind of settings file: who runs its hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// .claude/settings*.json and ~/.claude/settings.json: the agent (Claude Code) runs these.
    Agent,
    /// .hookd/settings*.json and $HOOKD_HOME/settings.json: hookd's daemon runs these (agent
    /// connected with `hookd connect --managed`).
    Managed,
}

impl From<KindArg> for Kind {
    fn from(kind: KindArg) -> Self {
        match kind {
            KindArg::Agent => Self::Agent,
            KindArg::Managed => Self::Managed,
        }
    }
}

/// The project root for `--project DIR` (else the current directory): its
/// git root when it is inside a repository.
pub fn project_dir(given: Option<&Path>) -> Result<PathBuf> {
    let dir = match given {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    Ok(hookd_core::project::project_root(&dir)?)
}

/// The roots, the settings file and (for the project scopes) the project
/// root the flags name. `--project` with the global scope is refused rather
/// than ignored: the user clearly meant a project file.
pub fn resolve(
    scope: ScopeArg,
    kind: KindArg,
    project: Option<&Path>,
) -> Result<(SettingsRoots, SettingsLocation, Option<PathBuf>)> {
    let scope = Scope::from(scope);
    let project = if scope.is_project() {
        Some(project_dir(project)?)
    } else if project.is_some() {
        bail!(
            "--project applies to --scope project or --scope local, not global (the default scope of `hookd connect`)"
        );
    } else {
        None
    };
    let roots = SettingsRoots::from_env()?;
    let location = roots.location(kind.into(), scope, project.as_deref())?;
    Ok((roots, location, project))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_is_another_name_for_global() {
        assert_eq!(ScopeArg::from_str("user", false).unwrap(), ScopeArg::Global);
        assert_eq!(
            ScopeArg::from_str("global", false).unwrap(),
            ScopeArg::Global
        );
        assert!(ScopeArg::from_str("policy", false).is_err());
        assert_eq!(Scope::from(ScopeArg::Local), Scope::Local);
        assert_eq!(Kind::from(KindArg::Managed), Kind::Managed);
    }

    #[test]
    fn project_with_the_global_scope_is_refused() {
        let err = resolve(ScopeArg::Global, KindArg::Agent, Some(Path::new("."))).unwrap_err();
        assert!(err.to_string().contains("not global"), "{err}");
    }
}
