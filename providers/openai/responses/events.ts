import OpenAI from 'openai';
import type { FinishReason } from '../../../src/types.js';
import type { ProviderStreamEvent } from '../../types.js';
import { customCall, failedResponse, reasoningParts, responsesFinishReason, responsesUsage } from './answer.js';

interface OpenCall {
  ordinal: number;
  sentArguments: boolean;
  ended: boolean;
}

type Event = OpenAI.Responses.ResponseStreamEvent;

/**
 * Reads Responses API stream events into provider stream events, one event at a time, for the
 * SDK's stream and the pass-through's own SSE reader alike. Text comes as
 * `response.output_text.delta` (refusals as `response.refusal.delta`, finishing as
 * `content_filter`); reasoning deltas are `thinking` (liveness only); a function call starts at its
 * `response.output_item.added` (name and `call_id`), streams `response.function_call_arguments.delta`
 * keyed by `output_index`, and ends at its `response.output_item.done`. The terminal events are
 * `response.completed` and `response.incomplete` (usage in their `response`; `done` is then set);
 * `response.failed` and an `error` event (which the SDK yields rather than throws) are thrown.
 */
export class ResponsesEventReader {
  private readonly calls = new Map<number, OpenCall>();
  private readonly items: unknown[] = [];
  private refused = false;
  private model: string | undefined;
  /** Set at the terminal event: the answer is whole. */
  done = false;

  constructor(private readonly where: { provider: string; model: string }, private readonly headers: Headers | undefined) {}

  *events(event: Event): Generator<ProviderStreamEvent> {
    switch (event.type) {
      case 'response.created':
        this.model = event.response.model;
        break;
      case 'response.output_text.delta':
        if (event.delta) yield { type: 'delta', text: event.delta };
        break;
      case 'response.refusal.delta':
        this.refused = true;
        if (event.delta) yield { type: 'delta', text: event.delta };
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) yield { type: 'thinking' };
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call' || event.item.type === 'custom_tool_call') {
          const call: OpenCall = { ordinal: this.calls.size, sentArguments: false, ended: false };
          this.calls.set(event.output_index, call);
          yield { type: 'tool_call_start', index: call.ordinal, id: event.item.call_id, name: event.item.name };
        }
        break;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(event.output_index);
        if (call && event.delta) {
          call.sentArguments = true;
          yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: event.delta };
        }
        break;
      }
      case 'response.output_item.done': {
        this.items[event.output_index] = event.item;
        const call = this.calls.get(event.output_index);
        if (call && event.item.type === 'custom_tool_call') {
          // A freeform call's input streams as plain text (custom_tool_call_input.delta): its arguments, {input}, go whole at its end.
          yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: JSON.stringify(customCall(event.item).arguments) };
          call.ended = true;
          yield { type: 'tool_call_end', index: call.ordinal };
        } else if (call && event.item.type === 'function_call') {
          // Arguments that came whole on the item, never as deltas, still reach the caller.
          if (!call.sentArguments) yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: event.item.arguments || '{}' };
          call.ended = true;
          yield { type: 'tool_call_end', index: call.ordinal };
        }
        break;
      }
      case 'response.failed':
        throw failedResponse(event.response, this.where);
      case 'error':
        // Yielded, not thrown, by the SDK (no top-level `error` key): the same status-less error as a chat error frame.
        throw new OpenAI.APIError(undefined, { code: event.code, message: event.message, param: event.param }, undefined, this.headers);
      case 'response.completed':
      case 'response.incomplete': {
        const done = event.response;
        const output = Array.isArray(done.output) && done.output.length > 0 ? done.output : this.items.filter(Boolean);
        const finishReason: FinishReason = responsesFinishReason(done.status, done.incomplete_details, { toolCalls: this.calls.size > 0, refusal: this.refused });
        const usage = responsesUsage(done.usage);
        const providerParts = reasoningParts(output);
        this.done = true;
        yield { type: 'finish', finishReason, ...(usage ? { usage } : {}), model: done.model ?? this.model, ...(providerParts ? { providerParts } : {}) };
        break;
      }
      default:
        break;
    }
  }
}
