// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { emptyFilter, type TimelineFilter } from '../src/lib/route';
import { createStub, type StubBackend } from '../src/lib/stub';
import { maxRenderedRows } from '../src/lib/virtual';
import { ROW_HEIGHT, commitConcerns, createTimelineView } from '../src/views/timeline';
import type { View } from '../src/views/view';

const VIEWPORT = 600;
let view: View | null = null;
let errors: ErrorBanner;
let navigated: string[];

/** jsdom has no layout: give the list a viewport and a scroll offset that behaves like a browser's. */
function fakeLayout(list: HTMLElement): void {
  let top = 0;
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => VIEWPORT });
  Object.defineProperty(list, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (v: number) => {
      const spacer = list.firstElementChild as HTMLElement;
      const max = Math.max(0, parseFloat(spacer.style.height || '0') - VIEWPORT);
      top = Math.min(Math.max(0, v), max);
    },
  });
}

function mount(stub: StubBackend, filter: Partial<TimelineFilter> = {}, layout = true): { el: HTMLElement; list: HTMLElement } {
  setBackend(stub);
  errors = createErrorBanner();
  navigated = [];
  document.body.replaceChildren(errors.el);
  view = createTimelineView(
    { errors, navigate: (hash) => navigated.push(hash), appInfo: Promise.resolve(null) },
    { ...emptyFilter(), ...filter },
  );
  document.body.appendChild(view.el);
  const list = view.el.querySelector<HTMLElement>('#timeline-list')!;
  if (layout) fakeLayout(list);
  return { el: view.el, list };
}

const rowsInDom = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=timeline-row]')];
const visibleRows = (): HTMLElement[] => rowsInDom().filter((r) => !r.hidden);
const countText = (): string => document.getElementById('timeline-count')!.textContent ?? '';

beforeEach(() => {
  vi.useRealTimers();
});

afterEach(() => {
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
});

describe('timeline view with 100,000 rows', () => {
  it('keeps the DOM to a few dozen rows, scrolled to the newest', async () => {
    const stub = createStub({ rows: 100_000, seed: 3 });
    const t0 = performance.now();
    const { list } = mount(stub);
    await vi.waitFor(() => expect(countText()).toBe('100,000 mutations'), { timeout: 10_000 });
    const ms = performance.now() - t0;
    console.info(`timeline: 100,000 rows fetched and rendered in jsdom in ${ms.toFixed(0)} ms`);

    const cap = maxRenderedRows(VIEWPORT, ROW_HEIGHT, 8);
    expect(rowsInDom().length).toBeLessThanOrEqual(cap);
    expect(visibleRows().length).toBeGreaterThanOrEqual(Math.floor(VIEWPORT / ROW_HEIGHT));
    // Newest last, and the list starts scrolled to it.
    const last = stub.rows[stub.rows.length - 1]!;
    const shown = visibleRows().map((r) => Number(r.dataset.index));
    expect(Math.max(...shown)).toBe(99_999);
    expect(document.querySelector(`[data-testid=timeline-row][data-index="99999"]`)!.getAttribute('data-event-id')).toBe(last.event_id);
    expect(list.scrollTop).toBe(100_000 * ROW_HEIGHT - VIEWPORT);
    expect((list.firstElementChild as HTMLElement).style.height).toBe(`${100_000 * ROW_HEIGHT}px`);

    // Scroll to the middle: the rows change, their number does not.
    list.scrollTop = 50_000 * ROW_HEIGHT;
    list.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(visibleRows().some((r) => r.dataset.index === '50000')).toBe(true));
    expect(rowsInDom().length).toBeLessThanOrEqual(cap);
    const row = document.querySelector<HTMLElement>('[data-testid=timeline-row][data-index="50000"]')!;
    expect(row.dataset.eventId).toBe(stub.rows[50_000]!.event_id);
    expect(row.style.transform).toBe(`translateY(${50_000 * ROW_HEIGHT}px)`);
  }, 30_000);

  it('renders at most a few dozen rows even without any layout (no fake viewport)', async () => {
    mount(createStub({ rows: 100_000, seed: 4 }), {}, false);
    await vi.waitFor(() => expect(countText()).toBe('100,000 mutations'), { timeout: 10_000 });
    expect(rowsInDom().length).toBeGreaterThan(0);
    expect(rowsInDom().length).toBeLessThanOrEqual(48);
  }, 30_000);
});

describe('timeline view behaviour', () => {
  const repo = '/home/dev/src/hookd';

  it('shows the columns of each row', async () => {
    const stub = createStub({ rows: 300, seed: 5 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const own = stub.rows.filter((r) => r.repo === repo);
    const last = own[own.length - 1]!;
    const el = document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-event-id="${last.event_id}"]`)!;
    const text = [...el.children].map((c) => c.textContent);
    expect(text).toHaveLength(6); // time, agent, tool, file, lines, branch
    expect(text.slice(1)).toEqual([
      last.agent_id,
      last.tool_name,
      last.file_path,
      last.lines_changed === null ? '' : String(last.lines_changed),
      last.branch,
    ]);
    expect(document.getElementById('timeline-title')!.textContent).toContain('hookd');
  });

  it('adds a project column for all projects', async () => {
    mount(createStub({ rows: 50, seed: 5 }));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    expect(visibleRows()[0]!.children).toHaveLength(7);
  });

  it('appears live: new rows are fetched after a commit, highlighted, and followed', async () => {
    const stub = createStub({ rows: 2000, seed: 6 });
    const { list } = mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const before = stub.rows.filter((r) => r.repo === repo).length;
    expect(countText()).toBe(`${before.toLocaleString('en-US')} mutations`);

    const added = stub.addMutations(3, repo);
    await vi.waitFor(() => expect(countText()).toBe(`${(before + 3).toLocaleString('en-US')} mutations`));
    for (const r of added) {
      const el = document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-event-id="${r.event_id}"]`);
      expect(el, r.event_id).not.toBeNull();
      expect(el!.classList.contains('row-new')).toBe(true);
    }
    expect(list.scrollTop).toBe((before + 3) * ROW_HEIGHT - VIEWPORT);
    // An older row is not highlighted.
    expect(document.querySelectorAll('.vrow.row-new')).toHaveLength(3);
  });

  it('debounces a burst of commits into one query', async () => {
    const stub = createStub({ rows: 100, seed: 6 });
    mount(stub);
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const calls = stub.calls.get('timeline');
    for (let i = 0; i < 5; i++) stub.addMutations(1);
    await vi.waitFor(() => expect(countText()).toBe('105 mutations'));
    expect(stub.calls.get('timeline')).toBe(calls! + 1);
  });

  it('does not follow when the user scrolled up', async () => {
    const stub = createStub({ rows: 2000, seed: 6 });
    const { list } = mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    list.scrollTop = 0;
    list.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(document.getElementById('timeline-jump-latest')!.hidden).toBe(false));
    const n = stub.rows.filter((r) => r.repo === repo).length;
    stub.addMutations(2, repo);
    await vi.waitFor(() => expect(countText()).toBe(`${(n + 2).toLocaleString('en-US')} mutations`));
    expect(list.scrollTop).toBe(0);
    document.getElementById('timeline-jump-latest')!.click();
    expect(list.scrollTop).toBe((n + 2) * ROW_HEIGHT - VIEWPORT);
  });

  it('ignores commits of other projects', async () => {
    const stub = createStub({ rows: 200, seed: 6 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const calls = stub.calls.get('timeline');
    stub.addMutations(1, '/home/dev/src/webshop');
    await new Promise((r) => setTimeout(r, 250));
    expect(stub.calls.get('timeline')).toBe(calls);
  });

  it('opens the detail of a row with Enter, and of an Edit with its diff on click', async () => {
    const stub = createStub({ rows: 300, seed: 8 });
    const { list } = mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const own = stub.rows.filter((r) => r.repo === repo);
    const detail = document.getElementById('row-detail')!;
    expect(detail.hidden).toBe(true);

    // Keyboard: the first ArrowUp lands on the newest row (the list is at its end), the second one above it.
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(detail.hidden).toBe(false);
    expect(detail.dataset.eventId).toBe(own[own.length - 2]!.event_id);
    expect(list.getAttribute('aria-activedescendant')).toBe('timeline-list-active-row');
    expect(document.getElementById('timeline-list-active-row')!.dataset.eventId).toBe(own[own.length - 2]!.event_id);

    // Escape closes it.
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(detail.hidden).toBe(true);

    // Click an Edit row that is rendered.
    const editRow = visibleRows().find((r) => r.dataset.tool === 'Edit')!;
    editRow.click();
    expect(detail.hidden).toBe(false);
    expect(editRow.getAttribute('aria-selected')).toBe('true');
    const row = own.find((r) => r.event_id === editRow.dataset.eventId)!;
    const input = JSON.parse(row.raw_payload).tool_input as { old_string: string; new_string: string };
    const diff = detail.querySelector('[data-testid=change-diff]')!;
    const added = [...diff.querySelectorAll('.diff-add .diff-text')].map((e) => e.textContent);
    const removed = [...diff.querySelectorAll('.diff-del .diff-text')].map((e) => e.textContent);
    expect(added.length).toBeGreaterThan(0);
    for (const line of added) expect(input.new_string).toContain(line);
    for (const line of removed) expect(input.old_string).toContain(line);
    expect(document.getElementById('row-detail-payload')!.textContent).toBe(JSON.stringify(JSON.parse(row.raw_payload), null, 2));
    expect(detail.querySelector('[data-field=event_id]')!.textContent).toBe(row.event_id);

    // One click narrows the timeline to this file's history.
    document.getElementById('row-detail-filter-file')!.click();
    expect(navigated).toEqual([`#/timeline?repo=${repo}&file=${row.file_path}`]);
  });

  it('narrows an all-projects timeline to the row\'s project when filtering by file', async () => {
    const stub = createStub({ rows: 100, seed: 12 });
    mount(stub);
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const el = visibleRows()[0]!;
    el.click();
    const row = stub.rows.find((r) => r.event_id === el.dataset.eventId)!;
    document.getElementById('row-detail-filter-file')!.click();
    expect(navigated).toEqual([`#/timeline?repo=${row.repo}&file=${row.file_path}`]);
  });

  it('shows a Bash row\'s command', async () => {
    const stub = createStub({ rows: 300, seed: 8 });
    mount(stub, { repo, all: false, tool: 'bash' });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    visibleRows()[0]!.click();
    const cmd = document.querySelector('#row-detail [data-testid=change-command]')!;
    const row = stub.rows.find((r) => r.event_id === visibleRows()[0]!.dataset.eventId)!;
    expect(cmd.textContent).toBe(row.command);
  });

  it('navigates with the filters from the form, and refuses a bad time', async () => {
    mount(createStub({ rows: 100, seed: 9 }), { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    (document.getElementById('filter-file') as HTMLInputElement).value = 'src/a b.rs';
    (document.getElementById('filter-since') as HTMLInputElement).value = 'soon';
    document.getElementById('filter-apply')!.click();
    expect(navigated).toEqual([]);
    expect(document.getElementById('filter-error')!.hidden).toBe(false);
    expect(document.getElementById('filter-since')!.hasAttribute('aria-invalid')).toBe(true);
    (document.getElementById('filter-since') as HTMLInputElement).value = '2d';
    document.getElementById('filter-apply')!.click();
    expect(navigated).toEqual([`#/timeline?repo=${repo}&file=src/a%20b.rs&since=2d`]);
  });

  it('a failed new query clears the list and shows the error; a failed live refresh keeps the rows', async () => {
    const stub = createStub({ rows: 500, seed: 10 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const shown = visibleRows().length;

    stub.failNext('timeline', { kind: 'ledger_busy', message: 'database is locked' });
    stub.addMutations(1, repo);
    await vi.waitFor(() => expect(errors.current()).toEqual({ kind: 'ledger_busy', message: 'database is locked' }));
    expect(visibleRows().length).toBe(shown);
    expect(document.getElementById('error-banner')!.hidden).toBe(false);
    expect(document.getElementById('error-banner')!.dataset.kind).toBe('ledger_busy');

    errors.clear();
    stub.failNext('timeline', { kind: 'invalid_time', message: 'bad time' });
    view!.update({ view: 'timeline', filter: { ...emptyFilter(), repo, all: false, tool: 'Edit' } });
    await vi.waitFor(() => expect(errors.current()?.kind).toBe('invalid_time'));
    expect(visibleRows()).toHaveLength(0);
    expect(document.getElementById('timeline-empty')!.hidden).toBe(false);
    expect(document.getElementById('timeline-empty')!.textContent).toContain('bad time');
    document.getElementById('error-banner-dismiss')!.click();
    expect(document.getElementById('error-banner')!.hidden).toBe(true);
  });

  it('pauses and resumes live updates', async () => {
    const stub = createStub({ rows: 100, seed: 11 });
    mount(stub);
    const status = document.getElementById('live-status')!;
    await vi.waitFor(() => expect(status.dataset.state).toBe('live'));
    expect(status.textContent).toBe('live');
    await vi.waitFor(() => expect(countText()).toBe('100 mutations'));
    document.getElementById('live-toggle')!.click();
    expect(status.dataset.state).toBe('paused');
    expect(status.textContent).toBe('paused');
    stub.addMutations(2);
    await new Promise((r) => setTimeout(r, 250));
    expect(countText()).toBe('100 mutations');
    expect(document.getElementById('live-toggle')!.textContent).toBe('Resume (1 new)');
    document.getElementById('live-toggle')!.click();
    await vi.waitFor(() => expect(countText()).toBe('102 mutations'));
    expect(status.dataset.state).toBe('live');
  });

  it('says offline when the daemon is unavailable', async () => {
    setBackend(createStub({ rows: 10 }));
    errors = createErrorBanner();
    view = createTimelineView(
      {
        errors,
        navigate: () => {},
        appInfo: Promise.resolve({ version: '1', data_dir: '/d', daemon: { mode: 'unavailable', socket: '/s', error: 'socket owned by another user' } }),
      },
      emptyFilter(),
    );
    document.body.appendChild(view.el);
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('offline'));
    expect(document.getElementById('live-status')!.title).toContain('socket owned by another user');
  });
});

describe('commitConcerns', () => {
  const commit = (ledger: string, mutations = 1) => ({ notices: [{ ledger, events: [], mutations }] });
  const f = (repo: string | null): TimelineFilter => ({ ...emptyFilter(), repo, all: repo === null });
  it('matches the ledger of the shown repository', () => {
    expect(commitConcerns(commit('/r/a/.hookd/mutations.db'), f('/r/a'))).toBe(true);
    expect(commitConcerns(commit('/r/a'), f('/r/a/sub/dir'))).toBe(true);
    expect(commitConcerns(commit('/r/ab/.hookd/mutations.db'), f('/r/a'))).toBe(false);
    expect(commitConcerns(commit('/r/b/.hookd/mutations.db'), f(null))).toBe(true);
    expect(commitConcerns(commit('/r/a/.hookd/mutations.db', 0), f('/r/a'))).toBe(false);
  });
});
