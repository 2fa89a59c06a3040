import type OpenAI from 'openai';
import { sdkRequestOptions } from '../../shared/request-options.js';
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
  const { text, toolCalls, finishReason, providerParts } = responsesAnswer(data, where);
  return {
    text, toolCalls, finishReason,
    usage: responsesUsage(data.usage),
    model: data.model ?? request.model,
    requestId: response.headers.get('x-request-id') ?? undefined,
    rateLimit: ctx.rateLimits(response.headers),
    ...(providerParts ? { providerParts } : {}),
  };
}
