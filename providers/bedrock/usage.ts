import type { TokenUsage } from '@aws-sdk/client-bedrock-runtime';
import type { FinishReason, Usage } from '../../src/types.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length',
  tool_use: 'tool_calls', content_filtered: 'content_filter', guardrail_intervened: 'content_filter',
};

/**
 * Converse usage, normalised: its `inputTokens` counts only the prompt neither read from nor written
 * to the cache (the prompt-caching guide: total input = inputTokens + cacheReadInputTokens +
 * cacheWriteInputTokens), so the input total adds both back; reads and writes are reported when above
 * zero, and the writes' split by lifetime when `cacheDetails` reports it (`CacheDetail {ttl: '5m' |
 * '1h', inputTokens}`, in @aws-sdk/client-bedrock-runtime's TokenUsage): both parts. Undefined when the input or the output count is missing (a stream whose `metadata` never
 * came): unknown, never a count made up as 0.
 */
export function converseUsage(usage: TokenUsage | undefined): Usage | undefined {
  if (typeof usage?.inputTokens !== 'number' || typeof usage.outputTokens !== 'number') return undefined;
  const read = usage.cacheReadInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  const out: Usage = { inputTokens: usage.inputTokens + read + written, outputTokens: usage.outputTokens };
  if (read) out.cachedInputTokens = read;
  if (written) out.cacheWriteTokens = written;
  if (written && usage.cacheDetails && usage.cacheDetails.length > 0) {
    let m5 = 0;
    let h1 = 0;
    for (const detail of usage.cacheDetails) {
      if (detail.ttl === '1h') h1 += detail.inputTokens ?? 0;
      else if (detail.ttl === '5m') m5 += detail.inputTokens ?? 0;
    }
    if (m5 + h1 > 0) {
      out.cacheWrite5mTokens = m5;
      out.cacheWrite1hTokens = h1;
    }
  }
  return out;
}

/**
 * Converse's `stopReason` in the normalised vocabulary (`malformed_model_output`, `malformed_tool_use`
 * and unknown reasons are `other`); tool calls make a normal stop `tool_calls`. With the forced
 * `json` tool (`jsonTool`), calling it is the answer: `stop`.
 */
export function converseFinishReason(stopReason: string | undefined, hasToolCalls: boolean, jsonTool = false): FinishReason {
  if (jsonTool && stopReason === 'tool_use') return 'stop';
  const mapped = stopReason ? FINISH[stopReason] ?? 'other' : 'stop';
  return hasToolCalls && mapped === 'stop' ? 'tool_calls' : mapped;
}
