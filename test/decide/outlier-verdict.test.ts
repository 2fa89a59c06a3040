import { describe, expect, it } from 'vitest';
import {
  MAX_EJECTION_MS, MIN_LATENCY_SAMPLES, MIN_RATE_VOLUME, ejectionMs, ejectionsAfterService, mayEject, medianOfSorted, outlierReason, probeVerdict,
  type MemberRecord, type OutlierPolicy,
} from '../../src/decide/outlier-verdict.js';
import { DEFAULTS } from '../../src/config/defaults.js';

const policy: OutlierPolicy = DEFAULTS.outlier;
const healthy: MemberRecord = { consecutiveFailures: 0, outcomes: 20, failures: 0, p50Ms: 100 };
const peers = { successRate: 1, medianP50Ms: 100 };

describe('outlierReason', () => {
  it('consecutive failures: ejects at consecutiveFailures in a row, not one before', () => {
    expect(outlierReason({ ...healthy, consecutiveFailures: 4 }, peers, policy)).toBeUndefined();
    expect(outlierReason({ ...healthy, consecutiveFailures: 5 }, peers, policy)).toBe('consecutive_failures');
    expect(outlierReason({ ...healthy, consecutiveFailures: 50 }, peers, { ...policy, consecutiveFailures: 0 })).toBeUndefined();
  });

  it('success rate: ejects below successRateBelow times the peers\' rate, relative to them', () => {
    // 15 of 20 (75%) against peers at 100%: under 80% of theirs.
    expect(outlierReason({ ...healthy, failures: 5 }, peers, policy)).toBe('success_rate');
    // 17 of 20 (85%): not under 80%.
    expect(outlierReason({ ...healthy, failures: 3 }, peers, policy)).toBeUndefined();
    // Peers at 50% too (a provider-wide outage): 75% is not an outlier among them.
    expect(outlierReason({ ...healthy, failures: 5 }, { ...peers, successRate: 0.5 }, policy)).toBeUndefined();
    // Too few verdicts, of the member or of its peers, judge nothing.
    expect(outlierReason({ ...healthy, outcomes: MIN_RATE_VOLUME - 1, failures: 4 }, peers, policy)).toBeUndefined();
    expect(outlierReason({ ...healthy, failures: 10 }, { ...peers, successRate: undefined }, policy)).toBeUndefined();
    expect(outlierReason({ ...healthy, failures: 10 }, peers, { ...policy, successRateBelow: 0 })).toBeUndefined();
  });

  it('latency: ejects a p50 above latencyAboveMedianX times the peers\' median p50', () => {
    expect(outlierReason({ ...healthy, p50Ms: 300 }, peers, policy)).toBeUndefined(); // 3x is not above 3x
    expect(outlierReason({ ...healthy, p50Ms: 301 }, peers, policy)).toBe('latency');
    expect(outlierReason({ ...healthy, p50Ms: 250 }, peers, { ...policy, latencyAboveMedianX: 2 })).toBe('latency');
    expect(outlierReason({ ...healthy, p50Ms: undefined }, peers, policy)).toBeUndefined();
    expect(outlierReason({ ...healthy, p50Ms: 1_000 }, { ...peers, medianP50Ms: undefined }, policy)).toBeUndefined();
    expect(outlierReason({ ...healthy, p50Ms: 1_000 }, peers, { ...policy, latencyAboveMedianX: 0 })).toBeUndefined();
    expect(MIN_LATENCY_SAMPLES).toBe(5);
  });
});

describe('probeVerdict', () => {
  it('returns on an answer, ejects again on a failure or a slow answer, decides nothing on a neutral outcome', () => {
    expect(probeVerdict('success', 120, 100, policy)).toBe('return');
    expect(probeVerdict('failure', undefined, 100, policy)).toBe('probe_failed');
    expect(probeVerdict('success', 301, 100, policy)).toBe('probe_slow');
    expect(probeVerdict('success', 301, 100, { ...policy, latencyAboveMedianX: 0 })).toBe('return');
    expect(probeVerdict('neutral', undefined, 100, policy)).toBeUndefined();
  });
});

describe('mayEject', () => {
  it('never ejects every member, always lets one go, and caps at maxEjectedPercent otherwise', () => {
    expect([mayEject(0, 2, 50), mayEject(1, 2, 50)]).toEqual([true, false]);
    expect([mayEject(0, 3, 10), mayEject(1, 3, 10)]).toEqual([true, false]); // 10% of 3 rounds to 0: one may still go (Envoy)
    expect([mayEject(1, 4, 50), mayEject(2, 4, 50)]).toEqual([true, false]);
    expect([mayEject(1, 2, 100), mayEject(2, 3, 100), mayEject(3, 4, 100)]).toEqual([false, false, false]);
  });
});

describe('ejectionMs and ejectionsAfterService', () => {
  it('grows with each ejection, capped at MAX_EJECTION_MS (or ejectMs when longer)', () => {
    expect([1, 2, 3].map((n) => ejectionMs(n, 30_000))).toEqual([30_000, 60_000, 90_000]);
    expect(ejectionMs(20, 30_000)).toBe(MAX_EJECTION_MS);
    expect(ejectionMs(2, 600_000)).toBe(600_000);
  });

  it('forgives one ejection per whole ejectMs served since the last return', () => {
    expect(ejectionsAfterService(3, 29_999, 30_000)).toBe(3);
    expect(ejectionsAfterService(3, 30_000, 30_000)).toBe(2);
    expect(ejectionsAfterService(3, 10 * 30_000, 30_000)).toBe(0);
  });
});

describe('medianOfSorted', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(medianOfSorted([1, 2, 9], 3)).toBe(2);
    expect(medianOfSorted([1, 2, 4, 9], 4)).toBe(3);
    expect(medianOfSorted([1, 5, 100], 2)).toBe(3); // only the first n count
  });
});
