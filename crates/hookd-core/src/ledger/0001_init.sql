-- Every hook event, so an agent's whole activity can be shown later.
CREATE TABLE events (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        TEXT    NOT NULL UNIQUE,
    hook_type       TEXT    NOT NULL,
    tool_name       TEXT,
    agent_id        TEXT    NOT NULL,
    session_id      TEXT,
    tool_use_id     TEXT,
    cwd             TEXT,
    file_path       TEXT,
    branch          TEXT    NOT NULL,
    head_sha        TEXT    NOT NULL,
    remote_url      TEXT,
    payload_valid   INTEGER NOT NULL,
    raw_payload     TEXT    NOT NULL,
    event_timestamp TEXT    NOT NULL,
    received_at     TEXT    NOT NULL,
    source_pid      INTEGER
);
CREATE INDEX events_event_timestamp ON events(event_timestamp);
CREATE INDEX events_agent_id ON events(agent_id);
CREATE INDEX events_session_id ON events(session_id);

-- File-changing tool uses. Column names are a public contract: consumers query them.
CREATE TABLE mutations (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_type      TEXT    NOT NULL,
    hook_type       TEXT    NOT NULL,
    tool_name       TEXT    NOT NULL,
    agent_id        TEXT    NOT NULL,
    file_path       TEXT,
    file_ext        TEXT,
    lines_changed   INTEGER,
    branch          TEXT    NOT NULL,
    head_sha        TEXT    NOT NULL,
    raw_payload     TEXT    NOT NULL,
    event_timestamp TEXT    NOT NULL,
    received_at     TEXT    NOT NULL,
    event_id        TEXT    NOT NULL,
    mutation_seq    INTEGER NOT NULL DEFAULT 0,
    session_id      TEXT,
    tool_use_id     TEXT,
    remote_url      TEXT,
    command         TEXT,
    source_pid      INTEGER,
    UNIQUE (event_id, mutation_seq)
);
CREATE INDEX mutations_file_path ON mutations(file_path);
CREATE INDEX mutations_event_timestamp ON mutations(event_timestamp);
CREATE INDEX mutations_agent_id ON mutations(agent_id);
CREATE INDEX mutations_branch ON mutations(branch);

-- Append-only, enforced by the database itself.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: events cannot be updated'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: events cannot be deleted'); END;
CREATE TRIGGER mutations_no_update BEFORE UPDATE ON mutations
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: mutations cannot be updated'); END;
CREATE TRIGGER mutations_no_delete BEFORE DELETE ON mutations
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: mutations cannot be deleted'); END;
