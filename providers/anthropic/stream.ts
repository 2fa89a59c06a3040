import type Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../../src/decide/rate-limit-snapshot.js';
import type { RouterError } from '../../src/errors.js';
import type { FinishReason } from '../../src/types.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { anthropicBody, finishReasonOf } from './adapter-body.js';

export interface AnthropicStreamContext {
  client: Anthropic;
  map: (err: unknown) => RouterError;
  now: () => number;
  where: { provider: string; model: string };
}

/**
 * Messages as SSE: `message_start`, content blocks, `message_delta` (cumulative usage), then
 * `message_stop`, the terminal event; `ping` and unknown events may come anywhere and are skipped.
 * An `event: error` frame (e.g. `overloaded_error` after HTTP 200) reaches us as the SDK's
 * status-less `APIError`.
 */
export async function* streamAnthropic(ctx: AnthropicStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const body = { ...anthropicBody(request), stream: true as const };
  let stream: AsyncIterable<Anthropic.RawMessageStreamEvent>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.messages.create(body, sdkRequestOptions(options)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('request-id') ?? undefined, rateLimit: readRateLimits(response.headers, ctx.now(), 'anthropic') };

  let inputTokens = 0;
  let outputTokens = 0;
  let finishReason: FinishReason = 'stop';
  let model: string | undefined;
  try {
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start': {
          const u = event.message.usage;
          model = event.message.model;
          inputTokens = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          outputTokens = u.output_tokens ?? 0;
          break;
        }
        case 'content_block_delta':
          if (event.delta.type === 'text_delta' && event.delta.text) yield { type: 'delta', text: event.delta.text };
          break;
        case 'message_delta':
          if (event.delta.stop_reason) finishReason = finishReasonOf(event.delta.stop_reason);
          if (event.usage?.output_tokens !== undefined && event.usage.output_tokens !== null) outputTokens = event.usage.output_tokens;
          if (typeof event.usage?.input_tokens === 'number') inputTokens = event.usage.input_tokens;
          break;
        case 'message_stop':
          yield { type: 'finish', finishReason, usage: { inputTokens, outputTokens }, model };
          return;
        default:
          break; // content_block_start/stop, ping, and event types Anthropic may add later
      }
    }
  } catch (err) {
    throw ctx.map(err);
  }
  throw truncatedStream(ctx.where, 'message_stop');
}
