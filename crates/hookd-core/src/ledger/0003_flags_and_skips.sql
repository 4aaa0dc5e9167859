-- What the recorder had to repair or could not place, and managed hooks it
-- did not run. Both are NULL in the usual case.
--
-- events.flags / mutations.flags: space-separated words (see record::Flag),
-- e.g. 'payload_repaired' for a payload whose lone UTF-16 surrogates became
-- U+FFFD, 'path_outside_repo' for a path that left its repository.
ALTER TABLE events ADD COLUMN flags TEXT;
ALTER TABLE mutations ADD COLUMN flags TEXT;

-- hook_runs.skipped: why a managed hook was not run (e.g. its settings file
-- is not trusted); NULL when it ran.
ALTER TABLE hook_runs ADD COLUMN skipped TEXT;
