// The Hook editor: per project, one tab per settings file (Claude Code's and
// hookd's, each at global, project and local scope) and an Effective tab.
// Edits happen in a draft; "Review and save" shows the diff of the whole
// file and writes through the backend's safe write; "Move to…" shows the
// diff of both files and moves only when confirmed. When a file changes on
// disk (the `settings-changed` event), an unedited tab reloads by itself and
// an edited one shows a banner: reload (drop the edits) or merge (re-apply
// them onto the new contents), and a save that would overwrite someone
// else's change is refused unless the user chooses to overwrite it.
// "Backtest these edits" replays the project's recorded events with the
// edited file exactly as Save would write it (the save preview's text) and
// shows what it would decide differently, how far it is, and a Cancel. The
// Templates tab installs ready-made hooks into any of the six files.
// After hookd's tabs, one tab per hooks file of another coding agent that
// exists (Codex CLI, Gemini CLI, Cursor, GitHub Copilot; a hook added or
// removed there is reviewed as a diff first; components/hooks-agent-file.ts),
// selected by `agent_file=` in the hash.

import '../styles/hooks.css';
import { basename, h, replaceChildren } from '../components/dom';
import { backtestStatus, emptyAdd, isDirty, renderFileEditor, type EditsBacktest, type FileEditor, type FileEditorState } from '../components/hooks-file';
import { renderEffective } from '../components/hooks-effective';
import { agentFileKey, agentFileLabel, agentFileTabLabel, hasProblems, renderAgentFile } from '../components/hooks-agent-file';
import { openMoveDialog } from '../components/hooks-move';
import type { Modal } from '../components/modal';
import { placementLabel, renderIdleTemplate, renderTemplates } from '../components/hooks-templates';
import { openConnectDialog, type ConnectDialog } from '../components/connect-dialog';
import { api, HookdError, listen, normalizeError, type Unlisten } from '../lib/api';
import { draftOfSave, listenProgress } from '../lib/backtest';
import { debounce } from '../lib/debounce';
import { mergeHooks, sameTree, treeOfFile, type HooksTree } from '../lib/hooks-model';
import { HOOKS_TABS, hooksHash, type HooksTab, type Route } from '../lib/route';
import type { AgentFileVerdicts, AgentHookFile, EffectiveView, FileRef, FileReview, HookEventInfo, HookFile, HookRef, JsonValue, ProjectInfo, Scope, TemplateChange, TemplateInfo, UnreadableFile } from '../lib/types';
import type { View, ViewContext } from './view';
import { keptNote } from '../lib/backup';

type HooksRoute = Extract<Route, { view: 'hooks' }>;

const TAB_LABEL: Record<HooksTab, string> = {
  'agent-global': 'Global',
  'agent-project': 'Project',
  'agent-local': 'Local',
  'managed-global': 'Global',
  'managed-project': 'Project',
  'managed-local': 'Local',
  effective: 'Effective',
  templates: 'Templates',
};

const FILE_LABEL: Record<string, string> = {
  'agent-global': 'Claude Code · Global (~/.claude/settings.json)',
  'agent-project': 'Claude Code · Project (.claude/settings.json)',
  'agent-local': 'Claude Code · Local (.claude/settings.local.json)',
  'managed-global': 'hookd · Global (~/.hookd/settings.json)',
  'managed-project': 'hookd · Project (.hookd/settings.json)',
  'managed-local': 'hookd · Local (.hookd/settings.local.json)',
};

/** The tab of a file. */
export function tabOf(file: FileRef): HooksTab {
  return `${file.kind}-${file.scope}` as HooksTab;
}

interface TabState extends FileEditorState {
  /** A newer version of the file on disk while the draft has edits. */
  onDisk: HookFile | null;
}

/**
 * Each project's tabs, kept while the app runs: switching to another project
 * or screen and back keeps unsaved edits (they are reconciled with the files
 * on disk when the editor shows them again, like any change on disk).
 */
const drafts = new Map<string, Map<HooksTab, TabState>>();

/** Forgets every kept draft (tests). */
export function forgetHookDrafts(): void {
  drafts.clear();
}

/** The edits a closing window hands the backend (`stash_hook_drafts`). */
interface StashedDrafts {
  version: 1;
  /** Per project, its tabs with unsaved edits or a half-typed add form. */
  projects: [string, [HooksTab, TabState][]][];
}

const sameAdd = (a: TabState['add'], b: TabState['add']): boolean =>
  a.event === b.event && a.matcher === b.matcher && a.command === b.command && a.timeout === b.timeout;

/**
 * What must survive the window being closed: every tab with unsaved edits
 * or a half-typed "add a hook" form (null when there is none). A review in
 * progress is not kept; the edits under it are.
 */
export function hookDraftsSnapshot(): JsonValue {
  const projects: StashedDrafts['projects'] = [];
  for (const [project, tabs] of drafts) {
    const kept: [HooksTab, TabState][] = [...tabs]
      .filter(([, state]) => isDirty(state) || !sameAdd(state.add, emptyAdd()))
      .map(([tab, state]) => [tab, { ...state, busy: false, review: null, backtest: null }]);
    if (kept.length > 0) projects.push([project, kept]);
  }
  if (projects.length === 0) return null;
  const stash: StashedDrafts = { version: 1, projects };
  // A JSON copy, as the backend keeps it (opaque) and the next window gets it back.
  return JSON.parse(JSON.stringify(stash)) as JsonValue;
}

/**
 * Puts back what a closed window stashed, before any editor shows it; the
 * editor then reconciles each tab with the file on disk as after any change
 * there (an edited tab whose file changed meanwhile gets the reload/merge
 * banner). Returns how many tabs came back (0 for anything unrecognised).
 */
export function restoreHookDrafts(stash: unknown): number {
  const s = stash as Partial<StashedDrafts> | null;
  if (!s || s.version !== 1 || !Array.isArray(s.projects)) return 0;
  let restored = 0;
  for (const entry of s.projects) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
    const tabs = tabsOf(entry[0]);
    for (const [tab, state] of entry[1]) {
      if (!HOOKS_TABS.includes(tab) || !state || typeof state !== 'object' || !state.loaded || !state.draft) continue;
      tabs.set(tab, { ...state, busy: false, review: null, backtest: null });
      restored += 1;
    }
  }
  return restored;
}

function tabsOf(project: string | null): Map<HooksTab, TabState> {
  if (project === null) return new Map();
  let tabs = drafts.get(project);
  if (!tabs) {
    tabs = new Map();
    drafts.set(project, tabs);
  }
  return tabs;
}

export function createHooksView(ctx: ViewContext, initial: HooksRoute): View {
  let destroyed = false;
  let project = initial.project;
  let tab: HooksTab = initial.tab;
  // Another agent's hooks file shown instead of `tab` (its key), and the files there are.
  let agentFile: string | null = initial.agentFile ?? null;
  let agentFiles: AgentHookFile[] = [];
  let agentVerdicts: AgentFileVerdicts[] = [];
  // The other agents' files were read at least once for this project.
  let loaded = false;
  let events: HookEventInfo[] = [];
  let projects: ProjectInfo[] = [];
  let tabs = tabsOf(project);
  // A command a previous view started has finished or failed by now.
  for (const kept of drafts.values()) for (const state of kept.values()) state.busy = false;
  let effective: EffectiveView | null = null;
  // The Templates tab: the catalogue with where each one is installed, or why it could not be read.
  let templateList: TemplateInfo[] | null = null;
  // Settings files the catalogue could not read: installs in them are unknown.
  let templatesUnreadable: UnreadableFile[] = [];
  let templatesError: string | null = null;
  let templatesBusy = false;
  // The last install whose managed hooks do not run for the project (with the offer to switch it).
  let templateIdle: TemplateChange | null = null;
  let connectDialog: ConnectDialog | null = null;
  let editor: FileEditor | null = null;
  // The project's managed files and whether hookd runs them (`hookd trust`).
  let trustFiles: FileReview[] = [];
  let trustBusy = false;
  // The "Move to…" dialog, while open.
  let moving: Modal | null = null;
  let loadSeq = 0;
  // Events and projects; `load` waits for them so the add form renders once, complete.
  let catalogue: Promise<void> = Promise.resolve();
  const unlisteners: Unlisten[] = [];

  const picker = h('select', { id: 'hooks-project', class: 'text-input', attrs: { 'aria-label': 'Project' } });
  picker.addEventListener('change', () => {
    if (picker.value) ctx.navigate(hooksHash(picker.value, tab));
  });
  const summary = h('p', { id: 'hooks-summary', class: 'muted' });
  const status = h('p', { id: 'hooks-status', class: 'hooks-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  const tablist = h('div', { id: 'hooks-tabs', class: 'hooks-tabs', attrs: { role: 'tablist', 'aria-label': 'Settings files' } });
  const tabButtons = new Map<HooksTab, HTMLButtonElement>();
  // The other agents' tabs, rebuilt from each load: after hookd's, before Effective.
  const agentTabs = h('span', { id: 'hooks-agent-tabs', class: 'hooks-agent-tabs' });
  const groupOf = (t: HooksTab): string => (t.startsWith('agent') ? 'Claude Code' : t.startsWith('managed') ? 'hookd' : '');
  let lastGroup = '';
  for (const t of HOOKS_TABS) {
    const group = groupOf(t);
    if (group !== lastGroup && group !== '') tablist.append(h('span', { id: `hooks-tab-group-${group === 'hookd' ? 'hookd' : 'agent'}`, class: 'hooks-tab-group', attrs: { 'aria-hidden': 'true' }, text: group }));
    if (t === 'effective') tablist.append(agentTabs, h('span', { class: 'hooks-tab-sep', attrs: { 'aria-hidden': 'true' } }));
    lastGroup = group;
    const button = h('button', {
      id: `hooks-tab-${t}`,
      class: 'hooks-tab',
      data: { tab: t },
      // Named by what it shows, count included (label in name); the group above it describes it.
      attrs: { type: 'button', role: 'tab', 'aria-controls': 'hooks-panel', ...(group ? { 'aria-describedby': `hooks-tab-group-${group === 'hookd' ? 'hookd' : 'agent'}` } : {}) },
      text: TAB_LABEL[t],
      on: { click: () => ctx.navigate(hooksHash(project, t)) },
    });
    tabButtons.set(t, button);
    tablist.append(button);
  }
  /** Every tab in order, as a `HooksTab` or `agent:<key>`: the files' tabs, the other agents', then Effective and Templates. */
  const tabOrder = (): string[] => {
    const files: string[] = HOOKS_TABS.filter((t) => t !== 'effective' && t !== 'templates');
    return [...files, ...agentFiles.map((f) => `agent:${agentFileKey(f)}`), 'effective', 'templates'];
  };
  const hashOf = (id: string): string => (id.startsWith('agent:') ? hooksHash(project, tab, id.slice(6)) : hooksHash(project, id as HooksTab));
  tablist.addEventListener('keydown', (ev) => {
    const order = tabOrder();
    const i = order.indexOf(agentFile !== null ? `agent:${agentFile}` : tab);
    let next: string | undefined;
    if (ev.key === 'ArrowRight') next = order[(i + 1) % order.length];
    else if (ev.key === 'ArrowLeft') next = order[(i - 1 + order.length) % order.length];
    else if (ev.key === 'Home') next = order[0];
    else if (ev.key === 'End') next = order[order.length - 1];
    if (!next) return;
    ev.preventDefault();
    ctx.navigate(hashOf(next));
    const key = next.startsWith('agent:') ? next.slice(6) : null;
    (key !== null ? [...agentTabs.querySelectorAll<HTMLElement>('[data-agent-file]')].find((b) => b.dataset.agentFile === key) : tabButtons.get(next as HooksTab))?.focus();
  });

  const banner = h('div', { id: 'hooks-disk-banner', class: 'hooks-banner', attrs: { role: 'alert', hidden: true } });
  const trustBanner = h('div', { id: 'hooks-trust-banner', class: 'hooks-banner hooks-trust', attrs: { role: 'alert', hidden: true } });
  const panel = h('div', { id: 'hooks-panel', class: 'hooks-panel', attrs: { role: 'tabpanel', tabindex: '-1' } });
  const empty = h(
    'div',
    { id: 'hooks-no-project', class: 'empty-state', attrs: { hidden: true } },
    h('h2', { text: 'Pick a project' }),
    h('p', { text: 'The editor shows the hooks of one project: Claude Code\u2019s own settings files and hookd\u2019s managed ones, at global, project and local scope. Choose a project above, or open one from the Projects screen.' }),
  );

  const el = h(
    'section',
    { id: 'view-hooks', class: 'view view-hooks', attrs: { 'aria-labelledby': 'hooks-title' } },
    h('header', { class: 'view-header' }, h('h1', { id: 'hooks-title', text: 'Hooks' }), h('div', { class: 'header-actions' }, picker), summary),
    h('div', { class: 'view-scroll hooks-scroll' }, empty, trustBanner, tablist, status, banner, panel),
  );

  function fileRef(t: HooksTab): FileRef {
    const [kind, scope] = t.split('-') as [FileRef['kind'], FileRef['scope']];
    return { project, kind, scope };
  }

  function freshState(file: HookFile, add = emptyAdd()): TabState {
    const tree = treeOfFile(file);
    return { loaded: file, base: tree, draft: tree, review: null, conflict: false, notes: [], busy: false, onDisk: null, add, backtest: null };
  }

  /** The tab (and agent file) the status line speaks of: another tab clears it. */
  let saidOn = '';
  const placeKey = (): string => `${tab}|${agentFile ?? ''}`;

  function say(text: string): void {
    status.textContent = text;
    saidOn = placeKey();
  }

  // ---- rendering ----

  function renderPicker(): void {
    const roots = projects.map((p) => p.root);
    if (project && !roots.includes(project)) roots.unshift(project);
    picker.replaceChildren(
      h('option', { attrs: { value: '' }, text: 'Choose a project…' }),
      ...roots.map((root) => h('option', { attrs: { value: root }, text: `${projects.find((p) => p.root === root)?.name ?? basename(root)} — ${root}` })),
    );
    picker.value = project ?? '';
  }

  /** The other agents' tabs, each under its agent's name like Claude Code's and hookd's. */
  function renderAgentTabs(): void {
    const children: HTMLElement[] = [];
    let lastAgent = '';
    agentFiles.forEach((f, i) => {
      const key = agentFileKey(f);
      const on = agentFile === key;
      if (f.agent !== lastAgent) children.push(h('span', { class: 'hooks-tab-group', attrs: { 'aria-hidden': 'true' }, text: f.label }));
      lastAgent = f.agent;
      children.push(
        h(
          'button',
          {
            id: `hooks-agent-tab-${i}`,
            class: 'hooks-tab hooks-agent-tab',
            data: { agentFile: key, agent: f.agent, scope: f.scope },
            // The file, then the count it shows (label in name: every word shown is in the name).
            attrs: { type: 'button', role: 'tab', 'aria-controls': 'hooks-panel', 'aria-selected': String(on), tabindex: on ? 0 : -1, 'aria-label': `${agentFileLabel(f)}${f.hooks.length > 0 ? ` ${f.hooks.length}` : ''}`, title: f.path },
            on: { click: () => ctx.navigate(hooksHash(project, tab, key)) },
          },
          agentFileTabLabel(f),
          // A word break for the name (the flex gap spaces it on screen).
          ' ',
          f.hooks.length > 0 ? h('span', { class: 'hooks-tab-count', text: String(f.hooks.length) }) : null,
          hasProblems(f) ? h('span', { class: 'hooks-tab-problem', attrs: { title: f.error !== null ? 'cannot be read' : 'problems' }, text: '⚠' }) : null,
        ),
      );
    });
    agentTabs.replaceChildren(...children);
  }

  function renderTabs(): void {
    renderAgentTabs();
    for (const [t, button] of tabButtons) {
      const on = agentFile === null && t === tab;
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      const state = tabs.get(t);
      const count = t === 'effective' ? (effective?.hooks.length ?? null) : t === 'templates' ? (templateList?.filter((x) => x.installed.length > 0).length ?? null) : state ? Object.values(state.draft).reduce((n, g) => n + g.reduce((m, x) => m + x.hooks.length, 0), 0) : null;
      const dirty = state ? isDirty(state) : false;
      button.dataset.dirty = String(dirty);
      replaceChildren(
        button,
        TAB_LABEL[t],
        ' ', // a word break in the tab's name ("Project 2"); the flex gap spaces it on screen
        // Only non-zero counts: an empty file's tab stays short, so all the tabs fit on one line.
        count !== null && count > 0 ? h('span', { class: 'hooks-tab-count', text: String(count) }) : null,
        dirty ? h('span', { class: 'hooks-tab-dirty', attrs: { title: 'unsaved changes' }, text: '•' }) : null,
        state?.onDisk ? h('span', { class: 'hooks-tab-stale', attrs: { title: 'changed on disk' }, text: '!' }) : null,
        state && (state.loaded.problems.length > 0 || state.loaded.parse_error || state.loaded.bad_matchers.length > 0) ? h('span', { class: 'hooks-tab-problem', attrs: { title: state.loaded.problems.length > 0 || state.loaded.parse_error ? 'problems' : 'a group never matches' }, text: '⚠' }) : null,
      );
    }
    const agentIndex = agentFiles.findIndex((f) => agentFileKey(f) === agentFile);
    panel.setAttribute('aria-labelledby', agentFile !== null && agentIndex >= 0 ? `hooks-agent-tab-${agentIndex}` : `hooks-tab-${tab}`);
  }

  function renderBanner(): void {
    const state = tabs.get(tab);
    if (!state?.onDisk) {
      banner.hidden = true;
      banner.replaceChildren();
      return;
    }
    banner.hidden = false;
    banner.replaceChildren(
      h('div', { class: 'hooks-banner-text' }, h('strong', { text: `${state.loaded.path} changed on disk. ` }), 'You have unsaved edits. Reload to see the new contents (your edits are dropped), or merge your edits into them and review the result.'),
      h('div', { class: 'hooks-banner-actions' },
        h('button', { id: 'hooks-reload', class: 'button', attrs: { type: 'button' }, text: 'Reload', on: { click: () => reloadTab() } }),
        h('button', { id: 'hooks-merge', class: 'button primary', attrs: { type: 'button' }, text: 'Merge my edits', on: { click: () => mergeTab() } }),
      ),
    );
  }

  /** Files whose hooks hookd will not run until the user approves them. */
  function untrusted(): FileReview[] {
    return trustFiles.filter((f) => f.exists && (f.trust.state === 'not_approved' || f.trust.state === 'changed'));
  }

  function renderTrust(): void {
    const files = untrusted();
    if (project === null || files.length === 0) {
      trustBanner.hidden = true;
      trustBanner.replaceChildren();
      return;
    }
    trustBanner.hidden = false;
    trustBanner.replaceChildren(
      ...files.map((f) => {
        const why = f.trust.state === 'changed' ? `changed since you approved it (${f.trust.approved_at.slice(0, 10)})` : 'not approved yet';
        const hooks = f.hooks.map((x) => h('li', {}, h('code', { text: `${x.event}${x.matcher ? ` [${x.matcher}]` : ''}` }), ': ', h('code', { class: 'hooks-trust-command', text: x.runs })));
        return h(
          'div',
          { class: 'hooks-trust-file', data: { testid: `trust-${f.scope}` } },
          h(
            'div',
            { class: 'hooks-banner-text' },
            h('strong', { text: `hookd does not run the hooks of ${f.path}: ${why}. ` }),
            f.problem ? `It cannot be approved: ${f.problem}` : 'A repository or an agent can write this file, so its commands run only once you approve exactly this content. It would run:',
            f.problem ? null : hooks.length > 0 ? h('ul', { class: 'hooks-trust-list' }, ...hooks) : h('p', { class: 'muted', text: '(no hooks)' }),
          ),
          f.problem
            ? null
            : h('div', { class: 'hooks-banner-actions' }, h('button', { id: `hooks-trust-${f.scope}`, class: 'button primary', attrs: { type: 'button', disabled: trustBusy }, text: 'Trust', on: { click: () => void approve(f) } })),
        );
      }),
    );
  }

  async function approve(file: FileReview): Promise<void> {
    if (project === null || file.digest === null) return;
    const root = project;
    trustBusy = true;
    renderTrust();
    try {
      trustFiles = await api.trust_approve({ project: root, path: file.path, digest: file.digest });
      say(`Trusted ${basename(file.path)}: hookd runs its ${file.hooks.length} hook${file.hooks.length === 1 ? '' : 's'} from now on.`);
    } catch (err) {
      if (isConflict(err)) say(`${basename(file.path)} changed while you were reading it: review it again.`);
      else ctx.errors.show(err, 'Could not trust the hook file');
    } finally {
      trustBusy = false;
    }
    if (destroyed) return;
    await load('saved');
  }

  function render(): void {
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.focus;
    const hadFocus = panel.contains(document.activeElement);
    editor?.destroy();
    editor = null;
    renderPicker();
    empty.hidden = project !== null;
    tablist.hidden = project === null;
    panel.hidden = project === null;
    if (project === null) {
      banner.hidden = true;
      trustBanner.hidden = true;
      return;
    }
    renderTabs();
    renderBanner();
    renderTrust();
    if (agentFile !== null) {
      const shownFile = agentFiles.find((f) => agentFileKey(f) === agentFile);
      banner.hidden = true;
      panel.replaceChildren(
        shownFile
          ? renderAgentFile(shownFile, { project, reload: () => load('saved'), onError: (err, context) => ctx.errors.show(err, context) })
          : h('p', { id: 'hooks-agent-file-missing', class: 'muted', text: loaded ? `No hooks file ${agentFile} of another agent exists for this project (any more).` : 'Loading…' }),
      );
      return;
    }
    if (tab === 'effective') {
      panel.replaceChildren(effective ? renderEffective(effective, project, { files: agentFiles, verdicts: agentVerdicts }) : h('p', { class: 'muted', text: 'Loading…' }));
      return;
    }
    if (tab === 'templates') {
      const root = project;
      panel.replaceChildren(
        templateIdle && templateIdle.idle.length > 0 ? renderIdleTemplate(templateIdle, switchToManaged) : '',
        templateList
          ? renderTemplates(templateList, templatesUnreadable, root, templatesBusy, {
              onInstall: (name, file) => void changeTemplate('install', name, file),
              onUninstall: (name, file) => void changeTemplate('uninstall', name, file),
            })
          : h('p', { class: templatesError ? 'field-error' : 'muted', data: { testid: 'templates-state' }, text: templatesError ?? 'Loading…' }),
      );
      if (focusKey && hadFocus) panel.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`)?.focus();
      return;
    }
    const state = tabs.get(tab);
    if (!state) {
      panel.replaceChildren(h('p', { class: 'muted', text: 'Loading…' }));
      return;
    }
    const targets = HOOKS_TABS.filter((t) => t !== 'effective' && t !== 'templates' && t !== tab).map((t) => ({ file: fileRef(t), label: FILE_LABEL[t]! }));
    editor = renderFileEditor(state, {
      events,
      targets,
      onAdded: (event, matcher, command) => {
        say(`Added a ${event} hook running ${command}${matcher !== null ? ` (matcher ${matcher})` : ''} to your unsaved edits: Review and save to write it.`);
      },
      onDraft: (draft, structural) => {
        state.draft = draft;
        state.notes = structural ? state.notes : state.notes;
        if (structural) render();
        else {
          renderTabs();
          const dirtyEl = panel.querySelector<HTMLElement>('#hooks-dirty');
          const dirty = isDirty(state);
          if (dirtyEl) {
            dirtyEl.textContent = dirty ? 'Unsaved changes' : 'No unsaved changes';
            dirtyEl.dataset.dirty = String(dirty);
            dirtyEl.classList.toggle('on', dirty);
          }
          const bar = panel.querySelector<HTMLElement>('#hooks-save-bar');
          if (bar) {
            bar.dataset.dirty = String(dirty);
            bar.classList.toggle('dirty', dirty);
          }
          for (const id of ['hooks-review', 'hooks-discard']) {
            const b = panel.querySelector<HTMLButtonElement>(`#${id}`);
            if (b) b.disabled = !dirty || state.busy || (id === 'hooks-review' && (editor?.refused() ?? false));
          }
          const bt = panel.querySelector<HTMLButtonElement>('#hooks-backtest');
          if (bt) bt.disabled = !dirty || state.busy || !state.loaded.editable || state.backtest?.running === true;
          const stale = panel.querySelector<HTMLElement>('#hooks-backtest-stale');
          if (stale && state.backtest?.report) stale.hidden = sameTree(state.backtest.tested, draft);
        }
      },
      onToggle: (hook, enabled) => void toggle(state, hook, enabled),
      onMove: (hook, from) => moveTo(state, hook, targets, from),
      onReview: () => void review(state),
      onDiscard: () => {
        Object.assign(state, freshState(state.onDisk ?? state.loaded, state.add));
        say('Edits discarded.');
        render();
      },
      onSave: (force) => void save(state, force),
      onBacktest: project !== null ? () => void backtestEdits(state) : undefined,
      onCancelBacktest: () => {
        if (state.backtest) state.backtest.cancelled = true;
        api.bench_cancel().catch((err: unknown) => ctx.errors.show(err, 'Could not cancel the backtest'));
      },
      onCloseBacktest: () => {
        state.backtest = null;
        render();
        panel.querySelector<HTMLElement>('#hooks-backtest')?.focus();
      },
      onCancelReview: () => {
        state.review = null;
        state.conflict = false;
        render();
        panel.querySelector<HTMLElement>('#hooks-review')?.focus();
      },
    });
    panel.replaceChildren(editor.el);
    if (focusKey && hadFocus) panel.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`)?.focus();
  }

  // ---- loading ----

  async function load(reason: 'open' | 'changed' | 'saved'): Promise<void> {
    if (project === null) {
      render();
      return;
    }
    const seq = ++loadSeq;
    const root = project;
    try {
      // A catalogue that cannot be read only empties its own tab.
      const catalogueOfTemplates = api.templates_catalog({ project: root }).then(
        (found) => ({ list: found.templates, unreadable: found.unreadable, error: null }),
        (err: unknown) => ({ list: null, unreadable: [], error: `Could not read the templates: ${normalizeError(err).message}` }),
      );
      // Without the review the banner stays hidden; the daemon still skips unapproved files.
      const review = api.trust_review({ project: root }).catch(() => [] as FileReview[]);
      // The other agents' files only fill their own tabs: a failure leaves them out, and says so.
      const others = api.agent_hook_files({ project: root }).catch((err: unknown) => {
        if (!destroyed) ctx.errors.show(err, 'Could not read the other agents\u2019 hooks files');
        return [] as AgentHookFile[];
      });
      // Whether their hooks run: only the Effective tab's last section.
      const othersRun = api.agent_verdicts({ project: root }).catch(() => [] as AgentFileVerdicts[]);
      const [files, view, , templates, trust, agents, verdicts] = await Promise.all([api.hook_files({ project: root }), api.effective_hooks({ project: root }), catalogue, catalogueOfTemplates, review, others, othersRun]);
      if (destroyed || seq !== loadSeq || root !== project) return;
      // What the screen shows, to skip re-rendering (and so disturbing
      // typing) when a change on disk was the one this screen just made.
      const shown = (): string =>
        JSON.stringify([[...tabs.entries()].map(([t, st]) => [t, st.loaded, st.onDisk?.version ?? null]), effective, templateList, templatesUnreadable, templatesError, trustFiles, agentFiles, agentVerdicts]);
      const before = shown();
      effective = view;
      agentFiles = agents;
      agentVerdicts = verdicts;
      loaded = true;
      trustFiles = trust;
      templateList = templates.list;
      templatesUnreadable = templates.unreadable;
      templatesError = templates.error;
      const reloaded: string[] = [];
      for (const file of files) {
        const t = tabOf(file.file);
        const state = tabs.get(t);
        if (!state) {
          tabs.set(t, freshState(file));
        } else if (file.version === state.loaded.version) {
          // Same bytes; the store of disabled hooks may still have changed.
          state.loaded = file;
          state.onDisk = null;
        } else if (!isDirty(state) && !state.review) {
          Object.assign(state, freshState(file, state.add));
          if (reason === 'changed') reloaded.push(file.path);
        } else {
          state.onDisk = file;
        }
      }
      if (reloaded.length > 0) say(`Reloaded ${reloaded.map(basename).join(', ')}: changed on disk.`);
      summary.textContent = `${view.hooks.length} hook${view.hooks.length === 1 ? ' applies' : 's apply'} to ${basename(root)} (${view.hooks.filter((e) => e.runs.runs && e.duplicate_of === null).length} run)`;
      if (reason === 'changed' && shown() === before) return;
      render();
    } catch (err) {
      if (!destroyed && seq === loadSeq) {
        ctx.errors.show(err, 'Could not read the hook settings');
        render();
      }
    }
  }

  async function loadStatic(): Promise<void> {
    try {
      const [ev, ps] = await Promise.all([api.hook_events(), api.list_projects()]);
      if (destroyed) return;
      events = ev;
      projects = ps;
      if (project === null && ps.length === 1) {
        ctx.navigate(hooksHash(ps[0]!.root, tab));
        return;
      }
      // The panel waits for the catalogue (see load); only the picker is new here.
      if (project === null) render();
      else renderPicker();
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not read the event catalogue or the projects');
    }
  }

  function watch(): void {
    if (project === null) return;
    api.watch_settings({ project }).catch((err: unknown) => {
      if (!destroyed) ctx.errors.show(err, 'Changes on disk will not show up live');
    });
  }

  // ---- actions ----

  function isConflict(err: unknown): boolean {
    return err instanceof HookdError && err.kind === 'conflict';
  }

  async function refreshAfterConflict(state: TabState): Promise<void> {
    state.conflict = true;
    say(`${state.loaded.path} changed on disk; nothing was written.`);
    await load('changed');
    // load() leaves the edited draft alone and records the new file.
    if (!state.onDisk) state.onDisk = state.loaded;
    render();
  }

  async function review(state: TabState): Promise<void> {
    state.busy = true;
    render();
    try {
      state.review = await api.preview_hooks_save({ file: state.loaded.file, hooks: state.draft, version: state.loaded.version });
      state.conflict = false;
    } catch (err) {
      if (isConflict(err)) {
        state.busy = false;
        await refreshAfterConflict(state);
        return;
      }
      ctx.errors.show(err, 'Could not prepare the save');
    } finally {
      state.busy = false;
    }
    if (destroyed) return;
    render();
    panel.querySelector<HTMLElement>('#hooks-review-panel')?.focus();
  }

  async function save(state: TabState, force: boolean): Promise<void> {
    state.busy = true;
    render();
    try {
      const result = await api.save_hooks({ file: state.loaded.file, hooks: state.draft, version: state.loaded.version, force });
      if (destroyed) return;
      state.busy = false;
      say(`Saved ${result.path}${result.created ? ' (created)' : ''}${result.backup ? `; ${keptNote(result.backup)}` : ''}.`);
      // Take the saved file as the new base.
      const saved = state.draft;
      Object.assign(state, { ...freshState(state.loaded, state.add), base: saved, draft: saved });
      state.loaded = { ...state.loaded, version: result.version, exists: true };
      await load('saved');
      // Review is disabled now (nothing unsaved) and Save is gone: focus the saved file's tab, not <body>.
      tabButtons.get(tab)?.focus();
    } catch (err) {
      state.busy = false;
      if (isConflict(err)) {
        await refreshAfterConflict(state);
        return;
      }
      ctx.errors.show(err, 'Could not save the hooks');
      render();
    }
  }

  /**
   * Backtests the edited file: the save preview's text (what Save would
   * write, byte for byte) is the draft; progress shows as it comes.
   */
  async function backtestEdits(state: TabState): Promise<void> {
    if (project === null || state.backtest?.running) return;
    const root = project;
    const file = state.loaded.file;
    const bt: EditsBacktest = { tested: state.draft, running: true, progress: null, report: null, message: null, cancelled: false };
    state.backtest = bt;
    render();
    panel.querySelector<HTMLElement>('#hooks-backtest-panel')?.scrollIntoView?.({ block: 'nearest' });
    // Without the events the replay still runs; only the count is missing.
    const unlisten = await listenProgress({ project: root, kind: file.kind, scope: file.scope }, (p) => {
      if (!bt.running) return;
      bt.progress = p;
      if (state.backtest === bt && tabs.get(tab) === state) {
        const line = panel.querySelector<HTMLElement>('#hooks-backtest-status');
        if (line) line.textContent = backtestStatus(bt);
      }
    }).catch(() => null);
    try {
      const preview = await api.preview_hooks_save({ file, hooks: bt.tested, version: state.loaded.version });
      if (bt.cancelled) throw new HookdError({ kind: 'cancelled', message: 'cancelled before it started' });
      bt.report = await api.bench_backtest({
        request: { project: root, kind: file.kind, scope: file.scope, draft: draftOfSave(preview.after), hook: null, last: null, jobs: null, timeout: null },
      });
    } catch (err) {
      if (err instanceof HookdError && err.kind === 'cancelled') {
        bt.message = 'Cancelled: its hooks were stopped before they finished.';
      } else {
        if (state.backtest === bt) state.backtest = null;
        bt.running = false;
        unlisten?.();
        if (destroyed) return;
        if (isConflict(err)) {
          await refreshAfterConflict(state);
          return;
        }
        ctx.errors.show(err, 'Could not backtest the edits');
        render();
        return;
      }
    }
    bt.running = false;
    unlisten?.();
    if (destroyed || state.backtest !== bt) return;
    render();
  }

  function reloadTab(): void {
    const state = tabs.get(tab);
    if (!state?.onDisk) return;
    Object.assign(state, freshState(state.onDisk, state.add));
    say(`Reloaded ${state.loaded.path}; your edits were dropped.`);
    render();
  }

  function mergeTab(): void {
    const state = tabs.get(tab);
    if (!state?.onDisk) return;
    const theirs = treeOfFile(state.onDisk);
    let merged: { tree: HooksTree; notes: string[] };
    try {
      merged = mergeHooks(state.base, state.draft, theirs);
    } catch (err) {
      ctx.errors.show(err, 'Could not merge your edits');
      return;
    }
    Object.assign(state, freshState(state.onDisk, state.add), { draft: merged.tree, notes: merged.notes.length > 0 ? merged.notes : ['nothing of yours to re-apply'] });
    say('Your edits were merged into the new contents; review and save.');
    render();
  }

  async function toggle(state: TabState, hook: HookRef, enabled: boolean): Promise<void> {
    state.busy = true;
    render();
    try {
      await api.set_hook_enabled({ file: state.loaded.file, hook, enabled, version: state.loaded.version });
      say(`${enabled ? 'Enabled' : 'Disabled'} ${hook.event} hook ${hook.command}.`);
    } catch (err) {
      if (isConflict(err)) {
        state.busy = false;
        await refreshAfterConflict(state);
        return;
      }
      ctx.errors.show(err, `Could not ${enabled ? 'enable' : 'disable'} the hook`);
    } finally {
      state.busy = false;
    }
    await load('saved');
  }

  /** Opens the choice of a file and the review of both files; the move happens only on its confirmation. */
  function moveTo(state: TabState, hook: HookRef, targets: { file: FileRef; label: string }[], from: HTMLElement): void {
    moving?.close();
    const source = state.loaded.file;
    const version = state.loaded.version;
    moving = openMoveDialog({
      hook,
      fromLabel: FILE_LABEL[tabOf(source)] ?? state.loaded.path,
      targets,
      preview: async (to) => {
        try {
          return await api.preview_move_hook({ from: source, to, hook, version });
        } catch (err) {
          if (isConflict(err)) void load('changed');
          throw err;
        }
      },
      confirm: async (to, preview) => {
        try {
          return await api.move_hook({ from: source, to, hook, versions: preview.versions });
        } catch (err) {
          if (isConflict(err)) void load('changed');
          throw err;
        }
      },
      onMoved: (result) => {
        moving = null;
        if (destroyed) return;
        say(`Moved ${hook.event} hook ${hook.command} to ${result.to}.`);
        void load('saved');
      },
      returnFocus: from,
    });
  }

  async function changeTemplate(action: 'install' | 'uninstall', name: string, file: FileRef): Promise<void> {
    templatesBusy = true;
    render();
    try {
      const change = action === 'install' ? await api.install_template({ name, file }) : await api.uninstall_template({ name, file });
      if (destroyed) return;
      templateIdle = action === 'install' && change.idle.length > 0 ? change : null;
      say(templateMessage(action, change, placementLabel(file.kind, file.scope), project));
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, `Could not ${action} ${name}`);
    } finally {
      templatesBusy = false;
    }
    if (destroyed) return;
    await load('saved');
    render();
  }

  /** Opens the connect dialog on `scope` in managed mode: the user sees the diff and applies it. */
  function switchToManaged(scope: Scope, from: HTMLElement): void {
    if (!project) return;
    const root = project;
    const info = projects.find((p) => p.root === root) ?? { root, name: basename(root) };
    connectDialog?.close();
    connectDialog = openConnectDialog(el, {
      project: info as ProjectInfo,
      returnFocus: from,
      initial: { scope, action: 'managed' },
      onError: (err, context) => ctx.errors.show(err, context),
      onApplied: (result) => {
        connectDialog = null;
        templateIdle = null;
        say(result.written ? `Switched to managed mode: ${result.path} was ${result.created ? 'created' : 'updated'}.` : `Nothing to change in ${result.path}.`);
        void load('saved').then(() => render());
      },
    });
  }

  catalogue = loadStatic();

  // ---- live updates ----

  const reloadSoon = debounce(() => void load('changed'), 250);
  const sub = (p: Promise<Unlisten>): void => {
    p.then((u) => (destroyed ? u() : unlisteners.push(u))).catch((err: unknown) => ctx.errors.show(err, 'Live updates unavailable'));
  };
  sub(
    listen('settings-changed', (changed) => {
      const known = [...tabs.values()].some((s) => s.loaded.path === changed.path) || changed.path.endsWith('/disabled.json');
      if (known) reloadSoon();
    }),
  );

  render();
  watch();
  void load('open');

  return {
    el,
    update(route: Route) {
      if (route.view !== 'hooks') return;
      if (route.project !== project) {
        project = route.project;
        tab = route.tab;
        agentFile = route.agentFile ?? null;
        agentFiles = [];
        loaded = false;
        tabs = tabsOf(project);
        effective = null;
        status.textContent = '';
        watch();
        void load('open');
        render();
        return;
      }
      if (route.tab !== tab || (route.agentFile ?? null) !== agentFile) {
        tab = route.tab;
        agentFile = route.agentFile ?? null;
        // What was said of another tab ("Edits discarded.") is not about this one.
        if (saidOn !== placeKey()) status.textContent = '';
        render();
      }
    },
    destroy() {
      destroyed = true;
      moving?.close();
      editor?.destroy();
      reloadSoon.cancel();
      for (const u of unlisteners.splice(0)) u();
    },
  };
}

/** The status line after installing or uninstalling a template; paths inside `project` are shown relative to it. */
export function templateMessage(action: 'install' | 'uninstall', change: TemplateChange, where: string, project: string | null = null): string {
  const short = (path: string): string => (project && path.startsWith(`${project}/`) ? path.slice(project.length + 1) : path);
  const file = `${where} (${short(change.settings)})`;
  if (change.unchanged) {
    return action === 'install' ? `${change.template} is already installed in ${file}; nothing changed.` : `${change.template} is not installed in ${file}; nothing changed.`;
  }
  const handlers = change.handlers.length > 0 ? change.handlers.join(', ') : 'no handler';
  const script =
    change.script === null
      ? ''
      : change.script_change === 'unchanged'
        ? action === 'install'
          ? `; script ${short(change.script)} already in place`
          : `; script ${short(change.script)} kept (another settings file still uses it)`
        : `; script ${short(change.script)} ${change.script_change}`;
  const backup = change.backup ? `; ${keptNote(change.backup)}` : '';
  return action === 'install'
    ? `Installed ${change.template} into ${file}: added ${handlers}${script}${backup}.`
    : `Uninstalled ${change.template} from ${file}: removed ${handlers}${script}${backup}.`;
}
