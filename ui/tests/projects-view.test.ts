// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend, type Backend } from '../src/lib/api';
import { createStub, type StubBackend } from '../src/stub';
import { createProjectsView, sortProjects } from '../src/views/projects';
import type { View } from '../src/views/view';
import type { ProjectInfo } from '../src/lib/types';

let view: View | null = null;
let errors: ErrorBanner;
let navigated: string[];

function mount(backend: Backend): void {
  setBackend(backend);
  errors = createErrorBanner();
  navigated = [];
  view = createProjectsView({ errors, navigate: (h) => navigated.push(h), appInfo: Promise.resolve(null) });
  document.body.replaceChildren(errors.el, view.el);
}

const items = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('#project-list [data-testid=project]')];
const input = (): HTMLInputElement => document.getElementById('add-folder-path') as HTMLInputElement;

afterEach(() => {
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
});

describe('projects view', () => {
  it('lists every project, newest activity first, with counts, badges and origin', async () => {
    const stub: StubBackend = createStub({ rows: 400, seed: 1 });
    mount(stub);
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    expect(items().map((i) => i.dataset.root)).toEqual(sortProjects(stub.projects).map((p) => p.root));
    const hookd = document.querySelector<HTMLElement>('[data-testid=project][data-root="/home/dev/src/hookd"]')!;
    const p = stub.projects.find((x) => x.root === '/home/dev/src/hookd')!;
    expect(hookd.querySelector('[data-testid=project-mutations]')!.textContent).toBe(`${p.mutations.toLocaleString('en-US')} mutations`);
    expect(hookd.querySelector('[data-testid=project-events]')!.textContent).toBe(`${p.events.toLocaleString('en-US')} events`);
    expect(hookd.querySelector<HTMLElement>('[data-testid=connected-global]')!.dataset.connected).toBe('true');
    expect(hookd.querySelector<HTMLElement>('[data-testid=connected-project]')!.dataset.connected).toBe('true');
    expect(hookd.querySelector<HTMLElement>('[data-testid=connected-local]')!.dataset.connected).toBe('false');
    expect(hookd.querySelector('[data-testid=project-origin]')!.textContent).toBe('from events');
    // The coding agents that called hookd here, by name.
    const agents = hookd.querySelector<HTMLElement>('[data-testid=project-agents]')!;
    expect(agents.textContent).toBe('Claude Code · Gemini CLI');
    expect(agents.dataset.kinds).toBe('claude gemini');
    const last = hookd.querySelector<HTMLElement>('[data-testid=project-last-activity]')!;
    expect(last.textContent).toMatch(/^(just now|\d+ s ago|1 min ago)$/);
    expect(last.title).toContain(p.last_activity!);
    const notes = document.querySelector<HTMLElement>('[data-testid=project][data-root="/home/dev/scratch/notes"]')!;
    expect(notes.querySelector('[data-testid=project-last-activity]')!.textContent).toBe('no activity yet');
    expect(notes.querySelector('[data-testid=project-no-ledger]')).not.toBeNull();
    expect(notes.querySelector('[data-testid=project-agents]')).toBeNull();
    expect(document.getElementById('project-list')!.getAttribute('aria-busy')).toBe('false');
  });

  it('opens a project\'s timeline from its link and from a click on the card', async () => {
    mount(createStub({ rows: 50 }));
    await vi.waitFor(() => expect(items().length).toBeGreaterThan(0));
    const card = document.querySelector<HTMLElement>('[data-testid=project][data-root="/home/dev/src/infra"]')!;
    expect(card.querySelector('a')!.getAttribute('href')).toBe('#/timeline?repo=/home/dev/src/infra');
    card.querySelector<HTMLElement>('[data-testid=project-root]')!.click();
    expect(navigated).toEqual(['#/timeline?repo=/home/dev/src/infra']);
  });

  it('adds a typed folder, shows a refusal inline with its reason and keeps the text', async () => {
    mount(createStub({ rows: 50 }));
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    input().value = 'not/absolute';
    document.getElementById('add-folder-submit')!.click();
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=rejection]')).toHaveLength(1));
    const rej = document.querySelector<HTMLElement>('[data-testid=rejection]')!;
    expect(rej.dataset.path).toBe('not/absolute');
    expect(rej.querySelector('[data-testid=rejection-reason]')!.textContent).toContain('not an absolute path');
    expect(input().value).toBe('not/absolute');

    input().value = '/home/dev/src/fresh';
    document.getElementById('add-folder-submit')!.click();
    await vi.waitFor(() => expect(items()).toHaveLength(5));
    expect(document.querySelector('[data-testid=project][data-root="/home/dev/src/fresh"]')).not.toBeNull();
    expect(document.getElementById('add-folder-added')!.textContent).toBe('Added fresh.');
    expect(document.querySelectorAll('[data-testid=rejection]')).toHaveLength(0);
    expect(input().value).toBe('');

    // The same folder again: listed already, not "Added".
    input().value = '/home/dev/src/fresh';
    document.getElementById('add-folder-submit')!.click();
    await vi.waitFor(() => expect(document.getElementById('add-folder-known')?.textContent).toBe('Already listed: fresh.'));
    expect(document.getElementById('add-folder-added')).toBeNull();
    expect(items()).toHaveLength(5);
  });

  it('adds the folders chosen in the native picker, and does nothing when it is cancelled', async () => {
    const stub = createStub({ rows: 50 });
    const invoke = stub.invoke.bind(stub);
    const calls: [string, unknown][] = [];
    let answer: string[] | null = ['/home/dev/src/picked-one', '/home/dev/src/picked-two'];
    stub.invoke = (cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === 'plugin:dialog|open') return Promise.resolve(answer);
      return invoke(cmd, args);
    };
    mount(stub);
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    document.getElementById('add-folder-pick')!.click();
    await vi.waitFor(() => expect(items()).toHaveLength(6));
    const opened = calls.find(([cmd]) => cmd === 'plugin:dialog|open')![1] as { options: { directory: boolean; multiple: boolean } };
    expect(opened.options).toMatchObject({ directory: true, multiple: true });
    expect(calls.find(([cmd]) => cmd === 'add_projects')![1]).toEqual({ paths: ['/home/dev/src/picked-one', '/home/dev/src/picked-two'] });

    answer = null;
    const before = calls.filter(([cmd]) => cmd === 'add_projects').length;
    document.getElementById('add-folder-pick')!.click();
    await vi.waitFor(() => expect((document.getElementById('add-folder-pick') as HTMLButtonElement).disabled).toBe(false));
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.filter(([cmd]) => cmd === 'add_projects').length).toBe(before);
  });

  it('refreshes on projects-changed (a window drop) and shows its refusals', async () => {
    const stub = createStub({ rows: 50 });
    mount(stub);
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    await vi.waitFor(() => expect(stub.listenerCount('projects-changed')).toBe(1));
    stub.drop(['/home/dev/src/dropped', '/home/dev/file.txt']);
    await vi.waitFor(() => expect(items()).toHaveLength(5));
    const rej = document.querySelector<HTMLElement>('[data-testid=rejection]')!;
    expect(rej.dataset.path).toBe('/home/dev/file.txt');
    expect(rej.textContent).toContain('not a folder');
  });

  it('shows an error banner when adding fails, and keeps the form usable', async () => {
    const stub = createStub({ rows: 50 });
    mount(stub);
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    stub.failNext('add_projects', { kind: 'registry', message: 'registry.db is read-only' });
    input().value = '/home/dev/src/x';
    document.getElementById('add-folder-submit')!.click();
    await vi.waitFor(() => expect(errors.current()).toEqual({ kind: 'registry', message: 'registry.db is read-only' }));
    expect(document.getElementById('error-banner-message')!.textContent).toBe('Could not add the folder: registry.db is read-only');
    expect(input().value).toBe('/home/dev/src/x');
    expect((document.getElementById('add-folder-submit') as HTMLButtonElement).disabled).toBe(false);
    expect(items()).toHaveLength(4);
  });

  it('explains what to do when there is no project', async () => {
    const empty: Backend = {
      kind: 'stub',
      invoke: (cmd) => Promise.resolve(cmd === 'list_projects' ? [] : null),
      listen: () => Promise.resolve(() => {}),
    };
    mount(empty);
    await vi.waitFor(() => expect(document.getElementById('projects-empty')!.hidden).toBe(false));
    expect(document.getElementById('projects-empty')!.textContent).toContain('hookd connect');
    expect(document.getElementById('project-list')!.hidden).toBe(true);
    expect(document.getElementById('drop-zone')!.textContent).toContain('Drop project folders anywhere on this window');
  });

  it('reports a failed list with the error kind', async () => {
    const stub = createStub({ rows: 10 });
    stub.failNext('list_projects', 'command list_projects not found');
    mount(stub);
    await vi.waitFor(() => expect(errors.current()).toEqual({ kind: 'ipc', message: 'command list_projects not found' }));
    expect(document.getElementById('error-banner')!.hidden).toBe(false);
  });
});

describe('sortProjects', () => {
  const p = (name: string, last: string | null): ProjectInfo => ({
    root: `/${name}`, name, origin: 'event', first_seen: '2026-01-01T00:00:00.000Z', last_activity: last,
    events: 0, mutations: 0, has_ledger: true, connected: { global: false, project: false, local: false }, agent_kinds: [], agents_connected: [],
  });
  it('puts the newest activity first and idle projects last by name', () => {
    const sorted = sortProjects([p('b', null), p('old', '2026-01-01T00:00:00.000Z'), p('a', null), p('new', '2026-02-01T00:00:00.000Z')]);
    expect(sorted.map((x) => x.name)).toEqual(['new', 'old', 'a', 'b']);
  });
});

describe('projects view while the ledgers commit', () => {
  it('keeps keyboard focus on the same project\'s control when the list refreshes', async () => {
    const stub: StubBackend = createStub({ rows: 200, seed: 9 });
    mount(stub);
    await vi.waitFor(() => expect(items()).toHaveLength(4));
    const root = '/home/dev/src/infra';
    const card = (): HTMLElement => items().find((i) => i.dataset.root === root)!;
    const connect = card().querySelector<HTMLElement>('[data-testid=project-connect]')!;
    connect.focus();
    expect(document.activeElement).toBe(connect);
    const calls = stub.calls.get('list_projects')!;
    // New events: counts and last activity change, the list is drawn again.
    stub.addMutations(2, root);
    await vi.waitFor(() => expect(stub.calls.get('list_projects')).toBe(calls + 1), { timeout: 3000 });
    await vi.waitFor(() => expect(card().querySelector('[data-testid=project-mutations]')!.textContent).toBe(`${stub.projects.find((p) => p.root === root)!.mutations.toLocaleString('en-US')} mutations`));
    expect(card().querySelector('[data-testid=project-connect]')).not.toBe(connect);
    expect(document.activeElement).toBe(card().querySelector('[data-testid=project-connect]'));

    // The project's link too, even when the project moves to the top.
    const link = card().querySelector<HTMLElement>('[data-testid=project-open]')!;
    link.focus();
    stub.addMutations(1, root);
    await vi.waitFor(() => expect(stub.calls.get('list_projects')).toBe(calls + 2), { timeout: 3000 });
    await vi.waitFor(() => expect(card().querySelector('[data-testid=project-open]')).not.toBe(link));
    expect(document.activeElement).toBe(card().querySelector('[data-testid=project-open]'));
  });
});

describe('projects view after a connect', () => {
  const WEBSHOP = '/home/dev/src/webshop';
  const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
  const connectButton = (): HTMLButtonElement =>
    document.querySelector<HTMLButtonElement>(`[data-testid=project][data-root="${WEBSHOP}"] [data-testid=project-connect]`)!;
  /** Opens the Connect dialog on the project, picks `agent`, its project file and `mode`, and waits for the change shown. */
  async function choose(agent: string, mode: string, summary: RegExp): Promise<void> {
    await vi.waitFor(() => expect(connectButton()).not.toBeNull());
    connectButton().click();
    await vi.waitFor(() => expect($('connect-diff')).not.toBeNull());
    for (const [id, value] of [['connect-agent', agent], ['connect-scope', 'project'], ['connect-mode', mode]] as const) {
      $<HTMLSelectElement>(id).value = value;
      $(id).dispatchEvent(new Event('change'));
    }
    await vi.waitFor(() => expect($('connect-summary').textContent).toMatch(summary));
  }

  it('says under its notice why the agent will not run the entries, as the dialog said before Apply', async () => {
    const stub: StubBackend = createStub({ rows: 30, seed: 5 });
    const said = '/etc/codex/requirements.toml sets [features] hooks = false: Codex CLI runs no hook, so it will not run hookd\u2019s entries either, until an administrator lifts it there';
    stub.connect.warnings.set('codex', [said]);
    mount(stub);
    await choose('codex', 'record', /^Creates the file/);
    await vi.waitFor(() => expect($('connect-agent-warnings')).not.toBeNull()); // the dialog's block, before Apply
    const before = $('connect-agent-warnings');
    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-dialog')).toBeNull());

    expect($('connect-notice').hidden).toBe(false);
    expect($('connect-notice').textContent).toBe(`Connected: ${WEBSHOP}/.claude/settings.json was created.`);
    const block = $('connect-notice-warnings');
    expect(block.hidden).toBe(false);
    expect(block.getAttribute('role')).toBe('alert');
    // The dialog's warning block's classes and wording: the agent named, the core's sentences as they are.
    expect([...block.classList]).toEqual(expect.arrayContaining(['connect-warning', 'connect-agent-warnings']));
    expect(block.querySelector('strong')!.textContent).toBe('Codex CLI may not run these entries:');
    expect(before.querySelector('strong')!.textContent).toMatch(/^Codex CLI may not run these entries/);
    expect([...block.querySelectorAll('[data-testid=connect-notice-warning]')].map((w) => w.textContent)).toEqual([said]);
    expect(block.compareDocumentPosition($('connect-notice')) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy(); // right under the notice
    await vi.waitFor(() => expect(document.activeElement).toBe(connectButton()));

    // The next result replaces them: a disconnect has nothing to warn about.
    await choose('codex', 'disconnect', /^Removes hookd\u2019s entries/);
    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-dialog')).toBeNull());
    expect($('connect-notice').textContent).toMatch(new RegExp(`^Disconnected: ${WEBSHOP}/\\.claude/settings\\.json was updated`));
    expect($('connect-notice-warnings').hidden).toBe(true);
    expect($('connect-notice-warnings').childElementCount).toBe(0);
    expect(errors.current()).toBeNull();
  });
});
