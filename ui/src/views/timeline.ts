// The Timeline screen: a project's (or every project's) mutations, oldest
// first like `hookd query`, in a virtualised list that follows new rows as
// the ledger commits them. In activity mode (`mode=activity`) the same list
// shows every hook event instead (prompts, tool calls, stops), each with the
// managed hook runs that answered it: an agent's whole activity. A chart of
// the matching rows per minute, hour or day sits above the list.
//
// Nothing here holds the whole history: the list is sized by the exact
// count the backend gives and holds only the pages around the viewport
// (lib/paged.ts), painting placeholders where a page is still on its way;
// the chart's counts come from SQL. Opening a view reads the newest page.
//
// The filters live in the URL hash: the form only navigates, and the router
// calls `update` with the parsed filter, so reopening or sharing a hash gives
// the same view (the form is components/filter-bar.ts; a row's cells and
// the column header, components/timeline-row.ts). A ledger-commit
// (debounced, one read in flight) reads what was committed since the last
// read and appends it, highlighted for a moment; rows that sort before rows
// already shown refetch the viewport.
//
// Failures never leave a half-updated screen: a failed new query clears the
// list and says why (the rows on screen would not match the filters), a
// failed live refetch keeps the rows and shows the error banner.
//
// Room to read: the filter bar folds into a one-line summary and the chart
// hides (lib/layout.ts keeps the choice); live rows never take the keyboard
// focus, the selection or the rows being read away from the user. An agent
// can be renamed from its cell (right-click, or R on its row), the agent
// chip of the summary line, or an event's detail.
//
// A mutation's detail offers its reverts (its tool call, its session, its
// agent's changes, and in a file's history "Restore this version"): the
// Revert dialog previews the core's plan and applies exactly it; a notice
// then says what was written and offers "Undo revert". In activity mode a
// prompt heads the rows its session sent until its next prompt
// (lib/prompt-groups.ts: found among the pages held, else asked of the
// ledger, once per run of rows, for the rows on screen), and its detail, or
// the detail of a row of its group, offers "Revert this prompt" through the
// same dialog.

import '../styles/timeline.css';
import { createActivityChart } from '../components/activity-chart';
import { createActivityDetail } from '../components/activity-detail';
import { openAgentRename, type AgentRenameDialog } from '../components/agent-rename';
import { formatCount, h } from '../components/dom';
import { createFilterBar } from '../components/filter-bar';
import { createRowDetail } from '../components/row-detail';
import { openRewindDialog, type RewindDialog, type RewindRequest } from '../components/rewind-dialog';
import { createRewindNotice } from '../components/rewind-notice';
import { isMutation, renderColumns, renderPlaceholder, renderRow, type Row } from '../components/timeline-row';
import { VirtualList } from '../components/virtual-list';
import { loadCatalogue, storedEventName } from '../lib/catalogue';
import { listenForPerfRequests, markPainted, markRowsPainted, timed } from '../lib/perf';
import { api, listen, normalizeError, type Unlisten } from '../lib/api';
import { debounce } from '../lib/debounce';
import { loadLayout, saveLayout } from '../lib/layout';
import { PagedRows } from '../lib/paged';
import {
  TEXT_FILTERS,
  emptyFilter,
  formatHash,
  normalizeFilter,
  sameFilter,
  toQuery,
  type Route,
  type TimelineFilter,
  type TimelineMode,
} from '../lib/route';
import { FetchedGroups, PROMPT_HOOK, promptPlace, promptText, withFetched, type PromptPlace } from '../lib/prompt-groups';
import { promptRevertTitle, revertTitle } from '../lib/rewind';
import { parseWhen } from '../lib/time';
import type { ChartGroup } from '../lib/chart';
import type { ActivityEvent, Anchor, Histogram, HistogramRequest, LedgerCommit, Page, ProjectInfo, PromptGroup, TimelineQuery } from '../lib/types';
import type { View, ViewContext } from './view';

/** Row height in px; `.vrow` in styles.css uses the same value. */
export const ROW_HEIGHT = 28;
/** Delay between a ledger-commit and the live read, so bursts cost one query. */
export const LIVE_DEBOUNCE_MS = 100;
/**
 * Scrolling asks for the pages it shows at once (a jump, the first move of
 * a drag), then, while it goes on, only once it pauses this long.
 */
export const SCROLL_DEBOUNCE_MS = 50;
/** The chart is counted again at most this often while commits arrive. */
export const CHART_INTERVAL_MS = 1000;
/** The shortest range the chart shows when the filter gives no start. */
export const CHART_MIN_SPAN_MS = 30 * 60_000;
/** How long a new row stays highlighted. */
const HIGHLIGHT_MS = 2500;

// The filter bar's, kept importable from here.
export { SUGGEST_DEBOUNCE_MS, validateFilter } from '../components/filter-bar';

/** Identifies a row across refetches (ids are per ledger; event ids are not per row). */
export function rowKey(row: Row): string {
  return isMutation(row)
    ? `${row.repo ?? ''}\u0000${row.event_id}\u0000${row.mutation_seq}`
    : `${row.repo ?? ''}\u0000${row.event_id}`;
}

/**
 * Whether a ledger-commit concerns the rows of `filter`: its ledger is the
 * project's (or any, for every project), it wrote rows of the kind shown
 * (mutations; or any event or hook run in activity mode), and, when the filter names an
 * event type or a tool, one of its events has it. (Agent, session, file and
 * branch are not in the notice; those filters refetch on every commit.)
 */
export function commitConcerns(commit: LedgerCommit, filter: TimelineFilter): boolean {
  // The stored spelling comes from the backend's catalogue; an event it does
  // not know (or a catalogue not loaded yet) cannot be told apart: refetch.
  const eventType = filter.event_type !== null ? storedEventName(filter.event_type) : null;
  const undecidable = filter.event_type !== null && eventType === null;
  const tool = filter.tool?.toLowerCase() ?? null;
  return commit.notices.some((n) => {
    if (filter.mode === 'activity' ? n.events.length === 0 && n.hook_runs === 0 : n.mutations <= 0) return false;
    if (!undecidable && (eventType !== null || tool !== null)) {
      const matching = n.events.some(
        (e) => (eventType === null || e.hook_type === eventType) && (tool === null || e.tool_name?.toLowerCase() === tool),
      );
      // A notice from an older daemon may list no events: refetch to be safe.
      if (!matching && n.events.length > 0) return false;
    }
    if (filter.all || filter.repo === null) return true;
    const root = n.ledger.replace(/\/\.hookd\/mutations\.db$/, '');
    const repo = filter.repo.replace(/\/+$/, '');
    return root === repo || repo.startsWith(`${root}/`) || root.startsWith(`${repo}/`);
  });
}

type LiveState = 'connecting' | 'live' | 'paused' | 'offline';

const NOUN: Record<TimelineMode, [string, string]> = { mutations: ['mutation', 'mutations'], activity: ['event', 'events'] };

export function createTimelineView(ctx: ViewContext, initial: TimelineFilter): View {
  let filter = normalizeFilter(initial);
  /** The rows of the current filter, a page at a time; null before the first read. */
  let paged: PagedRows<Row> | null = null;
  const fresh = new Map<string, number>(); // key → highlight expiry
  let selectedKey: string | null = null;
  /** The keyboard cursor's row, kept by key across page loads. */
  let activeKey: string | null = null;
  let fetchSeq = 0;
  let destroyed = false;
  let paused = false;
  let pending = 0;
  let subscribed = false;
  let daemonDown: string | null = null;
  let projects: ProjectInfo[] = [];
  const unlisteners: Unlisten[] = [];

  // ---- header ----
  const title = h('h1', { id: 'timeline-title' });
  const count = h('span', { id: 'timeline-count', class: 'muted', attrs: { 'aria-live': 'polite' } });
  const liveStatus = h('span', { id: 'live-status', class: 'live-status', attrs: { role: 'status' } });
  const liveToggle = h('button', {
    id: 'live-toggle',
    class: 'button',
    attrs: { type: 'button', 'aria-pressed': 'false' },
    on: { click: () => setPaused(!paused) },
  });
  const modeButtons = (
    [
      ['mutations', 'File changes', 'Mutations: the files agents changed'],
      ['activity', 'All activity', 'Every hook event (prompts, tool calls, stops) with the hook runs that answered it'],
    ] as const
  ).map(([mode, text, tip]) =>
    h('button', {
      id: `mode-${mode}`,
      class: 'button small mode-button',
      attrs: { type: 'button', title: tip, 'aria-pressed': 'false' },
      text,
      on: { click: () => setMode(mode) },
    }),
  );
  const modeSwitch = h('div', { id: 'timeline-mode', class: 'mode-switch', attrs: { role: 'group', 'aria-label': 'Show' } }, ...modeButtons);

  // ---- room: the filter bar folds into one line, the chart hides ----
  const layout = loadLayout();
  const chartToggle = h('button', {
    id: 'chart-toggle',
    class: 'button small chart-show',
    attrs: { type: 'button', 'aria-controls': 'timeline-chart', 'aria-expanded': 'true' },
    on: { click: () => showChart(!layout.chart) },
  });
  const filterBar = createFilterBar({
    filter: () => filter,
    projects: () => projects,
    agentName: (agent) => agentNames.get(agent),
    scope: () => scopeQuery(),
    layout,
    tools: [chartToggle],
    onApply: (next) => ctx.navigate(formatHash({ view: 'timeline', filter: next })),
    onFold: (shown) => el.classList.toggle('filters-collapsed', !shown),
    onRename: (agent, opener) => renameAgent(agent, opener),
  });

  /** Shows or hides the chart; a shown chart is counted (a hidden one is not kept up to date). */
  function showChart(shown: boolean, keep = true): void {
    const was = layout.chart;
    layout.chart = shown;
    if (keep) saveLayout(layout);
    chart.el.hidden = !shown;
    chartToggle.setAttribute('aria-expanded', String(shown));
    chartToggle.textContent = shown ? 'Hide chart' : 'Show chart';
    chartToggle.title = shown ? 'Hide the chart: more room for the rows' : `Show the chart of the ${NOUN[filter.mode][1]} per minute, hour or day`;
    if (shown && !was) void countChart();
  }

  // ---- chart ----
  const chart = createActivityChart(
    (from, to) => {
      const next = normalizeFilter({ ...filter, since: new Date(from).toISOString(), until: new Date(to).toISOString() });
      ctx.navigate(formatHash({ view: 'timeline', filter: next }));
    },
    (group) => {
      chartGroup = group;
      void countChart();
    },
  );
  let chartGroup: ChartGroup = 'agent';
  let chartSeq = 0;
  let chartAt = 0;
  let chartTimer: ReturnType<typeof setTimeout> | null = null;
  /** Asks the backend for the chart of the current filter; an older answer is dropped. */
  async function countChart(): Promise<void> {
    if (!layout.chart) return;
    const seq = ++chartSeq;
    chartAt = Date.now();
    const query = viewQuery;
    const mode = filter.mode;
    const count = (request: HistogramRequest): Promise<Histogram> =>
      mode === 'activity' ? api.activity_histogram({ query, request }) : api.timeline_histogram({ query, request });
    try {
      let histogram = await count({ series: chartGroup });
      // Without a start in the filter the range is the rows' own: show at
      // least CHART_MIN_SPAN_MS of it, so a burst of a minute is a bar at
      // the right, not one bar across the chart.
      const end = Date.parse(histogram.end);
      if (filter.since === null && histogram.last !== null && end - Date.parse(histogram.start) < CHART_MIN_SPAN_MS) {
        if (destroyed || seq !== chartSeq) return;
        histogram = await count({ series: chartGroup, from: new Date(end - CHART_MIN_SPAN_MS).toISOString(), to: histogram.end });
      }
      if (destroyed || seq !== chartSeq) return;
      const drawn = histogram;
      timed('chart', () => chart.update({ histogram: drawn, noun: NOUN[mode][1] }));
    } catch (err) {
      if (destroyed || seq !== chartSeq) return;
      console.warn('hookd: cannot count the chart', err);
    }
  }
  /** Counts the chart again after live commits, at most once per CHART_INTERVAL_MS. */
  function chartLater(): void {
    if (chartTimer !== null) return;
    chartTimer = setTimeout(() => {
      chartTimer = null;
      if (!destroyed) void countChart();
    }, Math.max(0, chartAt + CHART_INTERVAL_MS - Date.now()));
  }

  /**
   * The groups the ledger answered for rows on screen whose head (or whose
   * head's whole group) is not held; forgotten when the rows change under
   * them (a new filter, rows committed), an older answer then dropped.
   */
  const fetchedGroups = new FetchedGroups(
    (repo, id) => api.prompt_group({ row: { repo, id } }),
    () => {
      if (!destroyed) list.refresh();
    },
  );

  /**
   * The place among the prompts of the row at list position `index`, read
   * from the pages held (lib/prompt-groups.ts; the list is oldest first),
   * else from the ledger's answer; with the head the ledger named.
   */
  function placeOf(index: number, row: ActivityEvent): { place: PromptPlace; group?: PromptGroup; caption: boolean } | undefined {
    const rows = paged;
    if (rows === null) return undefined;
    // Positions before a "newest N" view's first row still count: its
    // prompt may sit just before it.
    const get = (i: number): ActivityEvent | undefined => {
      const r = rows.get(i);
      return r === undefined || isMutation(r) ? undefined : r;
    };
    const held = promptPlace(get, index + skipped(), rows.total, 'oldest');
    // The row the run asks about is the first of the group below the gap: it carries the caption.
    const caption = held.role === 'member' && held.head === null && (held.from ?? row).id === row.id;
    return { ...withFetched(held, row, repoOf(row), fetchedGroups), caption };
  }

  // ---- list ----
  const list = new VirtualList<Row>({
    id: 'timeline-list',
    label: 'Mutations, oldest first',
    rowHeight: ROW_HEIGHT,
    overscan: 8,
    renderRow: (el, row, index) => {
      const key = rowKey(row);
      const place = isMutation(row) ? undefined : placeOf(index, row);
      renderRow(el, row, {
        all: filter.all,
        fresh: fresh.has(key),
        selected: key === selectedKey,
        names: agentNames,
        prompt: place?.place,
        fetchedHead: place?.group && place.place.role === 'member' ? { head: place.group.head, caption: place.caption } : undefined,
      });
    },
    renderPlaceholder: (el) => renderPlaceholder(el),
    onRange: (start, end) => {
      range = [start, end];
      loadRange();
    },
    onActivate: (index, row) => select(row, index),
    onFollowChange: (following) => {
      jump.hidden = following;
    },
  });
  list.el.setAttribute('aria-keyshortcuts', 'A R');
  list.el.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && selectedKey !== null) {
      ev.preventDefault();
      closeDetail();
    }
    // "A": the active row's agent, all of its activity (what clicking the agent id does).
    if ((ev.key === 'a' || ev.key === 'A') && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      const row = list.at(list.activeIndex);
      if (row === undefined) return;
      ev.preventDefault();
      showActivity(row.agent_id);
    }
    // "R": rename the active row's agent.
    if ((ev.key === 'r' || ev.key === 'R') && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      const row = list.at(list.activeIndex);
      if (row === undefined) return;
      ev.preventDefault();
      renameAgent(row.agent_id, list.el);
    }
  });
  // Right-click on an agent: rename it.
  list.el.addEventListener('contextmenu', (ev) => {
    const link = (ev.target as Element).closest<HTMLElement>('.agent-link');
    if (!link?.dataset.agent) return;
    ev.preventDefault();
    renameAgent(link.dataset.agent, list.el);
  });
  // An agent id in a row is a shortcut to that agent's whole activity.
  list.el.addEventListener(
    'click',
    (ev) => {
      const link = (ev.target as Element).closest<HTMLElement>('.agent-link');
      if (!link?.dataset.agent) return;
      ev.stopPropagation();
      showActivity(link.dataset.agent);
    },
    true,
  );
  const header = h('div', { class: 'tl-header tl-cols', attrs: { 'aria-hidden': 'true' } });
  const emptyState = h('div', { id: 'timeline-empty', class: 'empty-state list-empty', attrs: { hidden: true } });
  const jump = h('button', {
    id: 'timeline-jump-latest',
    class: 'button jump-latest',
    attrs: { type: 'button', hidden: true, title: 'Scroll to the newest row and follow new ones' },
    text: '↓ Latest',
    on: { click: () => { list.scrollToEnd(); list.el.focus(); } },
  });
  /** The project of a row: the timeline's, else the row's own (every project). */
  const repoOf = (row: Row): string | null => filter.repo ?? row.repo ?? null;
  const detail = createRowDetail(
    () => closeDetail(),
    (field, value) => {
      // Keep the project: a file path is relative to its repository.
      const repo = filter.repo ?? (detail.current()?.repo ?? null);
      ctx.navigate(formatHash({ view: 'timeline', filter: normalizeFilter({ ...filter, repo, [field]: value }) }));
    },
    {
      repoOf,
      onAgentActivity: (agent) => showActivity(agent),
      onRevert: (row, offer, opener) => {
        const repo = repoOf(row);
        if (repo !== null) openRevert(repo, { kind: 'revert', target: offer.target }, revertTitle(offer.action, row), opener);
      },
      historyOf: () => filter.file,
    },
  );
  const rewindNotice = createRewindNotice();
  const activityDetail = createActivityDetail(
    () => closeDetail(),
    (field, value) => {
      const repo = filter.repo ?? (activityDetail.current()?.repo ?? null);
      ctx.navigate(formatHash({ view: 'timeline', filter: normalizeFilter({ ...filter, repo, [field]: value }) }));
    },
    (agent, opener) => renameAgent(agent, opener),
    (ev, offer, opener) => {
      const repo = filter.repo ?? ev.repo ?? null;
      if (repo !== null) openRevert(repo, { kind: 'revert', target: offer.target }, promptRevertTitle(promptText(ev)), opener);
    },
  );
  // The row sent before its prompt was read whole is re-read from the
  // ledger with its head on its way; the detail waits for the group.
  let groupAsked = 0;

  const el = h(
    'section',
    { id: 'view-timeline', class: 'view view-timeline', attrs: { 'aria-labelledby': 'timeline-title' } },
    h('header', { class: 'view-header' }, title, h('div', { class: 'header-actions' }, modeSwitch, count, liveToggle, liveStatus)),
    filterBar.form,
    chart.el,
    rewindNotice.el,
    h(
      'div',
      { class: 'timeline-body' },
      h('div', { class: 'timeline-list-wrap' }, header, list.el, emptyState, jump),
      detail.el,
      activityDetail.el,
    ),
  );

  // ---- rendering ----
  function renderHeader(): void {
    const activity = filter.mode === 'activity';
    renderColumns(header, activity, filter.all);
    el.classList.toggle('with-repo', filter.all);
    el.classList.toggle('mode-activity', activity);
    el.classList.toggle('one-agent', filter.agent !== null);
    el.dataset.mode = filter.mode;
    for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.id === `mode-${filter.mode}`));
    list.el.setAttribute('aria-label', activity ? 'Hook events with their hook runs, oldest first' : 'Mutations, oldest first');
    const name = filter.all ? 'all projects' : (projects.find((p) => p.root === filter.repo)?.name ?? filter.repo ?? '');
    const what = activity ? (filter.agent !== null ? `activity of ${filter.agent}` : 'all activity') : null;
    title.replaceChildren('Timeline', h('span', { class: 'title-sub', text: ` · ${name}${what ? ` · ${what}` : ''}` }));
    if (!filter.all && filter.repo) title.title = filter.repo;
    else title.removeAttribute('title');
    filterBar.renderSummary();
  }

  function setLive(): void {
    let state: LiveState;
    let text: string;
    let tip: string;
    if (paused) {
      state = 'paused';
      text = 'paused';
      tip = pending > 0 ? `${pending} commit${pending === 1 ? '' : 's'} waiting` : 'Not following the ledger';
    } else if (daemonDown !== null) {
      state = 'offline';
      text = 'offline';
      tip = `The hookd daemon is unavailable: ${daemonDown}`;
    } else if (!subscribed) {
      state = destroyed ? 'offline' : 'connecting';
      text = state === 'connecting' ? 'connecting…' : 'offline';
      tip = 'Subscribing to ledger commits';
    } else {
      state = 'live';
      text = 'live';
      tip = filter.mode === 'activity' ? 'New hook events appear as the ledger commits them' : 'New mutations appear as the ledger commits them';
    }
    liveStatus.dataset.state = state;
    liveStatus.textContent = text;
    liveStatus.title = tip;
    liveToggle.textContent = paused ? (pending > 0 ? `Resume (${pending} new)` : 'Resume') : 'Pause';
    liveToggle.setAttribute('aria-pressed', String(paused));
  }

  function setEmpty(message: string | null, kind: 'empty' | 'error' = 'empty'): void {
    emptyState.hidden = message === null;
    emptyState.dataset.kind = kind;
    emptyState.textContent = message ?? '';
  }

  /**
   * Rows before the list's first one: the pages count every matching row,
   * and a `limit` (the newest N) shows only the last N of them.
   */
  function skipped(): number {
    return paged !== null && filter.limit !== null ? Math.max(0, paged.total - filter.limit) : 0;
  }

  function updateCount(): void {
    const total = (paged?.total ?? 0) - skipped();
    const [one, many] = NOUN[filter.mode];
    const note = filter.limit !== null ? ` (newest ${formatCount(filter.limit)})` : '';
    count.textContent = `${formatCount(total)} ${total === 1 ? one : many}${note}`;
  }

  /** The projects shown, without the row filters: what suggestions and names are read from. */
  function scopeQuery(): TimelineQuery {
    return toQuery(normalizeFilter({ ...emptyFilter(), repo: filter.repo }));
  }

  /**
   * Readable agent names (`main 3f2a9c1d`, `Explore 77b1e0c2`, or the name
   * given with `hookd agents label`), asked for the agents of the rows held
   * that have none yet, one request at a time; the rows repaint when they come.
   */
  const agentNames = new Map<string, string>();
  /** The names users gave (null: none), by agent id. */
  const agentLabels = new Map<string, string | null>();
  const namesAsked = new Set<string>();
  let namesInFlight = false;
  function nameAgents(): void {
    if (namesInFlight || paged === null) return;
    const ids = [...new Set(paged.rows().map((r) => r.agent_id))].filter((id) => !namesAsked.has(id));
    if (ids.length === 0) return;
    for (const id of ids) namesAsked.add(id);
    namesInFlight = true;
    api
      .agent_names({ query: scopeQuery(), ids })
      .then((agents) =>
        timed('names', () => {
          if (destroyed) return;
          for (const a of agents) {
            agentNames.set(a.agent_id, a.name);
            agentLabels.set(a.agent_id, a.label);
          }
          list.refresh();
          filterBar.renderSummary();
        }),
      )
      .catch((err: unknown) => console.warn('hookd: agents shown by id', err))
      .finally(() => {
        namesInFlight = false;
        if (!destroyed) nameAgents();
      });
  }

  /** The open Revert dialog. */
  let reverting: RewindDialog | null = null;
  /**
   * Opens the Revert dialog on `request` in the repository holding `repo`;
   * once applied, the notice offers its undo and the rows it recorded are read.
   */
  function openRevert(repo: string, request: RewindRequest, title: string, opener: HTMLElement): void {
    reverting?.close();
    reverting = openRewindDialog(el, {
      repo,
      request,
      title,
      returnFocus: opener,
      onApplied: (applied, undo) => {
        reverting = null;
        if (destroyed) return;
        rewindNotice.show(applied, undo, (undoOpener) =>
          openRevert(repo, { kind: 'undo', rewind: applied.rewind_id }, revertTitle('undo'), undoOpener),
        );
        // The revert is recorded in the ledger as rows of its own.
        if (!paused) refetchLive();
      },
    });
  }

  /** The open Rename dialog. */
  let renaming: AgentRenameDialog | null = null;
  /** Opens the Rename dialog of `agent`; saving names it everywhere it is shown here. */
  function renameAgent(agent: string, opener: HTMLElement): void {
    renaming?.close();
    renaming = openAgentRename(el, {
      agent,
      name: agentNames.get(agent) ?? agent,
      label: agentLabels.get(agent) ?? null,
      returnFocus: opener,
      onSaved: () => {
        renaming = null;
        if (destroyed) return;
        // Ask again: the backend composes the name (a label, else type and short id).
        agentNames.delete(agent);
        agentLabels.delete(agent);
        namesAsked.delete(agent);
        nameAgents();
        if (chartGroup === 'agent') void countChart();
      },
    });
  }

  // ---- data ----
  /** Whether the first rows were reported painted (`ui_mark`, once per view). */
  let painted = false;
  /** The positions the list renders (viewport plus overscan). */
  let range: [number, number] = [0, 0];
  /** The active index the last sync left (to tell when the user moved it). */
  let syncedActive = -1;
  /** The row at the top of the viewport (and how far it is scrolled), kept in view as rows arrive before it. */
  let reading: { key: string; offset: number } | null = null;
  /** The scroll offset the last sync left (to tell when the user scrolled). */
  let syncedTop = 0;

  /** The page reader of `query` in `mode`. */
  function reader(query: TimelineQuery, mode: TimelineMode): (anchor: Anchor, limit: number) => Promise<Page<Row>> {
    return mode === 'activity'
      ? (anchor, limit) => api.activity_page({ query, anchor, limit })
      : (anchor, limit) => api.timeline_page({ query, anchor, limit });
  }

  /**
   * The backend query of the filter with its relative times (`since=1h`)
   * resolved now: the pages, live reads and chart of one view then count
   * the same rows, rather than a window sliding with the clock that would
   * move every position at each read.
   */
  function pinnedQuery(): TimelineQuery {
    const query = toQuery(filter);
    const now = Date.now();
    for (const key of ['since', 'until'] as const) {
      const value = query[key];
      const at = value === null ? null : parseWhen(value, now);
      // A time that does not parse goes as it is: the backend names it.
      if (at !== null) query[key] = new Date(at).toISOString();
    }
    return query;
  }

  /** The query of the view shown (see `pinnedQuery`). */
  let viewQuery: TimelineQuery = pinnedQuery();

  /**
   * Shows the current filter from its newest page, then counts its chart:
   * the rows first, the chart's count (the whole history, by default) not
   * competing with their page for the backend.
   */
  async function open(): Promise<void> {
    const seq = ++fetchSeq;
    fetchedGroups.reset();
    const query = (viewQuery = pinnedQuery());
    const mode = filter.mode;
    const startedAt = performance.now();
    paged?.cancel();
    const rows: PagedRows<Row> = new PagedRows<Row>({
      fetch: reader(query, mode),
      key: rowKey,
      onChange: () => {
        if (paged === rows) timed('sync', sync);
      },
      // New rows are highlighted in the repaint that shows them.
      onLive: (found) => {
        if (paged !== rows) return;
        const until = Date.now() + HIGHLIGHT_MS;
        for (const row of found) fresh.set(rowKey(row), until);
      },
      onError: (err) => {
        if (paged === rows) ctx.errors.show(err, 'Could not load these rows');
      },
    });
    paged = rows;
    list.el.setAttribute('aria-busy', 'true');
    try {
      await rows.open();
      if (destroyed || seq !== fetchSeq) return;
      list.scrollToEnd();
      filterBar.fillSuggestions();
      // The rows on screen real and painted: the view opened, or a filter changed.
      markRowsPainted(painted ? 'timeline-filter' : 'timeline-rows', startedAt, list.el, rows.total);
      if (!painted) {
        painted = true;
        markPainted('timeline', startedAt, rows.held);
        // The whole list (sized by the total, any position a page away) is
        // there at its first paint: what `timeline-all` used to wait for
        // when the history was read whole. The desktop benchmark reads both.
        markPainted('timeline-all', startedAt, rows.total);
      }
    } catch (err) {
      if (destroyed || seq !== fetchSeq) return;
      const e = normalizeError(err);
      paged = null;
      closeDetail(false);
      list.setItems([]);
      setEmpty(`Could not load the ${mode === 'activity' ? 'activity' : 'timeline'}: ${e.message}`, 'error');
      count.textContent = '';
      ctx.errors.show(e, `Could not load the ${mode === 'activity' ? 'activity' : 'timeline'}`);
    } finally {
      if (!destroyed && seq === fetchSeq) list.el.setAttribute('aria-busy', 'false');
    }
    if (!destroyed && seq === fetchSeq) void countChart();
  }

  /**
   * Gives the list what the cache holds: the total, the rows, and the
   * selected and active rows found again by key (their positions move when
   * rows arrive before them).
   */
  function sync(): void {
    const rows = paged;
    if (rows === null) return;
    // The user moved the cursor since the last sync: remember its row.
    if (list.activeIndex !== syncedActive) {
      const active = list.at(list.activeIndex);
      activeKey = active === undefined ? null : rowKey(active);
    }
    const skip = skipped();
    const found = activeKey === null ? -1 : rows.indexOf(activeKey) - skip;
    const selectedIndex = selectedKey === null ? -1 : Math.max(-1, rows.indexOf(selectedKey) - skip);
    // What the user reads: the top row on screen, unless the list follows
    // the newest rows. Rows committed before it (a late row, or the oldest
    // of a "newest N" view dropping out) move it; the scroll follows it,
    // also when its page is read again first (the row is then found later).
    if (list.atBottom()) {
      reading = null;
    } else if (reading === null || list.scrollOffset !== syncedTop) {
      const top = Math.floor(list.scrollOffset / ROW_HEIGHT);
      const row = list.at(top);
      reading = row === undefined ? null : { key: rowKey(row), offset: list.scrollOffset - top * ROW_HEIGHT };
    }
    list.setSource(rows.total - skip, (i) => rows.get(i + skip), {
      follow: true,
      selected: selectedIndex,
      active: found >= 0 ? found : list.activeIndex,
    });
    if (reading !== null) {
      const now = rows.indexOf(reading.key) - skip;
      const top = now * ROW_HEIGHT + reading.offset;
      if (now >= 0 && top !== list.scrollOffset) {
        list.scrollOffset = top;
        list.render();
      }
    }
    syncedTop = list.scrollOffset;
    syncedActive = list.activeIndex;
    nameAgents();
    list.el.dataset.rowsReceived = String(rows.received);
    list.el.dataset.rowsHeld = String(rows.held);
    list.el.dataset.total = String(rows.total);
    if (selectedIndex >= 0 && filter.mode === 'activity') {
      // The event may have gained hook runs since it was opened.
      const row = rows.get(selectedIndex + skip)!;
      if (!isMutation(row) && row.hook_runs.length > (activityDetail.current()?.hook_runs.length ?? 0)) showEvent(row);
    }
    setEmpty(rows.loaded && rows.total === 0 ? emptyMessage() : null);
    updateCount();
  }

  /** Asks for the pages of the rendered range: at once, then once scrolling pauses (see SCROLL_DEBOUNCE_MS). */
  const loadRange = debounce(() => paged?.ensure(range[0] + skipped(), range[1] + skipped()), SCROLL_DEBOUNCE_MS, { leading: true });

  // ---- live ----
  let liveBusy = false;
  let liveQueued = false;
  /** A commit stored hook runs: rows already shown may have gained some. */
  let runsChanged = false;

  /** Reads what was committed since the last read; one read at a time, one more queued at most. */
  async function readLive(): Promise<void> {
    if (liveBusy) {
      liveQueued = true;
      return;
    }
    const rows = paged;
    if (rows === null || !rows.loaded) return;
    liveBusy = true;
    const refreshRuns = runsChanged;
    runsChanged = false;
    let more = false;
    try {
      const result = await rows.live();
      if (destroyed || rows !== paged) return;
      more = result.more;
      timed('live', () => {
        // The rows were highlighted (onLive) in the repaint that showed them.
        if (result.rows.length > 0) {
          // A group the ledger counted may have grown: ask again for the rows on screen.
          if (filter.mode === 'activity') fetchedGroups.reset();
          scheduleUnhighlight();
          chartLater();
        }
        if (refreshRuns && result.how !== 'shift') rows.refresh();
      });
    } catch (err) {
      if (!destroyed && rows === paged) ctx.errors.show(err, 'Could not refresh the timeline');
    } finally {
      liveBusy = false;
      if (!destroyed && rows === paged && (liveQueued || more)) {
        liveQueued = false;
        void readLive();
      } else {
        liveQueued = false;
      }
    }
  }

  function emptyMessage(): string {
    const filtered = TEXT_FILTERS.some((k) => filter[k] !== null);
    if (filter.mode === 'activity') {
      if (filtered) return 'No hook events match these filters. Clear a filter to see more.';
      return 'No hook events recorded yet. When an agent connected to hookd works here, every event appears live.';
    }
    if (filtered) return 'No mutations match these filters. Clear a filter to see more.';
    return filter.all
      ? 'No mutations recorded yet. When an agent connected to hookd changes a file, it appears here live.'
      : 'No mutations recorded in this project yet. When an agent changes a file here, it appears live.';
  }

  let unhighlightTimer: ReturnType<typeof setTimeout> | null = null;
  function scheduleUnhighlight(): void {
    if (unhighlightTimer !== null) return;
    unhighlightTimer = setTimeout(() => {
      unhighlightTimer = null;
      const now = Date.now();
      timed('unhighlight', () => {
        for (const [k, expiry] of fresh) if (expiry <= now) fresh.delete(k);
        list.refresh();
      });
      if (fresh.size > 0) scheduleUnhighlight();
    }, HIGHLIGHT_MS);
  }

  const refetchLive = debounce(() => void readLive(), LIVE_DEBOUNCE_MS);

  function onCommit(commit: LedgerCommit): void {
    if (!commitConcerns(commit, filter)) return;
    // Hook runs are stored after their event and announced by a notice of
    // their own: the events on screen are read again after the live read.
    if (filter.mode === 'activity' && commit.notices.some((n) => n.hook_runs > 0)) runsChanged = true;
    if (paused) {
      pending++;
      setLive();
      return;
    }
    refetchLive();
  }

  function setPaused(value: boolean): void {
    paused = value;
    if (!paused && pending > 0) {
      pending = 0;
      refetchLive();
    }
    setLive();
  }

  // ---- selection ----
  function select(row: Row, index: number): void {
    selectedKey = rowKey(row);
    activeKey = selectedKey;
    if (isMutation(row)) {
      activityDetail.hide();
      detail.show(row);
    } else {
      detail.hide();
      showEvent(row);
    }
    list.setSelected(index);
  }

  /**
   * Shows an event in the detail panel, then reads it whole (the page
   * summarised its payload). A row of a prompt's group (its head held or
   * not) is shown with its head, read from the ledger, so its detail offers
   * "Revert this prompt" as the head's does.
   */
  function showEvent(row: ActivityEvent): void {
    activityDetail.show(row);
    const key = rowKey(row);
    let whole: ActivityEvent | null = null;
    let head: ActivityEvent | null = null;
    const draw = (): void => {
      if (destroyed || selectedKey !== key) return;
      activityDetail.show(whole ?? row, head ?? undefined);
    };
    api.activity_event({ row: { repo: repoOf(row), id: row.id } }).then(
      (ev) => {
        whole = { ...ev, repo: row.repo };
        draw();
      },
      (err: unknown) => console.warn('hookd: cannot read the event whole', err),
    );
    if (row.hook_type !== PROMPT_HOOK && row.session_id !== null) {
      const asked = ++groupAsked;
      api.prompt_group({ row: { repo: repoOf(row), id: row.id } }).then(
        (group) => {
          if (asked !== groupAsked || group === null) return;
          head = { ...group.head, repo: row.repo };
          draw();
        },
        (err: unknown) => console.warn('hookd: cannot read the prompt of the event', err),
      );
    }
  }

  function closeDetail(focusList = true): void {
    selectedKey = null;
    detail.hide();
    activityDetail.hide();
    list.setSelected(-1);
    if (focusList) list.el.focus();
  }

  // ---- filters ----
  function setMode(mode: TimelineMode): void {
    if (mode === filter.mode) return;
    ctx.navigate(formatHash({ view: 'timeline', filter: normalizeFilter({ ...filter, mode }) }));
  }

  /** Every hook event of `agent`, in the project shown (or the row's). */
  function showActivity(agent: string): void {
    const repo = filter.repo ?? (detail.current()?.repo ?? activityDetail.current()?.repo ?? null);
    ctx.navigate(formatHash({ view: 'timeline', filter: normalizeFilter({ ...filter, repo, agent, mode: 'activity' }) }));
  }

  // ---- lifecycle ----
  const sub = (p: Promise<Unlisten>, onOk?: () => void): void => {
    p.then((u) => {
      if (destroyed) return u();
      unlisteners.push(u);
      onOk?.();
    }).catch((err: unknown) => {
      ctx.errors.show(err, 'Live updates unavailable');
      setLive();
    });
  };
  sub(listen('ledger-commit', (commit) => timed('commit', () => onCommit(commit))), () => {
    subscribed = true;
    setLive();
  });

  void ctx.appInfo.then((info) => {
    if (destroyed || !info) return;
    daemonDown = info.daemon.mode === 'unavailable' ? (info.daemon.error ?? 'not running') : null;
    setLive();
  });

  api
    .list_projects()
    .then((list) => {
      if (destroyed) return;
      projects = list;
      filterBar.fill();
      renderHeader();
    })
    .catch(() => {
      // The select then offers only "All projects" and the current repo; the
      // timeline itself reports real failures.
    });

  // The benchmark's requests (lib/perf.ts): a jump, a frame monitor.
  const stopPerf = listenForPerfRequests(list.el);
  filterBar.show(layout.filters, false);
  showChart(layout.chart, false);
  renderHeader();
  filterBar.fill();
  setLive();
  void open();
  // Event names and tools for the suggestions, and the stored event names
  // live updates are matched by, come from the backend's catalogue.
  loadCatalogue().then(
    () => filterBar.fillSuggestions(),
    (err: unknown) => console.warn('hookd: no event catalogue; event filters refetch on every change', err),
  );

  return {
    el,
    update(route: Route) {
      if (route.view !== 'timeline') return;
      const next = normalizeFilter(route.filter);
      if (sameFilter(next, filter)) return;
      const modeChanged = next.mode !== filter.mode;
      filter = next;
      fresh.clear();
      activeKey = null;
      reading = null;
      closeDetail(false);
      if (modeChanged) {
        // The rows of the other mode must not be rendered with this mode's columns.
        paged?.cancel();
        paged = null;
        list.setItems([]);
      }
      renderHeader();
      filterBar.fill();
      setLive();
      // The chart of the old filter is not drawn; the new one is counted once the rows are read.
      chartSeq++;
      void open();
    },
    destroy() {
      filterBar.destroy();
      destroyed = true;
      renaming?.close();
      reverting?.close();
      refetchLive.cancel();
      loadRange.cancel();
      paged?.cancel();
      if (unhighlightTimer !== null) clearTimeout(unhighlightTimer);
      if (chartTimer !== null) clearTimeout(chartTimer);
      chartSeq++;
      list.destroy();
      stopPerf();
      for (const u of unlisteners.splice(0)) u();
    },
  };
}
