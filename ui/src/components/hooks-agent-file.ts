// The Hook editor's tabs of the other coding agents: one per hooks file of
// Codex CLI, Gemini CLI, Cursor and GitHub Copilot that exists for the
// project (the user's and the project's; Copilot keeps several files per
// scope, one tab each; Codex CLI's config.toml [hooks] is a tab of its own
// beside its hooks.json). A tab shows the file's hooks as a table (the
// agent's event with its Claude Code counterpart, matcher, command, timeout
// in seconds), hookd's own entries marked, and at the top what the agent
// would drop or skip, each with its JSON path. Three edits are made here,
// each reviewed as a diff first (components/agent-hook-dialog.ts): "Add
// hook" (with that agent's event list and field rules), "Edit" on a row
// (the same form, filled in, the event fixed) and "Remove" on a row, in
// the JSON files and in config.toml alike (the core edits its TOML in
// place, every other byte kept).
// hookd's own recording entries are `hookd disconnect --agent`'s to remove;
// anything else is edited with the agent's own tools. An administrator's
// file (scope `policy`: Codex CLI's system layer and requirements.toml,
// Gemini CLI's system settings, Cursor's enterprise file) is shown, one tab
// per file, and never edited: the core refuses to write it too; so is the
// hooks file a Gemini CLI extension ships (tab `Extension · <name>`).
// "Disable" on a row takes the hook out of the file and hookd keeps it
// (the core's agent_disabled, the same store as Claude Code's disabled
// hooks); it is listed greyed after the file's hooks with "Enable", which
// puts it back exactly where it was. Neither needs a review: the file gets
// back its own bytes. The arrows move a hook a place up or down in its
// event (the core swaps it with its neighbour, config.toml's tables too).

import { api } from '../lib/api';
import type { AgentDisabledHook } from '../lib/bindings/AgentDisabledHook';
import type { AgentHook, AgentHookFile, Problem, Scope } from '../lib/types';
import { noticeFor, openAgentHookDialog, setNotice, type AgentHookAction } from './agent-hook-dialog';
import { breakable, h } from './dom';

const SCOPE_TEXT: Record<Scope, string> = { global: 'Global', project: 'Project', local: 'Local', policy: 'Policy' };

/** Whether a file is Codex CLI's config.toml, whose [hooks] are listed beside its hooks.json. */
const isCodexConfig = (f: AgentHookFile): boolean => f.agent === 'codex' && f.name === 'config.toml';

/** Whether a file is the administrator's (read only). */
const isPolicy = (f: AgentHookFile): boolean => f.scope === 'policy';

/** Whether a file is not the user's to edit here: the administrator's, or an extension's. */
const isReadOnly = (f: AgentHookFile): boolean => isPolicy(f) || f.extension !== null;

/** Whether a file is told apart by its name: Copilot's several files, Codex CLI's config.toml beside its hooks.json, an administrator's several files. */
const byName = (f: AgentHookFile): boolean => f.agent === 'copilot' || isCodexConfig(f) || isPolicy(f);

/** A file's key in the route (`agent_file=`): `codex-global`, `codex-global-config.toml`, `copilot-project-guard.json`. */
export function agentFileKey(f: AgentHookFile): string {
  if (f.extension !== null) return `${f.agent}-extension-${f.extension}`;
  return byName(f) ? `${f.agent}-${f.scope}-${f.name}` : `${f.agent}-${f.scope}`;
}

/** A file's tab, under its agent's name: `Global`, `Project · guard.json` (files told apart by name). */
export function agentFileTabLabel(f: AgentHookFile): string {
  if (f.extension !== null) return `Extension · ${f.extension}`;
  return byName(f) ? `${SCOPE_TEXT[f.scope]} · ${f.name}` : SCOPE_TEXT[f.scope];
}

/** A file for a person: `Codex CLI · Global`, `GitHub Copilot · Project · guard.json`. */
export function agentFileLabel(f: AgentHookFile): string {
  return `${f.label} · ${agentFileTabLabel(f)}`;
}

/** A timeout in seconds for a cell: `5 s`, `0.5 s`; empty when the agent's default applies. */
export function formatTimeout(secs: number | null): string {
  if (secs === null) return '';
  return `${Number.isInteger(secs) ? secs : Number(secs.toFixed(3))} s`;
}

/** An event name that may wrap between its words (`before​Shell​Execution`), so a narrow column never pushes the table wider. */
export function eventBreakable(name: string): Node[] {
  const nodes: Node[] = [];
  for (const part of name.split(/(?<=[a-z])(?=[A-Z])/)) {
    if (nodes.length > 0) nodes.push(document.createElement('wbr'));
    nodes.push(document.createTextNode(part));
  }
  return nodes;
}

/** The findings at a hook's place in the file or inside it (`hooks.stop[1]`, `hooks.stop[1].command`). */
export function problemsAt(hook: AgentHook, problems: Problem[]): Problem[] {
  return problems.filter((p) => p.path === hook.json_path || p.path.startsWith(`${hook.json_path}.`) || p.path.startsWith(`${hook.json_path}[`));
}

/** Whether a file's tab gets the problem mark: it could not be read, or the agent would drop something. */
export function hasProblems(f: AgentHookFile): boolean {
  return f.error !== null || f.errors.length > 0;
}

/** The "how this file is changed" line. */
export function editedWith(f: AgentHookFile): string {
  if (f.extension !== null) {
    return `The ${f.label} extension ${f.extension} ships this file. hookd shows it and never writes it; update or disable the extension with ${f.label}.`;
  }
  if (isPolicy(f)) {
    return `The administrator’s file: ${f.label} reads it as a system or managed layer. hookd shows it and never writes it.`;
  }
  if (isCodexConfig(f)) {
    return 'Add, edit, disable or remove a hook here (you review an added, changed or removed one first); every other line of config.toml, its comments and Codex CLI\u2019s trust state included, stays as it is. For anything else edit config.toml with Codex CLI or a text editor; hookd connect --agent codex writes hooks.json beside it, not this file.';
  }
  return `Add, edit, disable or remove a hook here (you review an added, changed or removed one first; a disabled one comes back byte for byte). For anything else edit this file with ${f.label}\u2019s own tools; hookd also writes it with hookd connect --agent ${f.agent} (hookd\u2019s own entries) and hookd hooks convert --to ${f.agent} --write (Claude Code\u2019s hooks converted).`;
}

/** Why a row has no Remove button: hookd's own entry goes with `hookd disconnect`. */
export function disconnectHint(f: AgentHookFile): string {
  return `hookd\u2019s own entry: hookd disconnect --agent ${f.agent} removes it (or the Connect dialog of the Projects screen)`;
}

/** What the tab says once a hook is disabled or enabled. */
export function toggledText(event: string, enabled: boolean, fileLabel: string): string {
  return enabled
    ? `Enabled the ${event} hook of ${fileLabel}: it is back in the file where it was.`
    : `Disabled the ${event} hook of ${fileLabel}: it is out of the file, so the agent does not run it, and hookd keeps it until you enable it.`;
}

/** Disables a listed hook or enables a disabled one, then reloads the tab and puts the focus on its row. */
async function toggle(f: AgentHookFile, editing: AgentFileEditing, hook: { json_path: string; command: string | null }, enabled: boolean): Promise<void> {
  try {
    const done = await api.set_agent_hook_enabled({ project: editing.project, path: f.path, hook: { json_path: hook.json_path, command: hook.command }, enabled, version: f.version });
    setNotice(f.path, { text: toggledText(done.event, enabled, agentFileLabel(f)), notes: done.notes });
    await editing.reload();
    const rows = [...document.querySelectorAll<HTMLElement>(`#hooks-agent-file [data-testid="${enabled ? 'agent-hook' : 'agent-hook-disabled'}"]`)];
    const title = (r: HTMLElement): string | null => r.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') ?? null;
    const target = rows.find((r) => (enabled || r.dataset.path === hook.json_path) && title(r) === hook.command) ?? document.querySelector<HTMLElement>('#hooks-agent-file-done');
    target?.focus();
  } catch (err) {
    editing.onError(err, enabled ? 'Could not enable the hook' : 'Could not disable the hook');
  }
}

/** What the tab says once a hook moved. */
export function movedText(event: string, up: boolean, fileLabel: string): string {
  return `Moved the ${event} hook ${up ? 'up' : 'down'} in ${fileLabel}.`;
}

/** Moves a listed hook a place up or down in its event (the core swaps it with its neighbour, every other byte kept), then reloads the tab and puts the focus on it. */
async function move(f: AgentHookFile, editing: AgentFileEditing, hook: AgentHook, up: boolean): Promise<void> {
  const edit = { kind: 'move' as const, json_path: hook.json_path, command: hook.command, up };
  try {
    const shown = await api.agent_hook_preview({ project: editing.project, path: f.path, edit });
    const done = await api.agent_hook_apply({ project: editing.project, path: f.path, edit, version: shown.version });
    setNotice(f.path, { text: movedText(hook.event, up, agentFileLabel(f)), notes: done.notes });
    await editing.reload();
    const rows = [...document.querySelectorAll<HTMLElement>('#hooks-agent-file [data-testid="agent-hook"]')];
    const target = rows.find((r) => r.dataset.event === hook.event && r.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') === hook.command) ?? document.querySelector<HTMLElement>('#hooks-agent-file-done');
    target?.focus();
  } catch (err) {
    editing.onError(err, 'Could not move the hook');
  }
}

/** What a tab needs to edit its file; without it the tab only shows the file. */
export interface AgentFileEditing {
  /** The project the Hooks screen shows. */
  project: string;
  /** Reloads the screen after an edit. */
  reload(): Promise<void>;
  /** Shows an error in the window's banner. */
  onError(err: unknown, context: string): void;
}

function findings(id: string, cls: string, title: string, problems: Problem[]): HTMLElement | null {
  if (problems.length === 0) return null;
  return h(
    'div',
    { id, class: cls, attrs: { role: 'status' } },
    h('strong', { text: title }),
    h('ul', {}, ...problems.map((p) => h('li', { data: { testid: 'agent-file-problem', path: p.path } }, h('code', { class: 'hooks-agent-json-path', text: p.path }), ` ${p.message}`))),
  );
}

/** The panel of one agent's hooks file; `editing` adds "Add hook" and a Remove button per row. */
export function renderAgentFile(f: AgentHookFile, editing?: AgentFileEditing): HTMLElement {
  const canEdit = editing !== undefined && f.error === null && !isReadOnly(f);
  const open = (action: AgentHookAction, opener: HTMLElement): void => {
    if (!editing) return;
    openAgentHookDialog({ project: editing.project, file: f, fileLabel: agentFileLabel(f), action, reload: editing.reload, onError: editing.onError, returnFocus: opener });
  };
  const rows = f.hooks.map((x, index) => {
    const own = problemsAt(x, f.errors);
    const remove = !canEdit
      ? null
      : x.hookd
        ? h('span', { class: 'muted small-note', data: { testid: 'agent-hook-own' }, attrs: { title: disconnectHint(f) }, text: 'hookd disconnect' })
        : [
          // Changed in place: only a command entry with a command (what the form edits).
          x.handler_type === 'command' && x.command !== null
            ? h('button', {
                class: 'button small hooks-agent-change',
                data: { testid: 'agent-hook-change' },
                attrs: { type: 'button', 'aria-label': `Edit the ${x.event} hook ${x.command}` },
                text: 'Edit',
                on: { click: (ev) => open({ kind: 'change', hook: x, index }, ev.currentTarget as HTMLElement) },
              })
            : null,
          h('button', {
            class: 'button small hooks-agent-disable',
            data: { testid: 'agent-hook-disable' },
            attrs: { type: 'button', 'aria-label': `Disable the ${x.event} hook ${x.command ?? x.handler_type}`, title: 'Take it out of the file (the agent does not run it); hookd keeps it to put back exactly' },
            text: 'Disable',
            on: { click: () => editing && void toggle(f, editing, x, false) },
          }),
          // Up and down within its event.
          h('span', { class: 'hooks-agent-arrows' }, ...([true, false] as const).map((up) => {
            const neighbour = f.hooks[up ? index - 1 : index + 1];
            const edge = neighbour === undefined || neighbour.event !== x.event;
            return h('button', {
              class: 'button small hooks-agent-move',
              data: { testid: up ? 'agent-hook-up' : 'agent-hook-down' },
              attrs: { type: 'button', disabled: edge, 'aria-label': `Move the ${x.event} hook ${x.command ?? x.handler_type} ${up ? 'up' : 'down'}`, title: edge ? `Already the ${up ? 'first' : 'last'} hook of ${x.event}` : `Move it ${up ? 'up' : 'down'} in ${x.event}` },
              text: up ? '↑' : '↓',
              on: { click: () => editing && void move(f, editing, x, up) },
            });
          })),
          h('button', {
            class: 'button small hooks-agent-remove',
            data: { testid: 'agent-hook-remove' },
            attrs: { type: 'button', 'aria-label': `Remove the ${x.event} hook ${x.command ?? x.handler_type}` },
            text: 'Remove',
            on: { click: (ev) => open({ kind: 'remove', hook: x, index }, ev.currentTarget as HTMLElement) },
          }),
        ];
    return h(
      'tr',
      { class: own.length > 0 ? 'hooks-agent-row-error' : '', data: { testid: 'agent-hook', event: x.event, claudeEvent: x.claude_event ?? '', hookd: String(x.hookd), path: x.json_path }, attrs: { tabindex: canEdit ? -1 : null } },
      h('td', { class: 'mono hooks-event-name', attrs: { title: x.json_path } }, ...eventBreakable(x.event)),
      h('td', { class: 'mono hooks-event-name', data: { testid: 'agent-hook-claude' } }, ...(x.claude_event !== null ? eventBreakable(x.claude_event) : [h('span', { class: 'muted', attrs: { title: 'Claude Code has no such event' }, text: '—' })])),
      h('td', { class: 'mono', attrs: { title: x.matcher ?? null } }, ...breakable(x.matcher ?? '')),
      h(
        'td',
        { class: 'mono hooks-summary', data: { testid: 'agent-hook-command' }, attrs: { title: x.command ?? null } },
        x.handler_type !== 'command' ? h('span', { class: 'badge badge-off', text: x.handler_type }) : null,
        x.handler_type !== 'command' ? ' ' : null,
        ...(x.command !== null ? breakable(x.command) : x.handler_type === 'command' ? [h('span', { class: 'muted', text: '(no command)' })] : []),
        x.hookd ? h('span', { class: 'badge hooks-agent-hookd', data: { testid: 'agent-hook-hookd' }, attrs: { title: 'hookd\u2019s own entry (hookd connect --agent): it hands each event to hookd' }, text: 'records for hookd' }) : null,
        ...own.map((p) => h('span', { class: 'hooks-agent-row-problem', data: { testid: 'agent-hook-error' }, text: `⚠ ${p.message}` })),
      ),
      h('td', { class: 'num', text: formatTimeout(x.timeout_secs) }),
      // The buttons wrap inside their cell rather than push the table wider.
      canEdit ? h('td', { class: 'hooks-agent-actions' }, h('div', { class: 'hooks-agent-buttons' }, ...(Array.isArray(remove) ? remove : [remove]))) : null,
    );
  });
  const off = f.disabled.map((d: AgentDisabledHook) =>
    h(
      'tr',
      { class: 'hooks-agent-row-disabled', data: { testid: 'agent-hook-disabled', event: d.event, path: d.json_path }, attrs: { tabindex: canEdit ? -1 : null } },
      h('td', { class: 'mono hooks-event-name' }, ...eventBreakable(d.event)),
      h('td', { class: 'mono hooks-event-name' }, ...(d.claude_event !== null ? eventBreakable(d.claude_event) : [h('span', { class: 'muted', text: '—' })])),
      h('td', { class: 'mono', attrs: { title: d.matcher ?? null } }, ...breakable(d.matcher ?? '')),
      h(
        'td',
        { class: 'mono hooks-summary', data: { testid: 'agent-hook-command' }, attrs: { title: d.command ?? null } },
        ...(d.command !== null ? breakable(d.command) : [h('span', { class: 'muted', text: '(no command)' })]),
        h('span', { class: 'badge hooks-state-disabled hooks-agent-off', attrs: { title: `Disabled through hookd ${d.disabled_at}: not in the file, so the agent does not run it` }, text: 'disabled' }),
      ),
      h('td', { class: 'num' }),
      canEdit
        ? h(
            'td',
            { class: 'hooks-agent-actions' },
            h(
              'div',
              { class: 'hooks-agent-buttons' },
              h('button', {
                class: 'button small hooks-agent-enable',
                data: { testid: 'agent-hook-enable' },
                attrs: { type: 'button', 'aria-label': `Enable the ${d.event} hook ${d.command ?? ''}`.trim(), title: 'Put it back in the file where it was' },
                text: 'Enable',
                on: { click: () => editing && void toggle(f, editing, d, true) },
              }),
            ),
          )
        : null,
    ),
  );
  const notice = noticeFor(f.path);
  const table = h(
    'table',
    { id: 'hooks-agent-table', class: 'hooks-table hooks-agent-table' },
    h('caption', { class: 'visually-hidden', text: `Hooks of ${agentFileLabel(f)}` }),
    h('colgroup', {}, ...['event', 'claude', 'matcher', 'runs', 'timeout', ...(canEdit ? ['actions'] : [])].map((c) => h('col', { class: `hooks-col-${c}` }))),
    h('thead', {}, h('tr', {}, ...['Event', 'Claude Code event', 'Matcher', 'Command', 'Timeout'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })), canEdit ? h('th', { attrs: { scope: 'col' } }, h('span', { class: 'visually-hidden', text: 'Actions' })) : null)),
    h('tbody', {}, ...rows, ...off),
  );
  return h(
    'section',
    { id: 'hooks-agent-file', class: 'hooks-file hooks-agent-file', data: { agent: f.agent, scope: f.scope, name: f.name }, attrs: { 'aria-label': agentFileLabel(f) } },
    h(
      'div',
      { class: 'hooks-file-header' },
      h(
        'div',
        { class: 'hooks-file-title' },
        h('strong', { id: 'hooks-agent-file-label', text: agentFileLabel(f) }),
        canEdit ? h('button', { id: 'hooks-agent-add', class: 'button small', attrs: { type: 'button' }, text: 'Add hook', on: { click: (ev) => open({ kind: 'add' }, ev.currentTarget as HTMLElement) } }) : null,
      ),
      h('span', { id: 'hooks-agent-file-path', class: 'mono hooks-path', text: f.path }),
      h('p', { id: 'hooks-agent-file-edit', class: 'muted', text: editedWith(f) }),
    ),
    notice !== null
      ? h(
          'div',
          { id: 'hooks-agent-file-done', class: 'connect-notice hooks-agent-done', attrs: { role: 'status', tabindex: -1 } },
          h('p', { text: notice.text }),
          ...notice.notes.map((n) => h('p', { class: 'connect-note', data: { testid: 'agent-edit-note' }, text: n })),
        )
      : null,
    f.error !== null ? h('p', { id: 'hooks-agent-file-error', class: 'hooks-alert', attrs: { role: 'alert' } }, h('strong', { text: 'Cannot read this file: ' }), f.error) : null,
    findings('hooks-agent-file-errors', 'hooks-alert', `${f.label} would drop this file or these hooks:`, f.errors),
    findings('hooks-agent-file-warnings', 'hooks-warning', `${f.label} skips or ignores:`, f.warnings),
    f.timeout_note !== null ? h('p', { id: 'hooks-agent-file-timeouts', class: 'muted small-note', text: f.timeout_note }) : null,
    f.hooks.length + f.disabled.length > 0
      ? h('div', { class: 'hooks-table-wrap' }, table)
      : f.error === null
        ? h('p', { id: 'hooks-agent-file-empty', class: 'muted', text: 'No hooks in this file.' })
        : null,
  );
}
