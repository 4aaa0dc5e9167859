// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderColumns, renderPlaceholder, renderRow, type RowLook } from '../src/components/timeline-row';
import { createStub } from '../src/stub';

const stub = createStub({ rows: 200, seed: 41 });
const mutation = stub.rows.find((r) => r.file_path !== null && r.repo !== undefined)!;
const event = stub.timeline.events().find((e) => e.hook_runs.length > 0 && e.repo !== undefined)!;
const look = (over: Partial<RowLook> = {}): RowLook => ({ all: false, fresh: false, selected: false, names: new Map(), ...over });
const texts = (el: HTMLElement): string[] => [...el.children].map((c) => c.textContent ?? '');
const classes = (el: HTMLElement): string[] => [...el.children].map((c) => c.className);

describe('a timeline row', () => {
  it('has a cell under every column of the header, in each mode, with and without the project', () => {
    for (const all of [false, true]) {
      for (const [activity, row] of [[false, mutation], [true, event]] as const) {
        const header = document.createElement('div');
        renderColumns(header, activity, all);
        const el = document.createElement('div');
        renderRow(el, row, look({ all }));
        expect(classes(el).map((c) => c.split(' ')[1])).toEqual(classes(header).map((c) => c.split(' ')[1]));
      }
    }
  });

  it('paints over a recycled element: nothing of the row, event or placeholder it showed before is left', () => {
    const el = document.createElement('div');
    renderRow(el, event, look({ all: true, fresh: true, selected: true }));
    expect(el.dataset.testid).toBe('activity-row');
    expect(el.dataset.hookType).toBe(event.hook_type);
    expect(el.classList.contains('row-new')).toBe(true);
    expect(el.classList.contains('selected')).toBe(true);
    expect(el.children).toHaveLength(7);

    renderRow(el, mutation, look());
    expect(el.dataset.testid).toBe('timeline-row');
    expect(el.dataset.mutationSeq).toBe(String(mutation.mutation_seq));
    expect(el.dataset.hookType).toBeUndefined();
    expect(el.dataset.verdict).toBeUndefined();
    expect(el.classList.contains('row-new')).toBe(false);
    expect(el.classList.contains('selected')).toBe(false);
    expect(texts(el).slice(1)).toEqual([mutation.agent_id, mutation.tool_name, mutation.file_path, expect.any(String), mutation.branch]);
    expect(el.querySelector('.col-hooks, .col-event, .col-project')).toBeNull();

    renderPlaceholder(el);
    expect(el.dataset.testid).toBe('timeline-placeholder');
    expect(el.dataset.mutationSeq).toBeUndefined();
    expect(texts(el)).toEqual(['Loading…']);

    renderRow(el, mutation, look({ all: true }));
    expect(el.querySelector('.col-loading')).toBeNull();
    expect(texts(el)[1]).toBe(mutation.repo!.slice(mutation.repo!.lastIndexOf('/') + 1));
    expect(el.children).toHaveLength(7);
  });

  it('is named by what it shows (WCAG 2.5.3, axe label-content-name-mismatch): every cell\u2019s text is in its accessible name, after a placeholder too', () => {
    const names = new Map([[mutation.agent_id, 'main 3f2a9c1d'], [event.agent_id, 'helper 77aa']]);
    const el = document.createElement('div');
    renderPlaceholder(el);
    for (const row of [mutation, event]) {
      renderRow(el, row, look({ all: true, names }));
      // No aria-label: an option's name is its content, as painted.
      const name = el.getAttribute('aria-label') ?? el.textContent ?? '';
      for (const cell of texts(el)) expect(name).toContain(cell.trim());
    }
  });

  it('shows an agent by its readable name when it has one, its id in the title', () => {
    const el = document.createElement('div');
    renderRow(el, mutation, look({ names: new Map([[mutation.agent_id, 'main 3f2a9c1d']]) }));
    const agent = el.querySelector<HTMLElement>('.col-agent')!;
    expect(agent.textContent).toBe('main 3f2a9c1d');
    expect(agent.dataset.agent).toBe(mutation.agent_id);
    expect(agent.title).toContain(`main 3f2a9c1d (${mutation.agent_id})`);
  });

  it("names the coding agent before the agent when it is not Claude Code's, and forgets it on a recycled element", () => {
    const el = document.createElement('div');
    const names = new Map([[mutation.agent_id, 'main 3f2a9c1d']]);
    renderRow(el, { ...mutation, agent_kind: 'gemini' }, look({ names }));
    const agent = () => el.querySelector<HTMLElement>('.col-agent')!;
    expect(agent().textContent).toBe('Gemini · main 3f2a9c1d');
    expect(agent().dataset.agentKind).toBe('gemini');
    expect(agent().title).toMatch(/^Gemini CLI: main 3f2a9c1d/);
    renderRow(el, mutation, look({ names }));
    expect(agent().textContent).toBe('main 3f2a9c1d');
    expect(agent().dataset.agentKind).toBeUndefined();
    // An activity row too.
    renderRow(el, { ...event, agent_kind: 'cursor' }, look());
    expect(agent().textContent).toBe(`Cursor · ${event.agent_id}`);
    expect(agent().dataset.agentKind).toBe('cursor');
  });
});
