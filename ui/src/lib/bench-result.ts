// Words for the test bench's results: the merged decision as the agent
// would act on it ("Denied: refusing rm -rf"), one line per hook run, and
// the summary of which hooks match.

import type { BenchHookRun, BenchMatch, BenchResult } from './types';

/** How a result should look: danger for refusals, ok for allows, warn for failures. */
export type Tone = 'danger' | 'ok' | 'warn' | 'neutral';

/** The headline of a run. */
export interface Verdict {
  /** The merged decision, or `none`. */
  decision: string;
  tone: Tone;
  /** `Denied: refusing rm -rf`. */
  headline: string;
}

const DECISIONS: Record<string, { label: string; tone: Tone }> = {
  deny: { label: 'Denied', tone: 'danger' },
  block: { label: 'Blocked', tone: 'danger' },
  stop: { label: 'Agent stopped', tone: 'danger' },
  ask: { label: 'Ask the user', tone: 'warn' },
  defer: { label: 'Deferred to the agent', tone: 'neutral' },
  allow: { label: 'Allowed', tone: 'ok' },
};

/** The first line of a reason, trimmed (the full text is shown below it). */
function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.trim();
}

/** The merged decision as a headline. */
export function verdict(result: BenchResult, runs: BenchHookRun[]): Verdict {
  const d = result.decision;
  if (d !== null) {
    const known = DECISIONS[d] ?? { label: d, tone: 'neutral' as Tone };
    const reason = result.reason ? firstLine(result.reason) : '';
    return { decision: d, tone: known.tone, headline: reason ? `${known.label}: ${reason}` : known.label };
  }
  if (runs.length === 0) {
    return { decision: 'none', tone: 'neutral', headline: 'Nothing ran: no command hook matches this payload' };
  }
  if (result.errors.length > 0) {
    return { decision: 'none', tone: 'warn', headline: `No decision, but ${result.errors.length === 1 ? 'a hook' : `${result.errors.length} hooks`} failed (the action goes ahead)` };
  }
  return { decision: 'none', tone: 'ok', headline: 'No decision: the action goes ahead' };
}

/** `exit 2`, `timed out`, `could not start`, `killed by a signal`. */
export function exitText(run: BenchHookRun): string {
  if (run.timed_out) return 'timed out (killed)';
  if (run.exit_code !== null) return `exit ${run.exit_code}`;
  if (run.error && /could not|cannot|not started|spawn/i.test(run.error)) return 'could not start';
  return 'killed by a signal';
}

/** `12 ms`, `1.5 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** One sentence on what the matchers are tested against. */
export function matchTargetText(m: BenchMatch): string {
  if (m.match_field === null) return `${m.event} takes no matcher: every group runs.`;
  if (m.target === null) return `Matchers are tested against ${m.match_field}, which the payload lacks (only match-all groups run).`;
  return `Matchers are tested against ${m.match_field} = "${m.target}".`;
}

/** `2 of 5 hooks would run (1 by the agent, 1 by hookd)`. */
export function matchCountText(m: BenchMatch): string {
  const runs = m.hooks.filter((h) => h.outcome === 'runs');
  const agent = runs.filter((h) => h.kind === 'agent').length;
  const total = m.hooks.length;
  if (total === 0) return `No ${m.event} hooks are configured for this project.`;
  const recorders = runs.filter((h) => h.recorder).length;
  const note = recorders > 0 ? `; Run leaves out hookd\u2019s own recorder${recorders === 1 ? '' : 's'}` : '';
  return `${runs.length} of ${total} hook${total === 1 ? '' : 's'} would run (${agent} by the agent, ${runs.length - agent} by hookd)${note}`;
}

/** A short label for a hook's outcome. */
export function outcomeLabel(outcome: string): string {
  switch (outcome) {
    case 'runs':
      return 'runs';
    case 'no_match':
      return 'no match';
    case 'disabled':
      return 'disabled';
    case 'duplicate':
      return 'duplicate';
    case 'all_disabled':
      return 'all hooks off';
    case 'managed_only':
      return 'policy: its hooks only';
    case 'if_not_met':
      return 'if rule not met';
    case 'bad_matcher':
      return 'bad matcher';
    case 'untrusted':
      return 'not trusted';
    default:
      return outcome;
  }
}
