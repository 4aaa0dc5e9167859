// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { createStub, type StubBackend } from '../src/stub';
import { createProjectsView } from '../src/views/projects';
import type { View } from '../src/views/view';

const WEBSHOP = '/home/dev/src/webshop';
let view: View | null = null;
let errors: ErrorBanner;
let stub: StubBackend;

function mount(): void {
  stub = createStub({ rows: 30, seed: 5 });
  setBackend(stub);
  errors = createErrorBanner();
  view = createProjectsView({ errors, navigate: () => {}, appInfo: Promise.resolve(null) });
  document.body.replaceChildren(errors.el, view.el);
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const card = (root: string): HTMLElement => document.querySelector<HTMLElement>(`[data-testid=project][data-root="${root}"]`)!;
const button = (root: string): HTMLButtonElement => card(root).querySelector<HTMLButtonElement>('[data-testid=project-connect]')!;
const key = (k: string, shift = false): void => {
  document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true }));
};

afterEach(() => {
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
});

async function openFor(root: string): Promise<void> {
  await vi.waitFor(() => expect(card(root)).not.toBeNull());
  button(root).click();
  await vi.waitFor(() => expect($('connect-diff')).not.toBeNull());
}

describe('connect dialog', () => {
  it('shows the exact change for the project scope, applies it and refreshes the badges', async () => {
    mount();
    await vi.waitFor(() => expect(card(WEBSHOP)).not.toBeNull());
    expect(button(WEBSHOP).textContent).toBe('Connected'); // the global scope is connected in the sample data
    expect(card(WEBSHOP).querySelector<HTMLElement>('[data-testid=connected-project]')!.dataset.connected).toBe('false');
    button(WEBSHOP).click();
    await vi.waitFor(() => expect($('connect-dialog')).not.toBeNull());
    const dialog = $('connect-dialog');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    // The global scope is connected already: it is preselected and there is nothing to do.
    expect($<HTMLSelectElement>('connect-scope').value).toBe('global');
    await vi.waitFor(() => expect($('connect-summary').textContent).toBe('Already connected: nothing to change in this file.'));
    expect($<HTMLButtonElement>('connect-apply').disabled).toBe(true);

    $<HTMLSelectElement>('connect-scope').value = 'project';
    $('connect-scope').dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-summary').textContent).toMatch(/^Creates the file with a hookd entry for 11 events/));
    const diff = $('connect-diff');
    expect(diff.textContent).toContain(`${WEBSHOP}/.claude/settings.json (new file)`);
    const added = [...diff.querySelectorAll('.diff-add')].map((l) => l.textContent).join('\n');
    expect(added).toContain('hookd-emit pre_tool_use');
    expect(diff.querySelectorAll('.diff-del')).toHaveLength(0);
    expect($<HTMLButtonElement>('connect-apply').disabled).toBe(false);

    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-dialog')).toBeNull());
    expect(stub.connect.files.get(`${WEBSHOP}/.claude/settings.json`)).toContain('hookd-emit pre_tool_use');
    await vi.waitFor(() => expect(card(WEBSHOP).querySelector<HTMLElement>('[data-testid=connected-project]')!.dataset.connected).toBe('true'));
    expect($('connect-notice').hidden).toBe(false);
    expect($('connect-notice').textContent).toBe(`Connected: ${WEBSHOP}/.claude/settings.json was created.`);
    await vi.waitFor(() => expect(document.activeElement).toBe(button(WEBSHOP)));
  });

  it('offers each coding agent its own files', async () => {
    mount();
    await openFor(WEBSHOP);
    const agent = $<HTMLSelectElement>('connect-agent');
    expect(agent.value).toBe('claude');
    expect([...agent.options].map((o) => o.textContent)).toEqual(['Claude Code', 'Codex CLI', 'Gemini CLI', 'Cursor', 'GitHub Copilot']);
    agent.value = 'codex';
    agent.dispatchEvent(new Event('change'));
    const scope = $<HTMLSelectElement>('connect-scope');
    expect([...scope.options].map((o) => o.value)).toEqual(['project', 'global']);
    expect(scope.value).toBe('global');
    expect($('connect-scope-note').textContent).toContain('~/.codex/hooks.json');
    expect($('connect-scope-note').textContent).toContain('trust it in /hooks');
    scope.value = 'project';
    scope.dispatchEvent(new Event('change'));
    expect($('connect-scope-note').textContent).toContain(`${WEBSHOP}/.codex/hooks.json`);
    // Back to Claude Code: its three files, the chosen scope kept.
    agent.value = 'claude';
    agent.dispatchEvent(new Event('change'));
    expect([...scope.options].map((o) => o.value)).toEqual(['project', 'local', 'global']);
    expect(scope.value).toBe('project');
  });

  it('keeps focus inside, closes on Esc and gives focus back', async () => {
    mount();
    await openFor(WEBSHOP);
    const dialog = $('connect-dialog');
    expect(document.activeElement).toBe($('connect-agent'));
    key('Tab', true); // from the first control backwards: to the last one
    const focusable = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]), select')];
    expect(document.activeElement).toBe(focusable[focusable.length - 1]);
    key('Tab'); // and forwards again: back to the first
    expect(document.activeElement).toBe($('connect-agent'));
    key('Escape');
    expect($('connect-dialog')).toBeNull();
    expect(document.activeElement).toBe(button(WEBSHOP));
    expect(stub.calls.get('connect_apply')).toBeUndefined();
  });

  it('makes the page behind it inert while open (aria-modal made true), and only that', async () => {
    mount();
    await openFor(WEBSHOP);
    const dialog = $('connect-dialog');
    expect(dialog.closest('[inert]')).toBeNull();
    expect(card(WEBSHOP).closest('[inert]')).not.toBeNull();
    expect(errors.el.hasAttribute('inert')).toBe(true);
    key('Escape');
    expect(document.querySelectorAll('[inert]')).toHaveLength(0);
  });

  it('managed mode and disconnect preview their own changes; Cancel writes nothing', async () => {
    mount();
    await openFor('/home/dev/src/hookd');
    expect($<HTMLSelectElement>('connect-scope').value).toBe('project');
    const mode = $<HTMLSelectElement>('connect-mode');
    mode.value = 'managed';
    mode.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-diff').textContent).toContain('hookd-emit --wait pre_tool_use'));
    expect($('connect-diff').querySelectorAll('.diff-del').length).toBeGreaterThan(0); // recording entries are replaced
    mode.value = 'disconnect';
    mode.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-summary').textContent).toMatch(/^Removes hookd\u2019s entries from 11 events/));
    expect($('connect-apply').textContent).toBe('Disconnect');
    const before = stub.connect.files.get('/home/dev/src/hookd/.claude/settings.json');
    $('connect-cancel').click();
    expect($('connect-dialog')).toBeNull();
    expect(stub.connect.files.get('/home/dev/src/hookd/.claude/settings.json')).toBe(before);
  });

  it('refuses to write a file that changed since the preview and shows the new change', async () => {
    mount();
    await openFor('/home/dev/src/infra');
    $<HTMLSelectElement>('connect-scope').value = 'project';
    $('connect-scope').dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-summary').textContent).toMatch(/^Creates the file/));
    stub.connect.writeFile('/home/dev/src/infra/.claude/settings.json', '{\n  "model": "opus"\n}\n');
    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-conflict').hidden).toBe(false));
    expect($('connect-dialog')).not.toBeNull();
    await vi.waitFor(() => expect($('connect-summary').textContent).toMatch(/^Adds a hookd entry/));
    expect($('connect-diff').textContent).toContain('"model": "opus"');
    expect(stub.connect.files.get('/home/dev/src/infra/.claude/settings.json')).toBe('{\n  "model": "opus"\n}\n');
    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-dialog')).toBeNull());
    const written = JSON.parse(stub.connect.files.get('/home/dev/src/infra/.claude/settings.json')!);
    expect(written.model).toBe('opus');
    expect(errors.current()).toBeNull();
  });
  it('shows why the agent will not run the entries before Apply, as the core says it', async () => {
    mount();
    const said = '/etc/codex/requirements.toml sets [features] hooks = false: Codex CLI runs no hook, so it will not run hookd\u2019s entries either, until an administrator lifts it there';
    stub.connect.warnings.set('codex', [said]);
    await openFor(WEBSHOP);
    await vi.waitFor(() => expect($('connect-summary').textContent).toBe('Already connected: nothing to change in this file.'));
    expect($('connect-agent-warnings')).toBeNull(); // Claude Code: nothing said
    const agent = $<HTMLSelectElement>('connect-agent');
    agent.value = 'codex';
    agent.dispatchEvent(new Event('change'));
    $<HTMLSelectElement>('connect-scope').value = 'project';
    $('connect-scope').dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-agent-warnings')).not.toBeNull());
    const block = $('connect-agent-warnings');
    expect(block.getAttribute('role')).toBe('alert');
    expect(block.classList.contains('connect-warning')).toBe(true);
    expect(block.textContent).toContain('Codex CLI');
    expect([...block.querySelectorAll('[data-testid=connect-agent-warning]')].map((w) => w.textContent)).toEqual([said]);
    expect($('connect-apply').getAttribute('aria-describedby')).toBe('connect-agent-warnings');
    expect($<HTMLButtonElement>('connect-apply').disabled).toBe(false); // the entries are written all the same
    // A disconnect has nothing to warn about.
    $<HTMLSelectElement>('connect-mode').value = 'disconnect';
    $('connect-mode').dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-agent-warnings')).toBeNull());
    expect($('connect-apply').hasAttribute('aria-describedby')).toBe(false);
    $<HTMLSelectElement>('connect-mode').value = 'record';
    $('connect-mode').dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('connect-agent-warnings')).not.toBeNull());
    $('connect-apply').click();
    await vi.waitFor(() => expect($('connect-dialog')).toBeNull());
    expect(errors.current()).toBeNull();
  });
});
