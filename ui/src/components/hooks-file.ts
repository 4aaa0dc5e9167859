// One settings file in the Hook editor: its path and state, its problems,
// its groups whose matcher is no valid pattern (flagged: the agent never
// matches them), the "add a hook" form (which refuses a matcher the backend
// says is no valid pattern), every event → matcher group → handler as a
// form (a group's matcher edited into no valid pattern is refused there,
// with the position, and the file cannot be reviewed for saving until it is
// fixed; a loaded one left as it was is only flagged), (reorder, delete,
// edit matcher/command/timeout, disable, move to
// another file through a review of both files), the hooks hookd disabled,
// the review-and-save panel with the diff of the whole file, the backtest
// of the unsaved edits on the project's recorded history ("Backtest these
// edits": how far it is, Cancel, then what the edited file would have
// decided differently), and the save bar, which stays at the bottom of the
// screen however long the file.
//
// Handlers the editor does not edit (types other than `command`, unknown
// types) and keys it does not know are shown read-only; they are part of
// the draft and written back untouched.

import { lineDiff } from '../lib/diff';
import {
  EditError,
  addHandler,
  commandHandler,
  commandOf,
  moveGroup,
  moveHandler,
  parseTimeout,
  removeGroup,
  removeHandler,
  sameTree,
  setCommand,
  setMatcher,
  setTimeoutSecs,
  type HooksTree,
} from '../lib/hooks-model';
import { savedVerdict } from '../lib/runs';
import { progressText } from '../lib/backtest';
import type { BacktestProgress, BacktestReport, FileRef, HookEventInfo, HookFile, HookRef, MatcherCheck, RunVerdict, SavePreview } from '../lib/types';
import { renderBacktest } from './bench-backtest';
import { openCopyDialog } from './hooks-copy';
import { renderDiff } from './hooks-diff';
import { createMatcherField, matcherRefusal, type MatcherField } from './hooks-matcher';
import { h } from './dom';
import { renderVerdict } from './runs-verdict';

/** What the editor shows for one file. */
export interface FileEditorState {
  /** The file as last loaded. */
  loaded: HookFile;
  /** Its hooks as loaded. */
  base: HooksTree;
  /** Its hooks as edited. */
  draft: HooksTree;
  /** The save preview being reviewed, if any. */
  review: SavePreview | null;
  /** The last save was refused because the file changed on disk. */
  conflict: boolean;
  /** What a merge did, one line each. */
  notes: string[];
  /** A command is running for this file. */
  busy: boolean;
  /** What is typed in the "add a hook" form, kept across re-renders. */
  add: AddDraft;
  /** The backtest of the edits, running or done; null when none was asked. */
  backtest: EditsBacktest | null;
}

/** A backtest of the unsaved edits of a file. */
export interface EditsBacktest {
  /** The hooks it replays (the draft when it was asked). */
  tested: HooksTree;
  /** It is replaying. */
  running: boolean;
  /** How far it is, once the backend said. */
  progress: BacktestProgress | null;
  /** What it found. */
  report: BacktestReport | null;
  /** Why it has no report (cancelled). */
  message: string | null;
  /** Cancel was pressed (perhaps before the replay reached the backend). */
  cancelled: boolean;
}

/** The fields of the "add a hook" form. */
export interface AddDraft {
  event: string;
  matcher: string;
  command: string;
  timeout: string;
}

/** An empty "add a hook" form. */
export function emptyAdd(): AddDraft {
  return { event: 'PreToolUse', matcher: '', command: '', timeout: '' };
}

/** What the editor asks of the screen. */
export interface FileEditorDeps {
  /** The event catalogue. */
  events: HookEventInfo[];
  /** Files a hook can be moved to, with their labels. */
  targets: { file: FileRef; label: string }[];
  /** The draft changed; `structural` edits re-render the file. */
  onDraft(draft: HooksTree, structural: boolean): void;
  /** The add form put a hook into the draft (said to the user: nothing is written until Save). */
  onAdded(event: string, matcher: string | null, command: string): void;
  /** Disable or enable a hook through hookd's store. */
  onToggle(hook: HookRef, enabled: boolean): void;
  /** Move a hook to another file: choose where, review both files, confirm (`from`: the button, for the focus). */
  onMove(hook: HookRef, from: HTMLElement): void;
  /** Show the diff of the save. */
  onReview(): void;
  /** Drop the edits. */
  onDiscard(): void;
  /** Write the file (`force`: over a change on disk). */
  onSave(force: boolean): void;
  /** Close the review. */
  onCancelReview(): void;
  /** Backtest the edited file on the project's recorded history (absent: no project to replay). */
  onBacktest?: () => void;
  /** Stop the backtest that runs. */
  onCancelBacktest(): void;
  /** Put the backtest's report away. */
  onCloseBacktest(): void;
}

/** The status line of a backtest of the edits. */
export function backtestStatus(bt: EditsBacktest): string {
  if (bt.running) return bt.progress ? `Replaying the project\u2019s recorded events: ${progressText(bt.progress)}…` : 'Replaying the project\u2019s recorded events…';
  return bt.message ?? '';
}

/** A rendered file editor. */
export interface FileEditor {
  el: HTMLElement;
  /** A group's matcher was edited into no valid pattern: the file cannot be saved. */
  refused(): boolean;
  destroy(): void;
}

const KIND_TEXT = { agent: 'Claude Code runs these hooks', managed: "hookd's daemon runs these hooks" } as const;
/** Who skips a group whose matcher is no valid pattern. */
const IGNORED_BY = { agent: 'Claude Code', managed: 'hookd' } as const;


/** Whether the draft differs from what was loaded. */
export function isDirty(state: FileEditorState): boolean {
  return !sameTree(state.base, state.draft);
}

/** Renders the editor of one file. */
export function renderFileEditor(state: FileEditorState, deps: FileEditorDeps): FileEditor {
  const file = state.loaded;
  const dirty = isDirty(state);
  const fields: MatcherField[] = [];
  // The groups' matcher fields, and those edited into no valid pattern.
  const groupFields: MatcherField[] = [];
  const refusedGroups = new Set<MatcherField>();
  let destroyed = false;
  const eventInfo = (name: string): HookEventInfo | undefined => deps.events.find((e) => e.name === name);
  let draft = state.draft;
  const edit = (next: HooksTree, structural: boolean): void => {
    draft = next;
    deps.onDraft(next, structural);
  };

  const header = h(
    'header',
    { class: 'hooks-file-header' },
    h(
      'div',
      { class: 'hooks-file-title' },
      h('span', { id: 'hooks-file-path', class: 'mono hooks-path', text: file.path }),
      file.exists ? null : h('span', { class: 'badge badge-off', data: { testid: 'file-missing' }, text: 'does not exist yet: saving creates it' }),
      file.read_only ? h('span', { class: 'badge badge-warn', text: 'read-only' }) : null,
    ),
    h('p', { class: 'muted hooks-file-who', text: KIND_TEXT[file.file.kind] }),
    file.other_keys.length > 0
      ? h('p', { id: 'hooks-other-keys', class: 'muted' }, 'Also in this file, kept exactly as they are: ', ...file.other_keys.flatMap((k, i) => [i > 0 ? ', ' : '', h('code', { text: k })]))
      : null,
  );

  const alerts: HTMLElement[] = [];
  if (file.parse_error) {
    alerts.push(h('div', { id: 'hooks-parse-error', class: 'hooks-alert', attrs: { role: 'alert' } }, h('strong', { text: 'This file cannot be read as JSON. ' }), file.parse_error, '. Fix it in a text editor; hookd will not touch it until then.'));
  }
  if (file.problems.length > 0) {
    alerts.push(
      h(
        'div',
        { class: 'hooks-alert hooks-problems-box' },
        h('strong', { text: file.editable ? 'Problems the agent would reject (fix them below before saving):' : 'The hooks of this file have a shape the form cannot show; fix them in a text editor:' }),
        h('ul', { id: 'hooks-problems' }, ...file.problems.map((p) => h('li', { data: { testid: 'problem', path: p.path } }, h('code', { text: p.path }), ` ${p.message}`))),
      ),
    );
  }
  if (file.bad_matchers.length > 0) {
    alerts.push(
      h(
        'div',
        { id: 'hooks-bad-matchers', class: 'hooks-warning', attrs: { role: 'status' } },
        h('strong', { text: `${file.bad_matchers.length === 1 ? 'A group' : `${file.bad_matchers.length} groups`} of this file never match${file.bad_matchers.length === 1 ? 'es' : ''}: the matcher is not a valid pattern, so ${IGNORED_BY[file.file.kind]} ignores ${file.bad_matchers.length === 1 ? 'it' : 'them'}. ` }),
        'The rest of the file works and saves as usual; fix the matcher below or delete the group.',
        h('ul', {}, ...file.bad_matchers.map((b) => h('li', { data: { testid: 'bad-matcher', path: b.path } }, h('code', { text: b.path }), ' ', h('code', { text: JSON.stringify(b.text) }), `: ${b.why}`))),
      ),
    );
  }
  if (state.notes.length > 0) {
    alerts.push(h('div', { id: 'hooks-merge-notes', class: 'hooks-note', attrs: { role: 'status' } }, h('strong', { text: 'Your edits were applied to the file as it is on disk now. Review before saving:' }), h('ul', {}, ...state.notes.map((n) => h('li', { text: n })))));
  }

  const body: (HTMLElement | null)[] = [];
  if (file.editable && !file.parse_error) {
    body.push(addForm());
    body.push(eventsList());
  }
  body.push(disabledList());

  const review = state.review ? reviewPanel(state.review) : null;
  const backtest = state.backtest ? backtestPanel(state.backtest) : null;
  // The save bar: sticky at the bottom of the scrolling pane (hooks.css), so it stays in reach in a long file.
  const actions = h(
    'div',
    { id: 'hooks-save-bar', class: dirty ? 'hooks-actions hooks-save-bar dirty' : 'hooks-actions hooks-save-bar', data: { dirty: String(dirty) } },
    h('span', { id: 'hooks-dirty', class: dirty ? 'hooks-dirty on' : 'hooks-dirty', data: { dirty: String(dirty) }, text: dirty ? 'Unsaved changes' : 'No unsaved changes' }),
    h('button', { id: 'hooks-discard', class: 'button', attrs: { type: 'button', disabled: !dirty || state.busy }, text: 'Discard', on: { click: () => deps.onDiscard() } }),
    deps.onBacktest
      ? h('button', {
          id: 'hooks-backtest',
          class: 'button',
          attrs: { type: 'button', disabled: !dirty || state.busy || !file.editable || state.backtest?.running === true, title: 'Replay this project\u2019s last recorded events with the file as Save would write it, and list what it would decide differently (nothing is saved)' },
          text: 'Backtest these edits',
          on: { click: () => deps.onBacktest?.() },
        })
      : null,
    h('button', {
      id: 'hooks-review',
      class: 'button primary',
      attrs: { type: 'button', disabled: !dirty || state.busy || !file.editable, 'aria-haspopup': 'true' },
      text: 'Review and save…',
      on: { click: () => void reviewWhenChecked() },
    }),
  );

  const el = h(
    'section',
    {
      class: 'hooks-file',
      data: { testid: 'hooks-file', kind: file.file.kind, scope: file.file.scope, dirty: String(dirty) },
      attrs: { 'aria-busy': state.busy ? 'true' : 'false' },
    },
    header,
    ...alerts,
    // The review goes first: it is what the user is doing now.
    review,
    ...body,
    backtest,
    actions,
  );

  /** Review and save is refused while a group's edited matcher is no valid pattern. */
  function syncRefused(): void {
    const button = actions.querySelector<HTMLButtonElement>('#hooks-review');
    if (!button) return;
    const refused = refusedGroups.size > 0;
    button.disabled = !isDirty({ ...state, draft }) || state.busy || !file.editable || refused;
    button.title = refused ? 'A matcher is not a valid pattern: fix it to save the file' : '';
  }

  /** Opens the review once every group's matcher is checked and none is refused, as the add form takes a hook. */
  async function reviewWhenChecked(): Promise<void> {
    await Promise.all(groupFields.map((f) => f.settle()));
    if (destroyed) return;
    const first = groupFields.find((f) => refusedGroups.has(f));
    if (first) {
      first.input.focus();
      return;
    }
    deps.onReview();
  }

  function addForm(): HTMLElement {
    const add = state.add;
    const select = h('select', { id: 'hooks-add-event', class: 'text-input', data: { focus: 'add-event' }, attrs: { 'aria-describedby': 'hooks-add-event-desc' } });
    for (const e of deps.events) select.append(h('option', { attrs: { value: e.name }, text: e.name }));
    select.value = deps.events.some((e) => e.name === add.event) ? add.event : (deps.events[0]?.name ?? '');
    const desc = h('p', { id: 'hooks-add-event-desc', class: 'muted hooks-event-desc' });
    const error = h('div', { id: 'hooks-add-error', class: 'field-error', attrs: { 'aria-live': 'polite' } });
    const submit = h('button', { id: 'hooks-add-submit', class: 'button', attrs: { type: 'submit', 'aria-describedby': 'hooks-add-error' }, text: 'Add hook' });
    // Whether the event uses the matcher (a hidden matcher is not added, so it cannot refuse the hook).
    const usesMatcher = (): boolean => eventInfo(select.value)?.takes_matcher ?? true;
    // The error shown is the matcher's refusal (cleared when the matcher is fixed), or another one (kept).
    let refused = false;
    const refuse = (check: MatcherCheck | null): void => {
      const why = usesMatcher() ? matcherRefusal(check) : null;
      submit.disabled = why !== null;
      if (why !== null) {
        error.textContent = why;
        refused = true;
      } else if (refused) {
        error.textContent = '';
        refused = false;
      }
    };
    const matcher = createMatcherField({
      event: select.value,
      value: add.matcher,
      id: 'hooks-add-matcher',
      label: 'Matcher of the new hook',
      onChange: (text) => (add.matcher = text),
      onCheck: (check) => refuse(check),
    });
    matcher.input.dataset.focus = 'add-matcher';
    fields.push(matcher);
    const matcherWrap = h('div', { class: 'hooks-field hooks-field-matcher' }, h('label', { class: 'field-label', attrs: { for: 'hooks-add-matcher' }, text: 'Matcher' }), matcher.input, matcher.status);
    const command = h('input', { id: 'hooks-add-command', class: 'text-input mono', data: { focus: 'add-command' }, attrs: { type: 'text', placeholder: './scripts/check.sh', autocomplete: 'off', spellcheck: 'false', required: true } });
    command.value = add.command;
    command.addEventListener('input', () => (add.command = command.value));
    const timeout = h('input', { id: 'hooks-add-timeout', class: 'text-input', data: { focus: 'add-timeout' }, attrs: { type: 'number', min: '0', step: 'any', inputmode: 'decimal' } });
    timeout.value = add.timeout;
    timeout.addEventListener('input', () => (add.timeout = timeout.value));
    const sync = (): void => {
      const info = eventInfo(select.value);
      desc.textContent = info?.description ?? '';
      timeout.placeholder = info ? `${info.default_timeout_secs} (default)` : '';
      matcherWrap.hidden = info ? !info.takes_matcher : false;
      // Its check (now pending) says whether the new event's matcher refuses the hook.
      matcher.setEvent(select.value);
    };
    select.addEventListener('change', () => {
      add.event = select.value;
      sync();
    });
    sync();
    const form = h(
      'form',
      {
        id: 'hooks-add',
        class: 'hooks-add',
        attrs: { 'aria-label': 'Add a hook' },
        on: {
          submit: (ev) => {
            ev.preventDefault();
            void take();
          },
        },
      },
      h('h3', { class: 'hooks-section-title', text: 'Add a command hook' }),
      h(
        'div',
        { class: 'hooks-add-grid' },
        h('div', { class: 'hooks-field' }, h('label', { class: 'field-label', attrs: { for: 'hooks-add-event' }, text: 'Event' }), select, desc),
        matcherWrap,
        h('div', { class: 'hooks-field hooks-field-command' }, h('label', { class: 'field-label', attrs: { for: 'hooks-add-command' }, text: 'Command' }), command),
        h('div', { class: 'hooks-field hooks-field-timeout' }, h('label', { class: 'field-label', attrs: { for: 'hooks-add-timeout' }, text: 'Timeout (s)' }), timeout),
      ),
      h('div', { class: 'hooks-add-actions' }, error, submit),
    );

    /** Adds the hook to the draft, unless a field refuses it. */
    async function take(): Promise<void> {
      error.textContent = '';
      refused = false;
      const info = eventInfo(select.value);
      if (usesMatcher()) {
        // The backend's answer for exactly the text typed (a check may still be on its way).
        const check = await matcher.settle();
        if (destroyed) return;
        const why = matcherRefusal(check);
        if (why !== null) {
          refuse(check);
          matcher.input.focus();
          return;
        }
      }
      const text = command.value.trim();
      if (text === '') {
        error.textContent = 'Type the command the hook runs.';
        command.focus();
        return;
      }
      const t = parseTimeout(timeout.value);
      if (!t.ok) {
        error.textContent = t.error;
        timeout.focus();
        return;
      }
      const m = info && !info.takes_matcher ? null : matcher.input.value.trim() === '' ? null : matcher.input.value;
      try {
        const next = addHandler(draft, select.value, m, commandHandler(text, t.secs));
        Object.assign(add, { ...emptyAdd(), event: select.value });
        edit(next, true);
        deps.onAdded(select.value, m, text);
      } catch (err) {
        error.textContent = err instanceof EditError ? err.message : String(err);
      }
    }
    return form;
  }

  function iconButton(label: string, text: string, focus: string, disabled: boolean, onClick: () => void, testid: string): HTMLButtonElement {
    return h('button', {
      class: 'icon-button',
      data: { testid, focus },
      attrs: { type: 'button', 'aria-label': label, title: label, disabled },
      text,
      on: { click: onClick },
    });
  }

  function eventsList(): HTMLElement {
    const events = Object.entries(draft);
    const list = h('div', { id: 'hooks-events', class: 'hooks-events' });
    if (events.length === 0) {
      list.append(h('p', { id: 'hooks-none', class: 'muted', text: file.exists ? 'No hooks in this file.' : 'This file does not exist yet. Add a hook above; saving creates the file.' }));
      return list;
    }
    for (const [event, groups] of events) {
      const info = eventInfo(event);
      const section = h(
        'section',
        { class: 'hooks-event', data: { testid: 'hook-event', event }, attrs: { 'aria-label': `${event} hooks` } },
        h('h3', { class: 'hooks-event-title' }, h('span', { class: 'mono', text: event }), info ? h('span', { class: 'muted hooks-event-desc', text: ` — ${info.description}` }) : h('span', { class: 'badge badge-warn', text: 'unknown event' })),
      );
      groups.forEach((group, gi) => section.append(groupBox(event, info, group, gi, groups.length)));
      list.append(section);
    }
    return list;
  }

  function groupBox(event: string, info: HookEventInfo | undefined, group: HooksTree[string][number], gi: number, count: number): HTMLElement {
    const key = `${event}-${gi}`;
    const matcherText = typeof group.matcher === 'string' ? group.matcher : null;
    const extra = Object.keys(group).filter((k) => k !== 'matcher' && k !== 'hooks');
    // A matcher the file already had that is no valid pattern (the backend's list): flagged until it is fixed.
    const bad = matcherText === null ? undefined : file.bad_matchers.find((b) => b.text === matcherText);
    const box = h('div', { class: bad ? 'hooks-group hooks-group-bad' : 'hooks-group', data: { testid: 'hook-group', index: String(gi), matcher: matcherText ?? '', badMatcher: String(bad !== undefined) } });
    const flag = bad
      ? h('p', { class: 'hooks-group-flag', data: { testid: 'group-bad-matcher' }, attrs: { role: 'note' } }, h('strong', { text: 'Never matches' }), `: not a valid pattern — ${IGNORED_BY[file.file.kind]} ignores this group. Fix the matcher or delete the group.`)
      : null;
    // A matcher edited into no valid pattern is refused, as the add form refuses one; the
    // loaded bad matcher left as it was is only flagged (the file keeps it, the agent ignores it).
    const refusal = h('div', { class: 'field-error', data: { testid: 'group-matcher-error' }, attrs: { 'aria-live': 'polite' } });
    let field: MatcherField | null = null;
    const unflag = (check: MatcherCheck | null): void => {
      if (!check || !field) return;
      const kept = !check.ok && file.bad_matchers.some((b) => b.text === field!.input.value);
      const why = kept ? null : matcherRefusal(check, 'save the file');
      refusal.textContent = why ?? '';
      box.dataset.refused = String(why !== null);
      if (why !== null) {
        field.input.setAttribute('aria-describedby', `${field.status.id} ${refusal.id}`);
        refusedGroups.add(field);
      } else refusedGroups.delete(field);
      syncRefused();
      if (!flag) return;
      flag.hidden = check.ok;
      box.classList.toggle('hooks-group-bad', !check.ok);
      box.dataset.badMatcher = String(!check.ok);
    };
    const controls = h(
      'div',
      { class: 'hooks-group-controls' },
      iconButton(`Move group ${gi + 1} up`, '↑', `${key}-up`, gi === 0, () => edit(moveGroup(draft, event, gi, -1), true), 'group-up'),
      iconButton(`Move group ${gi + 1} down`, '↓', `${key}-down`, gi === count - 1, () => edit(moveGroup(draft, event, gi, 1), true), 'group-down'),
      iconButton(`Delete group ${gi + 1} and its hooks`, '✕', `${key}-delete`, false, () => edit(removeGroup(draft, event, gi), true), 'group-delete'),
    );
    if (!info || info.takes_matcher) {
      field = createMatcherField({
        event,
        value: matcherText,
        id: `hooks-matcher-${key}`,
        testid: 'group-matcher',
        label: `Matcher of ${event} group ${gi + 1}`,
        onChange: (text) => edit(setMatcher(draft, event, gi, text), false),
        onCheck: unflag,
      });
      refusal.id = `hooks-matcher-${key}-error`;
      if (!info) field.input.disabled = true;
      fields.push(field);
      if (info) groupFields.push(field);
      field.input.dataset.focus = `${key}-matcher`;
      box.append(h('div', { class: 'hooks-group-head' }, h('span', { class: 'field-label', text: 'Matcher' }), field.input, controls), ...(flag ? [flag] : []), field.status, refusal);
    } else {
      box.append(h('div', { class: 'hooks-group-head' }, h('span', { class: 'muted', text: matcherText ? `matcher ${JSON.stringify(matcherText)} is ignored: ${event} runs every group` : `${event} takes no matcher` }), controls), ...(flag ? [flag] : []));
    }
    if (extra.length > 0) box.append(h('p', { class: 'muted hooks-extra', data: { testid: 'group-extra' } }, 'Kept as is: ', ...extra.map((k) => h('code', { text: `${k}: ${JSON.stringify(group[k])}` }))));
    const list = h('ul', { class: 'hooks-handlers', attrs: { 'aria-label': `Hooks of ${event} group ${gi + 1}` } });
    group.hooks.forEach((handler, hi) => list.append(handlerRow(event, info, matcherText, handler, gi, hi, group.hooks.length)));
    box.append(list);
    return box;
  }

  /** Whether the saved hook really runs for the project; an unsaved one is judged once saved. */
  function verdictOf(verdict: RunVerdict | null): HTMLElement {
    return verdict !== null ? renderVerdict(verdict) : h('span', { class: 'badge badge-off', data: { testid: 'runs-unsaved' }, text: 'not saved: whether it runs is known once saved' });
  }

  function handlerRow(event: string, info: HookEventInfo | undefined, matcher: string | null, handler: HooksTree[string][number]['hooks'][number], gi: number, hi: number, count: number): HTMLElement {
    const key = `${event}-${gi}-${hi}`;
    const type = typeof handler.type === 'string' ? handler.type : '';
    const command = commandOf(handler);
    const verdict = savedVerdict(file, event, gi, hi, handler);
    const li = h('li', { class: 'hooks-handler', data: { testid: 'hook-handler', index: String(hi), type, command: command ?? '', runs: verdict === null ? 'unsaved' : String(verdict.runs) } });
    const order = [
      iconButton('Move up', '↑', `${key}-up`, hi === 0, () => edit(moveHandler(draft, event, gi, hi, -1), true), 'handler-up'),
      iconButton('Move down', '↓', `${key}-down`, hi === count - 1, () => edit(moveHandler(draft, event, gi, hi, 1), true), 'handler-down'),
      iconButton('Delete this hook', '✕', `${key}-delete`, false, () => edit(removeHandler(draft, event, gi, hi), true), 'handler-delete'),
    ];
    const editable = type === 'command' && (handler.command === undefined || typeof handler.command === 'string') && (handler.timeout === undefined || typeof handler.timeout === 'number');
    if (!editable) {
      li.append(
        h('div', { class: 'hooks-handler-main' }, h('span', { class: 'badge badge-off', data: { testid: 'handler-readonly' }, text: `${type || 'no type'} handler · read-only, kept as is` }), h('code', { class: 'hooks-raw', data: { testid: 'handler-raw' }, text: JSON.stringify(handler) }), verdictOf(verdict)),
        h('div', { class: 'hooks-handler-controls' }, ...order),
      );
      return li;
    }
    const cmd = h('input', {
      class: 'text-input mono',
      data: { testid: 'handler-command', focus: `${key}-command` },
      attrs: { type: 'text', 'aria-label': `Command of ${event} hook ${hi + 1}`, autocomplete: 'off', spellcheck: 'false' },
    });
    cmd.value = command ?? '';
    cmd.addEventListener('input', () => {
      if (cmd.value.trim() === '') cmd.setAttribute('aria-invalid', 'true');
      else cmd.removeAttribute('aria-invalid');
      edit(setCommand(draft, event, gi, hi, cmd.value), false);
    });
    const timeoutError = h('span', { class: 'field-error', attrs: { 'aria-live': 'polite' } });
    const timeout = h('input', {
      class: 'text-input hooks-timeout',
      data: { testid: 'handler-timeout', focus: `${key}-timeout` },
      attrs: { type: 'number', min: '0', step: 'any', placeholder: info ? `${info.default_timeout_secs}` : '', 'aria-label': `Timeout in seconds of ${event} hook ${hi + 1}`, title: 'Timeout in seconds (empty: the event\u2019s default)' },
    });
    timeout.value = typeof handler.timeout === 'number' ? String(handler.timeout) : '';
    timeout.addEventListener('input', () => {
      const t = parseTimeout(timeout.value);
      if (!t.ok) {
        timeout.setAttribute('aria-invalid', 'true');
        timeoutError.textContent = t.error;
        return;
      }
      timeout.removeAttribute('aria-invalid');
      timeoutError.textContent = '';
      edit(setTimeoutSecs(draft, event, gi, hi, t.secs), false);
    });
    // Disabling and moving act on the file on disk: only for a saved hook, with no unsaved edits.
    const saved = command !== null && !dirty;
    const ref: HookRef | null = command !== null ? { event, matcher, command } : null;
    const why = dirty ? 'Save or discard your edits first' : '';
    const disable = h('button', {
      class: 'button small',
      data: { testid: 'handler-disable', focus: `${key}-disable` },
      attrs: { type: 'button', disabled: !saved || state.busy, title: why || 'Take it out of the file; hookd keeps it and can put it back exactly where it was' },
      text: 'Disable',
      on: { click: () => ref && deps.onToggle(ref, false) },
    });
    // Opens the choice of a file and the review of both files; nothing moves before the user confirms there.
    const move: HTMLButtonElement = h('button', {
      class: 'button small hooks-move',
      data: { testid: 'handler-move', focus: `${key}-move` },
      attrs: { type: 'button', 'aria-haspopup': 'dialog', 'aria-label': `Move to… another file: ${event} hook ${hi + 1}`, disabled: !saved || state.busy, title: why || 'Move this hook to another file (you review both files first)' },
      text: 'Move to…',
      on: { click: () => ref && deps.onMove(ref, move) },
    });
    // Shows the hook as another agent's entry, with what degrades; writes nothing, so a draft works too.
    const copy: HTMLButtonElement = h('button', {
      class: 'button small hooks-copy-open',
      data: { testid: 'handler-copy', focus: `${key}-copy` },
      attrs: { type: 'button', 'aria-haspopup': 'dialog', 'aria-label': `Copy to… another agent: ${event} hook ${hi + 1}`, title: 'Show this hook as Codex CLI’s, Gemini CLI’s, Cursor’s or GitHub Copilot’s, and what degrades' },
      text: 'Copy to…',
      on: { click: () => openCopyDialog({ event, matcher, handler, returnFocus: copy }) },
    });
    const extra = Object.keys(handler).filter((k) => !['type', 'command', 'timeout'].includes(k));
    li.append(
      h(
        'div',
        { class: 'hooks-handler-main' },
        h('div', { class: 'hooks-handler-fields' }, cmd, timeout, h('span', { class: 'muted hooks-unit', text: 's' })),
        timeoutError,
        extra.length > 0 ? h('p', { class: 'muted hooks-extra', data: { testid: 'handler-extra' } }, 'Kept as is: ', ...extra.map((k) => h('code', { text: `${k}: ${JSON.stringify(handler[k])}` }))) : null,
        verdictOf(verdict),
      ),
      h('div', { class: 'hooks-handler-controls' }, disable, move, copy, ...order),
    );
    return li;
  }

  function disabledList(): HTMLElement | null {
    if (file.disabled.length === 0) return null;
    return h(
      'section',
      { id: 'hooks-disabled', class: 'hooks-disabled', attrs: { 'aria-labelledby': 'hooks-disabled-title' } },
      h('h3', { id: 'hooks-disabled-title', class: 'hooks-section-title', text: 'Disabled through hookd (not in the file; the agent does not run them)' }),
      h(
        'ul',
        { class: 'hooks-handlers' },
        ...file.disabled.map((d, i) =>
          h(
            'li',
            { class: 'hooks-handler hooks-handler-off', data: { testid: 'disabled-hook', event: d.event, command: d.command ?? '' } },
            h('div', { class: 'hooks-handler-main' }, h('span', { class: 'mono', text: `${d.event}${d.matcher !== null ? ` [${d.matcher}]` : ''}` }), h('code', { class: 'hooks-raw', text: d.command ?? JSON.stringify(d.handler) })),
            h('button', {
              class: 'button small',
              data: { testid: 'disabled-enable', focus: `disabled-${i}` },
              attrs: { type: 'button', disabled: d.command === null || dirty || state.busy, title: dirty ? 'Save or discard your edits first' : 'Put it back where it was' },
              text: 'Enable',
              on: { click: () => d.command !== null && deps.onToggle({ event: d.event, matcher: d.matcher, command: d.command }, true) },
            }),
          ),
        ),
      ),
    );
  }

  function backtestPanel(bt: EditsBacktest): HTMLElement {
    // Edited since: the report is of other hooks than the ones on screen.
    const stale = !bt.running && bt.report !== null && !sameTree(bt.tested, draft);
    return h(
      'section',
      { id: 'hooks-backtest-panel', class: 'hooks-backtest', data: { running: String(bt.running) }, attrs: { 'aria-labelledby': 'hooks-backtest-title', 'aria-busy': String(bt.running), tabindex: '-1' } },
      h('h3', { id: 'hooks-backtest-title', class: 'hooks-section-title', text: 'Backtest of these edits' }),
      h('p', { class: 'muted small-note', text: `The last recorded events of this project, replayed with ${file.path} as Save would write it (not saved). Only hooks the edits add or change run, with HOOKD_BACKTEST=1; what the hooks they drop decided is read from the ledger; no answer reaches any agent.` }),
      h('p', { id: 'hooks-backtest-status', class: 'muted', attrs: { 'aria-live': 'polite' }, text: backtestStatus(bt) }),
      h('p', { id: 'hooks-backtest-stale', class: 'hooks-note', attrs: { role: 'status', hidden: !stale }, text: 'You edited the file since this backtest: backtest again to see the edits as they are now.' }),
      bt.report ? renderBacktest(bt.report) : null,
      h(
        'div',
        { class: 'hooks-actions' },
        bt.running
          ? h('button', { id: 'hooks-backtest-cancel', class: 'button danger', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => deps.onCancelBacktest() } })
          : h('button', { id: 'hooks-backtest-close', class: 'button', attrs: { type: 'button' }, text: 'Close', on: { click: () => deps.onCloseBacktest() } }),
      ),
    );
  }

  function reviewPanel(preview: SavePreview): HTMLElement {
    const lines = lineDiff(preview.before, preview.after);
    return h(
      'section',
      { id: 'hooks-review-panel', class: 'hooks-review', attrs: { 'aria-labelledby': 'hooks-review-title', tabindex: '-1' } },
      h('h3', { id: 'hooks-review-title', class: 'hooks-section-title', text: preview.creates ? `Create ${preview.path}` : `Changes to ${preview.path}` }),
      state.conflict
        ? h('p', { id: 'hooks-conflict', class: 'hooks-alert', attrs: { role: 'alert' }, text: 'The file changed on disk since it was loaded, so nothing was written. Reload or merge (above), or overwrite their change.' })
        : null,
      preview.changed ? renderDiff(lines, preview.path) : h('p', { class: 'muted', text: 'Saving would not change the file.' }),
      h(
        'div',
        { class: 'hooks-actions' },
        h('button', { id: 'hooks-save-cancel', class: 'button', attrs: { type: 'button' }, text: 'Back to editing', on: { click: () => deps.onCancelReview() } }),
        state.conflict
          ? h('button', { id: 'hooks-save-force', class: 'button danger', attrs: { type: 'button', disabled: state.busy }, text: 'Overwrite their change', on: { click: () => deps.onSave(true) } })
          : null,
        h('button', { id: 'hooks-save', class: 'button primary', attrs: { type: 'button', disabled: state.busy || !preview.changed || state.conflict }, text: 'Save', on: { click: () => deps.onSave(false) } }),
      ),
    );
  }

  return {
    el,
    refused: () => refusedGroups.size > 0,
    destroy() {
      destroyed = true;
      for (const f of fields) f.destroy();
    },
  };
}
