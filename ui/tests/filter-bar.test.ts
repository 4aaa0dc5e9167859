// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { createFilterBar, type FilterBarOptions } from '../src/components/filter-bar';
import { loadLayout } from '../src/lib/layout';
import { emptyFilter, normalizeFilter, toQuery, type TimelineFilter } from '../src/lib/route';
import { createStub } from '../src/stub';

const { projects } = createStub({ rows: 50, seed: 43 });
const project = projects[0]!;
const repo = project.root;

/** A bar in a page, its filter `filter`; what it hands back is recorded. */
function mount(filter: TimelineFilter, over: Partial<FilterBarOptions> = {}) {
  const applied: TimelineFilter[] = [];
  const folds: boolean[] = [];
  const renamed: string[] = [];
  const bar = createFilterBar({
    filter: () => filter,
    projects: () => projects,
    agentName: () => undefined,
    scope: () => toQuery(normalizeFilter({ ...emptyFilter(), repo: filter.repo })),
    layout: { ...loadLayout(900) },
    tools: [],
    onApply: (next) => applied.push(next),
    onFold: (shown) => folds.push(shown),
    onRename: (agent) => renamed.push(agent),
    ...over,
  });
  document.body.replaceChildren(bar.form);
  bar.fill();
  return { bar, applied, folds, renamed };
}
const input = (key: string): HTMLInputElement => document.querySelector<HTMLInputElement>(`#filter-${key}`)!;

afterEach(() => {
  document.body.replaceChildren();
  localStorage.clear();
});

describe('the filter bar', () => {
  it('hands back the filter applied, and names a bad time instead', () => {
    const { bar, applied } = mount(normalizeFilter({ ...emptyFilter(), repo, tool: 'Edit' }));
    expect(input('tool').value).toBe('Edit');
    input('since').value = 'yesterday-ish';
    bar.form.requestSubmit();
    expect(applied).toEqual([]);
    expect(input('since').hasAttribute('aria-invalid')).toBe(true);
    expect(document.getElementById('filter-error')!.hidden).toBe(false);
    expect(document.getElementById('filter-error')!.textContent).toContain('Since');

    input('since').value = '2h';
    bar.form.requestSubmit();
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ repo, tool: 'Edit', since: '2h' });
    expect(document.getElementById('filter-error')!.hidden).toBe(true);
  });

  it('takes a coding agent from the ones hookd records, and names an unknown one', () => {
    const { bar, applied } = mount(normalizeFilter({ ...emptyFilter(), repo }));
    bar.fillSuggestions();
    const offered = [...document.querySelectorAll<HTMLOptionElement>('#filter-agent_kind-options option')].map((o) => [o.value, o.label]);
    expect(offered).toEqual([['claude', 'Claude Code'], ['codex', 'Codex CLI'], ['gemini', 'Gemini CLI'], ['cursor', 'Cursor'], ['copilot', 'GitHub Copilot']]);
    expect(document.querySelector('label[for=filter-agent_kind]')!.textContent).toBe('Coding agent');
    input('agent_kind').value = 'vim';
    bar.form.requestSubmit();
    expect(applied).toEqual([]);
    expect(input('agent_kind').hasAttribute('aria-invalid')).toBe(true);
    expect(document.getElementById('filter-error')!.textContent).toBe('Coding agent: "vim" is not one of claude, codex, gemini, cursor, copilot');
    input('agent_kind').value = ' gemini ';
    bar.form.requestSubmit();
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ repo, agent_kind: 'gemini' });
    expect(toQuery(applied[0]!).agent_kind).toBe('gemini');
  });

  it('clears every filter but the project and the mode', () => {
    const { applied } = mount(normalizeFilter({ ...emptyFilter(), repo, mode: 'activity', agent: 'a1', agent_kind: 'codex', since: '1h' }));
    document.getElementById('filter-clear')!.click();
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ repo, mode: 'activity', agent: null, agent_kind: null, since: null });
  });

  it('folds into its toolbar, which sums up the filters and names the agent shown', () => {
    const filter = normalizeFilter({ ...emptyFilter(), repo, agent: 'a1', tool: 'Bash' });
    const names = new Map<string, string>();
    const { bar, folds, renamed } = mount(filter, { agentName: (a) => names.get(a) });
    bar.show(false);
    expect(folds).toEqual([false]);
    expect(bar.form.hidden).toBe(true);
    expect(bar.toolbar.nextElementSibling).toBe(bar.form);
    expect(bar.toolbar.textContent).toContain(`${project.name} · Tool Bash · Agent a1`);
    expect(document.getElementById('agent-rename-open')!.hidden).toBe(true);

    names.set('a1', 'main a1');
    bar.renderSummary();
    expect(document.getElementById('filter-agent-chip')!.textContent).toBe('Agent main a1');
    document.getElementById('agent-rename-open')!.click();
    expect(renamed).toEqual(['a1']);

    bar.show(true);
    expect(folds).toEqual([false, true]);
    expect(bar.form.contains(bar.toolbar)).toBe(true);
  });
});
