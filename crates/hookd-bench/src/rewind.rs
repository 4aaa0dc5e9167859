//! Figure 13 (issue 17, rewind): what keeping a file's *before* adds to a
//! file tool's `PreToolUse`, what a rewind of a 200-file session takes,
//! and what recorded Writes cost on disk with their contents kept.
//!
//! 1. **Snapshot cost.** A real daemon and the released `hookd-emit`. Three
//!    kinds of call alternate, with the same payload (a 100 KB file's
//!    content in `tool_input`, as a Write's `PreToolUse` carries): a
//!    `PreToolUse` of a tool the daemon takes no snapshot for (`Read`: the
//!    plain emit), a Write's `PreToolUse` of a file whose content is new
//!    each call (the daemon compresses and stores it), and one of a file
//!    whose content is already stored (hashed only). The figure is the
//!    median of each minus the plain median.
//! 2. **Plan and apply.** In process, through the core's `RewindRepo`: a
//!    session that wrote then edited 200 files of 100 lines is rewound,
//!    then the rewind undone, alternately; each round opens the
//!    repository, plans and applies (as `hookd rewind --apply` does).
//! 3. **Bytes.** N Writes of 1 KB, each a new file content, recorded as
//!    the daemon records them (the event, its mutation, the before and
//!    after in the content store), then the ledger's and the store's size
//!    on disk (allocated blocks, as `du` counts), each closed first (its
//!    write-ahead log checkpointed).

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use hookd_core::daemon::capture;
use hookd_core::ledger::Ledger;
use hookd_core::ledger::content_store::ContentStore;
use hookd_core::record::{HookEvent, LedgerEntry, MutationRecord, RepoFacts};
use hookd_core::rewind::{OnConflict, RewindRepo, Target};
use serde::Serialize;
use serde_json::json;

use crate::env::{self, RunningDaemon, Tools, Workspace};
use crate::stats::{Summary, ms};

/// Size of the file a snapshot reads.
const SNAPSHOT_FILE_BYTES: usize = 100 * 1024;

/// Unmeasured rounds of each kind of call first.
const WARMUP_CALLS: usize = 5;

/// Files of the rewound session.
const SESSION_FILES: usize = 200;

/// Lines per file of the rewound session.
const SESSION_FILE_LINES: usize = 100;

/// Rounds of rewind and undo (each one plan + apply).
const SESSION_ROUNDS: usize = 5;

/// Size of each recorded Write's content in the bytes figure.
const WRITE_BYTES: usize = 1024;

/// Result of the rewind measurement.
#[derive(Debug, Clone, Serialize)]
pub struct RewindReport {
    /// Measured calls of each kind.
    pub runs: usize,
    /// The payload's size, bytes.
    pub payload_bytes: usize,
    /// `PreToolUse` of a tool without a snapshot (`Read`), same payload.
    pub plain: Summary,
    /// A Write's `PreToolUse`, its file's content new each call.
    pub snapshot_new: Summary,
    /// A Write's `PreToolUse`, its file's content already stored.
    pub snapshot_stored: Summary,
    /// Files in the rewound session.
    pub session_files: usize,
    /// Open + plan + apply of the session's rewind, and of its undo.
    pub rewind: Summary,
    /// Of which planning alone.
    pub plan: Summary,
    /// The same Writes recorded in each [`WriteShape`], in its order.
    pub bytes: Vec<RecordedBytes>,
}

/// Runs the three parts.
pub fn run(tools: &Tools, runs: usize, writes: u64) -> Result<RewindReport> {
    ensure!(runs > 0, "--rewind-runs must be at least 1");
    let (payload_bytes, plain, snapshot_new, snapshot_stored) = snapshot_cost(tools, runs)?;
    let (rewind, plan) = session_rewind()?;
    let bytes = WriteShape::ALL
        .into_iter()
        .map(|shape| recorded_bytes(shape, writes))
        .collect::<Result<Vec<_>>>()?;
    Ok(RewindReport {
        runs,
        payload_bytes,
        plain,
        snapshot_new,
        snapshot_stored,
        session_files: SESSION_FILES,
        rewind,
        plan,
        bytes,
    })
}

fn snapshot_cost(tools: &Tools, runs: usize) -> Result<(usize, Summary, Summary, Summary)> {
    let ws = Workspace::new()?;
    let daemon = RunningDaemon::start(&ws, false)?;
    let new_file = ws.root.join("src/generated.rs");
    let stored_file = ws.root.join("src/stable.rs");
    std::fs::create_dir_all(ws.root.join("src"))?;
    std::fs::write(&stored_file, content(SNAPSHOT_FILE_BYTES, 0))?;
    let body = content(SNAPSHOT_FILE_BYTES, 1);
    let payload = |tool: &str, file: &Path, id: &str| -> Result<Vec<u8>> {
        Ok(serde_json::to_vec(&json!({
            "session_id": "bench-rewind",
            "cwd": ws.root,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_use_id": id,
            "tool_input": {"file_path": file, "content": body},
        }))?)
    };
    let payload_bytes = payload("Write", &new_file, "toolu_rewind_000000")?.len();
    eprintln!(
        "[rewind] {WARMUP_CALLS} warm-up + {runs} measured PreToolUse calls of each kind, alternating ({payload_bytes} B payload)"
    );
    let mut plain = Vec::with_capacity(runs);
    let mut new = Vec::with_capacity(runs);
    let mut stored = Vec::with_capacity(runs);
    let mut last_progress = Instant::now();
    for i in 0..WARMUP_CALLS + runs {
        // A new content for the file the next Write reads (not timed).
        std::fs::write(&new_file, content(SNAPSHOT_FILE_BYTES, i + 2))?;
        let timed = |tool: &str, file: &Path, kind: &str| -> Result<Duration> {
            let mut cmd = ws.command(&tools.emit);
            cmd.arg("PreToolUse");
            env::time_with_stdin(
                &mut cmd,
                &payload(tool, file, &format!("toolu_{kind}_{i:06}"))?,
            )
        };
        let times = (
            timed("Read", &new_file, "plain")?,
            timed("Write", &new_file, "new")?,
            timed("Write", &stored_file, "stored")?,
        );
        if i >= WARMUP_CALLS {
            plain.push(times.0);
            new.push(times.1);
            stored.push(times.2);
        }
        if last_progress.elapsed() > Duration::from_secs(5) {
            eprintln!("[rewind] {}/{} rounds", i + 1, WARMUP_CALLS + runs);
            last_progress = Instant::now();
        }
    }
    daemon.stop()?;
    // Every new content was kept: the snapshots were taken, not skipped.
    let store = ContentStore::open(&ws.root.join(".hookd"))?;
    let kept = (0..WARMUP_CALLS + runs)
        .filter(|i| {
            let hash = hookd_core::ledger::content_store::ContentHash::of(
                content(SNAPSHOT_FILE_BYTES, i + 2).as_bytes(),
            );
            store.contains(&hash).unwrap_or(false)
        })
        .count();
    ensure!(
        kept == WARMUP_CALLS + runs,
        "only {kept} of {} new contents were kept by the daemon",
        WARMUP_CALLS + runs
    );
    Ok((
        payload_bytes,
        Summary::of(&plain).context("no plain samples")?,
        Summary::of(&new).context("no snapshot samples")?,
        Summary::of(&stored).context("no snapshot samples")?,
    ))
}

/// A text of about `bytes` bytes, different for each `seed`.
fn content(bytes: usize, seed: usize) -> String {
    let mut text = String::with_capacity(bytes + 80);
    let mut line = 0;
    while text.len() < bytes {
        line += 1;
        text.push_str(&format!(
            "    let value_{line} = compute({seed}, {line}); // keeps the line realistic\n"
        ));
    }
    text
}

fn lines(seed: &str) -> String {
    (1..=SESSION_FILE_LINES)
        .map(|n| format!("fn item_{n}() -> u32 {{ {n} }} // {seed}\n"))
        .collect()
}

fn session_rewind() -> Result<(Summary, Summary)> {
    let ws = Workspace::new()?;
    let (mut ledger, store, facts) = recording(&ws)?;
    let mut entries = Vec::new();
    for f in 0..SESSION_FILES {
        let file = format!("src/module_{f:03}.rs");
        let original = lines("original");
        let written = lines("written by the agent");
        let edited = written.replacen("// written by the agent\n", "// edited\n", 1);
        std::fs::create_dir_all(ws.root.join("src"))?;
        std::fs::write(ws.root.join(&file), &edited)?;
        for (call, before, after) in [(2 * f, &original, &written), (2 * f + 1, &written, &edited)]
        {
            entries.push(entry(
                WriteShape::ByReference,
                &store,
                &facts,
                &format!("call-{call:04}"),
                &file,
                before,
                after,
            ));
        }
    }
    ledger.append(&entries)?;
    drop(ledger);

    eprintln!(
        "[rewind] {SESSION_ROUNDS} rounds of rewinding a {SESSION_FILES}-file session and undoing it"
    );
    let mut total = Vec::new();
    let mut plans = Vec::new();
    let mut undo = false;
    for _ in 0..2 * SESSION_ROUNDS {
        let start = Instant::now();
        let mut repo = RewindRepo::open(&ws.root)?;
        let target = if undo {
            Target::Call(repo.last_rewind()?.context("no rewind to undo")?)
        } else {
            Target::Session("bench-session".into())
        };
        let plan = repo.plan(&target)?;
        let planned = start.elapsed();
        ensure!(
            plan.files.len() == SESSION_FILES,
            "the plan has {} files",
            plan.files.len()
        );
        let applied = repo.apply(&plan, OnConflict::Refuse)?;
        total.push(start.elapsed());
        plans.push(planned);
        ensure!(
            applied.written.len() == SESSION_FILES,
            "{} files written",
            applied.written.len()
        );
        undo = !undo;
    }
    let first = std::fs::read_to_string(ws.root.join("src/module_000.rs"))?;
    ensure!(
        first.contains("// edited"),
        "after an even number of rewinds the files are as the session left them"
    );
    Ok((
        Summary::of(&total).context("no rewind samples")?,
        Summary::of(&plans).context("no plan samples")?,
    ))
}

/// The workspace's ledger and content store, and its repository's facts.
fn recording(ws: &Workspace) -> Result<(Ledger, ContentStore, RepoFacts)> {
    let ledger = Ledger::open_or_create(&ws.ledger_path())?;
    let store = ContentStore::open(&ws.root.join(".hookd"))?;
    let facts = RepoFacts {
        git_root: Some(ws.root.clone()),
        branch: "main".into(),
        head_sha: ws.head_sha.clone(),
        remote_url: None,
    };
    Ok((ledger, store, facts))
}

/// How the bytes figure's Writes look and are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteShape {
    /// The figure: the payload names the file and carries the
    /// content, stored as received (every ledger of schema 11).
    Inline,
    /// The same payloads, their content kept in the store by reference.
    ByReference,
    /// Claude Code's `PostToolUse` of a Write as it really arrives: the
    /// content again in `tool_response`, with the old content and a
    /// patch, stored as received.
    ClaudeInline,
    /// The same, by reference.
    ClaudeByReference,
}

impl WriteShape {
    const ALL: [Self; 4] = [
        Self::Inline,
        Self::ByReference,
        Self::ClaudeInline,
        Self::ClaudeByReference,
    ];

    fn by_reference(self) -> bool {
        matches!(self, Self::ByReference | Self::ClaudeByReference)
    }

    fn payload(self, call: &str, file: &str, before: &str, after: &str) -> serde_json::Value {
        match self {
            Self::Inline | Self::ByReference => json!({
                "session_id": "bench-session",
                "tool_name": "Write",
                "tool_use_id": call,
                "tool_input": {"file_path": file, "content": after},
            }),
            Self::ClaudeInline | Self::ClaudeByReference => json!({
                "session_id": "bench-session",
                "transcript_path": "/home/user/.claude/projects/-home-user-src-app/bench-session.jsonl",
                "cwd": "/home/user/src/app",
                "permission_mode": "acceptEdits",
                "hook_event_name": "PostToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": file, "content": after},
                "tool_response": {
                    "type": "update",
                    "filePath": file,
                    "content": after,
                    "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1,
                                         "lines": [format!("-{}", before.lines().next().unwrap_or_default()),
                                                   format!("+{}", after.lines().next().unwrap_or_default())]}],
                    "originalFile": before,
                },
                "tool_use_id": call,
            }),
        }
    }
}

/// What N Writes of one shape took on disk.
#[derive(Debug, Clone, Serialize)]
pub struct RecordedBytes {
    /// The payloads' shape and storage.
    pub shape: WriteShape,
    /// Writes recorded.
    pub writes: u64,
    /// The payload's size of the last Write, bytes.
    pub payload_bytes: usize,
    /// The ledger's allocated bytes (database and WAL, checkpointed).
    pub ledger_bytes: u64,
    /// The content store's allocated bytes.
    pub store_bytes: u64,
    /// Contents in the content store.
    pub store_objects: u64,
    /// Time to build and record them (contents kept, batches of 4,096), ms.
    pub record_ms: f64,
    /// For a ledger stored as received: `hookd ledger compact` of it
    /// afterwards (the rewrite, then the `VACUUM`, ms) and its bytes then.
    pub compacted: Option<Compacted>,
}

/// What compacting a ledger stored as received did.
#[derive(Debug, Clone, Serialize)]
pub struct Compacted {
    /// Rewriting the rows in place, ms.
    pub rewrite_ms: f64,
    /// The `VACUUM` after it, ms.
    pub vacuum_ms: f64,
    /// The ledger's allocated bytes after both.
    pub ledger_bytes: u64,
}

fn entry(
    shape: WriteShape,
    store: &ContentStore,
    facts: &RepoFacts,
    call: &str,
    file: &str,
    before: &str,
    after: &str,
) -> LedgerEntry {
    let now = hookd_core::timefmt::now();
    let payload = shape.payload(call, file, before, after);
    let mut event = HookEvent::post_tool_use(
        uuid::Uuid::now_v7().to_string(),
        "Write",
        "bench-agent",
        payload.to_string(),
        now,
    );
    event.session_id = Some("bench-session".into());
    event.tool_use_id = Some(call.into());
    event.cwd = facts.git_root.clone();
    let mut mutation =
        MutationRecord::for_event(&event, facts, "Write", 0, Some(file.into()), None);
    mutation.before = Some(capture::keep(store, before.as_bytes()));
    mutation.after = Some(capture::keep(store, after.as_bytes()));
    LedgerEntry {
        event,
        repo: facts.clone(),
        mutations: vec![mutation],
    }
}

fn recorded_bytes(shape: WriteShape, writes: u64) -> Result<RecordedBytes> {
    let ws = Workspace::new()?;
    let (mut ledger, store, facts) = recording(&ws)?;
    if !shape.by_reference() {
        ledger.store_payloads_as_received();
    }
    eprintln!(
        "[rewind] recording {writes} Writes of {WRITE_BYTES} B with their contents kept ({shape:?})"
    );
    let started = Instant::now();
    let mut last_progress = Instant::now();
    let mut previous = content(WRITE_BYTES, 0);
    let mut batch = Vec::with_capacity(4096);
    let mut payload_bytes = 0;
    for i in 0..writes {
        let i = usize::try_from(i)?;
        let file = format!("src/file_{:05}.rs", i % 10_000);
        let next = content(WRITE_BYTES, i + 1);
        let entry = entry(
            shape,
            &store,
            &facts,
            &format!("w-{i:08}"),
            &file,
            &previous,
            &next,
        );
        payload_bytes = entry.event.raw_payload.len();
        batch.push(entry);
        previous = next;
        if batch.len() == 4096 {
            ledger.append(&batch)?;
            batch.clear();
        }
        if last_progress.elapsed() > Duration::from_secs(10) {
            eprintln!(
                "[rewind] {i}/{writes} Writes, {:.0} s",
                started.elapsed().as_secs_f64()
            );
            last_progress = Instant::now();
        }
    }
    ledger.append(&batch)?;
    // Every payload reads back as it was received.
    let newest = ledger.mutations(&hookd_core::ledger::MutationFilter {
        limit: Some(1),
        ..Default::default()
    })?;
    ensure!(
        newest.first().map(|m| m.record.raw_payload.len()) == Some(payload_bytes),
        "the newest Write's payload did not read back whole"
    );
    ledger
        .connection()
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .context("checkpoint")?;
    drop(ledger);
    let ledger_size = || -> u64 {
        ["", "-wal", "-shm"]
            .iter()
            .map(|suffix| {
                let mut path = ws.ledger_path().into_os_string();
                path.push(suffix);
                allocated(Path::new(&path))
            })
            .sum()
    };
    let ledger_bytes = ledger_size();
    // The history an older hookd wrote, brought to the new form in place
    // as `hookd ledger compact` does.
    let compacted = if shape == WriteShape::Inline {
        eprintln!("[rewind] compacting the ledger stored as received");
        let mut ledger = Ledger::open_existing(&ws.ledger_path())?;
        let started = Instant::now();
        let report = ledger.compact_history(|_| {})?;
        let rewrite_ms = ms(started.elapsed());
        ensure!(
            report.events == writes,
            "compacted {} of {writes} events",
            report.events
        );
        let started = Instant::now();
        ledger.vacuum()?;
        let vacuum_ms = ms(started.elapsed());
        ledger
            .connection()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .context("checkpoint")?;
        drop(ledger);
        eprintln!("[rewind] compacted in {rewrite_ms:.0} ms, vacuumed in {vacuum_ms:.0} ms");
        Some(Compacted {
            rewrite_ms,
            vacuum_ms,
            ledger_bytes: ledger_size(),
        })
    } else {
        None
    };
    // Closing the last connection checkpoints the store's WAL into it.
    let store_dir = store.dir().to_path_buf();
    drop(store);
    let (store_bytes, _) = tree_size(&store_dir)?;
    let store_objects: i64 = rusqlite::Connection::open(store_dir.join("contents.db"))?.query_row(
        "SELECT count(*) FROM contents",
        [],
        |r| r.get(0),
    )?;
    let store_objects = u64::try_from(store_objects)?;
    let record_ms = ms(started.elapsed());
    eprintln!("[rewind] recorded in {record_ms:.0} ms");
    Ok(RecordedBytes {
        compacted,
        record_ms,
        shape,
        writes,
        payload_bytes,
        ledger_bytes,
        store_bytes,
        store_objects,
    })
}

/// Bytes allocated on disk for a file (0 when absent).
fn allocated(path: &Path) -> u64 {
    std::fs::symlink_metadata(path).map_or(0, |m| m.blocks() * 512)
}

/// Bytes allocated and files under `dir`, directories included.
fn tree_size(dir: &Path) -> Result<(u64, u64)> {
    let mut bytes = allocated(dir);
    let mut files = 0;
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            let (b, f) = tree_size(&path)?;
            bytes += b;
            files += f;
        } else {
            bytes += allocated(&path);
            files += 1;
        }
    }
    Ok((bytes, files))
}
