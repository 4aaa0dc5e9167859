#!/usr/bin/env python3
"""format-on-edit: a Claude Code PostToolUse hook for Write, Edit and
MultiEdit.

Formats the file the agent just wrote with the formatter for its type, when
that formatter is installed:

  .rs                       rustfmt (edition from the nearest Cargo.toml,
                            else 2021; fed on stdin so it never reformats
                            other files of the crate)
  .js .jsx .ts .tsx .json
  .css .scss .md .html
  .yaml .yml ...            prettier (the project's node_modules/.bin first)
  .py                       ruff format, else black (ruff when both exist:
                            it is faster and black-compatible)
  .go                       gofmt -w
  .sh .bash                 shfmt -w

Only files inside the project ($CLAUDE_PROJECT_DIR, else the session's cwd;
symlinks resolved) are touched. No formatter, an unknown type or a file that
does not exist: silent exit 0. The formatter failing, or running longer than
$HOOKD_FORMAT_TIMEOUT seconds (default 20; it is killed with its whole
process group), is a non-blocking error: exit 1 with a short message on
stderr, which the user sees. Standard library only, no network.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys

NAME = "format-on-edit"
TOOLS = {"Write", "Edit", "MultiEdit"}
PRETTIER = {
    ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".json",
    ".jsonc", ".json5", ".css", ".scss", ".less", ".md", ".markdown", ".mdx",
    ".html", ".htm", ".vue", ".yaml", ".yml", ".graphql", ".gql",
}
SHELL = {".sh", ".bash"}
# Lines of the formatter's own output repeated on stderr: enough to see why.
OUTPUT_LINES = 10


def fail(message):
    print(f"{NAME}: {message}", file=sys.stderr)
    sys.exit(1)


def timeout_secs():
    try:
        value = float(os.environ.get("HOOKD_FORMAT_TIMEOUT", "20"))
    except ValueError:
        value = 20.0
    return value if value > 0 else 20.0


def inside(path, root):
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def rust_edition(path, root):
    """The edition of the nearest Cargo.toml between the file and the root."""
    d = os.path.dirname(path)
    while inside(d, root):
        manifest = os.path.join(d, "Cargo.toml")
        if os.path.isfile(manifest):
            try:
                with open(manifest, encoding="utf-8") as f:
                    m = re.search(r'^\s*edition\s*=\s*"(\d{4})"', f.read(), re.M)
            except OSError:
                m = None
            if m:
                return m.group(1)
        if d == root:
            break
        d = os.path.dirname(d)
    return "2021"


def formatter(path, root):
    """(name, argv, feeds_stdin) for the file, or None."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".rs" and shutil.which("rustfmt"):
        return "rustfmt", ["rustfmt", "--edition", rust_edition(path, root)], True
    if ext in PRETTIER:
        local = os.path.join(root, "node_modules", ".bin", "prettier")
        prettier = local if os.access(local, os.X_OK) else shutil.which("prettier")
        if prettier:
            return "prettier", [prettier, "--write", "--log-level", "warn", path], False
    if ext == ".py":
        if shutil.which("ruff"):
            return "ruff format", ["ruff", "format", "--quiet", path], False
        if shutil.which("black"):
            return "black", ["black", "--quiet", path], False
    if ext == ".go" and shutil.which("gofmt"):
        return "gofmt", ["gofmt", "-w", path], False
    if ext in SHELL and shutil.which("shfmt"):
        return "shfmt", ["shfmt", "-w", path], False
    return None


def run(argv, cwd, stdin_bytes, limit):
    """(exit code, stdout, stderr); None as the code when it timed out."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.PIPE if stdin_bytes is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin_bytes, timeout=limit)
    except subprocess.TimeoutExpired:
        # Its own group: whatever it started dies with it.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        return None, b"", b""
    return proc.returncode, out, err


def tail(data):
    lines = data.decode("utf-8", "replace").strip().splitlines()
    return "\n".join(lines[-OUTPUT_LINES:])


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError as err:
        fail(f"hook input is not JSON: {err}")
    if not isinstance(payload, dict) or payload.get("tool_name") not in TOOLS:
        return
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return
    file_path = tool_input.get("file_path")
    if not isinstance(file_path, str) or not file_path:
        return
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else os.getcwd()
    root = os.path.realpath(os.environ.get("CLAUDE_PROJECT_DIR") or cwd)
    path = os.path.realpath(os.path.join(cwd, file_path))
    if not inside(path, root) or not os.path.isfile(path):
        return
    chosen = formatter(path, root)
    if chosen is None:
        return
    name, argv, feeds_stdin = chosen
    shown = os.path.relpath(path, root)
    limit = timeout_secs()
    original = None
    if feeds_stdin:
        try:
            with open(path, "rb") as f:
                original = f.read()
        except OSError as err:
            fail(f"cannot read {shown}: {err}")
    try:
        code, out, err = run(argv, os.path.dirname(path), original, limit)
    except OSError as err:
        fail(f"cannot run {name} on {shown}: {err}")
    if code is None:
        fail(f"{name} did not finish formatting {shown} within {limit:g}s and was stopped")
    if code != 0:
        detail = tail(err) or tail(out)
        fail(f"{name} failed on {shown} (exit {code})" + (f":\n{detail}" if detail else ""))
    if feeds_stdin and out and out != original:
        tmp = f"{path}.{NAME}.{os.getpid()}"
        try:
            with open(tmp, "wb") as f:
                f.write(out)
            shutil.copymode(path, tmp)
            os.replace(tmp, path)
        except OSError as err:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            fail(f"cannot write the formatted {shown}: {err}")


if __name__ == "__main__":
    main()
