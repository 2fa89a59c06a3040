/** Cosine similarity of two vectors (-1..1); 0 when either is all zeros or their lengths differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The best cosine of `answer` against each of `to`, and the index of the one that gave it. */
export function bestSimilarity(answer: readonly number[], to: ReadonlyArray<readonly number[]>): { score: number; index: number } {
  let best = { score: -Infinity, index: -1 };
  to.forEach((v, index) => {
    const score = cosine(answer, v);
    if (score > best.score) best = { score, index };
  });
  return best;
}
