import { agreement } from '../agreement.js';
import { atLeast, formatCount, formatCounts, formatMs, formatRate, formatShare, formatUsd } from '../format.js';
import type { EvalReport, TargetSummary } from '../report-types.js';
import { barChart } from './bar-chart.js';
import { caseDetails } from './case-details.js';
import { caseGrid } from './case-grid.js';
import { escapeHtml } from './escape-html.js';
import { REPORT_CSS } from './styles.js';

function isBelow(report: EvalReport, t: TargetSummary): boolean {
  return report.minPass?.below.includes(t.key) ?? false;
}

function summaryTable(report: EvalReport): string {
  const stable = report.repeat > 1;
  const head = ['target', 'passed', 'pass rate', 'failed', 'errored', 'error kinds', 'latency p50', 'latency p95', 'tokens in', 'tokens out', 'est. cost', ...(stable ? ['stability', 'flaky cases'] : [])];
  const rows = report.targets.map((t) => {
    const cells = [
      `${t.passed}/${t.runs}`, formatRate(t.passRate), String(t.failed), String(t.errored), formatCounts(t.errorKinds),
      formatMs(t.latencyMs?.p50), formatMs(t.latencyMs?.p95),
      atLeast(formatCount(t.tokens.input), t.usageUnknown), atLeast(formatCount(t.tokens.output), t.usageUnknown), atLeast(formatUsd(t.costUsd), t.usageUnknown),
      ...(stable ? [formatShare(t.stability), String(t.flakyCases ?? '-')] : []),
    ];
    return `<tr class="${isBelow(report, t) ? 'below' : ''}"><th scope="row">${escapeHtml(t.key)}</th>${cells.map((c, i) => `<td class="${i === 4 ? '' : 'num'}">${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  return `<table class="summary"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function failuresTable(report: EvalReport): string {
  const names = [...new Set(report.targets.flatMap((t) => Object.keys(t.failuresByExpectation)))];
  if (names.length === 0) return '<p class="note">No expectation failed on any target.</p>';
  const rows = report.targets.map((t) => `<tr><th scope="row">${escapeHtml(t.key)}</th>${names.map((n) => `<td class="num">${(t.failuresByExpectation as Record<string, number>)[n] ?? 0}</td>`).join('')}</tr>`);
  return `<table><thead><tr><th>target</th>${names.map((n) => `<th scope="col">${escapeHtml(n)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function charts(report: EvalReport): string {
  const rows = (values: (t: TargetSummary) => Array<number | null>) => report.targets.map((t) => ({ label: t.key, values: values(t), highlight: isBelow(report, t) }));
  const list = [
    barChart({
      title: 'Pass rate', series: ['pass rate'], rows: rows((t) => [t.passRate]), format: formatRate, max: 1,
      ...(report.minPass ? { marker: { value: report.minPass.rate, label: `min-pass ${formatRate(report.minPass.rate)}` } } : {}),
    }),
    barChart({ title: 'Runs: passed, failed, errored', series: ['passed', 'failed', 'errored'], rows: rows((t) => [t.passed, t.failed, t.errored]), format: formatCount, palette: ['c-pass', 'c-fail', 'c-error'] }),
    barChart({ title: 'Latency p50 / p95 (answered runs)', series: ['p50', 'p95'], rows: rows((t) => [t.latencyMs?.p50 ?? null, t.latencyMs?.p95 ?? null]), format: formatMs, nullLabel: 'no answers' }),
    barChart({ title: 'Tokens (input / output)', series: ['input', 'output'], rows: rows((t) => [t.tokens.input, t.tokens.output]), format: formatCount }),
    barChart({ title: 'Estimated cost (USD)', series: ['cost'], rows: rows((t) => [t.costUsd]), format: (v) => formatUsd(v), nullLabel: 'unknown: no price in config' }),
  ];
  if (report.repeat > 1) {
    list.push(barChart({ title: `Stability over ${report.repeat} repeats`, series: ['stability'], rows: rows((t) => [t.stability]), format: (v) => formatShare(v), max: 1 }));
  }
  return `<div class="charts">${list.join('')}</div>`;
}

function banner(report: EvalReport): string {
  if (!report.minPass) return '';
  const { rate, below } = report.minPass;
  return below.length === 0
    ? `<p class="banner ok">Every target passes at least ${formatRate(rate)} of runs.</p>`
    : `<p class="banner bad">Under the minimum pass rate of ${formatRate(rate)}: ${escapeHtml(below.join(', '))}</p>`;
}

const DEFINITIONS = `<dl class="defs">
<dt>Pass rate</dt><dd>Runs whose answer met every expectation of its case, over all runs (cases × repeats). A run that got no answer (an error) counts as not passed.</dd>
<dt>Latency</dt><dd>Nearest-rank p50 and p95 of whole calls that got an answer, retries and their waits included.</dd>
<dt>Tokens and cost</dt><dd>Summed over answered runs, as each provider reported them; cost uses the config's <code>prices</code> over the shipped price table (docs/spend.md) and reads "unknown" when the target has no price in either. A sum marked ≥ leaves out runs whose provider reported no usage (unknown, never counted as 0).</dd>
<dt>Stability</dt><dd>With repeats: for each case with two or more answers, the share of its answers (trimmed, whitespace collapsed) equal to the most common one, averaged over those cases. 1.00 means every repeat answered the same; errors are counted under error kinds instead.</dd>
<dt>Disagreement (≠)</dt><dd>The verdicts of the targets that answered a case differ: some pass where others fail, or pass only some repeats. A target that never answered is an outage, shown as an error, not a disagreement.</dd>
</dl>`;

/** The agreement headline and its outages as one paragraph (the headline's colon becomes a full stop: the grid follows). */
function agreementNote(report: EvalReport): string {
  const { headline, outages } = agreement(report);
  return [headline.replace(/:$/, '.'), ...outages].join(' ');
}

/** The whole report as one self-contained HTML page: inline CSS and SVG, no scripts, nothing fetched. */
export function renderHtmlReport(report: EvalReport): string {
  const repeat = report.repeat > 1 ? ` × ${report.repeat} repeats` : '';
  const title = `Switchyard eval: chain "${report.chain}"`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${REPORT_CSS}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(report.startedAt)} · ${report.cases.length} cases × ${report.targets.length} targets${repeat} = ${report.runs.length} runs · ${(report.durationMs / 1000).toFixed(1)} s · concurrency ${report.concurrency}</p>
${banner(report)}</header>
<section><h2>Targets</h2>${summaryTable(report)}</section>
<section><h2>Charts</h2>${charts(report)}</section>
<section><h2>Case × target</h2><p class="note">${escapeHtml(agreementNote(report))} Hover a cell for the answer and what failed; click a case for its details.</p>
<p class="legend-row"><span class="cell pass">✓ pass</span><span class="cell fail">✗ fail</span><span class="cell error">! error</span><span class="cell mixed">~ some repeats pass</span></p>
${caseGrid(report)}</section>
<section><h2>Failed expectations (runs)</h2>${failuresTable(report)}</section>
<section><h2>Cases</h2>${caseDetails(report)}</section>
<section><h2>How to read this report</h2>${DEFINITIONS}</section>
</main></body></html>
`;
}
