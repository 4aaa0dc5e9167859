// The Templates tab: the ready-made hooks of hooks-templates/, each with
// what it adds, what it needs, where it is installed for this project, and
// one click to install it into a settings file or remove it again. The
// backend does the work (the same code as `hookd templates`); this only
// lays out the catalogue and reports the user's choice.

import type { Kind, FileRef, Scope, TemplateChange, TemplateInfo, TemplatePlacement, UnreadableFile } from '../lib/types';
import { h } from './dom';

/** The files a template can go into, in the editor's tab order. */
const TARGETS: { kind: Kind; scope: Scope; label: string }[] = [
  { kind: 'agent', scope: 'project', label: 'Claude Code · Project' },
  { kind: 'agent', scope: 'local', label: 'Claude Code · Local' },
  { kind: 'agent', scope: 'global', label: 'Claude Code · Global' },
  { kind: 'managed', scope: 'project', label: 'hookd · Project' },
  { kind: 'managed', scope: 'local', label: 'hookd · Local' },
  { kind: 'managed', scope: 'global', label: 'hookd · Global' },
];

/** `Claude Code · Project`-style name of a settings file. */
export function placementLabel(kind: Kind, scope: Scope): string {
  return TARGETS.find((t) => t.kind === kind && t.scope === scope)?.label ?? `${kind} · ${scope}`;
}

/** The files `template` can be installed into (its kinds only), first the default. */
export function targetsFor(template: TemplateInfo): { kind: Kind; scope: Scope; label: string }[] {
  return TARGETS.filter((t) => template.kinds.includes(t.kind));
}

/** A one-line summary of a template's handlers: `PreToolUse (Bash) · 10 s`. */
export function hooksLine(template: TemplateInfo): string {
  return template.hooks.map((x) => `${x.event}${x.matcher ? ` (${x.matcher})` : ''}${x.timeout !== null ? ` · ${x.timeout} s` : ''}`).join(', ');
}

export interface TemplatesActions {
  onInstall(name: string, file: FileRef): void;
  onUninstall(name: string, file: FileRef): void;
}

/** `path` relative to `project` when inside it. */
function shortPath(path: string, project: string): string {
  return path.startsWith(`${project}/`) ? path.slice(project.length + 1) : path;
}

/** The warning for settings files the catalogue could not read (null when none). */
export function renderUnreadable(unreadable: UnreadableFile[], project: string): HTMLElement | null {
  if (unreadable.length === 0) return null;
  return h(
    'div',
    { class: 'hooks-templates-unreadable', data: { testid: 'templates-unreadable' }, attrs: { role: 'status' } },
    h('p', { text: unreadable.length === 1 ? 'One settings file could not be read, so templates installed in it are not shown:' : `${unreadable.length} settings files could not be read, so templates installed in them are not shown:` }),
    h(
      'ul',
      {},
      ...unreadable.map((u) =>
        h(
          'li',
          { data: { kind: u.kind, scope: u.scope } },
          h('strong', { text: placementLabel(u.kind, u.scope) }),
          ' ',
          h('span', { class: 'mono', attrs: { title: u.settings }, text: shortPath(u.settings, project) }),
          h('span', { class: 'field-error', text: ` — ${u.reason.startsWith(`${u.settings}: `) ? u.reason.slice(u.settings.length + 2) : u.reason}` }),
        ),
      ),
    ),
    h('p', { class: 'muted', text: 'Fix the file in its own tab; nothing is written to it until it parses.' }),
  );
}

/** Renders the catalogue for `project`, warning first about `unreadable` files; `busy` disables every action while one runs. */
export function renderTemplates(list: TemplateInfo[], unreadable: UnreadableFile[], project: string, busy: boolean, actions: TemplatesActions): HTMLElement {
  const intro = h(
    'p',
    { id: 'hooks-templates-intro', class: 'muted' },
    'Ready-made hooks. Installing copies the script into ',
    h('code', { text: '.hookd/hooks/' }),
    ' (',
    h('code', { text: '.hookd/hooks-local/' }),
    ' for Local, ',
    h('code', { text: '~/.hookd/hooks/' }),
    ' for Global) and adds its handlers to the chosen file without touching anything else; installing again changes nothing, and Uninstall removes exactly what was added.',
  );
  const cards = list.map((t) => templateCard(t, project, busy, actions));
  return h('div', { id: 'hooks-templates', class: 'hooks-templates' }, intro, renderUnreadable(unreadable, project), h('ul', { class: 'hooks-template-list', attrs: { 'aria-label': 'Templates' } }, ...cards));
}

function templateCard(t: TemplateInfo, project: string, busy: boolean, actions: TemplatesActions): HTMLElement {
  const fileOf = (kind: Kind, scope: Scope): FileRef => ({ project: scope === 'global' ? null : project, kind, scope });
  const titleId = `template-${t.name}-title`;
  const targets = targetsFor(t);
  const select = h(
    'select',
    { class: 'text-input', data: { testid: 'template-target' }, attrs: { 'aria-label': `Install ${t.name} into` } },
    ...targets.map((x) => h('option', { attrs: { value: `${x.kind}-${x.scope}` }, text: x.label })),
  );
  const installedHere = (): TemplatePlacement | undefined => {
    const [kind, scope] = select.value.split('-') as [Kind, Scope];
    return t.installed.find((p) => p.kind === kind && p.scope === scope);
  };
  const install = h('button', {
    class: 'button primary',
    data: { testid: 'template-install' },
    attrs: { type: 'button', disabled: busy, 'aria-describedby': titleId },
    on: {
      click: () => {
        const [kind, scope] = select.value.split('-') as [Kind, Scope];
        actions.onInstall(t.name, fileOf(kind, scope));
      },
    },
  });
  const syncButton = (): void => {
    const here = installedHere();
    install.textContent = !here ? 'Install' : here.complete ? 'Installed' : 'Repair';
    install.disabled = busy || (here?.complete ?? false);
    install.title = here?.complete ? 'Already installed in this file; installing again would change nothing' : '';
  };
  select.addEventListener('change', syncButton);
  syncButton();

  const placements = t.installed.map((p) =>
    h(
      'li',
      { class: 'hooks-template-placement', data: { testid: 'template-installed', kind: p.kind, scope: p.scope, complete: String(p.complete) } },
      h('span', { class: `badge ${p.complete ? 'hooks-state-enabled' : 'hooks-state-duplicate'}`, text: p.complete ? 'installed' : 'incomplete' }),
      ' ',
      h('span', { text: placementLabel(p.kind, p.scope) }),
      ' ',
      h('span', { class: 'mono muted', attrs: { title: p.settings }, text: shortPath(p.settings, project) }),
      p.missing.length > 0 ? h('span', { class: 'hooks-template-missing', text: ` missing: ${p.missing.join('; ')}` }) : null,
      ' ',
      h('button', {
        class: 'button',
        data: { testid: 'template-uninstall' },
        attrs: { type: 'button', disabled: busy, 'aria-label': `Uninstall ${t.name} from ${placementLabel(p.kind, p.scope)}` },
        text: 'Uninstall',
        on: { click: () => actions.onUninstall(t.name, fileOf(p.kind, p.scope)) },
      }),
    ),
  );

  return h(
    'li',
    { class: 'hooks-template', data: { testid: 'template', name: t.name }, attrs: { 'aria-labelledby': titleId } },
    h('div', { class: 'hooks-template-head' }, h('h3', { id: titleId, class: 'mono', text: t.name }), h('span', { class: 'muted', text: hooksLine(t) })),
    h('p', { class: 'hooks-template-desc', text: t.description }),
    h(
      'p',
      { class: 'muted hooks-template-needs' },
      t.requires.length > 0 ? `Needs ${t.requires.join(', ')}` : 'Needs nothing else',
      t.script ? ` · script ${t.script}` : ' · adds hookd-emit entries',
      t.missing_programs.length > 0 ? h('strong', { class: 'hooks-template-warn', data: { testid: 'template-missing-programs' }, text: ` · not found on PATH: ${t.missing_programs.join(', ')}` }) : null,
    ),
    placements.length > 0 ? h('ul', { class: 'hooks-template-placements', attrs: { 'aria-label': `Where ${t.name} is installed` } }, ...placements) : null,
    h('div', { class: 'hooks-template-actions' }, select, install),
  );
}

/**
 * After installing managed hooks that do not run for the project: the
 * core's reasons and, when connecting in managed mode would fix it, the
 * offer to switch that file (the connect dialog shows the diff first).
 */
export function renderIdleTemplate(change: TemplateChange, onSwitch: ((scope: Scope, from: HTMLElement) => void) | null): HTMLElement {
  const scope = change.switch_scope;
  return h(
    'div',
    { class: 'hooks-alert template-idle', data: { testid: 'template-idle', template: change.template }, attrs: { role: 'alert' } },
    h('strong', { text: `⚠ ${change.template} does not run for this project yet` }),
    h('ul', { class: 'runs-reasons' }, ...change.idle.map((r) => h('li', { data: { testid: 'runs-reason', code: r.code }, text: r.message }))),
    scope !== null && onSwitch
      ? h('button', {
          class: 'button primary small',
          data: { testid: 'template-switch-managed', scope },
          attrs: { type: 'button', 'aria-haspopup': 'dialog' },
          text: `Switch ${placementLabel('agent', scope)} to managed mode…`,
          on: { click: (ev: Event) => onSwitch(scope, ev.currentTarget as HTMLElement) },
        })
      : null,
  );
}
