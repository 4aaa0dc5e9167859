// Prompts as groups in the Timeline's activity mode: a UserPromptSubmit row
// heads the rows its session sent after it, up to that session's next
// prompt, so a person can point at "prompt 3" and revert it.
//
// The ledger can hold millions of events and the list holds only the pages
// around the viewport (lib/paged.ts), so a row's group is first looked for
// among the held rows next to it: a scan stops at a position not held (or
// after `SCAN_LIMIT` rows). When it stops before the head, or before the
// end of a head's group, the ledger answers instead: `FetchedGroups` asks
// the backend's `prompt_group` (hookd-core `ledger::prompts`, reads bounded
// by the group) once per run of rows, and the row shows the prompt and the
// head its exact counts once the answer is there. Rows of other sessions
// interleaved with a group are skipped over, never drawn inside it. The
// list is read in its own order (`oldest` or `newest` first); "earlier"
// means earlier in time.

import type { ActivityEvent, PromptGroup } from './types';

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
      /**
       * With no head held: the earliest row of the group the scan saw (the
       * row itself, or one before it), whose head the ledger is asked for;
       * every row of a run shares it, so the run asks once.
       */
      from?: ActivityEvent;
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
  let from = row;
  for (let i = index - later, n = 0; ; i -= later, n++) {
    // The start of the ledger (as filtered) with no prompt before: no group.
    if (!inList(i)) return NONE;
    if (n >= limit) return { role: 'member', head: null, from };
    const r = get(i);
    if (r === undefined) return { role: 'member', head: null, from };
    if (r.session_id !== session) continue;
    if (r.hook_type === PROMPT_HOOK) return { role: 'member', head: r.event_id };
    if (r.hook_type === SESSION_START) return NONE;
    from = r;
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

/** Asks the ledger for the group of the row `id` of the ledger holding `repo`. */
export type AskGroup = (repo: string | null, id: number) => Promise<PromptGroup | null>;

/**
 * The groups the ledger answered for rows whose head (or whose head's
 * whole group) is not held. A row is asked about once (a pending or
 * answered question is not asked again, also after it scrolled away);
 * answers are kept by ledger and prompt `event_id`, so the rows of one
 * group share one. `reset` (a filter or ledger change, rows committed into
 * a group) forgets everything, and an answer to a question asked before it
 * is dropped.
 */
export class FetchedGroups {
  /** The group's key (ledger + prompt event id) each asked row led to; null: in no group; undefined while asked. */
  private readonly rows = new Map<string, string | null | undefined>();
  private readonly groups = new Map<string, PromptGroup>();
  private generation = 0;

  constructor(
    private readonly ask: AskGroup,
    /** Called when an answer arrived (repaint the rows). */
    private readonly onAnswer: () => void,
  ) {}

  /** Forgets every answer; answers on their way are dropped. */
  reset(): void {
    this.generation++;
    this.rows.clear();
    this.groups.clear();
  }

  /**
   * The group of `row` (of the ledger holding `repo`) as the ledger
   * answered it: undefined while asked (the question goes out on the first
   * call), null when the row is in no group.
   */
  groupOf(repo: string | null, row: ActivityEvent): PromptGroup | null | undefined {
    const key = `${repo ?? ''}\u0000${row.id}`;
    if (!this.rows.has(key)) {
      this.rows.set(key, undefined);
      const generation = this.generation;
      this.ask(repo, row.id).then(
        (group) => {
          if (generation !== this.generation) return;
          if (group === null) {
            this.rows.set(key, null);
          } else {
            const head = `${repo ?? ''}\u0000${group.head.event_id}`;
            this.groups.set(head, group);
            this.rows.set(key, head);
          }
          this.onAnswer();
        },
        (err: unknown) => {
          // Left unknown (and not asked again): the row keeps its rule without a prompt.
          if (generation === this.generation) console.warn('hookd: cannot read the prompt of a row', err);
        },
      );
      return undefined;
    }
    const head = this.rows.get(key);
    if (head === undefined) return undefined;
    if (head === null) return null;
    return this.groups.get(head);
  }
}

/**
 * The place of a row with what the ledger answered: a member without its
 * head held gets the head the ledger found (`group`), a head whose counts
 * were a floor gets the exact ones. Asks `fetched` only when the held rows
 * do not tell.
 */
export function withFetched(
  place: PromptPlace,
  row: ActivityEvent,
  repo: string | null,
  fetched: FetchedGroups,
): { place: PromptPlace; group?: PromptGroup } {
  if (place.role === 'head' && !place.complete) {
    const group = fetched.groupOf(repo, row);
    if (group) return { place: { role: 'head', calls: group.calls, changes: group.changes, complete: true }, group };
  } else if (place.role === 'member' && place.head === null) {
    const group = fetched.groupOf(repo, place.from ?? row);
    if (group === null) return { place: NONE };
    if (group) return { place: { role: 'member', head: group.head.event_id }, group };
  }
  return { place };
}
