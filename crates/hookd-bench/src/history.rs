//! A heavy user's history, made up: the ledgers of millions of rows the
//! timeline benchmark ([`crate::timeline`]) reads.
//!
//! Going through the daemon would take hours for ten million rows, so rows
//! are written with `Ledger::append`, the same code path and row shapes the
//! daemon commits. The shape is a heavy user's year: ten agent sessions a
//! day during working hours (a few thousand tool calls each at ten million
//! rows), thousands of files edited with a skew (a few hot files, a long
//! tail), four branches, Edit/Write/MultiEdit/Bash tool calls with modest
//! payloads (about 400 bytes). Row `n` is a pure function of `n` and the [`Shape`], so a
//! burst or an ingest series continues the same history past its end.
//!
//! Building ten million rows takes minutes, so built ledgers are cached in a
//! directory keyed by the row count and [`BUILDER_VERSION`]; a rerun reuses
//! them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use chrono::{DateTime, TimeZone as _, Utc};
use hookd_core::ledger::Ledger;
use hookd_core::record::{HookEvent, LedgerEntry, MutationRecord, RepoFacts};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::env;

/// Bumped whenever the rows [`History`] makes change, or how a ledger keeps
/// them (2: the derived tables are kept by `Ledger::append`, no longer by
/// triggers a version-1 ledger still has; 3: sessions of several coding
/// agents, [`History::agent_kind_of`]), so a cached ledger of an older
/// shape is rebuilt rather than measured.
pub const BUILDER_VERSION: u32 = 3;

/// Rows appended per transaction while building.
const BUILD_BATCH: usize = 10_000;

/// Branches the sessions work on.
const BRANCHES: [&str; 4] = [
    "main",
    "feature/timeline-pages",
    "fix/socket-permissions",
    "refactor/ledger-query",
];

/// Where files live, and their extension: a mixed Rust/TypeScript repository.
const DIRS: [(&str, &str); 16] = [
    ("src", "rs"),
    ("src/server", "rs"),
    ("src/ledger", "rs"),
    ("src/cmd", "rs"),
    ("crates/core/src", "rs"),
    ("crates/proto/src", "rs"),
    ("crates/cli/src", "rs"),
    ("tests", "rs"),
    ("web/src", "ts"),
    ("web/src/components", "tsx"),
    ("web/src/views", "tsx"),
    ("web/src/lib", "ts"),
    ("web/tests", "ts"),
    ("docs", "md"),
    ("scripts", "sh"),
    ("migrations", "sql"),
];

/// Hours of the working day the sessions run in (UTC).
const DAY_START_HOUR: i64 = 8;
/// Length of the working day, in hours.
const WORKING_HOURS: i64 = 11;

/// What a history looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// Rows (one event and one mutation each) in the built ledger.
    pub rows: u64,
    /// Days the rows are spread over, the last one the day of the build.
    pub days: u64,
    /// Agent sessions a day, working in parallel.
    pub sessions_per_day: u64,
    /// Distinct files edited.
    pub files: usize,
}

impl Shape {
    /// A heavy user's year: ten sessions a day over 365 days, 5,000 files.
    pub fn heavy_user(rows: u64) -> Self {
        Self {
            rows,
            days: 365,
            sessions_per_day: 10,
            files: 5_000,
        }
    }
}

/// What a cached ledger was built from, kept beside it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Meta {
    builder_version: u32,
    shape: Shape,
    /// Midnight (UTC) of the first day.
    origin: DateTime<Utc>,
    head_sha: String,
    build_seconds: f64,
}

/// The rows of a history, made on demand.
#[derive(Debug, Clone)]
pub struct History {
    /// The shape.
    pub shape: Shape,
    /// The repository's root the rows belong to.
    pub root: PathBuf,
    /// Midnight (UTC) of the first day.
    pub origin: DateTime<Utc>,
    files: Vec<String>,
    repos: Vec<RepoFacts>,
}

/// A built ledger in the cache.
#[derive(Debug, Clone)]
pub struct Built {
    /// The rows it was built from, and more to append.
    pub history: History,
    /// The ledger file.
    pub ledger: PathBuf,
    /// Seconds its build took (when it was built, maybe by an earlier run).
    pub build_seconds: f64,
    /// Whether this run built it (rather than finding it in the cache).
    pub built_now: bool,
}

impl History {
    /// The history of `shape` in the repository at `root` (whose HEAD is
    /// `head_sha`), starting at `origin`.
    pub fn new(shape: Shape, root: &Path, head_sha: &str, origin: DateTime<Utc>) -> Self {
        let files = (0..shape.files)
            .map(|i| {
                let (dir, ext) = DIRS[i % DIRS.len()];
                format!("{dir}/module_{:04}.{ext}", i / DIRS.len())
            })
            .collect();
        let repos = BRANCHES
            .iter()
            .map(|branch| RepoFacts {
                git_root: Some(root.to_path_buf()),
                branch: (*branch).to_owned(),
                head_sha: head_sha.to_owned(),
                remote_url: Some("git@example.com:acme/app.git".into()),
            })
            .collect();
        Self {
            shape,
            root: root.to_path_buf(),
            origin,
            files,
            repos,
        }
    }

    /// The files, root-relative; the first are edited most.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The time of row `n`: rows are spread evenly over each day's working
    /// hours, so the order of `n` is the order of time. Rows past
    /// [`Shape::rows`] continue on the following days.
    pub fn time_of(&self, n: u64) -> DateTime<Utc> {
        let per_day = self.shape.rows as f64 / self.shape.days as f64;
        let day = (n as f64 / per_day).floor();
        let frac = (n as f64 - day * per_day) / per_day;
        let ms = (frac * (WORKING_HOURS * 3_600_000) as f64) as i64;
        self.origin
            + chrono::Duration::days(day as i64)
            + chrono::Duration::hours(DAY_START_HOUR)
            + chrono::Duration::milliseconds(ms)
    }

    /// The session (a number, the same for a day's share of rows) of row `n`.
    pub fn session_of(&self, n: u64) -> u64 {
        let per_day = self.shape.rows as f64 / self.shape.days as f64;
        let day = (n as f64 / per_day).floor() as u64;
        day * self.shape.sessions_per_day + mix(n, 1) % self.shape.sessions_per_day
    }

    /// The session's id (also its agent id), as Claude Code writes one.
    pub fn session_id(session: u64) -> String {
        env::session_id(1_000_000 + session)
    }

    /// Index into [`History::files`] of the file row `n` changes: squaring a
    /// uniform draw skews it to the low, hot, indexes.
    pub fn file_of(&self, n: u64) -> usize {
        let u = (mix(n, 2) >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * self.files.len() as f64) as usize).min(self.files.len() - 1)
    }

    /// The coding agent of session `session`: a user who runs several, mostly
    /// Claude Code (60 %), then Codex CLI (20 %), Gemini CLI and Cursor
    /// (10 % each).
    pub fn agent_kind_of(session: u64) -> &'static str {
        match mix(session, 5) % 10 {
            0..=5 => "claude",
            6 | 7 => "codex",
            8 => "gemini",
            _ => "cursor",
        }
    }

    /// The tool of row `n`: mostly Edit, then Write, MultiEdit and Bash.
    pub fn tool_of(n: u64) -> &'static str {
        match mix(n, 3) % 20 {
            0..=10 => "Edit",
            11..=14 => "Write",
            15..=17 => "MultiEdit",
            _ => "Bash",
        }
    }

    /// Rows `range`, as the daemon would append them.
    pub fn entries(&self, range: std::ops::Range<u64>) -> Vec<LedgerEntry> {
        range.map(|n| self.entry(n)).collect()
    }

    /// Row `n`: one PostToolUse event and the mutation it revealed.
    pub fn entry(&self, n: u64) -> LedgerEntry {
        let session_n = self.session_of(n);
        let session = Self::session_id(session_n);
        let rel_path = &self.files[self.file_of(n)];
        let tool = Self::tool_of(n);
        let lines = (mix(n, 4) % 40) as i64 + 1;
        let repo = &self.repos[(session_n % self.repos.len() as u64) as usize];
        let at = self.time_of(n);
        let received = at + chrono::Duration::milliseconds(2);
        let abs = self.root.join(rel_path);
        let tool_use_id = format!("toolu_{n:024x}");
        let (tool_input, command) = if tool == "Bash" {
            let command = format!("sed -i 's/compute(input)/compute(input)?/' {rel_path}");
            (
                json!({ "command": command, "description": "Propagate the error" }),
                Some(command),
            )
        } else {
            let new_string = "    let value = compute(input)?;\n".repeat(lines.min(2) as usize);
            (
                json!({ "file_path": abs.to_string_lossy(), "old_string": "    let value = compute(input);\n", "new_string": new_string }),
                None,
            )
        };
        // Claude Code's payload, without `transcript_path` and with short
        // strings: the ledger stores it twice (event and mutation), and ten
        // million rows must fit on disk.
        let payload = json!({
            "session_id": session,
            "cwd": self.root.to_string_lossy(),
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": tool_use_id,
        });
        let event = HookEvent {
            event_id: uuid::Uuid::now_v7().to_string(),
            hook_type: env::EVENT_TYPE.into(),
            tool_name: Some(tool.into()),
            agent_id: session.clone(),
            session_id: Some(session),
            tool_use_id: Some(tool_use_id),
            cwd: Some(self.root.clone()),
            file_path: Some(abs),
            lines_changed: Some(lines),
            lines_added: None,
            lines_removed: None,
            command,
            payload_valid: true,
            raw_payload: payload.to_string(),
            event_timestamp: hookd_core::timefmt::format(at),
            received_at: hookd_core::timefmt::format(received),
            source_pid: Some(4242),
            flags: Vec::new(),
            agent_kind: Self::agent_kind_of(session_n).to_owned(),
        };
        let mutation =
            MutationRecord::for_event(&event, repo, tool, 0, Some(rel_path.clone()), Some(lines));
        LedgerEntry {
            event,
            repo: repo.clone(),
            mutations: vec![mutation],
        }
    }
}

/// The ledger of `shape` in `cache`, built (with progress on stderr,
/// prefixed `[label]`) unless an earlier run left it there.
pub fn cached(cache: &Path, shape: Shape, label: &str) -> Result<Built> {
    ensure!(shape.rows > 0, "a history needs at least one row");
    let dir = cache.join(format!("timeline-{}-v{BUILDER_VERSION}", shape.rows));
    let root = dir.join("repo");
    let meta_path = dir.join("meta.json");
    let ledger = hookd_core::dirs::repo_ledger_path(&root);
    if let Ok(text) = std::fs::read_to_string(&meta_path) {
        let meta: Meta = serde_json::from_str(&text)
            .with_context(|| format!("cannot read {}", meta_path.display()))?;
        if meta.builder_version == BUILDER_VERSION && meta.shape == shape && ledger.is_file() {
            eprintln!(
                "[{label}] reusing the {}-row ledger in {}",
                shape.rows,
                dir.display()
            );
            return Ok(Built {
                history: History::new(shape, &root, &meta.head_sha, meta.origin),
                ledger,
                build_seconds: meta.build_seconds,
                built_now: false,
            });
        }
    }
    // A missing or partial build: start again.
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .with_context(|| format!("cannot remove the partial build {}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let root = dir
        .canonicalize()
        .context("cannot resolve the cache directory")?
        .join("repo");
    let head_sha = env::init_repo(&root)?;
    let origin = first_midnight(shape);
    let history = History::new(shape, &root, &head_sha, origin);
    let ledger = hookd_core::dirs::repo_ledger_path(&root);
    let started = Instant::now();
    build(&history, &ledger, label)?;
    let build_seconds = started.elapsed().as_secs_f64();
    let meta = Meta {
        builder_version: BUILDER_VERSION,
        shape,
        origin,
        head_sha,
        build_seconds,
    };
    std::fs::write(&meta_path, serde_json::to_string_pretty(&meta)? + "\n")
        .with_context(|| format!("cannot write {}", meta_path.display()))?;
    Ok(Built {
        history,
        ledger,
        build_seconds,
        built_now: true,
    })
}

/// Midnight (UTC) of the first of `shape`'s days, the last being today.
pub fn first_midnight(shape: Shape) -> DateTime<Utc> {
    let today = Utc::now().date_naive();
    let first = today - chrono::Days::new(shape.days.saturating_sub(1));
    Utc.from_utc_datetime(&first.and_time(chrono::NaiveTime::MIN))
}

/// Appends the history's rows to a new ledger at `path` (with progress on
/// stderr, prefixed `[label]`), oldest first.
pub fn build(history: &History, path: &Path, label: &str) -> Result<()> {
    let shape = history.shape;
    let rows = shape.rows;
    eprintln!(
        "[{label}] building a ledger of {rows} rows ({} files, {} sessions a day over {} days, {} branches) in {}",
        shape.files,
        shape.sessions_per_day,
        shape.days,
        BRANCHES.len(),
        path.display()
    );
    let mut ledger = Ledger::open_or_create(path)?;
    let started = Instant::now();
    let mut last_progress = Instant::now();
    let mut n = 0;
    while n < rows {
        let end = (n + BUILD_BATCH as u64).min(rows);
        ledger.append(&history.entries(n..end))?;
        n = end;
        if last_progress.elapsed() > Duration::from_secs(10) || n == rows {
            let secs = started.elapsed().as_secs_f64();
            let rate = n as f64 / secs.max(1e-9);
            eprintln!(
                "[{label}] {n}/{rows} rows, {rate:.0} rows/s, {:.0} s left",
                (rows - n) as f64 / rate.max(1e-9)
            );
            last_progress = Instant::now();
        }
    }
    Ok(())
}

/// A hash of `n` for the draw `salt`: every row's choices come from its
/// number, so any row can be made alone (and the bench needs no `rand`).
fn mix(n: u64, salt: u64) -> u64 {
    let mut z = n
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(salt.wrapping_mul(0xd1b5_4a32_d192_ed03));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    fn history(rows: u64) -> History {
        let origin = Utc.with_ymd_and_hms(2025, 11, 27, 0, 0, 0).unwrap();
        History::new(
            Shape::heavy_user(rows),
            Path::new("/src/app"),
            "0123",
            origin,
        )
    }

    #[test]
    fn rows_are_in_time_order_over_the_whole_span_in_working_hours() {
        let h = history(36_500);
        let times: Vec<_> = (0..36_500).map(|n| h.time_of(n)).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(times[0], h.origin + chrono::Duration::hours(DAY_START_HOUR));
        let last_day = h.origin + chrono::Duration::days(364);
        assert!(times[36_499] > last_day && times[36_499] < last_day + chrono::Duration::days(1));
        for t in &times {
            let hour = (*t - t.date_naive().and_hms_opt(0, 0, 0).unwrap().and_utc()).num_hours();
            assert!((DAY_START_HOUR..DAY_START_HOUR + WORKING_HOURS).contains(&hour));
        }
        // Past the end the history goes on, later still.
        assert!(h.time_of(36_500) > times[36_499]);
    }

    #[test]
    fn each_day_has_its_own_ten_sessions() {
        let h = history(36_500);
        let mut by_day: HashMap<chrono::NaiveDate, HashSet<u64>> = HashMap::new();
        for n in 0..36_500 {
            by_day
                .entry(h.time_of(n).date_naive())
                .or_default()
                .insert(h.session_of(n));
        }
        assert_eq!(by_day.len(), 365);
        let all: HashSet<u64> = by_day.values().flatten().copied().collect();
        assert_eq!(all.len(), 3_650, "sessions are not shared between days");
        assert!(by_day.values().all(|s| s.len() == 10));
    }

    #[test]
    fn files_are_skewed_and_every_tool_occurs() {
        let h = history(100_000);
        let mut counts = vec![0u32; h.files().len()];
        let mut tools: HashMap<&str, u32> = HashMap::new();
        for n in 0..100_000 {
            counts[h.file_of(n)] += 1;
            *tools.entry(History::tool_of(n)).or_default() += 1;
        }
        let distinct: HashSet<&String> = h.files().iter().collect();
        assert_eq!(distinct.len(), 5_000);
        assert!(Path::new(&h.files()[0]).is_relative());
        let head: u32 = counts[..50].iter().sum();
        let tail: u32 = counts[counts.len() - 50..].iter().sum();
        assert!(head > 5 * tail, "hot files {head}, cold files {tail}");
        assert!(counts.iter().filter(|&&c| c > 0).count() > 4_000);
        assert_eq!(tools.len(), 4);
        assert!(tools["Edit"] > tools["Write"] && tools["Write"] > tools["Bash"]);
    }

    #[test]
    fn a_row_is_the_same_whenever_it_is_made() {
        let h = history(1_000);
        let (a, b) = (h.entry(777), h.entry(777));
        assert_ne!(a.event.event_id, b.event.event_id, "event ids are unique");
        assert_eq!(a.event.event_timestamp, b.event.event_timestamp);
        assert_eq!(a.event.raw_payload, b.event.raw_payload);
        assert_eq!(a.mutations[0].file_path, b.mutations[0].file_path);
        assert_eq!(a.mutations[0].agent_id, a.event.agent_id);
        let bash = (0..1_000).find(|&n| History::tool_of(n) == "Bash").unwrap();
        assert!(h.entry(bash).mutations[0].command.is_some());
    }

    #[test]
    fn a_ledger_is_built_once_then_reused() {
        let dir = tempfile::tempdir().unwrap();
        let shape = Shape::heavy_user(2_500);
        let first = cached(dir.path(), shape, "test").unwrap();
        assert!(first.built_now);
        let ledger = Ledger::open_existing(&first.ledger).unwrap();
        assert_eq!(ledger.counts().unwrap(), (2_500, 2_500));
        drop(ledger);
        let again = cached(dir.path(), shape, "test").unwrap();
        assert!(!again.built_now);
        assert_eq!(again.history.origin, first.history.origin);
        assert_eq!(again.ledger, first.ledger);
    }
}
