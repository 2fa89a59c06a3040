import { withCallerAbort } from '../policy/abort/abort-link.js';
import { withCallerKey } from './keys.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamEvent } from '../calls/stream.js';
import { fromOpenAI } from '../convert/from-openai.js';
import { openAIParam } from '../convert/openai-param.js';
import { openAIChunker, openAIErrorFrame } from '../convert/to-openai-chunks.js';
import { toOpenAI } from '../convert/to-openai.js';
import { isRouterError } from '../errors.js';
import type { ChatRequest } from '../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from './context.js';
import { errorReply, gatewayError } from './error-reply.js';
import { rawBodyOf } from './raw-body.js';
import { SseWriter } from './sse-writer.js';
import { startStream } from './stream-start.js';
import { chainOf, type GatewayState } from './state.js';

/** What a Chat Completions body says it is, near its start. */
const CHAT_COMPLETION = /"object"\s*:\s*"chat\.completion"/;

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
      if (text !== undefined) chat.passThrough = { text, body: params };
      if (context.stream) return await streamAnswer(state, request, reply, chat, params);
      const result = await state.router.chat(chat);
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const headers: Record<string, string> = Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: result.requestId }));
      // A cached or replayed answer may carry another endpoint's body (a Responses object): only a chat completion is relayed.
      if (result.raw !== undefined && (result.responseModel === undefined || result.responseModel === result.model) && CHAT_COMPLETION.test(result.raw)) {
        // The upstream's answer as it came: its `model` is the one today's converted answer names.
        headers['content-type'] = 'application/json; charset=utf-8';
        return reply.headers(headers).send(result.raw);
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
  const events = state.router.stream(chat, { keepText: false })[Symbol.asyncIterator]();
  const { start, res } = await startStream(request, reply, state.draining, events);
  let next: IteratorResult<StreamEvent>;
  const out = new SseWriter(res);
  if (start.passThrough) return relayBytes(context, reply, out, events);
  const options = params.stream_options as { include_usage?: unknown } | undefined;
  const chunker = openAIChunker({ includeUsage: options?.include_usage === true });
  try {
    let event: StreamEvent = start;
    for (;;) {
      // Raw bytes come only after a pass-through start, which relayBytes answers.
      const chunks = event.type === 'raw' ? [] : chunker.push(event);
      if (event.type === 'interrupted') {
        context.kind = event.error.kind;
        await out.events(chunks);
        out.end();
        return reply;
      }
      const wrote = out.events(chunks);
      if (wrote) await wrote;
      if (event.type === 'done') {
        out.done();
        return reply;
      }
      if (out.gone) return reply;
      next = await events.next();
      if (next.done) {
        out.end();
        return reply;
      }
      event = next.value;
    }
  } catch (err) {
    // Past the headers an error can only be a frame; the router itself ends every stream with an event.
    const { body } = errorReply(err);
    await out.events([body]);
    out.end();
    return reply;
  } finally {
    // A client that went away: stop reading, so the router aborts the upstream request and frees its slot.
    await events.return?.(undefined).catch(() => {});
  }
}

/**
 * A pass-through stream after its start: the upstream's bytes as they came (its chunks, its
 * `[DONE]`), nothing of the gateway's own but the error frame that ends an interrupted stream.
 */
async function relayBytes(context: ReturnType<typeof contextOf>, reply: FastifyReply, out: SseWriter, events: AsyncIterator<StreamEvent>): Promise<unknown> {
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      const event = next.value;
      if (event.type === 'raw') {
        const wrote = out.bytes(event.bytes);
        if (wrote) await wrote;
        if (out.gone) return reply;
      } else if (event.type === 'interrupted') {
        context.kind = event.error.kind;
        await out.events([openAIErrorFrame(event.error)]);
        break;
      } else if (event.type === 'done') {
        break;
      }
    }
  } catch (err) {
    await out.events([errorReply(err).body]);
  } finally {
    await events.return?.(undefined).catch(() => {});
  }
  out.end();
  return reply;
}
