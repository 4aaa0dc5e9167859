-- What the timeline needs to stay fast at millions of rows.
--
-- 1. Row counts per hour (mutation_hours, event_hours): the timeline's total,
--    its chart, its per-agent and per-tool counts and the map from a scroll
--    position to a time are sums over these few thousand rows instead of
--    scans of the history. They are derived data, kept in the same
--    transaction as the rows they count by `Ledger::append` (once per batch,
--    see `ledger::derived`), and built here from the rows already stored. `session_id` and `tool_name` hold ''
--    for none (NULLs would never conflict, and the counts would split).
CREATE TABLE mutation_hours (
    hour       TEXT    NOT NULL, -- substr(event_timestamp, 1, 13): 2026-11-21T10
    agent_id   TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    tool_name  TEXT    NOT NULL,
    hook_type  TEXT    NOT NULL,
    branch     TEXT    NOT NULL,
    rows       INTEGER NOT NULL,
    PRIMARY KEY (hour, agent_id, session_id, tool_name, hook_type, branch)
) WITHOUT ROWID;

CREATE TABLE event_hours (
    hour       TEXT    NOT NULL,
    agent_id   TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    tool_name  TEXT    NOT NULL,
    hook_type  TEXT    NOT NULL,
    branch     TEXT    NOT NULL,
    rows       INTEGER NOT NULL,
    PRIMARY KEY (hour, agent_id, session_id, tool_name, hook_type, branch)
) WITHOUT ROWID;

INSERT INTO mutation_hours
SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), tool_name, hook_type, branch, COUNT(*)
FROM mutations GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO event_hours
SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), coalesce(tool_name, ''), hook_type, branch, COUNT(*)
FROM events GROUP BY 1, 2, 3, 4, 5, 6;

-- 2. Each filter's own index, in time order: a page of one file's, one
--    agent's or one branch's rows is read from a range of its index, however
--    rare those rows are in the history. They replace the single-column
--    indexes, which the new ones cover.
DROP INDEX mutations_file_path;
DROP INDEX mutations_agent_id;
DROP INDEX mutations_branch;
CREATE INDEX mutations_file_time ON mutations(file_path, event_timestamp);
CREATE INDEX mutations_agent_time ON mutations(agent_id, event_timestamp);
CREATE INDEX mutations_session_time ON mutations(session_id, event_timestamp);
CREATE INDEX mutations_branch_time ON mutations(branch, event_timestamp);
CREATE INDEX mutations_tool_time ON mutations(tool_name COLLATE NOCASE, event_timestamp);

DROP INDEX events_agent_id;
DROP INDEX events_session_id;
CREATE INDEX events_agent_time ON events(agent_id, event_timestamp);
CREATE INDEX events_session_time ON events(session_id, event_timestamp);
CREATE INDEX events_hook_type_time ON events(hook_type, event_timestamp);
