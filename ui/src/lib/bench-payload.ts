// The test bench's payload logic: which sample fits an event, keeping
// `hook_event_name` in step with the chosen event, and handing a real
// payload over from the timeline.
//
// A payload taken from the timeline can be megabytes, so it travels through
// `sessionStorage` (read once, then removed) and the hash stays short:
// `#/bench?project=/src/app&event=PostToolUse`.

import { benchHash } from './route';
import type { BenchSample, MutationRow } from './types';

/** The `sessionStorage` key a handed-over payload waits under. */
export const HANDOFF_KEY = 'hookd.bench.handoff';

/** A payload handed to the bench from elsewhere in the UI. */
export interface Handoff {
  /** The payload's JSON text, as recorded. */
  payload: string;
  /** Its event, when known (the payload's `hook_event_name`). */
  event: string | null;
  /** Where it came from, shown above the editor (`timeline row 42`). */
  source: string;
}

/** Indents a payload for the editor: two spaces, like the agent's own files. */
export function formatPayload(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The sample to show for `event`: `preferred` when it belongs to the event,
 * else the event's first sample (Bash for PreToolUse, the most common hook),
 * else null.
 */
export function sampleFor(samples: BenchSample[], event: string, preferred?: string | null): BenchSample | null {
  const own = samples.filter((s) => s.event === event);
  return own.find((s) => s.id === preferred) ?? own.find((s) => s.id === 'bash') ?? own[0] ?? null;
}

/**
 * The payload text with `hook_event_name` set to `event`, so a payload moved
 * to another event says so as the agent's would. Text that is not a JSON
 * object, or already names the event, is returned unchanged; the key keeps
 * its place in the object.
 */
export function retarget(text: string, event: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text;
  const obj = value as Record<string, unknown>;
  if (obj.hook_event_name === event) return text;
  const out: Record<string, unknown> = 'hook_event_name' in obj ? {} : { hook_event_name: event };
  for (const [k, v] of Object.entries(obj)) out[k] = k === 'hook_event_name' ? event : v;
  return formatPayload(out);
}

/** The event a payload names in `hook_event_name` (an agent name like `PostToolUse`), if any. */
export function payloadEvent(value: unknown, known: string[]): string | null {
  if (value === null || typeof value !== 'object') return null;
  const name = (value as Record<string, unknown>).hook_event_name;
  if (typeof name !== 'string') return null;
  if (known.includes(name)) return name;
  // hookd-emit's snake_case spelling (pre_tool_use) of an agent name.
  const squash = (s: string): string => s.replace(/_/g, '').toLowerCase();
  return known.find((k) => squash(k) === squash(name)) ?? null;
}

/** The directory a payload ran in (`cwd`), to pick its project. */
export function payloadCwd(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const cwd = (value as Record<string, unknown>).cwd;
  return typeof cwd === 'string' && cwd.startsWith('/') ? cwd : null;
}

/** The known project that contains `dir` (the longest root that is `dir` or a parent of it). */
export function projectFor(roots: string[], dir: string | null): string | null {
  if (dir === null) return null;
  let best: string | null = null;
  for (const root of roots) {
    if ((dir === root || dir.startsWith(`${root.replace(/\/+$/, '')}/`)) && (best === null || root.length > best.length)) best = root;
  }
  return best;
}

/** Leaves a payload for the bench to pick up. */
export function storeHandoff(storage: Storage, handoff: Handoff): void {
  storage.setItem(HANDOFF_KEY, JSON.stringify(handoff));
}

/** Takes the handed-over payload, if any (it is removed: a reload starts fresh). */
export function takeHandoff(storage: Storage): Handoff | null {
  const raw = storage.getItem(HANDOFF_KEY);
  if (raw === null) return null;
  storage.removeItem(HANDOFF_KEY);
  try {
    const h = JSON.parse(raw) as Partial<Handoff>;
    if (typeof h.payload !== 'string') return null;
    return { payload: h.payload, event: typeof h.event === 'string' ? h.event : null, source: typeof h.source === 'string' ? h.source : 'another screen' };
  } catch {
    return null;
  }
}

/**
 * Opens the test bench on a timeline row's recorded payload: the payload
 * waits in `sessionStorage`, the hash names the project (the row's, else
 * the payload's `cwd`, which the bench resolves to its project).
 */
export function openInBench(row: Pick<MutationRow, 'raw_payload' | 'tool_name' | 'file_path'> & { repo?: string }): void {
  let value: unknown = null;
  try {
    value = JSON.parse(row.raw_payload) as unknown;
  } catch {
    value = null;
  }
  const name = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).hook_event_name : undefined;
  try {
    storeHandoff(window.sessionStorage, {
      payload: row.raw_payload,
      event: typeof name === 'string' ? name : null,
      source: `the timeline (${row.tool_name}${row.file_path ? ` of ${row.file_path}` : ''})`,
    });
  } catch {
    // No session storage (a locked-down webview): the bench opens with a sample instead.
  }
  window.location.hash = benchHash(row.repo ?? payloadCwd(value), null);
}
