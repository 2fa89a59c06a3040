import type { ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../../types.js';
import type { OpenAIApi } from '../api.js';
import { chatResponses } from './chat.js';
import type { ResponsesContext } from './context.js';
import { chatResponsesRaw, streamResponsesRaw } from './raw.js';
import { streamResponses } from './stream.js';

/** The Responses API (`api: 'responses'`): the client's bytes on the context's wire when the router passed them through, else the SDK's call. */
export function responsesApi(ctx: ResponsesContext): OpenAIApi {
  return {
    chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      return request.raw !== undefined && ctx.wire ? chatResponsesRaw(ctx, ctx.wire, request, options) : chatResponses(ctx, request, options);
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      return request.raw !== undefined && ctx.wire ? streamResponsesRaw(ctx, ctx.wire, request, options) : streamResponses(ctx, request, options);
    },
  };
}
