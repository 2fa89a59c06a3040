import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type HrTime, type Tracer } from '@opentelemetry/api';
import type { ResolvedConfig } from '../../config/index.js';
import type { CallEvent } from '../../observe/events.js';
import { attemptAttributes, callAttributes, GEN_AI, operationName, tokenCounts } from './genai-attributes.js';
import type { GenAiMetrics } from './genai-metrics.js';
import type { AttemptEvent } from './pending-attempts.js';

/** Epoch ms as an HrTime, exactly (a bare number below the process's start would be read as performance.now()). */
export function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

const statusOf = (kind: string | undefined, status?: number) => ({
  code: SpanStatusCode.ERROR, message: [kind, status].filter((p) => p !== undefined).join(' '),
});

/** How one sent attempt ran: its span's end, and the usage to credit it with. */
interface Sent {
  event: AttemptEvent;
  endMs: number;
  usage: ReturnType<typeof tokenCounts>;
}

/**
 * The sent attempts of a call with their ends and usage. A stream's answering attempt ends with the
 * call (its event is emitted at the first token) and, as its event has none, takes the call's usage
 * and response model; so does any call whose attempts reported none, unless nothing was sent for it
 * (replayed, cached).
 */
function sentAttempts(call: CallEvent, attempts: readonly AttemptEvent[], callEndMs: number): Sent[] {
  const sent = attempts.filter((a) => !a.skipped).map((event): Sent => ({ event, endMs: event.startedAtMs + event.latencyMs, usage: tokenCounts(event.usage) }));
  const answered = [...sent].reverse().find((s) => s.event.ok);
  if (answered && call.outcome !== 'error') {
    if (call.operation === 'stream') answered.endMs = Math.max(answered.endMs, callEndMs);
    if (!sent.some((s) => s.usage.input !== undefined || s.usage.output !== undefined)) answered.usage = tokenCounts(call.usage);
    // A stream's answer is priced at its end: the call's cost is the answering attempt's.
    if (call.operation === 'stream' && answered.event.costUsd === undefined && call.costUsd !== undefined) answered.event = Object.assign({}, answered.event, { costUsd: call.costUsd });
    if (answered.event.responseModel === undefined && call.responseModel !== undefined) answered.event = Object.assign({}, answered.event, { responseModel: call.responseModel });
  }
  return sent;
}

/**
 * Builds a finished call's spans after the fact, on the router's clock: the call span (parent: the
 * context the call ran in), a CLIENT child span per attempt sent, each skipped target as an event on
 * the call span; and records each attempt's duration and tokens.
 */
export function emitCall(tracer: Tracer, metrics: GenAiMetrics, config: ResolvedConfig, parent: Context, call: CallEvent, attempts: readonly AttemptEvent[]): void {
  // Both on the router's clock: the call event says when the call started and how long it took.
  const callStartMs = call.startedAtMs;
  const callEndMs = call.startedAtMs + call.latencyMs;
  const span = tracer.startSpan(`${operationName(call.operation)} ${call.chain}`, {
    kind: SpanKind.INTERNAL, startTime: hrTime(callStartMs), attributes: callAttributes(config, call, attempts),
  }, parent);
  const inCall = trace.setSpan(parent, span);
  for (const a of attempts) {
    if (!a.skipped) continue;
    span.addEvent('switchyard.target_skipped', {
      [GEN_AI.provider]: a.provider, [GEN_AI.requestModel]: a.model, [GEN_AI.errorType]: a.kind ?? '_OTHER',
      ...(a.code !== undefined ? { 'switchyard.error.code': a.code } : {}),
    }, hrTime(a.startedAtMs));
  }
  for (const { event, endMs, usage } of sentAttempts(call, attempts, callEndMs)) {
    const attributes = attemptAttributes(config, event, usage);
    const child = tracer.startSpan(`${operationName(event.operation)} ${event.model}`, { kind: SpanKind.CLIENT, startTime: hrTime(event.startedAtMs), attributes }, inCall);
    if (!event.ok) child.setStatus(statusOf(event.kind, event.status));
    child.end(hrTime(endMs));
    const measured = metricAttributes(attributes);
    metrics.operation(measured, endMs - event.startedAtMs);
    if (event.ok) metrics.usage(measured, usage.input, usage.output);
  }
  if (call.outcome !== 'ok') span.setStatus(statusOf(call.kind));
  span.end(hrTime(callEndMs));
}

/** The attributes the GenAI metrics take (a low-cardinality subset of the span's). */
function metricAttributes(attributes: Attributes): Record<string, string | number> {
  const keep = [GEN_AI.operation, GEN_AI.provider, GEN_AI.requestModel, GEN_AI.responseModel, GEN_AI.errorType, GEN_AI.serverAddress, GEN_AI.serverPort];
  const out: Record<string, string | number> = {};
  for (const key of keep) if (attributes[key] !== undefined) out[key] = attributes[key] as string | number;
  return out;
}
