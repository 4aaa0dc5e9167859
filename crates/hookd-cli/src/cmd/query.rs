//! `hookd query`: mutations from the ledgers, oldest first, as a table, JSON
//! or JSON lines.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use hookd_core::ledger::MutationFilter;
use hookd_core::ledger::query::{Query, QueryScope};
use hookd_core::record::MutationRow;
use hookd_core::timefmt;

/// Output formats of `hookd query`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    Table,
    /// One JSON array of rows, keyed by the ledger's column names.
    Json,
    /// One JSON object per line.
    Jsonl,
}

/// Flags of `hookd query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Repository to read: any directory inside it.
    #[arg(long, value_name = "DIR", default_value = ".", conflicts_with = "all")]
    pub repo: PathBuf,
    /// Read every known repository (and events outside git) instead of one.
    #[arg(long)]
    pub all: bool,
    /// Only mutations at or after this time: a duration back from now (30m, 1h, 2d) or RFC 3339.
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only mutations before this time: a duration back from now or RFC 3339.
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only this file (relative to the current directory inside the repository, else to its root; or absolute).
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Only this agent id.
    #[arg(long, value_name = "ID")]
    pub agent: Option<String>,
    /// Only this agent session (the payload's session_id).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Only mutations revealed by this hook event type, in either spelling (PostToolUse, post_tool_use_failure).
    #[arg(long, value_name = "TYPE")]
    pub event_type: Option<String>,
    /// Only this branch.
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Only this tool, case-insensitive (write, edit, multiedit, notebookedit, bash).
    #[arg(long, value_name = "TOOL")]
    pub tool: Option<String>,
    /// Only the newest N mutations (still printed oldest first).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs the query and prints the rows.
pub fn run(args: &QueryArgs) -> anyhow::Result<()> {
    let now = chrono::Utc::now();
    let bound = |value: &Option<String>| {
        value
            .as_deref()
            .map(|v| timefmt::parse_time_bound(v, now))
            .transpose()
    };
    let query = Query {
        scope: if args.all {
            QueryScope::All
        } else {
            QueryScope::Repo(args.repo.clone())
        },
        filter: MutationFilter {
            since: bound(&args.since)?,
            until: bound(&args.until)?,
            file: None,
            agent: args.agent.clone(),
            session: args.session.clone(),
            event_type: args.event_type.clone(),
            branch: args.branch.clone(),
            tool: args.tool.clone(),
            limit: args.limit,
        },
        file_arg: args.file.clone(),
        cwd: std::env::current_dir().context("cannot read the current directory")?,
        data_dir: hookd_core::dirs::data_dir()?,
    };
    let rows = hookd_core::ledger::query::run(&query)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer(&mut out, &rows)?;
            writeln!(out)?;
        }
        Format::Jsonl => {
            for row in &rows {
                serde_json::to_writer(&mut out, row)?;
                writeln!(out)?;
            }
        }
        Format::Table => print_table(&mut out, &rows, args.all)?,
    }
    Ok(())
}

fn print_table(
    out: &mut impl std::io::Write,
    rows: &[MutationRow],
    with_repo: bool,
) -> anyhow::Result<()> {
    if rows.is_empty() {
        eprintln!("no mutations match");
        return Ok(());
    }
    let mut header = vec!["TIME (UTC)", "AGENT", "TOOL", "FILE", "LINES", "BRANCH"];
    if with_repo {
        header.push("REPO");
    }
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let r = &row.record;
            let mut cells = vec![
                r.event_timestamp
                    .replace('T', " ")
                    .trim_end_matches('Z')
                    .to_owned(),
                shorten(&r.agent_id, 14),
                r.tool_name.clone(),
                r.file_path.clone().unwrap_or_else(|| "-".into()),
                r.lines_changed
                    .map_or_else(|| "-".into(), |n| n.to_string()),
                r.branch.clone(),
            ];
            if with_repo {
                cells.push(row.repo.clone().unwrap_or_default());
            }
            cells
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|col| {
            table
                .iter()
                .map(|cells| cells[col].chars().count())
                .chain([header[col].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[&str]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        padded.join("  ").trim_end().to_owned()
    };
    writeln!(out, "{}", line(&header))?;
    for cells in &table {
        let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
        writeln!(out, "{}", line(&refs))?;
    }
    Ok(())
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}
