// The stub's Health answers: a canned report per sample project (a missing
// script, as `hookd doctor` words it, and one managed hook's evidence). The
// checks themselves are hookd-core's, tested in Rust.

import type { HealthReport, ProjectInfo } from '../lib/types';
import { fail, type StubPart } from './types';

export function createHealthStub(projects: ProjectInfo[]): StubPart<'project_health'> {
  return {
    project_health: ({ project }) => {
      const p = projects.find((x) => x.root === project);
      if (!p) throw fail('not_found', `project directory ${project}: No such file or directory (os error 2)`);
      const hook = { kind: 'agent' as const, scope: 'local' as const, path: `${p.root}/.claude/settings.local.json`, event: 'PreToolUse', matcher: 'Bash', runs: 'python3 .claude/hooks/guard.py' };
      const report: HealthReport = {
        project: p.root,
        since: '2026-01-01T00:00:00Z',
        findings: [{ severity: 'serious', code: 'missing_script', hook, message: `${p.root}/.claude/hooks/guard.py does not exist: python3 exits 2, which the agent reads as a block` }],
        evidence: [{ hook: { ...hook, kind: 'managed', path: `${p.root}/.hookd/settings.json`, runs: './scripts/deny-rm-rf.sh' }, runs: 12, failed: 0, timed_out: 0, p95_ms: 48, last_run: '2026-01-07T10:00:00Z' }],
        last_event: '2026-01-07T10:00:00Z',
        last_session: null,
      };
      return report;
    },
  };
}
