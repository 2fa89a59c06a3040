import { TokenBucket } from './token-bucket.js';

/** Limits as the providers state them: per minute by default; tests shrink `windowMs`. */
export interface RateLimits {
  rpm: number;
  tpm: number;
  /** @default 60000 */
  windowMs: number;
  /**
   * Enforce over a shorter period (OpenAI: "60,000 requests/minute may be enforced as 1,000
   * requests/second"): the bucket holds only `limit * quantumMs / windowMs`. @default no quantisation
   */
  quantumMs?: number;
}

/** One window as the headers report it. */
export interface WindowState {
  limit: number;
  remaining: number;
  /** Milliseconds until the window is full again. */
  resetMs: number;
}

/** Both windows, as the rate-limit headers report them. */
export interface LimitSnapshot {
  requests: WindowState;
  tokens: WindowState;
}

/** What the limiter decided for one request, with the numbers the 429 body and headers need. */
export type LimitOutcome =
  | { admitted: true; snapshot: LimitSnapshot }
  | {
      admitted: false;
      /** The window that ran out (the one with the longer wait when both did). */
      window: 'requests' | 'tokens';
      /** The request alone is larger than the token window: no wait will ever admit it. */
      tooLarge: boolean;
      /** Milliseconds until this same request would be admitted. */
      waitMs: number;
      /** How much of the window is in use, in the window's own units (for the error message). */
      used: number;
      requested: number;
      snapshot: LimitSnapshot;
    };

/**
 * RPM and TPM the way the providers enforce them: two continuously refilled buckets, a request
 * charged one request plus its prompt tokens and its `max_tokens` reservation. A rejected request
 * still counts (OpenAI: "unsuccessful requests contribute to your per-minute limit"): it spends what
 * the request bucket holds, up to one request, so hammering through a 429 only pushes the reset back.
 */
export class RateLimiter {
  private readonly requests: TokenBucket;
  private readonly tokens: TokenBucket;

  constructor(private readonly limits: RateLimits, nowMs: number) {
    const scale = limits.quantumMs ? Math.min(1, limits.quantumMs / limits.windowMs) : 1;
    this.requests = new TokenBucket(Math.max(1, limits.rpm * scale), limits.rpm / limits.windowMs, nowMs);
    this.tokens = new TokenBucket(Math.max(1, limits.tpm * scale), limits.tpm / limits.windowMs, nowMs);
  }

  /** Admits or rejects one request that would use `tokens`; either way it is counted. */
  admit(tokens: number, nowMs: number): LimitOutcome {
    const requestsOk = this.requests.has(1, nowMs);
    const tooLarge = tokens > this.tokens.capacity;
    const tokensOk = !tooLarge && this.tokens.has(tokens, nowMs);
    if (requestsOk && tokensOk) {
      this.requests.take(1);
      this.tokens.take(tokens);
      return { admitted: true, snapshot: this.snapshot(nowMs) };
    }
    const usedTokens = this.limits.tpm - Math.floor(this.tokens.available(nowMs) * (this.limits.tpm / this.tokens.capacity));
    this.requests.take(1);
    const requestsWait = this.requests.msUntil(1, nowMs);
    const tokensWait = this.tokens.msUntil(tokens, nowMs);
    const window = !tokensOk && (requestsOk || tokensWait >= requestsWait) ? 'tokens' : 'requests';
    return {
      admitted: false,
      window,
      tooLarge,
      waitMs: tooLarge ? Infinity : Math.max(requestsWait, tokensOk ? 0 : tokensWait),
      used: window === 'requests' ? this.limits.rpm : usedTokens,
      requested: window === 'requests' ? 1 : tokens,
      snapshot: this.snapshot(nowMs),
    };
  }

  /** The windows as they stand, without charging anything. */
  snapshot(nowMs: number): LimitSnapshot {
    return {
      requests: { limit: this.limits.rpm, remaining: Math.floor(this.requests.available(nowMs) + 1e-9), resetMs: this.requests.msUntilFull(nowMs) },
      tokens: { limit: this.limits.tpm, remaining: Math.floor(this.tokens.available(nowMs) + 1e-9), resetMs: this.tokens.msUntilFull(nowMs) },
    };
  }
}
