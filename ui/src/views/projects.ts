// The Projects screen: every known project with its activity, ledger counts
// and whether Claude Code's hooks call hookd, plus the ways to add one (drop
// folders on the window, handled by the backend, or type a path).
//
// The list is drawn again whenever the ledgers commit (counts, last
// activity): the keyboard focus stays on the same link or button of the same
// project, and the page does not scroll.

import { openConnectDialog, type ConnectDialog } from '../components/connect-dialog';
import { basename, formatCount, h } from '../components/dom';
import { api, listen, pickFolders, type Unlisten } from '../lib/api';
import { CODING_AGENTS } from '../lib/catalogue';
import { isConnected } from '../lib/connect';
import { debounce } from '../lib/debounce';
import { keepFocus, type FocusKeys } from '../lib/focus';
import { hooksHash, timelineHashForRepo } from '../lib/route';
import { absoluteTitle, relativeTime } from '../lib/time';
import type { AddProjectsResult, ProjectInfo } from '../lib/types';
import type { View, ViewContext } from './view';
import { keptNote } from '../lib/backup';

const SCOPES = [
  { key: 'global', file: '~/.claude/settings.json' },
  { key: 'project', file: '.claude/settings.json' },
  { key: 'local', file: '.claude/settings.local.json' },
] as const;

/** Newest activity first; projects without any last, by name. */
export function sortProjects(projects: ProjectInfo[]): ProjectInfo[] {
  return [...projects].sort((a, b) => {
    if (a.last_activity !== b.last_activity) {
      if (a.last_activity === null) return 1;
      if (b.last_activity === null) return -1;
      return a.last_activity < b.last_activity ? 1 : -1;
    }
    return a.name.localeCompare(b.name);
  });
}

export function createProjectsView(ctx: ViewContext): View {
  let destroyed = false;
  let projects: ProjectInfo[] = [];
  let loadSeq = 0;
  const unlisteners: Unlisten[] = [];
  let dialog: ConnectDialog | null = null;

  const list = h('ul', { id: 'project-list', class: 'project-list', attrs: { 'aria-label': 'Projects', 'aria-busy': 'true' } });
  const empty = h(
    'div',
    { id: 'projects-empty', class: 'empty-state', attrs: { hidden: true } },
    h('h2', { text: 'No projects yet' }),
    h('p', {}, 'hookd lists a repository as soon as an agent\u2019s hook sends an event from it. Connect Claude Code once with ', h('code', { text: 'hookd connect' }), ', then let the agent work in a repository: it shows up here with its activity.'),
    h('p', { text: 'To list a project before that, drop its folder anywhere on this window, or type its path above and press Add folder.' }),
  );
  const summary = h('p', { id: 'projects-summary', class: 'muted' });
  const notice = h('p', { id: 'connect-notice', class: 'connect-notice', attrs: { hidden: true, role: 'status' } });
  // Why the agent will not run the entries just written (the core's
  // `connect_warnings`, in the Connect dialog's warning block before Apply):
  // said again under the notice, as the dialog's block says it.
  const noticeWarnings = h('div', { id: 'connect-notice-warnings', class: 'connect-warning connect-agent-warnings', attrs: { hidden: true, role: 'alert' } });

  // Add folder form.
  const input = h('input', {
    id: 'add-folder-path',
    class: 'text-input mono',
    attrs: {
      type: 'text',
      name: 'path',
      placeholder: '/home/you/src/project',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'add-folder-status',
    },
  });
  const submit = h('button', { id: 'add-folder-submit', class: 'button primary', attrs: { type: 'submit' }, text: 'Add folder' });
  // The system's folder chooser (tauri-plugin-dialog); several folders at once.
  const pick = h('button', {
    id: 'add-folder-pick',
    class: 'button',
    attrs: { type: 'button', title: 'Choose one or more folders with the system\u2019s folder picker' },
    text: 'Choose folders\u2026',
    on: { click: () => void addPicked() },
  });
  const status = h('div', { id: 'add-folder-status', class: 'add-status', attrs: { 'aria-live': 'polite' } });
  const form = h(
    'form',
    { id: 'add-folder-form', class: 'add-form', on: { submit: (ev) => { ev.preventDefault(); void addTyped(); } } },
    h('label', { class: 'field-label', attrs: { for: 'add-folder-path' }, text: 'Folder path' }),
    h('div', { class: 'input-row' }, input, submit, pick),
  );
  const dropZone = h(
    'div',
    { id: 'drop-zone', class: 'drop-zone', data: { testid: 'drop-zone' } },
    h('div', { class: 'drop-icon', attrs: { 'aria-hidden': 'true' }, text: '⇣' }),
    h('div', { class: 'drop-text' }, h('strong', { text: 'Drop project folders anywhere on this window' }), h('span', { class: 'muted', text: 'A git repository or any folder. Or add one by its path:' })),
    form,
    status,
  );

  const el = h(
    'section',
    { id: 'view-projects', class: 'view view-projects', attrs: { 'aria-labelledby': 'projects-title' } },
    h('header', { class: 'view-header' }, h('h1', { id: 'projects-title', text: 'Projects' }), summary),
    h('div', { class: 'view-scroll' }, notice, noticeWarnings, dropZone, list, empty),
  );

  function badge(p: ProjectInfo, scope: (typeof SCOPES)[number]): HTMLElement {
    const on = p.connected[scope.key];
    const file = scope.key === 'global' ? scope.file : `${p.root}/${scope.file}`;
    return h('span', {
      class: `badge ${on ? 'badge-on' : 'badge-off'}`,
      data: { testid: `connected-${scope.key}`, connected: String(on) },
      attrs: {
        title: on ? `${file} calls hookd` : `${file} does not call hookd`,
        'aria-label': `${scope.key} scope ${on ? 'connected' : 'not connected'}`,
      },
      text: `${on ? '●' : '○'} ${scope.key}`,
    });
  }

  function item(p: ProjectInfo): HTMLElement {
    const href = timelineHashForRepo(p.root);
    const anyConnected = isConnected(p);
    const li = h(
      'li',
      {
        class: 'project',
        data: { testid: 'project', root: p.root, origin: p.origin },
        on: {
          click: (ev) => {
            // The name is a real link; a click elsewhere on the card does the same.
            if ((ev.target as Element).closest('a')) return;
            ctx.navigate(href);
          },
        },
      },
      h(
        'div',
        { class: 'project-main' },
        h('a', { class: 'project-name', data: { testid: 'project-open' }, attrs: { href, title: `Open the timeline of ${p.root}` }, text: p.name || basename(p.root) }),
        h('div', { class: 'project-root mono', data: { testid: 'project-root' }, text: p.root }),
        h('a', { class: 'project-hooks-link', data: { testid: 'project-hooks' }, attrs: { href: hooksHash(p.root), title: `Edit the hooks of ${p.root}` }, text: 'Hooks' }),
      ),
      h(
        'div',
        { class: 'project-activity' },
        h('span', {
          class: 'project-last',
          data: { testid: 'project-last-activity', time: p.last_activity ?? '' },
          attrs: { title: absoluteTitle(p.last_activity) },
          text: p.last_activity ? relativeTime(p.last_activity) : 'no activity yet',
        }),
        h(
          'span',
          { class: 'project-counts muted' },
          h('span', { data: { testid: 'project-events' }, text: `${formatCount(p.events)} events` }),
          ' · ',
          h('span', { data: { testid: 'project-mutations' }, text: `${formatCount(p.mutations)} mutations` }),
        ),
        p.agent_kinds.length === 0
          ? null
          : h('span', {
              class: 'project-agents muted',
              data: { testid: 'project-agents', kinds: p.agent_kinds.join(' ') },
              attrs: { title: 'The coding agents that called hookd-emit here' },
              text: p.agent_kinds.map((k) => CODING_AGENTS.find((a) => a.name === k)?.label ?? k).join(' · '),
            }),
      ),
      h(
        'div',
        { class: 'project-badges' },
        h(
          'span',
          { class: 'badge-group', attrs: { role: 'group', 'aria-label': 'Hooks connected to hookd', title: anyConnected ? 'The coding agents call hookd from these hooks files' : 'No hooks file calls hookd yet: run hookd connect' } },
          ...SCOPES.map((s) => badge(p, s)),
          ...p.agents_connected.map((name) => {
            const label = CODING_AGENTS.find((a) => a.name === name);
            return h('span', {
              class: `badge badge-on badge-agent agent-${name}`,
              data: { testid: 'connected-agent', agent: name },
              attrs: { title: `${label?.label ?? name} calls hookd for this project (its user or project hooks file)`, 'aria-label': `${label?.label ?? name} connected` },
              text: `\u25cf ${label?.short ?? name}`,
            });
          }),
          h('button', {
            class: 'button small project-connect',
            data: { testid: 'project-connect', connected: String(anyConnected) },
            attrs: {
              type: 'button',
              'aria-haspopup': 'dialog',
              title: anyConnected ? 'Connected: change or remove hookd\u2019s entries (shows the change first)' : 'Make a coding agent call hookd here (shows the change first)',
            },
            text: anyConnected ? 'Connected' : 'Connect',
            on: {
              click: (ev) => {
                // The card itself opens the timeline.
                ev.stopPropagation();
                openConnect(p, ev.currentTarget as HTMLElement);
              },
            },
          }),
        ),
        h(
          'span',
          { class: 'badge-row' },
          h('span', {
          class: 'badge badge-origin',
          data: { testid: 'project-origin' },
          attrs: { title: p.origin === 'event' ? 'Listed because an agent sent an event from it' : 'Added by hand' },
          text: p.origin === 'event' ? 'from events' : 'added by hand',
        }),
          p.has_ledger ? null : h('span', { class: 'badge badge-warn', data: { testid: 'project-no-ledger' }, attrs: { title: 'No .hookd/mutations.db yet: nothing was recorded here' }, text: 'no ledger' }),
        ),
      ),
    );
    return li;
  }

  /** A focused control is found again by its project and what it is. */
  const focusKeys: FocusKeys = {
    key: (el) => {
      const root = el.closest<HTMLElement>('[data-testid=project]')?.dataset.root;
      const what = el.dataset.testid ?? (el.matches('[data-testid=project]') ? 'project' : null);
      return root === undefined || what === null ? null : JSON.stringify([root, what]);
    },
    find: (container, key) => {
      const [root, what] = JSON.parse(key) as [string, string];
      const card = [...container.querySelectorAll<HTMLElement>('[data-testid=project]')].find((li) => li.dataset.root === root);
      return what === 'project' ? (card ?? null) : (card?.querySelector<HTMLElement>(`[data-testid="${what}"]`) ?? null);
    },
  };

  function render(): void {
    keepFocus(list, () => list.replaceChildren(...sortProjects(projects).map(item)), focusKeys);
    list.hidden = projects.length === 0;
    empty.hidden = projects.length !== 0;
    const connected = projects.filter(isConnected).length;
    summary.textContent =
      projects.length === 0 ? '' : `${projects.length} project${projects.length === 1 ? '' : 's'} · ${connected} connected to hookd`;
  }

  /** The core's sentences on why `agent` will not run the entries, each as it is; hidden when there are none (a disconnect has none). */
  function showWarnings(warnings: string[], agent: string): void {
    const label = CODING_AGENTS.find((a) => a.name === agent)?.label ?? agent;
    noticeWarnings.replaceChildren(
      ...(warnings.length === 0
        ? []
        : [
            h('strong', { text: `${label} may not run these entries:` }),
            h('ul', {}, ...warnings.map((w) => h('li', { data: { testid: 'connect-notice-warning' }, text: w }))),
          ]),
    );
    noticeWarnings.hidden = warnings.length === 0;
  }

  function openConnect(p: ProjectInfo, opener: HTMLElement): void {
    dialog?.close();
    dialog = openConnectDialog(el, {
      project: p,
      returnFocus: opener,
      onError: (err, context) => ctx.errors.show(err, context),
      onApplied: (result, action, _scope, agent) => {
        dialog = null;
        const what = action === 'disconnect' ? 'Disconnected' : 'Connected';
        notice.textContent = result.written
          ? `${what}: ${result.path} was ${result.created ? 'created' : 'updated'}${result.backup ? `; ${keptNote(result.backup)}` : ''}.`
          : `Nothing to change in ${result.path}.`;
        notice.hidden = false;
        showWarnings(result.warnings, agent);
        void load().then(() => {
          // The list was redrawn: put focus back on this project's button.
          const card = [...list.querySelectorAll<HTMLElement>('[data-testid=project]')].find((li) => li.dataset.root === p.root);
          card?.querySelector<HTMLElement>('[data-testid=project-connect]')?.focus();
        });
      },
    });
  }

  async function load(): Promise<void> {
    const seq = ++loadSeq;
    list.setAttribute('aria-busy', 'true');
    try {
      const result = await api.list_projects();
      if (destroyed || seq !== loadSeq) return;
      projects = result;
      render();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not list projects');
    } finally {
      if (!destroyed && seq === loadSeq) list.setAttribute('aria-busy', 'false');
    }
  }

  function showResult(result: AddProjectsResult, source: 'typed' | 'dropped'): void {
    const parts: HTMLElement[] = [];
    if (result.added.length > 0) {
      parts.push(
        h('p', {
          id: 'add-folder-added',
          class: 'add-ok',
          text: `Added ${result.added.map((p) => p.name || p.root).join(', ')}.`,
        }),
      );
    }
    if (result.known.length > 0) {
      parts.push(
        h('p', {
          id: 'add-folder-known',
          class: 'muted',
          text: `Already listed: ${result.known.map((p) => p.name || p.root).join(', ')}.`,
        }),
      );
    }
    if (result.rejected.length > 0) {
      parts.push(
        h(
          'ul',
          { id: 'add-folder-rejections', class: 'rejections', attrs: { 'aria-label': source === 'typed' ? 'Folder not added' : 'Dropped items not added' } },
          ...result.rejected.map((r) =>
            h(
              'li',
              { data: { testid: 'rejection', path: r.path } },
              h('span', { class: 'mono', text: r.path || '(empty)' }),
              h('span', { class: 'reason', data: { testid: 'rejection-reason' }, text: ` — ${r.reason}` }),
            ),
          ),
        ),
      );
    }
    status.replaceChildren(...parts);
  }

  async function addTyped(): Promise<void> {
    const path = input.value.trim();
    if (path === '') {
      showResult({ added: [], known: [], rejected: [{ path: '', reason: 'type the absolute path of a folder' }] }, 'typed');
      input.focus();
      return;
    }
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      const result = await api.add_projects({ paths: [path] });
      if (destroyed) return;
      showResult(result, 'typed');
      // Keep the text when it was refused, so it can be corrected.
      if (result.rejected.length === 0) input.value = '';
      await load();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not add the folder');
    } finally {
      submit.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  async function addPicked(): Promise<void> {
    pick.disabled = true;
    try {
      const paths = await pickFolders();
      if (destroyed || paths.length === 0) return; // cancelled
      const result = await api.add_projects({ paths });
      if (destroyed) return;
      showResult(result, 'typed');
      await load();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not add the chosen folders');
    } finally {
      pick.disabled = false;
    }
  }

  const reloadSoon = debounce(() => void load(), 500);
  const relTimer = setInterval(() => {
    for (const span of list.querySelectorAll<HTMLElement>('[data-testid=project-last-activity]')) {
      const t = span.dataset.time;
      if (t) span.textContent = relativeTime(t);
    }
  }, 30_000);

  const sub = (p: Promise<Unlisten>): void => {
    p.then((u) => (destroyed ? u() : unlisteners.push(u))).catch((err: unknown) => ctx.errors.show(err, 'Live updates unavailable'));
  };
  sub(
    listen('projects-changed', (result) => {
      showResult(result, 'dropped');
      void load();
    }),
  );
  // New events change counts and last activity.
  sub(listen('ledger-commit', () => reloadSoon()));
  sub(listen('tauri://drag-enter', () => dropZone.classList.add('drag-over')));
  sub(listen('tauri://drag-leave', () => dropZone.classList.remove('drag-over')));
  sub(listen('tauri://drag-drop', () => dropZone.classList.remove('drag-over')));

  void load();

  return {
    el,
    update: () => void load(),
    destroy() {
      destroyed = true;
      dialog?.close();
      reloadSoon.cancel();
      clearInterval(relTimer);
      for (const u of unlisteners.splice(0)) u();
    },
  };
}
