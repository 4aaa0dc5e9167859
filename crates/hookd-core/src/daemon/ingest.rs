//! The ingest thread: batches normalised events, enriches them with git
//! facts, derives mutations and appends them to the right ledger.
//!
//! SQLite and libgit2 calls block, so they run on one dedicated thread, never
//! on the async workers. The thread takes whatever is queued (up to
//! [`MAX_BATCH`]) and commits it as one transaction per ledger: under load
//! batches grow and throughput rises; when idle each event commits alone, so
//! latency stays low. Events no ledger will take are appended to a spool file
//! instead of being dropped, whole (the event, its repository facts and its
//! mutation rows), and retried from there at start and every few seconds
//! ([`IngestItem::ReplaySpool`]); a line is removed from the spool only once
//! its ledger took it. The `events_spooled` counter is the number of lines
//! waiting in the spool, so it survives a restart.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tokio::sync::{broadcast, mpsc};

use crate::daemon::bash_tracker::{self, BashTracker};
use crate::daemon::capture::{self, ContentTracker, StoreCache};
use crate::daemon::enrich::Enricher;
use crate::daemon::extract;
use crate::daemon::placement;
use crate::daemon::publish::{Outgoing, PublishTarget};
use crate::daemon::stats::DaemonStats;
use crate::dirs;
use crate::error::ErrorChain;
use crate::ledger::sink::LedgerSink;
use crate::names::{self, BASH_TOOL, POST_TOOL_USE, POST_TOOL_USE_FAILURE};
use crate::record::{
    CommitNotice, CommittedEvent, ContentRef, HookEvent, HookRunRecord, LedgerEntry,
    MutationRecord, RepoFacts,
};
use crate::{Error, Result};

/// Most events committed in one batch.
pub const MAX_BATCH: usize = 4096;

/// What the ingest thread is asked to store.
#[derive(Debug)]
pub enum IngestItem {
    /// A hook event, with the mutations it reveals (boxed: it is large, and
    /// the queue holds many).
    Event(Box<HookEvent>),
    /// Managed hook runs that answered an event that happened in `dir`.
    HookRuns {
        /// Directory of the event, which picks the ledger.
        dir: Option<PathBuf>,
        /// The runs.
        runs: Vec<HookRunRecord>,
    },
    /// Answered once everything queued before it is committed (or
    /// spooled), with whether that is for good ([`Settled`]): the journal
    /// deletes a file only after a [`Settled::Durable`] answer.
    Barrier(tokio::sync::oneshot::Sender<Settled>),
    /// Retry the spooled events (`Writer::replay_spool`).
    ReplaySpool,
    /// Open these existing ledgers, so that they are checked as a write
    /// would have them checked (`crate::daemon::held`: a dead daemon's held
    /// journal file names the ledgers it waits on). Paths that are not a
    /// ledger's ([`crate::dirs::is_ledger_path`]) or no longer exist are
    /// skipped.
    Recheck(Vec<PathBuf>),
}

/// How a [`IngestItem::Barrier`] is answered: what became of everything
/// queued before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// Committed (or spooled), to ledgers known sound: a journal file of
    /// these events may go.
    Durable,
    /// Committed, but a ledger is still being checked in the background
    /// ([`crate::ledger::checker`]): should it prove damaged after a crash,
    /// what was written to it exists only in the damaged file, so the
    /// journal files of these events stay until a later barrier answers
    /// [`Settled::Durable`]. The ledgers being checked, sorted.
    UnderCheck(Vec<PathBuf>),
}

/// What the ingest thread did before it stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IngestReport {
    /// Events committed to ledgers.
    pub stored: u64,
    /// Events written to the spool.
    pub spooled: u64,
    /// A ledger was still being checked when the thread stopped: the
    /// journal files of what was written to it must stay for the next start.
    pub left_under_check: bool,
}

/// Everything the ingest thread needs.
pub struct IngestConfig {
    /// hookd's data directory (registry, ledger outside git, spool).
    pub data_dir: PathBuf,
    /// Shared counters.
    pub stats: Arc<DaemonStats>,
    /// Where commit notices go.
    pub notices: broadcast::Sender<CommitNotice>,
    /// Bash pre snapshots, filled in by the connection tasks.
    pub bash: Arc<Mutex<BashTracker>>,
    /// File tools' before and after contents, filled in by the connection
    /// tasks.
    pub contents: Arc<Mutex<ContentTracker>>,
    /// The content stores, open (shared with the connection tasks).
    pub stores: Arc<StoreCache>,
    /// Whether events are written to the repositories' ledgers here
    /// (`false` in `amqp` ledger mode: consumers write them).
    pub writes_locally: bool,
    /// Where events go for the broker, when publishing.
    pub publish: Option<PublishTarget>,
}

/// Starts the ingest thread; it runs until every sender of `events` is dropped
/// and the queue is empty, then returns its report.
pub fn spawn(
    config: IngestConfig,
    events: mpsc::Receiver<IngestItem>,
) -> Result<JoinHandle<IngestReport>> {
    let sink = LedgerSink::new(config.data_dir.clone());
    spawn_with_sink(config, events, sink)
}

/// [`spawn`] with a sink of the caller's (tests set its check limits).
pub(crate) fn spawn_with_sink(
    config: IngestConfig,
    events: mpsc::Receiver<IngestItem>,
    sink: LedgerSink,
) -> Result<JoinHandle<IngestReport>> {
    let writer = Writer {
        sink,
        config,
        events,
        enricher: Enricher::new(),
        report: IngestReport::default(),
    };
    std::thread::Builder::new()
        .name("hookd-ingest".into())
        .spawn(move || writer.run())
        .map_err(|e| Error::io("cannot start ingest thread", "hookd-ingest", e))
}

struct Writer {
    config: IngestConfig,
    events: mpsc::Receiver<IngestItem>,
    enricher: Enricher,
    sink: LedgerSink,
    report: IngestReport,
}

impl Writer {
    fn run(mut self) -> IngestReport {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = self.events.blocking_recv() {
            batch.push(first);
            while batch.len() < MAX_BATCH {
                match self.events.try_recv() {
                    Ok(event) => batch.push(event),
                    Err(_) => break,
                }
            }
            self.process(&mut batch);
        }
        self.report.left_under_check = self.sink.checks_pending();
        tracing::debug!(
            stored = self.report.stored,
            spooled = self.report.spooled,
            "ingest finished"
        );
        self.report
    }

    fn process(&mut self, batch: &mut Vec<IngestItem>) {
        self.enricher.begin_batch();
        // Keep ledgers in first-seen order so notices follow arrival order.
        let mut groups: Vec<(PathBuf, Vec<LedgerEntry>)> = Vec::new();
        let mut run_groups: Vec<(PathBuf, Vec<HookRunRecord>)> = Vec::new();
        // Built in arrival order, so the outbox (and the broker) see events in that order.
        let mut outgoing: Outgoing = Vec::new();
        let mut barriers = Vec::new();
        let mut replay_spool = false;
        for item in batch.drain(..) {
            match item {
                IngestItem::Event(event) => {
                    let event = *event;
                    let repo = extract::event_dir(&event)
                        .map(|dir| self.enricher.facts_for_dir(&dir))
                        .unwrap_or_default();
                    let contents = self.file_contents(&event);
                    let mut placed = placement::place(event, repo, &mut self.enricher);
                    let bash = self.bash_mutations(&placed.own.event, &placed.own.repo);
                    placed.own.mutations.extend(bash);
                    if let Some((before, after)) = contents {
                        placed.set_contents(&before, &after);
                        let event = &placed.own.event;
                        let counts = self
                            .write_counts(event, &before)
                            .or_else(|| self.content_counts(event, &before, &after));
                        if let Some(counts) = counts {
                            placed.set_counts(counts);
                        }
                    }
                    if let Some(target) = &self.config.publish {
                        let kept = self.kept_contents(&placed);
                        outgoing.push(target.message(&placed.combined(), kept));
                    }
                    for entry in std::iter::once(placed.own).chain(placed.elsewhere) {
                        let ledger = self.ledger_for(entry.repo.git_root.as_deref());
                        push_grouped(&mut groups, ledger, entry);
                    }
                }
                IngestItem::HookRuns { dir, runs } => {
                    let root = dir.and_then(|d| self.enricher.root_for_dir(&d));
                    let ledger = self.ledger_for(root.as_deref());
                    for run in runs {
                        push_grouped(&mut run_groups, ledger.clone(), run);
                    }
                }
                IngestItem::Barrier(done) => barriers.push(done),
                IngestItem::ReplaySpool => replay_spool = true,
                IngestItem::Recheck(ledgers) => self.recheck(&ledgers),
            }
        }
        if !outgoing.is_empty() {
            self.publish(&outgoing, &groups);
        }
        if self.config.writes_locally {
            for (ledger, entries) in groups {
                self.store(&ledger, &entries);
            }
        }
        for (ledger, runs) in run_groups {
            self.store_hook_runs(&ledger, &runs);
        }
        if replay_spool {
            self.replay_spool();
        }
        if !barriers.is_empty() {
            // Take in the checks that finished, so an idle daemon's journal
            // files go as soon as their ledgers are known sound.
            self.sink.settle_checks();
        }
        for moved in self.sink.take_moved_aside() {
            self.config.stats.record_moved_aside(moved);
        }
        let being_checked = self.sink.being_checked();
        self.config
            .stats
            .set_ledgers_being_checked(being_checked.clone());
        let settled = if being_checked.is_empty() {
            Settled::Durable
        } else {
            Settled::UnderCheck(being_checked)
        };
        for done in barriers {
            // Whoever waits may have given up; nothing to do then.
            let _ = done.send(settled.clone());
        }
    }

    /// Opens each existing ledger of `ledgers`, which has it checked.
    fn recheck(&mut self, ledgers: &[PathBuf]) {
        for path in ledgers {
            if !dirs::is_ledger_path(&self.config.data_dir, path) {
                tracing::warn!(path = %path.display(), "not a ledger's path; not opened");
                continue;
            }
            match self.sink.open_existing(path) {
                Ok(true) => {}
                Ok(false) => {
                    tracing::info!(ledger = %path.display(), "the ledger a held journal file waited on is gone");
                }
                Err(err) => {
                    tracing::warn!(ledger = %path.display(), error = %ErrorChain(&err), "cannot open a ledger to have it checked");
                }
            }
        }
    }

    /// Appends the batch's messages to the durable outbox and wakes the
    /// publisher; when the daemon does not write ledgers itself, this append is
    /// what makes the events safe, so it is what gets counted and announced.
    fn publish(&mut self, messages: &Outgoing, groups: &[(PathBuf, Vec<LedgerEntry>)]) {
        let Some(target) = self.config.publish.as_mut() else {
            return;
        };
        let pushed = target.push(messages);
        let outbox_path = target.path();
        match pushed {
            Ok(()) => {
                if !self.config.writes_locally {
                    let count = messages.len() as u64;
                    self.report.stored += count;
                    self.config
                        .stats
                        .events_stored
                        .fetch_add(count, Ordering::Relaxed);
                    for (_, entries) in groups {
                        self.announce(&outbox_path, entries);
                    }
                }
            }
            Err(err) => {
                tracing::error!(outbox = %outbox_path.display(), error = %ErrorChain(&err), events = messages.len(), "cannot queue events for the broker; spooling them");
                for (_, entries) in groups {
                    self.spool(entries);
                }
            }
        }
    }

    fn ledger_for(&mut self, git_root: Option<&Path>) -> PathBuf {
        self.sink.ledger_path(git_root)
    }

    fn store_hook_runs(&mut self, path: &Path, runs: &[HookRunRecord]) {
        match self.sink.append_hook_runs(path, runs) {
            Ok(_) => {
                tracing::debug!(ledger = %path.display(), runs = runs.len(), "stored hook runs");
                if self.config.notices.receiver_count() > 0 {
                    // A lagging observer loses notices, never runs.
                    let _ = self.config.notices.send(CommitNotice {
                        ledger: path.to_path_buf(),
                        events: Vec::new(),
                        mutations: 0,
                        hook_runs: runs.len(),
                    });
                }
            }
            Err(err) => {
                tracing::error!(ledger = %path.display(), error = %ErrorChain(&err), runs = runs.len(), "cannot store hook runs; spooling them");
                let lines: Vec<serde_json::Value> = runs
                    .iter()
                    .map(|run| serde_json::json!({"hook_run": run, "ledger": path}))
                    .collect();
                self.spool_lines(&lines);
            }
        }
    }

    /// The contents the mutations of `placed` refer to, each once, read
    /// from the store beside the ledger each part goes to (where they were
    /// kept), for the broker's message to carry
    /// ([`crate::amqp::message`]). A content the store cannot give is left
    /// out, logged.
    fn kept_contents(&self, placed: &placement::Placement) -> Vec<(String, Vec<u8>)> {
        let mut kept: Vec<(String, Vec<u8>)> = Vec::new();
        for entry in std::iter::once(&placed.own).chain(placed.elsewhere.as_ref()) {
            let hashes: Vec<&str> = entry
                .mutations
                .iter()
                .flat_map(|m| [m.before.as_ref(), m.after.as_ref()])
                .filter_map(|content| match content {
                    Some(ContentRef::Kept { hash, .. }) => Some(hash.as_str()),
                    _ => None,
                })
                .collect();
            if hashes.is_empty() {
                continue;
            }
            let state_dir =
                capture::store_dir_of(entry.repo.git_root.as_deref(), &self.config.data_dir);
            let read = self.config.stores.with_store(&state_dir, |store| {
                for hash in hashes {
                    if kept.iter().any(|(k, _)| k == hash) {
                        continue;
                    }
                    let got = crate::ledger::content_store::ContentHash::parse(hash)
                        .and_then(|parsed| store.get(&parsed));
                    match got {
                        Ok(bytes) => kept.push((hash.to_owned(), bytes)),
                        Err(err) => {
                            tracing::warn!(hash, error = %ErrorChain(&err), "a content the broker's message should carry cannot be read; left out");
                        }
                    }
                }
            });
            if let Err(err) = read {
                tracing::warn!(dir = %state_dir.display(), error = %err, "cannot open the content store; the broker's message carries none of its contents");
            }
        }
        kept
    }

    /// The before and after contents of a file tool's change, for its
    /// mutation row; `None` for an event that makes none.
    fn file_contents(&self, event: &HookEvent) -> Option<(ContentRef, ContentRef)> {
        let tool = event.tool_name.as_deref()?;
        if event.hook_type != POST_TOOL_USE || !names::is_file_mutating_tool(tool) {
            return None;
        }
        let file = event.file_path.as_deref()?;
        let Some(tool_use_id) = event.tool_use_id.as_deref() else {
            return Some((
                ContentRef::unknown(capture::NO_CALL_ID),
                ContentRef::unknown(capture::NO_CALL_ID),
            ));
        };
        let (before, after) = self.config.contents.lock().ok()?.take(tool_use_id, file);
        // What the content store remembers (and forgets now): the before
        // read by a daemon that stopped before this call's PostToolUse.
        let root = extract::event_dir(event).and_then(|dir| self.config.stores.root_of(&dir));
        let state_dir = capture::state_dir_for(file, root.as_deref(), &self.config.data_dir);
        let remembered = self.recall_before(&state_dir, tool_use_id, file);
        let before = match (before, remembered) {
            (ContentRef::Unknown { why }, Some(remembered)) if why == capture::NO_BEFORE => {
                ContentRef::from_column(Some(&remembered)).unwrap_or(ContentRef::Unknown { why })
            }
            (before, _) => before,
        };
        Some((before, after))
    }

    /// The before the content store in `state_dir` remembers for the call
    /// `tool_use_id` of `path` (forgotten as it is read); none, and a log
    /// line, when the store cannot be read.
    fn recall_before(&self, state_dir: &Path, tool_use_id: &str, path: &Path) -> Option<String> {
        let recalled = self
            .config
            .stores
            .with_store(state_dir, |store| store.recall_before(tool_use_id, path));
        let failed = |error: &(dyn std::error::Error + 'static)| {
            tracing::warn!(dir = %state_dir.display(), error = %ErrorChain(error), "cannot read the befores the content store remembers");
        };
        match recalled {
            Ok(Ok(remembered)) => remembered,
            Ok(Err(err)) => {
                failed(&err);
                None
            }
            Err(err) => {
                failed(&err);
                None
            }
        }
    }

    /// A Write's lines added and removed against the file it replaced, as
    /// the daemon read it at the `PreToolUse`: the diff the timeline shows
    /// of it ([`crate::ledger::change`]), counted by the same rule. `None`
    /// for other tools, when the agent reported the file itself (counted
    /// against that already), or when the before is not text in the store.
    fn write_counts(
        &self,
        event: &HookEvent,
        before: &ContentRef,
    ) -> Option<crate::diff::LineCounts> {
        if event.tool_name.as_deref() != Some("Write") {
            return None;
        }
        let ContentRef::Kept { hash, .. } = before else {
            return None;
        };
        let payload: serde_json::Value = serde_json::from_str(&event.raw_payload).ok()?;
        if crate::diff::reported_previous(&payload).is_some() {
            return None;
        }
        let file = event.file_path.as_deref()?;
        let root = extract::event_dir(event).and_then(|dir| self.config.stores.root_of(&dir));
        let state_dir = capture::state_dir_for(file, root.as_deref(), &self.config.data_dir);
        let hash = crate::ledger::content_store::ContentHash::parse(hash).ok()?;
        let bytes = self
            .config
            .stores
            .with_store(&state_dir, |store| store.get(&hash))
            .ok()?
            .ok()?;
        let text = String::from_utf8(bytes).ok()?;
        crate::diff::tool_input_counts(payload.get("tool_input")?, Some(&text))
    }

    /// A file tool's lines added and removed counted from its file as the
    /// daemon read it before and after the call (the diff rule of
    /// [`crate::diff::line_counts`]), for a change whose input gave none:
    /// GitHub Copilot's `create` and `edit`, whose arguments beyond `path`
    /// are not documented ([`hookd_proto::AgentKind::recorded_tool`]).
    /// `None` when the input gave counts, for a stand-in (its counts stay
    /// unknown, as the emitter's rule says), or when either content is not
    /// known text.
    fn content_counts(
        &self,
        event: &HookEvent,
        before: &ContentRef,
        after: &ContentRef,
    ) -> Option<crate::diff::LineCounts> {
        if event.lines_added.is_some()
            || event
                .flags
                .contains(&crate::record::Flag::PayloadSummarised)
            || !event
                .tool_name
                .as_deref()
                .is_some_and(names::is_file_mutating_tool)
        {
            return None;
        }
        let file = event.file_path.as_deref()?;
        let root = extract::event_dir(event).and_then(|dir| self.config.stores.root_of(&dir));
        let state_dir = capture::state_dir_for(file, root.as_deref(), &self.config.data_dir);
        let (old, new) = self
            .config
            .stores
            .with_store(&state_dir, |store| {
                let text = |content| crate::ledger::change::kept_text(store, content);
                text(before).zip(text(after))
            })
            .ok()??;
        Some(crate::diff::line_counts(
            old.as_deref().unwrap_or_default(),
            new.as_deref().unwrap_or_default(),
        ))
    }

    /// The files a shell command or a Codex patch changed (its
    /// [`hookd_proto::snapshot::REPOSITORY_TOOLS`]): the repository's state
    /// after, compared with the snapshot taken before it ran; a patch's
    /// only among the files it names ([`super::patch`]).
    fn bash_mutations(&mut self, event: &HookEvent, repo: &RepoFacts) -> Vec<MutationRecord> {
        let (Some(tool), Some(root), Some(tool_use_id)) = (
            event
                .tool_name
                .as_deref()
                .filter(|t| hookd_proto::snapshot::is_repository_tool(t)),
            repo.git_root.as_deref(),
            event.tool_use_id.as_deref(),
        ) else {
            return Vec::new();
        };
        if !matches!(
            event.hook_type.as_str(),
            POST_TOOL_USE | POST_TOOL_USE_FAILURE
        ) {
            return Vec::new();
        }
        let (held, after) = match self.config.bash.lock() {
            Ok(mut tracker) => (
                tracker.take(tool_use_id, root),
                tracker.take_after(tool_use_id, root),
            ),
            Err(_) => (None, None),
        };
        let state_dir = capture::state_dir_for(root, Some(root), &self.config.data_dir);
        // What the content store remembers (and forgets now): the snapshot
        // taken by a daemon that stopped before this command's PostToolUse.
        let remembered = self.recall_before(&state_dir, tool_use_id, root);
        let before = held.or_else(|| {
            remembered
                .as_deref()
                .and_then(bash_tracker::Snapshot::from_text)
        });
        let (Some(before), Some(git)) = (before, self.enricher.repository(root)) else {
            return Vec::new();
        };
        let stores = Arc::clone(&self.config.stores);
        // Each changed file's content before and after, and the lines the
        // command added and removed, by the diff the timeline shows
        // (`ledger::change`): none when either side is not known text.
        let contents = |path: &str| {
            stores
                .with_store(&state_dir, |store| {
                    let (before, after) =
                        bash_tracker::contents(git, root, &before, after.as_ref(), path, store);
                    let text = |content| crate::ledger::change::kept_text(store, content);
                    let counts = text(&before).zip(text(&after)).map(|(old, new)| {
                        crate::diff::line_counts(
                            old.as_deref().unwrap_or_default(),
                            new.as_deref().unwrap_or_default(),
                        )
                    });
                    (before, after, counts)
                })
                .unwrap_or_else(|err| {
                    tracing::warn!(dir = %state_dir.display(), error = %err, "cannot open the content store; Bash changes will not be restorable");
                    let why = ContentRef::unknown(format!("cannot open the content store: {err}"));
                    (why.clone(), why, None)
                })
        };
        // A patch names its files: only those are its changes.
        let named: Option<Vec<String>> = (tool != BASH_TOOL)
            .then(|| {
                // The patch is the tool input's `command`, which the event
                // already holds.
                let cwd = event.cwd.as_deref().unwrap_or(root);
                let patch = event.command.as_deref().unwrap_or_default();
                super::patch::patch_files(patch, cwd)
                    .iter()
                    .filter_map(|p| p.strip_prefix(root).ok())
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            })
            .filter(|files| !files.is_empty());
        // Compared with the state the daemon took as the post event arrived
        // (hookd-emit holding the agent back); without it (a line replayed
        // from a journal), with the repository as it is now.
        let changed = match &after {
            Some(after) => Ok(bash_tracker::changed_paths(git, &before, after)),
            None => bash_tracker::changes_since(git, root, &before),
        };
        match changed {
            Ok(paths) => paths
                .into_iter()
                .filter(|path| named.as_ref().is_none_or(|named| named.contains(path)))
                .zip(0..)
                .map(|(path, seq)| {
                    let (before, after, counts) = contents(&path);
                    let mut record =
                        MutationRecord::for_event(event, repo, tool, seq, Some(path), None);
                    record.before = Some(before);
                    record.after = Some(after);
                    if let Some(counts) = counts {
                        record.lines_added = Some(i64::from(counts.added));
                        record.lines_removed = Some(i64::from(counts.removed));
                    }
                    record
                })
                .collect(),
            Err(err) => {
                tracing::warn!(root = %root.display(), error = %ErrorChain(&err), "cannot compare git status after Bash");
                Vec::new()
            }
        }
    }

    fn store(&mut self, path: &Path, entries: &[LedgerEntry]) {
        let outcome = self.sink.append(path, entries);
        let count = entries.len() as u64;
        match outcome {
            Ok(new) => {
                self.report.stored += count;
                self.config
                    .stats
                    .events_stored
                    .fetch_add(count, Ordering::Relaxed);
                tracing::debug!(ledger = %path.display(), events = count, new, "stored");
                // Events the ledger already held (a replayed journal) change
                // nothing a window shows: no notice wakes them.
                if new > 0 {
                    self.announce(path, entries);
                }
            }
            Err(err) => {
                tracing::error!(ledger = %path.display(), error = %ErrorChain(&err), events = count, "cannot store events; spooling them");
                self.spool(entries);
            }
        }
    }

    fn announce(&self, ledger: &Path, entries: &[LedgerEntry]) {
        if self.config.notices.receiver_count() == 0 {
            return;
        }
        let notice = CommitNotice {
            ledger: ledger.to_path_buf(),
            hook_runs: 0,
            mutations: entries.iter().map(|e| e.mutations.len()).sum(),
            events: entries
                .iter()
                .map(|e| CommittedEvent {
                    event_id: e.event.event_id.clone(),
                    hook_type: e.event.hook_type.clone(),
                    tool_name: e.event.tool_name.clone(),
                    tool_use_id: e.event.tool_use_id.clone(),
                })
                .collect(),
        };
        // A lagging observer loses notices, never events.
        let _ = self.config.notices.send(notice);
    }

    fn spool(&mut self, entries: &[LedgerEntry]) {
        let lines: Vec<serde_json::Value> = entries
            .iter()
            .map(|entry| {
                serde_json::json!({
                    "event_id": entry.event.event_id,
                    "hook_type": entry.event.hook_type,
                    "tool_name": entry.event.tool_name,
                    "agent_id": entry.event.agent_id,
                    "cwd": entry.event.cwd,
                    "event_timestamp": entry.event.event_timestamp,
                    "received_at": entry.event.received_at,
                    "git_root": entry.repo.git_root,
                    "payload": entry.event.raw_payload,
                    SPOOL_ENTRY: entry,
                })
            })
            .collect();
        if self.spool_lines(&lines) {
            let count = entries.len() as u64;
            self.report.spooled += count;
            self.config
                .stats
                .events_spooled
                .fetch_add(count, Ordering::Relaxed);
        }
    }

    /// Stores the spooled entries whose ledger takes them now and rewrites
    /// the spool with what is left (lines that still fail, hook runs, lines
    /// from older daemons without the whole entry); then counts what is left.
    fn replay_spool(&mut self) {
        let path = spool_path(&self.config.data_dir);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                self.config.stats.events_spooled.store(0, Ordering::Relaxed);
                return;
            }
            Err(err) => {
                tracing::error!(spool = %path.display(), error = %err, "cannot read the spool");
                return;
            }
        };
        let lines: Vec<&[u8]> = bytes
            .split(|b| *b == b'\n')
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .collect();
        let mut kept: Vec<&[u8]> = Vec::new();
        let mut groups: Vec<(PathBuf, Vec<SpooledEntry<'_>>)> = Vec::new();
        for line in &lines {
            let entry = serde_json::from_slice::<serde_json::Value>(line)
                .ok()
                .and_then(|mut value| value.get_mut(SPOOL_ENTRY).map(serde_json::Value::take))
                .and_then(|entry| serde_json::from_value::<LedgerEntry>(entry).ok());
            match entry {
                Some(entry) if self.config.writes_locally => {
                    let ledger = self.ledger_for(entry.repo.git_root.as_deref());
                    push_grouped(&mut groups, ledger, (entry, *line));
                }
                _ => kept.push(line),
            }
        }
        let mut replayed = 0_u64;
        for (ledger, items) in groups {
            let entries: Vec<LedgerEntry> = items.iter().map(|(entry, _)| entry.clone()).collect();
            match self.sink.append(&ledger, &entries) {
                Ok(_) => {
                    let count = entries.len() as u64;
                    replayed += count;
                    self.report.stored += count;
                    self.config
                        .stats
                        .events_stored
                        .fetch_add(count, Ordering::Relaxed);
                    self.announce(&ledger, &entries);
                }
                Err(err) => {
                    tracing::debug!(ledger = %ledger.display(), error = %ErrorChain(&err), "spooled events still not stored");
                    kept.extend(items.iter().map(|(_, line)| *line));
                }
            }
        }
        if replayed > 0 {
            let mut rest = Vec::with_capacity(bytes.len());
            // Kept in their original order.
            for line in &lines {
                if kept.iter().any(|k| std::ptr::eq(*k, *line)) {
                    rest.extend_from_slice(line);
                    rest.push(b'\n');
                }
            }
            if let Err(err) = replace_file(&path, &rest) {
                // The old spool stays whole: replaying it again stores nothing twice.
                tracing::error!(spool = %path.display(), error = %err, "cannot rewrite the spool");
                return;
            }
            tracing::info!(spool = %path.display(), events = replayed, left = kept.len(), "stored spooled events");
        }
        self.config
            .stats
            .events_spooled
            .store(kept.len() as u64, Ordering::Relaxed);
    }

    /// Appends JSON lines to the spool file and syncs it; false when even that failed.
    fn spool_lines(&self, lines: &[serde_json::Value]) -> bool {
        let path = spool_path(&self.config.data_dir);
        let written = (|| -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut file = OpenOptions::new().create(true).append(true).open(&path)?;
            for line in lines {
                writeln!(file, "{line}")?;
            }
            file.sync_data()
        })();
        if let Err(err) = &written {
            tracing::error!(spool = %path.display(), error = %err, lines = lines.len(), "cannot spool: these records are lost");
        }
        written.is_ok()
    }
}

/// A spooled entry and the spool line it came from.
type SpooledEntry<'a> = (LedgerEntry, &'a [u8]);

/// The field of a spool line that holds the whole [`LedgerEntry`].
const SPOOL_ENTRY: &str = "entry";

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames
/// it over `path`: a crash leaves the old or the new file, whole.
fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temp = path.with_extension(format!("{}.tmp", std::process::id()));
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)?;
    file.write_all(bytes)?;
    file.sync_data()?;
    std::fs::rename(&temp, path)
}

/// Where events that no ledger would take are kept, one JSON object per line.
pub fn spool_path(data_dir: &Path) -> PathBuf {
    data_dir.join("spool").join("unstored-events.jsonl")
}

/// Appends `item` to the group of `key`, creating groups in first-seen order.
fn push_grouped<T>(groups: &mut Vec<(PathBuf, Vec<T>)>, key: PathBuf, item: T) {
    match groups.iter_mut().find(|(path, _)| *path == key) {
        Some((_, items)) => items.push(item),
        None => groups.push((key, vec![item])),
    }
}
