import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, trace } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { instrument } from '../../src/integrations/otel/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

/** A metric reader that collects on demand: the in-memory end of the metrics SDK. */
class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});

let exporter: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;
let reader: TestReader;
let meterProvider: MeterProvider;
const routers: Router[] = [];

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  reader = new TestReader();
  meterProvider = new MeterProvider({ readers: [reader] });
});
afterEach(async () => {
  for (const router of routers.splice(0)) await router.close();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

const START = Date.parse('2026-11-29T12:00:00Z');
const ms = (span: ReadableSpan, at: 'startTime' | 'endTime') => span[at][0] * 1000 + span[at][1] / 1e6;

/** A chain whose primary (in-process) answers 503 after 100 ms and whose backup answers after 250 ms, on a virtual clock. */
function fallThroughRouter(extra: Partial<SwitchyardConfig> = {}) {
  const clock = new VirtualClock({ startMs: START });
  const router = createRouter({
    providers: {
      primary: { type: 'fake', latencyMs: 100, respond: () => ({ fail: 'server', status: 503 }) },
      backup: { type: 'fake', latencyMs: 250 },
    },
    chains: { default: ['primary:model-a', 'backup:model-b'] },
    retry: { maxAttempts: 1 },
    log: { level: 'silent' },
    ...extra,
  }, { clock });
  routers.push(router);
  return { router, clock };
}

async function histogram(name: string): Promise<HistogramMetricData> {
  const { resourceMetrics } = await reader.collect();
  const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  expect(found, name).toBeDefined();
  expect(found!.dataPointType).toBe(DataPointType.HISTOGRAM);
  return found as HistogramMetricData;
}

describe('instrument', () => {
  it('turns one fall-through call into a call span with two attempt spans, on the router clock, with the GenAI attributes', async () => {
    const { router } = fallThroughRouter();
    instrument(router, { tracerProvider, meterProvider });
    const res = await router.chat(ask());

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['chat default', 'chat model-a', 'chat model-b']);
    const call = spans.find((s) => s.name === 'chat default')!;
    const [down, up] = ['chat model-a', 'chat model-b'].map((name) => spans.find((s) => s.name === name)!);
    for (const child of [down!, up!]) {
      expect(child.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(call.spanContext().traceId);
    }
    // Exactly the router's times: 100 ms for the 503, 250 ms for the answer, the call around both.
    expect([ms(call, 'startTime'), ms(call, 'endTime')]).toEqual([START, START + 350]);
    expect([ms(down!, 'startTime'), ms(down!, 'endTime')]).toEqual([START, START + 100]);
    expect([ms(up!, 'startTime'), ms(up!, 'endTime')]).toEqual([START + 100, START + 350]);

    expect(down!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'primary', 'gen_ai.request.model': 'model-a',
      'error.type': 'server', 'http.response.status_code': 503,
    });
    expect(down!.status).toEqual({ code: 2, message: 'server 503' });
    expect(up!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'backup', 'gen_ai.request.model': 'model-b',
      'gen_ai.response.model': 'model-b', 'gen_ai.usage.input_tokens': res.usage!.inputTokens, 'gen_ai.usage.output_tokens': res.usage!.outputTokens,
    });
    expect(up!.attributes['error.type']).toBeUndefined();
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'backup', 'gen_ai.request.model': 'model-a', 'gen_ai.response.model': 'model-b',
      'gen_ai.usage.input_tokens': res.usage!.inputTokens, 'gen_ai.usage.output_tokens': res.usage!.outputTokens,
      'switchyard.chain': 'default', 'switchyard.tenant': 'default', 'switchyard.outcome': 'ok', 'switchyard.attempts': 2,
    });
    expect(call.status.code).toBe(0);
  });

  it('records gen_ai.client.operation.duration per attempt in seconds and gen_ai.client.token.usage by token type', async () => {
    const { router } = fallThroughRouter();
    instrument(router, { tracerProvider, meterProvider });
    const res = await router.chat(ask());

    const duration = await histogram('gen_ai.client.operation.duration');
    expect(duration.descriptor.unit).toBe('s');
    const points = duration.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count, sum: p.value.sum }));
    expect(points).toEqual(expect.arrayContaining([
      { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'primary', 'gen_ai.request.model': 'model-a', 'error.type': 'server' }, count: 1, sum: 0.1 },
      { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'backup', 'gen_ai.request.model': 'model-b', 'gen_ai.response.model': 'model-b' }, count: 1, sum: 0.25 },
    ]));
    expect(points).toHaveLength(2);

    const tokens = await histogram('gen_ai.client.token.usage');
    const byType = Object.fromEntries(tokens.dataPoints.map((p) => [p.attributes['gen_ai.token.type'], { sum: p.value.sum, model: p.attributes['gen_ai.response.model'] }]));
    expect(byType).toEqual({ input: { sum: res.usage!.inputTokens, model: 'model-b' }, output: { sum: res.usage!.outputTokens, model: 'model-b' } });
  });

  it('carries server.address and the HTTP status of attempts sent through the real SDKs', async () => {
    const up: Upstream = await startUpstream();
    try {
      const { router } = wireRouter(up, { retry: { maxAttempts: 1 } }, { clock: new VirtualClock() });
      routers.push(router);
      up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
      instrument(router, { tracerProvider, meterProvider });
      await router.chat(ask());

      const spans = exporter.getFinishedSpans();
      const port = Number(new URL(up.url).port);
      expect(spans.find((s) => s.name === 'chat gpt-4o-mini')!.attributes).toMatchObject({
        'gen_ai.provider.name': 'openai', 'server.address': '127.0.0.1', 'server.port': port, 'http.response.status_code': 503, 'error.type': 'server',
      });
      // The recorded Anthropic body's usage: 505 in, 41 out.
      expect(spans.find((s) => s.name === 'chat claude-sonnet-4-6')!.attributes).toMatchObject({
        'gen_ai.provider.name': 'anthropic', 'server.address': '127.0.0.1', 'server.port': port,
        'gen_ai.usage.input_tokens': 505, 'gen_ai.usage.output_tokens': 41, 'switchyard.request_id': 'req_011CSLsW7mFqvHHnzrKdKjAE',
      });
      expect(up.count(ANTHROPIC_PATH)).toBe(1);
    } finally {
      await up.close();
    }
  });

  it('names the model the provider said answered as gen_ai.response.model, on the call and its attempt', async () => {
    const up: Upstream = await startUpstream();
    try {
      const { router } = wireRouter(up, {}, { clock: new VirtualClock() });
      routers.push(router);
      up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('Hi', 'gpt-4o-mini-2024-07-18') });
      up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: openaiSse(['Hi']) }); // answered by gpt-4o-2024-08-06
      instrument(router, { tracerProvider, meterProvider });
      await router.chat({ ...ask(), chain: 'openai-only' });
      for await (const _ of router.stream({ ...ask(), chain: 'openai-only' }));

      const [chat, stream] = exporter.getFinishedSpans().filter((s) => s.name === 'chat openai-only');
      const [chatAttempt, streamAttempt] = exporter.getFinishedSpans().filter((s) => s.name === 'chat gpt-4o-mini');
      expect(chat!.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18' });
      expect(chatAttempt!.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18' });
      expect(stream!.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-2024-08-06' });
      expect(streamAttempt!.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-2024-08-06' });
      expect(up.count(OPENAI_PATH)).toBe(2);
    } finally {
      await up.close();
    }
  });

  it('marks the call span of a stream served from the response cache switchyard.cached, with no attempt span', async () => {
    const { router } = fallThroughRouter({ cache: { ttlMs: 60_000 } });
    instrument(router, { tracerProvider, meterProvider });
    for await (const _ of router.stream(ask())); // primary 503s, backup answers: stored
    exporter.reset();
    for await (const _ of router.stream(ask()));

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['chat default']);
    expect(spans[0]!.attributes).toMatchObject({ 'switchyard.cached': true, 'switchyard.attempts': 0 });
  });

  it('puts a skipped target on the call span as an event, not as an attempt span', async () => {
    const { router } = fallThroughRouter({
      providers: {
        primary: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 60_000 }] },
        backup: { type: 'fake', latencyMs: 250 },
      },
    });
    await router.chat(ask());        // the 429 cools the primary for a minute
    instrument(router, { tracerProvider, meterProvider });
    await router.chat(ask());        // so this call skips it without a request

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['chat default', 'chat model-b']);
    const call = spans.find((s) => s.name === 'chat default')!;
    expect(call.events.map((e) => ({ name: e.name, attributes: e.attributes }))).toEqual([{
      name: 'switchyard.target_skipped',
      attributes: { 'gen_ai.provider.name': 'primary', 'gen_ai.request.model': 'model-a', 'error.type': 'rate_limited', 'switchyard.error.code': 'rate_limited' },
    }]);
    expect(call.attributes).toMatchObject({ 'switchyard.attempts': 1, 'switchyard.skipped': 1 });
  });

  it('marks a failed call and its attempts with error.type and an error status', async () => {
    const { router } = fallThroughRouter({ providers: {
      primary: { type: 'fake', latencyMs: 100, respond: () => ({ fail: 'server', status: 503 }) },
      backup: { type: 'fake', latencyMs: 50, respond: () => ({ fail: 'server', status: 500 }) },
    } });
    instrument(router, { tracerProvider, meterProvider });
    await rejectionOf(router.chat(ask()));

    const call = exporter.getFinishedSpans().find((s) => s.name === 'chat default')!;
    expect(call.attributes).toMatchObject({ 'error.type': 'exhausted', 'switchyard.outcome': 'error', 'gen_ai.provider.name': 'backup' });
    expect(call.status.code).toBe(2);
    expect(exporter.getFinishedSpans().filter((s) => s.attributes['error.type'] === 'server')).toHaveLength(2);
  });

  it('ends a stream’s answering attempt with the stream, and gives it the stream’s usage', async () => {
    const { router } = fallThroughRouter();
    instrument(router, { tracerProvider, meterProvider });
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    for await (const ev of router.stream(ask('Tell me a story'))) if (ev.type === 'done') usage = ev.result.usage;

    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'chat default')!;
    const answer = spans.find((s) => s.name === 'chat model-b')!;
    expect(ms(answer, 'endTime')).toBe(ms(call, 'endTime'));
    expect(answer.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': usage!.inputTokens, 'gen_ai.usage.output_tokens': usage!.outputTokens });
  });

  it('puts no token counts on spans or the token histogram for a stream whose usage is unknown (no usage chunk)', async () => {
    const up: Upstream = await startUpstream();
    try {
      const { router } = wireRouter(up, {}, { clock: new VirtualClock() });
      routers.push(router);
      const sse = openaiSse(['Hi']);
      up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: [...sse.slice(0, -2), sse.at(-1)!] }); // no usage chunk
      instrument(router, { tracerProvider, meterProvider });
      for await (const ev of router.stream({ ...ask(), chain: 'openai-only' })) if (ev.type === 'done') expect(ev.result.usage).toBeUndefined();

      const spans = exporter.getFinishedSpans().filter((s) => s.name === 'chat openai-only' || s.name === 'chat gpt-4o-mini');
      expect(spans).toHaveLength(2);
      for (const span of spans) {
        expect(span.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
        expect(span.attributes['gen_ai.usage.output_tokens']).toBeUndefined();
      }
      const { resourceMetrics } = await reader.collect();
      const tokens = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'gen_ai.client.token.usage');
      expect(tokens?.dataPoints ?? []).toEqual([]);
    } finally {
      await up.close();
    }
  });

  it('nests the call span under the span active where the call was made', async () => {
    const { router } = fallThroughRouter();
    instrument(router, { tracerProvider, meterProvider });
    const app = tracerProvider.getTracer('app');
    await app.startActiveSpan('POST /summaries', async (request) => {
      await router.chat(ask());
      request.end();
    });

    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === 'POST /summaries')!;
    expect(spans.find((s) => s.name === 'chat default')!.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('stops making spans and measurements once stopped', async () => {
    const { router } = fallThroughRouter();
    const stop = instrument(router, { tracerProvider, meterProvider });
    await router.chat(ask());
    stop();
    await router.chat(ask());
    expect(exporter.getFinishedSpans()).toHaveLength(3);
    expect((await histogram('gen_ai.client.operation.duration')).dataPoints.reduce((n, p) => n + p.value.count, 0)).toBe(2);
  });
});
