//! The sink's checks of the ledgers it opens: a big ledger is checked in the
//! background while events are written, and what was written meanwhile
//! survives the ledger being found damaged; a sound ledger is checked once
//! per file and run. On real ledger files, damaged by hand.

use std::path::Path;

use rusqlite::Connection;

use super::integrity::{self, Verdict};
use super::sink::LedgerSink;
use super::tests::one_entry;
use super::*;

/// A ledger of 300 events at `path`, plus a table the sink never writes
/// to, whose only page is then overwritten: `quick_check` finds it, while
/// appends (which touch other pages) still work.
pub(crate) fn damaged_off_the_write_path(path: &Path) {
    with_old_rows(path, 300);
    let (root, page_size) = {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "CREATE TABLE bystander(x TEXT); INSERT INTO bystander VALUES ('a'), ('b');
             PRAGMA wal_checkpoint(TRUNCATE);",
        )
        .unwrap();
        let root: i64 = conn
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = 'bystander'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let page_size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        (root, page_size)
    };
    let mut bytes = std::fs::read(path).unwrap();
    let start = usize::try_from((root - 1) * page_size).unwrap();
    // An invalid b-tree page type, and garbage after it.
    bytes[start..start + 64].fill(0x7f);
    std::fs::write(path, &bytes).unwrap();
    assert!(matches!(integrity::verify(path), Verdict::Bad(_)));
}

/// A ledger at `path` of `n` events (`old0`…), one batch each.
pub(crate) fn with_old_rows(path: &Path, n: usize) {
    let mut ledger = Ledger::open_or_create(path).unwrap();
    for i in 0..n {
        ledger.append(&one_entry(&format!("old{i}"))).unwrap();
    }
}

pub(crate) fn event_ids(path: &Path) -> Vec<String> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT event_id FROM events ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

#[test]
fn a_big_ledger_is_checked_in_the_background_and_what_was_written_meanwhile_survives_its_damage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    damaged_off_the_write_path(&path);

    let mut sink = LedgerSink::new(dir.path().join("data"));
    sink.set_check_limits(0, 1 << 20);
    // The first write does not wait for the check.
    assert_eq!(sink.append(&path, &one_entry("during")).unwrap(), 1);
    assert!(sink.is_being_checked(&path));
    assert!(sink.take_moved_aside().is_empty());

    sink.wait_for_checks();
    // The next write finds the verdict: the file is moved aside, a new
    // ledger holds what was written to the damaged one, then this batch.
    assert_eq!(sink.append(&path, &one_entry("after")).unwrap(), 1);
    let moved = sink.take_moved_aside();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert!(!moved[0].reason.is_empty());
    assert!(!sink.is_being_checked(&path));
    assert_eq!(event_ids(&path), ["during", "after"]);
    assert_eq!(integrity::verify(&path), Verdict::Ok { events: 2 });
    // Kept, as it was: the old rows and the one written while it was checked.
    let aside = event_ids(&moved[0].moved_to);
    assert_eq!(aside.len(), 301);
    assert_eq!(aside.last().map(String::as_str), Some("during"));
}

#[test]
fn what_is_written_beyond_the_replay_limit_stays_only_in_the_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    damaged_off_the_write_path(&path);

    let mut sink = LedgerSink::new(dir.path().join("data"));
    sink.set_check_limits(0, 1);
    assert_eq!(sink.append(&path, &one_entry("during")).unwrap(), 1);
    sink.wait_for_checks();
    assert_eq!(sink.append(&path, &one_entry("after")).unwrap(), 1);
    let moved = sink.take_moved_aside();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(event_ids(&path), ["after"]);
    assert_eq!(
        event_ids(&moved[0].moved_to).last().map(String::as_str),
        Some("during")
    );
}

#[test]
fn a_sound_big_ledger_is_checked_once_per_run_even_when_opened_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    Ledger::open_or_create(&path).unwrap();
    let mut sink = LedgerSink::new(dir.path().join("data"));
    sink.set_check_limits(0, 1 << 20);
    assert_eq!(sink.append(&path, &one_entry("a")).unwrap(), 1);
    assert!(sink.is_being_checked(&path));
    sink.wait_for_checks();
    assert_eq!(sink.append(&path, &one_entry("b")).unwrap(), 1);
    assert!(!sink.is_being_checked(&path), "the check passed");
    assert_eq!(sink.checks_started(), 1);

    // Closed and opened again (as the cache of open ledgers does): not
    // checked again.
    sink.close_all();
    assert_eq!(sink.append(&path, &one_entry("c")).unwrap(), 1);
    assert_eq!(sink.checks_started(), 1);

    // Another file put at the same path (a new inode: made beside it, then
    // renamed over it) is checked.
    sink.close_all();
    let other = path.with_file_name("other.db");
    Ledger::open_or_create(&other).unwrap();
    for suffix in SIDE_FILE_SUFFIXES {
        let _ = std::fs::remove_file(with_suffix(&path, suffix));
    }
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(sink.append(&path, &one_entry("d")).unwrap(), 1);
    assert_eq!(sink.checks_started(), 2);
    sink.wait_for_checks();
    assert_eq!(sink.append(&path, &one_entry("e")).unwrap(), 1);
    assert!(sink.take_moved_aside().is_empty());
    assert_eq!(event_ids(&path), ["d", "e"]);

    // A ledger the sink creates is not checked.
    let new = dir.path().join("new/.hookd/mutations.db");
    assert_eq!(sink.append(&new, &one_entry("f")).unwrap(), 1);
    assert!(!sink.is_being_checked(&new));
    assert_eq!(sink.checks_started(), 2);
}

#[test]
fn a_small_ledger_is_still_checked_before_its_first_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    damaged_off_the_write_path(&path);
    let mut sink = LedgerSink::new(dir.path().join("data"));
    assert_eq!(sink.append(&path, &one_entry("new")).unwrap(), 1);
    assert!(!sink.is_being_checked(&path));
    assert_eq!(sink.take_moved_aside().len(), 1);
    assert_eq!(event_ids(&path), ["new"]);
}

#[test]
fn a_write_that_meets_a_damaged_page_moves_the_ledger_aside_and_writes_into_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    with_old_rows(&path, 300);
    // The page the next event lands on: the rightmost leaf of `events`.
    let (page, page_size) = {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        let page: i64 = conn
            .query_row(
                "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' \
                 ORDER BY path DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let page_size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        (page, page_size)
    };
    let mut bytes = std::fs::read(&path).unwrap();
    let start = usize::try_from((page - 1) * page_size).unwrap();
    // A leaf claiming more cells than a page can hold.
    bytes[start + 3..start + 5].copy_from_slice(&[0xff, 0xff]);
    std::fs::write(&path, &bytes).unwrap();

    let mut sink = LedgerSink::new(dir.path().join("data"));
    // Checked in the background: the write comes first and meets the page.
    sink.set_check_limits(0, 1 << 20);
    assert_eq!(sink.append(&path, &one_entry("new")).unwrap(), 1);
    let moved = sink.take_moved_aside();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert!(moved[0].reason.contains("malformed"), "{moved:?}");
    assert_eq!(event_ids(&path), ["new"]);
    assert_eq!(
        std::fs::read(&moved[0].moved_to).unwrap(),
        bytes,
        "kept as it was"
    );
    sink.wait_for_checks();
    assert_eq!(sink.append(&path, &one_entry("next")).unwrap(), 1);
    assert_eq!(event_ids(&path), ["new", "next"]);
    assert!(sink.take_moved_aside().is_empty());
}
