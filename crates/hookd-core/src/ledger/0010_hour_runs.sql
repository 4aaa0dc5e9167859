-- Where each hour's rows lie in id order, so a search never reads rows it
-- does not show.
--
-- A search finds its matches in the full-text index (migration 0008) as
-- row ids. To count them per hour (the timeline's total and scroll
-- positions) or to read the newest page, hookd used to read every matching
-- row for its time: a common word in a big ledger meant reading hundreds
-- of thousands of rows scattered over the file. Rows are appended nearly in
-- time order, so their ids fall into runs of one hour each: a run starts at
-- the first row (by id) whose hour differs from the row before it. A late
-- event (a replayed journal, a broker's backlog) starts a run of its own
-- hour, so the table is exact however the rows arrive. With it, a match's
-- hour is found from its id alone, and a time range gives the id range its
-- rows lie in (`ledger::window`). `hour` is `substr(event_timestamp, 1,
-- 13)`, as in the counts per hour; `ledger::derived` keeps the tables as
-- rows are appended, and `hookd ledger verify` checks them against the rows.
CREATE TABLE mutation_runs (first_id INTEGER PRIMARY KEY, hour TEXT NOT NULL);
CREATE TABLE event_runs (first_id INTEGER PRIMARY KEY, hour TEXT NOT NULL);
CREATE INDEX mutation_runs_hour ON mutation_runs(hour);
CREATE INDEX event_runs_hour ON event_runs(hour);

-- Read through the time index (the time and the id, not the wide rows),
-- then put back in id order.
INSERT INTO mutation_runs (first_id, hour)
SELECT id, h FROM (
    SELECT id, h, lag(h) OVER (ORDER BY id) AS before
    FROM (SELECT id, substr(event_timestamp, 1, 13) AS h
          FROM mutations INDEXED BY mutations_event_timestamp)
)
WHERE before IS NULL OR before <> h;

INSERT INTO event_runs (first_id, hour)
SELECT id, h FROM (
    SELECT id, h, lag(h) OVER (ORDER BY id) AS before
    FROM (SELECT id, substr(event_timestamp, 1, 13) AS h
          FROM events INDEXED BY events_event_timestamp)
)
WHERE before IS NULL OR before <> h;

-- The words each search index holds, to turn a word typed as a prefix
-- (`"modul"*`) into the few words it starts (`"module" OR "modules"`):
-- FTS5 reads a prefix's matches into memory whole, whatever rows are asked
-- for, while it reads a word's only where asked (`ledger::filter`).
CREATE VIRTUAL TABLE mutation_search_words USING fts5vocab(mutation_search, 'row');
CREATE VIRTUAL TABLE event_search_words USING fts5vocab(event_search, 'row');
