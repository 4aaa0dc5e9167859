// The Test bench: pick a project, an event and a payload (a ready sample,
// one pasted, or a real one taken from the timeline), see which of the
// project's hooks match and why, then Run them for real and see each hook's
// exit code, duration, output and decision, and the merged decision as the
// agent would act on it.
//
// Route: `#/bench?project=<root>&event=<name>`. A payload handed over from
// the timeline waits in sessionStorage (see lib/bench-payload.ts).

import '../styles/bench.css';
import { createBacktestPanel } from '../components/bench-backtest';
import { createPayloadEditor } from '../components/bench-editor';
import { renderMatches } from '../components/bench-matches';
import { renderResults } from '../components/bench-results';
import { h } from '../components/dom';
import { api, normalizeError } from '../lib/api';
import type { JsonCheck } from '../lib/bench-json';
import { formatPayload, payloadCwd, payloadEvent, projectFor, retarget, sampleFor, takeHandoff, type Handoff } from '../lib/bench-payload';
import { debounce } from '../lib/debounce';
import { benchHash, type Route } from '../lib/route';
import type { BenchCatalog, BenchSample, ProjectInfo } from '../lib/types';
import type { View, ViewContext } from './view';

type BenchRoute = Extract<Route, { view: 'bench' }>;

/** The event the bench opens on: the one hooks most often guard. */
export const DEFAULT_EVENT = 'PreToolUse';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function createBenchView(ctx: ViewContext, initial: BenchRoute): View {
  let destroyed = false;
  let projects: ProjectInfo[] = [];
  let project: string | null = null;
  let catalog: BenchCatalog | null = null;
  let event = initial.event ?? DEFAULT_EVENT;
  /** The sample last loaded and its text, to tell whether the user has edited it since. */
  let loaded: { id: string; text: string } | null = null;
  let matchSeq = 0;
  let runSeq = 0;
  let running = false;

  const projectSelect = h('select', { id: 'bench-project', class: 'select', attrs: { 'aria-describedby': 'bench-project-root' } });
  const projectRoot = h('div', { id: 'bench-project-root', class: 'mono muted small-note' });
  const eventSelect = h('select', { id: 'bench-event', class: 'select', attrs: { 'aria-describedby': 'bench-event-description' } });
  const eventDescription = h('div', { id: 'bench-event-description', class: 'muted small-note' });
  const sampleSelect = h('select', { id: 'bench-sample', class: 'select' });
  const sourceNote = h('p', { id: 'bench-source-note', class: 'bench-note', attrs: { hidden: true } });

  const editor = createPayloadEditor((check) => onPayloadEdit(check));

  const matches = h('div', { id: 'bench-matches', class: 'bench-matches-host', attrs: { 'aria-busy': 'false', 'aria-live': 'polite' } });
  const runButton = h('button', {
    id: 'bench-run',
    class: 'button primary',
    attrs: { type: 'button', 'aria-describedby': 'bench-run-warning' },
    text: 'Run hooks',
    on: { click: () => void run() },
  });
  const cancelButton = h('button', {
    id: 'bench-cancel',
    class: 'button',
    attrs: { type: 'button', hidden: true, title: 'Stop the run: every hook still running is killed with its child processes' },
    text: 'Cancel',
    on: { click: () => void cancelRun() },
  });
  const runWarning = h(
    'p',
    { id: 'bench-run-warning', class: 'bench-run-warning' },
    h('strong', { text: 'Run really executes the matching commands' }),
    ' on this computer, in the project folder, with this payload on stdin: the agent\u2019s own hooks as well as hookd\u2019s. Each hook runs until it exits or reaches its timeout.',
  );
  const result = h('div', { id: 'bench-result', class: 'bench-result-host', attrs: { 'aria-busy': 'false', 'aria-live': 'polite' } });
  const empty = h(
    'div',
    { id: 'bench-empty', class: 'empty-state', attrs: { hidden: true } },
    h('h2', { text: 'No project to test yet' }),
    h('p', {}, 'The test bench tries an event on one project\u2019s hooks. Add a project on the ', h('a', { attrs: { href: '#/projects' }, text: 'Projects' }), ' screen first.'),
  );

  const controls = h(
    'div',
    { class: 'bench-controls' },
    h('div', { class: 'bench-field' }, h('label', { class: 'field-label', attrs: { for: 'bench-project' }, text: 'Project' }), projectSelect, projectRoot),
    h('div', { class: 'bench-field' }, h('label', { class: 'field-label', attrs: { for: 'bench-event' }, text: 'Event' }), eventSelect, eventDescription),
    h('div', { class: 'bench-field' }, h('label', { class: 'field-label', attrs: { for: 'bench-sample' }, text: 'Sample payload' }), sampleSelect, h('div', { class: 'muted small-note', text: 'Replaces the payload; the cwd is the project.' })),
  );
  const body = h(
    'div',
    { id: 'bench-body', class: 'bench-body' },
    controls,
    sourceNote,
    h(
      'div',
      { class: 'bench-grid' },
      h('section', { class: 'bench-panel bench-payload-panel', attrs: { 'aria-label': 'Payload' } }, editor.el),
      h(
        'div',
        { class: 'bench-side' },
        h('section', { class: 'bench-panel', attrs: { 'aria-labelledby': 'bench-match-title' } }, h('h2', { id: 'bench-match-title', class: 'section-title', text: 'Which hooks match' }), matches),
        h('section', { class: 'bench-panel bench-run-panel', attrs: { 'aria-labelledby': 'bench-run-title' } }, h('h2', { id: 'bench-run-title', class: 'section-title', text: 'Run' }), h('div', { class: 'bench-run-bar' }, runButton, cancelButton, runWarning), result),
      ),
    ),
    createBacktestPanel({ project: () => project, event: () => event, onError: (err, context) => ctx.errors.show(err, context) }),
  );
  const el = h(
    'section',
    { id: 'view-bench', class: 'view view-bench', attrs: { 'aria-labelledby': 'bench-title' } },
    h('header', { class: 'view-header' }, h('h1', { id: 'bench-title', text: 'Test bench' }), h('p', { class: 'muted', text: 'Try an event on a project\u2019s hooks: see which match and why, then run them.' })),
    h('div', { class: 'view-scroll' }, body, empty),
  );

  projectSelect.addEventListener('change', () => ctx.navigate(benchHash(projectSelect.value, event)));
  eventSelect.addEventListener('change', () => ctx.navigate(benchHash(project, eventSelect.value)));
  sampleSelect.addEventListener('change', () => {
    const sample = catalog?.samples.find((s) => s.id === sampleSelect.value);
    if (!sample) return;
    sourceNote.hidden = true;
    loadSample(sample);
    if (sample.event !== event) {
      event = sample.event;
      eventSelect.value = event;
      describeEvent();
      replaceHash();
    }
    refreshMatch();
  });

  /** Keeps the hash in step without a history entry (defaults, sample picks). */
  function replaceHash(): void {
    if (!window.location.hash.startsWith('#/bench')) return;
    const hash = benchHash(project, event);
    if (window.location.hash !== hash) history.replaceState(null, '', hash);
  }

  function loadSample(sample: BenchSample): void {
    const text = formatPayload(sample.payload);
    editor.setText(text);
    loaded = { id: sample.id, text };
    sampleSelect.value = sample.id;
    clearResult();
  }

  /** The user's own payload, or an untouched sample (then it may be swapped for a better fitting one). */
  function untouchedSample(): string | null {
    return loaded !== null && editor.text() === loaded.text ? loaded.id : null;
  }

  function fillProjects(): void {
    const roots = projects.map((p) => p.root);
    const options = projects.map((p) => h('option', { attrs: { value: p.root }, text: p.name || p.root }));
    if (project !== null && !roots.includes(project)) options.unshift(h('option', { attrs: { value: project }, text: project }));
    projectSelect.replaceChildren(...options);
    if (project !== null) projectSelect.value = project;
    projectRoot.textContent = project ?? '';
  }

  function fillCatalog(): void {
    if (!catalog) return;
    const withSamples = new Set(catalog.samples.map((s) => s.event));
    const option = (name: string): HTMLOptionElement => h('option', { attrs: { value: name }, text: name });
    const common = catalog.events.filter((e) => withSamples.has(e.name)).map((e) => option(e.name));
    const other = catalog.events.filter((e) => !withSamples.has(e.name)).map((e) => option(e.name));
    eventSelect.replaceChildren(h('optgroup', { attrs: { label: 'With sample payloads' } }, ...common), h('optgroup', { attrs: { label: 'Other events' } }, ...other));
    if (!catalog.events.some((e) => e.name === event)) event = DEFAULT_EVENT;
    eventSelect.value = event;
    describeEvent();
    sampleSelect.replaceChildren(
      h('option', { attrs: { value: '', disabled: true }, text: 'Choose a sample…' }),
      ...catalog.samples.map((s) => h('option', { attrs: { value: s.id }, data: { event: s.event }, text: `${s.label}${s.label.includes(s.event) ? '' : ` (${s.event})`}` })),
    );
    sampleSelect.value = loaded?.id ?? '';
  }

  function describeEvent(): void {
    const spec = catalog?.events.find((e) => e.name === event);
    eventDescription.textContent = spec ? `${spec.description}${spec.match_field ? ` · matcher tested against ${spec.match_field}` : ' · takes no matcher'}` : '';
  }

  function showHandoff(h0: Handoff): void {
    sourceNote.textContent = `Payload taken from ${h0.source}. Edit it freely; nothing changes in the ledger.`;
    sourceNote.hidden = false;
    const parsed = (() => {
      try {
        return JSON.parse(h0.payload) as unknown;
      } catch {
        return null;
      }
    })();
    editor.setText(parsed !== null && typeof parsed === 'object' ? formatPayload(parsed) : h0.payload);
    loaded = null;
  }

  function clearResult(): void {
    runSeq++;
    result.replaceChildren();
    result.setAttribute('aria-busy', 'false');
  }

  function onPayloadEdit(check: JsonCheck): void {
    clearResult();
    if (untouchedSample() === null) sampleSelect.value = '';
    runButton.disabled = running || project === null || editor.payload() === null;
    if (!check.ok || editor.payload() === null) {
      matchSeq++;
      matchSoon.cancel();
      matches.setAttribute('aria-busy', 'false');
      matches.replaceChildren(h('p', { id: 'bench-match-invalid', class: 'muted', text: 'Fix the payload to see which hooks match.' }));
      return;
    }
    matchSoon();
  }

  const matchSoon = debounce(() => void match(), 250);

  function refreshMatch(): void {
    matchSoon.cancel();
    runButton.disabled = running || project === null || editor.payload() === null;
    if (editor.payload() === null) {
      onPayloadEdit(editor.check());
      return;
    }
    void match();
  }

  async function match(): Promise<void> {
    const payload = editor.payload();
    if (project === null || payload === null) return;
    const seq = ++matchSeq;
    matches.setAttribute('aria-busy', 'true');
    try {
      const m = await api.bench_match({ project, event, payload });
      if (destroyed || seq !== matchSeq) return;
      matches.replaceChildren(renderMatches(m));
    } catch (err) {
      if (destroyed || seq !== matchSeq) return;
      const e = err as { kind?: string; message?: string };
      matches.replaceChildren(
        h('p', { id: 'bench-match-error', class: 'bench-warning', data: { kind: e.kind ?? 'unknown' }, attrs: { role: 'alert' }, text: `Cannot tell which hooks match: ${e.message ?? String(err)}` }),
      );
    } finally {
      if (!destroyed && seq === matchSeq) matches.setAttribute('aria-busy', 'false');
    }
  }

  async function run(): Promise<void> {
    const payload = editor.payload();
    if (project === null || payload === null || running) return;
    const seq = ++runSeq;
    running = true;
    runButton.disabled = true;
    runButton.textContent = 'Running…';
    cancelButton.hidden = false;
    cancelButton.disabled = false;
    result.setAttribute('aria-busy', 'true');
    result.replaceChildren(h('p', { class: 'muted', text: `Running the matching ${event} hooks…` }));
    try {
      const r = await api.bench_run({ project, event, payload });
      if (destroyed || seq !== runSeq) return;
      result.replaceChildren(renderResults(r));
      // The run re-read the settings: show the match it used.
      matchSeq++;
      matches.replaceChildren(renderMatches(r.matched));
    } catch (err) {
      if (destroyed) return;
      if (normalizeError(err).kind === 'cancelled') {
        if (seq === runSeq) {
          result.replaceChildren(
            h('p', { id: 'bench-cancelled', class: 'muted', attrs: { role: 'status' }, text: 'Run cancelled: the hooks still running were stopped, with their child processes. Nothing was reported.' }),
          );
        }
        return;
      }
      if (seq === runSeq) result.replaceChildren();
      ctx.errors.show(err, 'Could not run the hooks');
    } finally {
      running = false;
      if (!destroyed) {
        cancelButton.hidden = true;
        runButton.textContent = 'Run hooks';
        runButton.disabled = project === null || editor.payload() === null;
        if (seq === runSeq) result.setAttribute('aria-busy', 'false');
      }
    }
  }

  /** Asks the backend to stop the run in flight; `run()` shows the outcome. */
  async function cancelRun(): Promise<void> {
    if (!running) return;
    cancelButton.disabled = true;
    cancelButton.textContent = 'Cancelling…';
    try {
      await api.bench_cancel();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not cancel the run');
    } finally {
      if (!destroyed) cancelButton.textContent = 'Cancel';
    }
  }

  /** Loads the catalog of `next` and re-fits the payload to it. */
  async function setProject(next: string): Promise<void> {
    project = next;
    fillProjects();
    clearResult();
    const keep = untouchedSample();
    try {
      const c = await api.bench_samples({ project: next });
      if (destroyed || project !== next) return;
      catalog = c;
      // The backend resolves a folder to its project root.
      if (c.project !== next) {
        project = c.project;
        fillProjects();
        replaceHash();
      }
      if (keep !== null || editor.text().trim() === '') {
        const sample = sampleFor(c.samples, event, keep);
        if (sample) loadSample(sample);
      }
      fillCatalog();
      refreshMatch();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not load the test bench for this project');
    }
  }

  function setEvent(next: string): void {
    if (next === event) return;
    event = next;
    eventSelect.value = event;
    describeEvent();
    const keep = untouchedSample();
    const sample = catalog ? sampleFor(catalog.samples, event, keep) : null;
    if (keep !== null && sample && sample.event === event) loadSample(sample);
    else {
      const text = retarget(editor.text(), event);
      if (text !== editor.text()) {
        editor.setText(text);
        if (loaded) loaded = { ...loaded, text };
      }
      clearResult();
    }
    refreshMatch();
  }

  async function start(): Promise<void> {
    const handoff = (() => {
      const s = storage();
      return s ? takeHandoff(s) : null;
    })();
    let handoffValue: unknown = null;
    if (handoff) {
      try {
        handoffValue = JSON.parse(handoff.payload) as unknown;
      } catch {
        handoffValue = null;
      }
    }
    try {
      projects = await api.list_projects();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not list projects');
    }
    if (destroyed) return;
    const roots = projects.map((p) => p.root);
    const cwd = payloadCwd(handoffValue);
    const chosen = initial.project ?? projectFor(roots, cwd) ?? cwd ?? projects[0]?.root ?? null;
    if (chosen === null) {
      body.hidden = true;
      empty.hidden = false;
      return;
    }
    if (handoff) {
      const named = initial.event ?? handoff.event ?? payloadEvent(handoffValue, []);
      if (named) event = named;
      showHandoff(handoff);
    }
    await setProject(chosen);
    if (destroyed) return;
    if (handoff && catalog) {
      const known = payloadEvent(handoffValue, catalog.events.map((e) => e.name));
      if (!initial.event && known && known !== event) setEvent(known);
    }
    replaceHash();
  }

  runButton.disabled = true;
  void start();

  return {
    el,
    update(route: Route) {
      if (route.view !== 'bench') return;
      if (route.event && route.event !== event) setEvent(route.event);
      if (route.project && route.project !== project) void setProject(route.project);
    },
    destroy() {
      destroyed = true;
      matchSoon.cancel();
    },
  };
}
