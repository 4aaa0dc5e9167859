// The Templates tab's commands in the stub backend: a few templates of the
// real catalogue, and where each was installed, kept as a list of
// placements (not found again by reading the settings files, as the core
// does). Installing adds the template's handlers to the hooks stub's file
// with the UI's own tree edit and records the placement; a placement whose
// script is gone is incomplete; a file that does not parse as JSON is
// listed as unreadable and hides its placements. Where scripts go and what
// their handlers run is a canned table. The real install (scripts on disk,
// the safe write, finding installs in the files) is hookd-core's, tested in
// Rust.

import { addHandler, commandOf, matcherOf, removeHandler, treeFrom } from '../lib/hooks-model';
import type { Kind, FileRef, TemplateChange, TemplateInfo, UnreadableFile } from '../lib/types';
import { stubPath, type EditableScope, type HooksStub } from './hooks';
import { fail, type StubPart } from './types';

export type TemplatesCommands = 'templates_catalog' | 'install_template' | 'uninstall_template';

type StubTemplate = Omit<TemplateInfo, 'installed'>;

/** A subset of hooks-templates/index.json, enough for the screen. */
export const STUB_TEMPLATES: StubTemplate[] = [
  {
    name: 'block-dangerous-shell',
    description: 'Deny Bash commands that wipe /, $HOME or the project, fork bombs, curl|sh, dd to a disk, mkfs, chmod -R on /',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', timeout: 10 }],
    requires: ['python3'],
    missing_programs: [],
    platforms: ['linux', 'macos'],
    kinds: ['agent', 'managed'],
    script: 'block-dangerous-shell.py',
  },
  {
    name: 'session-git-context',
    description: 'At session start, tell the model the git branch, uncommitted changes and the last five commit subjects',
    hooks: [{ event: 'SessionStart', matcher: 'startup|resume', timeout: 10 }],
    requires: ['git'],
    missing_programs: [],
    platforms: ['linux', 'macos'],
    kinds: ['agent', 'managed'],
    script: 'session-git-context.sh',
  },
  {
    name: 'notify-desktop',
    description: 'Show the agent\u2019s notifications on the desktop with notify-send',
    hooks: [{ event: 'Notification', matcher: null, timeout: 10 }],
    requires: ['notify-send'],
    missing_programs: ['notify-send'],
    platforms: ['linux'],
    kinds: ['agent', 'managed'],
    script: 'notify-desktop.sh',
  },
  {
    name: 'record-into-hookd',
    description: 'Record every event into hookd’s ledger (the hookd-emit entries of hookd connect)',
    hooks: [
      { event: 'PreToolUse', matcher: null, timeout: null },
      { event: 'PostToolUse', matcher: null, timeout: null },
    ],
    requires: ['hookd-emit'],
    missing_programs: [],
    platforms: ['linux', 'macos'],
    kinds: ['agent'],
    script: null,
  },
];

/** The folder a template's script is copied to, per scope (under the project, or home). */
const SCRIPT_DIRS: Record<EditableScope, string> = { global: '.hookd/hooks', project: '.hookd/hooks', local: '.hookd/hooks-local' };
/** What the handlers of a template without a script run, per event. */
const EMIT_COMMANDS: Record<string, string> = { PreToolUse: 'hookd-emit pre_tool_use', PostToolUse: 'hookd-emit post_tool_use' };

const KINDS: Kind[] = ['agent', 'managed'];
const SCOPES: EditableScope[] = ['global', 'project', 'local'];

/** The Templates tab's part of the stub. */
export interface TemplatesStub {
  commands: StubPart<TemplatesCommands>;
}

export function createTemplatesStub(hooks: HooksStub): TemplatesStub {
  /** Per template, the files it was installed into, by settings path. */
  const placements = new Map<string, Map<string, FileRef>>();

  const template = (name: string): StubTemplate => {
    const t = STUB_TEMPLATES.find((x) => x.name === name);
    if (!t) throw fail('not_found', `no template called "${name}" (hookd templates list shows them)`);
    return t;
  };
  const scriptOf = (t: StubTemplate, file: FileRef): string | null =>
    t.script === null || file.scope === 'policy' ? null : `${file.scope === 'global' ? '/home/dev' : file.project}/${SCRIPT_DIRS[file.scope]}/${t.script}`;
  const commandFor = (t: StubTemplate, file: FileRef, event: string): string => scriptOf(t, file) ?? EMIT_COMMANDS[event] ?? `hookd-emit ${event}`;
  const label = (x: { event: string; matcher: string | null }): string => `${x.event}${x.matcher ? ` (${x.matcher})` : ''}`;

  function change(cmd: 'install' | 'uninstall', name: string, file: FileRef): TemplateChange {
    const t = template(name);
    const path = stubPath(file);
    const script = scriptOf(t, file);
    const existed = hooks.files.has(path);
    const { value } = hooks.read(path);
    let tree = treeFrom(value.hooks);
    const placed = placements.get(t.name) ?? new Map<string, FileRef>();
    placements.set(t.name, placed);
    const handlers: string[] = [];
    if (cmd === 'install' && !placed.has(path)) {
      for (const x of t.hooks) {
        const command = commandFor(t, file, x.event);
        tree = addHandler(tree, x.event, x.matcher, { type: 'command', command, ...(x.timeout !== null ? { timeout: x.timeout } : {}) });
        handlers.push(label(x));
      }
      placed.set(path, file);
    } else if (cmd === 'uninstall' && placed.has(path)) {
      for (const x of t.hooks) {
        const command = commandFor(t, file, x.event);
        const gi = (tree[x.event] ?? []).findIndex((g) => matcherOf(g) === x.matcher && g.hooks.some((h) => commandOf(h) === command));
        if (gi < 0) continue;
        tree = removeHandler(tree, x.event, gi, tree[x.event]![gi]!.hooks.findIndex((h) => commandOf(h) === command));
        handlers.push(label(x));
      }
      placed.delete(path);
    }
    if (handlers.length > 0) {
      const { hooks: _old, ...rest } = value;
      const next = Object.keys(tree).length > 0 ? { ...rest, hooks: tree } : rest;
      hooks.writeFile(path, `${JSON.stringify(next, null, 2)}\n`);
    }
    let scriptChange: TemplateChange['script_change'] = 'absent';
    if (script !== null && cmd === 'install') {
      scriptChange = hooks.files.has(script) ? 'unchanged' : 'created';
      hooks.files.set(script, '#!/bin/sh\n');
    } else if (script !== null && hooks.files.delete(script)) {
      scriptChange = 'removed';
    }
    const written = handlers.length > 0;
    return {
      template: t.name,
      settings: path,
      handlers,
      written,
      backup: written && existed ? `${path}.hookd-backup` : null,
      script,
      script_change: scriptChange,
      unchanged: !written && (scriptChange === 'unchanged' || scriptChange === 'absent'),
      idle: [],
      switch_scope: null,
    };
  }

  const commands: StubPart<TemplatesCommands> = {
    templates_catalog: ({ project }) => {
      const unreadable: UnreadableFile[] = [];
      for (const kind of KINDS) {
        for (const scope of SCOPES) {
          if (scope !== 'global' && project === null) continue;
          const settings = stubPath({ project: scope === 'global' ? null : project, kind, scope });
          try {
            hooks.read(settings);
          } catch (err) {
            unreadable.push({ kind, scope, settings, reason: (err as { message: string }).message });
          }
        }
      }
      const templates = STUB_TEMPLATES.map((t) => ({
        ...t,
        installed: [...(placements.get(t.name) ?? new Map<string, FileRef>())]
          .filter(([settings, file]) => (file.scope === 'global' || file.project === project) && !unreadable.some((u) => u.settings === settings))
          .map(([settings, file]) => {
            const script = scriptOf(t, file);
            const missing = script !== null && !hooks.files.has(script) ? [`script ${script}`] : [];
            return { kind: file.kind, scope: file.scope, settings, complete: missing.length === 0, missing };
          }),
      }));
      return { templates, unreadable };
    },
    install_template: ({ name, file }) => change('install', name, file),
    uninstall_template: ({ name, file }) => change('uninstall', name, file),
  };
  return { commands };
}
