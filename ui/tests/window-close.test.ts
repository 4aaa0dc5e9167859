// @vitest-environment jsdom
// Closing the window destroys the page; the Hook editor's unsaved edits go
// to the backend first (window-closing → stash_hook_drafts →
// finish_window_close) and the next page takes them back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBackend } from '../src/lib/api';
import { createStub, type StubBackend } from '../src/stub';
import { startApp } from '../src/main';
import { forgetHookDrafts, hookDraftsSnapshot, restoreHookDrafts } from '../src/views/hooks';

const ROOT = '/home/dev/src/hookd';
const AGENT_PROJECT = `${ROOT}/.claude/settings.json`;

const $ = <T extends HTMLElement = HTMLElement>(sel: string): T => document.querySelector<T>(sel)!;
const type = (el: HTMLInputElement, text: string): void => {
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
};

/** A fresh page (as a new window loads one) on `hash`, over `stub`. */
function openPage(stub: StubBackend, hash: string): void {
  forgetHookDrafts();
  window.history.replaceState(null, '', `/${hash}`);
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  setBackend(stub);
  startApp(root);
}

afterEach(() => {
  forgetHookDrafts();
  setBackend(null);
  document.body.replaceChildren();
});

describe('closing the window', () => {
  it('hands the unsaved hook edits to the backend, and the next window has them back', async () => {
    const stub = createStub({ rows: 5 });
    openPage(stub, `#/hooks?project=${ROOT}&tab=agent-project`);
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=hook-event]')).toHaveLength(2));
    await vi.waitFor(() => expect(stub.listenerCount('window-closing')).toBe(1));
    type($<HTMLInputElement>('#hooks-add-matcher'), 'Write');
    type($<HTMLInputElement>('#hooks-add-command'), './kept.sh');
    $('#hooks-add-submit').click();
    await vi.waitFor(() => expect($('#hooks-tab-agent-project').dataset.dirty).toBe('true'));
    type($<HTMLInputElement>('#hooks-add-command'), './half-typed.sh');
    const onDisk = stub.hooks.files.get(AGENT_PROJECT);

    stub.emit('window-closing', null);
    await vi.waitFor(() => expect(stub.windowCloses).toBe(1));
    expect(stub.stashedDrafts).not.toBeNull();
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(onDisk);

    // The tray opens a new window, on another screen first.
    openPage(stub, '#/projects');
    await vi.waitFor(() => expect(stub.stashedDrafts).toBeNull());
    window.location.hash = `#/hooks?project=${ROOT}&tab=agent-project`;
    await vi.waitFor(() => expect($('#hooks-tab-agent-project')?.dataset.dirty).toBe('true'));
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=hook-event]')).toHaveLength(3));
    const commands = [...document.querySelectorAll<HTMLInputElement>('input')].map((i) => i.value);
    expect(commands).toContain('./kept.sh');
    expect($<HTMLInputElement>('#hooks-add-command').value).toBe('./half-typed.sh');
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(onDisk);
  });

  it('reopens the editor over edits that come back after it opened', async () => {
    const stub = createStub({ rows: 5 });
    openPage(stub, `#/hooks?project=${ROOT}&tab=agent-project`);
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=hook-event]')).toHaveLength(2));
    type($<HTMLInputElement>('#hooks-add-command'), './typed-before-close.sh');
    stub.emit('window-closing', null);
    await vi.waitFor(() => expect(stub.windowCloses).toBe(1));

    // The new window opens straight on the editor.
    openPage(stub, `#/hooks?project=${ROOT}&tab=agent-project`);
    await vi.waitFor(() => expect($<HTMLInputElement>('#hooks-add-command')?.value).toBe('./typed-before-close.sh'));
  });

  it('closes at once with nothing to keep, and ignores a stash it does not know', async () => {
    const stub = createStub({ rows: 5 });
    openPage(stub, '#/projects');
    await vi.waitFor(() => expect(stub.listenerCount('window-closing')).toBe(1));
    stub.emit('window-closing', null);
    await vi.waitFor(() => expect(stub.windowCloses).toBe(1));
    expect(stub.stashedDrafts).toBeNull();
    expect(hookDraftsSnapshot()).toBeNull();

    expect(restoreHookDrafts(null)).toBe(0);
    expect(restoreHookDrafts({ version: 2, projects: [] })).toBe(0);
    expect(restoreHookDrafts({ version: 1, projects: [[ROOT, [['no-such-tab', { loaded: {}, draft: {} }]]]] })).toBe(0);
    expect(hookDraftsSnapshot()).toBeNull();
  });
});
