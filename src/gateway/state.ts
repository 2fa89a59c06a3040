import type { FastifyRequest } from 'fastify';
import type { Router } from '../router.js';
import { contextOf } from './context.js';
import { gatewayError, type ErrorReply } from './error-reply.js';

/** What the routes of one gateway share. */
export interface GatewayState {
  router: Router;
  /** True once a drain started: answers say `connection: close`, new calls get 503. */
  draining: boolean;
  /** When the gateway was created (Unix seconds): the `created` of every /v1/models entry. */
  createdAt: number;
  /** Pass-through on: bodies an OpenAI-compatible target takes as they are go as the client's bytes. */
  passThrough: boolean;
}

/** True when `name` is a chain of the router that this request's key may use. */
export function chainAllowed(state: GatewayState, request: FastifyRequest, name: string): boolean {
  if (!Object.hasOwn(state.router.config.chains, name)) return false;
  const { chains } = contextOf(request).caller;
  return chains === undefined || chains.has(name);
}

/**
 * The chain a body's `model` names, or the error to answer with: 400 without a model, 404 for a
 * chain that does not exist or that the key may not use (the same answer, as OpenAI gives for a
 * model you have no access to, so a key cannot probe for chain names).
 */
export function chainOf(state: GatewayState, request: FastifyRequest, model: unknown): string | ErrorReply {
  if (typeof model !== 'string' || model === '') {
    return gatewayError(400, 'invalid_request_error', 'invalid_parameter', 'model is required: the name of a chain (GET /v1/models lists them)', 'model');
  }
  if (!chainAllowed(state, request, model)) {
    return gatewayError(404, 'invalid_request_error', 'model_not_found', `The model \`${model}\` does not exist or you do not have access to it. The gateway's models are its chains: GET /v1/models lists them.`, 'model');
  }
  return model;
}
