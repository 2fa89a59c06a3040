import type { GeminiErrorDetail } from './wire-types.js';

/** A hint beyond a day is a broken one, not a reason to cool a target for longer (the router's bound too). */
const MAX_HINT_MS = 24 * 60 * 60 * 1000;

const bounded = (ms: number | undefined): number | undefined => (ms === undefined || !Number.isFinite(ms) || ms < 0 ? undefined : Math.min(ms, MAX_HINT_MS));

/** A protobuf Duration in its JSON form (`"13s"`, `"0.5s"`, `"38.804097346s"`) as ms; undefined for anything else. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
  return match ? bounded(Number(match[1]) * 1000) : undefined;
}

/** `RetryInfo.retryDelay` among an error's details, as ms. */
export function retryInfoMs(details: readonly GeminiErrorDetail[] | undefined): number | undefined {
  for (const detail of details ?? []) {
    if (detail?.['@type']?.endsWith('google.rpc.RetryInfo')) return durationMs(detail.retryDelay);
  }
  return undefined;
}

/**
 * `retry-after-ms`, then `retry-after` (seconds or an HTTP date): Google's front end sends neither,
 * but a proxy or gateway in front of it may, and its word comes first.
 */
export function retryAfterHeaderMs(headers: Headers | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') return bounded(Number(ms));
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(raw)) return bounded(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : bounded(Math.max(0, at - nowMs));
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "Please retry in 38.804097346s." (Gemini's 429 message), or "try again in 20s", as ms. */
export function messageHintMs(message: string): number | undefined {
  const match = /(?:retry|try again) in (\d+(?:\.\d+)?)\s*(ms|s|m|h)\b/i.exec(message);
  return match ? bounded(Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!) : undefined;
}
