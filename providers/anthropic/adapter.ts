import Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../../src/decide/rate-limit-snapshot.js';
import { secretRedactor } from '../../src/observe/redact.js';
import type { FinishReason } from '../../src/types.js';
import { sdkLogger } from '../shared/sdk-logger.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse } from '../types.js';
import { mapAnthropicError } from './map-error.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length',
  tool_use: 'tool_calls', refusal: 'content_filter',
};

/** Anthropic requires `max_tokens`; this is what a call that sets none gets. */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * The Messages body for one request: system messages go to `system`, `maxTokens` to `max_tokens`.
 * `temperature` is dropped: API version 2026-10-21 (the one SDK 1.x speaks) rejects it with a 400.
 */
export function anthropicBody(request: ProviderRequest): Anthropic.MessageCreateParamsNonStreaming {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: request.messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
  };
  if (system.length > 0) body.system = system.join('\n\n');
  return body;
}

/**
 * The `anthropic` adapter: the Messages API through the official SDK with its retries off.
 * @example const adapter = anthropicAdapter({ provider, clock, logger });
 */
export function anthropicAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock } = ctx;
  const redact = secretRedactor([provider.resolvedApiKey]);
  const client = new Anthropic({
    apiKey: provider.resolvedApiKey ?? null,
    baseURL: provider.baseURL ?? 'https://api.anthropic.com',
    maxRetries: 0,
    timeout: provider.timeoutMs ?? 600_000,
    defaultHeaders: provider.headers,
    logger: sdkLogger(ctx.logger, provider.name),
    logLevel: 'warn',
  });

  return {
    name: provider.name,
    type: provider.type,
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      const where = { provider: provider.name, model: request.model };
      let data: Anthropic.Message;
      let response: Response;
      try {
        ({ data, response } = await client.messages.create(anthropicBody(request), { signal: options.signal }).withResponse());
      } catch (err) {
        throw mapAnthropicError(err, { ...where, nowMs: clock.now(), redact });
      }
      if (!data || !Array.isArray(data.content)) throw malformedResponse(where, 'no content array');
      const usage = data.usage ?? ({} as Anthropic.Usage);
      return {
        text: data.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
        finishReason: (data.stop_reason && FINISH[data.stop_reason]) || (data.stop_reason ? 'other' : 'stop'),
        usage: {
          // Cached prompt tokens are still prompt tokens; count them so budgets see the whole input.
          inputTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
          outputTokens: usage.output_tokens ?? 0,
        },
        model: data.model ?? request.model,
        requestId: response.headers.get('request-id') ?? undefined,
        rateLimit: readRateLimits(response.headers, clock.now()),
      };
    },
    async close() {},
  };
}
