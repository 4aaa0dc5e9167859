//! `hookd trust`: review and approve (or revoke) a project's managed hooks.
//!
//! hookd runs the hooks of `<project>/.hookd/settings.json` and
//! `settings.local.json` only while their content is what the user approved
//! (see `hookd_core::settings::trust`). This command prints every hook those
//! files would run, then approves exactly the bytes it printed; a file that
//! changes between the two is refused, not approved.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use hookd_core::settings::SettingsRoots;
use hookd_core::settings::trust::{self, FileReview, Trust, TrustStore};

use super::show;
use super::target::project_dir;

/// Flags of `hookd trust`.
#[derive(Debug, Args)]
pub struct TrustArgs {
    /// Project directory; its git root is used if it is inside a repository [default: the
    /// current directory]
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Withdraw the approval: the project's managed hooks stop running until approved again
    #[arg(long)]
    pub revoke: bool,
    /// Only show the files, their hooks and whether they are trusted; approve nothing
    #[arg(long, conflicts_with = "revoke")]
    pub show: bool,
}

/// Runs `hookd trust`.
pub fn run(args: &TrustArgs) -> Result<()> {
    let project = project_dir(args.project.as_deref())?;
    let roots = SettingsRoots::from_env()?;
    let files = trust::review(&roots, &project)?;
    if args.revoke {
        let store = TrustStore::for_roots(&roots);
        let mut revoked = 0;
        for file in &files {
            if store.revoke(&file.path)? {
                println!("Revoked: {} (its hooks no longer run)", show(&file.path));
                revoked += 1;
            }
        }
        if revoked == 0 {
            println!(
                "Nothing to revoke: no managed hook file of {} is approved.",
                show(&project)
            );
        }
        return Ok(());
    }
    if files.iter().all(|f| !f.exists) {
        println!(
            "{} has no managed hook files (.hookd/settings.json, .hookd/settings.local.json); nothing to approve.",
            show(&project)
        );
        return Ok(());
    }
    for file in files.iter().filter(|f| f.exists) {
        print_file(file);
    }
    if args.show {
        return Ok(());
    }
    let pending: Vec<&FileReview> = files.iter().filter(|f| f.needs_approval()).collect();
    if pending.is_empty() {
        let broken = files.iter().filter(|f| f.problem.is_some()).count();
        if broken > 0 {
            bail!("nothing approved: fix the file(s) above first (an invalid file runs nothing)");
        }
        println!("Nothing to approve: every managed hook file of this project is trusted.");
        return Ok(());
    }
    for file in pending {
        let digest = file.digest.as_deref().unwrap_or_default();
        trust::approve_reviewed(&roots, &file.path, digest)?;
        println!(
            "Approved: {} ({} hook{} will run)",
            show(&file.path),
            file.hooks.len(),
            if file.hooks.len() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

fn print_file(file: &FileReview) {
    let state = match &file.trust {
        Trust::Trusted { approved_at } => format!("trusted (approved {approved_at})"),
        Trust::NotApproved => "NOT TRUSTED (never approved)".to_owned(),
        Trust::Changed { approved_at } => {
            format!("NOT TRUSTED (changed since it was approved {approved_at})")
        }
        Trust::NotRequired => "trusted".to_owned(),
    };
    println!("managed {}: {} — {state}", file.scope, show(&file.path));
    if let Some(problem) = &file.problem {
        println!("  cannot be approved: {problem}");
        return;
    }
    if file.hooks.is_empty() {
        println!("  (no hooks)");
    }
    for hook in &file.hooks {
        let matcher = hook
            .matcher
            .as_deref()
            .filter(|m| !m.is_empty())
            .map(|m| format!(" [{m}]"))
            .unwrap_or_default();
        let kind = if hook.handler_type == "command" {
            String::new()
        } else {
            format!(" ({})", hook.handler_type)
        };
        println!("  {}{matcher}{kind}: {}", hook.event, hook.runs);
    }
}
