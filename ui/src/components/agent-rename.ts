// The Rename dialog of the Timeline: gives an agent a name of the user's
// choosing (the label `hookd agents label ID NAME` sets, kept in hookd's
// registry), shown instead of `main 3f2a9c1d` wherever the agent appears.
// An empty name removes the label, so the agent is shown by its type and
// short id again.
//
// A small modal: focus starts in the name field and stays inside (Tab and
// Shift+Tab cycle); Enter saves, Esc or Cancel closes; focus then goes back
// to what opened it. A failed save keeps the dialog open and says why.

import '../styles/connect.css';
import { api, normalizeError } from '../lib/api';
import { h } from './dom';
import { modal } from './modal';

export interface AgentRenameOptions {
  /** The agent's id. */
  agent: string;
  /** The name shown now (a label, or type and short id). */
  name: string;
  /** The label given now, if any: the field starts with it. */
  label: string | null;
  /** After the label was saved (the dialog has closed); `label` is null when removed. */
  onSaved(label: string | null): void;
  /** Where focus goes back to when the dialog closes. */
  returnFocus?: HTMLElement | null;
}

export interface AgentRenameDialog {
  el: HTMLElement;
  close(): void;
}


/** Opens the dialog (appended to `host`). */
export function openAgentRename(host: HTMLElement, opts: AgentRenameOptions): AgentRenameDialog {
  const input = h('input', {
    id: 'agent-rename-input',
    class: 'text-input',
    attrs: { type: 'text', name: 'label', autocomplete: 'off', spellcheck: 'false', maxlength: 200, placeholder: opts.name, 'aria-describedby': 'agent-rename-hint' },
  });
  input.value = opts.label ?? '';
  const problem = h('p', { id: 'agent-rename-error', class: 'field-error', attrs: { role: 'alert', hidden: true } });
  const save = h('button', { id: 'agent-rename-save', class: 'button primary', attrs: { type: 'submit' }, text: 'Save' });
  const reset = h('button', {
    id: 'agent-rename-clear',
    class: 'button',
    attrs: { type: 'button', title: 'Remove the name: show the agent by its type and short id', hidden: opts.label === null },
    text: 'Remove name',
    on: { click: () => void submit('') },
  });
  const cancel = h('button', { id: 'agent-rename-cancel', class: 'button', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => close() } });
  const form = h(
    'form',
    {
      id: 'agent-rename',
      class: 'modal agent-rename',
      attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'agent-rename-title' },
      on: { submit: (ev) => { ev.preventDefault(); void submit(input.value); } },
    },
    h('h2', { id: 'agent-rename-title', class: 'modal-title', text: 'Rename agent' }),
    h('p', { id: 'agent-rename-hint', class: 'muted small-note' }, 'Agent ', h('code', { class: 'mono', text: opts.agent }), ', shown as ', h('strong', { text: opts.name }), '. The name is kept by hookd for every project (', h('code', { text: 'hookd agents label' }), ' sets the same); leave it empty to remove it.'),
    h('label', { class: 'field-label', attrs: { for: 'agent-rename-input' }, text: 'Name' }),
    input,
    problem,
    h('div', { class: 'modal-actions' }, reset, cancel, save),
  );
  const shown = modal(form, opts.returnFocus);
  const backdrop = shown.backdrop;

  let busy = false;
  async function submit(value: string): Promise<void> {
    if (busy) return;
    busy = true;
    save.disabled = true;
    form.setAttribute('aria-busy', 'true');
    const label = value.trim();
    try {
      await api.set_agent_label({ agent: opts.agent, label });
      close();
      opts.onSaved(label === '' ? null : label);
    } catch (err) {
      problem.textContent = `Could not rename the agent: ${normalizeError(err).message}`;
      problem.hidden = false;
      input.focus();
    } finally {
      busy = false;
      save.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  function close(): void {
    shown.close();
  }

  host.append(backdrop);
  input.focus();
  input.select();
  return { el: backdrop, close };
}
