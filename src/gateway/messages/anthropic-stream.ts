import type { StreamEvent, StreamStart, StreamThinking } from '../../calls/stream.js';
import { heuristicTokens, promptTokenEstimate, type Prompt } from '../../decide/token-estimate.js';
import { anthropicErrorEvent } from './anthropic-error.js';
import { anthropicStopReason, anthropicUsageOf, messageId, type AnthropicUsage } from './to-anthropic.js';

/** One server-sent event of the Messages stream: its `type` is also its `event:` name. */
export type AnthropicEvent = { type: string } & Record<string, unknown>;

/** Turns router stream events into Messages stream events, one stream's worth. */
export interface AnthropicStreamer {
  /** The events one router event becomes, in order. */
  push(event: StreamEvent): AnthropicEvent[];
}

/**
 * `message_start`'s usage: the prompt's counters as the provider reported them before the answer
 * (an Anthropic target's own message_start), else the router's estimate of the prompt (`prompt`;
 * the final `message_delta` then carries the provider's counts). Cache fields are numbers, 0 when unknown.
 */
function startUsage(start: StreamStart, prompt: Prompt | undefined): AnthropicUsage {
  if (start.inputUsage) return anthropicUsageOf(Object.assign({ outputTokens: 0 }, start.inputUsage));
  return { input_tokens: prompt ? promptTokenEstimate(prompt, heuristicTokens) : 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/**
 * A converter from router stream events to the Messages stream: `message_start` (usage: `startUsage`)
 * and a `ping` at `start`; thinking (a request with `streamThinking`) as Anthropic streams it, each
 * thinking block started as `{type: 'thinking', thinking: '', signature: ''}` with its text as
 * `thinking_delta`s and its signature as a `signature_delta`, a redacted block started whole
 * (`{type: 'redacted_thinking', data}`) and stopped (the SDK's RawContentBlockStartEvent,
 * ThinkingDelta, SignatureDelta; https://docs.claude.com/en/docs/build-with-claude/extended-thinking#streaming-thinking);
 * `showThinking` false (a target other than Anthropic, whose signatures no Anthropic model would
 * take back: the JSON answer shows its thinking no more) leaves thinking out; text in a text block; each tool call in a `tool_use` block of its own (started with its
 * id and name and `input: {}`, its arguments as `input_json_delta` fragments, keyed by the block's
 * index, never by "the current tool"); `content_block_stop` as each block ends; `message_delta`
 * (stop reason, usage) and `message_stop` at `done`. An interruption ends the stream with an
 * `error` event, which the Anthropic SDK throws on, never a `message_stop`.
 */
export function anthropicStreamer(model?: string, prompt?: Prompt, showThinking = true): AnthropicStreamer {
  const id = messageId();
  let index = -1;
  /** The open block: text, a thinking block (router thinking index), or the tool call (router ordinal) it holds. */
  let open: { kind: 'text' } | { kind: 'thinking'; thinking: number } | { kind: 'tool'; ordinal: number; id?: string; sent: boolean } | undefined;
  const streamedCalls = new Set<string>();
  const ordinals = new Set<number>();
  const thoughts = new Set<number>();

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

  const thinking = (out: AnthropicEvent[], event: StreamThinking) => {
    if (event.redacted !== undefined) {
      close(out);
      index++;
      thoughts.add(event.index);
      out.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: event.redacted } }, { type: 'content_block_stop', index });
      return;
    }
    if (open?.kind !== 'thinking' || open.thinking !== event.index) {
      if (thoughts.has(event.index)) return; // a piece of a block already closed: nothing to append it to
      close(out);
      index++;
      open = { kind: 'thinking', thinking: event.index };
      thoughts.add(event.index);
      out.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    }
    if (event.delta) out.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: event.delta } });
    if (event.signature !== undefined) out.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: event.signature } });
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
              usage: startUsage(event, prompt),
            },
          }, { type: 'ping' });
          break;
        case 'thinking':
          if (showThinking) thinking(out, event);
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
