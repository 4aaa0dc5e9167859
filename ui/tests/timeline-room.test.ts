// @vitest-environment jsdom
// Issue 16 item 6, "Room to read": the Timeline's filter bar and chart fold
// away (and remember it), live rows never take the keyboard focus or the
// rows being read away from the user, and an agent can be renamed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { COMPACT_HEIGHT, LAYOUT_KEY, defaultLayout, loadLayout } from '../src/lib/layout';
import { emptyFilter, type TimelineFilter } from '../src/lib/route';
import { createStub, type StubBackend } from '../src/stub';
import { ROW_HEIGHT, createTimelineView } from '../src/views/timeline';
import type { View } from '../src/views/view';
import { commitLateRow } from './kit/late-row';

const VIEWPORT = 600;
const repo = '/home/dev/src/hookd';
let view: View | null = null;
let navigated: string[] = [];

/** jsdom has no layout: a viewport and a scroll offset that behave like a browser's. */
function fakeLayout(list: HTMLElement): void {
  let top = 0;
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => VIEWPORT });
  Object.defineProperty(list, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (v: number) => {
      const spacer = list.firstElementChild as HTMLElement;
      top = Math.min(Math.max(0, v), Math.max(0, parseFloat(spacer.style.height || '0') - VIEWPORT));
    },
  });
}

function mount(stub: StubBackend, filter: Partial<TimelineFilter> = {}): { el: HTMLElement; list: HTMLElement } {
  setBackend(stub);
  const errors = createErrorBanner();
  navigated = [];
  view?.destroy();
  document.body.replaceChildren(errors.el);
  view = createTimelineView({ errors, navigate: (hash) => navigated.push(hash), appInfo: Promise.resolve(null) }, { ...emptyFilter(), ...filter });
  document.body.appendChild(view.el);
  const list = view.el.querySelector<HTMLElement>('#timeline-list')!;
  fakeLayout(list);
  return { el: view.el, list };
}

const byId = (id: string): HTMLElement => document.getElementById(id)!;
const visibleRows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.vrow:not([hidden])[data-event-id]')];
const countText = (): string => byId('timeline-count').textContent ?? '';
const live = (): Promise<void> => vi.waitFor(() => expect(byId('live-status').dataset.state).toBe('live'));

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
  localStorage.clear();
});

describe('the layout choice', () => {
  it('starts collapsed in a short window, shown in a tall one, and keeps what the user chose', () => {
    expect(defaultLayout(COMPACT_HEIGHT - 1)).toEqual({ filters: false, chart: false });
    expect(defaultLayout(COMPACT_HEIGHT)).toEqual({ filters: true, chart: true });
    expect(loadLayout(600)).toEqual({ filters: false, chart: false });
    localStorage.setItem(LAYOUT_KEY, JSON.stringify({ filters: true }));
    expect(loadLayout(600)).toEqual({ filters: true, chart: false });
    localStorage.setItem(LAYOUT_KEY, 'not json');
    expect(loadLayout(900)).toEqual({ filters: true, chart: true });
  });
});

describe('room to read', () => {
  it('folds the filter bar into a one-line summary and back, and remembers it', async () => {
    const stub = createStub({ rows: 200, seed: 31 });
    mount(stub, { repo, all: false, tool: 'Edit', since: '2h' });
    const form = byId('timeline-filters');
    const toggle = byId('filter-toggle');
    expect(form.hidden).toBe(false);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    // Shown, the toolbar sits in the bar beside Apply and Clear; folded, it is the bar's line.
    expect(form.contains(byId('timeline-toolbar'))).toBe(true);
    toggle.focus();
    toggle.click();
    expect(form.hidden).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(form.contains(byId('timeline-toolbar'))).toBe(false);
    expect(byId('timeline-toolbar').nextElementSibling).toBe(form);
    expect(document.activeElement).toBe(toggle);
    const summary = toggle.querySelector('[data-testid=filter-summary]')!.textContent;
    expect(summary).toContain('Tool Edit');
    expect(summary).toContain('Since 2h');
    expect(JSON.parse(localStorage.getItem(LAYOUT_KEY)!)).toMatchObject({ filters: false });

    // The next Timeline (or launch) opens folded; a click shows the bar again.
    mount(stub, { repo, all: false });
    expect(byId('timeline-filters').hidden).toBe(true);
    expect(byId('filter-toggle').textContent).toContain('hookd');
    byId('filter-toggle').click();
    expect(byId('timeline-filters').hidden).toBe(false);
    expect(JSON.parse(localStorage.getItem(LAYOUT_KEY)!)).toMatchObject({ filters: true });
  });

  it('hides the chart, counts it no more while hidden, and counts it again when shown', async () => {
    const stub = createStub({ rows: 200, seed: 32 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(stub.calls.get('timeline_histogram') ?? 0).toBeGreaterThan(0));
    const chart = byId('timeline-chart');
    const toggle = byId('chart-toggle');
    expect(chart.hidden).toBe(false);
    toggle.click();
    expect(chart.hidden).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await live();
    const counted = stub.calls.get('timeline_histogram')!;
    stub.addMutations(2, repo);
    await vi.waitFor(() => expect(visibleRows().some((r) => r.classList.contains('row-new'))).toBe(true));
    await new Promise((r) => setTimeout(r, 1100));
    expect(stub.calls.get('timeline_histogram')).toBe(counted);
    toggle.click();
    expect(chart.hidden).toBe(false);
    await vi.waitFor(() => expect(stub.calls.get('timeline_histogram')).toBe(counted + 1));
  });

  it('starts with both folded in a short window', () => {
    const height = window.innerHeight;
    window.innerHeight = 600;
    try {
      mount(createStub({ rows: 20, seed: 33 }));
      expect(byId('timeline-filters').hidden).toBe(true);
      expect(byId('timeline-chart').hidden).toBe(true);
    } finally {
      window.innerHeight = height;
    }
  });
});

describe('focus and reading position while rows arrive', () => {
  it('keeps focus in a filter field, and its text, when live rows arrive', async () => {
    const stub = createStub({ rows: 300, seed: 34 });
    mount(stub, { repo, all: false });
    await live();
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const field = byId('filter-file') as HTMLInputElement;
    field.focus();
    field.value = 'src/ca';
    const before = countText();
    stub.addMutations(3, repo);
    await vi.waitFor(() => expect(countText()).not.toBe(before));
    expect(document.activeElement).toBe(field);
    expect(field.value).toBe('src/ca');
  });

  it('keeps focus on the list and its cursor on the same row when live rows arrive', async () => {
    const stub = createStub({ rows: 300, seed: 35 });
    const { list } = mount(stub, { repo, all: false });
    await live();
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    list.focus();
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    const active = list.querySelector<HTMLElement>('.vrow.active')!;
    const eventId = active.dataset.eventId;
    const before = countText();
    stub.addMutations(2, repo);
    await vi.waitFor(() => expect(countText()).not.toBe(before));
    expect(document.activeElement).toBe(list);
    expect(list.querySelector<HTMLElement>('.vrow.active')!.dataset.eventId).toBe(eventId);
  });

  it('keeps the rows being read in place when a late row lands before them', async () => {
    const stub = createStub({ rows: 600, seed: 36 });
    const { list } = mount(stub, { repo, all: false });
    await live();
    const own = stub.rows.filter((r) => r.repo === repo);
    await vi.waitFor(() => expect(countText()).toBe(`${own.length.toLocaleString('en-US')} mutations`));
    // Read somewhere in the middle, not following the newest rows.
    list.scrollTop = 40 * ROW_HEIGHT;
    list.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(visibleRows().some((r) => r.dataset.index === '40')).toBe(true));
    const atTop = (): string | undefined =>
      visibleRows().find((r) => r.dataset.index === String(Math.floor(list.scrollTop / ROW_HEIGHT)))?.dataset.eventId;
    await vi.waitFor(() => expect(atTop()).toBeDefined());
    const reading = atTop();

    const before = commitLateRow(stub, repo);
    await vi.waitFor(() => expect(countText()).toBe(`${(before + 1).toLocaleString('en-US')} mutations`));
    await vi.waitFor(() => expect(atTop()).toBe(reading));
    expect(list.scrollTop).toBe(41 * ROW_HEIGHT);
  });

  it('keeps focus and scroll in an event\'s detail when it gains hook runs', async () => {
    const stub = createStub({ rows: 300, seed: 37 });
    mount(stub, { repo, all: false, agent: 'claude-main', mode: 'activity' });
    await live();
    const ev = stub.timeline.addPrompt('summarise the ledger', repo, 'claude-main', false);
    const row = await vi.waitFor(() => {
      const el = document.querySelector<HTMLElement>(`[data-testid=activity-row][data-event-id="${ev.event_id}"]`);
      if (!el) throw new Error('not listed yet');
      return el;
    });
    row.click();
    const detail = byId('activity-detail');
    await vi.waitFor(() => expect(detail.querySelector('[data-testid=activity-prompt]')).not.toBeNull());
    // Let the whole event's second paint land before the user moves on.
    await new Promise((r) => setTimeout(r, 50));
    const button = byId('activity-detail-filter-session');
    button.focus();
    const body = detail.querySelector<HTMLElement>('.detail-body')!;
    body.scrollTop = 120;

    // A hook run stored after its event, announced by a notice of its own.
    const runs = Number(detail.querySelector('[data-testid=hook-runs]')!.getAttribute('data-count'));
    const blocked = stub.timeline.addPrompt('another', repo, 'claude-main', true);
    const stored = stub.timeline.events().find((e) => e.event_id === ev.event_id)!;
    stored.hook_runs = [...stored.hook_runs, { ...blocked.hook_runs[0]!, event_id: ev.event_id, run_id: `${ev.event_id}-late` }];
    stub.emit('ledger-commit', { notices: [{ ledger: `${repo}/.hookd/mutations.db`, events: [], mutations: 0, hook_runs: 1 }] });
    await vi.waitFor(() => expect(detail.querySelector('[data-testid=hook-runs]')!.getAttribute('data-count')).toBe(String(runs + 1)));
    expect(document.activeElement?.id).toBe('activity-detail-filter-session');
    expect(body.scrollTop).toBe(120);
  });
});

describe('the chart while rows arrive', () => {
  it('keeps focus and its keyboard cursor on the same time when live counts redraw it', async () => {
    const stub = createStub({ rows: 300, seed: 41 });
    mount(stub, { repo, all: false });
    await live();
    const plot = document.getElementById('timeline-chart-svg') as unknown as SVGSVGElement;
    await vi.waitFor(() => expect(Number(byId('timeline-chart').dataset.bins)).toBeGreaterThan(3));
    plot.focus();
    for (let i = 0; i < 3; i++) plot.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    expect(plot.querySelector('.chart-cursor')).not.toBeNull();
    // "14:03–14:04: 5 mutations": the bin's time range, before the counts.
    const time = (): string | undefined => byId('timeline-chart-readout').textContent?.split(': ')[0];
    const before = time();
    expect(before).toMatch(/–/);
    const counted = stub.calls.get('timeline_histogram')!;
    stub.addMutations(2, repo);
    await vi.waitFor(() => expect(stub.calls.get('timeline_histogram')).toBeGreaterThan(counted), { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement).toBe(plot);
    // The redrawn chart may start a bin later; the cursor stays on its time.
    expect(plot.querySelector('.chart-cursor')).not.toBeNull();
    expect(time()).toBe(before);
  });
});

describe('renaming an agent', () => {
  it('names the agent from its cell, shows the name in every row, and an empty name clears it', async () => {
    const stub = createStub({ rows: 300, seed: 38 });
    const { list } = mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const agentCell = (): HTMLElement => visibleRows().at(-1)!.querySelector<HTMLElement>('.agent-link')!;
    await vi.waitFor(() => expect(agentCell().textContent).toMatch(/^main /));
    const agent = agentCell().dataset.agent!;

    agentCell().dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const input = byId('agent-rename-input') as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    input.value = 'Reviewer';
    byId('agent-rename').dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(agentCell().textContent).toBe('Reviewer'));
    expect(stub.lastArgs.get('set_agent_label')).toEqual({ agent, label: 'Reviewer' });
    expect(document.getElementById('agent-rename')).toBeNull();
    expect(document.activeElement).toBe(list);
    for (const cell of document.querySelectorAll<HTMLElement>(`.vrow:not([hidden]) .agent-link[data-agent="${agent}"]`)) {
      expect(cell.textContent).toBe('Reviewer');
    }

    // From the keyboard: R on the active row; the field holds the name; empty clears it.
    list.focus();
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    const activeAgent = list.querySelector<HTMLElement>('.vrow.active .agent-link')!.dataset.agent!;
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', bubbles: true }));
    const field = byId('agent-rename-input') as HTMLInputElement;
    expect(field.value).toBe(activeAgent === agent ? 'Reviewer' : '');
    field.value = '  ';
    byId('agent-rename').dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(list.querySelector<HTMLElement>('.vrow.active .agent-link')!.textContent).toMatch(/^main /));
    expect(stub.lastArgs.get('set_agent_label')).toEqual({ agent: activeAgent, label: '' });
  });

  it('renames the agent of a one-agent view from its chip, and Esc cancels', async () => {
    const stub = createStub({ rows: 300, seed: 39 });
    mount(stub, { repo, all: false, agent: 'claude-main', mode: 'activity' });
    const rename = byId('agent-rename-open');
    await vi.waitFor(() => expect(rename.hidden).toBe(false));
    expect(byId('filter-agent-chip').textContent).toBe('Agent main claude-m');

    rename.click();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(document.getElementById('agent-rename')).toBeNull();
    expect(document.activeElement).toBe(rename);
    expect(stub.calls.get('set_agent_label') ?? 0).toBe(0);

    rename.click();
    (byId('agent-rename-input') as HTMLInputElement).value = 'Lead';
    byId('agent-rename-save').click();
    await vi.waitFor(() => expect(byId('filter-agent-chip').textContent).toBe('Agent Lead'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid=activity-row]:not([hidden]) .agent-link')?.textContent ?? 'Lead').toBe('Lead'));
  });

  it('says why a rename failed and keeps the dialog open', async () => {
    const stub = createStub({ rows: 100, seed: 40 });
    mount(stub, { repo, all: false, agent: 'claude-main', mode: 'activity' });
    await vi.waitFor(() => expect(byId('agent-rename-open').hidden).toBe(false));
    byId('agent-rename-open').click();
    stub.failNext('set_agent_label', { kind: 'io', message: 'registry is read-only' });
    (byId('agent-rename-input') as HTMLInputElement).value = 'Lead';
    byId('agent-rename-save').click();
    await vi.waitFor(() => expect(byId('agent-rename-error').hidden).toBe(false));
    expect(byId('agent-rename-error').textContent).toContain('registry is read-only');
    expect(document.getElementById('agent-rename')).not.toBeNull();
  });
});
