// The Connect dialog of the Projects screen: `hookd connect` for one
// project, with the coding agent, the scope and the mode to choose and the
// exact change to the agent's hooks file shown before anything is written
// (and what the agent asks before it runs the entries, e.g. Codex's trust,
// and what keeps it from running them at all, e.g. an administrator's
// switch in Codex's requirements.toml, in a warning block before Apply).
//
// A modal: focus stays inside (Tab and Shift+Tab cycle), Esc or Cancel
// closes it and focus goes back to the button that opened it. Apply sends
// the preview's version; a file changed meanwhile comes back as a
// `conflict`, and the dialog then shows the new change instead of writing.

import '../styles/connect.css';
import { api } from '../lib/api';
import { CONNECT_ACTIONS, CONNECT_AGENTS, connectScopes, defaultScope, foldDiff, previewSummary, type ConnectAction } from '../lib/connect';
import { diffStat, lineDiff } from '../lib/diff';
import type { ConnectPreview, ConnectResult, Scope, ProjectInfo } from '../lib/types';
import { h } from './dom';
import { modal } from './modal';

export interface ConnectDialogOptions {
  project: ProjectInfo;
  /** After a successful apply (the dialog has closed). */
  onApplied(result: ConnectResult, action: ConnectAction, scope: Scope, agent: string): void;
  /** Shows an error that is not the dialog's own (the window's banner). */
  onError(err: unknown, context: string): void;
  /** Where focus goes back to when the dialog closes. */
  returnFocus?: HTMLElement | null;
  /** The scope and action to open with (e.g. switching the file that records now to managed mode), and the agent (Claude Code when left out). */
  initial?: { scope: Scope; action: ConnectAction; agent?: string };
}

export interface ConnectDialog {
  el: HTMLElement;
  close(): void;
}


function renderDiff(p: ConnectPreview): HTMLElement {
  const lines = lineDiff(p.before, p.after);
  const stat = diffStat(lines);
  // A scroll box the keyboard reaches: Tab to it, then the arrow keys and Page Up/Down scroll it.
  const body = h('div', { class: 'diff-body', attrs: { tabindex: 0, role: 'region', 'aria-label': `Lines of ${p.path}` } });
  for (const line of foldDiff(lines)) {
    if (line.op === 'gap') {
      body.append(h('div', { class: 'diff-line diff-gap', data: { op: 'gap' }, text: `⋯ ${line.count} unchanged line${line.count === 1 ? '' : 's'}` }));
      continue;
    }
    body.append(
      h(
        'div',
        { class: `diff-line diff-${line.op}`, data: { op: line.op } },
        h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.oldNo?.toString() ?? '' }),
        h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.newNo?.toString() ?? '' }),
        h('span', { class: 'diff-sign', text: line.op === 'add' ? '+' : line.op === 'del' ? '-' : ' ' }),
        h('span', { class: 'diff-text', text: line.text === '' ? '\u200b' : line.text }),
      ),
    );
  }
  if (lines.length === 0) body.append(h('div', { class: 'diff-line diff-gap', text: '(empty file)' }));
  return h(
    'figure',
    { id: 'connect-diff', class: 'diff connect-diff', data: { added: String(stat.added), removed: String(stat.removed) }, attrs: { 'aria-label': `Change to ${p.path}` } },
    h(
      'figcaption',
      { class: 'diff-caption' },
      h('span', { text: p.exists ? p.path : `${p.path} (new file)` }),
      h('span', { class: 'diff-stat' }, h('span', { class: 'stat-add', text: `+${stat.added}` }), ' ', h('span', { class: 'stat-del', text: `−${stat.removed}` })),
    ),
    body,
  );
}

/**
 * What keeps `agent` from running hookd's entries wherever they are written
 * (an administrator's switch: the core's `connect_warnings`, as `hookd
 * connect` prints them), each sentence as the core says it; `null` when
 * nothing does.
 */
function agentWarnings(warnings: string[], agent: string): HTMLElement | null {
  if (warnings.length === 0) return null;
  const label = CONNECT_AGENTS.find((a) => a.name === agent)?.label ?? agent;
  return h(
    'div',
    { id: 'connect-agent-warnings', class: 'connect-warning connect-agent-warnings', attrs: { role: 'alert' } },
    h('strong', { text: `${label} may not run these entries (Apply still writes them):` }),
    h('ul', {}, ...warnings.map((w) => h('li', { data: { testid: 'connect-agent-warning' }, text: w }))),
  );
}

/** Opens the dialog (appended to `host`). */
export function openConnectDialog(host: HTMLElement, opts: ConnectDialogOptions): ConnectDialog {
  const p = opts.project;
  let preview: ConnectPreview | null = null;
  let seq = 0;
  let busy = false;

  const agent = h('select', { id: 'connect-agent', class: 'select' }, ...CONNECT_AGENTS.map((a) => h('option', { attrs: { value: a.name }, text: a.label })));
  agent.value = opts.initial?.agent ?? 'claude';
  const scope = h('select', { id: 'connect-scope', class: 'select', attrs: { 'aria-describedby': 'connect-scope-note' } });
  function fillScopes(wanted: Scope): void {
    const scopes = connectScopes(agent.value);
    scope.replaceChildren(...scopes.map((s) => h('option', { attrs: { value: s.value }, text: `${s.label} — ${s.file}` })));
    scope.value = scopes.some((s) => s.value === wanted) ? wanted : defaultScope(p, agent.value);
  }
  fillScopes(opts.initial?.scope ?? defaultScope(p, agent.value));
  const scopeNote = h('div', { id: 'connect-scope-note', class: 'muted small-note' });
  const action = h('select', { id: 'connect-mode', class: 'select' }, ...CONNECT_ACTIONS.map((a) => h('option', { attrs: { value: a.value }, text: a.label })));
  if (opts.initial) action.value = opts.initial.action;
  const summary = h('p', { id: 'connect-summary', class: 'connect-summary', attrs: { 'aria-live': 'polite' } });
  const warnings = h('div', { id: 'connect-warnings' });
  const conflict = h('p', { id: 'connect-conflict', class: 'connect-conflict', attrs: { hidden: true, role: 'alert' } });
  const diffHost = h('div', { class: 'connect-diff-host', attrs: { 'aria-busy': 'true' } });
  const cancel = h('button', { id: 'connect-cancel', class: 'button', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => close() } });
  const apply = h('button', { id: 'connect-apply', class: 'button primary', attrs: { type: 'button', disabled: true }, text: 'Apply', on: { click: () => void doApply() } });

  const dialog = h(
    'div',
    {
      id: 'connect-dialog',
      class: 'modal connect-dialog',
      attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'connect-title', 'aria-describedby': 'connect-intro' },
      data: { root: p.root },
    },
    h('h2', { id: 'connect-title', class: 'modal-title', text: `Connect hookd to ${p.name || p.root}` }),
    h(
      'p',
      { id: 'connect-intro', class: 'muted' },
      'Adds entries that call ',
      h('code', { text: 'hookd-emit' }),
      ' to one of the coding agent\u2019s hooks files, so the agent reports every event to hookd (what ',
      h('code', { text: 'hookd connect --agent' }),
      ' does). Nothing is written until you press Apply; your other settings stay as they are.',
    ),
    h(
      'div',
      { class: 'connect-fields' },
      h('div', { class: 'connect-field' }, h('label', { class: 'field-label', attrs: { for: 'connect-agent' }, text: 'Coding agent' }), agent),
      h('div', { class: 'connect-field' }, h('label', { class: 'field-label', attrs: { for: 'connect-scope' }, text: 'Settings file' }), scope, scopeNote),
      h('div', { class: 'connect-field' }, h('label', { class: 'field-label', attrs: { for: 'connect-mode' }, text: 'What to do' }), action),
    ),
    summary,
    warnings,
    conflict,
    diffHost,
    h('div', { class: 'modal-actions' }, cancel, apply),
  );
  const shown = modal(dialog, opts.returnFocus);
  const backdrop = shown.backdrop;

  function describeScope(): void {
    const s = connectScopes(agent.value).find((x) => x.value === scope.value)!;
    scopeNote.textContent = `${s.value === 'global' ? s.file : `${p.root}/${s.file}`}: ${s.note}.`;
  }

  async function load(keepConflict = false): Promise<void> {
    const mine = ++seq;
    const chosen = action.value as ConnectAction;
    const sc = scope.value as Scope;
    const who = agent.value;
    describeScope();
    if (!keepConflict) conflict.hidden = true;
    apply.disabled = true;
    apply.textContent = chosen === 'disconnect' ? 'Disconnect' : 'Apply';
    diffHost.setAttribute('aria-busy', 'true');
    summary.textContent = 'Working out the change…';
    try {
      const next = chosen === 'disconnect' ? await api.disconnect_preview({ project: p.root, agent: who, scope: sc }) : await api.connect_preview({ project: p.root, agent: who, scope: sc, mode: chosen });
      if (shown.closed || mine !== seq) return;
      preview = next;
      dialog.dataset.changes = String(next.changes);
      summary.textContent = previewSummary(next, chosen);
      const notes: HTMLElement[] = [];
      const stopped = agentWarnings(next.warnings, who);
      if (stopped) notes.push(stopped);
      if (stopped) apply.setAttribute('aria-describedby', stopped.id);
      else apply.removeAttribute('aria-describedby');
      if (!next.emit_found) notes.push(h('p', { class: 'connect-warning', text: `${next.emit_command} was not found beside the app nor on PATH: the agent\u2019s hooks will fail until hookd-emit is installed.` }));
      if (next.hooks_disabled) notes.push(h('p', { class: 'connect-warning', text: 'This file sets "disableAllHooks": true, so the agent runs no hook at all (hookd\u2019s included) until it is removed.' }));
      for (const note of next.notes) notes.push(h('p', { class: 'connect-note', data: { testid: 'connect-note' }, text: note }));
      warnings.replaceChildren(...notes);
      diffHost.replaceChildren(next.changes || next.exists ? renderDiff(next) : h('p', { class: 'muted', text: 'The file does not exist; nothing to show.' }));
      apply.disabled = !next.changes || busy;
    } catch (err) {
      if (shown.closed || mine !== seq) return;
      preview = null;
      const e = err as { message?: string };
      summary.textContent = `Cannot prepare the change: ${e.message ?? String(err)}`;
      diffHost.replaceChildren();
    } finally {
      if (!shown.closed && mine === seq) diffHost.setAttribute('aria-busy', 'false');
    }
  }

  async function doApply(): Promise<void> {
    if (!preview || busy || !preview.changes) return;
    const chosen = action.value as ConnectAction;
    const sc = scope.value as Scope;
    const who = agent.value;
    busy = true;
    apply.disabled = true;
    try {
      const result =
        chosen === 'disconnect'
          ? await api.disconnect_apply({ project: p.root, agent: who, scope: sc, version: preview.version })
          : await api.connect_apply({ project: p.root, agent: who, scope: sc, mode: chosen, version: preview.version });
      if (shown.closed) return;
      close();
      opts.onApplied(result, chosen, sc, who);
    } catch (err) {
      if (shown.closed) return;
      const e = err as { kind?: string; message?: string };
      if (e.kind === 'conflict') {
        conflict.textContent = 'The file changed on disk since this preview, so nothing was written. Below is the change as it would be now; press Apply again to write it.';
        conflict.hidden = false;
        busy = false;
        await load(true);
        return;
      }
      opts.onError(err, chosen === 'disconnect' ? 'Could not disconnect' : 'Could not connect');
      apply.disabled = false;
    } finally {
      busy = false;
    }
  }

  function close(): void {
    shown.close();
  }

  agent.addEventListener('change', () => {
    fillScopes(scope.value as Scope);
    void load();
  });
  scope.addEventListener('change', () => void load());
  action.addEventListener('change', () => void load());
  host.append(backdrop);
  agent.focus();
  void load();
  return { el: backdrop, close };
}
