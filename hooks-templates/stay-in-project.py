#!/usr/bin/env python3
"""stay-in-project: a Claude Code PreToolUse hook for Write, Edit, MultiEdit
and NotebookEdit.

Denies writing a file outside the project root ($CLAUDE_PROJECT_DIR, else
the session's cwd). Both paths are resolved with symlinks followed, so a
link inside the project that points elsewhere, or `..` segments, cannot
escape. Standard library only, no network.
"""

import json
import os
import sys

NAME = "stay-in-project"
TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
         "NotebookEdit": "notebook_path"}


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError as err:
        print(f"{NAME}: hook input is not JSON: {err}", file=sys.stderr)
        sys.exit(1)
    if not isinstance(payload, dict):
        return
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if tool not in TOOLS or not isinstance(tool_input, dict):
        return
    path = tool_input.get(TOOLS[tool])
    if not isinstance(path, str) or not path:
        return
    cwd = payload.get("cwd") or os.getcwd()
    root = os.path.realpath(os.environ.get("CLAUDE_PROJECT_DIR") or cwd)
    target = os.path.realpath(os.path.join(cwd, os.path.expanduser(path)))
    if target == root or target.startswith(root.rstrip("/") + "/"):
        return
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason":
            f"{NAME}: {tool} of {path} is blocked: it resolves to {target}, outside the "
            f"project {root}. Only change files inside the project.",
    }}))


if __name__ == "__main__":
    main()
