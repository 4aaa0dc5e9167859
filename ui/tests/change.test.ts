import { describe, expect, it } from 'vitest';
import { extractChange, prettyPayload } from '../src/lib/change';

const payload = (tool: string, toolInput: unknown): string =>
  JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: tool, tool_input: toolInput, tool_response: {} });

describe('extractChange', () => {
  it('Edit → old/new strings', () => {
    const c = extractChange('Edit', payload('Edit', { file_path: '/r/a.rs', old_string: 'a\n', new_string: 'b\n', replace_all: true }));
    expect(c).toEqual({ kind: 'edit', filePath: '/r/a.rs', edit: { oldString: 'a\n', newString: 'b\n', replaceAll: true } });
  });

  it('MultiEdit → every edit in order', () => {
    const c = extractChange(
      'MultiEdit',
      payload('MultiEdit', { file_path: '/r/a.rs', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: '1', new_string: '2', replace_all: true }, 'junk'] }),
    );
    expect(c).toEqual({
      kind: 'multiedit',
      filePath: '/r/a.rs',
      edits: [
        { oldString: 'x', newString: 'y', replaceAll: false },
        { oldString: '1', newString: '2', replaceAll: true },
      ],
    });
  });

  it('Write → content', () => {
    expect(extractChange('Write', payload('Write', { file_path: '/r/new.md', content: '# hi\n' }))).toEqual({
      kind: 'write',
      filePath: '/r/new.md',
      content: '# hi\n',
    });
  });

  it('Bash → command and description; the row command when the payload lacks one', () => {
    expect(extractChange('Bash', payload('Bash', { command: 'cargo fmt', description: 'Format' }))).toEqual({
      kind: 'bash',
      command: 'cargo fmt',
      description: 'Format',
    });
    expect(extractChange('Bash', payload('Bash', {}), 'rm -rf target')).toEqual({ kind: 'bash', command: 'rm -rf target', description: null });
    expect(extractChange('Bash', 'not json', 'ls')).toEqual({ kind: 'bash', command: 'ls', description: null });
  });

  it('NotebookEdit → cell, mode and new source', () => {
    const c = extractChange(
      'NotebookEdit',
      payload('NotebookEdit', { notebook_path: '/r/n.ipynb', cell_id: 'c1', new_source: 'x = 1\n', cell_type: 'code', edit_mode: 'insert' }),
    );
    expect(c).toEqual({ kind: 'notebook', filePath: '/r/n.ipynb', cellId: 'c1', cellType: 'code', editMode: 'insert', newSource: 'x = 1\n' });
  });

  it('uses the row tool when the payload has no tool_name, and matches names case-insensitively', () => {
    const raw = JSON.stringify({ tool_input: { file_path: '/a', content: 'c' } });
    expect(extractChange('write', raw).kind).toBe('write');
  });

  it('never throws on odd payloads', () => {
    expect(extractChange('Edit', '{not json').kind).toBe('invalid');
    expect(extractChange('Edit', JSON.stringify('a string payload'))).toMatchObject({ kind: 'none' });
    expect(extractChange('Edit', payload('Edit', null))).toMatchObject({ kind: 'none' });
    expect(extractChange('MultiEdit', payload('MultiEdit', { edits: 'nope' }))).toMatchObject({ kind: 'none' });
    expect(extractChange('mcp__github__create_issue', payload('mcp__github__create_issue', { title: 'x' }))).toMatchObject({ kind: 'none' });
  });
});

describe('prettyPayload', () => {
  it('indents JSON and leaves other text alone', () => {
    expect(prettyPayload('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyPayload('plain text')).toBe('plain text');
  });
});

describe('a Write the agent reported the file before', () => {
  it('is labelled as compared with what the agent reported', async () => {
    const { previousLabel } = await import('../src/components/change-view');
    expect(previousLabel({ source: { kind: 'reported' }, content: null, changes_between: 0, note: null })).toBe(
      'vs. the file before this Write, as the agent reported it',
    );
  });
});

describe('a Write whose before hookd kept', () => {
  it('is labelled as compared with the file hookd read, or as a new file', async () => {
    const { previousLabel } = await import('../src/components/change-view');
    const kept = (existed: boolean): string =>
      previousLabel({ source: { kind: 'kept', existed }, content: null, changes_between: 0, note: null });
    expect(kept(true)).toBe('vs. the file before this Write, as hookd read it');
    expect(kept(false)).toBe('a new file: there was none before this Write');
  });
});
