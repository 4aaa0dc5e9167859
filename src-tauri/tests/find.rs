//! Finding a change: suggestions for the filter fields, readable agent
//! names and labels, on real ledgers in real git repositories.

mod common;

use common::{DesktopEnv, repo_query};
use hookd_core::ledger::known::Field;
use hookd_core::ledger::registry::Registry;
use hookd_desktop::find::{agent_names, known_values, set_agent_label};
use hookd_testkit::{Event, GitRepo, TestEnv, record};

#[test]
fn fields_suggest_what_the_ledger_knows_most_rows_first() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let mut other = Event::write("src/lib/cart.ts", "2026-11-20T10:03:00.000Z");
    other.agent = "agent-b";
    record(
        &env,
        &repo,
        &[
            Event::write("src/cart.ts", "2026-11-20T10:01:00.000Z"),
            Event::write("src/cart.ts", "2026-11-20T10:02:00.000Z"),
            other,
            Event::write("README.md", "2026-11-20T10:04:00.000Z"),
        ],
    );
    let query = repo_query(&repo);
    let files = known_values(&state, &query, Field::File, Some("cart"), false).unwrap();
    let files: Vec<(&str, u64)> = files.iter().map(|k| (k.value.as_str(), k.rows)).collect();
    assert_eq!(files, [("src/cart.ts", 2), ("src/lib/cart.ts", 1)]);
    let agents = known_values(&state, &query, Field::Agent, None, false).unwrap();
    assert_eq!(agents.len(), 2);
    assert_eq!(agents[1].value, "agent-b");
    // A project without a ledger suggests nothing, without an error.
    let empty = GitRepo::new();
    assert!(
        known_values(&state, &repo_query(&empty), Field::File, None, false)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn agents_are_named_readably_and_a_label_wins() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let mut write = Event::write("a.txt", "2026-11-20T10:01:00.000Z");
    write.agent = "9c41d2e7-aaaa-4aaa-8aaa-000000000001";
    record(&env, &repo, &[write]);
    let query = repo_query(&repo);
    let ids = ["9c41d2e7-aaaa-4aaa-8aaa-000000000001".to_owned()];
    let names = agent_names(&state, &query, &ids).unwrap();
    assert_eq!(names[0].name, "main 9c41d2e7");
    // A name given with `hookd agents label` wins.
    Registry::open(&state.data_dir)
        .unwrap()
        .set_agent_label(&ids[0], "refactorer")
        .unwrap();
    assert_eq!(
        agent_names(&state, &query, &ids).unwrap()[0].name,
        "refactorer"
    );
}

#[test]
fn renaming_an_agent_in_the_app_names_it_and_an_empty_name_clears_it() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let mut write = Event::write("a.txt", "2026-11-20T10:01:00.000Z");
    write.agent = "77b1e0c2-bbbb-4bbb-8bbb-000000000002";
    record(&env, &repo, &[write]);
    let query = repo_query(&repo);
    let ids = ["77b1e0c2-bbbb-4bbb-8bbb-000000000002".to_owned()];
    set_agent_label(&state, &ids[0], "  reviewer ").unwrap();
    let named = &agent_names(&state, &query, &ids).unwrap()[0];
    assert_eq!(named.name, "reviewer");
    assert_eq!(named.label.as_deref(), Some("reviewer"));
    // The registry holds it: what the CLI's `hookd agents` reads too.
    let labels = Registry::open(&state.data_dir)
        .unwrap()
        .agent_labels()
        .unwrap();
    assert_eq!(labels.get(&ids[0]).map(String::as_str), Some("reviewer"));
    // Renaming again replaces the name; an empty one removes it.
    set_agent_label(&state, &ids[0], "tester").unwrap();
    assert_eq!(agent_names(&state, &query, &ids).unwrap()[0].name, "tester");
    set_agent_label(&state, &ids[0], "   ").unwrap();
    let cleared = &agent_names(&state, &query, &ids).unwrap()[0];
    assert_eq!(cleared.name, "main 77b1e0c2");
    assert_eq!(cleared.label, None);
}
