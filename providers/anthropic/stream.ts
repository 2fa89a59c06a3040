import type Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import type { RouterError } from '../../src/errors.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { anthropicBody } from './adapter-body.js';
import { withBeta } from './beta.js';
import { usesJsonTool } from './json-tool.js';
import { AnthropicEventReader } from './stream-reader.js';

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
 * ordinal, thinking yields `thinking` (its text, signature, redacted data: stream-blocks.ts), `message_start`'s counters a `usage` event. A turn with thinking finishes with its blocks
 * as provider parts. An `event: error` frame (e.g. `overloaded_error` after HTTP 200) reaches us as
 * the SDK's status-less `APIError`.
 */
export async function* streamAnthropic(ctx: AnthropicStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const body: Anthropic.MessageCreateParamsStreaming = Object.assign(anthropicBody(request, ctx.where.provider) as Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'>, { stream: true as const });
  let stream: AsyncIterable<Anthropic.RawMessageStreamEvent>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.messages.create(body, withBeta(sdkRequestOptions(options, body), request.anthropicBeta)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('request-id') ?? undefined, rateLimit: readRateLimits(response.headers, ctx.now(), 'anthropic') };

  const reader = new AnthropicEventReader(usesJsonTool(request));
  try {
    for await (const event of stream) {
      yield* reader.events(event);
      if (reader.done) return;
    }
  } catch (err) {
    throw ctx.map(err);
  }
  throw truncatedStream(ctx.where, 'message_stop');
}
