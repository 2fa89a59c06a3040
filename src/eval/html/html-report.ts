import { agreement } from '../agreement.js';
import { atLeast, formatCount, formatCounts, formatMs, formatRate, formatShare, formatUsd } from '../format.js';
import type { EvalReport } from '../report-types.js';
import { barChart } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import { columnOfTarget, columnsOf, type ViewReport, type ViewTarget } from './report-view.js';
import { sideBySide, scriptJson } from './side-by-side.js';
import { REPORT_CSS } from './styles.js';
import { baselineBanner, comparisonsSection, metaExtras, promptsSection, suggestionSection } from './summary-extras.js';
import { DIFF_PANEL, VIEWER_SCRIPT } from './viewer-script.js';

function isBelow(report: ViewReport, t: ViewTarget): boolean {
  return report.minPass?.below.some((k) => k === t.key || k === columnOfTarget(t)) ?? false;
}

/** A summary column shown only when some target has the field (a version 1 report has none of these). */
interface Optional { head: string; has: (t: ViewTarget) => boolean; cell: (t: ViewTarget) => string }
const OPTIONAL: Optional[] = [
  { head: '95% interval', has: (t) => t.passInterval !== undefined, cell: (t) => (t.passInterval ? `${formatRate(t.passInterval[0])} – ${formatRate(t.passInterval[1])}` : '-') },
  { head: 'score', has: (t) => t.score !== undefined, cell: (t) => (t.score === undefined ? '-' : t.score.toFixed(2)) },
  { head: 'grade errors', has: (t) => t.gradeErrors !== undefined, cell: (t) => String(t.gradeErrors ?? '-') },
  { head: 'grader cost', has: (t) => t.graderCostUsd !== undefined, cell: (t) => (t.graderCostUsd === undefined ? '-' : formatUsd(t.graderCostUsd)) },
  { head: 'cached runs', has: (t) => t.cachedRuns !== undefined, cell: (t) => String(t.cachedRuns ?? '-') },
];

function summaryTable(report: ViewReport): string {
  const stable = report.repeat > 1;
  const extra = OPTIONAL.filter((o) => report.targets.some(o.has));
  const head = ['target', 'passed', 'pass rate', ...extra.map((o) => o.head), 'failed', 'errored', 'error kinds', 'latency p50', 'latency p95', 'tokens in', 'tokens out', 'est. cost', ...(stable ? ['stability', 'flaky cases'] : [])];
  const kindsAt = 4 + extra.length;
  const rows = report.targets.map((t) => {
    const cells = [
      `${t.passed}/${t.runs}`, formatRate(t.passRate), ...extra.map((o) => o.cell(t)), String(t.failed), String(t.errored), formatCounts(t.errorKinds),
      formatMs(t.latencyMs?.p50), formatMs(t.latencyMs?.p95),
      atLeast(formatCount(t.tokens.input), t.usageUnknown), atLeast(formatCount(t.tokens.output), t.usageUnknown), atLeast(formatUsd(t.costUsd), t.usageUnknown),
      ...(stable ? [formatShare(t.stability), String(t.flakyCases ?? '-')] : []),
    ];
    return `<tr class="${isBelow(report, t) ? 'below' : ''}"><th scope="row">${escapeHtml(columnOfTarget(t))}</th>${cells.map((c, i) => `<td class="${i === kindsAt ? '' : 'num'}">${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  return `<table class="summary"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function failuresTable(report: ViewReport): string {
  const names = [...new Set(report.targets.flatMap((t) => Object.keys(t.failuresByExpectation)))];
  if (names.length === 0) return '<p class="note">No expectation failed on any target.</p>';
  const rows = report.targets.map((t) => `<tr><th scope="row">${escapeHtml(columnOfTarget(t))}</th>${names.map((n) => `<td class="num">${(t.failuresByExpectation as Record<string, number>)[n] ?? 0}</td>`).join('')}</tr>`);
  return `<table><thead><tr><th>target</th>${names.map((n) => `<th scope="col">${escapeHtml(n)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function charts(report: ViewReport): string {
  const rows = (values: (t: ViewTarget) => Array<number | null>) => report.targets.map((t) => ({ label: columnOfTarget(t), values: values(t), highlight: isBelow(report, t) }));
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

function banner(report: ViewReport): string {
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
<dt>Columns</dt><dd>What is compared: each target of the chain, or each target × prompt when the cases file has prompts. A cell is one case on one column, over its repeats.</dd>
<dt>Interval and comparisons</dt><dd>When the report has them: a pass rate's 95% interval (Wilson), and paired comparisons of two columns on the same cases, which name a winner only when the interval of the difference excludes 0.</dd>
<dt>Regressed / fixed</dt><dd>Against a <code>--baseline</code> report: a case that passed there and fails now is a regression; the reverse is a fix.</dd>
<dt>Grader error</dt><dd>A judge or embedding call failed or answered out of shape: the run counts in no pass rate, and is never the target's failure.</dd>
</dl>`;

/** The agreement headline and its outages as one paragraph (the headline's colon becomes a full stop: the view follows). */
function agreementNote(report: EvalReport): string {
  const { headline, outages } = agreement(report);
  return [headline.replace(/:$/, '.'), ...outages].join(' ');
}

/**
 * The whole report as one self-contained HTML page: inline CSS, SVG and one inline script (filters,
 * search, repeats, diff), nothing fetched. Every field issue 35 adds is shown when present; a version 1
 * report renders without them.
 */
export function renderHtmlReport(input: EvalReport): string {
  const report: ViewReport = input;
  const repeat = report.repeat > 1 ? ` × ${report.repeat} repeats` : '';
  const title = `Switchyard eval: chain "${report.chain}"`;
  const view = sideBySide(report);
  const columns = columnsOf(report).length;
  const what = report.columns && report.prompts ? 'columns (target × prompt)' : 'targets';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${REPORT_CSS}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(report.startedAt)} · ${report.cases.length} cases × ${columns} ${what}${repeat} = ${report.runs.length} runs · ${(report.durationMs / 1000).toFixed(1)} s · concurrency ${report.concurrency}</p>
${metaExtras(report)}${banner(report)}${baselineBanner(report)}</header>
<section><h2>Targets</h2>${summaryTable(report)}</section>
${comparisonsSection(report)}${suggestionSection(report)}
<section><h2>Charts</h2>${charts(report)}</section>
${promptsSection(report)}
<section id="side-by-side"><h2>Side by side</h2><p class="note">${escapeHtml(agreementNote(input))} Pick two cells with <em>compare</em> to see a diff of their answers.</p>
<p class="legend-row"><span class="cell pass">✓ pass</span><span class="cell fail">✗ fail</span><span class="cell error">! error</span><span class="cell mixed">~ some repeats pass</span></p>
${view.html}</section>
<section><h2>Failed expectations (runs)</h2>${failuresTable(report)}</section>
<section><h2>How to read this report</h2>${DEFINITIONS}</section>
</main>${DIFF_PANEL}
<script>
var REPEATS = ${scriptJson(view.repeats)};
${VIEWER_SCRIPT}</script></body></html>
`;
}
