import type OpenAI from 'openai';
import { sdkRequestOptions } from '../../shared/request-options.js';
import { truncatedStream } from '../../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../../types.js';
import { responsesBody } from './body.js';
import { ResponsesEventReader } from './events.js';
import type { ResponsesContext } from './context.js';

type Event = OpenAI.Responses.ResponseStreamEvent;

/**
 * The Responses API as SSE. Text comes as `response.output_text.delta` (refusals as
 * `response.refusal.delta`, finishing as `content_filter`); reasoning deltas are `thinking`
 * (liveness only); a function call starts at its `response.output_item.added` (name and `call_id`),
 * streams `response.function_call_arguments.delta` keyed by `output_index`, and ends at its
 * `response.output_item.done`. The terminal events are `response.completed` and
 * `response.incomplete` (usage in their `response`); `response.failed` and an `error` event (which
 * the SDK yields rather than throws) are thrown as errors; a body that ends before a terminal event
 * is a cut stream.
 */
export async function* streamResponses(ctx: ResponsesContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const where = ctx.where(request.model);
  const body: OpenAI.Responses.ResponseCreateParamsStreaming = Object.assign(responsesBody(request, where.provider) as Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>, { stream: true as const });
  let stream: AsyncIterable<Event>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.responses.create(body, sdkRequestOptions(options, body)).withResponse());
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: ctx.rateLimits(response.headers) };

  const reader = new ResponsesEventReader(where, response.headers);
  try {
    for await (const event of stream) {
      yield* reader.events(event);
      if (reader.done) return;
    }
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  throw truncatedStream(where, 'response.completed');
}
