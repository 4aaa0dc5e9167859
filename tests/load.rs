//! Many emitters at once: every event arrives, none twice.

use std::sync::Arc;

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count};
use serde_json::json;

#[test]
fn ten_thousand_events_from_eight_concurrent_emitters_are_all_stored() {
    const EMITTERS: usize = 8;
    const PER_EMITTER: usize = 1250;
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let workers: Vec<_> = (0..EMITTERS)
        .map(|worker| {
            let env = Arc::clone(&env);
            let root = root.clone();
            std::thread::spawn(move || {
                for i in 0..PER_EMITTER {
                    let input = json!({"file_path": root.join(format!("w{worker}/f{i}.rs")), "content": "x\n"});
                    let payload = tool_payload("PostToolUse", "Write", &root, &format!("w{worker}-{i}"), input);
                    let out = env.emit(&["post_tool_use"], &payload, &root);
                    assert!(out.status.success());
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let total = i64::try_from(EMITTERS * PER_EMITTER).unwrap();
    wait_for_count(&repo, "events", total);
    assert_eq!(repo.count("events"), total);
    assert_eq!(repo.count("mutations"), total);
    let distinct = repo.distinct_mutations("tool_use_id");
    assert_eq!(distinct, total, "no duplicates, no losses");
}
