const UNITS_NS = { h: 3_600_000_000_000, m: 60_000_000_000, s: 1_000_000_000 } as const;

/** `whole.fraction` with the fraction's trailing zeros dropped, the way Go prints durations. */
function decimal(value: number, unit: number, digits: number): string {
  const whole = Math.floor(value / unit);
  const fraction = String(value % unit).padStart(digits, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * A duration the way Go's `time.Duration.String()` prints it, which is what OpenAI sends in
 * `x-ratelimit-reset-*`: `0s`, `644ms`, `1.5s`, `26.604s`, `6m0s`, `1h2m3s`.
 */
export function formatGoDuration(ms: number): string {
  let ns = Math.round(Math.max(0, ms) * 1_000_000);
  if (ns === 0) return '0s';
  if (ns < 1_000) return `${ns}ns`;
  if (ns < 1_000_000) return `${decimal(ns, 1_000, 3)}µs`;
  if (ns < UNITS_NS.s) return `${decimal(ns, 1_000_000, 6)}ms`;
  const h = Math.floor(ns / UNITS_NS.h);
  ns -= h * UNITS_NS.h;
  const m = Math.floor(ns / UNITS_NS.m);
  ns -= m * UNITS_NS.m;
  let out = h > 0 ? `${h}h` : '';
  if (h > 0 || m > 0) out += `${m}m`;
  return `${out}${decimal(ns, UNITS_NS.s, 9)}s`;
}

/** An RFC 3339 timestamp at whole-second precision, rounded up, as Anthropic sends in `anthropic-ratelimit-*-reset`. */
export function formatRfc3339(epochMs: number): string {
  return new Date(Math.ceil(epochMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
