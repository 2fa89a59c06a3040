import type { RateLimitSnapshot, RateLimitWindow } from '../types.js';
import type { HeaderBag } from './headers.js';
import { resetValueMs } from './reset-value.js';

type WindowName = keyof RateLimitSnapshot;

// OpenAI: x-ratelimit-{limit,remaining,reset}-{requests,tokens}; Anthropic: anthropic-ratelimit-{window}-{field}.
const FAMILIES: ReadonlyArray<{ window: WindowName; field: (f: 'limit' | 'remaining' | 'reset') => string }> = [
  { window: 'requests', field: (f) => `x-ratelimit-${f}-requests` },
  { window: 'tokens', field: (f) => `x-ratelimit-${f}-tokens` },
  { window: 'requests', field: (f) => `anthropic-ratelimit-requests-${f}` },
  { window: 'tokens', field: (f) => `anthropic-ratelimit-tokens-${f}` },
  { window: 'inputTokens', field: (f) => `anthropic-ratelimit-input-tokens-${f}` },
  { window: 'outputTokens', field: (f) => `anthropic-ratelimit-output-tokens-${f}` },
  // Bare headers some OpenAI-compatible servers send (reset often a Unix timestamp in seconds).
  { window: 'requests', field: (f) => `x-ratelimit-${f}` },
];

function readNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Reads every rate-limit window a response reports; undefined when it reports none. */
export function readRateLimits(headers: HeaderBag | undefined, nowMs: number): RateLimitSnapshot | undefined {
  if (!headers) return undefined;
  let snapshot: RateLimitSnapshot | undefined;
  for (const { window, field } of FAMILIES) {
    if (snapshot?.[window]) continue;
    const limit = readNumber(headers.get(field('limit')));
    const remaining = readNumber(headers.get(field('remaining')));
    const resetMs = resetValueMs(headers.get(field('reset')), nowMs);
    if (limit === undefined && remaining === undefined && resetMs === undefined) continue;
    const w: RateLimitWindow = {};
    if (limit !== undefined) w.limit = limit;
    if (remaining !== undefined) w.remaining = remaining;
    if (resetMs !== undefined) w.resetMs = resetMs;
    (snapshot ??= {})[window] = w;
  }
  return snapshot;
}
