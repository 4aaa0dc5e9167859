// An agent's activity, read for people: hook event names in the agent's
// spelling, a one-line subject per event (the prompt, the file, the
// command), and what the managed hooks that answered it decided and why.
//
// Every function here is pure and cheap enough to call while rendering a
// visible row; the subject of an event is cached per object because it
// parses the payload, which can be megabytes for a Write.

import type { ActivityEvent, HookRunRecord } from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, key: string): string | null => (typeof o[key] === 'string' ? (o[key] as string) : null);

/** First line of `text`, at most `max` characters. */
export function firstLine(text: string, max = 160): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `path` relative to `cwd` when inside it. */
function relative(path: string, cwd: string | null): string {
  if (cwd && path.startsWith(`${cwd.replace(/\/+$/, '')}/`)) return path.slice(cwd.replace(/\/+$/, '').length + 1);
  return path;
}

const subjects = new WeakMap<ActivityEvent, string>();

/**
 * One line saying what the event was about: the prompt of a
 * UserPromptSubmit, the file or command of a tool event, the message of a
 * Notification, the source of a SessionStart, …
 */
export function eventSubject(ev: ActivityEvent): string {
  const cached = subjects.get(ev);
  if (cached !== undefined) return cached;
  const subject = computeSubject(ev);
  subjects.set(ev, subject);
  return subject;
}

function computeSubject(ev: ActivityEvent): string {
  let payload: unknown = null;
  try {
    payload = JSON.parse(ev.raw_payload) as unknown;
  } catch {
    // An unparsable payload still has columns to show.
  }
  const p = isObj(payload) ? payload : {};
  const input = isObj(p.tool_input) ? p.tool_input : null;
  const cwd = ev.cwd ?? str(p, 'cwd');
  if (ev.file_path) return relative(ev.file_path, cwd);
  if (input) {
    const command = str(input, 'command');
    if (command !== null) return `$ ${firstLine(command)}`;
    const path = str(input, 'file_path') ?? str(input, 'notebook_path') ?? str(input, 'path') ?? str(input, 'pattern') ?? str(input, 'url');
    if (path !== null) return relative(path, cwd);
  }
  for (const key of ['prompt', 'message', 'last_assistant_message', 'reason', 'source', 'trigger', 'error']) {
    const v = str(p, key);
    if (v !== null && v.trim() !== '') return key === 'prompt' ? `“${firstLine(v)}”` : firstLine(v);
  }
  return '';
}

/** What a hook run amounted to, strongest first when several ran. */
export type RunVerdict = 'stop' | 'deny' | 'block' | 'ask' | 'defer' | 'allow' | 'timeout' | 'error' | 'skipped' | 'ok';

const RANK: Record<RunVerdict, number> = { stop: 9, deny: 8, block: 7, ask: 6, defer: 5, timeout: 4, error: 3, skipped: 3, allow: 2, ok: 1 };

/** The verdict of one run: its decision, else how it ended. */
export function runVerdict(run: HookRunRecord): RunVerdict {
  // Not run at all: its settings file is not trusted (`hookd trust`).
  if (run.skipped !== null) return 'skipped';
  const d = run.decision?.toLowerCase();
  if (d === 'stop' || d === 'deny' || d === 'block' || d === 'ask' || d === 'defer' || d === 'allow') return d;
  if (run.timed_out) return 'timeout';
  if (run.error !== null || (run.exit_code !== null && run.exit_code !== 0 && run.exit_code !== 2) || run.exit_code === null) return 'error';
  return 'ok';
}

/** The strongest verdict among an event's runs, null when no hook ran. */
export function eventVerdict(runs: readonly HookRunRecord[]): RunVerdict | null {
  let best: RunVerdict | null = null;
  for (const r of runs) {
    const v = runVerdict(r);
    if (best === null || RANK[v] > RANK[best]) best = v;
  }
  return best;
}

/** The hooks cell of a row, verdict first (it survives a narrow column): `deny · 2 hooks`, `ok · 1 hook`, or empty. */
export function runsSummary(runs: readonly HookRunRecord[]): string {
  if (runs.length === 0) return '';
  return `${eventVerdict(runs)} · ${runs.length} hook${runs.length === 1 ? '' : 's'}`;
}

/**
 * Why a run decided what it did: the reason in its JSON output
 * (`permissionDecisionReason`, `reason`, `stopReason`), else, for exit code
 * 2, its stderr; else its error.
 */
export function runReason(run: HookRunRecord): string | null {
  const out = run.stdout.trim();
  if (out.startsWith('{')) {
    try {
      const o = JSON.parse(out) as unknown;
      if (isObj(o)) {
        const specific = isObj(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
        const decision = isObj(specific.decision) ? specific.decision : {};
        const reason =
          str(specific, 'permissionDecisionReason') ?? str(decision, 'message') ?? str(o, 'reason') ?? str(o, 'stopReason');
        if (reason !== null && reason.trim() !== '') return reason.trim();
      }
    } catch {
      // Not JSON after all: fall through to stderr.
    }
  }
  if (run.exit_code === 2 && run.stderr.trim() !== '') return run.stderr.trim();
  return run.error ?? run.skipped;
}
