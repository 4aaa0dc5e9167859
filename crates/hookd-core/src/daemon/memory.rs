//! Gives the memory a burst needed back to the system once the daemon has
//! gone idle after it.
//!
//! Under a burst the connection tasks parse lines much faster than the
//! ingest thread commits them, so thousands of parsed events wait in the
//! queue at once (a 20,000-event burst: about 70 MiB, on the async workers'
//! malloc arenas). The ingest thread frees them a moment later, but glibc's
//! allocator gives an arena's free pages back to the system only from the
//! top of the arena, and a single small allocation made during the burst
//! (a timer, a journal segment, a task) pins everything below it. Measured
//! on `hookd daemon` alone (2026-11-26): 12 MiB RSS before a 20,000-event
//! burst, 82–95 MiB at its peak and still 82–95 MiB 15 s later, of which
//! glibc's own statistics counted 8 MiB in use; capping the arenas
//! (`glibc.malloc.arena_max=1` or `2`) changed nothing, because the pages
//! are held by fragmentation, not spread over arenas. `malloc_trim(0)`
//! returns every whole free page of every arena (`madvise`), which brought
//! the same daemon back to 25 MiB.
//!
//! So the daemon calls it from one place: [`release_when_idle`] watches the
//! daemon's counters and, once a second has passed without a line, a
//! connection or a commit after at least [`MIN_WORK`] of them, releases
//! the free pages on a blocking thread. It never runs while events flow,
//! so the hot path pays nothing; an idle daemon does not call it at all.
//!
//! A process that does other work beside the daemon watches that work the
//! same way with [`release_after_work`]: the desktop app's window keeps
//! reading the burst's rows (pages, charts, their JSON for the web view)
//! for a while after the daemon went idle, and what those reads freed
//! stayed resident (measured at 1M rows, 2026-11-27: 60 MiB of the app's
//! 65 MiB growth over a 20,000-event burst, given back by one late trim).
//!
//! What a trim cannot return is a page with something live on it, and
//! every arena keeps some after a burst; the desktop app, whose many
//! threads would each get an arena, caps them with [`limit_arenas`]
//! (2026-11-29: +30 → +19–24 MiB kept after a burst). The daemon on its
//! own is not capped: its growth was free pages.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::daemon::stats::DaemonStats;

/// How long the daemon must have done nothing before the free pages are
/// released (and how often it looks).
pub const IDLE_CHECK: Duration = Duration::from_secs(1);

/// Lines, connections and commits since the last release below which going
/// idle releases nothing: a few events strand a few KiB, not worth a walk
/// over every arena and the page faults that bring the pages back.
pub const MIN_WORK: u64 = 1_000;

/// Decides when to release, from samples of a counter that only grows.
#[derive(Debug, Default)]
pub struct IdleRelease {
    last_seen: u64,
    since_release: u64,
}

impl IdleRelease {
    /// Takes the counter's value at one check; true when the daemon has
    /// done nothing since the previous check and at least [`MIN_WORK`]
    /// since the last release (which the caller then performs).
    pub fn observe(&mut self, activity: u64) -> bool {
        let new = activity.saturating_sub(self.last_seen);
        self.last_seen = activity;
        if new > 0 {
            self.since_release = self.since_release.saturating_add(new);
            return false;
        }
        if self.since_release < MIN_WORK {
            return false;
        }
        self.since_release = 0;
        true
    }
}

/// Everything the daemon counts as work: connections, lines accepted or
/// rejected, events committed or replayed, and a background check that
/// ended, which counts as [`MIN_WORK`]: it frees the copy of what was
/// written meanwhile (up to 64 MiB, [`crate::ledger::sink`]), and the burst
/// that filled it may have been released long before.
fn activity(stats: &DaemonStats) -> u64 {
    stats.connections.load(Ordering::Relaxed)
        + stats.lines_accepted.load(Ordering::Relaxed)
        + stats.rejected_total()
        + stats.events_stored.load(Ordering::Relaxed)
        + stats.events_replayed.load(Ordering::Relaxed)
        + stats.checks_ended.load(Ordering::Relaxed) * MIN_WORK
}

/// Checks every [`IDLE_CHECK`] until `shutdown` and releases the free
/// pages whenever [`IdleRelease`] says so of the daemon's work.
pub async fn release_when_idle(stats: Arc<DaemonStats>, shutdown: CancellationToken) {
    release_after_work(move || activity(&stats), shutdown).await;
}

/// [`release_when_idle`] for any work: `work` reads a counter that only
/// grows (units of about one event's memory, a row read say).
pub async fn release_after_work(work: impl Fn() -> u64 + Send, shutdown: CancellationToken) {
    let mut ticks = tokio::time::interval(IDLE_CHECK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut idle = IdleRelease::default();
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = shutdown.cancelled() => return,
        }
        if !idle.observe(work()) {
            continue;
        }
        let started = Instant::now();
        match tokio::task::spawn_blocking(release_free_memory).await {
            Ok(released) => tracing::debug!(
                released,
                took_us = started.elapsed().as_micros() as u64,
                "idle after work: gave the allocator's free pages back"
            ),
            Err(err) => tracing::warn!(error = %err, "releasing free memory failed"),
        }
    }
}

/// The malloc arenas the desktop app allows itself (see [`limit_arenas`]).
pub const APP_ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at `arenas` for the rest of the process; true
/// when glibc took the setting. Threads that allocate share these arenas
/// instead of each getting its own (glibc allows eight per core): after a
/// burst every arena keeps the pages its few long-lived allocations sit on
/// (a trim cannot return a page with anything live on it), so fewer arenas
/// keep fewer such pages. Measured on the desktop app (2026-11-29, empty
/// project, 20,000-event burst, `docs/benchmarks.md`): its process kept
/// +30 MiB two minutes after the burst with glibc's default, +19 MiB with
/// two arenas. The daemon on its own gains nothing from it (its growth was
/// free pages, which [`release_free_memory`] returns), so only the app
/// calls this. Call it first thing in `main`, before threads start.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(
    unsafe_code,
    reason = "mallopt is a C function; no safe binding exists"
)]
pub fn limit_arenas(arenas: i32) -> bool {
    // SAFETY: mallopt takes two integers and no pointer; glibc takes the
    // main arena's lock while it changes the setting.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) == 1 }
}

/// Caps the allocator's arenas; does nothing off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_arenas(_arenas: i32) -> bool {
    false
}

/// Gives every whole free page the allocator holds back to the system
/// (glibc's `malloc_trim(0)`); true when something was released. Does
/// nothing elsewhere (musl, macOS): those allocators return memory
/// themselves or have no such call.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(
    unsafe_code,
    reason = "malloc_trim is a C function; no safe binding exists"
)]
pub fn release_free_memory() -> bool {
    // SAFETY: malloc_trim takes no pointer and is MT-safe: glibc locks each
    // arena while it walks it, as malloc and free do.
    unsafe { libc::malloc_trim(0) == 1 }
}

/// Gives every whole free page the allocator holds back to the system;
/// does nothing off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_memory() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn glibc_takes_the_arena_cap() {
        assert!(limit_arenas(APP_ARENAS));
    }

    #[test]
    fn releases_once_after_work_then_idle() {
        let mut idle = IdleRelease::default();
        // Nothing happened: nothing to release, however long it stays idle.
        assert!(!idle.observe(0));
        assert!(!idle.observe(0));
        // A burst over several checks: never while it flows.
        for activity in [500, 1_500, 40_000] {
            assert!(!idle.observe(activity), "released during work");
        }
        // The first quiet check releases, later ones do not again.
        assert!(idle.observe(40_000));
        assert!(!idle.observe(40_000));
        assert!(!idle.observe(40_000));
    }

    #[test]
    fn a_trickle_below_the_minimum_releases_nothing_until_it_adds_up() {
        let mut idle = IdleRelease::default();
        let mut activity = 0;
        for _ in 0..(MIN_WORK / 100 - 1) {
            activity += 100;
            assert!(!idle.observe(activity));
            assert!(!idle.observe(activity), "released after only {activity}");
        }
        activity += 100;
        assert!(!idle.observe(activity));
        assert!(idle.observe(activity), "{activity} of work, then idle");
    }

    #[test]
    fn a_check_that_ends_is_enough_work_for_a_release() {
        let stats = DaemonStats::default();
        let (a, b) = (
            std::path::PathBuf::from("/a"),
            std::path::PathBuf::from("/b"),
        );
        stats.set_ledgers_being_checked(vec![a.clone(), b]);
        let mut idle = IdleRelease::default();
        assert!(!idle.observe(activity(&stats)));
        // b's check ended (the daemon otherwise idle): released once.
        stats.set_ledgers_being_checked(vec![a]);
        assert_eq!(stats.checks_ended.load(Ordering::Relaxed), 1);
        assert!(!idle.observe(activity(&stats)));
        assert!(idle.observe(activity(&stats)));
        assert!(!idle.observe(activity(&stats)));
        // The same list again is not another ended check.
        stats.set_ledgers_being_checked(vec![std::path::PathBuf::from("/a")]);
        assert_eq!(stats.checks_ended.load(Ordering::Relaxed), 1);
    }

    /// Resident anonymous memory of this process, in bytes.
    fn rss_anon() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kib: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("RssAnon:"))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
            .unwrap();
        kib * 1024
    }

    /// The daemon's pattern in small: many events' worth of small blocks,
    /// something small allocated after them and still alive, every block
    /// freed. The pages stay resident until released. All on this thread
    /// (none ends in between: a thread's exit frees its cache of blocks,
    /// which can let its arena shrink on its own).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn free_pages_held_after_a_burst_go_back_to_the_system() {
        const BLOCKS: usize = 128 * 1024;
        const BLOCK: usize = 1024;
        // Sized once: a growing vector would free its old buffers between
        // the blocks, and the pin could land in one of them.
        let mut blocks: Vec<Vec<u8>> = Vec::with_capacity(BLOCKS);
        for i in 0..BLOCKS {
            blocks.push(vec![i as u8; BLOCK]);
        }
        // Allocated after the blocks, so above them in the arena.
        let pin = std::hint::black_box(vec![1u8; 64]);
        drop(blocks);
        let freed = rss_anon();
        let held = (BLOCKS * BLOCK) as u64;
        assert!(release_free_memory(), "nothing was released");
        let after = rss_anon();
        // At least half of what the blocks held goes back.
        assert!(
            freed.saturating_sub(after) >= held / 2,
            "RSS {} MiB after freeing {} MiB, {} MiB after releasing",
            freed >> 20,
            held >> 20,
            after >> 20
        );
        drop(pin);
    }
}
