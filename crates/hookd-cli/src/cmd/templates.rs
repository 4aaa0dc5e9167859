//! `hookd templates`: list, show, install and uninstall the ready-made hooks
//! of the catalog embedded in hookd (`hooks-templates/`).
//!
//! All catalog reading and every edit live in [`hookd_core::settings::templates`];
//! this file turns flags into a settings location and reports into lines.

use std::path::PathBuf;

use super::target::{self, project_dir};
use super::{backup_note, show};
use anyhow::Result;
use clap::{Args, Subcommand};
use hookd_core::settings::connect;
use hookd_core::settings::templates::{
    self, Catalog, ChangeReport, FileChange, Installation, Template,
};
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};
use serde_json::json;

/// Flags of `hookd templates`.
#[derive(Debug, Args)]
pub struct TemplatesArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TemplatesCommand,
}

/// The subcommands of `hookd templates`.
#[derive(Debug, Subcommand)]
pub enum TemplatesCommand {
    /// List the templates in hookd's catalog with their events, where each is installed for
    /// the project (scope/kind, and what is missing when incomplete) and a one-line
    /// description.
    List(ListArgs),
    /// Show one template: what it does, its hooks (event, matcher, command, timeout), what
    /// it needs and where it runs.
    Show(ShowArgs),
    /// Install a template: copy its script (mode 0755) to DIR/.hookd/hooks/ (project scope,
    /// committed), DIR/.hookd/hooks-local/ (local) or ~/.hookd/hooks/ (global) and add its
    /// hooks to one settings file, touching nothing else. Installing twice changes nothing.
    Install(TargetArgs),
    /// Remove exactly the hooks `install` added (with the same flags), and the script once
    /// no settings file sharing its hooks directory runs it.
    Uninstall(TargetArgs),
}

/// Flags of `hookd templates list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print the catalog as JSON, each template with an `installed` list
    #[arg(long)]
    pub json: bool,
    /// Project whose settings files are searched for installed templates; its git root is
    /// used if it is inside a repository [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// Flags of `hookd templates show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The template's name (see `hookd templates list`)
    pub name: String,
    /// Print the template as JSON
    #[arg(long)]
    pub json: bool,
    /// Print the script's source as well
    #[arg(long)]
    pub script: bool,
}

/// Flags of `hookd templates install` and `uninstall`.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// The template's name (see `hookd templates list`)
    pub name: String,
    /// Which settings file: global (or user), project or local
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "project")]
    pub scope: Scope,
    /// Who runs the hook: agent (Claude Code) or managed (hookd's daemon)
    #[arg(long, value_name = "KIND", value_parser = target::kind_parser(), default_value = "managed")]
    pub kind: Kind,
    /// Project directory for the project and local scopes; its git root is used if it is
    /// inside a repository [default: the current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// Runs `hookd templates`.
pub fn run(args: &TemplatesArgs) -> Result<()> {
    let catalog = Catalog::embedded()?;
    match &args.command {
        TemplatesCommand::List(a) => list(&catalog, a),
        TemplatesCommand::Show(a) => show_template(catalog.get(&a.name)?, a),
        TemplatesCommand::Install(a) => install(catalog.get(&a.name)?, a),
        TemplatesCommand::Uninstall(a) => uninstall(catalog.get(&a.name)?, a),
    }
}

fn list(catalog: &Catalog, args: &ListArgs) -> Result<()> {
    let project = project_dir(args.project.as_deref())?;
    let roots = SettingsRoots::from_env()?;
    let report = templates::installed(catalog, &roots, Some(&project))?;
    // A broken file hides only its own answers: the list goes on, and says
    // which file it could not read.
    for bad in &report.unreadable {
        eprintln!(
            "warning: {}; templates installed in that {}/{} file are not listed",
            bad.reason, bad.scope, bad.kind
        );
    }
    let found = report.found;
    let of = |t: &Template| -> Vec<&Installation> {
        found.iter().filter(|i| i.template == t.name).collect()
    };
    if args.json {
        let mut items = Vec::new();
        for t in &catalog.templates {
            let mut value = serde_json::to_value(t)?;
            if let Some(obj) = value.as_object_mut() {
                obj.insert("installed".into(), serde_json::to_value(of(t))?);
            }
            items.push(value);
        }
        println!("{}", serde_json::to_string_pretty(&items)?);
        return Ok(());
    }
    let rows: Vec<[String; 4]> = catalog
        .templates
        .iter()
        .map(|t| {
            [
                t.name.clone(),
                events(t),
                installed_cell(&of(t)),
                t.description.clone(),
            ]
        })
        .collect();
    let header = ["NAME", "EVENTS", "INSTALLED", "DESCRIPTION"].map(str::to_owned);
    let width = |i: usize| {
        std::iter::once(&header)
            .chain(&rows)
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    for [name, events, installed, description] in std::iter::once(&header).chain(&rows) {
        println!("{name:w0$}  {events:w1$}  {installed:w2$}  {description}");
    }
    Ok(())
}

/// `project/managed, global/agent (incomplete: script …)`, or `-`.
fn installed_cell(found: &[&Installation]) -> String {
    if found.is_empty() {
        return "-".to_owned();
    }
    found
        .iter()
        .map(|i| {
            let place = format!("{}/{}", i.scope, i.kind);
            if i.complete {
                place
            } else {
                format!("{place} (incomplete: {})", i.missing.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn events(t: &Template) -> String {
    let mut names: Vec<&str> = Vec::new();
    for h in &t.hooks {
        if !names.contains(&h.event.as_str()) {
            names.push(&h.event);
        }
    }
    if names.len() > 2 {
        format!("{} events", names.len())
    } else {
        names.join(",")
    }
}

fn show_template(t: &Template, args: &ShowArgs) -> Result<()> {
    let source = t
        .script
        .as_deref()
        .and_then(templates::script_bytes)
        .map(|b| String::from_utf8_lossy(b).into_owned());
    if args.json {
        let mut value = serde_json::to_value(t)?;
        if args.script
            && let Some(obj) = value.as_object_mut()
        {
            obj.insert("source".into(), json!(source));
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    println!("{}: {}", t.name, t.description);
    match (&t.script, &t.connect) {
        (Some(script), _) => println!(
            "script:    {script} (copied to .hookd/hooks/, .hookd/hooks-local/ or ~/.hookd/hooks/)"
        ),
        (None, Some(_)) => {
            println!("installs:  the hookd-emit hooks of `hookd connect` (agent kind only)");
        }
        (None, None) => {}
    }
    println!("requires:  {}", t.requires.join(", "));
    println!("platforms: {}", t.platforms.join(", "));
    println!("hooks:");
    for h in &t.hooks {
        let matcher = h
            .matcher
            .as_deref()
            .map(|m| format!(" matcher {m:?}"))
            .unwrap_or_default();
        let timeout = h
            .timeout
            .map(|s| format!(" timeout {s}s"))
            .unwrap_or_default();
        println!("  {}{matcher}: {}{timeout}", h.event, h.command);
    }
    if args.script
        && let Some(source) = source
    {
        println!("\n{source}");
    }
    Ok(())
}

/// The settings location, the roots and the project root for the flags.
fn target(args: &TargetArgs) -> Result<(SettingsRoots, SettingsLocation, Option<PathBuf>)> {
    target::resolve(args.scope, args.kind, args.project.as_deref())
}

fn where_(location: &SettingsLocation) -> String {
    format!(
        "{} ({}, {} scope)",
        show(&location.path),
        location.kind,
        location.scope
    )
}

fn script_note(report: &ChangeReport) -> String {
    let Some(path) = &report.script else {
        return String::new();
    };
    let what = match report.script_change {
        FileChange::Created => "copied to",
        FileChange::Updated => "updated at",
        FileChange::Unchanged => "kept at",
        FileChange::Removed => "removed from",
        FileChange::Absent => "not found at",
    };
    format!("; script {what} {}", show(path))
}

fn install(t: &Template, args: &TargetArgs) -> Result<()> {
    let (roots, location, project) = target(args)?;
    let report = templates::install(t, &roots, &location, project.as_deref())?;
    if report.unchanged() {
        println!(
            "{} is already installed in {}; nothing changed",
            t.name,
            where_(&location)
        );
    } else {
        println!(
            "Installed {} into {}: added {}{}{}",
            t.name,
            where_(&location),
            if report.handlers.is_empty() {
                "no hook (already there)".to_owned()
            } else {
                report.handlers.join(", ")
            },
            script_note(&report),
            backup_note(report.write.as_ref().and_then(|w| w.backup.as_deref()))
        );
    }
    if report.gitignore_changed
        && let Some(project) = &project
    {
        let ignore = show(&project.join(".hookd/.gitignore"));
        if location.scope == Scope::Project {
            println!(
                "Updated {ignore}: .hookd/hooks/ and settings.json can be committed; the ledger, local settings and .hookd/hooks-local/ stay out of git"
            );
        } else {
            println!("Wrote {ignore}: .hookd/ stays out of git");
        }
    }
    for program in &t.requires {
        if program != connect::EMIT_PROGRAM && !connect::emit_found(program) {
            eprintln!(
                "hookd: warning: {} needs {program}, which is not on PATH",
                t.name
            );
        }
    }
    if location.kind == Kind::Managed {
        warn_idle(t, &roots, &location, project.as_deref())?;
    }
    Ok(())
}

/// After installing a managed template: says so when its hooks will not
/// run for this project (a guard that guards nothing must not look like
/// one), and how to change that.
fn warn_idle(
    t: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&std::path::Path>,
) -> Result<()> {
    for reason in templates::idle(t, roots, location, project)?.reasons {
        eprintln!(
            "hookd: warning: {} does not run for this project yet: {}",
            t.name, reason.message
        );
    }
    Ok(())
}

fn uninstall(t: &Template, args: &TargetArgs) -> Result<()> {
    let (roots, location, project) = target(args)?;
    let report = templates::uninstall(t, &roots, &location, project.as_deref())?;
    if report.handlers.is_empty() && report.write.is_none() {
        println!(
            "{} is not installed in {}; no hook removed{}",
            t.name,
            where_(&location),
            script_note(&report)
        );
    } else {
        let kept = if report.script_change == FileChange::Unchanged {
            " (another settings file still runs it)"
        } else {
            ""
        };
        println!(
            "Uninstalled {} from {}: removed {}{}{kept}{}",
            t.name,
            where_(&location),
            report.handlers.join(", "),
            script_note(&report),
            backup_note(report.write.as_ref().and_then(|w| w.backup.as_deref()))
        );
    }
    Ok(())
}
