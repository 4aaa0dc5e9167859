//! The daemon's life: private socket, PID file, stale sockets, a second
//! daemon, and SIGTERM in the middle of a burst losing nothing.

use std::os::unix::fs::PermissionsExt as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use hookd_testkit::{
    ChildProcess, GitRepo, TestEnv, bin, poll_until, tool_payload, wait_for_count, wait_until,
};
use serde_json::json;

#[test]
fn socket_is_private_pid_file_is_written_and_both_are_removed_on_sigterm() {
    let env = TestEnv::new();
    let mut daemon = env.start_daemon();
    let mode = std::fs::metadata(env.socket())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    let dir_mode = std::fs::metadata(env.socket().parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);
    let pid_file = env.socket().with_extension("pid");
    assert_eq!(
        std::fs::read_to_string(&pid_file).unwrap().trim(),
        daemon.pid().to_string()
    );

    let status = daemon.terminate();
    assert!(
        status.success(),
        "exit status {status:?}; log:\n{}",
        daemon.log_text()
    );
    assert!(!env.socket().exists(), "socket removed");
    assert!(!pid_file.exists(), "PID file removed");
}

#[test]
fn a_stale_socket_is_replaced() {
    let env = TestEnv::new();
    // A socket file nobody listens on, as a crashed daemon leaves it.
    drop(std::os::unix::net::UnixListener::bind(env.socket()).unwrap());
    assert!(env.socket().exists());
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let input = json!({"file_path": root.join("a.rs"), "content": "x\n"});
    let out = env.emit(
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", &root, "t", input),
        &root,
    );
    assert!(out.status.success());
    wait_for_count(&repo, "mutations", 1);
}

#[test]
fn a_second_daemon_is_refused_and_the_first_keeps_serving() {
    let env = TestEnv::new();
    let first = env.start_daemon();
    let second = env.command("hookd").arg("daemon").output().unwrap();
    assert!(!second.status.success());
    let msg = String::from_utf8_lossy(&second.stderr);
    assert!(msg.contains("already running"), "{msg}");
    assert!(
        msg.contains(&first.pid().to_string()),
        "names the running pid: {msg}"
    );
    assert!(
        std::os::unix::net::UnixStream::connect(env.socket()).is_ok(),
        "first daemon still listening"
    );

    let repo = GitRepo::new();
    let root = repo.root();
    let input = json!({"file_path": root.join("a.rs"), "content": "x\n"});
    env.emit(
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", &root, "t", input),
        &root,
    );
    wait_for_count(&repo, "mutations", 1);
}

#[test]
fn a_non_socket_file_in_the_way_is_not_removed() {
    let env = TestEnv::new();
    std::fs::write(env.socket(), "precious").unwrap();
    let out = env.command("hookd").arg("daemon").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a socket"));
    assert_eq!(std::fs::read_to_string(env.socket()).unwrap(), "precious");
}

#[test]
fn emit_without_a_daemon_exits_zero_quickly_and_silently() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let started = Instant::now();
    let out = env.emit(
        &["post_tool_use", "Write"],
        r#"{"tool_name":"Write"}"#,
        &repo.root(),
    );
    assert!(out.status.success());
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn sigterm_during_a_burst_loses_nothing() {
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = repo.root();
    let mut daemon = env.start_daemon();
    let delivered = Arc::new(AtomicUsize::new(0));
    let attempted = Arc::new(AtomicUsize::new(0));
    let emitters: Vec<_> = (0..4)
        .map(|worker| {
            let env = Arc::clone(&env);
            let root = root.clone();
            let delivered = Arc::clone(&delivered);
            let attempted = Arc::clone(&attempted);
            std::thread::spawn(move || {
                for i in 0..150 {
                    let input = json!({"file_path": root.join(format!("w{worker}/f{i}.rs")), "content": "x\n"});
                    let payload = tool_payload("PostToolUse", "Write", &root, &format!("w{worker}-{i}"), input);
                    let mut cmd = env.command("hookd-emit");
                    cmd.arg("post_tool_use").current_dir(&root).env("HOOKD_DEBUG", "1");
                    let out = {
                        use std::io::Write as _;
                        let mut child = cmd
                            .stdin(std::process::Stdio::piped())
                            .stdout(std::process::Stdio::null())
                            .stderr(std::process::Stdio::piped())
                            .spawn()
                            .unwrap();
                        child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
                        child.wait_with_output().unwrap()
                    };
                    attempted.fetch_add(1, Ordering::SeqCst);
                    assert!(out.status.success());
                    if String::from_utf8_lossy(&out.stderr).contains("delivered") {
                        delivered.fetch_add(1, Ordering::SeqCst);
                    }
                }
            })
        })
        .collect();
    // Stop the daemon mid-burst.
    wait_until(Duration::from_secs(60), "200 emits attempted", || {
        attempted.load(Ordering::SeqCst) >= 200
    });
    let status = daemon.terminate();
    for emitter in emitters {
        emitter.join().unwrap();
    }
    assert!(
        status.success(),
        "daemon exit {status:?}; log:\n{}",
        daemon.log_text()
    );
    let delivered = delivered.load(Ordering::SeqCst);
    assert!(
        delivered >= 200,
        "burst was under way: {delivered} delivered"
    );
    assert!(
        delivered < 600,
        "daemon stopped mid-burst, so some emits found no daemon: {delivered}"
    );
    // Every envelope the daemon took off the socket is in the ledger, once.
    assert_eq!(
        repo.count("events"),
        i64::try_from(delivered).unwrap(),
        "log:\n{}",
        daemon.log_text()
    );
    assert_eq!(repo.count("mutations"), i64::try_from(delivered).unwrap());
    let distinct = repo.distinct_mutations("tool_use_id");
    assert_eq!(distinct, i64::try_from(delivered).unwrap());
}

#[test]
fn peers_running_as_another_user_are_refused() {
    // SO_PEERCRED can only be exercised with two real uids: run the daemon as
    // `nobody` and connect as root (root can reach the 0700 directory).
    if rustix::process::getuid().as_raw() != 0 {
        eprintln!(
            "not root: cannot run a daemon as another user here; peer-uid check not exercised"
        );
        return;
    }
    let env = TestEnv::new();
    let nobody_dir = env.dir.path().join("nobody");
    let run = nobody_dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::set_permissions(env.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let chown = std::process::Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(&nobody_dir)
        .status()
        .unwrap();
    assert!(chown.success());
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
    let socket = run.join("hookd.sock");
    let mut command = std::process::Command::new("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(bin("hookd"))
        .arg("daemon")
        .env("HOOKD_SOCKET", &socket)
        .env("HOOKD_DATA_DIR", nobody_dir.join("data"))
        .env("HOME", &nobody_dir);
    let mut daemon = ChildProcess::spawn(
        "hookd daemon as nobody",
        &mut command,
        &env.dir.path().join("nobody-daemon.log"),
    );
    poll_until(Duration::from_secs(10), || socket.exists().then_some(()))
        .unwrap_or_else(|| panic!("daemon as nobody did not start:\n{}", daemon.log_text()));
    {
        use std::io::Write as _;
        let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
        let _ = stream.write_all(
            b"{\"event_type\":\"x\",\"payload\":{},\"timestamp\":\"2026-11-21T10:00:00Z\"}\n",
        );
    }
    poll_until(Duration::from_secs(10), || {
        daemon.log_text().contains("foreign_peer").then_some(())
    })
    .unwrap_or_else(|| panic!("foreign peer not refused:\n{}", daemon.log_text()));
    let status = daemon.terminate();
    assert!(status.success(), "{}", daemon.log_text());
    assert!(
        daemon.log_text().contains("accepted=0"),
        "the foreign line must not be accepted:\n{}",
        daemon.log_text()
    );
}

#[test]
fn status_reports_the_running_daemon_and_its_counters() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let mut daemon = env.start_daemon();
    for i in 0..2 {
        let input = json!({"file_path": root.join(format!("s{i}.rs")), "content": "x\n"});
        env.emit(
            &["post_tool_use"],
            &tool_payload("PostToolUse", "Write", &root, &format!("s{i}"), input),
            &root,
        );
    }
    wait_for_count(&repo, "events", 2);
    let mut text = String::new();
    poll_until(Duration::from_secs(5), || {
        let out = env.command("hookd").arg("status").output().unwrap();
        text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.success() && text.contains("2 accepted") && text.contains("2 stored"))
            .then_some(())
    })
    .unwrap_or_else(|| panic!("status never showed the two events:\n{text}"));
    assert!(text.contains(&format!("pid {}", daemon.pid())), "{text}");
    assert!(text.contains("ledger mode:  local"), "{text}");
    let status_file = env.socket().with_extension("status.json");
    assert!(status_file.exists());

    assert!(daemon.terminate().success());
    assert!(!status_file.exists(), "status file removed on exit");
    let out = env.command("hookd").arg("status").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no hookd daemon is listening"));
}
