-- What each changed file held before and after the change, so a rewind can
-- give it back.
--
-- The bytes live in the repository's content store (`.hookd/content/`,
-- `ledger::content_store`), named by their SHA-256; a row holds only a
-- reference, as compact JSON (`record::ContentRef`):
--   {"state":"kept","hash":"<sha256 hex>","size":<bytes>}  in the store;
--   {"state":"absent"}                                    no file there;
--   {"state":"too_large","size":<bytes>}                  over the store's limit;
--   {"state":"unknown","why":"<text>"}                    not seen, and why.
-- NULL on rows recorded before this version: the table is append-only,
-- history is not rewritten, and a rewind reports those changes as not
-- restorable.
ALTER TABLE mutations ADD COLUMN before_content TEXT;
ALTER TABLE mutations ADD COLUMN after_content TEXT;

-- A rewind picks a tool call's changes by `tool_use_id` (`hookd rewind
-- --call`, and `--undo`, which reverts a rewind's own call): without an
-- index, that read every row.
CREATE INDEX mutations_tool_use_id ON mutations(tool_use_id) WHERE tool_use_id IS NOT NULL;
