import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderStreamEvent } from '../types.js';
import { anthropicFinishReason } from './response.js';
import { AnthropicBlockTracker } from './stream-blocks.js';
import { anthropicUsage, mergeUsageCounters, type AnthropicUsageCounters } from './usage.js';

/**
 * `message_start`'s prompt counters as a `usage` event: Anthropic reports the input, cache reads
 * and cache writes there, before any content (its output count there is a placeholder).
 */
function* promptUsage(counters: AnthropicUsageCounters): Generator<ProviderStreamEvent> {
  const usage = anthropicUsage(Object.assign({}, counters, { output_tokens: 0 }));
  if (!usage) return;
  const out: Extract<ProviderStreamEvent, { type: 'usage' }> = { type: 'usage', inputTokens: usage.inputTokens };
  if (usage.cachedInputTokens !== undefined) out.cachedInputTokens = usage.cachedInputTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWriteTokens = usage.cacheWriteTokens;
  yield out;
}

/**
 * One Messages event stream read into the router's events, event by event, whoever parsed it (the
 * SDK's stream, or a pass-through stream's bytes): `message_start` (the model, the first usage),
 * its prompt counters as a `usage` event, content blocks (AnthropicBlockTracker: text, tool calls, thinking with its signature), `message_delta` (the stop reason, cumulative usage), then
 * `message_stop`, which yields the `finish` with the usage of both and sets `done`. `ping` and event
 * types Anthropic may add later yield nothing.
 */
export class AnthropicEventReader {
  private readonly blocks: AnthropicBlockTracker;
  private counters: AnthropicUsageCounters = {};
  private stopReason: string | null | undefined;
  private model: string | undefined;
  /** True once `message_stop` came: the answer is whole. */
  done = false;

  /** `jsonTool`: the request's schema went as the forced `json` tool (its input is the answer's text). */
  constructor(private readonly jsonTool: boolean) {
    this.blocks = new AnthropicBlockTracker(jsonTool);
  }

  *events(event: Anthropic.RawMessageStreamEvent): Generator<ProviderStreamEvent> {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model;
        this.counters = mergeUsageCounters({}, event.message.usage);
        yield* promptUsage(this.counters);
        break;
      case 'content_block_start':
        yield* this.blocks.start(event);
        break;
      case 'content_block_delta':
        yield* this.blocks.delta(event);
        break;
      case 'content_block_stop':
        yield* this.blocks.stop(event);
        break;
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        this.counters = mergeUsageCounters(this.counters, event.usage);
        break;
      case 'message_stop': {
        this.done = true;
        const parts = this.blocks.thinkingBlocks();
        yield {
          type: 'finish',
          finishReason: anthropicFinishReason(this.stopReason, this.blocks.toolCalls > 0, this.jsonTool),
          usage: anthropicUsage(this.counters),
          model: this.model,
          ...(parts ? { providerParts: { api: 'anthropic' as const, blocks: parts } } : {}),
        };
        break;
      }
      default:
        break; // ping, and event types Anthropic may add later
    }
  }
}
