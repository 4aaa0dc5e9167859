-- A mutation's payload is stored once, with its event.
--
-- Every mutation of a file tool (Write, Edit, ...) comes from one hook
-- event whose payload the `events` row already holds, byte for byte; until
-- this version the `mutations` row held a second copy, which made up about
-- a third of what the daemon wrote per event. From this version on a
-- mutation whose payload is its event's stores '' in `raw_payload`, and
-- hookd reads the event's (`ledger::MUTATION_COLUMNS`). A mutation whose
-- payload differs from its event's (none today) keeps its own. Rows stored
-- before keep their copy: the ledger is append-only, history is not
-- rewritten. The version number makes an older hookd refuse this ledger
-- rather than show those payloads as empty.
--
-- This view reads the mutations the way hookd does, for anyone querying
-- the ledger by hand (`sqlite3 .hookd/mutations.db`).
CREATE VIEW mutations_with_payload AS
SELECT m.*, CASE WHEN m.raw_payload <> '' THEN m.raw_payload
                 ELSE coalesce((SELECT e.raw_payload FROM events e WHERE e.event_id = m.event_id), '')
            END AS payload
FROM mutations m;
