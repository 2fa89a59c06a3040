import { withCallerAbort } from '../../policy/abort/abort-link.js';
import { withCallerKey } from '../keys.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRouterError } from '../../errors.js';
import type { Logger } from '../../observe/logger.js';
import type { ChatRequest, ChatResult } from '../../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from '../context.js';
import { errorReply, gatewayError, type WireParam } from '../error-reply.js';
import { SseWriter } from '../sse-writer.js';
import { chainOf, type GatewayState } from '../state.js';
import { startStream } from '../stream-start.js';
import type { Conversations } from './conversations.js';
import { isResponseId, newResponseId } from './ids.js';
import { referencedIds } from './input-items.js';
import { responsesCall, type ResponsesCall } from './parse-request.js';
import { completedResponse, type ResponseMeta } from './response-object.js';
import { ResponsesEvents } from './stream-events.js';
import { optionalString } from './wire-errors.js';
import { responsesParam } from './wire-param.js';
import { relayResponses } from './relay.js';
import { relayEvents, type WireRelay } from '../relay-events.js';
import { responsesFailure } from './failure.js';
import { rawBodyOf } from '../raw-body.js';
import { PassThrough, rawAnswerOf, startsRaw, withPassThrough, withResponsesFields } from '../../pass-through/seam.js';
import { relayStream } from '../relay-stream.js';

const nowS = () => Math.floor(Date.now() / 1000);

/** What one Responses request needs besides the gateway's state. */
interface Turn {
  state: GatewayState;
  conversations: Conversations;
  logger: Logger | undefined;
  tenant: string;
  call: ResponsesCall;
  meta: ResponseMeta;
}

/**
 * `POST /v1/responses`: the OpenAI Responses API over the router. `model` names a chain; the input
 * (after the conversation `previous_response_id` names, kept per tenant) goes down it as one call;
 * the answer is a Response object, or with `stream: true` the Responses events. Unless `store: false`,
 * the conversation so far is kept for `gateway.responses.ttlMs`, for the next `previous_response_id`.
 */
export function responsesRoute(state: GatewayState, conversations: Conversations, logger?: Logger) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const context = contextOf(request);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(request, reply, gatewayError(400, 'invalid_request_error', 'invalid_body', 'expected a JSON object: a Responses request'), state.draining);
    }
    const params = body as Record<string, unknown>;
    const chain = chainOf(state, request, params.model);
    if (typeof chain !== 'string') return sendError(request, reply, chain, state.draining);
    context.chain = chain;
    context.stream = params.stream === true;
    const tenant = context.caller.tenant;
    let call: ResponsesCall;
    try {
      const history = await conversations.history(tenant, optionalString(params.previous_response_id, 'previous_response_id'));
      const items = await conversations.items(tenant, referencedIds(params.input));
      call = responsesCall(params, history, (id) => items.get(id));
    } catch (err) {
      if (isRouterError(err)) context.kind = err.kind;
      return sendError(request, reply, errorReply(err), state.draining);
    }
    const wireParam = responsesParam(call.paths);
    // The caller's key rides along, so its own spend budget applies.
    const chat: ChatRequest = withCallerAbort(withCallerKey(Object.assign({}, call.chat, { chain, tenant }), context.caller), context.controller);
    // Fields only the Responses API reads (reasoning.summary, text.verbosity, Codex's custom tools): Responses targets get them.
    if (call.fields) withResponsesFields(chat, call.fields);
    const turn: Turn = { state, conversations, logger, tenant, call, meta: { id: newResponseId(), createdAt: nowS(), model: chain, echo: call.echo } };
    const custom = call.fields?.tools?.filter((t) => (t as { type?: unknown }).type === 'custom').map((t) => (t as { name: string }).name);
    if (custom && custom.length > 0) turn.meta.custom = new Set(custom);
    // Pass-through: a target on the Responses API gets the client's bytes when nothing needs mapping (src/decide/responses-pass-through.ts).
    const text = state.passThrough ? rawBodyOf(request) : undefined;
    if (text !== undefined) withPassThrough(chat, new PassThrough(text, params, 'responses'));
    try {
      if (context.stream) return await streamAnswer(turn, request, reply, chat);
      const result = await state.router.chat(chat);
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const headers: Record<string, string> = Object.assign({}, baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: result.requestId }));
      // A cached or replayed answer may carry another endpoint's body (a chat completion): only a Response is relayed.
      const raw = rawAnswerOf(result);
      if (raw?.rawApi === 'responses') {
        // The upstream's Response as it came (its id, output items and usage), kept under its own id:
        // as the adapter parsed it, or (a replay, which keeps only the bytes) parsed now.
        await keep(turn, result, raw.rawParsed ?? JSON.parse(raw.raw) as Record<string, unknown>);
        headers['content-type'] = 'application/json; charset=utf-8';
        return reply.headers(headers).send(raw.raw);
      }
      turn.meta.model = result.model;
      const response = completedResponse(turn.meta, result, nowS());
      await keep(turn, result, response);
      return reply.headers(headers).send(response);
    } catch (err) {
      if (reply.sent) return reply;
      if (isRouterError(err)) context.kind = err.kind;
      return sendError(request, reply, errorReply(oneLine(err, wireParam), wireParam), state.draining, isRouterError(err) ? err.attempts.length : undefined);
    }
  };
}

/**
 * A refusal of the router's own checks as OpenAI words one: a code (theirs name only the parameter),
 * one line of message (theirs list each problem on a line of its own), and the wire's name for the
 * parameter in it (`input[0].content[0].image_url`, not `messages[1].content[0].url`).
 */
function oneLine(err: unknown, wireParam: WireParam): unknown {
  if (!isRouterError(err) || err.kind !== 'invalid_request') return err;
  let message = err.message.replace(/:\n\s*- /, ': ').replace(/\n\s*- /g, '; ');
  if (err.param !== undefined) message = message.split(`${err.param}:`).join(`${wireParam(err.param)}:`);
  return err.code === undefined || message !== err.message ? err.with({ code: err.code ?? 'invalid_value' }, message) : err;
}

/**
 * Stores the conversation so far under the response's id, unless the request said `store: false`.
 * A store that fails loses the continuation, never the answer: it is logged and the answer sent.
 */
async function keep(turn: Turn, result: ChatResult, response: { id?: unknown; output?: unknown }): Promise<void> {
  if (!turn.call.echo.store) return;
  // A passed-through answer is the upstream's Response: the client continues it by the upstream's id.
  const id = typeof response.id === 'string' && response.id !== turn.meta.id && isResponseId(response.id) ? response.id : turn.meta.id;
  const history = turn.call.chat.messages.slice(turn.call.echo.instructions ? 1 : 0);
  const output = Array.isArray(response.output) ? response.output as Array<Record<string, unknown>> : [];
  try {
    await turn.conversations.write(id, { v: 1, tenant: turn.tenant, messages: [...history, result.message], output, response });
  } catch (err) {
    turn.logger?.warn({ err: String(err), responseId: id }, 'the state store did not keep a response: previous_response_id will not find it');
  }
}

/**
 * A streamed answer. Nothing is written before the router commits to a target (its `start` event),
 * so a failure before it is an ordinary HTTP error the SDKs raise with its status; from `start` on
 * the events follow, and an interruption ends them with `error` and `response.failed`.
 */
async function streamAnswer(turn: Turn, request: FastifyRequest, reply: FastifyReply, chat: ChatRequest): Promise<unknown> {
  const { state } = turn;
  const context = contextOf(request);
  const events = relayStream(state.router, chat);
  const { start, res } = await startStream(request, reply, state.draining, events);
  turn.meta.model = start.model;
  const out = new SseWriter(res);
  if (startsRaw(start)) {
    await relayResponses(out, events, { keep: (result, response) => keep(turn, result, response) }, context);
    return reply;
  }
  const translated: Translated = { turn, translate: new ResponsesEvents(turn.meta) };
  const wrote = out.named(translated.translate.start());
  if (wrote) await wrote;
  await relayEvents(out, events, undefined, TRANSLATED, translated, context);
  return reply;
}

/** One translated stream: its turn, and the events it has become so far. */
interface Translated {
  turn: Turn;
  translate: ResponsesEvents;
}

/** The translated stream: the router's events as Responses events; `response.completed` once the answer is kept. */
const TRANSLATED: WireRelay<Translated> = {
  endsWithDone: false,
  event: (out, t, event) => out.named(t.translate.push(event)),
  async done(out, t, event) {
    const closing = t.translate.finish(event.result, nowS());
    // Kept before the client hears it is complete: its next request may continue it at once.
    await keep(t.turn, event.result, closing.at(-1)!.response as { output: unknown[] });
    await out.named(closing);
  },
  fail(out, t, err) {
    const { code, message } = responsesFailure(err);
    return out.named(t.translate.fail(code, message));
  },
};

/**
 * `GET /v1/responses/{id}` (the SDKs' `responses.retrieve`): a stored response of this key's tenant,
 * as it was answered; 404 for one it does not know, one stored with `store: false`, one that
 * expired, and another tenant's alike.
 */
export function retrieveResponse(state: GatewayState, conversations: Conversations) {
  return async function handler(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<unknown> {
    const { id } = request.params;
    try {
      const record = await conversations.read(contextOf(request).caller.tenant, id);
      if (!record?.response) {
        return sendError(request, reply, gatewayError(404, 'invalid_request_error', 'response_not_found', `Response with id '${id}' not found.`, 'response_id'), state.draining);
      }
      return reply.headers(baseHeaders(request, state.draining)).send(record.response);
    } catch (err) {
      return sendError(request, reply, errorReply(err), state.draining);
    }
  };
}
