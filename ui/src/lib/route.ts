// Hash routes and the timeline's filter state, both ways.
//
// The whole view state that matters lives in the hash (`#/projects`,
// `#/timeline?repo=/src/app&file=src/a.rs&since=1h`), so a timeline view can be
// reopened, bookmarked in the e2e harness, or restored by the nav link.
//
// Values are percent-encoded except `/` and `:` (legal in a fragment, and
// paths stay readable). Parsing does not treat `+` as a space, unlike
// URLSearchParams, so paths containing `+` survive a hand-written hash.

import type { TimelineQuery } from './types';

/**
 * What the timeline lists: file mutations (the default), or every hook
 * event with its hook runs (an agent's whole activity).
 */
export type TimelineMode = 'mutations' | 'activity';

/**
 * The timeline's filters: the page and chart commands' query, plus which
 * of the two lists is shown (`mode=activity` in the hash).
 */
export type TimelineFilter = TimelineQuery & { mode: TimelineMode };

/** The text filters, in the order they appear in the hash and the filter bar. */
export const TEXT_FILTERS = ['search', 'file', 'agent', 'agent_kind', 'session', 'event_type', 'branch', 'tool', 'since', 'until'] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];

/** The backend query of a filter (without the UI-only `mode`). */
export function toQuery(filter: TimelineFilter): TimelineQuery {
  const { mode: _mode, ...query } = filter;
  return query;
}

/** The Hook editor's tabs: one per settings file (kind-scope), the effective view and the templates. */
export const HOOKS_TABS = ['agent-global', 'agent-project', 'agent-local', 'managed-global', 'managed-project', 'managed-local', 'effective', 'templates'] as const;
export type HooksTab = (typeof HOOKS_TABS)[number];

export type Route =
  | { view: 'projects' }
  | { view: 'settings' }
  /**
   * `agentFile`: another coding agent's hooks file shown instead of `tab`
   * (its key, `agent_file=` in the hash; see components/hooks-agent-file.ts).
   */
  | { view: 'hooks'; project: string | null; tab: HooksTab; agentFile?: string }
  | { view: 'bench'; project: string | null; event: string | null }
  | { view: 'health'; project: string | null }
  | { view: 'timeline'; filter: TimelineFilter };

/** No filters, every project. */
export function emptyFilter(): TimelineFilter {
  return {
    repo: null,
    all: true,
    since: null,
    until: null,
    file: null,
    agent: null,
    agent_kind: null,
    session: null,
    event_type: null,
    branch: null,
    tool: null,
    search: null,
    limit: null,
    mode: 'mutations',
  };
}

/**
 * Makes a filter canonical: blank text becomes null, and exactly one of
 * `repo`/`all` is set (no repo means every project, as the app has no
 * current directory for `hookd query`'s default).
 */
export function normalizeFilter(f: TimelineQuery & { mode?: TimelineMode }): TimelineFilter {
  const clean = (v: string | null | undefined): string | null => {
    const t = v?.trim();
    return t ? t : null;
  };
  const repo = clean(f.repo);
  const limit =
    f.limit !== null && Number.isInteger(f.limit) && f.limit > 0 ? f.limit : null;
  return {
    repo,
    all: repo === null,
    since: clean(f.since),
    until: clean(f.until),
    file: clean(f.file),
    agent: clean(f.agent),
    agent_kind: clean(f.agent_kind),
    session: clean(f.session),
    event_type: clean(f.event_type),
    branch: clean(f.branch),
    tool: clean(f.tool),
    search: clean(f.search),
    limit,
    mode: f.mode === 'activity' ? 'activity' : 'mutations',
  };
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3A/gi, ':');
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a stray `%` typed by hand: keep the text as written
  }
}

/** Parses `a=1&b=2` into a map; the first occurrence of a key wins. */
export function parseParams(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}

/** The query part of a timeline hash (no leading `?`); empty for no filters. */
export function filterToParams(filter: TimelineFilter): string {
  const f = normalizeFilter(filter);
  const parts: string[] = [];
  if (f.repo !== null) parts.push(`repo=${encode(f.repo)}`);
  else parts.push('all=true');
  for (const key of TEXT_FILTERS) {
    const v = f[key];
    if (v !== null) parts.push(`${key}=${encode(v)}`);
  }
  if (f.limit !== null) parts.push(`limit=${f.limit}`);
  if (f.mode === 'activity') parts.push('mode=activity');
  return parts.join('&');
}

/** A filter from the query part of a timeline hash. */
export function paramsToFilter(query: string): TimelineFilter {
  const p = parseParams(query);
  const f = emptyFilter();
  f.repo = p.get('repo') ?? null;
  for (const key of TEXT_FILTERS) f[key] = p.get(key) ?? null;
  const limit = p.get('limit');
  f.limit = limit !== undefined && /^\d+$/.test(limit) ? Number(limit) : null;
  f.mode = p.get('mode') === 'activity' ? 'activity' : 'mutations';
  return normalizeFilter(f);
}

/** The route for a location hash; anything unknown goes to the projects screen. */
export function parseHash(hash: string): Route {
  const h = hash.replace(/^#/, '');
  const q = h.indexOf('?');
  const path = (q < 0 ? h : h.slice(0, q)).replace(/\/+$/, '') || '/';
  const query = q < 0 ? '' : h.slice(q + 1);
  if (path === '/timeline') return { view: 'timeline', filter: paramsToFilter(query) };
  if (path === '/settings') return { view: 'settings' };
  if (path === '/bench') {
    const p = parseParams(query);
    return { view: 'bench', project: p.get('project')?.trim() || null, event: p.get('event')?.trim() || null };
  }
  if (path === '/health') return { view: 'health', project: parseParams(query).get('project')?.trim() || null };
  if (path === '/hooks') {
    const p = parseParams(query);
    const tab = p.get('tab') as HooksTab | undefined;
    const agentFile = p.get('agent_file')?.trim();
    return { view: 'hooks', project: p.get('project')?.trim() || null, tab: tab && HOOKS_TABS.includes(tab) ? tab : 'agent-project', ...(agentFile ? { agentFile } : {}) };
  }
  return { view: 'projects' };
}

/** The location hash for a route (with the leading `#`). */
export function formatHash(route: Route): string {
  if (route.view === 'projects') return '#/projects';
  if (route.view === 'settings') return '#/settings';
  if (route.view === 'hooks') return hooksHash(route.project, route.tab, route.agentFile ?? null);
  if (route.view === 'bench') return benchHash(route.project, route.event);
  if (route.view === 'health') return healthHash(route.project);
  return `#/timeline?${filterToParams(route.filter)}`;
}

/** The hash that opens one project's timeline. */
export function timelineHashForRepo(root: string): string {
  return formatHash({ view: 'timeline', filter: { ...emptyFilter(), repo: root, all: false } });
}

/** Whether two filters ask for the same rows. */
export function sameFilter(a: TimelineFilter, b: TimelineFilter): boolean {
  return filterToParams(a) === filterToParams(b);
}

/**
 * The hash of the Hook editor for a project (null: pick one) and tab, or
 * another agent's hooks file (`agentFile`, its key) shown instead of the tab.
 */
export function hooksHash(project: string | null, tab: HooksTab = 'agent-project', agentFile: string | null = null): string {
  const file = agentFile ? `&agent_file=${encode(agentFile)}` : '';
  return project ? `#/hooks?project=${encode(project)}&tab=${tab}${file}` : `#/hooks?tab=${tab}${file}`;
}

/** The hash of the Test bench for a project and event (null: the bench picks). */
export function benchHash(project: string | null, event: string | null = null): string {
  const parts: string[] = [];
  if (project) parts.push(`project=${encode(project)}`);
  if (event) parts.push(`event=${encode(event)}`);
  return parts.length > 0 ? `#/bench?${parts.join('&')}` : '#/bench';
}

/** The hash of the Health view for a project (null: pick one). */
export function healthHash(project: string | null): string {
  return project ? `#/health?project=${encode(project)}` : '#/health';
}
