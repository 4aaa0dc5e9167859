// The Revert commands in the stub backend: canned previews, not plans.
//
// Every preview lists the same few files whatever the target (one
// modified, one deleted, and for an agent's whole work a conflict), with
// canned diffs; a session's adds a file that cannot be restored, so the
// dialog's refusal can be seen. Applying returns what the canned preview
// would write. Which changes a target selects, the three-way merge, what is
// restorable and the apply's checks are hookd-core's, tested in Rust.

import type { DiffLine, RewindApplied, RewindFilePreview, RewindPreview, RewindTarget } from '../lib/types';
import { fail, type StubPart } from './types';

export type RewindCommands = 'rewind_preview' | 'rewind_apply' | 'rewind_undo';

const line = (op: DiffLine['op'], text: string, old_no: number | null, new_no: number | null): DiffLine => ({ op, text, old_no, new_no });

function file(path: string, kind: RewindFilePreview['kind'], diff: DiffLine[] = [], why: string | null = null): RewindFilePreview {
  const added = diff.filter((l) => l.op === 'add').length;
  const removed = diff.filter((l) => l.op === 'del').length;
  return { path, kind, diff, counts: { added, removed }, binary: false, why, markers: kind === 'conflict', changes: 1, derived: [] };
}

/** The canned files of a preview of `target`. */
function cannedFiles(target: RewindTarget | null): RewindFilePreview[] {
  const files = [
    file('src/lib.rs', 'modify', [
      line('eq', 'pub fn total(items: &[Item]) -> u64 {', 1, 1),
      line('del', '    items.iter().map(|i| i.price * i.qty).sum()', 2, null),
      line('add', '    items.iter().map(|i| i.price).sum()', null, 2),
      line('eq', '}', 3, 3),
    ]),
    file('src/cache.rs', 'delete'),
  ];
  if (target?.kind === 'agent') {
    files.push(
      file(
        'README.md',
        'conflict',
        [line('add', '<<<<<<< now', null, 1), line('eq', '# webshop', 1, 2), line('add', '>>>>>>> before the change', null, 3)],
        'the revert overlaps lines changed later (lines 1-1)',
      ),
    );
  }
  if (target?.kind === 'session') {
    files.push(file('assets/logo.png', 'not_restorable', [], 'Write by agent at 2026-11-28T10:00:00.000Z (row 12): the before is not known: no PreToolUse was seen'));
  }
  return files;
}

/** The Revert dialog's part of the stub. */
export function createRewindStub(): { commands: StubPart<RewindCommands> } {
  let next = 0;
  let rewinds = 0;
  const previews = new Map<string, RewindPreview>();

  function keep(repo: string, files: RewindFilePreview[], undo_of: string | null): RewindPreview {
    const preview: RewindPreview = { preview: `rewind-preview-${++next}`, root: repo, changes: files.length, files, undo_of };
    previews.set(preview.preview, preview);
    return preview;
  }

  return {
    commands: {
      rewind_preview: ({ repo, target }) => keep(repo, cannedFiles(target), null),
      rewind_undo: ({ repo, rewind }) => {
        if (rewind === null && rewinds === 0) throw fail('not_found', `no revert is recorded in ${repo}: there is nothing to undo`);
        return keep(repo, cannedFiles(null), rewind ?? `hookd-rewind-stub-${rewinds}`);
      },
      rewind_apply: ({ preview, conflicts }) => {
        const p = previews.get(preview);
        if (!p) throw fail('not_found', `the preview ${preview} is no longer kept; preview the revert again`);
        const blocked = p.files.find((f) => f.kind === 'not_restorable');
        if (blocked) throw fail('invalid_input', `${blocked.path} cannot be restored: ${blocked.why ?? ''}; nothing was written`);
        const conflict = p.files.find((f) => f.kind === 'conflict');
        if (conflict && conflicts === 'refuse') throw fail('conflict', `${conflict.path}: ${conflict.why ?? ''}; nothing was written`);
        previews.delete(preview);
        const of = (kinds: RewindFilePreview['kind'][]): string[] => p.files.filter((f) => kinds.includes(f.kind)).map((f) => f.path);
        const applied: RewindApplied = {
          rewind_id: `hookd-rewind-stub-${++rewinds}`,
          root: p.root,
          written: of(['modify', 'create']),
          deleted: of(['delete']),
          skipped: conflicts === 'skip' ? of(['conflict']) : [],
          marked: conflicts === 'markers' ? of(['conflict']) : [],
        };
        return applied;
      },
    },
  };
}
