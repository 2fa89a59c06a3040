import type { FinishReason } from '../../src/types.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop', length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls', content_filter: 'content_filter',
};

/**
 * OpenAI's `finish_reason` in the normalised vocabulary, given what the answer held. Tool calls are
 * detected by their presence: a forced named `tool_choice` ends with `stop`, not `tool_calls`. A
 * refusal is `content_filter`. An answer cut at `length` stays `length`, tool calls or not.
 */
export function openAIFinishReason(reason: string | null | undefined, facts: { toolCalls: boolean; refusal: boolean }): FinishReason {
  const mapped = (reason && FINISH[reason]) || 'other';
  if (mapped === 'length' || mapped === 'content_filter') return mapped;
  if (facts.refusal) return 'content_filter';
  if (facts.toolCalls) return 'tool_calls';
  return mapped;
}
