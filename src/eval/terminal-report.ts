import { agreement } from './agreement.js';
import { atLeast, formatCount, formatCounts, formatMs, formatRate, formatShare, formatUsd } from './format.js';
import { formatInterval } from './format-interval.js';
import { table } from '../report/text-table.js';
import { statisticsLines } from './terminal-statistics.js';
import type { CaseSummary, EvalReport } from './report-types.js';

const MAX_DISAGREEMENT_LINES = 20;

function verdicts(c: CaseSummary): string {
  const parts: string[] = [];
  if (c.passing.length > 0) parts.push(`pass: ${c.passing.join(', ')}`);
  for (const cell of c.cells) {
    if (cell.status === 'pass') continue;
    const why = cell.status === 'error'
      ? cell.errorKinds.join(', ')
      : [...new Set(cell.failures.map((f) => f.split(':')[0]))].join(', ') || cell.errorKinds.join(', ');
    const counts = cell.status === 'mixed' ? ` ${cell.passed}/${cell.runs}` : '';
    parts.push(`${cell.status}: ${cell.target}${counts}${why ? ` (${why})` : ''}`);
  }
  return parts.join(' · ');
}

/** The graders' and the cache's lines: runs no grader could grade, what grading cost, cache hits. */
function graderLines(report: EvalReport): string[] {
  const lines: string[] = [];
  const ungraded = report.targets.filter((t) => (t.gradeErrors ?? 0) > 0);
  if (ungraded.length > 0) lines.push('', `Not graded (a grader failed; counted in no rate): ${ungraded.map((t) => `${t.column ?? t.key} ×${t.gradeErrors}`).join(', ')}`);
  if (report.judgeChain !== undefined || report.embedChain !== undefined) {
    const chains = [report.judgeChain !== undefined ? `judge "${report.judgeChain}"` : '', report.embedChain !== undefined ? `embeddings "${report.embedChain}"` : ''].filter(Boolean).join(', ');
    lines.push('', `Graders: ${chains}; their cost, apart from the targets': ${formatUsd(report.graderCostUsd ?? null)}`);
  }
  if (report.cache) lines.push('', `Cache ${report.cache.dir}: ${report.cache.hits} hits, ${report.cache.misses} misses`);
  return lines;
}

/** The end-of-run report for a terminal: one row per target, then failures, agreement (and outages), min-pass. */
export function renderTerminalReport(report: EvalReport): string {
  const runs = report.runs.length;
  const repeat = report.repeat > 1 ? ` × ${report.repeat} repeats` : '';
  const out: string[] = [
    `Eval of chain "${report.chain}": ${report.cases.length} cases × ${report.targets.length} targets${repeat} = ${runs} runs in ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
  ];
  const header = ['target', 'passed', 'rate', 'errors', 'p50', 'p95', 'tokens in', 'tokens out', 'cost'];
  if (report.repeat > 1) header.push('stability');
  header.push('95% interval');
  const rows = [header];
  for (const t of report.targets) {
    const below = report.minPass?.below.includes(t.column ?? t.key) ? ' ✗' : '';
    const row = [
      t.column ?? t.key, `${t.passed}/${t.runs}`, `${formatRate(t.passRate)}${below}`, formatCounts(t.errorKinds),
      formatMs(t.latencyMs?.p50), formatMs(t.latencyMs?.p95),
      atLeast(formatCount(t.tokens.input), t.usageUnknown), atLeast(formatCount(t.tokens.output), t.usageUnknown), atLeast(formatUsd(t.costUsd), t.usageUnknown),
    ];
    if (report.repeat > 1) row.push(formatShare(t.stability));
    row.push(formatInterval(t.passInterval));
    rows.push(row);
  }
  out.push(...table(rows, 'lrrlrrrrrrr'));

  const failing = report.targets.filter((t) => Object.keys(t.failuresByExpectation).length > 0);
  if (failing.length > 0) {
    out.push('', 'Failed expectations (runs):');
    out.push(...table(failing.map((t) => [`  ${t.column ?? t.key}`, formatCounts(t.failuresByExpectation)]), 'll'));
  }
  out.push(...graderLines(report));

  const split = report.cases.filter((c) => c.disagree);
  const { headline, outages } = agreement(report);
  out.push('', headline);
  const shown = split.slice(0, MAX_DISAGREEMENT_LINES);
  out.push(...table(shown.map((c) => [`  ${c.id}`, verdicts(c)]), 'll'));
  if (split.length > shown.length) out.push(`  … and ${split.length - shown.length} more (see the --html or --json report)`);
  out.push(...outages);
  out.push(...statisticsLines(report));

  if (report.minPass) {
    const { rate, below } = report.minPass;
    const byKey = new Map(report.targets.map((t) => [t.column ?? t.key, t]));
    out.push('', below.length === 0
      ? `min-pass ${formatRate(rate)}: every target passes.`
      : `min-pass ${formatRate(rate)}: under it: ${below.map((k) => `${k} (${formatRate(byKey.get(k)!.passRate)})`).join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}
