import { formatUsd } from '../format.js';
import { escapeHtml } from './escape-html.js';
import type { ViewReport } from './report-view.js';

/** The run's settings issue 35 adds, for the header line: judge and embedding chains, cache, grader cost. */
export function metaExtras(report: ViewReport): string {
  const parts: string[] = [];
  if (report.judgeChain) parts.push(`judge chain "${report.judgeChain}"`);
  if (report.embedChain) parts.push(`embeddings chain "${report.embedChain}"`);
  if (report.graderCostUsd != null) parts.push(`grader cost ${formatUsd(report.graderCostUsd)} (apart from the targets')`);
  if (report.cache) parts.push(`cache ${report.cache.dir}: ${report.cache.hits} hits, ${report.cache.misses} misses`);
  return parts.length > 0 ? `<p class="meta" id="meta-extras">${escapeHtml(parts.join(' · '))}</p>` : '';
}

/** The baseline verdict as a banner: which cases regressed (passed before, fail now) and which were fixed. */
export function baselineBanner(report: ViewReport): string {
  const b = report.baseline;
  if (!b) return '';
  const list = (pairs: ReadonlyArray<{ caseId: string; column: string }>) => pairs.map((p) => `${p.caseId} (${p.column})`).join(', ');
  const missing = Array.isArray(b.missing) && b.missing.length > 0 ? ` ${b.missing.length} baseline cases are not in this run.` : '';
  const text = b.regressions.length === 0
    ? `No regression against the baseline ${b.file}.`
    : `${b.regressions.length} regression${b.regressions.length === 1 ? '' : 's'} against the baseline ${b.file}: ${list(b.regressions)}.`;
  const fixes = b.fixes.length > 0 ? ` ${b.fixes.length} fixed: ${list(b.fixes)}.` : '';
  return `<p class="banner ${b.regressions.length === 0 ? 'ok' : 'bad'}" id="baseline">${escapeHtml(text + fixes + missing)}</p>`;
}

/** Paired comparisons: those the interval shows first, then the ones that show no difference; and the power note. */
export function comparisonsSection(report: ViewReport): string {
  const list = report.comparisons;
  if (!list && !report.power) return '';
  const ordered = [...(list ?? []).filter((c) => c.shown), ...(list ?? []).filter((c) => !c.shown)];
  const items = ordered.map((c) => `<li class="${c.shown ? 'shown' : 'not-shown'}">${escapeHtml(c.text)} <span class="note">(${escapeHtml(`${c.a} vs ${c.b}, ${c.method}, n=${c.n}`)})</span></li>`).join('');
  const power = report.power
    ? `<p class="note" id="power">A ${report.power.pointsDetectable}-point difference would need ~${report.power.casesNeeded} cases to show.</p>` : '';
  return `<section id="comparisons"><h2>Comparisons (paired, on the same cases)</h2>${items ? `<ul class="comparisons">${items}</ul>` : ''}${power}</section>`;
}

/** The proposed chain order with the reason for each place, and the config snippet. */
export function suggestionSection(report: ViewReport): string {
  const s = report.suggestion;
  if (!s) return '';
  const order = s.order.map((o) => `<li><strong>${escapeHtml(o.column)}</strong>: ${escapeHtml(o.reason)}</li>`).join('');
  return `<section id="suggestion"><h2>Suggested chain "${escapeHtml(s.chain)}"</h2><p class="note">Pareto front (quality, cost, latency): ${escapeHtml(s.pareto.join(', '))}</p>`
    + `<ol>${order}</ol><pre>${escapeHtml(s.snippet)}</pre></section>`;
}

/** The prompt templates of a prompts × targets run. */
export function promptsSection(report: ViewReport): string {
  if (!report.prompts || report.prompts.length === 0) return '';
  const items = report.prompts.map((p) => `<dt>${escapeHtml(p.id)}</dt><dd><pre>${escapeHtml(p.template)}</pre></dd>`).join('');
  return `<section id="prompts"><h2>Prompts</h2><dl>${items}</dl></section>`;
}
