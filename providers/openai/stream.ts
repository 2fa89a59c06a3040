import type OpenAI from 'openai';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { openAIBody } from './adapter-body.js';
import type { mapOpenAIError, MapContext } from './map-error.js';
import { OpenAIChunkReader } from './stream-chunks.js';

export interface OpenAIStreamContext {
  client: OpenAI;
  compatible: boolean;
  map: (err: unknown) => ReturnType<typeof mapOpenAIError>;
  now: () => number;
  where: Omit<MapContext, 'nowMs' | 'redact' | 'dialect'>;
  /** The response's headers as the rate-limit reader should see them (a preset's own names aliased). */
  headers?: (headers: Headers) => { get(name: string): string | null | undefined };
}

/**
 * Chat Completions as SSE with `stream_options.include_usage`. The terminal signal is a chunk with a
 * `finish_reason` (the usage chunk and `[DONE]` follow it); a body that ends before one is a cut
 * stream, and one cut after it still finishes, its usage unknown (as it is when no usage chunk comes). Tool-call fragments are keyed by their `index`; every open call ends when the
 * `finish_reason` arrives, except at `length`, where the cut calls are never ended (their arguments
 * are incomplete). Refusal fragments stream as text and finish as `content_filter`; reasoning text
 * from compatible servers is `thinking` (liveness only). Mid-stream
 * `data: {"error": ...}` frames reach us as the SDK's status-less `APIError`.
 */
export async function* streamOpenAI(ctx: OpenAIStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const body: OpenAI.ChatCompletionCreateParamsStreaming = Object.assign(openAIBody(request, ctx.compatible, ctx.where.provider) as Omit<OpenAI.ChatCompletionCreateParamsNonStreaming, 'stream'>, { stream: true as const, stream_options: { include_usage: true } });
  let stream: AsyncIterable<OpenAI.ChatCompletionChunk>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.chat.completions.create(body, sdkRequestOptions(options, body)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: readRateLimits(ctx.headers ? ctx.headers(response.headers) : response.headers, ctx.now(), ctx.compatible ? 'any' : 'openai') };

  const reader = new OpenAIChunkReader();
  try {
    for await (const chunk of stream) yield* reader.events(chunk);
  } catch (err) {
    // Past the finish_reason (the terminal signal) only the usage chunk and [DONE] were to come:
    // the answer is whole, and its usage unknown.
    if (!reader.finishReason) throw ctx.map(err);
  }
  yield reader.finish(ctx.where);
}
