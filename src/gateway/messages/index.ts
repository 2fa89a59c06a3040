import type { FastifyInstance } from 'fastify';
import type { GatewayState } from '../state.js';
import { countTokens } from './count-tokens.js';
import { messages } from './messages-route.js';

/** The Anthropic Messages routes: their keys come as `x-api-key` or a bearer, their errors in Anthropic's envelope. */
export function messagesRoutes(app: FastifyInstance, state: GatewayState): void {
  app.post('/v1/messages', { config: { call: true, dialect: 'anthropic' } }, messages(state));
  app.post('/v1/messages/count_tokens', { config: { dialect: 'anthropic' } }, countTokens(state));
}
