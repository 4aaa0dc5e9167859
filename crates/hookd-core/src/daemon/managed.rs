//! Managed mode: the daemon answers an envelope sent with `wait` by running
//! hookd's managed hooks for its event and replying with the merged outcome.
//!
//! The managed hooks of a project (global `$HOOKD_HOME/settings.json`,
//! `<project>/.hookd/settings.json`, `<project>/.hookd/settings.local.json`)
//! are loaded once and cached. The settings watcher
//! ([`crate::settings::watch`]) drops the cache entry when one of those files changes, so an edit applies to the next
//! event without a restart, and an event with no matching hook costs a map
//! lookup, not three file reads.
//!
//! A project's managed files run only while their content is the content
//! the user approved ([`crate::settings::trust`]); a matching hook of an
//! unapproved file is not run but recorded in `hook_runs` as skipped, with
//! why, and the approvals file is watched like the hook files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::AgentKind;
use crate::executor::{self, ExecContext, HookInvocation, agents};
use crate::record::{HookEvent, HookRunRecord};
use crate::settings::events;
use crate::settings::watch::DirWatcher;
use crate::settings::{
    self, EffectiveHooks, Kind, MatchOutcome, SettingsRoots, trust::TRUST_FILE_NAME,
};
use crate::timefmt;

/// Names of managed settings files inside a `.hookd` directory or hookd's home.
const MANAGED_FILES: [&str; 2] = ["settings.json", "settings.local.json"];

/// hookd's store of disabled hooks, in its home; it changes what runs everywhere.
const DISABLED_STORE: &str = "disabled.json";

/// Cached managed hooks per project, kept fresh by a file watcher.
#[derive(Clone)]
pub struct ManagedHooks {
    inner: Arc<Inner>,
}

struct Inner {
    roots: SettingsRoots,
    home: PathBuf,
    /// Project root (or `None` for events outside any project) → its effective hooks.
    cache: Mutex<HashMap<Option<PathBuf>, Arc<EffectiveHooks>>>,
    watcher: DirWatcher,
    reloads: AtomicU64,
}

impl ManagedHooks {
    /// Starts watching hookd's home (created 0700 if missing). Without a
    /// working watcher the cache is still correct but never refreshed until
    /// restart, which is logged loudly.
    pub fn new(roots: SettingsRoots) -> Self {
        let inner = Arc::new_cyclic(|weak: &std::sync::Weak<Inner>| {
            let weak = weak.clone();
            Inner {
                home: roots.hookd_home.clone(),
                roots,
                cache: Mutex::new(HashMap::new()),
                watcher: DirWatcher::new(
                    "managed hook files",
                    "edits apply after a daemon restart",
                    move |paths| {
                        if let Some(inner) = weak.upgrade() {
                            for path in paths {
                                inner.file_changed(&path);
                            }
                        }
                    },
                ),
                reloads: AtomicU64::new(0),
            }
        });
        let home = inner.home.clone();
        if let Err(err) = std::fs::create_dir_all(&home) {
            tracing::warn!(home = %home.display(), error = %err, "cannot create hookd home");
        }
        inner.watch(&home);
        Self { inner }
    }

    /// hookd's home directory.
    pub fn home(&self) -> &Path {
        &self.inner.home
    }

    /// How many times hooks were (re)loaded from disk; for tests and status.
    pub fn reloads(&self) -> u64 {
        self.inner.reloads.load(Ordering::Relaxed)
    }

    /// The cached hooks of `project`, if loaded; never touches the disk.
    pub fn cached(&self, project: Option<&Path>) -> Option<Arc<EffectiveHooks>> {
        let key = project.map(Path::to_path_buf);
        self.inner.cache.lock().ok()?.get(&key).cloned()
    }

    /// The hooks of `project`, loading (and watching) its files on a miss.
    /// Blocking: call from a blocking context.
    pub fn load(&self, project: Option<&Path>) -> Arc<EffectiveHooks> {
        if let Some(hooks) = self.cached(project) {
            return hooks;
        }
        if let Some(project) = project {
            let state_dir = project.join(crate::dirs::REPO_STATE_DIR);
            // Watch .hookd if it exists, else the project itself to see .hookd appear.
            self.inner.watch(if state_dir.is_dir() {
                &state_dir
            } else {
                project
            });
        }
        let hooks = match settings::effective_lenient_in(&self.inner.roots, Kind::Managed, project)
        {
            Ok((hooks, problems)) => {
                for problem in &problems {
                    tracing::warn!(problem = %problem, "managed hook file skipped");
                }
                hooks
            }
            Err(err) => {
                tracing::error!(error = %err, "cannot locate managed hook files");
                EffectiveHooks::default()
            }
        };
        let hooks = Arc::new(hooks);
        self.inner.reloads.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut cache) = self.inner.cache.lock() {
            cache.insert(project.map(Path::to_path_buf), Arc::clone(&hooks));
        }
        hooks
    }
}

impl Inner {
    fn watch(&self, dir: &Path) {
        self.watcher.watch(dir);
    }

    fn file_changed(&self, path: &Path) {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return;
        };
        let Some(parent) = path.parent() else { return };
        if name == crate::dirs::REPO_STATE_DIR {
            // A project's .hookd appeared (or went): watch it and reload that project.
            self.watch(path);
            self.forget(Some(parent));
        } else if name == DISABLED_STORE && parent == self.home {
            tracing::info!(file = %path.display(), "disabled hooks changed; reloading");
            self.forget_all();
        } else if name == TRUST_FILE_NAME && parent == self.home {
            tracing::info!(file = %path.display(), "approved hook files changed; reloading");
            self.forget_all();
        } else if MANAGED_FILES.contains(&name) {
            if parent == self.home {
                tracing::info!(file = %path.display(), "global managed hooks changed; reloading");
                self.forget_all();
            } else if parent
                .file_name()
                .is_some_and(|n| n == crate::dirs::REPO_STATE_DIR)
            {
                tracing::info!(file = %path.display(), "managed hooks changed; reloading");
                self.forget(parent.parent());
            }
        }
    }

    fn forget(&self, project: Option<&Path>) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(&project.map(Path::to_path_buf));
        }
    }

    fn forget_all(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.clear();
        }
    }
}

/// What a `wait` envelope asks the daemon to answer.
#[derive(Debug, Clone)]
pub struct WaitRequest {
    /// The event as recorded (ids, tool, session).
    pub event: HookEvent,
    /// The event name as the emitter gave it (`PreToolUse`, `pre_tool_use`).
    pub event_type: String,
    /// The hook payload, passed on to each managed hook's stdin.
    pub payload: serde_json::Value,
    /// The project whose managed hooks apply (hooks also run there).
    pub project_root: Option<PathBuf>,
}

/// Runs the managed hooks matching `request` and returns the reply for the
/// emitter and the runs to record. Unknown events and events without a
/// matching command hook get an empty reply (exit 0, nothing printed).
pub async fn answer(
    managed: &ManagedHooks,
    request: WaitRequest,
) -> (hookd_proto::Reply, Vec<HookRunRecord>) {
    // Another agent's event is told to the hooks as Claude Code's, and
    // their answer told back in that agent's shape (executor::agents).
    let agent = AgentKind::parse(&request.event.agent_kind).unwrap_or(AgentKind::Claude);
    let Some(spec) = events::lookup(agent.claude_event(&request.event_type)) else {
        tracing::debug!(event = %request.event_type, %agent, "no managed hooks for an unknown event");
        return (hookd_proto::Reply::default(), Vec::new());
    };
    let payload = agents::claude_payload(agent, spec, request.payload);
    let project = request.project_root.clone();
    let hooks = match managed.cached(project.as_deref()) {
        Some(hooks) => hooks,
        None => {
            let managed = managed.clone();
            let project = project.clone();
            match tokio::task::spawn_blocking(move || managed.load(project.as_deref())).await {
                Ok(hooks) => hooks,
                Err(err) => {
                    tracing::error!(error = %err, "loading managed hooks failed");
                    return (hookd_proto::Reply::default(), Vec::new());
                }
            }
        }
    };
    let mut invocations: Vec<HookInvocation> = Vec::new();
    let mut skipped: Vec<HookRunRecord> = Vec::new();
    let started_at = timefmt::now();
    for check in hooks.matching_all(spec.name, &payload) {
        match check.outcome {
            MatchOutcome::Runs(_) => invocations.extend(check.hook.invocation()),
            MatchOutcome::Untrusted(why) => {
                if let Some(invocation) = check.hook.invocation() {
                    tracing::warn!(file = %invocation.source.display(), command = %invocation.command, "managed hook not run: {why}");
                    skipped.push(skipped_record(
                        &request.event,
                        &invocation,
                        why,
                        &started_at,
                    ));
                }
            }
            _ => {}
        }
    }
    if invocations.is_empty() {
        return (hookd_proto::Reply::default(), skipped);
    }
    let project_root = project
        .or_else(|| request.event.cwd.clone())
        .unwrap_or_else(|| PathBuf::from("/"));
    let context = ExecContext {
        event: spec,
        payload,
        project_root,
        backtest: false,
    };
    let began = Instant::now();
    let report = executor::run_all(&context, invocations).await;
    tracing::debug!(
        event = spec.name,
        hooks = report.runs.len(),
        elapsed_ms = began.elapsed().as_secs_f64() * 1e3,
        "managed hooks ran"
    );
    let answer = agents::reply_for(&report.outcome, agent, &request.event_type);
    let mut runs: Vec<HookRunRecord> = skipped
        .into_iter()
        .chain(
            report
                .runs
                .iter()
                .map(|run| run_record(&request.event, run, &started_at)),
        )
        .collect();
    note_losses(&mut runs, agent, &answer.losses);
    (answer.reply, runs)
}

/// Says in the runs' records what of their answer `agent` could not take
/// (an `ask` turned deny, a context left out): in `error`, after what is
/// there, of the runs that decided something, else of every run.
fn note_losses(runs: &mut [HookRunRecord], agent: AgentKind, losses: &[String]) {
    if losses.is_empty() {
        return;
    }
    tracing::info!(%agent, losses = %losses.join("; "), "managed answer told in the agent's shape");
    let note = format!("answered {agent}: {}", losses.join("; "));
    let deciders = runs
        .iter()
        .filter(|r| r.skipped.is_none() && r.decision.is_some())
        .count();
    for run in runs.iter_mut().filter(|r| r.skipped.is_none()) {
        if deciders > 0 && run.decision.is_none() {
            continue;
        }
        run.error = Some(match run.error.take() {
            Some(error) => format!("{error}; {note}"),
            None => note.clone(),
        });
    }
}

/// The outermost of `registered` (project roots) that contains `dir`, if any.
pub fn project_containing(dir: &Path, registered: &[PathBuf]) -> Option<PathBuf> {
    registered
        .iter()
        .filter(|root| dir.starts_with(root))
        .min_by_key(|root| root.components().count())
        .cloned()
}

/// The `hook_runs` row of a matching hook hookd did not run (its file is
/// not trusted): no exit code, no decision, and why in `skipped`.
fn skipped_record(
    event: &HookEvent,
    invocation: &HookInvocation,
    why: String,
    started_at: &str,
) -> HookRunRecord {
    HookRunRecord {
        skipped: Some(why),
        ..record_of(event, invocation, started_at)
    }
}

/// The `hook_runs` row of a hook that ran.
fn run_record(event: &HookEvent, run: &executor::HookRun, started_at: &str) -> HookRunRecord {
    HookRunRecord {
        exit_code: run.exit_code,
        timed_out: run.timed_out,
        decision: run.effect.decision().map(str::to_owned),
        duration_ms: run.duration.as_secs_f64() * 1e3,
        stdout: run.stdout.clone(),
        stderr: run.stderr.clone(),
        output_truncated: run.stdout_truncated || run.stderr_truncated,
        error: run.spawn_error.clone().or_else(|| run.json_error.clone()),
        ..record_of(event, &run.invocation, started_at)
    }
}

/// What every `hook_runs` row of `invocation` for `event` says, before
/// (or without) running it.
fn record_of(event: &HookEvent, invocation: &HookInvocation, started_at: &str) -> HookRunRecord {
    HookRunRecord {
        run_id: uuid::Uuid::now_v7().to_string(),
        event_id: event.event_id.clone(),
        hook_type: event.hook_type.clone(),
        tool_name: event.tool_name.clone(),
        session_id: event.session_id.clone(),
        tool_use_id: event.tool_use_id.clone(),
        scope: invocation.scope.clone(),
        source: invocation.source.to_string_lossy().into_owned(),
        matcher: invocation.matcher.clone(),
        command: invocation.command.clone(),
        exit_code: None,
        timed_out: false,
        decision: None,
        duration_ms: 0.0,
        stdout: String::new(),
        stderr: String::new(),
        output_truncated: false,
        error: None,
        started_at: started_at.to_owned(),
        skipped: None,
    }
}
