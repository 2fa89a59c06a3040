import { describe, expect, it } from 'vitest';
import { LatencyAverage } from '../../src/policy/state/latency-tracker.js';

// What a latency pool's member counts of its requests still out: how many, and how long they have
// waited on average (src/policy/steps/send-attempt.ts pairs sent() and answered() in a finally).
describe('a latency average of requests awaiting their answer', () => {
  it('reports the mean wait of the requests out, and none once every one has ended', () => {
    const avg = new LatencyAverage();
    expect(avg.awaitingAgeMs(1_000)).toBe(0);
    avg.sent(1_000);
    avg.sent(1_400);
    expect(avg.awaiting).toBe(2);
    // At 2,000: one has waited 1,000 ms, the other 600.
    expect(avg.awaitingAgeMs(2_000)).toBe(800);
    avg.answered(1_000);
    expect(avg.awaitingAgeMs(2_000)).toBe(600);
    avg.answered(1_400);
    expect([avg.awaiting, avg.awaitingAgeMs(9_000)]).toEqual([0, 0]);
  });

  it('starts its sum afresh at none, so fractional send times leave no residue', () => {
    const avg = new LatencyAverage();
    for (let i = 0; i < 1_000; i++) {
      const at = 1_765_000_000_000 + i * 0.1;
      avg.sent(at);
      avg.sent(at + 0.3);
      avg.answered(at);
      avg.answered(at + 0.3);
    }
    avg.sent(2_000_000_000_000);
    expect(avg.awaitingAgeMs(2_000_000_000_250)).toBe(250);
  });
});
