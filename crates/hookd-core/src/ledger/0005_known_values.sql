-- 1. Every file path the mutations name, with its row count and newest time
-- (derived data, kept by `Ledger::append`, see `ledger::derived`). A file filter given as part of
-- a path or as a glob (`cart.ts`, `src/**/*.ts`) is matched against these
-- paths, and the app suggests them, without a scan of the history.
CREATE TABLE mutation_files (
    file_path TEXT    NOT NULL PRIMARY KEY,
    rows      INTEGER NOT NULL,
    newest    TEXT    NOT NULL
) WITHOUT ROWID;

INSERT INTO mutation_files
SELECT file_path, COUNT(*), max(event_timestamp) FROM mutations WHERE file_path IS NOT NULL GROUP BY file_path;

-- 2. Every agent the events name, with its type (a subagent's payload says
-- `agent_type`: Explore, Plan, …; the main agent of a session has none),
-- its session and when it was first seen: what a readable agent name is
-- made of. Only an agent's first event is parsed.
CREATE TABLE agents (
    agent_id   TEXT NOT NULL PRIMARY KEY,
    agent_type TEXT,
    session_id TEXT,
    first_seen TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO agents
SELECT e.agent_id,
       CASE WHEN json_valid(e.raw_payload) THEN json_extract(e.raw_payload, '$.agent_type') END,
       e.session_id, e.event_timestamp
FROM events e JOIN (SELECT agent_id, min(id) AS id FROM events GROUP BY agent_id) f ON e.id = f.id;

-- 3. Rows per hour of each table, all agents and tools together: the
--    timeline's total and scroll map without filters (its usual view, and
--    every live poll) read one row per hour, not one per hour and agent and
--    tool (migration 0004's tables have tens of each per hour).
CREATE TABLE mutation_totals (
    hour TEXT    NOT NULL PRIMARY KEY,
    rows INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE event_totals (
    hour TEXT    NOT NULL PRIMARY KEY,
    rows INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO mutation_totals SELECT hour, SUM(rows) FROM mutation_hours GROUP BY hour;
INSERT INTO event_totals SELECT hour, SUM(rows) FROM event_hours GROUP BY hour;

