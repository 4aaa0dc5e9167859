//! The `hookd-desktop` binary: everything is in the library (`hookd_desktop::run`).

// No console window on Windows release builds; harmless elsewhere.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    if let Err(err) = hookd_desktop::run() {
        eprintln!("hookd-desktop: {err}");
        std::process::exit(1);
    }
}
