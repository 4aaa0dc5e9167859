// The review dialog of an edit to another coding agent's hooks file: a hook
// added (the form: the event from that agent's own list, a matcher only on
// the events that take one, the command, the timeout in the agent's unit,
// Gemini CLI's name), one changed where it stands (the same form, filled in,
// its event fixed) or one removed. Nothing is written until the diff of
// the exact bytes is shown and Apply pressed; Apply sends the preview's
// version, and a file changed meanwhile comes back as a `conflict`: the
// dialog then shows the change as it would be now instead of writing.
// The rules come from the core (`agent_hook_rules`), which refuses again
// whatever the agent would reject.
//
// A modal like the Connect dialog: Tab stays inside, Esc or Cancel closes
// it. After Apply the file's tab is reloaded, says what happened, and the
// focus goes to the added row, or to the row after the removed one.

import '../styles/connect.css';
import { api } from '../lib/api';
import type { AgentEdit } from '../lib/bindings/AgentEdit';
import type { AgentEditPreview } from '../lib/bindings/AgentEditPreview';
import type { AgentEditResult } from '../lib/bindings/AgentEditResult';
import type { AgentHookRules } from '../lib/bindings/AgentHookRules';
import type { NewAgentHook } from '../lib/bindings/NewAgentHook';
import { lineDiff } from '../lib/diff';
import type { AgentHook, AgentHookFile } from '../lib/types';
import { h } from './dom';
import { renderDiff } from './hooks-diff';
import { modal } from './modal';
import { keptNote } from '../lib/backup';

/** The Add form's fields, as typed. */
export interface AddFields {
  event: string;
  matcher: string;
  command: string;
  timeout: string;
  name: string;
}

/** Whether `event` of the agent takes a matcher. */
export function takesMatcher(rules: AgentHookRules, event: string): boolean {
  return rules.matcher_events.includes(event);
}

/** The timeout field's label: `Timeout (seconds)`, Gemini CLI's `Timeout (milliseconds)`. */
export function timeoutLabel(rules: AgentHookRules): string {
  return `Timeout (${rules.timeout_unit})`;
}

/** The hook the form asks for, or what is wrong with it (the core checks the rest). */
export function newHookOf(rules: AgentHookRules, f: AddFields): { hook: NewAgentHook } | { error: string } {
  if (!rules.events.includes(f.event)) return { error: `Choose one of ${rules.label}\u2019s events.` };
  const command = f.command.trim();
  if (command === '') return { error: 'The command is empty: the hook would never run.' };
  const t = f.timeout.trim();
  let timeout: number | null = null;
  if (t !== '') {
    const n = Number(t);
    if (!Number.isInteger(n) || n < 1) return { error: `The timeout is whole ${rules.timeout_unit}, 1 or more (empty: ${rules.label}\u2019s default).` };
    timeout = n;
  }
  const matcher = takesMatcher(rules, f.event) && f.matcher.trim() !== '' ? f.matcher.trim() : null;
  const name = rules.named && f.name.trim() !== '' ? f.name.trim() : null;
  return { hook: { event: f.event, matcher, command, timeout, name } };
}

/** The form filled in with a listed hook, in the agent's units (Gemini CLI's milliseconds). */
export function fieldsOf(rules: AgentHookRules, hook: AgentHook): AddFields {
  const timeout = hook.timeout_secs === null ? '' : String(Math.round(rules.timeout_unit === 'milliseconds' ? hook.timeout_secs * 1000 : hook.timeout_secs));
  return { event: hook.event, matcher: hook.matcher ?? '', command: hook.command ?? '', timeout, name: hook.name ?? '' };
}

/** The change of a listed hook (named by its place and command, as shown) into `to`. */
export function changeOf(hook: AgentHook, to: NewAgentHook): AgentEdit {
  return { kind: 'change', json_path: hook.json_path, command: hook.command, hook: to };
}

/** The removal of a listed hook: its place and its command, as shown. */
export function removalOf(hook: AgentHook): AgentEdit {
  return { kind: 'remove', json_path: hook.json_path, command: hook.command };
}

/** What an applied edit did, in a sentence. */
export function editDone(edit: AgentEdit, result: AgentEditResult, fileLabel: string): string {
  const event = result.events[0] ?? (edit.kind === 'add' ? edit.hook.event : '');
  if (!result.written) return `Nothing changed in ${fileLabel}.`;
  const kept = keptNote(result.backup);
  const backup = kept ? ` ${kept[0]!.toUpperCase()}${kept.slice(1)}.` : '';
  if (edit.kind === 'change') return `Changed a ${event} hook in ${fileLabel}.${backup}`;
  return edit.kind === 'add' ? `Added a ${event} hook to ${fileLabel}.${backup}` : `Removed a ${event} hook from ${fileLabel}.${backup}`;
}

/** What was done to a file, shown on its tab until the next edit. */
export interface EditNotice {
  text: string;
  notes: string[];
}

const notices = new Map<string, EditNotice>();

/** Shows `notice` on the tab of the file at `path` (a disable or an enable made from its table). */
export function setNotice(path: string, notice: EditNotice): void {
  notices.set(path, notice);
}

/** The notice of the last edit of the file at `path`, if it was edited in this session. */
export function noticeFor(path: string): EditNotice | null {
  return notices.get(path) ?? null;
}

let rulesOnce: Promise<AgentHookRules[]> | null = null;

/** Every other agent's form rules, asked once. */
function allRules(): Promise<AgentHookRules[]> {
  rulesOnce ??= api.agent_hook_rules().catch((err: unknown) => {
    rulesOnce = null;
    throw err;
  });
  return rulesOnce;
}

/** The row of the focus after an edit: the added hook's, the changed one's, or the one after the removed one. */
export function focusTarget(rows: HTMLElement[], edit: AgentEdit, removedIndex: number): HTMLElement | null {
  if (edit.kind === 'change') return rows[removedIndex] ?? null;
  if (edit.kind === 'add') {
    const mine = rows.filter((r) => r.dataset.event === edit.hook.event && r.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') === edit.hook.command);
    return mine.at(-1) ?? null;
  }
  return rows[removedIndex] ?? rows[removedIndex - 1] ?? null;
}

/** What the dialog does: add a hook, or change or remove a listed one. */
export type AgentHookAction = { kind: 'add' } | { kind: 'change' | 'remove'; hook: AgentHook; index: number };

export interface AgentHookDialogOptions {
  /** The project whose tab shows the file. */
  project: string;
  file: AgentHookFile;
  /** The file for a person (`Codex CLI · Global`). */
  fileLabel: string;
  /** Add a hook, or change or remove this one (its index among the file's hooks). */
  action: AgentHookAction;
  /** Reloads the screen after an apply; the dialog then places the focus. */
  reload(): Promise<void>;
  /** Shows an error that is not the dialog's own. */
  onError(err: unknown, context: string): void;
  /** Where the focus goes back to on Cancel. */
  returnFocus: HTMLElement | null;
}

/** Opens the dialog over the document. */
export function openAgentHookDialog(opts: AgentHookDialogOptions): { close(): void } {
  const { file, action } = opts;
  // The form is for an addition and a change; a change keeps the event.
  const adding = action.kind !== 'remove';
  const changing = action.kind === 'change';
  const verb = action.kind === 'add' ? 'Add hook' : action.kind === 'change' ? 'Change hook' : 'Remove hook';
  let preview: AgentEditPreview | null = null;
  let edit: AgentEdit | null = action.kind === 'remove' ? removalOf(action.hook) : null;
  let rules: AgentHookRules | null = null;
  let seq = 0;
  let busy = false;

  const field = (id: string, label: string, control: HTMLElement, note?: HTMLElement): HTMLElement =>
    h('div', { class: 'connect-field', attrs: { id: `${id}-field` } }, h('label', { class: 'field-label', attrs: { for: id }, text: label }), control, note ?? null);
  const event = h('select', { id: 'agent-hook-event', class: 'select' });
  const matcher = h('input', { id: 'agent-hook-matcher', class: 'text-input mono', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'empty: every tool' } });
  const matcherNote = h('p', { id: 'agent-hook-matcher-note', class: 'muted small-note' });
  const command = h('input', { id: 'agent-hook-command', class: 'text-input mono', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: './scripts/guard.sh' } });
  const timeout = h('input', { id: 'agent-hook-timeout', class: 'text-input', attrs: { type: 'number', min: '1', step: '1', inputmode: 'numeric' } });
  const timeoutNote = h('p', { id: 'agent-hook-timeout-note', class: 'muted small-note' });
  const name = h('input', { id: 'agent-hook-name', class: 'text-input mono', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false' } });
  const timeoutField = field('agent-hook-timeout', 'Timeout', timeout, timeoutNote);
  const matcherField = field('agent-hook-matcher', 'Matcher', matcher, matcherNote);
  const nameField = field('agent-hook-name', 'Name', name, h('p', { class: 'muted small-note', text: 'Gemini CLI\u2019s hooks.disabled list names hooks by it (optional).' }));
  nameField.hidden = true;
  const formError = h('p', { id: 'agent-hook-form-error', class: 'connect-conflict', attrs: { role: 'alert', hidden: true } });
  const form = h(
    'form',
    { id: 'agent-hook-form', class: 'connect-fields agent-hook-fields', on: { submit: (ev) => { ev.preventDefault(); void review(); } } },
    field('agent-hook-event', 'Event', event),
    matcherField,
    field('agent-hook-command', 'Command', command),
    timeoutField,
    nameField,
  );
  const summary = h('p', { id: 'agent-hook-summary', class: 'connect-summary', attrs: { 'aria-live': 'polite' } });
  const notesHost = h('div', { id: 'agent-hook-notes' });
  const conflict = h('p', { id: 'agent-hook-conflict', class: 'connect-conflict', attrs: { hidden: true, role: 'alert' } });
  const diffHost = h('div', { class: 'connect-diff-host', attrs: { 'aria-busy': 'false' } });
  const cancel = h('button', { id: 'agent-hook-cancel', class: 'button', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => shown.close() } });
  const reviewButton = h('button', { id: 'agent-hook-review', class: 'button', attrs: { type: 'submit', form: 'agent-hook-form' }, text: 'Review change' });
  const apply = h('button', { id: 'agent-hook-apply', class: 'button primary', attrs: { type: 'button', disabled: true }, text: verb, on: { click: () => void doApply() } });

  const title = action.kind === 'add' ? `Add a hook to ${opts.fileLabel}` : action.kind === 'change' ? `Change a hook of ${opts.fileLabel}` : `Remove a hook from ${opts.fileLabel}`;
  const dialog = h(
    'div',
    { id: 'agent-hook-dialog', class: 'modal connect-dialog agent-hook-dialog', data: { agent: file.agent, action: opts.action.kind }, attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'agent-hook-title', 'aria-describedby': 'agent-hook-intro' } },
    h('h2', { id: 'agent-hook-title', class: 'modal-title', text: title }),
    h(
      'p',
      { id: 'agent-hook-intro', class: 'muted' },
      changing
        ? `This hook changes where it stands, in ${file.label}\u2019s own terms; its event and its other keys stay. `
        : adding
          ? `A hook in ${file.label}\u2019s own terms: its events, its matcher rules, its timeout unit. `
          : 'This hook and only this one goes; its group or event list goes only if nothing else is left in it. ',
      'Nothing is written until you press ',
      h('strong', { text: verb }),
      '; every other byte of ',
      h('code', { text: file.path }),
      ' stays as it is.',
    ),
    adding ? form : h('p', { class: 'mono agent-hook-removed', text: action.kind === 'remove' ? `${action.hook.event}${action.hook.matcher !== null ? ` (${action.hook.matcher})` : ''}: ${action.hook.command ?? action.hook.handler_type}` : '' }),
    formError,
    summary,
    notesHost,
    conflict,
    diffHost,
    h('div', { class: 'modal-actions' }, cancel, adding ? reviewButton : null, apply),
  );
  const shown = modal(dialog, opts.returnFocus);

  function fields(): AddFields {
    return { event: event.value, matcher: matcher.value, command: command.value, timeout: timeout.value, name: name.value };
  }

  /** Shows the matcher only where the chosen event takes one. */
  function describeEvent(): void {
    if (!rules) return;
    const yes = takesMatcher(rules, event.value);
    matcher.disabled = !yes;
    matcherNote.textContent = yes ? `${file.label} matches it against the tool (empty: every tool).` : `${file.label} takes no matcher on ${event.value}.`;
  }

  /** A changed field makes the preview stale: it must be reviewed again. */
  function stale(): void {
    if (preview === null && diffHost.childElementCount === 0) return;
    seq++;
    preview = null;
    apply.disabled = true;
    diffHost.replaceChildren();
    notesHost.replaceChildren();
    summary.textContent = 'Review the change again to see what would be written.';
  }

  async function review(keepConflict = false): Promise<void> {
    if (adding) {
      if (!rules) return;
      const asked = newHookOf(rules, fields());
      if ('error' in asked) {
        formError.textContent = asked.error;
        formError.hidden = false;
        return;
      }
      formError.hidden = true;
      edit = action.kind === 'change' ? changeOf(action.hook, asked.hook) : { kind: 'add', hook: asked.hook };
    }
    if (edit === null) return;
    const mine = ++seq;
    if (!keepConflict) conflict.hidden = true;
    apply.disabled = true;
    diffHost.setAttribute('aria-busy', 'true');
    summary.textContent = 'Working out the change…';
    try {
      const next = await api.agent_hook_preview({ project: opts.project, path: file.path, edit });
      if (shown.closed || mine !== seq) return;
      preview = next;
      const what = next.events[0] ?? '';
      summary.textContent = next.changes ? (changing ? `Changes the ${what} hook in ${file.path}:` : adding ? `Adds a ${what} hook to ${file.path}:` : `Removes the ${what} hook from ${file.path}:`) : 'Nothing would change.';
      notesHost.replaceChildren(...next.notes.map((n) => h('p', { class: 'connect-note', data: { testid: 'agent-hook-note' }, text: n })));
      diffHost.replaceChildren(renderDiff(lineDiff(next.before, next.after), next.path));
      apply.disabled = !next.changes || busy;
      if (adding && next.changes) apply.focus();
    } catch (err) {
      if (shown.closed || mine !== seq) return;
      preview = null;
      const e = err as { message?: string };
      summary.textContent = `Cannot make this change: ${e.message ?? String(err)}`;
      diffHost.replaceChildren();
      notesHost.replaceChildren();
    } finally {
      if (!shown.closed && mine === seq) diffHost.setAttribute('aria-busy', 'false');
    }
  }

  async function doApply(): Promise<void> {
    if (!preview || !edit || busy || !preview.changes) return;
    busy = true;
    apply.disabled = true;
    const done = edit;
    try {
      const result = await api.agent_hook_apply({ project: opts.project, path: file.path, edit: done, version: preview.version });
      if (shown.closed) return;
      notices.set(file.path, { text: editDone(done, result, opts.fileLabel), notes: result.notes });
      // The tab reloads; the focus goes to the row, not back to a button that is gone.
      shown.close();
      await opts.reload();
      const rows = [...document.querySelectorAll<HTMLElement>('#hooks-agent-file [data-testid="agent-hook"]')];
      const target = focusTarget(rows, done, action.kind === 'add' ? -1 : action.index) ?? document.querySelector<HTMLElement>('#hooks-agent-add') ?? document.querySelector<HTMLElement>('#hooks-agent-file-done');
      target?.focus();
    } catch (err) {
      if (shown.closed) return;
      const e = err as { kind?: string };
      busy = false;
      if (e.kind === 'conflict') {
        conflict.textContent = 'The file changed on disk since this preview, so nothing was written. Below is the change as it would be now; press Apply again to write it.';
        conflict.hidden = false;
        await review(true);
        return;
      }
      opts.onError(err, changing ? 'Could not change the hook' : adding ? 'Could not add the hook' : 'Could not remove the hook');
      apply.disabled = false;
    } finally {
      busy = false;
    }
  }

  for (const input of [matcher, command, timeout, name]) input.addEventListener('input', stale);
  event.addEventListener('change', () => {
    describeEvent();
    stale();
  });
  document.body.append(shown.backdrop);
  notices.delete(file.path);
  if (adding) {
    event.focus();
    summary.textContent = 'Loading the events…';
    allRules()
      .then((all) => {
        if (shown.closed) return;
        rules = all.find((r) => r.agent === file.agent) ?? null;
        if (!rules) {
          summary.textContent = `hookd does not know ${file.label}\u2019s events.`;
          return;
        }
        event.replaceChildren(...rules.events.map((e) => h('option', { attrs: { value: e }, text: e })));
        timeoutField.querySelector('label')!.textContent = timeoutLabel(rules);
        timeoutNote.textContent = `Empty: ${rules.label}\u2019s default. Written as "${rules.timeout_key}" in ${rules.timeout_unit}.`;
        nameField.hidden = !rules.named;
        if (action.kind === 'change') {
          const was = fieldsOf(rules, action.hook);
          event.value = was.event;
          event.disabled = true;
          matcher.value = was.matcher;
          command.value = was.command;
          timeout.value = was.timeout;
          name.value = was.name;
        }
        describeEvent();
        summary.textContent = '';
        (changing ? command : event).focus();
      })
      .catch((err: unknown) => {
        if (shown.closed) return;
        summary.textContent = `Cannot load ${file.label}\u2019s events: ${(err as { message?: string }).message ?? String(err)}`;
      });
  } else {
    cancel.focus();
    void review();
  }
  return { close: () => shown.close() };
}
