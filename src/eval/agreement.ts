import type { EvalReport } from './report-types.js';

const kinds = (counts: Partial<Record<string, number>>) => Object.keys(counts).join(', ') || 'errors';
const list = (items: readonly string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** What a report says about agreement: one headline, then what kept targets out of the comparison. */
export interface Agreement {
  /** Whether the targets that answered agree; ends with a colon when the disagreeing cases follow. */
  headline: string;
  /** Targets that failed every run, and targets that never answered some cases. */
  outages: string[];
}

/**
 * What a report can say about agreement: whether the targets that answered agree and, apart from
 * that, which targets failed every run (an outage is not agreement: with one of two targets down
 * there is nothing to compare) and which never answered some cases. Targets disagree when the ones
 * that answered a case got different verdicts (`CaseSummary.disagree`).
 */
export function agreement(report: EvalReport): Agreement {
  const { targets, cases } = report;
  const down = targets.filter((t) => t.runs > 0 && t.errored === t.runs);
  const answering = targets.filter((t) => t.errored < t.runs);
  const split = cases.filter((c) => c.disagree).length;
  const outage = down.length > 0 || cases.some((c) => c.cells.some((cell) => cell.status === 'error'));
  let headline: string;
  if (answering.length === 0) headline = 'No target answered: every run failed, so there is nothing to compare.';
  else if (answering.length === 1 && targets.length > 1) headline = `Only ${answering[0]!.key} answered, so there is nothing to compare it with.`;
  else if (split > 0) headline = `Targets disagree on ${split} of ${cases.length} cases:`;
  else headline = outage ? 'The targets that answered agree on every case.' : 'Targets agree on every case.';
  const out: string[] = [];
  if (down.length > 0) {
    const which = down.map((t) => `${t.key} (${kinds(t.errorKinds)})`);
    out.push(`${list(which)} failed every run: ${down.length === 1 ? 'it is' : 'they are'} not compared.`);
  }
  for (const t of answering) {
    const missed = cases.filter((c) => c.cells.some((cell) => cell.target === t.key && cell.status === 'error'));
    if (missed.length === 0) continue;
    const missedKinds = [...new Set(missed.flatMap((c) => c.cells.find((cell) => cell.target === t.key)!.errorKinds))];
    out.push(`${t.key} never answered ${missed.length} of ${cases.length} cases (${missedKinds.join(', ') || 'errors'}).`);
  }
  return { headline, outages: out };
}
