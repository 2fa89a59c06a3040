import { register as globalRegistry, type Registry } from 'prom-client';
import type { Router } from '../../router.js';
import { createMetricSet, LATENCY_BUCKETS_S, type MetricSet } from './metric-set.js';

/** Options of `collectMetrics`; all optional. */
export interface CollectMetricsOptions {
  /** The prom-client registry to register in. @default prom-client's global `register` */
  registry?: Registry;
  /** Start of every metric's name. @default 'switchyard_' */
  prefix?: string;
  /** Buckets of `switchyard_call_duration_seconds`. @default [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80] */
  latencyBuckets?: readonly number[];
}

// One set of metrics per registry and prefix, shared by the routers collected into it.
const shared = new WeakMap<Registry, Map<string, { set: MetricSet; users: number }>>();

function acquire(registry: Registry, prefix: string, buckets: readonly number[]): MetricSet {
  let byPrefix = shared.get(registry);
  if (!byPrefix) shared.set(registry, (byPrefix = new Map()));
  const entry = byPrefix.get(prefix) ?? { set: createMetricSet(registry, prefix, buckets), users: 0 };
  entry.users++;
  byPrefix.set(prefix, entry);
  return entry.set;
}

function release(registry: Registry, prefix: string): void {
  const byPrefix = shared.get(registry);
  const entry = byPrefix?.get(prefix);
  if (!entry || --entry.users > 0) return;
  entry.set.remove();
  byPrefix!.delete(prefix);
}

/**
 * Registers prom-client metrics named `switchyard_*` for a router and keeps them current from its
 * events: attempts by provider, model and outcome (skipped ones too), retries, fall-throughs, quota
 * errors, tokens, cost in USD by tenant (`switchyard_cost_usd_total`), a call-latency histogram, shadow copies and their scores (`switchyard_shadow_*`), each breaker's state, and each target's rate-limit
 * headroom from the provider's headers (remaining, limit, and their ratio), and pool members ejected
 * as outliers (`switchyard_outlier_ejections_total`, `switchyard_outlier_ejected`). Several routers may share
 * one registry. Returns a function that stops collecting (and, for the last router, unregisters them).
 * @example
 * const registry = new Registry();
 * collectMetrics(router, { registry });
 * app.get('/metrics', async () => registry.metrics());
 */
export function collectMetrics(router: Router, options: CollectMetricsOptions = {}): () => void {
  const registry = options.registry ?? globalRegistry;
  const prefix = options.prefix ?? 'switchyard_';
  const m = acquire(registry, prefix, options.latencyBuckets ?? LATENCY_BUCKETS_S);
  m.routers.add(router);
  const offs = [
    router.on('attempt', (e) => {
      m.pending.attempts.add([e.provider, e.model, e.ok ? 'ok' : e.kind ?? 'unknown', e.skipped ? 'true' : 'false']);
      if (e.costUsd) m.pending.cost.add([e.tenant, e.provider, e.model], e.costUsd);
    }),
    router.on('retry', (e) => m.retries.inc({ provider: e.provider, model: e.model, kind: e.kind })),
    router.on('fallback', (e) => {
      if (e.to) m.fallbacks.inc({ chain: e.chain, provider: e.provider, model: e.model, kind: e.kind, to: `${e.to.provider}:${e.to.model}` });
    }),
    router.on('quota', (e) => m.quota.inc({ provider: e.provider, model: e.model })),
    router.on('shadow', (e) => {
      const labels = { chain: e.chain, target: `${e.provider}:${e.model}` };
      m.shadows.inc({ chain: labels.chain, target: labels.target, outcome: e.dropped ? `dropped_${e.dropped}` : e.outcome });
      if (e.agreement) m.shadowSimilarity.observe(labels, e.agreement.similarity);
      if (e.expect) m.shadowExpect.inc({ chain: labels.chain, target: labels.target, pass: e.expect.pass ? 'true' : 'false' });
      if (e.judge) m.shadowJudge.observe(labels, e.judge.score);
      if (e.costUsd) m.shadowCost.inc(labels, e.costUsd);
    }),
    router.on('ratelimit', (e) => m.rateLimits.record(e.provider, e.model, e)),
    router.on('outlier', (e) => {
      if (e.action === 'eject') m.outlierEjections.inc({ pool: e.pool, provider: e.provider, model: e.model, reason: e.reason ?? 'unknown' });
      m.outlierEjected.set({ pool: e.pool, provider: e.provider, model: e.model }, e.action === 'eject' ? 1 : 0);
    }),
    router.on('call', (e) => {
      m.callDuration.observe({ chain: e.chain, operation: e.operation, outcome: e.outcome === 'ok' ? 'ok' : e.kind ?? 'unknown' }, e.latencyMs / 1000);
      // A replayed or cached answer used no tokens this time.
      if (e.outcome !== 'ok' || !e.usage || e.replayed || e.cached || !e.provider || !e.model) return;
      // A stream's answer is priced at its end, on the call event (its attempt event came at the first token).
      if (e.operation === 'stream' && e.costUsd) m.pending.cost.add([e.tenant, e.provider, e.model], e.costUsd);
      m.pending.tokens.add([e.provider, e.model, 'input'], e.usage.inputTokens);
      const output = 'outputTokens' in e.usage ? e.usage.outputTokens : 0;
      if (output > 0) m.pending.tokens.add([e.provider, e.model, 'output'], output);
    }),
  ];
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const off of offs) off();
    m.routers.delete(router);
    release(registry, prefix);
  };
}
