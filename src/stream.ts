import type { ProviderStreamEvent } from '../providers/types.js';
import { breakerVerdict } from './decide/breaker-verdict.js';
import { RouterError } from './errors.js';
import type { AttemptScope } from './policy/attempt-scope.js';
import { runChain } from './policy/fallback.js';
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from './policy/retry.js';
import type { Call, Runtime } from './runtime.js';
import type { ChatResult, RateLimitSnapshot } from './types.js';

/** What `router.stream` yields: `start`, `text`..., then exactly one of `done` or `interrupted`. */
export type StreamEvent =
  | { type: 'start'; provider: string; model: string }
  | { type: 'text'; delta: string }
  | { type: 'done'; result: ChatResult }
  | { type: 'interrupted'; text: string; error: RouterError };

/** A provider stream that has produced its first content (or finished without any): committed. */
interface OpenStream {
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
  if (scope.cause === 'deadline') return new RouterError('timeout', `call deadline of ${call.request.timeoutMs} ms passed mid-stream`, facts);
  if (scope.cause === 'attempt_timeout') return new RouterError('timeout', `stream stalled: no chunk for ${idleMs} ms`, facts);
  const error = err instanceof RouterError ? err : new RouterError('transport', String(err), facts);
  return error.with({ attempts: call.attempts });
}

/**
 * Streams one call. Before the first content token every rule of the decision table applies
 * (retries, waits, fall-through, breakers); after it nothing is retried and no other target is
 * tried: a failure ends the stream with `interrupted`, carrying the text shown so far. A stream
 * that ends without its provider's terminal event is never `done`.
 */
export async function* streamCall(rt: Runtime, call: Call): AsyncGenerator<StreamEvent> {
  const { clock, config } = rt;
  const firstTokenTimeout = (provider: string) => call.request.firstTokenTimeoutMs ?? config.providers[provider]!.firstTokenTimeoutMs;
  const { value: open, target, lease } = await runChain(rt, call, (adapter, request, attempt) => openUntilFirstToken(adapter.stream(request, { signal: attempt.signal }), attempt.scope!), {
    keepScope: true,
    attemptTimeoutMs: (t) => firstTokenTimeout(t.provider),
    timeoutLabel: 'no first token in time',
  });

  const timeToFirstTokenMs = clock.now() - call.startedAtMs;
  const where = { provider: target.provider, model: target.model };
  const idleMs = config.providers[target.provider]!.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
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
    if (scope.cause !== 'caller' && breakerVerdict(error.kind) === 'failure') rt.breakers.for(target).record('closed', 'failure');
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
