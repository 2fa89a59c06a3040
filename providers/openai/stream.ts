import type OpenAI from 'openai';
import { readRateLimits } from '../../src/decide/rate-limit-snapshot.js';
import type { FinishReason, Usage } from '../../src/types.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { openAIBody } from './adapter-body.js';
import { mapOpenAIError, type MapContext } from './map-error.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop', length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls', content_filter: 'content_filter',
};

export interface OpenAIStreamContext {
  client: OpenAI;
  compatible: boolean;
  map: (err: unknown) => ReturnType<typeof mapOpenAIError>;
  now: () => number;
  where: Omit<MapContext, 'nowMs' | 'redact'>;
}

/**
 * Chat Completions as SSE with `stream_options.include_usage`. The terminal signal is a chunk with a
 * `finish_reason` (the usage chunk and `[DONE]` follow it); a body that ends before one is a cut
 * stream. Mid-stream `data: {"error": ...}` frames reach us as the SDK's status-less `APIError`.
 */
export async function* streamOpenAI(ctx: OpenAIStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const body = { ...openAIBody(request, ctx.compatible), stream: true as const, stream_options: { include_usage: true } };
  let stream: AsyncIterable<OpenAI.ChatCompletionChunk>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.chat.completions.create(body, sdkRequestOptions(options)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: readRateLimits(response.headers, ctx.now(), ctx.compatible ? 'any' : 'openai') };

  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;
  let model: string | undefined;
  try {
    for await (const chunk of stream) {
      model ??= chunk.model;
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const text = choice.delta?.content;
      if (text) yield { type: 'delta', text };
      if (choice.finish_reason) finishReason = FINISH[choice.finish_reason] ?? 'other';
    }
  } catch (err) {
    throw ctx.map(err);
  }
  if (!finishReason) throw truncatedStream(ctx.where, 'a finish_reason');
  yield { type: 'finish', finishReason, usage: usage ?? { inputTokens: 0, outputTokens: 0 }, model };
}
