//! The `hookd-desktop` binary: everything is in the library (`hookd_desktop::run`).
//!
//! `--version` and `--help` are answered here, before any GUI library is
//! touched, so they work without a display (packaging checks run them).

// No console window on Windows release builds; harmless elsewhere.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

const USAGE: &str = "\
hookd-desktop: hookd's desktop app (tray, in-process daemon, window)

Usage: hookd-desktop [--hidden] [--open ROUTE]

Options:
  --hidden       Start in the tray without opening the window (the login entry passes it)
  --open ROUTE   Open this screen first, e.g. --open 'timeline?repo=/src/app'
  -h, --help     Print this help
  -V, --version  Print the version

Environment:
  HOOKD_SOCKET=PATH     The daemon's socket (default: $XDG_RUNTIME_DIR/hookd.sock)
  HOOKD_DATA_DIR=DIR    Registry and ledgers (default: ~/.local/share/hookd)
  HOOKD_LOG=FILTER      Log filter for stderr (default: info)
  HOOKD_NO_TRAY=1       Run without a tray icon (closing the window then quits)
  HOOKD_DESKTOP_GPU=1   Leave WebKitGTK's hardware acceleration on (the window
                        renders on the CPU otherwise, which takes less memory)";

fn main() {
    // Only a lone first argument counts, so a route can never be taken for one.
    match std::env::args().nth(1).as_deref() {
        Some("-V" | "--version") => {
            println!("hookd-desktop {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        Some("-h" | "--help") => {
            println!("{USAGE}");
            return;
        }
        _ => {}
    }
    if let Err(err) = hookd_desktop::run() {
        eprintln!("hookd-desktop: {err}");
        std::process::exit(1);
    }
}
