// The Health screen: the core's health check of one project (what
// `hookd doctor` prints): findings grouped by severity, each with its hook
// and the core's message, and the managed hooks' evidence from the ledger
// (runs, failed, timed out, p95). The tray's "⚠ N hook problems" opens it.

import { basename, h } from '../components/dom';
import { api } from '../lib/api';
import { durationText, groupFindings, hookLabel, SEVERITY_TEXT, summaryText } from '../lib/health';
import { healthHash, type Route } from '../lib/route';
import { absoluteTitle, relativeTime } from '../lib/time';
import type { Finding, HealthReport, HookEvidence, ProjectInfo } from '../lib/types';
import type { View, ViewContext } from './view';

function findingRow(f: Finding): HTMLElement {
  return h(
    'li',
    { class: `health-finding health-${f.severity}`, data: { testid: 'health-finding', severity: f.severity, code: f.code } },
    f.hook ? h('div', { class: 'mono health-hook', data: { testid: 'health-hook' }, attrs: { title: f.hook.path } }, hookLabel(f.hook)) : null,
    h('div', { class: 'health-message', data: { testid: 'health-message' }, text: f.message }),
    f.hook ? h('div', { class: 'muted small-note mono', text: `${f.hook.kind === 'agent' ? 'Claude Code' : 'hookd'} · ${f.hook.scope}: ${f.hook.path}` }) : null,
  );
}

function evidenceTable(evidence: HookEvidence[]): HTMLElement {
  if (evidence.length === 0) return h('p', { id: 'health-evidence-empty', class: 'muted', text: 'No managed hook applies to this project.' });
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { id: 'health-evidence', class: 'hooks-table health-evidence' },
      h('thead', {}, h('tr', {}, ...['Hook', 'Runs', 'Failed', 'Timed out', 'p95', 'Last run'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
      h(
        'tbody',
        {},
        ...evidence.map((e) =>
          h(
            'tr',
            { data: { testid: 'health-evidence-row', runs: String(e.runs), failed: String(e.failed), timedout: String(e.timed_out) } },
            h('td', { class: 'mono', attrs: { title: e.hook.path } }, hookLabel(e.hook)),
            h('td', { class: 'num', text: String(e.runs) }),
            h('td', { class: `num${e.failed > 0 ? ' health-bad' : ''}`, text: String(e.failed) }),
            h('td', { class: `num${e.timed_out > 0 ? ' health-bad' : ''}`, text: String(e.timed_out) }),
            h('td', { class: 'num', text: durationText(e.p95_ms, e.runs) }),
            h('td', { attrs: { title: absoluteTitle(e.last_run) }, text: e.last_run ? relativeTime(e.last_run) : '—' }),
          ),
        ),
      ),
    ),
  );
}

/** The report's content (the findings by severity, then the evidence). */
export function renderReport(report: HealthReport): HTMLElement {
  const groups = groupFindings(report.findings);
  return h(
    'div',
    { id: 'health-report', data: { serious: String(report.findings.filter((f) => f.severity === 'serious').length) } },
    h('p', { id: 'health-summary', class: 'health-summary', text: `${summaryText(report)}. Evidence since ${new Date(report.since).toLocaleDateString()}${report.last_event ? `; last event ${relativeTime(report.last_event)}` : '; no event recorded yet'}.` }),
    ...groups.map((g) =>
      h(
        'section',
        { class: 'health-group', data: { testid: 'health-group', severity: g.severity } },
        h('h2', { class: 'hooks-section-title', text: `${SEVERITY_TEXT[g.severity]} (${g.findings.length})` }),
        h('ul', { class: 'health-findings' }, ...g.findings.map(findingRow)),
      ),
    ),
    h('h2', { class: 'hooks-section-title', text: 'Managed hooks: what the ledger saw' }),
    evidenceTable(report.evidence),
  );
}

export function createHealthView(ctx: ViewContext, initial: Extract<Route, { view: 'health' }>): View {
  let destroyed = false;
  let project = initial.project;
  let projects: ProjectInfo[] = [];
  let seq = 0;
  const picker = h('select', { id: 'health-project', class: 'select', attrs: { 'aria-label': 'Project' } });
  const recheck = h('button', { id: 'health-recheck', class: 'button', attrs: { type: 'button' }, text: 'Check again', on: { click: () => void load() } });
  const body = h('div', { id: 'health-body', attrs: { 'aria-live': 'polite' } });
  picker.addEventListener('change', () => ctx.navigate(healthHash(picker.value || null)));
  const el = h(
    'section',
    { id: 'view-health', class: 'view view-health', attrs: { 'aria-labelledby': 'health-title' } },
    h(
      'header',
      { class: 'view-header' },
      h('h1', { id: 'health-title', text: 'Health' }),
      h('p', { class: 'muted', text: 'What the settings files say, joined with what the ledger saw (hookd doctor).' }),
      h('div', { class: 'health-controls' }, picker, recheck),
    ),
    // The report is text only: the box itself takes focus, so the keyboard can scroll it.
    h('div', { class: 'view-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'Health report' } }, body),
  );

  function renderPicker(): void {
    const roots = projects.map((p) => p.root);
    if (project && !roots.includes(project)) roots.unshift(project);
    picker.replaceChildren(h('option', { attrs: { value: '' }, text: 'Choose a project…' }), ...roots.map((root) => h('option', { attrs: { value: root }, text: `${projects.find((p) => p.root === root)?.name ?? basename(root)} — ${root}` })));
    picker.value = project ?? '';
  }

  async function load(): Promise<void> {
    const mine = ++seq;
    if (!project) {
      body.replaceChildren(h('p', { class: 'muted', text: 'Choose a project to check its hooks.' }));
      return;
    }
    recheck.disabled = true;
    body.setAttribute('aria-busy', 'true');
    if (!body.firstChild) body.replaceChildren(h('p', { class: 'muted', text: 'Checking…' }));
    try {
      const report = await api.project_health({ project, days: null });
      if (destroyed || mine !== seq) return;
      body.replaceChildren(renderReport(report));
    } catch (err) {
      if (!destroyed && mine === seq) {
        body.replaceChildren();
        ctx.errors.show(err, 'Could not check the project\u2019s hooks');
      }
    } finally {
      if (mine === seq) {
        recheck.disabled = false;
        body.removeAttribute('aria-busy');
      }
    }
  }

  void api.list_projects().then(
    (list) => {
      if (destroyed) return;
      projects = list;
      renderPicker();
    },
    (err: unknown) => ctx.errors.show(err, 'Could not list the projects'),
  );
  renderPicker();
  void load();

  return {
    el,
    update(route) {
      if (route.view !== 'health' || route.project === project) return;
      project = route.project;
      body.replaceChildren();
      renderPicker();
      void load();
    },
    destroy() {
      destroyed = true;
    },
  };
}
