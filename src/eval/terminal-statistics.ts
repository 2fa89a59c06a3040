import type { EvalReport } from './report-types.js';

const MAX_VARIABLE_CASES = 10;
const MAX_UNSHOWN_PAIRS = 10;

/**
 * The statistics part of the terminal report: the differences shown between columns (with how many
 * pairs showed none), the cases a 5-point difference would need, the most variable cases across
 * repeats, the baseline's regressions and fixes, and the suggested chain.
 */
export function statisticsLines(report: Partial<Pick<EvalReport, 'comparisons' | 'power' | 'baseline' | 'suggestion'>> & Pick<EvalReport, 'cases'>): string[] {
  const out: string[] = [];
  const comparisons = report.comparisons ?? [];
  if (comparisons.length > 0) {
    const shown = comparisons.filter((c) => c.shown);
    out.push('', `Paired comparisons (same cases and repeats; ${comparisons[0]!.method.split(';')[0]}):`);
    for (const c of shown) out.push(`  ${c.text} (n=${c.n}, McNemar p=${c.pValue.toPrecision(2)})`);
    const none = comparisons.filter((c) => !c.shown);
    for (const c of none.slice(0, MAX_UNSHOWN_PAIRS)) out.push(`  ${c.a} vs ${c.b}: ${c.text}`);
    if (none.length > MAX_UNSHOWN_PAIRS) out.push(`  … and ${none.length - MAX_UNSHOWN_PAIRS} more pairs with no difference shown (see the --json report)`);
  }
  if (report.power) out.push('', `A 5-point difference would need ~${report.power.casesNeeded} cases (80% power, alpha 0.05).`);
  const variable = report.cases.filter((c) => (c.variance ?? 0) > 0).sort((a, b) => b.variance! - a.variance!);
  if (variable.length > 0) {
    out.push('', 'Cases whose verdict varies across repeats (variance of pass, 0.25 = an even split):');
    for (const c of variable.slice(0, MAX_VARIABLE_CASES)) out.push(`  ${c.id}  ${c.variance!.toFixed(3)}`);
    if (variable.length > MAX_VARIABLE_CASES) out.push(`  … and ${variable.length - MAX_VARIABLE_CASES} more`);
  }
  const b = report.baseline;
  if (b) {
    out.push('', `Against the baseline ${b.file}: ${b.regressions.length} regression${b.regressions.length === 1 ? '' : 's'}, ${b.fixes.length} fix${b.fixes.length === 1 ? '' : 'es'}.`);
    for (const r of b.regressions) out.push(`  regression: ${r.caseId} on ${r.column} (passed before, ${r.now === 'error' ? 'errors' : 'fails'} now)`);
    for (const f of b.fixes) out.push(`  fix: ${f.caseId} on ${f.column} (failed before, passes now)`);
    const m = b.missing;
    if (m.columnsOnlyBefore.length > 0) out.push(`  not run now (not compared): ${m.columnsOnlyBefore.join(', ')}`);
    if (m.columnsOnlyNow.length > 0) out.push(`  new since the baseline (not compared): ${m.columnsOnlyNow.join(', ')}`);
    if (m.casesOnlyBefore.length > 0) out.push(`  cases gone since the baseline: ${m.casesOnlyBefore.join(', ')}`);
    if (m.casesOnlyNow.length > 0) out.push(`  cases new since the baseline: ${m.casesOnlyNow.join(', ')}`);
  }
  const s = report.suggestion;
  if (s) {
    out.push('', `Suggested chain "${s.chain}" (Pareto front on score, cost, latency p50: ${s.pareto.join(', ') || 'none'}):`);
    for (const [i, o] of s.order.entries()) out.push(`  ${i + 1}. ${o.column}: ${o.reason}`);
    for (const l of s.left) out.push(`  left out: ${l.column}: ${l.reason}`);
    out.push('', s.snippet);
  }
  return out;
}
