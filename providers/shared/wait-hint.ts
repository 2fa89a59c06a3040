import type { RateLimitSnapshot } from '../../src/types.js';
import type { HeaderBag } from './headers.js';
import { readRateLimits } from './rate-limit-snapshot.js';
import { boundedHint } from './bounded-hint.js';
import { parseGoDurationMs } from './reset-value.js';

/** What a failed response said about when to come back. */
export interface WaitHintInput {
  headers?: HeaderBag;
  nowMs: number;
  /** Which window the error body names as exhausted (OpenAI puts `requests` or `tokens` in `type`). */
  window?: 'requests' | 'tokens';
  /** The provider's error message; a last resort ("Please try again in 20s"). */
  message?: string;
}

function retryAfterMsHeader(headers: HeaderBag): number | undefined {
  const raw = headers.get('retry-after-ms');
  if (raw === null || raw === undefined) return undefined;
  const ms = Number.parseFloat(raw);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function retryAfterHeader(headers: HeaderBag, nowMs: number): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The reset of the window that ran out: any at zero (the longest of them), else the one the body names. */
function exhaustedWindowResetMs(snapshot: RateLimitSnapshot, window?: 'requests' | 'tokens'): number | undefined {
  const windows = Object.values(snapshot).filter((w) => w.resetMs !== undefined);
  const atZero = windows.filter((w) => w.remaining !== undefined && w.remaining <= 0);
  if (atZero.length > 0) return Math.max(...atZero.map((w) => w.resetMs!));
  if (window && snapshot[window]?.resetMs !== undefined) return snapshot[window]!.resetMs;
  // None reports zero (a request larger than what is left): only a full reset is sure to fit it.
  return windows.length > 0 ? Math.max(...windows.map((w) => w.resetMs!)) : undefined;
}

const TRY_AGAIN = /try again in ((?:\d+(?:\.\d+)?(?:h|ms|m|s))+)/i;

/**
 * What a server error's headers ask for: only `retry-after-ms` and `retry-after`. The rate-limit
 * resets on a 5xx describe healthy windows (often `0s`), not when the server recovers, so they are no
 * hint: a 5xx without `retry-after` gets backoff.
 */
export function retryAfterHintMs(headers: HeaderBag | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  return boundedHint(retryAfterMsHeader(headers) ?? retryAfterHeader(headers, nowMs));
}

/**
 * How long the provider asked us to wait after a 429, in this order: `retry-after-ms`, `retry-after` (seconds or
 * HTTP date), the rate-limit reset headers of the exhausted window (OpenAI Go durations, Anthropic
 * RFC 3339, a bare `x-ratelimit-reset` Unix timestamp), then "try again in ..." in the message.
 * Undefined means the provider gave no hint: use backoff.
 */
export function waitHintMs(input: WaitHintInput): number | undefined {
  const { headers, nowMs } = input;
  if (headers) {
    const hint = boundedHint(retryAfterMsHeader(headers) ?? retryAfterHeader(headers, nowMs));
    if (hint !== undefined) return hint;
    const snapshot = readRateLimits(headers, nowMs);
    const reset = boundedHint(snapshot && exhaustedWindowResetMs(snapshot, input.window));
    if (reset !== undefined) return reset;
  }
  const said = input.message && TRY_AGAIN.exec(input.message);
  return said ? boundedHint(parseGoDurationMs(said[1]!)) : undefined;
}
