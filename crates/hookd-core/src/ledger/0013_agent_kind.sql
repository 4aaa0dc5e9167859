-- Which coding agent each event and change came from.
--
-- hookd records the hooks of several agents (Claude Code, Codex CLI, Gemini
-- CLI, Cursor, GitHub Copilot) in the same ledger; `hookd-emit --agent NAME`
-- names the agent, and every row stored before this version is Claude
-- Code's, the only agent hookd recorded then. The columns are added with a
-- constant default, which SQLite records in the schema without rewriting a
-- row, so the upgrade of a ten-million-row ledger takes no time. The
-- version number makes an older hookd refuse this ledger rather than write
-- rows without the agent.
ALTER TABLE events ADD COLUMN agent_kind TEXT NOT NULL DEFAULT 'claude';
ALTER TABLE mutations ADD COLUMN agent_kind TEXT NOT NULL DEFAULT 'claude';
