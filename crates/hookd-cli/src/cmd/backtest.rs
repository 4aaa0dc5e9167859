//! `hookd hooks backtest`: run a draft hook, or a settings file as it would
//! be saved, over the project's last recorded events and show what it would
//! have decided differently ([`hookd_core::executor::backtest`]). Opt-in and
//! bounded; the hooks see `HOOKD_BACKTEST=1`; no agent gets an answer.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Args;
use hookd_core::executor::backtest::{self, BacktestLimits, BacktestReport, Draft};
use hookd_core::settings::{self, Kind, Scope, SettingsDocument, SettingsRoots};
use serde_json::Value;

use super::hooks::Format;
use super::show;
use super::target::{self, project_dir};

/// Flags of `hookd hooks backtest`.
#[derive(Debug, Args)]
pub struct BacktestArgs {
    /// The draft: a settings file as it would be saved, standing in for the file of --kind
    /// and --scope (give either this or --event and --command)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["event", "command"])]
    pub draft: Option<PathBuf>,
    /// The draft: one hook added to the file of --kind and --scope, on this event
    #[arg(long, value_name = "EVENT", requires = "command")]
    pub event: Option<String>,
    /// Matcher of the added hook's group [default: everything]
    #[arg(long, value_name = "MATCHER", requires = "event")]
    pub matcher: Option<String>,
    /// Shell command of the added hook
    #[arg(long, value_name = "CMD", requires = "event")]
    pub command: Option<String>,
    /// Settings file the draft is for: global (or user), project or local
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "project")]
    pub scope: Scope,
    /// Kind of that file: managed or agent
    #[arg(long, value_name = "KIND", value_parser = target::kind_parser(), default_value = "managed")]
    pub kind: Kind,
    /// Project directory (its git root is used) [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// How many of the newest recorded events to replay
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub last: usize,
    /// Events replayed at once
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Longest any one hook may run, in seconds
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub hook_timeout: f64,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Replays the project's last events against the draft and prints the differences.
pub fn run(args: &BacktestArgs) -> Result<()> {
    let project = project_dir(args.project.as_deref())?;
    let roots = SettingsRoots::from_env()?;
    let location = roots.location(args.kind, args.scope, Some(&project))?;
    let draft = match (&args.draft, &args.event, &args.command) {
        (Some(file), _, _) => {
            // Checked here too, so an error names the file the user gave.
            let doc = SettingsDocument::load_file(file)?;
            let errors = doc.errors();
            if !errors.is_empty() {
                bail!(
                    "{}",
                    settings::SettingsError::Invalid {
                        path: file.clone(),
                        errors
                    }
                );
            }
            Draft::File(doc.value().clone())
        }
        (None, Some(event), Some(command)) => Draft::Hook {
            event: event.clone(),
            matcher: args.matcher.clone(),
            command: command.clone(),
        },
        _ => bail!("give the draft: --draft FILE, or --event and --command"),
    };
    if !(args.hook_timeout.is_finite() && args.hook_timeout > 0.0) {
        bail!("--hook-timeout must be a positive number of seconds");
    }
    let prepared = backtest::prepare(&roots, &project, &location, &draft, args.last)?;
    let limits = BacktestLimits {
        events: args.last,
        jobs: args.jobs.max(1),
        timeout: Duration::from_secs_f64(args.hook_timeout),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(limits.jobs.clamp(1, 4))
        .enable_all()
        .build()
        .context("cannot start the runtime to run hooks")?;
    // A long replay says how far it is on a terminal; piped output stays clean.
    let terminal = std::io::stderr().is_terminal();
    let report = runtime.block_on(backtest::backtest(
        prepared.recorded,
        &project,
        &prepared.current,
        &prepared.draft,
        limits,
        |p| {
            if terminal {
                eprint!("\r{} of {} events replayed", p.replayed, p.events);
                if p.replayed == p.events {
                    eprintln!();
                }
            }
        },
    ));
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Table => print(&report, &location.path),
    }
    Ok(())
}

fn print(report: &BacktestReport, file: &std::path::Path) {
    let span = report
        .span
        .as_ref()
        .map(|(a, b)| format!(" ({a} to {b})"))
        .unwrap_or_default();
    println!(
        "Replayed {} recorded event{}{span} against the draft of {}: the changed hooks matched {} of them ({} run{}, HOOKD_BACKTEST=1, no answer sent to any agent).",
        report.events,
        if report.events == 1 { "" } else { "s" },
        show(file),
        report.matched,
        report.runs,
        if report.runs == 1 { "" } else { "s" },
    );
    if report.changes.is_empty() {
        println!("The draft decides nothing differently on these events.");
        return;
    }
    for change in &report.changes {
        let what = |d: &Option<String>| d.clone().unwrap_or_else(|| "nothing".to_owned());
        let mut line = format!(
            "  {} {}{}: {} -> {}",
            change.timestamp,
            change.event,
            change
                .tool_name
                .as_deref()
                .map(|t| format!(" {t}"))
                .unwrap_or_default(),
            if change.before.is_none() && change.before_unknown {
                "unknown (not recorded)".to_owned()
            } else {
                what(&change.before)
            },
            what(&change.after)
        );
        if let Some(subject) = &change.subject {
            line.push_str(&format!(" [{subject}]"));
        }
        if let Some(reason) = &change.reason {
            line.push_str(&format!(": {reason}"));
        }
        println!("{line}");
        if let Some(input) = &change.rewritten_input {
            println!("      rewrites the input to {}", Value::to_string(input));
        }
        for failure in &change.failures {
            println!("      would fail: {failure}");
        }
    }
    println!(
        "{} event{} decided differently.",
        report.changes.len(),
        if report.changes.len() == 1 { "" } else { "s" }
    );
}
