// A matcher text field with live validation: as the user types, the
// backend's matcher parser says whether it is an exact list, a regex or
// "everything", which known tools (or values) it matches, or where the
// regex is broken (with a caret under the position). Whether a matcher is a
// valid pattern is the backend's answer (hookd-core's parser), never decided
// here: the add form asks `settle()` before it takes a matcher.

import { api } from '../lib/api';
import { debounce } from '../lib/debounce';
import type { MatcherCheck } from '../lib/types';
import { h } from './dom';

/** A matcher field bound to an event. */
export interface MatcherField {
  /** The input (its value is the matcher text). */
  input: HTMLInputElement;
  /** The live status under it. */
  status: HTMLElement;
  /** Checks the current text now (e.g. after the event changed). */
  check(): void;
  /** The backend's check of the text in the field now, or null while it is being checked. */
  current(): MatcherCheck | null;
  /** The check of the text in the field now: the one shown if it is current, else a fresh one (null if the backend failed). */
  settle(): Promise<MatcherCheck | null>;
  /** Changes the event the matcher belongs to. */
  setEvent(event: string): void;
  /** Stops pending checks. */
  destroy(): void;
}

/** The status line for a check result, for people. */
export function describeCheck(check: MatcherCheck, event: string): string {
  if (!check.ok) return check.error ?? 'invalid matcher';
  if (!check.supported) return `${event} ignores matchers: every group of it runs`;
  const what = check.field === 'tool_name' ? 'known tools' : `known ${check.field ?? 'values'}`;
  if (check.kind === 'all') return `matches everything (all ${check.known} ${what})`;
  const kind = check.kind === 'exact' ? 'exact names' : 'regex (unanchored)';
  if (check.known === 0) return `${kind}; ${event}'s ${check.field ?? 'values'} are open-ended`;
  if (check.matches.length === 0) {
    return `${kind}; matches none of the ${check.known} ${what}${check.field === 'tool_name' ? ' (MCP tools mcp__… may still match)' : ''}`;
  }
  return `${kind}; matches ${check.matches.length === check.known ? 'all' : `${check.matches.length} of`} ${check.known} ${what}: ${check.matches.join(', ')}`;
}

/**
 * Why a matcher cannot go into a new hook (or, `to` = 'save the file', an
 * edited group), for people, or null when it can: the backend's error (it
 * names the position the regex compiler reports).
 */
export function matcherRefusal(check: MatcherCheck | null, to = 'add the hook'): string | null {
  if (!check || check.ok) return null;
  return `The matcher is not a valid pattern: ${check.error ?? 'invalid matcher'}. Fix it to ${to}.`;
}

/**
 * Creates a matcher field; `onChange` gets the text as typed, `onCheck`
 * each check of the current text as it lands (null: being checked).
 */
export function createMatcherField(opts: {
  event: string;
  value: string | null;
  id?: string;
  testid?: string;
  label: string;
  onChange?: (text: string) => void;
  onCheck?: (check: MatcherCheck | null) => void;
}): MatcherField {
  let event = opts.event;
  let seq = 0;
  let destroyed = false;
  // The last check shown, and the event and text it was for.
  let shown: { check: MatcherCheck; event: string; text: string } | null = null;
  const status = h('div', { class: 'matcher-status', data: { testid: 'matcher-status', state: 'pending' }, attrs: { 'aria-live': 'polite' } });
  if (opts.id) status.id = `${opts.id}-status`;
  const input = h('input', {
    class: 'text-input mono matcher-input',
    attrs: {
      type: 'text',
      value: opts.value ?? '',
      placeholder: 'empty: everything · Bash · Write|Edit · mcp__.*',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-label': opts.label,
      'aria-describedby': opts.id ? `${opts.id}-status` : null,
    },
  });
  if (opts.id) input.id = opts.id;
  if (opts.testid) input.dataset.testid = opts.testid;
  input.value = opts.value ?? '';

  function show(check: MatcherCheck): void {
    status.dataset.state = !check.ok ? 'error' : check.supported ? 'ok' : 'ignored';
    status.dataset.kind = check.kind ?? '';
    if (check.ok) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
    const children: Node[] = [h('span', { class: 'matcher-text', text: describeCheck(check, event) })];
    if (!check.ok && check.position !== null) {
      children.push(h('pre', { class: 'matcher-caret', data: { testid: 'matcher-caret' }, text: `${input.value}\n${' '.repeat(check.position)}^` }));
    }
    status.replaceChildren(...children);
  }

  function current(): MatcherCheck | null {
    return shown && shown.event === event && shown.text === input.value ? shown.check : null;
  }

  async function run(): Promise<MatcherCheck | null> {
    const mine = ++seq;
    const text = input.value;
    const forEvent = event;
    try {
      const check = await api.check_matcher({ event: forEvent, text: text.trim() === '' ? null : text });
      if (!destroyed && mine === seq) {
        shown = { check, event: forEvent, text };
        show(check);
        opts.onCheck?.(check);
      }
      return check;
    } catch (err) {
      if (destroyed || mine !== seq) return null;
      status.dataset.state = 'error';
      status.textContent = err instanceof Error ? err.message : String(err);
      return null;
    }
  }
  const later = debounce(() => void run(), 150);
  input.addEventListener('input', () => {
    opts.onChange?.(input.value);
    opts.onCheck?.(null);
    later();
  });
  void run();
  return {
    input,
    status,
    check: () => void run(),
    current,
    async settle() {
      const now = current();
      if (now) return now;
      later.cancel();
      return run();
    },
    setEvent(next) {
      event = next;
      opts.onCheck?.(current());
      void run();
    },
    destroy() {
      destroyed = true;
      later.cancel();
    },
  };
}
