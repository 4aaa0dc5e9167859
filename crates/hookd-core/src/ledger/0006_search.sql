-- Full-text search (FTS5) over what a user remembers of a change: the file
-- paths, the shell commands, and the prompts. Contentless indexes (the text
-- is in the rows already), keyed by the row's id, kept by `Ledger::append`
-- (see `ledger::derived`); words are split at anything but letters and digits, so `cart` finds
-- `src/cart.ts` and `npm test` finds `npm run test:unit`.
CREATE VIRTUAL TABLE mutation_search USING fts5(text, content = '');
CREATE VIRTUAL TABLE event_search USING fts5(text, content = '');

INSERT INTO mutation_search (rowid, text)
SELECT id, coalesce(file_path, '') || ' ' || coalesce(command, '') FROM mutations;

-- Only a prompt's and a shell command's payloads are parsed.
INSERT INTO event_search (rowid, text)
SELECT id, coalesce(file_path, '') || ' ' || coalesce(
    CASE WHEN NOT json_valid(raw_payload) THEN NULL
         WHEN hook_type = 'user_prompt_submit' THEN json_extract(raw_payload, '$.prompt')
         WHEN tool_name = 'Bash' THEN json_extract(raw_payload, '$.tool_input.command')
    END, '')
FROM events;

