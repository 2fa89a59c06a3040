/**
 * McNemar's exact test: the two-sided p-value that `b` and `c` discordant pairs (a passed where b
 * failed, and the reverse) split this unevenly under "neither is better", i.e. a binomial(b + c, 1/2)
 * tail, doubled and capped at 1. No discordant pairs: 1. Computed in logs so thousands of pairs do not underflow.
 */
export function mcnemarExactP(b: number, c: number): number {
  const k = b + c;
  if (k === 0) return 1;
  const low = Math.min(b, c);
  const ln2k = k * Math.LN2;
  let lnChoose = 0;
  let tail = 0;
  for (let i = 0; i <= low; i++) {
    if (i > 0) lnChoose += Math.log(k - i + 1) - Math.log(i);
    tail += Math.exp(lnChoose - ln2k);
  }
  return Math.min(1, 2 * tail);
}
