import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RelayEvent, StreamStart } from '../calls/stream.js';
import { baseHeaders, contextOf, servedHeaders } from './context.js';

/** The head of every server-sent event stream the gateway answers with. */
export const SSE_HEADERS = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // nginx and similar proxies buffer responses unless told not to; a stream must flow as it comes.
  'x-accel-buffering': 'no',
});

/** A stream the router committed to: its `start` event, and the raw response its head went out on. */
export interface StartedStream {
  start: StreamStart;
  res: ServerResponse;
}

/**
 * Waits for a router stream's commit (its first event, `start`) and only then answers: the request's
 * context records the target and attempts, the reply is hijacked and the SSE head written with the
 * served headers. Until `start` nothing is written, so a failure before it is thrown (after the
 * stream is closed) and the route still answers it as an ordinary HTTP error.
 */
export async function startStream(request: FastifyRequest, reply: FastifyReply, draining: boolean, events: AsyncIterator<RelayEvent>): Promise<StartedStream> {
  let next: IteratorResult<RelayEvent>;
  try {
    next = await events.next();
  } catch (err) {
    await events.return?.(undefined).catch(() => {});
    throw err;
  }
  if (next.done || next.value.type !== 'start') {
    await events.return?.(undefined).catch(() => {});
    throw new Error('the router stream did not start with a start event');
  }
  // The start event carries what the headers say: the attempts made, the committed request's id.
  const start = next.value;
  const attempts = start.attempts.length;
  Object.assign(contextOf(request), { provider: start.provider, model: start.model, attempts });
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, Object.assign({}, SSE_HEADERS, baseHeaders(request, draining), servedHeaders({ provider: start.provider, model: start.model, attempts, upstreamRequestId: start.requestId })));
  return { start, res };
}
