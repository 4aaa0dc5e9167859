// @vitest-environment jsdom
// The Health screen: findings grouped by severity (serious first) with
// their hook and the core's message, the evidence table, and the route.
import { describe, expect, it } from 'vitest';
import { durationText, groupFindings, hookLabel, summaryText } from '../src/lib/health';
import { formatHash, parseHash } from '../src/lib/route';
import type { Finding, HealthReport } from '../src/lib/types';
import { renderReport } from '../src/views/health';

const hook = { kind: 'agent' as const, scope: 'local' as const, path: '/p/.claude/settings.local.json', event: 'PreToolUse', matcher: 'Bash', runs: 'python3 guard.py' };
const finding = (severity: Finding['severity'], code: Finding['code'], message: string): Finding => ({ severity, code, hook, message });
const report: HealthReport = {
  project: '/p',
  since: '2026-01-01T00:00:00Z',
  findings: [finding('info', 'duplicate', 'runs once'), finding('serious', 'missing_script', '/p/guard.py does not exist'), finding('warning', 'no_on_failure', 'no onFailure')],
  evidence: [{ hook: { ...hook, kind: 'managed' }, runs: 4, failed: 1, timed_out: 0, p95_ms: 1500, last_run: null }],
  last_event: null,
  last_session: null,
};

describe('health', () => {
  it('groups findings serious first, leaving out empty severities', () => {
    expect(groupFindings(report.findings).map((g) => g.severity)).toEqual(['serious', 'warning', 'info']);
    expect(groupFindings([report.findings[0]!]).map((g) => g.severity)).toEqual(['info']);
  });
  it('words a hook, a p95 and the summary', () => {
    expect(hookLabel(hook)).toBe('PreToolUse [Bash]: python3 guard.py');
    expect(hookLabel({ ...hook, matcher: null })).toBe('PreToolUse: python3 guard.py');
    expect(durationText(0, 0)).toBe('—');
    expect(durationText(48.2, 3)).toBe('48 ms');
    expect(durationText(1500, 3)).toBe('1.5 s');
    expect(summaryText(report)).toBe('1 serious, 1 warning, 1 note');
    expect(summaryText({ ...report, findings: [] })).toBe('No problem found');
  });
  it('renders each finding with its hook and message, and the evidence', () => {
    const el = renderReport(report);
    const serious = el.querySelector<HTMLElement>('[data-testid=health-group][data-severity=serious]')!;
    expect(serious.querySelector('[data-testid=health-finding]')!.getAttribute('data-code')).toBe('missing_script');
    expect(serious.querySelector('[data-testid=health-hook]')!.textContent).toBe('PreToolUse [Bash]: python3 guard.py');
    expect(serious.querySelector('[data-testid=health-message]')!.textContent).toBe('/p/guard.py does not exist');
    const groups = [...el.querySelectorAll<HTMLElement>('[data-testid=health-group]')].map((g) => g.dataset.severity);
    expect(groups).toEqual(['serious', 'warning', 'info']);
    const row = el.querySelector<HTMLElement>('[data-testid=health-evidence-row]')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['PreToolUse [Bash]: python3 guard.py', '4', '1', '0', '1.5 s', '—']);
  });
  it('has a route, which the tray\u2019s item opens', () => {
    expect(parseHash('#/health?project=/src/app')).toEqual({ view: 'health', project: '/src/app' });
    expect(formatHash({ view: 'health', project: '/src/app' })).toBe('#/health?project=/src/app');
    expect(parseHash('#/health')).toEqual({ view: 'health', project: null });
  });
});
