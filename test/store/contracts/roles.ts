import { describe, expect, it } from 'vitest';
import type { ShareStore } from '../../../src/store/share-store.js';
import type { BreakerStateStore, CacheStore, ConversationStore, IdempotencyStore, StateStore } from '../../../src/store/state-store.js';
import { roleOf, rolesOf, type OptionalRole, type OptionalRoles } from '../../../src/store/store-roles.js';
import { blockContract } from './block-contract.js';
import { breakerContract } from './breaker-contract.js';
import { budgetContract } from './budget-contract.js';
import { cacheContract } from './cache-contract.js';
import { conversationContract } from './conversation-contract.js';
import { idempotencyContract } from './idempotency-contract.js';
import type { Close, Make } from './kit.js';
import { shareContract } from './share-contract.js';

export { T0 } from './kit.js';

export interface ContractOptions {
  /** The optional roles the store plays, exactly (checked). */
  plays: readonly OptionalRole[];
  /** The optional roles whose contract runs. @default plays */
  contracts?: readonly OptionalRole[];
  /** @default store.close() */
  close?: (store: StateStore) => unknown;
}

/**
 * Runs the contract of every role a store implementation plays: the blocks and budgets every store
 * plays, then each optional role's (idempotency, cache, breaker state, conversations), each from its own file.
 */
export function storeContracts(name: string, makeStore: Make<StateStore>, options: ContractOptions) {
  const close: Close<StateStore> = options.close ?? ((s) => s.close());
  const runs = options.contracts ?? options.plays;
  /** A fresh store, checked to play `role`, typed as it. */
  const playing = <R extends OptionalRole>(role: R) => async (): Promise<StateStore & OptionalRoles[R]> => {
    const store = await makeStore();
    if (!roleOf(store, role)) throw new Error(`${name} does not play the ${role} role`);
    return store as StateStore & OptionalRoles[R];
  };

  describe(`${name}: its roles`, () => {
    it(`plays ${options.plays.length > 0 ? `the optional roles ${options.plays.join(', ')}` : 'no optional role'}, each whole`, async () => {
      const store = await makeStore();
      expect(rolesOf(store)).toEqual(options.plays);
      await close(store);
    });
  });
  blockContract(name, makeStore, close);
  budgetContract(name, makeStore, close);
  if (runs.includes('idempotency')) idempotencyContract<StateStore & IdempotencyStore>(name, playing('idempotency'), close);
  if (runs.includes('cache')) cacheContract<StateStore & CacheStore>(name, playing('cache'), close);
  if (runs.includes('breakers')) breakerContract<StateStore & BreakerStateStore>(name, playing('breakers'), close);
  if (runs.includes('conversations')) conversationContract<StateStore & ConversationStore>(name, playing('conversations'), close);
  if (runs.includes('shares')) shareContract<StateStore & ShareStore>(name, playing('shares'), close);
}
