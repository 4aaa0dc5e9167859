//! Skills and subagents as a source of hooks.
//!
//! Claude Code lets a skill (`SKILL.md`) or a subagent (`agents/<name>.md`)
//! carry hooks in its YAML frontmatter, under `hooks:` in the settings'
//! shape. They run only while that skill or subagent is active (a
//! subagent's `Stop` hooks run as `SubagentStop`; a skill's handler may say
//! `once: true`), beside the settings files' hooks, and a user who looks
//! only at the settings files cannot see them. hookd lists them read-only
//! with the skill or agent they belong to: the file is the component's,
//! and it is where the user edits them.
//!
//! Where Claude Code finds them: `~/.claude/skills/<name>/SKILL.md`,
//! `~/.claude/commands/<name>.md` and `~/.claude/agents/<name>.md` (the
//! user's), the same under `<project>/.claude/` (the project's), and
//! `skills/`, `commands/` and `agents/` in the folder of each installed
//! plugin (see [`super::plugins`]). Claude Code handles a custom command as
//! a skill (the two were merged: same frontmatter, same `/name`), so a
//! command file's frontmatter hooks run while that command is active; a
//! command in a subfolder is named with `:` (`frontend:build`). A file whose
//! frontmatter does not parse, or whose hooks would not pass the settings
//! validator, is reported as a [`ComponentProblem`] rather than failing the
//! listing: one broken skill must not hide every other hook.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

use super::error::Result;
use super::location::SettingsRoots;
use super::plugins::{handler_runs, handler_type, handlers, installed_plugins};
use super::validate::validate;

/// The most of a file read for its frontmatter (a skill's body can be long;
/// its frontmatter is at the top).
const READ_AT_MOST: u64 = 1 << 20;

/// What carries the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ComponentKind {
    /// A skill (`<name>/SKILL.md`).
    Skill,
    /// A subagent (`agents/<name>.md`).
    Agent,
    /// A custom command (`commands/<name>.md`), which Claude Code runs as a skill.
    Command,
}

impl ComponentKind {
    /// `skill`, `agent` or `command`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Skill => "skill",
            Self::Agent => "agent",
            Self::Command => "command",
        }
    }
}

/// Where the skill or agent comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ComponentOrigin {
    /// The user's (`~/.claude/`), for every project.
    User,
    /// The project's (`<project>/.claude/`).
    Project,
    /// An installed plugin's.
    Plugin,
}

impl ComponentOrigin {
    /// `user`, `project` or `plugin`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project => "project",
            Self::Plugin => "plugin",
        }
    }
}

/// One hook a skill or subagent carries in its frontmatter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ComponentHook {
    /// Skill or agent.
    pub kind: ComponentKind,
    /// Its name (the frontmatter's `name`, else its folder's or file's).
    pub name: String,
    /// Whose it is.
    pub origin: ComponentOrigin,
    /// The plugin (`<name>@<marketplace>`) when `origin` is a plugin.
    pub plugin: Option<String>,
    /// False when its plugin is disabled for the project (its hooks never run).
    pub enabled: bool,
    /// The `SKILL.md` or agent file.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub path: PathBuf,
    /// The event, as written.
    pub event: String,
    /// The event it runs for: a subagent's `Stop` runs as `SubagentStop`.
    pub fires_as: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// The handler's type.
    pub handler_type: String,
    /// What it runs (command, URL, prompt).
    pub runs: String,
    /// `once: true`: it runs once per session, then is removed.
    pub once: bool,
}

/// A skill or agent file whose hooks could not be read as Claude Code's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ComponentProblem {
    /// The file.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub path: PathBuf,
    /// What is wrong, for a person.
    pub message: String,
}

/// Every skill and agent hook for a project, and the files that could not
/// be read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ComponentHooks {
    /// The hooks: the user's skills then agents, the project's, then each
    /// plugin's; files in name order.
    pub hooks: Vec<ComponentHook>,
    /// Files with a frontmatter or `hooks` Claude Code would not load.
    pub problems: Vec<ComponentProblem>,
}

/// The hooks in the frontmatter of every skill and subagent the agent would
/// load for `project` (the user's, the project's and installed plugins',
/// enabled or not).
pub fn component_hooks(roots: &SettingsRoots, project: Option<&Path>) -> Result<ComponentHooks> {
    let mut out = ComponentHooks::default();
    let mut places: Vec<(PathBuf, ComponentOrigin, Option<String>, bool)> = vec![(
        roots.home.join(".claude"),
        ComponentOrigin::User,
        None,
        true,
    )];
    if let Some(project) = project {
        places.push((
            project.join(".claude"),
            ComponentOrigin::Project,
            None,
            true,
        ));
    }
    for plugin in installed_plugins(roots, project)? {
        places.push((
            plugin.root,
            ComponentOrigin::Plugin,
            Some(plugin.id),
            plugin.enabled,
        ));
    }
    for (dir, origin, plugin, enabled) in places {
        let from = |kind, name: String, path: PathBuf| Source {
            kind,
            name,
            origin,
            plugin: plugin.clone(),
            enabled,
            path,
        };
        for skill in sorted_entries(&dir.join("skills")) {
            let file = skill.join("SKILL.md");
            if file.is_file() {
                read_component(
                    from(ComponentKind::Skill, file_name(&skill), file),
                    &mut out,
                );
            }
        }
        for (name, file) in command_files(&dir.join("commands")) {
            read_component(from(ComponentKind::Command, name, file), &mut out);
        }
        for agent in sorted_entries(&dir.join("agents")) {
            if agent.extension().is_some_and(|e| e == "md") && agent.is_file() {
                let name = agent
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                read_component(from(ComponentKind::Agent, name, agent), &mut out);
            }
        }
    }
    Ok(out)
}

/// The file a component's hooks are read from, and whose it is.
struct Source {
    kind: ComponentKind,
    name: String,
    origin: ComponentOrigin,
    plugin: Option<String>,
    enabled: bool,
    path: PathBuf,
}

/// The entries of `dir` in name order (none when it cannot be read).
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    entries
}

/// How deep command subfolders are read (`commands/a/b/c.md` is `a:b:c`).
const COMMAND_DEPTH: usize = 4;

/// The command files under `dir` (`*.md`, in subfolders too, to
/// [`COMMAND_DEPTH`]), each with its name (`frontend:build` for
/// `frontend/build.md`), in name order.
fn command_files(dir: &Path) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<(String, PathBuf)>) {
        for entry in sorted_entries(dir) {
            let name = file_name(&entry);
            // Not through a symlinked folder: it could loop, or lead anywhere.
            let is_dir = entry.symlink_metadata().is_ok_and(|m| m.is_dir());
            if is_dir && depth > 1 {
                walk(&entry, &format!("{prefix}{name}:"), depth - 1, out);
            } else if let Some(stem) = name.strip_suffix(".md")
                && entry.is_file()
            {
                out.push((format!("{prefix}{stem}"), entry));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", COMMAND_DEPTH, &mut out);
    out
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads one file's frontmatter hooks into `out`.
fn read_component(mut source: Source, out: &mut ComponentHooks) {
    let problem = |message: String| ComponentProblem {
        path: source.path.clone(),
        message,
    };
    let text = match read_head(&source.path) {
        Ok(text) => text,
        Err(err) => {
            out.problems.push(problem(format!("cannot read it: {err}")));
            return;
        }
    };
    let Some(front) = frontmatter(&text) else {
        return;
    };
    let meta = match parse_yaml(front) {
        Ok(meta) => meta,
        Err(message) => {
            out.problems.push(problem(message));
            return;
        }
    };
    if let Some(name) = meta.get("name").and_then(Value::as_str)
        && !name.trim().is_empty()
    {
        source.name = name.to_owned();
    }
    let Some(hooks) = meta.get("hooks").filter(|h| !h.is_null()) else {
        return;
    };
    let errors = validate(&serde_json::json!({ "hooks": hooks }));
    if !errors.is_empty() {
        let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
        out.problems.push(problem(format!(
            "its frontmatter's hooks are not valid: {}",
            listed.join("; ")
        )));
        if !hooks.is_object() {
            return;
        }
    }
    for (event, matcher, handler) in hooks.as_object().into_iter().flat_map(handlers) {
        let fires_as = match (source.kind, event.as_str()) {
            (ComponentKind::Agent, "Stop") => "SubagentStop",
            _ => event.as_str(),
        };
        out.hooks.push(ComponentHook {
            kind: source.kind,
            name: source.name.clone(),
            origin: source.origin,
            plugin: source.plugin.clone(),
            enabled: source.enabled,
            path: source.path.clone(),
            event: event.clone(),
            fires_as: fires_as.to_owned(),
            matcher: matcher.map(str::to_owned),
            handler_type: handler_type(handler),
            runs: handler_runs(handler),
            once: handler.get("once").and_then(Value::as_bool) == Some(true),
        });
    }
}

/// The start of the file, at most [`READ_AT_MOST`] bytes, as text.
fn read_head(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(READ_AT_MOST)
        .read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The YAML between a leading `---` line and the next `---` line; `None`
/// when the file has no frontmatter.
fn frontmatter(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in lines {
        if line.trim_end() == "---" {
            return Some(&text[start..at]);
        }
        at += line.len();
    }
    None
}

/// Parses a frontmatter as a YAML mapping, as JSON; the error is for a person.
fn parse_yaml(text: &str) -> std::result::Result<Map<String, Value>, String> {
    let docs = YamlLoader::load_from_str(text)
        .map_err(|err| format!("its frontmatter is not valid YAML: {err}"))?;
    match docs.into_iter().next().map(|doc| to_json(&doc)) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err("its frontmatter is not a mapping of keys to values".to_owned()),
    }
}

/// A YAML value as the JSON value Claude Code would see (keys as strings).
fn to_json(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(text.clone()), Value::Number),
        Yaml::Integer(n) => Value::from(*n),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(hash) => Value::Object(
            hash.iter()
                .map(|(k, v)| {
                    let key = match to_json(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, to_json(v))
                })
                .collect(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;
    use crate::settings::{Kind, Scope};

    use hookd_testkit::write_file as write;

    #[test]
    fn reads_the_hooks_of_skills_and_agents_with_whose_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let project = tmp.path().join("p");
        write(
            &tmp.path().join(".claude/skills/audit/SKILL.md"),
            "---\nname: audit-reads\ndescription: logs reads\nhooks:\n  PreToolUse:\n    - matcher: \"Read\"\n      hooks:\n        - type: command\n          command: \"echo read >> /tmp/audit.log\"\n          once: true\n---\n# Audit\nBody text.\n",
        );
        // A skill without hooks, and a folder without SKILL.md: nothing.
        write(
            &tmp.path().join(".claude/skills/plain/SKILL.md"),
            "---\nname: plain\n---\nbody\n",
        );
        fs::create_dir_all(tmp.path().join(".claude/skills/empty")).unwrap();
        write(
            &project.join(".claude/agents/reviewer.md"),
            "\u{feff}---\r\ndescription: reviews\r\nhooks:\r\n  Stop:\r\n    - hooks:\r\n        - {type: command, command: ./check.sh, timeout: 30}\r\n---\r\nYou review.\r\n",
        );
        write(&project.join(".claude/agents/notes.txt"), "not an agent");

        let found = component_hooks(&roots, Some(&project)).unwrap();
        assert_eq!(found.problems, []);
        let seen: Vec<String> = found
            .hooks
            .iter()
            .map(|h| {
                format!(
                    "{} {} ({}) {} as {} {:?}: {} once={}",
                    h.kind.as_str(),
                    h.name,
                    h.origin.as_str(),
                    h.event,
                    h.fires_as,
                    h.matcher,
                    h.runs,
                    h.once
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                "skill audit-reads (user) PreToolUse as PreToolUse Some(\"Read\"): \
                 echo read >> /tmp/audit.log once=true",
                "agent reviewer (project) Stop as SubagentStop None: ./check.sh once=false",
            ]
        );
        assert!(found.hooks.iter().all(|h| h.enabled && h.plugin.is_none()));
        assert_eq!(found.hooks[1].handler_type, "command");
        // Without a project, only the user's.
        assert_eq!(component_hooks(&roots, None).unwrap().hooks.len(), 1);
    }

    #[test]
    fn command_files_are_read_as_skills_named_by_their_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let project = tmp.path().join("p");
        let hooks = "---\ndescription: d\nhooks:\n  PostToolUse:\n    - matcher: Write\n      hooks:\n        - type: command\n          command: ./fmt.sh\n---\nDo it.\n";
        write(&project.join(".claude/commands/deploy.md"), hooks);
        write(&project.join(".claude/commands/frontend/build.md"), hooks);
        write(&project.join(".claude/commands/frontend/notes.txt"), hooks);
        write(
            &project.join(".claude/commands/plain.md"),
            "Just a prompt.\n",
        );
        // A folder reached through a symlink is not followed.
        std::os::unix::fs::symlink(
            project.join(".claude/commands"),
            project.join(".claude/commands/loop"),
        )
        .unwrap();
        let found = component_hooks(&roots, Some(&project)).unwrap();
        assert_eq!(found.problems, []);
        let names: Vec<(&str, &str, &str)> = found
            .hooks
            .iter()
            .map(|h| (h.kind.as_str(), h.name.as_str(), h.origin.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("command", "deploy", "project"),
                ("command", "frontend:build", "project"),
            ]
        );
        assert!(found.hooks[1].path.ends_with("commands/frontend/build.md"));
    }

    #[test]
    fn a_plugins_skills_carry_its_id_and_whether_it_is_enabled() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let plugin = tmp.path().join("cache/tools");
        write(
            &plugin.join("skills/fmt/SKILL.md"),
            "---\nhooks:\n  PostToolUse:\n    - matcher: Write|Edit\n      hooks:\n        - type: command\n          command: ${CLAUDE_PLUGIN_ROOT}/fmt.sh\n---\n",
        );
        write(
            &tmp.path().join(".claude/plugins/installed_plugins.json"),
            &json!({"version": 2, "plugins": {"tools@market": [
                {"scope": "user", "installPath": plugin, "version": "0.3.0"}]}})
            .to_string(),
        );
        let found = component_hooks(&roots, None).unwrap();
        assert_eq!(found.hooks.len(), 1);
        let hook = &found.hooks[0];
        assert_eq!(
            (
                hook.origin,
                hook.plugin.as_deref(),
                hook.enabled,
                hook.name.as_str()
            ),
            (ComponentOrigin::Plugin, Some("tools@market"), false, "fmt")
        );
        assert_eq!(hook.runs, "${CLAUDE_PLUGIN_ROOT}/fmt.sh");
        let global = roots.location(Kind::Agent, Scope::Global, None).unwrap();
        write(
            &global.path,
            &json!({"enabledPlugins": {"tools@market": true}}).to_string(),
        );
        assert!(component_hooks(&roots, None).unwrap().hooks[0].enabled);
    }

    #[test]
    fn a_broken_frontmatter_is_a_problem_and_hides_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let skills = tmp.path().join(".claude/skills");
        write(
            &skills.join("a-broken/SKILL.md"),
            "---\nhooks: [unclosed\n---\n",
        );
        write(
            &skills.join("b-bad-shape/SKILL.md"),
            "---\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n---\n",
        );
        write(&skills.join("c-list/SKILL.md"), "---\n- a\n- b\n---\n");
        write(
            &skills.join("d-good/SKILL.md"),
            "---\nhooks:\n  SessionStart:\n    - hooks:\n        - type: command\n          command: echo hi\n---\n",
        );
        // No closing line: no frontmatter at all, as the agent reads it.
        write(&skills.join("e-open/SKILL.md"), "---\nhooks: {}\n");
        let found = component_hooks(&roots, None).unwrap();
        let problems: Vec<(String, &str)> = found
            .problems
            .iter()
            .map(|p| {
                (
                    p.path.parent().map(file_name).unwrap_or_default(),
                    p.message.as_str(),
                )
            })
            .collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert_eq!(problems[0].0, "a-broken");
        assert!(problems[0].1.contains("not valid YAML"), "{problems:?}");
        assert_eq!(problems[1].0, "b-bad-shape");
        assert!(problems[1].1.contains("command"), "{problems:?}");
        assert_eq!(problems[2].0, "c-list");
        // The bad-shape skill's hook is still listed (the agent shows it
        // invalid; the user must see it to fix it), and the good one is.
        let events: Vec<&str> = found.hooks.iter().map(|h| h.event.as_str()).collect();
        assert_eq!(events, ["PreToolUse", "SessionStart"]);
    }
}
