import type { ProviderAdapter, ThinkingTraits } from '../../../providers/types.js';
import { capabilitiesOf, type Capabilities } from './capabilities.js';
import { DEFAULTS, STREAM_LEASE_TTL_MS } from '../../config/defaults.js';
import type { ResolvedConfig, ResolvedProvider, Target } from '../../config/index.js';
import { shadowChainName } from '../../config/shadow-config.js';
import type { BudgetLimits } from '../../store/state-store.js';
import type { RateLimitSnapshot } from '../../types.js';
import type { AdaptiveThrottle } from '../breaker/adaptive-throttle.js';
import { RetryWindow } from '../breaker/retry-window.js';
import { BudgetLevel } from '../admission/budget-level.js';
import type { Budget } from '../admission/budget.js';
import type { Breakers } from '../breaker/breakers.js';
import type { CircuitBreaker } from '../breaker/circuit-breaker.js';
import { paced } from '../admission/pacing.js';
import { tokenCounter, type TokenCounter } from './tokenizers.js';
import { LatencyTracker } from './latency-tracker.js';
import { OutlierPool, type OutlierMember } from '../outlier/outlier-pool.js';
import type { EventHub } from '../../observe/events.js';
import type { Logger } from '../../observe/logger.js';
import type { Clock } from '../../types.js';

/**
 * One rate-limited endpoint of a target: providers count chat and embeddings on separate counters,
 * so each has its own budget and its own cooling (a 429 on embeddings never cools chat).
 */
export interface Endpoint {
  budget: Budget;
  /** The store key that keeps this endpoint out of rotation until its rate limit resets. */
  coolingKey: string;
  /** What this process knows of the endpoint's load right now, for pools to pick by headroom. */
  load: EndpointLoad;
  /** How fast the endpoint answers, kept only when it is a member of a `pick: 'latency'` pool. */
  latency?: LatencyTracker;
}

/** Requests in flight from this process, the room its local budget has left, and the headroom the provider last reported. */
export interface EndpointLoad {
  inflight: number;
  /** The paced budget's room as this process sees it (none without `rpm`/`tpm`/`itpm`/`otpm`). */
  level?: BudgetLevel;
  reported?: RateLimitSnapshot;
  reportedAtMs?: number;
}

/**
 * Everything one chain target needs for the life of the router, resolved once when it is built: no
 * call looks up `config.providers[...]` or builds a map entry on its path.
 */
export interface TargetRuntime {
  readonly target: Target;
  readonly provider: ResolvedProvider;
  readonly adapter: ProviderAdapter;
  /** Shared by every target of the provider (or this target alone, with breaker scope `target`). */
  readonly breaker: CircuitBreaker;
  readonly throttle: AdaptiveThrottle;
  /** First attempts and retries over the last 10 s, for the retry budget (shared by targets of one `provider:model`). */
  readonly retryWindow: RetryWindow;
  readonly chat: Endpoint;
  readonly embeddings: Endpoint;
  /** The store key that parks the whole provider after a quota or billing error (billing is per account). */
  readonly parkedKey: string;
  /** Per attempt; for a stream, also the longest gap between chunks. */
  readonly attemptTimeoutMs: number;
  /** Streams: abandon this target when nothing visible came by then (a call's own value overrides). */
  readonly firstTokenTimeoutMs?: number;
  /** How long a call may queue for room in this target's budgets before skipping it. */
  readonly maxQueueMs: number;
  /** A plain call's concurrency slot is reclaimed after this if its process died holding it. */
  readonly leaseTtlMs: number;
  /** A stream's (it has no overall bound, only an idle one). */
  readonly streamLeaseTtlMs: number;
  /** A count for one estimate, the way this provider's limiter charges (only asked when a TPM budget needs it). */
  readonly tokenCount: TokenCounter;
  /** Output tokens a call without `maxTokens` reserves against TPM. */
  readonly reserveOutputTokens: number;
  /** What requests this target can carry (tools, images, files, JSON schemas, embeddings). */
  readonly capabilities: Capabilities;
  /** A member of a pool with `outlier`: its ejection state in that pool (undefined elsewhere). */
  readonly outlier: OutlierMember | undefined;
  /** How the model thinks, read once from its adapter (src/decide/thinking-budget.ts sizes the budget from it); undefined when it does not. */
  readonly thinking?: ThinkingTraits;
}

/** What the pools' outlier state reads: the clock, and where ejections are reported. */
export interface OutlierDeps {
  readonly clock: Clock;
  readonly events: EventHub;
  readonly logger: Logger;
}

/** The limits of a target for chat: its provider's `limits`, with that model's overrides, paced. */
function chatLimits(provider: ResolvedProvider, model: string): BudgetLimits {
  const limits = provider.limits ?? {};
  const own = limits.models && Object.hasOwn(limits.models, model) ? limits.models[model]! : {};
  return paced({
    rpm: own.rpm ?? limits.rpm, tpm: own.tpm ?? limits.tpm, itpm: own.itpm ?? limits.itpm, otpm: own.otpm ?? limits.otpm,
    concurrency: own.concurrency ?? limits.concurrency, windowMs: limits.windowMs,
  }, limits.burstMs);
}

/** The limits of a target for embeddings: `limits.embeddings`, counted apart from chat, paced. */
function embeddingLimits(provider: ResolvedProvider): BudgetLimits {
  const limits = provider.limits ?? {};
  const own = limits.embeddings ?? {};
  return paced({ rpm: own.rpm, tpm: own.tpm, concurrency: own.concurrency, windowMs: limits.windowMs }, limits.burstMs);
}

/**
 * Builds the runtime of every chain target. Targets naming the same `provider:model` share one
 * budget and cooling key per endpoint; targets of one provider share its breaker (or not, with
 * breaker scope `target`).
 */
export function buildTargets(config: ResolvedConfig, adapters: ReadonlyMap<string, ProviderAdapter>, breakers: Breakers, outliers?: OutlierDeps): Map<string, TargetRuntime[]> {
  // Only pool members are ordered by their local budget's level, so only they pay for keeping it.
  const pooled = new Set(Object.values(config.chains).flatMap((targets) => targets.filter((t) => t.pool).map((t) => t.key)));
  // Only members of a latency pool are timed, so only they pay for it.
  const timed = new Set(Object.values(config.chains).flatMap((targets) => targets.filter((t) => t.pool?.pick === 'latency').map((t) => t.key)));
  const endpoints = new Map<string, Endpoint>();
  const endpoint = (key: string, member: string, limits: () => BudgetLimits): Endpoint => {
    let e = endpoints.get(key);
    if (!e) {
      const budget = { key, limits: limits() };
      const level = pooled.has(member) ? BudgetLevel.of(budget.limits) : undefined;
      e = { budget, coolingKey: `target:${key}`, load: { inflight: 0, ...(level ? { level } : {}) } };
      if (timed.has(member)) e.latency = new LatencyTracker();
      endpoints.set(key, e);
    }
    return e;
  };
  const windows = new Map<string, RetryWindow>();
  const retryWindow = (key: string): RetryWindow => {
    let w = windows.get(key);
    if (!w) windows.set(key, (w = new RetryWindow()));
    return w;
  };
  // One outlier state per pool step with `outlier` (a pool's id names its chain and step), per process.
  const outlierPools = new Map<string, OutlierPool>();
  const outlierMember = (target: Target, probeLeaseMs: number): OutlierMember | undefined => {
    if (!target.outlier || !target.pool || !outliers) return undefined;
    let pool = outlierPools.get(target.pool.id);
    if (!pool) outlierPools.set(target.pool.id, (pool = new OutlierPool(target.pool.id, target.outlier, outliers.clock, outliers.events, outliers.logger)));
    return pool.add(probeLeaseMs);
  };
  const chains = new Map<string, TargetRuntime[]>();
  // Each shadow target also gets a chain of its own (config/shadow-config.ts): the one target, no fall-through.
  const shadowChains = Object.values(config.shadows ?? {}).flatMap((s) => s.targets.map((t): [string, Target[]] => [shadowChainName(t), [t]]));
  const shadowed = new Set(shadowChains.map(([name]) => name));
  for (const [name, targets] of [...Object.entries(config.chains), ...shadowChains]) {
    // A shadow never waits for room in its target's budget: a full budget drops it (maxQueueMs 0).
    const queues = !shadowed.has(name);
    chains.set(name, targets.map((target) => {
      const provider = config.providers[target.provider]!;
      const adapter = adapters.get(target.provider)!;
      const { breaker, throttle } = breakers.pair(breakers.keyFor(target.provider, target.key));
      const timeoutMs = provider.timeoutMs ?? DEFAULTS.provider.timeoutMs;
      return {
        target, provider, adapter, breaker, throttle, retryWindow: retryWindow(target.key),
        chat: endpoint(target.key, target.key, () => chatLimits(provider, target.model)),
        embeddings: endpoint(`${target.key}#embeddings`, target.key, () => embeddingLimits(provider)),
        parkedKey: `provider:${target.provider}`,
        attemptTimeoutMs: timeoutMs,
        firstTokenTimeoutMs: provider.firstTokenTimeoutMs,
        maxQueueMs: queues ? provider.limits?.maxQueueMs ?? config.retry.maxInlineWaitMs : 0,
        leaseTtlMs: timeoutMs * 2 + 1_000,
        streamLeaseTtlMs: STREAM_LEASE_TTL_MS,
        tokenCount: tokenCounter(target.model, provider.limits?.tokenizer ?? DEFAULTS.limits.tokenizer, adapter.traits.tokenCounting === 'characters'),
        reserveOutputTokens: adapter.traits.defaultMaxTokens ?? provider.limits?.reserveOutputTokens ?? DEFAULTS.limits.reserveOutputTokens,
        capabilities: capabilitiesOf(provider, adapter.traits),
        outlier: outlierMember(target, timeoutMs),
        thinking: adapter.thinkingTraits?.(target.model),
      };
    }));
  }
  return chains;
}
