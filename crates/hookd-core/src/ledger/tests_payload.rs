//! Payloads whose large strings the ledger keeps in the content store
//! (migration 0012, [`super::payload`]): stored small, read back whole.

use super::content_store::{CONTENT_DIR, ContentHash};
use super::payload::MIN_REFERENCED_BYTES;
use super::tests::{pairs, write_with};
use super::*;

/// A file of about 2 KB, text like an agent writes.
fn content(seed: &str) -> String {
    (0..40)
        .map(|n| format!("    let v{n} = compute(\"{seed}\", {n}); // é\n"))
        .collect()
}

/// A Write's `PostToolUse` as Claude Code sends it: the content in the
/// input and again in the response, with the file's old content.
fn write_payload(file: &str, before: &str, after: &str) -> String {
    serde_json::json!({
        "session_id": "s",
        "transcript_path": "/home/u/.claude/projects/x.jsonl",
        "cwd": "/r",
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": file, "content": after},
        "tool_response": {"type": "update", "filePath": file, "content": after, "originalFile": before},
        "tool_use_id": "toolu_1",
    })
    .to_string()
}

fn write_entry(id: &str, minute: u32, payload: &str) -> LedgerEntry {
    write_with(id, minute, "/r/a.rs", payload)
}

fn file_ledger() -> (tempfile::TempDir, Ledger) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::open_or_create(&dir.path().join(".hookd/mutations.db")).unwrap();
    (dir, ledger)
}

#[test]
fn a_writes_contents_are_stored_once_in_the_store_and_every_reader_gets_the_payload_whole() {
    let (dir, mut ledger) = file_ledger();
    let (before, after) = (content("old"), content("new"));
    let payload = write_payload("/r/a.rs", &before, &after);
    ledger.append(&[write_entry("w", 0, &payload)]).unwrap();

    let stored: Vec<(String, Option<i64>)> =
        pairs(&ledger, "SELECT raw_payload, payload_refs FROM events");
    let (text, refs) = &stored[0];
    assert_eq!(*refs, Some(3), "the content twice and the old content");
    assert!(
        text.len() < payload.len() / 4,
        "{} bytes stored of {}",
        text.len(),
        payload.len()
    );
    assert!(!text.contains("compute"), "{text}");
    assert!(text.contains(ContentHash::of(after.as_bytes()).as_str()));
    // The fields the ledger reads in SQL are still there.
    let path: String = ledger
        .connection()
        .query_row(
            "SELECT json_extract(raw_payload, '$.tool_input.file_path') FROM events",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(path, "/r/a.rs");

    // Every way hookd reads a payload gives the received bytes.
    let rows = ledger.mutations(&MutationFilter::default()).unwrap();
    assert_eq!(rows[0].record.raw_payload, payload);
    let id = rows[0].id;
    assert_eq!(
        ledger.mutation(id).unwrap().unwrap().record.raw_payload,
        payload
    );
    let event_id: i64 = ledger
        .connection()
        .query_row("SELECT id FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        ledger.event(event_id).unwrap().unwrap().raw_payload,
        payload
    );
    let changes = versions::changes(
        ledger.connection(),
        &versions::Selection::Session("s".into()),
    )
    .unwrap();
    assert_eq!(changes[0].raw_payload, payload);
    // And so does a second process opening the ledger.
    drop(ledger);
    let reopened = Ledger::open_existing(&dir.path().join(".hookd/mutations.db")).unwrap();
    let rows = reopened.mutations(&MutationFilter::default()).unwrap();
    assert_eq!(rows[0].record.raw_payload, payload);
}

#[test]
fn a_missing_content_is_an_error_that_names_it_never_a_payload_with_a_hole() {
    let (dir, mut ledger) = file_ledger();
    let after = content("new");
    let payload = write_payload("/r/a.rs", &content("old"), &after);
    ledger.append(&[write_entry("w", 0, &payload)]).unwrap();
    drop(ledger);
    std::fs::remove_dir_all(dir.path().join(".hookd").join(CONTENT_DIR)).unwrap();

    let ledger = Ledger::open_existing(&dir.path().join(".hookd/mutations.db")).unwrap();
    let err = ledger.mutations(&MutationFilter::default()).unwrap_err();
    let err = crate::error::ErrorChain(&err).to_string();
    assert!(err.contains("cannot be read back"), "{err}");
    assert!(err.contains("is not in the store"), "{err}");
    // A list, which never reads payloads, still works.
    let (events, mutations) = ledger.counts().unwrap();
    assert_eq!((events, mutations), (1, 1));
}

#[test]
fn payloads_that_cannot_be_given_back_exactly_or_have_nothing_large_are_stored_as_received() {
    let (_dir, mut ledger) = file_ledger();
    let big = "x".repeat(MIN_REFERENCED_BYTES * 2);
    let spaced = format!("{{\"tool_input\": {{\"content\": \"{big}\"}}}}");
    let small = r#"{"tool_input":{"content":"small"}}"#.to_owned();
    let command = serde_json::json!({"tool_input": {"command": big}}).to_string();
    ledger
        .append(&[
            write_entry("spaced", 0, &spaced),
            write_entry("small", 1, &small),
            write_entry("command", 2, &command),
        ])
        .unwrap();
    let stored: Vec<(String, Option<i64>)> = pairs(
        &ledger,
        "SELECT raw_payload, payload_refs FROM events ORDER BY id",
    );
    assert_eq!(
        stored,
        [(spaced, None), (small, None), (command, None)],
        "stored byte for byte as received"
    );
}

#[test]
fn a_ledger_without_a_store_and_a_store_it_may_not_use_keep_payloads_whole() {
    let payload = write_payload("/r/a.rs", &content("old"), &content("new"));
    let mut memory = Ledger::in_memory().unwrap();
    memory.append(&[write_entry("w", 0, &payload)]).unwrap();
    let stored: Vec<(String, Option<i64>)> =
        pairs(&memory, "SELECT raw_payload, payload_refs FROM events");
    assert_eq!(stored, [(payload.clone(), None)]);

    // A content directory someone replaced with a link: the store refuses
    // it, and the event is stored whole rather than lost or written there.
    let (dir, mut ledger) = file_ledger();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        elsewhere.path(),
        dir.path().join(".hookd").join(CONTENT_DIR),
    )
    .unwrap();
    ledger.append(&[write_entry("w", 0, &payload)]).unwrap();
    let stored: Vec<(String, Option<i64>)> =
        pairs(&ledger, "SELECT raw_payload, payload_refs FROM events");
    assert_eq!(stored, [(payload.clone(), None)]);
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    assert_eq!(
        ledger.mutations(&MutationFilter::default()).unwrap()[0]
            .record
            .raw_payload,
        payload
    );
}

#[test]
fn compacting_an_older_history_stores_it_as_new_rows_are_and_every_payload_reads_the_same() {
    let (dir, mut ledger) = file_ledger();
    let path = dir.path().join(".hookd/mutations.db");
    // History written as a hookd of schema 11 wrote it: payloads whole,
    // and one row from before schema 9 whose mutation repeats its payload.
    ledger.store_payloads_as_received();
    let payloads: Vec<String> = (0..30)
        .map(|n| {
            write_payload(
                "/r/a.rs",
                &content(&format!("v{n}")),
                &content(&format!("v{}", n + 1)),
            )
        })
        .chain([
            r#"{"tool_input":{"content":"small"}}"#.to_owned(),
            format!(
                "{{\"tool_input\": {{\"content\": \"{}\"}}}}",
                "x".repeat(2000)
            ),
        ])
        .collect();
    let entries: Vec<LedgerEntry> = payloads
        .iter()
        .enumerate()
        .map(|(n, p)| write_entry(&format!("e{n:02}"), u32::try_from(n).unwrap(), p))
        .collect();
    ledger.append(&entries).unwrap();
    ledger
        .connection()
        .execute_batch(
            "DROP TRIGGER mutations_no_update;
             UPDATE mutations SET raw_payload = (SELECT raw_payload FROM events WHERE event_id = 'e00')
              WHERE event_id = 'e00';
             CREATE TRIGGER mutations_no_update BEFORE UPDATE ON mutations
             BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: mutations cannot be updated'); END;",
        )
        .unwrap();
    let read_all = |ledger: &Ledger| -> Vec<String> {
        ledger
            .mutations(&MutationFilter::default())
            .unwrap()
            .into_iter()
            .map(|m| m.record.raw_payload)
            .collect()
    };
    assert_eq!(read_all(&ledger), payloads);
    let stored_bytes = |ledger: &Ledger| -> i64 {
        ledger
            .connection()
            .query_row(
                "SELECT (SELECT sum(length(raw_payload)) FROM events) + (SELECT sum(length(raw_payload)) FROM mutations)",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    let before = stored_bytes(&ledger);
    drop(ledger);

    let mut ledger = Ledger::open_existing(&path).unwrap();
    let mut steps = Vec::new();
    let report = ledger.compact_history(|p| steps.push(p.step)).unwrap();
    assert_eq!(
        report,
        compact::CompactReport {
            mutations: 1,
            events: 30,
            references: 90,
            kept: 1,
        },
        "the spaced payload stays whole, the small one is not looked at"
    );
    assert!(steps.contains(&1) && steps.contains(&2), "{steps:?}");
    assert_eq!(read_all(&ledger), payloads, "every payload reads the same");
    let after = stored_bytes(&ledger);
    assert!(after * 3 < before, "{after} bytes stored of {before}");
    // Still append-only, and a second run has nothing left to do.
    let err = ledger
        .connection()
        .execute("UPDATE events SET hook_type = 'x'", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let err = ledger
        .connection()
        .execute("UPDATE mutations SET tool_name = 'x'", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let again = ledger.compact_history(|_| {}).unwrap();
    assert_eq!(
        again,
        compact::CompactReport {
            kept: 1,
            ..Default::default()
        }
    );
    assert!(matches!(
        integrity::verify(&path),
        integrity::Verdict::Ok { events: 32 }
    ));
}
