import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Router } from '../../router.js';
import { PendingCounts } from './pending-counts.js';
import { RateLimitFigures } from './rate-limit-gauges.js';

/** Call latency buckets, in seconds: from a cached answer to a long generation. */
export const LATENCY_BUCKETS_S = Object.freeze([0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80]);

/** Buckets of the 0..1 shadow scores. */
const SHARE_BUCKETS = Object.freeze([0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1]);

const BREAKER_STATES = [['closed', 'closed'], ['open', 'open'], ['halfOpen', 'half_open']] as const;

/** The `switchyard_*` metrics of one registry, shared by every router collected into it. */
export interface MetricSet {
  attempts: Counter<'provider' | 'model' | 'outcome' | 'skipped'>;
  retries: Counter<'provider' | 'model' | 'kind'>;
  fallbacks: Counter<'chain' | 'provider' | 'model' | 'kind' | 'to'>;
  quota: Counter<'provider' | 'model'>;
  tokens: Counter<'provider' | 'model' | 'type'>;
  cost: Counter<'tenant' | 'provider' | 'model'>;
  callDuration: Histogram<'chain' | 'operation' | 'outcome'>;
  remaining: Gauge<'provider' | 'model' | 'window'>;
  limit: Gauge<'provider' | 'model' | 'window'>;
  headroom: Gauge<'provider' | 'model' | 'window'>;
  outlierEjections: Counter<'pool' | 'provider' | 'model' | 'reason'>;
  outlierEjected: Gauge<'pool' | 'provider' | 'model'>;
  /** Shadow copies by chain, shadow target and outcome (`ok`, `error`, `dropped_load`, `dropped_budget`, `dropped_closed`). */
  shadows: Counter<'chain' | 'target' | 'outcome'>;
  shadowSimilarity: Histogram<'chain' | 'target'>;
  shadowExpect: Counter<'chain' | 'target' | 'pass'>;
  shadowJudge: Histogram<'chain' | 'target'>;
  shadowCost: Counter<'chain' | 'target'>;
  /** Counts of the counters bumped on every attempt or call, added to them at each scrape (`add(values, by)`, values in label order). */
  pending: {
    attempts: PendingCounts<'provider' | 'model' | 'outcome' | 'skipped'>;
    tokens: PendingCounts<'provider' | 'model' | 'type'>;
    cost: PendingCounts<'tenant' | 'provider' | 'model'>;
  };
  /** What the providers last said of their rate-limit windows: the three gauges read it at each scrape. */
  rateLimits: RateLimitFigures;
  /** The routers whose breakers the breaker gauge reads at each scrape. */
  routers: Set<Router>;
  /** Removes every metric of the set from its registry. */
  remove(): void;
}

/** Creates the metrics in `registry`, with names starting `prefix`. */
export function createMetricSet(registry: Registry, prefix: string, latencyBuckets: readonly number[]): MetricSet {
  const registers = [registry];
  const routers = new Set<Router>();
  const rateLimits = new RateLimitFigures();
  const pending = {
    attempts: new PendingCounts(['provider', 'model', 'outcome', 'skipped'] as const),
    tokens: new PendingCounts(['provider', 'model', 'type'] as const),
    cost: new PendingCounts(['tenant', 'provider', 'model'] as const),
  };
  const names: string[] = [];
  const named = (name: string) => {
    names.push(prefix + name);
    return prefix + name;
  };
  const set: MetricSet = {
    attempts: new Counter({
      name: named('attempts_total'), help: 'Targets tried (a request sent) or skipped (none sent), by how they ended: ok or the error kind', labelNames: ['provider', 'model', 'outcome', 'skipped'], registers,
      collect() { pending.attempts.flush(this); },
    }),
    retries: new Counter({ name: named('retries_total'), help: 'Retries of the same target, by the kind of failure retried', labelNames: ['provider', 'model', 'kind'], registers }),
    fallbacks: new Counter({ name: named('fallbacks_total'), help: 'Fall-throughs from a target to the next one of its chain', labelNames: ['chain', 'provider', 'model', 'kind', 'to'], registers }),
    quota: new Counter({ name: named('quota_errors_total'), help: 'Quota or billing errors (each parks its provider)', labelNames: ['provider', 'model'], registers }),
    tokens: new Counter({
      name: named('tokens_total'), help: 'Tokens used by answers, by type (input counts cached prompt tokens too)', labelNames: ['provider', 'model', 'type'], registers,
      collect() { pending.tokens.flush(this); },
    }),
    cost: new Counter({
      name: named('cost_usd_total'), help: 'USD the answers cost at their targets\' prices (the config\'s `prices` over the shipped table), by tenant', labelNames: ['tenant', 'provider', 'model'], registers,
      collect() { pending.cost.flush(this); },
    }),
    callDuration: new Histogram({ name: named('call_duration_seconds'), help: 'Duration of calls, waits and fall-throughs included, by outcome: ok or the error kind', labelNames: ['chain', 'operation', 'outcome'], buckets: [...latencyBuckets], registers }),
    remaining: new Gauge({
      name: named('ratelimit_remaining'), help: 'What the provider said is left of a rate-limit window, on its last response', labelNames: ['provider', 'model', 'window'], registers,
      collect() { rateLimits.write(this, 'remaining'); },
    }),
    limit: new Gauge({
      name: named('ratelimit_limit'), help: 'The size of a rate-limit window, as the provider last reported it', labelNames: ['provider', 'model', 'window'], registers,
      collect() { rateLimits.write(this, 'limit'); },
    }),
    headroom: new Gauge({
      name: named('ratelimit_headroom_ratio'), help: 'remaining / limit of a rate-limit window, 0 to 1 (alert under 0.1)', labelNames: ['provider', 'model', 'window'], registers,
      collect() { rateLimits.write(this, 'headroom'); },
    }),
    outlierEjections: new Counter({ name: named('outlier_ejections_total'), help: 'Pool members ejected as outliers (a return probe that failed ejects again), by reason', labelNames: ['pool', 'provider', 'model', 'reason'], registers }),
    outlierEjected: new Gauge({ name: named('outlier_ejected'), help: 'Whether a pool member is ejected as an outlier now: 1 from its ejection until its return', labelNames: ['pool', 'provider', 'model'], registers }),
    shadows: new Counter({ name: named('shadow_total'), help: 'Shadow copies of calls by chain, shadow target and outcome: ok, error, dropped_load, dropped_budget, dropped_closed', labelNames: ['chain', 'target', 'outcome'], registers }),
    shadowSimilarity: new Histogram({ name: named('shadow_similarity'), help: "Token Jaccard similarity of a shadow's answer with the real one, 0 to 1", labelNames: ['chain', 'target'], buckets: [...SHARE_BUCKETS], registers }),
    shadowExpect: new Counter({ name: named('shadow_expect_total'), help: "Shadow answers checked against the chain's shadow.expect, by whether every expectation held", labelNames: ['chain', 'target', 'pass'], registers }),
    shadowJudge: new Histogram({ name: named('shadow_judge_score'), help: "The judge's score of a shadow answer, 0 to 1", labelNames: ['chain', 'target'], buckets: [...SHARE_BUCKETS], registers }),
    shadowCost: new Counter({ name: named('shadow_cost_usd_total'), help: "USD of shadow answers at their targets' prices (also in cost_usd_total as tenant shadow)", labelNames: ['chain', 'target'], registers }),
    pending,
    rateLimits,
    routers,
    remove: () => {
      for (const name of names) registry.removeSingleMetric(name);
    },
  };
  // Read at each scrape, so a breaker that went half-open by time alone shows it.
  new Gauge({
    name: named('breaker_state'), help: 'Circuit breaker state, one series per state: 1 for the current one', labelNames: ['breaker', 'state'], registers,
    collect() {
      this.reset();
      for (const router of routers) {
        for (const [key, state] of Object.entries(router.breakerStates())) {
          for (const [name, label] of BREAKER_STATES) this.set({ breaker: key, state: label }, state === name ? 1 : 0);
        }
      }
    },
  });
  return set;
}
