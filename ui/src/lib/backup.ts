// What the user is told of the version a write kept. hookd keeps a settings
// file's previous versions in its own data directory, never beside the file
// (README, "hookd hooks"), so the message names the command that lists and
// restores them rather than a store path no one types.

/** How a kept previous version is said at the end of a sentence: "" when none was kept. */
export function keptNote(backup: string | null | undefined): string {
  return backup ? 'the previous version is kept (hookd hooks restore-backup brings it back)' : '';
}
