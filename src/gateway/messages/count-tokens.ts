import type { FastifyReply, FastifyRequest } from 'fastify';
import { heuristicTokens, promptTokenEstimate } from '../../decide/token-estimate.js';
import { baseHeaders, sendError } from '../context.js';
import type { GatewayState } from '../state.js';
import { readMessagesBody } from './messages-route.js';

/**
 * `POST /v1/messages/count_tokens`: `{ input_tokens }` for a Messages body (system, messages, tools,
 * output format), estimated by the router's own rule for models without a public tokenizer (3.5
 * ASCII characters a token, errs high), the estimate its budgets reserve. Nothing goes upstream.
 */
export function countTokens(state: GatewayState) {
  return async function handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const read = readMessagesBody(state, request);
    if ('error' in read) return sendError(request, reply, read.error, state.draining);
    const { chat } = read;
    const schema = chat.responseFormat?.type === 'json_schema' ? chat.responseFormat.schema : undefined;
    const input = promptTokenEstimate({ messages: chat.messages, tools: chat.tools, ...(schema ? { responseFormat: { type: 'json_schema', schema } } : {}) }, heuristicTokens);
    return reply.headers(Object.assign(baseHeaders(request, state.draining), { 'x-switchyard-estimate': 'heuristic' })).send({ input_tokens: input });
  };
}
