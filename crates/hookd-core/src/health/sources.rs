//! The static checks for hooks that live outside the settings files:
//! those installed plugins ship (`hooks/hooks.json`) and those in skills'
//! and subagents' frontmatter.
//!
//! They run in the agent like any other hook, so a plugin guard whose
//! script is missing blocks (or fails to guard) just as a settings file's
//! would, and a hook copied from a plugin into the settings runs once. The
//! user cannot edit a plugin's files (an update would undo it), so only
//! what decides whether the hook works is checked: that its command can
//! start, and that it is not the same hook as one already in force.
//! Disabled plugins' hooks never run and are not checked (the doctor says
//! once that the plugin is disabled).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Finding, FindingCode, HealthInputs, Severity, cannot_start};
use crate::settings::Kind;
use crate::settings::components::{ComponentHook, ComponentOrigin};
use crate::settings::effective::EffectiveHooks;
use crate::settings::effective::matcher_key;
use crate::settings::events::{self, ExitTwo};
use crate::settings::plugins::{PluginHook, installed_plugins};

/// One hook from a plugin, skill or subagent, as the checks see it.
struct SourceHook<'a> {
    /// Whose it is, for a person: `plugin guard@market`, `skill audit`.
    owner: String,
    /// The file it is written in.
    path: &'a Path,
    /// The event it runs for.
    event: &'a str,
    /// Its group's matcher.
    matcher: Option<&'a str>,
    /// Its command, for a command handler.
    command: Option<&'a str>,
    /// The plugin's folder (`$CLAUDE_PLUGIN_ROOT`), for a plugin's.
    plugin_root: Option<PathBuf>,
    /// Whether it loads at all: false when its plugin is disabled.
    enabled: bool,
    /// Whether it is in force for every session (a plugin's), rather than
    /// only while its skill or subagent is active.
    always: bool,
}

/// Findings for the hooks of `plugins` and `components`, next to the
/// settings hooks in `view` (both kinds; only the agent's are compared).
pub(super) fn findings(
    inputs: &HealthInputs,
    view: &EffectiveHooks,
    plugins: &[PluginHook],
    components: &[ComponentHook],
) -> crate::Result<Vec<Finding>> {
    let roots: BTreeMap<String, PathBuf> =
        installed_plugins(&inputs.roots, Some(inputs.project.as_path()))?
            .into_iter()
            .map(|p| (p.id, p.root))
            .collect();
    let mut hooks: Vec<SourceHook<'_>> = plugins
        .iter()
        .map(|h| SourceHook {
            owner: format!("plugin {}", h.plugin),
            path: &h.path,
            event: &h.event,
            matcher: h.matcher.as_deref(),
            command: (h.handler_type == "command").then_some(h.runs.as_str()),
            plugin_root: roots.get(&h.plugin).cloned(),
            enabled: h.enabled,
            always: true,
        })
        .collect();
    hooks.extend(components.iter().map(|h| SourceHook {
        owner: match (&h.plugin, h.origin) {
            (Some(plugin), ComponentOrigin::Plugin) => {
                format!("{} {} of plugin {plugin}", h.kind.as_str(), h.name)
            }
            _ => format!("{} {}", h.kind.as_str(), h.name),
        },
        path: &h.path,
        event: &h.fires_as,
        matcher: h.matcher.as_deref(),
        command: (h.handler_type == "command").then_some(h.runs.as_str()),
        plugin_root: h.plugin.as_ref().and_then(|p| roots.get(p).cloned()),
        enabled: h.enabled,
        always: false,
    }));

    let mut out = Vec::new();
    for (i, hook) in hooks.iter().enumerate() {
        let Some(command) = hook.command.filter(|_| hook.enabled) else {
            continue;
        };
        let blocking =
            events::lookup(hook.event).is_some_and(|spec| spec.exit_two == ExitTwo::Blocks);
        let say = |severity, code, message: String| Finding {
            severity,
            code,
            hook: None,
            message: format!(
                "{}'s {} hook `{command}` ({}): {message}",
                hook.owner,
                hook.event,
                hook.path.display()
            ),
        };
        if let Some((severity, code, message)) = cannot_start(
            command,
            &inputs.setting(hook.plugin_root.as_deref()),
            blocking,
        ) {
            out.push(say(severity, code, message));
        }
        if !hook.always {
            continue;
        }
        let key = matcher_key(hook.event, hook.matcher);
        let in_settings = view.hooks.iter().find(|s| {
            s.kind == Kind::Agent
                && s.enabled
                && s.event.name() == hook.event
                && matcher_key(s.event.name(), s.matcher.as_deref()) == key
                && s.command.as_deref() == Some(command)
        });
        let in_plugin = hooks[..i].iter().find(|e| {
            e.always
                && e.enabled
                && e.event == hook.event
                && matcher_key(e.event, e.matcher) == key
                && e.command == Some(command)
        });
        let also = in_settings
            .map(|s| format!("{} ({} {})", s.path.display(), s.kind, s.scope))
            .or_else(|| in_plugin.map(|e| format!("{} ({})", e.path.display(), e.owner)));
        if let Some(also) = also {
            out.push(say(
                Severity::Warning,
                FindingCode::Duplicate,
                format!("the same hook is also in {also}: it runs once"),
            ));
        }
    }
    Ok(out)
}
