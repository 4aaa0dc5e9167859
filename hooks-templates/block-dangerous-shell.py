#!/usr/bin/env python3
"""block-dangerous-shell: a Claude Code PreToolUse hook for the Bash tool.

Denies commands that destroy a machine or a project in one stroke:
recursive deletes (or recursive chmod/chown) of /, system directories, the
home directory, the project root or a directory holding either; fork bombs;
downloads piped into a shell; dd or redirection onto a disk device; mkfs.
Everything else is allowed silently (exit 0, no output).

The command is tokenized the way a POSIX shell would (shlex), so quoting and
spacing tricks (`rm  -rf   "/"`, `rm -r -f /`, `sudo rm -fr /*`) are seen
through, and `;`, `&&`, `||`, `|`, subshells and `$(...)` split it into the
simple commands that are each checked. `sh -c '...'` and `eval` are checked
recursively. Standard library only, no network.
"""

import json
import os
import re
import shlex
import sys

NAME = "block-dangerous-shell"
SEPARATORS = {";", "&", "&&", "|", "||", "|&", "(", ")", "\n", ";;", "$("}
PIPES = {"|", "|&"}
REDIRECTS = {">", ">>", ">|", "&>", "&>>", "1>", "2>"}
# Words that run the next word as a command; their own options are skipped.
WRAPPERS = {"sudo", "doas", "command", "exec", "nohup", "time", "nice", "ionice",
            "env", "builtin", "stdbuf", "timeout", "chronic", "then", "do", "else",
            "if", "elif", "while", "until", "!", "{", "}", "xargs"}
# Options of wrappers that take a value.
WRAPPER_VALUE_OPTS = {"-u", "-g", "-C", "-n", "-c", "-s", "-k", "-o", "-e", "-i", "-p", "-L", "-I"}
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"}
INTERPRETERS = SHELLS | {"python", "python3", "perl", "ruby", "node"}
DOWNLOADERS = {"curl", "wget", "fetch", "aria2c"}
SYSTEM_DIRS = {"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64",
               "/opt", "/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var",
               "/Applications", "/Library", "/System", "/Users", "/Volumes", "/private"}
SAFE_DEVICES = re.compile(r"^/dev/(null|zero|stdout|stderr|stdin|tty|random|urandom|fd/\d+)$")
FORK_BOMB = re.compile(r"(?:^|[;&|\s(])([^\s();&|]+)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&")


def deny(reason):
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }}))
    sys.exit(0)


def tokenize(command):
    """Shell words and operators; newlines are operators too. None when unbalanced."""
    lex = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lex.whitespace = " \t\r"
    lex.whitespace_split = True
    lex.commenters = "#"
    try:
        return list(lex)
    except ValueError:
        return None


def segments(tokens):
    """Simple commands with the operator that followed each."""
    out, cur = [], []
    for tok in tokens:
        if tok in SEPARATORS or (tok and set(tok) <= set(";&|()\n")):
            out.append((cur, tok))
            cur = []
        else:
            cur.append(tok)
    out.append((cur, None))
    return out


def strip_redirects(words):
    """The words without `> file` / `< file` pairs; the targets returned apart."""
    kept, targets, i = [], [], 0
    while i < len(words):
        w = words[i]
        if w and set(w) <= set("<>&0123456789") and ("<" in w or ">" in w):
            if i + 1 < len(words):
                if ">" in w:
                    targets.append(words[i + 1])
                i += 2
                continue
        kept.append(w)
        i += 1
    return kept, targets


def command_words(words):
    """The words from the real command on: env assignments and wrappers skipped."""
    i = 0
    while i < len(words):
        w = words[i]
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w):
            i += 1
            continue
        base = os.path.basename(w)
        if base in WRAPPERS:
            i += 1
            while i < len(words) and words[i].startswith("-"):
                opt = words[i]
                i += 1
                if opt in WRAPPER_VALUE_OPTS and i < len(words):
                    i += 1
            if base == "timeout" and i < len(words) and re.match(r"^\d", words[i]):
                i += 1
            continue
        return [os.path.basename(w)] + words[i + 1:]
    return []


def expand(target, home, project, cwd):
    """A path operand as the shell would see it (vars and ~ expanded), absolute and normalized."""
    t = target
    for var in ("HOME",):
        t = re.sub(r"\$\{?%s\}?(?![A-Za-z0-9_])" % var, home, t)
    for var in ("CLAUDE_PROJECT_DIR", "PWD"):
        t = re.sub(r"\$\{?%s\}?(?![A-Za-z0-9_])" % var, project if var != "PWD" else cwd, t)
    if t == "~" or t.startswith("~/"):
        t = home + t[1:]
    # Deleting every entry of a directory is deleting the directory's content.
    while True:
        stripped = re.sub(r"(^|/)(\*|\.\*|\.)$", r"\1", t)
        if stripped == t:
            break
        t = stripped
    if t == "":
        t = "."
    if not t.startswith("/"):
        t = os.path.join(cwd, t)
    t = os.path.normpath(t)
    if t.startswith("//"):
        t = "/" + t.lstrip("/")
    return t


def protected(path, home, project):
    """Why deleting `path` recursively is catastrophic, or None."""
    def contains(outer, inner):
        return inner == outer or inner.startswith(outer.rstrip("/") + "/")

    candidates = {path, os.path.realpath(path)}
    places = [("your home directory", d) for d in {home, os.path.realpath(home)} if home]
    places += [("the project root", d) for d in {project, os.path.realpath(project)} if project]
    if "/" in candidates:
        return "the filesystem root"
    for label, d in places:
        if d in candidates:
            return label
    for p in candidates:
        if p in SYSTEM_DIRS:
            return "the system directory " + p
    for label, d in places:
        if any(contains(p, d) for p in candidates):
            return "a directory that contains " + label
    return None


def recursive(args, long_names):
    for a in args:
        if a == "--":
            break
        if a.startswith("--"):
            if a in long_names:
                return True
        elif a.startswith("-") and ("r" in a[1:] or "R" in a[1:]):
            return True
    return False


def operands(args):
    out, opts_done = [], False
    for a in args:
        if not opts_done and a == "--":
            opts_done = True
        elif opts_done or not a.startswith("-") or a == "-":
            out.append(a)
    return out


def check_simple(words, ctx, depth):
    words, redirect_targets = strip_redirects(words)
    for t in redirect_targets:
        if t.startswith("/dev/") and not SAFE_DEVICES.match(t):
            deny(f"{NAME}: writing to the device {t} would overwrite a disk. "
                 "Write to a regular file instead.")
    cw = command_words(words)
    if not cw:
        return
    cmd, args = cw[0], cw[1:]
    if cmd in SHELLS or cmd == "eval":
        script = None
        if cmd == "eval":
            script = " ".join(args)
        else:
            for i, a in enumerate(args):
                if a.startswith("-") and not a.startswith("--") and "c" in a[1:]:
                    if i + 1 < len(args):
                        script = args[i + 1]
                    break
        if script is not None:
            if re.search(r"\$\(\s*(curl|wget)\b|`\s*(curl|wget)\b", script):
                deny(f"{NAME}: `{cmd}` would run a script downloaded from the network "
                     "without review. Download it to a file, read it, then run it.")
            check_command(script, ctx, depth + 1)
        return
    if cmd == "rm":
        if recursive(args, {"--recursive"}):
            for op in operands(args):
                why = protected(expand(op, *ctx), ctx[0], ctx[1])
                if why:
                    deny(f"{NAME}: `rm` would recursively delete {why} ({op}). "
                         "Delete specific files or subdirectories inside the project instead.")
        return
    if cmd in ("chmod", "chown", "chgrp"):
        if recursive(args, {"--recursive"}):
            ops = operands(args)[1:]  # the first operand is the mode or owner
            for op in ops:
                why = protected(expand(op, *ctx), ctx[0], ctx[1])
                if why:
                    deny(f"{NAME}: `{cmd} -R` would change the permissions of every file in "
                         f"{why} ({op}). Change only the files that need it.")
        return
    if cmd == "dd":
        for a in args:
            if a.startswith("of=/dev/") and not SAFE_DEVICES.match(a[3:]):
                deny(f"{NAME}: `dd` would overwrite the device {a[3:]}. "
                     "Write images to a regular file instead.")
        return
    if cmd in ("mkfs", "mke2fs", "mkswap", "wipefs") or cmd.startswith("mkfs."):
        deny(f"{NAME}: `{cmd}` formats a disk or partition and destroys its data. "
             "Ask the user to do this themselves.")


def check_command(command, ctx, depth=0):
    if depth > 5:
        return
    if FORK_BOMB.search(command):
        deny(f"{NAME}: this is a fork bomb; it would exhaust the machine's processes. "
             "Do not run it.")
    if re.search(r"(?:^|[\s;&|(])(?:\S*/)?(?:%s|source|\.)\s+<\(\s*(?:\S*/)?(?:curl|wget)\b"
                 % "|".join(sorted(SHELLS)), command):
        deny(f"{NAME}: a shell would run a script downloaded from the network without "
             "review. Download it to a file, read it, then run it.")
    tokens = tokenize(command)
    if tokens is None:
        return  # unbalanced quotes: the shell would refuse to run it as well
    segs = segments(tokens)
    downloading = False
    for words, op in segs:
        cw = command_words(strip_redirects(words)[0])
        name = cw[0] if cw else ""
        if downloading and name in INTERPRETERS:
            deny(f"{NAME}: piping a download into `{name}` runs code from the network "
                 "without review. Download it to a file, read it, then run it.")
        if op in PIPES:
            downloading = downloading or name in DOWNLOADERS
        else:
            downloading = False
        check_simple(words, ctx, depth)
    # Quoted command substitutions ("$(...)", `...`) are single words above.
    for inner in re.findall(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`", command):
        for text in inner:
            if text:
                check_command(text, ctx, depth + 1)


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError as err:
        print(f"{NAME}: hook input is not JSON: {err}", file=sys.stderr)
        sys.exit(1)
    if not isinstance(payload, dict) or payload.get("tool_name") != "Bash":
        return
    tool_input = payload.get("tool_input") or {}
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return
    cwd = payload.get("cwd") or os.getcwd()
    project = os.environ.get("CLAUDE_PROJECT_DIR") or cwd
    home = os.environ.get("HOME") or os.path.expanduser("~")
    check_command(command, (os.path.normpath(home), os.path.normpath(project), cwd))


if __name__ == "__main__":
    main()
