import type { Comparison, Power } from '../analysis-types.js';
import { zFor } from './normal-quantile.js';

const DELTA = 0.05;
const ALPHA = 0.05;
const POWER = 0.8;

/**
 * Cases needed to detect a 5-point difference between two columns with 80% power at a two-sided
 * α of 0.05, for a paired (McNemar) comparison (Connor 1987):
 *   n = (z₁₋α/₂·√ψ + z₁₋β·√(ψ − δ²))² / δ²
 * where δ = 0.05 and ψ is the share of discordant pairs (one passes, the other does not). ψ is the
 * mean observed over the pairs that showed no difference (the close ones, where the question
 * arises; a pair far apart is discordant because it differs), or over every pair when all differ; with one column, the discordance two independent
 * columns at its pass rate p would have, 2p(1 − p); never under δ (a 5-point difference needs at
 * least 5% of pairs to disagree). Not adjusted for multiplicity.
 */
export function casesForFivePoints(comparisons: readonly Comparison[], passRates: readonly number[]): Power {
  let psi: number;
  let basis: Power['basis'];
  const compared = comparisons.filter((c) => c.n > 0);
  const close = compared.filter((c) => !c.shown);
  const measured = close.length > 0 ? close : compared;
  if (measured.length > 0) {
    psi = measured.reduce((sum, c) => sum + (c.discordant[0] + c.discordant[1]) / c.n, 0) / measured.length;
    basis = 'observed';
  } else {
    const p = passRates.length === 0 ? 0.5 : passRates.reduce((a, b) => a + b, 0) / passRates.length;
    psi = 2 * p * (1 - p);
    basis = 'pass rate';
  }
  if (psi < DELTA) {
    psi = DELTA;
    basis = 'floor';
  }
  const za = zFor(1 - ALPHA);
  const zb = zFor(2 * POWER - 1);
  const n = (za * Math.sqrt(psi) + zb * Math.sqrt(psi - DELTA * DELTA)) ** 2 / (DELTA * DELTA);
  return { pointsDetectable: 5, casesNeeded: Math.ceil(n), discordance: psi, basis };
}
