//! `hookd rewind`: undo recorded agent changes (one tool call, a session,
//! an agent's, everything since a time, or one file back to a point),
//! keeping every later change, and `hookd show`: a file as it was at a
//! recorded point. The rules are hookd-core's (`hookd_core::rewind`); this
//! module parses flags and prints.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::{Args, ValueEnum};
use hookd_core::rewind::{OnConflict, Outcome, Plan, RewindRepo, Target};
use hookd_core::timefmt;

/// `hookd rewind`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["call", "prompt", "session", "agent", "since", "file", "undo"])))]
pub struct RewindArgs {
    /// The repository (any directory inside it).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,
    /// Undo one tool call's changes (its `tool_use_id`).
    #[arg(long, value_name = "TOOL_USE_ID")]
    pub call: Option<String>,
    /// Undo one prompt's changes: from its UserPromptSubmit to the session's next
    /// (the event's id, or the payload's `prompt_id`).
    #[arg(long, value_name = "ID")]
    pub prompt: Option<String>,
    /// Undo everything one session changed.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Undo everything one agent changed.
    #[arg(long, value_name = "ID")]
    pub agent: Option<String>,
    /// Undo everything changed since a time (RFC 3339, or a duration ago: `2h`).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Put one file back as it was at `--to`.
    #[arg(long, value_name = "PATH", requires = "to")]
    pub file: Option<PathBuf>,
    /// With `--file`: a time (RFC 3339 or `2h`), or a tool call id (the file as that call left it).
    #[arg(long, value_name = "WHEN|TOOL_USE_ID")]
    pub to: Option<String>,
    /// Undo a rewind (its id, printed when it was applied; the newest by default).
    #[arg(long, value_name = "REWIND_ID", num_args = 0..=1, default_missing_value = "")]
    pub undo: Option<String>,
    /// Write the changes (without it, the plan is only printed: a dry run).
    #[arg(long)]
    pub apply: bool,
    /// What to do with a file whose revert overlaps later changes.
    #[arg(long, value_enum, default_value_t = Conflicts::Refuse)]
    pub conflicts: Conflicts,
    /// How to print the plan (and what was applied).
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
}

/// `--format` of `hookd rewind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// Per file, a mark and the unified diff, for people.
    Text,
    /// One JSON object: the files (path, action, changes, diff, why) and, with --apply, what was done.
    Json,
}

/// `--conflicts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Conflicts {
    /// Write nothing at all while a file conflicts.
    Refuse,
    /// Leave conflicting files as they are; write the others.
    Skip,
    /// Write conflicting files with git's conflict markers, to resolve by hand.
    Markers,
}

/// `hookd show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The file.
    pub file: PathBuf,
    /// A time (RFC 3339 or `2h`), or a tool call id (the file as that call left it).
    #[arg(long, value_name = "WHEN|TOOL_USE_ID")]
    pub at: String,
    /// The repository (any directory inside it); by default the file's.
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
}

/// `hookd diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The file.
    pub file: PathBuf,
    /// The first point: a time (RFC 3339 or `2h`), or a tool call id (the file as that call left it).
    #[arg(long, value_name = "WHEN|TOOL_USE_ID")]
    pub from: String,
    /// The second point, as `--from`; the file on disk now by default.
    #[arg(long, value_name = "WHEN|TOOL_USE_ID")]
    pub to: Option<String>,
    /// The repository (any directory inside it); by default the file's.
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
}

/// Runs `hookd rewind`.
pub fn run(args: &RewindArgs) -> Result<()> {
    crate::cmd::init_logging("warn");
    let mut repo = RewindRepo::open(&args.repo)?;
    let target = target(args, &repo)?;
    let plan = repo.plan(&target)?;
    let mut out = std::io::stdout().lock();
    if args.format == PlanFormat::Json {
        let applied = if args.apply {
            Some(repo.apply(&plan, on_conflict(args.conflicts))?)
        } else {
            None
        };
        serde_json::to_writer_pretty(&mut out, &plan_json(&plan, applied.as_ref()))?;
        writeln!(out)?;
        return Ok(());
    }
    print_plan(&mut out, &plan)?;
    if !args.apply {
        writeln!(
            out,
            "\nDry run: nothing was written. Run again with --apply to write these changes."
        )?;
        return Ok(());
    }
    let applied = repo.apply(&plan, on_conflict(args.conflicts)).map_err(|err| match err {
        hookd_core::rewind::RewindError::Conflict { .. } => anyhow::Error::new(err).context(
            "a file conflicts: --conflicts markers writes it with conflict markers, --conflicts skip leaves it",
        ),
        other => other.into(),
    })?;
    writeln!(
        out,
        "\nApplied: {} written, {} deleted, {} with conflict markers, {} skipped.",
        applied.written.len(),
        applied.deleted.len(),
        applied.marked.len(),
        applied.skipped.len()
    )?;
    writeln!(
        out,
        "Recorded as {}; `hookd rewind --undo {}` puts back what it replaced.",
        applied.rewind_id, applied.rewind_id
    )?;
    Ok(())
}

fn on_conflict(conflicts: Conflicts) -> OnConflict {
    match conflicts {
        Conflicts::Refuse => OnConflict::Refuse,
        Conflicts::Skip => OnConflict::Skip,
        Conflicts::Markers => OnConflict::Markers,
    }
}

/// The plan as `--format json` prints it.
fn plan_json(plan: &Plan, applied: Option<&hookd_core::rewind::Applied>) -> serde_json::Value {
    let files: Vec<serde_json::Value> = plan
        .files
        .iter()
        .map(|file| {
            let now = file.now.as_deref().map(String::from_utf8_lossy);
            let (action, diff, why) = match &file.outcome {
                Outcome::Unchanged => ("unchanged", None, None),
                Outcome::Write(new) => (
                    if file.now.is_some() {
                        "modify"
                    } else {
                        "create"
                    },
                    Some(hookd_core::diff::unified(
                        now.as_deref().unwrap_or(""),
                        &String::from_utf8_lossy(new),
                        &format!("a/{}", file.path),
                        &format!("b/{}", file.path),
                    )),
                    None,
                ),
                Outcome::Delete => ("delete", None, None),
                Outcome::Conflict { why, .. } => ("conflict", None, Some(why.clone())),
                Outcome::NotRestorable { why } => ("not_restorable", None, Some(why.clone())),
            };
            serde_json::json!({
                "path": file.path,
                "action": action,
                "changes": file.changes,
                "diff": diff,
                "why": why,
                "derived": file.derived,
            })
        })
        .collect();
    serde_json::json!({
        "root": plan.root,
        "reverted": plan.reverted(),
        "files": files,
        "applied": applied.map(|a| serde_json::json!({
            "rewind_id": a.rewind_id,
            "written": a.written,
            "deleted": a.deleted,
            "marked": a.marked,
            "skipped": a.skipped,
        })),
    })
}

fn target(args: &RewindArgs, repo: &RewindRepo) -> Result<Target> {
    if let Some(call) = &args.call {
        return Ok(Target::Call(call.clone()));
    }
    if let Some(prompt) = &args.prompt {
        return Ok(Target::Prompt(prompt.clone()));
    }
    if let Some(session) = &args.session {
        return Ok(Target::Session(session.clone()));
    }
    if let Some(agent) = &args.agent {
        return Ok(Target::Agent(agent.clone()));
    }
    if let Some(since) = &args.since {
        let time = timefmt::parse_time_bound(since, chrono::Utc::now()).context("--since")?;
        return Ok(Target::Since(timefmt::format(time)));
    }
    if let (Some(file), Some(to)) = (&args.file, &args.to) {
        let path = repo.stored_path(file, &current_dir()?);
        return Ok(repo.file_target(&path, to)?);
    }
    if let Some(undo) = &args.undo {
        let id = if undo.is_empty() {
            repo.last_rewind()?
                .context("no rewind is recorded in this repository")?
        } else {
            undo.clone()
        };
        return Ok(Target::Call(id));
    }
    bail!(
        "say what to rewind: --call, --prompt, --session, --agent, --since, --file with --to, or --undo"
    )
}

fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

fn print_plan(out: &mut impl std::io::Write, plan: &Plan) -> Result<()> {
    writeln!(
        out,
        "Rewind of {} change(s) in {} file(s), {}:",
        plan.reverted().len(),
        plan.files.len(),
        plan.root.display()
    )?;
    for file in &plan.files {
        let changes = file.changes.len();
        let now = file.now.as_deref().map(String::from_utf8_lossy);
        match &file.outcome {
            Outcome::Unchanged => writeln!(out, "  = {} (already as it would be)", file.path)?,
            Outcome::Write(new) => {
                let verb = if file.now.is_some() { "M" } else { "A" };
                let note = if file.now.is_some() {
                    ""
                } else {
                    ", restored: the reverted changes deleted it"
                };
                writeln!(out, "  {verb} {} ({changes} change(s){note})", file.path)?;
                let diff = hookd_core::diff::unified(
                    now.as_deref().unwrap_or(""),
                    &String::from_utf8_lossy(new),
                    &format!("a/{} (now)", file.path),
                    &format!("b/{} (after the rewind)", file.path),
                );
                for line in diff.lines() {
                    writeln!(out, "    {line}")?;
                }
            }
            Outcome::Delete => writeln!(
                out,
                "  D {} (deleted: the reverted changes created it)",
                file.path
            )?,
            Outcome::Conflict { why, .. } => {
                writeln!(out, "  ! {} conflict: {why}", file.path)?;
            }
            Outcome::NotRestorable { why } => {
                writeln!(out, "  ? {} not restorable: {why}", file.path)?;
            }
        }
        for how in &file.derived {
            writeln!(out, "    (derived {how})")?;
        }
    }
    Ok(())
}

/// The repository of `file` (or `repo` when given) and `file`'s stored path.
fn open_for(file: &Path, repo: Option<&Path>) -> Result<(RewindRepo, String)> {
    let cwd = current_dir()?;
    let dir = match repo {
        Some(dir) => dir.to_path_buf(),
        None => cwd
            .join(file)
            .parent()
            .map_or_else(|| cwd.clone(), Path::to_path_buf),
    };
    let repo = RewindRepo::open(&dir)?;
    let path = repo.stored_path(file, &cwd);
    Ok((repo, path))
}

/// Runs `hookd diff`: the unified diff of a file between two recorded
/// points, or from one to the file now.
pub fn diff(args: &DiffArgs) -> Result<()> {
    crate::cmd::init_logging("warn");
    let (repo, path) = open_for(&args.file, args.repo.as_deref())?;
    let text = |content: Option<Vec<u8>>| -> String {
        content
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    let old = text(repo.content_at(&path, &args.from)?);
    let (new, label) = match &args.to {
        Some(to) => (text(repo.content_at(&path, to)?), to.clone()),
        None => (
            text(std::fs::read(repo.root().join(&path)).ok()),
            "now".to_owned(),
        ),
    };
    print!(
        "{}",
        hookd_core::diff::unified(
            &old,
            &new,
            &format!("a/{path} ({})", args.from),
            &format!("b/{path} ({label})"),
        )
    );
    Ok(())
}

/// Runs `hookd show`.
pub fn show(args: &ShowArgs) -> Result<()> {
    crate::cmd::init_logging("warn");
    let (repo, path) = open_for(&args.file, args.repo.as_deref())?;
    match repo.content_at(&path, &args.at)? {
        Some(bytes) => std::io::stdout().lock().write_all(&bytes)?,
        None => bail!("{path} did not exist at {}", args.at),
    }
    Ok(())
}
