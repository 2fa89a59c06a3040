import { RouterError } from '../errors.js';
import type { BreakerStateStore } from './breaker-state.js';
import type { CacheStore } from './cache-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { ShareStore } from './share-store.js';
import type { SpendStore } from './spend-store.js';
import type { StateStore } from './state-store.js';

/**
 * The roles a store may play beyond the ones every store plays (lifecycle, blocks, budgets), by
 * name. A feature that needs one finds it with `roleOf(store, name)`, and does without it or fails
 * clearly when the store does not play it. A new role is an entry here, its members in
 * ROLE_MEMBERS, and a `Partial<>` of it in StateStore; no other role changes.
 */
export interface OptionalRoles {
  idempotency: IdempotencyStore;
  cache: CacheStore;
  breakers: BreakerStateStore;
  conversations: ConversationStore;
  spend: SpendStore;
  shares: ShareStore;
}

export type OptionalRole = keyof OptionalRoles;

/** The members of each optional role: a store plays the role when it has every one. */
export const ROLE_MEMBERS = Object.freeze({
  idempotency: ['claimIdempotency', 'completeIdempotency', 'abandonIdempotency', 'readIdempotency'],
  cache: ['readCached', 'writeCached'],
  breakers: ['readBreaker', 'openBreaker', 'closeBreaker', 'takeProbe'],
  conversations: ['readConversation', 'writeConversation'],
  spend: ['reserveSpend', 'settleSpend', 'readSpend'],
  shares: ['syncShares'],
} as const) satisfies { readonly [R in OptionalRole]: ReadonlyArray<keyof OptionalRoles[R]> };

// A member added to a role's interface but not to ROLE_MEMBERS fails to compile here.
type Unlisted = { [R in OptionalRole]: Exclude<keyof OptionalRoles[R], (typeof ROLE_MEMBERS)[R][number]> }[OptionalRole];
const EVERY_MEMBER_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;
void EVERY_MEMBER_LISTED;

/** The members of the roles every store plays, by role (for `checkStore`'s messages). */
const REQUIRED_MEMBERS = Object.freeze({
  lifecycle: ['close'],
  blocks: ['getBlock', 'setBlock'],
  budgets: ['acquireBudget', 'releaseBudget', 'settleBudget'],
} as const) satisfies Readonly<Record<string, ReadonlyArray<keyof StateStore>>>;

const hasMember = (store: object, member: string) => typeof (store as Record<string, unknown>)[member] === 'function';

/**
 * `store` as the role `role`, when it plays it (has every member); else undefined.
 * @example const cache = roleOf(store, 'cache'); // CacheStore | undefined
 */
export function roleOf<R extends OptionalRole>(store: StateStore, role: R): OptionalRoles[R] | undefined {
  return ROLE_MEMBERS[role].every((m) => hasMember(store, m)) ? (store as unknown as OptionalRoles[R]) : undefined;
}

/** The optional roles `store` plays, in ROLE_MEMBERS' order. */
export function rolesOf(store: StateStore): OptionalRole[] {
  return (Object.keys(ROLE_MEMBERS) as OptionalRole[]).filter((role) => roleOf(store, role) !== undefined);
}

/**
 * Gives `target` every member of `role`, each calling `impl`'s: how a store that wraps another
 * (FallbackStore) plays exactly the optional roles of the store it wraps.
 */
export function lendRole<R extends OptionalRole>(target: object, role: R, impl: OptionalRoles[R]): void {
  const members = impl as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const member of ROLE_MEMBERS[role]) {
    Object.defineProperty(target, member, { value: members[member]!.bind(impl), configurable: true, writable: true });
  }
}

/**
 * Checks that a store passed to `createRouter` plays the roles every store must, and each optional
 * role whole or not at all (half a role is a mistake, not a choice); throws a `config` error
 * naming what is missing.
 */
export function checkStore(store: unknown): asserts store is StateStore {
  if (typeof store !== 'object' || store === null) throw new RouterError('config', 'options.store must be a state store object (see docs/architecture.md, "The store roles")');
  const problems: string[] = [];
  for (const [role, members] of Object.entries(REQUIRED_MEMBERS)) {
    const lacks = members.filter((m) => !hasMember(store, m));
    if (lacks.length > 0) problems.push(`it lacks ${lacks.join(', ')} (the ${role} role every store plays: ${members.join(', ')})`);
  }
  if (typeof (store as { shared?: unknown }).shared !== 'boolean') problems.push('its `shared` is not a boolean (true when other processes share it)');
  for (const [role, members] of Object.entries(ROLE_MEMBERS)) {
    const has = members.filter((m) => hasMember(store, m));
    if (has.length > 0 && has.length < members.length) {
      problems.push(`it has ${has.join(', ')} but not ${members.filter((m) => !has.includes(m)).join(', ')} (the ${role} role is played whole or not at all)`);
    }
  }
  if (problems.length > 0) throw new RouterError('config', `options.store is not a usable state store: ${problems.join('; ')}`);
}
