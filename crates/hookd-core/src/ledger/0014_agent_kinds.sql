-- Which coding agent each agent of the `agents` table is (migration 0005),
-- so that "only Gemini CLI's changes" is answered as "only these agents",
-- through the agent indexes and the counts per hour, rather than by
-- reading every row's `agent_kind` (migration 0013).
--
-- An agent belongs to one coding agent: its first event says which. The
-- column is added with a constant default (no row rewritten); each agent's
-- first event is found by a seek of the `events_agent_id` index and only
-- the agents whose first event is not Claude Code's are updated, so the
-- upgrade costs a look-up or two per agent, never a read of the history.
ALTER TABLE agents ADD COLUMN agent_kind TEXT NOT NULL DEFAULT 'claude';

UPDATE agents
SET agent_kind = (SELECT e.agent_kind FROM events e
                  WHERE e.agent_id = agents.agent_id ORDER BY e.id LIMIT 1)
WHERE (SELECT e.agent_kind FROM events e
       WHERE e.agent_id = agents.agent_id ORDER BY e.id LIMIT 1) <> 'claude';

-- A filter on the coding agent reads its agents (or the others) from here.
CREATE INDEX agents_agent_kind ON agents(agent_kind);
