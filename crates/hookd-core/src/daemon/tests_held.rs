//! Journal files stay while the ledger their events went to is being
//! checked in the background, so a crash in that time loses nothing even
//! when the next start's check finds the ledger damaged. A real ingest
//! thread and sink, real ledger and journal files; the check is held back
//! (`CheckGate`) so that it is still under way when the test needs it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use hookd_testkit::payload::tool_payload;
use hookd_testkit::wait::wait_until_async;
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::daemon::accepted::AcceptedJournal;
use crate::daemon::bash_tracker::BashTracker;
use crate::daemon::held::{self, HeldFiles};
use crate::daemon::ingest::{self, IngestConfig, IngestItem, IngestReport, Settled};
use crate::daemon::journal;
use crate::daemon::stats::DaemonStats;
use crate::dirs;
use crate::ledger::sink::LedgerSink;
use crate::ledger::tests_sink_check::{damaged_off_the_write_path, event_ids, with_old_rows};

const WAIT: Duration = Duration::from_secs(20);

// Event ids as emitters choose them (UUIDv7; the daemon replaces others).
const R1: &str = "019ac2d0-0000-7000-8000-000000000001";
const R2: &str = "019ac2d0-0000-7000-8000-000000000002";
const C1: &str = "019ac2d0-0000-7000-8000-0000000000c1";
const C2: &str = "019ac2d0-0000-7000-8000-0000000000c2";
const C3: &str = "019ac2d0-0000-7000-8000-0000000000c3";

/// A running ingest thread and what talks to it.
struct Ingest {
    events: mpsc::Sender<IngestItem>,
    thread: JoinHandle<IngestReport>,
    stats: Arc<DaemonStats>,
}

impl Ingest {
    fn start(data_dir: &Path, sink: LedgerSink) -> Self {
        Self::start_with_notices(data_dir, sink, broadcast::channel(16).0)
    }

    fn start_with_notices(
        data_dir: &Path,
        sink: LedgerSink,
        notices: broadcast::Sender<crate::record::CommitNotice>,
    ) -> Self {
        let stats = Arc::new(DaemonStats::default());
        let (events, receiver) = mpsc::channel(64);
        let thread = ingest::spawn_with_sink(
            IngestConfig {
                data_dir: data_dir.to_path_buf(),
                stats: Arc::clone(&stats),
                notices,
                bash: Arc::new(Mutex::new(BashTracker::new())),
                contents: Arc::new(Mutex::new(crate::daemon::capture::ContentTracker::new())),
                stores: Arc::new(crate::daemon::capture::StoreCache::default()),
                writes_locally: true,
                publish: None,
            },
            receiver,
            sink,
        )
        .unwrap();
        Self {
            events,
            thread,
            stats,
        }
    }

    /// Replays `data_dir`'s journal once, as a daemon's journal tick does;
    /// how many events were queued.
    async fn replay_once(&self, data_dir: &Path, held: &HeldFiles) -> u64 {
        let mut taken = 0;
        journal::replay_once(data_dir, &self.events, &self.stats, held, &mut taken).await
    }

    /// Stops the thread (as at shutdown) and returns its report.
    fn stop(self) -> IngestReport {
        drop(self.events);
        self.thread.join().unwrap()
    }
}

/// Journal lines of Write events in `cwd` (outside git), with these ids.
fn journal_lines(cwd: &Path, ids: &[&str]) -> String {
    ids.iter()
        .map(|id| {
            let payload: serde_json::Value = serde_json::from_str(&tool_payload(
                "PostToolUse",
                "Write",
                cwd,
                id,
                serde_json::json!({"file_path": cwd.join("a.txt"), "content": id}),
            ))
            .unwrap();
            let mut envelope = hookd_proto::Envelope::new(
                "post_tool_use",
                Some("Write".into()),
                payload,
                "2026-01-01T00:00:00Z",
                Some(1),
            );
            envelope.event_id = Some((*id).to_owned());
            envelope.cwd = Some(cwd.display().to_string());
            format!("{}\n", serde_json::to_string(&envelope).unwrap())
        })
        .collect()
}

/// The journal files of `data_dir` other than `pending.jsonl`, by name.
fn journal_files(data_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(hookd_proto::journal::journal_dir(data_dir))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".jsonl"))
        .collect();
    names.sort();
    names
}

fn write_pending(data_dir: &Path, lines: &str) {
    hookd_proto::journal::prepare_dir(data_dir).unwrap();
    std::fs::write(hookd_proto::journal::pending_path(data_dir), lines).unwrap();
}

/// A data dir whose ledger of events outside git already exists (so the
/// sink checks it), and a working directory outside git.
fn setup(damaged: bool) -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let cwd = dir.path().join("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let ledger = dirs::unversioned_ledger_path(&data_dir);
    std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
    if damaged {
        damaged_off_the_write_path(&ledger);
    } else {
        with_old_rows(&ledger, 20);
    }
    (dir, data_dir, cwd, ledger)
}

/// The names of the held files and notes in the journal directory `dir`.
fn held_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("held-"))
        .collect()
}

/// The held files of `data_dir`'s journal.
fn held_files(data_dir: &Path) -> HeldFiles {
    HeldFiles::new(hookd_proto::journal::prepare_dir(data_dir).unwrap())
}

/// A sink that checks every existing ledger in the background, with its
/// checks held back.
fn held_back_sink(data_dir: &Path) -> (LedgerSink, crate::ledger::checker::CheckGate) {
    let mut sink = LedgerSink::new(data_dir.to_path_buf());
    sink.set_check_limits(0, 1 << 20);
    let gate = sink.check_gate();
    gate.close();
    (sink, gate)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn journal_files_stay_while_their_ledger_is_checked_and_go_once_it_passed() {
    let (_dir, data_dir, cwd, ledger) = setup(false);
    let (sink, gate) = held_back_sink(&data_dir);
    let ingest = Ingest::start(&data_dir, sink);
    let held = Arc::new(held_files(&data_dir));

    // A replayed file: its events are stored, the file is held.
    write_pending(&data_dir, &journal_lines(&cwd, &[R1, R2]));
    let queued = ingest.replay_once(&data_dir, &held).await;
    assert_eq!(queued, 2);
    assert!(event_ids(&ledger).ends_with(&[R1.to_owned(), R2.to_owned()]));
    let own = format!("held-{}-0.jsonl", std::process::id());
    assert_eq!(journal_files(&data_dir), vec![own.clone()]);
    assert_eq!(held.len(), 1);
    assert_eq!(ingest.stats.ledgers_being_checked(), vec![ledger.clone()]);

    // An accepted-line segment retired meanwhile is held too.
    let accepted = Arc::new(AcceptedJournal::open(&data_dir).unwrap());
    drop(accepted.append(b"{}").unwrap());
    let stop = CancellationToken::new();
    let retiring = TaskTracker::new();
    let rotation = tokio::spawn(Arc::clone(&accepted).rotate_until(
        ingest.events.clone(),
        Arc::clone(&held),
        retiring.clone(),
        stop.clone(),
    ));
    wait_until_async(WAIT, "the segment is held", async || held.len() == 2).await;
    stop.cancel();
    rotation.await.unwrap();
    retiring.close();
    retiring.wait().await;

    // Asked again while the check is still under way: nothing goes.
    assert_eq!(held.release(&ingest.events).await, 0);
    assert_eq!(
        held::settle(&ingest.events).await,
        Some(Settled::UnderCheck(vec![ledger.clone()]))
    );
    let segment = format!("held-{}-1.jsonl", std::process::id());
    let kept = journal_files(&data_dir);
    assert!(kept.contains(&own) && kept.contains(&segment), "{kept:?}");

    // The check passes: the next question lets both files go.
    gate.open();
    let mut released = 0;
    wait_until_async(WAIT, "the held files go", async || {
        released += held.release(&ingest.events).await;
        released == 2
    })
    .await;
    let left = journal_files(&data_dir);
    assert!(!left.contains(&own) && !left.contains(&segment), "{left:?}");
    assert!(ingest.stats.ledgers_being_checked().is_empty());
    assert!(!ingest.stop().left_under_check);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_while_the_ledger_is_checked_loses_nothing_when_it_proves_damaged() {
    let (_dir, data_dir, cwd, ledger) = setup(true);
    let (sink, _gate) = held_back_sink(&data_dir);
    let ingest = Ingest::start(&data_dir, sink);
    let held = held_files(&data_dir);
    write_pending(&data_dir, &journal_lines(&cwd, &[C1, C2, C3]));
    ingest.replay_once(&data_dir, &held).await;
    // Stored in the (damaged, not yet checked) ledger; the file is held.
    assert!(event_ids(&ledger).ends_with(&[C1.to_owned(), C2.to_owned(), C3.to_owned()]));
    assert_eq!(held.len(), 1);

    // The daemon dies before the check is over; all that is on disk is the
    // damaged ledger and the held file.
    assert!(ingest.stop().left_under_check);
    drop(held);

    // The next start replays the held file as a dead daemon's: that opens
    // the ledger, checked before this write (it is small), found damaged and
    // moved aside; the events go into the new ledger, and the file goes.
    journal::adopt_leftovers(&data_dir);
    let ingest = Ingest::start(&data_dir, LedgerSink::new(data_dir.clone()));
    let held = held_files(&data_dir);
    let queued = ingest.replay_once(&data_dir, &held).await;
    assert_eq!(queued, 3);
    assert_eq!(event_ids(&ledger), [C1, C2, C3]);
    let moved = ingest.stats.moved_aside();
    assert_eq!(moved.len(), 1, "the damaged ledger was moved aside");
    assert!(moved[0].moved_to.exists());
    assert!(held.is_empty());
    assert!(
        journal_files(&data_dir).is_empty(),
        "{:?}",
        journal_files(&data_dir)
    );
    assert!(!ingest.stop().left_under_check);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_files_are_written_again_when_the_check_finds_damage_beyond_what_memory_kept() {
    let (_dir, data_dir, cwd, ledger) = setup(true);
    // The sink keeps nothing in memory (a limit of one byte).
    let mut sink = LedgerSink::new(data_dir.clone());
    sink.set_check_limits(0, 1);
    let gate = sink.check_gate();
    gate.close();
    let ingest = Ingest::start(&data_dir, sink);
    let held = held_files(&data_dir);
    write_pending(&data_dir, &journal_lines(&cwd, &[C1, C2, C3]));
    ingest.replay_once(&data_dir, &held).await;
    assert_eq!(held.len(), 1);

    // The check runs and finds the damage: the ledger is moved aside, with
    // nothing kept in memory to write again...
    gate.open();
    let mut seen = 0;
    wait_until_async(WAIT, "the damaged ledger moved aside", async || {
        // A barrier takes the finished check in.
        held::settle(&ingest.events).await;
        !ingest.stats.moved_aside().is_empty()
    })
    .await;
    assert!(!std::fs::exists(&ledger).unwrap() || event_ids(&ledger).is_empty());
    // ...but the held file is: written again, into the new ledger.
    journal::replay_held_after_damage(&data_dir, &ingest.events, &ingest.stats, &held, &mut seen)
        .await;
    assert_eq!(event_ids(&ledger), [C1, C2, C3]);
    assert_eq!(held.release(&ingest.events).await, 1);
    assert!(
        journal_files(&data_dir).is_empty(),
        "{:?}",
        journal_files(&data_dir)
    );
    ingest.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_held_is_bounded_the_oldest_going_first() {
    let dir = tempfile::tempdir().unwrap();
    let journal_dir = hookd_proto::journal::prepare_dir(dir.path()).unwrap();
    let held = HeldFiles::with_limit(journal_dir.clone(), 250);
    for n in 0..4 {
        let file = journal_dir.join(format!("accepted-1-{n}.jsonl"));
        std::fs::write(&file, vec![b'x'; 100]).unwrap();
        held.hold(&file, &[]);
    }
    // 400 bytes held against a limit of 250: the two oldest went.
    let pid = std::process::id();
    assert_eq!(
        held.paths(),
        [2, 3].map(|n| journal_dir.join(format!("held-{pid}-{n}.jsonl")))
    );
    assert_eq!(journal_files(dir.path()).len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replaying_events_the_ledger_already_holds_wakes_no_window() {
    let (_dir, data_dir, cwd, ledger) = setup(false);
    let (notices, mut heard) = broadcast::channel(16);
    let ingest = Ingest::start_with_notices(&data_dir, LedgerSink::new(data_dir.clone()), notices);
    let held = held_files(&data_dir);
    let mut taken = 0;
    let mut announced = Vec::new();
    for _ in 0..2 {
        write_pending(&data_dir, &journal_lines(&cwd, &[R1, R2]));
        journal::replay_once(&data_dir, &ingest.events, &ingest.stats, &held, &mut taken).await;
        let mut events = 0;
        while let Ok(notice) = heard.try_recv() {
            events += notice.events.len();
        }
        announced.push(events);
    }
    assert!(event_ids(&ledger).ends_with(&[R1.to_owned(), R2.to_owned()]));
    // The first replay stored two new events; the second, nothing new.
    assert_eq!(announced, [2, 0]);
    ingest.stop();
}

/// A pid no process has (above Linux's largest `pid_max`).
const DEAD_PID: u32 = 2_000_000_000;

/// Renames this process's held files and their notes as a dead daemon's,
/// as a killed daemon leaves them for the next start.
fn as_dead_daemons(data_dir: &Path) {
    let dir = hookd_proto::journal::journal_dir(data_dir);
    let own = format!("held-{}-", std::process::id());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix(&own) {
            std::fs::rename(dir.join(&name), dir.join(format!("held-{DEAD_PID}-{rest}"))).unwrap();
        }
    }
}

/// Stores `ids` through a daemon whose check of the (existing) ledger is
/// held back, then stops it with the check under way: what a daemon killed
/// during the check leaves. The held file's name as a dead daemon's.
async fn killed_during_the_check(data_dir: &Path, cwd: &Path, ids: &[&str]) -> PathBuf {
    let (sink, _gate) = held_back_sink(data_dir);
    let ingest = Ingest::start(data_dir, sink);
    let held = held_files(data_dir);
    write_pending(data_dir, &journal_lines(cwd, ids));
    ingest.replay_once(data_dir, &held).await;
    assert_eq!(held.len(), 1);
    assert!(ingest.stop().left_under_check);
    as_dead_daemons(data_dir);
    hookd_proto::journal::journal_dir(data_dir).join(format!("held-{DEAD_PID}-0.jsonl"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_daemons_held_file_waits_on_its_ledgers_check_without_being_replayed() {
    let (_dir, data_dir, cwd, ledger) = setup(false);
    let left = killed_during_the_check(&data_dir, &cwd, &[R1, R2]).await;
    assert_eq!(held::noted_ledgers(&left), Some(vec![ledger.clone()]));

    // The next start: the note names the ledger, which is there. It is
    // opened (so checked again), and the file held again, unread.
    let (sink, gate) = held_back_sink(&data_dir);
    let ingest = Ingest::start(&data_dir, sink);
    let held = held_files(&data_dir);
    let queued = ingest.replay_once(&data_dir, &held).await;
    assert_eq!(queued, 0, "the held file was not replayed");
    assert_eq!(
        ingest
            .stats
            .events_replayed
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
    assert_eq!(ingest.stats.ledgers_being_checked(), vec![ledger.clone()]);
    let own = format!("held-{}-0", std::process::id());
    assert_eq!(journal_files(&data_dir), vec![format!("{own}.jsonl")]);
    assert_eq!(
        held::noted_ledgers(&held.paths()[0]),
        Some(vec![ledger.clone()])
    );
    assert!(
        !held::note_path(&left).exists(),
        "the old note went with the rename"
    );

    // The check passes: the file and its note go.
    gate.open();
    wait_until_async(WAIT, "the held file goes", async || {
        held.release(&ingest.events).await == 1
    })
    .await;
    let dir = hookd_proto::journal::journal_dir(&data_dir);
    assert!(journal_files(&data_dir).is_empty());
    assert!(!dir.join(format!("{own}.ledgers")).exists());
    assert!(event_ids(&ledger).ends_with(&[R1.to_owned(), R2.to_owned()]));
    ingest.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_daemons_held_file_is_replayed_when_its_ledger_proves_damaged_at_the_restart() {
    let (_dir, data_dir, cwd, ledger) = setup(true);
    let left = killed_during_the_check(&data_dir, &cwd, &[C1, C2, C3]).await;
    assert!(held::noted_ledgers(&left).is_some());

    // The next start opens the (small) ledger, checks it before anything
    // else, finds it damaged and moves it aside: the file is replayed into
    // the new ledger, then goes.
    let ingest = Ingest::start(&data_dir, LedgerSink::new(data_dir.clone()));
    let held = held_files(&data_dir);
    let queued = ingest.replay_once(&data_dir, &held).await;
    assert_eq!(queued, 3);
    assert_eq!(ingest.stats.moved_aside().len(), 1);
    assert_eq!(event_ids(&ledger), [C1, C2, C3]);
    assert!(held.is_empty());
    let left_over = held_names(&hookd_proto::journal::journal_dir(&data_dir));
    assert!(left_over.is_empty(), "{left_over:?}");
    ingest.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_that_names_no_ledger_or_a_gone_one_has_the_file_replayed() {
    let (_dir, data_dir, cwd, ledger) = setup(false);
    let dir = hookd_proto::journal::prepare_dir(&data_dir).unwrap();
    let elsewhere = cwd.join("not-a-ledger.db");
    std::fs::write(&elsewhere, b"someone's file").unwrap();
    let gone = cwd.join("gone").join(".hookd").join("mutations.db");
    for (n, named) in [elsewhere.clone(), gone].into_iter().enumerate() {
        let file = dir.join(format!("held-{DEAD_PID}-{n}.jsonl"));
        let ids = if n == 0 { [R1] } else { [R2] };
        std::fs::write(&file, journal_lines(&cwd, &ids)).unwrap();
        std::fs::write(
            held::note_path(&file),
            serde_json::to_vec(&[named]).unwrap(),
        )
        .unwrap();
    }
    // A note left without its file (a crash between the two) is swept.
    let lone = dir.join(format!("held-{DEAD_PID}-7.ledgers"));
    std::fs::write(&lone, b"[]").unwrap();

    let ingest = Ingest::start(&data_dir, LedgerSink::new(data_dir.clone()));
    let held = held_files(&data_dir);
    let queued = ingest.replay_once(&data_dir, &held).await;
    assert_eq!(queued, 2, "both files were replayed");
    assert!(event_ids(&ledger).ends_with(&[R1.to_owned(), R2.to_owned()]));
    assert_eq!(std::fs::read(&elsewhere).unwrap(), b"someone's file");
    let names = held_names(&dir);
    assert!(names.is_empty(), "{names:?}");
    ingest.stop();
}
