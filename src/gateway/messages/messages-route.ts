import { withCallerAbort } from '../../policy/abort/abort-link.js';
import { withCallerKey } from '../keys.js';
import type { RelayEvent } from '../../calls/stream.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../convert/convert-error.js';
import { isRouterError } from '../../errors.js';
import { withAnthropicBeta } from '../../pass-through/anthropic-beta.js';
import { PassThrough, rawAnswerOf, startsRaw, withPassThrough } from '../../pass-through/seam.js';
import type { ChatRequest } from '../../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from '../context.js';
import { errorReply, gatewayError } from '../error-reply.js';
import { rawBodyOf } from '../raw-body.js';
import { relayStream } from '../relay-stream.js';
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
      // Anthropic targets get the client's anthropic-beta header, on either path (src/pass-through/anthropic-beta.ts).
      withAnthropicBeta(chat, request.headers['anthropic-beta']);
      // Pass-through: an Anthropic target gets the client's bytes when nothing needs mapping (src/decide/messages-pass-through.ts).
      const text = state.passThrough ? rawBodyOf(request) : undefined;
      if (text !== undefined) withPassThrough(chat, new PassThrough(text, request.body as Record<string, unknown>, 'messages'));
      if (context.stream) return await streamAnswer(state, request, reply, chat);
      const result = await state.router.chat(chat);
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const headers: Record<string, string> = Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: result.requestId }));
      if (!result.usage) headers['x-switchyard-usage'] = 'unknown';
      // A cached or replayed answer may carry another endpoint's body: only a Message is relayed, and (as
      // /v1/chat/completions does) only when its `model` is the one the rendered answer would name.
      const raw = rawAnswerOf(result);
      if (raw?.rawApi === 'messages' && (result.responseModel === undefined || result.responseModel === result.model)) {
        headers['content-type'] = 'application/json; charset=utf-8';
        return reply.headers(headers).send(raw.raw);
      }
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
  const events = relayStream(state.router, chat, { keepText: false });
  const { start, res } = await startStream(request, reply, state.draining, events);
  // A pass-through start: the upstream's events as they came (its message_start, pings, thinking and
  // signature deltas, usage, message_stop), nothing of the gateway's own but the error event of a cut.
  if (startsRaw(start)) {
    await relayEvents(new SseWriter(res), events, undefined, BYTES, undefined, context);
    return reply;
  }
  // Thinking blocks only from an Anthropic target, as a JSON answer shows them (to-anthropic.ts contentOf).
  const thinkingBlocks = chat.streamThinking === true && state.router.config.providers[start.provider]?.type === 'anthropic';
  await relayEvents(new SseWriter(res), events, start, MESSAGES, anthropicStreamer(undefined, chat, thinkingBlocks), context);
  return reply;
}

/** Whether a Messages body's `thinking` turns thinking on (`enabled`, or `adaptive`: the model decides). */
const thinkingOn = (thinking: unknown): boolean => isRecord(thinking) && (thinking.type === 'enabled' || thinking.type === 'adaptive');

/** The Messages stream: the router's events as named Messages events; no terminator after `message_stop`. */
const MESSAGES: WireRelay<AnthropicStreamer> = {
  endsWithDone: false,
  // Raw bytes come only after a pass-through start, which BYTES answers.
  event: (out, streamer, event) => (event.type === 'raw' ? undefined : out.named(streamer.push(event))),
  done: (out, streamer, event) => out.named(streamer.push(event)),
  fail: (out, _streamer, err) => out.named([anthropicErrorEvent(err)]),
};

/** A pass-through stream after its start: the upstream's bytes, and an `error` event if it is cut. */
const BYTES: WireRelay<undefined, RelayEvent> = {
  endsWithDone: false,
  event: (out, _state, event) => (event.type === 'raw' ? out.bytes(event.bytes) : undefined),
  done: () => undefined,
  fail: (out, _state, err) => out.named([anthropicErrorEvent(err)]),
};
