//! `hookd doctor`: the health of a project's hooks, from its settings files
//! and its ledger ([`hookd_core::health`]). Exits 1 when a serious problem
//! is found, so it can gate a script or CI job.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use hookd_core::health::{self, HealthInputs, HealthReport, Severity};
use hookd_core::settings::SettingsRoots;

use super::show;
use super::target::project_dir;

/// Flags of `hookd doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Project directory (its git root is used) [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// How many days of the ledger's hook runs and events to look at
    #[arg(long, value_name = "N", default_value_t = health::DEFAULT_DAYS)]
    pub days: u32,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How the report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Findings grouped by severity, then the managed hooks' evidence.
    Text,
    /// The whole report as JSON.
    Json,
}

/// Checks the project's hooks and prints what was found.
pub fn run(args: &DoctorArgs) -> Result<()> {
    let project = project_dir(args.project.as_deref())?;
    let inputs = HealthInputs::for_project(SettingsRoots::from_env()?, &project, args.days);
    let report = health::check(&inputs)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => print(&report),
    }
    let serious = report.count(Severity::Serious);
    if serious > 0 {
        bail!(
            "{serious} serious problem{} with the hooks of {}",
            if serious == 1 { "" } else { "s" },
            show(&report.project)
        );
    }
    Ok(())
}

fn print(report: &HealthReport) {
    println!("Hooks of {}", show(&report.project));
    if report.findings.is_empty() {
        println!("  no problem found");
    }
    for finding in &report.findings {
        let label = match finding.severity {
            Severity::Serious => "SERIOUS",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        match &finding.hook {
            Some(hook) => println!(
                "  {label}: {} {} hook {:?}{} in {}: {}",
                hook.kind,
                hook.event,
                hook.runs,
                hook.matcher
                    .as_deref()
                    .map(|m| format!(" (matcher {m:?})"))
                    .unwrap_or_default(),
                show(&hook.path),
                finding.message
            ),
            None => println!("  {label}: {}", finding.message),
        }
    }
    if !report.evidence.is_empty() {
        println!("Managed hooks since {}:", report.since);
        for e in &report.evidence {
            println!(
                "  {} {:?}: {} run{}, {} failed, {} timed out, p95 {:.0} ms{}",
                e.hook.event,
                e.hook.runs,
                e.runs,
                if e.runs == 1 { "" } else { "s" },
                e.failed,
                e.timed_out,
                e.p95_ms,
                e.last_run
                    .as_deref()
                    .map(|t| format!(", last {t}"))
                    .unwrap_or_default()
            );
        }
    }
    println!(
        "Last event recorded: {}; last agent session: {}",
        report.last_event.as_deref().unwrap_or("none"),
        report.last_session.as_deref().unwrap_or("none seen")
    );
    println!(
        "{} serious, {} warnings, {} notes (the agent's own hooks run inside the agent: hookd sees no runs of them)",
        report.count(Severity::Serious),
        report.count(Severity::Warning),
        report.count(Severity::Info)
    );
}
