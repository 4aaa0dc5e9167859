//! The fixture every measurement runs against: a real git repository and a
//! real daemon inside a private temp dir, a watcher of the daemon's commit
//! notices, and the released binaries to spawn.
//!
//! The figures are only worth quoting if they come from the parts hookd
//! ships, so nothing here is mocked: the repository is made with libgit2, the
//! daemon is `hookd_core::daemon::server::Daemon` on the same two-worker runtime
//! `hookd daemon` uses, the ledger is a SQLite file, and emitters and queries
//! are child processes. Every child gets `HOOKD_SOCKET` and `HOOKD_DATA_DIR`
//! pointing into the temp dir so a benchmark never touches the user's data;
//! a daemon that runs managed hooks reads them from a home inside the temp
//! dir too, never from the user's `~/.hookd`. A daemon in `amqp` ledger mode
//! keeps its outbox in the temp data dir and publishes to a real broker
//! (see [`crate::broker`]).

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Write as _;
use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use hookd_core::config::LedgerMode;
use hookd_core::daemon::server::{AmqpTarget, Daemon, DaemonConfig};
use hookd_core::daemon::stats::{DaemonStats, StatsSnapshot};
use hookd_core::record::CommitNotice;
use hookd_core::settings::SettingsRoots;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

/// The hook event every emitted payload claims to be.
pub const EVENT_TYPE: &str = "post_tool_use";

/// What a small Write of a Rust file looks like; sized so a whole payload is about 1 KB.
const SAMPLE_CONTENT: &str = "use std::collections::HashMap;\n\n\
/// Counts how often each word occurs in `text`.\n\
pub fn word_counts(text: &str) -> HashMap<&str, usize> {\n\
    let mut counts = HashMap::new();\n\
    for word in text.split_whitespace() {\n\
        *counts.entry(word).or_insert(0) += 1;\n\
    }\n\
    counts\n\
}\n\n\
#[cfg(test)]\n\
mod tests {\n\
    use super::*;\n\n\
    #[test]\n\
    fn counts_repeated_words() {\n\
        let counts = word_counts(\"a b a\");\n\
        assert_eq!(counts[\"a\"], 2);\n\
        assert_eq!(counts[\"b\"], 1);\n\
    }\n\
}\n";

/// A realistic Claude Code `PostToolUse` payload for a `Write` of `rel_path`.
///
/// Every measurement sends this shape so the figures are comparable; the
/// `tool_use_id` is what commit notices are matched on.
pub fn write_payload(root: &Path, session_id: &str, tool_use_id: &str, rel_path: &str) -> Value {
    let file_path = root.join(rel_path).to_string_lossy().into_owned();
    json!({
        "session_id": session_id,
        "transcript_path": format!("/home/dev/.claude/projects/-src-app/{session_id}.jsonl"),
        "cwd": root.to_string_lossy(),
        "permission_mode": "acceptEdits",
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": { "file_path": file_path, "content": SAMPLE_CONTENT },
        "tool_response": { "type": "create", "filePath": file_path, "success": true },
        "tool_use_id": tool_use_id,
    })
}

/// One envelope line (newline-terminated) of a `Write` of `rel_path` in
/// `root`, exactly as an emitter sends it ([`hookd_proto::Envelope`] itself, this
/// process as its sender).
pub fn write_line(
    root: &Path,
    session_id: &str,
    tool_use_id: &str,
    rel_path: &str,
) -> anyhow::Result<Vec<u8>> {
    let envelope = hookd_proto::Envelope::new(
        EVENT_TYPE,
        Some("Write".into()),
        write_payload(root, session_id, tool_use_id, rel_path),
        hookd_core::timefmt::now(),
        Some(std::process::id()),
    );
    let mut line = serde_json::to_vec(&envelope)?;
    line.push(b'\n');
    Ok(line)
}

/// The file every emit-per-call measurement writes to, so payload size stays constant.
pub const EMIT_TARGET_FILE: &str = "src/word_counts.rs";

/// [`write_payload`] for [`EMIT_TARGET_FILE`], serialised as hook stdin.
pub fn emit_stdin(root: &Path, session_id: &str, tool_use_id: &str) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&write_payload(
        root,
        session_id,
        tool_use_id,
        EMIT_TARGET_FILE,
    ))
}

/// What Claude Code typically runs through Bash at the end of a task: a commit
/// with a heredoc message. Sized so a whole `PreToolUse` payload is about 1 KB.
const BASH_COMMAND: &str = "git add src/word_counts.rs src/lib.rs && git commit -m \"$(cat <<'EOF'\n\
Add word_counts with tests\n\n\
Counts how often each word occurs in a text, splitting on Unicode\n\
whitespace. The summary view uses it to rank the most frequent terms;\n\
the map borrows from the input, so no word is copied.\n\n\
Tests cover repeated words and the empty string; a property test\n\
checks that the counts add up to the number of words for any input,\n\
including tabs, newlines and non-breaking spaces between words.\n\n\
Co-Authored-By: Claude <noreply@anthropic.com>\n\
EOF\n\
)\"";

/// A realistic Claude Code `PreToolUse` payload for a `Bash` call in `root`,
/// about 1 KB serialised. The measurements that run hooks send this shape:
/// Bash is the tool `PreToolUse` hooks guard most often.
pub fn bash_payload(root: &Path, session_id: &str, tool_use_id: &str) -> Value {
    json!({
        "session_id": session_id,
        "transcript_path": format!("/home/dev/.claude/projects/-src-app/{session_id}.jsonl"),
        "cwd": root.to_string_lossy(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {
            "command": BASH_COMMAND,
            "description": "Commit the word-count module and its tests",
            "timeout": 120_000,
        },
        "tool_use_id": tool_use_id,
    })
}

/// A session id that looks like Claude Code's (a UUID), derived from `n` so runs repeat.
pub fn session_id(n: u64) -> String {
    uuid::Uuid::from_u64_pair(0x6f1c_2a3b_4d5e_4f60, 0x8000_0000_0000_0000 | n).to_string()
}

/// The released binaries and scripts a measurement spawns.
#[derive(Debug, Clone)]
pub struct Tools {
    /// `target/release/hookd-emit`.
    pub emit: PathBuf,
    /// `target/release/hookd`.
    pub hookd: PathBuf,
    /// `tests/fixtures/bash-emitter.sh`, the baseline.
    pub bash_emitter: PathBuf,
}

impl Tools {
    /// Finds what the selected measurements need; a missing piece is a clear
    /// error, never a silently skipped figure.
    pub fn locate(need_emit: bool, need_hookd: bool, need_bash: bool) -> Result<Self> {
        let exe = std::env::current_exe().context("cannot find the bench executable")?;
        let bin_dir = exe
            .parent()
            .context("the bench executable has no directory")?;
        let sibling = |name: &str, needed: bool| -> Result<PathBuf> {
            let path = bin_dir.join(name);
            if needed && !path.is_file() {
                bail!(
                    "{} not found next to the bench ({}); build the release binaries first: \
                     `cargo build --release --workspace`",
                    name,
                    bin_dir.display()
                );
            }
            Ok(path)
        };
        let bash_emitter =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/bash-emitter.sh");
        if need_bash {
            if !bash_emitter.is_file() {
                bail!(
                    "the bash baseline emitter is missing: {}",
                    bash_emitter.display()
                );
            }
            for program in ["bash", "jq", "socat", "date"] {
                if find_in_path(program).is_none() {
                    bail!(
                        "`{program}` is not on PATH; the bash baseline emitter needs bash, jq and socat \
                         (Debian: `sudo apt-get install jq socat`, or run `scripts/setup`)"
                    );
                }
            }
        }
        Ok(Self {
            emit: sibling("hookd-emit", need_emit)?,
            hookd: sibling("hookd", need_hookd)?,
            bash_emitter: bash_emitter.canonicalize().unwrap_or(bash_emitter),
        })
    }
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A private temp dir holding a one-commit git repository, a 0700 socket
/// directory and a data directory; all removed on drop.
pub struct Workspace {
    _dir: tempfile::TempDir,
    /// The temp dir itself, canonical; everything below lives in it.
    base: PathBuf,
    /// The repository's work tree root, canonical (the daemon stores paths relative to it).
    pub root: PathBuf,
    /// Where the daemon listens.
    pub socket: PathBuf,
    /// The daemon's and the children's `HOOKD_DATA_DIR`.
    pub data_dir: PathBuf,
    /// The repository's only commit.
    pub head_sha: String,
}

impl Workspace {
    /// Creates the temp dir and the repository with one commit on `main`.
    pub fn new() -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("hookd-bench-")
            .tempdir()
            .context("cannot create a temp dir")?;
        let base = dir
            .path()
            .canonicalize()
            .context("cannot resolve the temp dir")?;
        let root = base.join("repo");
        let run = base.join("run");
        let data_dir = base.join("data");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&run)
            .context("cannot create the socket directory")?;
        std::fs::create_dir_all(&data_dir).context("cannot create the data directory")?;
        let head_sha = init_repo(&root)?;
        Ok(Self {
            _dir: dir,
            base,
            root,
            socket: run.join("hookd.sock"),
            data_dir,
            head_sha,
        })
    }

    /// The ledger the daemon writes for this repository.
    pub fn ledger_path(&self) -> PathBuf {
        hookd_core::dirs::repo_ledger_path(&self.root)
    }

    /// Creates another one-commit repository in the temp dir, beside
    /// [`Workspace::root`], and returns its canonical root.
    pub fn add_repo(&self, name: &str) -> Result<PathBuf> {
        let root = self.base.join(name);
        init_repo(&root)?;
        Ok(root)
    }

    /// Settings roots inside the temp dir (home `home/`, hookd home
    /// `home/.hookd`, created), so managed hooks come from the files a
    /// measurement writes and never from the user's.
    pub fn settings_roots(&self) -> Result<SettingsRoots> {
        let roots = SettingsRoots::under(&self.base.join("home"));
        std::fs::create_dir_all(&roots.hookd_home)
            .context("cannot create the bench's hookd home")?;
        Ok(roots)
    }

    /// A command for `program` running in the repository with the temp dir's
    /// socket and data dir, and with nothing from the user's hookd setup.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root)
            .env(hookd_proto::SOCKET_ENV, &self.socket)
            .env(hookd_core::dirs::DATA_DIR_ENV, &self.data_dir)
            .env_remove("HOOKD_DEBUG")
            .env_remove("CLAUDE_AGENT_ID")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    }
}

/// Commits `paths` (relative to `root`) on top of HEAD, as a team that
/// shares them would have, so they are not untracked files every git status
/// has to look at.
pub fn commit_paths(root: &Path, paths: &[&Path], message: &str) -> Result<()> {
    let repo = git2::Repository::open(root).context("cannot open the git repository")?;
    let mut index = repo.index()?;
    for path in paths {
        index.add_path(path)?;
    }
    index.write()?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let parent = repo.head()?.peel_to_commit()?;
    let sig = git2::Signature::now("hookd bench", "bench@example.invalid")?;
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &[&parent])?;
    Ok(())
}

/// Creates a git repository at `root` with one commit on `main`; returns the commit.
pub fn init_repo(root: &Path) -> Result<String> {
    let mut options = git2::RepositoryInitOptions::new();
    options.initial_head("main").mkpath(true);
    let repo =
        git2::Repository::init_opts(root, &options).context("cannot create the git repository")?;
    std::fs::create_dir_all(root.join("src"))?;
    std::fs::write(
        root.join("README.md"),
        "# bench\n\nA repository for hookd-bench.\n",
    )?;
    std::fs::write(root.join("src/lib.rs"), SAMPLE_CONTENT)?;
    let mut index = repo.index()?;
    index.add_path(Path::new("README.md"))?;
    index.add_path(Path::new("src/lib.rs"))?;
    index.write()?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let sig = git2::Signature::now("hookd bench", "bench@example.invalid")?;
    let oid = repo.commit(Some("HEAD"), &sig, &sig, "Initial commit", &tree, &[])?;
    Ok(oid.to_string())
}

/// Spawns `cmd`, writes `stdin` to it, closes it and waits; returns the wall
/// time from just before the spawn to the exit, as a hook caller would see it.
pub fn time_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Result<Duration> {
    cmd.stdin(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {:?}", cmd.get_program()))?;
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin)
            .context("cannot write the payload to the emitter")?;
    }
    let status = child.wait()?;
    let elapsed = start.elapsed();
    if !status.success() {
        bail!("{:?} exited with {status}", cmd.get_program());
    }
    Ok(elapsed)
}

/// What a child run by [`time_with_output`] did.
#[derive(Debug)]
pub struct Timed {
    /// Wall time from just before the spawn to the exit.
    pub elapsed: Duration,
    /// Exit code; `None` when a signal killed it.
    pub exit_code: Option<i32>,
    /// Everything it printed on stdout.
    pub stdout: Vec<u8>,
    /// Everything it printed on stderr.
    pub stderr: Vec<u8>,
}

/// Like [`time_with_stdin`], but keeps stdout and stderr and returns a
/// non-zero exit instead of failing on it, so a measurement can check what
/// a hook caller would have been told.
pub fn time_with_output(cmd: &mut Command, stdin: &[u8]) -> Result<Timed> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {:?}", cmd.get_program()))?;
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin)
            .context("cannot write the payload to the emitter")?;
    }
    let output = child.wait_with_output()?;
    let elapsed = start.elapsed();
    Ok(Timed {
        elapsed,
        exit_code: output.status.code(),
        stdout: output.stdout,
        stderr: output.stderr,
    })
}

/// A daemon serving a [`Workspace`] on its own runtime, with a [`CommitWatch`].
pub struct RunningDaemon {
    runtime: tokio::runtime::Runtime,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<hookd_core::Result<StatsSnapshot>>,
    stats: Arc<DaemonStats>,
    /// What the daemon has committed so far.
    pub watch: CommitWatch,
}

impl RunningDaemon {
    /// Binds the socket and serves it; `track_ids` makes the watch remember
    /// when each `tool_use_id` committed (latency runs need it, ingest runs don't).
    pub fn start(ws: &Workspace, track_ids: bool) -> Result<Self> {
        Self::start_with(ws, track_ids, |_| {})
    }

    /// [`RunningDaemon::start`] for a daemon that answers `hookd-emit --wait`
    /// by running the managed hooks found under `roots` and in each project.
    pub fn start_managed(ws: &Workspace, track_ids: bool, roots: SettingsRoots) -> Result<Self> {
        Self::start_with(ws, track_ids, |config| config.settings_roots = Some(roots))
    }

    /// [`RunningDaemon::start`] for a daemon in `amqp` ledger mode: it writes
    /// no ledger, only commits each event to its outbox
    /// (`{data_dir}/amqp-outbox.db`) and publishes it to `target`. Its
    /// commit notices then announce outbox commits.
    pub fn start_amqp(ws: &Workspace, track_ids: bool, target: AmqpTarget) -> Result<Self> {
        Self::start_with(ws, track_ids, |config| {
            config.ledger_mode = LedgerMode::Amqp;
            config.amqp = Some(target);
        })
    }

    fn start_with(
        ws: &Workspace,
        track_ids: bool,
        configure: impl FnOnce(&mut DaemonConfig),
    ) -> Result<Self> {
        // Two workers, as `hookd daemon` has: the figures describe the real daemon.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("hookd-bench-daemon")
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let daemon = {
            // Binding registers the listener with the runtime's reactor.
            let _entered = runtime.enter();
            let mut config = DaemonConfig::new(ws.socket.clone(), ws.data_dir.clone());
            configure(&mut config);
            Daemon::bind(config).context("cannot start the daemon")?
        };
        let stats = daemon.stats();
        let watch = CommitWatch::new(track_ids);
        runtime.spawn(watch.clone().follow(daemon.subscribe()));
        let shutdown = CancellationToken::new();
        let task = runtime.spawn(Box::pin(daemon.run(shutdown.clone())));
        Ok(Self {
            runtime,
            shutdown,
            task,
            stats,
            watch,
        })
    }

    /// The daemon's counters, live.
    pub fn stats(&self) -> StatsSnapshot {
        self.stats.snapshot()
    }

    /// Stops the daemon the way a signal would, waits for it to drain, and
    /// returns its final counters.
    pub fn stop(self) -> Result<StatsSnapshot> {
        self.shutdown.cancel();
        let outcome = self
            .runtime
            .block_on(self.task)
            .context("the daemon task panicked")?;
        self.runtime.shutdown_timeout(Duration::from_secs(5));
        outcome.context("the daemon failed")
    }
}

/// Follows commit notices: how many events committed, when, and (optionally)
/// when each `tool_use_id` did.
///
/// The instant is taken when the subscriber task receives the notice, in the
/// daemon's own process, so it is comparable with [`Instant`]s taken by the
/// bench just before it spawns or writes.
#[derive(Clone)]
pub struct CommitWatch {
    shared: Arc<(Mutex<WatchState>, Condvar)>,
    track_ids: bool,
}

#[derive(Default)]
struct WatchState {
    committed: u64,
    lagged_notices: u64,
    closed: bool,
    /// (arrival, committed count after this notice), one entry per notice.
    log: Vec<(Instant, u64)>,
    arrivals: HashMap<String, Instant>,
}

impl CommitWatch {
    fn new(track_ids: bool) -> Self {
        Self {
            shared: Arc::default(),
            track_ids,
        }
    }

    fn state(&self) -> MutexGuard<'_, WatchState> {
        self.shared
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn follow(self, mut notices: broadcast::Receiver<CommitNotice>) {
        loop {
            let received = notices.recv().await;
            let at = Instant::now();
            {
                let mut state = self.state();
                match received {
                    Ok(notice) => {
                        state.committed += notice.events.len() as u64;
                        let committed = state.committed;
                        state.log.push((at, committed));
                        if self.track_ids {
                            for event in notice.events {
                                if let Some(id) = event.tool_use_id {
                                    state.arrivals.insert(id, at);
                                }
                            }
                        }
                    }
                    // The channel holds 1024 notices; losing some would undercount, so say so.
                    Err(broadcast::error::RecvError::Lagged(lost)) => state.lagged_notices += lost,
                    Err(broadcast::error::RecvError::Closed) => state.closed = true,
                }
            }
            self.shared.1.notify_all();
            if self.state().closed {
                return;
            }
        }
    }

    /// Events committed so far.
    pub fn committed(&self) -> u64 {
        self.state().committed
    }

    /// Notices this watch missed because it fell behind (should be 0).
    pub fn lagged_notices(&self) -> u64 {
        self.state().lagged_notices
    }

    /// Waits until at least `count` events have committed; returns the
    /// instant the notice that reached `count` arrived, or `None` on timeout.
    pub fn wait_for(&self, count: u64, timeout: Duration) -> Option<Instant> {
        let guard = self.state();
        let (state, _) = self
            .shared
            .1
            .wait_timeout_while(guard, timeout, |s| {
                s.committed < count && !s.closed && s.lagged_notices == 0
            })
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state
            .log
            .iter()
            .find(|(_, total)| *total >= count)
            .map(|(at, _)| *at)
    }

    /// When `tool_use_id` committed, if it has.
    pub fn arrival(&self, tool_use_id: &str) -> Option<Instant> {
        self.state().arrivals.get(tool_use_id).copied()
    }
}

/// Sleeps until `deadline`; returns at once when it has passed.
pub fn sleep_until(deadline: Instant) {
    let now = Instant::now();
    if deadline > now {
        std::thread::sleep(deadline - now);
    }
}
