import type { Attributes } from '@opentelemetry/api';
import type { ResolvedConfig } from '../../config/index.js';
import type { CallEvent } from '../../observe/events.js';
import type { Usage } from '../../types.js';
import { providerSystem, serverOf } from '../shared/target-info.js';
import type { AttemptEvent } from './pending-attempts.js';

// Attribute names of the OpenTelemetry GenAI semantic conventions (gen-ai-spans, gen-ai-metrics).
export const GEN_AI = Object.freeze({
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  httpStatus: 'http.response.status_code',
});

/** `gen_ai.operation.name` of a call: `chat` for chat and stream, `embeddings` for embed. */
export const operationName = (operation: CallEvent['operation']): string => (operation === 'embed' ? 'embeddings' : 'chat');

/** Input and output token counts of a usage, whichever shape it came in. */
export function tokenCounts(usage: Usage | { inputTokens: number; outputTokens?: number } | undefined): { input?: number; output?: number } {
  if (!usage) return {};
  return { input: usage.inputTokens, output: 'outputTokens' in usage ? usage.outputTokens : undefined };
}

/** What every attempt-level span and measurement of one target says: operation, provider, model, server. */
export function targetAttributes(config: ResolvedConfig, operation: CallEvent['operation'], provider: string, model: string): Attributes {
  const server = serverOf(config, provider);
  return {
    [GEN_AI.operation]: operationName(operation),
    [GEN_AI.provider]: providerSystem(config, provider),
    [GEN_AI.requestModel]: model,
    ...(server ? { [GEN_AI.serverAddress]: server.address, [GEN_AI.serverPort]: server.port } : {}),
  };
}

/** An attempt span's attributes: the target's, then how it ended. */
export function attemptAttributes(config: ResolvedConfig, e: AttemptEvent, usage: ReturnType<typeof tokenCounts>): Attributes {
  return Object.assign({}, targetAttributes(config, e.operation, e.provider, e.model), { 'switchyard.provider': e.provider, 'switchyard.attempt': e.attempt }, (e.ok ? { [GEN_AI.responseModel]: e.responseModel ?? e.model } : { [GEN_AI.errorType]: e.kind ?? '_OTHER' }), (e.status !== undefined ? { [GEN_AI.httpStatus]: e.status } : {}), (e.code !== undefined ? { 'switchyard.error.code': e.code } : {}), (e.requestId !== undefined ? { 'switchyard.request_id': e.requestId } : {}), (usage.input !== undefined ? { [GEN_AI.inputTokens]: usage.input } : {}), (usage.output !== undefined ? { [GEN_AI.outputTokens]: usage.output } : {}), (e.costUsd !== undefined ? { 'switchyard.cost_usd': e.costUsd } : {}));
}

/**
 * The call span's attributes. `gen_ai.request.model` is the chain's first model (what was asked
 * for), `gen_ai.response.model` the model the provider said answered (else the answering target's),
 * `gen_ai.provider.name` the target that answered (or, for a failed call, the last one tried);
 * `switchyard.*` say the rest.
 */
export function callAttributes(config: ResolvedConfig, e: CallEvent, attempts: readonly AttemptEvent[]): Attributes {
  const primary = config.chains[e.chain]?.[0];
  const lastSent = [...attempts].reverse().find((a) => !a.skipped);
  const provider = e.provider ?? lastSent?.provider ?? primary?.provider;
  const usage = tokenCounts(e.usage);
  const sent = attempts.filter((a) => !a.skipped).length;
  return {
    [GEN_AI.operation]: operationName(e.operation),
    ...(provider !== undefined ? { [GEN_AI.provider]: providerSystem(config, provider), 'switchyard.provider': provider } : {}),
    ...(primary ? { [GEN_AI.requestModel]: primary.model } : {}),
    ...(e.model !== undefined && e.outcome === 'ok' ? { [GEN_AI.responseModel]: e.responseModel ?? e.model } : {}),
    ...(e.outcome !== 'ok' ? { [GEN_AI.errorType]: e.kind ?? '_OTHER' } : {}),
    ...(usage.input !== undefined ? { [GEN_AI.inputTokens]: usage.input } : {}),
    ...(usage.output !== undefined ? { [GEN_AI.outputTokens]: usage.output } : {}),
    'switchyard.chain': e.chain,
    'switchyard.call_id': e.callId,
    'switchyard.tenant': e.tenant,
    'switchyard.outcome': e.outcome,
    'switchyard.attempts': sent,
    'switchyard.skipped': attempts.length - sent,
    ...(e.timeToFirstTokenMs !== undefined ? { 'switchyard.time_to_first_token_ms': e.timeToFirstTokenMs } : {}),
    ...(e.replayed ? { 'switchyard.replayed': true } : {}),
    ...(e.cached ? { 'switchyard.cached': true } : {}),
    ...(e.costUsd !== undefined ? { 'switchyard.cost_usd': e.costUsd } : {}),
  };
}
