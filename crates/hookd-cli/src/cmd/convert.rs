//! `hookd hooks convert`: Claude Code hooks as another agent's hooks file,
//! with what degrades hook by hook ([`hookd_core::settings::convert`]).
//! The converted file goes to stdout (so `> hooks.json` keeps it), the
//! report to stderr; `--format json` prints both as one document. With
//! `--write` the converted hooks go into the agent's own file instead
//! ([`hookd_core::settings::converted`]), after what it holds.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use hookd_core::AgentKind;
use hookd_core::settings::connect::ChangeStatus;
use hookd_core::settings::convert::{Conversion, convert_settings};
use hookd_core::settings::{self, Kind, Scope, SettingsDocument, SettingsRoots};
use hookd_core::settings::{connector, converted};

use super::connect::print_diff;
use super::hooks::Format;
use super::target::{self, project_dir};
use super::{backup_note, show};

/// Flags of `hookd hooks convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Whose hooks to read: claude (Claude Code's settings; the only one so far)
    #[arg(long, value_name = "AGENT", value_parser = target::agent_kind_parser(), default_value = "claude")]
    pub from: AgentKind,
    /// Whose hooks file to produce: codex (hooks.json), gemini (the hooks of
    /// settings.json), cursor (.cursor/hooks.json) or copilot (.github/hooks/*.json)
    #[arg(long, value_name = "AGENT", value_parser = target::agent_kind_parser())]
    pub to: AgentKind,
    /// A Claude Code settings file to convert, instead of the file of --kind and --scope
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Settings file to convert when no FILE is given: global (or user), project or local
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), default_value = "project", conflicts_with = "file")]
    pub scope: Scope,
    /// Kind of that file: agent (Claude Code's own hooks) or managed (hookd's)
    #[arg(long, value_name = "KIND", value_parser = target::kind_parser(), default_value = "agent", conflicts_with = "file")]
    pub kind: Kind,
    /// Project directory for --scope project/local (its git root is used) [default: the
    /// current directory]
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub project: Option<PathBuf>,
    /// Output: table (the converted file on stdout, the report on stderr) or json (both
    /// on stdout)
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the converted hooks into the agent's own hooks file (after the hooks it
    /// holds, each only once; Copilot gets claude-hooks.json in its hooks directory)
    /// instead of printing the file; the report still goes to stderr
    #[arg(long)]
    pub write: bool,
    /// With --write: which of the agent's files, global or project [default: global for
    /// --scope global, else project]
    #[arg(long, value_name = "SCOPE", value_parser = target::scope_parser(), requires = "write")]
    pub into: Option<Scope>,
    /// With --write: print what would change, with the diff, without writing anything
    #[arg(long, requires = "write")]
    pub dry_run: bool,
}

/// Converts and prints.
pub fn run(args: &ConvertArgs) -> Result<()> {
    if args.from != AgentKind::Claude {
        bail!(
            "hookd converts from claude only so far (--from {}): convert Claude Code's hooks to another agent's file",
            args.from
        );
    }
    if args.to == AgentKind::Claude {
        bail!("--to claude: these are Claude Code's hooks already; name another agent");
    }
    let (path, doc) = match &args.file {
        Some(file) => (file.clone(), SettingsDocument::load_file(file)?),
        None => {
            let roots = SettingsRoots::from_env()?;
            let project = match args.scope {
                Scope::Global => None,
                _ => Some(project_dir(args.project.as_deref())?),
            };
            let location = roots.location(args.kind, args.scope, project.as_deref())?;
            if !location.path.exists() {
                bail!(
                    "{} does not exist: there are no hooks to convert",
                    show(&location.path)
                );
            }
            (location.path.clone(), SettingsDocument::load(&location)?)
        }
    };
    let errors = doc.errors();
    if !errors.is_empty() {
        bail!("{}", settings::SettingsError::Invalid { path, errors });
    }
    let conversion = convert_settings(doc.value(), args.to);
    if args.write {
        return write(args, &conversion, &show(&path));
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&conversion)?),
        Format::Table => {
            println!("{}", serde_json::to_string_pretty(&conversion.document)?);
            eprint!("{}", report_text(&conversion, &show(&path)));
        }
    }
    Ok(())
}

/// `--write`: the conversion merged into the agent's file, what changed
/// said on stdout, the report on stderr.
fn write(args: &ConvertArgs, conversion: &Conversion, from: &str) -> Result<()> {
    let into = args.into.unwrap_or(match (args.scope, &args.file) {
        (Scope::Global, None) => Scope::Global,
        _ => Scope::Project,
    });
    let (roots, _, project) = target::resolve(into, Kind::Agent, args.project.as_deref())?;
    let Some(location) = converted::location(args.to, &roots, into, project.as_deref()) else {
        bail!("--to claude: these are Claude Code's hooks already; name another agent");
    };
    let location = location?;
    let file = show(&location.path);
    let report = converted::write(conversion, &location, args.dry_run)?;
    let n = report.count;
    let flat = matches!(args.to, AgentKind::Cursor | AgentKind::Copilot);
    let what = match (flat, n == 1) {
        (true, true) => format!("{n} converted entry"),
        (true, false) => format!("{n} converted entries"),
        (false, true) => format!("{n} converted hook group"),
        (false, false) => format!("{n} converted hook groups"),
    };
    match &report.status {
        ChangeStatus::Written(outcome) if outcome.created => {
            println!("Wrote {file}: created it with {what}");
        }
        ChangeStatus::Written(outcome) => println!(
            "Wrote {file}: added {what}{}",
            backup_note(outcome.backup.as_deref())
        ),
        ChangeStatus::WouldWrite { creates } => println!(
            "Dry run: would {} {file} with {what}: {}",
            if *creates { "create" } else { "add to" },
            report.events.join(", ")
        ),
        ChangeStatus::Unchanged | ChangeStatus::Missing => {
            println!("Nothing to add: {file} holds every converted hook already");
        }
    }
    if args.dry_run {
        print_diff(&converted::preview(conversion, &location)?, &file);
    }
    if n > 0
        && let Some(agent) = connector::of(args.to)
    {
        for note in agent.connect_notes(&location) {
            eprintln!("note: {note}");
        }
    }
    eprint!("{}", report_text(conversion, from));
    Ok(())
}

/// The report for people: each hook, what it became, what was lost and
/// what to check.
fn report_text(conversion: &Conversion, from: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let converted = conversion.hooks.len() - conversion.left_out();
    let _ = writeln!(
        out,
        "{converted} of {} hooks of {from} converted to {}{}",
        conversion.hooks.len(),
        conversion.agent,
        match conversion.left_out() {
            0 => String::new(),
            n => format!("; {n} left out"),
        }
    );
    for hook in &conversion.hooks {
        let matcher = hook.matcher.as_deref().unwrap_or("(every)");
        let target = match (&hook.target_event, &hook.target_matcher) {
            (Some(event), Some(m)) => format!("{event} {m}"),
            (Some(event), None) => event.clone(),
            (None, _) => "left out".to_owned(),
        };
        let _ = writeln!(out, "{} {matcher}: {} -> {target}", hook.event, hook.runs);
        for lost in &hook.lost {
            let _ = writeln!(out, "  lost: {lost}");
        }
        for check in &hook.check {
            let _ = writeln!(out, "  check: {check}");
        }
    }
    out
}
