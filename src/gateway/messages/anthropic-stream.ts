import type { StreamEvent } from '../../calls/stream.js';
import { anthropicErrorEvent } from './anthropic-error.js';
import { anthropicStopReason, anthropicUsageOf, messageId } from './to-anthropic.js';

/** One server-sent event of the Messages stream: its `type` is also its `event:` name. */
export type AnthropicEvent = { type: string } & Record<string, unknown>;

/** Turns router stream events into Messages stream events, one stream's worth. */
export interface AnthropicStreamer {
  /** The events one router event becomes, in order. */
  push(event: StreamEvent): AnthropicEvent[];
}

/**
 * A converter from router stream events to the Messages stream: `message_start` and a `ping` at
 * `start`; text in a text block; each tool call in a `tool_use` block of its own (started with its
 * id and name and `input: {}`, its arguments as `input_json_delta` fragments, keyed by the block's
 * index, never by "the current tool"); `content_block_stop` as each block ends; `message_delta`
 * (stop reason, usage) and `message_stop` at `done`. An interruption ends the stream with an
 * `error` event, which the Anthropic SDK throws on, never a `message_stop`.
 */
export function anthropicStreamer(model?: string): AnthropicStreamer {
  const id = messageId();
  let index = -1;
  /** The open block: text, or the tool call (router ordinal) it holds. */
  let open: { kind: 'text' } | { kind: 'tool'; ordinal: number; id?: string; sent: boolean } | undefined;
  const streamedCalls = new Set<string>();
  const ordinals = new Set<number>();

  const close = (out: AnthropicEvent[]) => {
    if (!open) return;
    // A call with no arguments at all still parses: `{}` (the SDK's accumulator reads '' as {} too).
    if (open.kind === 'tool' && !open.sent) out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{}' } });
    out.push({ type: 'content_block_stop', index });
    open = undefined;
  };
  const startTool = (out: AnthropicEvent[], ordinal: number, callId: string | undefined, name: string | undefined) => {
    close(out);
    index++;
    open = { kind: 'tool', ordinal, id: callId, sent: false };
    ordinals.add(ordinal);
    if (callId) streamedCalls.add(callId);
    out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: callId ?? '', name: name ?? '', input: {} } });
  };

  return {
    push(event) {
      const out: AnthropicEvent[] = [];
      switch (event.type) {
        case 'start':
          out.push({
            type: 'message_start',
            message: {
              id, type: 'message', role: 'assistant', model: model ?? event.model, content: [], stop_reason: null, stop_sequence: null,
              // Not known before the end: the final message_delta carries every counter.
              usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null },
            },
          }, { type: 'ping' });
          break;
        case 'text':
          if (!event.delta) break;
          if (open?.kind !== 'text') {
            close(out);
            index++;
            open = { kind: 'text' };
            out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          }
          out.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: event.delta } });
          break;
        case 'tool_call_delta':
          if (open?.kind !== 'tool' || open.ordinal !== event.index) {
            if (ordinals.has(event.index)) break; // a fragment of a block already closed: nothing to append it to
            startTool(out, event.index, event.id, event.name);
          }
          if (event.argumentsDelta && open?.kind === 'tool') {
            open.sent = true;
            out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: event.argumentsDelta } });
          }
          break;
        case 'tool_call':
          if (streamedCalls.has(event.toolCall.id)) {
            // Its fragments were streamed: the call is whole, so its block ends (if it is still the open one).
            if (open?.kind === 'tool' && open.id === event.toolCall.id) close(out);
            break;
          }
          // A call that arrived only whole: a block of its own with the arguments in one fragment.
          startTool(out, -1 - streamedCalls.size, event.toolCall.id, event.toolCall.name);
          (open as { sent: boolean }).sent = true;
          out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(event.toolCall.arguments) } });
          close(out);
          break;
        case 'done': {
          close(out);
          const usage = anthropicUsageOf(event.result.usage);
          out.push(
            { type: 'message_delta', delta: { stop_reason: anthropicStopReason(event.result.finishReason), stop_sequence: null }, usage },
            { type: 'message_stop' },
          );
          break;
        }
        case 'interrupted':
          out.push(anthropicErrorEvent(event.error));
          break;
      }
      return out;
    },
  };
}
