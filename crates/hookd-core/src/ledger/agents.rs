//! Agents by a name a person can read. An agent id is a UUID (a session id
//! for a session's main agent), so the timeline names each agent by what it
//! is and a short id (`main 3f2a9c1d`, `Explore 77b1e0c2`), or by the label
//! the user gave it (kept in the registry, so one name holds in every
//! project). What an agent is comes from its first event (the `agents`
//! table, migration 0005).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::Ledger;
use super::filter::{Table, text};
use super::query::{Query, sources};
use super::registry::Registry;
use super::window::query_rows;
use crate::Result;

/// Characters of an id kept in a readable name.
pub const SHORT_ID: usize = 8;

/// An agent and its readable name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentInfo {
    /// The agent id rows carry.
    pub agent_id: String,
    /// What it is, for a subagent (`Explore`, `Plan`, …); none for a session's main agent.
    pub agent_type: Option<String>,
    /// Its session.
    pub session_id: Option<String>,
    /// Its first event's time.
    pub first_seen: String,
    /// The name the user gave it.
    pub label: Option<String>,
    /// The name to show: the label, else what it is and a short id.
    pub name: String,
    /// The coding agent it is an agent of (`claude`, `codex`, `gemini`,
    /// `cursor`, `copilot`), as `hookd-emit --agent` named it; `None` for
    /// an id no ledger knows.
    pub agent_kind: Option<String>,
}

/// The readable name of an agent: its label, else `TYPE SHORTID` (`main`
/// for an agent that is its session's main agent or of unknown type).
pub fn readable_name(agent_id: &str, agent_type: Option<&str>, label: Option<&str>) -> String {
    if let Some(label) = label.filter(|l| !l.trim().is_empty()) {
        return label.to_owned();
    }
    let short: String = agent_id.chars().take(SHORT_ID).collect();
    let kind = agent_type
        .filter(|t| !t.trim().is_empty())
        .unwrap_or("main");
    format!("{kind} {short}")
}

impl Ledger {
    /// The coding agents that called `hookd-emit` for this ledger (`claude`,
    /// `gemini`, …; each agent's, migration 0014), in name order: a read of
    /// the `agents_agent_kind` index, not of the history.
    pub fn agent_kinds(&self) -> Result<Vec<String>> {
        query_rows(
            self,
            "SELECT DISTINCT agent_kind FROM agents ORDER BY agent_kind",
            &[],
            |r| r.get(0),
        )
    }

    /// What the ledger knows of `ids` (every agent without), unnamed yet.
    fn agent_rows(&self, ids: Option<&[String]>) -> Result<Vec<AgentInfo>> {
        let columns = "SELECT agent_id, agent_type, session_id, first_seen, agent_kind FROM agents";
        let map = |r: &rusqlite::Row<'_>| {
            Ok(AgentInfo {
                agent_id: r.get(0)?,
                agent_type: r.get(1)?,
                session_id: r.get(2)?,
                first_seen: r.get(3)?,
                label: None,
                name: String::new(),
                agent_kind: r.get(4)?,
            })
        };
        match ids {
            None => query_rows(self, &format!("{columns} ORDER BY first_seen"), &[], map),
            Some(ids) => {
                let mut rows = Vec::new();
                // A page shows at most a few hundred agents: chunks stay far
                // below SQLite's parameter limit.
                for chunk in ids.chunks(500) {
                    let marks = vec!["?"; chunk.len()].join(", ");
                    let values: Vec<_> = chunk.iter().map(|id| text(id)).collect();
                    rows.extend(query_rows(
                        self,
                        &format!("{columns} WHERE agent_id IN ({marks})"),
                        &values,
                        map,
                    )?);
                }
                Ok(rows)
            }
        }
    }
}

/// The agents of the ledgers `query` reads (only `ids` when given), oldest
/// first, each with its readable name. An id no ledger knows still gets a
/// name (a short id).
pub fn agents(query: &Query, ids: Option<&[String]>) -> Result<Vec<AgentInfo>> {
    let labels = Registry::open(&query.data_dir)?.agent_labels()?;
    let ledgers = query.ledgers_only();
    let mut found: BTreeMap<String, AgentInfo> = BTreeMap::new();
    for source in sources(&ledgers, Table::Events)? {
        for row in source.ledger.agent_rows(ids)? {
            match found.get_mut(&row.agent_id) {
                None => {
                    found.insert(row.agent_id.clone(), row);
                }
                // The same agent in two ledgers: what either knows, and the earlier time.
                Some(entry) => {
                    if entry.agent_type.is_none() {
                        entry.agent_type = row.agent_type;
                    }
                    if entry.session_id.is_none() {
                        entry.session_id = row.session_id;
                    }
                    if row.first_seen < entry.first_seen {
                        entry.first_seen = row.first_seen;
                    }
                }
            }
        }
    }
    for id in ids.unwrap_or_default() {
        found.entry(id.clone()).or_insert_with(|| AgentInfo {
            agent_id: id.clone(),
            agent_type: None,
            session_id: None,
            first_seen: String::new(),
            label: labels.get(id).cloned(),
            name: String::new(),
            agent_kind: None,
        });
    }
    let mut agents: Vec<AgentInfo> = found
        .into_values()
        .map(|mut a| {
            a.label = labels.get(&a.agent_id).cloned();
            a.name = readable_name(&a.agent_id, a.agent_type.as_deref(), a.label.as_deref());
            a
        })
        .collect();
    agents.sort_by(|a, b| (&a.first_seen, &a.agent_id).cmp(&(&b.first_seen, &b.agent_id)));
    Ok(agents)
}

/// Readable names by agent id, for `ids`.
pub fn names(query: &Query, ids: &[String]) -> Result<HashMap<String, String>> {
    Ok(agents(query, Some(ids))?
        .into_iter()
        .map(|a| (a.agent_id, a.name))
        .collect())
}
