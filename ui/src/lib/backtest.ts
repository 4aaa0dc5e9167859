// Backtests in words (the Test bench's, of one hook, and the Hook editor's,
// of the edited file): one line per recorded event the draft would decide
// differently (the core's BacktestReport), how far a replay is (the
// `backtest-progress` event), the draft the editor sends (the file exactly
// as its save would write it), and the limits' defaults (the core's: 200
// events, 2 at once, 10 s per hook).

import { listen, type Unlisten } from './api';
import type { BacktestChange, BacktestProgress, BacktestReport, JsonValue, Kind, Scope } from './types';

/** The core's defaults (`BacktestLimits::default`). */
export const BACKTEST_DEFAULTS = { last: 200, jobs: 2, timeout: 10 } as const;

/** A decision in words: `nothing` when there was none. */
function decision(d: string | null): string {
  return d ?? 'nothing';
}

/** `PreToolUse Bash [sudo rm -rf /]: nothing → deny` */
export function changeTitle(c: BacktestChange): string {
  const before = c.before === null && c.before_unknown ? 'unknown (not recorded)' : decision(c.before);
  return `${c.event}${c.tool_name ? ` ${c.tool_name}` : ''}${c.subject ? ` [${c.subject}]` : ''}: ${before} → ${decision(c.after)}`;
}

/** What kind of difference it is, for its badge: blocks, allows, rewrites, fails or changes. */
export function changeKind(c: BacktestChange): 'blocks' | 'allows' | 'rewrites' | 'fails' | 'changes' {
  const blocking = (d: string | null): boolean => d === 'deny' || d === 'block';
  if (blocking(c.after) && !blocking(c.before)) return 'blocks';
  if (c.failures.length > 0) return 'fails';
  if (c.rewritten_input !== null) return 'rewrites';
  if (blocking(c.before) && !blocking(c.after)) return 'allows';
  return 'changes';
}

/** The report's first line. */
export function reportSummary(r: BacktestReport): string {
  const events = `${r.events} recorded event${r.events === 1 ? '' : 's'}`;
  const span = r.span ? ` (${r.span[0]} to ${r.span[1]})` : '';
  const head = `Replayed ${events}${span}: the draft matched ${r.matched}, ${r.runs} run${r.runs === 1 ? '' : 's'} (HOOKD_BACKTEST=1; no answer sent to any agent).`;
  return r.changes.length === 0 ? `${head} It decides nothing differently.` : `${head} ${r.changes.length} difference${r.changes.length === 1 ? '' : 's'}:`;
}

/** A positive whole number from a field, else the default. */
export function countField(text: string, fallback: number): number {
  const n = Number(text.trim());
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** `12 of 200 events replayed` */
export function progressText(p: BacktestProgress): string {
  return `${p.replayed} of ${p.events} event${p.events === 1 ? '' : 's'} replayed`;
}

/**
 * Calls `onProgress` with the progress of the backtest of this project's
 * file (the events of other backtests are not its own).
 */
export function listenProgress(of: { project: string; kind: Kind; scope: Scope }, onProgress: (p: BacktestProgress) => void): Promise<Unlisten> {
  return listen('backtest-progress', (e) => {
    if (e.project === of.project && e.kind === of.kind && e.scope === of.scope) onProgress(e.progress);
  });
}

/**
 * The whole file a save would write (`SavePreview.after`, byte for byte
 * what Save writes) as the backtest's `draft`: a byte order mark, which
 * the file may keep, is not JSON.
 */
export function draftOfSave(after: string): JsonValue {
  return JSON.parse(after.replace(/^\uFEFF/, '')) as JsonValue;
}
