import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectMetrics } from '../../src/integrations/prometheus/index.js';
import type { Router } from '../../src/router.js';
import { OPENAI_PATH, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, wireRouter } from '../support/wire-router.js';

let up: Upstream;
const routers = upstreamPerTest<Router>((u) => (up = u));

function router(overrides: Parameters<typeof wireRouter>[1] = {}) {
  const w = wireRouter(up, { retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...overrides }, { clock: new VirtualClock() });
  routers.push(w.router);
  return w.router;
}

/** The value of one series, found by its labels (a subset). */
async function value(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  // A histogram's series (`_count`, `_sum`, `_bucket`) are values of the histogram itself.
  const metric = registry.getSingleMetric(name) ?? registry.getSingleMetric(name.replace(/_(count|sum|bucket)$/, ''));
  if (!metric) return undefined;
  const { values } = await metric.get();
  return values.find((v) => ((v as { metricName?: string }).metricName ?? name) === name && Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

const target = { provider: 'openai', model: 'gpt-4o-mini' };

describe('collectMetrics', () => {
  it('counts what came between two scrapes once, and the gauges show the last response read', async () => {
    // Counters and rate-limit gauges are written at each read: a read must neither lose nor repeat an event.
    const registry = new Registry();
    const r = router();
    collectMetrics(r, { registry });
    up.script(OPENAI_PATH,
      { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion() },
      { status: 200, headers: { ...openaiSuccessHeaders, 'x-ratelimit-remaining-requests': '58' }, body: openaiCompletion() });
    await r.chat({ ...ask(), chain: 'openai-only' });
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok', skipped: 'false' })).toBe(1);
    expect(await value(registry, 'switchyard_ratelimit_remaining', { ...target, window: 'requests' })).toBe(59);
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok', skipped: 'false' })).toBe(1);

    await r.chat({ ...ask(), chain: 'openai-only' });
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok', skipped: 'false' })).toBe(2);
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'input' })).toBe(38);
    expect(await value(registry, 'switchyard_ratelimit_remaining', { ...target, window: 'requests' })).toBe(58);
    expect(await value(registry, 'switchyard_ratelimit_headroom_ratio', { ...target, window: 'requests' })).toBeCloseTo(58 / 60, 10);
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('shows attempts by outcome and headroom gauges equal to the headers after a 429 and a success', async () => {
    const registry = new Registry();
    const r = router();
    collectMetrics(r, { registry });
    up.script(OPENAI_PATH,
      { status: 429, headers: { 'retry-after-ms': '5' }, body: openaiBodies.rateLimitRequests },
      { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion() });
    await r.chat({ ...ask(), chain: 'openai-only' });

    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'rate_limited', skipped: 'false' })).toBe(1);
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok', skipped: 'false' })).toBe(1);
    expect(await value(registry, 'switchyard_retries_total', { ...target, kind: 'rate_limited' })).toBe(1);
    // x-ratelimit-remaining-requests: 59 of 60, x-ratelimit-remaining-tokens: 149984 of 150000.
    expect(await value(registry, 'switchyard_ratelimit_remaining', { ...target, window: 'requests' })).toBe(Number(openaiSuccessHeaders['x-ratelimit-remaining-requests']));
    expect(await value(registry, 'switchyard_ratelimit_remaining', { ...target, window: 'tokens' })).toBe(Number(openaiSuccessHeaders['x-ratelimit-remaining-tokens']));
    expect(await value(registry, 'switchyard_ratelimit_limit', { ...target, window: 'requests' })).toBe(60);
    expect(await value(registry, 'switchyard_ratelimit_headroom_ratio', { ...target, window: 'requests' })).toBeCloseTo(59 / 60, 10);
    // The recorded body's usage: 19 prompt tokens, 10 completion tokens.
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'input' })).toBe(19);
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'output' })).toBe(10);
    expect(await value(registry, 'switchyard_call_duration_seconds_count', { chain: 'openai-only', operation: 'chat', outcome: 'ok' })).toBe(1);
    expect(await value(registry, 'switchyard_breaker_state', { breaker: 'openai', state: 'closed' })).toBe(1);
    expect(await value(registry, 'switchyard_breaker_state', { breaker: 'openai', state: 'open' })).toBe(0);

    const text = await registry.metrics();
    expect(text).toContain('switchyard_attempts_total{provider="openai",model="gpt-4o-mini",outcome="rate_limited",skipped="false"} 1');
    expect(text).toContain('switchyard_ratelimit_remaining{provider="openai",model="gpt-4o-mini",window="requests"} 59');
  });

  it('counts fall-throughs, skipped targets, quota errors and an open breaker', async () => {
    const registry = new Registry();
    const r = router({ retry: { maxAttempts: 1 }, breaker: { consecutiveFailures: 1, resetTimeoutMs: 60_000 } });
    collectMetrics(r, { registry });
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    await r.chat(ask());      // 503: falls through to anthropic, the openai breaker opens
    await r.chat(ask());      // openai skipped: open circuit
    await r.chat({ ...ask(), chain: 'two-openai-models' }).catch(() => {});

    expect(await value(registry, 'switchyard_fallbacks_total', { chain: 'default', ...target, kind: 'server', to: 'anthropic:claude-sonnet-4-6' })).toBe(1);
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'circuit_open', skipped: 'true' })).toBe(2);
    expect(await value(registry, 'switchyard_breaker_state', { breaker: 'openai', state: 'open' })).toBe(1);
    expect(await value(registry, 'switchyard_breaker_state', { breaker: 'openai', state: 'closed' })).toBe(0);
    expect(await value(registry, 'switchyard_tokens_total', { provider: 'anthropic', model: 'claude-sonnet-4-6', type: 'output' })).toBe(41 * 3);

    const quota = router({ retry: { maxAttempts: 1 } });
    collectMetrics(quota, { registry });
    up.script(OPENAI_PATH, { status: 429, body: openaiBodies.insufficientQuota });
    await quota.chat(ask());
    expect(await value(registry, 'switchyard_quota_errors_total', target)).toBe(1);
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'quota_exhausted', skipped: 'false' })).toBe(1);
  });

  it('counts no tokens for a stream whose usage is unknown (no usage chunk), and the known ones of the next', async () => {
    const registry = new Registry();
    const r = router();
    collectMetrics(r, { registry });
    const sse = openaiSse(['Hi']);
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: [...sse.slice(0, -2), sse.at(-1)!] }, { status: 200, headers: openaiSuccessHeaders, sse });
    for await (const _ of r.stream({ ...ask(), chain: 'openai-only' }));
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'input' })).toBeUndefined();
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'output' })).toBeUndefined();
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok', skipped: 'false' })).toBe(1);

    for await (const _ of r.stream({ ...ask(), chain: 'openai-only' }));
    // openaiSse's usage chunk: 17 in, 10 out.
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'input' })).toBe(17);
    expect(await value(registry, 'switchyard_tokens_total', { ...target, type: 'output' })).toBe(10);
  });

  it('unregisters its metrics when the last router sharing the registry stops', async () => {
    const registry = new Registry();
    const [a, b] = [router(), router()];
    const stopA = collectMetrics(a, { registry });
    const stopB = collectMetrics(b, { registry });
    await a.chat(ask());
    await b.chat(ask());
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok' })).toBe(2);
    stopA();
    await a.chat(ask());
    expect(await value(registry, 'switchyard_attempts_total', { ...target, outcome: 'ok' })).toBe(2);
    expect(registry.getSingleMetric('switchyard_attempts_total')).toBeDefined();
    stopB();
    expect(registry.getMetricsAsArray()).toEqual([]);
    // And it can start again on the same registry.
    collectMetrics(a, { registry })();
  });
});
