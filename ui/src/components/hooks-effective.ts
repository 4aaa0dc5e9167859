// The Effective tab: every hook that applies to the project, agent and
// hookd alike, in the order they are read, each with its source file, its
// state (disabled through hookd, a duplicate that runs once, untrusted),
// whether it really runs for the project and every reason it does not
// (settings::runs), and the files that were read or skipped.

import type { EffectiveEntry, EffectiveView, Scope } from '../lib/types';
import { breakable, h } from './dom';
import { renderVerdict } from './runs-verdict';

const SCOPE_TEXT: Record<Scope, string> = { global: 'Global', project: 'Project', local: 'Local', policy: 'Policy' };

/** `enabled`, `disabled`, `duplicate` or `untrusted` (a project's managed file not approved: hookd skips it). */
export function hookState(e: EffectiveEntry): 'enabled' | 'disabled' | 'duplicate' | 'untrusted' {
  if (!e.enabled) return 'disabled';
  if (e.duplicate_of !== null) return 'duplicate';
  return e.untrusted !== null ? 'untrusted' : 'enabled';
}

/** A file's path for a table cell: relative to the project when inside it. */
export function shortPath(path: string, project: string | null): string {
  return project && path.startsWith(`${project}/`) ? path.slice(project.length + 1) : path;
}

/** Renders the effective view of `project`. */
export function renderEffective(view: EffectiveView, project: string | null = null): HTMLElement {
  const runs = view.hooks.filter((e) => e.runs.runs && e.duplicate_of === null).length;
  const idle = view.hooks.filter((e) => !e.runs.runs).length;
  const summary = h('p', {
    id: 'hooks-effective-summary',
    class: 'muted',
    text: `${view.hooks.length} hook${view.hooks.length === 1 ? '' : 's'}: ${runs} run, ${idle} do${idle === 1 ? 'es' : ''} not run, ${view.hooks.filter((e) => e.duplicate_of !== null).length} duplicate`,
  });
  const alerts: HTMLElement[] = [];
  for (const path of view.all_disabled_by) {
    alerts.push(h('p', { class: 'hooks-alert', data: { testid: 'all-disabled' } }, h('code', { text: 'disableAllHooks: true' }), ' in ', h('span', { class: 'mono', text: path }), ' turns off every hook of its kind.'));
  }
  if (view.errors.length > 0) {
    alerts.push(h('div', { id: 'hooks-effective-errors', class: 'hooks-alert' }, h('strong', { text: 'Skipped files (their hooks do not run):' }), h('ul', {}, ...view.errors.map((e) => h('li', { class: 'mono', text: e })))));
  }
  const rows = view.hooks.map((e) => {
    const state = hookState(e);
    const stateText = state === 'disabled' ? 'disabled (hookd)' : state === 'untrusted' ? 'not trusted' : state === 'duplicate' ? `duplicate of #${(e.duplicate_of ?? 0) + 1}, runs once` : null;
    return h(
      'tr',
      { data: { testid: 'effective-hook', kind: e.kind, scope: e.scope, event: e.event, state, runs: String(e.runs.runs), command: e.command ?? '' } },
      h('td', { class: 'num', text: `#${e.index + 1}` }),
      h('td', { class: 'mono hooks-event-name', text: e.event }),
      h('td', { class: 'mono', attrs: { title: e.matcher ?? null } }, ...breakable(e.matcher ?? '')),
      // Wraps between the parts of a path or command; the whole text is its tooltip.
      h(
        'td',
        { class: 'mono hooks-summary', attrs: { title: e.summary } },
        e.handler_type !== 'command' ? h('span', { class: 'badge badge-off', text: e.handler_type || 'no type' }) : null,
        e.handler_type !== 'command' ? ' ' : null,
        ...breakable(e.summary),
      ),
      h('td', { class: 'num', text: e.timeout !== null ? `${e.timeout} s` : '' }),
      h('td', { class: 'hooks-state-cell' }, stateText !== null ? h('span', { class: `badge hooks-state hooks-state-${state}`, text: stateText }) : null, renderVerdict(e.runs)),
      h(
        'td',
        { class: 'hooks-source', data: { testid: 'effective-source', path: e.path }, attrs: { title: e.path } },
        h('span', { class: 'hooks-source-who', text: `${e.kind === 'agent' ? 'Claude Code' : 'hookd'} · ${SCOPE_TEXT[e.scope]}` }),
        h('span', { class: 'mono' }, ...breakable(shortPath(e.path, project))),
      ),
    );
  });
  const table = h(
    'table',
    { id: 'hooks-effective-table', class: 'hooks-table' },
    h('caption', { class: 'visually-hidden', text: 'Every hook that applies to this project' }),
    h('colgroup', {}, ...['num', 'event', 'matcher', 'runs', 'timeout', 'state', 'source'].map((c) => h('col', { class: `hooks-col-${c}` }))),
    h('thead', {}, h('tr', {}, ...['#', 'Event', 'Matcher', 'What runs', 'Timeout', 'State', 'Source file'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
    h('tbody', {}, ...rows),
  );
  const files = h(
    'ul',
    { id: 'hooks-effective-files', class: 'hooks-files' },
    ...view.files.map((f) =>
      h(
        'li',
        { data: { testid: 'effective-file', kind: f.kind, scope: f.scope, skipped: String(f.skipped), exists: String(f.exists) } },
        h('span', { text: `${f.kind === 'agent' ? 'Claude Code' : 'hookd'} · ${SCOPE_TEXT[f.scope]}: ` }),
        h('span', { class: 'mono', text: f.path }),
        f.skipped ? h('span', { class: 'badge badge-warn', text: 'skipped' }) : f.exists ? null : h('span', { class: 'badge badge-off', text: 'no file' }),
      ),
    ),
  );
  return h(
    'section',
    { id: 'hooks-effective', class: 'hooks-effective', attrs: { 'aria-label': 'Effective hooks' } },
    summary,
    ...alerts,
    view.hooks.length > 0 ? h('div', { class: 'hooks-table-wrap' }, table) : h('p', { id: 'hooks-effective-empty', class: 'muted', text: 'No hook applies to this project.' }),
    h('h3', { class: 'hooks-section-title', text: 'Files read, in order' }),
    files,
  );
}
