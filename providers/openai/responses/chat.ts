import type OpenAI from 'openai';
import { sdkRequestOptions } from '../../shared/request-options.js';
import type { HeaderBag } from '../../shared/headers.js';
import type { ProviderCallOptions, ProviderRequest, ProviderResponse } from '../../types.js';
import { responsesAnswer, responsesUsage } from './answer.js';
import { responsesBody } from './body.js';
import type { ResponsesContext } from './context.js';

/** One Responses API call, not streamed: `client.responses.create` with the stateless body, mapped to the normalised answer. */
export async function chatResponses(ctx: ResponsesContext, request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
  const where = ctx.where(request.model);
  let data: OpenAI.Responses.Response;
  let response: Response;
  try {
    const body = responsesBody(request, where.provider);
    ({ data, response } = await ctx.client.responses.create(body, sdkRequestOptions(options, body)).withResponse());
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  return responsesProviderResponse(ctx, request, data, response.headers);
}

/** A Responses answer as the normalised one: text, tool calls, finish, usage and the facts its headers carry. */
export function responsesProviderResponse(ctx: ResponsesContext, request: ProviderRequest, data: OpenAI.Responses.Response, headers: Pick<HeaderBag, 'get'>): ProviderResponse {
  const { text, toolCalls, finishReason, providerParts } = responsesAnswer(data, ctx.where(request.model));
  return {
    text, toolCalls, finishReason,
    usage: responsesUsage(data.usage),
    model: data.model ?? request.model,
    requestId: headers.get('x-request-id') ?? undefined,
    rateLimit: ctx.rateLimits(headers),
    ...(providerParts ? { providerParts } : {}),
  };
}
