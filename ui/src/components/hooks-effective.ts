// The Effective tab: every hook that applies to the project, agent and
// hookd alike, in the order they are read, each with its source file, its
// state (disabled through hookd, a duplicate that runs once, untrusted),
// whether it really runs for the project and every reason it does not
// (settings::runs; the reasons go in a row of their own under the hook, the
// whole width of the table, so a long reason never squeezes the command
// the hook runs), and the files that were read or skipped. Below them,
// "Plugins, skills and agents": the hooks the agent runs from outside the
// settings files (installed plugins' hooks/hooks.json, and skills' and
// subagents' frontmatter, which run only while their skill or agent is
// active), read-only, each with whose it is, a disabled plugin's shown as
// not running, and a frontmatter the agent cannot read as a warning.
// Last, "Other coding agents": each hook of Codex CLI's, Gemini CLI's,
// Cursor's and Copilot's files for the project with whether that agent
// will run it (settings::agent_runs: what hookd can read of the agent's own
// settings), and what must hold that hookd cannot check ("runs if …").

import type { AgentFileVerdicts, AgentHookFile, AgentVerdict, ComponentHook, EffectiveEntry, EffectiveView, PluginHook, Scope } from '../lib/types';
import { breakable, h } from './dom';
import { renderReasons, renderVerdict } from './runs-verdict';

const SCOPE_TEXT: Record<Scope, string> = { global: 'Global', project: 'Project', local: 'Local', policy: 'Policy' };

/** `enabled`, `disabled`, `duplicate` or `untrusted` (a project's managed file not approved: hookd skips it). */
export function hookState(e: EffectiveEntry): 'enabled' | 'disabled' | 'duplicate' | 'untrusted' {
  if (!e.enabled) return 'disabled';
  if (e.duplicate_of !== null) return 'duplicate';
  return e.untrusted !== null ? 'untrusted' : 'enabled';
}

/** A file's path for a table cell: relative to the project when inside it. */
export function shortPath(path: string, project: string | null): string {
  return project && path.startsWith(`${project}/`) ? path.slice(project.length + 1) : path;
}

/** Why a plugin's hook does not run, or null when its plugin is enabled. */
export function pluginIdle(p: PluginHook): string | null {
  return p.enabled ? null : `the plugin ${p.plugin} is not enabled for this project (enabledPlugins in the settings files), so the agent does not load its hooks`;
}

/** Whose a skill's, command's or agent's hook is: `Skill · project`, `Agent · plugin x@y`. */
export function componentOwner(c: ComponentHook): string {
  const kind = { skill: 'Skill', command: 'Command', agent: 'Agent' }[c.kind];
  return c.origin === 'plugin' ? `${kind} · plugin ${c.plugin ?? ''}` : `${kind} · ${c.origin}`;
}

/** Why a skill's or agent's hook does not run, or null when it runs while its skill or agent is active. */
export function componentIdle(c: ComponentHook): string | null {
  return c.enabled ? null : `its plugin ${c.plugin ?? ''} is not enabled for this project (enabledPlugins in the settings files), so the agent does not load this ${c.kind}`;
}

/** A read-only hook's state badge. */
function sourceVerdict(yes: string, idle: string | null): HTMLElement {
  return h(
    'div',
    { class: 'runs-verdict', data: { testid: 'runs-verdict', runs: String(idle === null) } },
    h('span', { class: `badge runs-badge ${idle === null ? 'runs-yes' : 'runs-no'}`, text: idle === null ? yes : '✗ does not run' }),
  );
}

/**
 * `row`, and under it, when there are reasons it does not run, a row of
 * them spanning every column after the first `skip` ones.
 */
function withReasons(row: HTMLElement, reasons: HTMLElement | null, columns: number, skip: number): HTMLElement[] {
  if (reasons === null) return [row];
  row.classList.add('hooks-has-reasons');
  return [
    row,
    h(
      'tr',
      { class: 'hooks-reasons-row', data: { testid: 'effective-reasons' } },
      skip > 0 ? h('td', { attrs: { colspan: String(skip) } }) : null,
      h('td', { attrs: { colspan: String(columns - skip) } }, h('span', { class: 'hooks-reasons-title', text: 'Does not run: ' }), reasons),
    ),
  ];
}

/** One reason, as a list like the core's reasons. */
function reasonList(idle: string | null): HTMLElement | null {
  return idle === null ? null : h('ul', { class: 'runs-reasons' }, h('li', { data: { testid: 'runs-reason' }, text: idle }));
}

/** The "What runs" cell of a read-only hook. */
function runsCell(type: string, runs: string, once = false): HTMLElement {
  return h(
    'td',
    { class: 'mono hooks-summary', attrs: { title: runs } },
    type !== 'command' ? h('span', { class: 'badge badge-off', text: type || 'no type' }) : null,
    type !== 'command' ? ' ' : null,
    ...breakable(runs),
    once ? h('span', { class: 'badge badge-off hooks-once', attrs: { title: 'once: true: it runs once per session, then is removed' }, text: 'once' }) : null,
  );
}

/**
 * The hooks the agent runs from outside the settings files, read-only:
 * installed plugins' (enabled or not), and skills' and subagents'
 * frontmatter hooks (which run only while their skill or agent is active);
 * a skill or agent file the agent cannot read is a warning.
 */
function renderSources(view: EffectiveView, project: string | null): HTMLElement | null {
  if (view.plugins.length === 0 && view.components.length === 0 && view.component_problems.length === 0) return null;
  const plugins = view.plugins.flatMap((p) =>
    withReasons(h(
      'tr',
      { data: { testid: 'plugin-hook', plugin: p.plugin, enabled: String(p.enabled), event: p.event } },
      h('td', { class: 'hooks-source' }, h('span', { class: 'hooks-source-who', text: 'Plugin' }), h('span', { class: 'mono', data: { testid: 'plugin-name' } }, ...breakable(p.plugin)), p.version ? h('span', { class: 'muted', text: ` ${p.version}` }) : null),
      h('td', { class: 'mono hooks-event-name', text: p.event }),
      h('td', { class: 'mono', attrs: { title: p.matcher ?? null } }, ...breakable(p.matcher ?? '')),
      runsCell(p.handler_type, p.runs),
      h('td', { class: 'hooks-state-cell' }, sourceVerdict('✓ enabled', pluginIdle(p))),
      h('td', { class: 'hooks-source', data: { testid: 'plugin-source', path: p.path }, attrs: { title: p.path } }, h('span', { class: 'mono' }, ...breakable(shortPath(p.path, project)))),
    ), reasonList(pluginIdle(p)), 6, 1),
  );
  const components = view.components.flatMap((c) =>
    withReasons(h(
      'tr',
      { data: { testid: 'component-hook', kind: c.kind, origin: c.origin, name: c.name, enabled: String(c.enabled), event: c.event, firesAs: c.fires_as } },
      h('td', { class: 'hooks-source' }, h('span', { class: 'hooks-source-who', text: componentOwner(c) }), h('span', { class: 'mono' }, ...breakable(c.name))),
      h('td', { class: 'mono hooks-event-name' }, c.event, c.fires_as !== c.event ? h('span', { class: 'muted hooks-fires-as', text: ` runs as ${c.fires_as}` }) : null),
      h('td', { class: 'mono', attrs: { title: c.matcher ?? null } }, ...breakable(c.matcher ?? '')),
      runsCell(c.handler_type, c.runs, c.once),
      h('td', { class: 'hooks-state-cell', attrs: { title: `It runs only while the ${c.kind} ${c.name} is active` } }, sourceVerdict('✓ while active', componentIdle(c))),
      h('td', { class: 'hooks-source', data: { testid: 'component-source', path: c.path }, attrs: { title: c.path } }, h('span', { class: 'mono' }, ...breakable(shortPath(c.path, project)))),
    ), reasonList(componentIdle(c)), 6, 1),
  );
  const problems =
    view.component_problems.length > 0
      ? h(
          'div',
          { id: 'hooks-sources-problems', class: 'hooks-warning', attrs: { role: 'status' } },
          h('strong', { text: 'Skill and agent files the agent cannot read (their hooks are not listed and do not run):' }),
          h('ul', {}, ...view.component_problems.map((p) => h('li', { data: { testid: 'component-problem', path: p.path } }, h('span', { class: 'mono' }, ...breakable(shortPath(p.path, project))), `: ${p.message}`))),
        )
      : null;
  const rows = [...plugins, ...components];
  return h(
    'section',
    { id: 'hooks-effective-sources', class: 'hooks-effective-sources', attrs: { 'aria-labelledby': 'hooks-sources-title' } },
    h('h3', { id: 'hooks-sources-title', class: 'hooks-section-title', text: 'Plugins, skills and agents' }),
    h('p', { class: 'muted small-note', text: 'Hooks the agent runs from outside the settings files, read-only: edit them in their plugin, skill or agent file (a plugin update replaces its files). A skill\u2019s or agent\u2019s hooks run only while that skill or agent is active.' }),
    problems,
    rows.length > 0
      ? h(
          'div',
          { class: 'hooks-table-wrap' },
          h(
            'table',
            { id: 'hooks-sources-table', class: 'hooks-table hooks-sources-table' },
            h('caption', { class: 'visually-hidden', text: 'Hooks of plugins, skills and agents, read-only' }),
            h('colgroup', {}, ...['owner', 'event', 'matcher', 'runs', 'state', 'source'].map((c) => h('col', { class: `hooks-col-${c}` }))),
            h('thead', {}, h('tr', {}, ...['From', 'Event', 'Matcher', 'What runs', 'State', 'File'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
            h('tbody', {}, ...rows),
          ),
        )
      : null,
  );
}

/** What the other agents' files hold for the project, and the verdicts of their hooks. */
export interface OtherAgents {
  files: AgentHookFile[];
  verdicts: AgentFileVerdicts[];
}

/** The verdict of an agent's hook in words: `runs`, `runs if …`, or why not. */
export function agentVerdictText(v: AgentVerdict): string {
  if (!v.runs) return v.reasons.map((r) => r.message).join('; ');
  return v.provided.length === 0 ? 'runs' : `runs if ${v.provided.join(' and ')}`;
}

/** Counts for the section's summary: hooks that run, run only if, do not run. */
export function agentCounts(verdicts: AgentFileVerdicts[]): { runs: number; provided: number; not: number } {
  const all = verdicts.flatMap((f) => f.verdicts);
  return {
    runs: all.filter((v) => v.runs && v.provided.length === 0).length,
    provided: all.filter((v) => v.runs && v.provided.length > 0).length,
    not: all.filter((v) => !v.runs).length,
  };
}

function renderOtherAgents(others: OtherAgents | null, project: string | null): HTMLElement[] {
  if (!others || others.files.length === 0) return [];
  const counts = agentCounts(others.verdicts);
  const rows = others.files.flatMap((f) => {
    const verdicts = others.verdicts.find((v) => v.path === f.path)?.verdicts ?? [];
    return f.hooks.flatMap((hook, i) => {
      const v = verdicts[i];
      const event = hook.claude_event && hook.claude_event !== hook.event ? `${hook.event} (${hook.claude_event})` : hook.event;
      const row = h(
        'tr',
        { data: { testid: 'effective-agent-hook', agent: f.agent, scope: f.scope, event: hook.event, runs: String(v?.runs ?? false), provided: String((v?.provided.length ?? 0) > 0) } },
        h('td', { class: 'hooks-source' }, h('span', { class: `hooks-source-who agent-${f.agent}`, text: `${f.label} · ${f.extension !== null ? `Extension · ${f.extension}` : SCOPE_TEXT[f.scope]}` }), h('span', { class: 'mono', attrs: { title: f.path } }, ...breakable(shortPath(f.path, project)))),
        h('td', { class: 'mono hooks-event-name', text: event }),
        h('td', { class: 'mono', text: hook.matcher ?? '' }),
        h('td', { class: 'mono hooks-summary', attrs: { title: hook.command ?? '' } }, ...breakable(hook.command ?? `(${hook.handler_type})`), hook.hookd ? h('span', { class: 'badge badge-on', text: 'records for hookd' }) : null),
        h(
          'td',
          { class: 'hooks-state-cell' },
          v ? renderVerdict(v, { reasons: false }) : null,
          v && v.runs && v.provided.length > 0 ? h('span', { class: 'badge badge-warn', data: { testid: 'runs-provided' }, attrs: { title: agentVerdictText(v) }, text: 'if …' }) : null,
        ),
      );
      if (!v || (v.runs && v.provided.length === 0)) return [row];
      row.classList.add('hooks-has-reasons');
      const why = h(
        'tr',
        { class: 'hooks-reasons-row', data: { testid: 'effective-agent-why' } },
        h('td', {}),
        h('td', { attrs: { colspan: '4' } }, h('span', { class: v.runs ? 'hooks-reasons-title hooks-provided-title' : 'hooks-reasons-title', text: v.runs ? 'Runs only if: ' : 'Does not run: ' }), agentVerdictText(v).replace(/^runs if /, '')),
      );
      return [row, why];
    });
  });
  return [
    h('h3', { id: 'hooks-effective-agents-title', class: 'hooks-section-title', text: 'Other coding agents' }),
    h('p', {
      id: 'hooks-effective-agents-summary',
      class: 'muted',
      text: `${counts.runs + counts.provided + counts.not} hooks in their files: ${counts.runs} run, ${counts.provided} run only if something hookd cannot check holds, ${counts.not} do not run.`,
    }),
    h(
      'div',
      { class: 'hooks-table-wrap' },
      h(
        'table',
        { id: 'hooks-effective-agents', class: 'hooks-table' },
        h('caption', { class: 'visually-hidden', text: 'Hooks of the other coding agents and whether they run' }),
        h('thead', {}, h('tr', {}, ...['File', 'Event', 'Matcher', 'What runs', 'State'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
        h('tbody', {}, ...rows),
      ),
    ),
  ];
}

/** Renders the effective view of `project` (and the other agents' hooks, when given). */
export function renderEffective(view: EffectiveView, project: string | null = null, others: OtherAgents | null = null): HTMLElement {
  const runs = view.hooks.filter((e) => e.runs.runs && e.duplicate_of === null).length;
  const idle = view.hooks.filter((e) => !e.runs.runs).length;
  const summary = h('p', {
    id: 'hooks-effective-summary',
    class: 'muted',
    text: `${view.hooks.length} hook${view.hooks.length === 1 ? '' : 's'}: ${runs} run, ${idle} do${idle === 1 ? 'es' : ''} not run, ${view.hooks.filter((e) => e.duplicate_of !== null).length} duplicate`,
  });
  const alerts: HTMLElement[] = [];
  for (const path of view.all_disabled_by) {
    alerts.push(h('p', { class: 'hooks-alert', data: { testid: 'all-disabled' } }, h('code', { text: 'disableAllHooks: true' }), ' in ', h('span', { class: 'mono', text: path }), ' turns off every hook of its kind.'));
  }
  if (view.errors.length > 0) {
    alerts.push(h('div', { id: 'hooks-effective-errors', class: 'hooks-alert' }, h('strong', { text: 'Skipped files (their hooks do not run):' }), h('ul', {}, ...view.errors.map((e) => h('li', { class: 'mono', text: e })))));
  }
  const rows = view.hooks.flatMap((e) => {
    const state = hookState(e);
    const stateText = state === 'disabled' ? 'disabled (hookd)' : state === 'untrusted' ? 'not trusted' : state === 'duplicate' ? `duplicate of #${(e.duplicate_of ?? 0) + 1}, runs once` : null;
    const row = h(
      'tr',
      { data: { testid: 'effective-hook', kind: e.kind, scope: e.scope, event: e.event, state, runs: String(e.runs.runs), command: e.command ?? '' } },
      h('td', { class: 'num', text: `#${e.index + 1}` }),
      h('td', { class: 'mono hooks-event-name', text: e.event }),
      h('td', { class: 'mono', attrs: { title: e.matcher ?? null } }, ...breakable(e.matcher ?? '')),
      // Wraps between the parts of a path or command; the whole text is its tooltip.
      h(
        'td',
        { class: 'mono hooks-summary', attrs: { title: e.summary } },
        e.handler_type !== 'command' ? h('span', { class: 'badge badge-off', text: e.handler_type || 'no type' }) : null,
        e.handler_type !== 'command' ? ' ' : null,
        ...breakable(e.summary),
      ),
      h('td', { class: 'num', text: e.timeout !== null ? `${e.timeout} s` : '' }),
      h('td', { class: 'hooks-state-cell' }, stateText !== null ? h('span', { class: `badge hooks-state hooks-state-${state}`, text: stateText }) : null, renderVerdict(e.runs, { reasons: false })),
      h(
        'td',
        { class: 'hooks-source', data: { testid: 'effective-source', path: e.path }, attrs: { title: e.path } },
        h('span', { class: 'hooks-source-who', text: `${e.kind === 'agent' ? 'Claude Code' : 'hookd'} · ${SCOPE_TEXT[e.scope]}` }),
        h('span', { class: 'mono' }, ...breakable(shortPath(e.path, project))),
      ),
    );
    return withReasons(row, renderReasons(e.runs), 7, 1);
  });
  const table = h(
    'table',
    { id: 'hooks-effective-table', class: 'hooks-table' },
    h('caption', { class: 'visually-hidden', text: 'Every hook that applies to this project' }),
    h('colgroup', {}, ...['num', 'event', 'matcher', 'runs', 'timeout', 'state', 'source'].map((c) => h('col', { class: `hooks-col-${c}` }))),
    h('thead', {}, h('tr', {}, ...['#', 'Event', 'Matcher', 'What runs', 'Timeout', 'State', 'Source file'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
    h('tbody', {}, ...rows),
  );
  const files = h(
    'ul',
    { id: 'hooks-effective-files', class: 'hooks-files' },
    ...view.files.map((f) =>
      h(
        'li',
        { data: { testid: 'effective-file', kind: f.kind, scope: f.scope, skipped: String(f.skipped), exists: String(f.exists) } },
        h('span', { text: `${f.kind === 'agent' ? 'Claude Code' : 'hookd'} · ${SCOPE_TEXT[f.scope]}: ` }),
        h('span', { class: 'mono', text: f.path }),
        f.skipped ? h('span', { class: 'badge badge-warn', text: 'skipped' }) : f.exists ? null : h('span', { class: 'badge badge-off', text: 'no file' }),
      ),
    ),
  );
  return h(
    'section',
    { id: 'hooks-effective', class: 'hooks-effective', attrs: { 'aria-label': 'Effective hooks' } },
    summary,
    ...alerts,
    view.hooks.length > 0 ? h('div', { class: 'hooks-table-wrap' }, table) : h('p', { id: 'hooks-effective-empty', class: 'muted', text: 'No hook of a settings file applies to this project.' }),
    renderSources(view, project),
    h('h3', { class: 'hooks-section-title', text: 'Files read, in order' }),
    files,
    ...renderOtherAgents(others, project),
  );
}
