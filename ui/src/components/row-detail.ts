// The detail panel of one timeline row: every column, the change derived
// from the payload, and the payload itself, pretty-printed.

import { openInBench } from '../lib/bench-payload';
import { extractChange, prettyPayload } from '../lib/change';
import { absoluteTitle, formatLocal } from '../lib/time';
import type { MutationRow } from '../lib/types';
import { renderChange } from './change-view';
import { h } from './dom';

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

export function createRowDetail(
  onClose: () => void,
  onFilter?: (field: 'file' | 'agent', value: string) => void,
): RowDetail {
  let shown: MutationRow | null = null;
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

    actions.append(
      h('button', {
        id: 'row-detail-open-bench',
        class: 'button small',
        attrs: { type: 'button', title: 'Try this recorded payload on the project\u2019s hooks in the Test bench' },
        text: 'Open in test bench',
        on: { click: () => openInBench(row) },
      }),
    );

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

    body.replaceChildren(
      renderChange(extractChange(row.tool_name, row.raw_payload, row.command)),
      h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Fields' }), fields),
      h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Raw payload' }), payload, more),
    );
    body.scrollTop = 0;
    el.hidden = false;
  }

  function hide(): void {
    shown = null;
    el.hidden = true;
    delete el.dataset.eventId;
    delete el.dataset.mutationSeq;
    body.replaceChildren();
  }

  return { el, show, hide, current: () => shown };
}
