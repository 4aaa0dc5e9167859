// @vitest-environment jsdom
// The Revert actions: which reverts a row offers, how a preview reads, when
// Apply is possible, and the dialog and notice over a scripted backend (the
// plans themselves are hookd-core's, tested in Rust).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRowDetail } from '../src/components/row-detail';
import { openRewindDialog, type RewindRequest } from '../src/components/rewind-dialog';
import { createRewindNotice } from '../src/components/rewind-notice';
import { setBackend, type Backend } from '../src/lib/api';
import { applyState, appliedSummary, previewSummary, revertOffers } from '../src/lib/rewind';
import type { MutationRow, RewindApplied, RewindFilePreview, RewindPreview } from '../src/lib/types';
import { createStub } from '../src/stub';

const REPO = '/home/dev/src/webshop';
const stub = createStub({ rows: 50, seed: 3 });
const base = stub.rows.find((r) => r.file_path !== null)!;
const row: MutationRow = { ...base, id: 42, tool_name: 'Edit', file_path: 'src/lib.rs', tool_use_id: 'toolu_1', session_id: 'sess-1', agent_id: 'agent-a', raw_payload: '{}' };

function file(over: Partial<RewindFilePreview> & Pick<RewindFilePreview, 'path' | 'kind'>): RewindFilePreview {
  return { diff: [], counts: { added: 0, removed: 0 }, binary: false, why: null, markers: false, changes: 1, derived: [], ...over };
}

const MODIFY = file({
  path: 'src/lib.rs',
  kind: 'modify',
  diff: [
    { op: 'eq', text: 'fn a() {}', old_no: 1, new_no: 1 },
    { op: 'del', text: 'fn b() {}', old_no: 2, new_no: null },
    { op: 'add', text: 'fn c() {}', old_no: null, new_no: 2 },
  ],
  counts: { added: 1, removed: 1 },
  changes: 2,
  derived: ['row 7: the Edit reversed on its after'],
});
const DELETE = file({ path: 'src/new.rs', kind: 'delete' });
const CREATE = file({ path: 'old.txt', kind: 'create', diff: [{ op: 'add', text: 'back', old_no: null, new_no: 1 }], counts: { added: 1, removed: 0 } });
const CONFLICT = file({ path: 'README.md', kind: 'conflict', why: 'the revert overlaps lines changed later', markers: true, diff: [{ op: 'add', text: '<<<<<<< now', old_no: null, new_no: 1 }], counts: { added: 1, removed: 0 } });
const LOST = file({ path: 'logo.png', kind: 'not_restorable', why: 'the before is not known: no PreToolUse was seen' });

function preview(files: RewindFilePreview[], id = 'rewind-preview-1', undo_of: string | null = null): RewindPreview {
  return { preview: id, root: REPO, changes: files.reduce((n, f) => n + f.changes, 0), files, undo_of };
}

const APPLIED: RewindApplied = { rewind_id: 'hookd-rewind-0192', root: REPO, written: ['src/lib.rs'], deleted: ['src/new.rs'], skipped: [], marked: [] };

/** A backend answering from `answers` (a function per command), recording every call. */
function scripted(answers: Record<string, (args: Record<string, unknown>) => unknown>): { calls: [string, Record<string, unknown>][] } {
  const calls: [string, Record<string, unknown>][] = [];
  const backend: Backend = {
    kind: 'stub',
    invoke: async (cmd, args = {}) => {
      calls.push([cmd, args]);
      const answer = answers[cmd];
      if (!answer) throw { kind: 'internal', message: `unexpected ${cmd}` };
      return answer(args);
    },
    listen: async () => () => {},
  };
  setBackend(backend);
  return { calls };
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const shown = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=rewind-file]')];

function open(request: RewindRequest = { kind: 'revert', target: { kind: 'call', id: 'toolu_1' } }) {
  const onApplied = vi.fn();
  const opener = document.createElement('button');
  document.body.append(opener);
  const dialog = openRewindDialog(document.body, { repo: REPO, request, title: 'Revert Edit of src/lib.rs', onApplied, returnFocus: opener });
  return { dialog, onApplied, opener };
}

afterEach(() => {
  setBackend(null);
  document.body.replaceChildren();
});

describe('the reverts a row offers', () => {
  it('offers its call, its prompt, its session and its agent, each with the core target', () => {
    const offers = revertOffers(row);
    expect(offers.map((o) => o.label)).toEqual([
      'Revert this change',
      'Revert this prompt',
      'Revert this session',
      'Revert all of this agent\u2019s changes',
    ]);
    expect(offers.map((o) => o.target)).toEqual([
      { kind: 'call', id: 'toolu_1' },
      { kind: 'prompt_of', event_id: row.event_id },
      { kind: 'session', id: 'sess-1' },
      { kind: 'agent', id: 'agent-a' },
    ]);
  });

  it('offers "Restore this version" only in the history of the row\u2019s own file, keeping this row', () => {
    expect(revertOffers(row, null).some((o) => o.action === 'version')).toBe(false);
    expect(revertOffers(row, 'src/other.rs').some((o) => o.action === 'version')).toBe(false);
    const version = revertOffers(row, 'src/lib.rs').find((o) => o.action === 'version')!;
    expect(version.label).toBe('Restore this version');
    expect(version.target).toEqual({ kind: 'file', path: 'src/lib.rs', after_id: 42 });
  });

  it('leaves out what the row does not carry', () => {
    const bare = { ...row, tool_use_id: null, session_id: null };
    expect(revertOffers(bare).map((o) => o.action)).toEqual(['agent']);
  });
});

describe('a preview in words', () => {
  it('counts the changes and says what happens to each kind of file', () => {
    expect(previewSummary(preview([MODIFY, DELETE, CONFLICT]))).toBe('Reverts 4 recorded changes in 3 files: 1 file modified, 1 file deleted, 1 conflict.');
    expect(previewSummary(preview([CREATE], 'p', 'hookd-rewind-1'))).toBe('Undoes the revert\u2019s 1 recorded change in 1 file: 1 file created again.');
  });

  it('says what an apply did', () => {
    expect(appliedSummary(APPLIED)).toBe('Reverted: 1 file written, 1 file deleted.');
    expect(appliedSummary({ ...APPLIED, written: [], deleted: [], skipped: ['a', 'b'], marked: ['c'] }, true)).toBe(
      'Revert undone: 1 file with conflict markers to resolve, 2 conflicting files left as they were.',
    );
  });
});

describe('when Apply can be pressed', () => {
  it('is refused while a file cannot be restored, whatever the choice', () => {
    for (const choice of [null, 'skip', 'markers'] as const) {
      const state = applyState(preview([MODIFY, LOST]), choice);
      expect(state.enabled).toBe(false);
      expect(state.reason).toMatch(/^1 file cannot be restored/);
    }
  });

  it('needs a choice for conflicts, and markers only where the core has them', () => {
    expect(applyState(preview([MODIFY, CONFLICT]), null)).toMatchObject({ enabled: false, reason: 'Choose what to do with the 1 conflicting file.' });
    expect(applyState(preview([MODIFY, CONFLICT]), 'refuse').enabled).toBe(false);
    expect(applyState(preview([MODIFY, CONFLICT]), 'skip')).toEqual({ enabled: true, reason: null, conflicts: 'skip' });
    expect(applyState(preview([MODIFY, CONFLICT]), 'markers')).toEqual({ enabled: true, reason: null, conflicts: 'markers' });
    const noMarkers = { ...CONFLICT, markers: false };
    expect(applyState(preview([MODIFY, noMarkers]), 'markers').enabled).toBe(false);
  });

  it('sends refuse without conflicts, and has nothing to apply when every file is unchanged', () => {
    expect(applyState(preview([MODIFY, DELETE]), null)).toEqual({ enabled: true, reason: null, conflicts: 'refuse' });
    expect(applyState(preview([file({ path: 'a', kind: 'unchanged' })]), null).enabled).toBe(false);
  });
});

describe('the revert dialog', () => {
  it('lists each file with its kind, diff, notes and why, and applies the previewed plan', async () => {
    const { calls } = scripted({
      rewind_preview: () => preview([MODIFY, DELETE, CREATE]),
      rewind_apply: () => APPLIED,
    });
    const { onApplied, opener } = open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('ready'));
    expect(calls[0]).toEqual(['rewind_preview', { repo: REPO, target: { kind: 'call', id: 'toolu_1' } }]);
    expect($('rewind-dialog').getAttribute('role')).toBe('dialog');
    expect($('rewind-summary').textContent).toBe('Reverts 4 recorded changes in 3 files: 1 file modified, 1 file created again, 1 file deleted.');

    const [modify, del, create] = shown();
    expect(modify!.dataset.kind).toBe('modify');
    expect(modify!.querySelector('.rewind-path')!.textContent).toBe('src/lib.rs');
    const ops = [...modify!.querySelectorAll<HTMLElement>('.diff-line')].map((l) => `${l.dataset.op}:${l.querySelector('.diff-text')!.textContent}`);
    expect(ops).toEqual(['eq:fn a() {}', 'del:fn b() {}', 'add:fn c() {}']);
    expect(modify!.querySelector('[data-testid=rewind-diff]')!.getAttribute('data-removed')).toBe('1');
    expect(modify!.querySelector('[data-testid=rewind-derived]')!.textContent).toBe('Derived, not seen: row 7: the Edit reversed on its after.');
    expect(del!.querySelector('[data-testid=rewind-kind]')!.textContent).toBe('deleted (the reverted changes created it)');
    expect(del!.querySelector('[data-testid=rewind-diff]')).toBeNull();
    expect(create!.querySelector('[data-testid=rewind-kind]')!.textContent).toMatch(/^created again/);
    expect($('rewind-conflicts').hidden).toBe(true);

    const apply = $<HTMLButtonElement>('rewind-apply');
    expect(apply.disabled).toBe(false);
    apply.click();
    await vi.waitFor(() => expect(onApplied).toHaveBeenCalledWith(APPLIED, false));
    expect(calls[1]).toEqual(['rewind_apply', { preview: 'rewind-preview-1', conflicts: 'refuse' }]);
    expect($('rewind-dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('disables Apply while a file cannot be restored and says why', async () => {
    scripted({ rewind_preview: () => preview([MODIFY, LOST]) });
    open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('ready'));
    const lost = shown().find((f) => f.dataset.kind === 'not_restorable')!;
    expect(lost.querySelector('[data-testid=rewind-why]')!.textContent).toBe('Cannot be restored: the before is not known: no PreToolUse was seen.');
    expect($<HTMLButtonElement>('rewind-apply').disabled).toBe(true);
    expect($('rewind-apply-reason').hidden).toBe(false);
    expect($('rewind-apply-reason').textContent).toMatch(/^1 file cannot be restored/);
  });

  it('asks what to do with conflicts before Apply, and sends the choice', async () => {
    const { calls } = scripted({
      rewind_preview: () => preview([MODIFY, CONFLICT]),
      rewind_apply: () => ({ ...APPLIED, skipped: ['README.md'] }),
    });
    const { onApplied } = open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('ready'));
    const conflict = shown().find((f) => f.dataset.kind === 'conflict')!;
    expect(conflict.querySelector('[data-testid=rewind-why]')!.textContent).toBe('Conflict: the revert overlaps lines changed later.');
    expect(conflict.querySelector('[data-testid=rewind-diff]')!.textContent).toContain('<<<<<<< now');
    expect($('rewind-conflicts').hidden).toBe(false);
    const apply = $<HTMLButtonElement>('rewind-apply');
    expect(apply.disabled).toBe(true);
    expect($('rewind-apply-reason').textContent).toBe('Choose what to do with the 1 conflicting file.');

    const skip = $<HTMLInputElement>('rewind-conflicts-skip');
    skip.checked = true;
    skip.dispatchEvent(new Event('change'));
    expect(apply.disabled).toBe(false);
    apply.click();
    await vi.waitFor(() => expect(onApplied).toHaveBeenCalled());
    expect(calls.at(-1)).toEqual(['rewind_apply', { preview: 'rewind-preview-1', conflicts: 'skip' }]);
  });

  it('shows a file changed since the preview as an error and previews again instead of writing', async () => {
    let previews = 0;
    const { calls } = scripted({
      rewind_preview: () => preview([MODIFY], `rewind-preview-${++previews}`),
      rewind_apply: () => {
        throw { kind: 'conflict', message: 'src/lib.rs changed since the rewind was planned; nothing was written (plan again)' };
      },
    });
    const { onApplied } = open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.preview).toBe('rewind-preview-1'));
    $<HTMLButtonElement>('rewind-apply').click();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.preview).toBe('rewind-preview-2'));
    expect($('rewind-error').hidden).toBe(false);
    expect($('rewind-error').textContent).toBe('conflict Nothing was written: src/lib.rs changed since the rewind was planned; nothing was written (plan again)');
    expect(onApplied).not.toHaveBeenCalled();
    expect(calls.map(([cmd]) => cmd)).toEqual(['rewind_preview', 'rewind_apply', 'rewind_preview']);
    expect($<HTMLButtonElement>('rewind-apply').disabled).toBe(false);
  });

  it('shows a failed preview with its kind and offers nothing to apply', async () => {
    scripted({
      rewind_preview: () => {
        throw { kind: 'not_found', message: 'the ledger holds no recorded file change for Call("toolu_1")' };
      },
    });
    open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('error'));
    expect($('rewind-error').getAttribute('role')).toBe('alert');
    expect($('rewind-error').textContent).toBe('not_found Could not prepare the preview: the ledger holds no recorded file change for Call("toolu_1")');
    expect($<HTMLButtonElement>('rewind-apply').disabled).toBe(true);
    expect(shown()).toHaveLength(0);
  });

  it('previews an undo through rewind_undo and applies it through rewind_apply', async () => {
    const { calls } = scripted({
      rewind_undo: () => preview([CREATE], 'rewind-preview-9', 'hookd-rewind-0192'),
      rewind_apply: () => ({ ...APPLIED, rewind_id: 'hookd-rewind-0193' }),
    });
    const { onApplied } = open({ kind: 'undo', rewind: 'hookd-rewind-0192' });
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('ready'));
    expect(calls[0]).toEqual(['rewind_undo', { repo: REPO, rewind: 'hookd-rewind-0192' }]);
    expect($('rewind-apply').textContent).toBe('Undo revert');
    $<HTMLButtonElement>('rewind-apply').click();
    await vi.waitFor(() => expect(onApplied).toHaveBeenCalledWith({ ...APPLIED, rewind_id: 'hookd-rewind-0193' }, true));
    expect(calls[1]).toEqual(['rewind_apply', { preview: 'rewind-preview-9', conflicts: 'refuse' }]);
  });

  it('closes on Escape without applying', async () => {
    const { calls } = scripted({ rewind_preview: () => preview([MODIFY]) });
    open();
    await vi.waitFor(() => expect($('rewind-dialog').dataset.state).toBe('ready'));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect($('rewind-dialog')).toBeNull();
    expect(calls.map(([cmd]) => cmd)).toEqual(['rewind_preview']);
  });
});

describe('the row detail and the notice', () => {
  it('offers the reverts of a row in a repository, and none outside git', () => {
    const onRevert = vi.fn();
    let history: string | null = null;
    const detail = createRowDetail(() => {}, undefined, { repoOf: (r) => r.repo ?? REPO, onRevert, historyOf: () => history });
    document.body.append(detail.el);
    scripted({ mutation_diff: () => ({ change: null, previous: null, recorded: null }) });
    detail.show(row);
    const ids = (): string[] => [...detail.el.querySelectorAll('[data-testid=row-reverts] button')].map((b) => b.id);
    expect(ids()).toEqual([
      'row-detail-revert-call',
      'row-detail-revert-prompt',
      'row-detail-revert-session',
      'row-detail-revert-agent',
    ]);
    $('row-detail-revert-session').click();
    expect(onRevert).toHaveBeenCalledWith(row, expect.objectContaining({ target: { kind: 'session', id: 'sess-1' } }), $('row-detail-revert-session'));

    history = 'src/lib.rs';
    detail.show(row);
    expect(ids()).toContain('row-detail-revert-version');

    const outside = createRowDetail(() => {}, undefined, { repoOf: () => null, onRevert });
    outside.show(row);
    expect(outside.el.querySelector('[data-testid=row-reverts]')).toBeNull();
  });

  it('says what a revert did and opens its undo', () => {
    const notice = createRewindNotice();
    document.body.append(notice.el);
    expect(notice.el.hidden).toBe(true);
    const onUndo = vi.fn();
    notice.show(APPLIED, false, onUndo);
    expect(notice.el.hidden).toBe(false);
    expect(notice.el.dataset.rewindId).toBe('hookd-rewind-0192');
    expect($('rewind-notice-text').textContent).toBe('Reverted: 1 file written, 1 file deleted.');
    $('rewind-notice-undo').click();
    expect(onUndo).toHaveBeenCalledWith($('rewind-notice-undo'));
    $('rewind-notice-dismiss').click();
    expect(notice.el.hidden).toBe(true);
  });
});
