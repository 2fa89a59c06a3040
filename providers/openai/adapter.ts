import OpenAI from 'openai';
import { readRateLimits } from '../../src/decide/rate-limit-snapshot.js';
import { secretRedactor } from '../../src/observe/redact.js';
import type { FinishReason } from '../../src/types.js';
import { sdkLogger } from '../shared/sdk-logger.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { openAIBody } from './adapter-body.js';
import { mapOpenAIError } from './map-error.js';
import { streamOpenAI } from './stream.js';

export { openAIBody } from './adapter-body.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop', length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls', content_filter: 'content_filter',
};

/**
 * The `openai` and `openai-compatible` adapter: Chat Completions through the official SDK with its
 * retries off (`maxRetries: 0`); Switchyard owns the one retry loop.
 * @example const adapter = openAIAdapter({ provider, clock, logger });
 */
export function openAIAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock } = ctx;
  const compatible = provider.type === 'openai-compatible';
  const redact = secretRedactor([provider.resolvedApiKey]);
  const client = new OpenAI({
    // Local servers (Ollama, vLLM) accept any key; the SDK insists on one, so give it a placeholder
    // rather than let it read OPENAI_API_KEY from the environment behind the config's back.
    apiKey: provider.resolvedApiKey ?? 'not-needed',
    baseURL: provider.baseURL ?? 'https://api.openai.com/v1',
    maxRetries: 0,
    timeout: provider.timeoutMs ?? 600_000,
    defaultHeaders: provider.headers,
    logger: sdkLogger(ctx.logger, provider.name),
    logLevel: 'warn',
  });

  return {
    name: provider.name,
    type: provider.type,
    traits: { tokenCounting: 'characters', maxEmbeddingInputs: 2048 },
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      const where = { provider: provider.name, model: request.model };
      let data: OpenAI.ChatCompletion;
      let response: Response;
      try {
        ({ data, response } = await client.chat.completions
          .create(openAIBody(request, compatible), sdkRequestOptions(options))
          .withResponse());
      } catch (err) {
        throw mapOpenAIError(err, { ...where, nowMs: clock.now(), redact });
      }
      const choice = data?.choices?.[0];
      if (!choice || typeof choice.message !== 'object') throw malformedResponse(where, 'no choices[0].message');
      return {
        text: choice.message.content ?? '',
        toolCalls: [],
        finishReason: FINISH[choice.finish_reason] ?? 'other',
        usage: { inputTokens: data.usage?.prompt_tokens ?? 0, outputTokens: data.usage?.completion_tokens ?? 0 },
        model: data.model ?? request.model,
        requestId: response.headers.get('x-request-id') ?? undefined,
        rateLimit: readRateLimits(response.headers, clock.now(), compatible ? 'any' : 'openai'),
      };
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      const where = { provider: provider.name, model: request.model };
      return streamOpenAI({
        client, compatible, where, now: () => clock.now(),
        map: (err) => mapOpenAIError(err, { ...where, nowMs: clock.now(), redact }),
      }, request, options);
    },
    async close() {
      // The SDK holds no sockets of its own beyond the global fetch pool.
    },
  };
}
