// The test bench's match list: every hook of the event in the project, in
// the order they are configured, with its source file, matcher, what it
// runs, and whether it would run for the payload and why (not).

import { matchCountText, matchTargetText, outcomeLabel } from '../lib/bench-result';
import type { BenchHook, BenchMatch } from '../lib/types';
import { basename, breakable, h } from './dom';
import { renderVerdict } from './runs-verdict';

/** `agent · local` with the file as a tooltip and, shortened, below. */
function source(hook: BenchHook): HTMLElement {
  const who = hook.kind === 'agent' ? 'Claude Code' : 'hookd';
  return h(
    'div',
    { class: 'bench-source', attrs: { title: `${hook.file}\n${hook.kind === 'agent' ? 'The agent runs this hook itself' : 'hookd\u2019s daemon runs this managed hook'}` } },
    h('span', { class: `badge badge-kind badge-${hook.kind}`, text: `${hook.kind} · ${hook.scope}` }),
    h('span', { class: 'bench-file mono muted', attrs: { title: hook.file } }, ...breakable(`${who}: ${shortFile(hook.file)}${hook.timeout !== null ? ` · timeout ${hook.timeout} s` : ''}`)),
  );
}

/** The last two path components: `.claude/settings.local.json`. */
function shortFile(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(-2).join('/') : basename(file);
}

function row(hook: BenchHook): HTMLElement {
  const runs = hook.outcome === 'runs';
  const matcher = hook.matcher === null ? '(none)' : hook.matcher === '' ? '""' : hook.matcher;
  return h(
    'tr',
    {
      class: `bench-hook ${runs ? 'bench-hook-runs' : 'bench-hook-skipped'}`,
      data: { testid: 'bench-hook', index: String(hook.index), outcome: hook.outcome, kind: hook.kind, scope: hook.scope, executes: String(hook.executes), runs: String(hook.runs.runs) },
    },
    h(
      'td',
      { class: 'bench-outcome' },
      h('span', { class: `chip chip-${runs && hook.runs.runs ? 'runs' : 'skipped'}`, data: { testid: 'bench-hook-outcome' }, text: !runs ? `✗ ${outcomeLabel(hook.outcome)}` : hook.runs.runs ? '✓ runs' : '✗ matches, does not run' }),
      h('div', { class: 'muted small-note', attrs: { title: 'Position in the project\u2019s hook list' }, text: `#${hook.index + 1}` }),
    ),
    h(
      'td',
      { class: 'bench-summary' },
      h('code', { class: 'mono', data: { testid: 'bench-hook-command' }, attrs: { title: hook.summary } }, ...breakable(hook.summary)),
      source(hook),
      hook.handler_type !== 'command' ? h('span', { class: 'badge badge-warn', attrs: { title: 'hookd runs only command hooks; the agent runs this one itself' }, text: `${hook.handler_type}: not run here` }) : null,
      hook.recorder ? h('span', { class: 'badge badge-warn', data: { testid: 'bench-hook-recorder' }, attrs: { title: 'hookd\u2019s own hookd-emit entry: Run leaves it out, or the test would be recorded as a real event' }, text: 'hookd recorder: not run here' }) : null,
    ),
    h('td', { class: 'mono bench-matcher', data: { testid: 'bench-hook-matcher' }, attrs: { title: matcher } }, ...breakable(matcher)),
    h(
      'td',
      { class: 'bench-reason' },
      h('div', { data: { testid: 'bench-hook-reason' }, text: hook.reason }),
      // Matching is not running: a managed hook the agent never hands its event to does not run.
      hook.runs.runs ? null : renderVerdict(hook.runs),
    ),
  );
}

/** The match section's content for one result. */
export function renderMatches(m: BenchMatch): HTMLElement {
  const parts: HTMLElement[] = [
    h('p', { id: 'bench-match-target', class: 'muted', text: matchTargetText(m) }),
    h('p', { id: 'bench-match-summary', data: { runs: String(m.hooks.filter((x) => x.outcome === 'runs').length), total: String(m.hooks.length) }, text: matchCountText(m) }),
  ];
  for (const file of m.all_hooks_disabled_by) {
    parts.push(h('p', { class: 'bench-warning', data: { testid: 'bench-all-disabled' }, text: `${file} sets "disableAllHooks": true, so no hook of its kind runs.` }));
  }
  if (m.hooks.length > 0) {
    parts.push(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { id: 'bench-match-list', class: 'bench-table', attrs: { 'aria-label': `${m.event} hooks and whether they run` } },
          h(
            'thead',
            {},
            h('tr', {}, ...['Runs?', 'Hook', 'Matcher', 'Why'].map((t) => h('th', { attrs: { scope: 'col' }, text: t }))),
          ),
          h('tbody', {}, ...m.hooks.map(row)),
        ),
      ),
    );
  }
  return h('div', { class: 'bench-matches' }, ...parts);
}
