import { withCallerAbort } from '../../policy/abort/abort-link.js';
import { withCallerKey } from '../keys.js';
import type { StreamEvent } from '../../calls/stream.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../convert/convert-error.js';
import { isRouterError } from '../../errors.js';
import type { ChatRequest } from '../../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from '../context.js';
import { errorReply, gatewayError } from '../error-reply.js';
import { SseWriter } from '../sse-writer.js';
import { startStream } from '../stream-start.js';
import { relayEvents, type WireRelay } from '../relay-events.js';
import { chainOf, type GatewayState } from '../state.js';
import { anthropicErrorEvent } from './anthropic-error.js';
import { anthropicParam } from './anthropic-param.js';
import { anthropicStreamer, type AnthropicStreamer } from './anthropic-stream.js';
import { fromAnthropic } from './from-anthropic.js';
import { toAnthropic } from './to-anthropic.js';

/** The body as a Messages request for its chain, or the error to answer with (nothing sent). */
export function readMessagesBody(state: GatewayState, request: FastifyRequest): { chat: ChatRequest; paths: string[] } | { error: ReturnType<typeof errorReply> } {
  const body = request.body;
  if (!isRecord(body)) return { error: gatewayError(400, 'invalid_request_error', 'invalid_body', 'expected a JSON object: a Messages request') };
  const chain = chainOf(state, request, body.model);
  if (typeof chain !== 'string') return { error: chain };
  contextOf(request).chain = chain;
  try {
    const { request: chat, paths } = fromAnthropic(body, chain);
    return { chat, paths };
  } catch (err) {
    if (isRouterError(err)) contextOf(request).kind = err.kind;
    return { error: errorReply(err) };
  }
}

/** `POST /v1/messages`: Anthropic Messages in and out; `model` names a chain; `stream: true` answers in the Messages event stream. */
export function messages(state: GatewayState) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const context = contextOf(request);
    const read = readMessagesBody(state, request);
    if ('error' in read) return sendError(request, reply, read.error, state.draining);
    const { chat, paths } = read;
    context.stream = (request.body as Record<string, unknown>).stream === true;
    try {
      chat.tenant = context.caller.tenant;
      withCallerKey(chat, context.caller);
      withCallerAbort(chat, context.controller);
      if (context.stream) return await streamAnswer(state, request, reply, chat);
      const result = await state.router.chat(chat);
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const headers: Record<string, string> = Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: result.requestId }));
      if (!result.usage) headers['x-switchyard-usage'] = 'unknown';
      return reply.headers(headers).send(toAnthropic(result));
    } catch (err) {
      if (reply.sent) return reply;
      if (isRouterError(err)) context.kind = err.kind;
      // The router names its own parameters (`maxTokens`, `messages[3]`): the client is told the field it sent.
      return sendError(request, reply, errorReply(err, (param) => anthropicParam(param, paths)), state.draining, isRouterError(err) ? err.attempts.length : undefined);
    }
  };
}

/**
 * A streamed answer. Nothing is written until the router commits to a target (its `start` event),
 * so a failure before it is an ordinary HTTP error in Anthropic's envelope. From `start` on the
 * events follow; an interruption ends the stream with an `error` event the SDK throws on.
 */
async function streamAnswer(state: GatewayState, request: FastifyRequest, reply: FastifyReply, chat: ChatRequest): Promise<unknown> {
  const context = contextOf(request);
  // The events carry the text; `done` need not (the stream then holds none of it, at any length).
  // A client that asked for thinking gets it streamed, as Anthropic streams it (it sends the blocks back next turn).
  if (thinkingOn((request.body as Record<string, unknown>).thinking)) chat.streamThinking = true;
  const events = state.router.stream(chat, { keepText: false })[Symbol.asyncIterator]();
  const { start, res } = await startStream(request, reply, state.draining, events);
  // Thinking blocks only from an Anthropic target, as a JSON answer shows them (to-anthropic.ts contentOf).
  const thinkingBlocks = chat.streamThinking === true && state.router.config.providers[start.provider]?.type === 'anthropic';
  await relayEvents(new SseWriter(res), events, start, MESSAGES, anthropicStreamer(undefined, chat, thinkingBlocks), context);
  return reply;
}

/** Whether a Messages body's `thinking` turns thinking on (`enabled`, or `adaptive`: the model decides). */
const thinkingOn = (thinking: unknown): boolean => isRecord(thinking) && (thinking.type === 'enabled' || thinking.type === 'adaptive');

/** The Messages stream: the router's events as named Messages events; no terminator after `message_stop`. */
const MESSAGES: WireRelay<AnthropicStreamer, StreamEvent> = {
  endsWithDone: false,
  event: (out, streamer, event) => out.named(streamer.push(event)),
  done: (out, streamer, event) => out.named(streamer.push(event)),
  fail: (out, _streamer, err) => out.named([anthropicErrorEvent(err)]),
};
