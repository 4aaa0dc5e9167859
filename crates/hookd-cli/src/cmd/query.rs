//! `hookd query`: mutations from the ledgers, oldest first, as a table, JSON
//! or JSON lines.
//!
//! Rows are read a page at a time from the ledger (`ledger::page`): a
//! limited query reads its page and no more, and a whole history is
//! streamed page after page, so neither time to the first row nor memory
//! grows with the ledger. Across projects (`--all`) the pages of every
//! ledger are merged by time.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use hookd_core::ledger::MutationFilter;
use hookd_core::ledger::agents;
use hookd_core::ledger::page::{Anchor, Cursor, MAX_PAGE, Page, Payloads, page_with};
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
    /// Only this file (relative to the current directory inside the repository, else to its root; or absolute); part of a path (`cart.ts`) or a glob (`src/**/*.ts`) matches every recorded path it fits.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Only this agent id, or the agents whose id contains it (or matches it as a glob).
    #[arg(long, value_name = "ID")]
    pub agent: Option<String>,
    /// Only this coding agent's changes: claude (Claude Code), codex (Codex CLI), gemini
    /// (Gemini CLI), cursor or copilot (GitHub Copilot), as `hookd-emit --agent` named it.
    #[arg(long, value_name = "AGENT", value_parser = super::target::agent_kind_parser())]
    pub agent_kind: Option<hookd_core::AgentKind>,
    /// Only this agent session (the payload's session_id).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Only mutations revealed by this hook event type, in either spelling (PostToolUse, post_tool_use_failure).
    #[arg(long, value_name = "TYPE")]
    pub event_type: Option<String>,
    /// Only this branch, or the branches containing it (or matching it as a glob).
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Only this tool, case-insensitive (write, edit, multiedit, notebookedit, bash); part of a name matches every tool containing it.
    #[arg(long, value_name = "TOOL")]
    pub tool: Option<String>,
    /// Only mutations whose file path or shell command has words starting with each word
    /// of TEXT (full-text search: `cart` finds src/cart.ts, `npm test` finds `npm run test:unit`).
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// At most N mutations: the newest N, or with --before/--after the N
    /// next to that point (always printed oldest first). Table output then
    /// ends with the flag that reads the next page.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Only mutations before this point: a row's cursor as a previous page
    /// printed it (TIMESTAMP,ID or, with --all, TIMESTAMP,ID,REPO), or a time
    /// (a duration back from now or RFC 3339).
    #[arg(long, value_name = "CURSOR|WHEN", conflicts_with = "after")]
    pub before: Option<String>,
    /// Only mutations after this point: a row's cursor (as for --before), or
    /// a time (rows at or after it).
    #[arg(long, value_name = "CURSOR|WHEN")]
    pub after: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Rows read per page while printing a long result: memory stays flat
/// however much of the history is printed.
const STREAM_PAGE: usize = 5_000;

/// A `--before`/`--after` value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Point {
    /// A row, by its cursor.
    Row(Cursor),
    /// A time, stored format.
    Time(String),
}

impl Point {
    fn parse(flag: &str, value: &str, now: chrono::DateTime<chrono::Utc>) -> anyhow::Result<Self> {
        if value.contains(',') {
            return Cursor::parse_arg(value).map(Self::Row).with_context(|| {
                format!("--{flag} {value:?}: a cursor is TIMESTAMP,ID or TIMESTAMP,ID,REPO, as a previous page printed it")
            });
        }
        let time = timefmt::parse_time_bound(value, now).with_context(|| format!("--{flag}"))?;
        Ok(Self::Time(timefmt::format(time)))
    }

    /// The point as a cursor: a time is its first instant (before every row at it).
    fn cursor(&self) -> Cursor {
        match self {
            Self::Row(cursor) => cursor.clone(),
            Self::Time(timestamp) => Cursor {
                timestamp: timestamp.clone(),
                id: i64::MIN,
                repo: None,
            },
        }
    }
}

/// Runs the query and prints the rows.
pub fn run(args: &QueryArgs) -> anyhow::Result<()> {
    // Warnings (a ledger being upgraded, which takes a while once) go to stderr.
    crate::cmd::init_logging("warn");
    let now = chrono::Utc::now();
    let bound = |value: &Option<String>| {
        value
            .as_deref()
            .map(|v| timefmt::parse_time_bound(v, now))
            .transpose()
    };
    let before = args
        .before
        .as_deref()
        .map(|v| Point::parse("before", v, now))
        .transpose()?;
    let after = args
        .after
        .as_deref()
        .map(|v| Point::parse("after", v, now))
        .transpose()?;
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
            agent_kind: args.agent_kind.map(|k| k.as_str().to_owned()),
            session: args.session.clone(),
            event_type: args.event_type.clone(),
            branch: args.branch.clone(),
            tool: args.tool.clone(),
            search: args.search.clone(),
            limit: None,
        },
        file_arg: args.file.clone(),
        cwd: std::env::current_dir().context("cannot read the current directory")?,
        data_dir: hookd_core::dirs::data_dir()?,
    };
    // The table shows no payload: it is not read.
    let payloads = match args.format {
        Format::Table => Payloads::Summary,
        Format::Json | Format::Jsonl => Payloads::Whole,
    };
    let table = args.format == Format::Table;
    let read = |anchor: &Anchor, limit: usize| -> anyhow::Result<Page<MutationRow>> {
        let page = page_with(&query, anchor, limit, payloads)?;
        Ok(page)
    };
    // The table names agents as `hookd agents` does. Names found are kept
    // for the pages after, so a long stream asks the ledgers only for the
    // agents it has not named yet (an id without a name stands for itself).
    let add_names =
        |rows: &[MutationRow], known: &mut HashMap<String, String>| -> anyhow::Result<()> {
            if !table {
                return Ok(());
            }
            let mut ids: Vec<String> = rows
                .iter()
                .filter(|r| !known.contains_key(&r.record.agent_id))
                .map(|r| r.record.agent_id.clone())
                .collect();
            if ids.is_empty() {
                return Ok(());
            }
            ids.sort_unstable();
            ids.dedup();
            let found = agents::names(&query, &ids)?;
            for id in ids {
                let name = found.get(&id).cloned().unwrap_or_else(|| id.clone());
                known.insert(id, name);
            }
            Ok(())
        };
    let stdout = std::io::stdout();
    let mut out = Printer::new(stdout.lock(), args.format, args.all);
    let limit = args.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    match (limit, &after) {
        // The N rows before a point (or the newest N): read backwards, printed oldest first.
        (Some(limit), None) => {
            let mut rows: Vec<MutationRow> = Vec::new();
            let mut anchor = match &before {
                Some(point) => Anchor::Before {
                    cursor: point.cursor(),
                },
                None => Anchor::Newest,
            };
            let mut older = 0;
            while rows.len() < limit {
                let page = read(&anchor, (limit - rows.len()).min(MAX_PAGE))?;
                older = page.first;
                let Some(oldest) = page.rows.first() else {
                    break;
                };
                anchor = Anchor::Before {
                    cursor: Cursor::of(oldest, oldest.repo.as_deref()),
                };
                let done = page.first == 0;
                rows.splice(0..0, page.rows);
                if done {
                    break;
                }
            }
            add_names(&rows, &mut out.names)?;
            out.rows(&rows)?;
            out.finish()?;
            if older > 0
                && args.format == Format::Table
                && let Some(oldest) = rows.first()
            {
                let cursor = Cursor::of(oldest, oldest.repo.as_deref()).to_arg();
                eprintln!("{older} older: add --before '{cursor}' for the page before");
            }
        }
        // Forward from a point (or the start): page after page, streamed.
        (limit, _) => {
            let mut anchor = match &after {
                Some(Point::Row(cursor)) => Anchor::After {
                    cursor: cursor.clone(),
                },
                Some(Point::Time(time)) => Anchor::Time { time: time.clone() },
                None => Anchor::Oldest,
            };
            let stop = before.as_ref().map(|p| sort_key(&p.cursor()));
            let mut printed = 0;
            let mut newer = 0;
            let mut last: Option<MutationRow> = None;
            loop {
                let want = limit.map_or(STREAM_PAGE, |l| (l - printed).min(STREAM_PAGE));
                if want == 0 {
                    break;
                }
                let mut page = read(&anchor, want)?;
                let fetched = page.rows.len();
                if let Some(stop) = &stop {
                    page.rows
                        .retain(|r| sort_key(&Cursor::of(r, r.repo.as_deref())) < *stop);
                }
                printed += page.rows.len();
                newer = page.total.saturating_sub(page.first + fetched as u64);
                add_names(&page.rows, &mut out.names)?;
                out.rows(&page.rows)?;
                if page.rows.len() < fetched || fetched < want {
                    newer = 0;
                    break;
                }
                let Some(row) = page.rows.pop() else { break };
                anchor = Anchor::After {
                    cursor: Cursor::of(&row, row.repo.as_deref()),
                };
                last = Some(row);
            }
            out.finish()?;
            if newer > 0
                && args.format == Format::Table
                && let Some(row) = &last
            {
                let cursor = Cursor::of(row, row.repo.as_deref()).to_arg();
                eprintln!("{newer} newer: add --after '{cursor}' for the page after");
            }
        }
    }
    Ok(())
}

/// The timeline's order of a cursor: time, repository, id.
fn sort_key(cursor: &Cursor) -> (String, String, i64) {
    (
        cursor.timestamp.clone(),
        cursor.repo.clone().unwrap_or_default(),
        cursor.id,
    )
}

/// Writes rows as they come, page by page, in one format.
struct Printer<W: std::io::Write> {
    out: W,
    format: Format,
    with_repo: bool,
    /// Rows written so far.
    written: usize,
    /// The table's column widths so far (they only grow).
    widths: Vec<usize>,
    /// Readable agent names of the rows written so far (table only).
    names: HashMap<String, String>,
}

impl<W: std::io::Write> Printer<W> {
    fn new(out: W, format: Format, with_repo: bool) -> Self {
        Self {
            out,
            format,
            with_repo,
            written: 0,
            widths: Vec::new(),
            names: HashMap::new(),
        }
    }

    fn rows(&mut self, rows: &[MutationRow]) -> anyhow::Result<()> {
        match self.format {
            Format::Json => {
                for row in rows {
                    self.out
                        .write_all(if self.written == 0 { b"[" } else { b"," })?;
                    serde_json::to_writer(&mut self.out, row)?;
                    self.written += 1;
                }
            }
            Format::Jsonl => {
                for row in rows {
                    serde_json::to_writer(&mut self.out, row)?;
                    writeln!(self.out)?;
                    self.written += 1;
                }
            }
            Format::Table => self.table(rows)?,
        }
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        match self.format {
            Format::Json => {
                if self.written == 0 {
                    self.out.write_all(b"[")?;
                }
                writeln!(self.out, "]")?;
            }
            Format::Jsonl | Format::Table => {}
        }
        if self.written == 0 && self.format == Format::Table {
            eprintln!("no mutations match");
        }
        self.out.flush()?;
        Ok(())
    }

    fn table(&mut self, rows: &[MutationRow]) -> anyhow::Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut header = vec!["TIME (UTC)", "AGENT", "TOOL", "FILE", "LINES", "BRANCH"];
        if self.with_repo {
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
                    shorten(self.names.get(&r.agent_id).unwrap_or(&r.agent_id), 24),
                    r.tool_name.clone(),
                    r.file_path.clone().unwrap_or_else(|| "-".into()),
                    lines_cell(r.lines_added, r.lines_removed),
                    r.branch.clone(),
                ];
                if self.with_repo {
                    cells.push(row.repo.clone().unwrap_or_default());
                }
                cells
            })
            .collect();
        super::fit_widths(&mut self.widths, &header, &table);
        if self.written == 0 {
            writeln!(self.out, "{}", super::table_line(&header, &self.widths))?;
        }
        for cells in &table {
            writeln!(self.out, "{}", super::table_line(cells, &self.widths))?;
        }
        self.written += rows.len();
        Ok(())
    }
}

/// The LINES cell: `+3 −1` (lines added and removed, as the desktop app's
/// timeline shows them), `-` when not counted (Bash, an oversized payload,
/// a row recorded before hookd counted them; `lines_changed` is in the JSON).
fn lines_cell(added: Option<i64>, removed: Option<i64>) -> String {
    match (added, removed) {
        (Some(added), Some(removed)) => format!("+{added} \u{2212}{removed}"),
        _ => "-".into(),
    }
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_cell_shows_added_and_removed_or_a_dash() {
        assert_eq!(lines_cell(Some(3), Some(1)), "+3 \u{2212}1");
        assert_eq!(lines_cell(Some(0), Some(0)), "+0 \u{2212}0");
        assert_eq!(lines_cell(None, None), "-");
    }
}
