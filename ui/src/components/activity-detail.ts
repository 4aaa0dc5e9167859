// The detail panel of one activity row (a hook event): the managed hook
// runs that answered it with their decisions, reasons, exit codes and
// output; the prompt or the change it carried (its diff computed by the
// backend, `payload_diff`); every column; and the raw payload. A prompt
// (UserPromptSubmit), or a row of its group once its head is known, offers
// "Revert this prompt" (lib/rewind.ts). The mutation list has its own panel (row-detail.ts); this one
// shares its look.

import { eventSubject, runReason, runVerdict } from '../lib/activity';
import { api, normalizeError } from '../lib/api';
import { eventLabel } from '../lib/catalogue';
import { PROMPT_HOOK } from '../lib/prompt-groups';
import { promptRevertOffer, type RevertOffer } from '../lib/rewind';
import { extractChange, parsePayload, prettyPayload } from '../lib/change';
import { keepFocus } from '../lib/focus';
import { absoluteTitle, formatLocal } from '../lib/time';
import type { ActivityEvent, HookRunRecord } from '../lib/types';
import { diffFailed, hasDiff, renderChange, showDiff } from './change-view';
import { append, h } from './dom';

/** Characters of payload shown before "Show all". */
const MAX_PAYLOAD_CHARS = 200_000;

const FIELDS: (keyof ActivityEvent)[] = [
  'repo',
  'hook_type',
  'tool_name',
  'agent_id',
  'session_id',
  'event_timestamp',
  'received_at',
  'file_path',
  'cwd',
  'branch',
  'head_sha',
  'remote_url',
  'mutations',
  'event_id',
  'tool_use_id',
  'payload_valid',
  'source_pid',
  'id',
];

export interface ActivityDetail {
  el: HTMLElement;
  /** Shows `ev`; `head`, the prompt heading its group (read from the ledger), adds "Revert this prompt" to a row of the group. */
  show(ev: ActivityEvent, head?: ActivityEvent): void;
  hide(): void;
  current(): ActivityEvent | null;
}

function outputBlock(label: string, text: string): HTMLElement | null {
  if (text.trim() === '') return null;
  const lines = text.replace(/\n$/, '').split('\n').length;
  return h(
    'details',
    { class: 'run-output' },
    h('summary', { text: `${label} (${lines} line${lines === 1 ? '' : 's'})` }),
    h('pre', { class: 'code-block', text }),
  );
}

/** One hook run: verdict, command, exit code, duration, reason and output. */
export function renderRun(run: HookRunRecord): HTMLElement {
  const verdict = runVerdict(run);
  const reason = runReason(run);
  const facts = [
    run.timed_out ? 'timed out' : run.exit_code === null ? 'no exit code' : `exit ${run.exit_code}`,
    `${run.duration_ms < 10 ? run.duration_ms.toFixed(1) : Math.round(run.duration_ms)} ms`,
    run.scope,
    run.matcher ? `matcher ${run.matcher}` : null,
    run.output_truncated ? 'output truncated' : null,
  ].filter((f): f is string => f !== null);
  const card = h(
    'li',
    { class: 'hook-run', data: { testid: 'hook-run', verdict, runId: run.run_id } },
    h(
      'div',
      { class: 'hook-run-head' },
      h('span', { class: `verdict-chip verdict-${verdict}`, data: { testid: 'hook-run-verdict' }, text: verdict }),
      h('code', { class: 'mono hook-run-command', text: run.command, attrs: { title: run.source } }),
    ),
    h('p', { class: 'hook-run-facts muted', data: { testid: 'hook-run-facts' }, text: facts.join(' · ') }),
  );
  append(
    card,
    reason ? h('p', { class: 'hook-run-reason', data: { testid: 'hook-run-reason' }, text: `Reason: ${reason}` }) : null,
    run.error && run.error !== reason ? h('p', { class: 'hook-run-error', text: run.error }) : null,
    outputBlock('stderr', run.stderr),
    outputBlock('stdout', run.stdout),
  );
  return card;
}

/**
 * The detail panel of an event. `onRename`, when given, adds a "Rename
 * agent…" button (the button is passed, for focus to return to);
 * `onRevert`, when given, adds "Revert this prompt" to a prompt's detail
 * (the caller leaves it out where no repository is known).
 */
export function createActivityDetail(
  onClose: () => void,
  onFilter: (field: 'agent' | 'session', value: string) => void,
  onRename?: (agent: string, opener: HTMLElement) => void,
  onRevert?: (ev: ActivityEvent, offer: RevertOffer, opener: HTMLElement) => void,
): ActivityDetail {
  let shown: ActivityEvent | null = null;
  const heading = h('h2', { id: 'activity-detail-title', class: 'detail-title' });
  const actions = h('div', { class: 'detail-actions' });
  const body = h('div', { class: 'detail-body' });
  const el = h(
    'aside',
    {
      id: 'activity-detail',
      class: 'row-detail',
      attrs: { 'aria-labelledby': 'activity-detail-title', hidden: true, tabindex: -1 },
      on: {
        keydown: (ev) => {
          if (ev.key === 'Escape') {
            ev.stopPropagation();
            onClose();
          }
        },
      },
    },
    h(
      'header',
      { class: 'detail-header' },
      heading,
      h('button', {
        id: 'activity-detail-close',
        class: 'icon-button',
        attrs: { type: 'button', 'aria-label': 'Close details', title: 'Close (Esc)' },
        text: '×',
        on: { click: () => onClose() },
      }),
    ),
    actions,
    body,
  );

  /**
   * Shows `ev`. The same event shown again (it gained hook runs, or was read
   * whole) keeps the keyboard focus and the scroll offset where they were.
   */
  function show(ev: ActivityEvent, head?: ActivityEvent): void {
    const again = shown !== null && shown.id === ev.id && shown.repo === ev.repo && !el.hidden;
    const top = body.scrollTop;
    keepFocus(el, () => draw(ev, head));
    body.scrollTop = again ? top : 0;
  }

  function draw(ev: ActivityEvent, head?: ActivityEvent): void {
    shown = ev;
    el.dataset.eventId = ev.event_id;
    const label = eventLabel(ev.hook_type);
    heading.replaceChildren();
    append(
      heading,
      h('span', { class: 'event-chip', text: label }),
      ' ',
      ev.tool_name ? h('span', { class: `tool-chip tool-${ev.tool_name.toLowerCase()}`, text: ev.tool_name }) : null,
      ev.tool_name ? ' ' : null,
      h('span', { class: 'mono detail-file', text: eventSubject(ev) }),
    );

    actions.replaceChildren(
      h('button', {
        id: 'activity-detail-filter-agent',
        class: 'button small',
        attrs: { type: 'button', title: `Show only what ${ev.agent_id} did` },
        text: 'Only this agent',
        on: { click: () => onFilter('agent', ev.agent_id) },
      }),
    );
    if (onRename) {
      actions.append(
        h('button', {
          id: 'activity-detail-rename-agent',
          class: 'button small',
          attrs: { type: 'button', 'aria-haspopup': 'dialog', title: `Give ${ev.agent_id} a name of your choosing` },
          text: 'Rename agent…',
          on: { click: (e) => onRename(ev.agent_id, e.currentTarget as HTMLElement) },
        }),
      );
    }
    if (ev.session_id) {
      const session = ev.session_id;
      actions.append(
        h('button', {
          id: 'activity-detail-filter-session',
          class: 'button small',
          attrs: { type: 'button', title: `Show only session ${session}` },
          text: 'Only this session',
          on: { click: () => onFilter('session', session) },
        }),
      );
    }

    // The prompt itself, or the prompt heading the row's group.
    const prompt = ev.hook_type === PROMPT_HOOK ? ev : head?.hook_type === PROMPT_HOOK ? head : undefined;
    if (onRevert && prompt !== undefined) {
      const offer = promptRevertOffer(prompt);
      actions.append(
        h(
          'div',
          { class: 'detail-reverts', data: { testid: 'row-reverts' }, attrs: { role: 'group', 'aria-label': 'Revert' } },
          h('button', {
            id: 'activity-detail-revert-prompt',
            class: 'button small revert-button',
            attrs: { type: 'button', 'aria-haspopup': 'dialog', title: offer.title },
            text: offer.label,
            on: { click: (e) => onRevert(prompt === ev ? (shown ?? ev) : prompt, offer, e.currentTarget as HTMLElement) },
          }),
        ),
      );
    }

    const runs = h('section', { class: 'detail-section', data: { testid: 'hook-runs', count: String(ev.hook_runs.length) } });
    runs.append(h('h3', { class: 'detail-heading', text: ev.hook_runs.length === 0 ? 'Hook runs' : `Hook runs (${ev.hook_runs.length})` }));
    if (ev.hook_runs.length === 0) {
      runs.append(h('p', { class: 'muted', text: 'No managed hook ran for this event.' }));
    } else {
      runs.append(h('ol', { class: 'hook-runs' }, ...ev.hook_runs.map(renderRun)));
    }

    // What the event carried: the prompt, or the tool's change (Pre and
    // PostToolUse payloads both hold tool_input).
    let carried: HTMLElement | null = null;
    const parsed = parsePayload(ev.raw_payload);
    const payload = 'value' in parsed && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {};
    if (typeof payload.prompt === 'string') {
      carried = h(
        'section',
        { class: 'detail-section' },
        h('h3', { class: 'detail-heading', text: 'Prompt' }),
        h('pre', { class: 'code-block', data: { testid: 'activity-prompt' }, text: payload.prompt }),
      );
    } else if (ev.tool_name) {
      const change = extractChange(ev.tool_name, ev.raw_payload);
      if (change.kind !== 'none') carried = renderChange(change);
      if (carried && hasDiff(change)) loadDiff(carried, ev.raw_payload, ev);
    }

    const fields = h('dl', { class: 'fields', data: { testid: 'activity-fields' } });
    for (const key of FIELDS) {
      const value = ev[key];
      if (key === 'repo' && value === undefined) continue;
      const text = value === null || value === undefined ? '—' : String(value);
      const dd = h('dd', { class: 'mono', data: { field: key }, text });
      if (key === 'event_timestamp' || key === 'received_at') {
        dd.title = absoluteTitle(text);
        dd.textContent = `${formatLocal(text)}  (${text})`;
      }
      fields.append(h('dt', { text: key }), dd);
    }

    const pretty = prettyPayload(ev.raw_payload);
    const pre = h('pre', { id: 'activity-detail-payload', class: 'code-block payload' });
    pre.textContent = pretty.length <= MAX_PAYLOAD_CHARS ? pretty : pretty.slice(0, MAX_PAYLOAD_CHARS);
    const more =
      pretty.length > MAX_PAYLOAD_CHARS
        ? h('button', {
            class: 'link-button',
            attrs: { type: 'button' },
            text: `Show all ${pretty.length.toLocaleString('en-US')} characters`,
            on: {
              click: (e) => {
                pre.textContent = pretty;
                (e.currentTarget as HTMLElement).remove();
              },
            },
          })
        : null;

    body.replaceChildren();
    append(
      body,
      runs,
      carried,
      h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Fields' }), fields),
      h('section', { class: 'detail-section' }, h('h3', { class: 'detail-heading', text: 'Raw payload' }), pre, more),
    );
    el.hidden = false;
  }

  /** Fills the carried change's diff in from the backend (`payload_diff`), unless another event is shown by then. */
  function loadDiff(section: HTMLElement, payload: string, ev: ActivityEvent): void {
    api.payload_diff({ payload }).then(
      (diff) => {
        if (shown === ev) showDiff(section, diff);
      },
      (err: unknown) => {
        if (shown === ev) diffFailed(section, normalizeError(err).message);
      },
    );
  }

  function hide(): void {
    shown = null;
    el.hidden = true;
    delete el.dataset.eventId;
    body.replaceChildren();
  }

  return { el, show, hide, current: () => shown };
}
