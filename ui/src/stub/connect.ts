// The Connect dialog's commands in the stub backend: the agent's settings
// files as texts, and which of hookd's modes each holds.
//
// Canned, not computed: connecting shows the file with its whole `hooks`
// object replaced by canned hookd-emit entries for the mode (recording or
// managed), disconnecting shows it without `hooks`; a file's version is a
// revision number bumped by every write. The real edit (keeping the user's
// own hooks, the event lists, the version token) is hookd-core's, tested in
// Rust; so is what keeps an agent from running the entries (`warnings`,
// none unless a test sets them).

import type { ConnectMode, ConnectPreview, ConnectResult, Scope, JsonValue, ProjectInfo } from '../lib/types';
import { fail, type StubPart } from './types';

export type ConnectCommands = 'connect_preview' | 'connect_apply' | 'disconnect_preview' | 'disconnect_apply';

const HOME = '/home/dev';
const EMIT = '/usr/local/bin/hookd-emit';

/** The events `hookd connect` records, with the name hookd-emit is given. */
const RECORD_EVENTS: [string, string][] = [
  ['PreToolUse', 'pre_tool_use'],
  ['PostToolUse', 'post_tool_use'],
  ['PostToolUseFailure', 'post_tool_use_failure'],
  ['SessionStart', 'session_start'],
  ['SessionEnd', 'session_end'],
  ['UserPromptSubmit', 'user_prompt_submit'],
  ['Stop', 'stop'],
  ['SubagentStart', 'subagent_start'],
  ['SubagentStop', 'subagent_stop'],
  ['Notification', 'notification'],
  ['PreCompact', 'pre_compact'],
];
/** The events `hookd connect --managed` answers. */
const MANAGED_EVENTS: [string, string][] = [RECORD_EVENTS[0]!, ['PermissionRequest', 'permission_request'], ...RECORD_EVENTS.slice(1), ['PostCompact', 'post_compact']];
/** Events whose entries carry `"matcher": "*"`. */
const TOOL_EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure'];
/** Where each scope's settings file is, under the project (or home). */
/** The scopes Connect writes (never the administrator's policy file). */
type ConnectableScope = Exclude<Scope, 'policy'>;

const FILES: Record<ConnectableScope, string> = { global: '.claude/settings.json', project: '.claude/settings.json', local: '.claude/settings.local.json' };

/** The canned `hooks` object of a mode. */
function hookdHooks(mode: ConnectMode): { [key in string]: JsonValue } {
  const wait = mode === 'managed';
  return Object.fromEntries(
    (wait ? MANAGED_EVENTS : RECORD_EVENTS).map(([event, arg]) => [
      event,
      [{ ...(TOOL_EVENTS.includes(event) ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `${EMIT}${wait ? ' --wait' : ''} ${arg}`, timeout: wait ? 610 : 10 }] }],
    ]),
  );
}

const render = (value: { [key in string]: JsonValue }): string => `${JSON.stringify(value, null, 2)}\n`;

/** The Connect dialog's part of the stub, with its controls. */
export interface ConnectStub {
  commands: StubPart<ConnectCommands>;
  /** The agent's settings files, by path. */
  files: Map<string, string>;
  /** Writes a file as an outside editor would (a new version, no hookd entries). */
  writeFile(path: string, text: string): void;
  /** What a connect of each agent (by name) warns, as the core's `connect_warnings` would; none when unset. */
  warnings: Map<string, string[]>;
}

/** Connect over the sample projects (their `connected` flags are the state the Projects screen shows). */
export function createConnectStub(projects: ProjectInfo[]): ConnectStub {
  const files = new Map<string, string>();
  const revisions = new Map<string, number>();
  /** The mode of hookd's entries in each file that has them. */
  const modes = new Map<string, ConnectMode>();
  const warnings = new Map<string, string[]>();
  const version = (path: string): string => `rev-${revisions.get(path) ?? 0}`;
  const write = (path: string, text: string): void => {
    files.set(path, text);
    revisions.set(path, (revisions.get(path) ?? 0) + 1);
  };

  function project(root: string): ProjectInfo {
    const p = projects.find((x) => x.root === root);
    if (!p) throw fail('not_found', `project directory ${root}: No such file or directory (os error 2)`);
    return p;
  }
  const pathOf = (root: string, scope: ConnectableScope): string => `${scope === 'global' ? HOME : project(root).root}/${FILES[scope]}`;

  for (const p of projects) {
    for (const scope of ['global', 'project', 'local'] as const) {
      const path = pathOf(p.root, scope);
      if (p.connected[scope] && !files.has(path)) {
        write(path, render({ hooks: hookdHooks('record') }));
        modes.set(path, 'record');
      }
    }
  }

  function preview(root: string, agent: string, scope: Scope, mode: ConnectMode | 'disconnect'): ConnectPreview & { next: ConnectMode | null } {
    if (scope === 'policy') throw fail('invalid_input', "the policy settings file is the administrator's; hookd never writes it");
    const path = pathOf(root, scope);
    const before = files.get(path);
    const current = modes.get(path) ?? null;
    const next = mode === 'disconnect' ? null : mode;
    let after = before;
    if (next !== current) {
      let value: { [key in string]: JsonValue };
      try {
        value = before === undefined ? {} : (JSON.parse(before) as { [key in string]: JsonValue });
      } catch {
        throw fail('invalid_input', `refusing to edit ${path}: not valid JSON`);
      }
      const { hooks: _old, ...rest } = value;
      after = render(next === null ? rest : { ...rest, hooks: hookdHooks(next) });
    }
    const shown = next ?? current;
    return {
      path,
      exists: before !== undefined,
      changes: after !== before,
      before: before ?? '',
      after: after ?? '',
      events: after === before || shown === null ? [] : (shown === 'managed' ? MANAGED_EVENTS : RECORD_EVENTS).map(([event]) => event),
      emit_command: mode === 'disconnect' ? '' : EMIT,
      emit_found: true,
      hooks_disabled: false,
      version: version(path),
      notes: [],
      warnings: mode === 'disconnect' ? [] : [...(warnings.get(agent) ?? [])],
      next,
    };
  }

  function apply(root: string, agent: string, scope: Scope, mode: ConnectMode | 'disconnect', expected: string): ConnectResult {
    const { path, exists, changes, after, events, version: current, next, warnings: said } = preview(root, agent, scope, mode);
    if (current !== expected) throw fail('conflict', `${path} changed since the preview; nothing was written. Review the new change and apply again`);
    if (changes) {
      write(path, after);
      if (next === null) modes.delete(path);
      else modes.set(path, next);
      for (const p of scope === 'global' ? projects : [project(root)]) p.connected[scope as ConnectableScope] = next !== null; // preview() refused policy
    }
    return { path, written: changes, created: changes && !exists, backup: changes && exists ? `${path}.hookd-backup` : null, events, warnings: said };
  }

  const commands: StubPart<ConnectCommands> = {
    connect_preview: ({ project: root, agent, scope, mode }) => {
      const { next: _next, ...shown } = preview(root, agent, scope, mode);
      return shown;
    },
    connect_apply: ({ project: root, agent, scope, mode, version: expected }) => apply(root, agent, scope, mode, expected),
    disconnect_preview: ({ project: root, agent, scope }) => {
      const { next: _next, ...shown } = preview(root, agent, scope, 'disconnect');
      return shown;
    },
    disconnect_apply: ({ project: root, agent, scope, version: expected }) => apply(root, agent, scope, 'disconnect', expected),
  };

  return {
    commands,
    files,
    warnings,
    writeFile(path, text) {
      write(path, text);
      modes.delete(path);
    },
  };
}
