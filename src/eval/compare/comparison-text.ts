/** Points of pass rate (rate × 100) with a sign, whole unless rounding would show a nonzero bound as 0. */
export function points(rate: number): string {
  const p = rate * 100;
  const whole = Math.abs(Math.round(p));
  const text = whole === 0 && Math.abs(p) >= 0.05 ? Math.abs(p).toFixed(1) : String(whole);
  return p < 0 && Number(text) !== 0 ? `-${text}` : `+${text}`;
}

/**
 * What a comparison says: "a beats b by +12 points [+4, +20]" when the interval of the difference
 * excludes 0 (the winner named first, so the difference always reads positive), otherwise
 * "no difference shown at n=10".
 */
export function comparisonText(a: string, b: string, n: number, diff: number, interval: [number, number], shown: boolean): string {
  if (!shown) return `no difference shown at n=${n}`;
  if (diff >= 0) return `${a} beats ${b} by ${points(diff)} points [${points(interval[0])}, ${points(interval[1])}]`;
  return `${b} beats ${a} by ${points(-diff)} points [${points(-interval[1])}, ${points(-interval[0])}]`;
}
