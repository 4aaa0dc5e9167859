// The stub backend's sample data: three repositories with a few days of
// mutation rows, generated from a seeded PRNG so a test sees the same rows
// every run, plus a folder without a ledger. Each Write row comes with its
// canned previous content (what `previous_content` answers for it).

import type { MutationRow, PreviousContent, ProjectInfo } from '../lib/types';
import { changeDiff } from './diff';

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One sample repository. */
export interface SampleRepo {
  root: string;
  name: string;
  /** Its share of the rows. */
  weight: number;
  files: string[];
  branches: string[];
  remote: string | null;
  connected: ProjectInfo['connected'];
}

export const REPOS: SampleRepo[] = [
  {
    root: '/home/dev/src/hookd',
    name: 'hookd',
    weight: 0.5,
    files: [
      'crates/hookd-core/src/server.rs',
      'crates/hookd-core/src/ledger/mod.rs',
      'crates/hookd-core/src/matcher.rs',
      'crates/hookd-cli/src/cmd/query.rs',
      'ui/src/views/timeline.ts',
      'ui/src/lib/api.ts',
      'README.md',
      'docs/benchmarks.md',
      'notebooks/latency.ipynb',
    ],
    branches: ['main', 'feat/desktop-app', 'fix/socket-perms'],
    remote: 'git@github.com:example/hookd.git',
    connected: { global: true, project: true, local: false },
  },
  {
    root: '/home/dev/src/webshop',
    name: 'webshop',
    weight: 0.3,
    files: ['src/cart/checkout.ts', 'src/cart/checkout.test.ts', 'src/api/orders.ts', 'package.json', 'migrations/0007_discounts.sql'],
    branches: ['main', 'feature/discount-codes'],
    remote: 'https://github.com/example/webshop.git',
    connected: { global: true, project: false, local: false },
  },
  {
    root: '/home/dev/src/infra',
    name: 'infra',
    weight: 0.2,
    files: ['terraform/main.tf', 'terraform/variables.tf', 'ansible/site.yml', 'Makefile'],
    branches: ['main'],
    remote: null,
    connected: { global: true, project: false, local: true },
  },
];

/** A folder added by hand that has never seen an event. */
export const NOTES_ROOT = '/home/dev/scratch/notes';

const AGENTS = ['claude-main', 'claude-sub-reviewer', 'claude-sub-tests', 'codex-cli'];

const SNIPPETS: [string, string][] = [
  ['fn main() {\n    run();\n}\n', 'fn main() -> anyhow::Result<()> {\n    run()?;\n    Ok(())\n}\n'],
  ['const limit = 100;\n', 'const limit = 1_000;\n'],
  ['let total = items.length;\nreturn total;\n', 'let total = items.reduce((n, i) => n + i.qty, 0);\nreturn total;\n'],
  ['    timeout: 30,\n', '    timeout: 10,\n    retries: 3,\n'],
  ['# TODO\n', '# Runs the daemon in the foreground.\n'],
];

const COMMANDS = ['cargo fmt --all', 'npm run lint -- --fix', 'sed -i "s/foo/bar/" src/config.rs', 'git mv docs/old.md docs/new.md', 'terraform fmt -recursive'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length) % list.length]!;
}

function hex(rand: () => number, len: number): string {
  let s = '';
  while (s.length < len) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, len);
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The key of a row in the canned answers: stub ids are per project. */
export function rowKey(repo: string, id: number): string {
  return `${repo}#${id}`;
}

/** Makes rows: each call one new mutation of a repository, at a time. */
export interface RowMaker {
  /** A new row of `repo` at `at` (ms), with its `repo`. */
  row(repo: SampleRepo, at: number): MutationRow;
  /** A repository, by the sample weights. */
  pickRepo(): SampleRepo;
  /** The canned previous content of each Write row, by `rowKey`. */
  previous: Map<string, PreviousContent>;
}

/** A row maker over a seeded PRNG. */
export function rowMaker(seed: number): RowMaker {
  const rand = prng(seed);
  const sessions = REPOS.map(() => uuid(rand));
  const nextId = new Map<string, number>();
  const previous = new Map<string, PreviousContent>();

  function row(repo: SampleRepo, at: number): MutationRow {
    const r = rand();
    let tool: string;
    const file = pick(rand, repo.files);
    if (file.endsWith('.ipynb')) tool = 'NotebookEdit';
    else if (r < 0.45) tool = 'Edit';
    else if (r < 0.6) tool = 'Write';
    else if (r < 0.7) tool = 'MultiEdit';
    else tool = 'Bash';
    const agent = pick(rand, AGENTS);
    const branch = pick(rand, repo.branches);
    const sessionId = sessions[REPOS.indexOf(repo)] ?? null;
    const toolUseId = `toolu_${hex(rand, 24)}`;
    const eventId = uuid(rand);
    const abs = `${repo.root}/${file}`;
    let toolInput: Record<string, unknown>;
    let lines: number | null;
    let command: string | null = null;
    let written: [string, string] | null = null;
    const [oldS, newS] = pick(rand, SNIPPETS);
    const count = (s: string): number => s.split('\n').length - 1;
    switch (tool) {
      case 'Edit':
        toolInput = { file_path: abs, old_string: oldS, new_string: newS, replace_all: false };
        lines = count(newS);
        break;
      case 'MultiEdit': {
        const [o2, n2] = pick(rand, SNIPPETS);
        toolInput = { file_path: abs, edits: [{ old_string: oldS, new_string: newS }, { old_string: o2, new_string: n2, replace_all: true }] };
        lines = count(newS) + count(n2);
        break;
      }
      case 'Write': {
        const content = `// ${file}\n${newS}${oldS}`;
        written = [content, `// ${file}\n${oldS}`];
        toolInput = { file_path: abs, content };
        lines = count(content);
        break;
      }
      case 'NotebookEdit': {
        const src = 'import pandas as pd\ndf = pd.read_csv("latency.csv")\ndf.describe()\n';
        toolInput = { notebook_path: abs, cell_id: `cell-${hex(rand, 4)}`, new_source: src, cell_type: 'code', edit_mode: 'replace' };
        lines = count(src);
        break;
      }
      default:
        command = pick(rand, COMMANDS);
        toolInput = { command, description: 'Tidy up', timeout: 120000 };
        lines = null;
    }
    const payload = {
      session_id: sessionId,
      transcript_path: `/home/dev/.claude/projects/${repo.name}/${sessionId}.jsonl`,
      cwd: repo.root,
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: toolInput,
      tool_response: tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false } : { success: true },
      tool_use_id: toolUseId,
    };
    const id = (nextId.get(repo.root) ?? 0) + 1;
    nextId.set(repo.root, id);
    const headSha = hex(rand, 40);
    if (written) {
      // Canned: the file as git had it, the Write's content without its first snippet.
      previous.set(rowKey(repo.root, id), { source: { kind: 'git', sha: headSha }, content: written[1], changes_between: 0, note: null });
    }
    // Counted as the daemon records them: a Write against no earlier content.
    const counts = changeDiff(toolInput)?.counts ?? null;
    return {
      id,
      event_type: `tool.mutation.${tool.toLowerCase()}`,
      hook_type: 'post_tool_use',
      tool_name: tool,
      agent_id: agent,
      agent_kind: 'claude',
      file_path: file,
      file_ext: file.includes('.') ? file.slice(file.lastIndexOf('.') + 1) : null,
      lines_changed: lines,
      lines_added: counts?.added ?? null,
      lines_removed: counts?.removed ?? null,
      branch,
      head_sha: headSha,
      raw_payload: JSON.stringify(payload),
      event_timestamp: new Date(at).toISOString(),
      received_at: new Date(at + 2).toISOString(),
      event_id: eventId,
      mutation_seq: 0,
      session_id: sessionId,
      tool_use_id: toolUseId,
      remote_url: repo.remote,
      command,
      source_pid: 4000 + Math.floor(rand() * 1000),
      flags: [],
      repo: repo.root,
    };
  }

  function pickRepo(): SampleRepo {
    const r = rand();
    let acc = 0;
    for (const repo of REPOS) {
      acc += repo.weight;
      if (r < acc) return repo;
    }
    return REPOS[0]!;
  }

  return { row, pickRepo, previous };
}

/** `total` rows over the three days before `end` (ms), oldest first. */
export function sampleRows(maker: RowMaker, total: number, end: number): MutationRow[] {
  const spanMs = 3 * 24 * 3600_000;
  const step = total > 1 ? spanMs / (total - 1) : 0;
  const rows: MutationRow[] = [];
  for (let i = 0; i < total; i++) rows.push(maker.row(maker.pickRepo(), Math.round(end - spanMs + i * step)));
  return rows;
}

/** The sample projects: each repository with its counts, and the notes folder. */
export function sampleProjects(rows: MutationRow[], end: number): ProjectInfo[] {
  const spanMs = 3 * 24 * 3600_000;
  const projects: ProjectInfo[] = REPOS.map((repo) => {
    const own = rows.filter((r) => r.repo === repo.root);
    return {
      root: repo.root,
      name: repo.name,
      origin: 'event',
      first_seen: own[0]?.event_timestamp ?? new Date(end - spanMs).toISOString(),
      last_activity: own[own.length - 1]?.event_timestamp ?? null,
      events: own.length * 2 + 3,
      mutations: own.length,
      has_ledger: true,
      connected: { ...repo.connected },
      // The first repository's sessions came from two coding agents.
      agent_kinds: repo === REPOS[0] ? ['claude', 'gemini'] : ['claude'],
      agents_connected: [],
    };
  });
  projects.push({
    root: NOTES_ROOT,
    name: 'notes',
    origin: 'manual',
    first_seen: new Date(end - 7 * 24 * 3600_000).toISOString(),
    last_activity: null,
    events: 0,
    mutations: 0,
    has_ledger: false,
    connected: { global: true, project: false, local: false },
    agent_kinds: [],
    agents_connected: [],
  });
  return projects;
}
