// One row of the Timeline's list, and the column header above it: a
// mutation (time, project, agent, tool, file, lines, branch) or, in activity
// mode, a hook event (time, project, agent, event, tool, subject, hook runs).
// The header's columns and a row's cells must agree; both are here.
//
// It is apart from the view (views/timeline.ts) because painting a row needs
// only the row and how it looks (`RowLook`: highlighted, selected, the
// agents' names), not the view's pages, filter or live updates. The virtual
// list recycles row elements, so a row is painted over the cells already
// there: cells are reused by position, and the spare ones removed.
//
// In activity mode a row also shows its place among the prompts
// (lib/prompt-groups.ts): a prompt heads a group (its text first, a
// "Prompt" badge, what followed), and the rows of its answer carry its rule.
// When the head is not among the rows held, the ledger's answer names it:
// the rule then carries the prompt's text as its tooltip, and the group's
// first row held below the gap a "prompt: …" caption.

import { eventSubject, eventVerdict, firstLine, runsSummary } from '../lib/activity';
import { CODING_AGENTS, eventLabel } from '../lib/catalogue';
import { groupSummary, promptText, type PromptPlace } from '../lib/prompt-groups';
import { absoluteTitle, formatLocal } from '../lib/time';
import type { ActivityEvent, MutationRow } from '../lib/types';
import { fillLines } from './change-view';
import { h } from './dom';

/** A row of either list. */
export type Row = MutationRow | ActivityEvent;

export const isMutation = (row: Row): row is MutationRow => 'mutation_seq' in row;

/** How a row is painted besides its own fields. */
export interface RowLook {
  /** Every project is shown: a Project column follows the time. */
  all: boolean;
  /** Committed a moment ago: highlighted. */
  fresh: boolean;
  /** The row whose detail is open. */
  selected: boolean;
  /** Agents' readable names by id (an agent without one is shown by its id). */
  names: ReadonlyMap<string, string>;
  /** An activity row's place among the prompts; none when not given. */
  prompt?: PromptPlace;
  /** A member's head read from the ledger (not held), and whether this row carries its caption. */
  fetchedHead?: { head: ActivityEvent; caption: boolean };
}

/** Marks `el` as a prompt's head, a row of a prompt's group (with or without its head held), or neither. */
function promptLook(el: HTMLElement, place: PromptPlace | undefined): void {
  const role = place?.role ?? 'none';
  el.classList.toggle('prompt-head', role === 'head');
  el.classList.toggle('prompt-member', role === 'member');
  el.classList.toggle('prompt-headless', place?.role === 'member' && place.head === null);
  if (role !== 'member') el.classList.remove('prompt-fetched');
  if (place?.role === 'member' && place.head !== null) el.dataset.promptOf = place.head;
  else delete el.dataset.promptOf;
  if (role === 'none') delete el.dataset.promptRole;
  else el.dataset.promptRole = role;
}

/** Fills the column header of the list: the columns of `activity` mode, with Project when `all` projects are shown. */
export function renderColumns(header: HTMLElement, activity: boolean, all: boolean): void {
  const cols = activity
    ? ['Time', ...(all ? ['Project'] : []), 'Agent', 'Event', 'Tool', 'Subject', 'Hooks']
    : ['Time', ...(all ? ['Project'] : []), 'Agent', 'Tool', 'File', 'Lines', 'Branch'];
  header.replaceChildren(...cols.map((c) => h('span', { class: `col col-${c.toLowerCase()}`, text: c })));
}

function cell(el: HTMLElement, i: number, text: string, cls: string): HTMLElement {
  let c = el.children[i] as HTMLElement | undefined;
  if (!c) {
    c = h('span', { class: `col ${cls}` });
    el.appendChild(c);
  } else if (c.className !== `col ${cls}`) {
    c.className = `col ${cls}`;
  }
  c.textContent = text;
  return c;
}

/** The time cell: date and time in separate spans, so a narrow list can drop the date. */
function timeCell(el: HTMLElement, iso: string): void {
  let c = el.children[0] as HTMLElement | undefined;
  if (!c || !c.classList.contains('col-time')) {
    c = h('span', { class: 'col col-time mono' }, h('span', { class: 'date' }), h('span', { class: 'clock' }));
    el.prepend(c);
  }
  const [date = '', clock = ''] = formatLocal(iso).split(' ');
  c.children[0]!.textContent = `${date} `;
  c.children[1]!.textContent = clock;
  c.title = absoluteTitle(iso);
}

/**
 * The agent's cell: its readable name, after the coding agent's when that
 * is not Claude Code (`Gemini · main 3f2a9c1d`, its full name in the
 * title), coloured by it.
 */
function agentCell(el: HTMLElement, i: number, agent: string, names: ReadonlyMap<string, string>, kind: string): void {
  const name = names.get(agent) ?? agent;
  const coding = kind === 'claude' ? undefined : (CODING_AGENTS.find((a) => a.name === kind) ?? { label: kind, short: kind });
  const c = cell(el, i, coding === undefined ? name : `${coding.short} · ${name}`, 'col-agent agent-link');
  c.dataset.agent = agent;
  if (coding === undefined) delete c.dataset.agentKind;
  else c.dataset.agentKind = kind;
  c.title = `${coding === undefined ? '' : `${coding.label}: `}${name === agent ? agent : `${name} (${agent})`}: click (or press A on the row) to see all of its activity; right-click (or R) to rename it`;
}

/** A position whose page is still on its way. */
export function renderPlaceholder(el: HTMLElement): void {
  el.classList.add('tl-cols');
  el.classList.remove('row-new', 'selected');
  el.dataset.testid = 'timeline-placeholder';
  delete el.dataset.eventId;
  delete el.dataset.mutationSeq;
  delete el.dataset.tool;
  delete el.dataset.hookType;
  delete el.dataset.verdict;
  promptLook(el, undefined);
  el.setAttribute('aria-label', 'Loading…');
  el.replaceChildren(h('span', { class: 'col col-loading muted', text: 'Loading…' }));
}

/** Paints `row` into `el`, reusing the cells already there (the list recycles its row elements). */
export function renderRow(el: HTMLElement, row: Row, look: RowLook): void {
  const placeholder = el.querySelector(':scope > .col-loading');
  if (placeholder) placeholder.remove();
  el.classList.add('tl-cols');
  el.classList.toggle('row-new', look.fresh);
  el.classList.toggle('selected', look.selected);
  el.dataset.eventId = row.event_id;
  let i = 0;
  timeCell(el, row.event_timestamp);
  i++;
  if (look.all) cell(el, i++, row.repo ? row.repo.slice(row.repo.lastIndexOf('/') + 1) : '', 'col-project').title = row.repo ?? '';
  agentCell(el, i++, row.agent_id, look.names, row.agent_kind);
  if (isMutation(row)) {
    el.dataset.testid = 'timeline-row';
    el.dataset.mutationSeq = String(row.mutation_seq);
    el.dataset.tool = row.tool_name;
    delete el.dataset.hookType;
    delete el.dataset.verdict;
    promptLook(el, undefined);
    cell(el, i++, row.tool_name, `col-tool tool-${row.tool_name.toLowerCase()}`);
    const file = row.file_path ?? (row.command ? `$ ${row.command}` : '—');
    cell(el, i++, file, 'col-file mono').title = row.file_path ?? row.command ?? '';
    fillLines(cell(el, i++, '', 'col-lines mono'), row);
    cell(el, i++, row.branch, 'col-branch mono').title = row.branch;
    el.removeAttribute('aria-label'); // named by its cells, as shown (label in name)
  } else {
    const event = eventLabel(row.hook_type);
    const verdict = eventVerdict(row.hook_runs);
    const subject = eventSubject(row);
    el.dataset.testid = 'activity-row';
    el.dataset.hookType = row.hook_type;
    el.dataset.tool = row.tool_name ?? '';
    if (verdict) el.dataset.verdict = verdict;
    else delete el.dataset.verdict;
    delete el.dataset.mutationSeq;
    promptLook(el, look.prompt);
    const runs = runsSummary(row.hook_runs);
    if (look.prompt?.role === 'head') {
      el.classList.remove('prompt-fetched');
      // The prompt reads first: its first line, then what followed it.
      const text = promptText(row);
      const line = text === null ? subject : firstLine(text);
      const followed = groupSummary(look.prompt);
      cell(el, i++, event, `col-event event-${row.hook_type}`).title = event;
      cell(el, i++, '', 'col-tool');
      const c = cell(el, i++, '', 'col-subject prompt-text');
      c.append(
        h('span', { class: 'prompt-badge', text: 'Prompt' }),
        h('span', { class: 'prompt-line', text: line }),
        h('span', { class: 'prompt-followed', text: followed }),
      );
      c.title = text ?? subject;
      cell(el, i++, runs, `col-hooks${verdict ? ` verdict-${verdict}` : ''}`).title = runs;
      el.removeAttribute('aria-label'); // named by its cells, as shown (label in name)
    } else {
      cell(el, i++, event, `col-event event-${row.hook_type}`).title = event;
      cell(el, i++, row.tool_name ?? '', `col-tool tool-${(row.tool_name ?? '').toLowerCase()}`);
      const files = row.mutations > 0 ? `  ✎ ${row.mutations} file${row.mutations === 1 ? '' : 's'}` : '';
      const c = cell(el, i++, `${subject}${files}`, 'col-subject mono');
      c.title = subject;
      const fetched = look.prompt?.role === 'member' ? look.fetchedHead : undefined;
      el.classList.toggle('prompt-fetched', fetched !== undefined);
      if (fetched) {
        const text = promptText(fetched.head);
        const line = text === null ? 'a prompt' : firstLine(text);
        c.title = `${subject}\nPrompt: ${text ?? line}`;
        if (fetched.caption) c.prepend(h('span', { class: 'prompt-caption', data: { testid: 'prompt-caption' }, text: `prompt: ${line}` }));
      }
      cell(el, i++, runs, `col-hooks${verdict ? ` verdict-${verdict}` : ''}`).title = runs;
      el.removeAttribute('aria-label'); // named by its cells, as shown (label in name)
    }
  }
  while (el.children.length > i) el.lastElementChild?.remove();
}
