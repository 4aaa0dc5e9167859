// Whether a hook really runs for the project, and every reason it does not,
// as the core's `settings::runs` says it (the editor, the Effective view and
// the Test bench show the same words; the UI never restates the rules). A
// managed guard in a record-only project must not look like it guards
// anything.

import type { RunVerdict } from '../lib/types';
import { h } from './dom';

/** `runs` or `does not run` (the core's words). */
export function runsText(verdict: RunVerdict): string {
  return verdict.runs ? 'runs' : 'does not run';
}

/** The list of reasons it does not run (null when it runs). */
export function renderReasons(verdict: RunVerdict): HTMLElement | null {
  return verdict.reasons.length > 0
    ? h('ul', { class: 'runs-reasons' }, ...verdict.reasons.map((r) => h('li', { data: { testid: 'runs-reason', code: r.code }, text: r.message })))
    : null;
}

/**
 * The badge and, when it does not run, the list of reasons (`reasons:
 * false`: the badge alone, the caller shows `renderReasons` elsewhere).
 */
export function renderVerdict(verdict: RunVerdict, opts: { reasons?: boolean } = {}): HTMLElement {
  const badge = h('span', {
    class: `badge runs-badge ${verdict.runs ? 'runs-yes' : 'runs-no'}`,
    data: { testid: 'runs-badge' },
    text: verdict.runs ? '✓ runs' : '✗ does not run',
  });
  return h(
    'div',
    { class: 'runs-verdict', data: { testid: 'runs-verdict', runs: String(verdict.runs), codes: verdict.reasons.map((r) => r.code).join(' ') } },
    badge,
    opts.reasons === false ? null : renderReasons(verdict),
  );
}
