//! Prompts as groups, answered by the ledger: the prompt (a
//! `user_prompt_submit` event) that heads an event, and the exact counts of
//! a prompt's group (the rows its session sent after it, up to that
//! session's next prompt or start).
//!
//! The Timeline's activity list holds only the pages around the viewport,
//! so a row whose prompt was scrolled away cannot find it among the rows
//! held, and a prompt whose group runs past them only knows a floor of its
//! counts. Both are answered here from the session index
//! (`events_session_time`: session, time, row id), walking from the row
//! towards its prompt or through the group and stopping at the group's
//! bound: the cost follows the group, never the ledger's size.
//!
//! The order is the timeline's: time, then row id (where the list and this
//! agree on which rows follow a prompt). Events are appended as they
//! arrive, so within one session this is the order of the row ids.

use rusqlite::{Connection, OptionalExtension as _, params};
use serde::Serialize;

use super::{ActivityEvent, Ledger};
use crate::{Error, Result};

/// The hook type of the event that opens a prompt's group.
pub const PROMPT_HOOK: &str = "user_prompt_submit";

/// The hook type of a session's start: the rows after it and before the
/// session's first prompt belong to no group.
pub const SESSION_START: &str = "session_start";

/// A prompt and what followed it: its group's exact counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptGroup {
    /// The prompt heading the group, whole (its payload and hook runs), as
    /// [`Ledger::event`] reads it.
    pub head: ActivityEvent,
    /// Tool calls its session made in the group: distinct `tool_use_id`s,
    /// plus the tool events without one that are not `pre_tool_use`.
    pub calls: i64,
    /// File changes those events made (their mutation rows).
    pub changes: i64,
}

/// Where one event stands in its session's index.
struct Place {
    session: Option<String>,
    hook_type: String,
    timestamp: String,
}

/// The newest prompt or session start of session `?1` before the place
/// (`?2` time, `?3` row id), newest first. `+hook_type` keeps the planner
/// off the hook-type index: the walk goes back through the session only.
pub(crate) const HEAD_SQL: &str = "SELECT id, hook_type FROM events \
     WHERE session_id = ?1 AND (event_timestamp, id) < (?2, ?3) \
     AND +hook_type IN (?4, ?5) \
     ORDER BY event_timestamp DESC, id DESC LIMIT 1";

/// The rows of session `?1` after the prompt (`?2` time, `?3` row id), in
/// order, with their mutation counts; read until the group's bound.
pub(crate) const GROUP_SQL: &str = "SELECT hook_type, tool_name, tool_use_id, \
     (SELECT COUNT(*) FROM mutations m WHERE m.event_id = events.event_id) \
     FROM events WHERE session_id = ?1 AND (event_timestamp, id) > (?2, ?3) \
     ORDER BY event_timestamp, id";

impl Ledger {
    /// The prompt's group the event with row id `id` is in: its own when it
    /// is a prompt, else its head's ([`Ledger::prompt_head`]); `None` when
    /// the event is in no group (or not in the ledger).
    pub fn prompt_group(&self, id: i64) -> Result<Option<PromptGroup>> {
        let Some(head) = self.prompt_head(id)? else {
            return Ok(None);
        };
        let Some((calls, changes)) = self.group_counts(head)? else {
            return Ok(None);
        };
        Ok(self.event(head)?.map(|head| PromptGroup {
            head,
            calls,
            changes,
        }))
    }

    /// The row id of the prompt heading the event with row id `id`
    /// ([`head_of`]).
    pub fn prompt_head(&self, id: i64) -> Result<Option<i64>> {
        head_of(self.connection(), id)
    }

    /// The exact counts of the group the prompt with row id `prompt` heads,
    /// as `(calls, changes)` ([`PromptGroup`] says what each counts); `None`
    /// when that row is not a prompt of a session. Reads the session's rows
    /// after the prompt up to its next prompt or start, and no further.
    pub fn group_counts(&self, prompt: i64) -> Result<Option<(i64, i64)>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let Some(place) = place(self.connection(), prompt)? else {
            return Ok(None);
        };
        let (Some(session), PROMPT_HOOK) = (place.session, place.hook_type.as_str()) else {
            return Ok(None);
        };
        let mut stmt = self.connection().prepare(GROUP_SQL).map_err(sqlite)?;
        let mut rows = stmt
            .query(params![session, place.timestamp, prompt])
            .map_err(sqlite)?;
        let mut calls = std::collections::HashSet::new();
        let mut anonymous = 0_i64;
        let mut changes = 0_i64;
        while let Some(row) = rows.next().map_err(sqlite)? {
            let hook_type: String = row.get(0).map_err(sqlite)?;
            if hook_type == PROMPT_HOOK || hook_type == SESSION_START {
                break;
            }
            let tool_name: Option<String> = row.get(1).map_err(sqlite)?;
            if tool_name.is_some() {
                match row.get::<_, Option<String>>(2).map_err(sqlite)? {
                    Some(call) => {
                        calls.insert(call);
                    }
                    None if hook_type != "pre_tool_use" => anonymous += 1,
                    None => {}
                }
            }
            changes += row.get::<_, i64>(3).map_err(sqlite)?;
        }
        let calls = i64::try_from(calls.len()).unwrap_or(i64::MAX) + anonymous;
        Ok(Some((calls, changes)))
    }
}

/// The row id of the prompt heading the event with row id `id`: the event
/// itself when it is a prompt, else the newest prompt of the same session
/// before it, unless that session started again in between. `None` for an
/// event without a session, a session start, an event before its session's
/// first prompt, and an unknown row. The one rule of "the prompt an event
/// belongs to": the Timeline's groups and `hookd rewind`'s prompt targets
/// ([`super::versions::prompt_of`]) both ask it.
pub fn head_of(conn: &Connection, id: i64) -> Result<Option<i64>> {
    let sqlite = |e| Error::sqlite(conn.path().unwrap_or(":memory:"), e);
    let Some(place) = place(conn, id)? else {
        return Ok(None);
    };
    let Some(session) = place.session else {
        return Ok(None);
    };
    match place.hook_type.as_str() {
        PROMPT_HOOK => return Ok(Some(id)),
        SESSION_START => return Ok(None),
        _ => {}
    }
    let found: Option<(i64, String)> = conn
        .query_row(
            HEAD_SQL,
            params![session, place.timestamp, id, PROMPT_HOOK, SESSION_START],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()
        .map_err(sqlite)?;
    Ok(found.and_then(|(head, hook)| (hook == PROMPT_HOOK).then_some(head)))
}

/// The session, hook type and time of the event with row id `id`.
fn place(conn: &Connection, id: i64) -> Result<Option<Place>> {
    conn.query_row(
        "SELECT session_id, hook_type, event_timestamp FROM events WHERE id = ?1",
        [id],
        |row| {
            Ok(Place {
                session: row.get(0)?,
                hook_type: row.get(1)?,
                timestamp: row.get(2)?,
            })
        },
    )
    .optional()
    .map_err(|e| Error::sqlite(conn.path().unwrap_or(":memory:"), e))
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use hookd_testkit::{Event, GitRepo, TestEnv, private_tempdir, record};

    use super::*;
    use crate::ledger::tests::{entry, plain_event};
    use crate::record::LedgerEntry;

    /// A ledger in a real file of a private temp dir holding `entries`.
    fn ledger_of(entries: &[LedgerEntry]) -> (tempfile::TempDir, Ledger) {
        let dir = private_tempdir();
        let mut ledger = Ledger::open_or_create(&dir.path().join(".hookd/mutations.db")).unwrap();
        ledger.append(entries).unwrap();
        (dir, ledger)
    }

    fn ts(second: u32) -> String {
        format!("2026-01-01T00:{:02}:{:02}.000Z", second / 60, second % 60)
    }

    /// An event of `hook` in `session` at `second`.
    fn at(id: &str, second: u32, hook: &str, session: &str) -> LedgerEntry {
        plain_event(id, &ts(second), hook, "alice", session)
    }

    /// A post_tool_use Write of `session` at `second`: one call, one change.
    fn write(id: &str, second: u32, session: &str) -> LedgerEntry {
        let mut e = entry(id, &ts(second), &format!("{id}.rs"), "alice", "Write");
        e.event.session_id = Some(session.into());
        e.mutations[0].session_id = Some(session.into());
        e
    }

    /// The row id of the event `event_id`.
    fn row(ledger: &Ledger, event_id: &str) -> i64 {
        ledger
            .connection()
            .query_row(
                "SELECT id FROM events WHERE event_id = ?1",
                [event_id],
                |r| r.get(0),
            )
            .unwrap()
    }

    fn head_of(ledger: &Ledger, event_id: &str) -> Option<String> {
        ledger
            .prompt_group(row(ledger, event_id))
            .unwrap()
            .map(|g| g.head.event_id)
    }

    #[test]
    fn a_rows_head_is_its_sessions_last_prompt_before_it_and_never_another_sessions() {
        let (_dir, ledger) = ledger_of(&[
            at("p1", 0, PROMPT_HOOK, "s1"),
            write("w1", 1, "s1"),
            // Another session's prompt, newer than p1, between p1 and w2.
            at("q1", 2, PROMPT_HOOK, "s2"),
            write("w2", 3, "s1"),
            write("x1", 4, "s2"),
            at("p2", 5, PROMPT_HOOK, "s1"),
            write("w3", 6, "s1"),
            at("stop", 7, "stop", "s1"),
        ]);
        assert_eq!(head_of(&ledger, "w1").as_deref(), Some("p1"));
        assert_eq!(head_of(&ledger, "w2").as_deref(), Some("p1"), "q1 is s2's");
        assert_eq!(head_of(&ledger, "x1").as_deref(), Some("q1"));
        assert_eq!(head_of(&ledger, "w3").as_deref(), Some("p2"));
        assert_eq!(head_of(&ledger, "stop").as_deref(), Some("p2"));
        // A prompt is its own group's head.
        assert_eq!(head_of(&ledger, "p1").as_deref(), Some("p1"));
        assert_eq!(ledger.prompt_head(999).unwrap(), None, "no such row");

        let group = ledger.prompt_group(row(&ledger, "w2")).unwrap().unwrap();
        assert_eq!((group.calls, group.changes), (2, 2), "w1 and w2, not x1");
        let group = ledger.prompt_group(row(&ledger, "p2")).unwrap().unwrap();
        assert_eq!(
            (group.calls, group.changes),
            (1, 1),
            "w3; the stop is no call"
        );
    }

    #[test]
    fn a_session_start_between_means_no_head_and_ends_the_group() {
        let (_dir, ledger) = ledger_of(&[
            at("p1", 0, PROMPT_HOOK, "s1"),
            write("w1", 1, "s1"),
            at("start", 2, SESSION_START, "s1"),
            write("w2", 3, "s1"),
            at("none", 4, "stop", ""),
        ]);
        assert_eq!(head_of(&ledger, "w1").as_deref(), Some("p1"));
        assert_eq!(head_of(&ledger, "start"), None);
        assert_eq!(
            head_of(&ledger, "w2"),
            None,
            "the session started again after p1"
        );
        let group = ledger.prompt_group(row(&ledger, "p1")).unwrap().unwrap();
        assert_eq!(
            (group.calls, group.changes),
            (1, 1),
            "w2 is after the start"
        );
        assert_eq!(
            ledger.group_counts(row(&ledger, "w1")).unwrap(),
            None,
            "not a prompt"
        );

        // An event without a session is in no group.
        let mut lone = write("lone", 5, "s1");
        lone.event.session_id = None;
        let (_dir, ledger) = ledger_of(&[at("p", 0, PROMPT_HOOK, "s1"), lone]);
        assert_eq!(head_of(&ledger, "lone"), None);
    }

    #[test]
    fn pre_tool_use_pairs_count_once_and_anonymous_calls_count_each() {
        let mut pre = write("pre", 1, "s1");
        pre.event.hook_type = "pre_tool_use".into();
        pre.event.tool_use_id = Some("call-1".into());
        pre.mutations.clear();
        let mut post = write("post", 2, "s1");
        post.event.tool_use_id = Some("call-1".into());
        let mut anonymous_pre = write("apre", 3, "s1");
        anonymous_pre.event.hook_type = "pre_tool_use".into();
        anonymous_pre.event.tool_use_id = None;
        anonymous_pre.mutations.clear();
        let mut anonymous_post = write("apost", 4, "s1");
        anonymous_post.event.tool_use_id = None;
        let (_dir, ledger) = ledger_of(&[
            at("p", 0, PROMPT_HOOK, "s1"),
            pre,
            post,
            anonymous_pre,
            anonymous_post,
        ]);
        let group = ledger.prompt_group(row(&ledger, "apost")).unwrap().unwrap();
        assert_eq!(group.head.event_id, "p");
        assert_eq!((group.calls, group.changes), (2, 2));
    }

    /// The head and counts of every row, counted the slow way over the
    /// whole ledger in the timeline's order.
    fn brute_force(ledger: &Ledger) -> HashMap<i64, Option<(i64, i64, i64)>> {
        struct R {
            id: i64,
            session: Option<String>,
            hook: String,
            tool: Option<String>,
            call: Option<String>,
            changes: i64,
        }
        let mut stmt = ledger
            .connection()
            .prepare(
                "SELECT id, session_id, hook_type, tool_name, tool_use_id, \
                 (SELECT COUNT(*) FROM mutations m WHERE m.event_id = events.event_id) \
                 FROM events ORDER BY event_timestamp, id",
            )
            .unwrap();
        let rows: Vec<R> = stmt
            .query_map([], |r| {
                Ok(R {
                    id: r.get(0)?,
                    session: r.get(1)?,
                    hook: r.get(2)?,
                    tool: r.get(3)?,
                    call: r.get(4)?,
                    changes: r.get(5)?,
                })
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut out = HashMap::new();
        for (i, r) in rows.iter().enumerate() {
            let Some(session) = &r.session else {
                out.insert(r.id, None);
                continue;
            };
            let head = if r.hook == PROMPT_HOOK {
                Some(i)
            } else if r.hook == SESSION_START {
                None
            } else {
                rows[..i]
                    .iter()
                    .rposition(|p| {
                        p.session.as_ref() == Some(session)
                            && (p.hook == PROMPT_HOOK || p.hook == SESSION_START)
                    })
                    .filter(|&h| rows[h].hook == PROMPT_HOOK)
            };
            let Some(h) = head else {
                out.insert(r.id, None);
                continue;
            };
            let mut calls = HashSet::new();
            let (mut anonymous, mut changes) = (0, 0);
            for m in rows[h + 1..]
                .iter()
                .filter(|m| m.session.as_ref() == Some(session))
            {
                if m.hook == PROMPT_HOOK || m.hook == SESSION_START {
                    break;
                }
                if m.tool.is_some() {
                    match &m.call {
                        Some(c) => {
                            calls.insert(c.clone());
                        }
                        None if m.hook != "pre_tool_use" => anonymous += 1,
                        None => {}
                    }
                }
                changes += m.changes;
            }
            let calls = i64::try_from(calls.len()).unwrap() + anonymous;
            out.insert(r.id, Some((rows[h].id, calls, changes)));
        }
        out
    }

    #[test]
    fn heads_and_counts_match_a_brute_force_count() {
        // Three sessions interleaved, prompts, starts, paired and anonymous
        // calls, Bash calls with several mutations, from a fixed LCG.
        let mut seed = 7_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let mut entries = Vec::new();
        for i in 0..400_u32 {
            let session = ["s1", "s2", "s3"][usize::try_from(next(3)).unwrap()];
            let id = format!("e{i}");
            // Some rows share a second: the row id breaks the tie.
            let second = i - i / 4;
            let e = match next(10) {
                0 | 1 => at(&id, second, PROMPT_HOOK, session),
                2 => at(
                    &id,
                    second,
                    if next(3) == 0 { SESSION_START } else { "stop" },
                    session,
                ),
                3 => {
                    let mut e = write(&id, second, session);
                    e.event.hook_type = "pre_tool_use".into();
                    e.event.tool_use_id = Some(format!("call-{}", i / 2));
                    e.mutations.clear();
                    e
                }
                4 => {
                    let mut e = write(&id, second, session);
                    e.event.tool_use_id = None;
                    if next(2) == 0 {
                        e.event.hook_type = "pre_tool_use".into();
                        e.mutations.clear();
                    }
                    e
                }
                5 => {
                    let mut e = write(&id, second, session);
                    let mut more = e.mutations[0].clone();
                    more.mutation_seq = 1;
                    more.file_path = Some(format!("{id}-b.rs"));
                    e.mutations.push(more);
                    e
                }
                6 => {
                    let mut e = write(&id, second, session);
                    e.event.session_id = None;
                    e
                }
                _ => {
                    let mut e = write(&id, second, session);
                    e.event.tool_use_id = Some(format!("call-{}", i / 2));
                    e
                }
            };
            entries.push(e);
        }
        let (_dir, ledger) = ledger_of(&entries);
        let expected = brute_force(&ledger);
        let mut grouped = 0;
        for (&id, want) in &expected {
            let got = ledger
                .prompt_group(id)
                .unwrap()
                .map(|g| (g.head.id, g.calls, g.changes));
            assert_eq!(&got, want, "row {id}");
            grouped += usize::from(got.is_some());
        }
        assert!(grouped > 200, "most rows are in a group: {grouped}");
    }

    #[test]
    fn the_head_is_read_whole_through_the_payload_store() {
        // Recorded as the daemon records: the prompt's payload is stored by
        // reference, so a bare raw_payload would not hold its text.
        let env = TestEnv::new();
        let repo = GitRepo::new();
        record(
            &env,
            &repo,
            &[
                Event::prompt("2026-11-20T10:00:00.000Z"),
                Event::write("a.txt", "2026-11-20T10:01:00.000Z"),
                Event::write("b.txt", "2026-11-20T10:02:00.000Z"),
            ],
        );
        let ledger = Ledger::open_existing(&repo.ledger_path()).unwrap();
        let last = ledger
            .connection()
            .query_row("SELECT max(id) FROM events", [], |r| r.get(0))
            .unwrap();
        let group = ledger.prompt_group(last).unwrap().unwrap();
        assert_eq!(group.head.hook_type, PROMPT_HOOK);
        assert!(
            group.head.raw_payload.contains("\"prompt\":\"hello\""),
            "{}",
            group.head.raw_payload
        );
        assert_eq!((group.calls, group.changes), (2, 2));
    }

    /// Every line of SQLite's plan for `sql` with `values`.
    fn plan(ledger: &Ledger, sql: &str, values: impl rusqlite::Params) -> Vec<String> {
        let mut stmt = ledger
            .connection()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        stmt.query_map(values, |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn both_reads_walk_the_session_index_from_the_row_and_sort_nothing() {
        // Plans at any size: the statistics of a bigger ledger are not
        // gathered (no ANALYZE), so the plan is the one a ledger of ten
        // million rows gets.
        let (_dir, ledger) = ledger_of(&[at("p", 0, PROMPT_HOOK, "s1"), write("w", 1, "s1")]);
        let bound =
            "SEARCH events USING INDEX events_session_time (session_id=? AND event_timestamp";
        let head = plan(
            &ledger,
            HEAD_SQL,
            params!["s1", ts(1), 2, PROMPT_HOOK, SESSION_START],
        );
        assert!(head[0].starts_with(&format!("{bound}<")), "{head:?}");
        let group = plan(&ledger, GROUP_SQL, params!["s1", ts(0), 1]);
        assert!(group[0].starts_with(&format!("{bound}>")), "{group:?}");
        for line in head.iter().chain(&group) {
            assert!(
                !line.contains("TEMP B-TREE"),
                "a sort reads every row first: {line}"
            );
            assert!(!line.starts_with("SCAN"), "a scan: {line}");
        }
        // The mutations of each row are found through their event's index.
        assert!(
            group
                .iter()
                .any(|l| l.contains("SEARCH m USING COVERING INDEX")),
            "{group:?}"
        );
    }
}
