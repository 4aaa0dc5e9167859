#!/usr/bin/python3
"""Closes a process's windows the way a window manager does when the user
clicks the close button: a WM_DELETE_WINDOW message to each of its top-level
windows. The e2e tests run under Xvfb with no window manager, and closing the
window through WebDriver would end the WebDriver session (which kills the app),
so this is how a spec closes the window as a user would.

Usage: close-window.py PID   (exit status 1 when PID has no window)
Needs python3-xlib (scripts/setup installs it) and DISPLAY.
"""
import sys

from Xlib import X, display
from Xlib.protocol import event


def windows_of(dpy, pid):
    net_wm_pid = dpy.intern_atom("_NET_WM_PID")
    found = []
    for window in dpy.screen().root.query_tree().children:
        prop = window.get_full_property(net_wm_pid, X.AnyPropertyType)
        if prop is not None and prop.value and prop.value[0] == pid:
            found.append(window)
    return found


def main():
    pid = int(sys.argv[1])
    dpy = display.Display()
    protocols = dpy.intern_atom("WM_PROTOCOLS")
    delete = dpy.intern_atom("WM_DELETE_WINDOW")
    windows = [w for w in windows_of(dpy, pid) if w.get_attributes().map_state == X.IsViewable]
    if not windows:
        print(f"close-window: process {pid} has no visible window", file=sys.stderr)
        return 1
    for window in windows:
        message = event.ClientMessage(
            window=window, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0])
        )
        window.send_event(message)
    dpy.sync()
    print(f"close-window: asked {len(windows)} window(s) of {pid} to close", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
