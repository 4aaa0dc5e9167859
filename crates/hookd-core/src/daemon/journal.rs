//! Replays journaled envelope lines into the ledgers, so that an event
//! `hookd-emit` handed over is stored even when no daemon took it live.
//!
//! Two kinds of file live in `{data dir}/journal/` (`hookd_proto::journal`):
//! - `pending.jsonl`, appended to by emitters that found no daemon;
//! - `accepted-<pid>-<n>.jsonl`, the lines a daemon accepted
//!   ([`crate::daemon::accepted`]), left behind when it was killed.
//!
//! At start and every [`REPLAY_INTERVAL`] the daemon renames
//! `pending.jsonl` to `replay-<pid>-<n>.jsonl` (new emitters start a fresh
//! one), takes `flock(LOCK_EX)` on it (which waits for appenders still
//! writing), parses every line exactly as a socket line, queues the events,
//! waits until the ingest thread has committed them ([`IngestItem::Barrier`])
//! and only then deletes the file. `replay-*` and `accepted-*` files of a
//! daemon that is no longer alive are replayed the same way. A crash at any
//! point leaves the file for the next start; storing it again is harmless,
//! because the event id comes from the line and the ledgers ignore an id
//! they already hold. A line that does not parse goes to `rejected.jsonl`
//! and never holds up the others. On the same timer the ingest thread is
//! asked to retry the spool ([`IngestItem::ReplaySpool`]).
//!
//! Committed is not always for good: a file whose barrier is answered
//! [`Settled::UnderCheck`] (a ledger is still being checked) is held rather
//! than deleted ([`crate::daemon::held`]).

use std::io::BufRead as _;
use std::os::fd::AsFd as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rustix::fs::{FlockOperation, Mode, OFlags};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::daemon::held::{self, HELD_PREFIX, HeldFiles, settle};
use crate::daemon::ingest::{IngestItem, Settled};
use crate::daemon::server::parse_line;
use crate::daemon::stats::DaemonStats;
use crate::record::HookEvent;

/// How often the journal is looked at while the daemon runs.
pub const REPLAY_INTERVAL: Duration = Duration::from_secs(2);

/// Where lines that could not be parsed are kept, for a human to look at.
pub const REJECTED_FILE_NAME: &str = "rejected.jsonl";

/// Prefix of a pending file a daemon took over.
const REPLAY_PREFIX: &str = "replay-";

/// Prefix of a daemon's own accepted-line segments.
pub const ACCEPTED_PREFIX: &str = "accepted-";

/// Replays at once, then every [`REPLAY_INTERVAL`] until `shutdown`; held
/// files are asked about on the same ticks, and replayed when a ledger was
/// moved aside since the last.
pub async fn run(
    data_dir: PathBuf,
    events: mpsc::Sender<IngestItem>,
    stats: Arc<DaemonStats>,
    held: Arc<HeldFiles>,
    shutdown: CancellationToken,
) {
    let mut ticks = tokio::time::interval(REPLAY_INTERVAL);
    let mut taken = 0_u64;
    let mut moved_aside = 0;
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = shutdown.cancelled() => return,
        }
        replay_held_after_damage(&data_dir, &events, &stats, &held, &mut moved_aside).await;
        held.release(&events).await;
        replay_once(&data_dir, &events, &stats, &held, &mut taken).await;
        // The spool is the ingest thread's: it retries it itself.
        if crate::daemon::ingest::spool_path(&data_dir).exists()
            && events.send(IngestItem::ReplaySpool).await.is_err()
        {
            return;
        }
    }
}

/// Replays every held file when ledgers were moved aside since `seen`
/// (how many were then) counted them: their events may have been in one.
pub async fn replay_held_after_damage(
    data_dir: &Path,
    events: &mpsc::Sender<IngestItem>,
    stats: &DaemonStats,
    held: &HeldFiles,
    seen: &mut usize,
) {
    let moved = stats.moved_aside_count();
    if moved == *seen {
        return;
    }
    *seen = moved;
    let dir = hookd_proto::journal::journal_dir(data_dir);
    let files = held.paths();
    if !files.is_empty() {
        tracing::warn!(
            files = files.len(),
            "a ledger was moved aside: writing again the events of the journal files kept while ledgers were checked"
        );
    }
    for file in files {
        replay_file(&dir, &file, events, stats).await;
    }
}

/// One pass: takes `pending.jsonl` over and replays it together with the
/// files dead daemons left; returns how many events were queued.
pub async fn replay_once(
    data_dir: &Path,
    events: &mpsc::Sender<IngestItem>,
    stats: &DaemonStats,
    held: &HeldFiles,
    taken: &mut u64,
) -> u64 {
    let dir = hookd_proto::journal::journal_dir(data_dir);
    if !dir.exists() {
        return 0;
    }
    if let Err(err) = hookd_proto::journal::check_dir(&dir) {
        tracing::error!(error = %err, "not replaying the journal");
        return 0;
    }
    let mut files = orphans(&dir);
    let pending = hookd_proto::journal::pending_path(data_dir);
    let own = dir.join(format!(
        "{REPLAY_PREFIX}{}-{}.jsonl",
        std::process::id(),
        *taken
    ));
    match std::fs::rename(&pending, &own) {
        Ok(()) => {
            *taken += 1;
            files.push(own);
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => {
            tracing::error!(file = %pending.display(), error = %err, "cannot take the journal over");
        }
    }
    let mut queued = 0;
    for file in files {
        match recheck_held(data_dir, &file, events, stats).await {
            Recheck::Settled(settled) => {
                held.settled(&file, &settled);
                continue;
            }
            Recheck::Stopped => return queued,
            Recheck::Replay => {}
        }
        let Some((count, settled)) = replay_file(&dir, &file, events, stats).await else {
            continue;
        };
        queued += count;
        held.settled(&file, &settled);
    }
    held::sweep_notes(&dir, |name| owner_pid(name).is_some_and(dead));
    queued
}

/// What became of a dead daemon's held file at [`recheck_held`].
enum Recheck {
    /// Its ledgers were opened again (and are being checked, or passed):
    /// hold or delete the file as answered, without replaying it.
    Settled(Settled),
    /// Replay it: it is not a held file with a note, a ledger it names is
    /// gone or was moved aside, or the note named something else.
    Replay,
    /// The ingest thread stopped; the file stays for the next start.
    Stopped,
}

/// A held file of a dead daemon is not replayed when its note
/// ([`crate::daemon::held`]) names the ledgers its events went to, all
/// still there: they are opened, which has them checked again, and the
/// file waits on those checks as before the restart.
async fn recheck_held(
    data_dir: &Path,
    file: &Path,
    events: &mpsc::Sender<IngestItem>,
    stats: &DaemonStats,
) -> Recheck {
    let is_held = file
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| name.starts_with(HELD_PREFIX));
    let Some(ledgers) = is_held.then(|| held::noted_ledgers(file)).flatten() else {
        return Recheck::Replay;
    };
    let all_there = ledgers.iter().all(|ledger| {
        crate::dirs::is_ledger_path(data_dir, ledger)
            && std::fs::symlink_metadata(ledger).is_ok_and(|meta| meta.is_file())
    });
    if !all_there {
        return Recheck::Replay;
    }
    let moved_aside = stats.moved_aside_count();
    if events.send(IngestItem::Recheck(ledgers)).await.is_err() {
        return Recheck::Stopped;
    }
    let Some(settled) = settle(events).await else {
        return Recheck::Stopped;
    };
    if stats.moved_aside_count() != moved_aside {
        // A ledger proved damaged when opened: the file's events may have
        // been in it only.
        return Recheck::Replay;
    }
    tracing::info!(file = %file.display(), "a held journal file of an earlier daemon: its ledgers are checked again; not replayed");
    Recheck::Settled(settled)
}

/// Prefix of files a previous holder of this daemon's pid left behind.
const STALE_PREFIX: &str = "stale-";

/// Renames journal files that carry this daemon's own pid (a dead daemon
/// had it before: containers and service managers reuse pids) so they are
/// replayed rather than mistaken for this daemon's own. Call before
/// opening the accepted-line journal.
pub fn adopt_leftovers(data_dir: &Path) {
    let dir = hookd_proto::journal::journal_dir(data_dir);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.filter_map(std::result::Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".ledgers")
            && owner_pid(&format!("{stem}.jsonl")) == Some(me)
        {
            // The note of a held file set aside below: such a file is
            // replayed whole.
            let _ = std::fs::remove_file(entry.path());
            continue;
        }
        if owner_pid(&name) == Some(me) {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let stale = dir.join(format!("{STALE_PREFIX}{nanos}-{name}"));
            if let Err(err) = std::fs::rename(entry.path(), &stale) {
                tracing::error!(file = %entry.path().display(), error = %err, "cannot set aside a journal file of an earlier daemon");
            }
        }
    }
}

/// Files of `dir` left by a daemon that is gone: `replay-<pid>-*`,
/// `accepted-<pid>-*` and `held-<pid>-*` whose pid is not alive (and is
/// not ours).
fn orphans(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(std::result::Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                return false;
            };
            name.starts_with(STALE_PREFIX) && name.ends_with(".jsonl")
                || owner_pid(name).is_some_and(dead)
        })
        .collect();
    out.sort();
    out
}

/// Events waiting in the journal for a daemon to replay them: the lines of
/// `pending.jsonl` and of the files dead daemons left (what a live daemon
/// is handling right now is not counted). For `hookd status`.
pub fn backlog(data_dir: &Path) -> u64 {
    let dir = hookd_proto::journal::journal_dir(data_dir);
    let mut files = orphans(&dir);
    files.push(hookd_proto::journal::pending_path(data_dir));
    files
        .iter()
        .filter_map(|file| std::fs::read(file).ok())
        .map(|bytes| bytes.iter().filter(|b| **b == b'\n').count() as u64)
        .sum()
}

/// Lines waiting in the spool (`crate::daemon::ingest::spool_path`).
pub fn spool_backlog(data_dir: &Path) -> u64 {
    std::fs::read(crate::daemon::ingest::spool_path(data_dir)).map_or(0, |bytes| {
        bytes.iter().filter(|b| **b == b'\n').count() as u64
    })
}

/// The daemon pid in a `replay-<pid>-<n>.jsonl`, `accepted-<pid>-<n>.jsonl`
/// or `held-<pid>-<n>.jsonl` name.
pub fn owner_pid(name: &str) -> Option<u32> {
    let rest = name
        .strip_prefix(REPLAY_PREFIX)
        .or_else(|| name.strip_prefix(ACCEPTED_PREFIX))
        .or_else(|| name.strip_prefix(HELD_PREFIX))?
        .strip_suffix(".jsonl")?;
    let (pid, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether `pid` is a daemon that is gone: not alive, and not ours.
fn dead(pid: u32) -> bool {
    pid != std::process::id() && !alive(pid)
}

/// Whether a process with this pid exists (of any user).
fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(errno) => errno == rustix::io::Errno::PERM,
    }
}

/// Replays one file; once its events committed, how many were queued and
/// whether they are stored for good. `None` when the file could not be read
/// or the ingest thread stopped: the file stays for the next try.
async fn replay_file(
    dir: &Path,
    file: &Path,
    events: &mpsc::Sender<IngestItem>,
    stats: &DaemonStats,
) -> Option<(u64, Settled)> {
    let reading = file.to_path_buf();
    let rejected_to = dir.join(REJECTED_FILE_NAME);
    // Streamed: a file of any size takes a line's memory at a time (and the
    // queue's), not the whole file parsed at once.
    let sender = events.clone();
    let read = tokio::task::spawn_blocking(move || {
        read_locked(&reading, &rejected_to, |event| {
            sender
                .blocking_send(IngestItem::Event(Box::new(event)))
                .is_ok()
        })
    })
    .await;
    let count = match read {
        Ok(Ok(Some(count))) => count,
        Ok(Ok(None)) | Err(_) => return None,
        Ok(Err(err)) => {
            tracing::error!(file = %file.display(), error = %err, "cannot replay journal file; kept for the next try");
            return None;
        }
    };
    let Some(settled) = settle(events).await else {
        tracing::warn!(file = %file.display(), "ingest stopped before the replay committed; file kept");
        return None;
    };
    stats.events_replayed.fetch_add(count, Ordering::Relaxed);
    if count > 0 {
        tracing::info!(file = %file.display(), events = count, "replayed journaled events");
    }
    Some((count, settled))
}

/// Opens `path` (no symbolic link), waits for appenders still writing,
/// and hands each line that parses to `each`, in order; lines that do not
/// parse go to `rejected`. How many were handed over; `None` when `each`
/// refused one (the ingest thread stopped).
fn read_locked(
    path: &Path,
    rejected: &Path,
    mut each: impl FnMut(HookEvent) -> bool,
) -> std::io::Result<Option<u64>> {
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    rustix::fs::flock(fd.as_fd(), FlockOperation::LockExclusive)?;
    let mut reader = std::io::BufReader::new(std::fs::File::from(fd));
    let mut line = Vec::new();
    let mut handed = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(Some(handed));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        match parse_line(text) {
            Ok(parsed) => {
                if !each(parsed.event) {
                    return Ok(None);
                }
                handed += 1;
            }
            Err((why, detail)) => {
                tracing::warn!(file = %path.display(), reason = why.as_str(), detail = %detail, "journal line rejected; moved to {}", rejected.display());
                let mut kept = text.to_vec();
                kept.push(b'\n');
                let dir = rejected.parent().unwrap_or(Path::new("."));
                let appended = hookd_proto::journal::open_append(rejected).and_then(|fd| {
                    rustix::io::write(&fd, &kept).map_err(|e| {
                        hookd_proto::journal::JournalError::Io {
                            action: "append to",
                            path: dir.to_owned(),
                            source: e.into(),
                        }
                    })
                });
                if let Err(err) = appended {
                    tracing::error!(error = %err, "cannot keep a rejected journal line");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_pid_reads_the_three_kinds_of_name_and_nothing_else() {
        assert_eq!(owner_pid("replay-123-0.jsonl"), Some(123));
        assert_eq!(owner_pid("accepted-77-12.jsonl"), Some(77));
        assert_eq!(owner_pid("held-9-3.jsonl"), Some(9));
        assert_eq!(owner_pid("pending.jsonl"), None);
        assert_eq!(owner_pid("rejected.jsonl"), None);
        assert_eq!(owner_pid("replay-x-0.jsonl"), None);
    }
}
