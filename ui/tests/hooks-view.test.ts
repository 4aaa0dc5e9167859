// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { parseHash } from '../src/lib/route';
import { createStub, type StubBackend } from '../src/stub';
import { createHooksView, forgetHookDrafts } from '../src/views/hooks';
import type { View } from '../src/views/view';

const ROOT = '/home/dev/src/hookd';
const AGENT_PROJECT = `${ROOT}/.claude/settings.json`;

let view: View | null = null;
let errors: ErrorBanner;
let stub: StubBackend;

function mount(hash = `#/hooks?project=${ROOT}&tab=agent-project`): void {
  stub = createStub({ rows: 20 });
  setBackend(stub);
  errors = createErrorBanner();
  const route = parseHash(hash);
  if (route.view !== 'hooks') throw new Error('not a hooks route');
  view = createHooksView(
    {
      errors,
      appInfo: Promise.resolve(null),
      navigate: (h) => view?.update(parseHash(h)),
    },
    route,
  );
  document.body.replaceChildren(errors.el, view.el);
}

const $ = <T extends HTMLElement = HTMLElement>(sel: string): T => document.querySelector<T>(sel)!;
const all = (sel: string): HTMLElement[] => [...document.querySelectorAll<HTMLElement>(sel)];
const type = (el: HTMLInputElement, text: string): void => {
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
};

afterEach(() => {
  forgetHookDrafts();
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
});

describe('hooks view', () => {
  it('shows a file as events, groups and handlers, with read-only handlers and other keys', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    expect($('#hooks-tab-agent-project').getAttribute('aria-selected')).toBe('true');
    expect($('#hooks-file-path').textContent).toBe(AGENT_PROJECT);
    expect($('#hooks-other-keys').textContent).toContain('permissions');
    const post = $('[data-testid=hook-event][data-event=PostToolUse]');
    expect(post.textContent).toContain('After a tool call succeeded');
    const handlers = [...post.querySelectorAll<HTMLElement>('[data-testid=hook-handler]')];
    expect(handlers.map((h) => h.dataset.type)).toEqual(['command', 'http']);
    expect(handlers[0]!.querySelector<HTMLInputElement>('[data-testid=handler-command]')!.value).toBe('cargo fmt --all');
    expect(handlers[0]!.querySelector<HTMLInputElement>('[data-testid=handler-timeout]')!.value).toBe('60');
    expect(handlers[0]!.querySelector('[data-testid=handler-extra]')!.textContent).toContain('statusMessage');
    expect(handlers[1]!.querySelector('[data-testid=handler-readonly]')!.textContent).toContain('http handler · read-only');
    expect(handlers[1]!.querySelector('[data-testid=handler-raw]')!.textContent).toContain('hooks.example.invalid/audit');
    expect($('#hooks-dirty').dataset.dirty).toBe('false');
    expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(true);
    // Tab counts come from each file.
    await vi.waitFor(() => expect($('#hooks-tab-managed-project').textContent).toContain('1'));
  });

  it('adds a PreToolUse hook with a live-checked matcher, reviews the diff and saves only the hooks', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    const event = $<HTMLSelectElement>('#hooks-add-event');
    expect(event.value).toBe('PreToolUse');
    expect($('#hooks-add-event-desc').textContent).toContain('Before a tool runs');
    type($<HTMLInputElement>('#hooks-add-matcher'), 'Bash(');
    await vi.waitFor(() => expect($('#hooks-add-matcher-status').dataset.state).toBe('error'));
    expect($('#hooks-add-matcher-status [data-testid=matcher-caret]').textContent).toBe('Bash(\n    ^');
    type($<HTMLInputElement>('#hooks-add-matcher'), 'Bash');
    await vi.waitFor(() => expect($('#hooks-add-matcher-status').textContent).toBe('exact names; matches 1 of 14 known tools: Bash'));
    type($<HTMLInputElement>('#hooks-add-command'), './scripts/guard.sh');
    $<HTMLInputElement>('#hooks-add-timeout').value = '15';
    $('#hooks-add-submit').click();
    await vi.waitFor(() => expect($('[data-testid=hook-event][data-event=PreToolUse]')).not.toBeNull());
    // Said, since nothing is written yet: the hook is in the edits only.
    expect($('#hooks-status').textContent).toBe('Added a PreToolUse hook running ./scripts/guard.sh (matcher Bash) to your unsaved edits: Review and save to write it.');
    expect($('#hooks-dirty').dataset.dirty).toBe('true');
    expect($('#hooks-tab-agent-project').dataset.dirty).toBe('true');

    const before = stub.hooks.files.get(AGENT_PROJECT)!;
    $('#hooks-review').click();
    await vi.waitFor(() => expect($('[data-testid=hooks-diff]')).not.toBeNull());
    const added = all('[data-testid=hooks-diff] .diff-add').map((l) => l.textContent);
    expect(added.some((t) => t!.includes('"matcher": "Bash"'))).toBe(true);
    expect(added.some((t) => t!.includes('./scripts/guard.sh'))).toBe(true);
    expect(all('[data-testid=hooks-diff] .diff-del')).toHaveLength(0);
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(before);

    $('#hooks-save').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toContain(`Saved ${AGENT_PROJECT}`));
    const saved = JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!);
    expect(saved.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/guard.sh', timeout: 15 }] }]);
    expect(saved.permissions).toEqual({ allow: ['Bash(cargo test:*)'] });
    expect(saved.hooks.PostToolUse[0].hooks[1]).toEqual({ type: 'http', url: 'https://hooks.example.invalid/audit' });
    await vi.waitFor(() => expect($('#hooks-dirty').dataset.dirty).toBe('false'));
    expect($('#hooks-review-panel')).toBeNull();
    // The Save button is gone: focus lands on the saved file's tab, never on <body>.
    expect(document.activeElement).toBe($('#hooks-tab-agent-project'));
  });

  it('edits a command and timeout in place, refuses a bad timeout, and discards', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-command]').length).toBeGreaterThan(0));
    const timeout = $<HTMLInputElement>('[data-testid=handler-timeout]');
    type(timeout, '-3');
    expect(timeout.getAttribute('aria-invalid')).toBe('true');
    expect($('#hooks-dirty').dataset.dirty).toBe('false');
    type(timeout, '90');
    expect($('#hooks-dirty').dataset.dirty).toBe('true');
    $('#hooks-discard').click();
    await vi.waitFor(() => expect($('#hooks-dirty').dataset.dirty).toBe('false'));
    expect($<HTMLInputElement>('[data-testid=handler-timeout]').value).toBe('60');
  });

  it('backtests the unsaved edits as Save would write the whole file, with progress and a Cancel', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-command]').length).toBeGreaterThan(0));
    const button = $<HTMLButtonElement>('#hooks-backtest');
    expect(button.textContent).toBe('Backtest these edits');
    expect(button.disabled).toBe(true);
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '90');
    expect(button.disabled).toBe(false);
    // The progress the backend reports shows while the replay runs.
    const lines: string[] = [];
    const seen = new MutationObserver(() => {
      const line = document.querySelector('#hooks-backtest-status');
      if (line?.textContent) lines.push(line.textContent);
    });
    seen.observe(document.body, { subtree: true, childList: true, characterData: true });
    button.click();
    await vi.waitFor(() => expect($('#hooks-backtest-panel').dataset.running).toBe('false'));
    seen.disconnect();
    expect(lines).toContain('Replaying the project\u2019s recorded events: 3 of 3 events replayed…');
    expect($('[data-testid=backtest-change]').dataset.kind).toBe('blocks');
    // The draft is the whole file as the save preview renders it (other keys too), and nothing was saved.
    const preview = await stub.invoke('preview_hooks_save', stub.lastArgs.get('preview_hooks_save') as Record<string, unknown>);
    const sent = stub.lastArgs.get('bench_backtest') as { request: { draft: unknown; hook: unknown; kind: string; scope: string } };
    expect(sent.request.draft).toEqual(JSON.parse((preview as { after: string }).after));
    expect((sent.request.draft as { permissions?: unknown }).permissions).toBeDefined();
    expect(sent.request).toMatchObject({ kind: 'agent', scope: 'project', hook: null });
    expect(JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!).hooks.PostToolUse[0].hooks[0].timeout).toBe(60);
    // Edited since: the report says so; Close puts it away.
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '91');
    expect($('#hooks-backtest-stale').hidden).toBe(false);
    $('#hooks-backtest-close').click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-backtest-panel')).toBeNull());
  });

  it('cancels a backtest of the edits that is running', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-command]').length).toBeGreaterThan(0));
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '90');
    // A replay that runs until it is cancelled, as the backend's does.
    let stop: (() => void) | null = null;
    const invoke = stub.invoke.bind(stub);
    stub.invoke = (cmd, args) => {
      if (cmd === 'bench_backtest') return new Promise((_, reject) => (stop = () => reject({ kind: 'cancelled', message: 'the backtest was cancelled' })));
      if (cmd === 'bench_cancel') stop?.();
      return invoke(cmd, args);
    };
    $('#hooks-backtest').click();
    await vi.waitFor(() => expect(stop).not.toBeNull());
    expect($<HTMLButtonElement>('#hooks-backtest').disabled).toBe(true);
    $('#hooks-backtest-cancel').click();
    await vi.waitFor(() => expect($('#hooks-backtest-status').textContent).toBe('Cancelled: its hooks were stopped before they finished.'));
    expect($('#hooks-backtest-panel').dataset.running).toBe('false');
    expect($<HTMLButtonElement>('#hooks-backtest').disabled).toBe(false);
  });

  it('reloads an unedited file that changed on disk, and offers merge for an edited one', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    await vi.waitFor(() => expect(stub.listenerCount('settings-changed')).toBe(1));
    const original = JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!);

    // Unedited: reloaded silently, with a note.
    const outside = { ...original, model: 'opus', hooks: { ...original.hooks, Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] } };
    stub.hooks.writeFile(AGENT_PROJECT, `${JSON.stringify(outside, null, 2)}\n`);
    stub.emit('settings-changed', { path: AGENT_PROJECT });
    await vi.waitFor(() => expect($('[data-testid=hook-event][data-event=Notification]')).not.toBeNull());
    expect($('#hooks-status').textContent).toContain('changed on disk');
    expect($('#hooks-disk-banner').hidden).toBe(true);

    // Edited: a banner, then merge keeps both changes.
    type($<HTMLInputElement>('#hooks-add-command'), './scripts/guard.sh');
    $('#hooks-add-submit').click();
    await vi.waitFor(() => expect($('[data-testid=hook-event][data-event=PreToolUse]')).not.toBeNull());
    const theirs = { ...outside, hooks: { ...outside.hooks, Stop: [{ hooks: [{ type: 'command', command: 'say bye' }] }] } };
    stub.hooks.writeFile(AGENT_PROJECT, `${JSON.stringify(theirs, null, 2)}\n`);
    stub.emit('settings-changed', { path: AGENT_PROJECT });
    await vi.waitFor(() => expect($('#hooks-disk-banner').hidden).toBe(false));
    expect($('#hooks-disk-banner').textContent).toContain(`${AGENT_PROJECT} changed on disk`);
    expect($('#hooks-tab-agent-project').querySelector('.hooks-tab-stale')).not.toBeNull();
    $('#hooks-merge').click();
    await vi.waitFor(() => expect($('#hooks-disk-banner').hidden).toBe(true));
    expect($('#hooks-merge-notes').textContent).toContain('added PreToolUse');
    $('#hooks-review').click();
    await vi.waitFor(() => expect($('#hooks-save')).not.toBeNull());
    $('#hooks-save').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toContain('Saved'));
    const saved = JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!);
    expect(saved.hooks.Stop[0].hooks[0].command).toBe('say bye');
    expect(saved.hooks.PreToolUse[0].hooks[0].command).toBe('./scripts/guard.sh');
    expect(saved.model).toBe('opus');
  });

  it('keeps what is typed in the add form when the file reloads under it', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    await vi.waitFor(() => expect(stub.listenerCount('settings-changed')).toBe(1));
    type($<HTMLInputElement>('#hooks-add-matcher'), 'Write');
    type($<HTMLInputElement>('#hooks-add-command'), './half-typed.sh');
    stub.hooks.writeFile(AGENT_PROJECT, '{"hooks": {}}\n');
    stub.emit('settings-changed', { path: AGENT_PROJECT });
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(0));
    expect($<HTMLInputElement>('#hooks-add-matcher').value).toBe('Write');
    expect($<HTMLInputElement>('#hooks-add-command').value).toBe('./half-typed.sh');
  });

  it('a save refused as a conflict keeps the edits and offers overwrite', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    type($<HTMLInputElement>('#hooks-add-command'), './x.sh');
    $('#hooks-add-submit').click();
    await vi.waitFor(() => expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(false));
    $('#hooks-review').click();
    await vi.waitFor(() => expect($('#hooks-save')).not.toBeNull());
    // Someone writes the file and no event arrives (e.g. the watcher is off).
    stub.hooks.writeFile(AGENT_PROJECT, '{"model": "haiku"}\n');
    $('#hooks-save').click();
    await vi.waitFor(() => expect($('#hooks-conflict')).not.toBeNull());
    expect($('#hooks-disk-banner').hidden).toBe(false);
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe('{"model": "haiku"}\n');
    $('#hooks-save-force').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toContain('Saved'));
    expect(JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!).model).toBe('haiku');
  });

  it('disables a hook into hookd\'s store and enables it again', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-disable]').length).toBeGreaterThan(0));
    $('[data-testid=hook-event][data-event=Stop] [data-testid=handler-disable]').click();
    await vi.waitFor(() => expect(all('[data-testid=disabled-hook]')).toHaveLength(1));
    expect($('[data-testid=hook-event][data-event=Stop]')).toBeNull();
    expect(stub.hooks.files.get(AGENT_PROJECT)).not.toContain('Claude is done');
    $('[data-testid=disabled-enable]').click();
    await vi.waitFor(() => expect($('[data-testid=hook-event][data-event=Stop]')).not.toBeNull());
    expect(all('[data-testid=disabled-hook]')).toHaveLength(0);
  });

  it('refuses a matcher that is no valid pattern in the add form, naming the position', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    const submit = $<HTMLButtonElement>('#hooks-add-submit');
    const form = $<HTMLFormElement>('#hooks-add');
    const matcher = $<HTMLInputElement>('#hooks-add-matcher');
    type($<HTMLInputElement>('#hooks-add-command'), './scripts/guard.sh');
    type(matcher, 'Bash(');
    await vi.waitFor(() => expect(submit.disabled).toBe(true));
    expect($('#hooks-add-error').textContent).toBe('The matcher is not a valid pattern: invalid regex "Bash(" at position 4: unclosed group. Fix it to add the hook.');
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await new Promise((r) => setTimeout(r, 50));
    expect($('[data-testid=hook-event][data-event=PreToolUse]')).toBeNull();
    expect($('#hooks-dirty').dataset.dirty).toBe('false');

    // Fixed: the button comes back and the refusal goes.
    type(matcher, 'Bash');
    await vi.waitFor(() => expect($('#hooks-add-matcher-status').dataset.state).toBe('ok'));
    expect(submit.disabled).toBe(false);
    expect($('#hooks-add-error').textContent).toBe('');

    // Typed and submitted before the live check answered: the form asks the backend first.
    type(matcher, 'Bash(');
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect($('#hooks-add-error').textContent).toContain('at position 4'));
    expect($('[data-testid=hook-event][data-event=PreToolUse]')).toBeNull();
    expect(document.activeElement).toBe(matcher);

    // An event without matchers ignores the field: nothing to refuse.
    const event = $<HTMLSelectElement>('#hooks-add-event');
    event.value = 'Stop';
    event.dispatchEvent(new Event('change'));
    expect(submit.disabled).toBe(false);
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(all('[data-testid=hook-event][data-event=Stop] [data-testid=hook-handler]')).toHaveLength(2));
  });

  it('refuses an existing group\u2019s matcher edited into no valid pattern, naming the position, until it is fixed', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=group-matcher]').length).toBeGreaterThan(0));
    const group = $('[data-testid=hook-event][data-event=PostToolUse] [data-testid=hook-group]');
    const field = group.querySelector<HTMLInputElement>('[data-testid=group-matcher]')!;
    const before = stub.hooks.files.get(AGENT_PROJECT);
    type(field, 'Bash(');
    await vi.waitFor(() => expect(group.dataset.refused).toBe('true'));
    const error = group.querySelector<HTMLElement>('[data-testid=group-matcher-error]')!;
    expect(error.textContent).toMatch(/^The matcher is not a valid pattern: .*at position 4.*\. Fix it to save the file\.$/);
    expect(group.querySelector('[data-testid=matcher-caret]')!.textContent).toBe('Bash(\n    ^');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);
    // The draft has the edit, but it cannot be reviewed for saving.
    expect($('#hooks-dirty').dataset.dirty).toBe('true');
    expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(true);
    // Another, unrelated edit does not lift the refusal.
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '90');
    expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(true);
    $('#hooks-review').click();
    await new Promise((r) => setTimeout(r, 50));
    expect(document.querySelector('#hooks-review-panel')).toBeNull();
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(before);
    // Fixed: the refusal goes, and the file can be reviewed.
    type(field, 'Write|Edit|MultiEdit');
    await vi.waitFor(() => expect(group.dataset.refused).toBe('false'));
    expect(error.textContent).toBe('');
    expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(false);
    $('#hooks-review').click();
    await vi.waitFor(() => expect($('#hooks-review-panel')).not.toBeNull());
  });

  it('flags a group whose matcher is no valid pattern, and the file still saves an unrelated edit', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    await vi.waitFor(() => expect(stub.listenerCount('settings-changed')).toBe(1));
    const text = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash(*docker*)', hooks: [{ type: 'command', command: './docker-guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
    };
    stub.hooks.writeFile(AGENT_PROJECT, `${JSON.stringify(text, null, 2)}\n`);
    stub.emit('settings-changed', { path: AGENT_PROJECT });
    await vi.waitFor(() => expect($('#hooks-bad-matchers')).not.toBeNull());
    expect($('#hooks-bad-matchers').textContent).toContain('Claude Code ignores it');
    const item = $('[data-testid=bad-matcher]');
    expect(item.dataset.path).toBe('hooks.PreToolUse[0].matcher');
    expect(item.textContent).toContain('at position 5');
    const group = $('[data-testid=hook-event][data-event=PreToolUse] [data-testid=hook-group]');
    expect(group.dataset.badMatcher).toBe('true');
    expect(group.querySelector('[data-testid=group-bad-matcher]')!.textContent).toBe('Never matches: not a valid pattern — Claude Code ignores this group. Fix the matcher or delete the group.');
    expect($('[data-testid=hook-event][data-event=Stop] [data-testid=hook-group]').dataset.badMatcher).toBe('false');
    expect($('#hooks-tab-agent-project .hooks-tab-problem')).not.toBeNull();

    // An unrelated edit: delete the Stop hook, review, save; the flagged group is kept.
    $<HTMLButtonElement>('[data-testid=hook-event][data-event=Stop] [data-testid=handler-delete]').click();
    await vi.waitFor(() => expect($<HTMLButtonElement>('#hooks-review').disabled).toBe(false));
    $('#hooks-review').click();
    await vi.waitFor(() => expect($('#hooks-save')).not.toBeNull());
    $('#hooks-save').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toContain('Saved'));
    const saved = JSON.parse(stub.hooks.files.get(AGENT_PROJECT)!);
    expect(saved.hooks).toEqual({ PreToolUse: text.hooks.PreToolUse });

    // Fixing the matcher clears the group's flag.
    await vi.waitFor(() => expect($('[data-testid=group-matcher]')).not.toBeNull());
    type($<HTMLInputElement>('[data-testid=group-matcher]'), 'Bash');
    await vi.waitFor(() => expect($('[data-testid=hook-group]').dataset.badMatcher).toBe('false'));
    expect($<HTMLElement>('[data-testid=group-bad-matcher]').hidden).toBe(true);
  });

  it('keeps the save bar in the scrolling pane, marked when there are unsaved changes', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    const bar = $('#hooks-save-bar');
    expect(bar.classList.contains('hooks-save-bar')).toBe(true);
    expect(bar.parentElement!.classList.contains('hooks-file')).toBe(true);
    expect(bar.parentElement!.lastElementChild).toBe(bar);
    expect(bar.querySelector('#hooks-review')).not.toBeNull();
    expect(bar.dataset.dirty).toBe('false');
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '90');
    expect(bar.dataset.dirty).toBe('true');
    expect(bar.classList.contains('dirty')).toBe(true);
  });

  it('moves a hook only after a review of both files and a confirmation', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-move]').length).toBeGreaterThan(0));
    const local = `${ROOT}/.claude/settings.local.json`;
    const sourceBefore = stub.hooks.files.get(AGENT_PROJECT);
    const open = (): void => $('[data-testid=hook-event][data-event=Stop] [data-testid=handler-move]').click();
    const pick = (label: string): void => {
      const radio = all('[data-testid=move-target]').find((r) => r.parentElement!.textContent!.includes(label)) as HTMLInputElement;
      radio.checked = true;
      radio.dispatchEvent(new Event('change'));
    };

    // Choosing a file (as an arrow key in the list does) writes nothing, nor does cancelling.
    open();
    await vi.waitFor(() => expect($('#hooks-move-dialog')).not.toBeNull());
    expect($<HTMLButtonElement>('#hooks-move-review').disabled).toBe(true);
    expect(all('[data-testid=move-target]').map((r) => r.parentElement!.textContent!.trim())).not.toContain('Claude Code · Project (.claude/settings.json)');
    pick('Claude Code · Global');
    pick('Claude Code · Local');
    expect($<HTMLButtonElement>('#hooks-move-review').disabled).toBe(false);
    expect(stub.hooks.files.has(local)).toBe(false);
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(sourceBefore);
    $('#hooks-move-cancel').click();
    expect($('#hooks-move-dialog')).toBeNull();

    // Review: the diff of both files; still nothing written.
    open();
    pick('Claude Code · Local');
    $('#hooks-move-review').click();
    await vi.waitFor(() => expect($('#hooks-move-dialog').dataset.step).toBe('review'));
    const from = $('[data-testid=move-from]');
    const to = $('[data-testid=move-to]');
    expect(from.dataset.path).toBe(AGENT_PROJECT);
    expect(to.dataset.path).toBe(local);
    expect(to.textContent).toContain('a new file');
    expect([...from.querySelectorAll('.diff-del')].some((l) => l.textContent!.includes('Claude is done'))).toBe(true);
    expect([...to.querySelectorAll('.diff-add')].some((l) => l.textContent!.includes('Claude is done'))).toBe(true);
    expect(to.querySelectorAll('.diff-del')).toHaveLength(0);
    expect(stub.hooks.files.has(local)).toBe(false);
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(sourceBefore);

    // Confirmed: the move writes both files.
    $('#hooks-move-confirm').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toContain('Moved Stop hook'));
    expect($('#hooks-move-dialog')).toBeNull();
    expect(stub.hooks.files.get(local)).toContain('Claude is done');
    expect(stub.hooks.files.get(AGENT_PROJECT)).not.toContain('Claude is done');
  });

  it("copies a hook to another agent as that agent's entry, with what degrades, writing nothing", async () => {
    mount(`#/hooks?project=${ROOT}&tab=managed-project`);
    await vi.waitFor(() => expect(all('[data-testid=handler-copy]').length).toBeGreaterThan(0));
    const before = new Map(stub.hooks.files);
    const button = $('[data-testid=hook-event][data-event=PreToolUse] [data-testid=handler-copy]');
    button.click();
    await vi.waitFor(() => expect($('#copy-result').dataset.agent).toBe('codex'));
    expect($('#copy-became').textContent).toBe("Becomes PreToolUse [Bash] in Codex CLI's file.");
    expect(JSON.parse($('#copy-text').textContent!)).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/deny-rm-rf.sh' }] }] } });
    expect($('[data-testid=copy-check]').textContent).toContain('exit 2');
    expect($('[data-testid=copy-files]').textContent).toContain('.codex/hooks.json');
    expect($<HTMLButtonElement>('#copy-json').disabled).toBe(false);
    // Another agent: its own names.
    const select = $<HTMLSelectElement>('#copy-agent');
    select.value = 'gemini';
    select.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect($('#copy-result').dataset.agent).toBe('gemini'));
    expect($('#copy-result').dataset.target).toBe('BeforeTool');
    expect($('#copy-text').textContent).toContain('run_shell_command');
    // Nothing was written; Close gives the focus back.
    expect(stub.hooks.files).toEqual(before);
    $('#copy-close').click();
    expect($('#copy-dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('refuses a move whose destination changed after the review, writing nothing', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-move]').length).toBeGreaterThan(0));
    const global = '/home/dev/.claude/settings.json';
    $('[data-testid=hook-event][data-event=Stop] [data-testid=handler-move]').click();
    await vi.waitFor(() => expect($('#hooks-move-dialog')).not.toBeNull());
    const radio = all('[data-testid=move-target]').find((r) => r.dataset.kind === 'agent' && r.dataset.scope === 'global') as HTMLInputElement;
    radio.checked = true;
    radio.dispatchEvent(new Event('change'));
    $('#hooks-move-review').click();
    await vi.waitFor(() => expect($('#hooks-move-confirm').hidden).toBe(false));
    const sourceBefore = stub.hooks.files.get(AGENT_PROJECT);
    const theirs = '{"model": "haiku"}\n';
    stub.hooks.writeFile(global, theirs);
    $('#hooks-move-confirm').click();
    await vi.waitFor(() => expect($('#hooks-move-error').textContent).toContain('Nothing was moved'));
    expect($('#hooks-move-error').textContent).toContain('changed on disk');
    expect(stub.hooks.files.get(global)).toBe(theirs);
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe(sourceBefore);
  });

  it('shows the effective hooks with their source files', async () => {
    mount(`#/hooks?project=${ROOT}&tab=effective`);
    await vi.waitFor(() => expect(all('[data-testid=effective-hook]').length).toBe(5));
    const rows = all('[data-testid=effective-hook]');
    expect(rows.map((r) => `${r.dataset.kind}/${r.dataset.scope}/${r.dataset.event}`)).toEqual([
      'agent/global/Notification',
      'agent/project/PostToolUse',
      'agent/project/PostToolUse',
      'agent/project/Stop',
      'managed/project/PreToolUse',
    ]);
    const source = rows[4]!.querySelector<HTMLElement>('[data-testid=effective-source]')!;
    expect(source.dataset.path).toBe(`${ROOT}/.hookd/settings.json`);
    expect(source.textContent).toBe('hookd · Project.hookd/settings.json');
    expect(rows[0]!.querySelector('[data-testid=effective-source]')!.textContent).toBe('Claude Code · Global/home/dev/.claude/settings.json');
    expect(all('[data-testid=effective-file]')).toHaveLength(6);
    expect($('#hooks-effective-summary').textContent).toContain('5 hooks');
  });

  it('lists plugin hooks read-only with their plugin, a disabled plugin\u2019s as not running and why', async () => {
    mount(`#/hooks?project=${ROOT}&tab=effective`);
    await vi.waitFor(() => expect(all('[data-testid=plugin-hook]')).toHaveLength(2));
    expect($('#hooks-sources-title').textContent).toBe('Plugins, skills and agents');
    const [guard, notes] = all('[data-testid=plugin-hook]');
    expect(guard!.dataset).toMatchObject({ plugin: 'guard@market', enabled: 'true', event: 'PreToolUse' });
    const cells = [...guard!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual([
      'Pluginguard@market 1.0.0',
      'PreToolUse',
      'Bash',
      '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh',
      '✓ enabled',
      '/home/dev/.claude/plugins/cache/market/guard/1.0.0/hooks/hooks.json',
    ]);
    expect(notes!.dataset.enabled).toBe('false');
    expect(notes!.querySelector('[data-testid=runs-verdict]')!.getAttribute('data-runs')).toBe('false');
    // Why, in a row of its own under the hook (the State column holds the badge only).
    expect(notes!.querySelector('[data-testid=runs-reason]')).toBeNull();
    const why = notes!.nextElementSibling as HTMLElement;
    expect(why.dataset.testid).toBe('effective-reasons');
    expect(why.querySelector('[data-testid=runs-reason]')!.textContent).toContain('notes@market is not enabled for this project');
    // Read-only: nothing in the section edits.
    expect($('#hooks-effective-sources').querySelectorAll('input, button, select')).toHaveLength(0);
    // They are not counted as the settings files' hooks.
    expect($('#hooks-effective-summary').textContent).toContain('5 hooks');
  });

  it('lists skill and agent hooks read-only with whose they are, that they run only while active, and unreadable files as warnings', async () => {
    mount(`#/hooks?project=${ROOT}&tab=effective`);
    await vi.waitFor(() => expect(all('[data-testid=component-hook]')).toHaveLength(3));
    const [agent, skill, command] = all('[data-testid=component-hook]');
    expect(agent!.dataset).toMatchObject({ kind: 'agent', origin: 'user', name: 'reviewer', event: 'Stop', firesAs: 'SubagentStop' });
    expect([...agent!.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Agent · userreviewer',
      'Stop runs as SubagentStop',
      '',
      './summarise.sh',
      '✓ while active',
      '/home/dev/.claude/agents/reviewer.md',
    ]);
    expect([...skill!.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Skill · projectlint-on-save',
      'PostToolUse',
      'Write|Edit',
      './lint.shonce',
      '✓ while active',
      '.claude/skills/lint-on-save/SKILL.md',
    ]);
    // A custom command is a skill to Claude Code, named with its folder.
    expect(command!.dataset).toMatchObject({ kind: 'command', name: 'release:tag' });
    expect(command!.querySelector('td')!.textContent).toBe('Command · projectrelease:tag');
    expect($('#hooks-effective-sources').textContent).toContain('run only while that skill or agent is active');
    const problem = $('[data-testid=component-problem]');
    expect(problem.dataset.path).toBe(`${ROOT}/.claude/agents/broken.md`);
    expect(problem.textContent).toBe('.claude/agents/broken.md: its frontmatter is not valid YAML: did not find expected node content at line 1 column 7');
    expect($('#hooks-effective-sources').querySelectorAll('input, button, select')).toHaveLength(0);
  });

  it('keeps unsaved edits when the user leaves the project and comes back', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    type($<HTMLInputElement>('#hooks-add-command'), './kept.sh');
    $('#hooks-add-submit').click();
    await vi.waitFor(() => expect($('#hooks-dirty').dataset.dirty).toBe('true'));
    view!.update(parseHash('#/hooks?project=/home/dev/src/webshop&tab=agent-project'));
    await vi.waitFor(() => expect($('#hooks-file-path').textContent).toBe('/home/dev/src/webshop/.claude/settings.json'));
    expect($('#hooks-dirty').dataset.dirty).toBe('false');
    // Even a new view of the screen (another screen in between) keeps them.
    view!.destroy();
    const route = parseHash(`#/hooks?project=${ROOT}&tab=agent-project`);
    if (route.view !== 'hooks') throw new Error('route');
    view = createHooksView({ errors, appInfo: Promise.resolve(null), navigate: (h) => view?.update(parseHash(h)) }, route);
    document.body.replaceChildren(errors.el, view.el);
    await vi.waitFor(() => expect($('[data-testid=hook-handler][data-command="./kept.sh"]')).not.toBeNull());
    expect($('#hooks-dirty').dataset.dirty).toBe('true');
  });

  it('says what happened on the tab it happened on, and not on the next one', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=handler-timeout]').length).toBeGreaterThan(0));
    type($<HTMLInputElement>('[data-testid=handler-timeout]'), '90');
    $('#hooks-discard').click();
    await vi.waitFor(() => expect($('#hooks-status').textContent).toBe('Edits discarded.'));
    $('#hooks-tab-agent-local').click();
    await vi.waitFor(() => expect($('#hooks-tab-agent-local').getAttribute('aria-selected')).toBe('true'));
    expect($('#hooks-status').textContent).toBe('');
  });

  it('switches tabs with the arrow keys and asks for a project when none is given', async () => {
    mount();
    await vi.waitFor(() => expect(all('[data-testid=hook-event]')).toHaveLength(2));
    $('#hooks-tabs').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await vi.waitFor(() => expect($('#hooks-tab-agent-local').getAttribute('aria-selected')).toBe('true'));
    expect($('[data-testid=hooks-file]').dataset.scope).toBe('local');
    expect($('#hooks-none').textContent).toContain('does not exist yet');
    view?.destroy();
    mount('#/hooks');
    expect($('#hooks-no-project').hidden).toBe(false);
    expect($('#hooks-tabs').hidden).toBe(true);
  });

  it('installs a template into the chosen file, says what it did, and uninstalls exactly that', async () => {
    mount(`#/hooks?project=${ROOT}&tab=templates`);
    await vi.waitFor(() => expect(all('[data-testid=template]').length).toBeGreaterThan(0));
    expect($('#hooks-tab-templates').getAttribute('aria-selected')).toBe('true');
    const card = (): HTMLElement => $('[data-testid=template][data-name=block-dangerous-shell]');
    expect(card().textContent).toContain('PreToolUse (Bash) · 10 s');
    expect(card().querySelectorAll('[data-testid=template-installed]')).toHaveLength(0);
    const target = card().querySelector<HTMLSelectElement>('[data-testid=template-target]')!;
    expect(target.value).toBe('agent-project');
    target.value = 'managed-local';
    target.dispatchEvent(new Event('change'));
    card().querySelector<HTMLButtonElement>('[data-testid=template-install]')!.click();
    await vi.waitFor(() => expect(card().querySelectorAll('[data-testid=template-installed]')).toHaveLength(1));
    const placed = card().querySelector<HTMLElement>('[data-testid=template-installed]')!;
    expect(placed.dataset.kind).toBe('managed');
    expect(placed.dataset.scope).toBe('local');
    expect(placed.dataset.complete).toBe('true');
    expect($('#hooks-status').textContent).toBe(
      'Installed block-dangerous-shell into hookd · Local (.hookd/settings.local.json): added PreToolUse (Bash); script .hookd/hooks-local/block-dangerous-shell.py created.',
    );
    // The file has the handler, nothing else.
    const written = JSON.parse(stub.hooks.files.get(`${ROOT}/.hookd/settings.local.json`)!) as Record<string, unknown>;
    expect(written).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${ROOT}/.hookd/hooks-local/block-dangerous-shell.py`, timeout: 10 }] }] } });
    // The tab counts installed templates; the file's tab counts its hook.
    expect($('#hooks-tab-templates').textContent).toContain('1');
    expect($('#hooks-tab-managed-local').textContent).toContain('1');
    // Installing into the same file again is offered as nothing to do.
    const again = card().querySelector<HTMLSelectElement>('[data-testid=template-target]')!;
    again.value = 'managed-local';
    again.dispatchEvent(new Event('change'));
    const install = card().querySelector<HTMLButtonElement>('[data-testid=template-install]')!;
    expect(install.textContent).toBe('Installed');
    expect(install.disabled).toBe(true);

    card().querySelector<HTMLButtonElement>('[data-testid=template-uninstall]')!.click();
    await vi.waitFor(() => expect(card().querySelectorAll('[data-testid=template-installed]')).toHaveLength(0));
    expect($('#hooks-status').textContent).toContain('Uninstalled block-dangerous-shell from hookd · Local');
    expect($('#hooks-status').textContent).toBe(
      'Uninstalled block-dangerous-shell from hookd · Local (.hookd/settings.local.json): removed PreToolUse (Bash); script .hookd/hooks-local/block-dangerous-shell.py removed; the previous version is kept (hookd hooks restore-backup brings it back).',
    );
    expect(JSON.parse(stub.hooks.files.get(`${ROOT}/.hookd/settings.local.json`)!)).toEqual({});
  });

  it('marks a half-removed template as incomplete, offers a repair, and warns about missing programs', async () => {
    mount(`#/hooks?project=${ROOT}&tab=templates`);
    await vi.waitFor(() => expect(all('[data-testid=template]').length).toBeGreaterThan(0));
    const card = (name: string): HTMLElement => $(`[data-testid=template][data-name=${name}]`);
    expect(card('notify-desktop').querySelector('[data-testid=template-missing-programs]')!.textContent).toContain('notify-send');
    expect(card('block-dangerous-shell').querySelector('[data-testid=template-missing-programs]')).toBeNull();
    card('session-git-context').querySelector<HTMLButtonElement>('[data-testid=template-install]')!.click();
    await vi.waitFor(() => expect(card('session-git-context').querySelectorAll('[data-testid=template-installed]')).toHaveLength(1));
    // Someone deletes the script by hand: the settings file still runs it.
    stub.hooks.files.delete(`${ROOT}/.hookd/hooks/session-git-context.sh`);
    view?.update(parseHash(`#/hooks?project=${ROOT}&tab=effective`));
    view?.update(parseHash(`#/hooks?project=${ROOT}&tab=templates`));
    stub.emit('settings-changed', { path: AGENT_PROJECT });
    await vi.waitFor(() => expect(card('session-git-context').querySelector<HTMLElement>('[data-testid=template-installed]')!.dataset.complete).toBe('false'));
    expect(card('session-git-context').textContent).toContain(`missing: script ${ROOT}/.hookd/hooks/session-git-context.sh`);
    const install = card('session-git-context').querySelector<HTMLButtonElement>('[data-testid=template-install]')!;
    expect(install.textContent).toBe('Repair');
    install.click();
    await vi.waitFor(() => expect(card('session-git-context').querySelector<HTMLElement>('[data-testid=template-installed]')!.dataset.complete).toBe('true'));
    expect($('#hooks-status').textContent).toContain('no handler');
    expect($('#hooks-status').textContent).toContain('created');
  });

  it('names a settings file that does not parse and still shows where templates are installed elsewhere', async () => {
    mount(`#/hooks?project=${ROOT}&tab=templates`);
    await vi.waitFor(() => expect(all('[data-testid=template]').length).toBeGreaterThan(0));
    const card = (name: string): HTMLElement => $(`[data-testid=template][data-name=${name}]`);
    const target = card('block-dangerous-shell').querySelector<HTMLSelectElement>('[data-testid=template-target]')!;
    target.value = 'managed-project';
    target.dispatchEvent(new Event('change'));
    card('block-dangerous-shell').querySelector<HTMLButtonElement>('[data-testid=template-install]')!.click();
    await vi.waitFor(() => expect(card('block-dangerous-shell').querySelectorAll('[data-testid=template-installed]')).toHaveLength(1));
    expect($('[data-testid=templates-unreadable]')).toBeNull();

    const local = `${ROOT}/.claude/settings.local.json`;
    stub.hooks.writeFile(local, '{ "hooks": oops }');
    stub.emit('settings-changed', { path: local });
    await vi.waitFor(() => expect($('[data-testid=templates-unreadable]')).not.toBeNull());
    const warning = $('[data-testid=templates-unreadable]');
    expect(warning.textContent).toContain('One settings file could not be read');
    const item = warning.querySelector<HTMLElement>('li')!;
    expect([item.dataset.kind, item.dataset.scope]).toEqual(['agent', 'local']);
    expect(item.textContent).toContain('Claude Code · Local .claude/settings.local.json — not valid JSON');
    // The other files still answer, and the broken one is left as it was.
    expect(card('block-dangerous-shell').querySelector<HTMLElement>('[data-testid=template-installed]')!.dataset.kind).toBe('managed');
    expect(stub.hooks.files.get(local)).toBe('{ "hooks": oops }');

    stub.hooks.writeFile(local, '{}\n');
    stub.emit('settings-changed', { path: local });
    await vi.waitFor(() => expect($('[data-testid=templates-unreadable]')).toBeNull());
  });

  it('offers hookd-emit entries for Claude Code\'s files only, and shows a failed install as an error', async () => {
    mount(`#/hooks?project=${ROOT}&tab=templates`);
    await vi.waitFor(() => expect(all('[data-testid=template]').length).toBeGreaterThan(0));
    const record = $('[data-testid=template][data-name=record-into-hookd]');
    const options = [...record.querySelectorAll<HTMLOptionElement>('[data-testid=template-target] option')].map((o) => o.value);
    expect(options).toEqual(['agent-project', 'agent-local', 'agent-global']);
    expect(record.textContent).toContain('adds hookd-emit entries');
    // A settings file that is not JSON: the install fails, the error shows, nothing is written.
    stub.hooks.writeFile(AGENT_PROJECT, '{ not json');
    record.querySelector<HTMLButtonElement>('[data-testid=template-install]')!.click();
    await vi.waitFor(() => expect(errors.el.textContent).toContain('Could not install record-into-hookd'));
    expect(stub.hooks.files.get(AGENT_PROJECT)).toBe('{ not json');
  });
});

describe('breakable text', () => {
  it('wraps a command between its parts and reads back unchanged', async () => {
    const { breakable } = await import('../src/components/dom');
    const text = '/work/main/target/debug/hookd-emit post_tool_use_failure --x=1';
    const el = document.createElement('code');
    el.append(...breakable(text));
    expect(el.textContent).toBe(text);
    const parts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent);
    expect(parts).toEqual(['/', 'work/', 'main/', 'target/', 'debug/', 'hookd', '-emit post_', 'tool_', 'use_', 'failure --x=', '1']);
    expect(el.querySelectorAll('wbr')).toHaveLength(parts.length - 1);
    const matcher = document.createElement('td');
    matcher.append(...breakable('Write|Edit'));
    expect(matcher.innerHTML).toBe('Write|<wbr>Edit');
  });
});
