import { MemoryStore } from '../../src/store/memory-store.js';
import { storeContracts } from './contracts/roles.js';

storeContracts('MemoryStore', () => new MemoryStore(), { plays: ['idempotency', 'breakers', 'conversations', 'spend'] });

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

describe('MemoryStore conversations', () => {
  const T0 = 1_800_000_000_000;

  it('keeps at most maxConversations, forgetting the least recently read first', () => {
    const store = new MemoryStore({ maxConversations: 2 });
    store.writeConversation('t:a', 'A', 60_000, T0);
    store.writeConversation('t:b', 'B', 60_000, T0);
    expect(store.readConversation('t:a', T0 + 1)).toBe('A');
    store.writeConversation('t:c', 'C', 60_000, T0 + 2);
    expect([store.readConversation('t:a', T0 + 3), store.readConversation('t:b', T0 + 3), store.readConversation('t:c', T0 + 3)]).toEqual(['A', undefined, 'C']);
  });

  it('forgets a conversation once its time to live has passed', () => {
    const store = new MemoryStore();
    store.writeConversation('t:a', 'A', 1_000, T0);
    expect(store.readConversation('t:a', T0 + 999)).toBe('A');
    expect(store.readConversation('t:a', T0 + 1_000)).toBeUndefined();
  });
});
