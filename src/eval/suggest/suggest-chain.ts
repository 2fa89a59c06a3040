import type { Comparison, Suggestion } from '../analysis-types.js';
import { formatRate, formatUsd } from '../format.js';
import type { EvalReport } from '../report-types.js';
import { chainSnippet } from './chain-snippet.js';
import { columnFacts, paretoFront, type ColumnFacts } from './column-facts.js';

const cost = (c: ColumnFacts) => (c.costPerRun === Infinity ? 'cost unknown' : `${formatUsd(c.costPerRun)}/answer`);
const byBest = (a: ColumnFacts, b: ColumnFacts) => b.score - a.score || a.costPerRun - b.costPerRun || a.p50 - b.p50;
const byCheapest = (a: ColumnFacts, b: ColumnFacts) => a.costPerRun - b.costPerRun || b.score - a.score || a.p50 - b.p50;

/** The comparison of two columns, read from `x`'s side: shown and x worse. */
function shownWorse(comparisons: readonly Comparison[], x: string, than: string): Comparison | undefined {
  const c = comparisons.find((k) => (k.a === x && k.b === than) || (k.a === than && k.b === x));
  if (!c || !c.shown) return undefined;
  const xMinusThan = c.a === x ? c.diff : -c.diff;
  return xMinusThan < 0 ? c : undefined;
}

/** With prompts, the prompt whose best column scores highest (ties: the first); its columns make the chain. */
function promptToSuggest(facts: readonly ColumnFacts[]): string | undefined {
  const prompted = facts.filter((f) => f.prompt !== undefined);
  return prompted.length === 0 ? undefined : [...prompted].sort(byBest)[0]!.prompt;
}

/**
 * A proposed chain order from quality, cost and latency. First the best score (ties: the cheaper,
 * then the faster); then, while any is left, the cheapest column whose score is not shown worse
 * than the first's (paired comparison); then the rest, best score first, as last resorts. A column
 * that never answered is left out. With prompts, the chain is for one prompt (a chain orders
 * targets; the prompt is the caller's): the one whose best column scores highest.
 */
export function suggestChain(report: Pick<EvalReport, 'chain' | 'targets' | 'comparisons'>): Suggestion {
  const all = report.targets.map(columnFacts);
  const prompt = promptToSuggest(all);
  const left: Suggestion['left'] = [];
  const pool: ColumnFacts[] = [];
  for (const f of all) {
    if (prompt !== undefined && f.prompt !== prompt) left.push({ column: f.column, reason: `prompt ${f.prompt ?? '(none)'}: the chain is for prompt ${prompt}` });
    else if (f.answered === 0) left.push({ column: f.column, reason: 'never answered' });
    else pool.push(f);
  }
  const pareto = paretoFront(pool).map((f) => f.column);
  const order: Array<ColumnFacts & { reason: string }> = [];
  const rest = [...pool].sort(byBest);
  const best = rest.shift();
  if (best) {
    const tie = rest.find((r) => r.score === best.score);
    order.push(Object.assign({}, best, { reason: `best score ${formatRate(best.score)}${tie ? `, cheaper or faster than ${tie.column} at the same score` : ''} (${cost(best)})` }));
    while (rest.length > 0) {
      const equal = rest.filter((r) => !shownWorse(report.comparisons, r.column, best.column)).sort(byCheapest);
      const next = equal[0] ?? rest[0]!;
      rest.splice(rest.indexOf(next), 1);
      const worse = shownWorse(report.comparisons, next.column, best.column);
      const reason = worse
        ? `last resort: ${worse.text}; best score of the rest ${formatRate(next.score)} (${cost(next)})`
        : `score ${formatRate(next.score)} not shown worse than ${best.column}; cheapest of those left (${cost(next)})`;
      order.push(Object.assign({}, next, { reason }));
    }
  }
  const note = prompt !== undefined ? `with prompt "${prompt}" (the order is for that prompt's answers)` : undefined;
  const snippet = chainSnippet(report.chain, order, note);
  const out: Suggestion = { chain: report.chain, order: order.map((o) => ({ column: o.column, reason: o.reason })), pareto, snippet, left };
  if (prompt !== undefined) out.prompt = prompt;
  return out;
}
