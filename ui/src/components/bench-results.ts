// The test bench's run results: the merged decision up front, as the agent
// would act on it, then the reply it would get (exit code, stdout, stderr),
// the same answer as each coding agent would get it in its own output
// contract, then each hook's run (exit code, duration, decision, stdout,
// stderr).

import { exitText, formatMs, verdict } from '../lib/bench-result';
import type { AgentAnswer, BenchHookRun, BenchRun } from '../lib/types';
import { h } from './dom';

/** An output block, or a muted "(empty)". */
function output(label: string, text: string, testid: string): HTMLElement {
  return h(
    'div',
    { class: 'bench-output' },
    h('div', { class: 'bench-output-label muted', text: label }),
    text === '' ? h('div', { class: 'muted', data: { testid }, text: '(empty)' }) : h('pre', { class: 'code-block', data: { testid }, text: text }),
  );
}

function runCard(run: BenchHookRun): HTMLElement {
  const failed = run.timed_out || run.error !== null || (run.exit_code !== null && run.exit_code !== 0 && run.exit_code !== 2);
  return h(
    'li',
    {
      class: `bench-run ${failed ? 'bench-run-failed' : ''}`,
      data: { testid: 'bench-run', index: String(run.index), exit: run.exit_code === null ? '' : String(run.exit_code), decision: run.decision ?? 'none', timedOut: String(run.timed_out) },
    },
    h(
      'div',
      { class: 'bench-run-head' },
      h('span', { class: 'muted', text: `#${run.index + 1}` }),
      h('code', { class: 'mono bench-run-command', attrs: { title: run.file }, text: run.command }),
      h('span', { class: `chip ${run.exit_code === 0 ? 'chip-runs' : 'chip-warn'}`, data: { testid: 'bench-run-exit' }, text: exitText(run) }),
      h('span', { class: 'muted', data: { testid: 'bench-run-duration' }, text: formatMs(run.duration_ms) }),
      h('span', { class: `chip chip-decision chip-${run.decision ?? 'none'}`, data: { testid: 'bench-run-decision' }, text: run.decision ?? 'no decision' }),
    ),
    run.reason ? h('p', { class: 'bench-run-reason', data: { testid: 'bench-run-reason' }, text: `Reason: ${run.reason.trim()}` }) : null,
    run.error ? h('p', { class: 'bench-warning', data: { testid: 'bench-run-error' }, text: run.error }) : null,
    run.json_error ? h('p', { class: 'bench-warning', data: { testid: 'bench-run-json-error' }, text: `JSON output ignored: ${run.json_error}` }) : null,
    h('div', { class: 'bench-outputs' }, output('stdout', run.stdout, 'bench-run-stdout'), output('stderr', run.stderr, 'bench-run-stderr')),
    run.truncated ? h('p', { class: 'muted', text: 'Output was cut at 1 MiB.' }) : null,
  );
}

/** One agent's answer: its event, exit code, what it prints, what it could not take. */
function agentRow(a: AgentAnswer, withLosses: boolean): HTMLElement {
  const printed = a.stdout !== '' ? a.stdout : a.stderr;
  return h(
    'tr',
    { data: { testid: 'bench-agent', agent: a.agent, exit: a.event === null ? '' : String(a.exit_code) } },
    h('th', { attrs: { scope: 'row' }, text: a.label }),
    h('td', { class: 'mono', text: a.event ?? '—' }),
    h('td', { class: 'mono', text: a.event === null ? '—' : String(a.exit_code) }),
    h('td', {}, a.event === null ? h('span', { class: 'muted', text: 'never asked' }) : printed === '' ? h('span', { class: 'muted', text: '(nothing)' }) : h('code', { class: 'mono bench-agent-output', data: { testid: 'bench-agent-output' }, text: `${a.stdout === '' ? 'stderr: ' : ''}${printed}` })),
    withLosses ? h('td', {}, a.losses.length === 0 ? '' : h('ul', { class: 'bench-agent-losses', data: { testid: 'bench-agent-losses' } }, ...a.losses.map((l) => h('li', { text: l })))) : null,
  );
}

/** The results section's content for one run. */
export function renderResults(r: BenchRun): HTMLElement {
  const v = verdict(r.result, r.runs);
  const reply = r.result;
  // The losses column only when some agent lost something.
  const withLosses = r.agents.some((a) => a.losses.length > 0);
  return h(
    'div',
    { class: 'bench-results' },
    h(
      'div',
      { id: 'bench-verdict', class: `bench-verdict tone-${v.tone}`, data: { decision: v.decision }, attrs: { role: 'status' } },
      h('strong', { id: 'bench-verdict-text', text: v.headline }),
      reply.reason && reply.reason.trim().includes('\n') ? h('pre', { class: 'bench-verdict-reason', text: reply.reason.trim() }) : null,
      h('span', { class: 'muted', text: ` ${r.runs.length} hook${r.runs.length === 1 ? '' : 's'} ran in ${formatMs(r.duration_ms)}` }),
    ),
    h(
      'section',
      { id: 'bench-reply', class: 'bench-reply', attrs: { 'aria-labelledby': 'bench-reply-title' } },
      h('h3', { id: 'bench-reply-title', class: 'detail-heading', text: 'What the agent gets' }),
      h('p', {}, 'Exit code ', h('strong', { id: 'bench-reply-exit', class: 'mono', text: String(reply.exit_code) }), h('span', { class: 'muted', text: reply.exit_code === 2 ? ' (blocking: stderr is the reason)' : reply.exit_code === 1 ? ' (a hook failed; the action goes ahead)' : '' })),
      h('div', { class: 'bench-outputs' }, output('stdout', reply.stdout, 'bench-reply-stdout'), output('stderr', reply.stderr, 'bench-reply-stderr')),
      reply.errors.length > 0 ? h('ul', { class: 'bench-errors', data: { testid: 'bench-reply-errors' } }, ...reply.errors.map((e) => h('li', { text: e }))) : null,
    ),
    h(
      'section',
      { id: 'bench-agents', class: 'bench-agents', attrs: { 'aria-labelledby': 'bench-agents-title' } },
      h('h3', { id: 'bench-agents-title', class: 'detail-heading', text: 'What each agent gets' }),
      h('p', { class: 'muted small-note', text: "The same answer in each coding agent's own output contract, as hookd's managed hooks give it to an agent connected with hookd-emit --wait --agent; what an agent cannot take is said." }),
      h(
        'table',
        { class: 'bench-agents-table' },
        h('thead', {}, h('tr', {}, ...['Agent', 'Event', 'Exit', 'Prints', ...(withLosses ? ['Changed or left out'] : [])].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
        h('tbody', {}, ...r.agents.map((a) => agentRow(a, withLosses))),
      ),
    ),
    h('h3', { class: 'detail-heading', text: 'Each hook' }),
    r.runs.length === 0
      ? h('p', { id: 'bench-runs-empty', class: 'muted', text: 'No command hook matched, so nothing ran (hookd runs only type "command").' })
      : h('ol', { id: 'bench-runs', class: 'bench-runs' }, ...r.runs.map((run) => runCard(run))),
  );
}
