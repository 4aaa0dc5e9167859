#!/usr/bin/env python3
"""stop-run-tests: a Claude Code Stop hook.

When the agent is about to finish, runs the project's tests (or linter).
If they fail, exits 2 with the last 60 lines of their output on stderr:
for a Stop hook that means "keep going", and the model sees the output and
fixes what broke. If they pass, or nothing is configured or detected, it
exits 0 silently.

Loop guard: when the payload says `stop_hook_active: true` (the agent is
already continuing because of a Stop hook) it exits 0 at once, so a test
suite the agent cannot fix never keeps it running forever.

The command, first found wins:
  1. $HOOKD_STOP_TEST_COMMAND
  2. the first line of <project>/.hookd/stop-test-command that is neither
     blank nor a `#` comment (commit it to share it with the team)
  3. detection in the project root, when the tool is installed:
       Cargo.toml                         cargo test --quiet
       package.json with a "test" script  npm test --silent
       pyproject.toml/pytest.ini/setup.cfg python3 -m pytest -q
                                          (pytest importable; "no tests
                                          collected" counts as passing)
       go.mod                             go test ./...
       Makefile with a test target        make test

It runs with `sh -c` in the project root ($CLAUDE_PROJECT_DIR, else the
session's cwd), stdout and stderr together, for at most
$HOOKD_STOP_TEST_TIMEOUT seconds (default 540, under the hook's 600 s); a
run that takes longer is killed with its process group and reported as a
non-blocking error (exit 1), since a hang is not something to loop on.
Standard library only, no network.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

NAME = "stop-run-tests"
TAIL_LINES = 60
COMMAND_FILE = os.path.join(".hookd", "stop-test-command")
# pytest's exit code when it found no test at all.
PYTEST_NO_TESTS = 5


def timeout_secs():
    try:
        value = float(os.environ.get("HOOKD_STOP_TEST_TIMEOUT", "540"))
    except ValueError:
        value = 540.0
    return value if value > 0 else 540.0


def command_from_file(root):
    try:
        with open(os.path.join(root, COMMAND_FILE), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    return line
    except OSError:
        pass
    return None


def has_npm_test(root):
    try:
        with open(os.path.join(root, "package.json"), encoding="utf-8") as f:
            scripts = json.load(f).get("scripts") or {}
    except (OSError, ValueError, AttributeError):
        return False
    test = scripts.get("test") if isinstance(scripts, dict) else None
    # `npm init` writes a test script that only fails: not a test suite.
    return isinstance(test, str) and test.strip() != "" and "no test specified" not in test


def has_pytest():
    try:
        return subprocess.run(
            ["python3", "-c", "import pytest"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=20,
        ).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def has_make_test(root):
    for name in ("GNUmakefile", "makefile", "Makefile"):
        try:
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        # A rule `test:` (or `test other:`), not an assignment `test := ...`.
        return re.search(r"^test(\s+[^:=\s]+)*\s*:(?!=)", text, re.M) is not None
    return False


def detect(root):
    """(command, pytest?) for the project, or (None, False)."""
    exists = lambda name: os.path.isfile(os.path.join(root, name))
    if exists("Cargo.toml") and shutil.which("cargo"):
        return "cargo test --quiet", False
    if exists("package.json") and shutil.which("npm") and has_npm_test(root):
        return "npm test --silent", False
    if any(exists(n) for n in ("pyproject.toml", "pytest.ini", "setup.cfg")) and has_pytest():
        return "python3 -m pytest -q", True
    if exists("go.mod") and shutil.which("go"):
        return "go test ./...", False
    if shutil.which("make") and has_make_test(root):
        return "make test", False
    return None, False


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    if payload.get("stop_hook_active") is True:
        return
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    root = os.environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()
    if not os.path.isdir(root):
        return
    pytest = False
    command = os.environ.get("HOOKD_STOP_TEST_COMMAND", "").strip() or command_from_file(root)
    if not command:
        command, pytest = detect(root)
    if not command:
        return
    limit = timeout_secs()
    # Output goes to a file, not a pipe: a test suite printing megabytes
    # never fills a pipe nobody reads, and only the tail is kept.
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            ["sh", "-c", command], cwd=root, stdin=subprocess.DEVNULL,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            print(f"{NAME}: `{command}` did not finish within {limit:g}s and was stopped",
                  file=sys.stderr)
            sys.exit(1)
        if code == 0 or (pytest and code == PYTEST_NO_TESTS):
            return
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").rstrip("\n").splitlines()
    if lines:
        note = f" (last {TAIL_LINES} of {len(lines)} lines)" if len(lines) > TAIL_LINES else ""
        output = f"Output{note}:\n" + "\n".join(lines[-TAIL_LINES:])
    else:
        output = "It printed nothing."
    print(f"{NAME}: `{command}` failed with exit code {code}. Fix the failures before "
          f"finishing. {output}", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
