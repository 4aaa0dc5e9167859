// "Copy to…" in the Hook editor: one hook as another coding agent's
// hooks-file entry (Codex CLI, Gemini CLI, Cursor, GitHub Copilot), with
// what degrades on the way, for the user to paste into that agent's file.
// The backend converts (the core's converter, as `hookd hooks convert`);
// nothing is written: hookd writes only Claude Code's files and its own.

import '../styles/connect.css';
import { api } from '../lib/api';
import { CODING_AGENTS } from '../lib/catalogue';
import type { HookCopy, JsonValue } from '../lib/types';
import { h } from './dom';
import { modal, type Modal } from './modal';

/** The hook to copy. */
export interface CopyDialogOptions {
  /** Its event. */
  event: string;
  /** Its group's matcher. */
  matcher: string | null;
  /** The handler, as in the file (or the draft). */
  handler: JsonValue;
  /** Gets the focus back when the dialog closes. */
  returnFocus: HTMLElement | null;
}

/** The agents a hook can be copied to. */
const TARGETS = CODING_AGENTS.filter((a) => a.name !== 'claude');

/** The text of an error for the dialog. */
function message(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'object' && err !== null && 'message' in err ? String((err as { message: unknown }).message) : String(err);
}

/** A list of what degrades, or nothing. */
function notes(title: string, items: string[], testid: string): HTMLElement | null {
  if (items.length === 0) return null;
  return h('section', { class: 'hooks-copy-notes' }, h('h3', { class: 'hooks-section-title', text: title }), h('ul', { data: { testid } }, ...items.map((t) => h('li', { text: t }))));
}

/** Opens the dialog on `document.body`. */
export function openCopyDialog(opts: CopyDialogOptions): Modal {
  let seq = 0;
  const select = h(
    'select',
    { id: 'copy-agent', class: 'text-input', attrs: { 'aria-label': 'Agent to copy the hook to' } },
    ...TARGETS.map((a) => h('option', { attrs: { value: a.name }, text: a.label })),
  );
  const result = h('div', { id: 'copy-result', attrs: { 'aria-live': 'polite', 'aria-busy': 'true' } });
  const status = h('p', { id: 'copy-status', class: 'muted', attrs: { role: 'status' } });
  const copyButton: HTMLButtonElement = h('button', { id: 'copy-json', class: 'button primary', attrs: { type: 'button', disabled: true }, text: 'Copy JSON' });
  const close = h('button', { id: 'copy-close', class: 'button', attrs: { type: 'button' }, text: 'Close' });
  let text = '';

  const command = typeof opts.handler === 'object' && opts.handler !== null && !Array.isArray(opts.handler) && typeof opts.handler.command === 'string' ? opts.handler.command : JSON.stringify(opts.handler);
  const dialog = h(
    'div',
    { id: 'copy-dialog', class: 'modal hooks-copy-dialog', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'copy-title' } },
    h('h2', { id: 'copy-title', class: 'modal-title', text: 'Copy this hook to another agent' }),
    h('p', { class: 'muted' }, h('span', { class: 'mono', text: `${opts.event}${opts.matcher !== null ? ` [${opts.matcher}]` : ''}: ` }), h('code', { text: command })),
    h('label', { class: 'field-label', attrs: { for: 'copy-agent' }, text: 'Agent' }),
    select,
    result,
    status,
    h('div', { class: 'modal-actions' }, copyButton, close),
  );
  const m = modal(dialog, opts.returnFocus);

  function show(copy: HookCopy): void {
    const c = copy.conversion;
    text = copy.text;
    copyButton.disabled = text === '';
    result.setAttribute('aria-busy', 'false');
    result.dataset.agent = copy.agent;
    result.dataset.target = c.target_event ?? '';
    const became =
      c.target_event === null
        ? h('p', { id: 'copy-became', class: 'bench-warning', text: `${copy.label} cannot run this hook: it is left out.` })
        : h('p', { id: 'copy-became' }, 'Becomes ', h('strong', { class: 'mono', text: `${c.target_event}${c.target_matcher !== null ? ` [${c.target_matcher}]` : ''}` }), ` in ${copy.label}'s file.`);
    const parts: (HTMLElement | null)[] = [
      became,
      text === '' ? null : h('pre', { id: 'copy-text', class: 'code-block', attrs: { tabindex: '0', 'aria-label': `The hook as ${copy.label}'s hooks file` }, text }),
      notes('Lost on the way', c.lost, 'copy-lost'),
      notes('Check by hand', c.check, 'copy-check'),
      text === '' ? null : h('p', { class: 'muted', data: { testid: 'copy-files' }, text: `Paste it into ${copy.files}. hookd does not write ${copy.label}'s files.` }),
    ];
    result.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  function load(): void {
    const to = select.value;
    const mine = ++seq;
    result.setAttribute('aria-busy', 'true');
    copyButton.disabled = true;
    status.textContent = '';
    api
      .copy_hook({ event: opts.event, matcher: opts.matcher, handler: opts.handler, to })
      .then((copy) => {
        if (mine === seq && !m.closed) show(copy);
      })
      .catch((err: unknown) => {
        if (mine !== seq || m.closed) return;
        result.setAttribute('aria-busy', 'false');
        result.replaceChildren(h('p', { class: 'field-error', attrs: { role: 'alert' }, text: message(err) }));
      });
  }

  select.addEventListener('change', load);
  close.addEventListener('click', () => m.close());
  copyButton.addEventListener('click', () => {
    const done = (ok: boolean): void => {
      status.textContent = ok ? 'Copied.' : 'The clipboard is not available here: select the text above and copy it.';
    };
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (clipboard === undefined) {
      done(false);
      return;
    }
    clipboard.writeText(text).then(
      () => done(true),
      () => done(false),
    );
  });
  document.body.append(m.backdrop);
  select.focus();
  load();
  return m;
}
