import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseHeaders, sendError } from './context.js';
import { gatewayError } from './error-reply.js';
import { chainAllowed, type GatewayState } from './state.js';

const entry = (state: GatewayState, id: string) => ({ id, object: 'model', created: state.createdAt, owned_by: 'switchyard' });

/** `GET /v1/models`: the chains this key may use, each as a model (its `id` is what `model` takes). */
export function listModels(state: GatewayState) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const data = Object.keys(state.router.config.chains).filter((name) => chainAllowed(state, request, name)).map((name) => entry(state, name));
    return reply.headers(baseHeaders(request, state.draining)).send({ object: 'list', data });
  };
}

/** `GET /v1/models/:id`: one chain, or 404 as for a chain the key may not use. */
export function retrieveModel(state: GatewayState) {
  return async function handler(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<unknown> {
    const { id } = request.params;
    if (!chainAllowed(state, request, id)) {
      return sendError(request, reply, gatewayError(404, 'invalid_request_error', 'model_not_found', `The model \`${id}\` does not exist or you do not have access to it.`, 'model'), state.draining);
    }
    return reply.headers(baseHeaders(request, state.draining)).send(entry(state, id));
  };
}
