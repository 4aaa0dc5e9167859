// The Hook editor's commands in the stub backend: the six settings files of
// each sample project, held as texts in a map.
//
// A store, not a second core: a file's answer is its text parsed as JSON
// and reshaped into the `HookFile` shape (no validation: `problems` is
// always empty; `bad_matchers` lists the groups whose matcher is one of the
// canned invalid checks), its version is a revision number bumped by every write,
// the effective view lists every handler of every file (no duplicate
// detection), and `check_matcher` answers from a table of canned checks.
// Saving stores the `hooks` object the UI sent; disabling and moving (and
// the move's preview) use the UI's own tree edits (lib/hooks-model.ts). The real rules (matchers,
// validation, version tokens, merging) are hookd-core's, tested in Rust.

import { addHandler, commandOf, matcherOf, removeHandler, treeFrom, type Handler, type HooksTree, type JsonObject } from '../lib/hooks-model';
import type { AgentHookFile, BadMatcher, DisabledEntry, EffectiveView, PluginHook, EventHooks, Kind, FileRef, FileReview, Scope, HookEventInfo, HookFile, HookRef, JsonValue, MatcherCheck, SavePreview } from '../lib/types';
import type { AgentEdit } from '../lib/bindings/AgentEdit';
import type { AgentHookRules } from '../lib/bindings/AgentHookRules';
import { DISABLED, fail, RUNS, type StubPart } from './types';

export type HooksCommands =
  | 'hook_events'
  | 'hook_files'
  | 'agent_hook_files'
  | 'agent_hook_rules'
  | 'agent_hook_preview'
  | 'agent_hook_apply'
  | 'set_agent_hook_enabled'
  | 'agent_verdicts'
  | 'effective_hooks'
  | 'check_matcher'
  | 'copy_hook'
  | 'preview_hooks_save'
  | 'save_hooks'
  | 'set_hook_enabled'
  | 'preview_move_hook'
  | 'move_hook'
  | 'watch_settings'
  | 'trust_review'
  | 'trust_approve';

const TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'PowerShell', 'Read', 'Glob', 'Grep', 'Task', 'Agent', 'WebFetch', 'WebSearch', 'TodoWrite'];

/** A subset of the core's event catalogue, enough for the screen. */
export const STUB_EVENTS: HookEventInfo[] = (
  [
    ['PreToolUse', 'pre_tool_use', 'Before a tool runs; exit 2 or a deny decision blocks the call', 'tool_name', 600, TOOLS],
    ['PermissionRequest', 'permission_request', 'When the agent is about to ask for permission to use a tool', 'tool_name', 600, TOOLS],
    ['PostToolUse', 'post_tool_use', "After a tool call succeeded; sees the tool's input and response", 'tool_name', 600, TOOLS],
    ['PostToolUseFailure', 'post_tool_use_failure', 'After a tool call failed; sees the error', 'tool_name', 600, TOOLS],
    ['SessionStart', 'session_start', 'When a session starts, resumes, is cleared or compacted', 'source', 600, ['startup', 'resume', 'clear', 'compact', 'fork']],
    ['SessionEnd', 'session_end', 'When a session ends (clear, logout, exit, ...)', 'reason', 600, ['clear', 'logout', 'prompt_input_exit', 'other']],
    ['UserPromptSubmit', 'user_prompt_submit', 'When the user submits a prompt, before the model sees it', null, 30, []],
    ['Stop', 'stop', 'When the agent finishes its turn; exit 2 keeps it working', null, 600, []],
    ['SubagentStop', 'subagent_stop', 'When a subagent finishes; exit 2 keeps it working', 'agent_type', 600, ['general-purpose', 'Explore', 'Plan']],
    ['Notification', 'notification', 'When the agent sends a notification (permission prompt, idle, ...)', 'notification_type', 600, ['permission_prompt', 'idle_prompt', 'auth_success', 'elicitation_dialog']],
    ['PreCompact', 'pre_compact', 'Before the conversation is compacted (manual or auto)', 'trigger', 600, ['manual', 'auto']],
  ] as const
// Canned: the stored spelling is written out, as the core's catalogue answers it.
).map(([name, stored, description, field, timeout, targets]) => ({
  name,
  stored,
  recorded: true,
  description,
  takes_matcher: field !== null,
  match_field: field,
  default_timeout_secs: timeout,
  known_targets: [...targets],
}));

/**
 * Canned matcher checks, by text: what the core answers for a few matchers
 * worth seeing in the add form. Any other text is answered as an exact name
 * when it is one of the event's known targets, else as a regex matching none.
 */
const CANNED_CHECKS: Record<string, Pick<MatcherCheck, 'ok' | 'kind' | 'error' | 'position'> & { matches?: string[] }> = {
  'Bash(': { ok: false, kind: null, error: 'invalid regex "Bash(" at position 4: unclosed group', position: 4 },
  'Bash(*docker*)': { ok: false, kind: null, error: 'invalid regex "Bash(*docker*)" at position 5: repetition operator missing expression', position: 5 },
  '[': { ok: false, kind: null, error: 'invalid regex "[" at position 0: unclosed character class', position: 0 },
  'Write|Edit|MultiEdit': { ok: true, kind: 'exact', error: null, position: null, matches: ['Write', 'Edit', 'MultiEdit'] },
  'mcp__.*': { ok: true, kind: 'regex', error: null, position: null, matches: [] },
};

const HOME = '/home/dev';
const KINDS: Kind[] = ['agent', 'managed'];
/** The scopes of the files the editor edits (the administrator's policy file is read-only and not in the stub). */
export type EditableScope = Exclude<Scope, 'policy'>;
const SCOPES: EditableScope[] = ['global', 'project', 'local'];
/** Where each settings file is: its folder under the project (or home) and its name. */
const PLACES: Record<Kind, Record<EditableScope, string>> = {
  agent: { global: '.claude/settings.json', project: '.claude/settings.json', local: '.claude/settings.local.json' },
  managed: { global: '.hookd/settings.json', project: '.hookd/settings.json', local: '.hookd/settings.local.json' },
};
/** The handler types the editor edits, and the ones it shows read-only. */
const HANDLER_TYPES: Record<string, boolean> = { command: true, http: false, prompt: false, mcp_tool: false, agent: false };

/** Path of a settings file. */
export function stubPath(file: FileRef): string {
  if (file.scope === 'policy') throw fail('invalid_input', 'the policy file is read-only');
  if (file.scope !== 'global' && !file.project) throw fail('invalid_input', `the ${file.scope} scope needs a project directory`);
  return `${file.scope === 'global' ? HOME : file.project}/${PLACES[file.kind][file.scope]}`;
}

function render(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The Hook editor's part of the stub, with its controls. */
export interface HooksStub {
  commands: StubPart<HooksCommands>;
  /** File texts by path (no key: the file does not exist); scripts of templates too. */
  files: Map<string, string>;
  /** Writes a file as an outside editor would (a new version). */
  writeFile(path: string, text: string): void;
  /** The file's parsed JSON and its text; throws `invalid_input` when it is not a JSON object. */
  read(path: string): { value: JsonObject; text: string | undefined };
}

/** A stub with sample settings for `projects` (the first gets a few hooks). */
export function createHooksStub(projects: string[]): HooksStub {
  const files = new Map<string, string>();
  const revisions = new Map<string, number>();
  const disabled: (DisabledEntry & { path: string })[] = [];
  const version = (path: string): string => `rev-${revisions.get(path) ?? 0}`;
  const write = (path: string, text: string): void => {
    files.set(path, text);
    revisions.set(path, (revisions.get(path) ?? 0) + 1);
  };

  write(`${HOME}/.claude/settings.json`, render({ model: 'opus', hooks: { Notification: [{ hooks: [{ type: 'command', command: 'notify-send "Claude needs you"' }] }] } }));
  const first = projects[0];
  if (first) {
    write(
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
    write(`${first}/.hookd/settings.json`, render({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/deny-rm-rf.sh', timeout: 10 }] }] } }));
  }

  function read(path: string): { value: JsonObject; text: string | undefined } {
    const text = files.get(path);
    if (text === undefined || text.trim() === '') return { value: {}, text };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw fail('invalid_input', `${path}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('invalid_input', `${path}: expected an object`);
    return { value: value as JsonObject, text };
  }

  /** The tree as the `HookFile` shape shows it. */
  function structure(tree: HooksTree): EventHooks[] {
    return Object.entries(tree).map(([event, groups]) => {
      const info = STUB_EVENTS.find((e) => e.name === event);
      return {
        event,
        known: info !== undefined,
        description: info?.description ?? '',
        groups: groups.map((g) => ({
          matcher: matcherOf(g),
          raw: g,
          extra_keys: Object.keys(g).filter((k) => k !== 'matcher' && k !== 'hooks'),
          handlers: g.hooks.map((h) => ({
            raw: h,
            handler_type: typeof h.type === 'string' ? h.type : '',
            command: commandOf(h),
            timeout: typeof h.timeout === 'number' ? h.timeout : null,
            editable: HANDLER_TYPES[String(h.type)] === true,
            known_type: String(h.type) in HANDLER_TYPES,
            extra_keys: Object.keys(h).filter((k) => !['type', 'command', 'timeout'].includes(k)),
            runs: RUNS,
          })),
        })),
      };
    });
  }

  function hookFile(file: FileRef): HookFile {
    const path = stubPath(file);
    const out: HookFile = {
      file,
      path,
      exists: files.has(path),
      read_only: false,
      version: version(path),
      parse_error: null,
      problems: [],
      bad_matchers: [],
      editable: true,
      events: [],
      other_keys: [],
      disabled: disabled.filter((d) => d.path === path).map(({ path: _p, ...d }) => d),
    };
    try {
      const { value } = read(path);
      out.other_keys = Object.keys(value).filter((k) => k !== 'hooks');
      out.events = structure(treeFrom(value.hooks));
      out.bad_matchers = badMatchers(out.events);
    } catch (err) {
      out.parse_error = (err as { message: string }).message;
      out.editable = false;
    }
    return out;
  }

  /** Groups whose matcher is one of the canned invalid checks, as the core lists them. */
  function badMatchers(events: EventHooks[]): BadMatcher[] {
    return events.flatMap((e) =>
      e.groups.flatMap((g, gi) => {
        const canned = g.matcher === null ? undefined : CANNED_CHECKS[g.matcher];
        return canned && !canned.ok && g.matcher !== null ? [{ path: `hooks.${e.event}[${gi}].matcher`, text: g.matcher, why: canned.error ?? 'invalid matcher' }] : [];
      }),
    );
  }

  /** The file with its `hooks` replaced (left out when empty), refused when `expected` is not its version. */
  function edited(path: string, hooks: HooksTree, expected: string | null): { before: string | undefined; after: string } {
    const { value, text } = read(path);
    if (expected !== null && expected !== version(path)) {
      throw fail('conflict', `${path} changed on disk since it was loaded; nothing was written (reload it, or merge your edits into the new contents)`);
    }
    const next: JsonObject = { ...value };
    if (Object.keys(hooks).length > 0) next.hooks = hooks;
    else delete next.hooks;
    return { before: text, after: render(next) };
  }

  /** The group and handler of `hook` in `tree`: a lookup by event, matcher and command. */
  function locate(tree: HooksTree, hook: { event: string; matcher: string | null; command: string }, path: string): [number, number] {
    const groups = tree[hook.event] ?? [];
    const gi = groups.findIndex((g) => (hook.matcher === null || matcherOf(g) === hook.matcher) && g.hooks.some((h) => commandOf(h) === hook.command));
    if (gi < 0) throw fail('not_found', `no ${hook.event} hook with command "${hook.command}" in ${path}`);
    return [gi, groups[gi]!.hooks.findIndex((h) => commandOf(h) === hook.command)];
  }

  /** Both files of a move as it would write them; refused when either is not at its expected version. */
  type Edited = ReturnType<typeof edited>;
  function planMove(from: FileRef, to: FileRef, hook: HookRef, expected: string, toExpected: string | null): { fromPath: string; toPath: string; source: Edited; target: Edited } {
    const fromPath = stubPath(from);
    const toPath = stubPath(to);
    if (fromPath === toPath) throw fail('invalid_input', 'the hook is already in that file: pick another scope or kind');
    const tree = treeFrom(read(fromPath).value.hooks);
    const [gi, hi] = locate(tree, hook, fromPath);
    const group = tree[hook.event]![gi]!;
    const target = addHandler(treeFrom(read(toPath).value.hooks), hook.event, matcherOf(group), group.hooks[hi]!);
    return { fromPath, toPath, source: edited(fromPath, removeHandler(tree, hook.event, gi, hi), expected), target: edited(toPath, target, toExpected) };
  }

  function trustReview(project: string): FileReview[] {
    return (['project', 'local'] as const).map((scope) => {
      const f = hookFile({ project, kind: 'managed', scope });
      return { scope, path: f.path, exists: f.exists, trust: f.exists ? { state: 'trusted', approved_at: '2026-01-01T00:00:00+00:00' } : { state: 'not_approved' }, digest: f.exists ? `stub:${f.version}` : null, hooks: [], problem: null };
    });
  }

  // The other agents' files, edited in place (json paths renumbered by a
  // simple rule: the stub writes no real file; the core's edits are tested in Rust).
  const agentFiles = new Map<string, AgentHookFile[]>();
  const agentRevisions = new Map<string, number>();
  const agentFilesOf = (project: string): AgentHookFile[] => {
    let found = agentFiles.get(project);
    if (!found) {
      found = agentHookFiles(project);
      agentFiles.set(project, found);
    }
    return found;
  };
  const agentVersion = (path: string): string => `rev-${agentRevisions.get(path) ?? 0}`;
  const agentWritten = (file: AgentHookFile): void => {
    agentRevisions.set(file.path, (agentRevisions.get(file.path) ?? 0) + 1);
    file.version = agentVersion(file.path);
  };
  // A disabled hook's entry and its index in the list, to put it back there.
  const agentKept = new Map<string, { hook: AgentHookFile['hooks'][number]; index: number }>();
  const agentEdit = (project: string, path: string, edit: AgentEdit): { file: AgentHookFile; hooks: AgentHookFile['hooks']; before: string; after: string; event: string } => {
    const file = agentFilesOf(project).find((f) => f.path === path);
    if (!file) throw fail('invalid_input', `${path} is not a hooks file of another coding agent for this project`);
    let hooks: AgentHookFile['hooks'];
    let event: string;
    if (edit.kind === 'add') {
      if (edit.hook.command.trim() === '') throw fail('invalid_input', `refusing to edit ${path}: the new hook's command is empty: it would never run`);
      event = edit.hook.event;
      const flat = file.agent === 'cursor' || file.agent === 'copilot';
      const n = file.hooks.filter((x) => x.event === event).length;
      const secs = edit.hook.timeout === null ? null : file.agent === 'gemini' ? edit.hook.timeout / 1000 : edit.hook.timeout;
      hooks = [...file.hooks, { event, claude_event: null, matcher: edit.hook.matcher, handler_type: 'command', command: edit.hook.command, timeout_secs: secs, hookd: false, name: edit.hook.name, json_path: flat ? `hooks.${event}[${n}]` : `hooks.${event}[${n}].hooks[0]` }];
    } else if (edit.kind === 'change') {
      const was = file.hooks.find((x) => x.json_path === edit.json_path && x.command === edit.command);
      if (!was) throw fail('invalid_input', `refusing to edit ${path}: ${edit.json_path}: no hook of this file is here any more (the file changed): reload it`);
      event = was.event;
      const secs = edit.hook.timeout === null ? null : file.agent === 'gemini' ? edit.hook.timeout / 1000 : edit.hook.timeout;
      const now = { ...was, matcher: edit.hook.matcher, command: edit.hook.command, timeout_secs: secs, name: edit.hook.name };
      hooks = file.hooks.map((x) => (x === was ? now : x));
    } else if (edit.kind === 'move') {
      const at = file.hooks.findIndex((x) => x.json_path === edit.json_path && x.command === edit.command);
      const to = edit.up ? at - 1 : at + 1;
      const was = file.hooks[at];
      const other = file.hooks[to];
      if (!was || !other || other.event !== was.event) throw fail('invalid_input', `refusing to edit ${path}: ${edit.json_path}: already the ${edit.up ? 'first' : 'last'} hook of its event`);
      event = was.event;
      hooks = file.hooks.map((x, i) => (i === at ? { ...other, json_path: was.json_path } : i === to ? { ...was, json_path: other.json_path } : x));
    } else {
      const gone = file.hooks.find((x) => x.json_path === edit.json_path && x.command === edit.command);
      if (!gone) throw fail('invalid_input', `refusing to edit ${path}: ${edit.json_path}: no hook of this file is here any more (the file changed): reload it`);
      event = gone.event;
      hooks = file.hooks.filter((x) => x !== gone);
    }
    const text = (list: AgentHookFile['hooks']): string => {
      const byEvent: Record<string, JsonValue[]> = {};
      for (const x of list) (byEvent[x.event] ??= []).push({ ...(x.matcher !== null ? { matcher: x.matcher } : {}), command: x.command, ...(x.timeout_secs !== null ? { timeout: x.timeout_secs } : {}) });
      return `${JSON.stringify({ hooks: byEvent }, null, 2)}\n`;
    };
    return { file, hooks, before: text(file.hooks), after: text(hooks), event };
  };
  // The core's Codex CLI notes of a disable and an enable (agent_edit::notes, enable_notes).
  const toggleNotes = (file: AgentHookFile, enabled: boolean): string[] =>
    file.agent !== 'codex' ? [] : [`Codex CLI keeps its trust by position: the hooks after this one under its event move ${enabled ? 'down' : 'up'}, and Codex may ask you to trust them again in /hooks`];
  const agentNotes = (file: AgentHookFile, edit: AgentEdit): string[] =>
    file.agent !== 'codex' ? [] : edit.kind !== 'remove' ? ['Codex CLI runs a new or changed hook only once you trust it: open /hooks in Codex and trust it (hookd never writes trust for you)'] : ['Codex CLI keeps its trust by position: the hooks after this one under its event move up, and Codex may ask you to trust them again in /hooks'];

  const commands: StubPart<HooksCommands> = {
    hook_events: () => STUB_EVENTS,
    // Every sample project's managed files count as approved: the stub has
    // no store of approvals (the rule is hookd-core's, tested in Rust).
    trust_review: ({ project }) => trustReview(project),
    trust_approve: ({ project }) => trustReview(project),
    hook_files: ({ project }) => KINDS.flatMap((kind) => SCOPES.map((scope) => hookFile({ project, kind, scope }))),
    agent_hook_files: ({ project }) => agentFilesOf(project),
    agent_hook_rules: () => STUB_AGENT_RULES,
    agent_hook_preview: ({ project, path, edit }) => {
      const { file, before, after, event } = agentEdit(project, path, edit);
      return { path: file.path, changes: true, before, after, events: [event], version: agentVersion(path), notes: agentNotes(file, edit) };
    },
    agent_hook_apply: ({ project, path, edit, version }) => {
      if (version !== agentVersion(path)) throw fail('conflict', `${path} changed since the preview; nothing was written`);
      const { file, hooks, event } = agentEdit(project, path, edit);
      file.hooks = hooks;
      agentWritten(file);
      return { path: file.path, written: true, backup: `${path}.hookd-backup`, events: [event], notes: agentNotes(file, edit) };
    },
    // Takes a hook out into the store or puts it back at its index (the
    // core's byte-for-byte disable is tested in Rust).
    set_agent_hook_enabled: ({ project, path, hook: { json_path, command }, enabled, version }) => {
      const file = agentFilesOf(project).find((f) => f.path === path);
      if (!file) throw fail('invalid_input', `${path} is not a hooks file of another coding agent for this project`);
      if (version !== agentVersion(path)) throw fail('conflict', `${path} changed since it was shown; nothing was changed`);
      const key = `${path}\n${json_path}\n${command ?? ''}`;
      if (enabled) {
        const kept = agentKept.get(key);
        if (!kept) throw fail('not_found', `no disabled hook at ${json_path} of ${path}`);
        agentKept.delete(key);
        file.disabled = file.disabled.filter((d) => !(d.json_path === json_path && d.command === command));
        file.hooks = [...file.hooks.slice(0, kept.index), kept.hook, ...file.hooks.slice(kept.index)];
        agentWritten(file);
        return { path, event: kept.hook.event, json_path, enabled, notes: toggleNotes(file, enabled) };
      }
      const index = file.hooks.findIndex((x) => x.json_path === json_path && x.command === command);
      const hook = file.hooks[index];
      if (!hook || hook.hookd) throw fail('invalid_input', `refusing to disable a hook of ${path}: ${json_path}: not found in the file`);
      agentKept.set(key, { hook, index });
      file.hooks = file.hooks.filter((x) => x !== hook);
      file.disabled = [...file.disabled, { event: hook.event, claude_event: hook.claude_event, matcher: hook.matcher, command: hook.command, json_path, disabled_at: new Date(0).toISOString() }];
      agentWritten(file);
      return { path, event: hook.event, json_path, enabled, notes: toggleNotes(file, enabled) };
    },
    // Canned verdicts (the core reads each agent's own settings and checks
    // Codex's trust hash): hookd's Codex entry is not trusted yet, the
    // user's guard is, unchanged since; Cursor's project hooks run if the
    // workspace is trusted.
    agent_verdicts: ({ project }) =>
      agentFilesOf(project).map((f) => ({
        path: f.path,
        verdicts: f.hooks.map((hook) =>
          f.agent === 'codex' && hook.hookd
            ? { runs: false, reasons: [{ code: 'not_trusted_in_agent' as const, message: 'Codex CLI runs it only once you trust it: open /hooks in Codex' }], provided: [] }
            : f.agent === 'codex'
              ? { runs: true, reasons: [], provided: [] }
              : { runs: true, reasons: [], provided: f.scope === 'project' ? ['Cursor trusts this workspace (it runs a project\u2019s hooks only then)'] : [] },
        ),
      })),
    effective_hooks: ({ project }) => {
      // Canned plugin hooks (the core reads installed_plugins.json and enabledPlugins).
      const plugin = (id: string, version: string, enabled: boolean, event: string, matcher: string | null, runs: string): PluginHook => ({
        plugin: id,
        version,
        enabled,
        path: `/home/dev/.claude/plugins/cache/${id.split('@')[1]}/${id.split('@')[0]}/${version}/hooks/hooks.json`,
        event,
        matcher,
        handler_type: 'command',
        runs,
      });
      const view: EffectiveView = {
        files: [],
        hooks: [],
        errors: [],
        all_disabled_by: [],
        plugins: [plugin('guard@market', '1.0.0', true, 'PreToolUse', 'Bash', '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh'), plugin('notes@market', '2.1.0', false, 'Stop', null, 'say done')],
        // Canned skill and agent hooks (the core reads their frontmatter).
        components: [
          { kind: 'agent', name: 'reviewer', origin: 'user', plugin: null, enabled: true, path: '/home/dev/.claude/agents/reviewer.md', event: 'Stop', fires_as: 'SubagentStop', matcher: null, handler_type: 'command', runs: './summarise.sh', once: false },
          { kind: 'skill', name: 'lint-on-save', origin: 'project', plugin: null, enabled: true, path: `${project}/.claude/skills/lint-on-save/SKILL.md`, event: 'PostToolUse', fires_as: 'PostToolUse', matcher: 'Write|Edit', handler_type: 'command', runs: './lint.sh', once: true },
          { kind: 'command', name: 'release:tag', origin: 'project', plugin: null, enabled: true, path: `${project}/.claude/commands/release/tag.md`, event: 'PreToolUse', fires_as: 'PreToolUse', matcher: 'Bash', handler_type: 'command', runs: './check-tag.sh', once: false },
        ],
        component_problems: [{ path: `${project}/.claude/agents/broken.md`, message: 'its frontmatter is not valid YAML: did not find expected node content at line 1 column 7' }],
      };
      for (const kind of KINDS) {
        for (const scope of SCOPES) {
          const f = hookFile({ project, kind, scope });
          view.files.push({ kind, scope, path: f.path, exists: f.exists, skipped: f.parse_error !== null, read_only: false });
          const push = (event: string, matcher: string | null, gi: number, hi: number, h: Handler, enabled: boolean): void => {
            view.hooks.push({
              index: view.hooks.length,
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
              duplicate_of: null,
              untrusted: null,
              runs: enabled ? RUNS : DISABLED,
            });
          };
          for (const e of f.events) e.groups.forEach((g, gi) => g.handlers.forEach((h, hi) => push(e.event, g.matcher, gi, hi, h.raw as Handler, true)));
          for (const d of f.disabled) push(d.event, d.matcher, 0, 0, d.handler as Handler, false);
        }
      }
      return view;
    },
    // Canned as the core converts a PreToolUse Bash guard; other events are left out here.
    copy_hook: ({ event, matcher, handler, to }) => {
      const agents: Record<string, { label: string; event: string; matcher: string; entry: (command: string) => JsonValue; files: string }> = {
        codex: { label: 'Codex CLI', event: 'PreToolUse', matcher: 'Bash', entry: (c) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: c }] }] } }), files: '~/.codex/hooks.json or <repo>/.codex/hooks.json' },
        gemini: { label: 'Gemini CLI', event: 'BeforeTool', matcher: '^(?:run_shell_command)$', entry: (c) => ({ hooks: { BeforeTool: [{ matcher: '^(?:run_shell_command)$', hooks: [{ type: 'command', command: c }] }] } }), files: '"hooks" of ~/.gemini/settings.json or <project>/.gemini/settings.json' },
        cursor: { label: 'Cursor', event: 'preToolUse', matcher: 'Shell', entry: (c) => ({ version: 1, hooks: { preToolUse: [{ command: c, matcher: 'Shell' }] } }), files: '~/.cursor/hooks.json or <project>/.cursor/hooks.json' },
        copilot: { label: 'GitHub Copilot', event: 'preToolUse', matcher: 'bash', entry: (c) => ({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: c, matcher: 'bash' }] } }), files: '<repo>/.github/hooks/<name>.json or ~/.copilot/hooks/<name>.json' },
      };
      const a = agents[to];
      if (!a) throw fail('invalid_input', `to: "${to}" is not an agent a hook can be copied to (codex, gemini, cursor, copilot)`);
      const command = typeof handler === 'object' && handler !== null && !Array.isArray(handler) && typeof handler.command === 'string' ? handler.command : '';
      const fits = event === 'PreToolUse' && matcher === 'Bash';
      return {
        agent: to,
        label: a.label,
        files: a.files,
        text: fits ? JSON.stringify(a.entry(command), null, 2) : '',
        conversion: {
          event,
          matcher,
          runs: command,
          target_event: fits ? a.event : null,
          target_matcher: fits ? a.matcher : null,
          lost: fits ? [] : [`${a.label} has no such hook here: the hook is left out`],
          check: fits ? [`exit 2 with the reason on stderr blocks on ${a.label}'s ${a.event} too`] : [],
        },
      };
    },
    check_matcher: ({ event, text }) => {
      const spec = STUB_EVENTS.find((e) => e.name === event);
      if (!spec) throw fail('invalid_input', `unknown event "${event}"`);
      const base = { supported: spec.takes_matcher, field: spec.match_field, known: spec.known_targets.length };
      const trimmed = text?.trim() ?? '';
      if (trimmed === '' || trimmed === '*') return { ...base, ok: true, kind: 'all', error: null, position: null, matches: spec.known_targets };
      const canned = CANNED_CHECKS[trimmed];
      if (canned) return { ...base, ...canned, matches: canned.matches ?? [] };
      const exact = spec.known_targets.includes(trimmed);
      return { ...base, ok: true, kind: exact ? 'exact' : 'regex', error: null, position: null, matches: exact ? [trimmed] : [] };
    },
    preview_hooks_save: ({ file, hooks, version: expected }) => {
      const path = stubPath(file);
      const e = edited(path, treeFrom(hooks), expected);
      return { path, before: e.before ?? '', after: e.after, changed: e.before !== e.after, creates: e.before === undefined };
    },
    save_hooks: ({ file, hooks, version: expected, force }) => {
      const path = stubPath(file);
      const e = edited(path, treeFrom(hooks), force ? null : expected);
      write(path, e.after);
      return { path, created: e.before === undefined, backup: e.before === undefined ? null : `${path}.hookd-backup`, version: version(path) };
    },
    set_hook_enabled: ({ file, hook, enabled, version: expected }) => {
      const path = stubPath(file);
      let tree = treeFrom(read(path).value.hooks);
      if (enabled) {
        const i = disabled.findIndex((d) => d.path === path && d.event === hook.event && d.command === hook.command);
        if (i < 0) throw fail('not_found', `no disabled ${hook.event} hook with command "${hook.command}" in ${path}`);
        const [d] = disabled.splice(i, 1);
        tree = addHandler(tree, d!.event, d!.matcher, d!.handler as Handler);
      } else {
        const [gi, hi] = locate(tree, hook, path);
        const group = tree[hook.event]![gi]!;
        disabled.push({ path, event: hook.event, matcher: matcherOf(group), command: hook.command, handler: group.hooks[hi]!, disabled_at: new Date().toISOString() });
        tree = removeHandler(tree, hook.event, gi, hi);
      }
      write(path, edited(path, tree, expected).after);
      return 1;
    },
    preview_move_hook: ({ from, to, hook, version: expected }) => {
      const m = planMove(from, to, hook, expected, null);
      const preview = (path: string, e: { before: string | undefined; after: string }): SavePreview => ({ path, before: e.before ?? '', after: e.after, changed: e.before !== e.after, creates: e.before === undefined });
      return { from: preview(m.fromPath, m.source), to: preview(m.toPath, m.target), moved: 1, versions: { from: version(m.fromPath), to: version(m.toPath) } };
    },
    move_hook: ({ from, to, hook, versions }) => {
      const m = planMove(from, to, hook, versions.from, versions.to);
      write(m.toPath, m.target.after);
      write(m.fromPath, m.source.after);
      return { from: m.fromPath, to: m.toPath, moved: 1 };
    },
    watch_settings: () => [],
  };

  return { commands, files, writeFile: write, read };
}

/** The "Add hook" form's rules, canned (the core's lists are in agent_schema.rs). */
const STUB_AGENT_RULES: AgentHookRules[] = [
  { agent: 'codex', label: 'Codex CLI', events: ['SessionStart', 'SubagentStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'SubagentStop', 'Stop', 'SessionEnd', 'Interrupt'], matcher_events: ['PreToolUse', 'PermissionRequest', 'PostToolUse'], timeout_unit: 'seconds', timeout_key: 'timeout', named: false },
  { agent: 'gemini', label: 'Gemini CLI', events: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart', 'SessionEnd', 'Notification'], matcher_events: ['BeforeTool', 'AfterTool'], timeout_unit: 'milliseconds', timeout_key: 'timeout', named: true },
  { agent: 'cursor', label: 'Cursor', events: ['sessionStart', 'preToolUse', 'postToolUse', 'beforeShellExecution', 'afterFileEdit', 'beforeSubmitPrompt', 'stop'], matcher_events: ['preToolUse', 'postToolUse', 'beforeShellExecution', 'afterFileEdit'], timeout_unit: 'seconds', timeout_key: 'timeout', named: false },
  { agent: 'copilot', label: 'GitHub Copilot', events: ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop'], matcher_events: ['preToolUse', 'postToolUse'], timeout_unit: 'seconds', timeout_key: 'timeoutSec', named: false },
];

/**
 * The other agents' hooks files of a project, canned (the core reads and
 * checks the real ones, tested in Rust): the user's Codex CLI file with a
 * hook of the user's and hookd's own, and the project's Cursor file with
 * an entry Cursor drops.
 */
function agentHookFiles(project: string): AgentHookFile[] {
  const hook = (event: string, claude: string | null, matcher: string | null, command: string | null, timeout: number | null, hookd: boolean, path: string): AgentHookFile['hooks'][number] => ({
    event,
    claude_event: claude,
    matcher,
    handler_type: 'command',
    command,
    timeout_secs: timeout,
    hookd,
    name: null,
    json_path: path,
  });
  return [
    {
      agent: 'codex',
      label: 'Codex CLI',
      scope: 'global',
      extension: null,
      path: `${HOME}/.codex/hooks.json`,
      name: 'hooks.json',
      error: null,
      hooks: [
        hook('PreToolUse', 'PreToolUse', 'Bash', './guard.sh', 5, false, 'hooks.PreToolUse[0].hooks[0]'),
        hook('PreToolUse', 'PreToolUse', '*', 'hookd-emit --agent codex PreToolUse', 10, true, 'hooks.PreToolUse[1].hooks[0]'),
      ],
      errors: [],
      warnings: [],
      timeout_note: null,
      disabled: [],
      version: 'rev-0',
    },
    {
      agent: 'cursor',
      label: 'Cursor',
      scope: 'project',
      extension: null,
      path: `${project}/.cursor/hooks.json`,
      name: 'hooks.json',
      error: null,
      hooks: [hook('beforeSubmitPrompt', 'UserPromptSubmit', null, './audit.sh', 3, false, 'hooks.beforeSubmitPrompt[0]'), hook('stop', 'Stop', null, null, 3, false, 'hooks.stop[0]')],
      errors: [{ path: 'hooks.stop[0].command', message: 'missing: a command entry without a command never runs' }],
      warnings: [],
      timeout_note: null,
      disabled: [],
      version: 'rev-0',
    },
  ];
}
