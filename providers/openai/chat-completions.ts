import type OpenAI from 'openai';
import type { RouterError } from '../../src/errors.js';
import type { HeaderBag } from '../shared/headers.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import type { ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { openAIBody } from './adapter-body.js';
import { embeddedError } from './embedded-error.js';
import { streamRaw } from './raw-stream.js';
import { openAIAnswer } from './response.js';
import { streamOpenAI } from './stream.js';
import { openAIUsage } from './usage.js';
import type { OpenAIApi } from './api.js';
import type { Wire } from './wire.js';

/** What the Chat Completions calls share with the rest of the OpenAI adapter, built once with it. */
export interface ChatCompletionsContext {
  client: OpenAI;
  /** An `openai-compatible` provider (max_tokens, any rate-limit header family). */
  compatible: boolean;
  provider: string;
  /** Pass-through: where a body the router hands over as bytes (`request.raw`) goes; absent when the provider maps every body. */
  wire?: Wire;
  map(model: string): (err: unknown) => RouterError;
  /** The response's headers as the rate-limit reader should see them (a preset's own names aliased). */
  headers(headers: HeaderBag): HeaderBag;
  now: () => number;
}

/**
 * One Chat Completions call, not streamed, top to bottom: the body goes (the client's bytes on the
 * wire when the router passed them through, else the SDK's request built from the fields), the
 * answer is read (an embedded error thrown), and mapped. A passed-through answer keeps its body as
 * it came (`raw`, `rawApi: 'chat'`).
 */
export async function chatCompletion(ctx: ChatCompletionsContext, request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
  let data: OpenAI.ChatCompletion;
  let headers: HeaderBag;
  // The headers an embedded error carries: a web Headers already there, or the wire's answer that builds one on demand (no closure per call).
  let webHeaders: Headers | { webHeaders(): Headers };
  let body: string | undefined;
  try {
    if (request.raw !== undefined && ctx.wire) {
      const answer = await ctx.wire.answer(request.raw, options);
      body = answer.text;
      data = JSON.parse(body) as OpenAI.ChatCompletion;
      headers = answer.headers;
      webHeaders = answer;
    } else {
      const sdkBody = openAIBody(request, ctx.compatible, ctx.provider);
      const sdk = await ctx.client.chat.completions.create(sdkBody, sdkRequestOptions(options, sdkBody)).withResponse();
      data = sdk.data;
      headers = sdk.response.headers;
      webHeaders = sdk.response.headers;
    }
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  const failed = embeddedError(data, webHeaders);
  if (failed) throw ctx.map(request.model)(failed);
  const { text, toolCalls, finishReason } = openAIAnswer(data, { provider: ctx.provider, model: request.model });
  const answer: ProviderResponse = {
    text, toolCalls, finishReason,
    usage: openAIUsage(data.usage),
    model: data.model ?? request.model,
    requestId: headers.get('x-request-id') ?? undefined,
    rateLimit: readRateLimits(ctx.headers(headers), ctx.now(), ctx.compatible ? 'any' : 'openai'),
  };
  if (body !== undefined) {
    answer.raw = body;
    answer.rawApi = 'chat';
  }
  return answer;
}

/** One Chat Completions stream: the client's bytes on the wire when the router passed them through, else the SDK's stream. */
export function streamChatCompletion(ctx: ChatCompletionsContext, request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
  const stream = { client: ctx.client, compatible: ctx.compatible, where: { provider: ctx.provider, model: request.model }, now: ctx.now, map: ctx.map(request.model), headers: ctx.headers };
  if (request.raw !== undefined && ctx.wire) return streamRaw(Object.assign(stream, { wire: ctx.wire }), request, options);
  return streamOpenAI(stream, request, options);
}

/** Chat Completions (the default `api`): every call through `chatCompletion` and `streamChatCompletion`. */
export function chatCompletionsApi(ctx: ChatCompletionsContext): OpenAIApi {
  return {
    chat: (request, options) => chatCompletion(ctx, request, options),
    stream: (request, options) => streamChatCompletion(ctx, request, options),
  };
}
