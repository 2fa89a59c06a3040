import type { AbortLink } from '../policy/abort/abort-link.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './keys.js';
import type { ErrorReply } from './error-reply.js';
import { anthropicErrorOf } from './messages/anthropic-error.js';

/** What the gateway knows about one request, for its handler and its log line. */
export interface RequestContext {
  caller: Caller;
  /**
   * Aborted when the client goes away or a drain runs out of time: the router then frees what the call
   * holds. An AbortLink, handed to the router with `withCallerAbort`: no AbortSignal per request.
   */
  controller?: AbortLink;
  chain?: string;
  stream?: boolean;
  provider?: string;
  model?: string;
  attempts?: number;
  /** The RouterError kind a call ended in. */
  kind?: string;
}

const CONTEXTS = new WeakMap<FastifyRequest, RequestContext>();

export function setContext(request: FastifyRequest, context: RequestContext): void {
  CONTEXTS.set(request, context);
}

/** The request's context if the auth hook let it through; undefined for a request it refused. */
export function peekContext(request: FastifyRequest): RequestContext | undefined {
  return CONTEXTS.get(request);
}

/** The request's context (set by the auth hook on every request that reached a route). */
export function contextOf(request: FastifyRequest): RequestContext {
  const context = CONTEXTS.get(request);
  if (!context) throw new Error('gateway: a route ran without a request context (the auth hook did not run)');
  return context;
}

/** What a response carries whatever it is: the request id, and `connection: close` while draining. */
export function baseHeaders(request: FastifyRequest, draining: boolean): Record<string, string> {
  return draining ? { 'x-request-id': request.id, connection: 'close' } : { 'x-request-id': request.id };
}

/** Which target answered, after how many attempts: set before the body starts, on JSON and SSE alike. */
export function servedHeaders(served: { provider: string; model: string; attempts: number; upstreamRequestId?: string }): Record<string, string> {
  const headers: Record<string, string> = {
    'x-switchyard-provider': served.provider,
    'x-switchyard-model': served.model,
    'x-switchyard-attempts': String(served.attempts),
  };
  if (served.upstreamRequestId) headers['x-switchyard-upstream-request-id'] = served.upstreamRequestId;
  return headers;
}

/** The wire a route speaks: OpenAI's (the default) or Anthropic's (its route config says `dialect: 'anthropic'`). */
export function dialectOf(request: FastifyRequest): 'openai' | 'anthropic' {
  return (request.routeOptions.config as { dialect?: string } | undefined)?.dialect === 'anthropic' ? 'anthropic' : 'openai';
}

/**
 * Sends an error in the envelope of the route's wire (OpenAI's, or Anthropic's on the Messages
 * routes), with the headers that steer the client's retries.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: ErrorReply, draining: boolean, attempts?: number): FastifyReply {
  const answer = dialectOf(request) === 'anthropic' ? anthropicErrorOf(error, request.id) : error;
  const headers: Record<string, string> = Object.assign(baseHeaders(request, draining), answer.headers);
  if (attempts !== undefined) headers['x-switchyard-attempts'] = String(attempts);
  return reply.code(answer.status).headers(headers).send(answer.body);
}
