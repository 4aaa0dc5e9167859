// The Test bench's "Backtest on recent history" panel: a hook to try (the
// bench's event, a matcher, a command, the file it would go into), the
// limits (events, jobs, per-hook timeout; the core's defaults), and the
// differences it would have made on the project's recorded events, listed
// before anything is saved. Opt-in: nothing runs until the button is
// pressed; the button is disabled while the replay runs (on the backend's
// blocking pool), which says "N of M events replayed" as it goes, and the
// bench's Cancel stops it. `renderBacktest` also shows the Hook editor's
// backtest of its edits.

import '../styles/backtest.css';
import { api, type Unlisten } from '../lib/api';
import { BACKTEST_DEFAULTS, changeKind, changeTitle, countField, listenProgress, progressText, reportSummary } from '../lib/backtest';
import type { BacktestReport, Kind, Scope } from '../lib/types';
import { h } from './dom';

const TARGETS: { kind: Kind; scope: Scope; label: string }[] = [
  { kind: 'managed', scope: 'project', label: 'hookd · Project' },
  { kind: 'managed', scope: 'local', label: 'hookd · Local' },
  { kind: 'managed', scope: 'global', label: 'hookd · Global' },
];

export interface BacktestPanelDeps {
  project(): string | null;
  event(): string;
  onError(err: unknown, context: string): void;
}

/** The rendered report. */
export function renderBacktest(report: BacktestReport): HTMLElement {
  return h(
    'div',
    { id: 'backtest-report', data: { events: String(report.events), changes: String(report.changes.length) } },
    h('p', { id: 'backtest-summary', text: reportSummary(report) }),
    report.changes.length > 0
      ? h(
          'ul',
          { class: 'backtest-changes' },
          ...report.changes.map((c) => {
            const kind = changeKind(c);
            return h(
              'li',
              { class: `backtest-change backtest-${kind}`, data: { testid: 'backtest-change', kind, after: c.after ?? '' } },
              h('span', { class: `badge ${kind === 'blocks' || kind === 'fails' ? 'runs-no' : 'badge-warn'}`, text: kind }),
              ' ',
              h('span', { class: 'mono', text: changeTitle(c) }),
              h('div', { class: 'muted small-note', text: c.timestamp }),
              c.reason ? h('div', { data: { testid: 'backtest-reason' }, text: c.reason }) : null,
              c.rewritten_input !== null ? h('div', { class: 'mono small-note', text: `rewrites the input to ${JSON.stringify(c.rewritten_input)}` }) : null,
              ...c.failures.map((f) => h('div', { class: 'field-error', text: `would fail: ${f}` })),
            );
          }),
        )
      : null,
  );
}

export function createBacktestPanel(deps: BacktestPanelDeps): HTMLElement {
  const target = h('select', { id: 'backtest-target', class: 'select', attrs: { 'aria-label': 'Hooks file to test in' } }, ...TARGETS.map((t, i) => h('option', { attrs: { value: String(i) }, text: t.label })));
  const matcher = h('input', { id: 'backtest-matcher', class: 'text-input mono', attrs: { type: 'text', placeholder: 'matcher (e.g. Bash)', 'aria-label': 'Matcher' } });
  const command = h('input', { id: 'backtest-command', class: 'text-input mono', attrs: { type: 'text', placeholder: 'command the hook runs', 'aria-label': 'Command' } });
  const last = h('input', { id: 'backtest-last', class: 'text-input', attrs: { type: 'number', min: '1', value: String(BACKTEST_DEFAULTS.last), 'aria-label': 'Events' } });
  const jobs = h('input', { id: 'backtest-jobs', class: 'text-input', attrs: { type: 'number', min: '1', max: '8', value: String(BACKTEST_DEFAULTS.jobs), 'aria-label': 'At once' } });
  const timeout = h('input', { id: 'backtest-timeout', class: 'text-input', attrs: { type: 'number', min: '1', value: String(BACKTEST_DEFAULTS.timeout), 'aria-label': 'Per-hook timeout (s)' } });
  const status = h('p', { id: 'backtest-status', class: 'muted', attrs: { 'aria-live': 'polite' } });
  const out = h('div', { id: 'backtest-result', attrs: { 'aria-busy': 'false' } });
  const button: HTMLButtonElement = h('button', {
    id: 'backtest-run',
    class: 'button',
    attrs: { type: 'button' },
    text: 'Backtest on recent history',
    on: { click: () => void run() },
  });

  async function run(): Promise<void> {
    const project = deps.project();
    if (!project) return;
    const t = TARGETS[Number(target.value)]!;
    const n = countField(last.value, BACKTEST_DEFAULTS.last);
    button.disabled = true;
    out.setAttribute('aria-busy', 'true');
    const cancel = ' (the bench\u2019s Cancel stops it)';
    status.textContent = `Replaying up to ${n} recorded events…${cancel}`;
    let unlisten: Unlisten | null = null;
    try {
      // Without the events the replay still runs; only the count is missing.
      unlisten = await listenProgress({ project, kind: t.kind, scope: t.scope }, (p) => {
        if (button.disabled) status.textContent = `Replaying: ${progressText(p)}…${cancel}`;
      }).catch(() => null);
      const report = await api.bench_backtest({
        request: {
          project,
          kind: t.kind,
          scope: t.scope,
          draft: null,
          hook: { event: deps.event(), matcher: matcher.value.trim() || null, command: command.value },
          last: n,
          jobs: countField(jobs.value, BACKTEST_DEFAULTS.jobs),
          timeout: countField(timeout.value, BACKTEST_DEFAULTS.timeout),
        },
      });
      status.textContent = '';
      out.replaceChildren(renderBacktest(report));
    } catch (err) {
      status.textContent = '';
      out.replaceChildren();
      deps.onError(err, 'Could not backtest the hook');
    } finally {
      unlisten?.();
      button.disabled = false;
      out.setAttribute('aria-busy', 'false');
    }
  }

  return h(
    'section',
    { id: 'bench-backtest', class: 'bench-panel bench-backtest', attrs: { 'aria-labelledby': 'backtest-title' } },
    h('h2', { id: 'backtest-title', class: 'section-title', text: 'Backtest on recent history' }),
    h('p', { class: 'muted small-note', text: 'Replays this project\u2019s last recorded events with this hook added to the chosen file (not saved) and lists what it would have decided differently: calls it would block, inputs it would rewrite, runs that would fail. Only the new hook runs, with HOOKD_BACKTEST=1; no answer reaches any agent.' }),
    h('div', { class: 'backtest-fields' }, target, matcher, command),
    h('div', { class: 'backtest-fields' }, h('label', { class: 'muted small-note' }, 'Events ', last), h('label', { class: 'muted small-note' }, 'At once ', jobs), h('label', { class: 'muted small-note' }, 'Per-hook timeout (s) ', timeout), button),
    status,
    out,
  );
}
