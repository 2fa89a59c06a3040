import { wilson } from './wilson.js';

/** A 2×2 table of paired verdicts: both passed, only the first, only the second, neither. */
export interface PairedTable {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

/**
 * Newcombe's interval for the difference of two paired proportions (Newcombe 1998, "Improved
 * confidence intervals for the difference between binomial proportions based on paired data",
 * method 10): each rate gets its Wilson interval, and the two are combined with the phi correlation
 * of the pairs. Returns the difference (rate A − rate B) and its interval, as rates in −1..1.
 */
export function newcombePaired(t: PairedTable, confidence = 0.95): { diff: number; interval: [number, number] } {
  const n = t.both + t.onlyA + t.onlyB + t.neither;
  if (n === 0) return { diff: 0, interval: [-1, 1] };
  const passA = t.both + t.onlyA;
  const passB = t.both + t.onlyB;
  const p1 = passA / n;
  const p2 = passB / n;
  const [l1, u1] = wilson(passA, n, confidence);
  const [l2, u2] = wilson(passB, n, confidence);
  const margins = (t.both + t.onlyA) * (t.onlyB + t.neither) * (t.both + t.onlyB) * (t.onlyA + t.neither);
  const phi = margins === 0 ? 0 : (t.both * t.neither - t.onlyA * t.onlyB) / Math.sqrt(margins);
  const diff = p1 - p2;
  const below = Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const above = Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return { diff, interval: [Math.max(-1, diff - below), Math.min(1, diff + above)] };
}
