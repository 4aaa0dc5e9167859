// What every part of the stub backend shares: the typed shape of its
// answers and its errors.
//
// `StubCommands` is derived from the generated command map
// (lib/bindings/commands.ts): one handler per command, taking that
// command's argument object and returning its result. The stub's parts each
// implement a `Pick` of it and index.ts puts them together as the whole
// map, so a command the stub does not answer, or answers with the wrong
// shape, is a type error.

import type { CommandArgs, CommandName, CommandResult } from '../lib/api';
import type { ApiError, ErrorKind, RunVerdict } from '../lib/types';

/** The stub's answer to every command. */
export type StubCommands = { [C in CommandName]: (args: CommandArgs<C>) => CommandResult<C> };

/** The answers of some commands. */
export type StubPart<C extends CommandName> = Pick<StubCommands, C>;

/** The `{kind, message}` a command rejects with; only the backend's own kinds. */
export function fail(kind: ErrorKind, message: string): ApiError {
  return { kind, message };
}

/** The stub's canned verdict: every hook runs (the rules are hookd-core's, tested in Rust). */
export const RUNS: RunVerdict = { runs: true, reasons: [] };
/** A hook disabled through hookd, canned with the core's wording. */
export const DISABLED: RunVerdict = { runs: false, reasons: [{ code: 'disabled', message: 'disabled through hookd (enable it to run it again)' }] };
