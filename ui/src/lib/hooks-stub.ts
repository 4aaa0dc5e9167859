// The Hook editor's commands for the in-memory stub backend (stub.ts): the
// six settings files of each sample project as texts in a map, with the
// same JSON shapes, version tokens, conflicts and refusals as src-tauri.
//
// Validation and matcher checks are approximations of the core's (JS
// RegExp instead of Rust's regex; the main rules only); they exist so the
// screen can be developed and tested without the Rust side, which the real
// backend's tests cover.

import {
  addHandler,
  commandOf,
  identity,
  matcherOf,
  removeHandler,
  treeFrom,
  type Handler,
  type HooksTree,
  type JsonObject,
} from './hooks-model';
import type {
  DisabledEntry,
  EffectiveView,
  EventHooks,
  FileKind,
  FileRef,
  FileScope,
  HookEventInfo,
  HookFile,
  HookRef,
  MatcherCheck,
  MoveResult,
  Problem,
  SavePreview,
  SaveResult,
} from './types';

const TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'PowerShell', 'Read', 'Glob', 'Grep', 'Task', 'Agent', 'WebFetch', 'WebSearch', 'TodoWrite'];

/** A subset of the core's catalogue, enough for the screen. */
export const STUB_EVENTS: HookEventInfo[] = [
  ['PreToolUse', 'Before a tool runs; exit 2 or a deny decision blocks the call', 'tool_name', 600, TOOLS],
  ['PermissionRequest', 'When the agent is about to ask for permission to use a tool', 'tool_name', 600, TOOLS],
  ['PostToolUse', "After a tool call succeeded; sees the tool's input and response", 'tool_name', 600, TOOLS],
  ['PostToolUseFailure', 'After a tool call failed; sees the error', 'tool_name', 600, TOOLS],
  ['SessionStart', 'When a session starts, resumes, is cleared or compacted', 'source', 600, ['startup', 'resume', 'clear', 'compact', 'fork']],
  ['SessionEnd', 'When a session ends (clear, logout, exit, ...)', 'reason', 600, ['clear', 'logout', 'prompt_input_exit', 'other']],
  ['UserPromptSubmit', 'When the user submits a prompt, before the model sees it', null, 30, []],
  ['Stop', 'When the agent finishes its turn; exit 2 keeps it working', null, 600, []],
  ['SubagentStop', 'When a subagent finishes; exit 2 keeps it working', 'agent_type', 600, ['general-purpose', 'Explore', 'Plan']],
  ['Notification', 'When the agent sends a notification (permission prompt, idle, ...)', 'notification_type', 600, ['permission_prompt', 'idle_prompt', 'auth_success', 'elicitation_dialog']],
  ['PreCompact', 'Before the conversation is compacted (manual or auto)', 'trigger', 600, ['manual', 'auto']],
].map(([name, description, field, timeout, targets]) => ({
  name: name as string,
  description: description as string,
  takes_matcher: field !== null,
  match_field: field as string | null,
  default_timeout_secs: timeout as number,
  known_targets: targets as string[],
}));

const HOME = '/home/dev';
const HOOKD_HOME = `${HOME}/.hookd`;
const KINDS: FileKind[] = ['agent', 'managed'];
const SCOPES: FileScope[] = ['global', 'project', 'local'];

function fail(kind: string, message: string): { kind: string; message: string } {
  return { kind, message };
}

/** The stub's hook state: file texts by path and hookd's store of disabled hooks. */
export interface HooksStub {
  /** File texts by path (a missing key: the file does not exist). */
  files: Map<string, string>;
  /** Writes a file as an outside editor would; returns its path. */
  writeFile(path: string, text: string): void;
  /** Answers one of the editor's commands, or `undefined` when `cmd` is not one. */
  dispatch(cmd: string, args: Record<string, unknown> | undefined): { handled: boolean; value?: unknown };
}

/** Path of a settings file. */
export function stubPath(file: FileRef): string {
  if (file.scope === 'global') return file.kind === 'agent' ? `${HOME}/.claude/settings.json` : `${HOOKD_HOME}/settings.json`;
  if (!file.project) throw fail('invalid_input', `the ${file.scope} scope needs a project directory`);
  const dir = file.kind === 'agent' ? '.claude' : '.hookd';
  return `${file.project}/${dir}/${file.scope === 'local' ? 'settings.local.json' : 'settings.json'}`;
}

/** The version token of a text (null: absent); only equality matters. */
export function stubVersion(text: string | undefined): string {
  if (text === undefined) return 'absent';
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.length}-${h.toString(16).padStart(8, '0')}`;
}

function regexError(text: string): { message: string; position: number | null } | null {
  if (text.trim() === '' || text.trim() === '*' || /^[A-Za-z0-9_\- ,|]*$/.test(text)) return null;
  try {
    new RegExp(text, 'u');
    return null;
  } catch (err) {
    // JS does not say where; an unclosed group is the usual case.
    const open = text.lastIndexOf('(');
    return { message: err instanceof Error ? err.message : String(err), position: open >= 0 ? text.length : null };
  }
}

function matches(matcher: string | null, target: string): boolean {
  if (matcher === null || matcher.trim() === '' || matcher.trim() === '*') return true;
  if (/^[A-Za-z0-9_\- ,|]*$/.test(matcher)) return matcher.split(/[|,]/).map((s) => s.trim()).includes(target);
  try {
    return new RegExp(matcher, 'u').test(target);
  } catch {
    return false;
  }
}

function validate(value: JsonObject): Problem[] {
  const problems: Problem[] = [];
  const hooks = value.hooks;
  if (hooks === undefined) return problems;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return [{ path: 'hooks', message: 'expected an object' }];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!STUB_EVENTS.some((e) => e.name === event)) problems.push({ path: `hooks.${event}`, message: 'unknown event' });
    if (!Array.isArray(groups)) {
      problems.push({ path: `hooks.${event}`, message: 'expected an array of matcher groups' });
      continue;
    }
    groups.forEach((g, gi) => {
      const path = `hooks.${event}[${gi}]`;
      if (typeof g !== 'object' || g === null || Array.isArray(g)) return problems.push({ path, message: 'expected an object with "hooks" (and "matcher")' });
      if (typeof g.matcher === 'string') {
        const err = regexError(g.matcher);
        if (err) problems.push({ path: `${path}.matcher`, message: `invalid regex "${g.matcher}": ${err.message}` });
      }
      if (!Array.isArray(g.hooks)) return problems.push({ path: `${path}.hooks`, message: 'missing (expected an array of handlers)' });
      g.hooks.forEach((h, hi) => {
        const hp = `${path}.hooks[${hi}]`;
        if (typeof h !== 'object' || h === null || Array.isArray(h)) return problems.push({ path: hp, message: 'expected a handler object' });
        if (h.type === 'command' && (typeof h.command !== 'string' || h.command.trim() === '')) problems.push({ path: `${hp}.command`, message: 'expected a non-empty string' });
        if (h.timeout !== undefined && !(typeof h.timeout === 'number' && h.timeout > 0)) problems.push({ path: `${hp}.timeout`, message: 'expected a positive number (seconds)' });
        return undefined;
      });
      return undefined;
    });
  }
  return problems;
}

function render(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A stub with sample settings for `projects` (the first gets a few hooks). */
export function createHooksStub(projects: string[]): HooksStub {
  const files = new Map<string, string>();
  const disabled: (DisabledEntry & { path: string })[] = [];
  files.set(
    `${HOME}/.claude/settings.json`,
    render({
      model: 'opus',
      hooks: { Notification: [{ hooks: [{ type: 'command', command: 'notify-send "Claude needs you"' }] }] },
    }),
  );
  const first = projects[0];
  if (first) {
    files.set(
      `${first}/.claude/settings.json`,
      render({
        permissions: { allow: ['Bash(cargo test:*)'] },
        hooks: {
          PostToolUse: [
            {
              matcher: 'Write|Edit|MultiEdit',
              hooks: [
                { type: 'command', command: 'cargo fmt --all', timeout: 60, statusMessage: 'formatting' },
                { type: 'http', url: 'https://hooks.example.invalid/audit' },
              ],
            },
          ],
          Stop: [{ hooks: [{ type: 'command', command: 'notify-send "Claude is done"' }] }],
        },
      }),
    );
    files.set(
      `${first}/.hookd/settings.json`,
      render({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/deny-rm-rf.sh', timeout: 10 }] }] } }),
    );
  }

  function parse(path: string): { value: JsonObject; text: string | undefined } {
    const text = files.get(path);
    if (text === undefined || text.trim() === '') return { value: {}, text };
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('invalid_input', `${path}: expected an object`);
    return { value: value as JsonObject, text };
  }

  function structure(tree: HooksTree): EventHooks[] {
    return Object.entries(tree).map(([event, groups]) => ({
      event,
      known: STUB_EVENTS.some((e) => e.name === event),
      description: STUB_EVENTS.find((e) => e.name === event)?.description ?? '',
      groups: groups.map((g) => ({
        matcher: matcherOf(g),
        raw: g,
        extra_keys: Object.keys(g).filter((k) => k !== 'matcher' && k !== 'hooks'),
        handlers: g.hooks.map((h) => ({
          raw: h,
          handler_type: typeof h.type === 'string' ? h.type : '',
          command: commandOf(h),
          timeout: typeof h.timeout === 'number' ? h.timeout : null,
          editable: h.type === 'command',
          known_type: ['command', 'http', 'prompt', 'mcp_tool', 'agent'].includes(String(h.type)),
          extra_keys: Object.keys(h).filter((k) => !['type', 'command', 'timeout'].includes(k)),
        })),
      })),
    }));
  }

  function hookFile(file: FileRef): HookFile {
    const path = stubPath(file);
    const out: HookFile = {
      file,
      path,
      exists: files.has(path),
      read_only: false,
      version: stubVersion(files.get(path)),
      parse_error: null,
      problems: [],
      editable: true,
      events: [],
      other_keys: [],
      disabled: disabled.filter((d) => d.path === path).map(({ path: _p, ...d }) => d),
    };
    let value: JsonObject;
    try {
      value = parse(path).value;
    } catch (err) {
      out.parse_error = `not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      out.editable = false;
      return out;
    }
    out.problems = validate(value);
    out.other_keys = Object.keys(value).filter((k) => k !== 'hooks');
    out.events = structure(treeFrom(value.hooks));
    return out;
  }

  function fileArg(args: Record<string, unknown> | undefined, name = 'file'): FileRef {
    const f = args?.[name] as FileRef | undefined;
    if (!f || typeof f.kind !== 'string' || typeof f.scope !== 'string') throw fail('invalid_input', `${name} must be {project, kind, scope}`);
    return f;
  }

  function edited(file: FileRef, hooks: unknown, version: string, force: boolean): { path: string; before: string | undefined; after: string } {
    const path = stubPath(file);
    const { value, text } = parse(path);
    if (!force && stubVersion(text) !== version) {
      throw fail('conflict', `${path} changed on disk since it was loaded; nothing was written (reload it, or merge your edits into the new contents)`);
    }
    if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw fail('invalid_input', `${path} is not valid hook settings: hooks: expected an object`);
    const next: JsonObject = {};
    const empty = Object.keys(hooks).length === 0;
    let placed = false;
    for (const [k, v] of Object.entries(value)) {
      if (k === 'hooks') {
        placed = true;
        if (!empty) next.hooks = hooks as JsonObject;
      } else next[k] = v;
    }
    if (!placed && !empty) next.hooks = hooks as JsonObject;
    const problems = validate(next);
    if (problems.length > 0) {
      throw fail('invalid_input', `${path} is not valid hook settings: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    }
    return { path, before: text, after: render(next) };
  }

  function effective(project: string): EffectiveView {
    const view: EffectiveView = { files: [], hooks: [], errors: [], all_disabled_by: [] };
    const ids: string[] = [];
    for (const kind of KINDS) {
      for (const scope of SCOPES) {
        const f = hookFile({ project, kind, scope });
        view.files.push({ kind, scope, path: f.path, exists: f.exists, skipped: f.parse_error !== null, read_only: false });
        const push = (event: string, matcher: string | null, gi: number, hi: number, h: Handler, enabled: boolean): void => {
          const index = view.hooks.length;
          const id = identity(h);
          const dup = enabled
            ? view.hooks.findIndex((e, i) => e.enabled && e.duplicate_of === null && e.kind === kind && e.event === event && (e.matcher ?? '') === (matcher ?? '') && ids[i] === id)
            : -1;
          ids.push(id);
          view.hooks.push({
            index,
            kind,
            scope,
            path: f.path,
            event,
            matcher,
            group_index: gi,
            handler_index: hi,
            handler_type: String(h.type ?? ''),
            summary: String(h.command ?? h.url ?? h.prompt ?? JSON.stringify(h)),
            command: commandOf(h),
            timeout: typeof h.timeout === 'number' ? h.timeout : null,
            enabled,
            duplicate_of: dup >= 0 ? dup : null,
          });
        };
        for (const e of f.events) e.groups.forEach((g, gi) => g.handlers.forEach((h, hi) => push(e.event, g.matcher, gi, hi, h.raw as Handler, true)));
        for (const d of f.disabled) push(d.event, d.matcher, 0, 0, d.handler as Handler, false);
      }
    }
    return view;
  }

  function dispatch(cmd: string, args: Record<string, unknown> | undefined): { handled: boolean; value?: unknown } {
    const done = (value: unknown): { handled: boolean; value: unknown } => ({ handled: true, value });
    switch (cmd) {
      case 'hook_events':
        return done(STUB_EVENTS);
      case 'hook_files': {
        const project = String(args?.project ?? '');
        if (!project.startsWith('/')) throw fail('invalid_input', `project "${project}" is not an absolute path`);
        const out: HookFile[] = [];
        for (const kind of KINDS) for (const scope of SCOPES) out.push(hookFile({ project, kind, scope }));
        return done(out);
      }
      case 'effective_hooks':
        return done(effective(String(args?.project ?? '')));
      case 'check_matcher': {
        const spec = STUB_EVENTS.find((e) => e.name === args?.event);
        if (!spec) throw fail('invalid_input', `unknown event "${String(args?.event)}"`);
        const text = typeof args?.text === 'string' ? args.text : null;
        const err = text === null ? null : regexError(text);
        const kind = text === null || text.trim() === '' || text.trim() === '*' ? 'all' : /^[A-Za-z0-9_\- ,|]*$/.test(text) ? 'exact' : 'regex';
        const check: MatcherCheck = {
          ok: err === null,
          kind: err === null ? kind : null,
          error: err ? `invalid regex "${text}"${err.position !== null ? ` at position ${err.position}` : ''}: ${err.message}` : null,
          position: err?.position ?? null,
          supported: spec.takes_matcher,
          field: spec.match_field,
          matches: err === null ? spec.known_targets.filter((t) => !spec.takes_matcher || matches(text, t)) : [],
          known: spec.known_targets.length,
        };
        return done(check);
      }
      case 'preview_hooks_save': {
        const file = fileArg(args);
        const e = edited(file, args?.hooks, String(args?.version ?? ''), false);
        const preview: SavePreview = { path: e.path, before: e.before ?? '', after: e.after, changed: e.before !== e.after, creates: e.before === undefined };
        return done(preview);
      }
      case 'save_hooks': {
        const file = fileArg(args);
        const e = edited(file, args?.hooks, String(args?.version ?? ''), args?.force === true);
        files.set(e.path, e.after);
        const result: SaveResult = { path: e.path, created: e.before === undefined, backup: e.before === undefined ? null : `${e.path}.hookd-backup`, version: stubVersion(e.after) };
        return done(result);
      }
      case 'set_hook_enabled': {
        const file = fileArg(args);
        const hook = args?.hook as HookRef;
        const path = stubPath(file);
        const { value, text } = parse(path);
        if (stubVersion(text) !== args?.version) throw fail('conflict', `${path} changed on disk since it was loaded; nothing was written`);
        let tree = treeFrom(value.hooks);
        if (args?.enabled === true) {
          const i = disabled.findIndex((d) => d.path === path && d.event === hook.event && d.command === hook.command);
          if (i < 0) throw fail('not_found', `no disabled ${hook.event} hook with command "${hook.command}" in ${path}`);
          const [d] = disabled.splice(i, 1);
          tree = addHandler(tree, d!.event, d!.matcher, d!.handler as Handler);
        } else {
          const groups = tree[hook.event] ?? [];
          const gi = groups.findIndex((g) => (hook.matcher === null || matcherOf(g) === hook.matcher) && g.hooks.some((h) => commandOf(h) === hook.command));
          if (gi < 0) throw fail('not_found', `no ${hook.event} hook with command "${hook.command}" in ${path}`);
          const hi = groups[gi]!.hooks.findIndex((h) => commandOf(h) === hook.command);
          disabled.push({ path, event: hook.event, matcher: matcherOf(groups[gi]!), command: hook.command, handler: groups[gi]!.hooks[hi]!, disabled_at: new Date().toISOString() });
          tree = removeHandler(tree, hook.event, gi, hi);
        }
        files.set(path, edited(file, tree, stubVersion(text), false).after);
        return done(1);
      }
      case 'move_hook': {
        const from = fileArg(args, 'from');
        const to = fileArg(args, 'to');
        const hook = args?.hook as HookRef;
        const fromPath = stubPath(from);
        const toPath = stubPath(to);
        if (fromPath === toPath) throw fail('invalid_input', 'the hook is already in that file: pick another scope or kind');
        const src = parse(fromPath);
        if (stubVersion(src.text) !== args?.version) throw fail('conflict', `${fromPath} changed on disk since it was loaded; nothing was written`);
        let srcTree = treeFrom(src.value.hooks);
        const groups = srcTree[hook.event] ?? [];
        const gi = groups.findIndex((g) => (hook.matcher === null || matcherOf(g) === hook.matcher) && g.hooks.some((h) => commandOf(h) === hook.command));
        if (gi < 0) throw fail('not_found', `no ${hook.event} hook with command "${hook.command}" in ${fromPath}`);
        const hi = groups[gi]!.hooks.findIndex((h) => commandOf(h) === hook.command);
        const handler = groups[gi]!.hooks[hi]!;
        const matcher = matcherOf(groups[gi]!);
        srcTree = removeHandler(srcTree, hook.event, gi, hi);
        const dst = parse(toPath);
        let dstTree: HooksTree;
        try {
          dstTree = addHandler(treeFrom(dst.value.hooks), hook.event, matcher, handler);
        } catch (err) {
          throw fail('invalid_input', `${toPath} already has this ${hook.event} hook (command "${hook.command}") in that matcher group`);
        }
        files.set(toPath, edited(to, dstTree, stubVersion(dst.text), false).after);
        files.set(fromPath, edited(from, srcTree, stubVersion(src.text), false).after);
        const result: MoveResult = { from: fromPath, to: toPath, moved: 1 };
        return done(result);
      }
      case 'watch_settings':
        return done([]);
      default:
        return { handled: false };
    }
  }

  return {
    files,
    writeFile(path, text) {
      files.set(path, text);
    },
    dispatch,
  };
}
