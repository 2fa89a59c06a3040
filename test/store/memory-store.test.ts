import { MemoryStore } from '../../src/store/memory-store.js';
import { storeContracts } from './contracts/roles.js';

storeContracts('MemoryStore', () => new MemoryStore(), { plays: ['idempotency', 'breakers', 'spend'] });

import { describe, expect, it } from 'vitest';

describe('MemoryStore housekeeping', () => {
  it('forgets idle budgets, so caller-supplied tenant keys cannot grow it without bound', () => {
    const store = new MemoryStore();
    const T0 = 1_800_000_000_000;
    for (let i = 0; i < 5000; i++) store.acquireBudget({ key: `tenant:${i}`, limits: { rpm: 5 }, tokens: 1, leaseId: `l${i}`, leaseTtlMs: 1000 }, T0);
    for (let i = 0; i < 1024; i++) store.acquireBudget({ key: 'target', limits: { rpm: 1e6 }, tokens: 1, leaseId: `t${i}`, leaseTtlMs: 1000 }, T0 + 61_000);
    expect((store as unknown as { budgets: { windows: Map<string, unknown> } }).budgets.windows.size).toBeLessThan(10);
  });
});
