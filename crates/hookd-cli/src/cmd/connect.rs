//! `hookd connect` and `hookd disconnect`: make the agent call `hookd-emit`
//! on every event, or stop it again, by editing its settings file.
//!
//! All the editing (and its safety rules) lives in
//! [`hookd_core::settings::connect`]; this file only turns flags into a settings
//! path and the outcome into one human line.

use std::path::{Path, PathBuf};

use super::target;
use super::{backup_note, show};
use anyhow::Result;
use clap::Args;
use hookd_core::AgentKind;
use hookd_core::settings::connect::{self, ChangeReport, ChangeStatus};
use hookd_core::settings::connector::{self, Connector};
use hookd_core::settings::{Kind, Scope, SettingsLocation};

/// The `--agent` values.
const AGENTS: [&str; 5] = ["claude", "codex", "gemini", "cursor", "copilot"];

fn agent_parser() -> impl clap::builder::TypedValueParser<Value = AgentKind> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(AGENTS)
        .map(|name: String| AgentKind::parse(&name).unwrap_or(AgentKind::Claude))
}

/// Flags of `hookd connect`.
#[derive(Debug, Clone, Args)]
pub struct ConnectArgs {
    /// Whose settings to edit: claude (Claude Code), codex (Codex CLI:
    /// $CODEX_HOME/hooks.json, default ~/.codex/hooks.json, or
    /// DIR/.codex/hooks.json with --scope project; Codex runs the entries
    /// once you trust them in its /hooks), gemini (Gemini CLI:
    /// ~/.gemini/settings.json, or DIR/.gemini/settings.json with --scope
    /// project), cursor (Cursor: ~/.cursor/hooks.json, or
    /// DIR/.cursor/hooks.json with --scope project) or copilot (GitHub
    /// Copilot: hookd's own ~/.copilot/hooks/hookd.json, or
    /// DIR/.github/hooks/hookd.json with --scope project)
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), default_value = "claude")]
    pub agent: AgentKind,
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`; the other
    /// agents have global and project files only (see --agent)
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "global")]
    pub scope: Scope,
    /// Project directory for --scope project/local; its git root is used if it is inside a
    /// repository [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Command the hooks run, instead of the hookd-emit installed beside hookd (or on PATH);
    /// its program must be named hookd-emit
    #[arg(long, value_name = "CMD")]
    pub emit_command: Option<String>,
    /// Managed mode: install `hookd-emit --wait` entries (one per event), so the
    /// agent also gets the answer of hookd's managed hooks (~/.hookd/settings.json,
    /// PROJECT/.hookd/settings*.json, hot-reloaded) in its own output shape;
    /// replaces recording-only entries where they stand. Without it, existing
    /// managed entries are switched back to recording only.
    #[arg(long)]
    pub managed: bool,
    /// Print what would change, with the diff of the file, without writing anything
    #[arg(long)]
    pub dry_run: bool,
}

/// Flags of `hookd disconnect`.
#[derive(Debug, Clone, Args)]
pub struct DisconnectArgs {
    /// Whose settings to edit: claude (Claude Code), codex (Codex CLI),
    /// gemini (Gemini CLI), cursor (Cursor) or copilot (GitHub Copilot:
    /// hookd's own file, removed when only hookd's entries were in it);
    /// the files are those of `hookd connect --agent`
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), default_value = "claude")]
    pub agent: AgentKind,
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`; the other
    /// agents have global and project files only (see --agent)
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "global")]
    pub scope: Scope,
    /// Project directory for --scope project/local; its git root is used if it is inside a
    /// repository [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Print what would change, with the diff of the file, without writing anything
    #[arg(long)]
    pub dry_run: bool,
}

/// Adds hookd's hooks to the chosen settings file and says what changed.
pub fn connect(args: &ConnectArgs) -> Result<()> {
    let mode = if args.managed {
        connect::Mode::Managed
    } else {
        connect::Mode::Record
    };
    if let Some(agent) = connector::of(args.agent) {
        return connect_agent(agent, args, mode);
    }
    let location = settings_file(args.scope, args.project.as_deref())?;
    let path = location.path.clone();
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let report = connect::connect_at(&location, &emit, mode, args.dry_run)?;
    say_connected(&report, mode_note(mode), mode.hooks().len());
    if args.dry_run {
        print_diff(
            &connect::preview_connect_at(&location, &emit, mode)?,
            &show(&path),
        );
    }
    warn_if_emit_missing(&report, &emit);
    warn_if_disabled(&report);
    Ok(())
}

/// `hookd connect --agent X` for an agent other than Claude Code: hookd's
/// entries in that agent's hooks file, what the agent asks before it runs
/// them, and what switched off will keep it from running them at all
/// ([`connector::connect_warnings`]).
fn connect_agent(agent: &dyn Connector, args: &ConnectArgs, mode: connect::Mode) -> Result<()> {
    let (roots, _, project) = target::resolve(args.scope, Kind::Agent, args.project.as_deref())?;
    let location = agent.location(&roots, args.scope, project.as_deref())?;
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let report = agent.connect(&location, &emit, mode, args.dry_run)?;
    say_connected(
        &report,
        &format!(" ({}){}", agent.name(), mode_note(mode)),
        agent.events(mode).len(),
    );
    if args.dry_run {
        print_diff(
            &agent.preview_connect(&location, &emit, mode)?,
            &show(&location.path),
        );
    }
    warn_if_emit_missing(&report, &emit);
    if report.count > 0 {
        for note in agent.connect_notes(&location) {
            eprintln!("note: {note}");
        }
    }
    // Also when nothing changed, or in a dry run: the entries will not run.
    for warning in connector::connect_warnings(&roots, agent.agent(), project.as_deref()) {
        eprintln!("warning: {warning}");
    }
    Ok(())
}

/// The hooks file of `agent` for the flags, the project resolved as `hookd
/// hooks` resolves it.
fn agent_file(
    agent: &dyn Connector,
    scope: Scope,
    project: Option<&Path>,
) -> Result<SettingsLocation> {
    let (roots, _, project) = target::resolve(scope, Kind::Agent, project)?;
    Ok(agent.location(&roots, scope, project.as_deref())?)
}

/// The one line saying what a connect did (or would do) to its file.
fn say_connected(report: &ChangeReport, note: &str, total: usize) {
    let file = show(&report.path);
    let n = report.count;
    match &report.status {
        ChangeStatus::Written(outcome) if outcome.created => {
            println!(
                "Connected hookd{note} to {file}: created it with {}",
                groups(n)
            );
        }
        ChangeStatus::Written(outcome) => {
            let only = if n < total {
                format!(" ({})", report.events.join(", "))
            } else {
                String::new()
            };
            println!(
                "Connected hookd{note} to {file}: added {}{only}{}",
                groups(n),
                backup_note(outcome.backup.as_deref())
            );
        }
        ChangeStatus::WouldWrite { creates: true } => println!(
            "Dry run: would create {file} with {}: {}",
            groups(n),
            report.events.join(", ")
        ),
        ChangeStatus::WouldWrite { creates: false } => println!(
            "Dry run: would add {} to {file}: {}",
            groups(n),
            report.events.join(", ")
        ),
        ChangeStatus::Unchanged | ChangeStatus::Missing => {
            println!("Already connected: nothing to change in {file}");
        }
    }
}

fn mode_note(mode: connect::Mode) -> &'static str {
    match mode {
        connect::Mode::Record => "",
        connect::Mode::Managed => " (managed mode: hookd-emit --wait)",
    }
}

/// Removes hookd's hooks from the chosen settings file and says what changed.
pub fn disconnect(args: &DisconnectArgs) -> Result<()> {
    let (path, report, preview) = if let Some(agent) = connector::of(args.agent) {
        let location = agent_file(agent, args.scope, args.project.as_deref())?;
        (
            location.path.clone(),
            agent.disconnect(&location, args.dry_run)?,
            args.dry_run
                .then(|| agent.preview_disconnect(&location))
                .transpose()?,
        )
    } else {
        let location = settings_file(args.scope, args.project.as_deref())?;
        (
            location.path.clone(),
            connect::disconnect_at(&location, args.dry_run)?,
            args.dry_run
                .then(|| connect::preview_disconnect_at(&location))
                .transpose()?,
        )
    };
    let file = show(&path);
    let n = report.count;
    match &report.status {
        ChangeStatus::Written(outcome) => println!(
            "Disconnected hookd from {file}: removed {}{}",
            handlers(n),
            backup_note(outcome.backup.as_deref())
        ),
        ChangeStatus::WouldWrite { .. } => println!(
            "Dry run: would remove {} from {file}: {}",
            handlers(n),
            report.events.join(", ")
        ),
        ChangeStatus::Unchanged if !path.exists() => {
            println!("Nothing to do: {file} does not exist");
        }
        ChangeStatus::Unchanged => println!("Not connected: no hookd hooks in {file}"),
        ChangeStatus::Missing => println!("Nothing to do: {file} does not exist"),
    }
    if matches!(report.status, ChangeStatus::Written(_)) && !path.exists() {
        println!("Removed {file}: it held only hookd's entries");
    }
    if let Some(preview) = preview {
        print_diff(&preview, &file);
    }
    Ok(())
}

/// The unified diff a dry run would write, as the app's Connect dialog shows it.
pub(super) fn print_diff(preview: &connect::EditPreview, file: &str) {
    let text = |bytes: &Option<Vec<u8>>| {
        bytes
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    };
    let (before, after) = (text(&preview.before), text(&preview.after));
    if before != after {
        print!("{}", hookd_core::diff::unified(&before, &after, file, file));
    }
}

/// The agent's settings file for the flags, resolved exactly as `hookd
/// hooks` resolves `--scope` (`--project` with the global scope is refused).
fn settings_file(scope: Scope, project: Option<&Path>) -> Result<SettingsLocation> {
    let (_, location, _) = target::resolve(scope, Kind::Agent, project)?;
    Ok(location)
}

fn groups(n: usize) -> String {
    format!("{n} hook group{}", if n == 1 { "" } else { "s" })
}

fn handlers(n: usize) -> String {
    format!("{n} hookd handler{}", if n == 1 { "" } else { "s" })
}

/// Says when the hooks just added run an emitter that is not installed.
fn warn_if_emit_missing(report: &ChangeReport, emit: &str) {
    if report.count > 0 && !connect::emit_found(emit) {
        eprintln!(
            "warning: {emit} is not beside this hookd nor on PATH; the hooks will fail until it is installed (or pass --emit-command)"
        );
    }
}

fn warn_if_disabled(report: &ChangeReport) {
    if report.hooks_disabled {
        eprintln!(
            "warning: {} sets \"disableAllHooks\": true, so the agent runs no hooks (hookd's included) until it is removed",
            show(&report.path)
        );
    }
}
