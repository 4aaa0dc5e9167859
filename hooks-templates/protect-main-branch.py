#!/usr/bin/env python3
"""protect-main-branch: a Claude Code PreToolUse hook for the Bash tool.

Denies `git commit` while the repository is on main or master, and any
force push (`--force`, `-f`, `--force-with-lease`, `--force-if-includes`,
a `+refspec`) from main/master or onto main/master. The branch is read with
`git -C <dir> rev-parse --abbrev-ref HEAD`, where <dir> is the command's
`git -C` directory or the session's cwd. Outside a git repository nothing
is denied. Standard library only, no network.
"""

import json
import os
import shlex
import subprocess
import sys

NAME = "protect-main-branch"
PROTECTED = {"main", "master"}
SEPARATORS = set(";&|()\n")
# git options that take a value as the next word.
GIT_VALUE_OPTS = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}


def deny(reason):
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }}))
    sys.exit(0)


def simple_commands(command):
    lex = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lex.whitespace = " \t\r"
    lex.whitespace_split = True
    try:
        tokens = list(lex)
    except ValueError:
        return []
    out, cur = [], []
    for tok in tokens:
        if tok and set(tok) <= SEPARATORS:
            out.append(cur)
            cur = []
        else:
            cur.append(tok)
    out.append(cur)
    return out


def branch(directory):
    try:
        res = subprocess.run(["git", "-C", directory, "rev-parse", "--abbrev-ref", "HEAD"],
                             capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def check_git(words, cwd):
    # Skip env assignments and sudo-like wrappers before git.
    while words and ("=" in words[0].split("/")[0] or words[0] in ("sudo", "command", "env")):
        words = words[1:]
    if not words or os.path.basename(words[0]) != "git":
        return
    i, directory = 1, cwd
    while i < len(words) and words[i].startswith("-"):
        opt = words[i]
        if opt in GIT_VALUE_OPTS and i + 1 < len(words):
            if opt == "-C":
                directory = os.path.join(directory, words[i + 1])
            i += 2
        else:
            i += 1
    if i >= len(words):
        return
    sub, args = words[i], words[i + 1:]
    if sub not in ("commit", "push"):
        return
    current = branch(directory)
    if sub == "commit":
        if current in PROTECTED:
            deny(f"{NAME}: committing directly on {current} is blocked. Create a branch first "
                 "(git switch -c <topic>) and commit there.")
        return
    force = any(a in ("--force", "-f", "--force-if-includes") or a.startswith("--force-with-lease")
                or (a.startswith("-") and not a.startswith("--") and "f" in a[1:])
                for a in args)
    plus = [a for a in args if a.startswith("+")]
    if not force and not plus:
        return
    refs = [a.lstrip("+").split(":")[-1] for a in args if not a.startswith("-")][1:]
    targets = {r.removeprefix("refs/heads/") for r in refs}
    if current in PROTECTED or targets & PROTECTED:
        hit = sorted(targets & PROTECTED)[0] if targets & PROTECTED else current
        deny(f"{NAME}: force-pushing {hit} is blocked; it rewrites history others rely on. "
             "Push without --force, or push to another branch.")


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError as err:
        print(f"{NAME}: hook input is not JSON: {err}", file=sys.stderr)
        sys.exit(1)
    if not isinstance(payload, dict) or payload.get("tool_name") != "Bash":
        return
    tool_input = payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return
    cwd = payload.get("cwd") or os.getcwd()
    for words in simple_commands(command):
        check_git(words, cwd)


if __name__ == "__main__":
    main()
