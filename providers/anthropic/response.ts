import type Anthropic from '@anthropic-ai/sdk';
import { RouterError } from '../../src/errors.js';
import type { FinishReason, ProviderParts, ToolCall } from '../../src/types.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import { finishReasonOf } from './adapter-body.js';
import { JSON_TOOL_NAME } from './json-tool.js';

interface Where {
  provider: string;
  model: string;
}

const THINKING = new Set(['thinking', 'redacted_thinking']);

/** A `tool_use` block's `input` (an object on the wire; a string only from proxies that re-encode it). */
export function toolInput(input: unknown, name: string, where: Where): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input === 'string') return parseToolArguments(input, name, where);
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  throw new RouterError('invalid_output', `${where.provider} answered a call of tool "${name}" whose input is not an object`, Object.assign({}, where, { code: 'invalid_tool_arguments', raw: JSON.stringify(input) }));
}

/** The content blocks as provider parts, when they hold thinking (they must come back verbatim in a tool loop). */
export function thinkingParts(blocks: readonly unknown[]): ProviderParts | undefined {
  const thinks = blocks.some((b) => THINKING.has((b as { type?: string })?.type ?? ''));
  return thinks ? { api: 'anthropic', blocks: [...blocks] } : undefined;
}

/**
 * The finish reason given what the answer held: tool calls make a normal stop `tool_calls`; a cut
 * answer stays `length`. With the `json` tool (`jsonTool`), calling it is the answer: `stop`.
 */
export function anthropicFinishReason(stopReason: string | null | undefined, hasToolCalls: boolean, jsonTool = false): FinishReason {
  if (jsonTool && stopReason === 'tool_use') return 'stop';
  const mapped = finishReasonOf(stopReason);
  return hasToolCalls && mapped === 'stop' ? 'tool_calls' : mapped;
}

/**
 * The answer of a message: text blocks joined, `tool_use` blocks as tool calls (none when the answer
 * was cut at `max_tokens`: their input is cut too), the finish reason, and the content blocks as
 * provider parts when they hold thinking. A refusal with no text carries the API's explanation.
 * With the forced `json` tool (`jsonTool`), the tool's input is the answer's text.
 */
export function anthropicAnswer(data: Anthropic.Message, where: Where, jsonTool = false): { text: string; toolCalls: ToolCall[]; finishReason: FinishReason; providerParts?: ProviderParts } {
  if (jsonTool) return jsonToolAnswer(data);
  let text = '';
  const calls: ToolCall[] = [];
  for (const block of data.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') calls.push({ id: block.id, name: block.name, arguments: toolInput(block.input, block.name, where) });
  }
  const finishReason = anthropicFinishReason(data.stop_reason, calls.length > 0);
  if (finishReason === 'content_filter' && text === '') text = (data.stop_details as { explanation?: string } | null | undefined)?.explanation ?? '';
  const providerParts = thinkingParts(data.content);
  return { text, toolCalls: finishReason === 'length' ? [] : calls, finishReason, ...(providerParts ? { providerParts } : {}) };
}

/** The answer of a structured request sent as the forced `json` tool: its input, as JSON text. */
function jsonToolAnswer(data: Anthropic.Message): { text: string; toolCalls: ToolCall[]; finishReason: FinishReason } {
  const call = data.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use' && b.name === JSON_TOOL_NAME);
  // No call (a refusal, say): the text as it is, which the router then reads as not JSON.
  const text = call ? JSON.stringify(call.input ?? {}) : data.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return { text, toolCalls: [], finishReason: anthropicFinishReason(data.stop_reason, false, true) };
}
