// The Health view's shaping of the core's health report (hookd doctor):
// findings grouped by severity, the serious ones first, and the words for a
// hook and a duration. The findings' messages are the core's; nothing here
// restates a rule.

import type { Finding, HealthHookRef, HealthReport, Severity } from './types';

/** The severities in the order the view lists them. */
export const SEVERITIES: Severity[] = ['serious', 'warning', 'info'];

/** Section titles per severity. */
export const SEVERITY_TEXT: Record<Severity, string> = { serious: 'Serious', warning: 'Warnings', info: 'Worth knowing' };

/** The findings of each severity, in report order; severities without findings left out. */
export function groupFindings(findings: Finding[]): { severity: Severity; findings: Finding[] }[] {
  return SEVERITIES.map((severity) => ({ severity, findings: findings.filter((f) => f.severity === severity) })).filter((g) => g.findings.length > 0);
}

/** `PreToolUse [Bash]: python3 guard.py` */
export function hookLabel(hook: HealthHookRef): string {
  return `${hook.event}${hook.matcher !== null && hook.matcher !== '' ? ` [${hook.matcher}]` : ''}: ${hook.runs}`;
}

/** A p95 in words: `—` without runs, ms below a second, else seconds. */
export function durationText(ms: number, runs: number): string {
  if (runs === 0) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The header line: how many findings of each severity. */
export function summaryText(report: HealthReport): string {
  if (report.findings.length === 0) return 'No problem found';
  const parts = SEVERITIES.map((s) => [s, report.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s === 'info' ? 'note' : s === 'warning' ? 'warning' : 'serious'}${n === 1 || s === 'serious' ? '' : 's'}`);
  return parts.join(', ');
}
