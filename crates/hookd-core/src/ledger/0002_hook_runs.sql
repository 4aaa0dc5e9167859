-- Every managed hook run: what ran, for which event, and what it decided.
CREATE TABLE hook_runs (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id            TEXT    NOT NULL UNIQUE,
    event_id          TEXT    NOT NULL,
    hook_type         TEXT    NOT NULL,
    tool_name         TEXT,
    session_id        TEXT,
    tool_use_id       TEXT,
    scope             TEXT    NOT NULL,
    source            TEXT    NOT NULL,
    matcher           TEXT,
    command           TEXT    NOT NULL,
    exit_code         INTEGER,
    timed_out         INTEGER NOT NULL,
    decision          TEXT,
    duration_ms       REAL    NOT NULL,
    stdout            TEXT    NOT NULL,
    stderr            TEXT    NOT NULL,
    output_truncated  INTEGER NOT NULL,
    error             TEXT,
    started_at        TEXT    NOT NULL
);
CREATE INDEX hook_runs_event_id ON hook_runs(event_id);
CREATE INDEX hook_runs_started_at ON hook_runs(started_at);
CREATE INDEX hook_runs_session_id ON hook_runs(session_id);

CREATE TRIGGER hook_runs_no_update BEFORE UPDATE ON hook_runs
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: hook_runs cannot be updated'); END;
CREATE TRIGGER hook_runs_no_delete BEFORE DELETE ON hook_runs
BEGIN SELECT RAISE(ABORT, 'hookd ledger is append-only: hook_runs cannot be deleted'); END;
