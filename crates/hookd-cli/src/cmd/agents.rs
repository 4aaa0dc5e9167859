//! `hookd agents`: the agents the ledgers know, by a readable name (what
//! each is and a short id, or the label a user gave it), and `hookd agents
//! label` to give one a name. The names are made in
//! `hookd_core::ledger::agents`; `hookd query`'s table and the app show the
//! same ones.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use hookd_core::AgentKind;
use hookd_core::ledger::MutationFilter;
use hookd_core::ledger::agents::{self, AgentInfo};
use hookd_core::ledger::query::{Query, QueryScope};
use hookd_core::ledger::registry::Registry;
use hookd_core::settings::convert::label;

/// Flags of `hookd agents`.
#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// What to do (default: list).
    #[command(subcommand)]
    pub command: Option<AgentsCommand>,
    /// Repository whose agents to list: any directory inside it.
    #[arg(long, value_name = "DIR", default_value = ".", conflicts_with = "all")]
    pub repo: PathBuf,
    /// List the agents of every known repository (and of events outside git).
    #[arg(long)]
    pub all: bool,
    /// Print JSON (one array of agents) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `hookd agents <command>`.
#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// Give an agent a name, shown instead of its id everywhere (every project,
    /// `hookd query`, the app); without NAME, remove the name.
    Label {
        /// The agent id (as `hookd agents` or `hookd query --format json` shows it).
        id: String,
        /// The name.
        name: Option<String>,
    },
}

/// Runs `hookd agents`.
pub fn run(args: &AgentsArgs) -> anyhow::Result<()> {
    let data_dir = hookd_core::dirs::data_dir()?;
    if let Some(AgentsCommand::Label { id, name }) = &args.command {
        let name = name.as_deref().unwrap_or("");
        Registry::open(&data_dir)?.set_agent_label(id, name)?;
        if name.trim().is_empty() {
            println!("{id}: name removed");
        } else {
            println!("{id}: now shown as {:?}", name.trim());
        }
        return Ok(());
    }
    let query = Query {
        scope: if args.all {
            QueryScope::All
        } else {
            QueryScope::Repo(args.repo.clone())
        },
        filter: MutationFilter::default(),
        file_arg: None,
        cwd: std::env::current_dir().context("cannot read the current directory")?,
        data_dir,
    };
    let list = agents::agents(&query, None)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        serde_json::to_writer(&mut out, &list)?;
        writeln!(out)?;
        return Ok(());
    }
    if list.is_empty() {
        eprintln!("no agents recorded yet");
        return Ok(());
    }
    print_table(&mut out, &list)
}

fn print_table(out: &mut impl std::io::Write, list: &[AgentInfo]) -> anyhow::Result<()> {
    let header = [
        "NAME",
        "CODING AGENT",
        "TYPE",
        "FIRST SEEN (UTC)",
        "AGENT ID",
    ];
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|a| {
            vec![
                a.name.clone(),
                a.agent_kind
                    .as_deref()
                    .and_then(AgentKind::parse)
                    .map_or("-", label)
                    .to_owned(),
                a.agent_type.clone().unwrap_or_else(|| "main".into()),
                a.first_seen
                    .replace('T', " ")
                    .trim_end_matches('Z')
                    .to_owned(),
                a.agent_id.clone(),
            ]
        })
        .collect();
    let mut widths = Vec::new();
    super::fit_widths(&mut widths, &header, &rows);
    writeln!(out, "{}", super::table_line(&header, &widths))?;
    for r in &rows {
        writeln!(out, "{}", super::table_line(r, &widths))?;
    }
    Ok(())
}
