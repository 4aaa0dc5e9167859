// The Templates tab's commands for the in-memory stub backend (stub.ts): a
// few templates of the real catalogue, installed into and removed from the
// hooks stub's settings texts with the same answers as src-tauri. The real
// install (scripts on disk, the safe write) is the core's, tested in Rust.

import { addHandler, commandOf, matcherOf, removeHandler, treeFrom, type HooksTree, type JsonObject } from './hooks-model';
import { stubPath, type HooksStub } from './hooks-stub';
import type { FileKind, FileRef, FileScope, TemplateChange, TemplateInfo, TemplatePlacement, UnreadableFile } from './types';

const HOOKD_HOME = '/home/dev/.hookd';

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

function fail(kind: string, message: string): { kind: string; message: string } {
  return { kind, message };
}

/** Where a template's script goes for `file` (null: no script). */
function scriptPath(t: StubTemplate, file: FileRef): string | null {
  if (t.script === null) return null;
  const dir = file.scope === 'global' ? `${HOOKD_HOME}/hooks` : `${file.project}/.hookd/${file.scope === 'local' ? 'hooks-local' : 'hooks'}`;
  return `${dir}/${t.script}`;
}

/** Answers templates_catalog, install_template and uninstall_template from the hooks stub's files. */
export function dispatchTemplates(stub: HooksStub, cmd: string, args: Record<string, unknown> | undefined): { handled: boolean; value?: unknown } {
  const read = (path: string): { value: JsonObject; tree: HooksTree } => {
    const text = stub.files.get(path);
    const value = text === undefined || text.trim() === '' ? {} : (JSON.parse(text) as JsonObject);
    return { value, tree: treeFrom(value.hooks) };
  };
  const write = (path: string, value: JsonObject, tree: HooksTree): void => {
    const next: JsonObject = { ...value };
    if (Object.keys(tree).length > 0) next.hooks = tree;
    else delete next.hooks;
    stub.writeFile(path, `${JSON.stringify(next, null, 2)}\n`);
  };
  const present = (tree: HooksTree, event: string, matcher: string | null, command: string): boolean =>
    (tree[event] ?? []).some((g) => matcherOf(g) === matcher && g.hooks.some((x) => commandOf(x) === command));
  const template = (): StubTemplate => {
    const t = STUB_TEMPLATES.find((x) => x.name === args?.name);
    if (!t) throw fail('not_found', `no template called "${String(args?.name)}" (hookd templates list shows them)`);
    return t;
  };
  const fileArg = (t: StubTemplate): FileRef => {
    const file = args?.file as FileRef;
    if (!t.kinds.includes(file.kind)) throw fail('invalid_input', `${t.name} adds hookd-emit entries, which belong in Claude Code's settings, not hookd's`);
    return file;
  };

  switch (cmd) {
    case 'templates_catalog': {
      const project = typeof args?.project === 'string' ? args.project : null;
      // As the core does: a file that does not parse is listed, and the others still answer.
      const trees = new Map<string, HooksTree>();
      const unreadable: UnreadableFile[] = [];
      for (const kind of ['agent', 'managed'] as FileKind[]) {
        for (const scope of ['global', 'project', 'local'] as FileScope[]) {
          if (scope !== 'global' && project === null) continue;
          const path = stubPath({ project: scope === 'global' ? null : project, kind, scope });
          try {
            trees.set(path, read(path).tree);
          } catch (err) {
            unreadable.push({ kind, scope, settings: path, reason: `${path}: not valid JSON: ${(err as Error).message}` });
          }
        }
      }
      const templates: TemplateInfo[] = STUB_TEMPLATES.map((t) => {
        const installed: TemplatePlacement[] = [];
        for (const kind of t.kinds) {
          for (const scope of ['global', 'project', 'local'] as const) {
            if (scope !== 'global' && project === null) continue;
            const file: FileRef = { project: scope === 'global' ? null : project, kind, scope };
            const path = stubPath(file);
            const script = scriptPath(t, file);
            const tree = trees.get(path);
            if (tree === undefined) continue;
            const missing = t.hooks.filter((x) => !present(tree, x.event, x.matcher, script ?? `hookd-emit ${x.event}`)).map((x) => `handler ${x.event}${x.matcher ? ` (${x.matcher})` : ''}`);
            if (missing.length === t.hooks.length) continue;
            if (script !== null && !stub.files.has(script)) missing.push(`script ${script}`);
            installed.push({ kind, scope, settings: path, complete: missing.length === 0, missing });
          }
        }
        return { ...t, installed };
      });
      return { handled: true, value: { templates, unreadable } };
    }
    case 'install_template':
    case 'uninstall_template': {
      const t = template();
      const file = fileArg(t);
      const path = stubPath(file);
      const script = scriptPath(t, file);
      const { value, tree } = read(path);
      let next = tree;
      const handlers: string[] = [];
      for (const x of t.hooks) {
        const command = script ?? `hookd-emit ${x.event}`;
        const label = `${x.event}${x.matcher ? ` (${x.matcher})` : ''}`;
        if (cmd === 'install_template' && !present(next, x.event, x.matcher, command)) {
          next = addHandler(next, x.event, x.matcher, { type: 'command', command, ...(x.timeout !== null ? { timeout: x.timeout } : {}) });
          handlers.push(label);
        } else if (cmd === 'uninstall_template' && present(next, x.event, x.matcher, command)) {
          const gi = (next[x.event] ?? []).findIndex((g) => matcherOf(g) === x.matcher && g.hooks.some((h) => commandOf(h) === command));
          const hi = next[x.event]![gi]!.hooks.findIndex((h) => commandOf(h) === command);
          next = removeHandler(next, x.event, gi, hi);
          handlers.push(label);
        }
      }
      const existed = stub.files.has(path);
      if (handlers.length > 0) write(path, value, next);
      let scriptChange: TemplateChange['script_change'];
      if (script === null) {
        scriptChange = 'absent';
      } else if (cmd === 'install_template') {
        scriptChange = stub.files.has(script) ? 'unchanged' : 'created';
        stub.files.set(script, '#!/bin/sh\n');
      } else {
        scriptChange = stub.files.has(script) ? 'removed' : 'absent';
        stub.files.delete(script);
      }
      const change: TemplateChange = {
        template: t.name,
        settings: path,
        handlers,
        written: handlers.length > 0,
        backup: handlers.length > 0 && existed ? `${path}.hookd-backup` : null,
        script,
        script_change: scriptChange,
        unchanged: handlers.length === 0 && (scriptChange === 'unchanged' || scriptChange === 'absent'),
      };
      return { handled: true, value: change };
    }
    default:
      return { handled: false };
  }
}
