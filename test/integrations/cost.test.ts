import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { instrument } from '../../src/integrations/otel/index.js';
import { collectMetrics } from '../../src/integrations/prometheus/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask } from '../support/wire-router.js';

// costUsd where operators read it: OTel spans (`switchyard.cost_usd`) and Prometheus
// (`switchyard_cost_usd_total` by tenant, provider, model), for chat and for streams, whose answer
// is priced only at its end.

const routers: Router[] = [];
afterEach(async () => {
  for (const r of routers.splice(0)) await r.close();
});

// The fake provider bills the prompt estimate and its answer's tokens; a dollar a token keeps sums exact.
const DOLLAR_A_TOKEN = { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 };

function fakeRouter(extra: Partial<SwitchyardConfig> = {}) {
  const r = createRouter({
    providers: { primary: { type: 'fake', respond: () => ({ fail: 'server', status: 503 }) }, backup: { type: 'fake' } },
    chains: { default: ['primary:model-a', 'backup:model-b'] },
    retry: { maxAttempts: 1 },
    prices: { 'model-a': DOLLAR_A_TOKEN, 'model-b': DOLLAR_A_TOKEN },
    log: { level: 'silent' },
    ...extra,
  }, { clock: new VirtualClock() });
  routers.push(r);
  return r;
}

async function series(registry: Registry, name: string) {
  const metric = registry.getSingleMetric(name);
  return metric ? (await metric.get()).values.map((v) => ({ labels: v.labels, value: v.value })) : undefined;
}

describe('costUsd in the integrations', () => {
  it('counts switchyard_cost_usd_total by tenant, provider and model, for chat and for streams', async () => {
    const registry = new Registry();
    const r = fakeRouter();
    collectMetrics(r, { registry });
    const chat = await r.chat({ ...ask(), tenant: 'acme' });
    const cost = chat.usage!.inputTokens + chat.usage!.outputTokens;
    expect(chat.costUsd).toBe(cost);
    let streamed: number | undefined;
    for await (const ev of r.stream({ ...ask(), tenant: 'beta' })) if (ev.type === 'done') streamed = ev.result.costUsd;
    expect(streamed).toBeGreaterThan(0);
    expect(await series(registry, 'switchyard_cost_usd_total')).toEqual([
      { labels: { tenant: 'acme', provider: 'backup', model: 'model-b' }, value: cost },
      { labels: { tenant: 'beta', provider: 'backup', model: 'model-b' }, value: streamed },
    ]);
  });

  it('puts switchyard.cost_usd on the call span and on the answering attempt span; none on the failed one', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const meterProvider = new MeterProvider();
    const r = fakeRouter();
    instrument(r, { tracerProvider, meterProvider });
    const chat = await r.chat(ask());
    let streamed: number | undefined;
    for await (const ev of r.stream(ask('Tell me a story'))) if (ev.type === 'done') streamed = ev.result.costUsd;
    const spans = exporter.getFinishedSpans();
    const costs = spans.map((s) => [s.name, s.attributes['switchyard.cost_usd']]);
    expect(costs).toEqual([
      ['chat model-a', undefined], ['chat model-b', chat.costUsd], ['chat default', chat.costUsd],
      ['chat model-a', undefined], ['chat model-b', streamed], ['chat default', streamed],
    ]);
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  });

  it('leaves costUsd off results and events when the target has no price', async () => {
    const r = fakeRouter({ prices: {} });
    const calls: Array<number | undefined> = [];
    r.on('call', (e) => calls.push(e.costUsd));
    const result = await r.chat(ask());
    expect('costUsd' in result).toBe(false);
    expect(calls).toEqual([undefined]);
  });
});
