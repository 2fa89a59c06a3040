import type Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import type { RouterError } from '../../src/errors.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { anthropicBody } from './adapter-body.js';
import { usesJsonTool } from './json-tool.js';
import { anthropicFinishReason } from './response.js';
import { AnthropicBlockTracker } from './stream-blocks.js';
import { anthropicUsage, mergeUsageCounters, type AnthropicUsageCounters } from './usage.js';

/**
 * `message_start`'s prompt counters as a `usage` event: Anthropic reports the input, cache reads
 * and cache writes there, before any content (its output count there is a placeholder).
 */
function* promptUsage(counters: AnthropicUsageCounters): Generator<ProviderStreamEvent> {
  const usage = anthropicUsage(Object.assign({}, counters, { output_tokens: 0 }));
  if (!usage) return;
  const out: Extract<ProviderStreamEvent, { type: 'usage' }> = { type: 'usage', inputTokens: usage.inputTokens };
  if (usage.cachedInputTokens !== undefined) out.cachedInputTokens = usage.cachedInputTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWriteTokens = usage.cacheWriteTokens;
  yield out;
}

export interface AnthropicStreamContext {
  client: Anthropic;
  map: (err: unknown) => RouterError;
  now: () => number;
  where: { provider: string; model: string };
}

/**
 * Messages as SSE: `message_start`, content blocks, `message_delta` (cumulative usage), then
 * `message_stop`, the terminal event; `ping` and unknown events may come anywhere and are skipped.
 * Text blocks yield `delta`s, tool_use blocks `tool_call_start`/`_delta`/`_end` with a per-stream
 * ordinal, thinking yields `thinking` (its text, signature, redacted data: stream-blocks.ts), and
 * `message_start`'s counters, which already hold the whole prompt, a `usage` event. A turn with thinking finishes with its blocks
 * as provider parts. An `event: error` frame (e.g. `overloaded_error` after HTTP 200) reaches us as
 * the SDK's status-less `APIError`.
 */
export async function* streamAnthropic(ctx: AnthropicStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const body: Anthropic.MessageCreateParamsStreaming = Object.assign(anthropicBody(request, ctx.where.provider) as Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'>, { stream: true as const });
  let stream: AsyncIterable<Anthropic.RawMessageStreamEvent>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.messages.create(body, sdkRequestOptions(options, body)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('request-id') ?? undefined, rateLimit: readRateLimits(response.headers, ctx.now(), 'anthropic') };

  const jsonTool = usesJsonTool(request);
  const blocks = new AnthropicBlockTracker(jsonTool);
  let counters: AnthropicUsageCounters = {};
  let stopReason: string | null | undefined;
  let model: string | undefined;
  try {
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start':
          model = event.message.model;
          counters = mergeUsageCounters({}, event.message.usage);
          yield* promptUsage(counters);
          break;
        case 'content_block_start':
          yield* blocks.start(event);
          break;
        case 'content_block_delta':
          yield* blocks.delta(event);
          break;
        case 'content_block_stop':
          yield* blocks.stop(event);
          break;
        case 'message_delta':
          if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
          counters = mergeUsageCounters(counters, event.usage);
          break;
        case 'message_stop': {
          const parts = blocks.thinkingBlocks();
          yield {
            type: 'finish',
            finishReason: anthropicFinishReason(stopReason, blocks.toolCalls > 0, jsonTool),
            usage: anthropicUsage(counters),
            model,
            ...(parts ? { providerParts: { api: 'anthropic' as const, blocks: parts } } : {}),
          };
          return;
        }
        default:
          break; // ping, and event types Anthropic may add later
      }
    }
  } catch (err) {
    throw ctx.map(err);
  }
  throw truncatedStream(ctx.where, 'message_stop');
}
