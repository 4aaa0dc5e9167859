//! One face for connecting every coding agent other than Claude Code.
//!
//! Codex CLI, Gemini CLI, Cursor and GitHub Copilot each keep their hooks in
//! a file of their own shape ([`super::codex`], [`super::gemini`],
//! [`super::cursor`], [`super::copilot`]), but `hookd connect --agent X`,
//! its dry run, `hookd disconnect` and the app's Connect ask each of them
//! the same questions: where is the file at this scope, what would an edit
//! write, write it (only if it is still what the preview showed), and what
//! must the user know afterwards. [`Connector`] is those questions. An
//! agent's module answers only what is its own (where the file is, how
//! hookd's entries go in and come out, what to tell the user); the edits
//! themselves are written once here, all with the locked, surgical write of
//! [`super::connect`], so bytes outside hookd's entries stay as they were.
//! [`of`] says which agent's connector answers, so a front end never
//! matches on the agent again. Claude Code's own files keep
//! [`super::connect`]'s richer API (policy, disabled hooks, modes per
//! event), which they need.

use std::path::Path;

use serde_json::Value;

use crate::AgentKind;

use super::connect::{self, ChangeReport, EditPreview, Mode, ShapeError};
use super::error::Result as SettingsResult;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::{codex, copilot, cursor, gemini};

/// How hookd connects one agent's hooks file.
pub trait Connector: Sync {
    /// The agent.
    fn agent(&self) -> AgentKind;
    /// The hooks file hookd edits at `scope` (`project` for a project's).
    fn location(
        &self,
        roots: &SettingsRoots,
        scope: Scope,
        project: Option<&Path>,
    ) -> SettingsResult<SettingsLocation>;
    /// The events that get hookd's entry in `mode`, in the agent's spelling.
    fn events(&self, mode: Mode) -> &'static [&'static str];
    /// Adds hookd's entries of `mode` to a parsed hooks file (replacing
    /// those of the other mode); returns the events that gained one. A file
    /// the agent would not read is refused, unchanged.
    fn add(&self, file: &mut Value, emit: &str, mode: Mode) -> Result<Vec<String>, ShapeError>;
    /// Takes hookd's entries out of a parsed hooks file; returns the event
    /// of each entry removed.
    fn remove(&self, file: &mut Value) -> Result<Vec<String>, ShapeError>;
    /// What the user must know once hookd's entries are in the file at
    /// `location` (trust the agent asks for before it runs them, …).
    fn connect_notes(&self, location: &SettingsLocation) -> Vec<String>;
    /// Makes what the file needs before its first write (Copilot's
    /// `.github/hooks/` in a project); nothing by default.
    fn prepare(&self, _location: &SettingsLocation) -> connect::Result<()> {
        Ok(())
    }
    /// Tidies up after a disconnect wrote the file (Copilot removes its
    /// file of hookd's own when nothing else is left); nothing by default.
    fn after_disconnect(
        &self,
        _location: &SettingsLocation,
        _report: &ChangeReport,
    ) -> connect::Result<()> {
        Ok(())
    }

    /// The agent's name for a person (`Codex CLI`).
    fn name(&self) -> &'static str {
        super::convert::label(self.agent())
    }
    /// Adds hookd's entries of `mode` to the file at `location` (created,
    /// with its directory, when missing). Nothing is written when nothing
    /// is missing, or in a dry run.
    fn connect(
        &self,
        location: &SettingsLocation,
        emit: &str,
        mode: Mode,
        dry_run: bool,
    ) -> connect::Result<ChangeReport> {
        if !dry_run {
            self.prepare(location)?;
        }
        connect::add_at(location, dry_run, |file| self.add(file, emit, mode))
    }
    /// What [`Connector::connect`] would write: the file before and after.
    fn preview_connect(
        &self,
        location: &SettingsLocation,
        emit: &str,
        mode: Mode,
    ) -> connect::Result<EditPreview> {
        connect::preview_add_at(location, |file| self.add(file, emit, mode))
    }
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
    ) -> connect::Result<ChangeReport> {
        self.prepare(location)?;
        connect::add_if(location, version, |file| self.add(file, emit, mode))
    }
    /// Takes hookd's entries out of the file at `location`, and the lists
    /// that only held them; the report names the event of each entry. A
    /// missing file, or one without hookd's entries, is not written (nor is
    /// any directory made for it).
    fn disconnect(
        &self,
        location: &SettingsLocation,
        dry_run: bool,
    ) -> connect::Result<ChangeReport> {
        let dry_run = dry_run || !location.path.exists();
        let report = connect::add_at(location, dry_run, |file| self.remove(file))?;
        self.after_disconnect(location, &report)?;
        Ok(report)
    }
    /// What [`Connector::disconnect`] would write.
    fn preview_disconnect(&self, location: &SettingsLocation) -> connect::Result<EditPreview> {
        connect::preview_add_at(location, |file| self.remove(file))
    }
    /// [`Connector::disconnect`], provided the file is still what the
    /// preview of `version` read.
    fn disconnect_if(
        &self,
        location: &SettingsLocation,
        version: &str,
    ) -> connect::Result<ChangeReport> {
        let report = connect::add_if(location, version, |file| self.remove(file))?;
        self.after_disconnect(location, &report)?;
        Ok(report)
    }
    /// Whether the file at `location` has an entry of hookd's (a missing or
    /// unreadable file has none).
    fn is_connected(&self, location: &SettingsLocation) -> bool {
        connect::file_has(location, |file| {
            self.remove(&mut file.clone())
                .is_ok_and(|removed| !removed.is_empty())
        })
    }
}

/// The connector of `agent`; `None` for Claude Code, whose files
/// [`super::connect`] edits.
pub fn of(agent: AgentKind) -> Option<&'static dyn Connector> {
    match agent {
        AgentKind::Claude => None,
        AgentKind::Codex => Some(&codex::Codex),
        AgentKind::Gemini => Some(&gemini::Gemini),
        AgentKind::Cursor => Some(&cursor::Cursor),
        AgentKind::Copilot => Some(&copilot::Copilot),
    }
}

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
