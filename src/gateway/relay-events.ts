import type { RelayEvent, StreamEvent } from '../calls/stream.js';
import { isRouterError } from '../errors.js';
import type { SseWriter } from './sse-writer.js';

/** The `done` event of a router stream. */
export type DoneEvent = Extract<StreamEvent, { type: 'done' }>;

/**
 * What a route's wire makes of a committed stream's events, given with the stream's own state `S`
 * (a chunker, a streamer, a relay's held bytes): one constant object per wire, so relaying adds no
 * closure per request and no allocation per event.
 */
export interface WireRelay<S, E extends RelayEvent = RelayEvent> {
  /** After `done`: `data: [DONE]` (Chat Completions' own chunks) or no terminator (the others; a pass-through's came in its bytes). */
  readonly endsWithDone: boolean;
  /** Writes one event that neither finishes nor interrupts the stream (a `raw` blob, a delta, a tool call). */
  event(out: SseWriter, state: S, event: E): Promise<void> | undefined;
  /** Writes the end of a stream the router finished. */
  done(out: SseWriter, state: S, event: DoneEvent): Promise<void> | undefined;
  /** Writes the wire's failure: an `interrupted` event's error, or one thrown past the headers. */
  fail(out: SseWriter, state: S, err: unknown): Promise<void> | undefined;
}

/**
 * Relays a router stream after its commit point (its `start` event, the headers written), the
 * loop every streaming route shares: reads `events` (from `first`, when the route hands the
 * start back in, else from the next event) and writes each through `wire`, until `done`, an
 * `interrupted` event or an error thrown past the headers (the wire's failure, its kind recorded
 * on `context`), the stream's end, or a client that went away. Then it ends the response and stops
 * reading, so the router aborts the upstream request and frees its slot, in that order: the client
 * hears the end before the router's own clean-up runs.
 */
export async function relayEvents<S, E extends RelayEvent>(
  out: SseWriter,
  events: AsyncIterator<E>,
  first: E | undefined,
  wire: WireRelay<S, E>,
  state: S,
  context: { kind?: string },
): Promise<void> {
  let event = first;
  let finished = false;
  try {
    try {
      for (;;) {
        if (event === undefined) {
          const next = await events.next();
          if (next.done) break;
          event = next.value;
        }
        if (event.type === 'interrupted') {
          context.kind = event.error.kind;
          await wire.fail(out, state, event.error);
          break;
        }
        if (event.type === 'done') {
          await wire.done(out, state, event);
          finished = true;
          break;
        }
        const wrote = wire.event(out, state, event);
        if (wrote) await wrote;
        if (out.gone) break;
        event = undefined;
      }
    } catch (err) {
      // Past the headers an error can only be the wire's failure; the router itself ends every stream with an event.
      if (isRouterError(err)) context.kind = err.kind;
      await wire.fail(out, state, err);
    }
    if (finished && wire.endsWithDone) out.done();
    else out.end();
  } finally {
    await events.return?.(undefined).catch(() => {});
  }
}
