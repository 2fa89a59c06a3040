import OpenAI from 'openai';
import type { FinishReason } from '../../../src/types.js';
import { sdkRequestOptions } from '../../shared/request-options.js';
import { truncatedStream } from '../../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../../types.js';
import { failedResponse, reasoningParts, responsesFinishReason, responsesUsage } from './answer.js';
import { responsesBody } from './body.js';
import type { ResponsesContext } from './context.js';

interface OpenCall {
  ordinal: number;
  sentArguments: boolean;
  ended: boolean;
}

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
  const body = { ...responsesBody(request, where.provider), stream: true as const };
  let stream: AsyncIterable<Event>;
  let response: Response;
  try {
    ({ data: stream, response } = await ctx.client.responses.create(body, sdkRequestOptions(options, body)).withResponse());
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: ctx.rateLimits(response.headers) };

  const calls = new Map<number, OpenCall>();
  const items: unknown[] = [];
  let refused = false;
  let model: string | undefined;
  try {
    for await (const event of stream) {
      switch (event.type) {
        case 'response.created':
          model = event.response.model;
          break;
        case 'response.output_text.delta':
          if (event.delta) yield { type: 'delta', text: event.delta };
          break;
        case 'response.refusal.delta':
          refused = true;
          if (event.delta) yield { type: 'delta', text: event.delta };
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          if (event.delta) yield { type: 'thinking' };
          break;
        case 'response.output_item.added':
          if (event.item.type === 'function_call') {
            const call: OpenCall = { ordinal: calls.size, sentArguments: false, ended: false };
            calls.set(event.output_index, call);
            yield { type: 'tool_call_start', index: call.ordinal, id: event.item.call_id, name: event.item.name };
          }
          break;
        case 'response.function_call_arguments.delta': {
          const call = calls.get(event.output_index);
          if (call && event.delta) {
            call.sentArguments = true;
            yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: event.delta };
          }
          break;
        }
        case 'response.output_item.done': {
          items[event.output_index] = event.item;
          const call = calls.get(event.output_index);
          if (call && event.item.type === 'function_call') {
            // Arguments that came whole on the item, never as deltas, still reach the caller.
            if (!call.sentArguments) yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: event.item.arguments || '{}' };
            call.ended = true;
            yield { type: 'tool_call_end', index: call.ordinal };
          }
          break;
        }
        case 'response.failed':
          throw failedResponse(event.response, where);
        case 'error':
          // Yielded, not thrown, by the SDK (no top-level `error` key): the same status-less error as a chat error frame.
          throw new OpenAI.APIError(undefined, { code: event.code, message: event.message, param: event.param }, undefined, response.headers);
        case 'response.completed':
        case 'response.incomplete': {
          const done = event.response;
          const output = Array.isArray(done.output) && done.output.length > 0 ? done.output : items.filter(Boolean);
          const finishReason: FinishReason = responsesFinishReason(done.status, done.incomplete_details, { toolCalls: calls.size > 0, refusal: refused });
          const usage = responsesUsage(done.usage);
          const providerParts = reasoningParts(output);
          yield { type: 'finish', finishReason, ...(usage ? { usage } : {}), model: done.model ?? model, ...(providerParts ? { providerParts } : {}) };
          return;
        }
        default:
          break;
      }
    }
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  throw truncatedStream(where, 'response.completed');
}
