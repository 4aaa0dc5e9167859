//! Figure 6: what `hookd-emit --wait` (managed mode) costs the agent beside
//! a plain `hookd-emit`, when no managed hook matches and when one does.
//!
//! In managed mode the agent waits for the daemon to look up the project's
//! managed hooks, run the matching ones and answer. Most tool calls match
//! nothing, so that round trip must cost next to nothing. The daemon here
//! runs managed hooks from a home inside the temp dir, and two projects
//! have real, committed `.hookd/settings.json` files (written as `hookd
//! hooks` writes them) that the daemon finds, parses and caches: in the first the only `PreToolUse` hook matches `Write`, so a
//! Bash event matches nothing; in the second one hook matches `Bash` and
//! runs `exit 0`, to show what running one hook through the daemon costs.
//!
//! In each project the real `hookd-emit PreToolUse` and `hookd-emit --wait
//! PreToolUse` get the same ~1 KB Bash payload, with `HOOKD_SOCKET` and
//! `CLAUDE_PROJECT_DIR` set and the repository as cwd, and are timed from
//! spawn to exit as in [`crate::emit`]. A plain Bash `PreToolUse` already
//! waits for the daemon's git snapshot, so the difference of the medians is
//! what `--wait` adds. All four kinds of call alternate call by call. Every
//! `--wait` call must exit 0 with nothing on stdout (no hook said
//! anything), every event must reach its ledger, and the matching hook must
//! have run, and exited 0, once per call.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use hookd_core::ledger::Ledger;
use hookd_core::settings::{Kind, Scope, SettingsDocument, SettingsRoots};
use serde::Serialize;
use serde_json::json;

use crate::env::{self, RunningDaemon, Timed, Tools, Workspace};
use crate::stats::Summary;

/// Unmeasured calls of each kind before the measured ones; the first
/// `--wait` of a project also loads its managed hooks into the cache.
const WARMUP_CALLS: usize = 10;

/// The event every call emits.
const EVENT: &str = "PreToolUse";

/// One project's pair of figures.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    /// The matcher of the project's managed `PreToolUse` hook.
    pub hook_matcher: &'static str,
    /// The command of that hook.
    pub hook_command: &'static str,
    /// `hookd-emit PreToolUse`, spawn to exit.
    pub plain: Summary,
    /// `hookd-emit --wait PreToolUse`, spawn to exit.
    pub wait: Summary,
    /// Wait median − plain median, in ms.
    pub added_median_ms: f64,
    /// Wait p99 − plain p99, in ms.
    pub added_p99_ms: f64,
    /// Measured and warm-up `--wait` calls that exited 0 with empty stdout.
    pub wait_calls_ok: usize,
    /// Measured and warm-up plain calls that exited 0 with empty stdout.
    pub plain_calls_ok: usize,
    /// What the first call that was not ok did.
    pub first_problem: Option<String>,
    /// Rows in the project ledger's `events` table afterwards.
    pub ledger_events: i64,
    /// Rows in its `hook_runs` table with exit code 0.
    pub hook_runs_ok: i64,
    /// All rows in its `hook_runs` table.
    pub hook_runs: i64,
}

/// Result of the managed-mode round-trip measurement.
#[derive(Debug, Clone, Serialize)]
pub struct WaitReport {
    /// Measured calls of each kind.
    pub runs: usize,
    /// Calls of each kind including warm-ups.
    pub calls: usize,
    /// Size of the payload on stdin, in bytes.
    pub payload_bytes: usize,
    /// The project whose managed hook matches nothing.
    pub no_match: Pair,
    /// The project whose managed hook matches and runs.
    pub matching: Pair,
}

impl WaitReport {
    /// True when every call exited 0 with empty stdout, every event reached
    /// its ledger, and the matching hook ran once per `--wait` call (and
    /// never in the other project).
    pub fn all_correct(&self) -> bool {
        let calls = self.calls as i64;
        let pair_ok = |p: &Pair| {
            p.wait_calls_ok == self.calls
                && p.plain_calls_ok == self.calls
                && p.ledger_events == 2 * calls
        };
        pair_ok(&self.no_match)
            && pair_ok(&self.matching)
            && self.no_match.hook_runs == 0
            && self.matching.hook_runs == calls
            && self.matching.hook_runs_ok == calls
    }
}

/// One project and what its calls produced so far.
struct Project {
    root: PathBuf,
    matcher: &'static str,
    command: &'static str,
    plain: Vec<Duration>,
    wait: Vec<Duration>,
    plain_ok: usize,
    wait_ok: usize,
    first_problem: Option<String>,
}

impl Project {
    /// Writes `root/.hookd/settings.json` with one `PreToolUse` hook and
    /// commits it, as a team sharing its managed hooks would have.
    fn new(
        roots: &SettingsRoots,
        root: PathBuf,
        matcher: &'static str,
        command: &'static str,
    ) -> Result<Self> {
        let settings = json!({
            "hooks": {
                "PreToolUse": [
                    { "matcher": matcher, "hooks": [{ "type": "command", "command": command }] }
                ]
            }
        });
        write_settings(roots, Scope::Project, Some(&root), settings)?;
        env::commit_paths(
            &root,
            &[
                Path::new(".hookd/.gitignore"),
                Path::new(".hookd/settings.json"),
            ],
            "Share hookd managed hooks",
        )?;
        Ok(Self {
            root,
            matcher,
            command,
            plain: Vec::new(),
            wait: Vec::new(),
            plain_ok: 0,
            wait_ok: 0,
            first_problem: None,
        })
    }

    /// Counts a call as ok (exit 0, empty stdout) or keeps its problem.
    fn tally(&mut self, wait: bool, call: &Timed) {
        let ok = call.exit_code == Some(0) && call.stdout.is_empty();
        if ok {
            if wait {
                self.wait_ok += 1;
            } else {
                self.plain_ok += 1;
            }
        } else if self.first_problem.is_none() {
            self.first_problem = Some(format!(
                "{} exited with {:?}, stdout {:?}, stderr {:?}",
                if wait { "--wait" } else { "plain" },
                call.exit_code,
                String::from_utf8_lossy(&call.stdout),
                String::from_utf8_lossy(&call.stderr)
            ));
        }
    }

    /// The figures, once the daemon has stopped and the ledger is complete.
    fn finish(self) -> Result<Pair> {
        let ledger = Ledger::open_existing(&hookd_core::dirs::repo_ledger_path(&self.root))?;
        let (ledger_events, _) = ledger.counts()?;
        let count = |sql: &str| -> Result<i64> {
            Ok(ledger.connection().query_row(sql, [], |r| r.get(0))?)
        };
        let hook_runs = count("SELECT COUNT(*) FROM hook_runs")?;
        let hook_runs_ok = count("SELECT COUNT(*) FROM hook_runs WHERE exit_code = 0")?;
        let plain = Summary::of(&self.plain).context("no plain emit samples")?;
        let wait = Summary::of(&self.wait).context("no --wait samples")?;
        Ok(Pair {
            hook_matcher: self.matcher,
            hook_command: self.command,
            added_median_ms: wait.median_ms - plain.median_ms,
            added_p99_ms: wait.p99_ms - plain.p99_ms,
            plain,
            wait,
            wait_calls_ok: self.wait_ok,
            plain_calls_ok: self.plain_ok,
            first_problem: self.first_problem,
            ledger_events,
            hook_runs_ok,
            hook_runs,
        })
    }
}

/// Writes a managed settings file the way `hookd hooks` does: validated, and
/// in a project with the `.hookd/.gitignore` that keeps the ledger out of
/// git. Written by hand before the ledger exists, `.hookd/` would get no
/// `.gitignore`, and every Bash snapshot would hash the growing ledger.
fn write_settings(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
    settings: serde_json::Value,
) -> Result<()> {
    let location = roots.location(Kind::Managed, scope, project)?;
    let mut doc = SettingsDocument::load(&location)?;
    *doc.value_mut() = settings;
    doc.save(false)
        .with_context(|| format!("cannot write {}", location.path.display()))?;
    Ok(())
}

/// Runs `runs` measured calls of each kind, interleaved.
pub fn run(tools: &Tools, runs: usize) -> Result<WaitReport> {
    ensure!(runs > 0, "--wait-runs must be at least 1");
    let ws = Workspace::new()?;
    let roots = ws.settings_roots()?;
    // A global file that is read and parsed for every project but has no
    // PreToolUse hook: what a user with a global Stop hook has.
    write_settings(
        &roots,
        Scope::Global,
        None,
        json!({
            "hooks": {
                "Stop": [{ "hooks": [{ "type": "command", "command": "exit 0" }] }]
            }
        }),
    )?;
    let mut projects = [
        Project::new(&roots, ws.root.clone(), "Write", "exit 0")?,
        Project::new(&roots, ws.add_repo("repo-matching")?, "Bash", "exit 0")?,
    ];
    let daemon = RunningDaemon::start_managed(&ws, false, roots)?;

    let session = env::session_id(6);
    let payload_bytes = serde_json::to_vec(&env::bash_payload(
        &ws.root,
        &session,
        "toolu_wait_0_000000",
    ))?
    .len();
    let calls = WARMUP_CALLS + runs;
    eprintln!(
        "[wait] {WARMUP_CALLS} warm-up + {runs} measured calls each of `hookd-emit {EVENT}` and \
         `hookd-emit --wait {EVENT}`, in a project with no matching managed hook and one with a \
         matching hook, alternating ({payload_bytes} B payload)"
    );
    let mut last_progress = Instant::now();
    for i in 0..calls {
        for (p, project) in projects.iter_mut().enumerate() {
            // Alternate which of the pair goes first so neither always follows the other kind.
            for wait in [i % 2 == 1, i % 2 == 0] {
                let kind = if wait { "w" } else { "p" };
                let id = format!("toolu_wait_{p}{kind}_{i:06}");
                let stdin = serde_json::to_vec(&env::bash_payload(&project.root, &session, &id))?;
                let mut cmd = ws.command(&tools.emit);
                cmd.current_dir(&project.root)
                    .env("CLAUDE_PROJECT_DIR", &project.root);
                if wait {
                    cmd.arg("--wait");
                }
                cmd.arg(EVENT);
                let call = env::time_with_output(&mut cmd, &stdin)?;
                project.tally(wait, &call);
                if i >= WARMUP_CALLS {
                    let samples = if wait {
                        &mut project.wait
                    } else {
                        &mut project.plain
                    };
                    samples.push(call.elapsed);
                }
            }
        }
        if last_progress.elapsed() > Duration::from_secs(5) {
            eprintln!("[wait] {}/{calls} rounds", i + 1);
            last_progress = Instant::now();
        }
    }

    let expected = 4 * calls as u64;
    if daemon
        .watch
        .wait_for(expected, Duration::from_secs(30))
        .is_none()
    {
        eprintln!(
            "[wait] only {} of {expected} events committed after 30 s (lagged notices: {})",
            daemon.watch.committed(),
            daemon.watch.lagged_notices()
        );
    }
    // Stopping drains the hook runs still queued for the ledger.
    daemon.stop()?;
    let [no_match, matching] = projects;
    Ok(WaitReport {
        runs,
        calls,
        payload_bytes,
        no_match: no_match.finish()?,
        matching: matching.finish()?,
    })
}
