//! The Test bench against real settings files and real hook scripts in temp
//! dirs: which hooks match and why, and what running them gives (exit 2
//! deny, JSON deny, a timeout, an exit 1), through the core's executor.

mod common;

use hookd_core::settings::Scope;
use hookd_core::settings::connect::Mode;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::DesktopEnv;
use hookd_desktop::ErrorKind;
use hookd_desktop::bench::{self, BenchHook, BenchMatch};
use hookd_desktop::connect::{self};
use hookd_testkit::{
    GitRepo, TestEnv, process_gone, read_pids, wait_until, write_file, write_script,
};
use serde_json::{Value, json};

/// A guard that refuses `rm -rf` the way people write one: grep the stdin
/// JSON, complain on stderr, exit 2.
const GUARD: &str = "#!/bin/sh\n\
payload=$(cat)\n\
case \"$payload\" in\n\
  *'rm -rf'*) echo 'refusing rm -rf' >&2; exit 2 ;;\n\
esac\n\
exit 0\n";

fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    write_script(&path, text);
    path
}

fn settings(hooks: &Value) -> String {
    serde_json::to_string_pretty(&json!({ "hooks": hooks })).unwrap()
}

/// A repository whose local agent settings hold the rm -rf guard (matcher
/// Bash) and whose managed settings hold a Write-only hook.
fn guarded_repo(env: &TestEnv) -> (GitRepo, PathBuf) {
    let repo = GitRepo::new();
    let root = repo.root();
    let guard = script(&env.dir.path().join("bin"), "guard.sh", GUARD);
    write_file(
        &root.join(".claude/settings.local.json"),
        &settings(&json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": guard.display().to_string()}]}
        ]})),
    );
    env.write_approved(
        &root.join(".hookd/settings.json"),
        &settings(&json!({"PreToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "echo formatted"}]}
        ]})),
    );
    (repo, guard)
}

fn bash_payload(env: &TestEnv, root: &Path, command: &str) -> Value {
    let catalog = bench::bench_samples(&env.state(), &root.display().to_string()).unwrap();
    let mut payload = catalog
        .samples
        .iter()
        .find(|s| s.id == "bash")
        .expect("a Bash sample")
        .payload
        .clone();
    payload["tool_input"]["command"] = json!(command);
    payload
}

fn hook<'a>(matched: &'a BenchMatch, command_part: &str) -> &'a BenchHook {
    matched
        .hooks
        .iter()
        .find(|h| h.summary.contains(command_part))
        .unwrap_or_else(|| panic!("no hook running {command_part} in {matched:#?}"))
}

#[test]
fn samples_point_into_the_project_and_events_come_with_their_match_field() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    // A folder inside the repository stands for the repository.
    let catalog =
        bench::bench_samples(&env.state(), &root.join("src/deep").display().to_string()).unwrap();
    assert_eq!(catalog.project, root.display().to_string());
    assert!(catalog.samples.len() >= 9);
    for sample in &catalog.samples {
        assert_eq!(
            sample.payload["cwd"],
            root.display().to_string(),
            "{}",
            sample.id
        );
        assert_eq!(sample.payload["hook_event_name"], sample.event.as_str());
        assert!(catalog.events.iter().any(|e| e.name == sample.event));
    }
    let pre = catalog
        .events
        .iter()
        .find(|e| e.name == "PreToolUse")
        .unwrap();
    assert_eq!(pre.match_field.as_deref(), Some("tool_name"));
    assert!(!pre.description.is_empty());
    let stop = catalog.events.iter().find(|e| e.name == "Stop").unwrap();
    assert_eq!(stop.match_field, None);
    let json = serde_json::to_value(&catalog).unwrap();
    assert!(json["samples"][0]["payload"].is_object());
}

#[test]
fn match_lists_every_hook_of_the_event_with_its_source_and_reason() {
    let env = TestEnv::new();
    let (repo, guard) = guarded_repo(&env);
    let root = repo.root();
    let marker = env.dir.path().join("ran");
    write_file(
        &env.home().join(".claude/settings.json"),
        &settings(
            &json!({"PreToolUse": [{"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "mcp-audit"}]},
                                         {"matcher": "*", "hooks": [{"type": "command", "command": format!("touch {}", marker.display())}]}],
                          "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}),
        ),
    );
    let payload = bash_payload(&env, &root, "rm -rf /");
    let project = root.display().to_string();
    let matched = bench::bench_match(&env.state(), &project, "PreToolUse", &payload).unwrap();
    assert_eq!(matched.event, "PreToolUse");
    assert_eq!(matched.match_field.as_deref(), Some("tool_name"));
    assert_eq!(matched.target.as_deref(), Some("Bash"));
    assert_eq!(matched.hooks.len(), 4, "{matched:#?}");

    let guard_hook = hook(&matched, "guard.sh");
    assert_eq!(guard_hook.outcome, "runs");
    assert_eq!(guard_hook.reason, "exact name Bash");
    assert!(guard_hook.executes);
    assert_eq!(
        (guard_hook.kind.as_str(), guard_hook.scope.as_str()),
        ("agent", "local")
    );
    assert_eq!(
        guard_hook.file,
        root.join(".claude/settings.local.json")
            .display()
            .to_string()
    );
    assert_eq!(guard_hook.matcher.as_deref(), Some("Bash"));
    assert_eq!(guard_hook.summary, guard.display().to_string());

    let global = hook(&matched, "mcp-audit");
    assert_eq!(
        (global.kind.as_str(), global.scope.as_str()),
        ("agent", "global")
    );
    assert_eq!(global.outcome, "no_match");
    assert_eq!(global.reason, "regex found nothing in tool_name \"Bash\"");
    assert!(!global.executes);

    let managed = hook(&matched, "echo formatted");
    assert_eq!(
        (managed.kind.as_str(), managed.scope.as_str()),
        ("managed", "project")
    );
    assert_eq!(
        managed.reason,
        "tool_name \"Bash\" is not one of the exact names"
    );

    // The Stop hook is not an event of this test; on Stop it runs, matcher or not.
    let stop = bench::bench_match(
        &env.state(),
        &project,
        "Stop",
        &json!({"hook_event_name": "Stop"}),
    )
    .unwrap();
    assert_eq!(stop.hooks.len(), 1);
    assert_eq!(
        stop.hooks[0].reason,
        "matcher not supported by this event (runs always)"
    );
    assert_eq!(stop.match_field, None);

    // Matching runs nothing.
    assert_eq!(hook(&matched, "touch").reason, "matches all");
    assert!(!hook(&matched, "touch").recorder);
    assert!(!marker.exists(), "bench_match executed a hook");
    assert!(matched.all_hooks_disabled_by.is_empty());
}

#[test]
fn run_shows_the_exit_2_deny_with_the_hook_s_stderr_as_the_reason() {
    let env = TestEnv::new();
    let (repo, _guard) = guarded_repo(&env);
    let root = repo.root();
    let project = root.display().to_string();

    // Connected to hookd: the recorder entry is listed but never run by the bench.
    let state = env.state();
    let preview = connect::connect_preview(
        &state,
        &project,
        hookd_core::AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    connect::connect_apply(
        &state,
        &project,
        hookd_core::AgentKind::Claude,
        Scope::Project,
        Mode::Record,
        &preview.version,
    )
    .unwrap();

    let denied = bench::bench_run(
        &env.state(),
        &project,
        "PreToolUse",
        &bash_payload(&env, &root, "rm -rf /"),
    )
    .unwrap();
    assert_eq!(
        denied.runs.len(),
        1,
        "only the Bash guard runs: {denied:#?}"
    );
    let recorder = hook(&denied.matched, "hookd-emit");
    assert!(recorder.recorder && !recorder.executes);
    assert_eq!(recorder.outcome, "runs");
    assert!(
        recorder.reason.contains("not run here"),
        "{}",
        recorder.reason
    );
    let run = &denied.runs[0];
    assert_eq!(run.exit_code, Some(2));
    assert_eq!(run.stderr, "refusing rm -rf\n");
    assert_eq!(run.decision.as_deref(), Some("deny"));
    assert_eq!(
        run.reason.as_deref().map(str::trim),
        Some("refusing rm -rf")
    );
    assert!(!run.timed_out);
    assert_eq!(run.index, hook(&denied.matched, "guard.sh").index);
    assert_eq!(denied.result.exit_code, 2);
    assert_eq!(denied.result.decision.as_deref(), Some("deny"));
    assert!(denied.result.stderr.contains("refusing rm -rf"));
    assert!(
        denied
            .result
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("refusing rm -rf"))
    );

    let allowed = bench::bench_run(
        &env.state(),
        &project,
        "PreToolUse",
        &bash_payload(&env, &root, "cargo test"),
    )
    .unwrap();
    assert_eq!(allowed.runs[0].exit_code, Some(0));
    assert_eq!(allowed.runs[0].decision, None);
    assert_eq!(allowed.result.exit_code, 0);
    assert_eq!(allowed.result.decision, None);
    assert_eq!(allowed.result.reason, None);
}

#[test]
fn run_merges_a_json_deny_an_exit_1_and_a_timeout_as_the_agent_would() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let bin = env.dir.path().join("bin");
    let json_deny = script(
        &bin,
        "policy.sh",
        "#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"writes under src/ need review\"}}'\n",
    );
    let broken = script(
        &bin,
        "broken.sh",
        "#!/bin/sh\necho 'config missing' >&2\nexit 1\n",
    );
    // The hook sees the project as its working directory and CLAUDE_PROJECT_DIR.
    let where_ = script(
        &bin,
        "where.sh",
        "#!/bin/sh\npwd\necho \"$CLAUDE_PROJECT_DIR\"\n",
    );
    env.write_approved(
        &root.join(".hookd/settings.local.json"),
        &settings(&json!({"PreToolUse": [
            {"matcher": "Write", "hooks": [
                {"type": "command", "command": json_deny.display().to_string()},
                {"type": "command", "command": broken.display().to_string()},
                {"type": "command", "command": where_.display().to_string()},
                {"type": "command", "command": "sleep 30", "timeout": 1},
                {"type": "http", "url": "https://example.invalid/hook"}
            ]}
        ]})),
    );
    let catalog = bench::bench_samples(&env.state(), &root.display().to_string()).unwrap();
    let payload = catalog
        .samples
        .iter()
        .find(|s| s.id == "write")
        .unwrap()
        .payload
        .clone();

    let started = Instant::now();
    let ran = bench::bench_run(
        &env.state(),
        &root.display().to_string(),
        "PreToolUse",
        &payload,
    )
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the 1 s timeout was honoured"
    );
    assert_eq!(
        ran.runs.len(),
        4,
        "the http hook matches but is not run: {ran:#?}"
    );
    let http = hook(&ran.matched, "example.invalid");
    assert_eq!(http.outcome, "runs");
    assert!(!http.executes);

    let by = |part: &str| ran.runs.iter().find(|r| r.command.contains(part)).unwrap();
    let policy = by("policy.sh");
    assert_eq!(policy.exit_code, Some(0));
    assert_eq!(policy.decision.as_deref(), Some("deny"));
    assert_eq!(
        policy.reason.as_deref(),
        Some("writes under src/ need review")
    );
    assert!(policy.stdout.contains("permissionDecision"));

    let failed = by("broken.sh");
    assert_eq!(failed.exit_code, Some(1));
    assert_eq!(failed.decision, None);
    assert!(
        failed
            .error
            .as_deref()
            .is_some_and(|e| e.contains("config missing")),
        "{failed:?}"
    );

    let here = by("where.sh");
    let root_text = root.display().to_string();
    assert_eq!(here.stdout, format!("{root_text}\n{root_text}\n"));

    let slow = by("sleep 30");
    assert!(slow.timed_out);
    assert_eq!(slow.exit_code, None);
    assert!(
        slow.duration_ms >= 900.0 && slow.duration_ms < 10_000.0,
        "{}",
        slow.duration_ms
    );

    // The agent gets the JSON deny with its reason, and the failures as a system message.
    assert_eq!(ran.result.exit_code, 0);
    assert_eq!(ran.result.decision.as_deref(), Some("deny"));
    assert_eq!(
        ran.result.reason.as_deref(),
        Some("writes under src/ need review")
    );
    let stdout: Value = serde_json::from_str(&ran.result.stdout).unwrap();
    assert_eq!(stdout["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(ran.result.errors.len(), 2, "{:?}", ran.result.errors);
    assert!(ran.duration_ms >= slow.duration_ms);
}

#[test]
fn bad_requests_are_refused_with_a_kind() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let state = env.state();
    let payload = json!({"tool_name": "Bash"});

    let err = bench::bench_match(&state, &project, "PreToolUze", &payload).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(err.message.contains("PreToolUze"), "{}", err.message);

    let err =
        bench::bench_run(&state, &project, "PreToolUse", &json!(["not", "an object"])).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);

    let missing = env.dir.path().join("gone").display().to_string();
    let err = bench::bench_match(&state, &missing, "PreToolUse", &payload).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    let err = bench::bench_samples(&state, "relative/dir").unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);

    // A settings file the agent would reject is named, not skipped.
    let broken = repo.root().join(".claude/settings.json");
    write_file(
        &broken,
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": 3, \"hooks\": []}]}}",
    );
    let err = bench::bench_match(&state, &project, "PreToolUse", &payload).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(
        err.message.contains(&broken.display().to_string()),
        "{}",
        err.message
    );
}

#[test]
fn cancel_stops_a_run_and_kills_its_hooks_with_their_children() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let pids = env.dir.path().join("pids");
    // A hook that would run for a minute, with a child of its own.
    let slow = script(
        &env.dir.path().join("bin"),
        "slow.sh",
        &format!(
            "#!/bin/sh\ncat >/dev/null\nsleep 60 &\necho \"$$ $!\" > {}.tmp\nmv {0}.tmp {0}\nwait\n",
            pids.display()
        ),
    );
    env.write_approved(
        &root.join(".hookd/settings.json"),
        &settings(&json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": slow.display().to_string(), "timeout": 120}]}
        ]})),
    );
    let state = env.state();
    let payload = bash_payload(&env, &root, "make test");
    let project = root.display().to_string();
    assert_eq!(bench::bench_cancel(&state), 0, "nothing to cancel yet");

    let (outcome, elapsed) = std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            let started = Instant::now();
            let outcome = bench::bench_run(&state, &project, "PreToolUse", &payload);
            (outcome, started.elapsed())
        });
        wait_until(Duration::from_secs(20), "the hook to start", || {
            pids.exists()
        });
        assert_eq!(state.bench_runs.len(), 1, "the run is in flight");
        assert_eq!(bench::bench_cancel(&state), 1);
        run.join().unwrap()
    });

    let err = outcome.expect_err("a cancelled run is an error");
    assert_eq!(err.kind, ErrorKind::Cancelled, "{err}");
    assert!(err.message.contains("cancelled"), "{err}");
    assert!(
        elapsed < Duration::from_secs(20),
        "cancel did not wait for the hook: {elapsed:?}"
    );
    assert!(state.bench_runs.is_empty(), "the run left the list");
    let hook_pids = read_pids(&pids);
    wait_until(
        Duration::from_secs(5),
        "the processes of the cancelled hook to exit",
        || hook_pids.iter().all(|&pid| process_gone(pid)),
    );

    // Cancelling does not poison the bench: the next run works.
    std::fs::remove_file(&pids).unwrap();
    env.write_approved(
        &root.join(".hookd/settings.json"),
        &settings(&json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo fine"}]}
        ]})),
    );
    let ran = bench::bench_run(&state, &project, "PreToolUse", &payload).unwrap();
    assert_eq!(ran.runs.len(), 1);
    assert_eq!(ran.runs[0].exit_code, Some(0));
}
