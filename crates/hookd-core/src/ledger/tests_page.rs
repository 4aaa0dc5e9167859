//! Pages, positions, live reads and charts checked against the whole
//! filtered history read the old way (`Ledger::mutations`, `query::run`),
//! on real ledger files in real git repositories.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::filter::Table;
use super::histogram::{Bin, HistogramRequest, SeriesBy, histogram};
use super::page::{Anchor, Cursor, Page, page};
use super::query::{Query, QueryScope, run};
use super::registry::{Origin, Registry};
use super::runs::runs_from_rows;
use super::tests::{entry, pairs, plain_event, run_for};
use super::*;
use crate::{dirs, timefmt};

const BASE: &str = "2026-03-01T09:40:00.000Z";

fn base() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(BASE)
        .unwrap()
        .with_timezone(&Utc)
}

/// A new git repository `name` in `dir` and its new, empty ledger.
fn empty_repo(dir: &Path, name: &str) -> (PathBuf, Ledger) {
    let root = dir.join(name);
    std::fs::create_dir_all(&root).unwrap();
    git2::Repository::init(&root).unwrap();
    let root = std::fs::canonicalize(root).unwrap();
    let ledger = Ledger::open_or_create(&dirs::repo_ledger_path(&root)).unwrap();
    (root, ledger)
}

/// A git repository with a ledger of `n` mutations about 37 s apart (some
/// sharing a millisecond), by agents a/b/c, over five files.
fn repo_with_rows(dir: &Path, name: &str, n: usize, offset_ms: i64) -> PathBuf {
    let (root, mut ledger) = empty_repo(dir, name);
    let entries: Vec<LedgerEntry> = (0..n)
        .map(|i| {
            // Every fifth row shares the previous row's millisecond.
            let step = i64::try_from(i - i / 5).unwrap();
            let ts = timefmt::format(base() + Duration::milliseconds(step * 37_000 + offset_ms));
            let agent = ["a", "b", "c"][i % 3];
            let tool = if i % 7 == 0 { "Edit" } else { "Write" };
            entry(
                &format!("{name}-{i}"),
                &ts,
                &format!("f{}.rs", i % 5),
                agent,
                tool,
            )
        })
        .collect();
    ledger.append(&entries).unwrap();
    root
}

fn query(scope: QueryScope, data_dir: &Path, filter: MutationFilter) -> Query {
    Query {
        scope,
        filter,
        file_arg: None,
        cwd: PathBuf::from("/"),
        data_dir: data_dir.to_path_buf(),
    }
}

fn ids(rows: &[MutationRow]) -> Vec<(Option<String>, i64)> {
    rows.iter().map(|r| (r.repo.clone(), r.id)).collect()
}

fn filters() -> Vec<MutationFilter> {
    let at = |m: i64| Some(base() + Duration::minutes(m));
    vec![
        MutationFilter::default(),
        MutationFilter {
            agent: Some("b".into()),
            ..MutationFilter::default()
        },
        MutationFilter {
            file: Some("f3.rs".into()),
            ..MutationFilter::default()
        },
        MutationFilter {
            tool: Some("edit".into()),
            ..MutationFilter::default()
        },
        // Both bounds inside an hour, then on hour boundaries.
        MutationFilter {
            since: at(7),
            until: at(95),
            ..MutationFilter::default()
        },
        MutationFilter {
            since: at(20),
            until: at(80),
            agent: Some("a".into()),
            ..MutationFilter::default()
        },
        MutationFilter {
            since: Some(Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()),
            until: Some(Utc.with_ymd_and_hms(2026, 3, 1, 11, 0, 0).unwrap()),
            ..MutationFilter::default()
        },
        MutationFilter {
            search: Some("f3".into()),
            ..MutationFilter::default()
        },
        MutationFilter {
            since: at(30),
            until: at(170),
            search: Some("RS".into()),
            ..MutationFilter::default()
        },
    ]
}

#[test]
fn every_anchor_reads_the_slice_the_whole_history_has_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 400, 0);
    let mut filters = filters();
    // Several files: read through windows of time.
    filters.push(MutationFilter {
        file: Some("f[13].rs".into()),
        ..MutationFilter::default()
    });
    check_every_anchor(&root, dir.path(), filters);
}

/// The rows `q` matches, read the old way: `query::run`, which takes a file
/// as an exact value; a file given as a glob or a part of a path is read
/// without it, and its rows kept by the files the ledger resolves it to
/// (that resolution is checked on its own, by
/// `text_filters_match_part_of_a_value_or_a_glob_against_what_the_ledger_knows`).
fn whole_history(q: &Query, root: &Path) -> Vec<MutationRow> {
    let Some(file) = &q.filter.file else {
        return run(q).unwrap();
    };
    let ledger = Ledger::open_existing(&dirs::repo_ledger_path(root)).unwrap();
    let resolved = super::filter::Resolved::new(&ledger, Table::Mutations, &q.filter).unwrap();
    let files = resolved.files().unwrap_or_default();
    if files == [file.clone()] {
        return run(q).unwrap();
    }
    let mut unfiltered = q.clone();
    unfiltered.filter.file = None;
    let mut rows = run(&unfiltered).unwrap();
    rows.retain(|r| {
        r.record
            .file_path
            .as_ref()
            .is_some_and(|f| files.contains(f))
    });
    rows
}

/// Pages from every kind of anchor, for each filter, against the whole
/// filtered history read the old way.
fn check_every_anchor(root: &Path, data_dir: &Path, filters: Vec<MutationFilter>) {
    for filter in filters {
        let q = query(
            QueryScope::Repo(root.to_path_buf()),
            data_dir,
            filter.clone(),
        );
        let all = whole_history(&q, root);
        let total = all.len() as u64;
        assert!(total > 0, "{filter:?}");
        let check = |anchor: Anchor, expect_first: usize, len: usize| {
            let p: Page<MutationRow> = page(&q, &anchor, len).unwrap();
            let end = (expect_first + len).min(all.len());
            assert_eq!(
                ids(&p.rows),
                ids(&all[expect_first..end]),
                "{anchor:?} {filter:?}"
            );
            assert_eq!(p.first, expect_first as u64, "{anchor:?} {filter:?}");
            assert_eq!(p.total, total, "{anchor:?} {filter:?}");
            assert!(
                p.rows.iter().all(|r| r.record.raw_payload.is_empty()),
                "payloads are not read"
            );
        };
        let n = all.len();
        check(Anchor::Oldest, 0, 10);
        check(Anchor::Newest, n.saturating_sub(10), 10.min(n));
        for position in [0, 1, n / 3, n / 2, n - 1] {
            check(
                Anchor::Position {
                    position: position as u64,
                },
                position,
                7,
            );
        }
        for i in [0, 4, n / 2, n - 1] {
            let cursor = Cursor::of(&all[i], None);
            check(
                Anchor::After {
                    cursor: cursor.clone(),
                },
                i + 1,
                6,
            );
            let from = i.saturating_sub(6);
            let p: Page<MutationRow> = page(&q, &Anchor::Before { cursor }, 6).unwrap();
            assert_eq!(ids(&p.rows), ids(&all[from..i]), "before {i} {filter:?}");
            if i > 0 {
                assert_eq!(p.first, from as u64);
            }
        }
        let mid = &all[n / 2];
        let p: Page<MutationRow> = page(
            &q,
            &Anchor::Time {
                time: mid.record.event_timestamp.clone(),
            },
            3,
        )
        .unwrap();
        let at = all
            .iter()
            .position(|r| r.record.event_timestamp == mid.record.event_timestamp)
            .unwrap();
        assert_eq!(
            ids(&p.rows),
            ids(&all[at..(at + 3).min(n)]),
            "time {filter:?}"
        );
    }
}

/// A ledger of `n` mutations about 7 minutes apart (three days for 600),
/// appended in batches of 25, every fourth batch late: its rows are five
/// hours older than the batch before it (a replayed journal, a broker's
/// backlog), so ids and times disagree.
fn repo_with_late_rows(dir: &Path, name: &str, n: usize) -> PathBuf {
    let (root, mut ledger) = empty_repo(dir, name);
    for batch in 0..n.div_ceil(25) {
        let late = batch % 4 == 3;
        let entries: Vec<LedgerEntry> = (batch * 25..((batch + 1) * 25).min(n))
            .map(|i| {
                let mut at = base() + Duration::seconds(i64::try_from(i).unwrap() * 421);
                if late {
                    at -= Duration::hours(5);
                }
                let file = ["src/cart/view.ts", "src/ledger/page.rs", "docs/cart.md"][i % 3];
                entry(
                    &format!("{name}-{i}"),
                    &timefmt::format(at),
                    file,
                    ["a", "b"][i % 2],
                    "Write",
                )
            })
            .collect();
        ledger.append(&entries).unwrap();
    }
    root
}

#[test]
fn a_search_or_many_files_read_the_slice_the_whole_history_has_there_even_with_late_rows() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_late_rows(dir.path(), "r", 600);
    let at = |m: i64| Some(base() + Duration::minutes(m));
    let search = |text: &str| MutationFilter {
        search: Some(text.into()),
        ..MutationFilter::default()
    };
    check_every_anchor(
        &root,
        dir.path(),
        vec![
            search("cart"),
            search("page"),
            // Bounds inside hours (rows of late batches on both sides).
            MutationFilter {
                since: at(130),
                until: at(2000),
                ..search("cart")
            },
            MutationFilter {
                since: Some(Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap()),
                until: Some(Utc.with_ymd_and_hms(2026, 3, 2, 12, 0, 0).unwrap()),
                ..search("ledger")
            },
            MutationFilter {
                agent: Some("b".into()),
                until: at(3000),
                ..search("src")
            },
            // Several files (a glob, a part of a path): read through windows too.
            MutationFilter {
                file: Some("src/**".into()),
                ..MutationFilter::default()
            },
            MutationFilter {
                file: Some("cart".into()),
                since: at(130),
                until: at(2000),
                ..MutationFilter::default()
            },
        ],
    );
}

#[test]
fn a_word_starting_many_words_is_searched_as_a_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let entries: Vec<LedgerEntry> = (0..40)
        .map(|i| {
            let ts = timefmt::format(base() + Duration::minutes(i));
            entry(&format!("e{i}"), &ts, &format!("word{i}.txt"), "a", "Write")
        })
        .collect();
    ledger.append(&entries).unwrap();
    let search = |text: &str| {
        let q = query(
            QueryScope::Repo(root.clone()),
            dir.path(),
            MutationFilter {
                search: Some(text.into()),
                ..MutationFilter::default()
            },
        );
        page::<MutationRow>(&q, &Anchor::Newest, 100).unwrap().total
    };
    // 40 words start with `word` (more than are named one by one), 11 with
    // `word1`, one with `word39`; none with `words`.
    assert_eq!(search("word"), 40);
    assert_eq!(search("WORD1"), 11);
    assert_eq!(search("word39 txt"), 1);
    assert_eq!(search("words"), 0);
}

#[test]
fn a_typed_word_is_asked_as_itself_and_the_longer_words_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let (_root, mut ledger) = empty_repo(dir.path(), "r");
    let entries: Vec<LedgerEntry> = ["src/module_0158.ts", "src/modules/a.ts", "src/mod9.ts"]
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let ts = timefmt::format(base() + Duration::minutes(i as i64));
            entry(&format!("e{i}"), &ts, file, "a", "Write")
        })
        .collect();
    ledger.append(&entries).unwrap();
    let asked = |text: &str| ledger.search_query(Table::Mutations, text).unwrap();
    // The word itself (found in the index, not counted in the vocabulary)
    // and the longer words it starts, each by name.
    assert_eq!(
        asked("Module_0158").as_deref(),
        Some(r#"("module" OR "modules") AND ("0158")"#)
    );
    // Only longer words: `mod` itself is not indexed.
    assert_eq!(
        asked("mod").as_deref(),
        Some(r#"("mod9" OR "module" OR "modules")"#)
    );
    // A word the index does not hold matches nothing.
    assert_eq!(asked("nothere").as_deref(), Some(r#""nothere"*"#));
    assert_eq!(asked(" _ "), None);
}

#[test]
fn a_position_past_the_end_reads_the_last_row_and_an_empty_filter_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 50, 0);
    let q = query(
        QueryScope::Repo(root.clone()),
        dir.path(),
        MutationFilter::default(),
    );
    let p: Page<MutationRow> = page(&q, &Anchor::Position { position: 10_000 }, 5).unwrap();
    assert_eq!((p.rows.len(), p.first, p.total), (1, 49, 50));
    let none = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter {
            agent: Some("nobody".into()),
            ..MutationFilter::default()
        },
    );
    let p: Page<MutationRow> = page(&none, &Anchor::Position { position: 3 }, 5).unwrap();
    assert_eq!((p.rows.len(), p.total), (0, 0));
}

#[test]
fn newer_than_reads_only_what_was_committed_since_and_only_if_it_matches() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 30, 0);
    let filter = MutationFilter {
        agent: Some("b".into()),
        ..MutationFilter::default()
    };
    let q = query(QueryScope::Repo(root.clone()), dir.path(), filter);
    let first: Page<MutationRow> = page(&q, &Anchor::Newest, 5).unwrap();
    assert_eq!(first.total, 10);
    // Nothing new yet.
    let p: Page<MutationRow> = page(
        &q,
        &Anchor::NewerThan {
            seen: first.seen.clone(),
        },
        100,
    )
    .unwrap();
    assert!(p.rows.is_empty());
    assert_eq!(p.seen, first.seen);
    // Twelve new rows, four by agent b; an older timestamp arrives late too.
    let mut ledger = Ledger::open_existing(&dirs::repo_ledger_path(&root)).unwrap();
    let later = timefmt::format(base() + Duration::hours(5));
    let entries: Vec<LedgerEntry> = (0..12)
        .map(|i| {
            entry(
                &format!("new-{i}"),
                &later,
                "g.rs",
                ["a", "b", "c"][i % 3],
                "Write",
            )
        })
        .chain([entry("late", BASE, "g.rs", "b", "Write")])
        .collect();
    ledger.append(&entries).unwrap();
    let p: Page<MutationRow> = page(&q, &Anchor::NewerThan { seen: first.seen }, 3).unwrap();
    assert_eq!(p.rows.len(), 3, "a page at most");
    assert!(p.rows.iter().all(|r| r.record.agent_id == "b"));
    let rest: Page<MutationRow> = page(
        &q,
        &Anchor::NewerThan {
            seen: p.seen.clone(),
        },
        100,
    )
    .unwrap();
    assert_eq!(rest.rows.len(), 2, "{:?}", ids(&rest.rows));
    assert_eq!(rest.total, 15);
    let mut newer: Vec<i64> = p.rows.iter().chain(&rest.rows).map(|r| r.id).collect();
    let mut expected: Vec<i64> = run(&q)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .filter(|id| *id > 30)
        .collect();
    newer.sort_unstable();
    expected.sort_unstable();
    assert_eq!(newer, expected);
    // The late row sorts first: its position says so.
    assert_eq!(
        rest.rows.last().map(|r| r.record.event_timestamp.as_str()),
        Some(later.as_str())
    );
}

#[test]
fn pages_over_every_project_merge_by_time_then_repository() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // The second repository's rows fall between the first's, and some at the same millisecond.
    let one = repo_with_rows(dir.path(), "one", 120, 0);
    let two = repo_with_rows(dir.path(), "two", 90, 18_500);
    let three = repo_with_rows(dir.path(), "three", 40, 0);
    let registry = Registry::open(&data).unwrap();
    for root in [&one, &two, &three] {
        registry.add(root, Origin::Manual).unwrap();
    }
    for filter in filters() {
        let q = query(QueryScope::All, &data, filter.clone());
        let all = run(&q).unwrap();
        let n = all.len();
        for position in [0, n / 4, n / 2, n - 1] {
            let p: Page<MutationRow> = page(
                &q,
                &Anchor::Position {
                    position: position as u64,
                },
                9,
            )
            .unwrap();
            assert_eq!(
                ids(&p.rows),
                ids(&all[position..(position + 9).min(n)]),
                "{position} {filter:?}"
            );
            assert_eq!(p.total, n as u64);
        }
        for i in [0, n / 3, n - 2] {
            let cursor = Cursor::of(&all[i], all[i].repo.as_deref());
            let p: Page<MutationRow> = page(
                &q,
                &Anchor::After {
                    cursor: cursor.clone(),
                },
                8,
            )
            .unwrap();
            assert_eq!(
                ids(&p.rows),
                ids(&all[i + 1..(i + 9).min(n)]),
                "after {i} {filter:?}"
            );
            assert_eq!(p.first, i as u64 + 1);
            let p: Page<MutationRow> = page(&q, &Anchor::Before { cursor }, 8).unwrap();
            assert_eq!(
                ids(&p.rows),
                ids(&all[i.saturating_sub(8)..i]),
                "before {i} {filter:?}"
            );
        }
        let p: Page<MutationRow> = page(&q, &Anchor::Newest, 25).unwrap();
        assert_eq!(ids(&p.rows), ids(&all[n.saturating_sub(25)..]));
        assert_eq!(p.seen.len(), 3, "{:?}", p.seen);
    }
}

#[test]
fn activity_pages_carry_hook_runs_and_a_summary_of_the_payload() {
    let dir = tempfile::tempdir().unwrap();
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let mut prompt = plain_event("p1", BASE, "user_prompt_submit", "ag", "s");
    let long = "x".repeat(5000);
    prompt.event.raw_payload =
        serde_json::json!({"prompt": format!("fix the cart\n{long}"), "cwd": "/w"}).to_string();
    let mut broken = plain_event("p2", "2026-03-01T09:41:00.000Z", "stop", "ag", "s");
    broken.event.raw_payload = "{not json".into();
    broken.event.payload_valid = false;
    ledger.append(&[prompt, broken]).unwrap();
    ledger
        .append_hook_runs(&[run_for("p1", "r1", Some("deny"))])
        .unwrap();
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter::default(),
    );
    let p: Page<ActivityEvent> = page(&q, &Anchor::Newest, 10).unwrap();
    assert_eq!(p.total, 2);
    assert_eq!(p.rows[0].hook_runs.len(), 1);
    let summary: serde_json::Value = serde_json::from_str(&p.rows[0].raw_payload).unwrap();
    let shown = summary["prompt"].as_str().unwrap();
    assert!(
        shown.starts_with("fix the cart\n") && shown.len() == 300,
        "{shown:?}"
    );
    assert_eq!(summary["cwd"], "/w");
    assert_eq!(
        p.rows[1].raw_payload, "",
        "an unparsable payload is not summarised"
    );
    let whole = ledger.event(p.rows[0].id).unwrap().unwrap();
    assert!(whole.raw_payload.len() > 5000);
    assert_eq!(whole.hook_runs.len(), 1);
}

#[test]
fn charts_count_what_the_list_holds_per_bin_and_series() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 400, 0);
    for filter in filters() {
        let q = query(QueryScope::Repo(root.clone()), dir.path(), filter.clone());
        let all = run(&q).unwrap();
        let h = histogram::<MutationRow>(
            &q,
            &HistogramRequest {
                series: SeriesBy::Agent,
                ..HistogramRequest::default()
            },
        )
        .unwrap();
        assert_eq!(h.total, all.len() as u64, "{filter:?} {h:?}");
        assert_eq!(
            h.first.as_deref(),
            all.first().map(|r| r.record.event_timestamp.as_str())
        );
        // Each bin holds the rows whose time falls in it.
        let start = DateTime::parse_from_rfc3339(&h.start)
            .unwrap()
            .with_timezone(&Utc);
        let width = match h.bin {
            Bin::Minute => Duration::minutes(1),
            Bin::Hour => Duration::hours(1),
            Bin::Day => Duration::days(1),
        };
        for s in &h.series {
            for (b, &count) in s.counts.iter().enumerate() {
                let from = start + width * i32::try_from(b).unwrap();
                let expected = all
                    .iter()
                    .filter(|r| r.record.agent_id == s.name)
                    .filter(|r| {
                        let t = DateTime::parse_from_rfc3339(&r.record.event_timestamp).unwrap();
                        t >= from && t < from + width
                    })
                    .count() as u64;
                assert_eq!(count, expected, "{} bin {b} {filter:?}", s.name);
            }
        }
    }
    // The bin follows the range: four hours in minutes, ten days in hours, a year in days.
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter::default(),
    );
    for (hours, bin) in [(3, Bin::Minute), (200, Bin::Hour), (24 * 365, Bin::Day)] {
        let request = HistogramRequest {
            from: Some(BASE.into()),
            to: Some(timefmt::format(base() + Duration::hours(hours))),
            series: SeriesBy::Tool,
            max_series: Some(1),
            ..HistogramRequest::default()
        };
        let h = histogram::<MutationRow>(&q, &request).unwrap();
        assert_eq!(h.bin, bin, "{hours} h");
        let names: Vec<&str> = h.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["other"], "one series asked for: the rest is summed");
    }
}

#[test]
fn the_schema_version_is_the_number_of_migrations() {
    let ledger = Ledger::in_memory().unwrap();
    let version: u32 = ledger
        .connection()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn an_existing_ledger_gets_its_hour_counts_when_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let mut conn = rusqlite::Connection::open(&path).unwrap();
    MIGRATIONS.to_version(&mut conn, 3).unwrap();
    drop(conn);
    // Rows written by a hookd before migration 0004: through a ledger
    // opened at version 3, i.e. the tables without their triggers.
    let conn = rusqlite::Connection::open(&path).unwrap();
    for (i, ts) in [
        "2026-03-01T09:10:00.000Z",
        "2026-03-01T09:50:00.000Z",
        "2026-03-01T11:00:00.000Z",
    ]
    .iter()
    .enumerate()
    {
        conn.execute(
            "INSERT INTO mutations (event_type, hook_type, tool_name, agent_id, file_path, branch, head_sha, \
             raw_payload, event_timestamp, received_at, event_id) \
             VALUES ('tool.mutation.write', 'post_tool_use', 'Write', 'a', 'x', 'main', 'h', '{}', ?1, ?1, ?2)",
            rusqlite::params![ts, format!("e{i}")],
        )
        .unwrap();
    }
    conn.execute(
        "INSERT INTO events (event_id, hook_type, agent_id, session_id, branch, head_sha, payload_valid, \
         raw_payload, event_timestamp, received_at) \
         VALUES ('ev', 'pre_tool_use', 'sub-1', 's', 'main', 'h', 1, '{\"agent_type\":\"Plan\"}', ?1, ?1)",
        ["2026-03-01T09:00:00.000Z"],
    )
    .unwrap();
    drop(conn);
    let ledger = Ledger::open_existing(&path).unwrap();
    let agent: (String, Option<String>) = ledger
        .connection()
        .query_row("SELECT agent_id, agent_type FROM agents", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(agent, ("sub-1".to_owned(), Some("Plan".to_owned())));
    let files: i64 = ledger
        .connection()
        .query_row(
            "SELECT rows FROM mutation_files WHERE file_path = 'x'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(files, 3);
    let found: i64 = ledger
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM mutation_search WHERE mutation_search MATCH 'x'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        found, 3,
        "rows stored before the search index are searchable"
    );
    let hours: Vec<(String, i64)> = pairs(
        &ledger,
        "SELECT hour, rows FROM mutation_hours ORDER BY hour",
    );
    assert_eq!(
        hours,
        [
            ("2026-03-01T09".to_owned(), 2),
            ("2026-03-01T11".to_owned(), 1)
        ]
    );
}

#[test]
fn text_filters_match_part_of_a_value_or_a_glob_against_what_the_ledger_knows() {
    let dir = tempfile::tempdir().unwrap();
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let files = [
        "src/cart.ts",
        "src/shop/cart.tsx",
        "src/shop/deep/pay.ts",
        "lib/cart.ts",
        "README.md",
    ];
    let agents = [
        "3f2a9c-main",
        "77b1e0-sub",
        "3f2a9c-main",
        "77b1e0-sub",
        "zz",
    ];
    let entries: Vec<LedgerEntry> = files
        .iter()
        .zip(agents)
        .enumerate()
        .map(|(i, (file, agent))| {
            let ts = timefmt::format(base() + Duration::minutes(i as i64));
            entry(
                &format!("e{i}"),
                &ts,
                file,
                agent,
                if i == 4 { "MultiEdit" } else { "Edit" },
            )
        })
        .collect();
    ledger.append(&entries).unwrap();
    let read = |filter: MutationFilter| -> Vec<String> {
        let q = query(QueryScope::Repo(root.clone()), dir.path(), filter);
        let p: Page<MutationRow> = page(&q, &Anchor::Oldest, 100).unwrap();
        assert_eq!(
            p.total as usize,
            p.rows.len(),
            "the count agrees with the rows"
        );
        p.rows
            .into_iter()
            .map(|r| r.record.file_path.unwrap())
            .collect()
    };
    let file = |f: &str| MutationFilter {
        file: Some(f.into()),
        ..MutationFilter::default()
    };
    // A known path is exact; part of one matches every path containing it.
    assert_eq!(read(file("src/cart.ts")), ["src/cart.ts"]);
    assert_eq!(
        read(file("cart.ts")),
        ["src/cart.ts", "src/shop/cart.tsx", "lib/cart.ts"]
    );
    assert_eq!(read(file("CART.TSX")), ["src/shop/cart.tsx"]);
    // Globs: `*` stays in a directory, `**` crosses them (and none).
    assert_eq!(read(file("src/*.ts")), ["src/cart.ts"]);
    assert_eq!(
        read(file("src/**/*.ts")),
        ["src/cart.ts", "src/shop/deep/pay.ts"]
    );
    assert!(read(file("nothing-like-it")).is_empty());
    // Agents by the start of their id; tools exactly when one is known.
    let agent = MutationFilter {
        agent: Some("3f2a".into()),
        ..MutationFilter::default()
    };
    assert_eq!(read(agent), ["src/cart.ts", "src/shop/deep/pay.ts"]);
    let edit = MutationFilter {
        tool: Some("edit".into()),
        ..MutationFilter::default()
    };
    assert_eq!(read(edit).len(), 4, "`edit` is Edit, not MultiEdit");
    let multi = MutationFilter {
        tool: Some("multi".into()),
        ..MutationFilter::default()
    };
    assert_eq!(read(multi), ["README.md"]);
    // A bad glob is a clear error.
    let q = query(QueryScope::Repo(root.clone()), dir.path(), file("src/[a"));
    let err = page::<MutationRow>(&q, &Anchor::Oldest, 10).unwrap_err();
    assert!(err.to_string().contains("src/[a"), "{err}");
    // Suggestions: most rows first, narrowed by what is typed.
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter::default(),
    );
    let known =
        known::known_values(&q, Table::Mutations, known::Field::File, Some("CART"), 10).unwrap();
    let values: Vec<&str> = known.iter().map(|k| k.value.as_str()).collect();
    assert_eq!(values, ["lib/cart.ts", "src/cart.ts", "src/shop/cart.tsx"]);
    let agents = known::known_values(&q, Table::Mutations, known::Field::Agent, None, 10).unwrap();
    assert_eq!(agents[0].rows, 2);
    assert_eq!(agents.len(), 3);
}

#[test]
fn agents_have_readable_names_from_their_type_or_a_label() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let main_id = "3f2a9c1d-0000-4000-8000-000000000001";
    let sub_id = "77b1e0c2-0000-4000-8000-000000000002";
    let mut main = plain_event("m1", BASE, "user_prompt_submit", main_id, main_id);
    main.event.raw_payload = serde_json::json!({"prompt": "go"}).to_string();
    let mut sub = plain_event(
        "s1",
        "2026-03-01T09:41:00.000Z",
        "pre_tool_use",
        sub_id,
        main_id,
    );
    sub.event.raw_payload =
        serde_json::json!({"agent_id": sub_id, "agent_type": "Explore"}).to_string();
    // A later event of the same agent changes nothing.
    let mut again = plain_event(
        "s2",
        "2026-03-01T09:42:00.000Z",
        "post_tool_use",
        sub_id,
        main_id,
    );
    again.event.raw_payload = serde_json::json!({"agent_type": "Other"}).to_string();
    ledger.append(&[main, sub, again]).unwrap();
    let q = query(QueryScope::Repo(root), &data, MutationFilter::default());
    let list = agents::agents(&q, None).unwrap();
    let names: Vec<(&str, Option<&str>)> = list
        .iter()
        .map(|a| (a.name.as_str(), a.agent_type.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("main 3f2a9c1d", None),
            ("Explore 77b1e0c2", Some("Explore"))
        ]
    );
    Registry::open(&data)
        .unwrap()
        .set_agent_label(sub_id, "  cart fixer ")
        .unwrap();
    let named = agents::names(&q, &[sub_id.to_owned(), "unknown-agent-id".to_owned()]).unwrap();
    assert_eq!(named[sub_id], "cart fixer");
    assert_eq!(named["unknown-agent-id"], "main unknown-");
    Registry::open(&data)
        .unwrap()
        .set_agent_label(sub_id, "")
        .unwrap();
    assert_eq!(
        agents::names(&q, &[sub_id.to_owned()]).unwrap()[sub_id],
        "Explore 77b1e0c2"
    );
}

#[test]
fn search_finds_words_of_paths_commands_and_prompts() {
    let dir = tempfile::tempdir().unwrap();
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let mut entries: Vec<LedgerEntry> =
        ["src/shop/cart.tsx", "lib/payment.rs", "docs/cartography.md"]
            .iter()
            .enumerate()
            .map(|(i, f)| {
                entry(
                    &format!("w{i}"),
                    &timefmt::format(base() + Duration::minutes(i as i64)),
                    f,
                    "a",
                    "Write",
                )
            })
            .collect();
    let mut bash = entry("b", "2026-03-01T10:30:00.000Z", "build/out.js", "a", "Bash");
    bash.mutations[0].command = Some("npm run test:unit -- --watch".into());
    bash.event.tool_name = Some("Bash".into());
    bash.event.raw_payload =
        serde_json::json!({"tool_input": {"command": "npm run test:unit -- --watch"}}).to_string();
    entries.push(bash);
    let mut prompt = plain_event(
        "p",
        "2026-03-01T10:40:00.000Z",
        "user_prompt_submit",
        "a",
        "s",
    );
    prompt.event.raw_payload =
        serde_json::json!({"prompt": "Refactor the checkout flow"}).to_string();
    entries.push(prompt);
    ledger.append(&entries).unwrap();
    let search = |text: &str| -> Vec<String> {
        let q = query(
            QueryScope::Repo(root.clone()),
            dir.path(),
            MutationFilter {
                search: Some(text.into()),
                ..MutationFilter::default()
            },
        );
        let p: Page<MutationRow> = page(&q, &Anchor::Newest, 50).unwrap();
        assert_eq!(p.total as usize, p.rows.len());
        p.rows
            .into_iter()
            .map(|r| r.record.file_path.unwrap())
            .collect()
    };
    assert_eq!(search("cart"), ["src/shop/cart.tsx", "docs/cartography.md"]);
    assert_eq!(search("shop cart"), ["src/shop/cart.tsx"]);
    assert_eq!(search("npm test"), ["build/out.js"]);
    assert_eq!(search("PAYMENT"), ["lib/payment.rs"]);
    assert!(search("nothing").is_empty());
    assert_eq!(search("///").len(), 4, "no word: no search");
    // Activity: the prompt is searchable too.
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter {
            search: Some("checkout".into()),
            ..MutationFilter::default()
        },
    );
    let p: Page<ActivityEvent> = page(&q, &Anchor::Newest, 50).unwrap();
    let ids: Vec<&str> = p.rows.iter().map(|e| e.event_id.as_str()).collect();
    assert_eq!(ids, ["p"]);
}

#[test]
fn verify_reports_counts_that_disagree_with_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 20, 0);
    let path = dirs::repo_ledger_path(&root);
    assert_eq!(
        integrity::verify(&path),
        integrity::Verdict::Ok { events: 20 }
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "INSERT INTO mutation_hours VALUES ('2026-03-01T09', 'x', '', 'Write', 'post_tool_use', 'main', 1)",
        [],
    )
    .unwrap();
    drop(conn);
    let verdict = integrity::verify(&path);
    assert!(
        matches!(&verdict, integrity::Verdict::Bad(why) if why.contains("mutation_hours counts 21 mutations but the ledger holds 20")),
        "{verdict:?}"
    );

    // A run of hours that is not where the rows change hour.
    let root = repo_with_rows(dir.path(), "s", 20, 0);
    let path = dirs::repo_ledger_path(&root);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("INSERT INTO event_runs VALUES (7, '2026-03-01T09')", [])
        .unwrap();
    drop(conn);
    let verdict = integrity::verify(&path);
    assert!(
        matches!(&verdict, integrity::Verdict::Bad(why) if why.contains("event_runs misses 0 and wrongly holds 1 runs")),
        "{verdict:?}"
    );
}

#[test]
fn derived_counts_follow_appends_once_per_row_even_when_a_batch_is_sent_again() {
    let dir = tempfile::tempdir().unwrap();
    let (root, mut ledger) = empty_repo(dir.path(), "r");
    let batch = |from: usize| -> Vec<LedgerEntry> {
        (from..from + 50)
            .map(|i| {
                let ts = timefmt::format(base() + Duration::minutes(i as i64 * 7));
                entry(
                    &format!("e{i}"),
                    &ts,
                    &format!("f{}.rs", i % 4),
                    ["a", "b"][i % 2],
                    "Write",
                )
            })
            .collect()
    };
    assert_eq!(ledger.append(&batch(0)).unwrap(), 50);
    assert_eq!(
        ledger.append(&batch(0)).unwrap(),
        0,
        "a batch sent again stores nothing"
    );
    assert_eq!(ledger.append(&batch(25)).unwrap(), 25, "half of it is new");
    assert_eq!(ledger.append(&[]).unwrap(), 0);
    let path = dirs::repo_ledger_path(&root);
    drop(ledger);
    assert_eq!(
        integrity::verify(&path),
        integrity::Verdict::Ok { events: 75 }
    );
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter::default(),
    );
    let p: Page<MutationRow> = page(&q, &Anchor::Position { position: 60 }, 5).unwrap();
    assert_eq!((p.total, p.first, p.rows.len()), (75, 60, 5));
    let files = known::known_values(&q, Table::Mutations, known::Field::File, None, 10).unwrap();
    assert_eq!(files.iter().map(|k| k.rows).sum::<u64>(), 75);
    let search = MutationFilter {
        search: Some("f3".into()),
        ..MutationFilter::default()
    };
    let q = Query {
        filter: search,
        ..q
    };
    let p: Page<MutationRow> = page(&q, &Anchor::Oldest, 100).unwrap();
    assert_eq!(p.total, 75 / 4, "each row indexed once");
}

/// Every row of `sql`, as SQLite values.
fn all_rows(conn: &rusqlite::Connection, sql: &str) -> Vec<Vec<rusqlite::types::Value>> {
    let mut stmt = conn.prepare(sql).unwrap();
    let columns = stmt.column_count();
    stmt.query_map([], |r| {
        (0..columns)
            .map(|i| r.get::<_, rusqlite::types::Value>(i))
            .collect()
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

#[test]
fn derived_tables_hold_what_the_migrations_build_from_the_same_rows() {
    // Varied rows: sessions and tools missing, several hook types, agents,
    // branches and files, prompts and shell commands, a file-less event, a
    // duplicate inside one batch and a batch sent again; one batch large
    // enough to be written with the larger page cache.
    let mut rows = Vec::new();
    for i in 0..700usize {
        let ts = timefmt::format(base() + Duration::seconds(i as i64 * 97));
        let mut e = entry(
            &format!("e{i}"),
            &ts,
            &format!("src/f{}.rs", i % 9),
            ["a", "b", "sub-1", "c"][i % 4],
            ["Write", "Edit", "Bash", "MultiEdit"][i % 4],
        );
        e.repo.branch = ["main", "feature/x"][i % 2].into();
        if i % 5 == 0 {
            e.event.session_id = None;
            for m in &mut e.mutations {
                m.session_id = None;
            }
        }
        match i % 4 {
            0 => {
                e.event.raw_payload = format!(r#"{{"agent_type":"Plan","n":{i}}}"#);
            }
            2 => {
                // As the daemon extracts it from the payload.
                e.event.command = Some(format!("cargo test shard{i}"));
                e.event.raw_payload =
                    format!(r#"{{"tool_input":{{"command":"cargo test shard{i}"}}}}"#);
                e.mutations[0].command = e.event.command.clone();
            }
            _ => {}
        }
        if i % 11 == 0 && i % 4 != 0 {
            e.event.hook_type = "user_prompt_submit".into();
            e.event.tool_name = None;
            e.event.raw_payload = format!(r#"{{"prompt":"rename the checkout flow {i}"}}"#);
            e.mutations.clear();
        }
        if i % 13 == 0 {
            e.event.file_path = Some(PathBuf::from(format!("/r/src/f{}.rs", i % 9)));
        }
        rows.push(e);
    }
    let mut ledger = Ledger::in_memory().unwrap();
    let mut first: Vec<LedgerEntry> = rows[..40].to_vec();
    first.push(rows[3].clone());
    assert_eq!(
        ledger.append(&first).unwrap(),
        40,
        "a duplicate in one batch is stored once"
    );
    assert_eq!(ledger.append(&rows[20..60]).unwrap(), 20);
    assert_eq!(ledger.append(&rows[60..]).unwrap(), 640);
    // A late batch: rows of the first hours, stored last.
    let late: Vec<LedgerEntry> = (0..30)
        .map(|i| {
            let mut e = rows[i * 3].clone();
            e.event.event_id = format!("late{i}");
            for m in &mut e.mutations {
                m.event_id = format!("late{i}");
            }
            e
        })
        .collect();
    assert_eq!(ledger.append(&late).unwrap(), 30);
    let conn = ledger.connection();
    let mutation_rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM mutations", [], |r| r.get(0))
        .unwrap();
    assert!(mutation_rows > 600, "{mutation_rows}");

    // What migrations 0004, 0005, 0008 and 0010 build from the rows.
    let expected = [
        (
            "SELECT * FROM mutation_hours ORDER BY 1, 2, 3, 4, 5, 6",
            "SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), tool_name, hook_type, branch, COUNT(*) \
             FROM mutations GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6",
        ),
        (
            "SELECT * FROM event_hours ORDER BY 1, 2, 3, 4, 5, 6",
            "SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), coalesce(tool_name, ''), hook_type, branch, COUNT(*) \
             FROM events GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6",
        ),
        (
            "SELECT * FROM mutation_totals ORDER BY 1",
            "SELECT substr(event_timestamp, 1, 13), COUNT(*) FROM mutations GROUP BY 1 ORDER BY 1",
        ),
        (
            "SELECT * FROM event_totals ORDER BY 1",
            "SELECT substr(event_timestamp, 1, 13), COUNT(*) FROM events GROUP BY 1 ORDER BY 1",
        ),
        (
            "SELECT * FROM mutation_files ORDER BY 1",
            "SELECT file_path, COUNT(*), max(event_timestamp) FROM mutations WHERE file_path IS NOT NULL \
             GROUP BY file_path ORDER BY 1",
        ),
        (
            "SELECT * FROM agents ORDER BY 1",
            "SELECT e.agent_id, CASE WHEN json_valid(e.raw_payload) THEN json_extract(e.raw_payload, '$.agent_type') END, \
                    e.session_id, e.event_timestamp, e.agent_kind \
             FROM events e JOIN (SELECT agent_id, min(id) AS id FROM events GROUP BY agent_id) f ON e.id = f.id ORDER BY 1",
        ),
    ];
    for (derived, from_rows) in expected {
        let want = all_rows(conn, from_rows);
        assert!(!want.is_empty(), "{from_rows}");
        assert_eq!(all_rows(conn, derived), want, "{derived}");
    }
    for table in [Table::Mutations, Table::Events] {
        let want = all_rows(conn, &format!("{} ORDER BY 1", runs_from_rows(table)));
        assert!(want.len() > 1, "{table:?}: {want:?}");
        let stored = format!("SELECT * FROM {} ORDER BY 1", table.runs());
        assert_eq!(all_rows(conn, &stored), want, "{stored}");
    }
    let agent_types = all_rows(
        conn,
        "SELECT agent_type FROM agents WHERE agent_type IS NOT NULL",
    );
    assert_eq!(
        agent_types.len(),
        1,
        "agent a's first event names its type: {agent_types:?}"
    );

    // The search indexes hold each row's words once, as 0008 builds them.
    for (index, table, text) in [
        (
            "mutation_search",
            "mutations",
            "coalesce(file_path, '') || ' ' || coalesce(command, '')",
        ),
        (
            "event_search",
            "events",
            "coalesce(file_path, '') || ' ' || coalesce(CASE WHEN NOT json_valid(raw_payload) THEN NULL \
             WHEN hook_type = 'user_prompt_submit' THEN json_extract(raw_payload, '$.prompt') \
             WHEN tool_name = 'Bash' THEN json_extract(raw_payload, '$.tool_input.command') END, '')",
        ),
    ] {
        for word in [
            "src", "f4", "cargo", "shard42", "checkout", "flow", "rename",
        ] {
            let found = all_rows(
                conn,
                &format!(
                    "SELECT rowid FROM {index} WHERE {index} MATCH '\"{word}\"*' ORDER BY rowid"
                ),
            );
            let want = all_rows(
                conn,
                &format!("SELECT id FROM {table} WHERE ({text}) LIKE '%{word}%' ORDER BY id"),
            );
            assert_eq!(found, want, "{index} {word}");
        }
    }
}

#[test]
fn a_chart_counts_only_the_rows_of_its_range_wherever_the_range_cuts_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 400, 0);
    let q = query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter::default(),
    );
    let all = run(&q).unwrap();
    let at = |minutes: i64, seconds: i64| {
        base() + Duration::minutes(minutes) + Duration::seconds(seconds)
    };
    // Inside the history, both ends inside an hour; past its start; past its end;
    // around all of it (the app's first look at a short history, then its
    // thirty minutes before the newest row).
    for (from, to) in [
        (at(90, 10), at(150, 5)),
        (at(-30, 0), at(20, 0)),
        (at(200, 7), at(400, 0)),
        (at(-600, 0), at(600, 0)),
    ] {
        let h = histogram::<MutationRow>(
            &q,
            &HistogramRequest {
                from: Some(timefmt::format(from)),
                to: Some(timefmt::format(to)),
                ..HistogramRequest::default()
            },
        )
        .unwrap();
        let expected = all
            .iter()
            .filter(|r| {
                let t = DateTime::parse_from_rfc3339(&r.record.event_timestamp).unwrap();
                t >= from && t < to
            })
            .count() as u64;
        assert_eq!(h.total, expected, "{from} – {to}");
    }
    // One row: the whole history is one bar, and so is its half hour.
    let one = repo_with_rows(dir.path(), "one", 1, 0);
    let q = query(QueryScope::Repo(one), dir.path(), MutationFilter::default());
    let whole = histogram::<MutationRow>(&q, &HistogramRequest::default()).unwrap();
    assert_eq!(whole.total, 1);
    let end = DateTime::parse_from_rfc3339(&whole.end)
        .unwrap()
        .with_timezone(&Utc);
    let half_hour = histogram::<MutationRow>(
        &q,
        &HistogramRequest {
            from: Some(timefmt::format(end - Duration::minutes(30))),
            to: Some(whole.end),
            ..HistogramRequest::default()
        },
    )
    .unwrap();
    assert_eq!(half_hour.total, 1);
}

#[test]
fn counts_remembered_between_reads_follow_what_is_appended_late_rows_included() {
    use super::filter::Resolved;
    use super::hour_cache::EXTENDED;
    use super::window::GroupBy;

    let dir = tempfile::tempdir().unwrap();
    let root = repo_with_rows(dir.path(), "r", 300, 0);
    let path = dirs::repo_ledger_path(&root);
    let groups = [GroupBy::Nothing, GroupBy::Agent, GroupBy::Tool];
    let mut filters = filters();
    // Several files, known in another order once rows are appended.
    filters.push(MutationFilter {
        file: Some("f[13].rs".into()),
        ..MutationFilter::default()
    });
    // Each read opens the ledger afresh, as a page does.
    let check = |filter: &MutationFilter, group: GroupBy| {
        let ledger = Ledger::open_existing(&path).unwrap();
        let resolved = Resolved::new(&ledger, Table::Mutations, filter).unwrap();
        let remembered = ledger
            .hour_counts(Table::Mutations, &resolved, group)
            .unwrap();
        let counted = ledger
            .count_hours(Table::Mutations, &resolved, group)
            .unwrap();
        assert_eq!(remembered, counted, "{filter:?} by {group:?}");
        assert!(!counted.is_empty(), "{filter:?} by {group:?}");
    };
    for filter in &filters {
        for group in groups {
            check(filter, group);
        }
    }
    assert_eq!(EXTENDED.with(std::cell::Cell::get), 0);

    // Rows appended since: late ones (inside the filters' time bounds) and
    // new ones, matching some of the filters.
    let mut ledger = Ledger::open_or_create(&path).unwrap();
    let appended: Vec<LedgerEntry> = (0..12_i64)
        .map(|i| {
            let at = if i % 2 == 0 {
                base() + Duration::minutes(25 + i)
            } else {
                base() + Duration::hours(7) + Duration::minutes(i)
            };
            entry(
                &format!("added-{i}"),
                &timefmt::format(at),
                if i % 3 == 0 { "f3.rs" } else { "g.rs" },
                ["a", "b"][usize::try_from(i % 2).unwrap()],
                if i % 4 == 0 { "Edit" } else { "Write" },
            )
        })
        .collect();
    ledger.append(&appended).unwrap();
    drop(ledger);
    for filter in &filters {
        for group in groups {
            let before = EXTENDED.with(std::cell::Cell::get);
            check(filter, group);
            let extended = EXTENDED.with(std::cell::Cell::get) > before;
            // Each counted only the rows added, from its entry; but a search
            // with time bounds resolves to the ids its bounds hold, which
            // the late rows widened: another filter, counted afresh.
            let widened = filter.search.is_some() && filter.since.is_some();
            assert_eq!(extended, !widened, "{filter:?} by {group:?}");
        }
    }
}

/// A ledger whose agents are of several coding agents: `claude` agents
/// `a` and `b`, a `gemini` agent `g`, and `extra` more agents of each of
/// `extra_kinds`, rows about 37 s apart.
fn repo_of_coding_agents(dir: &Path, extra: usize, extra_kinds: &[&str]) -> PathBuf {
    let (root, mut ledger) = empty_repo(dir, "kinds");
    let mut agents: Vec<(String, &str)> = vec![
        ("a".into(), "claude"),
        ("g".into(), "gemini"),
        ("b".into(), "claude"),
    ];
    for kind in extra_kinds {
        agents.extend((0..extra).map(|i| (format!("{kind}-{i}"), *kind)));
    }
    let n = 300.max(6 * agents.len());
    let entries: Vec<LedgerEntry> = (0..n)
        .map(|i| {
            let step = i64::try_from(i).unwrap();
            let ts = timefmt::format(base() + Duration::milliseconds(step * 37_000));
            let (agent, kind) = &agents[i % agents.len()];
            let mut e = entry(
                &format!("k-{i}"),
                &ts,
                &format!("f{}.rs", i % 4),
                agent,
                "Write",
            );
            e.event.agent_kind = (*kind).to_owned();
            for m in &mut e.mutations {
                m.agent_kind = (*kind).to_owned();
            }
            e
        })
        .collect();
    ledger.append(&entries).unwrap();
    root
}

fn of_kind(kind: &str) -> MutationFilter {
    MutationFilter {
        agent_kind: Some(kind.into()),
        ..MutationFilter::default()
    }
}

#[test]
fn a_coding_agents_rows_are_read_through_its_agents_whichever_side_is_few() {
    use super::filter::{AGENTS_BY_ID, KindAgents};
    // Few of each: the agents by id.
    let dir = tempfile::tempdir().unwrap();
    let root = repo_of_coding_agents(dir.path(), 0, &[]);
    let ledger = Ledger::open_existing(&dirs::repo_ledger_path(&root)).unwrap();
    assert_eq!(ledger.agent_kinds().unwrap(), ["claude", "gemini"]);
    // Events carry their coding agent too (the activity list names it).
    let events = ledger.activity(&of_kind("gemini")).unwrap();
    assert_eq!(events.len(), 100);
    assert!(
        events
            .iter()
            .all(|e| e.agent_kind == "gemini" && e.agent_id == "g")
    );
    assert_eq!(
        ledger.agents_of_kind("gemini").unwrap(),
        KindAgents::These(vec!["g".into()])
    );
    assert_eq!(
        ledger.agents_of_kind("codex").unwrap(),
        KindAgents::These(vec![])
    );
    let rows = run(&query(
        QueryScope::Repo(root.clone()),
        dir.path(),
        of_kind("gemini"),
    ))
    .unwrap();
    assert_eq!(rows.len(), 100);
    assert!(
        rows.iter()
            .all(|r| r.record.agent_id == "g" && r.record.agent_kind == "gemini")
    );
    check_every_anchor(
        &root,
        dir.path(),
        vec![
            of_kind("gemini"),
            of_kind("claude"),
            MutationFilter {
                agent: Some("a".into()),
                ..of_kind("claude")
            },
            MutationFilter {
                since: Some(base() + Duration::minutes(20)),
                until: Some(base() + Duration::minutes(150)),
                search: Some("f1".into()),
                ..of_kind("gemini")
            },
        ],
    );
    // An agent of another coding agent: nothing.
    let none = run(&query(
        QueryScope::Repo(root),
        dir.path(),
        MutationFilter {
            agent: Some("g".into()),
            ..of_kind("claude")
        },
    ))
    .unwrap();
    assert!(none.is_empty());

    // Claude's agents many, the others few: every agent but those.
    let dir = tempfile::tempdir().unwrap();
    let root = repo_of_coding_agents(dir.path(), AGENTS_BY_ID, &["claude"]);
    let ledger = Ledger::open_existing(&dirs::repo_ledger_path(&root)).unwrap();
    assert_eq!(
        ledger.agents_of_kind("claude").unwrap(),
        KindAgents::AllBut(vec!["g".into()])
    );
    check_every_anchor(
        &root,
        dir.path(),
        vec![of_kind("claude"), of_kind("gemini")],
    );

    // Many on both sides: each row's own kind.
    let dir = tempfile::tempdir().unwrap();
    let root = repo_of_coding_agents(dir.path(), AGENTS_BY_ID, &["claude", "gemini"]);
    let ledger = Ledger::open_existing(&dirs::repo_ledger_path(&root)).unwrap();
    assert_eq!(ledger.agents_of_kind("gemini").unwrap(), KindAgents::Many);
    check_every_anchor(
        &root,
        dir.path(),
        vec![of_kind("claude"), of_kind("gemini")],
    );
}

#[test]
fn an_agents_coding_agent_is_found_from_its_first_event_when_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_of_coding_agents(dir.path(), 0, &[]);
    let path = dirs::repo_ledger_path(&root);
    // Back to what a hookd of schema 13 left: kinds on the rows only.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP INDEX agents_agent_kind;
         ALTER TABLE agents DROP COLUMN agent_kind;
         PRAGMA user_version = 13;",
    )
    .unwrap();
    drop(conn);
    let ledger = Ledger::open_existing(&path).unwrap();
    let kinds: Vec<(String, String)> = ledger
        .connection()
        .prepare("SELECT agent_id, agent_kind FROM agents ORDER BY 1")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        kinds,
        [
            ("a".to_owned(), "claude".to_owned()),
            ("b".into(), "claude".into()),
            ("g".into(), "gemini".into())
        ]
    );
}
