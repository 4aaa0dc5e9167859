//! Names no other test uses: shared resources (the broker, the machine's
//! temp dir) see many test processes at once.

use std::sync::atomic::{AtomicU64, Ordering};

/// A number this process never returns twice.
pub fn unique() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `prefix` followed by the process id, the time in nanoseconds and a
/// process-unique number: unique across processes and runs.
pub fn unique_name(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    format!("{prefix}.{}.{nanos}.{}", std::process::id(), unique())
}
