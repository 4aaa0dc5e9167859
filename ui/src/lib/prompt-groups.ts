// Prompts as groups in the Timeline's activity mode: a UserPromptSubmit row
// heads the rows its session sent after it, up to that session's next
// prompt, so a person can point at "prompt 3" and revert it.
//
// The ledger can hold millions of events and the list holds only the pages
// around the viewport (lib/paged.ts), so a row's group is found by looking
// at the held rows next to it, never by reading the history: a scan stops
// at a position not held (or after `SCAN_LIMIT` rows), and then the group's
// head is simply unknown (the row keeps its group rule, without a head) and
// a head's counts say "at least". Rows of other sessions interleaved with a
// group are skipped over, never drawn inside it. The list is read in its
// own order (`oldest` or `newest` first); "earlier" means earlier in time.

import type { ActivityEvent } from './types';

/** The hook type that opens a prompt's group. */
export const PROMPT_HOOK = 'user_prompt_submit';
/** A session's start: rows after it and before its first prompt are in no group. */
const SESSION_START = 'session_start';
/** Rows scanned at most from one row to find its head or count a head's group (a page). */
export const SCAN_LIMIT = 200;

/** How the list orders its positions. */
export type ListOrder = 'oldest' | 'newest';

/** Where a row stands among the prompts. */
export type PromptPlace =
  | {
      role: 'head';
      /** Tool calls its session made after it (distinct tool calls), among the rows held. */
      calls: number;
      /** File changes those calls made (the rows' `mutations`). */
      changes: number;
      /** False when the scan stopped before the next prompt or the end of the list: the counts are a floor. */
      complete: boolean;
    }
  | {
      role: 'member';
      /** The `event_id` of the prompt heading the group, or null when it is not held (scrolled away). */
      head: string | null;
    }
  | { role: 'none' };

const NONE: PromptPlace = { role: 'none' };

/**
 * The place of the row at `index` among the prompts, reading the held rows
 * through `get` (undefined: not held) in a list of `total` rows ordered
 * `order`.
 */
export function promptPlace(
  get: (index: number) => ActivityEvent | undefined,
  index: number,
  total: number,
  order: ListOrder,
  limit = SCAN_LIMIT,
): PromptPlace {
  const row = get(index);
  if (row === undefined || row.session_id === null) return NONE;
  const session = row.session_id;
  // One step later in time.
  const later = order === 'oldest' ? 1 : -1;
  const inList = (i: number): boolean => i >= 0 && i < total;

  if (row.hook_type === PROMPT_HOOK) {
    const calls = new Set<string>();
    let anonymous = 0;
    let changes = 0;
    let complete = false;
    for (let i = index + later, n = 0; ; i += later, n++) {
      if (!inList(i)) {
        complete = true;
        break;
      }
      if (n >= limit) break;
      const r = get(i);
      if (r === undefined) break;
      if (r.session_id !== session) continue;
      if (r.hook_type === PROMPT_HOOK || r.hook_type === SESSION_START) {
        complete = true;
        break;
      }
      if (r.tool_name !== null) {
        if (r.tool_use_id !== null) calls.add(r.tool_use_id);
        else if (r.hook_type !== 'pre_tool_use') anonymous++;
      }
      changes += r.mutations;
    }
    return { role: 'head', calls: calls.size + anonymous, changes, complete };
  }

  if (row.hook_type === SESSION_START) return NONE;
  for (let i = index - later, n = 0; ; i -= later, n++) {
    // The start of the ledger (as filtered) with no prompt before: no group.
    if (!inList(i)) return NONE;
    if (n >= limit) return { role: 'member', head: null };
    const r = get(i);
    if (r === undefined) return { role: 'member', head: null };
    if (r.session_id !== session) continue;
    if (r.hook_type === PROMPT_HOOK) return { role: 'member', head: r.event_id };
    if (r.hook_type === SESSION_START) return NONE;
  }
}

/** A head's counts in words: `3 tool calls · 2 changes`, with `+` when only a floor is known. */
export function groupSummary(place: Extract<PromptPlace, { role: 'head' }>): string {
  const more = place.complete ? '' : '+';
  const calls = `${place.calls}${more} tool call${place.calls === 1 && !more ? '' : 's'}`;
  const changes = `${place.changes}${more} change${place.changes === 1 && !more ? '' : 's'}`;
  return `${calls} · ${changes}`;
}

/** The prompt's text (the payload's `prompt`), or null when the row carries none. */
export function promptText(ev: ActivityEvent): string | null {
  try {
    const p = JSON.parse(ev.raw_payload) as unknown;
    if (typeof p === 'object' && p !== null && typeof (p as Record<string, unknown>).prompt === 'string') {
      return (p as Record<string, string>).prompt!;
    }
  } catch {
    // An unparsable payload has no prompt to show.
  }
  return null;
}
