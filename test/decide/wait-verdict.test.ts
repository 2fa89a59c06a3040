import { describe, expect, it } from 'vitest';
import { waitVerdict } from '../../src/decide/wait-verdict.js';

describe('waitVerdict: wait for a cooling target, or fail now', () => {
  it('waits for a lone target cooling 900 ms under a 5 s queue limit', () => {
    expect(waitVerdict([{ index: 0, availableInMs: 900, maxQueueMs: 5_000 }], undefined)).toEqual({ wait: true, index: 0, forMs: 900 });
  });

  it('fails at once when the cooling outlasts the queue limit, saying when the target is back', () => {
    expect(waitVerdict([{ index: 0, availableInMs: 900, maxQueueMs: 500 }], undefined)).toEqual({ wait: false, soonestMs: 900 });
  });

  it('fails at once when the deadline comes first, even within the queue limit', () => {
    expect(waitVerdict([{ index: 0, availableInMs: 900, maxQueueMs: 5_000 }], 900)).toEqual({ wait: false, soonestMs: 900 });
    expect(waitVerdict([{ index: 0, availableInMs: 900, maxQueueMs: 5_000 }], 901)).toEqual({ wait: true, index: 0, forMs: 900 });
  });

  it('waits for the soonest target that fits its own limit; ties go to the earlier one', () => {
    const blocked = [
      { index: 0, availableInMs: 3_000, maxQueueMs: 5_000 },
      { index: 1, availableInMs: 200, maxQueueMs: 100 },
      { index: 2, availableInMs: 1_000, maxQueueMs: 5_000 },
      { index: 3, availableInMs: 1_000, maxQueueMs: 5_000 },
    ];
    expect(waitVerdict(blocked, undefined)).toEqual({ wait: true, index: 2, forMs: 1_000 });
  });

  it('with nothing cooling there is nothing to wait for', () => {
    expect(waitVerdict([], undefined)).toEqual({ wait: false });
  });
});
