//! One face for connecting every coding agent other than Claude Code.
//!
//! Codex CLI, Gemini CLI, Cursor and GitHub Copilot each keep their hooks in
//! a file of their own shape ([`super::codex`], [`super::gemini`],
//! [`super::cursor`], [`super::copilot`]), but `hookd connect --agent X`,
//! its dry run, `hookd disconnect` and the app's Connect ask each of them
//! the same questions: where is the file at this scope, what would an edit
//! write, write it, and what must the user know afterwards. [`Connector`]
//! is those questions; [`of`] answers which agent's module answers them, so
//! a front end never matches on the agent again. Claude Code's own files
//! keep [`super::connect`]'s richer API (policy, disabled hooks, checked
//! writes), which they need.

use std::path::Path;

use crate::AgentKind;

use super::connect::{self, ChangeReport, EditPreview, Mode};
use super::error::Result as SettingsResult;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::{codex, copilot, cursor, gemini};

/// How hookd connects one agent's hooks file: every edit is the locked,
/// surgical write of [`super::connect`], so bytes outside hookd's entries
/// stay as they were.
pub trait Connector: Sync {
    /// The agent.
    fn agent(&self) -> AgentKind;
    /// The agent's name for a person (`Codex CLI`).
    fn name(&self) -> &'static str {
        super::convert::label(self.agent())
    }
    /// The hooks file hookd edits at `scope` (`project` for a project's).
    fn location(
        &self,
        roots: &SettingsRoots,
        scope: Scope,
        project: Option<&Path>,
    ) -> SettingsResult<SettingsLocation>;
    /// The events that get hookd's entry in `mode`, in the agent's spelling.
    fn events(&self, mode: Mode) -> &'static [&'static str];
    /// Adds hookd's entries of `mode` (replacing those of the other mode).
    fn connect(
        &self,
        location: &SettingsLocation,
        emit: &str,
        mode: Mode,
        dry_run: bool,
    ) -> connect::Result<ChangeReport>;
    /// What [`Connector::connect`] would write.
    fn preview_connect(
        &self,
        location: &SettingsLocation,
        emit: &str,
        mode: Mode,
    ) -> connect::Result<EditPreview>;
    /// Takes hookd's entries out; the report names the event of each.
    fn disconnect(
        &self,
        location: &SettingsLocation,
        dry_run: bool,
    ) -> connect::Result<ChangeReport>;
    /// What [`Connector::disconnect`] would write.
    fn preview_disconnect(&self, location: &SettingsLocation) -> connect::Result<EditPreview>;
    /// [`Connector::connect`], provided the file is still what the preview
    /// of `version` ([`EditPreview::version`]) read, compared under the
    /// file's lock (else [`connect::AgentConnectError::Changed`], nothing
    /// written): what an editor that showed the diff applies.
    fn connect_if(
        &self,
        location: &SettingsLocation,
        emit: &str,
        mode: Mode,
        version: &str,
    ) -> connect::Result<ChangeReport>;
    /// [`Connector::disconnect`], provided the file is still what the
    /// preview of `version` read.
    fn disconnect_if(
        &self,
        location: &SettingsLocation,
        version: &str,
    ) -> connect::Result<ChangeReport>;
    /// Whether the file at `location` has an entry of hookd's (a missing or
    /// unreadable file has none).
    fn is_connected(&self, location: &SettingsLocation) -> bool;
    /// What the user must know once hookd's entries are in the file at
    /// `location` (trust the agent asks for before it runs them, …).
    fn connect_notes(&self, location: &SettingsLocation) -> Vec<String>;
}

/// The connector of `agent`; `None` for Claude Code, whose files
/// [`super::connect`] edits.
pub fn of(agent: AgentKind) -> Option<&'static dyn Connector> {
    match agent {
        AgentKind::Claude => None,
        AgentKind::Codex => Some(&Codex),
        AgentKind::Gemini => Some(&Gemini),
        AgentKind::Cursor => Some(&Cursor),
        AgentKind::Copilot => Some(&Copilot),
    }
}

/// A [`Connector`] that hands every question to the agent's module.
macro_rules! connector {
    ($ty:ident, $module:ident, $kind:expr, $name:literal) => {
        #[doc = concat!("The connector of ", $name, " ([`super::", stringify!($module), "`]).")]
        struct $ty;

        impl Connector for $ty {
            fn agent(&self) -> AgentKind {
                $kind
            }
            fn location(
                &self,
                roots: &SettingsRoots,
                scope: Scope,
                project: Option<&Path>,
            ) -> SettingsResult<SettingsLocation> {
                $module::location(roots, scope, project)
            }
            fn events(&self, mode: Mode) -> &'static [&'static str] {
                $module::events(mode)
            }
            fn connect(
                &self,
                location: &SettingsLocation,
                emit: &str,
                mode: Mode,
                dry_run: bool,
            ) -> connect::Result<ChangeReport> {
                $module::connect(location, emit, mode, dry_run)
            }
            fn preview_connect(
                &self,
                location: &SettingsLocation,
                emit: &str,
                mode: Mode,
            ) -> connect::Result<EditPreview> {
                $module::preview_connect(location, emit, mode)
            }
            fn disconnect(
                &self,
                location: &SettingsLocation,
                dry_run: bool,
            ) -> connect::Result<ChangeReport> {
                $module::disconnect(location, dry_run)
            }
            fn preview_disconnect(
                &self,
                location: &SettingsLocation,
            ) -> connect::Result<EditPreview> {
                $module::preview_disconnect(location)
            }
            fn connect_notes(&self, location: &SettingsLocation) -> Vec<String> {
                $module::connect_notes(location)
            }
            fn connect_if(
                &self,
                location: &SettingsLocation,
                emit: &str,
                mode: Mode,
                version: &str,
            ) -> connect::Result<ChangeReport> {
                $module::connect_if(location, emit, mode, version)
            }
            fn disconnect_if(
                &self,
                location: &SettingsLocation,
                version: &str,
            ) -> connect::Result<ChangeReport> {
                $module::disconnect_if(location, version)
            }
            fn is_connected(&self, location: &SettingsLocation) -> bool {
                $module::is_connected(location)
            }
        }
    };
}

connector!(Codex, codex, AgentKind::Codex, "Codex CLI");
connector!(Gemini, gemini, AgentKind::Gemini, "Gemini CLI");
connector!(Cursor, cursor, AgentKind::Cursor, "Cursor");
connector!(Copilot, copilot, AgentKind::Copilot, "GitHub Copilot");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_but_claude_has_a_connector_of_its_own() {
        assert!(of(AgentKind::Claude).is_none());
        let roots = SettingsRoots::under(Path::new("/h"));
        let mut paths = Vec::new();
        for agent in AgentKind::ALL.into_iter().skip(1) {
            let connector = of(agent).unwrap();
            assert_eq!(connector.agent(), agent);
            assert!(!connector.events(Mode::Record).is_empty());
            assert!(connector.events(Mode::Managed).len() >= connector.events(Mode::Record).len());
            paths.push(
                connector
                    .location(&roots, Scope::Global, None)
                    .unwrap()
                    .path,
            );
        }
        assert_eq!(
            paths,
            [
                "/h/.codex/hooks.json",
                "/h/.gemini/settings.json",
                "/h/.cursor/hooks.json",
                "/h/.copilot/hooks/hookd.json"
            ]
            .map(std::path::PathBuf::from)
        );
    }

    #[test]
    fn an_applied_preview_writes_only_the_file_it_showed() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        for agent in AgentKind::ALL.into_iter().skip(1) {
            let connector = of(agent).unwrap();
            let location = connector.location(&roots, Scope::Global, None).unwrap();
            assert!(!connector.is_connected(&location), "{agent:?}");
            let preview = connector
                .preview_connect(&location, "hookd-emit", Mode::Record)
                .unwrap();
            // Someone writes the file after the preview: refused, untouched.
            std::fs::create_dir_all(location.path.parent().unwrap()).unwrap();
            let theirs = if agent == AgentKind::Codex {
                "{\"hooks\": {}}\n"
            } else {
                "{\"version\": 1, \"hooks\": {}}\n"
            };
            std::fs::write(&location.path, theirs).unwrap();
            let stale =
                connector.connect_if(&location, "hookd-emit", Mode::Record, &preview.version());
            assert!(
                matches!(stale, Err(connect::AgentConnectError::Changed { .. })),
                "{agent:?}: {stale:?}"
            );
            assert_eq!(std::fs::read_to_string(&location.path).unwrap(), theirs);
            // The new preview applies.
            let preview = connector
                .preview_connect(&location, "hookd-emit", Mode::Record)
                .unwrap();
            let report = connector
                .connect_if(&location, "hookd-emit", Mode::Record, &preview.version())
                .unwrap();
            assert_eq!(report.count, connector.events(Mode::Record).len());
            assert!(connector.is_connected(&location), "{agent:?}");
            assert_eq!(
                std::fs::read(&location.path).unwrap(),
                preview.after.unwrap(),
                "{agent:?}: what was shown is what was written"
            );
            let preview = connector.preview_disconnect(&location).unwrap();
            connector
                .disconnect_if(&location, &preview.version())
                .unwrap();
            assert!(!connector.is_connected(&location), "{agent:?}");
        }
    }
}
