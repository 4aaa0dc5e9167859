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
use anyhow::bail;
use clap::Args;
use hookd_core::AgentKind;
use hookd_core::settings::connect::{self, ChangeReport, ChangeStatus};
use hookd_core::settings::{Kind, Scope, SettingsLocation, copilot, cursor, gemini};

/// The `--agent` values.
const AGENTS: [&str; 5] = ["claude", "codex", "gemini", "cursor", "copilot"];

fn agent_parser() -> impl clap::builder::TypedValueParser<Value = AgentKind> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(AGENTS)
        .map(|name: String| AgentKind::parse(&name).unwrap_or(AgentKind::Claude))
}

/// The agents `connect` can edit the files of so far.
fn connectable(agent: AgentKind) -> Result<()> {
    match agent {
        AgentKind::Claude | AgentKind::Gemini | AgentKind::Cursor | AgentKind::Copilot => Ok(()),
        other => bail!(
            "hookd cannot connect {other} yet (claude, gemini, cursor and copilot so far); add `hookd-emit --agent {other} <event>` to its hooks by hand to record it (docs/agent-hooks.md)"
        ),
    }
}

/// Flags of `hookd connect`.
#[derive(Debug, Clone, Args)]
pub struct ConnectArgs {
    /// Whose settings to edit: claude (Claude Code), gemini (Gemini CLI:
    /// ~/.gemini/settings.json, or DIR/.gemini/settings.json with --scope
    /// project; recording only), cursor (Cursor: ~/.cursor/hooks.json, or
    /// DIR/.cursor/hooks.json with --scope project; recording only) or
    /// copilot (GitHub Copilot: hookd's own ~/.copilot/hooks/hookd.json, or
    /// DIR/.github/hooks/hookd.json with --scope project; recording only)
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), default_value = "claude")]
    pub agent: AgentKind,
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`; for gemini,
    /// cursor and copilot global (~/.gemini/settings.json,
    /// ~/.cursor/hooks.json, ~/.copilot/hooks/hookd.json) or project
    /// (DIR/.gemini/settings.json, DIR/.cursor/hooks.json,
    /// DIR/.github/hooks/hookd.json)
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
    /// PROJECT/.hookd/settings*.json, hot-reloaded); replaces recording-only entries.
    /// Without it, existing managed entries are switched back to recording only.
    #[arg(long)]
    pub managed: bool,
    /// Print what would change, with the diff of the file, without writing anything
    #[arg(long)]
    pub dry_run: bool,
}

/// Flags of `hookd disconnect`.
#[derive(Debug, Clone, Args)]
pub struct DisconnectArgs {
    /// Whose settings to edit: claude (Claude Code), gemini (Gemini CLI:
    /// ~/.gemini/settings.json or DIR/.gemini/settings.json), cursor
    /// (Cursor: ~/.cursor/hooks.json or DIR/.cursor/hooks.json) or copilot
    /// (GitHub Copilot: ~/.copilot/hooks/hookd.json or
    /// DIR/.github/hooks/hookd.json, removed when only hookd's entries were in it)
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), default_value = "claude")]
    pub agent: AgentKind,
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`; for gemini,
    /// cursor and copilot global (~/.gemini/settings.json,
    /// ~/.cursor/hooks.json, ~/.copilot/hooks/hookd.json) or project
    /// (DIR/.gemini/settings.json, DIR/.cursor/hooks.json,
    /// DIR/.github/hooks/hookd.json)
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
    connectable(args.agent)?;
    if args.agent == AgentKind::Gemini {
        return connect_gemini(args);
    }
    if args.agent == AgentKind::Cursor {
        return connect_cursor(args);
    }
    if args.agent == AgentKind::Copilot {
        return connect_copilot(args);
    }
    let location = settings_file(args.scope, args.project.as_deref())?;
    let path = location.path.clone();
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let mode = if args.managed {
        connect::Mode::Managed
    } else {
        connect::Mode::Record
    };
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

/// `hookd connect --agent gemini`: recording entries in Gemini CLI's file.
fn connect_gemini(args: &ConnectArgs) -> Result<()> {
    if args.managed {
        bail!(
            "--managed is not supported with --agent gemini yet: connect without it to record Gemini CLI's sessions (hookd-emit --wait --agent gemini answers in Gemini CLI's shape, if you add --wait to its entries by hand)"
        );
    }
    let location = gemini_file(args.scope, args.project.as_deref())?;
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let report = gemini::connect(&location, &emit, args.dry_run)?;
    say_connected(&report, " (Gemini CLI)", gemini::EVENTS.len());
    if args.dry_run {
        print_diff(
            &gemini::preview_connect(&location, &emit)?,
            &show(&location.path),
        );
    }
    warn_if_emit_missing(&report, &emit);
    if location.scope == Scope::Project && report.count > 0 {
        eprintln!(
            "note: Gemini CLI runs a project's hooks only in a trusted folder (it asks when it opens one)"
        );
    }
    Ok(())
}

/// `hookd connect --agent cursor`: recording entries in Cursor's hooks file.
fn connect_cursor(args: &ConnectArgs) -> Result<()> {
    if args.managed {
        bail!(
            "--managed is not supported with --agent cursor yet: connect without it to record Cursor's sessions"
        );
    }
    let location = cursor_file(args.scope, args.project.as_deref())?;
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let report = cursor::connect(&location, &emit, args.dry_run)?;
    say_connected(&report, " (Cursor)", cursor::EVENTS.len());
    if args.dry_run {
        print_diff(
            &cursor::preview_connect(&location, &emit)?,
            &show(&location.path),
        );
    }
    warn_if_emit_missing(&report, &emit);
    if location.scope == Scope::Project && report.count > 0 {
        eprintln!("note: Cursor runs a project's hooks only in a trusted workspace");
    }
    Ok(())
}

/// `hookd connect --agent copilot`: recording entries in hookd's own file
/// among GitHub Copilot's hooks files.
fn connect_copilot(args: &ConnectArgs) -> Result<()> {
    if args.managed {
        bail!(
            "--managed is not supported with --agent copilot yet: connect without it to record GitHub Copilot's sessions"
        );
    }
    let location = copilot_file(args.scope, args.project.as_deref())?;
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let report = copilot::connect(&location, &emit, args.dry_run)?;
    say_connected(&report, " (GitHub Copilot)", copilot::EVENTS.len());
    if args.dry_run {
        print_diff(
            &copilot::preview_connect(&location, &emit)?,
            &show(&location.path),
        );
    }
    warn_if_emit_missing(&report, &emit);
    Ok(())
}

/// hookd's GitHub Copilot hooks file for the flags.
fn copilot_file(scope: Scope, project: Option<&Path>) -> Result<SettingsLocation> {
    let (roots, _, project) = target::resolve(scope, Kind::Agent, project)?;
    Ok(copilot::location(&roots, scope, project.as_deref())?)
}

/// Cursor's hooks file for the flags, the project resolved as `hookd
/// hooks` resolves it.
fn cursor_file(scope: Scope, project: Option<&Path>) -> Result<SettingsLocation> {
    let (roots, _, project) = target::resolve(scope, Kind::Agent, project)?;
    Ok(cursor::location(&roots, scope, project.as_deref())?)
}

/// Gemini CLI's settings file for the flags, the project resolved as
/// `hookd hooks` resolves it.
fn gemini_file(scope: Scope, project: Option<&Path>) -> Result<SettingsLocation> {
    let (roots, _, project) = target::resolve(scope, Kind::Agent, project)?;
    Ok(gemini::location(&roots, scope, project.as_deref())?)
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
    connectable(args.agent)?;
    let location = match args.agent {
        AgentKind::Gemini => gemini_file(args.scope, args.project.as_deref())?,
        AgentKind::Cursor => cursor_file(args.scope, args.project.as_deref())?,
        AgentKind::Copilot => copilot_file(args.scope, args.project.as_deref())?,
        _ => settings_file(args.scope, args.project.as_deref())?,
    };
    let path = location.path.clone();
    let (report, preview) = if args.agent == AgentKind::Copilot {
        (
            copilot::disconnect(&location, args.dry_run)?,
            args.dry_run
                .then(|| copilot::preview_disconnect(&location))
                .transpose()?,
        )
    } else if args.agent == AgentKind::Cursor {
        (
            cursor::disconnect(&location, args.dry_run)?,
            args.dry_run
                .then(|| cursor::preview_disconnect(&location))
                .transpose()?,
        )
    } else {
        (
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
fn print_diff(preview: &connect::EditPreview, file: &str) {
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
