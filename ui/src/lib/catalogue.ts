// The backend's event catalogue, loaded once and shared by every view: the
// event names, how the ledger stores each one, which ones hookd records,
// and the tool names a matcher is usually tested against. The rules behind
// them (event-name normalisation above all) live in hookd-core; the window
// looks answers up here instead of restating them.

import { api } from './api';
import type { HookEventInfo } from './types';

let events: readonly HookEventInfo[] = [];
let loading: Promise<readonly HookEventInfo[]> | null = null;

/** Loads the catalogue (once; later calls share the first answer). */
export function loadCatalogue(): Promise<readonly HookEventInfo[]> {
  loading ??= api.hook_events().then(
    (answer) => (events = answer),
    (err: unknown) => {
      loading = null; // try again next time
      throw err;
    },
  );
  return loading;
}

/** Forgets the catalogue (tests switch backends). */
export function resetCatalogue(): void {
  events = [];
  loading = null;
}

/** The catalogue as loaded (empty before `loadCatalogue` resolved). */
export function catalogueEvents(): readonly HookEventInfo[] {
  return events;
}

/**
 * The stored spelling of an event the user typed (`PostToolUse`,
 * `post_tool_use`, `post-tool-use`): the catalogue entry whose name or
 * stored name it is, ignoring case and separators. `null` when the catalogue does not know it.
 */
export function storedEventName(typed: string): string | null {
  // A lookup, not a second normaliser: letters and digits compared without
  // case against the catalogue's own two spellings.
  const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = squash(typed);
  const found = events.find((e) => squash(e.name) === wanted || squash(e.stored) === wanted);
  return found?.stored ?? null;
}

/** The agent's spelling of a stored event (`post_tool_use` → `PostToolUse`); unknown ones as stored. */
export function eventLabel(stored: string): string {
  return events.find((e) => e.stored === stored)?.name ?? stored;
}

/** Events hookd records (what the ledger can hold), for suggestions. */
export function recordedEventNames(): string[] {
  return events.filter((e) => e.recorded).map((e) => e.name);
}

/** Tool names a tool matcher is usually tested against, for suggestions. */
export function knownTools(): string[] {
  return [...(events.find((e) => e.match_field === 'tool_name')?.known_targets ?? [])];
}

/**
 * The coding agents hookd records: the name rows and filters carry
 * (`hookd-emit --agent`), the name people know, and a short one for narrow
 * columns.
 */
export const CODING_AGENTS: ReadonlyArray<{ name: string; label: string; short: string }> = [
  { name: 'claude', label: 'Claude Code', short: 'Claude' },
  { name: 'codex', label: 'Codex CLI', short: 'Codex' },
  { name: 'gemini', label: 'Gemini CLI', short: 'Gemini' },
  { name: 'cursor', label: 'Cursor', short: 'Cursor' },
  { name: 'copilot', label: 'GitHub Copilot', short: 'Copilot' },
];
