import { isRouterError } from '../errors.js';
import { callRef } from '../observe/event-refs.js';
import type { CallEvent } from '../observe/events.js';
import type { Call } from '../runtime/call.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ChatResult, EmbedResult } from '../types.js';
import type { StreamEvent } from './stream.js';

type CallOutcome = Omit<CallEvent, keyof ReturnType<typeof callRef> | 'latencyMs' | 'attempts' | 'startedAtMs'>;

// Object.assign and assignments, not spreads: on Node 20 a literal that opens with a spread and adds fields takes a slow path (~0.4 µs), and this runs on every call.
function ended(rt: Runtime, call: Call, outcome: CallOutcome): void {
  const event: CallEvent = Object.assign(callRef(call), { startedAtMs: call.startedAtMs, latencyMs: rt.clock.now() - call.startedAtMs, attempts: call.attempts, outcome: outcome.outcome });
  if (call.cost.usd !== undefined) event.costUsd = call.cost.usd;
  rt.events.emit('call', Object.assign(event, outcome));
}

function failed(rt: Runtime, call: Call, err: unknown): void {
  ended(rt, call, { outcome: 'error', kind: isRouterError(err) ? err.kind : 'transport' });
}

/** What a `call` event says of a result: who answered, with what usage, and whether it was sent for this call at all. */
function answered(result: ChatResult | EmbedResult): CallOutcome {
  const chat = result as Partial<ChatResult>;
  const outcome: CallOutcome = { outcome: 'ok', provider: result.provider, model: result.model, usage: result.usage };
  if (chat.responseModel !== undefined) outcome.responseModel = chat.responseModel;
  if (chat.timeToFirstTokenMs !== undefined) outcome.timeToFirstTokenMs = chat.timeToFirstTokenMs;
  if (chat.replayed) outcome.replayed = true;
  if (chat.cached) outcome.cached = true;
  if (chat.hedged) outcome.hedged = true;
  return outcome;
}

/** Emits the `call` event when a chat or embed call settles (only wired when someone listens). */
export function observeCall<T extends ChatResult | EmbedResult>(rt: Runtime, call: Call, pending: Promise<T>): Promise<T> {
  return pending.then(
    (result) => {
      ended(rt, call, answered(result));
      return result;
    },
    (err: unknown) => {
      failed(rt, call, err);
      throw err;
    },
  );
}

/** Passes a stream through, emitting the `call` event when it ends: done, interrupted, thrown, or left by its consumer. */
export async function* observeStream(rt: Runtime, call: Call, events: AsyncGenerator<StreamEvent>): AsyncGenerator<StreamEvent> {
  let reported = false;
  let start: { provider: string; model: string } | undefined;
  try {
    for await (const ev of events) {
      if (ev.type === 'start') start = { provider: ev.provider, model: ev.model };
      if (ev.type === 'done') {
        reported = true;
        ended(rt, call, answered(ev.result));
      } else if (ev.type === 'interrupted') {
        reported = true;
        ended(rt, call, { outcome: 'interrupted', kind: ev.error.kind, ...start });
      }
      yield ev;
    }
  } catch (err) {
    if (!reported) {
      reported = true;
      failed(rt, call, err);
    }
    throw err;
  } finally {
    // The consumer stopped reading before the end.
    if (!reported) ended(rt, call, { outcome: 'interrupted', kind: 'aborted', ...start });
  }
}
