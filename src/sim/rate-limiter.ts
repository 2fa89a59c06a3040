import type { LimitWindow } from './sim-request.js';
import { TokenBucket } from './token-bucket.js';

/** Limits as the providers state them: per minute by default; tests shrink `windowMs`. */
export interface RateLimits {
  rpm: number;
  tpm: number;
  /** Anthropic's input tokens per window (cache reads not charged). No window when unset. */
  itpm?: number;
  /** Anthropic's output tokens per window (charged `max_tokens` up front, refunded down to what was used). No window when unset. */
  otpm?: number;
  /** @default 60000 */
  windowMs: number;
  /**
   * Enforce over a shorter period (OpenAI: "60,000 requests/minute may be enforced as 1,000
   * requests/second"): each bucket holds only `limit * quantumMs / windowMs`. @default no quantisation
   */
  quantumMs?: number;
  /**
   * An account another process has just spent: every bucket is empty when the first request
   * arrives, and refills continuously from then on. @default false (every bucket starts full)
   */
  startEmpty?: boolean;
}

/** One window as the headers report it. */
export interface WindowState {
  limit: number;
  remaining: number;
  /** Milliseconds until the window is full again. */
  resetMs: number;
}

/** The windows, as the rate-limit headers report them (input and output only where they exist). */
export interface LimitSnapshot {
  requests: WindowState;
  tokens: WindowState;
  inputTokens?: WindowState;
  outputTokens?: WindowState;
}

/** What one request costs each token window. */
export interface Charge {
  /** The combined TPM window: prompt plus the output reservation. */
  tokens: number;
  /** The ITPM window: the prompt less cache reads. */
  inputTokens?: number;
  /** The OTPM window: the output reservation (`max_tokens`). */
  outputTokens?: number;
}

/** What the limiter decided for one request, with the numbers the 429 body and headers need. */
export type LimitOutcome =
  | { admitted: true; snapshot: LimitSnapshot }
  | {
      admitted: false;
      /** The window that ran out (the one with the longest wait when several did). */
      window: LimitWindow;
      /** The request alone is larger than that token window: no wait will ever admit it. */
      tooLarge: boolean;
      /** Milliseconds until this same request would be admitted. */
      waitMs: number;
      /** How much of the window is in use, in the window's own units (for the error message). */
      used: number;
      requested: number;
      snapshot: LimitSnapshot;
    };

type TokenWindow = Exclude<LimitWindow, 'requests'>;
const SNAPSHOT_KEY = { tokens: 'tokens', input_tokens: 'inputTokens', output_tokens: 'outputTokens' } as const;

/**
 * RPM and the token windows the way the providers enforce them: continuously refilled buckets, all
 * checked at once; a request is charged one request plus what `Charge` says of each token window. A
 * rejected request still counts (OpenAI: "unsuccessful requests contribute to your per-minute
 * limit"): it spends what the request bucket holds, up to one request, so hammering through a 429
 * only pushes the reset back. Token windows are charged only on admission.
 */
export class RateLimiter {
  private readonly requests: TokenBucket;
  private readonly rpm: number;
  private readonly windows = new Map<TokenWindow, { bucket: TokenBucket; limit: number }>();
  /** `startEmpty` and no request seen yet: the first one empties every bucket. */
  private emptyOnFirst: boolean;

  constructor(limits: RateLimits, nowMs: number) {
    const scale = limits.quantumMs ? Math.min(1, limits.quantumMs / limits.windowMs) : 1;
    const bucket = (limit: number) => new TokenBucket(Math.max(1, limit * scale), limit / limits.windowMs, nowMs);
    this.rpm = limits.rpm;
    this.emptyOnFirst = limits.startEmpty === true;
    this.requests = bucket(limits.rpm);
    this.windows.set('tokens', { bucket: bucket(limits.tpm), limit: limits.tpm });
    if (limits.itpm !== undefined) this.windows.set('input_tokens', { bucket: bucket(limits.itpm), limit: limits.itpm });
    if (limits.otpm !== undefined) this.windows.set('output_tokens', { bucket: bucket(limits.otpm), limit: limits.otpm });
  }

  private amounts(charge: number | Charge): Array<[TokenWindow, number]> {
    const c = typeof charge === 'number' ? { tokens: charge } : charge;
    const out: Array<[TokenWindow, number]> = [['tokens', c.tokens]];
    if (this.windows.has('input_tokens')) out.push(['input_tokens', c.inputTokens ?? c.tokens]);
    if (this.windows.has('output_tokens')) out.push(['output_tokens', c.outputTokens ?? 0]);
    return out;
  }

  /** Admits or rejects one request; either way it is counted against the requests window. */
  admit(charge: number | Charge, nowMs: number): LimitOutcome {
    if (this.emptyOnFirst) {
      this.emptyOnFirst = false;
      this.requests.drain(nowMs);
      for (const { bucket } of this.windows.values()) bucket.drain(nowMs);
    }
    const amounts = this.amounts(charge);
    const requestsOk = this.requests.has(1, nowMs);
    const failing = amounts.filter(([w, n]) => n > this.windows.get(w)!.bucket.capacity || !this.windows.get(w)!.bucket.has(n, nowMs));
    if (requestsOk && failing.length === 0) {
      this.requests.take(1);
      for (const [w, n] of amounts) this.windows.get(w)!.bucket.take(n);
      return { admitted: true, snapshot: this.snapshot(nowMs) };
    }
    const used = new Map(amounts.map(([w]) => {
      const { bucket, limit } = this.windows.get(w)!;
      return [w, limit - Math.floor(bucket.available(nowMs) * (limit / bucket.capacity))] as const;
    }));
    this.requests.take(1);
    const requestsWait = this.requests.msUntil(1, nowMs);
    // The longest wait names the window; on a tie a token window wins over requests.
    let window: LimitWindow = 'requests';
    let best = requestsOk ? -1 : requestsWait;
    let waitMs = requestsWait;
    let tooLarge = false;
    let requested = 1;
    for (const [w, n] of failing) {
      const bucket = this.windows.get(w)!.bucket;
      const wait = bucket.msUntil(n, nowMs);
      if (window === 'requests' ? wait >= best : wait > best) {
        window = w;
        best = wait;
        requested = n;
        tooLarge = n > bucket.capacity;
      }
      waitMs = Math.max(waitMs, wait);
    }
    return {
      admitted: false,
      window,
      tooLarge,
      waitMs: tooLarge ? Infinity : waitMs,
      used: window === 'requests' ? this.rpm : used.get(window)!,
      requested: window === 'requests' ? 1 : requested,
      snapshot: this.snapshot(nowMs),
    };
  }

  /** Gives back what a window was charged and the provider did not use (OTPM: the unused `max_tokens`). */
  refund(window: TokenWindow, amount: number): void {
    this.windows.get(window)?.bucket.give(amount);
  }

  /** The windows as they stand, without charging anything. */
  snapshot(nowMs: number): LimitSnapshot {
    const state = (bucket: TokenBucket, limit: number): WindowState => ({
      limit, remaining: Math.floor(bucket.available(nowMs) + 1e-9), resetMs: bucket.msUntilFull(nowMs),
    });
    const snapshot: LimitSnapshot = { requests: state(this.requests, this.rpm), tokens: state(this.windows.get('tokens')!.bucket, this.windows.get('tokens')!.limit) };
    for (const w of ['input_tokens', 'output_tokens'] as const) {
      const entry = this.windows.get(w);
      if (entry) snapshot[SNAPSHOT_KEY[w]] = state(entry.bucket, entry.limit);
    }
    return snapshot;
  }
}
