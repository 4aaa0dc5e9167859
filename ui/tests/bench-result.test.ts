import { describe, expect, it } from 'vitest';
import { exitText, formatMs, matchCountText, matchTargetText, outcomeLabel, verdict } from '../src/lib/bench-result';
import type { BenchHook, BenchHookRun, BenchMatch, BenchResult } from '../src/lib/types';

const result = (over: Partial<BenchResult>): BenchResult => ({ exit_code: 0, stdout: '', stderr: '', decision: null, reason: null, errors: [], ...over });
const run = (over: Partial<BenchHookRun>): BenchHookRun => ({
  index: 0,
  command: 'x',
  file: '/f',
  exit_code: 0,
  timed_out: false,
  duration_ms: 5,
  stdout: '',
  stderr: '',
  truncated: false,
  decision: null,
  reason: null,
  json_error: null,
  error: null,
  ...over,
});
const hook = (over: Partial<BenchHook>): BenchHook => ({
  index: 0,
  kind: 'agent',
  scope: 'local',
  file: '/r/.claude/settings.local.json',
  matcher: 'Bash',
  handler_type: 'command',
  summary: 'guard',
  timeout: null,
  runs: { runs: true, reasons: [] },
  outcome: 'runs',
  reason: 'exact name Bash',
  executes: true,
  recorder: false,
  ...over,
});

describe('bench results in words', () => {
  it('puts the merged decision first, with the first line of its reason', () => {
    expect(verdict(result({ exit_code: 2, decision: 'deny', reason: 'refusing rm -rf\n' }), [run({})])).toEqual({ decision: 'deny', tone: 'danger', headline: 'Denied: refusing rm -rf' });
    expect(verdict(result({ decision: 'deny', reason: 'a\nb' }), [run({})]).headline).toBe('Denied: a');
    expect(verdict(result({ decision: 'block', reason: null }), [run({})]).headline).toBe('Blocked');
    expect(verdict(result({ decision: 'allow', reason: 'fine' }), [run({})]).tone).toBe('ok');
    expect(verdict(result({ decision: 'ask', reason: 'look' }), [run({})]).headline).toBe('Ask the user: look');
    expect(verdict(result({ decision: 'stop', reason: 'enough' }), [run({})]).headline).toBe('Agent stopped: enough');
    expect(verdict(result({}), []).headline).toBe('Nothing ran: no command hook matches this payload');
    expect(verdict(result({ exit_code: 1, errors: ['hook `x` exited with code 1'] }), [run({ exit_code: 1 })])).toMatchObject({ decision: 'none', tone: 'warn' });
    expect(verdict(result({}), [run({})]).headline).toBe('No decision: the action goes ahead');
  });

  it('says how each run ended and how long it took', () => {
    expect(exitText(run({ exit_code: 2 }))).toBe('exit 2');
    expect(exitText(run({ exit_code: null, timed_out: true }))).toBe('timed out (killed)');
    expect(exitText(run({ exit_code: null, error: 'could not run: No such file' }))).toBe('could not start');
    expect(exitText(run({ exit_code: null }))).toBe('killed by a signal');
    expect([formatMs(4.4), formatMs(999.6), formatMs(1500), formatMs(12_345)]).toEqual(['4 ms', '1000 ms', '1.5 s', '12 s']);
  });

  it('summarises the match', () => {
    const m: BenchMatch = {
      event: 'PreToolUse',
      match_field: 'tool_name',
      target: 'Bash',
      hooks: [hook({}), hook({ index: 1, kind: 'managed', outcome: 'no_match' }), hook({ index: 2, kind: 'managed' })],
      all_hooks_disabled_by: [],
    };
    expect(matchCountText(m)).toBe('2 of 3 hooks would run (1 by the agent, 1 by hookd)');
    const connected = { ...m, hooks: [...m.hooks, hook({ index: 3, recorder: true, executes: false })] };
    expect(matchCountText(connected)).toBe('3 of 4 hooks would run (2 by the agent, 1 by hookd); Run leaves out hookd\u2019s own recorder');
    expect(matchTargetText(m)).toBe('Matchers are tested against tool_name = "Bash".');
    expect(matchTargetText({ ...m, target: null })).toContain('which the payload lacks');
    expect(matchTargetText({ ...m, event: 'Stop', match_field: null })).toBe('Stop takes no matcher: every group runs.');
    expect(matchCountText({ ...m, hooks: [] })).toBe('No PreToolUse hooks are configured for this project.');
    expect(outcomeLabel('all_disabled')).toBe('all hooks off');
  });
});
