//! The daemon: a Unix-socket listener that turns envelope lines into
//! ledger rows, and shuts down without losing what it already received.
//!
//! Startup refuses to run beside a live daemon and replaces a stale socket.
//! The socket is 0600 in a 0700 directory and peers of another uid are
//! refused. Shutdown happens in one place ([`Daemon::run`] when the
//! cancellation token fires): stop accepting, unlink the socket, accept the
//! connections already queued, read every connection to its end, let the
//! ingest thread commit everything, remove the socket and PID files.

use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookd_proto::snapshot::Moment;
use tokio::io::AsyncWriteExt as _;
use tokio::net::unix::OwnedWriteHalf;
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Semaphore, broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::{HookdConfig, LedgerMode};
use crate::daemon::accepted::AcceptedJournal;
use crate::daemon::bash_tracker::{self, BashTracker};
use crate::daemon::capture::{self, ContentTracker, StoreCache};
use crate::daemon::connection::{Connection, Frame};
use crate::daemon::emitter::{self, Emitter};
use crate::daemon::extract;
use crate::daemon::held::HeldFiles;
use crate::daemon::ingest::{self, IngestConfig, IngestItem};
use crate::daemon::managed::{self, ManagedHooks, WaitRequest};
use crate::daemon::memory;
use crate::daemon::publish::{self, PublisherHandle};
use crate::daemon::recording::RecordingSwitch;
use crate::daemon::stats::{DaemonStats, Rejection, StatsSnapshot};
use crate::daemon::status::{self, DaemonStatus};
use crate::record::{CommitNotice, ContentRef, HookEvent};
use crate::settings::SettingsRoots;
use crate::{Envelope, Error, MAX_LINE_BYTES, Result, timefmt};

/// Settings of one daemon.
#[derive(Debug, Clone)]
pub struct DaemonConfig {
    /// The Unix socket to listen on.
    pub socket_path: PathBuf,
    /// hookd's data directory (registry, ledger outside git, spool).
    pub data_dir: PathBuf,
    /// Maximum number of connections served at once; more wait in the backlog.
    pub max_connections: usize,
    /// A connection silent for this long is closed.
    pub idle_timeout: Duration,
    /// A connection that has sent nothing at all this long after it was
    /// accepted is closed, freeing its slot (capped by `idle_timeout`).
    pub first_byte_timeout: Duration,
    /// Events queued between the connections and the ingest thread.
    pub queue_capacity: usize,
    /// Where managed hook files live; `None` answers every `wait` envelope
    /// with an empty reply (the event is still recorded).
    pub settings_roots: Option<SettingsRoots>,
    /// Who writes the ledgers.
    pub ledger_mode: LedgerMode,
    /// The broker to publish to, when the ledger mode publishes.
    pub amqp: Option<AmqpTarget>,
    /// Pauses and resumes recording while the daemon runs.
    pub recording: RecordingSwitch,
    /// Largest file content kept for rewind, in bytes (bigger files are
    /// recorded as too large to restore).
    pub max_content_bytes: u64,
}

/// Where the daemon publishes.
#[derive(Debug, Clone)]
pub struct AmqpTarget {
    /// Broker URL.
    pub url: String,
    /// Topic exchange.
    pub exchange: String,
}

impl DaemonConfig {
    /// The daemon's settings from hookd's layered configuration (ledger
    /// mode, broker) on top of [`Self::new`]'s defaults. The CLI's `hookd
    /// daemon` and the desktop app's in-process daemon both start here, so
    /// the same config file means the same daemon.
    pub fn from_config(socket_path: PathBuf, data_dir: PathBuf, config: &HookdConfig) -> Self {
        let mut out = Self::new(socket_path, data_dir);
        out.ledger_mode = config.ledger_mode;
        out.amqp = config.amqp_url.clone().map(|url| AmqpTarget {
            url,
            exchange: config.amqp_exchange.clone(),
        });
        out.max_content_bytes = config.max_content_bytes;
        out
    }

    /// Defaults for everything but the paths.
    pub fn new(socket_path: PathBuf, data_dir: PathBuf) -> Self {
        Self {
            socket_path,
            data_dir,
            max_connections: 1024,
            idle_timeout: Duration::from_secs(30),
            first_byte_timeout: FIRST_BYTE_TIMEOUT,
            queue_capacity: 65_536,
            settings_roots: None,
            ledger_mode: LedgerMode::Local,
            amqp: None,
            recording: RecordingSwitch::new(),
            max_content_bytes: crate::ledger::content_store::DEFAULT_MAX_CONTENT_BYTES,
        }
    }
}

/// How long a connection may stay silent during shutdown before it is closed.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Default [`DaemonConfig::first_byte_timeout`], like nginx's
/// `client_header_timeout`: a connection that sends nothing this long after
/// it was accepted is closed and its slot freed. Without it, connections
/// that never speak held every slot for the whole idle timeout, and real
/// events, Bash snapshots and `--wait` answers queued behind them.
///
/// 2 s because every emitter writes at once: `hookd-emit` builds its line
/// before it connects and gives up its own write after 300 ms, the bash
/// emitter pipes a finished line into `socat`; and a connection queued in
/// the backlog already holds its line when it is accepted. 2 s leaves a
/// loaded machine several times the emitter's own budget, and bounds the
/// stall behind a flood of silent connections to about as long.
pub const FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(2);

/// A daemon whose socket is bound; [`Daemon::run`] serves it.
pub struct Daemon {
    config: DaemonConfig,
    listener: UnixListener,
    pid_file: PathBuf,
    stats: Arc<DaemonStats>,
    notices: broadcast::Sender<CommitNotice>,
    /// The listening socket came from systemd (`hookd.socket`): it is not
    /// ours to remove, and what queues on it while we stop waits for the
    /// next daemon.
    inherited: bool,
}

/// Shared by every connection task.
struct Shared {
    events: mpsc::Sender<IngestItem>,
    stats: Arc<DaemonStats>,
    uid: u32,
    idle_timeout: Duration,
    first_byte_timeout: Duration,
    bash: Arc<Mutex<BashTracker>>,
    /// File tools' before and after contents, filled in here.
    contents: Arc<Mutex<ContentTracker>>,
    /// The content stores, open.
    stores: Arc<StoreCache>,
    managed: Option<ManagedHooks>,
    recording: RecordingSwitch,
    /// hookd's data directory (the registry of projects lives there).
    data_dir: PathBuf,
    /// Where each accepted line is kept until it committed; `None` when it
    /// could not be opened (emitters then get no acknowledgement and keep
    /// their lines themselves).
    accepted: Option<Arc<AcceptedJournal>>,
}

impl Daemon {
    /// Prepares the socket directory, refuses to start beside a live daemon,
    /// removes a stale socket, binds and writes the PID file; or, when
    /// systemd passed a listening socket (`packaging/hookd.socket`), serves
    /// that one.
    pub fn bind(config: DaemonConfig) -> Result<Self> {
        if let Some(listener) = inherited_listener() {
            return Self::adopt(config.clone(), listener).or_else(|err| {
                tracing::error!(error = %err, "cannot use the socket systemd passed; binding our own");
                Self::bind_own(config)
            });
        }
        Self::bind_own(config)
    }

    /// Serves the listening socket systemd passed on standard input
    /// (`hookd.socket` with `StandardInput=socket`): no bind, no unlink.
    fn adopt(mut config: DaemonConfig, listener: std::os::unix::net::UnixListener) -> Result<Self> {
        if let Some(path) = listener
            .local_addr()
            .ok()
            .and_then(|addr| addr.as_pathname().map(Path::to_path_buf))
        {
            config.socket_path = path;
        }
        let socket = config.socket_path.clone();
        let pid_file = hookd_proto::pid_file_for(&socket);
        write_pid_file(&pid_file)?;
        let listener = listener
            .set_nonblocking(true)
            .and_then(|()| UnixListener::from_std(listener))
            .map_err(|e| Error::io("cannot listen on", &socket, e))?;
        tracing::info!(socket = %socket.display(), "serving the socket systemd passed");
        Ok(Self::serving(config, listener, pid_file, true))
    }

    /// A daemon about to serve `listener` (`inherited`: from systemd).
    fn serving(
        config: DaemonConfig,
        listener: UnixListener,
        pid_file: PathBuf,
        inherited: bool,
    ) -> Self {
        let (notices, _) = broadcast::channel(1024);
        Self {
            config,
            listener,
            pid_file,
            stats: Arc::new(DaemonStats::default()),
            notices,
            inherited,
        }
    }

    fn bind_own(config: DaemonConfig) -> Result<Self> {
        let socket = &config.socket_path;
        let dir = socket
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        prepare_private_dir(dir)?;
        let pid_file = hookd_proto::pid_file_for(socket);
        remove_stale_socket(socket, &pid_file)?;
        // The PID file exists, whole, before anyone can connect: whoever sees
        // the socket answer can read the pid.
        write_pid_file(&pid_file)?;
        let listener = match UnixListener::bind(socket) {
            Ok(listener) => listener,
            Err(e) => {
                remove_file_quietly(&pid_file);
                return Err(Error::io("cannot listen on", socket, e));
            }
        };
        std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::io("cannot set permissions of", socket, e))?;
        Ok(Self::serving(config, listener, pid_file, false))
    }

    /// The daemon's counters, live.
    pub fn stats(&self) -> Arc<DaemonStats> {
        Arc::clone(&self.stats)
    }

    /// Commit notices from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<CommitNotice> {
        self.notices.subscribe()
    }

    /// Serves until `shutdown` fires, then drains everything received into the
    /// ledgers and cleans up.
    pub async fn run(self, shutdown: CancellationToken) -> Result<StatsSnapshot> {
        let Self {
            config,
            listener,
            pid_file,
            stats,
            notices,
            inherited,
        } = self;
        let (events_tx, events_rx) = mpsc::channel(config.queue_capacity);
        let bash = Arc::new(Mutex::new(BashTracker::new()));
        let contents = Arc::new(Mutex::new(ContentTracker::new()));
        let stores = Arc::new(StoreCache::new(config.max_content_bytes));
        // The publisher outlives the connections: it stops only after the
        // ingest thread has put the last events in the outbox.
        let publisher_stop = CancellationToken::new();
        let publisher_tasks = TaskTracker::new();
        let publish = publish::start(&config, &publisher_stop, &publisher_tasks)?;
        let publisher = publish.as_ref().map(publish::PublishTarget::handle);
        let ingest = ingest::spawn(
            IngestConfig {
                data_dir: config.data_dir.clone(),
                stats: Arc::clone(&stats),
                notices,
                bash: Arc::clone(&bash),
                contents: Arc::clone(&contents),
                stores: Arc::clone(&stores),
                writes_locally: config.ledger_mode.writes_locally(),
                publish,
            },
            events_rx,
        )?;
        crate::daemon::journal::adopt_leftovers(&config.data_dir);
        let accepted = match AcceptedJournal::open(&config.data_dir) {
            Ok(journal) => Some(Arc::new(journal)),
            Err(err) => {
                tracing::error!(error = %err, "cannot journal accepted lines: events in memory are lost if the daemon is killed, and emitters keep their own copies");
                None
            }
        };
        let retiring = TaskTracker::new();
        let replay_stop = CancellationToken::new();
        let held = Arc::new(HeldFiles::new(hookd_proto::journal::journal_dir(
            &config.data_dir,
        )));
        let rotation = accepted.clone().map(|journal| {
            tokio::spawn(journal.rotate_until(
                events_tx.clone(),
                Arc::clone(&held),
                retiring.clone(),
                replay_stop.clone(),
            ))
        });
        let replay_task = tokio::spawn(crate::daemon::journal::run(
            config.data_dir.clone(),
            events_tx.clone(),
            Arc::clone(&stats),
            Arc::clone(&held),
            replay_stop.clone(),
        ));
        let shared = Arc::new(Shared {
            events: events_tx,
            stats: Arc::clone(&stats),
            uid: rustix::process::getuid().as_raw(),
            idle_timeout: config.idle_timeout,
            first_byte_timeout: config.first_byte_timeout.min(config.idle_timeout),
            bash,
            contents,
            stores,
            managed: config.settings_roots.clone().map(ManagedHooks::new),
            recording: config.recording.clone(),
            data_dir: config.data_dir.clone(),
            accepted: accepted.clone(),
        });
        tracing::info!(socket = %config.socket_path.display(), pid = std::process::id(), "hookd daemon listening");

        let status_path = status::status_path(&config.socket_path);
        let status_task = tokio::spawn(keep_status_file(
            status_path.clone(),
            DaemonStatus {
                pid: std::process::id(),
                socket: config.socket_path.clone(),
                started_at: timefmt::now(),
                updated_at: String::new(),
                ledger_mode: config.ledger_mode.as_str().to_owned(),
                stats: stats.snapshot(),
                publisher: None,
                recording_paused: config.recording.is_paused(),
                moved_aside_ledgers: Vec::new(),
                ledgers_being_checked: Vec::new(),
            },
            Arc::clone(&stats),
            publisher.clone(),
            config.recording.clone(),
            shutdown.clone(),
        ));

        let release_task = tokio::spawn(memory::release_when_idle(
            Arc::clone(&stats),
            shutdown.clone(),
        ));

        let tracker = TaskTracker::new();
        let slots = Arc::new(Semaphore::new(config.max_connections));
        accept_until_cancelled(&listener, &shared, &tracker, &slots, &shutdown).await;

        if inherited {
            // systemd keeps the socket: what queues now waits for the next daemon.
            drop(listener);
        } else {
            // Nobody can connect once the path is gone; then take what is already queued.
            remove_file_quietly(&config.socket_path);
            drain_backlog(listener, &shared, &tracker, &shutdown).await;
        }
        tracker.close();
        tracker.wait().await;
        // A replay under way finishes (its file is deleted only once committed).
        replay_stop.cancel();
        let _ = replay_task.await;
        if let Some(rotation) = rotation {
            let _ = rotation.await;
        }
        retiring.close();
        retiring.wait().await;
        drop(shared);
        let report = tokio::task::spawn_blocking(move || ingest.join())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        // Everything accepted is committed (or spooled) now; for good unless
        // a ledger was still being checked.
        if report.left_under_check {
            tracing::warn!(
                held = held.len(),
                "a ledger was still being checked: the journal files of what was written to it stay, and the next start stores them again"
            );
        } else {
            if let Some(journal) = &accepted {
                journal.remove_all();
            }
            held.remove_all();
        }
        publisher_stop.cancel();
        publisher_tasks.close();
        publisher_tasks.wait().await;
        let _ = status_task.await;
        let _ = release_task.await;
        remove_file_quietly(&status_path);
        remove_file_quietly(&pid_file);
        let totals = stats.snapshot();
        tracing::info!(
            stored = report.stored,
            spooled = report.spooled,
            accepted = totals.lines_accepted,
            rejected = totals.lines_rejected,
            "hookd daemon stopped"
        );
        Ok(totals)
    }
}

async fn accept_until_cancelled(
    listener: &UnixListener,
    shared: &Arc<Shared>,
    tracker: &TaskTracker,
    slots: &Arc<Semaphore>,
    shutdown: &CancellationToken,
) {
    let mut backoff = Duration::from_millis(5);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(slots).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => return,
            },
            () = shutdown.cancelled() => return,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.cancelled() => return,
        };
        match accepted {
            Ok((stream, _)) => {
                backoff = Duration::from_millis(5);
                let shared = Arc::clone(shared);
                let shutdown = shutdown.clone();
                tracker.spawn(async move {
                    serve(stream, &shared, &shutdown).await;
                    drop(permit);
                });
            }
            Err(err) => {
                // Out of file descriptors and the like: wait and retry, never exit.
                tracing::warn!(error = %err, backoff_ms = backoff.as_millis(), "accept failed");
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = shutdown.cancelled() => return,
                }
                backoff = (backoff * 2).min(Duration::from_secs(1));
            }
        }
    }
}

/// How often the status file is rewritten.
const STATUS_INTERVAL: Duration = Duration::from_secs(1);

/// Rewrites the status file every [`STATUS_INTERVAL`] until shutdown.
async fn keep_status_file(
    path: PathBuf,
    mut status: DaemonStatus,
    stats: Arc<DaemonStats>,
    publisher: Option<PublisherHandle>,
    recording: RecordingSwitch,
    shutdown: CancellationToken,
) {
    let mut ticks = tokio::time::interval(STATUS_INTERVAL);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = shutdown.cancelled() => return,
        }
        status.updated_at = timefmt::now();
        status.stats = stats.snapshot();
        status.moved_aside_ledgers = stats.moved_aside();
        status.ledgers_being_checked = stats.ledgers_being_checked();
        status.recording_paused = recording.is_paused();
        status.publisher = publisher.as_ref().map(PublisherHandle::status);
        let (target, snapshot) = (path.clone(), status.clone());
        let written = tokio::task::spawn_blocking(move || status::write(&target, &snapshot)).await;
        if let Ok(Err(err)) = written {
            tracing::warn!(file = %path.display(), error = %err, "cannot write the status file");
        }
    }
}

/// Accepts every connection already in the listen backlog without waiting.
async fn drain_backlog(
    listener: UnixListener,
    shared: &Arc<Shared>,
    tracker: &TaskTracker,
    shutdown: &CancellationToken,
) {
    // Ask the kernel directly: the reactor's readiness flag may not have seen
    // the last connections yet, and a missed one would be an emitter that
    // wrote its line successfully into a socket nobody reads.
    let listener = match listener.into_std() {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(error = %err, "cannot drain queued connections");
            return;
        }
    };
    // Twice, with a pause: a connect that resolved the path just before it
    // was unlinked can land in the queue a moment later.
    for pass in 0..2 {
        if pass == 1 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    let stream = stream
                        .set_nonblocking(true)
                        .and_then(|()| UnixStream::from_std(stream));
                    match stream {
                        Ok(stream) => {
                            let shared = Arc::clone(shared);
                            let shutdown = shutdown.clone();
                            tracker.spawn(async move { serve(stream, &shared, &shutdown).await });
                        }
                        Err(err) => {
                            tracing::error!(error = %err, "cannot serve a queued connection");
                        }
                    }
                }
                Err(err) if err.kind() == ErrorKind::WouldBlock => break,
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(err) => {
                    tracing::warn!(error = %err, "accept failed while draining");
                    break;
                }
            }
        }
    }
}

/// Serves one connection to its end.
async fn serve(stream: UnixStream, shared: &Shared, shutdown: &CancellationToken) {
    shared.stats.connections.fetch_add(1, Ordering::Relaxed);
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == shared.uid => {}
        Ok(cred) => {
            shared.stats.reject(Rejection::ForeignPeer);
            tracing::warn!(peer_uid = cred.uid(), peer_pid = ?cred.pid(), reason = "foreign_peer", "refused connection from another user");
            return;
        }
        Err(err) => {
            shared.stats.reject(Rejection::ForeignPeer);
            tracing::warn!(error = %err, reason = "foreign_peer", "cannot read peer credentials; connection refused");
            return;
        }
    }
    let (reader, mut writer) = stream.into_split();
    let mut conn = Connection::new(reader, MAX_LINE_BYTES);
    // The first byte has a short deadline of its own; after it, the idle
    // timeout applies as before.
    match tokio::time::timeout(shared.first_byte_timeout, conn.fill()).await {
        Ok(Ok(0)) => return,
        Ok(Ok(_)) => {}
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "connection read failed");
            return;
        }
        Err(_elapsed) => {
            tracing::debug!(
                timeout_ms = shared.first_byte_timeout.as_millis(),
                "closed a connection that sent nothing"
            );
            return;
        }
    }
    loop {
        let draining = shutdown.is_cancelled();
        let wait = if draining {
            DRAIN_GRACE
        } else {
            shared.idle_timeout
        };
        let frame = tokio::select! {
            frame = tokio::time::timeout(wait, conn.read_frame()) => frame,
            // Switch to the short drain timeout; read_frame is cancel-safe.
            () = shutdown.cancelled(), if !draining => continue,
        };
        match frame {
            Ok(Ok(Some(Frame::Line(line)))) => {
                accept_line(&line, shared, false, &mut writer, shutdown).await;
            }
            Ok(Ok(Some(Frame::Unterminated(line)))) => {
                accept_line(&line, shared, true, &mut writer, shutdown).await;
            }
            Ok(Ok(Some(Frame::TooLong(bytes)))) => {
                shared.stats.reject(Rejection::TooLong);
                tracing::warn!(
                    bytes,
                    limit = MAX_LINE_BYTES,
                    reason = "too_long",
                    "rejected line over the size limit"
                );
            }
            Ok(Ok(None)) => return,
            Ok(Err(err)) => {
                if conn.has_partial_line() {
                    shared.stats.reject(Rejection::IncompleteLine);
                }
                tracing::debug!(error = %err, "connection read failed");
                return;
            }
            Err(_elapsed) => {
                if conn.has_partial_line() {
                    shared.stats.reject(Rejection::IncompleteLine);
                    tracing::warn!(
                        idle_secs = wait.as_secs(),
                        reason = "incomplete_line",
                        "closed a connection that went silent mid-line"
                    );
                }
                return;
            }
        }
    }
}

/// Parses and queues one line. `unterminated` marks the bytes left at end of
/// stream: when they do not parse, a writer gave up mid-line (hookd-emit's
/// write budget ran out) and the rejection says so.
async fn accept_line(
    line: &[u8],
    shared: &Shared,
    unterminated: bool,
    writer: &mut OwnedWriteHalf,
    shutdown: &CancellationToken,
) {
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    match parse_line(line) {
        Ok(ParsedLine {
            event,
            wait,
            emitter_id,
            journal_line,
        }) => {
            shared.stats.lines_accepted.fetch_add(1, Ordering::Relaxed);
            // A recording-mode emitter that chose the event id waits for
            // this acknowledgement and keeps the line itself without it.
            let wants_ack = emitter_id && wait.is_none();
            let waiting = wait.map(|wait| (event.clone(), wait));
            if shared.recording.is_paused() {
                // The hooks still answer below; only the ledger leaves it out.
                shared
                    .stats
                    .events_unrecorded
                    .fetch_add(1, Ordering::Relaxed);
                if wants_ack {
                    acknowledge(writer).await;
                }
            } else {
                // Journaled before it is acknowledged or queued: a SIGKILL
                // from here on leaves it for the next start to replay.
                let journaled = shared.accepted.as_ref().and_then(|journal| {
                    match journal.append(journal_line.as_deref().unwrap_or(line)) {
                        Ok(held) => Some(held),
                        Err(err) => {
                            tracing::error!(error = %err, "cannot journal an accepted line; not acknowledged");
                            None
                        }
                    }
                });
                if wants_ack && journaled.is_some() {
                    acknowledge(writer).await;
                }
                match snapshot_moment(&event) {
                    Some(Moment::Before)
                        if event
                            .tool_name
                            .as_deref()
                            .is_some_and(hookd_proto::snapshot::is_repository_tool) =>
                    {
                        let emitter = Emitter::of(writer.as_ref());
                        snapshot_repository(&event, shared, Moment::Before, emitter).await;
                    }
                    Some(Moment::Before) => {
                        let emitter = Emitter::of(writer.as_ref());
                        read_file_content(&event, Moment::Before, shared, emitter).await;
                    }
                    Some(Moment::After)
                        if event
                            .tool_name
                            .as_deref()
                            .is_some_and(hookd_proto::snapshot::is_repository_tool) =>
                    {
                        snapshot_repository(&event, shared, Moment::After, None).await;
                    }
                    Some(Moment::After) => {
                        read_file_content(&event, Moment::After, shared, None).await;
                    }
                    None => {}
                }
                // Recorded first, whatever the managed hooks do.
                if shared
                    .events
                    .send(IngestItem::Event(Box::new(event)))
                    .await
                    .is_err()
                {
                    tracing::error!("ingest thread has stopped; event not stored");
                }
                // Queued now: its segment may be retired.
                drop(journaled);
            }
            if let Some((event, wait)) = waiting {
                answer_wait(event, wait, shared, writer, shutdown).await;
            }
        }
        Err((why, detail)) => {
            let why = if unterminated {
                Rejection::IncompleteLine
            } else {
                why
            };
            shared.stats.reject(why);
            tracing::warn!(reason = why.as_str(), detail = %detail, bytes = line.len(), "rejected line");
        }
    }
}

/// Writes this process's pid, whole, to `pid_file`.
fn write_pid_file(pid_file: &Path) -> Result<()> {
    crate::fs_atomic::write_atomic(pid_file, format!("{}\n", std::process::id()).as_bytes())
        .map(|_| ())
        .map_err(|e| Error::io("cannot write PID file", pid_file, std::io::Error::other(e)))
}

/// How long writing an acknowledgement may take.
const ACK_WRITE_TIMEOUT: Duration = Duration::from_millis(500);

/// Tells the emitter its line is safe ([`hookd_proto::ACK`]).
async fn acknowledge(writer: &mut OwnedWriteHalf) {
    match tokio::time::timeout(ACK_WRITE_TIMEOUT, writer.write_all(&[hookd_proto::ACK])).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "emitter went away before its acknowledgement");
        }
        Err(_) => tracing::debug!("emitter did not read its acknowledgement in time"),
    }
}

/// The snapshot this event calls for ([`hookd_proto::snapshot`]), when it
/// names its call (a snapshot is paired with its row by `tool_use_id`).
fn snapshot_moment(event: &HookEvent) -> Option<Moment> {
    event.tool_use_id.as_ref()?;
    hookd_proto::snapshot::moment(&event.hook_type, event.tool_name.as_deref()?)
}

/// Reads the file a file tool is about to change (`Before`) or has just
/// changed (`After`) into its repository's content store
/// ([`crate::daemon::capture`]). Done here, as the line arrives, for the
/// reason [`snapshot_repository`] gives. A before read once its `emitter`
/// stopped waiting is recorded as unknown ([`crate::daemon::emitter`]).
async fn read_file_content(
    event: &HookEvent,
    moment: Moment,
    shared: &Shared,
    emitter: Option<Emitter>,
) {
    let (Some(file), Some(tool_use_id)) = (event.file_path.clone(), event.tool_use_id.clone())
    else {
        return;
    };
    if !file.is_absolute() {
        return;
    }
    let dir = extract::event_dir(event);
    let data_dir = shared.data_dir.clone();
    let tracker = Arc::clone(&shared.contents);
    let stores = Arc::clone(&shared.stores);
    let read = tokio::task::spawn_blocking(move || {
        let event_root = dir.as_deref().and_then(|dir| stores.root_of(dir));
        let state_dir = capture::state_dir_for(&file, event_root.as_deref(), &data_dir);
        let content = match stores.with_store(&state_dir, |store| {
            let mut content = capture::read_into(store, &file);
            if moment == Moment::Before && !emitter::still_waiting(emitter.as_ref()) {
                tracing::warn!(file = %file.display(), "hookd-emit stopped waiting before the file was read; its before is unknown");
                content = ContentRef::unknown(emitter::GAVE_UP);
            }
            if moment == Moment::Before
                && let Err(err) = store.remember_before(&tool_use_id, &file, &content.to_column())
            {
                tracing::warn!(error = %err, "cannot remember a file's before in the content store");
            }
            content
        }) {
            Ok(content) => content,
            Err(err) => {
                tracing::warn!(dir = %state_dir.display(), error = %err, "cannot open the content store");
                ContentRef::unknown(format!("cannot open the content store: {err}"))
            }
        };
        if let Ok(mut tracker) = tracker.lock() {
            match moment {
                Moment::Before => tracker.before(&tool_use_id, &file, content),
                Moment::After => tracker.after(&tool_use_id, &file, content),
            }
        }
    })
    .await;
    if read.is_err() {
        tracing::error!("file content task failed");
    }
}

/// Records the repository's state around a Bash command or a Codex patch
/// ([`hookd_proto::snapshot::REPOSITORY_TOOLS`]): before it runs, and as it
/// left it. Done here, as the line arrives, rather than in the ingest
/// queue: the connection is only closed afterwards, and `hookd-emit` waits
/// for that close, so the agent cannot start the command before the first
/// snapshot exists, nor make its next change before the second (the
/// ingest thread compares the two, `daemon::ingest`). Each changed or
/// untracked file's content is kept. A before snapshot that finished once
/// its `emitter` stopped waiting keeps none of the command's befores
/// ([`crate::daemon::emitter`]), and is also remembered in the content
/// store, for a daemon that stops before the command's post event.
async fn snapshot_repository(
    event: &HookEvent,
    shared: &Shared,
    moment: Moment,
    emitter: Option<Emitter>,
) {
    let (Some(dir), Some(tool_use_id)) = (extract::event_dir(event), event.tool_use_id.clone())
    else {
        return;
    };
    let tracker = Arc::clone(&shared.bash);
    let data_dir = shared.data_dir.clone();
    let stores = Arc::clone(&shared.stores);
    let when = match moment {
        Moment::Before => "before",
        Moment::After => "after",
    };
    let taken = tokio::task::spawn_blocking(move || {
        let root = stores.root_of(&dir)?;
        let repo = git2::Repository::open(&root).ok()?;
        let state_dir = capture::state_dir_for(&root, Some(&root), &data_dir);
        // The state now (kept in `store` when there is one); a before,
        // trusted only while hookd-emit still holds the command back.
        let take = |store: Option<&crate::ledger::content_store::ContentStore>| {
            let mut snapshot = bash_tracker::snapshot_keeping(&repo, &root, store);
            if moment == Moment::Before
                && !emitter::still_waiting(emitter.as_ref())
                && let Ok(snapshot) = &mut snapshot
            {
                tracing::warn!(root = %root.display(), "hookd-emit stopped waiting before the repository's state was recorded; the command's befores are unknown");
                snapshot.distrust(emitter::GAVE_UP_BASH);
            }
            snapshot
        };
        let snapshot = stores
            .with_store(&state_dir, |store| {
                let snapshot = take(Some(store));
                if moment == Moment::Before
                    && let Ok(snapshot) = &snapshot
                    && let Err(err) = store.remember_before(&tool_use_id, &root, &snapshot.to_text())
                {
                    tracing::warn!(error = %err, "cannot remember a Bash snapshot in the content store");
                }
                snapshot
            })
            .unwrap_or_else(|err| {
                tracing::warn!(dir = %state_dir.display(), error = %err, "cannot open the content store; Bash changes will not be restorable");
                take(None)
            });
        match snapshot {
            Ok(snapshot) => {
                if let Ok(mut tracker) = tracker.lock() {
                    match moment {
                        Moment::Before => tracker.before(&tool_use_id, &root, snapshot),
                        Moment::After => tracker.after(&tool_use_id, &root, snapshot),
                    }
                }
                Some(())
            }
            Err(err) => {
                tracing::warn!(root = %root.display(), error = %err, "cannot snapshot git status {when} Bash");
                None
            }
        }
    })
    .await;
    if taken.is_err() {
        tracing::error!("Bash snapshot task failed");
    }
}

/// How long writing a reply may take before the emitter is given up on.
const REPLY_WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// Runs the managed hooks for a `wait` envelope and writes the reply line.
/// On shutdown, running hooks get [`DRAIN_GRACE`] to finish; after that they
/// are dropped (their process groups are killed) and the reply is empty, so
/// the agent fails open.
async fn answer_wait(
    event: HookEvent,
    wait: WaitParts,
    shared: &Shared,
    writer: &mut OwnedWriteHalf,
    shutdown: &CancellationToken,
) {
    let dir = extract::event_dir(&event);
    let (reply, runs) = match &shared.managed {
        None => (hookd_proto::Reply::default(), Vec::new()),
        Some(hooks) => {
            let project_root = match wait.project_dir {
                Some(dir) => Some(dir),
                None => project_of(dir.clone(), shared.data_dir.clone()).await,
            };
            let request = WaitRequest {
                event,
                event_type: wait.event_type,
                payload: wait.payload,
                project_root,
            };
            tokio::select! {
                answered = managed::answer(hooks, request) => answered,
                () = async {
                    shutdown.cancelled().await;
                    tokio::time::sleep(DRAIN_GRACE).await;
                } => {
                    tracing::warn!("daemon stopping: abandoned running managed hooks; the agent fails open");
                    (hookd_proto::Reply::default(), Vec::new())
                }
            }
        }
    };
    let mut line = serde_json::to_vec(&reply).unwrap_or_else(|_| b"{\"exit_code\":0}".to_vec());
    line.push(b'\n');
    match tokio::time::timeout(REPLY_WRITE_TIMEOUT, writer.write_all(&line)).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => tracing::debug!(error = %err, "emitter went away before its reply"),
        Err(_) => tracing::warn!("emitter did not read its reply in time"),
    }
    let skipped = runs.iter().filter(|r| r.skipped.is_some()).count() as u64;
    if skipped > 0 {
        shared
            .stats
            .hooks_skipped_untrusted
            .fetch_add(skipped, Ordering::Relaxed);
    }
    if !runs.is_empty()
        && shared
            .events
            .send(IngestItem::HookRuns { dir, runs })
            .await
            .is_err()
    {
        tracing::error!("ingest thread has stopped; hook runs not stored");
    }
}

/// The project of an event without `project_dir` (the agent's
/// `CLAUDE_PROJECT_DIR`): the outermost registered project that contains its
/// directory, so a repository cloned inside a project (`vendor/x`) does not
/// bring its own hooks; else its git root; else the directory itself.
async fn project_of(dir: Option<PathBuf>, data_dir: PathBuf) -> Option<PathBuf> {
    let dir = dir?;
    let probe = dir.clone();
    tokio::task::spawn_blocking(move || {
        let registered = crate::ledger::registry::Registry::open(&data_dir)
            .and_then(|r| r.list())
            .map_or_else(
                |err| {
                    tracing::warn!(error = %err, "cannot read the registry of projects; using the git root");
                    Vec::new()
                },
                |repos| repos.into_iter().map(|r| r.root).collect::<Vec<_>>(),
            );
        managed::project_containing(&probe, &registered)
            .or_else(|| crate::project::discover_root(&probe))
    })
    .await
    .ok()
    .flatten()
    .or(Some(dir))
}

/// A validated line: the event, and what a `wait` envelope needs for its answer.
#[derive(Debug)]
pub struct ParsedLine {
    /// The normalised event.
    pub event: HookEvent,
    /// Present when the emitter waits for a reply.
    pub wait: Option<WaitParts>,
    /// The event id came from the envelope (a `hookd-emit` that waits for
    /// an acknowledgement in recording mode).
    pub emitter_id: bool,
    /// The line to journal when it differs from the one received: the
    /// envelope with the id the daemon assigned, so a replay keeps it.
    pub journal_line: Option<Vec<u8>>,
}

/// What answering a `wait` envelope needs beyond the recorded event.
#[derive(Debug)]
pub struct WaitParts {
    /// The event name as the emitter gave it.
    pub event_type: String,
    /// The payload, for the managed hooks' stdin.
    pub payload: serde_json::Value,
    /// The agent's project directory, if the emitter knew it.
    pub project_dir: Option<PathBuf>,
}

/// Validates one line and turns it into a [`HookEvent`].
pub fn parse_envelope(line: &[u8]) -> std::result::Result<HookEvent, (Rejection, String)> {
    parse_line(line).map(|parsed| parsed.event)
}

/// Validates one line and splits it into the event and, for `wait`
/// envelopes, what the reply needs.
pub fn parse_line(line: &[u8]) -> std::result::Result<ParsedLine, (Rejection, String)> {
    let text = std::str::from_utf8(line).map_err(|e| {
        (
            Rejection::InvalidUtf8,
            format!("invalid UTF-8 after {} bytes", e.valid_up_to()),
        )
    })?;
    let envelope: Envelope = serde_json::from_str(text).map_err(|e| {
        let why = match e.classify() {
            serde_json::error::Category::Data => Rejection::InvalidEnvelope,
            _ => Rejection::MalformedJson,
        };
        (why, e.to_string())
    })?;
    if envelope.event_type.trim().is_empty() {
        return Err((Rejection::InvalidEnvelope, "event_type is empty".into()));
    }
    let timestamp = timefmt::normalize(&envelope.timestamp).ok_or_else(|| {
        (
            Rejection::BadTimestamp,
            format!("timestamp {:?} is not RFC 3339", envelope.timestamp),
        )
    })?;
    // The emitter's id when it sent a valid one: a line that arrives twice
    // (socket and journal, or a replay after a crash) is then stored once.
    let mut envelope = envelope;
    let given = envelope
        .event_id
        .as_deref()
        .and_then(|id| uuid::Uuid::try_parse(id).ok())
        .filter(|id| !id.is_nil());
    let emitter_id = given.is_some();
    let event_id = given
        .unwrap_or_else(uuid::Uuid::now_v7)
        .hyphenated()
        .to_string();
    let journal_line = if emitter_id {
        None
    } else if envelope.event_id.is_none() {
        with_event_id(text, &event_id)
    } else {
        // An unusable id: rewritten whole, so the key is not there twice.
        envelope.event_id = Some(event_id.clone());
        serde_json::to_vec(&envelope).ok()
    };
    let event = extract::hook_event(&envelope, event_id, timestamp, timefmt::now());
    let wait = envelope.wait.then(|| WaitParts {
        event_type: envelope.event_type,
        payload: envelope.payload,
        project_dir: envelope
            .project_dir
            .filter(|d| !d.is_empty())
            .map(PathBuf::from),
    });
    Ok(ParsedLine {
        event,
        wait,
        emitter_id,
        journal_line,
    })
}

/// The listening Unix socket systemd passes on standard input to a
/// socket-activated `hookd.service` (`StandardInput=socket`), if that is
/// what standard input is. Taken from stdin rather than `LISTEN_FDS`'s fd 3
/// because stdin can be borrowed without `unsafe`; nothing but a
/// listening stream socket qualifies, so an ordinary stdin never does.
fn inherited_listener() -> Option<std::os::unix::net::UnixListener> {
    use std::os::fd::AsFd as _;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    if !rustix::net::sockopt::socket_acceptconn(fd).unwrap_or(false) {
        return None;
    }
    let local = rustix::net::getsockname(fd).ok()?;
    if local.address_family() != rustix::net::AddressFamily::UNIX {
        return None;
    }
    fd.try_clone_to_owned()
        .ok()
        .map(std::os::unix::net::UnixListener::from)
}

/// `line` (a JSON object without an `event_id` key) with `"event_id"`
/// added before its closing brace: cheaper than serialising it again, which
/// matters for emitters that send no id (the bash one) at burst rates.
fn with_event_id(line: &str, event_id: &str) -> Option<Vec<u8>> {
    let body = line.trim_end().strip_suffix('}')?;
    let mut out = Vec::with_capacity(line.len() + event_id.len() + 16);
    out.extend_from_slice(body.as_bytes());
    out.extend_from_slice(b",\"event_id\":\"");
    out.extend_from_slice(event_id.as_bytes());
    out.extend_from_slice(b"\"}");
    Some(out)
}

/// Creates the socket directory 0700, or checks an existing one is private
/// (`hookd_proto::trust::check_socket_dir`).
fn prepare_private_dir(dir: &Path) -> Result<()> {
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| Error::io("cannot create socket directory", dir, e))?;
    }
    // The same rule hookd-emit applies before it connects.
    hookd_proto::trust::check_socket_dir(dir).map_err(|why| Error::InsecureSocketDir {
        path: dir.to_path_buf(),
        reason: why.reason(),
    })
}

/// Refuses a live daemon's socket; removes a stale one.
fn remove_stale_socket(socket: &Path, pid_file: &Path) -> Result<()> {
    let meta = match std::fs::symlink_metadata(socket) {
        Ok(meta) => meta,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(Error::io("cannot inspect", socket, err)),
    };
    if !meta.file_type().is_socket() {
        return Err(Error::NotASocket(socket.to_path_buf()));
    }
    match std::os::unix::net::UnixStream::connect(socket) {
        Ok(_) => Err(Error::AlreadyRunning {
            socket: socket.to_path_buf(),
            pid: std::fs::read_to_string(pid_file)
                .ok()
                .and_then(|s| s.trim().parse().ok()),
        }),
        Err(err) if err.kind() == ErrorKind::ConnectionRefused => {
            tracing::info!(socket = %socket.display(), "removing stale socket left by a daemon that is gone");
            std::fs::remove_file(socket)
                .map_err(|e| Error::io("cannot remove stale socket", socket, e))
        }
        Err(err) => Err(Error::io("cannot probe existing socket", socket, err)),
    }
}

fn remove_file_quietly(path: &Path) {
    if let Err(err) = std::fs::remove_file(path)
        && err.kind() != ErrorKind::NotFound
    {
        tracing::warn!(path = %path.display(), error = %err, "cannot remove file");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt as _;

    #[test]
    fn parse_rejects_each_kind_of_bad_line() {
        let cases: [(&[u8], Rejection); 5] = [
            (b"{not json", Rejection::MalformedJson),
            (
                b"{\"event_type\":\"x\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                Rejection::InvalidEnvelope,
            ),
            (
                b"{\"event_type\":\"x\",\"payload\":{},\"timestamp\":\"noon\"}",
                Rejection::BadTimestamp,
            ),
            (
                b"{\"event_type\":\"\",\"payload\":{},\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                Rejection::InvalidEnvelope,
            ),
            (b"\xff\xfe{}", Rejection::InvalidUtf8),
        ];
        for (line, expected) in cases {
            let (why, _) = parse_envelope(line).unwrap_err();
            assert_eq!(why, expected, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn an_emitter_id_is_kept_and_a_missing_one_is_added_to_the_journaled_line() {
        let id = "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
        let line = format!(
            r#"{{"event_type":"stop","payload":{{}},"timestamp":"2026-11-21T10:00:00Z","event_id":"{id}"}}"#
        );
        let parsed = parse_line(line.as_bytes()).unwrap();
        assert_eq!(parsed.event.event_id, id);
        assert!(parsed.emitter_id && parsed.journal_line.is_none());

        for line in [
            r#"{"event_type":"stop","payload":{},"timestamp":"2026-11-21T10:00:00Z"} "#,
            r#"{"event_type":"stop","payload":{},"timestamp":"2026-11-21T10:00:00Z","event_id":"nope"}"#,
        ] {
            let parsed = parse_line(line.as_bytes()).unwrap();
            assert!(!parsed.emitter_id);
            let journaled = parsed.journal_line.expect("rewritten");
            let again = parse_line(&journaled).unwrap();
            assert_eq!(again.event.event_id, parsed.event.event_id, "{line}");
            assert!(again.emitter_id);
        }
    }

    #[test]
    fn parse_accepts_the_bash_emitter_shape() {
        let line = br#"{"event_type":"post_tool_use","tool_name":"write","payload":{"tool_name":"Write","session_id":"s1"},"timestamp":"2026-11-21T10:00:00.123Z","pid":4242}"#;
        let event = parse_envelope(line).unwrap();
        assert_eq!(event.hook_type, "post_tool_use");
        assert_eq!(event.tool_name.as_deref(), Some("Write"));
        assert_eq!(event.agent_id, "s1");
        assert_eq!(event.event_timestamp, "2026-11-21T10:00:00.123Z");
        assert_eq!(event.source_pid, Some(4242));
    }

    #[test]
    fn a_shared_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = prepare_private_dir(dir.path()).unwrap_err();
        assert!(matches!(err, Error::InsecureSocketDir { .. }), "{err}");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        prepare_private_dir(dir.path()).unwrap();
        let nested = dir.path().join("a/b");
        prepare_private_dir(&nested).unwrap();
        assert_eq!(std::fs::metadata(&nested).unwrap().mode() & 0o777, 0o700);
    }
}
