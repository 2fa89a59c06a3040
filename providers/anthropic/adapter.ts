import Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { providerTransport } from '../shared/http-fetch.js';
import { SDK_BACKSTOP_TIMEOUT_MS } from '../shared/sdk-backstop.js';
import { sdkLogger } from '../shared/sdk-logger.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { announcingSends } from '../shared/send-hook.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent, RawTarget } from '../types.js';
import { anthropicBody, DEFAULT_MAX_TOKENS } from './adapter-body.js';
import { usesJsonTool } from './json-tool.js';
import { mapAnthropicError } from './map-error.js';
import { anthropicModelTraits, claudeThinkingTraits } from './model-traits.js';
import { chatMessagesRaw, streamMessagesRaw } from './raw.js';
import { MessagesWire } from './raw-wire.js';
import { withBeta } from './beta.js';
import { anthropicAnswer } from './response.js';
import { streamAnthropic } from './stream.js';
import { inputSchema } from './tools.js';
import { anthropicUsage } from './usage.js';
import type { JSONSchema } from '../../src/types.js';

export { anthropicBody, DEFAULT_MAX_TOKENS } from './adapter-body.js';

/**
 * The `anthropic` adapter: the Messages API through the official SDK with its retries off. It has no
 * `embed` (Anthropic has no embeddings API), so its traits carry no `maxEmbeddingInputs`.
 * @example const adapter = anthropicAdapter({ provider, clock, logger, redact });
 */
export function anthropicAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock, redact } = ctx;
  const transport = providerTransport(provider);
  // Every request tells the router when its bytes go (onSend): after the SDK serialised its body.
  const client = announcingSends(new Anthropic({
    apiKey: provider.resolvedApiKey ?? null,
    baseURL: provider.baseURL ?? 'https://api.anthropic.com',
    maxRetries: 0,
    // Only a backstop: the router times every attempt itself, or passes the attempt's own timeout.
    timeout: SDK_BACKSTOP_TIMEOUT_MS,
    ...(transport ? { fetch: transport.fetch } : {}),
    defaultHeaders: provider.headers,
    logger: sdkLogger(ctx.logger, provider.name),
    logLevel: 'warn',
  }));
  const mapper = (model: string) => (err: unknown) => mapAnthropicError(err, { provider: provider.name, model, nowMs: clock.now(), redact });
  const now = () => clock.now();
  // Pass-through: Messages bodies the router hands over as bytes (`request.raw`) go on this wire.
  const wire = new MessagesWire(provider, transport?.fetch ?? ((input, init) => globalThis.fetch(input, init)), transport);
  const rawTarget = (model: string): RawTarget => Object.assign({ api: 'messages' as const, sentSchema }, anthropicModelTraits(model));

  return {
    name: provider.name,
    type: provider.type,
    traits: { tokenCounting: 'heuristic', defaultMaxTokens: DEFAULT_MAX_TOKENS, timeoutCoversBody: transport !== undefined },
    thinkingTraits: (model) => claudeThinkingTraits(anthropicModelTraits(model).thinking),
    rawTarget,
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      const where = { provider: provider.name, model: request.model };
      if (request.raw !== undefined) return chatMessagesRaw({ wire, map: mapper(request.model), now, where }, request, options);
      const body = anthropicBody(request, provider.name);
      let data: Anthropic.Message;
      let response: Response;
      try {
        ({ data, response } = await client.messages.create(body, withBeta(sdkRequestOptions(options, body), request.anthropicBeta)).withResponse());
      } catch (err) {
        throw mapper(request.model)(err);
      }
      if (!data || !Array.isArray(data.content)) throw malformedResponse(where, 'no content array');
      return Object.assign({}, anthropicAnswer(data, where, usesJsonTool(request)), { usage: anthropicUsage(data.usage), model: data.model ?? request.model, requestId: response.headers.get('request-id') ?? undefined, rateLimit: readRateLimits(response.headers, clock.now(), 'anthropic') });
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      const where = { provider: provider.name, model: request.model };
      if (request.raw !== undefined) return streamMessagesRaw({ wire, map: mapper(request.model), now, where }, request, options);
      return streamAnthropic({ client, where, now: () => clock.now(), map: mapper(request.model) }, request, options);
    },
    async close() {
      transport?.close();
    },
  };
}

/** The schema the adapter sends for a tool's `input_schema` (what the pass-through decision compares a client's with). */
function sentSchema(schema: JSONSchema, strict: boolean): JSONSchema {
  return inputSchema(schema, strict) as JSONSchema;
}

