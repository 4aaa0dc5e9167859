//! The flags that pick one settings file, shared by `hookd hooks` and
//! `hookd templates` so both spell scopes and kinds the same way:
//! `--scope global|project|local` (`user` is accepted for `global`) and
//! `--kind agent|managed`, plus the project directory they resolve against;
//! and the one spelling of a coding agent for every command that takes one.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use hookd_core::AgentKind;
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};

/// `--scope`: core's [`Scope`] as the user may write it. `user` is another
/// name for `global` (what `hookd connect` called it before); `policy` is
/// not offered, since hookd never writes the administrator's file.
pub fn scope_parser() -> impl TypedValueParser<Value = Scope> {
    PossibleValuesParser::new([
        PossibleValue::new("global").alias("user").help(
            "Per user: ~/.claude/settings.json or $HOOKD_HOME/settings.json (template scripts in $HOOKD_HOME/hooks/)",
        ),
        PossibleValue::new("project").help(
            "Shared with the team (committed): DIR/.claude/settings.json or DIR/.hookd/settings.json",
        ),
        PossibleValue::new("local").help(
            "This checkout only (not committed): DIR/.claude/settings.local.json or DIR/.hookd/settings.local.json",
        ),
    ])
    .try_map(|name| match name.as_str() {
        "user" => Ok(Scope::Global),
        other => other.parse::<Scope>(),
    })
}

/// `--kind`: core's [`Kind`], who runs the hooks of the file.
pub fn kind_parser() -> impl TypedValueParser<Value = Kind> {
    PossibleValuesParser::new([
        PossibleValue::new("agent").help(
            ".claude/settings*.json and ~/.claude/settings.json: the agent (Claude Code) runs these",
        ),
        PossibleValue::new("managed").help(
            ".hookd/settings*.json and $HOOKD_HOME/settings.json: hookd's daemon runs these (agent connected with `hookd connect --managed`)",
        ),
    ])
    .try_map(|name| name.parse::<Kind>())
}

/// A coding agent flag (`--agent-kind` of `hookd query`): one of
/// [`AgentKind::ALL`], by its name.
pub fn agent_kind_parser() -> impl TypedValueParser<Value = AgentKind> {
    PossibleValuesParser::new(AgentKind::ALL.map(AgentKind::as_str))
        .try_map(|name| AgentKind::parse(&name).ok_or("not a coding agent hookd knows"))
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
    scope: Scope,
    kind: Kind,
    project: Option<&Path>,
) -> Result<(SettingsRoots, SettingsLocation, Option<PathBuf>)> {
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
    let location = roots.location(kind, scope, project.as_deref())?;
    Ok((roots, location, project))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: Clone + Send + Sync + 'static>(
        parser: impl TypedValueParser<Value = T>,
        value: &str,
    ) -> Option<T> {
        let cmd = clap::Command::new("t").arg(clap::Arg::new("v").long("v").value_parser(parser));
        cmd.try_get_matches_from(["t", "--v", value])
            .ok()
            .and_then(|m| m.get_one::<T>("v").cloned())
    }

    #[test]
    fn user_is_another_name_for_global() {
        assert_eq!(parse(scope_parser(), "user"), Some(Scope::Global));
        assert_eq!(parse(scope_parser(), "global"), Some(Scope::Global));
        assert_eq!(parse(scope_parser(), "local"), Some(Scope::Local));
        assert_eq!(parse(scope_parser(), "policy"), None);
        assert_eq!(parse(kind_parser(), "managed"), Some(Kind::Managed));
        assert_eq!(parse(kind_parser(), "other"), None);
    }

    #[test]
    fn project_with_the_global_scope_is_refused() {
        let err = resolve(Scope::Global, Kind::Agent, Some(Path::new("."))).unwrap_err();
        assert!(err.to_string().contains("not global"), "{err}");
    }
}
