import type { RateLimitSnapshot, RateLimitWindow } from '../../src/types.js';
import type { HeaderBag } from './headers.js';
import { boundedHint } from './bounded-hint.js';
import { resetValueMs } from './reset-value.js';

type WindowName = keyof RateLimitSnapshot;

interface Family {
  window: WindowName;
  limit: string;
  remaining: string;
  reset: string;
}

const family = (window: WindowName, name: (f: string) => string): Family => ({ window, limit: name('limit'), remaining: name('remaining'), reset: name('reset') });

/** Which header families a provider sends; a response is only searched for its own. */
export type HeaderFamily = 'openai' | 'anthropic' | 'any';

const OPENAI: readonly Family[] = [
  family('requests', (f) => `x-ratelimit-${f}-requests`),
  family('tokens', (f) => `x-ratelimit-${f}-tokens`),
  // Bare headers some OpenAI-compatible servers send (reset often a Unix timestamp in seconds).
  family('requests', (f) => `x-ratelimit-${f}`),
];
const ANTHROPIC: readonly Family[] = [
  family('requests', (f) => `anthropic-ratelimit-requests-${f}`),
  family('tokens', (f) => `anthropic-ratelimit-tokens-${f}`),
  family('inputTokens', (f) => `anthropic-ratelimit-input-tokens-${f}`),
  family('outputTokens', (f) => `anthropic-ratelimit-output-tokens-${f}`),
];
const FAMILIES: Readonly<Record<HeaderFamily, readonly Family[]>> = { openai: OPENAI, anthropic: ANTHROPIC, any: [...OPENAI.slice(0, 2), ...ANTHROPIC, OPENAI[2]!] };

function readNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Reads every rate-limit window a response reports; undefined when it reports none. */
export function readRateLimits(headers: HeaderBag | undefined, nowMs: number, from: HeaderFamily = 'any'): RateLimitSnapshot | undefined {
  if (!headers) return undefined;
  let snapshot: RateLimitSnapshot | undefined;
  for (const f of FAMILIES[from]) {
    const window = f.window;
    if (snapshot?.[window]) continue;
    const remaining = readNumber(headers.get(f.remaining));
    const limit = readNumber(headers.get(f.limit));
    const resetMs = boundedHint(resetValueMs(headers.get(f.reset), nowMs));
    if (limit === undefined && remaining === undefined && resetMs === undefined) continue;
    const w: RateLimitWindow = {};
    if (limit !== undefined) w.limit = limit;
    if (remaining !== undefined) w.remaining = remaining;
    if (resetMs !== undefined) w.resetMs = resetMs;
    (snapshot ??= {})[window] = w;
  }
  return snapshot;
}
