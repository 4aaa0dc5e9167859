// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { loadCatalogue, resetCatalogue } from '../src/lib/catalogue';
import { emptyFilter, type TimelineFilter } from '../src/lib/route';
import { createStub, type StubBackend } from '../src/stub';
import { maxRenderedRows } from '../src/lib/virtual';
import { ROW_HEIGHT, SCROLL_DEBOUNCE_MS, commitConcerns, createTimelineView } from '../src/views/timeline';
import { MAX_PAGES, PAGE_SIZE } from '../src/lib/paged';
import type { MutationRow, Page, TimelineQuery } from '../src/lib/types';
import type { View } from '../src/views/view';
import { commitLateRow } from './kit/late-row';

/** The element `selector` finds, once it is there (a row's detail loads its payload first). */
function present<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): Promise<T> {
  return vi.waitFor(() => {
    const el = root.querySelector<T>(selector);
    if (!el) throw new Error(`${selector} is not shown`);
    return el;
  });
}

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
    // The chart is counted after the rows (by the stub, in this thread): let it finish.
    await vi.waitFor(() => expect(document.getElementById('timeline-chart')!.dataset.total).toBe('100000'), { timeout: 10_000 });

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
    // The agent by its readable name (the backend's `agent_names`), its id in the title.
    await vi.waitFor(() => expect(el.children[1]!.textContent).toBe(`main ${last.agent_id.slice(0, 8)}`));
    expect((el.children[1] as HTMLElement).title).toContain(last.agent_id);
    const text = [...el.children].map((c) => c.textContent);
    expect(text).toHaveLength(6); // time, agent, tool, file, lines, branch
    expect(text.slice(1)).toEqual([
      `main ${last.agent_id.slice(0, 8)}`,
      last.tool_name,
      last.file_path,
      last.lines_added === null || last.lines_removed === null ? '\u2014' : `+${last.lines_added} \u2212${last.lines_removed}`,
      last.branch,
    ]);
    expect(document.getElementById('timeline-title')!.textContent).toContain('hookd');
  });

  it('suggests what the ledger knows as the user types, most rows first', async () => {
    const stub = createStub({ rows: 300, seed: 5 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const input = document.querySelector<HTMLInputElement>('#filter-file')!;
    input.value = '.rs';
    input.dispatchEvent(new Event('input'));
    const expected = new Map<string, number>();
    for (const r of stub.rows) {
      if (r.repo === repo && r.file_path?.includes('.rs')) expected.set(r.file_path, (expected.get(r.file_path) ?? 0) + 1);
    }
    const top = [...expected].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const options = (): HTMLOptionElement[] => [...document.querySelectorAll<HTMLOptionElement>('#filter-file-options option')];
    await vi.waitFor(() => expect(options().length).toBe(expected.size));
    expect(options()[0]!.value).toBe(top[0]);
    expect(options()[0]!.label).toBe(`${top[1]} ${top[1] === 1 ? 'row' : 'rows'}`);
  });

  it('searches: the search field narrows the rows and lives in the hash', async () => {
    const stub = createStub({ rows: 300, seed: 5 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const input = document.querySelector<HTMLInputElement>('#filter-search')!;
    input.value = 'query';
    document.querySelector<HTMLFormElement>('#timeline-filters')!.requestSubmit();
    expect(navigated.at(-1)).toContain('search=query');
    view!.update({ view: 'timeline', filter: { ...emptyFilter(), repo, all: false, search: 'query' } });
    const matching = stub.rows.filter((r) => r.repo === repo && `${r.file_path ?? ''} ${r.command ?? ''}`.toLowerCase().includes('query'));
    expect(matching.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(countText()).toBe(`${matching.length} mutation${matching.length === 1 ? '' : 's'}`));
  });

  it('adds a project column for all projects', async () => {
    mount(createStub({ rows: 50, seed: 5 }));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    expect(visibleRows()[0]!.children).toHaveLength(7);
  });

  it('reads the newest page first and then only the pages scrolled to, placeholders meanwhile', async () => {
    const stub = createStub({ rows: 5000, seed: 9 });
    const anchors: string[] = [];
    const invoke = stub.invoke.bind(stub);
    let release = (): void => {};
    let held: Promise<void> | null = null;
    stub.invoke = async (cmd, args) => {
      if (cmd === 'timeline_page') {
        const { anchor } = args as { anchor: { at: string; position?: number } };
        anchors.push(anchor.at === 'position' ? `position ${anchor.position}` : anchor.at);
        if (held) await held;
      }
      return invoke(cmd, args);
    };
    const { list } = mount(stub, { repo, all: false });
    const total = stub.rows.filter((r) => r.repo === repo).length;
    expect(total).toBeGreaterThan(PAGE_SIZE * 4);
    await vi.waitFor(() => expect(countText()).toBe(`${total.toLocaleString('en-US')} mutations`));
    expect(anchors).toEqual(['newest']);
    expect(list.dataset.rowsHeld).toBe(String(PAGE_SIZE));

    // Scroll to the middle: placeholders until its page arrives.
    held = new Promise<void>((resolve) => (release = resolve));
    const middle = Math.floor(total / 2);
    list.scrollTop = middle * ROW_HEIGHT;
    list.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(document.querySelector(`[data-testid=timeline-placeholder][data-index="${middle}"]`)).not.toBeNull());
    await vi.waitFor(() => expect(anchors.length).toBeGreaterThan(1));
    release();
    held = null;
    const own = stub.rows.filter((r) => r.repo === repo);
    await vi.waitFor(() =>
      expect(document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-index="${middle}"]`)?.dataset.eventId).toBe(own[middle]!.event_id),
    );
    const first = Math.floor(middle / PAGE_SIZE) * PAGE_SIZE;
    expect(anchors).toContain(`position ${first}`);
    expect(Number(list.dataset.rowsHeld)).toBeLessThanOrEqual(PAGE_SIZE * MAX_PAGES);
  });

  it('asks for the page of a jump at once, and for the pages of a drag once it pauses', async () => {
    const stub = createStub({ rows: 5000, seed: 9 });
    const anchors: string[] = [];
    const invoke = stub.invoke.bind(stub);
    stub.invoke = (cmd, args) => {
      if (cmd === 'timeline_page') {
        const { anchor } = args as { anchor: { at: string; position?: number } };
        anchors.push(anchor.at === 'position' ? `position ${anchor.position}` : anchor.at);
      }
      return invoke(cmd, args);
    };
    const { list } = mount(stub, { repo, all: false });
    const total = stub.rows.filter((r) => r.repo === repo).length;
    await vi.waitFor(() => expect(countText()).toBe(`${total.toLocaleString('en-US')} mutations`));
    expect(anchors).toEqual(['newest']);
    // The chart and the agents' names, then a quiet spell: the scroll is the first call of its burst.
    await vi.waitFor(() => expect(document.getElementById('timeline-chart')!.dataset.total).toBeDefined());
    await vi.waitFor(() => expect(stub.calls.get('agent_names')).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, SCROLL_DEBOUNCE_MS * 3));
    const scrollTo = (row: number): void => {
      list.scrollTop = row * ROW_HEIGHT;
      list.dispatchEvent(new Event('scroll'));
    };
    vi.useFakeTimers();
    try {
      // Quiet, then a jump: its page is asked for with the next frame, well
      // before the scroll debounce would have let it go.
      await vi.advanceTimersByTimeAsync(SCROLL_DEBOUNCE_MS * 2);
      scrollTo(PAGE_SIZE * 2 + 10);
      await vi.advanceTimersByTimeAsync(20);
      expect(anchors).toEqual(['newest', `position ${PAGE_SIZE * 2}`]);

      // A drag goes on: nothing more is asked for while it moves …
      for (const row of [PAGE_SIZE * 5 + 10, PAGE_SIZE * 8 + 10, PAGE_SIZE * 11 + 10]) {
        scrollTo(row);
        await vi.advanceTimersByTimeAsync(20);
      }
      expect(anchors).toHaveLength(2);
      // … and only where it stopped, once it pauses.
      await vi.advanceTimersByTimeAsync(SCROLL_DEBOUNCE_MS + 20);
      expect(anchors).toEqual(['newest', `position ${PAGE_SIZE * 2}`, `position ${PAGE_SIZE * 11}`]);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() =>
      expect(document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-index="${PAGE_SIZE * 11 + 10}"]`)).not.toBeNull(),
    );
  });

  it('appears live: new rows are fetched after a commit, highlighted, and followed', async () => {
    const stub = createStub({ rows: 2000, seed: 6 });
    const { list } = mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const before = stub.rows.filter((r) => r.repo === repo).length;
    // The newest page paints first; the whole history follows.
    await vi.waitFor(() => expect(countText()).toBe(`${before.toLocaleString('en-US')} mutations`));

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
    const calls = stub.calls.get('timeline_page');
    for (let i = 0; i < 5; i++) stub.addMutations(1);
    await vi.waitFor(() => expect(countText()).toBe('105 mutations'));
    expect(stub.calls.get('timeline_page')).toBe(calls! + 1);
  });

  it('keeps the selection on its row when a late row moves every position', async () => {
    const stub = createStub({ rows: 300, seed: 7 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const picked = visibleRows().at(-3)!;
    const eventId = picked.dataset.eventId!;
    const index = Number(picked.dataset.index);
    picked.click();
    expect(picked.getAttribute('aria-selected')).toBe('true');

    // A row recorded late: older than every row shown, committed now.
    const before = commitLateRow(stub, repo);
    await vi.waitFor(() => expect(countText()).toBe(`${(before + 1).toLocaleString('en-US')} mutations`));
    await vi.waitFor(() => {
      const selected = document.querySelector<HTMLElement>('.vrow[aria-selected=true]');
      expect(selected?.dataset.eventId).toBe(eventId);
      expect(selected?.dataset.index).toBe(String(index + 1));
    });
    expect(document.getElementById('row-detail')!.hidden).toBe(false);
  });

  it('shows the newest N of a limited view, and only those', async () => {
    const stub = createStub({ rows: 600, seed: 13 });
    const { list } = mount(stub, { repo, all: false, limit: 250 });
    const own = stub.rows.filter((r) => r.repo === repo);
    expect(own.length).toBeGreaterThan(250);
    await vi.waitFor(() => expect(countText()).toBe('250 mutations (newest 250)'));
    expect((list.firstElementChild as HTMLElement).style.height).toBe(`${250 * ROW_HEIGHT}px`);
    list.scrollTop = 0;
    list.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() =>
      expect(document.querySelector<HTMLElement>('[data-testid=timeline-row][data-index="0"]')?.dataset.eventId).toBe(own[own.length - 250]!.event_id),
    );
  });

  it('counts the chart once the rows of a filter are read, not beside their page', async () => {
    const stub = createStub({ rows: 300, seed: 15 });
    const invoke = stub.invoke.bind(stub);
    let held: Promise<void> | null = null;
    let release = (): void => {};
    const asked: string[] = [];
    stub.invoke = async (cmd, args) => {
      if (cmd === 'timeline_page' || cmd === 'timeline_histogram') asked.push(cmd);
      if (cmd === 'timeline_page' && held) await held;
      return invoke(cmd, args);
    };
    const hold = (): void => {
      held = new Promise<void>((resolve) => (release = resolve));
    };
    /** While the page is held, only it was asked for; the chart follows once it is read. */
    const chartAfterPage = async (): Promise<void> => {
      await vi.waitFor(() => expect(asked).toEqual(['timeline_page']));
      await new Promise((r) => setTimeout(r, 20));
      expect(asked).toEqual(['timeline_page']);
      release();
      held = null;
      await vi.waitFor(() => expect(asked).toEqual(['timeline_page', 'timeline_histogram']));
    };
    hold();
    mount(stub, { repo, all: false });
    await chartAfterPage();
    await vi.waitFor(() => expect(document.getElementById('timeline-chart')!.dataset.total).toBeDefined());

    // A filter change: the same order.
    hold();
    asked.length = 0;
    view!.update({ view: 'timeline', filter: { ...emptyFilter(), repo, tool: 'Edit' } });
    await chartAfterPage();
    const chart = (stub.lastArgs.get('timeline_histogram') as { query: TimelineQuery }).query;
    expect(chart.tool).toBe('Edit');
  });

  it('pins a relative since to a time when the view opens, for pages, live reads and the chart alike', async () => {
    const stub = createStub({ rows: 100, seed: 14 });
    const before = Date.now();
    mount(stub, { repo, all: false, since: '2d' });
    await vi.waitFor(() => expect(stub.calls.get('timeline_histogram')).toBeGreaterThan(0));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const page = (stub.lastArgs.get('timeline_page') as { query: TimelineQuery }).query;
    const chart = (stub.lastArgs.get('timeline_histogram') as { query: TimelineQuery }).query;
    const since = Date.parse(page.since!);
    expect(since).toBeGreaterThanOrEqual(before - 2 * 86_400_000);
    expect(since).toBeLessThanOrEqual(Date.now() - 2 * 86_400_000);
    expect(chart.since).toBe(page.since);
    stub.addMutations(1, repo);
    await vi.waitFor(() => expect((stub.lastArgs.get('timeline_page') as { anchor: { at: string } }).anchor.at).toBe('newer_than'));
    expect((stub.lastArgs.get('timeline_page') as { query: TimelineQuery }).query.since).toBe(page.since);
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
    const calls = stub.calls.get('timeline_page');
    stub.addMutations(1, '/home/dev/src/webshop');
    await new Promise((r) => setTimeout(r, 250));
    expect(stub.calls.get('timeline_page')).toBe(calls);
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
    const diff = await present('[data-testid=change-diff]', detail);
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

  it('lists rows without payloads and reads a row whole when its detail opens', async () => {
    const stub = createStub({ rows: 300, seed: 8 });
    const invoke = stub.invoke.bind(stub);
    const answers: MutationRow[][] = [];
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    stub.invoke = async (cmd, args) => {
      const value = await invoke(cmd, args);
      if (cmd === 'timeline_page') answers.push((value as Page<MutationRow>).rows);
      if (cmd === 'mutation_row') await held;
      return value;
    };
    mount(stub, { repo, all: false, tool: 'Edit' });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    expect(answers.length).toBeGreaterThan(0);
    for (const rows of answers) for (const r of rows) expect(r.raw_payload).toBe('');

    const shown = visibleRows()[0]!;
    const row = stub.rows.find((r) => r.event_id === shown.dataset.eventId)!;
    shown.click();
    const detail = document.getElementById('row-detail')!;
    expect(detail.hidden).toBe(false);
    // The fields are there at once; the payload, the diff and the bench button wait for the row.
    expect(detail.querySelector('[data-testid=row-detail-loading]')!.textContent).toBe('Loading the payload…');
    expect(detail.querySelector('[data-field=event_id]')!.textContent).toBe(row.event_id);
    expect(detail.querySelector('[data-testid=change]')).toBeNull();
    expect((document.getElementById('row-detail-open-bench') as HTMLButtonElement).disabled).toBe(true);
    release();
    await vi.waitFor(() => expect(document.getElementById('row-detail-payload')?.textContent).toBe(JSON.stringify(JSON.parse(row.raw_payload), null, 2)));
    expect(detail.querySelector('[data-testid=row-detail-loading]')).toBeNull();
    // The diff is asked for once the row is read: it may paint a moment later.
    await vi.waitFor(() => expect(detail.querySelector('[data-testid=change-diff]')).not.toBeNull());
    expect((document.getElementById('row-detail-open-bench') as HTMLButtonElement).disabled).toBe(false);
  });

  it('says so when a row cannot be read whole', async () => {
    const stub = createStub({ rows: 100, seed: 8 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    stub.failNext('mutation_row', { kind: 'not_found', message: 'no row 7 in /r/.hookd/mutations.db' });
    visibleRows()[0]!.click();
    const status = await vi.waitFor(() => {
      const el = document.querySelector<HTMLElement>('#row-detail [data-testid=row-detail-loading]')!;
      expect(el.className).toBe('field-error');
      return el;
    });
    expect(status.textContent).toBe("Could not read this row's payload: no row 7 in /r/.hookd/mutations.db");
    expect(document.getElementById('row-detail-payload')).toBeNull();
  });

  it('shows a Bash row\'s command', async () => {
    const stub = createStub({ rows: 300, seed: 8 });
    mount(stub, { repo, all: false, tool: 'Bash' });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    visibleRows()[0]!.click();
    const cmd = await present('#row-detail [data-testid=change-command]');
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

    stub.failNext('timeline_page', { kind: 'ledger_busy', message: 'database is locked' });
    stub.addMutations(1, repo);
    await vi.waitFor(() => expect(errors.current()).toEqual({ kind: 'ledger_busy', message: 'database is locked' }));
    expect(visibleRows().length).toBe(shown);
    expect(document.getElementById('error-banner')!.hidden).toBe(false);
    expect(document.getElementById('error-banner')!.dataset.kind).toBe('ledger_busy');

    errors.clear();
    stub.failNext('timeline_page', { kind: 'invalid_time', message: 'bad time' });
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
  const commit = (ledger: string, mutations = 1, hook_runs = 0) => ({ notices: [{ ledger, events: [], mutations, hook_runs }] });
  const f = (repo: string | null): TimelineFilter => ({ ...emptyFilter(), repo, all: repo === null });
  it('matches the ledger of the shown repository', () => {
    expect(commitConcerns(commit('/r/a/.hookd/mutations.db'), f('/r/a'))).toBe(true);
    expect(commitConcerns(commit('/r/a'), f('/r/a/sub/dir'))).toBe(true);
    expect(commitConcerns(commit('/r/ab/.hookd/mutations.db'), f('/r/a'))).toBe(false);
    expect(commitConcerns(commit('/r/b/.hookd/mutations.db'), f(null))).toBe(true);
    expect(commitConcerns(commit('/r/a/.hookd/mutations.db', 0), f('/r/a'))).toBe(false);
  });
});

describe('session and event-type filters', () => {
  const repo = '/home/dev/src/hookd';

  it('navigates with them from the form and queries with them', async () => {
    const stub = createStub({ rows: 300, seed: 21 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    (document.getElementById('filter-session') as HTMLInputElement).value = 'abc';
    (document.getElementById('filter-event_type') as HTMLInputElement).value = 'PostToolUse';
    document.getElementById('filter-apply')!.click();
    expect(navigated).toEqual([`#/timeline?repo=${repo}&session=abc&event_type=PostToolUse`]);

    // Every project, one session: only that project's rows.
    view!.destroy();
    const session = stub.rows.find((r) => r.repo === '/home/dev/src/webshop')!.session_id!;
    mount(stub, { session });
    const expected = stub.rows.filter((r) => r.session_id === session).length;
    await vi.waitFor(() => expect(countText()).toBe(`${expected.toLocaleString('en-US')} mutations`));
    expect(expected).toBeLessThan(stub.rows.length);
    expect((document.getElementById('filter-session') as HTMLInputElement).value).toBe(session);
    // The event type narrows in the backend (the stub does not interpret event names): the query carries it.
    view!.update({ view: 'timeline', filter: { ...emptyFilter(), session, event_type: 'PreToolUse' } });
    await vi.waitFor(() =>
      expect((stub.lastArgs.get('timeline_page') as { query: TimelineQuery }).query).toMatchObject({ all: true, session, event_type: 'PreToolUse' }),
    );
  });
});

describe('activity mode', () => {
  const repo = '/home/dev/src/hookd';

  it('lists every hook event of an agent with its hook runs, and opens their detail', async () => {
    const stub = createStub({ rows: 600, seed: 22 });
    mount(stub, { repo, all: false, agent: 'claude-main', mode: 'activity' });
    await vi.waitFor(() => expect(visibleRows().length).toBe(0));
    const activityRows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=activity-row]')].filter((r) => !r.hidden);
    await vi.waitFor(() => expect(activityRows().length).toBeGreaterThan(0));
    const expected = stub.timeline.events().filter((e) => e.repo === repo && e.agent_id === 'claude-main');
    expect(countText()).toBe(`${expected.length.toLocaleString('en-US')} events`);
    expect(document.getElementById('view-timeline')!.dataset.mode).toBe('activity');
    expect(document.getElementById('mode-activity')!.getAttribute('aria-pressed')).toBe('true');
    expect(document.getElementById('timeline-title')!.textContent).toContain('activity of claude-main');
    const kinds = new Set(expected.map((e) => e.hook_type));
    expect(kinds.has('user_prompt_submit') && kinds.has('pre_tool_use') && kinds.has('post_tool_use')).toBe(true);

    // A prompt blocked by a hook, made live: it appears with its verdict.
    const blocked = stub.timeline.addPrompt('deploy with key sk-123', repo, 'claude-main', true);
    await vi.waitFor(() => expect(countText()).toBe(`${(expected.length + 1).toLocaleString('en-US')} events`));
    const row = document.querySelector<HTMLElement>(`[data-testid=activity-row][data-event-id="${blocked.event_id}"]`)!;
    expect(row.dataset.hookType).toBe('user_prompt_submit');
    expect(row.dataset.verdict).toBe('block');
    expect(row.textContent).toContain('UserPromptSubmit');
    expect(row.textContent).toContain('block · 1 hook');
    row.click();
    const detail = document.getElementById('activity-detail')!;
    expect(detail.hidden).toBe(false);
    expect(document.getElementById('row-detail')!.hidden).toBe(true);
    expect(detail.querySelector('[data-testid=activity-prompt]')!.textContent).toBe('deploy with key sk-123');
    const runs = [...detail.querySelectorAll<HTMLElement>('[data-testid=hook-run]')];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.dataset.verdict).toBe('block');
    expect(runs[0]!.querySelector('[data-testid=hook-run-facts]')!.textContent).toContain('exit 2');
    expect(runs[0]!.querySelector('[data-testid=hook-run-reason]')!.textContent).toBe('Reason: the prompt contains what looks like an API key');

    // The session button narrows to the session, in activity mode still.
    document.getElementById('activity-detail-filter-session')!.click();
    expect(navigated.at(-1)).toMatch(new RegExp(`^#/timeline\\?repo=${repo}&agent=claude-main&session=[^&]+&mode=activity$`));
  });

  it('shows a prompt as the head of its group, and its detail reverts the prompt', async () => {
    const stub = createStub({ rows: 600, seed: 22 });
    mount(stub, { repo, all: false, agent: 'claude-main', mode: 'activity' });
    const activityRows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=activity-row]')].filter((r) => !r.hidden);
    await vi.waitFor(() => expect(activityRows().length).toBeGreaterThan(0));
    const prompt = stub.timeline.addPrompt('rename the config loader\nand keep the old name as an alias', repo, 'claude-main', false);
    const row = await vi.waitFor(() => {
      const r = document.querySelector<HTMLElement>(`[data-testid=activity-row][data-event-id="${prompt.event_id}"]`);
      if (r === null) throw new Error('the prompt is not shown yet');
      return r;
    });
    expect(row.classList.contains('prompt-head')).toBe(true);
    expect(row.querySelector('.prompt-badge')!.textContent).toBe('Prompt');
    expect(row.querySelector('.prompt-line')!.textContent).toBe('rename the config loader');
    // Every row drawn inside a group names a prompt of its own session.
    const members = activityRows().filter((r) => r.dataset.promptOf);
    expect(members.length).toBeGreaterThan(0);
    for (const member of members) {
      const head = stub.timeline.events().find((e) => e.event_id === member.dataset.promptOf)!;
      const own = stub.timeline.events().find((e) => e.event_id === member.dataset.eventId)!;
      expect(head.hook_type).toBe('user_prompt_submit');
      expect(head.session_id).toBe(own.session_id);
    }
    row.click();
    const button = await vi.waitFor(() => {
      const b = document.getElementById('activity-detail-revert-prompt');
      if (b === null) throw new Error('no Revert this prompt');
      return b;
    });
    button.click();
    await vi.waitFor(() => expect(stub.lastArgs.get('rewind_preview')).toMatchObject({ target: { kind: 'prompt', id: prompt.event_id } }));
  });

  it('is reached from an agent id in the list, the row detail, or the mode switch', async () => {
    const stub = createStub({ rows: 200, seed: 23 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const first = visibleRows()[0]!;
    const agent = first.querySelector<HTMLElement>('.agent-link')!;
    agent.click();
    expect(navigated).toEqual([`#/timeline?repo=${repo}&agent=${encodeURIComponent(agent.dataset.agent!)}&mode=activity`]);
    expect(document.getElementById('row-detail')!.hidden).toBe(true); // the click did not open the row
    first.click();
    document.getElementById('row-detail-agent-activity')!.click();
    expect(navigated.at(-1)).toBe(`#/timeline?repo=${repo}&agent=${agent.dataset.agent}&mode=activity`);
    // From the keyboard: "A" on the active row opens its agent's activity.
    const listEl = document.getElementById('timeline-list')!;
    expect(listEl.getAttribute('aria-keyshortcuts')).toBe('A R');
    const before = navigated.length;
    listEl.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    const activeRow = await vi.waitFor(() => {
      const el = document.getElementById('timeline-list-active-row');
      expect(el).not.toBeNull();
      return el!;
    });
    const activeAgent = activeRow.querySelector<HTMLElement>('.agent-link')!.dataset.agent!;
    listEl.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true }));
    expect(navigated.length).toBe(before + 1);
    expect(navigated.at(-1)).toBe(`#/timeline?repo=${repo}&agent=${encodeURIComponent(activeAgent)}&mode=activity`);
    listEl.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(navigated.length).toBe(before + 1); // Ctrl+A is not the shortcut
    document.getElementById('mode-activity')!.click();
    expect(navigated.at(-1)).toBe(`#/timeline?repo=${repo}&mode=activity`);

    // Switching in place swaps the columns and the rows.
    view!.update({ view: 'timeline', filter: { ...emptyFilter(), repo, all: false, mode: 'activity' } });
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=activity-row]').length).toBeGreaterThan(0));
    expect(visibleRows()).toHaveLength(0);
    expect([...document.querySelectorAll('.tl-header .col')].map((c) => c.textContent)).toEqual(['Time', 'Agent', 'Event', 'Tool', 'Subject', 'Hooks']);
    document.getElementById('mode-mutations')!.click();
    expect(navigated.at(-1)).toBe(`#/timeline?repo=${repo}`);
  });

  it('stays virtualised with tens of thousands of events', async () => {
    const stub = createStub({ rows: 30_000, seed: 24 });
    mount(stub, { mode: 'activity' });
    const total = stub.timeline.events().length;
    expect(total).toBeGreaterThan(60_000);
    await vi.waitFor(() => expect(countText()).toBe(`${total.toLocaleString('en-US')} events`), { timeout: 15_000 });
    expect(document.querySelectorAll('[data-testid=activity-row]').length).toBeLessThanOrEqual(maxRenderedRows(VIEWPORT, ROW_HEIGHT, 8));
  }, 30_000);
});

describe('activity chart', () => {
  const repo = '/home/dev/src/hookd';

  it('draws the counts SQL made, by agent or tool, and a bar narrows the time range', async () => {
    const stub = createStub({ rows: 400, seed: 25 });
    mount(stub, { repo, all: false });
    const chart = document.getElementById('timeline-chart')!;
    const own = stub.rows.filter((r) => r.repo === repo);
    // The chart is counted after the rows: on a loaded machine (CI) that is past waitFor's default second.
    await vi.waitFor(() => expect(chart.dataset.total).toBe(String(own.length)), { timeout: 5000 });
    expect(chart.dataset.group).toBe('agent');
    const legend = (): string[] => [...chart.querySelectorAll<HTMLElement>('.chart-legend-item')].map((li) => li.dataset.series!);
    expect(new Set(legend())).toEqual(new Set(own.map((r) => r.agent_id)));
    const svg = document.getElementById('timeline-chart-svg')!;
    expect(svg.getAttribute('aria-label')).toMatch(new RegExp(`^Activity chart\\. ${own.length} mutations, counted per `));
    const bins = [...chart.querySelectorAll<SVGElement>('[data-testid=chart-bin]')];
    expect(bins.length).toBe(Number(chart.dataset.bins));
    expect(bins.reduce((n, b) => n + Number(b.dataset.count), 0)).toBe(own.length);

    document.getElementById('chart-group-tool')!.click();
    expect(chart.dataset.group).toBe('tool');
    expect(document.getElementById('chart-group-tool')!.getAttribute('aria-pressed')).toBe('true');
    await vi.waitFor(() => expect(new Set(legend())).toEqual(new Set(own.map((r) => r.tool_name))), { timeout: 5000 });
    expect((stub.lastArgs.get('timeline_histogram') as { request: { series: string } }).request.series).toBe('tool');

    // Click the busiest bar (redrawn by the toggle): the timeline narrows to its time range.
    const redrawn = [...chart.querySelectorAll<SVGElement>('[data-testid=chart-bin]')];
    expect(redrawn.map((b) => b.dataset.count)).toEqual(bins.map((b) => b.dataset.count));
    const busiest = redrawn.reduce((a, b) => (Number(b.dataset.count) > Number(a.dataset.count) ? b : a));
    busiest.querySelector('rect')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const hash = navigated.at(-1)!;
    const m = /since=([^&]+)&until=([^&]+)$/.exec(hash);
    expect(m).not.toBeNull();
    const [from, to] = [Date.parse(m![1]!), Date.parse(m![2]!)];
    const inside = own.filter((r) => Date.parse(r.event_timestamp) >= from && Date.parse(r.event_timestamp) < to).length;
    expect(inside).toBe(Number(busiest.dataset.count));

    // Keyboard: End then Enter narrows to the last bar.
    svg.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    expect(document.getElementById('timeline-chart-readout')!.textContent).toMatch(/\d\d:\d\d–\d\d:\d\d: /);
    svg.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(navigated.at(-1)).not.toBe(hash);
  });

  it('is counted again once for a burst of live commits', async () => {
    const stub = createStub({ rows: 200, seed: 26 });
    mount(stub, { repo, all: false });
    const chart = document.getElementById('timeline-chart')!;
    const own = (): number => stub.rows.filter((r) => r.repo === repo).length;
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(chart.dataset.total).toBe(String(own())));
    const before = stub.calls.get('timeline_histogram')!;
    for (let i = 0; i < 4; i++) stub.addMutations(1, repo);
    await vi.waitFor(() => expect(chart.dataset.total).toBe(String(own())), { timeout: 3000 });
    expect(stub.calls.get('timeline_histogram')! - before).toBe(1);
  });
});

describe('row detail: Write diff and Bash files', () => {
  const repo = '/home/dev/src/hookd';

  it('shows a Write against the previous Write of the file', async () => {
    const stub = createStub({ rows: 800, seed: 26 });
    const writes = stub.rows.filter((r) => r.repo === repo && r.tool_name === 'Write');
    const file = writes.find((w, i) => writes.slice(0, i).some((e) => e.file_path === w.file_path))!.file_path!;
    const lastRow = writes.filter((w) => w.file_path === file).at(-1)!;
    const previous = writes.filter((w) => w.file_path === file).at(-2)!;
    const content = (r: typeof lastRow): string => JSON.parse(r.raw_payload).tool_input.content as string;
    // Which Write came before is the core's to find: the stub answers what it is given.
    stub.timeline.setPrevious(repo, lastRow.id, {
      source: { kind: 'write', id: previous.id, event_id: previous.event_id, event_timestamp: previous.event_timestamp, agent_id: previous.agent_id },
      content: content(previous),
      changes_between: 0,
      note: null,
    });
    mount(stub, { repo, all: false, file, tool: 'Write' });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(1));
    const rowsShown = visibleRows();
    const last = rowsShown.reduce((a, b) => (Number(b.dataset.index) > Number(a.dataset.index) ? b : a));
    last.click();
    const change = await present('#row-detail [data-testid=change]');
    expect(change.dataset.kind).toBe('write');
    await vi.waitFor(() => expect(change.dataset.previous).toBe('write'));
    const diff = change.querySelector<HTMLElement>('[data-testid=write-diff]')!;
    expect(diff.dataset.source).toBe('write');
    expect(diff.querySelector('figcaption')!.textContent).toContain(`vs. Write at`);
    expect(diff.querySelector('figcaption')!.textContent).toContain(`by ${previous.agent_id}`);
    const added = [...diff.querySelectorAll('.diff-add .diff-text')].map((e) => e.textContent);
    const removed = [...diff.querySelectorAll('.diff-del .diff-text')].map((e) => e.textContent);
    for (const line of added) expect(content(lastRow).split('\n')).toContain(line);
    for (const line of removed) expect(content(previous).split('\n')).toContain(line);
    if (content(lastRow) !== content(previous)) expect(added.length + removed.length).toBeGreaterThan(0);
  });

  it('compares the first Write with git, and says when nothing is known', async () => {
    const stub = createStub({ rows: 800, seed: 27 });
    const writes = stub.rows.filter((r) => r.repo === repo && r.tool_name === 'Write');
    const first = writes[0]!;
    mount(stub, { repo, all: false, file: first.file_path, tool: 'Write' });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-event-id="${first.event_id}"]`)!.click();
    const change = await present('#row-detail [data-testid=change]');
    await vi.waitFor(() => expect(change.dataset.previous).toBe('git'));
    expect(change.querySelector('figcaption')!.textContent).toContain(`vs. git ${first.head_sha.slice(0, 7)}`);

    stub.failNext('mutation_diff', { kind: 'not_found', message: 'no ledger' });
    document.getElementById('row-detail-close')!.click();
    document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-event-id="${first.event_id}"]`)!.click();
    const again = await present('#row-detail [data-testid=change]');
    await vi.waitFor(() => expect(again.dataset.previous).toBe('error'));
    expect(again.querySelector('[data-testid=change-diff-error]')!.textContent).toContain('no ledger');
    // The payload's own diff (the backend's payload_diff): the content alone, all added.
    await vi.waitFor(() => expect(again.querySelectorAll('.diff-add').length).toBeGreaterThan(0));
    expect(again.querySelectorAll('.diff-del')).toHaveLength(0);
  });

  it('shows in LINES the add and del lines of the diff it shows, from the backend', async () => {
    const stub = createStub({ rows: 400, seed: 29 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(5));
    const seen = new Set<string>();
    for (const el of visibleRows()) {
      const tool = el.dataset.tool!;
      if (seen.has(tool) || tool === 'Bash') continue;
      seen.add(tool);
      const lines = el.querySelector<HTMLElement>('.col-lines')!;
      const m = /^\+(\d+) \u2212(\d+)$/.exec(lines.textContent ?? '');
      expect(m, `${tool}: ${lines.textContent}`).not.toBeNull();
      expect(lines.querySelector('.stat-add')!.textContent).toBe(`+${m![1]}`);
      expect(lines.querySelector('.stat-del')!.textContent).toBe(`\u2212${m![2]}`);
      el.click();
      const change = await present(`#row-detail[data-event-id="${el.dataset.eventId}"] [data-testid=change]`);
      await vi.waitFor(() => expect(change.querySelector('[data-testid=change-diff]')).not.toBeNull());
      const count = (op: string): number => change.querySelectorAll(`.diff-line[data-op=${op}]`).length;
      if (tool === 'Write') {
        // Shown against its previous content; LINES was counted against none, and the panel says so.
        const note = change.querySelector('[data-testid=write-diff-recorded]');
        if (note) expect(note.textContent).toContain(`+${m![1]} \u2212${m![2]}`);
        else expect([count('add'), count('del')]).toEqual([Number(m![1]), Number(m![2])]);
      } else {
        expect([count('add'), count('del')], tool).toEqual([Number(m![1]), Number(m![2])]);
      }
      document.getElementById('row-detail-close')!.click();
    }
    expect([...seen].sort()).toEqual(['Edit', 'MultiEdit', 'NotebookEdit', 'Write']);
    // Diffed by the backend, not in the page.
    expect(stub.calls.get('mutation_diff')).toBe(4);
  });

  it('shows "—" in LINES for a row without counts', async () => {
    const stub = createStub({ rows: 60, seed: 30 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    const [bash] = stub.timeline.addBash(['gen/x.txt'], repo);
    const el = await present<HTMLElement>(`[data-testid=timeline-row][data-event-id="${bash!.event_id}"]`);
    expect(el.querySelector('.col-lines')!.textContent).toBe('\u2014');
  });

  it('counts and diffs a file a Bash command changed from the contents kept around it', async () => {
    const stub = createStub({ rows: 60, seed: 31 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    const [edited, made, unknown] = stub.timeline.addBash(['conf/app.toml', 'gen/new.txt', 'gen/blob.bin'], repo, 'claude-main', {
      'conf/app.toml': ['port = 80\nhost = "a"\n', 'port = 8080\nhost = "a"\n'],
      'gen/new.txt': [null, 'one\ntwo\n'],
    });
    const row = (r: typeof edited) => present<HTMLElement>(`[data-testid=timeline-row][data-event-id="${r!.event_id}"][data-mutation-seq="${r!.mutation_seq}"]`);
    expect((await row(edited)).querySelector('.col-lines')!.textContent).toBe('+1 \u22121');
    expect((await row(made)).querySelector('.col-lines')!.textContent).toBe('+2 \u22120');
    expect((await row(unknown)).querySelector('.col-lines')!.textContent).toBe('\u2014');

    (await row(edited)).click();
    const section = await present<HTMLElement>('#row-detail [data-testid=shell-change]');
    await vi.waitFor(() => expect(section.querySelectorAll('.diff-line').length).toBe(3));
    const lines = [...section.querySelectorAll<HTMLElement>('.diff-line')].map((l) => `${l.dataset.op} ${l.querySelector('.diff-text')!.textContent}`);
    expect(lines).toEqual(['del port = 80', 'add port = 8080', 'eq host = "a"']);
    expect(section.dataset.added).toBe('1');
    expect(section.dataset.removed).toBe('1');
    // The command and the other files it changed are still shown.
    expect(document.querySelector('#row-detail [data-testid=change-command]')?.textContent).toBe(edited!.command);
    document.getElementById('row-detail-close')!.click();

    (await row(unknown)).click();
    const none = await present<HTMLElement>('#row-detail [data-testid=shell-change] [data-testid=change-no-diff]');
    expect(none.textContent).toContain('not both kept');
  });

  it('lists every file a Bash command changed, each opening its history', async () => {
    const stub = createStub({ rows: 100, seed: 28 });
    mount(stub, { repo, all: false });
    await vi.waitFor(() => expect(document.getElementById('live-status')!.dataset.state).toBe('live'));
    await vi.waitFor(() => expect(visibleRows().length).toBeGreaterThan(0));
    const [one] = stub.timeline.addBash(['gen/one.txt', 'gen/two.txt'], repo);
    await vi.waitFor(() => expect(document.querySelectorAll(`[data-testid=timeline-row][data-event-id="${one!.event_id}"]`)).toHaveLength(2));
    document.querySelector<HTMLElement>(`[data-testid=timeline-row][data-event-id="${one!.event_id}"][data-mutation-seq="1"]`)!.click();
    await vi.waitFor(() => expect(document.querySelector('#row-detail [data-testid=change-command]')?.textContent).toBe(one!.command));
    const files = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('#row-detail [data-testid=bash-file]')];
    await vi.waitFor(() => expect(files().map((f) => f.dataset.file)).toEqual(['gen/one.txt', 'gen/two.txt']));
    expect(files()[1]!.getAttribute('aria-current')).toBe('true');
    expect(document.querySelector<HTMLElement>('#row-detail [data-testid=bash-files]')!.dataset.count).toBe('2');
    files()[0]!.click();
    expect(navigated.at(-1)).toBe(`#/timeline?repo=${repo}&file=gen/one.txt`);
  });
});

describe('commitConcerns with the new filters', () => {
  const notice = (events: { hook_type: string; tool_name: string | null }[], mutations: number, hook_runs = 0) => ({
    notices: [{ ledger: '/r/.hookd/mutations.db', events: events.map((e, i) => ({ event_id: `e${i}`, tool_use_id: null, ...e })), mutations, hook_runs }],
  });
  const f = (over: Partial<TimelineFilter>): TimelineFilter => ({ ...emptyFilter(), repo: '/r', all: false, ...over });
  it('refetches activity for any event, mutations only for mutations', () => {
    const prompt = notice([{ hook_type: 'user_prompt_submit', tool_name: null }], 0);
    expect(commitConcerns(prompt, f({ mode: 'activity' }))).toBe(true);
    expect(commitConcerns(prompt, f({}))).toBe(false);
  });
  it('refetches activity when hook runs land after their event, not the file list', () => {
    const runs = notice([], 0, 2);
    expect(commitConcerns(runs, f({ mode: 'activity' }))).toBe(true);
    expect(commitConcerns(runs, f({}))).toBe(false);
    expect(commitConcerns(notice([], 0, 0), f({ mode: 'activity' }))).toBe(false);
  });
  it('skips commits whose events cannot match the event type or tool', async () => {
    const post = notice([{ hook_type: 'post_tool_use', tool_name: 'Edit' }], 1);
    resetCatalogue();
    // Without the backend's catalogue an event type cannot be told apart: refetch.
    expect(commitConcerns(post, f({ event_type: 'PostToolUseFailure' }))).toBe(true);
    setBackend(createStub());
    await loadCatalogue();
    expect(commitConcerns(post, f({ event_type: 'PostToolUse' }))).toBe(true);
    expect(commitConcerns(post, f({ event_type: 'PostToolUseFailure' }))).toBe(false);
    expect(commitConcerns(post, f({ tool: 'edit' }))).toBe(true);
    expect(commitConcerns(post, f({ tool: 'Bash' }))).toBe(false);
    expect(commitConcerns(post, f({ mode: 'activity', event_type: 'Stop' }))).toBe(false);
    // Agent and session are not in the notice: refetch.
    expect(commitConcerns(post, f({ agent: 'someone', session: 's' }))).toBe(true);
  });
});
