// Which verdict of the saved file belongs to a handler of the editor's
// draft. The backend judges the file as saved (settings::runs); a handler
// the user added or changed has no verdict until it is saved, and must not
// borrow the one of whatever sat at its position before.

import type { HookFile, RunVerdict } from './types';

/** The saved verdict of the draft's handler `hi` of group `gi` of `event`, when the file holds that very handler there; else `null`. */
export function savedVerdict(file: HookFile, event: string, gi: number, hi: number, handler: unknown): RunVerdict | null {
  const saved = file.events.find((e) => e.event === event)?.groups[gi]?.handlers[hi];
  if (!saved || saved.runs === null) return null;
  return JSON.stringify(saved.raw) === JSON.stringify(handler) ? saved.runs : null;
}
