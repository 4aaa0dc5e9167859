// The Timeline's filter bar: the project and a field per text filter
// (search, file, agent, coding agent, session, event, branch, tool, since,
// until), each
// with its label and hint; the values the ledger knows are suggested as the
// user types. Apply checks the times and names the field that is wrong;
// Clear keeps only the project. The bar folds into its toolbar: one line
// that sums up the filters set and names the agent shown, with a way to
// rename it.
//
// It is apart from the view (views/timeline.ts) because it is a concept of
// its own with a small interface: it reads the view's filter and hands back
// the one the user applied (`onApply`, where the view navigates); the router
// then brings that filter back and the view asks the bar to `fill` itself.

import { api } from '../lib/api';
import { CODING_AGENTS, eventLabel, knownTools, recordedEventNames, storedEventName } from '../lib/catalogue';
import { saveLayout, type TimelineLayout } from '../lib/layout';
import { TEXT_FILTERS, normalizeFilter, type TextFilter, type TimelineFilter } from '../lib/route';
import { parseWhen } from '../lib/time';
import type { Field, ProjectInfo, TimelineQuery } from '../lib/types';
import { formatCount, h } from './dom';

const FILTER_LABELS: Record<TextFilter, { label: string; placeholder: string; hint?: string }> = {
  search: {
    label: 'Search',
    placeholder: 'words in paths, commands',
    hint: 'Full-text search: every word must start a word of a file path or a shell command (in All activity, of a prompt too)',
  },
  file: { label: 'File', placeholder: 'any file', hint: 'A path, part of one (cart.ts) or a glob (src/**/*.ts)' },
  agent: { label: 'Agent', placeholder: 'any', hint: 'An agent id, or part of one' },
  agent_kind: { label: 'Coding agent', placeholder: 'any', hint: 'Whose changes: claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI), cursor or copilot (GitHub Copilot)' },
  session: { label: 'Session', placeholder: 'any', hint: "The agent session (the payload's session_id), or part of one" },
  event_type: { label: 'Event', placeholder: 'any', hint: 'The hook event: PostToolUse, PreToolUse, UserPromptSubmit, Stop …' },
  branch: { label: 'Branch', placeholder: 'any', hint: 'A branch, part of one, or a glob (feature/*)' },
  tool: { label: 'Tool', placeholder: 'any', hint: 'A tool (any case), or part of a name' },
  since: { label: 'Since', placeholder: 'e.g. 1h, 2d', hint: 'A duration back from now (30m, 1h, 2d) or an RFC 3339 time' },
  until: { label: 'Until', placeholder: 'e.g. 30m', hint: 'A duration back from now (30m, 1h, 2d) or an RFC 3339 time' },
};

/** The filter fields whose values the ledger suggests as the user types. */
const SUGGESTED: Partial<Record<TextFilter, Field>> = {
  file: 'file',
  agent: 'agent',
  session: 'session',
  event_type: 'event_type',
  branch: 'branch',
  tool: 'tool',
};

/** Delay between a keystroke in a filter field and asking for its suggestions. */
export const SUGGEST_DEBOUNCE_MS = 150;

/** Validates the since/until fields and the coding agent; the message names the bad field. */
export function validateFilter(f: TimelineFilter): { field: TextFilter; message: string } | null {
  if (f.agent_kind !== null && !CODING_AGENTS.some((a) => a.name === f.agent_kind)) {
    return { field: 'agent_kind', message: `Coding agent: "${f.agent_kind}" is not one of ${CODING_AGENTS.map((a) => a.name).join(', ')}` };
  }
  for (const field of ['since', 'until'] as const) {
    const v = f[field];
    if (v !== null && parseWhen(v) === null) {
      return { field, message: `${FILTER_LABELS[field].label}: "${v}" is neither a duration (30m, 1h, 2d) nor an RFC 3339 time` };
    }
  }
  return null;
}

export interface FilterBarOptions {
  /** The filter the view shows (the bar never changes it itself). */
  filter: () => TimelineFilter;
  /** The projects the select offers and the summary names. */
  projects: () => readonly ProjectInfo[];
  /** An agent's readable name, once the backend gave it. */
  agentName: (agent: string) => string | undefined;
  /** What suggestions are read from: the projects shown, without the row filters. */
  scope: () => TimelineQuery;
  /** Whether the bar is shown (else folded), kept with the chart's choice. */
  layout: TimelineLayout;
  /** Buttons at the end of the toolbar (the chart's toggle). */
  tools: readonly HTMLElement[];
  /** A valid filter the user applied (or cleared to). */
  onApply: (next: TimelineFilter) => void;
  /** The bar was shown (true) or folded. */
  onFold: (shown: boolean) => void;
  /** The agent chip's Rename button. */
  onRename: (agent: string, opener: HTMLElement) => void;
}

export interface FilterBar {
  /** The bar (`#timeline-filters`). */
  readonly form: HTMLFormElement;
  /** The line that stands for the bar when it is folded (`#timeline-toolbar`). */
  readonly toolbar: HTMLElement;
  /** Shows or folds the bar; `keep` saves the choice (a user's click). */
  show(shown: boolean, keep?: boolean): void;
  /** Sets the fields to the view's filter and clears any validation message. */
  fill(): void;
  /** Writes the toolbar's line again (the filter, the projects or an agent's name changed). */
  renderSummary(): void;
  /** Offers what the catalogue knows before the ledger is asked. */
  fillSuggestions(): void;
  /** Drops pending suggestions. */
  destroy(): void;
}

export function createFilterBar(opts: FilterBarOptions): FilterBar {
  const { layout } = opts;
  let destroyed = false;

  const repoSelect = h('select', {
    id: 'filter-repo',
    class: 'text-input',
    attrs: { name: 'repo' },
    on: { change: () => applyForm() },
  });
  const inputs = {} as Record<TextFilter, HTMLInputElement>;
  const datalists = {} as Record<TextFilter, HTMLDataListElement>;
  const fields = TEXT_FILTERS.map((key) => {
    const meta = FILTER_LABELS[key];
    datalists[key] = h('datalist', { id: `filter-${key}-options` });
    inputs[key] = h('input', {
      id: `filter-${key}`,
      class: `text-input${key === 'file' || key === 'session' ? ' mono' : ''}`,
      attrs: {
        type: 'text',
        name: key,
        placeholder: meta.placeholder,
        autocomplete: 'off',
        spellcheck: 'false',
        list: `filter-${key}-options`,
        title: meta.hint ?? null,
      },
      on: { focus: () => suggest(key), input: () => suggest(key) },
    });
    return h('div', { class: `filter-field filter-${key}` }, h('label', { class: 'field-label', attrs: { for: `filter-${key}` }, text: meta.label }), inputs[key], datalists[key]);
  });
  const filterError = h('p', { id: 'filter-error', class: 'field-error', attrs: { role: 'alert', hidden: true } });
  const form = h(
    'form',
    {
      id: 'timeline-filters',
      class: 'filter-bar',
      attrs: { role: 'search', 'aria-label': 'Timeline filters' },
      on: { submit: (ev) => { ev.preventDefault(); applyForm(); } },
    },
    h('div', { class: 'filter-field filter-repo' }, h('label', { class: 'field-label', attrs: { for: 'filter-repo' }, text: 'Project' }), repoSelect),
    ...fields,
    h(
      'div',
      { class: 'filter-actions' },
      h('button', { id: 'filter-apply', class: 'button primary', attrs: { type: 'submit' }, text: 'Apply' }),
      h('button', { id: 'filter-clear', class: 'button', attrs: { type: 'button', title: 'Clear every filter except the project' }, text: 'Clear', on: { click: () => clearFilters() } }),
    ),
    filterError,
  );

  // ---- room: the filter bar folds into one line ----
  const filterToggle = h('button', {
    id: 'filter-toggle',
    class: 'filter-toggle',
    attrs: { type: 'button', 'aria-controls': 'timeline-filters', 'aria-expanded': 'true' },
    on: { click: () => showFilters(!layout.filters) },
  });
  const agentChip = h('span', { id: 'filter-agent-chip', class: 'agent-chip', attrs: { hidden: true } });
  const agentRename = h('button', {
    id: 'agent-rename-open',
    class: 'button small',
    attrs: { type: 'button', 'aria-haspopup': 'dialog', hidden: true },
    text: 'Rename…',
    on: {
      click: (ev) => {
        const agent = opts.filter().agent;
        if (agent !== null) opts.onRename(agent, ev.currentTarget as HTMLElement);
      },
    },
  });
  const toolbar = h('div', { id: 'timeline-toolbar', class: 'tl-toolbar' }, filterToggle, agentChip, agentRename, ...opts.tools);

  /**
   * Shows or folds the filter bar; `keep` saves the choice (a user's click).
   * Folded, the toolbar is the line that stands for the bar; shown, it moves
   * into the bar beside Apply and Clear, so it costs no line of its own
   * where that row has room.
   */
  function showFilters(shown: boolean, keep = true): void {
    layout.filters = shown;
    if (keep) saveLayout(layout);
    const focused = toolbar.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    if (shown) form.querySelector('.filter-actions')!.after(toolbar);
    else form.before(toolbar);
    focused?.focus({ preventScroll: true });
    form.hidden = !shown;
    filterToggle.setAttribute('aria-expanded', String(shown));
    opts.onFold(shown);
    renderSummary();
  }

  /** The toolbar's line: the filters set (all of them when the bar is folded), and the agent shown. */
  function renderSummary(): void {
    const filter = opts.filter();
    const projects = opts.projects();
    const project = filter.all ? 'all projects' : (projects.find((p) => p.root === filter.repo)?.name ?? filter.repo ?? '');
    const set = TEXT_FILTERS.filter((k) => filter[k] !== null && k !== 'agent').map((k) => `${FILTER_LABELS[k].label} ${filter[k]}`);
    const parts = [project, ...set];
    const name = filter.agent === null ? undefined : opts.agentName(filter.agent);
    if (filter.agent !== null && name === undefined) parts.push(`Agent ${filter.agent}`);
    const shown = layout.filters;
    filterToggle.replaceChildren(
      h('span', { class: 'filter-toggle-icon', attrs: { 'aria-hidden': 'true' }, text: shown ? '▴' : '▸' }),
      h('span', { class: 'filter-toggle-label', text: shown ? 'Fold filters' : 'Filters:' }),
      shown ? '' : h('span', { class: 'filter-summary', data: { testid: 'filter-summary' }, text: parts.join(' · ') }),
    );
    filterToggle.title = shown ? 'Fold the filter bar into one line' : `${parts.join(' · ')}: click (or Enter) to show the filters`;
    // One agent: its readable name, and a way to rename it.
    const named = name !== undefined;
    agentChip.hidden = !named;
    agentRename.hidden = !named;
    if (named) {
      agentChip.textContent = `Agent ${name}`;
      agentChip.title = filter.agent!;
      agentRename.title = `Give ${filter.agent} a name of your choosing`;
    }
  }

  function fillForm(): void {
    const filter = opts.filter();
    const projects = opts.projects();
    for (const key of TEXT_FILTERS) inputs[key].value = filter[key] ?? '';
    const options = [h('option', { attrs: { value: '' }, text: 'All projects' })];
    for (const p of projects) {
      const twin = projects.some((o) => o !== p && o.name === p.name);
      options.push(h('option', { attrs: { value: p.root, title: p.root }, text: twin ? `${p.name} (${p.root})` : p.name }));
    }
    if (filter.repo !== null && !projects.some((p) => p.root === filter.repo)) {
      options.push(h('option', { attrs: { value: filter.repo }, text: filter.repo }));
    }
    repoSelect.replaceChildren(...options);
    repoSelect.value = filter.repo ?? '';
    filterError.hidden = true;
    for (const key of TEXT_FILTERS) inputs[key].removeAttribute('aria-invalid');
  }

  /**
   * Suggestions for the text filters: the values the ledger knows (its
   * small counts, not the rows held), most rows first, narrowed by what is
   * typed. Asked for when a field gets focus or a keystroke, debounced; the
   * answer for an older keystroke is dropped. Event names and tools the
   * catalogue knows are offered before anything is recorded.
   */
  const suggestSeq: Partial<Record<TextFilter, number>> = {};
  const suggestTimers: Partial<Record<TextFilter, ReturnType<typeof setTimeout>>> = {};
  function suggest(key: TextFilter): void {
    const field = SUGGESTED[key];
    if (field === undefined) return;
    const timer = suggestTimers[key];
    if (timer !== undefined) clearTimeout(timer);
    suggestTimers[key] = setTimeout(() => {
      delete suggestTimers[key];
      const seq = (suggestSeq[key] ?? 0) + 1;
      suggestSeq[key] = seq;
      const typed = inputs[key].value.trim();
      const part = typed === '' || (key === 'file' && /[*?[{]/.test(typed)) ? null : key === 'event_type' ? (storedEventName(typed) ?? typed) : typed;
      api
        .known_values({ query: opts.scope(), field, part, activity: opts.filter().mode === 'activity' })
        .then((known) => {
          if (destroyed || suggestSeq[key] !== seq) return;
          const options = known.map((k) => {
            const value = key === 'event_type' ? eventLabel(k.value) : k.value;
            return h('option', { attrs: { value, label: `${formatCount(k.rows)} ${k.rows === 1 ? 'row' : 'rows'}` } });
          });
          datalists[key].replaceChildren(...options);
        })
        .catch((err: unknown) => console.warn(`hookd: no suggestions for ${key}`, err));
    }, SUGGEST_DEBOUNCE_MS);
  }

  /** What the catalogue offers before the ledger is asked. */
  function fillSuggestions(): void {
    if (datalists.event_type.childElementCount === 0) {
      datalists.event_type.replaceChildren(...recordedEventNames().map((v) => h('option', { attrs: { value: v } })));
    }
    if (datalists.tool.childElementCount === 0) {
      datalists.tool.replaceChildren(...knownTools().map((v) => h('option', { attrs: { value: v } })));
    }
    if (datalists.agent_kind.childElementCount === 0) {
      datalists.agent_kind.replaceChildren(...CODING_AGENTS.map((a) => h('option', { attrs: { value: a.name, label: a.label } })));
    }
  }

  function readForm(): TimelineFilter {
    const f: TimelineFilter = { ...opts.filter(), repo: repoSelect.value || null };
    for (const key of TEXT_FILTERS) f[key] = inputs[key].value;
    return normalizeFilter(f);
  }

  function applyForm(): void {
    const next = readForm();
    const problem = validateFilter(next);
    for (const key of TEXT_FILTERS) inputs[key].toggleAttribute('aria-invalid', problem?.field === key);
    if (problem) {
      filterError.textContent = problem.message;
      filterError.hidden = false;
      inputs[problem.field].focus();
      return;
    }
    filterError.hidden = true;
    opts.onApply(next);
  }

  function clearFilters(): void {
    const next = normalizeFilter({ ...opts.filter(), file: null, agent: null, agent_kind: null, session: null, event_type: null, branch: null, tool: null, since: null, until: null });
    opts.onApply(next);
  }

  return {
    form,
    toolbar,
    show: showFilters,
    fill: fillForm,
    renderSummary,
    fillSuggestions,
    destroy() {
      for (const timer of Object.values(suggestTimers)) clearTimeout(timer);
      destroyed = true;
    },
  };
}
