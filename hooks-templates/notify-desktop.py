#!/usr/bin/env python3
"""notify-desktop: a Claude Code Notification hook.

Shows the agent's notification (it needs permission, or has been waiting
for input) as a desktop notification: `notify-send "Claude Code"
"<message>"`. Where notify-send is not installed it does nothing. It never
blocks or fails the agent: it always exits 0 with no output, and gives
notify-send at most 5 seconds (it can hang without a notification daemon).
Standard library only, no network.
"""

import json
import shutil
import subprocess
import sys

TITLE = "Claude Code"
FALLBACK = "Claude Code needs your attention"
MAX_CHARS = 500
SEND_TIMEOUT = 5


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    notify = shutil.which("notify-send")
    if not notify:
        return
    message = payload.get("message")
    if not isinstance(message, str) or not message.strip():
        message = payload.get("title") if isinstance(payload.get("title"), str) else ""
    message = message.strip() or FALLBACK
    if len(message) > MAX_CHARS:
        message = message[:MAX_CHARS - 1] + "…"
    try:
        # `--` so a message starting with `-` is never read as an option.
        subprocess.run(
            [notify, "--", TITLE, message], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=SEND_TIMEOUT,
        )
    except (OSError, subprocess.SubprocessError):
        pass


if __name__ == "__main__":
    main()
