import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/sim/rate-limiter.js';
import { TokenBucket } from '../../src/sim/token-bucket.js';

const T0 = 1_000_000;

describe('TokenBucket', () => {
  it('starts full, refills continuously and never beyond its capacity', () => {
    const bucket = new TokenBucket(10, 10 / 60_000, T0);
    expect(bucket.available(T0)).toBe(10);
    bucket.take(10);
    expect(bucket.available(T0 + 6_000)).toBeCloseTo(1);
    expect(bucket.available(T0 + 600_000)).toBe(10);
  });

  it('says exactly how long until an amount fits, and Infinity when it never can', () => {
    const bucket = new TokenBucket(10_000, 10_000 / 60_000, T0);
    bucket.take(10_000 - 652); // "Limit 10000, Used 9348"
    expect(bucket.msUntil(5086, T0)).toBe(26_604); // "Please try again in 26.604s"
    expect(bucket.msUntil(10_001, T0)).toBe(Infinity);
    expect(bucket.has(5086, T0 + 26_604)).toBe(true);
  });
});

describe('RateLimiter', () => {
  it('admits exactly rpm requests in a burst, then rejects with the wait until one more fits', () => {
    const limiter = new RateLimiter({ rpm: 3, tpm: 1_000_000, windowMs: 60_000 }, T0);
    for (let i = 0; i < 3; i++) expect(limiter.admit(10, T0).admitted).toBe(true);
    const rejected = limiter.admit(10, T0);
    expect(rejected).toMatchObject({ admitted: false, window: 'requests', waitMs: 20_000, used: 3, requested: 1, tooLarge: false });
    expect(rejected.snapshot.requests).toEqual({ limit: 3, remaining: 0, resetMs: 60_000 });
    expect(limiter.admit(10, T0 + 20_000).admitted).toBe(true);
  });

  it('counts a rejected request: retrying early pushes the next admission back', () => {
    const patient = new RateLimiter({ rpm: 2, tpm: 1_000_000, windowMs: 60_000 }, T0);
    const eager = new RateLimiter({ rpm: 2, tpm: 1_000_000, windowMs: 60_000 }, T0);
    for (const limiter of [patient, eager]) {
      limiter.admit(1, T0);
      limiter.admit(1, T0);
    }
    expect(eager.admit(1, T0 + 20_000).admitted).toBe(false); // spends the 2/3 of a request refilled so far
    expect(patient.admit(1, T0 + 30_000).admitted).toBe(true);
    expect(eager.admit(1, T0 + 30_000).admitted).toBe(false);
    expect(eager.admit(1, T0 + 60_000).admitted).toBe(true);
  });

  it('charges tokens and names the tokens window when that is what ran out', () => {
    const limiter = new RateLimiter({ rpm: 100, tpm: 1_000, windowMs: 60_000 }, T0);
    expect(limiter.admit(900, T0).admitted).toBe(true);
    const rejected = limiter.admit(200, T0);
    expect(rejected).toMatchObject({ admitted: false, window: 'tokens', requested: 200, used: 900, waitMs: 6_000 });
    expect(rejected.snapshot.tokens.remaining).toBe(100);
    expect(rejected.snapshot.requests.remaining).toBe(98); // the rejected request still counted
  });

  it('flags a request larger than the whole token window as too large, never admissible', () => {
    const limiter = new RateLimiter({ rpm: 100, tpm: 1_000, windowMs: 60_000 }, T0);
    expect(limiter.admit(1_001, T0)).toMatchObject({ admitted: false, tooLarge: true, window: 'tokens', waitMs: Infinity });
  });

  it('enforces a quantised limit over its quantum: 600 RPM as 10 per second', () => {
    const limiter = new RateLimiter({ rpm: 600, tpm: 1_000_000, windowMs: 60_000, quantumMs: 1_000 }, T0);
    let admitted = 0;
    for (let i = 0; i < 30; i++) if (limiter.admit(1, T0).admitted) admitted++;
    expect(admitted).toBe(10);
    expect(limiter.snapshot(T0).requests.limit).toBe(600);
    expect(limiter.admit(1, T0 + 100).admitted).toBe(true);
  });
});
