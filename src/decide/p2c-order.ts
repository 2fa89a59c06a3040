/**
 * Power of two choices over scored members (Mitzenmacher; Finagle's and Linkerd's balancers): two
 * distinct members drawn at random, the lower score wins, and the rest follow in score order, so a
 * capacity failure on the winner falls to the next best. With two members both are drawn. A tie
 * goes to the member measured longer ago (a never measured one first), then to configured order.
 */

/** True when member `a` sorts before member `b`. */
function before(scores: ArrayLike<number>, stamps: ArrayLike<number>, a: number, b: number): boolean {
  if (scores[a] !== scores[b]) return scores[a]! < scores[b]!;
  if (stamps[a] !== stamps[b]) return stamps[a]! < stamps[b]!;
  return a < b;
}

/**
 * Writes into `out[0..n)` the order of members `0..n)`: the P2C winner, then the rest best first.
 * `r1`, `r2` are uniform draws in [0, 1) (read only when there are three members or more).
 */
export function p2cOrder(scores: ArrayLike<number>, stamps: ArrayLike<number>, n: number, r1: number, r2: number, out: Int32Array): void {
  for (let i = 0; i < n; i++) out[i] = i;
  // Insertion sort: pools are a handful of members, and it allocates nothing.
  for (let i = 1; i < n; i++) {
    const m = out[i]!;
    let j = i - 1;
    while (j >= 0 && before(scores, stamps, m, out[j]!)) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = m;
  }
  if (n < 3) return;
  const a = Math.min(n - 1, Math.floor(r1 * n));
  let b = Math.min(n - 2, Math.floor(r2 * (n - 1)));
  if (b >= a) b++;
  const winner = before(scores, stamps, a, b) ? a : b;
  // Move the winner to the front; the others keep their score order behind it.
  let at = 0;
  while (out[at] !== winner) at++;
  for (; at > 0; at--) out[at] = out[at - 1]!;
  out[0] = winner;
}

/** The lower median of `values[0..n)` (the lower of the middle two for an even count); 0 when n is 0. Sorts `values` in place. */
export function lowerMedian(values: Float64Array, n: number): number {
  if (n === 0) return 0;
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
  return values[(n - 1) >> 1]!;
}
