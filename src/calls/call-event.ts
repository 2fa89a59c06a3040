import { isRouterError } from '../errors.js';
import { callEvent, type callRef } from '../observe/event-refs.js';
import type { CallEvent } from '../observe/events.js';
import type { Call } from '../policy/state/call.js';
import type { SkipDeps } from '../policy/steps/record-outcome.js';
import type { ChatResult, EmbedResult } from '../types.js';
import type { RelayEvent } from './stream.js';

/** What a call event reads of the router: its clock and its events. */
export type ObserveDeps = SkipDeps;

/** The pool and member of the call's target that answered (or streamed), when it is a pool member. */
function poolMember(call: Call, provider: string | undefined, model: string | undefined): CallEvent['pool'] {
  if (provider === undefined) return undefined;
  for (const t of call.targets) {
    if (t.target.provider === provider && t.target.model === model) return t.target.pool ? { id: t.target.pool.id, member: t.target.key } : undefined;
  }
  return undefined;
}

function ended(rt: ObserveDeps, call: Call, outcome: Omit<CallEvent, keyof ReturnType<typeof callRef> | 'latencyMs' | 'attempts' | 'startedAtMs'>): void {
  const pool = poolMember(call, outcome.provider, outcome.model);
  if (pool) outcome.pool = pool;
  rt.events.emit('call', callEvent(call, {
    startedAtMs: call.startedAtMs, latencyMs: rt.clock.now() - call.startedAtMs, attempts: call.attempts,
    ...(call.cost.usd !== undefined ? { costUsd: call.cost.usd } : {}), ...outcome,
  }));
}

function failed(rt: ObserveDeps, call: Call, err: unknown): void {
  ended(rt, call, { outcome: 'error', kind: isRouterError(err) ? err.kind : 'transport' });
}

/** What a `call` event says of a result: who answered, with what usage, and whether it was sent for this call at all. */
function answered(result: ChatResult | EmbedResult): Parameters<typeof ended>[2] {
  const chat = result as Partial<ChatResult>;
  return {
    outcome: 'ok', provider: result.provider, model: result.model, usage: result.usage,
    ...(chat.responseModel !== undefined ? { responseModel: chat.responseModel } : {}),
    ...(chat.timeToFirstTokenMs !== undefined ? { timeToFirstTokenMs: chat.timeToFirstTokenMs } : {}),
    ...(chat.replayed ? { replayed: true } : {}), ...(chat.cached ? { cached: true } : {}), ...(chat.hedged ? { hedged: true } : {}),
  };
}

/** Emits the `call` event when a chat or embed call settles (only wired when someone listens). */
export function observeCall<T extends ChatResult | EmbedResult>(rt: ObserveDeps, call: Call, pending: Promise<T>): Promise<T> {
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
export async function* observeStream(rt: ObserveDeps, call: Call, events: AsyncGenerator<RelayEvent>): AsyncGenerator<RelayEvent> {
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
