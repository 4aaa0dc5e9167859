//! `hookd hooks`: list, add, remove, enable/disable, validate and test the
//! hooks of a project, both the agent's own (`.claude/settings*.json`) and
//! the managed ones hookd's daemon runs (`.hookd/settings*.json`).
//!
//! All reading, checking and editing lives in [`hookd_core::settings`]; this
//! file turns flags into locations and selectors and results into lines.
//! Every refusal (unknown event, bad regex, invalid or changed file) becomes
//! one line on stderr and a non-zero exit, with nothing written.

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::target::{self, project_dir};
use super::{backup_note, show};
use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use hookd_core::executor::ExecReport;
use hookd_core::executor::hook_test;
use hookd_core::settings::events::{self, EventSpec, MatchField};
use hookd_core::settings::runs::{AgentSwitches, NotRunCode, RunVerdict, Verdicts};
use hookd_core::settings::{
    self, DisabledHook, DisabledStore, EffectiveHook, EffectiveHooks, HookSelector, Kind,
    MatchCheck, MatchOutcome, Scope, SettingsDocument, SettingsError, SettingsLocation,
    SettingsRoots, TrustStore,
};
use hookd_core::settings::{agent_disabled, agent_files};
use serde_json::{Value, json};

/// Flags of `hookd hooks`.
#[derive(Debug, Args)]
pub struct HooksArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: HooksCommand,
}

/// The subcommands of `hookd hooks`.
#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Show the hooks that apply to a project: every scope of both kinds, in the order they
    /// run, with duplicates and disabled hooks marked.
    List(ListArgs),
    /// Add a command hook to one settings file (by default the project's managed hooks,
    /// DIR/.hookd/settings.json, which hookd's daemon runs).
    Add(AddArgs),
    /// Remove command hooks from one settings file.
    Remove(EditArgs),
    /// Put back hooks that `hookd hooks disable` took out, exactly where they were.
    Enable(EditArgs),
    /// Turn hooks off without losing them: take them out of the settings file and keep them
    /// in hookd's store ($HOOKD_HOME/disabled.json) until enabled again.
    Disable(EditArgs),
    /// Check settings files against the hook contract and print every problem with its
    /// JSON path.
    Validate(ValidateArgs),
    /// Show which hooks an event with a given payload would run, and why the others would
    /// not.
    Test(TestArgs),
    /// Run a draft hook (or a settings file as it would be saved) over the project's last
    /// recorded events and show what it would have decided differently; only the changed
    /// hooks run, with HOOKD_BACKTEST=1, and no agent gets an answer.
    Backtest(super::backtest::BacktestArgs),
    /// Write Claude Code hooks as another agent's hooks file (codex, gemini, cursor,
    /// copilot), and say hook by hook what degrades: events and tools it lacks, fields it
    /// cannot take, answers it reads differently.
    Convert(super::convert::ConvertArgs),
    /// List the versions settings files had before each of hookd's writes (the last 5 per
    /// file, kept in hookd's data directory, never beside the file).
    Backups(super::backups::BackupsArgs),
    /// Put a kept version of a settings file back (the version it replaces is kept, so
    /// running it again undoes it). What it writes is not approved.
    RestoreBackup(super::backups::RestoreArgs),
}

/// Which kinds to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindFilter {
    /// Only the agent's own hooks.
    Agent,
    /// Only hookd's managed hooks.
    Managed,
    /// Both.
    All,
}

impl KindFilter {
    fn kinds(self) -> &'static [Kind] {
        match self {
            Self::Agent => &[Kind::Agent],
            Self::Managed => &[Kind::Managed],
            Self::All => &Kind::ALL,
        }
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    Table,
    /// One JSON document.
    Json,
}

/// Flags of `hookd hooks list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Project directory; its git root is used if it is inside a repository [default: the
    /// current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Which hooks to show: agent, managed or all
    #[arg(long, value_enum, default_value_t = KindFilter::All)]
    pub kind: KindFilter,
    /// Whose hooks files to list: claude (Claude Code's and hookd's, the default) or
    /// another agent's (codex, gemini, cursor, copilot: its user and project files, each
    /// hook with whether that agent will run it)
    #[arg(long, value_name = "AGENT", value_parser = super::target::agent_kind_parser(), default_value = "claude")]
    pub agent: hookd_core::AgentKind,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Which settings file an edit writes.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Settings file: global (or user), project or local
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "project")]
    pub scope: Scope,
    /// Kind of settings file: managed (hookd's daemon runs the hook) or agent (Claude Code
    /// runs it)
    #[arg(long, value_name = "KIND", value_parser = target::kind_parser(), default_value = "managed")]
    pub kind: Kind,
    /// Project directory for --scope project/local; its git root is used if it is inside a
    /// repository [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Write even if the file changed on disk since hookd read it (the other change is lost)
    #[arg(long)]
    pub force: bool,
}

/// Flags of `hookd hooks add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// Event to hook, e.g. PreToolUse, SessionStart, Stop (pre_tool_use also works)
    #[arg(long, value_name = "EVENT")]
    pub event: String,
    /// Matcher of the group: exact names (Write|Edit) or a regex (mcp__.*); omit to match
    /// everything
    #[arg(long, value_name = "MATCHER")]
    pub matcher: Option<String>,
    /// Shell command the hook runs
    #[arg(long, value_name = "CMD")]
    pub command: String,
    /// Timeout in seconds [default: the event's, 600 s for most]
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<f64>,
    /// Where to write.
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Flags of `hookd hooks remove`, `enable` and `disable`.
#[derive(Debug, Args)]
pub struct EditArgs {
    /// Event of the hook, e.g. PreToolUse
    #[arg(long, value_name = "EVENT")]
    pub event: String,
    /// Only the group with exactly this matcher text [default: any group]
    #[arg(long, value_name = "MATCHER")]
    pub matcher: Option<String>,
    /// Exact command text of the hook
    #[arg(long, value_name = "CMD")]
    pub command: String,
    /// Disable or enable in this hooks file of another coding agent (Codex CLI's
    /// hooks.json or config.toml, Gemini CLI's settings.json, Cursor's hooks.json, a
    /// Copilot hooks file) of the user or of the project (--project): the hook is taken
    /// out and kept in hookd's store, and put back byte for byte; --event is the
    /// agent's own (stop, BeforeTool). Not with --scope, --kind or --force (a file
    /// that changed since hookd read it is never overwritten)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scope", "kind", "force"])]
    pub agent_file: Option<PathBuf>,
    /// Which file.
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Flags of `hookd hooks validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files to check [default: the six settings files of the project, plus the policy file
    /// if present]
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Project directory whose files are checked when no FILE is given; its git root is used
    /// if it is inside a repository [default: the current directory]
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    pub project: Option<PathBuf>,
    /// Check each FILE as this agent reads its hooks file: claude (the default), codex
    /// (hooks.json), gemini (settings.json), cursor (hooks.json) or copilot (a hooks file);
    /// another agent's files must be named
    #[arg(long, value_name = "AGENT", value_parser = super::target::agent_kind_parser(), default_value = "claude")]
    pub agent: hookd_core::AgentKind,
}

/// Flags of `hookd hooks test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Event to simulate, e.g. PreToolUse
    #[arg(long, value_name = "EVENT")]
    pub event: String,
    /// The event's JSON payload (what the agent sends on stdin): a file, or - for stdin
    #[arg(long, value_name = "FILE")]
    pub payload: PathBuf,
    /// Project directory; its git root is used if it is inside a repository [default: the
    /// current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Which hooks to consider: agent, managed or all
    #[arg(long, value_enum, default_value_t = KindFilter::All)]
    pub kind: KindFilter,
    /// Also run the matching command hooks (agent ones too) in the project directory, as
    /// hookd's daemon runs managed hooks, and print each run and the reply the agent would get
    #[arg(long)]
    pub run: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs one `hookd hooks` subcommand.
pub fn run(args: &HooksArgs) -> Result<()> {
    let outcome = match &args.command {
        HooksCommand::List(args) => list(args),
        HooksCommand::Add(args) => add(args),
        HooksCommand::Remove(args) => remove(args),
        HooksCommand::Enable(args) => enable(args),
        HooksCommand::Disable(args) => disable(args),
        HooksCommand::Validate(args) => validate(args),
        HooksCommand::Test(args) => test(args),
        HooksCommand::Backtest(args) => super::backtest::run(args),
        HooksCommand::Convert(args) => super::convert::run(args),
        HooksCommand::Backups(args) => super::backups::list(args),
        HooksCommand::RestoreBackup(args) => super::backups::restore(args),
    };
    outcome.map_err(|err| match err.downcast_ref::<SettingsError>() {
        Some(changed @ SettingsError::ChangedOnDisk { .. }) => anyhow::anyhow!(
            "{changed} (run the command again to apply it to the new contents, or pass --force to overwrite them)"
        ),
        _ => err,
    })
}

fn list(args: &ListArgs) -> Result<()> {
    if args.agent != hookd_core::AgentKind::Claude {
        return list_agent(args);
    }
    let project = project_dir(args.project.as_deref())?;
    let view = load_view(args.kind, &project)?;
    let roots = SettingsRoots::from_env()?;
    let switches = AgentSwitches::read(&roots, Some(&project))?;
    let verdicts = Verdicts::of(&view, &switches);
    let (plugins, components) = if args.kind.kinds().contains(&Kind::Agent) {
        (
            settings::plugins::plugin_hooks(&roots, Some(&project))?,
            settings::components::component_hooks(&roots, Some(&project))?,
        )
    } else {
        Default::default()
    };
    match args.format {
        Format::Json => {
            let hooks: Vec<Value> = view
                .hooks
                .iter()
                .enumerate()
                .map(|(i, hook)| {
                    let mut item = hook_json(i, hook);
                    item["will_run"] = serde_json::to_value(verdicts.get(i)).unwrap_or(Value::Null);
                    item
                })
                .collect();
            let files: Vec<Value> = view
                .files
                .iter()
                .map(|f| {
                    json!({
                        "kind": f.location.kind.as_str(),
                        "scope": f.location.scope.as_str(),
                        "path": f.location.path,
                        "exists": f.exists,
                        "read_only": f.location.read_only,
                        "trust": f.trust,
                    })
                })
                .collect();
            let off: Vec<&Path> = view
                .all_disabled_by
                .iter()
                .map(|l| l.path.as_path())
                .collect();
            let doc = json!({
                "project": project,
                "files": files,
                "hooks": hooks,
                "plugins": plugins,
                "components": components.hooks,
                "component_problems": components.problems,
                "all_hooks_disabled_by": off,
            });
            println!("{}", serde_json::to_string_pretty(&doc)?);
        }
        Format::Table => {
            print_list(&view, &verdicts);
            print_plugins(&plugins);
            print_components(&components.hooks);
        }
    }
    for problem in &components.problems {
        eprintln!("warning: {}: {}", show(&problem.path), problem.message);
    }
    warn_switches(&view, &switches);
    Ok(())
}

/// The hooks installed plugins ship, read-only, under their plugin.
fn print_plugins(hooks: &[settings::plugins::PluginHook]) {
    let mut last: Option<&str> = None;
    for hook in hooks {
        if last != Some(hook.plugin.as_str()) {
            last = Some(&hook.plugin);
            println!(
                "agent plugin {}{} ({}, read-only): {}",
                hook.plugin,
                hook.version
                    .as_deref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default(),
                if hook.enabled {
                    "enabled"
                } else {
                    "disabled: its hooks do not run"
                },
                show(&hook.path)
            );
        }
        println!(
            "  {} {} {}: {}",
            hook.event,
            hook.matcher.as_deref().unwrap_or("(none)"),
            hook.handler_type,
            hook.runs
        );
    }
}

/// The hooks skills and subagents carry in their frontmatter, read-only,
/// under the skill or agent (they run only while it is active).
fn print_components(hooks: &[settings::components::ComponentHook]) {
    let mut last: Option<&Path> = None;
    for hook in hooks {
        if last != Some(hook.path.as_path()) {
            last = Some(&hook.path);
            let whose = match &hook.plugin {
                Some(plugin) if hook.enabled => format!("plugin {plugin}"),
                Some(plugin) => format!("plugin {plugin}, disabled: its hooks do not run"),
                None => hook.origin.as_str().to_owned(),
            };
            println!(
                "agent {} {} ({whose}, read-only; runs only while the {} is active): {}",
                hook.kind.as_str(),
                hook.name,
                hook.kind.as_str(),
                show(&hook.path)
            );
        }
        let fires = if hook.fires_as == hook.event {
            String::new()
        } else {
            format!(" (runs as {})", hook.fires_as)
        };
        println!(
            "  {}{fires} {} {}: {}{}",
            hook.event,
            hook.matcher.as_deref().unwrap_or("(none)"),
            hook.handler_type,
            hook.runs,
            if hook.once { " (once)" } else { "" }
        );
    }
}

/// `hookd hooks list --agent X`: that agent's hooks files for the project
/// (the user's and the project's), each hook with whether the agent will
/// run it and why not ([`settings::agent_runs`]).
fn list_agent(args: &ListArgs) -> Result<()> {
    let project = project_dir(args.project.as_deref())?;
    let roots = SettingsRoots::from_env()?;
    let files: Vec<_> = settings::agent_files::agent_hook_files(&roots, Some(&project))
        .into_iter()
        .filter(|f| f.agent == args.agent)
        .collect();
    let label = settings::convert::label(args.agent);
    // Its disabled hooks, kept in hookd's store: each file's, and the files
    // left with none but disabled ones (a config.toml), which are not listed.
    let store = DisabledStore::for_roots(&roots);
    let disabled = |path: &Path| -> Result<Vec<DisabledHook>> {
        Ok(agent_disabled::disabled_in(&store, path)?)
    };
    let unlisted: Vec<(Scope, PathBuf)> = agent_disabled::unlisted(&store, &roots, Some(&project))?
        .into_iter()
        .filter(|(agent, _, _)| *agent == args.agent)
        .map(|(_, scope, path)| (scope, path))
        .collect();
    let judged: Vec<Vec<settings::agent_runs::AgentVerdict>> = files
        .iter()
        .map(|f| settings::agent_runs::verdicts(&roots, Some(&project), f))
        .collect();
    if args.format == Format::Json {
        let files: Vec<Value> = files
            .iter()
            .zip(&judged)
            .map(|(f, verdicts)| {
                let mut hooks: Vec<Value> = f
                    .hooks
                    .iter()
                    .zip(verdicts)
                    .map(|(h, v)| {
                        json!({
                            "event": h.event,
                            "claude_event": h.claude_event,
                            "matcher": h.matcher,
                            "type": h.handler_type,
                            "command": h.command,
                            "timeout_secs": h.timeout_secs,
                            "hookd": h.hookd,
                            "json_path": h.json_path,
                            "enabled": true,
                            "will_run": v,
                        })
                    })
                    .collect();
                // Disabled ones after them, as `list` puts Claude Code's.
                hooks.extend(disabled(&f.path)?.iter().map(disabled_agent_hook_json));
                Ok(json!({
                    "scope": f.scope.as_str(),
                    "extension": f.extension,
                    "path": f.path,
                    "error": f.error.as_ref().map(ToString::to_string),
                    "errors": f.check.errors,
                    "warnings": f.check.warnings,
                    "hooks": hooks,
                }))
            })
            .chain(unlisted.iter().map(|(scope, path)| {
                Ok(json!({
                    "scope": scope.as_str(),
                    "extension": null,
                    "path": path,
                    "error": null,
                    "errors": [],
                    "warnings": [],
                    "hooks": disabled(path)?.iter().map(disabled_agent_hook_json).collect::<Vec<_>>(),
                }))
            }))
            .collect::<Result<_>>()?;
        let doc = json!({"project": project, "agent": args.agent.as_str(), "files": files});
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    if files.is_empty() && unlisted.is_empty() {
        println!("{label} has no hooks file for {}", show(&project));
        return Ok(());
    }
    for (f, verdicts) in files.iter().zip(&judged) {
        match &f.extension {
            Some(extension) => {
                println!("{label} · extension {extension} {}", show(&f.path));
                println!("  the extension's: hookd lists it and never writes it");
            }
            None => println!("{label} · {} {}", f.scope, show(&f.path)),
        }
        if f.scope == Scope::Policy {
            println!("  the administrator's: hookd lists it and never writes it");
        }
        if let Some(error) = &f.error {
            println!("  cannot read it: {error}");
            continue;
        }
        if f.hooks.is_empty() {
            println!("  (no hooks)");
        }
        for (h, v) in f.hooks.iter().zip(verdicts) {
            let event = match &h.claude_event {
                Some(claude) if claude != &h.event => format!("{} ({claude})", h.event),
                _ => h.event.clone(),
            };
            let timeout = h
                .timeout_secs
                .map_or_else(String::new, |t| format!(" {t}s"));
            println!(
                "  {event} {} {}{timeout}{}: {}",
                h.matcher.as_deref().unwrap_or("(none)"),
                h.command.as_deref().unwrap_or("(no command)"),
                if h.hookd { " [hookd]" } else { "" },
                v.summary()
            );
        }
        print_disabled_agent_hooks(&disabled(&f.path)?);
    }
    for (scope, path) in &unlisted {
        println!("{label} · {scope} {}", show(path));
        println!("  (no hooks but disabled ones)");
        print_disabled_agent_hooks(&disabled(path)?);
    }
    Ok(())
}

/// The disabled hooks of an agent's file, one line each: its event,
/// matcher and command, what `hookd hooks enable --agent-file` takes.
fn print_disabled_agent_hooks(hooks: &[DisabledHook]) {
    for d in hooks {
        let command = d.agent.as_ref().and_then(|p| p.command.as_deref());
        println!(
            "  {} {} {}: disabled, kept in hookd's store (`hookd hooks enable --agent-file` with --event, --command{} puts it back)",
            d.event,
            d.matcher.as_deref().unwrap_or("(none)"),
            command.unwrap_or("(no command)"),
            if d.matcher.is_some() {
                " and --matcher"
            } else {
                ""
            }
        );
    }
}

/// A disabled hook of an agent's file in `hookd hooks list --agent
/// --format json`: `enabled: false`, with what `enable` takes.
fn disabled_agent_hook_json(d: &DisabledHook) -> Value {
    let place = d.agent.as_ref();
    json!({
        "event": d.event,
        "matcher": d.matcher,
        "command": place.and_then(|p| p.command.as_deref()),
        "json_path": place.map(|p| &p.json_path),
        "enabled": false,
        "disabled_at": d.disabled_at,
    })
}

/// The STATE cell: `runs`, or the first reason it does not (all of them
/// are printed under the table).
fn state_cell(verdict: Option<&RunVerdict>) -> String {
    let Some(first) = verdict.and_then(|v| v.reasons.first()) else {
        return "runs".to_owned();
    };
    match first.code {
        NotRunCode::Disabled => "disabled",
        NotRunCode::AllHooksDisabled => "off (disableAllHooks)",
        NotRunCode::ManagedHooksOnly => "off (policy)",
        NotRunCode::BadMatcher => "never matches",
        NotRunCode::Untrusted => "untrusted",
        NotRunCode::NotConnected => "not connected",
        NotRunCode::RecordOnly => "record-only",
        NotRunCode::Dropped => "dropped by the agent",
        NotRunCode::TurnedOff => "off in the agent",
        NotRunCode::ProjectNotTrusted => "project untrusted",
        NotRunCode::NotTrustedInAgent => "not trusted yet",
    }
    .to_owned()
}

fn print_list(view: &EffectiveHooks, verdicts: &Verdicts) {
    let mut rows = Vec::new();
    let mut owners = Vec::new();
    for (i, hook) in view.hooks.iter().enumerate() {
        let mut what = hook.summary();
        if let Some(first) = hook.duplicate_of {
            what.push_str(&format!(" (duplicate of #{}, runs once)", first + 1));
        }
        rows.push(vec![
            format!("#{}", i + 1),
            hook.event.name().to_owned(),
            matcher_cell(hook),
            hook.handler_type.clone(),
            hook.timeout
                .map_or_else(|| "-".to_owned(), |t| format!("{t}s")),
            state_cell(verdicts.get(i)),
            what,
        ]);
        owners.push((hook.kind, hook.scope, hook.path.clone()));
    }
    let header: Vec<String> = [
        "#", "EVENT", "MATCHER", "TYPE", "TIMEOUT", "STATE", "HANDLER",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let widths = column_widths(std::iter::once(&header).chain(&rows));
    for file in &view.files {
        let loc = &file.location;
        let mine: Vec<&Vec<String>> = rows
            .iter()
            .zip(&owners)
            .filter(|(_, (kind, scope, path))| {
                *kind == loc.kind && *scope == loc.scope && *path == loc.path
            })
            .map(|(row, _)| row)
            .collect();
        let note = if !file.exists {
            " (does not exist)"
        } else if mine.is_empty() {
            " (no hooks)"
        } else {
            match file.trust {
                settings::Trust::NotApproved => {
                    " (NOT TRUSTED: its hooks do not run until you approve them with `hookd trust`)"
                }
                settings::Trust::Changed { .. } => {
                    " (CHANGED since you approved it: its hooks do not run until you approve them again with `hookd trust`)"
                }
                _ => "",
            }
        };
        println!(
            "{} {}{}: {}{note}",
            loc.kind,
            loc.scope,
            if loc.read_only { ", read-only" } else { "" },
            show(&loc.path)
        );
        if !mine.is_empty() {
            println!("  {}", format_row(&header, &widths));
            for row in mine {
                println!("  {}", format_row(row, &widths));
            }
        }
    }
    let enabled = view.hooks.iter().filter(|h| h.enabled).count();
    let duplicates = view
        .hooks
        .iter()
        .filter(|h| h.duplicate_of.is_some())
        .count();
    let untrusted = view
        .hooks
        .iter()
        .filter(|h| h.enabled && h.untrusted.is_some())
        .count();
    let untrusted_note = if untrusted > 0 {
        format!(", {untrusted} not trusted")
    } else {
        String::new()
    };
    let idle: Vec<(usize, &RunVerdict)> = verdicts
        .0
        .iter()
        .enumerate()
        .filter(|(i, v)| !v.runs && view.hooks.get(*i).is_some_and(|h| h.enabled))
        .collect();
    let idle_note = if idle.is_empty() {
        String::new()
    } else {
        format!(", {} enabled but not running", idle.len())
    };
    println!(
        "{} hook{} ({enabled} enabled, {} disabled, {duplicates} duplicate{}{untrusted_note}{idle_note})",
        view.hooks.len(),
        plural(view.hooks.len()),
        view.hooks.len() - enabled,
        plural(duplicates)
    );
    for (i, verdict) in idle {
        println!("  #{} does not run: {}", i + 1, verdict.summary());
    }
}

fn add(args: &AddArgs) -> Result<()> {
    let location = target_location(&args.target)?;
    let handler = settings::command_handler(&args.command, args.timeout);
    // Loaded, edited and saved under the file's lock: a concurrent add is kept.
    let (pos, outcome) = SettingsDocument::update(&location, args.target.force, |doc| {
        settings::add_hook(doc, &args.event, args.matcher.as_deref(), handler)
    })?;
    println!(
        "Added {} hook {:?}{} to {} ({}, {} scope){}",
        pos.event,
        args.command,
        matcher_note(args.matcher.as_deref()),
        show(&location.path),
        location.kind,
        location.scope,
        if outcome.created {
            ": created the file".to_owned()
        } else {
            backup_note(outcome.backup.as_deref())
        }
    );
    warn_untrusted(&location);
    Ok(())
}

/// After a save: says so when the file's hooks still do not run because
/// it holds content the user never approved (hookd approves what it
/// writes only when what was there before was approved).
fn warn_untrusted(location: &SettingsLocation) {
    let Some(store) = &location.trust_store else {
        return;
    };
    let bytes = std::fs::read(&location.path).ok();
    match TrustStore::new(store).check(location, bytes.as_deref()) {
        Ok(trust) if !trust.allows_running() => println!(
            "note: {} is not trusted (it holds hooks you have not approved), so hookd runs none of its hooks; review and approve them with `hookd trust`",
            show(&location.path)
        ),
        _ => {}
    }
}

fn remove(args: &EditArgs) -> Result<()> {
    if args.agent_file.is_some() {
        bail!(
            "hookd hooks remove edits Claude Code's and hookd's settings files; --agent-file takes only disable and enable (remove another agent's hook in the app's Hooks screen or with the agent's own tools)"
        );
    }
    let location = target_location(&args.target)?;
    let (removed, outcome) = SettingsDocument::update(&location, args.target.force, |doc| {
        settings::remove_hook(doc, &selector(args))
    })?;
    println!(
        "Removed {} {} hook{} with command {:?} from {}{}",
        removed.len(),
        settings::resolve_event(&args.event)?.name,
        plural(removed.len()),
        args.command,
        show(&location.path),
        backup_note(outcome.backup.as_deref())
    );
    warn_untrusted(&location);
    Ok(())
}

fn disable(args: &EditArgs) -> Result<()> {
    if let Some(file) = &args.agent_file {
        return set_agent_hook_enabled(args, file, false);
    }
    let location = target_location(&args.target)?;
    let store = DisabledStore::from_env()?;
    let done = store.disable(&location, &selector(args), args.target.force)?;
    println!(
        "Disabled {} in {}; kept in {} (`hookd hooks enable` with the same flags puts it back)",
        describe(&done),
        show(&location.path),
        show(store.path())
    );
    Ok(())
}

fn enable(args: &EditArgs) -> Result<()> {
    if let Some(file) = &args.agent_file {
        return set_agent_hook_enabled(args, file, true);
    }
    let location = target_location(&args.target)?;
    let done = DisabledStore::from_env()?.enable(&location, &selector(args), args.target.force)?;
    println!("Enabled {} in {}", describe(&done), show(&location.path));
    Ok(())
}

/// `hookd hooks disable|enable --agent-file FILE`: the hook of `--event`
/// and `--command` (and `--matcher`) of another agent's file, through
/// [`agent_disabled`] (the rules and the store are the core's).
fn set_agent_hook_enabled(args: &EditArgs, file: &Path, enabled: bool) -> Result<()> {
    let project = project_dir(args.target.project.as_deref())?;
    let roots = SettingsRoots::from_env()?;
    let path =
        std::path::absolute(file).with_context(|| format!("cannot locate {}", show(file)))?;
    let real = fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    // The listing spells a file as its roots do (through a symlinked $HOME,
    // say), and the store keeps that spelling: find the file by where it
    // really is, then go on with the listing's name for it.
    let files = agent_files::agent_hook_files(&roots, Some(&project));
    let path = files
        .iter()
        .map(|f| &f.path)
        .find(|listed| **listed == path || fs::canonicalize(listed).is_ok_and(|p| p == real))
        .cloned()
        .unwrap_or(real);
    let store = DisabledStore::for_roots(&roots);
    let wanted = |event: &str, matcher: Option<&str>, command: Option<&str>| {
        event == args.event
            && command == Some(args.command.as_str())
            && args.matcher.as_deref().is_none_or(|m| matcher == Some(m))
    };
    let missing = || {
        anyhow::anyhow!(
            "no {} {} hook with command {:?} in {}",
            if enabled { "disabled" } else { "enabled" },
            args.event,
            args.command,
            show(&path)
        )
    };
    let json_path = if enabled {
        agent_disabled::disabled_in(&store, &path)?
            .into_iter()
            .rev()
            .find_map(|d| {
                let place = d.agent?;
                wanted(&d.event, d.matcher.as_deref(), place.command.as_deref())
                    .then_some(place.json_path)
            })
            .ok_or_else(missing)?
    } else {
        let listed = files.iter().find(|f| f.path == path).with_context(|| {
            format!(
                "{} is not a hooks file of another coding agent for this project",
                show(&path)
            )
        })?;
        listed
            .hooks
            .iter()
            .find(|h| !h.hookd && wanted(&h.event, h.matcher.as_deref(), h.command.as_deref()))
            .map(|h| h.json_path.clone())
            .ok_or_else(missing)?
    };
    let done = agent_disabled::set_enabled(
        &store,
        &roots,
        Some(&project),
        &path,
        (&json_path, Some(args.command.as_str())),
        &agent_disabled::version_of(&path),
        enabled,
    )?;
    if enabled {
        let how = match done.restored {
            Some(agent_disabled::Restored::AtOffset) => {
                "its bytes back where they were (the file changed elsewhere)"
            }
            Some(agent_disabled::Restored::AtItsPlace) => {
                "the file changed around it, so it is back at its old place in its event and the file was written again in its style"
            }
            _ => "back where it was, byte for byte",
        };
        println!(
            "Enabled the {} hook with command {:?} in {}: {how}",
            args.event,
            args.command,
            show(&path)
        );
    } else {
        println!(
            "Disabled the {} hook with command {:?} in {}; kept in {} (`hookd hooks enable` with the same flags puts it back)",
            args.event,
            args.command,
            show(&path),
            show(store.path())
        );
    }
    for note in &done.notes {
        eprintln!("note: {note}");
    }
    Ok(())
}

fn validate(args: &ValidateArgs) -> Result<()> {
    if args.agent != hookd_core::AgentKind::Claude {
        return validate_agent_files(args);
    }
    let mut targets: Vec<(PathBuf, bool)> = Vec::new();
    if args.files.is_empty() {
        let project = project_dir(args.project.as_deref())?;
        let roots = SettingsRoots::from_env()?;
        for kind in Kind::ALL {
            for loc in roots.locations(kind, Some(&project))? {
                targets.push((loc.path, false));
            }
        }
    } else {
        targets.extend(args.files.iter().map(|f| (f.clone(), true)));
    }
    let mut tally = Tally::default();
    for (path, named) in &targets {
        let shown = show(path);
        if !named && !path.exists() {
            println!("-      {shown} (does not exist)");
            continue;
        }
        let (errors, warnings): (Vec<String>, Vec<String>) = match SettingsDocument::load_file(path)
        {
            Ok(doc) => (
                doc.errors().iter().map(ToString::to_string).collect(),
                doc.warnings().iter().map(ToString::to_string).collect(),
            ),
            Err(SettingsError::Parse { message, .. }) => {
                (vec![format!("not valid JSON: {message}")], Vec::new())
            }
            Err(SettingsError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                (vec!["does not exist".to_owned()], Vec::new())
            }
            Err(SettingsError::Io { source, .. }) => {
                (vec![format!("cannot read: {source}")], Vec::new())
            }
            Err(other) => (vec![other.to_string()], Vec::new()),
        };
        tally.file(&shown, &warnings, &errors);
    }
    tally.finish("")
}

/// The lines of `validate` and its count of problems.
#[derive(Default)]
struct Tally {
    problems: usize,
    bad_files: usize,
}

impl Tally {
    /// Prints one file's warnings (which do not fail the check: the agent
    /// accepts the file), then `ok` or its errors.
    fn file(&mut self, shown: &str, warnings: &[String], errors: &[String]) {
        for warning in warnings {
            println!("warn   {shown}: {warning}");
        }
        if errors.is_empty() {
            println!("ok     {shown}");
        } else {
            self.bad_files += 1;
            self.problems += errors.len();
            for error in errors {
                println!("error  {shown}: {error}");
            }
        }
    }

    /// Fails with the count when some file had errors (`why` after it).
    fn finish(self, why: &str) -> Result<()> {
        if self.problems > 0 {
            bail!(
                "{} problem{} in {} file{}{why}",
                self.problems,
                plural(self.problems),
                self.bad_files,
                plural(self.bad_files)
            );
        }
        Ok(())
    }
}

/// `validate --agent`: each named file checked as that agent reads it
/// ([`hookd_core::settings::agent_schema`]); the same lines as for Claude
/// Code's files.
fn validate_agent_files(args: &ValidateArgs) -> Result<()> {
    use hookd_core::AgentKind;
    use hookd_core::settings::{agent_schema, format};
    if args.files.is_empty() {
        bail!(
            "name the {} hooks files to check (hookd finds Claude Code's files by itself, not other agents')",
            args.agent
        );
    }
    let mut tally = Tally::default();
    let strings = |list: &[settings::ValidationError]| -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    };
    for path in &args.files {
        let (warnings, errors) = match std::fs::read(path) {
            Err(err) => (Vec::new(), vec![format!("cannot read: {err}")]),
            // Gemini CLI strips comments before it parses its settings.
            Ok(bytes) => match format::parse_with(&bytes, args.agent == AgentKind::Gemini) {
                Err(err) => (Vec::new(), vec![format!("not valid JSON: {err}")]),
                Ok((value, _)) => {
                    let found = agent_schema::check(args.agent, &value);
                    (strings(&found.warnings), strings(&found.errors))
                }
            },
        };
        tally.file(&show(path), &warnings, &errors);
    }
    tally.finish(&format!(" ({} would not load what is named)", args.agent))
}

fn test(args: &TestArgs) -> Result<()> {
    let spec = settings::resolve_event(&args.event)?;
    let payload = read_payload(&args.payload)?;
    let project = project_dir(args.project.as_deref())?;
    let view = load_view(args.kind, &project)?;
    let checks = view.matching_all(spec.name, &payload);
    let target = events::match_target(spec, &payload);
    let report = if args.run {
        Some(run_hooks(spec, &payload, &project, &view)?)
    } else {
        None
    };
    match args.format {
        Format::Json => {
            let items: Vec<Value> = checks
                .iter()
                .map(|c| {
                    let mut item = hook_json(c.index, c.hook);
                    item["runs"] = Value::Bool(matches!(c.outcome, MatchOutcome::Runs(_)));
                    item["reason"] = Value::String(reason(c));
                    item
                })
                .collect();
            let field = match spec.matcher {
                MatchField::None => Value::Null,
                MatchField::Payload(field) => field.into(),
            };
            let mut doc = json!({
                "event": spec.name,
                "match_field": field,
                "target": target,
                "hooks": items,
            });
            if let Some(report) = &report {
                doc["run"] = report_json(report);
            }
            println!("{}", serde_json::to_string_pretty(&doc)?);
        }
        Format::Table => {
            print_checks(spec, target, &checks);
            if let Some(report) = &report {
                print_report(report);
            }
        }
    }
    warn_all_disabled(&view);
    Ok(())
}

fn print_checks(spec: &EventSpec, target: Option<&str>, checks: &[MatchCheck<'_>]) {
    match spec.matcher {
        MatchField::None => println!(
            "{}: this event has no matcher support; every group runs",
            spec.name
        ),
        MatchField::Payload(field) => match target {
            Some(value) => println!(
                "{}: matchers are tested against {field} = {value:?}",
                spec.name
            ),
            None => println!(
                "{}: matchers are tested against {field}, which the payload lacks (only match-all groups run)",
                spec.name
            ),
        },
    }
    if checks.is_empty() {
        println!("No {} hooks are configured.", spec.name);
    } else {
        let rows: Vec<Vec<String>> = checks
            .iter()
            .map(|c| {
                vec![
                    if matches!(c.outcome, MatchOutcome::Runs(_)) {
                        "runs"
                    } else {
                        "skipped"
                    }
                    .to_owned(),
                    format!("#{}", c.index + 1),
                    c.hook.kind.to_string(),
                    c.hook.scope.to_string(),
                    matcher_cell(c.hook),
                    reason(c),
                    c.hook.handler_type.clone(),
                    c.hook.summary(),
                ]
            })
            .collect();
        let widths = column_widths(&rows);
        for row in &rows {
            println!("{}", format_row(row, &widths));
        }
    }
    let runs: Vec<&MatchCheck<'_>> = checks
        .iter()
        .filter(|c| matches!(c.outcome, MatchOutcome::Runs(_)))
        .collect();
    let by = |kind| runs.iter().filter(|c| c.hook.kind == kind).count();
    println!(
        "{} hook{} would run ({} by the agent, {} by hookd)",
        runs.len(),
        plural(runs.len()),
        by(Kind::Agent),
        by(Kind::Managed)
    );
}

/// Runs the matching command hooks (of the kinds shown, agent ones too, so
/// they can be tried without the agent) through hookd's executor, in the
/// project directory, exactly as the daemon runs managed hooks.
fn run_hooks(
    spec: &'static EventSpec,
    payload: &Value,
    project: &Path,
    view: &EffectiveHooks,
) -> Result<ExecReport> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime to run hooks")?;
    Ok(runtime.block_on(hook_test::run_matching(spec, payload, project, view)))
}

fn print_report(report: &ExecReport) {
    if report.runs.is_empty() {
        println!("Ran nothing: no matching command hook (hookd runs only type command).");
    }
    for run in &report.runs {
        let end = match (run.exit_code, run.timed_out, &run.spawn_error) {
            (_, _, Some(err)) => format!("could not run: {err}"),
            (_, true, _) => "timed out (killed)".to_owned(),
            (Some(code), _, _) => format!("exit {code}"),
            (None, _, _) => "killed by a signal".to_owned(),
        };
        println!(
            "ran {:?}: {end} after {} ms{}",
            run.invocation.command,
            run.duration.as_millis(),
            run.effect
                .decision()
                .map(|d| format!(", decision {d}"))
                .unwrap_or_default()
        );
        for (name, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            if !text.trim().is_empty() {
                println!("  {name}: {}", text.trim_end().replace('\n', "\n    "));
            }
        }
        if let Some(err) = &run.json_error {
            println!("  JSON output ignored: {err}");
        }
    }
    let reply = report.outcome.reply();
    println!("The agent would get: exit code {}", reply.exit_code);
    if !reply.stdout.is_empty() {
        println!("  stdout: {}", reply.stdout.trim_end());
    }
    if !reply.stderr.is_empty() {
        println!("  stderr: {}", reply.stderr.trim_end());
    }
}

fn report_json(report: &ExecReport) -> Value {
    let runs: Vec<Value> = report
        .runs
        .iter()
        .map(|run| {
            json!({
                "command": run.invocation.command,
                "scope": run.invocation.scope,
                "file": run.invocation.source,
                "exit_code": run.exit_code,
                "timed_out": run.timed_out,
                "duration_ms": run.duration.as_secs_f64() * 1e3,
                "stdout": run.stdout,
                "stderr": run.stderr,
                "json_error": run.json_error,
                "spawn_error": run.spawn_error,
                "decision": run.effect.decision(),
            })
        })
        .collect();
    let reply = report.outcome.reply();
    json!({
        "runs": runs,
        "reply": {"exit_code": reply.exit_code, "stdout": reply.stdout, "stderr": reply.stderr},
    })
}

/// Why a hook runs or not, in words (the core's wording, paths as users write them).
fn reason(check: &MatchCheck<'_>) -> String {
    hook_test::match_reason(check, show)
}

fn load_view(kinds: KindFilter, project: &Path) -> Result<EffectiveHooks> {
    Ok(hook_test::load_view(
        &SettingsRoots::from_env()?,
        kinds.kinds(),
        project,
    )?)
}

fn read_payload(path: &Path) -> Result<Value> {
    let (bytes, name) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read the payload from stdin")?;
        (bytes, "stdin".to_owned())
    } else {
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read payload file {}", path.display()))?;
        (bytes, path.display().to_string())
    };
    let payload: Value = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow::anyhow!("payload from {name} is not valid JSON: {e}"))?;
    if !payload.is_object() {
        bail!("payload from {name} must be a JSON object (the event's stdin)");
    }
    Ok(payload)
}

/// The settings file for the edit flags.
fn target_location(target: &TargetArgs) -> Result<SettingsLocation> {
    let (_, location, _) = target::resolve(target.scope, target.kind, target.project.as_deref())?;
    Ok(location)
}

fn selector(args: &EditArgs) -> HookSelector {
    HookSelector {
        event: args.event.clone(),
        matcher: args.matcher.clone(),
        command: args.command.clone(),
    }
}

fn parse_timeout(text: &str) -> Result<f64> {
    let secs: f64 = text
        .parse()
        .with_context(|| format!("{text:?} is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        bail!("the timeout must be a positive number of seconds");
    }
    Ok(secs)
}

fn hook_json(index: usize, hook: &EffectiveHook) -> Value {
    json!({
        "index": index,
        "kind": hook.kind.as_str(),
        "scope": hook.scope.as_str(),
        "file": hook.path,
        "event": hook.event.name(),
        "group_index": hook.group_index,
        "matcher": hook.matcher,
        "handler_index": hook.handler_index,
        "type": hook.handler_type,
        "command": hook.command,
        "summary": hook.summary(),
        "timeout": hook.timeout,
        "enabled": hook.enabled,
        "duplicate_of": hook.duplicate_of,
        "untrusted": hook.untrusted,
        "handler": hook.handler,
    })
}

/// The matcher as shown: `(none)` when absent, `""` when empty, and a note
/// when the event ignores it.
fn matcher_cell(hook: &EffectiveHook) -> String {
    let text = match hook.matcher.as_deref() {
        None => "(none)".to_owned(),
        Some("") => "\"\"".to_owned(),
        Some(m) => m.to_owned(),
    };
    let ignored = hook
        .event
        .spec()
        .is_some_and(|s| s.matcher == MatchField::None);
    if ignored && hook.matcher.is_some() {
        format!("{text} (ignored)")
    } else if settings::matcher::Matcher::parse(hook.matcher.as_deref()).is_err() {
        // The agent loads the file and never matches the group.
        format!("{text} (never matches: not a valid pattern)")
    } else {
        text
    }
}

fn matcher_note(matcher: Option<&str>) -> String {
    matcher
        .map(|m| format!(" (matcher {m:?})"))
        .unwrap_or_default()
}

fn describe(hooks: &[DisabledHook]) -> String {
    let first = hooks.first();
    let event = first.map_or("", |h| h.event.as_str());
    let command = first.and_then(DisabledHook::command).unwrap_or_default();
    format!(
        "{} {event} hook{} with command {command:?}",
        hooks.len(),
        plural(hooks.len())
    )
}

/// The switches that stop hooks wholesale, with Claude Code's precedence
/// ([`hookd_core::settings::runs`]), and hookd's own `disableAllHooks`.
fn warn_switches(view: &EffectiveHooks, switches: &AgentSwitches) {
    if let Some(policy) = &switches.policy_off {
        eprintln!(
            "warning: the policy file {} sets \"disableAllHooks\": true, so no hook runs (hookd's managed hooks neither)",
            show(policy)
        );
    } else {
        if let Some(policy) = &switches.managed_only {
            eprintln!(
                "warning: the policy file {} sets \"allowManagedHooksOnly\": true, so the agent runs only its hooks (hookd's managed hooks only if it calls hookd-emit --wait)",
                show(policy)
            );
        }
        if let Some(file) = &switches.others_off {
            eprintln!(
                "warning: {} sets \"disableAllHooks\": true, so no agent hook runs but the policy file's",
                show(file)
            );
        }
    }
    for loc in view
        .all_disabled_by
        .iter()
        .filter(|l| l.kind == Kind::Managed)
    {
        eprintln!(
            "warning: {} sets \"disableAllHooks\": true, so no managed hook runs",
            show(&loc.path)
        );
    }
}

fn warn_all_disabled(view: &EffectiveHooks) {
    for loc in &view.all_disabled_by {
        eprintln!(
            "warning: {} sets \"disableAllHooks\": true, so no {} hook runs",
            show(&loc.path),
            loc.kind
        );
    }
}

fn column_widths<'a>(rows: impl IntoIterator<Item = &'a Vec<String>>) -> Vec<usize> {
    let mut widths = Vec::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            let len = cell.chars().count();
            if widths.len() <= i {
                widths.push(len);
            } else if widths[i] < len {
                widths[i] = len;
            }
        }
    }
    widths
}

fn format_row(row: &[String], widths: &[usize]) -> String {
    let last = row.len().saturating_sub(1);
    row.iter()
        .zip(widths)
        .enumerate()
        .map(|(i, (cell, width))| {
            if i == last {
                cell.clone()
            } else {
                format!("{cell:<width$}")
            }
        })
        .collect::<Vec<_>>()
        .join("  ")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
