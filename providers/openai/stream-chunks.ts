import type OpenAI from 'openai';
import type { FinishReason, Usage } from '../../src/types.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderStreamEvent } from '../types.js';
import { openAIFinishReason } from './finish-reason.js';
import type { MapContext } from './map-error.js';
import { OpenAIToolCallTracker } from './stream-tool-calls.js';
import { openAIUsage } from './usage.js';

/**
 * Reasoning text some OpenAI-compatible servers stream before the answer (vLLM and DeepSeek
 * `reasoning_content`, others `reasoning`): liveness, never content.
 */
function reasoningText(delta: unknown): boolean {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  return (typeof d?.reasoning_content === 'string' && d.reasoning_content !== '') || (typeof d?.reasoning === 'string' && d.reasoning !== '');
}

/**
 * Reads Chat Completions stream chunks into provider stream events, one chunk at a time, for the
 * SDK's stream and the pass-through's own SSE reader alike. The terminal signal is a chunk with a
 * `finish_reason`; the usage chunk (`choices: []`) and `[DONE]` follow it.
 */
export class OpenAIChunkReader {
  private readonly tools = new OpenAIToolCallTracker();
  private refused = false;
  /** Set once a chunk carried a `finish_reason`: the answer is whole. */
  finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private model: string | undefined;

  /** The events one chunk carries. */
  *events(chunk: OpenAI.ChatCompletionChunk): Generator<ProviderStreamEvent> {
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = openAIUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta?.content) yield { type: 'delta', text: delta.content };
    if (reasoningText(delta)) yield { type: 'thinking' };
    if (delta?.refusal) {
      this.refused = true;
      yield { type: 'delta', text: delta.refusal };
    }
    if (delta?.tool_calls?.length) yield* this.tools.fragments(delta.tool_calls);
    if (choice.finish_reason && !this.finishReason) {
      this.finishReason = openAIFinishReason(choice.finish_reason, { toolCalls: this.tools.any, refusal: this.refused });
      if (this.finishReason !== 'length') yield* this.tools.endAll();
    }
  }

  /** The stream's `finish` once its body ended; a cut stream (no `finish_reason`) throws. */
  finish(where: Omit<MapContext, 'nowMs' | 'redact' | 'dialect'>): ProviderStreamEvent {
    if (!this.finishReason) throw truncatedStream(where, 'a finish_reason');
    // No usage chunk (a server that ignores include_usage, a body cut after the finish): unknown, not 0.
    return { type: 'finish', finishReason: this.finishReason, ...(this.usage ? { usage: this.usage } : {}), model: this.model };
  }
}
