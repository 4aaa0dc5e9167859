// @vitest-environment jsdom
// The Test bench's backtest: the differences in words, the core's default
// limits, and the panel that sends the hook being tried (disabled while the
// replay runs, saying how far it is) and lists the blocked call.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBacktestPanel } from '../src/components/bench-backtest';
import { setBackend } from '../src/lib/api';
import { BACKTEST_DEFAULTS, changeKind, changeTitle, countField, draftOfSave, progressText, reportSummary } from '../src/lib/backtest';
import type { BacktestChange } from '../src/lib/types';
import { createStub } from '../src/stub';

const change = (over: Partial<BacktestChange>): BacktestChange => ({
  event_id: 'e',
  timestamp: 't',
  event: 'PreToolUse',
  tool_name: 'Bash',
  subject: 'sudo ls',
  before: null,
  before_unknown: false,
  after: 'deny',
  reason: 'no sudo',
  rewritten_input: null,
  failures: [],
  ...over,
});

afterEach(() => {
  setBackend(null);
  document.body.replaceChildren();
});

describe('backtest in words', () => {
  it('names each difference', () => {
    expect(changeTitle(change({}))).toBe('PreToolUse Bash [sudo ls]: nothing → deny');
    expect(changeTitle(change({ before_unknown: true }))).toBe('PreToolUse Bash [sudo ls]: unknown (not recorded) → deny');
    expect(changeKind(change({}))).toBe('blocks');
    expect(changeKind(change({ before: 'deny', after: null }))).toBe('allows');
    expect(changeKind(change({ after: null, rewritten_input: { command: 'ls' } }))).toBe('rewrites');
    expect(changeKind(change({ after: null, failures: ['exit 1'] }))).toBe('fails');
  });
  it('says how far a replay is, and reads the save preview as the draft', () => {
    expect(progressText({ replayed: 12, events: 200 })).toBe('12 of 200 events replayed');
    expect(progressText({ replayed: 1, events: 1 })).toBe('1 of 1 event replayed');
    expect(draftOfSave('\uFEFF{"hooks": {}}\r\n')).toEqual({ hooks: {} });
  });
  it('summarises and keeps the core\u2019s defaults', () => {
    expect(BACKTEST_DEFAULTS).toEqual({ last: 200, jobs: 2, timeout: 10 });
    expect(countField('50', 200)).toBe(50);
    expect(countField('-1', 200)).toBe(200);
    expect(countField('x', 2)).toBe(2);
    const r = { events: 1, matched: 1, runs: 1, span: null, changes: [] };
    expect(reportSummary(r)).toMatch(/^Replayed 1 recorded event: .* It decides nothing differently\.$/);
  });
});

describe('the panel', () => {
  it('names every field (axe select-name): a label, aria-label or aria-labelledby each', () => {
    const panel = createBacktestPanel({ project: () => null, event: () => 'PreToolUse', onError: (err) => { throw err; } });
    document.body.append(panel);
    const unnamed = [...panel.querySelectorAll<HTMLElement>('select, input, textarea')].filter(
      (el) => !el.getAttribute('aria-label')?.trim() && !el.getAttribute('aria-labelledby') && !(el.id && panel.querySelector(`label[for="${el.id}"]`)) && !el.closest('label'),
    );
    expect(unnamed.map((el) => el.id)).toEqual([]);
    panel.remove();
  });

  it('sends the hook being tried with the limits, is disabled while it runs, and lists the blocked call', async () => {
    const stub = createStub({ rows: 5, seed: 1 });
    setBackend(stub);
    const root = ((await stub.invoke('list_projects', {})) as { root: string }[])[0]!.root;
    const panel = createBacktestPanel({ project: () => root, event: () => 'PreToolUse', onError: (err) => { throw err; } });
    document.body.append(panel);
    (panel.querySelector('#backtest-matcher') as HTMLInputElement).value = 'Bash';
    (panel.querySelector('#backtest-command') as HTMLInputElement).value = './no-sudo.sh';
    const button = panel.querySelector<HTMLButtonElement>('#backtest-run')!;
    const lines: string[] = [];
    const status = panel.querySelector('#backtest-status')!;
    const seen = new MutationObserver(() => lines.push(status.textContent ?? ''));
    seen.observe(status, { subtree: true, childList: true, characterData: true });
    button.click();
    expect(button.disabled).toBe(true);
    await vi.waitFor(() => expect(panel.querySelector('[data-testid=backtest-change]')).not.toBeNull());
    seen.disconnect();
    // How far it is, as the backend reports it, while it runs.
    expect(lines).toContain('Replaying: 3 of 3 events replayed… (the bench\u2019s Cancel stops it)');
    expect(button.disabled).toBe(false);
    expect(stub.lastArgs.get('bench_backtest')).toEqual({
      request: { project: root, kind: 'managed', scope: 'project', draft: null, hook: { event: 'PreToolUse', matcher: 'Bash', command: './no-sudo.sh' }, last: 200, jobs: 2, timeout: 10 },
    });
    const row = panel.querySelector<HTMLElement>('[data-testid=backtest-change]')!;
    expect(row.dataset.kind).toBe('blocks');
    expect(row.textContent).toContain('sudo rm -rf /var/cache');
  });
});
