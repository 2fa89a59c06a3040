import type OpenAI from 'openai';
import type { RouterError } from '../errors.js';
import type { ChatResult, ToolCall } from '../types.js';
import { openAIErrorFrame, type OpenAIErrorFrame } from './openai-errors.js';
import { completionId, openAIFinishReasonOf, openAIToolCallOf, openAIUsageOf, type ToOpenAIOptions } from './to-openai.js';

export { openAIErrorFrame, type OpenAIErrorFrame } from './openai-errors.js';

/** The router's stream events as DESIGN.md names them (what `router.stream` yields). */
export type RouterStreamEvent =
  | { type: 'start'; provider: string; model: string }
  | { type: 'text'; delta: string }
  | { type: 'thinking'; index: number; delta?: string; signature?: string; redacted?: string }
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool_call'; toolCall: ToolCall }
  | { type: 'done'; result: ChatResult }
  | { type: 'interrupted'; text: string; toolCalls?: ToolCall[]; error: RouterError };

/** Options of `openAIChunker`. */
export interface OpenAIChunkerOptions extends ToOpenAIOptions {
  /**
   * Send the `choices: []` usage chunk after the finish, as `stream_options.include_usage` asks; a
   * stream whose provider reported no usage gets none (unknown, never zeros). @default false
   */
  includeUsage?: boolean;
}

/** Turns router stream events into `chat.completion.chunk` objects, one stream's worth. */
export interface OpenAIChunker {
  /** The chunks (or the error frame) one event becomes; each is one `data:` line. `[DONE]` is the caller's to write. */
  push(event: RouterStreamEvent): Array<OpenAI.ChatCompletionChunk | OpenAIErrorFrame>;
}

/**
 * A converter from router stream events to OpenAI chunks, for a gateway: a role chunk at `start`,
 * `content` deltas, tool calls with a per-call `index` (the first fragment of each carries `id`,
 * `type: "function"`, `name` and `arguments`; a call that arrives only whole, as `tool_call`, is sent
 * as one such fragment), the finish chunk at `done`, then the usage chunk when asked. `interrupted`
 * becomes an error frame the openai SDK throws on, never a finish.
 */
export function openAIChunker(options: OpenAIChunkerOptions = {}): OpenAIChunker {
  const id = options.id ?? completionId();
  const created = options.created ?? Math.floor(Date.now() / 1000);
  let model = options.model ?? '';
  const indexById = new Map<string, number>();
  const seen = new Set<number>();

  const chunk = (delta: OpenAI.ChatCompletionChunk.Choice.Delta, finish: OpenAI.ChatCompletionChunk.Choice['finish_reason'] = null): OpenAI.ChatCompletionChunk => ({
    id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

  return {
    push(event) {
      switch (event.type) {
        case 'start':
          if (!options.model) model = event.model;
          return [chunk({ role: 'assistant', content: '' })];
        case 'text':
          return event.delta ? [chunk({ content: event.delta })] : [];
        case 'tool_call_delta': {
          const first = !seen.has(event.index);
          seen.add(event.index);
          if (event.id) indexById.set(event.id, event.index);
          const fragment: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall = first
            ? { index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: event.argumentsDelta } }
            : { index: event.index, function: { arguments: event.argumentsDelta } };
          return first || event.argumentsDelta ? [chunk({ tool_calls: [fragment] })] : [];
        }
        case 'tool_call': {
          if (indexById.has(event.toolCall.id)) return [];
          const index = seen.size;
          seen.add(index);
          indexById.set(event.toolCall.id, index);
          return [chunk({ tool_calls: [{ index, ...openAIToolCallOf(event.toolCall) }] })];
        }
        case 'done': {
          const out: Array<OpenAI.ChatCompletionChunk | OpenAIErrorFrame> = [chunk({}, openAIFinishReasonOf(event.result.finishReason))];
          if (options.includeUsage && event.result.usage) out.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsageOf(event.result.usage) });
          return out;
        }
        case 'interrupted':
          return [openAIErrorFrame(event.error)];
        case 'thinking':
          return []; // Chat Completions chunks have no reasoning field (and the gateway never asks for it)
      }
    },
  };
}
