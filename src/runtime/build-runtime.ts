import { createAdapter } from '../../providers/index.js';
import type { ProviderAdapter } from '../../providers/types.js';
import { ResponseCache } from '../cache/response-cache.js';
import { cacheBackend } from '../cache/store-cache.js';
import type { ResolvedConfig } from '../config/index.js';
import { providerSecrets, urlPassword } from '../config/secret-fields.js';
import { RouterError } from '../errors.js';
import { EventHub } from '../observe/events.js';
import { createLogger, type Logger } from '../observe/logger.js';
import { secretRedactor } from '../observe/redact.js';
import { AbortLink } from '../policy/abort/abort-link.js';
import { ActiveCalls } from '../policy/state/active-calls.js';
import { Admission } from '../policy/admission/admission.js';
import { Breakers } from '../policy/breaker/breakers.js';
import { FleetShares } from '../policy/admission/fleet-shares.js';
import { Hedging } from '../policy/chain/hedge-book.js';
import { Idempotency } from '../policy/idempotency/idempotency.js';
import { PoolOrder } from '../policy/chain/pool-order.js';
import { Spend } from '../policy/spend/spend-budgets.js';
import { StallGuard } from '../policy/abort/stall-guard.js';
import { buildTargets } from '../policy/state/target-runtime.js';
import { Tenants } from '../policy/state/tenants.js';
import { withFallback } from '../store/fallback-store.js';
import { memoryStore } from '../store/memory-store.js';
import { redisStore } from '../store/redis-store.js';
import type { StateStore } from '../store/state-store.js';
import { checkStore, roleOf } from '../store/store-roles.js';
import { systemClock } from '../time/system-clock.js';
import type { Clock } from '../types.js';
import type { Runtime } from './runtime.js';

/** What `createRouter` may be given beside the config (RouterOptions, all optional). */
export interface RuntimeOptions {
  logger?: Logger;
  clock?: Clock;
  random?: () => number;
  store?: StateStore;
}

/** Everything a router builds once: the Runtime its calls are handed, and what only the router itself uses. */
export interface RouterParts {
  rt: Runtime;
  adapters: Map<string, ProviderAdapter>;
  /** The state store, behind its breaker when shared, every role it plays. */
  store: StateStore;
  breakers: Breakers;
  tenants: Tenants;
  pools: PoolOrder;
  cache?: ResponseCache;
  idempotency: Idempotency;
  fleet?: FleetShares;
  closer: AbortLink;
}

/** Builds a router's services from its resolved config, in the order they depend on each other. */
export function buildRuntime(resolved: ResolvedConfig, options: RuntimeOptions): RouterParts {
  const logger = options.logger ?? createLogger(resolved.log.level);
  const clock = options.clock ?? systemClock;
  const events = new EventHub((event, err) => logger.warn({ event, err: String(err) }, 'event listener threw'));
  if (options.store !== undefined) checkStore(options.store);
  // A shared store sits behind a breaker of its own: calls go on without it (or fail at once) while it is down.
  const redis = resolved.store.type === 'redis' ? resolved.store : undefined;
  const store = withFallback(options.store
    ?? (redis ? redisStore(redis.url, { keyPrefix: redis.keyPrefix }) : memoryStore({ maxConversations: resolved.gateway.responses.maxEntries })), {
    clock, logger, onUnavailable: redis?.onUnavailable, failoverMs: redis?.failoverMs,
    onStateChange: (change) => events.emit('store', change),
  });
  const breakers = new Breakers(resolved.breaker, clock, (key, state, by, openedBy) => {
    logger.warn({ breaker: key, state, callId: by?.id, ...(openedBy ? { openedBy } : {}) }, `circuit ${state === 'halfOpen' ? 'half-open' : state}`);
    if (!events.has('breaker')) return;
    const facts = { key, state, ...(openedBy ? { openedBy } : {}) };
    events.emit('breaker', by ? Object.assign({}, facts, { callId: by.id, tenant: by.tenant.name, chain: by.chain, operation: by.operation }) : facts);
  }, store.shared ? roleOf(store, 'breakers') : undefined);
  const adapters = new Map<string, ProviderAdapter>();
  for (const provider of Object.values(resolved.providers)) adapters.set(provider.name, createAdapter({ provider, clock, logger, redact: secretRedactor(providerSecrets(provider)) }));
  const closer = new AbortLink();
  const tenants = new Tenants(resolved.tenants);
  // Tenants' shares across the fleet, with a shared store that plays the role (Redis) and tenants
  // configured (without any, every call is the default tenant: there is nothing to share out).
  const shareStore = store.shared && Object.keys(resolved.tenants).length > 0 ? roleOf(store, 'shares') : undefined;
  const fleet = shareStore ? new FleetShares(shareStore, clock, (name) => tenants.resolve(name).share, logger) : undefined;
  const rt: Runtime = {
    config: resolved, chains: buildTargets(resolved, adapters, breakers, { clock, events, logger }), clock, events, logger, store,
    admission: new Admission(store, clock, closer, (err) => logger.warn({ err: String(err) }, 'state store failed while settling a lease: the answer stands, the lease expires by its TTL'), fleet),
    spend: new Spend(resolved, roleOf(store, 'spend'), clock, events, logger),
    closing: closer,
    active: new ActiveCalls(),
    hedging: new Hedging(resolved.hedges),
    stallGuard: new StallGuard(clock),
    random: options.random ?? Math.random,
    retryPolicy: Object.assign({}, resolved.retry, { parkMs: resolved.quota.parkMs }),
    // Keys, header and query values (where credentials go), the Redis password: none reaches an error.
    redact: secretRedactor([...Object.values(resolved.providers).flatMap(providerSecrets), redis ? urlPassword(redis.url) : undefined]),
  };
  return {
    rt, adapters, store, breakers, tenants, closer, fleet,
    pools: new PoolOrder(rt.random),
    cache: resolved.cache ? new ResponseCache(cacheBackend(store, resolved.cache.maxEntries), resolved.cache.ttlMs, clock, logger) : undefined,
    idempotency: new Idempotency(roleOf(store, 'idempotency'), clock, resolved.idempotency.ttlMs, resolved.idempotency.pendingTtlMs),
  };
}

/**
 * Closes what `buildRuntime` built: every wait and abortable attempt ends now; a plain attempt
 * already on the wire finishes (within its provider's timeoutMs) and nothing starts after it.
 */
export async function shutdown(parts: RouterParts): Promise<void> {
  parts.closer.abort(new RouterError('aborted', 'router closed'));
  await parts.rt.active.drained();
  parts.breakers.shutdown();
  parts.fleet?.close();
  parts.rt.stallGuard.stop();
  parts.rt.events.clear();
  await Promise.all([...parts.adapters.values()].map((a) => a.close()));
  await parts.cache?.close();
  await parts.store.close();
}
