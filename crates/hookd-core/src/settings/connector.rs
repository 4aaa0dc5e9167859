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
//! matches on the agent again. What an administrator switched off stops
//! hookd's entries from running wherever they are written:
//! [`connect_warnings`] says so, for the front ends to print beside a
//! connect. Claude Code's own files keep
//! [`super::connect`]'s richer API (policy, disabled hooks, modes per
//! event), which they need.

use std::path::Path;

use serde_json::Value;

use crate::AgentKind;

use super::agent_layers::{self, GeminiLayer, ManagedOnly};
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

/// Why the entries `hookd connect --agent` writes for `agent` will not run,
/// whatever their file says: what the administrator (or one of Gemini
/// CLI's own settings files) switched off, read as
/// [`super::agent_runs`] reads it for the Effective view. One sentence each,
/// saying why and what can be done; empty when nothing stops them.
/// - Codex CLI: `[features] hooks = false` in the administrator's
///   `requirements.toml` (no hook runs), or `allow_managed_hooks_only =
///   true` there (only managed hooks run, and hookd writes the user's or a
///   project's `hooks.json`, never a managed layer), `docs/agent-hooks.md`
///   §1.1 "Admin switches"; a `requirements.toml` hookd cannot parse is
///   said too.
/// - Gemini CLI: `hooksConfig.enabled: false` in the settings file that
///   sets it last (system defaults < user < project < system settings,
///   §2.1); what to do depends on whose file it is.
///
/// Connecting still writes the entries (they run once the switch is
/// lifted); the front ends print these beside what they wrote or would
/// write.
pub fn connect_warnings(
    roots: &SettingsRoots,
    agent: AgentKind,
    project: Option<&Path>,
) -> Vec<String> {
    match agent {
        AgentKind::Codex => codex_warnings(roots),
        AgentKind::Gemini => gemini_warnings(roots, project),
        AgentKind::Claude | AgentKind::Cursor | AgentKind::Copilot => Vec::new(),
    }
}

/// [`connect_warnings`] of Codex CLI.
fn codex_warnings(roots: &SettingsRoots) -> Vec<String> {
    let requirements = roots.codex_system.join(agent_layers::CODEX_REQUIREMENTS);
    let file = requirements.display();
    if agent_layers::codex_hooks_off(roots) {
        return vec![format!(
            "the administrator's {file} sets [features] hooks = false: Codex CLI runs no hook, so it will not run hookd's entries either, until an administrator lifts it there"
        )];
    }
    match agent_layers::codex_managed_only(roots) {
        ManagedOnly::No => Vec::new(),
        ManagedOnly::Yes => vec![format!(
            "the administrator's {file} sets allow_managed_hooks_only = true: Codex CLI runs only managed hooks (that file's [hooks], and hooks.json or config.toml [hooks] in {}), not hookd's entries in your or a project's hooks.json; ask your administrator to add hookd's entries to one of those, or to lift allow_managed_hooks_only",
            roots.codex_system.display()
        )],
        ManagedOnly::Unknown => vec![format!(
            "hookd cannot parse the administrator's {file}: if it sets allow_managed_hooks_only = true or [features] hooks = false, Codex CLI will not run hookd's entries"
        )],
    }
}

/// [`connect_warnings`] of Gemini CLI.
fn gemini_warnings(roots: &SettingsRoots, project: Option<&Path>) -> Vec<String> {
    let settings = agent_layers::gemini_settings(roots, project);
    let Some((file, false)) = agent_layers::gemini_hooks_switch(&settings) else {
        return Vec::new();
    };
    let path = file.path.display();
    let off = "Gemini CLI runs no hook, so it will not run hookd's entries either";
    vec![match file.layer {
        GeminiLayer::System => format!(
            "the administrator's system settings {path} set \"hooksConfig\": {{\"enabled\": false}}, which overrides yours and the project's: {off}, until an administrator changes it there"
        ),
        GeminiLayer::SystemDefaults => format!(
            "the administrator's system defaults {path} set \"hooksConfig\": {{\"enabled\": false}} and neither your settings nor the project's set it: {off}; your ~/.gemini/settings.json overrides the defaults with \"hooksConfig\": {{\"enabled\": true}}"
        ),
        GeminiLayer::User | GeminiLayer::Project => format!(
            "{path} sets \"hooksConfig\": {{\"enabled\": false}}: {off}, until it is set to true there (or removed)"
        ),
    }]
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

    /// Codex CLI's administrator switches and Gemini CLI's master switch,
    /// wherever it is set last, stop hookd's entries: said, with what to do.
    #[test]
    fn connect_warns_when_the_agent_will_not_run_the_entries() {
        use hookd_testkit::write_file as write;
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("repo");
        for agent in AgentKind::ALL {
            assert!(connect_warnings(&roots, agent, Some(&project)).is_empty());
        }
        let requirements = roots.codex_system.join("requirements.toml");
        write(&requirements, "allow_managed_hooks_only = true\n");
        let said = connect_warnings(&roots, AgentKind::Codex, None);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains("allow_managed_hooks_only = true")
                && said[0].contains("ask your administrator"),
            "{said:?}"
        );
        write(
            &requirements,
            "allow_managed_hooks_only = true\n[features]\nhooks = false\n",
        );
        let said = connect_warnings(&roots, AgentKind::Codex, None);
        assert_eq!(said.len(), 1, "hooks off says it all: {said:?}");
        assert!(said[0].contains("[features] hooks = false"), "{said:?}");
        write(&requirements, "allow_managed_hooks_only = \n");
        assert!(connect_warnings(&roots, AgentKind::Codex, None)[0].contains("cannot parse"));
        write(&requirements, "allow_managed_hooks_only = false\n");
        assert!(connect_warnings(&roots, AgentKind::Codex, None).is_empty());

        // Gemini CLI: the file that sets hooksConfig.enabled last decides.
        let off = r#"{"hooksConfig": {"enabled": false}}"#;
        let on = r#"{"hooksConfig": {"enabled": true}}"#;
        write(&roots.gemini_system_defaults, off);
        let said = connect_warnings(&roots, AgentKind::Gemini, Some(&project));
        assert!(
            said[0].contains("system defaults") && said[0].contains("overrides the defaults"),
            "{said:?}"
        );
        write(&roots.home.join(".gemini/settings.json"), on);
        assert!(connect_warnings(&roots, AgentKind::Gemini, Some(&project)).is_empty());
        write(&project.join(".gemini/settings.json"), off);
        let said = connect_warnings(&roots, AgentKind::Gemini, Some(&project));
        assert!(
            said[0].starts_with(&format!(
                "{}",
                project.join(".gemini/settings.json").display()
            )),
            "{said:?}"
        );
        write(&roots.gemini_system_settings, off);
        write(&project.join(".gemini/settings.json"), on);
        let said = connect_warnings(&roots, AgentKind::Gemini, Some(&project));
        assert!(
            said[0].contains("overrides yours and the project's")
                && said[0].contains("until an administrator changes it"),
            "{said:?}"
        );
        assert!(connect_warnings(&roots, AgentKind::Cursor, Some(&project)).is_empty());
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
