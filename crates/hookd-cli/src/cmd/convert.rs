//! `hookd hooks convert`: Claude Code hooks as another agent's hooks file,
//! with what degrades hook by hook ([`hookd_core::settings::convert`]).
//! The converted file goes to stdout (so `> hooks.json` keeps it), the
//! report to stderr; `--format json` prints both as one document.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use hookd_core::AgentKind;
use hookd_core::settings::convert::{Conversion, convert_settings};
use hookd_core::settings::{self, Kind, Scope, SettingsDocument, SettingsRoots};

use super::hooks::Format;
use super::show;
use super::target::{self, project_dir};

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
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&conversion)?),
        Format::Table => {
            println!("{}", serde_json::to_string_pretty(&conversion.document)?);
            eprint!("{}", report(&conversion, &show(&path)));
        }
    }
    Ok(())
}

/// The report for people: each hook, what it became, what was lost and
/// what to check.
fn report(conversion: &Conversion, from: &str) -> String {
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
