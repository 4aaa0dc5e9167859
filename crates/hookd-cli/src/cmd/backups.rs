//! `hookd hooks backups` and `hookd hooks restore-backup`: the versions a
//! settings file had before each of hookd's writes, kept in hookd's data
//! directory ([`hookd_core::settings::backups`]) rather than beside the
//! file, and putting one back.

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use clap::Args;
use hookd_core::settings::SettingsRoots;
use hookd_core::settings::backups::{BackedUpFile, BackupStore};

use super::hooks::Format;
use super::{fit_widths, show, table_line};

/// Flags of `hookd hooks backups`.
#[derive(Debug, Args)]
pub struct BackupsArgs {
    /// Only this settings file's versions [default: every file with kept versions]
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Flags of `hookd hooks restore-backup`.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The settings file to put a kept version back into (as `hookd hooks backups` lists it)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which kept version, as `hookd hooks backups` numbers them: 1 is the newest (what the
    /// file held before hookd's last write)
    #[arg(value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub nth: u32,
}

fn store() -> Result<BackupStore> {
    Ok(BackupStore::new(SettingsRoots::from_env()?.backups))
}

/// Runs `hookd hooks backups`.
pub fn list(args: &BackupsArgs) -> Result<()> {
    let store = store()?;
    let files: Vec<BackedUpFile> = match &args.file {
        Some(file) => {
            let versions = store.versions(file)?;
            if versions.is_empty() {
                println!("hookd kept no backup of {}", show(file));
                return Ok(());
            }
            let whole = store.list()?;
            whole
                .into_iter()
                .filter(|f| {
                    f.versions.first().map(|v| &v.path) == versions.first().map(|v| &v.path)
                })
                .collect()
        }
        None => store.list()?,
    };
    if args.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&files)?);
        return Ok(());
    }
    if files.is_empty() {
        println!(
            "No backups yet: hookd keeps a file's previous version in {} each time it writes it.",
            show(store.dir())
        );
        return Ok(());
    }
    let header = ["FILE", "VERSION", "REPLACED AT (UTC)", "BYTES"];
    let mut rows = Vec::new();
    for file in &files {
        for (n, version) in file.versions.iter().enumerate() {
            rows.push(vec![
                if n == 0 {
                    show(&file.file)
                } else {
                    String::new()
                },
                (n + 1).to_string(),
                version.saved_at.format("%Y-%m-%d %H:%M:%S").to_string(),
                version.bytes.to_string(),
            ]);
        }
    }
    let mut widths = Vec::new();
    fit_widths(&mut widths, &header, &rows);
    println!("{}", table_line(&header, &widths));
    for row in &rows {
        println!("{}", table_line(row, &widths));
    }
    println!("\n`hookd hooks restore-backup FILE [N]` puts version N (default 1) back.");
    Ok(())
}

/// Runs `hookd hooks restore-backup`.
pub fn restore(args: &RestoreArgs) -> Result<()> {
    let store = store()?;
    let restored = store
        .restore(&args.file, args.nth as usize)
        .with_context(|| format!("cannot restore {}", show(&args.file)))?;
    println!(
        "Restored {} to version {} (replaced at {} UTC).",
        show(&restored.file),
        args.nth,
        restored.from.saved_at.format("%Y-%m-%d %H:%M:%S"),
    );
    if restored.write.backup.is_some() {
        println!(
            "What it held is kept as version 1: `hookd hooks restore-backup {}` undoes this.",
            show(&restored.file)
        );
    }
    println!(
        "A restored file is not approved by hookd: if its hooks need approval, `hookd trust` says so."
    );
    Ok(())
}
