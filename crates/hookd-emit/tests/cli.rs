//! The command-line surface: help and version on stdout, a missing event
//! type explained on stderr, and exit 0 in every case.

mod common;

use std::time::Duration;

use common::{EMIT, FakeDaemon, emitter};
use hookd_testkit::run;

#[test]
fn help_goes_to_stdout_and_sends_nothing() {
    for flag in ["--help", "-h"] {
        let daemon = FakeDaemon::start();
        let result = run(emitter(EMIT, &daemon.path, &[flag]), b"{}");
        assert_eq!(result.status.code(), Some(0), "{flag}");
        let stdout = result.stdout;
        assert!(
            stdout.starts_with("Usage: hookd-emit [--agent NAME] [--wait [--fail-closed] [--timeout SECS]] <event_type> [tool_name]"),
            "{flag}: {stdout}"
        );
        assert_eq!(result.stderr, "");
        assert_eq!(daemon.receive(Duration::from_millis(100)), None, "{flag}");
    }
}

#[test]
fn version_goes_to_stdout() {
    for flag in ["--version", "-V"] {
        let daemon = FakeDaemon::start();
        let result = run(emitter(EMIT, &daemon.path, &[flag]), b"");
        assert_eq!(result.status.code(), Some(0), "{flag}");
        assert_eq!(
            result.stdout,
            format!("hookd-emit {}\n", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(result.stderr, "");
    }
}

#[test]
fn no_arguments_explains_on_stderr_and_still_exits_0() {
    let daemon = FakeDaemon::start();
    let result = run(
        emitter(EMIT, &daemon.path, &[]),
        b"{\"tool_name\":\"Bash\"}",
    );
    result.assert_exit_0_silent_stdout();
    assert!(
        result
            .stderr
            .starts_with("hookd-emit: missing <event_type> argument"),
        "stderr: {}",
        result.stderr
    );
    assert!(
        result.stderr.contains("Usage:"),
        "stderr: {}",
        result.stderr
    );
    assert_eq!(daemon.receive(Duration::from_millis(100)), None);
}
