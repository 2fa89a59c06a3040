import type { ProviderRequest, ProviderStreamEvent } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import type { AttemptScope } from '../policy/attempt-scope.js';
import type { CallKind } from '../policy/call-kind.js';
import { recordStreamFailure } from '../policy/record-outcome.js';
import { runChain } from '../policy/run-chain.js';
import type { Call, Runtime } from '../runtime.js';
import type { ChatRequest, ChatResult, RateLimitSnapshot } from '../types.js';
import { chatTokens } from './chat.js';
import { providerRequest } from './provider-request.js';

/** What `router.stream` yields: `start`, `text`..., then exactly one of `done` or `interrupted`. */
export type StreamEvent =
  | { type: 'start'; provider: string; model: string }
  | { type: 'text'; delta: string }
  | { type: 'done'; result: ChatResult }
  | { type: 'interrupted'; text: string; error: RouterError };

/** A provider stream that has produced its first content (or finished without any): committed. */
export interface OpenStream {
  first: ProviderStreamEvent;
  events: AsyncIterator<ProviderStreamEvent>;
  scope: AttemptScope;
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
}

/**
 * Opens a provider stream and reads it up to the commit point: the first content token (protocol
 * events, pings and empty deltas do not count). Anything that fails before it is an ordinary failed
 * attempt, so the whole decision table applies; the attempt's scope is handed to the stream after.
 */
async function openUntilFirstToken(events: AsyncIterable<ProviderStreamEvent>, scope: AttemptScope): Promise<OpenStream> {
  const it = events[Symbol.asyncIterator]();
  let open: Extract<ProviderStreamEvent, { type: 'open' }> | undefined;
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) throw new RouterError('transport', 'stream ended without content or a terminal event', { code: 'stream_truncated' });
      if (next.value.type === 'open') {
        open = next.value;
        continue;
      }
      return { first: next.value, events: it, scope, requestId: open?.requestId, rateLimit: open?.rateLimit };
    }
  } catch (err) {
    await it.return?.().catch(() => {});
    throw err;
  }
}

/** Why a committed stream stopped early, as the error the `interrupted` event carries. */
function interruption(err: unknown, scope: AttemptScope, call: Call, where: { provider: string; model: string }, idleMs: number): RouterError {
  const facts = { ...where, attempts: call.attempts, cause: err };
  if (scope.cause === 'caller') return new RouterError('aborted', 'stream aborted by the caller', facts);
  if (scope.cause === 'deadline') return new RouterError('timeout', `call deadline of ${call.timeoutMs} ms passed mid-stream`, facts);
  if (scope.cause === 'attempt_timeout') return new RouterError('timeout', `stream stalled: no chunk for ${idleMs} ms`, facts);
  const error = err instanceof RouterError ? err : new RouterError('transport', String(err), facts);
  return error.with({ attempts: call.attempts });
}

/** `router.stream` on the per-target pipeline: a success is a stream read up to its commit point. */
export const streamKind: CallKind<ProviderRequest, OpenStream> = {
  name: 'stream',
  keepsAttempt: true,
  payload: (call, target) => providerRequest(call.request as ChatRequest, target),
  endpoint: (target) => target.chat,
  estimateTokens: (call, target, payload) => chatTokens(call as Call<ChatRequest>, target, payload),
  send: (adapter, payload, handle) => openUntilFirstToken(adapter.stream(payload, { signal: handle.signal }), handle.scope!),
  attemptTimeoutMs: (call, target) => (call.request as ChatRequest).firstTokenTimeoutMs ?? target.firstTokenTimeoutMs ?? Infinity,
  timeoutLabel: () => 'no first token in time',
  leaseTtlMs: (target) => target.streamLeaseTtlMs,
};

/**
 * Streams one call. Before the first content token every rule of the decision table applies
 * (retries, waits, fall-through, breakers); after it nothing is retried and no other target is
 * tried: a failure ends the stream with `interrupted`, carrying the text shown so far. A stream
 * that ends without its provider's terminal event is never `done`.
 */
export async function* streamCall(rt: Runtime, call: Call<ChatRequest>): AsyncGenerator<StreamEvent> {
  const { clock } = rt;
  const { value: open, target: runtime, lease } = await runChain(rt, call, streamKind);
  const target = runtime.target;

  const timeToFirstTokenMs = clock.now() - call.startedAtMs;
  const where = { provider: target.provider, model: target.model };
  const idleMs = runtime.attemptTimeoutMs;
  const { scope, events } = open;
  scope.commit(idleMs);
  scope.pause();
  let text = '';
  let finished = false;
  let event: ProviderStreamEvent = open.first;
  try {
    yield { type: 'start', ...where };
    for (;;) {
      if (event.type === 'finish') break;
      if (event.type === 'delta') {
        text += event.text;
        yield { type: 'text', delta: event.text };
      }
      scope.touch();
      const next = await events.next();
      scope.pause();
      if (next.done) throw new RouterError('transport', 'stream ended before its terminal event', { ...where, code: 'stream_truncated' });
      event = next.value;
    }
    finished = true;
    scope.dispose();
    await lease?.settle({ sent: true, usage: event.usage, rateLimit: open.rateLimit });
    yield {
      type: 'done',
      result: {
        text, toolCalls: [], message: { role: 'assistant', content: text }, ...where, finishReason: event.finishReason, usage: event.usage, attempts: call.attempts,
        latencyMs: clock.now() - call.startedAtMs, requestId: open.requestId, timeToFirstTokenMs,
      },
    };
  } catch (err) {
    finished = true;
    const error = interruption(err, scope, call, where, idleMs);
    scope.dispose();
    await lease?.settle({ sent: true, rateLimit: open.rateLimit });
    await events.return?.(undefined).catch(() => {});
    recordStreamFailure(rt, runtime, error, scope.cause === 'caller');
    rt.logger.warn({ ...where, chain: call.chain, kind: error.kind, code: error.code, chars: text.length }, 'stream interrupted after its first token; not retried');
    yield { type: 'interrupted', text, error };
  } finally {
    if (!finished) {
      // The consumer stopped reading: abort the request and free the attempt.
      scope.release();
      scope.dispose();
      await lease?.settle({ sent: true, rateLimit: open.rateLimit });
      await events.return?.(undefined).catch(() => {});
    }
  }
}
