// What a mutation changed, read from its hook payload.
//
// The ledger keeps the agent's hook payload verbatim (`raw_payload`, JSON
// text). For Claude Code's file tools the change is in `tool_input`:
// Edit {file_path, old_string, new_string, replace_all}, MultiEdit
// {file_path, edits: [{old_string, new_string, replace_all}]}, Write
// {file_path, content}, NotebookEdit {notebook_path, cell_id, new_source,
// cell_type, edit_mode}, Bash {command, description}. Anything unexpected
// (invalid JSON, a payload delivered as a string, missing fields) yields
// `none` or `invalid` rather than throwing: the detail panel still shows the
// raw payload.

/** One replacement of an Edit or MultiEdit. */
export interface EditChange {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export type Change =
  | { kind: 'edit'; filePath: string | null; edit: EditChange }
  | { kind: 'multiedit'; filePath: string | null; edits: EditChange[] }
  | { kind: 'write'; filePath: string | null; content: string }
  | {
      kind: 'notebook';
      filePath: string | null;
      cellId: string | null;
      cellType: string | null;
      editMode: string;
      newSource: string;
    }
  | { kind: 'bash'; command: string; description: string | null }
  | { kind: 'none'; reason: string }
  | { kind: 'invalid'; error: string };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, key: string): string | null => (typeof o[key] === 'string' ? (o[key] as string) : null);

/** Parses a payload's JSON text; `{error}` when it is not JSON. */
export function parsePayload(raw: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function editOf(o: Obj): EditChange | null {
  const oldString = str(o, 'old_string');
  const newString = str(o, 'new_string');
  if (oldString === null && newString === null) return null;
  return { oldString: oldString ?? '', newString: newString ?? '', replaceAll: o.replace_all === true };
}

/**
 * The change a tool call made. `toolName` is the row's tool (the payload's
 * `tool_name` is used when it names one); `command` is the row's Bash command
 * column, used when the payload lacks it.
 */
export function extractChange(toolName: string, rawPayload: string, command: string | null = null): Change {
  const parsed = parsePayload(rawPayload);
  if ('error' in parsed) {
    if (command !== null) return { kind: 'bash', command, description: null };
    return { kind: 'invalid', error: parsed.error };
  }
  const payload = parsed.value;
  const tool = (isObj(payload) && str(payload, 'tool_name')) || toolName;
  const input = isObj(payload) && isObj(payload.tool_input) ? payload.tool_input : null;
  const filePath = input ? (str(input, 'file_path') ?? str(input, 'notebook_path') ?? str(input, 'path')) : null;

  switch (tool.toLowerCase()) {
    case 'edit': {
      const edit = input ? editOf(input) : null;
      return edit ? { kind: 'edit', filePath, edit } : { kind: 'none', reason: 'no old_string/new_string in tool_input' };
    }
    case 'multiedit': {
      const list = input && Array.isArray(input.edits) ? input.edits : null;
      if (!list) return { kind: 'none', reason: 'no edits in tool_input' };
      const edits = list.filter(isObj).map(editOf).filter((e): e is EditChange => e !== null);
      return { kind: 'multiedit', filePath, edits };
    }
    case 'write': {
      const content = input ? str(input, 'content') : null;
      return content !== null ? { kind: 'write', filePath, content } : { kind: 'none', reason: 'no content in tool_input' };
    }
    case 'notebookedit': {
      if (!input) return { kind: 'none', reason: 'no tool_input' };
      return {
        kind: 'notebook',
        filePath,
        cellId: str(input, 'cell_id'),
        cellType: str(input, 'cell_type'),
        editMode: str(input, 'edit_mode') ?? 'replace',
        newSource: str(input, 'new_source') ?? '',
      };
    }
    case 'bash': {
      const cmd = (input && str(input, 'command')) ?? command;
      if (cmd === null) return { kind: 'none', reason: 'no command in tool_input' };
      return { kind: 'bash', command: cmd, description: input ? str(input, 'description') : null };
    }
    default:
      if (command !== null) return { kind: 'bash', command, description: null };
      return { kind: 'none', reason: `no change view for ${tool}` };
  }
}

/** The payload as indented JSON, or the text as is when it is not JSON. */
export function prettyPayload(raw: string): string {
  const parsed = parsePayload(raw);
  return 'error' in parsed ? raw : JSON.stringify(parsed.value, null, 2);
}
