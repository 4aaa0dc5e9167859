-- Lines added and removed by a mutation, by the diff rule of `hookd_core::diff`
-- (`lines_changed` keeps its meaning: newlines written). Rows recorded
-- before this migration keep NULL: the table is append-only, history is not
-- rewritten. NULL also for Bash rows and an oversized payload's stand-in.
ALTER TABLE mutations ADD COLUMN lines_added INTEGER;
ALTER TABLE mutations ADD COLUMN lines_removed INTEGER;
