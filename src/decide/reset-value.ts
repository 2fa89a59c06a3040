const GO_DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?(?:(\d+(?:\.\d+)?)(?:us|µs))?(?:(\d+(?:\.\d+)?)ns)?$/;

/** Parses a Go duration as OpenAI sends it (`20ms`, `1s`, `6m0s`, `1h2m3s`, `18.642s`) into milliseconds. */
export function parseGoDurationMs(value: string): number | undefined {
  const text = value.trim();
  if (text === '' || text === '0') return text === '0' ? 0 : undefined;
  const m = GO_DURATION.exec(text);
  if (!m || m.slice(1).every((part) => part === undefined)) return undefined;
  const [h, min, s, ms, us, ns] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return h! * 3_600_000 + min! * 60_000 + s! * 1000 + ms! + us! / 1000 + ns! / 1_000_000;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

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
  if (RFC3339.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  return undefined;
}
