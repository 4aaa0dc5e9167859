-- Every file path the mutations name, with its row count and newest time
-- (derived data, kept by the trigger below). A file filter given as part of
-- a path or as a glob (`cart.ts`, `src/**/*.ts`) is matched against these
-- paths, and the app suggests them, without a scan of the history.
CREATE TABLE mutation_files (
    file_path TEXT    NOT NULL PRIMARY KEY,
    rows      INTEGER NOT NULL,
    newest    TEXT    NOT NULL
) WITHOUT ROWID;

INSERT INTO mutation_files
SELECT file_path, COUNT(*), max(event_timestamp) FROM mutations WHERE file_path IS NOT NULL GROUP BY file_path;

CREATE TRIGGER mutations_count_file AFTER INSERT ON mutations WHEN NEW.file_path IS NOT NULL
BEGIN
    INSERT INTO mutation_files VALUES (NEW.file_path, 1, NEW.event_timestamp)
    ON CONFLICT DO UPDATE SET rows = rows + 1, newest = max(newest, excluded.newest);
END;
