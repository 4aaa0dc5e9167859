#!/usr/bin/env python3
"""protect-secrets: a Claude Code PreToolUse hook for Read, Write, Edit,
MultiEdit and Bash.

Denies reading or writing files that hold secrets: `.env` files (templates
such as `.env.example` are allowed), private keys (`id_rsa`, `*.pem`,
`*.key`, ...) and credential files (`~/.aws/credentials`, `.netrc`,
`.git-credentials`, an `.npmrc` or `.pypirc` holding a token or password,
...). For Bash, every word of the command that names such a file is checked
(`cat .env`, `cp id_rsa /tmp`, `--env-file=.env`). Edit ALLOW to let more
files through. Standard library only, no network.
"""

import json
import os
import re
import shlex
import sys

NAME = "protect-secrets"
# File names always allowed, even though they look like secrets.
ALLOW = {".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults",
         ".env.schema"}
KEY_NAMES = {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"}
KEY_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore")
CREDENTIAL_NAMES = {".netrc", "_netrc", ".git-credentials", ".pgpass", "credentials.json",
                    "service-account.json"}
CREDENTIAL_PATHS = (".aws/credentials", ".docker/config.json", ".kube/config",
                    ".config/gh/hosts.yml", ".gnupg/")
TOKEN_FILES = {".npmrc", ".pypirc", ".yarnrc.yml"}
TOKEN_RE = re.compile(r"_authToken|_auth\s*=|password|token", re.IGNORECASE)
FILE_TOOLS = {"Read", "Write", "Edit", "MultiEdit"}


def deny(reason):
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }}))
    sys.exit(0)


def secret_kind(path, cwd):
    """What kind of secret `path` is, or None."""
    base = os.path.basename(path.rstrip("/"))
    if base in ALLOW:
        return None
    if base == ".env" or base.startswith(".env.") or re.match(r"^[\w-]+\.env$", base):
        return "an environment file with secrets"
    if base in KEY_NAMES or base.endswith(KEY_SUFFIXES):
        return "a private key"
    norm = path.replace("\\", "/")
    if base in CREDENTIAL_NAMES or any(norm.endswith(p) or ("/" + p) in norm or norm.startswith(p)
                                       for p in CREDENTIAL_PATHS):
        return "a credentials file"
    if base in TOKEN_FILES:
        full = os.path.join(cwd, os.path.expanduser(path))
        try:
            with open(full, encoding="utf-8", errors="replace") as f:
                if TOKEN_RE.search(f.read(1 << 20)):
                    return "a package-registry config holding a token"
        except OSError:
            return None
    return None


def check(tool, path, cwd):
    kind = secret_kind(path, cwd)
    if kind:
        deny(f"{NAME}: {tool} of {path} is blocked: it looks like {kind}. "
             "Do not read or write secrets; use a template such as .env.example, "
             "or ask the user for the value you need.")


def words_of(command):
    lex = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lex.whitespace = " \t\r"
    lex.whitespace_split = True
    try:
        return list(lex)
    except ValueError:
        return command.split()


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
    if not isinstance(tool_input, dict):
        return
    cwd = payload.get("cwd") or os.getcwd()
    if tool in FILE_TOOLS:
        path = tool_input.get("file_path")
        if isinstance(path, str) and path:
            check(tool, path, cwd)
    elif tool == "Bash":
        command = tool_input.get("command")
        if not isinstance(command, str):
            return
        check_bash(command, cwd, 0)


def check_bash(command, cwd, depth):
    for word in words_of(command):
        for part in [word] + word.split("=")[1:]:
            if part and not part.startswith("-") and not set(part) <= set(";&|()<>\n"):
                check("Bash", part, cwd)
        # A quoted "$(...)" or `...` is one word above; its commands count too.
        if depth < 3:
            for inner in re.findall(r"\$\(([^()]*)\)|`([^`]*)`", word):
                for text in inner:
                    if text:
                        check_bash(text, cwd, depth + 1)


if __name__ == "__main__":
    main()
