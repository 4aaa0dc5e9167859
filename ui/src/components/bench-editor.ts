// The test bench's payload editor: a plain textarea with JSON validation
// that names the line and column of the first error, and buttons to format
// the text and jump to the error.

import { checkJson, formatJsonError, type JsonCheck } from '../lib/bench-json';
import { formatPayload } from '../lib/bench-payload';
import type { JsonValue } from '../lib/types';
import { h } from './dom';

export interface PayloadEditor {
  el: HTMLElement;
  /** The text as typed. */
  text(): string;
  /** Replaces the text (and validates it); does not call `onChange`. */
  setText(text: string): void;
  /** The last validation result. */
  check(): JsonCheck;
  /** The payload when it is valid JSON and an object, else null. */
  payload(): { [key in string]: JsonValue } | null;
  /** The textarea, for focus. */
  textarea: HTMLTextAreaElement;
}

/** `onChange` runs after each edit, with the validation result. */
export function createPayloadEditor(onChange: (check: JsonCheck) => void): PayloadEditor {
  const textarea = h('textarea', {
    id: 'bench-payload',
    class: 'bench-payload mono',
    attrs: {
      rows: 18,
      spellcheck: 'false',
      autocomplete: 'off',
      autocapitalize: 'off',
      wrap: 'off',
      'aria-describedby': 'bench-payload-status',
    },
  });
  const status = h('div', { id: 'bench-payload-status', class: 'bench-payload-status', attrs: { 'aria-live': 'polite' } });
  const message = h('span', { id: 'bench-payload-error', class: 'bench-json-error', attrs: { hidden: true } });
  const ok = h('span', { class: 'bench-json-ok muted', text: 'Valid JSON object' });
  const jump = h('button', {
    id: 'bench-payload-goto',
    class: 'link-button',
    attrs: { type: 'button', hidden: true },
    text: 'Go to the error',
    on: { click: () => goToError() },
  });
  status.append(ok, message, ' ', jump);
  const format = h('button', {
    id: 'bench-payload-format',
    class: 'button small',
    attrs: { type: 'button', title: 'Indent the payload with two spaces' },
    text: 'Format',
    on: {
      click: () => {
        const c = checkJson(textarea.value);
        if (!c.ok) {
          goToError();
          return;
        }
        textarea.value = formatPayload(c.value);
        validate();
        onChange(last);
      },
    },
  });

  let last: JsonCheck = checkJson('');

  function validate(): void {
    last = checkJson(textarea.value);
    let problem: string | null = null;
    if (!last.ok) problem = formatJsonError(last);
    else if (last.value === null || typeof last.value !== 'object' || Array.isArray(last.value))
      problem = 'the payload must be a JSON object (what the agent sends on stdin), not ' + (Array.isArray(last.value) ? 'an array' : typeof last.value === 'object' ? 'null' : `a ${typeof last.value}`);
    textarea.setAttribute('aria-invalid', String(problem !== null));
    message.hidden = problem === null;
    ok.hidden = problem !== null;
    jump.hidden = last.ok;
    message.textContent = problem ?? '';
    if (!last.ok) {
      message.dataset.line = String(last.line);
      message.dataset.column = String(last.column);
    } else {
      delete message.dataset.line;
      delete message.dataset.column;
    }
  }

  function goToError(): void {
    if (last.ok) return;
    textarea.focus();
    textarea.setSelectionRange(last.offset, Math.min(last.offset + 1, textarea.value.length));
  }

  textarea.addEventListener('input', () => {
    validate();
    onChange(last);
  });
  textarea.addEventListener('keydown', (ev) => {
    // Tab inserts two spaces (JSON is indented); Esc then Tab leaves, as in other editors.
    if (ev.key === 'Tab' && !ev.shiftKey && !ev.altKey && !ev.ctrlKey && !ev.metaKey && textarea.dataset.tabOut !== 'true') {
      ev.preventDefault();
      const { selectionStart: a, selectionEnd: b, value } = textarea;
      textarea.value = `${value.slice(0, a)}  ${value.slice(b)}`;
      textarea.setSelectionRange(a + 2, a + 2);
      validate();
      onChange(last);
    } else if (ev.key === 'Escape') {
      textarea.dataset.tabOut = 'true';
    } else {
      delete textarea.dataset.tabOut;
    }
  });
  textarea.addEventListener('blur', () => delete textarea.dataset.tabOut);

  const el = h(
    'div',
    { class: 'bench-editor' },
    h('div', { class: 'bench-editor-bar' }, h('label', { class: 'field-label', attrs: { for: 'bench-payload' }, text: 'Payload (stdin JSON)' }), format),
    textarea,
    status,
    h('p', { class: 'muted small-note', text: 'Tab indents; press Esc, then Tab, to leave the editor.' }),
  );
  validate();

  return {
    el,
    textarea,
    text: () => textarea.value,
    setText(text) {
      textarea.value = text;
      validate();
    },
    check: () => last,
    payload() {
      if (!last.ok || last.value === null || typeof last.value !== 'object' || Array.isArray(last.value)) return null;
      return last.value;
    },
  };
}
