import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createRouter } from '../src/index.js';
import { instrument } from '../src/integrations/otel/index.js';
import { startSimulator } from '../src/sim/index.js';

// OpenTelemetry spans and GenAI metrics for router calls, offline: simulated providers, no keys, and
// in-memory exporters that this script prints (in an app: the OTLP exporters of @opentelemetry/sdk-node).
// OpenAI answers its 1st request with a 503, so the 1st call falls through to Anthropic.
// Run: npx tsx examples/otel.ts
const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 40 }, faults: [{ fault: 'unavailable', nth: 1 }] },
    anthropic: { type: 'anthropic', latency: { baseMs: 60 } },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    anthropic: { type: 'anthropic', apiKey: 'sk-ant-anything', baseURL: sim.baseURL('anthropic') },
  },
  chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'] },
  retry: { maxAttempts: 1 },
  log: { level: 'error' },
});

class PrintedReader extends MetricReader {
  protected override async onForceFlush() {}
  protected override async onShutdown() {}
}
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new PrintedReader();
const meterProvider = new MeterProvider({ readers: [reader] });

// Without options, instrument() uses the global providers your OpenTelemetry SDK registered.
const stop = instrument(router, { tracerProvider, meterProvider });
await router.chat({ messages: [{ role: 'user', content: 'What is a circuit breaker?' }], maxTokens: 60 });
await router.chat({ messages: [{ role: 'user', content: 'And a retry budget?' }], maxTokens: 60 });

const durationMs = (s: ReadableSpan) => Math.round((s.endTime[0] - s.startTime[0]) * 1000 + (s.endTime[1] - s.startTime[1]) / 1e6);
const spans = exporter.getFinishedSpans();
const GEN_AI = ['gen_ai.provider.name', 'gen_ai.request.model', 'gen_ai.response.model', 'gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'error.type', 'server.address'];
const show = (s: ReadableSpan) => GEN_AI.filter((k) => s.attributes[k] !== undefined).map((k) => `${k}=${s.attributes[k]}`).join(' ');
for (const call of spans.filter((s) => s.attributes['switchyard.call_id'] !== undefined)) {
  console.log(`${call.name} (${durationMs(call)} ms) ${show(call)}`);
  for (const child of spans.filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId)) {
    console.log(`  └ ${child.name} (${durationMs(child)} ms) ${show(child)}`);
  }
}
const { resourceMetrics } = await reader.collect();
for (const metric of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics) as HistogramMetricData[]) {
  console.log(`\n${metric.descriptor.name} (${metric.descriptor.unit})`);
  for (const p of metric.dataPoints) console.log(`  count=${p.value.count} sum=${p.value.sum} ${JSON.stringify(p.attributes)}`);
}
stop();
await router.close();
await sim.stop();
