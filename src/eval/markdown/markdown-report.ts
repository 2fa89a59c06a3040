import { formatInterval } from '../format-interval.js';
import { formatMs, formatRate, formatUsd } from '../format.js';
import type { EvalReport } from '../report-types.js';
import { summaryColumn } from '../stats/run-facts.js';

/** Text safe in a Markdown table cell or inline code. */
const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\n/g, ' ');
const MAX_LISTED = 20;

function listed(items: readonly string[]): string[] {
  const out = items.slice(0, MAX_LISTED).map((i) => `- ${i}`);
  if (items.length > MAX_LISTED) out.push(`- … and ${items.length - MAX_LISTED} more (see the JSON report)`);
  return out;
}

/**
 * A short Markdown summary for a pull-request comment: pass rates with their 95% intervals, latency
 * and cost per column, the differences shown, the regressions and fixes against a baseline, the
 * cases a 5-point difference would need and, with --suggest, the proposed chain.
 */
export function renderMarkdownReport(report: EvalReport): string {
  const columns = report.targets.length;
  const repeat = report.repeat > 1 ? ` × ${report.repeat} repeats` : '';
  const out = [`### switchyard eval: chain \`${cell(report.chain)}\``, '', `${report.cases.length} cases × ${columns} columns${repeat} = ${report.runs.length} runs.`, ''];
  out.push('| column | passed | pass rate | 95% interval | p50 | cost |', '|---|---:|---:|---|---:|---:|');
  let total = 0;
  let unknown = false;
  for (const t of report.targets) {
    if (t.costUsd === null) unknown = true;
    else total += t.costUsd;
    out.push(`| \`${cell(summaryColumn(t))}\` | ${t.passed}/${t.runs} | ${formatRate(t.passRate)} | ${formatInterval(t.passInterval)} | ${formatMs(t.latencyMs?.p50)} | ${formatUsd(t.costUsd)} |`);
  }
  out.push('', `Total cost: ${formatUsd(total)}${unknown ? ' (some columns unpriced: a lower bound)' : ''}.`);
  const shown = (report.comparisons ?? []).filter((c) => c.shown);
  out.push('', '**Differences shown**', '');
  if (shown.length === 0) out.push(report.comparisons?.length ? `None: no pair of columns differs beyond noise (n=${report.comparisons[0]!.n}).` : 'One column: nothing to compare.');
  else out.push(...listed(shown.map((c) => cell(c.text))));
  if (report.power) out.push('', `A 5-point difference would need ~${report.power.casesNeeded} cases.`);
  const b = report.baseline;
  if (b) {
    out.push('', `**Against the baseline \`${cell(b.file)}\`**: ${b.regressions.length} regressions, ${b.fixes.length} fixes`, '');
    out.push(...listed(b.regressions.map((r) => `regression: \`${cell(r.caseId)}\` on \`${cell(r.column)}\` (${r.now === 'error' ? 'errors' : 'fails'} now)`)));
    out.push(...listed(b.fixes.map((f) => `fix: \`${cell(f.caseId)}\` on \`${cell(f.column)}\``)));
    const m = b.missing;
    const absent = [...m.columnsOnlyBefore.map((c) => `column gone: \`${cell(c)}\``), ...m.columnsOnlyNow.map((c) => `column new: \`${cell(c)}\``),
      ...m.casesOnlyBefore.map((c) => `case gone: \`${cell(c)}\``), ...m.casesOnlyNow.map((c) => `case new: \`${cell(c)}\``)];
    if (absent.length > 0) out.push('', 'Not compared (on one side only):', '', ...listed(absent));
  }
  if (report.suggestion) out.push('', '**Suggested chain**', '', '```ts', report.suggestion.snippet, '```');
  return `${out.join('\n')}\n`;
}
