const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 };

/**
 * Parses a Go duration as OpenAI sends it (`20ms`, `1s`, `6m0s`, `1h2m3s`, `18.642s`) into
 * milliseconds, or undefined. Hand-written rather than one big regex: it runs on every response.
 */
export function parseGoDurationMs(value: string): number | undefined {
  const text = value.trim();
  if (text === '0') return 0;
  let total = 0;
  let i = 0;
  let lastUnit = Infinity;
  while (i < text.length) {
    const start = i;
    while (i < text.length && ((text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) || text[i] === '.')) i++;
    if (i === start) return undefined;
    const n = Number(text.slice(start, i));
    const unitStart = i;
    while (i < text.length && !(text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) && text[i] !== '.') i++;
    const scale = UNIT_MS[text.slice(unitStart, i)];
    // Units must come largest first, each once (`1m30s`, never `30s1m`).
    if (scale === undefined || Number.isNaN(n) || scale >= lastUnit) return undefined;
    lastUnit = scale;
    total += n * scale;
  }
  return i === 0 ? undefined : total;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

// Anthropic sends up to four resets per response, usually the same second: remember the last one.
let lastText = '';
let lastAt: number | undefined;

/** An RFC 3339 timestamp as epoch ms, or undefined. */
function parseTimestamp(text: string): number | undefined {
  if (text === lastText) return lastAt;
  let at: number | undefined;
  if (RFC3339.test(text)) {
    at = Date.parse(text);
    if (Number.isNaN(at)) at = undefined;
  }
  lastText = text;
  lastAt = at;
  return at;
}

/**
 * Milliseconds from `nowMs` until a rate-limit reset, whatever form the provider used:
 * a Go duration (OpenAI), an RFC 3339 timestamp (Anthropic), a Unix timestamp in seconds or
 * milliseconds (some OpenAI-compatible servers), or a bare number of seconds. Never negative.
 */
export function resetValueMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const n = Number(text);
    // A bare number this large can only be a moment, not a span: Unix ms, then Unix seconds.
    if (n >= 1e12) return Math.max(0, n - nowMs);
    if (n >= 1e9) return Math.max(0, n * 1000 - nowMs);
    return n * 1000;
  }
  const duration = parseGoDurationMs(text);
  if (duration !== undefined) return duration;
  const at = parseTimestamp(text);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}
