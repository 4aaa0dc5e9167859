//! The in-process daemon: own mode records what arrives on the socket and
//! the bridge forwards the commits; attached mode when another daemon owns
//! the socket. Real sockets, real ledgers, real git repositories.

mod common;

use std::time::Duration;

use common::{DesktopEnv, repo_query};
use hookd_core::daemon::server::{Daemon, DaemonConfig};
use hookd_desktop::bridge;
use hookd_desktop::daemon::{self, STOP_GRACE};
use hookd_desktop::projects;
use hookd_desktop::state::DaemonMode;
use hookd_desktop::timeline::timeline;
use hookd_testkit::{Event, GitRepo, TestEnv, poll_until, wait_until};
use tokio_util::sync::CancellationToken;

#[test]
fn own_daemon_records_events_and_the_bridge_forwards_each_commit() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let started = daemon::start(DaemonConfig::new(env.socket(), env.data_dir()));
    assert_eq!(started.info.mode, DaemonMode::Own, "{:?}", started.info);
    assert_eq!(started.info.error, None);
    assert!(env.socket().exists());
    state.set_daemon_info(started.info.clone());

    let (tx, rx) = std::sync::mpsc::channel();
    let notices = started.notices.expect("own daemon has notices");
    assert!(started.handle.spawn(bridge::forward(notices, move |batch| {
        let _ = tx.send(batch);
    },)));

    let line = Event::write("hello.txt", "2026-11-21T10:00:00.000Z")
        .envelope(&repo.root())
        .to_string();
    env.send_line(&line);
    let batch = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a ledger-commit batch");
    let notice = &batch.notices[0];
    assert_eq!(notice.ledger, repo.ledger_path());
    assert_eq!(notice.mutations, 1);
    assert_eq!(notice.events[0].hook_type, "post_tool_use");
    assert_eq!(notice.events[0].tool_name.as_deref(), Some("Write"));

    // What the window then reads back.
    let listed = projects::list_projects(&state).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].root, repo.root().display().to_string());
    assert_eq!(listed[0].origin, "event");
    assert_eq!((listed[0].events, listed[0].mutations), (1, 1));
    let rows = timeline(&state, &repo_query(&repo)).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].record.file_path.as_deref(), Some("hello.txt"));

    let info = serde_json::to_value(state.app_info()).unwrap();
    assert_eq!(info["daemon"]["mode"], "own");
    assert_eq!(info["daemon"]["error"], serde_json::Value::Null);
    assert_eq!(info["data_dir"], env.data_dir().display().to_string());

    // Quit: the daemon drains and removes its socket.
    started.handle.stop(STOP_GRACE);
    assert!(!env.socket().exists(), "socket removed on stop");
}

#[test]
fn attached_when_another_daemon_owns_the_socket() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();

    // Another hookd daemon (as `hookd daemon` would run it) owns the socket.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let other = {
        let _entered = runtime.enter();
        Daemon::bind(DaemonConfig::new(env.socket(), env.data_dir()))
            .expect("bind the other daemon")
    };
    let stop_other = CancellationToken::new();
    let other_task = runtime.spawn(other.run(stop_other.clone()));

    let started = daemon::start_for(&state);
    assert_eq!(
        started.info.mode,
        DaemonMode::Attached,
        "{:?}",
        started.info
    );
    assert!(started.notices.is_none(), "no second listener, no notices");
    state.set_daemon_info(started.info.clone());
    let info = serde_json::to_value(state.app_info()).unwrap();
    assert_eq!(
        info["daemon"],
        serde_json::json!({
            "mode": "attached",
            "socket": env.socket().display().to_string(),
            "error": null
        })
    );

    // The other daemon keeps recording; the app reads its ledgers.
    let line = Event::write("x.txt", "2026-11-21T11:00:00.000Z")
        .envelope(&repo.root())
        .to_string();
    env.send_line(&line);
    wait_until(
        Duration::from_secs(10),
        "the other daemon's event to show up",
        || {
            projects::list_projects(&state)
                .unwrap()
                .first()
                .is_some_and(|p| p.mutations == 1)
        },
    );

    // Stopping the attached app leaves the other daemon alone.
    started.handle.stop(STOP_GRACE);
    assert!(
        env.socket().exists(),
        "the other daemon's socket is untouched"
    );
    stop_other.cancel();
    runtime.block_on(other_task).unwrap().unwrap();
}

#[test]
fn unavailable_with_the_reason_when_the_socket_cannot_be_used() {
    let env = TestEnv::new();
    // A regular file where the socket should be: the core refuses to remove it.
    std::fs::write(env.socket(), "not a socket").unwrap();
    let started = daemon::start(DaemonConfig::new(env.socket(), env.data_dir()));
    assert_eq!(started.info.mode, DaemonMode::Unavailable);
    let error = started.info.error.clone().unwrap();
    assert!(error.contains("not a socket"), "{error}");
    assert!(started.notices.is_none());
    started.handle.stop(STOP_GRACE);
    assert!(env.socket().is_file(), "the file is left alone");
}

#[test]
fn paused_recording_answers_but_leaves_events_out_of_the_ledger() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let started = daemon::start_for(&state);
    assert_eq!(started.info.mode, DaemonMode::Own, "{:?}", started.info);
    let status_stats = || {
        state
            .daemon_status()
            .unwrap()
            .map(|s| (s.recording_paused, s.stats.events_unrecorded))
    };

    // The tray's "Pause recording" flips the switch the daemon was started with.
    state.recording.set_paused(true);
    let paused_line = Event::write("secret.txt", "2026-11-21T12:00:00.000Z")
        .envelope(&repo.root())
        .to_string();
    env.send_line(&paused_line);
    poll_until(Duration::from_secs(10), || {
        (status_stats() == Some((true, 1))).then_some(())
    })
    .unwrap_or_else(|| {
        panic!(
            "the status file counts the unrecorded event: {:?}",
            status_stats()
        )
    });
    assert!(
        !repo.ledger_path().exists(),
        "nothing was written while paused"
    );

    state.recording.set_paused(false);
    let line = Event::write("public.txt", "2026-11-21T12:01:00.000Z")
        .envelope(&repo.root())
        .to_string();
    env.send_line(&line);
    let query = repo_query(&repo);
    wait_until(Duration::from_secs(10), "recording to resume", || {
        timeline(&state, &query).unwrap().len() == 1
    });
    let rows = timeline(&state, &query).unwrap();
    assert_eq!(rows[0].record.file_path.as_deref(), Some("public.txt"));
    poll_until(Duration::from_secs(5), || {
        (status_stats() == Some((false, 1))).then_some(())
    })
    .unwrap_or_else(|| panic!("{:?}", status_stats()));
    started.handle.stop(STOP_GRACE);
}

#[test]
fn attached_app_gets_live_updates_by_polling_the_other_daemons_ledgers() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let other = {
        let _entered = runtime.enter();
        Daemon::bind(DaemonConfig::new(env.socket(), env.data_dir()))
            .expect("bind the other daemon")
    };
    let stop_other = CancellationToken::new();
    let other_task = runtime.spawn(other.run(stop_other.clone()));

    let started = daemon::start_for(&state);
    assert_eq!(
        started.info.mode,
        DaemonMode::Attached,
        "{:?}",
        started.info
    );
    let (tx, rx) = std::sync::mpsc::channel();
    assert!(started.handle.spawn(bridge::poll_attached(
        state.data_dir,
        started.handle.shutdown_token(),
        move |batch| {
            let _ = tx.send(batch);
        },
    )));
    // The first event creates the ledger after the first poll: all of it is news.
    env.send_line(
        &Event::write("a.txt", "2026-11-21T13:00:00.000Z")
            .envelope(&repo.root())
            .to_string(),
    );
    let batch = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a polled batch");
    assert_eq!(batch.notices[0].ledger, repo.ledger_path());
    assert_eq!(batch.notices[0].mutations, 1);
    assert_eq!(
        batch.notices[0].events[0].tool_name.as_deref(),
        Some("Write")
    );

    // And each later commit once.
    env.send_line(
        &Event::write("b.txt", "2026-11-21T13:01:00.000Z")
            .envelope(&repo.root())
            .to_string(),
    );
    let batch = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a second batch");
    assert_eq!(batch.notices.len(), 1);
    assert_eq!(batch.notices[0].events.len(), 1);
    assert!(
        rx.recv_timeout(Duration::from_millis(1200)).is_err(),
        "nothing is reported twice"
    );

    started.handle.stop(STOP_GRACE);
    stop_other.cancel();
    runtime.block_on(other_task).unwrap().unwrap();
}
