//! Which catalog templates are installed, where, and whether completely.
//!
//! A template counts as installed in a settings file when at least one of
//! the handlers [`super::install()`] would add is there (same event, same
//! matcher text, same command). It is complete when every one of them is
//! there and its script is in place with the catalog's bytes and mode 0755.
//! Anything less is reported with what is missing, so `hookd templates
//! list` and the app can say "incomplete" and a reinstall repairs it.
//!
//! A settings file that exists but cannot be read or parsed does not hide
//! the others: it is reported beside what was found, so one broken file
//! costs the user only that file's answers.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::install::has_managed_emit;
use super::{
    Catalog, Result, Template, TemplateHook, command_for, group_handlers, groups, hooks_dir,
    io_err, legacy_local_command, project_hooks_dir, script_bytes,
};
use crate::settings::connect;
use crate::settings::runs::{self, AgentSwitches, NotRun, NotRunCode};
use crate::settings::{Kind, Scope, SettingsDocument, SettingsLocation, SettingsRoots};

/// Why an installed template's hooks do not run for the project, and the
/// agent file to switch to managed mode when that would make them run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Idle {
    /// Every distinct reason, in order ([`runs::idle_reasons`]); empty: they run.
    pub reasons: Vec<NotRun>,
    /// When switching to managed mode is the fix (record-only, not
    /// connected): the file to switch ([`AgentSwitches::switch_scope`]).
    pub switch_scope: Option<Scope>,
}

/// Whether `template`'s hooks in the managed file at `location` run for
/// `project` ([`crate::settings::runs`]): what a user who just installed a
/// guard must be told when it guards nothing.
pub fn idle(
    template: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
) -> Result<Idle> {
    let judged = runs::file_verdicts(roots, Kind::Managed, project, &location.path)?;
    let ours: Vec<_> = judged
        .into_iter()
        .filter(|(hook, _)| {
            template.hooks.iter().any(|h| {
                h.event == hook.event.name()
                    && hook
                        .command
                        .as_deref()
                        .is_some_and(|c| template.script.as_deref().is_some_and(|s| c.contains(s)))
            })
        })
        .collect();
    let reasons = runs::idle_reasons(&ours);
    let switch_scope = if reasons
        .iter()
        .any(|r| matches!(r.code, NotRunCode::RecordOnly | NotRunCode::NotConnected))
    {
        Some(AgentSwitches::read(roots, project)?.switch_scope())
    } else {
        None
    };
    Ok(Idle {
        reasons,
        switch_scope,
    })
}

/// One template found in one settings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Installation {
    /// The template's name.
    pub template: String,
    /// Who runs the hooks: the agent or hookd.
    pub kind: Kind,
    /// Which level of settings file.
    pub scope: Scope,
    /// The settings file holding its handlers.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub settings: PathBuf,
    /// True when every handler is there and the script is in place with
    /// the catalog's bytes and mode.
    pub complete: bool,
    /// What is missing, in words (`handler PreToolUse Bash`,
    /// `script .hookd/hooks/x.py`); empty when complete.
    pub missing: Vec<String>,
}

/// A settings file that exists but could not be read or parsed, so which
/// templates it holds is unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UnreadableSettings {
    /// Who runs its hooks: the agent or hookd.
    pub kind: Kind,
    /// Which level of settings file.
    pub scope: Scope,
    /// The file.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub settings: PathBuf,
    /// Why it could not be read, as the settings model says it (with the
    /// line and column of a JSON error).
    pub reason: String,
}

/// What [`installed()`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct InstalledReport {
    /// Every installation, in catalog order, then kind (agent first), then
    /// scope.
    pub found: Vec<Installation>,
    /// The settings files that could not be read; templates installed in
    /// them are missing from [`Self::found`].
    pub unreadable: Vec<UnreadableSettings>,
}

/// Every template of `catalog` found in the settings files of both kinds:
/// global, and project and local when `project` (the project root) is
/// given. Settings files that do not exist are skipped; one that cannot be
/// read or parsed is listed in [`InstalledReport::unreadable`] and the
/// others are still looked at.
pub fn installed(
    catalog: &Catalog,
    roots: &SettingsRoots,
    project: Option<&Path>,
) -> Result<InstalledReport> {
    let scopes: &[Scope] = if project.is_some() {
        &Scope::WRITABLE
    } else {
        &[Scope::Global]
    };
    let mut docs: Vec<(SettingsLocation, Value)> = Vec::new();
    let mut unreadable: Vec<UnreadableSettings> = Vec::new();
    for kind in Kind::ALL {
        for &scope in scopes {
            let location = roots.location(kind, scope, project)?;
            // The project is the home directory: its project file is the
            // global one, already looked at.
            let seen = |path: &Path| {
                docs.iter().any(|(l, _)| l.path == path)
                    || unreadable.iter().any(|u| u.settings == path)
            };
            if seen(&location.path) {
                continue;
            }
            match SettingsDocument::load(&location) {
                Ok(doc) if doc.existed() => {
                    let value = doc.value().clone();
                    docs.push((location, value));
                }
                Ok(_) => {}
                Err(e) => unreadable.push(UnreadableSettings {
                    kind,
                    scope,
                    settings: location.path,
                    reason: e.to_string(),
                }),
            }
        }
    }
    let mut out = Vec::new();
    for template in &catalog.templates {
        for (location, value) in &docs {
            let missing = match &template.script {
                Some(script) => script_missing(template, script, roots, location, project, value)?,
                None => connect_missing(template, location, value),
            };
            if let Some(missing) = missing {
                out.push(Installation {
                    template: template.name.clone(),
                    kind: location.kind,
                    scope: location.scope,
                    settings: location.path.clone(),
                    complete: missing.is_empty(),
                    missing,
                });
            }
        }
    }
    Ok(InstalledReport {
        found: out,
        unreadable,
    })
}

/// `handler Event matcher`, as the missing list says it.
fn handler_words(event: &str, matcher: Option<&str>) -> String {
    match matcher {
        Some(m) => format!("handler {event} {m}"),
        None => format!("handler {event}"),
    }
}

/// True when `value` has a command handler running `command` in a group of
/// `event` whose matcher text is `matcher` (absent only equals absent, as
/// [`crate::settings::add_hook`] groups them).
fn has_handler(value: &Value, event: &str, matcher: Option<&str>, command: &str) -> bool {
    groups(value)
        .filter(|(e, g)| *e == event && g.get("matcher").and_then(Value::as_str) == matcher)
        .flat_map(|(_, g)| group_handlers(g))
        .any(|h| h.get("command").and_then(Value::as_str) == Some(command))
}

/// What a script template lacks in the file, or `None` when none of its
/// handlers is there (not installed in this file).
fn script_missing(
    template: &Template,
    script: &str,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
    value: &Value,
) -> Result<Option<Vec<String>>> {
    let absent: Vec<&TemplateHook> = template
        .hooks
        .iter()
        .filter(|h| {
            let command = command_for(h, script, roots, location.scope);
            !has_handler(value, &h.event, h.matcher.as_deref(), &command)
        })
        .collect();
    if absent.len() == template.hooks.len() {
        // Installed by an earlier hookd, which ran local scripts from the
        // shared `.hookd/hooks/`: installed, but not where it belongs.
        let legacy = location.scope == Scope::Local
            && template.hooks.iter().any(|h| {
                let command = legacy_local_command(h, script, roots);
                has_handler(value, &h.event, h.matcher.as_deref(), &command)
            });
        return Ok(legacy.then(|| {
            vec![format!(
                "script {}/{script} (it runs the shared {}/{script}; install again to move it)",
                project_hooks_dir(Scope::Local),
                project_hooks_dir(Scope::Project)
            )]
        }));
    }
    let mut missing: Vec<String> = absent
        .iter()
        .map(|h| handler_words(&h.event, h.matcher.as_deref()))
        .collect();
    let path = hooks_dir(roots, location.scope, project)?.join(script);
    let shown = match project {
        Some(p) if location.scope.is_project() => path.strip_prefix(p).unwrap_or(&path),
        _ => &path,
    };
    let expected = script_bytes(script).unwrap_or_default();
    let problem = match fs::read(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Some(""),
        Err(e) => return Err(io_err("cannot read", &path)(e)),
        Ok(bytes) if bytes != expected => Some(" (changed)"),
        Ok(_) => {
            let mode = fs::metadata(&path)
                .map_err(io_err("cannot read", &path))?
                .permissions()
                .mode();
            (mode & 0o111 == 0).then_some(" (not executable)")
        }
    };
    if let Some(problem) = problem {
        missing.push(format!("script {}{problem}", shown.display()));
    }
    Ok(Some(missing))
}

/// What a `connect` template (the agent's hookd-emit hooks) lacks, or
/// `None` when the file has none of them. Managed mode (`hookd-emit
/// --wait`) records every event too, so it counts as complete, as
/// [`super::install()`] treats it.
fn connect_missing(
    template: &Template,
    location: &SettingsLocation,
    value: &Value,
) -> Option<Vec<String>> {
    if location.kind != Kind::Agent {
        return None;
    }
    if has_managed_emit(value) {
        return Some(Vec::new());
    }
    let wait = format!(" {} ", connect::WAIT_FLAG);
    let present = |spec: &connect::HookSpec| {
        let suffix = format!(" {}", spec.arg);
        groups(value)
            .filter(|(e, g)| {
                *e == spec.event && g.get("matcher").and_then(Value::as_str) == spec.matcher
            })
            .flat_map(|(_, g)| group_handlers(g))
            .any(|h| {
                connect::is_hookd_handler(h)
                    && h.get("command")
                        .and_then(Value::as_str)
                        .is_some_and(|c| c.ends_with(&suffix) && !c.contains(&wait))
            })
    };
    let missing: Vec<String> = connect::HOOKS
        .iter()
        .filter(|spec| !present(spec))
        .map(|spec| handler_words(spec.event, spec.matcher))
        .collect();
    (missing.len() < template.hooks.len()).then_some(missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::templates::install;
    use crate::settings::{self, SettingsDocument};

    struct Fixture {
        _dir: tempfile::TempDir,
        roots: SettingsRoots,
        project: PathBuf,
        catalog: Catalog,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let project = base.join("project");
        fs::create_dir_all(&project).unwrap();
        Fixture {
            roots: SettingsRoots::under(&base.join("home")),
            project,
            catalog: Catalog::embedded().unwrap(),
            _dir: dir,
        }
    }

    impl Fixture {
        fn install(&self, name: &str, kind: Kind, scope: Scope) -> SettingsLocation {
            let location = self
                .roots
                .location(kind, scope, Some(&self.project))
                .unwrap();
            let template = self.catalog.get(name).unwrap();
            install(template, &self.roots, &location, Some(&self.project)).unwrap();
            location
        }

        fn installed(&self) -> Vec<Installation> {
            let report = installed(&self.catalog, &self.roots, Some(&self.project)).unwrap();
            assert_eq!(report.unreadable, []);
            report.found
        }
    }

    #[test]
    fn nothing_installed_is_an_empty_list() {
        let f = fixture();
        assert_eq!(f.installed(), []);
        assert_eq!(
            installed(&f.catalog, &f.roots, None).unwrap(),
            InstalledReport::default()
        );
    }

    #[test]
    fn finds_every_installation_complete_in_catalog_then_kind_then_scope_order() {
        let f = fixture();
        let local = f.install("protect-secrets", Kind::Managed, Scope::Local);
        let agent = f.install("protect-secrets", Kind::Agent, Scope::Project);
        let global = f.install("stay-in-project", Kind::Managed, Scope::Global);
        let found = f.installed();
        let want = |t: &str, loc: &SettingsLocation| Installation {
            template: t.into(),
            kind: loc.kind,
            scope: loc.scope,
            settings: loc.path.clone(),
            complete: true,
            missing: Vec::new(),
        };
        assert_eq!(
            found,
            [
                want("protect-secrets", &agent),
                want("protect-secrets", &local),
                want("stay-in-project", &global),
            ]
        );
        // Without a project only the global files are looked at.
        assert_eq!(
            installed(&f.catalog, &f.roots, None).unwrap().found,
            [want("stay-in-project", &global)]
        );
    }

    #[test]
    fn a_missing_handler_or_script_makes_it_incomplete() {
        let f = fixture();
        let location = f.install("block-dangerous-shell", Kind::Agent, Scope::Project);
        let script = f.project.join(".hookd/hooks/block-dangerous-shell.py");

        fs::write(&script, "#!/bin/sh\n").unwrap();
        assert_eq!(
            f.installed()[0].missing,
            ["script .hookd/hooks/block-dangerous-shell.py (changed)"]
        );
        assert!(!f.installed()[0].complete);

        fs::write(&script, script_bytes("block-dangerous-shell.py").unwrap()).unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(
            f.installed()[0].missing,
            ["script .hookd/hooks/block-dangerous-shell.py (not executable)"]
        );

        fs::remove_file(&script).unwrap();
        let found = f.installed();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].template, "block-dangerous-shell");
        assert_eq!(found[0].settings, location.path);
        assert!(!found[0].complete);
        assert_eq!(
            found[0].missing,
            ["script .hookd/hooks/block-dangerous-shell.py"]
        );

        // The handler moved to another matcher group is not the template's.
        let mut doc = SettingsDocument::load(&location).unwrap();
        let command = "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/block-dangerous-shell.py";
        settings::remove_hook(
            &mut doc,
            &settings::HookSelector {
                event: "PreToolUse".into(),
                matcher: Some("Bash".into()),
                command: command.into(),
            },
        )
        .unwrap();
        settings::add_hook(
            &mut doc,
            "PreToolUse",
            Some("Bash|Write"),
            settings::command_handler(command, None),
        )
        .unwrap();
        doc.save(false).unwrap();
        assert_eq!(f.installed(), []);
    }

    #[test]
    fn a_global_script_is_named_by_its_absolute_path() {
        let f = fixture();
        f.install("log-bash-commands", Kind::Managed, Scope::Global);
        let script = f.roots.hookd_home.join("hooks/log-bash-commands.py");
        fs::remove_file(&script).unwrap();
        assert_eq!(
            f.installed()[0].missing,
            [format!("script {}", script.display())]
        );
    }

    #[test]
    fn record_into_hookd_is_found_partial_and_in_managed_mode() {
        let f = fixture();
        let location = f
            .roots
            .location(Kind::Agent, Scope::Project, Some(&f.project))
            .unwrap();
        fs::create_dir_all(location.path.parent().unwrap()).unwrap();
        connect::connect_mode(
            &location.path,
            "/opt/hookd/bin/hookd-emit",
            connect::Mode::Record,
            false,
        )
        .unwrap();
        let found = f.installed();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].template, "record-into-hookd");
        assert!(found[0].complete, "{found:?}");

        // One handler gone: incomplete, and it says which.
        let mut doc = SettingsDocument::load(&location).unwrap();
        settings::remove_hook(
            &mut doc,
            &settings::HookSelector {
                event: "Stop".into(),
                matcher: None,
                command: "/opt/hookd/bin/hookd-emit stop".into(),
            },
        )
        .unwrap();
        doc.save(false).unwrap();
        assert_eq!(f.installed()[0].missing, ["handler Stop"]);

        connect::connect_mode(&location.path, "hookd-emit", connect::Mode::Managed, false).unwrap();
        assert!(f.installed()[0].complete);
    }

    #[test]
    fn an_unreadable_settings_file_is_reported_and_the_others_still_looked_at() {
        let f = fixture();
        let managed = f.install("protect-secrets", Kind::Managed, Scope::Project);
        let path = f.project.join(".claude/settings.json");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "{ not json").unwrap();
        let report = installed(&f.catalog, &f.roots, Some(&f.project)).unwrap();
        assert_eq!(report.found.len(), 1, "{report:?}");
        assert_eq!(report.found[0].template, "protect-secrets");
        assert_eq!(report.found[0].settings, managed.path);
        assert_eq!(report.unreadable.len(), 1, "{report:?}");
        let bad = &report.unreadable[0];
        assert_eq!((bad.kind, bad.scope), (Kind::Agent, Scope::Project));
        assert_eq!(bad.settings, path);
        assert!(bad.reason.contains("not valid JSON"), "{}", bad.reason);
        assert!(bad.reason.contains("line 1"), "{}", bad.reason);
        // Nothing was written to the broken file.
        assert_eq!(fs::read_to_string(&path).unwrap(), "{ not json");
    }

    #[cfg(feature = "ts")]
    #[test]
    fn the_typescript_type_has_the_path_as_a_string() {
        use ts_rs::TS as _;
        let cfg = ts_rs::Config::new();
        let decl = Installation::decl(&cfg);
        assert!(decl.contains("settings: string"), "{decl}");
        assert!(decl.contains("kind: Kind"), "{decl}");
        assert!(decl.contains("missing: Array<string>"), "{decl}");
        let template = crate::settings::templates::Template::decl(&cfg);
        assert!(template.contains("script?: string"), "{template}");
    }

    #[test]
    fn serializes_paths_as_strings() {
        let value = serde_json::to_value(Installation {
            template: "t".into(),
            kind: Kind::Managed,
            scope: Scope::Local,
            settings: PathBuf::from("/p/.hookd/settings.local.json"),
            complete: false,
            missing: vec!["handler Stop".into()],
        })
        .unwrap();
        assert_eq!(
            value,
            serde_json::json!({"template": "t", "kind": "managed", "scope": "local",
                "settings": "/p/.hookd/settings.local.json", "complete": false,
                "missing": ["handler Stop"]})
        );
    }
}
