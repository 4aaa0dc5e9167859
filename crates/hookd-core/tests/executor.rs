//! The hook executor against real `sh` hooks: every exit-code row and JSON
//! field of the contract for PreToolUse, PostToolUse, UserPromptSubmit, Stop
//! and SessionStart, the rendered reply for each, and the process rules
//! (parallelism, timeouts that kill the whole group, background children,
//! output caps, environment, stdin).

mod common;

use std::time::{Duration, Instant};

use common::executor::{Project, reply_json, with_timeout};
use hookd_core::executor::{
    HookInvocation, OUTPUT_CAP_BYTES, PermissionDecision, Reply, RunError, Verdict, Via, run_all,
};
use hookd_testkit::{pgrp, process_gone, read_pids, wait_until_async};
use serde_json::json;

fn empty() -> Reply {
    Reply::default()
}

// ---------------------------------------------------------------- PreToolUse

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_exit_zero_json_deny_is_rendered_as_json() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[
                r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no rm"}}'"#,
            ],
        )
        .await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, Some(0));
    assert_eq!(run.json_error, None);
    let spec = run.output.as_ref().unwrap().hook_specific.as_ref().unwrap();
    assert_eq!(spec.permission_decision, Some(PermissionDecision::Deny));
    assert_eq!(run.effect.decision(), Some("deny"));
    assert_eq!(r.outcome.decision(), Some("deny"));
    assert_eq!(
        reply_json(&r),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no rm"}})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_plain_stdout_is_debug_only() {
    let p = Project::new();
    let r = p
        .run("PreToolUse", &["echo checking things; echo more >&2"])
        .await;
    assert_eq!(r.runs[0].stdout, "checking things\n");
    assert_eq!(r.runs[0].stderr, "more\n");
    assert_eq!(r.outcome.decision(), None);
    assert_eq!(r.outcome.reply(), empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_exit_two_blocks_with_stderr() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'; echo "rm -rf is not allowed" >&2; exit 2"#],
        )
        .await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, Some(2));
    assert_eq!(run.output, None, "stdout JSON is ignored on exit 2");
    assert!(
        run.json_error
            .as_deref()
            .unwrap()
            .contains("exited with code 2")
    );
    assert_eq!(
        run.effect.verdict,
        Verdict::Permission {
            decision: PermissionDecision::Deny,
            reason: Some("rm -rf is not allowed".into()),
            via: Via::ExitCode2,
        }
    );
    assert_eq!(
        r.outcome.reply(),
        Reply {
            exit_code: 2,
            stdout: String::new(),
            stderr: "rm -rf is not allowed".into()
        }
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_exit_one_is_a_non_blocking_error() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"continue": false}'; printf 'first problem\nsecond\n' >&2; exit 1"#],
        )
        .await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, Some(1));
    assert!(!run.effect.stops_agent, "stdout is ignored on exit 1");
    assert_eq!(
        run.effect.error,
        Some(RunError::Exit {
            code: 1,
            first_line: Some("first problem".into())
        })
    );
    assert_eq!(r.outcome.decision(), None);
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1);
    assert!(reply.stdout.is_empty());
    assert!(
        reply.stderr.starts_with("hookd: hook `echo ")
            && reply.stderr.ends_with("exited with code 1: first problem"),
        "{reply:?}"
    );
    assert!(!reply.stderr.contains('\n'));
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_permission_precedence_across_parallel_hooks() {
    let p = Project::new();
    let decide = |d: &str| {
        format!(
            r#"echo '{{"hookSpecificOutput": {{"hookEventName": "PreToolUse", "permissionDecision": "{d}", "permissionDecisionReason": "{d} reason"}}}}'"#
        )
    };
    let (allow, ask, defer, deny) = (
        decide("allow"),
        decide("ask"),
        decide("defer"),
        decide("deny"),
    );
    let cases: [(&[&str], &str); 4] = [
        (&[&allow, &ask, &defer, &deny], "deny"),
        (&[&allow, &ask, &defer], "defer"),
        (&[&ask, &allow], "ask"),
        (&[&allow, &allow], "allow"),
    ];
    for (hooks, expected) in cases {
        let r = p.run("PreToolUse", hooks).await;
        assert_eq!(r.outcome.decision(), Some(expected), "{hooks:?}");
        let reply = reply_json(&r);
        assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], expected);
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        // Reasons of the winning level only, one per hook at that level.
        let count = hooks
            .iter()
            .filter(|h| h.contains(&format!("\"{expected}\"")))
            .count();
        assert_eq!(reason, vec![format!("{expected} reason"); count].join("\n"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_updated_input_last_to_finish_wins() {
    let p = Project::new();
    let slow = r#"sleep 0.4; echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "slow"}}}'"#;
    let fast = r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "fast"}}}'"#;
    for hooks in [[slow, fast], [fast, slow]] {
        let r = p.run("PreToolUse", &hooks).await;
        let slow_run = r
            .runs
            .iter()
            .find(|run| run.invocation.command == slow)
            .unwrap();
        let fast_run = r
            .runs
            .iter()
            .find(|run| run.invocation.command == fast)
            .unwrap();
        assert!(slow_run.finish_seq > fast_run.finish_seq);
        assert_eq!(
            reply_json(&r),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "allow", "updatedInput": {"command": "slow"}}})
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_hook_specific_output_needs_the_event_name() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}'"#],
        )
        .await;
    let run = &r.runs[0];
    assert_eq!(run.effect.verdict, Verdict::None);
    assert!(run.output.as_ref().unwrap().hook_specific.is_none());
    let err = run.json_error.as_deref().unwrap();
    assert!(
        err.contains("hookEventName") && err.contains("PreToolUse"),
        "{err}"
    );
    // The user is told, through the reply, why the decision was ignored.
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1);
    assert!(
        reply.stderr.contains("hookSpecificOutput ignored"),
        "{reply:?}"
    );

    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}'"#],
        )
        .await;
    assert_eq!(r.outcome.decision(), None);
    assert!(
        r.runs[0]
            .json_error
            .as_deref()
            .unwrap()
            .contains("\"PostToolUse\"")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_legacy_top_level_decisions() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"decision": "approve", "reason": "fine"}'"#],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "permissionDecisionReason": "fine"}})
    );
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"decision": "block", "reason": "nope"}'"#],
        )
        .await;
    assert_eq!(r.outcome.decision(), Some("deny"));
    assert_eq!(
        reply_json(&r)["hookSpecificOutput"]["permissionDecisionReason"],
        "nope"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_continue_false_system_message_suppress_output_and_context() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[
                r#"echo '{"systemMessage": "careful", "suppressOutput": true, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "additionalContext": "repo is frozen"}}'"#,
            ],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"systemMessage": "careful", "suppressOutput": true,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                "additionalContext": "repo is frozen"}})
    );

    // continue:false dominates a parallel deny.
    let r = p
        .run(
            "PreToolUse",
            &[
                r#"echo '{"continue": false, "stopReason": "budget exhausted"}'"#,
                r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'"#,
            ],
        )
        .await;
    assert_eq!(r.outcome.decision(), Some("stop"));
    assert_eq!(
        reply_json(&r),
        json!({"continue": false, "stopReason": "budget exhausted"})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pre_tool_use_wrong_types_and_text_before_json_are_explained() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Deny"}}'"#],
        )
        .await;
    assert_eq!(r.runs[0].output, None);
    let err = r.runs[0].json_error.as_deref().unwrap();
    assert!(
        err.contains("`hookSpecificOutput.permissionDecision` must be one of")
            && err.contains("\"Deny\""),
        "{err}"
    );
    let r = p
        .run(
            "PreToolUse",
            &[r#"echo 'Welcome!'; echo '{"continue": false}'"#],
        )
        .await;
    assert!(!r.outcome.stopped);
    assert!(r.runs[0].json_error.as_deref().unwrap().contains("line 2"));
    let r = p.run("PreToolUse", &[r#"printf '{"continue": '"#]).await;
    assert!(
        r.runs[0]
            .json_error
            .as_deref()
            .unwrap()
            .contains("not valid JSON")
    );
    assert_eq!(r.outcome.reply().exit_code, 1);
}

// --------------------------------------------------------------- PostToolUse

#[tokio::test(flavor = "multi_thread")]
async fn post_tool_use_exit_rows() {
    let p = Project::new();
    // exit 0 plain: debug only.
    let r = p.run("PostToolUse", &["echo formatted 3 files"]).await;
    assert_eq!(r.outcome.reply(), empty());
    // exit 2: stderr to the model.
    let r = p
        .run("PostToolUse", &["echo 'lint: 2 errors' >&2; exit 2"])
        .await;
    assert_eq!(r.outcome.decision(), Some("block"));
    assert_eq!(
        r.outcome.reply(),
        Reply {
            exit_code: 2,
            stdout: String::new(),
            stderr: "lint: 2 errors".into()
        }
    );
    // exit 3: non-blocking.
    let r = p.run("PostToolUse", &["echo broken >&2; exit 3"]).await;
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1);
    assert!(
        reply.stderr.ends_with("exited with code 3: broken"),
        "{reply:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn post_tool_use_json_fields() {
    let p = Project::new();
    let r = p
        .run(
            "PostToolUse",
            &[r#"echo '{"decision": "block", "reason": "tests now fail", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "see CI", "updatedToolOutput": {"stdout": "redacted"}}}'"#],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"decision": "block", "reason": "tests now fail",
            "hookSpecificOutput": {"hookEventName": "PostToolUse",
                "additionalContext": "see CI", "updatedToolOutput": {"stdout": "redacted"}}})
    );
    // exit 2 from one hook plus context from another: one JSON reply carries both.
    let r = p
        .run(
            "PostToolUse",
            &[
                "echo 'lint failed' >&2; exit 2",
                r#"echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}}'"#,
            ],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"decision": "block", "reason": "lint failed",
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}})
    );
}

// ---------------------------------------------------------- UserPromptSubmit

#[tokio::test(flavor = "multi_thread")]
async fn user_prompt_submit_exit_rows() {
    let p = Project::new();
    let r = p
        .run("UserPromptSubmit", &["echo 'Current branch: main'"])
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
            "additionalContext": "Current branch: main"}})
    );
    let r = p
        .run(
            "UserPromptSubmit",
            &["echo 'prompt contains a secret' >&2; exit 2"],
        )
        .await;
    assert_eq!(r.outcome.decision(), Some("block"));
    assert_eq!(
        r.outcome.reply(),
        Reply {
            exit_code: 2,
            stdout: String::new(),
            stderr: "prompt contains a secret".into()
        }
    );
    let r = p.run("UserPromptSubmit", &["exit 5"]).await;
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1);
    assert!(reply.stderr.ends_with("exited with code 5"), "{reply:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn user_prompt_submit_json_block_and_contexts_in_finish_order() {
    let p = Project::new();
    let r = p
        .run(
            "UserPromptSubmit",
            &[r#"echo '{"decision": "block", "reason": "not on Fridays", "systemMessage": "blocked"}'"#],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"decision": "block", "reason": "not on Fridays", "systemMessage": "blocked"})
    );
    let r = p
        .run(
            "UserPromptSubmit",
            &[
                r#"sleep 0.4; echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "second"}}'"#,
                "echo first",
            ],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
            "additionalContext": "first\nsecond"}})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn context_text_is_capped_at_ten_thousand_characters() {
    let p = Project::new();
    let r = p
        .run(
            "UserPromptSubmit",
            &["head -c 20000 /dev/zero | tr '\\0' 'x'"],
        )
        .await;
    let reply = reply_json(&r);
    let ctx = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert_eq!(ctx.chars().count(), 10_000);
    assert!(ctx.starts_with("xxxx") && ctx.ends_with("truncated by hookd]"));
    assert_eq!(
        r.runs[0].stdout.len(),
        20_000,
        "the record keeps the full capture"
    );
}

// ---------------------------------------------------------------------- Stop

#[tokio::test(flavor = "multi_thread")]
async fn stop_exit_rows() {
    let p = Project::new();
    let r = p.run("Stop", &["echo all done"]).await;
    assert_eq!(r.outcome.reply(), empty());
    let r = p
        .run("Stop", &["echo 'tests still fail, keep going' >&2; exit 2"])
        .await;
    assert_eq!(r.outcome.decision(), Some("block"));
    assert_eq!(
        r.outcome.reply(),
        Reply {
            exit_code: 2,
            stdout: String::new(),
            stderr: "tests still fail, keep going".into()
        }
    );
    let r = p.run("Stop", &["echo oops >&2; exit 1"]).await;
    assert_eq!(r.outcome.reply().exit_code, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_json_block_and_continue_false() {
    let p = Project::new();
    let r = p
        .run(
            "Stop",
            &[
                r#"echo '{"decision": "block", "reason": "run the linter"}'"#,
                "echo 'and the tests' >&2; exit 2",
            ],
        )
        .await;
    let reply = reply_json(&r);
    assert_eq!(reply["decision"], "block");
    let reason = reply["reason"].as_str().unwrap();
    assert!(
        reason.contains("run the linter") && reason.contains("and the tests"),
        "{reason}"
    );
    let r = p
        .run(
            "Stop",
            &[r#"echo '{"continue": false, "stopReason": "quota", "systemMessage": "bye"}'"#],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"continue": false, "stopReason": "quota", "systemMessage": "bye"})
    );
    // decision "approve" means nothing on Stop: noted, not applied.
    let r = p.run("Stop", &[r#"echo '{"decision": "approve"}'"#]).await;
    assert_eq!(r.outcome.decision(), None);
    assert!(
        r.runs[0]
            .json_error
            .as_deref()
            .unwrap()
            .contains("no effect on Stop")
    );
}

// -------------------------------------------------------------- SessionStart

#[tokio::test(flavor = "multi_thread")]
async fn session_start_exit_rows() {
    let p = Project::new();
    let r = p
        .run("SessionStart", &["echo 'TODO: fix flaky test'"])
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart",
            "additionalContext": "TODO: fix flaky test"}})
    );
    // exit 2 on SessionStart is shown to the user only: a systemMessage.
    let r = p
        .run(
            "SessionStart",
            &["echo 'docker is not running' >&2; exit 2", "echo context"],
        )
        .await;
    assert_eq!(r.outcome.decision(), None);
    assert_eq!(
        reply_json(&r),
        json!({"systemMessage": "docker is not running",
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "context"}})
    );
    let r = p.run("SessionStart", &["echo nope >&2; exit 1"]).await;
    assert_eq!(r.outcome.reply().exit_code, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn session_start_json_context_and_event_name() {
    let p = Project::new();
    let r = p
        .run(
            "SessionStart",
            &[r#"echo '{"systemMessage": "loaded", "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "notes"}}'"#],
        )
        .await;
    assert_eq!(
        reply_json(&r),
        json!({"systemMessage": "loaded",
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "notes"}})
    );
    // Wrong hookEventName: context dropped, the rest kept and the user told.
    let r = p
        .run(
            "SessionStart",
            &[r#"echo '{"systemMessage": "loaded", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "notes"}}'"#],
        )
        .await;
    let reply = reply_json(&r);
    assert!(reply.get("hookSpecificOutput").is_none());
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(
        message.starts_with("loaded\nhook `echo ")
            && message.contains("hookSpecificOutput ignored"),
        "{message}"
    );
}

// ------------------------------------------------------------------ Process

#[tokio::test(flavor = "multi_thread")]
async fn hooks_of_one_event_run_in_parallel() {
    let p = Project::new();
    let started = Instant::now();
    let r = p.run("Stop", &["sleep 1", "sleep 1"]).await;
    let elapsed = started.elapsed();
    assert!(r.runs.iter().all(|run| run.exit_code == Some(0)));
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(1800), "{elapsed:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn timeout_kills_the_whole_process_group() {
    let p = Project::new();
    let pids = p.path("pids");
    // The leader, a subshell ignoring SIGTERM, its sleep, and another sleep.
    let command = format!(
        r#"echo $$ >> {f}; (trap "" TERM; sleep 60 & echo $! >> {f}; wait) & echo $! >> {f}; sleep 60 & echo $! >> {f}; wait"#,
        f = pids.display()
    );
    let started = Instant::now();
    let r = p
        .run_hooks(
            "PreToolUse",
            vec![with_timeout(&command, Duration::from_secs(1))],
        )
        .await;
    let elapsed = started.elapsed();
    let run = &r.runs[0];
    assert!(run.timed_out);
    assert_eq!(run.exit_code, None);
    assert_eq!(
        run.effect.error,
        Some(RunError::TimedOut(Duration::from_secs(1)))
    );
    assert_eq!(run.effect.verdict, Verdict::None, "timed out: no decision");
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(2500), "{elapsed:?}");
    let pids = read_pids(&pids);
    assert_eq!(pids.len(), 4, "{pids:?}");
    for pid in pids {
        wait_until_async(
            Duration::from_secs(2),
            &format!("pid {pid} to be gone (it survived the timeout)"),
            async || process_gone(pid),
        )
        .await;
    }
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1, "timed out: the action proceeds");
    assert!(
        reply.stderr.contains("timed out after 1s, no decision"),
        "{reply:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backgrounded_child_does_not_hold_the_run() {
    let p = Project::new();
    let pid_file = p.path("bg.pid");
    let command = format!(
        "sleep 100 & echo $! > {}; echo 'context from hook'",
        pid_file.display()
    );
    let started = Instant::now();
    let r = p.run("UserPromptSubmit", &[&command]).await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert_eq!(r.runs[0].exit_code, Some(0));
    assert_eq!(r.runs[0].stdout, "context from hook\n");
    let pid = read_pids(&pid_file)[0];
    wait_until_async(
        Duration::from_secs(2),
        &format!("background child {pid} to be gone (it lingers)"),
        async || process_gone(pid),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_escaped_child_holding_the_pipes_only_costs_the_drain_grace() {
    if !std::path::Path::new("/usr/bin/setsid").exists() {
        eprintln!("skipped: no /usr/bin/setsid");
        return;
    }
    let p = Project::new();
    let pid_file = p.path("escaped.pid");
    let command = format!(
        "setsid sleep 30 & echo $! > {}; echo done",
        pid_file.display()
    );
    let started = Instant::now();
    let r = p.run("Stop", &[&command]).await;
    let elapsed = started.elapsed();
    for pid in read_pids(&pid_file) {
        let _ = rustix::process::kill_process(
            rustix::process::Pid::from_raw(pid).unwrap(),
            rustix::process::Signal::KILL,
        );
    }
    assert!(elapsed < Duration::from_millis(1500), "{elapsed:?}");
    assert_eq!(r.runs[0].exit_code, Some(0));
    assert_eq!(r.runs[0].stdout, "done\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_hook_leads_its_own_process_group() {
    let p = Project::new();
    // The hook reports its pid, its group and its child's group.
    let r = p
        .run(
            "Stop",
            &["echo $$; cut -d' ' -f5 /proc/$$/stat; sleep 0.2 & cut -d' ' -f5 /proc/$!/stat; wait"],
        )
        .await;
    let lines: Vec<&str> = r.runs[0].stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{:?}", r.runs[0]);
    assert_eq!(lines[0], lines[1], "the hook leads its group");
    assert_eq!(lines[1], lines[2], "its child is in that group");
    let ours = pgrp(i32::try_from(std::process::id()).unwrap());
    assert_ne!(lines[0].parse::<i32>().ok(), ours, "not hookd's group");
}

#[tokio::test(flavor = "multi_thread")]
async fn output_over_the_cap_is_truncated_and_flagged() {
    let p = Project::new();
    let r = p
        .run(
            "PreToolUse",
            &["head -c 3000000 /dev/zero | tr '\\0' 'a'; head -c 2000000 /dev/zero >&2; echo finished > done.txt"],
        )
        .await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, Some(0));
    assert!(!run.timed_out);
    assert_eq!(run.stdout.len(), OUTPUT_CAP_BYTES);
    assert!(run.stdout_truncated && run.stderr_truncated);
    assert_eq!(run.stderr.len(), OUTPUT_CAP_BYTES);
    assert!(p.path("done.txt").exists(), "the hook ran to its end");
    assert_eq!(r.outcome.reply(), empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn env_and_cwd_are_the_project_root() {
    let p = Project::new();
    let r = p
        .run(
            "UserPromptSubmit",
            &[r#"printf '%s|%s|%s' "$CLAUDE_PROJECT_DIR" "$HOOKD_PROJECT_ROOT" "$(pwd -P)""#],
        )
        .await;
    let root = p.root().display().to_string();
    assert_eq!(r.runs[0].stdout, format!("{root}|{root}|{root}"));
}

#[tokio::test(flavor = "multi_thread")]
async fn stdin_is_the_payload_json() {
    let p = Project::new();
    let big = "x".repeat(300_000);
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": "/a", "content": big}});
    let ctx = p.context("PreToolUse", payload.clone());
    let r = run_all(
        &ctx,
        vec![
            HookInvocation::new("cat > got.json"),
            // Ignores stdin entirely: must neither hang nor fail the run.
            HookInvocation::new("exit 0"),
        ],
    )
    .await;
    assert!(
        r.runs.iter().all(|run| run.exit_code == Some(0)),
        "{:?}",
        r.runs
    );
    let got: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.path("got.json")).unwrap()).unwrap();
    assert_eq!(got, payload);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_command_is_a_non_blocking_error_with_its_stderr_line() {
    let p = Project::new();
    let r = p
        .run("PreToolUse", &["hookd-no-such-command-xyz --flag"])
        .await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, Some(127));
    let Some(RunError::Exit {
        code: 127,
        first_line: Some(line),
    }) = &run.effect.error
    else {
        panic!("{:?}", run.effect)
    };
    assert!(
        line.contains("hookd-no-such-command-xyz") && line.contains("not found"),
        "{line}"
    );
    let reply = r.outcome.reply();
    assert_eq!(reply.exit_code, 1);
    assert!(reply.stderr.contains(line.as_str()), "{reply:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unstartable_hook_is_a_spawn_error() {
    let p = Project::new();
    let mut ctx = p.context("PreToolUse", json!({}));
    ctx.project_root = p.path("does-not-exist");
    let r = run_all(&ctx, vec![HookInvocation::new("true")]).await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, None);
    assert!(
        run.spawn_error
            .as_deref()
            .unwrap()
            .contains("does-not-exist")
    );
    assert!(matches!(run.effect.error, Some(RunError::NotStarted(_))));
    assert_eq!(r.outcome.reply().exit_code, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hook_killed_by_a_signal_is_a_non_blocking_error() {
    let p = Project::new();
    let r = p.run("PreToolUse", &["kill -9 $$"]).await;
    let run = &r.runs[0];
    assert_eq!(run.exit_code, None);
    assert!(!run.timed_out);
    assert_eq!(run.effect.error, Some(RunError::Signal(9)));
}

#[tokio::test(flavor = "multi_thread")]
async fn no_hooks_means_an_empty_reply() {
    let p = Project::new();
    let r = p.run("PreToolUse", &[]).await;
    assert!(r.runs.is_empty());
    assert_eq!(r.outcome.reply(), empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn dropping_the_run_kills_the_hooks() {
    let p = Project::new();
    let pid_file = p.path("pids");
    let command = format!(
        "echo $$ >> {f}; sleep 60 & echo $! >> {f}; wait",
        f = pid_file.display()
    );
    let ctx = p.context("Stop", json!({}));
    let run = run_all(&ctx, vec![HookInvocation::new(command)]);
    // Let it start, then abandon it (an agent that hung up).
    let _ = tokio::time::timeout(Duration::from_millis(500), run).await;
    let pids = read_pids(&pid_file);
    assert_eq!(pids.len(), 2, "{pids:?}");
    for pid in pids {
        wait_until_async(
            Duration::from_secs(3),
            &format!("pid {pid} to be gone (it survived the cancelled run)"),
            async || process_gone(pid),
        )
        .await;
    }
}

// ------------------------------------------------- onFailure and PreModelSwitch

/// `onFailure: "block"`: a guard that fails (exit 1, a missing interpreter,
/// a timeout) blocks as exit 2 would, naming the failure; without the field
/// the same failures let the action go ahead.
#[tokio::test(flavor = "multi_thread")]
async fn on_failure_block_turns_each_failure_into_a_block() {
    let p = Project::new();
    let failing = [
        ("exit 1", "exited with code 1"),
        ("/nonexistent/python3 guard.py", "exited with code 127"),
        ("sleep 5", "timed out"),
    ];
    for (command, what) in failing {
        let guard = |fail_closed| HookInvocation {
            timeout: Some(Duration::from_millis(300)),
            fail_closed,
            ..HookInvocation::new(command)
        };
        let open = p.run_hooks("PreToolUse", vec![guard(false)]).await;
        assert_eq!(open.outcome.decision(), None, "{command}: fails open");

        let closed = p.run_hooks("PreToolUse", vec![guard(true)]).await;
        let run = &closed.runs[0];
        assert!(run.effect.error.is_some(), "{command}: the failure is kept");
        let Verdict::Permission {
            decision: PermissionDecision::Deny,
            reason: Some(reason),
            via: Via::ExitCode2,
        } = &run.effect.verdict
        else {
            panic!("{command}: not a deny: {:?}", run.effect.verdict);
        };
        assert!(
            reason.contains(what) && reason.contains("onFailure: \"block\""),
            "{command}: {reason}"
        );
        let reply = closed.outcome.reply();
        assert_eq!(reply.exit_code, 2, "{command}: {reply:?}");
        assert!(reply.stderr.contains(what), "{reply:?}");
    }
    // Exit 0 and exit 2 are answers, not failures.
    let fine = p
        .run_hooks(
            "PreToolUse",
            vec![HookInvocation {
                fail_closed: true,
                ..HookInvocation::new("exit 0")
            }],
        )
        .await;
    assert_eq!(fine.outcome.decision(), None);
}

/// A timed-out PreModelSwitch hook blocks the switch (the agent's rule for
/// this event); a timed-out PostModelSwitch hook gives no decision.
#[tokio::test(flavor = "multi_thread")]
async fn a_timed_out_pre_model_switch_hook_blocks_the_switch() {
    let p = Project::new();
    let pre = p
        .run_hooks(
            "PreModelSwitch",
            vec![with_timeout("sleep 5", Duration::from_millis(300))],
        )
        .await;
    assert_eq!(
        pre.outcome.reply().exit_code,
        2,
        "{:?}",
        pre.outcome.reply()
    );
    assert!(pre.outcome.reply().stderr.contains("timed out"));
    let post = p
        .run_hooks(
            "PostModelSwitch",
            vec![with_timeout("sleep 5", Duration::from_millis(300))],
        )
        .await;
    assert_ne!(post.outcome.reply().exit_code, 2);
}
