#!/usr/bin/env python3
"""log-bash-commands: a Claude Code PostToolUse hook for the Bash tool.

Appends one JSON line per command the agent ran to
`$CLAUDE_PROJECT_DIR/.hookd/bash-commands.jsonl` (time in UTC, session,
cwd, command, description), so what the agent did in a shell can be read
back later. Never changes what the agent does: it prints nothing, and a
failure to write is a non-blocking error (exit 1). Standard library only,
no network.
"""

import datetime
import json
import os
import sys

NAME = "log-bash-commands"
LOG = os.path.join(".hookd", "bash-commands.jsonl")


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError as err:
        print(f"{NAME}: hook input is not JSON: {err}", file=sys.stderr)
        sys.exit(1)
    if not isinstance(payload, dict) or payload.get("tool_name") != "Bash":
        return
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return
    root = os.environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or os.getcwd()
    record = {
        "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
        "session_id": payload.get("session_id"),
        "cwd": payload.get("cwd"),
        "command": tool_input["command"],
        "description": tool_input.get("description"),
    }
    path = os.path.join(root, LOG)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # One write of one line in append mode: concurrent hooks never interleave.
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    except OSError as err:
        print(f"{NAME}: cannot append to {path}: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
