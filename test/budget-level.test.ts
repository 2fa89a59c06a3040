import { describe, expect, it } from 'vitest';
import { BudgetLevel } from '../src/policy/admission/budget-level.js';
import { paced } from '../src/policy/admission/pacing.js';

const T0 = 1_000_000;
const one = { input: 100, output: 50 };

describe('BudgetLevel', () => {
  it('is undefined for a budget without request or token limits', () => {
    expect(BudgetLevel.of(paced({ concurrency: 4 }))).toBeUndefined();
  });

  it('shows the room a paced rpm has left after what this process took, refilling at its rate', () => {
    const level = BudgetLevel.of(paced({ rpm: 60 }))!; // a burst of 10 requests, one back a second
    expect(level.share(T0)).toBeUndefined(); // nothing taken yet: all of it
    for (let i = 0; i < 5; i++) level.took(one, T0);
    expect(level.share(T0)).toBeCloseTo(0.5);
    for (let i = 0; i < 5; i++) level.took(one, T0);
    expect(level.share(T0)).toBe(0);
    expect(level.share(T0 + 1_000)).toBeCloseTo(0.1);
  });

  it('gets back what an attempt that was not sent took, never past the burst', () => {
    const level = BudgetLevel.of(paced({ rpm: 60, tpm: 60_000 }))!;
    for (let i = 0; i < 4; i++) level.took(one, T0);
    expect(level.share(T0)).toBeCloseTo(0.6);
    for (let i = 0; i < 4; i++) level.gaveBack(one);
    expect(level.share(T0)).toBeCloseTo(1);
    level.took(one, T0);
    level.gaveBack(one);
    level.gaveBack(one); // more than was taken: the bucket stays at its burst
    expect(level.share(T0)).toBeCloseTo(1);
  });

  it('takes the emptiest of its limits', () => {
    const level = BudgetLevel.of(paced({ rpm: 6_000, tpm: 60_000 }))!; // bursts: 100 requests, 1,000 tokens
    level.took(one, T0);
    expect(level.share(T0)).toBeCloseTo(0.85);
  });

  it('empties a limit the store refused for, whatever this process counted (others share the budget)', () => {
    const level = BudgetLevel.of(paced({ rpm: 60, tpm: 60_000 }))!;
    level.refused('rpm', T0);
    expect(level.share(T0)).toBe(0);
    level.refused('concurrency', T0 + 1_000); // not a paced limit: nothing to empty
    expect(level.share(T0 + 1_000)).toBeCloseTo(0.1);
  });
});
