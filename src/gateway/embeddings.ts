import { withCallerAbort } from '../policy/abort/abort-link.js';
import { withCallerKey } from './keys.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRouterError } from '../errors.js';
import type { Attempt, EmbedRequest } from '../types.js';
import { baseHeaders, contextOf, sendError, servedHeaders } from './context.js';
import { errorReply, gatewayError, type ErrorReply } from './error-reply.js';
import { rawBodyOf } from './raw-body.js';
import { PassThrough, rawAnswerOf, withPassThrough } from '../pass-through/seam.js';
import { chainOf, type GatewayState } from './state.js';

const KNOWN = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);

/**
 * A vector as OpenAI's `encoding_format: "base64"` sends it: float32, little-endian, base64. The
 * Node SDK asks for this by default and decodes whatever comes back as such, so an answer of plain
 * floats would give it a vector of a quarter the length, silently.
 */
export function float32Base64(vector: readonly number[]): string {
  const buf = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) buf.writeFloatLE(vector[i]!, i * 4);
  return buf.toString('base64');
}

/** The provider's request id of the first request that answered: the only one, unless the input went in batches. */
function upstreamRequestId(attempts: readonly Attempt[]): string | undefined {
  return attempts.find((a) => a.ok)?.requestId;
}

const invalid = (param: string, message: string): ErrorReply => gatewayError(400, 'invalid_request_error', 'invalid_parameter', message, param);

/** The embed request a body asks for, or the 400 that answers it. */
function embedRequestOf(body: Record<string, unknown>, chain: string): { request: EmbedRequest; base64: boolean } | ErrorReply {
  for (const key of Object.keys(body)) {
    if (!KNOWN.has(key) && body[key] !== undefined) return gatewayError(400, 'invalid_request_error', 'unsupported_parameter', `${key} is not supported`, key);
  }
  const { input, encoding_format: format, dimensions } = body;
  const strings = typeof input === 'string' || (Array.isArray(input) && input.length > 0 && input.every((s) => typeof s === 'string'));
  if (!strings) {
    const tokens = Array.isArray(input) && input.length > 0 && input.every((s) => typeof s === 'number' || Array.isArray(s));
    return invalid('input', tokens ? 'token arrays are not supported: send text (token ids mean nothing to another provider)' : 'expected a string or a non-empty array of strings');
  }
  if (format !== undefined && format !== null && format !== 'float' && format !== 'base64') return invalid('encoding_format', 'expected "float" or "base64"');
  if (dimensions !== undefined && (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1)) return invalid('dimensions', 'expected a whole number of at least 1');
  const request: EmbedRequest = { chain, input: input as string | string[], ...(dimensions !== undefined ? { dimensions: dimensions as number } : {}) };
  return { request, base64: format === 'base64' };
}

/** An EmbedRequest parameter as the embeddings body names it: the chain is the body's `model`. */
const embedParam = (param: string): string => (param === 'chain' ? 'model' : param);

/** `POST /v1/embeddings`: `model` names an embeddings chain; vectors as floats or base64, as asked. */
export function embeddings(state: GatewayState) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const context = contextOf(request);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(request, reply, gatewayError(400, 'invalid_request_error', 'invalid_body', 'expected a JSON object: an embeddings request'), state.draining);
    }
    const params = body as Record<string, unknown>;
    const chain = chainOf(state, request, params.model);
    if (typeof chain !== 'string') return sendError(request, reply, chain, state.draining);
    context.chain = chain;
    const asked = embedRequestOf(params, chain);
    if ('status' in asked) return sendError(request, reply, asked, state.draining);
    // Pass-through: a target that takes the body as it is gets the client's bytes and its answer comes back as it came.
    const text = state.passThrough ? rawBodyOf(request) : undefined;
    if (text !== undefined) withPassThrough(asked.request, new PassThrough(text, params, 'embeddings'));
    try {
      // The request is this handler's own: filled in, not copied (a copy made by spreading would get a
      // hidden class of its own every time on Node 20, see src/observe/event-refs.ts).
      asked.request.tenant = context.caller.tenant;
      withCallerAbort(asked.request, context.controller);
      const result = await state.router.embed(withCallerKey(asked.request, context.caller));
      Object.assign(context, { provider: result.provider, model: result.model, attempts: result.attempts.length });
      const raw = rawAnswerOf(result);
      if (raw !== undefined) {
        return reply.headers(Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: upstreamRequestId(result.attempts) }), { 'content-type': 'application/json; charset=utf-8' }))
          .send(raw.raw);
      }
      const data = result.embeddings.map((vector, index) => ({ object: 'embedding', index, embedding: asked.base64 ? float32Base64(vector) : vector }));
      const tokens = result.usage.inputTokens;
      return reply.headers(Object.assign(baseHeaders(request, state.draining), servedHeaders({ provider: result.provider, model: result.model, attempts: result.attempts.length, upstreamRequestId: upstreamRequestId(result.attempts) })))
        .send({ object: 'list', data, model: result.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
    } catch (err) {
      if (isRouterError(err)) context.kind = err.kind;
      return sendError(request, reply, errorReply(err, embedParam), state.draining, isRouterError(err) ? err.attempts.length : undefined);
    }
  };
}
