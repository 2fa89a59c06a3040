import { describe, expect, it } from 'vitest';
import { nextCacheShare, reconcileTokens, refusedTokens, reserveTokens } from '../../src/decide/token-reservation.js';

describe('what an attempt reserves in its token windows', () => {
  it('reserves the prompt plus the output for TPM, the prompt for ITPM and the output for OTPM', () => {
    expect(reserveTokens(600, 400, undefined)).toEqual({ tokens: 1000, inputTokens: 600, outputTokens: 400 });
  });

  it('reserves less ITPM by the share the prompt cache lately served, and the whole prompt for TPM', () => {
    expect(reserveTokens(600, 400, 0.75)).toEqual({ tokens: 1000, inputTokens: 150, outputTokens: 400 });
  });
});

describe('how the usage billed reconciles a reservation', () => {
  const reserved = reserveTokens(600, 400, undefined);

  it('gives all of it back for a request answered 429 (a rate limiter charges a refused request no tokens)', () => {
    expect(refusedTokens(reserveTokens(600, 400, 0.75))).toEqual({ tokens: -1000, inputTokens: -150, outputTokens: -400 });
  });

  it('charges TPM what the estimate missed', () => {
    expect(reconcileTokens(reserved, { tpm: 60_000 }, { inputTokens: 900, outputTokens: 300 })).toEqual({ tokens: 200, inputTokens: 0, outputTokens: 0 });
  });

  it('never refunds TPM for an over-estimate (OpenAI counted the reservation too)', () => {
    expect(reconcileTokens(reserved, { tpm: 60_000 }, { inputTokens: 500, outputTokens: 100 })).toBeUndefined();
  });

  it('gives back the cached input and the unwritten output to ITPM and OTPM', () => {
    const delta = reconcileTokens(reserved, { itpm: 30_000, otpm: 12_000 }, { inputTokens: 600, cachedInputTokens: 450, outputTokens: 225 });
    expect(delta).toEqual({ tokens: 0, inputTokens: -450, outputTokens: -175 });
  });

  it('charges OTPM for output written beyond the reservation', () => {
    expect(reconcileTokens(reserved, { otpm: 12_000 }, { inputTokens: 600, outputTokens: 450 })).toEqual({ tokens: 0, inputTokens: 0, outputTokens: 50 });
  });

  it('leaves OTPM alone when the answer reported no output (embeddings)', () => {
    expect(reconcileTokens(reserveTokens(100, 0, undefined), { otpm: 12_000, itpm: 30_000 }, { inputTokens: 100 })).toBeUndefined();
  });
});

describe("a target's learned prompt-cache share", () => {
  it('starts at the first answer and then follows answers by an eighth', () => {
    const first = nextCacheShare(undefined, { inputTokens: 1000, cachedInputTokens: 800 });
    expect(first).toBe(0.8);
    expect(nextCacheShare(first, { inputTokens: 1000, cachedInputTokens: 0 })).toBeCloseTo(0.7);
  });

  it('is unchanged by an answer without input', () => {
    expect(nextCacheShare(0.5, { inputTokens: 0 })).toBe(0.5);
  });
});
