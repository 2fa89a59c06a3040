import { withCallerAbort } from '../policy/abort/abort-link.js';
import { withCallerKey } from './keys.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RelayEvent } from '../calls/stream.js';
import { fromOpenAI } from '../convert/from-openai.js';
import { openAIParam } from '../convert/openai-param.js';
import { openAIChunker, openAIErrorFrame, type OpenAIChunker } from '../convert/to-openai-chunks.js';
import { toOpenAI } from '../convert/to-openai.js';
import { isRouterError } from '../errors.js';
import type { ChatRequest } from '../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from './context.js';
import { errorReply, gatewayError } from './error-reply.js';
import { rawBodyOf } from './raw-body.js';
import { relayEvents, type WireRelay } from './relay-events.js';
import { PassThrough, rawAnswerOf, startsRaw, withPassThrough } from '../pass-through/seam.js';
import { relayStream } from './relay-stream.js';
import { SseWriter } from './sse-writer.js';
import { startStream } from './stream-start.js';
import { chainOf, type GatewayState } from './state.js';

/** `POST /v1/chat/completions`: `model` names a chain; `stream: true` answers in server-sent events. */
export function chatCompletions(state: GatewayState) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const context = contextOf(request);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(request, reply, gatewayError(400, 'invalid_request_error', 'invalid_body', 'expected a JSON object: a Chat Completions request'), state.draining);
    }
    const params = body as Record<string, unknown>;
    const chain = chainOf(state, request, params.model);
    if (typeof chain !== 'string') return sendError(request, reply, chain, state.draining);
    context.chain = chain;
    context.stream = params.stream === true;
    let chat: ChatRequest;
    try {
      chat = fromOpenAI(params, { chain });
    } catch (err) {
      // The converter names the body's own fields; nothing was sent.
      if (isRouterError(err)) context.kind = err.kind;
      return sendError(request, reply, errorReply(err), state.draining, isRouterError(err) ? err.attempts.length : undefined);
    }
    try {
      chat.tenant = context.caller.tenant;
      withCallerKey(chat, context.caller);
      withCallerAbort(chat, context.controller);
      // Pass-through: a target that takes the body as it is gets the client's bytes (see src/decide/pass-through.ts).
      const text = state.passThrough ? rawBodyOf(request) : undefined;
      if (text !== undefined) withPassThrough(chat, new PassThrough(text, params, 'chat'));
      if (context.stream) return await streamAnswer(state, request, reply, chat, params);
      const result = await state.router.chat(chat);
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const headers: Record<string, string> = Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: result.requestId }));
      // A cached or replayed answer may carry another endpoint's body (a Responses object): only a chat completion is relayed.
      const raw = rawAnswerOf(result);
      if (raw?.rawApi === 'chat' && (result.responseModel === undefined || result.responseModel === result.model)) {
        // The upstream's answer as it came: its `model` is the one today's converted answer names.
        headers['content-type'] = 'application/json; charset=utf-8';
        return reply.headers(headers).send(raw.raw);
      }
      return reply.headers(headers).send(toOpenAI(result));
    } catch (err) {
      if (reply.sent) return reply;
      if (isRouterError(err)) context.kind = err.kind;
      // The router names its own parameters (`maxTokens`): the client is told the field it sent.
      return sendError(request, reply, errorReply(err, (param) => openAIParam(param, params)), state.draining, isRouterError(err) ? err.attempts.length : undefined);
    }
  };
}

/**
 * A streamed answer. Until the router commits to a target (its `start` event, at the first token)
 * nothing is written, so a failure before it is still an ordinary HTTP error the SDK raises with its
 * status. From `start` on, the headers are out and the chunks follow; an interruption becomes the
 * error frame the openai SDK throws on.
 */
async function streamAnswer(state: GatewayState, request: FastifyRequest, reply: FastifyReply, chat: ChatRequest, params: Record<string, unknown>): Promise<unknown> {
  const context = contextOf(request);
  // The chunks carry the text; `done` need not (the stream then holds none of it, at any length).
  const events = relayStream(state.router, chat, { keepText: false });
  const { start, res } = await startStream(request, reply, state.draining, events);
  const out = new SseWriter(res);
  if (startsRaw(start)) return relayBytes(context, reply, out, events);
  const options = params.stream_options as { include_usage?: unknown } | undefined;
  const chunker = openAIChunker({ includeUsage: options?.include_usage === true });
  await relayEvents(out, events, start, CHUNKS, chunker, context);
  return reply;
}

/** The translated stream: the router's events as OpenAI chunks, `data: [DONE]` after the finish. */
const CHUNKS: WireRelay<OpenAIChunker> = {
  endsWithDone: true,
  // Raw bytes come only after a pass-through start, which relayBytes answers.
  event: (out, chunker, event) => (event.type === 'raw' ? undefined : out.events(chunker.push(event))),
  done: (out, chunker, event) => out.events(chunker.push(event)),
  fail: (out, _chunker, err) => out.events([openAIErrorFrame(err)]),
};

/**
 * A pass-through stream after its start: the upstream's bytes as they came (its chunks, its
 * `[DONE]`), nothing of the gateway's own but the error frame that ends an interrupted stream.
 */
async function relayBytes(context: ReturnType<typeof contextOf>, reply: FastifyReply, out: SseWriter, events: AsyncIterator<RelayEvent>): Promise<unknown> {
  await relayEvents(out, events, undefined, BYTES, undefined, context);
  return reply;
}

const BYTES: WireRelay<undefined> = {
  endsWithDone: false,
  event: (out, _state, event) => (event.type === 'raw' ? out.bytes(event.bytes) : undefined),
  done: () => undefined,
  fail: (out, _state, err) => out.events([openAIErrorFrame(err)]),
};
