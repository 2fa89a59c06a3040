import { describe, expect, it } from 'vitest';
import { pickFault } from '../../src/sim/faults.js';
import type { FaultRule } from '../../src/sim/options.js';
import { mulberry32 } from '../../src/sim/random.js';

const ctx = (over: Partial<{ n: number; elapsedMs: number; model: string; stream: boolean }> = {}) => ({ n: 1, elapsedMs: 0, model: 'm', stream: false, ...over });

describe('pickFault', () => {
  it('fires a rule without probability on every request it applies to', () => {
    const rules: FaultRule[] = [{ fault: 'unavailable', fromMs: 1000, untilMs: 2000 }];
    expect(pickFault(rules, ctx({ elapsedMs: 999 }), 0)).toBeUndefined();
    expect(pickFault(rules, ctx({ elapsedMs: 1000 }), 0.99)?.fault).toBe('unavailable');
    expect(pickFault(rules, ctx({ elapsedMs: 2000 }), 0)).toBeUndefined();
  });

  it('matches the Nth request, a list of them, a model and streaming', () => {
    expect(pickFault([{ fault: 'reset', nth: 3 }], ctx({ n: 3 }), 0.5)?.fault).toBe('reset');
    expect(pickFault([{ fault: 'reset', nth: 3 }], ctx({ n: 4 }), 0.5)).toBeUndefined();
    expect(pickFault([{ fault: 'hang', nth: [2, 5] }], ctx({ n: 5 }), 0.5)?.fault).toBe('hang');
    expect(pickFault([{ fault: 'hang', model: 'a' }], ctx({ model: 'b' }), 0)).toBeUndefined();
    expect(pickFault([{ fault: 'stream_cut', stream: true }], ctx({ stream: false }), 0)).toBeUndefined();
  });

  it('stacks probabilities so each rule fails its own share and a request meets at most one', () => {
    const rules: FaultRule[] = [{ fault: 'server_error', probability: 0.1 }, { fault: 'reset', probability: 0.2 }];
    const random = mulberry32(3);
    const counts: Record<string, number> = { server_error: 0, reset: 0, none: 0 };
    for (let i = 0; i < 20_000; i++) counts[pickFault(rules, ctx(), random())?.fault ?? 'none']!++;
    expect(counts.server_error! / 20_000).toBeCloseTo(0.1, 1);
    expect(counts.reset! / 20_000).toBeCloseTo(0.2, 1);
    expect(pickFault(rules, ctx(), 0.05)?.fault).toBe('server_error');
    expect(pickFault(rules, ctx(), 0.25)?.fault).toBe('reset');
    expect(pickFault(rules, ctx(), 0.31)).toBeUndefined();
  });
});
