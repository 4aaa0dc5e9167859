-- The search indexes of 0006 again, leaner to write and to keep.
--
-- The timeline's search matches every word the user typed as a word prefix
-- (`"npm"* "test"*`, see `ledger::filter::fts_query`) and orders what
-- matches by time: it never asks for a phrase, a NEAR group or a rank. So
-- the indexes keep neither word positions (`detail = none`) nor each row's
-- size (`columnsize = 0`), which made up most of what the daemon wrote to
-- them per row. Built again from the rows, with the same text as 0006 and
-- `ledger::derived`.
DROP TABLE mutation_search;
DROP TABLE event_search;

CREATE VIRTUAL TABLE mutation_search USING fts5(text, content = '', detail = none, columnsize = 0);
CREATE VIRTUAL TABLE event_search USING fts5(text, content = '', detail = none, columnsize = 0);

INSERT INTO mutation_search (rowid, text)
SELECT id, coalesce(file_path, '') || ' ' || coalesce(command, '') FROM mutations;

INSERT INTO event_search (rowid, text)
SELECT id, coalesce(file_path, '') || ' ' || coalesce(
    CASE WHEN NOT json_valid(raw_payload) THEN NULL
         WHEN hook_type = 'user_prompt_submit' THEN json_extract(raw_payload, '$.prompt')
         WHEN tool_name = 'Bash' THEN json_extract(raw_payload, '$.tool_input.command')
    END, '')
FROM events;
