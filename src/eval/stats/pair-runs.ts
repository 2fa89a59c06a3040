import type { RunRecord } from '../report-types.js';
import type { PairedTable } from './newcombe-paired.js';

/**
 * The paired table of two columns: runs matched by case and repeat (`caseId#repeat` keys from
 * `runsByColumn`, so runs with a grader error are already out). A pair is left out when either side
 * is missing, or when both sides errored (no answer from either: an outage says nothing about which
 * answers better). A run that errored on one side only counts as not passed, as in the pass rate.
 */
export function pairRuns(a: ReadonlyMap<string, RunRecord>, b: ReadonlyMap<string, RunRecord>): PairedTable & { bothErrored: number } {
  const t = { both: 0, onlyA: 0, onlyB: 0, neither: 0, bothErrored: 0 };
  for (const [key, ra] of a) {
    const rb = b.get(key);
    if (!rb) continue;
    if (!ra.ok && !rb.ok) {
      t.bothErrored++;
      continue;
    }
    if (ra.pass && rb.pass) t.both++;
    else if (ra.pass) t.onlyA++;
    else if (rb.pass) t.onlyB++;
    else t.neither++;
  }
  return t;
}
