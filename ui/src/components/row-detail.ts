// The detail panel of one timeline row: every column, the change derived
// from the payload, and the payload itself, pretty-printed.
//
// Parts come from the backend after the panel opens: the row's payload
// (the timeline's list is sent without payloads), the change's diff
// (`mutation_diff`: computed by the core with the rule of the row's
// lines_added/lines_removed, a Write's against its previous content) and,
// for a Bash row, every file the same command changed. Answers for a row
// that is no longer shown are dropped. A row in a repository also offers
// its reverts (lib/rewind.ts: its tool call, its session, its agent's
// changes and, in its file's history, "Restore this version"); the view
// opens the Revert dialog.

import '../styles/rewind.css';
import { api, normalizeError } from '../lib/api';
import { openInBench } from '../lib/bench-payload';
import { extractChange, prettyPayload } from '../lib/change';
import { revertOffers, type RevertOffer } from '../lib/rewind';
import { absoluteTitle, formatLocal } from '../lib/time';
import type { MutationRow } from '../lib/types';
import { diffFailed, hasDiff, renderChange, renderShellChange, showDiff } from './change-view';
import { formatCount, h } from './dom';

/** Characters of payload shown before "Show all" (payloads can reach 8 MiB). */
const MAX_PAYLOAD_CHARS = 200_000;

/** Column order in the fields table. */
const FIELDS: (keyof MutationRow)[] = [
  'repo',
  'file_path',
  'tool_name',
  'agent_id',
  'event_timestamp',
  'received_at',
  'lines_added',
  'lines_removed',
  'lines_changed',
  'branch',
  'head_sha',
  'remote_url',
  'command',
  'event_type',
  'hook_type',
  'event_id',
  'mutation_seq',
  'session_id',
  'tool_use_id',
  'source_pid',
  'file_ext',
  'id',
];

export interface RowDetail {
  el: HTMLElement;
  show(row: MutationRow): void;
  hide(): void;
  /** The row shown, if any. */
  current(): MutationRow | null;
}

/** What the panel needs to ask the backend about a row. */
export interface RowDetailOptions {
  /**
   * The `repo` of backend lookups for a row: a directory inside its
   * repository, or null for the ledger outside git. Without it the panel
   * asks only for the payload's diff (a Write shows as all new, Bash lists
   * no files).
   */
  repoOf?: (row: MutationRow) => string | null;
  /** Shows every hook event of an agent (the timeline's activity mode). */
  onAgentActivity?: (agent: string) => void;
  /**
   * Opens the Revert dialog for one of the row's reverts; without it no
   * revert is offered. Rows outside git (no repository) offer none.
   */
  onRevert?: (row: MutationRow, offer: RevertOffer, opener: HTMLElement) => void;
  /** The file whose history the timeline shows (its file filter), if any: its rows offer "Restore this version". */
  historyOf?: () => string | null;
}

export function createRowDetail(
  onClose: () => void,
  onFilter?: (field: 'file' | 'agent', value: string) => void,
  options: RowDetailOptions = {},
): RowDetail {
  let shown: MutationRow | null = null;
  /** Bumped per `show`, so a late answer for an earlier row is dropped. */
  let generation = 0;
  const body = h('div', { class: 'detail-body' });
  const actions = h('div', { class: 'detail-actions' });
  const heading = h('h2', { id: 'row-detail-title', class: 'detail-title' });
  const close = h('button', {
    id: 'row-detail-close',
    class: 'icon-button',
    attrs: { type: 'button', 'aria-label': 'Close details', title: 'Close (Esc)' },
    text: '×',
    on: { click: () => onClose() },
  });
  const el = h(
    'aside',
    {
      id: 'row-detail',
      class: 'row-detail',
      attrs: { 'aria-labelledby': 'row-detail-title', hidden: true, tabindex: -1 },
      on: {
        keydown: (ev) => {
          if (ev.key === 'Escape') {
            ev.stopPropagation();
            onClose();
          }
        },
      },
    },
    h('header', { class: 'detail-header' }, heading, close),
    actions,
    body,
  );

  function show(row: MutationRow): void {
    shown = row;
    const seq = ++generation;
    el.dataset.eventId = row.event_id;
    el.dataset.mutationSeq = String(row.mutation_seq);
    heading.replaceChildren(
      h('span', { class: `tool-chip tool-${row.tool_name.toLowerCase()}`, text: row.tool_name }),
      ' ',
      h('span', { class: 'mono detail-file', text: row.file_path ?? '(no file)' }),
    );

    actions.replaceChildren();
    if (onFilter) {
      if (row.file_path !== null) {
        const file = row.file_path;
        actions.append(
          h('button', {
            id: 'row-detail-filter-file',
            class: 'button small',
            attrs: { type: 'button', title: `Show only the mutations of ${file}` },
            text: 'History of this file',
            on: { click: () => onFilter('file', file) },
          }),
        );
      }
      actions.append(
        h('button', {
          id: 'row-detail-filter-agent',
          class: 'button small',
          attrs: { type: 'button', title: `Show only what ${row.agent_id} changed` },
          text: 'Only this agent',
          on: { click: () => onFilter('agent', row.agent_id) },
        }),
      );
    }
    if (options.onAgentActivity) {
      const open = options.onAgentActivity;
      actions.append(
        h('button', {
          id: 'row-detail-agent-activity',
          class: 'button small',
          attrs: { type: 'button', title: `Every hook event of ${row.agent_id}, with the hook runs and their decisions` },
          text: 'All activity of this agent',
          on: { click: () => open(row.agent_id) },
        }),
      );
    }

    const toBench = h('button', {
      id: 'row-detail-open-bench',
      class: 'button small',
      attrs: { type: 'button', title: 'Try this recorded payload on the project\u2019s hooks in the Test bench' },
      text: 'Open in test bench',
      on: { click: () => openInBench(shown ?? row) },
    });
    actions.append(toBench);

    const fields = fieldList(row);
    const repo = options.repoOf ? options.repoOf(row) : undefined;
    if (options.onRevert && repo !== undefined && repo !== null) {
      const revert = options.onRevert;
      const offers = revertOffers(row, options.historyOf?.() ?? null);
      actions.append(
        h(
          'div',
          { class: 'detail-reverts', data: { testid: 'row-reverts' }, attrs: { role: 'group', 'aria-label': 'Revert' } },
          ...offers.map((offer) =>
            h('button', {
              id: `row-detail-revert-${offer.action}`,
              class: 'button small revert-button',
              attrs: { type: 'button', title: offer.title },
              text: offer.label,
              on: { click: (ev) => revert(shown ?? row, offer, ev.currentTarget as HTMLElement) },
            }),
          ),
        ),
      );
    }
    if (row.raw_payload === '' && repo !== undefined) {
      // Sent without its payload (see `toQuery`): read the row whole.
      toBench.disabled = true;
      const status = h('p', { class: 'muted change-status', data: { testid: 'row-detail-loading' }, text: 'Loading the payload…' });
      body.replaceChildren(status, fieldsSection(fields));
      body.scrollTop = 0;
      el.hidden = false;
      api.mutation_row({ row: { repo, id: row.id } }).then(
        (whole) => {
          if (seq !== generation) return;
          shown = { ...row, raw_payload: whole.raw_payload };
          toBench.disabled = false;
          showBody(shown, fields, repo, seq);
        },
        (err: unknown) => {
          if (seq !== generation) return;
          status.className = 'field-error';
          status.textContent = `Could not read this row's payload: ${normalizeError(err).message}`;
        },
      );
      return;
    }
    showBody(row, fields, repo, seq);
  }

  function fieldList(row: MutationRow): HTMLElement {
    const fields = h('dl', { class: 'fields', data: { testid: 'row-fields' } });
    for (const key of FIELDS) {
      const value = row[key];
      if (key === 'repo' && value === undefined) continue;
      const text = value === null || value === undefined ? '—' : String(value);
      const dd = h('dd', { class: 'mono', data: { field: key }, text });
      if (key === 'event_timestamp' || key === 'received_at') {
        dd.title = absoluteTitle(text);
        dd.textContent = `${formatLocal(text)}  (${text})`;
      }
      fields.append(h('dt', { text: key }), dd);
    }
    return fields;
  }

  function fieldsSection(fields: HTMLElement): HTMLElement {
    return h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Fields' }), fields);
  }

  /** The change, the fields and the payload of `row`, whose payload is at hand. */
  function showBody(row: MutationRow, fields: HTMLElement, repo: string | null | undefined, seq: number): void {
    const pretty = prettyPayload(row.raw_payload);
    const payload = h('pre', { id: 'row-detail-payload', class: 'code-block payload' });
    const showPayload = (all: boolean): void => {
      payload.textContent = all || pretty.length <= MAX_PAYLOAD_CHARS ? pretty : pretty.slice(0, MAX_PAYLOAD_CHARS);
    };
    showPayload(false);
    const more =
      pretty.length > MAX_PAYLOAD_CHARS
        ? h('button', {
            class: 'link-button',
            attrs: { type: 'button' },
            text: `Show all ${pretty.length.toLocaleString('en-US')} characters`,
            on: {
              click: (ev) => {
                showPayload(true);
                (ev.currentTarget as HTMLElement).remove();
              },
            },
          })
        : null;

    const change = extractChange(row.tool_name, row.raw_payload, row.command);
    const changeSection = renderChange(change);
    if (hasDiff(change)) loadDiff(changeSection, row, repo, seq);
    const bashFiles = change.kind === 'bash' && repo !== undefined ? loadBashFiles(row, repo, seq) : null;
    const shellChange = change.kind === 'bash' && repo !== undefined && row.file_path !== null ? loadShellChange(row, row.file_path, repo, seq) : null;

    body.replaceChildren(
      changeSection,
      ...(shellChange ? [shellChange] : []),
      ...(bashFiles ? [bashFiles] : []),
      fieldsSection(fields),
      h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Raw payload' }), payload, more),
    );
    body.scrollTop = 0;
    el.hidden = false;
  }

  /** Fills the change's diff in from the backend: the row's (a Write against its previous content), else its payload's. */
  function loadDiff(section: HTMLElement, row: MutationRow, repo: string | null | undefined, seq: number): void {
    const isWrite = section.dataset.kind === 'write';
    if (isWrite) section.dataset.previous = 'loading';
    const answer =
      repo !== undefined
        ? api.mutation_diff({ row: { repo, id: row.id } })
        : api.payload_diff({ payload: row.raw_payload }).then((change) => ({ change, previous: null, recorded: null }));
    answer.then(
      (d) => {
        if (seq !== generation) return;
        if (isWrite) section.dataset.previous = d.previous?.source.kind ?? 'none';
        showDiff(section, d.change, d.previous, d.recorded);
      },
      (err: unknown) => {
        if (seq !== generation) return;
        if (isWrite) section.dataset.previous = 'error';
        diffFailed(section, normalizeError(err).message);
        // The payload alone still has a diff (a Write all added).
        if (repo !== undefined) {
          api.payload_diff({ payload: row.raw_payload }).then(
            (change) => {
              if (seq === generation) showDiff(section, change);
            },
            () => {},
          );
        }
      },
    );
  }

  /** Every file the row's Bash command changed, each opening that file's history. */
  /** The whole-file diff of the file this Bash row changed, from the contents kept around the command. */
  function loadShellChange(row: MutationRow, file: string, repo: string | null, seq: number): HTMLElement {
    const section = renderShellChange(file);
    api.mutation_diff({ row: { repo, id: row.id } }).then(
      (d) => {
        if (seq !== generation) return;
        showDiff(section, d.change, null, d.recorded);
      },
      (err: unknown) => {
        if (seq !== generation) return;
        diffFailed(section, normalizeError(err).message);
      },
    );
    return section;
  }

  function loadBashFiles(row: MutationRow, repo: string | null, seq: number): HTMLElement {
    const list = h('ul', { class: 'bash-files', attrs: { 'aria-busy': 'true' } });
    const heading = h('h3', { class: 'detail-heading', text: 'Files changed by this command' });
    const section = h('section', { class: 'detail-section', data: { testid: 'bash-files' } }, heading, list);
    api.event_mutations({ event: { repo, event_id: row.event_id } }).then(
      (rows) => {
        if (seq !== generation) return;
        list.setAttribute('aria-busy', 'false');
        section.dataset.count = String(rows.length);
        heading.textContent = `Files changed by this command (${formatCount(rows.length)})`;
        if (rows.length === 0) {
          list.replaceWith(h('p', { class: 'muted', text: 'No file changes recorded for this command.' }));
          return;
        }
        for (const r of rows) {
          const file = r.file_path;
          if (file === null) continue;
          const current = r.mutation_seq === row.mutation_seq;
          list.append(
            h(
              'li',
              {},
              h('button', {
                class: 'link-button mono',
                data: { testid: 'bash-file', file },
                attrs: { type: 'button', title: `History of ${file}`, 'aria-current': current ? 'true' : null },
                text: file,
                on: { click: () => onFilter?.('file', file) },
              }),
              current ? h('span', { class: 'muted', text: ' (this row)' }) : null,
            ),
          );
        }
      },
      (err: unknown) => {
        if (seq !== generation) return;
        list.setAttribute('aria-busy', 'false');
        list.replaceWith(h('p', { class: 'field-error', text: `Could not list the files: ${normalizeError(err).message}` }));
      },
    );
    return section;
  }

  function hide(): void {
    generation++;
    shown = null;
    el.hidden = true;
    delete el.dataset.eventId;
    delete el.dataset.mutationSeq;
    body.replaceChildren();
  }

  return { el, show, hide, current: () => shown };
}
