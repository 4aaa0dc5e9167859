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
use hookd_core::settings::connect::{self, ChangeReport, ChangeStatus};
use hookd_core::settings::{Kind, Scope, SettingsLocation};

/// Flags of `hookd connect`.
#[derive(Debug, Clone, Args)]
pub struct ConnectArgs {
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`
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
    /// Settings file to edit: global (~/.claude/settings.json; `user` is
    /// accepted too), project (DIR/.claude/settings.json) or local
    /// (DIR/.claude/settings.local.json), as in `hookd hooks`
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
    let location = settings_file(args.scope, args.project.as_deref())?;
    let path = location.path.clone();
    let emit = connect::emit_command_for(args.emit_command.as_deref(), location.scope)?;
    let mode = if args.managed {
        connect::Mode::Managed
    } else {
        connect::Mode::Record
    };
    let report = connect::connect_at(&location, &emit, mode, args.dry_run)?;
    let file = show(&path);
    let n = report.count;
    match &report.status {
        ChangeStatus::Written(outcome) if outcome.created => {
            println!(
                "Connected hookd{} to {file}: created it with {}",
                mode_note(mode),
                groups(n)
            );
        }
        ChangeStatus::Written(outcome) => {
            let only = if n < mode.hooks().len() {
                format!(" ({})", report.events.join(", "))
            } else {
                String::new()
            };
            println!(
                "Connected hookd{} to {file}: added {}{only}{}",
                mode_note(mode),
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
    if args.dry_run {
        print_diff(&connect::preview_connect_at(&location, &emit, mode)?, &file);
    }
    if report.count > 0 && !connect::emit_found(&emit) {
        eprintln!(
            "warning: {emit} is not beside this hookd nor on PATH; the hooks will fail until it is installed (or pass --emit-command)"
        );
    }
    warn_if_disabled(&report);
    Ok(())
}

fn mode_note(mode: connect::Mode) -> &'static str {
    match mode {
        connect::Mode::Record => "",
        connect::Mode::Managed => " (managed mode: hookd-emit --wait)",
    }
}

/// Removes hookd's hooks from the chosen settings file and says what changed.
pub fn disconnect(args: &DisconnectArgs) -> Result<()> {
    let location = settings_file(args.scope, args.project.as_deref())?;
    let path = location.path.clone();
    let report = connect::disconnect_at(&location, args.dry_run)?;
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
        ChangeStatus::Unchanged => println!("Not connected: no hookd hooks in {file}"),
        ChangeStatus::Missing => println!("Nothing to do: {file} does not exist"),
    }
    if args.dry_run {
        print_diff(&connect::preview_disconnect_at(&location)?, &file);
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

fn warn_if_disabled(report: &ChangeReport) {
    if report.hooks_disabled {
        eprintln!(
            "warning: {} sets \"disableAllHooks\": true, so the agent runs no hooks (hookd's included) until it is removed",
            show(&report.path)
        );
    }
}
