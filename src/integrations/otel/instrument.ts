import { context, metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import type { Router } from '../../router.js';
import { emitCall } from './call-spans.js';
import { GenAiMetrics } from './genai-metrics.js';
import { PendingAttempts } from './pending-attempts.js';

/** Options of `instrument`; all optional. */
export interface InstrumentOptions {
  /** Where spans go. @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /** Where the GenAI metrics go. @default the global meter provider (`metrics.getMeterProvider()`) */
  meterProvider?: MeterProvider;
}

const SCOPE = 'switchyard-llm';

/**
 * Traces and measures every call of a router through `@opentelemetry/api`: a span per call with a
 * CLIENT child span per attempt (skipped targets as events on the call span), carrying the GenAI
 * semantic-convention attributes, and the GenAI client metrics `gen_ai.client.operation.duration`
 * and `gen_ai.client.token.usage`. Spans are built from the router's events once a call ends, with
 * the router's own times; the call span's parent is the context the call ran in. Returns a function
 * that stops it.
 * @example
 * const stop = instrument(router);   // after the OpenTelemetry SDK is registered
 */
export function instrument(router: Router, options: InstrumentOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const genAi = new GenAiMetrics((options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE));
  const pending = new PendingAttempts();
  const offs = [
    router.on('attempt', (e) => pending.add(e)),
    // Emitted synchronously as the call ends, inside the call's async context.
    router.on('call', (e) => emitCall(tracer, genAi, router.config, context.active(), e, pending.take(e.callId))),
  ];
  return () => {
    for (const off of offs.splice(0)) off();
    pending.clear();
  };
}
