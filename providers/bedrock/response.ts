import type { ContentBlock, ConverseResponse } from '@aws-sdk/client-bedrock-runtime';
import { RouterError } from '../../src/errors.js';
import type { FinishReason, ProviderParts, ToolCall } from '../../src/types.js';
import { malformedResponse } from '../shared/transport-error.js';
import { reasoningParts } from './reasoning-parts.js';
import { JSON_TOOL_NAME } from './tools.js';
import { converseFinishReason } from './usage.js';

interface Where {
  provider: string;
  model: string;
}

/** A `toolUse` block's `input`: a JSON document (an object for a tool call). */
function toolInput(input: unknown, name: string, where: Where): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  throw new RouterError('invalid_output', `${where.provider} answered a call of tool "${name}" whose input is not an object`, Object.assign({}, where, { code: 'invalid_tool_arguments', raw: JSON.stringify(input) }));
}

/**
 * The answer of a Converse response: text blocks joined, `toolUse` blocks as tool calls (none when
 * cut at `max_tokens`: their input is cut too), the finish reason, and the blocks as provider parts
 * when they hold reasoning. With the forced `json` tool (`jsonTool`), its input is the answer's text.
 */
export function converseAnswer(data: ConverseResponse, where: Where, jsonTool = false): { text: string; toolCalls: ToolCall[]; finishReason: FinishReason; providerParts?: ProviderParts } {
  const content = data.output?.message?.content;
  if (!Array.isArray(content)) throw malformedResponse(where, 'no output.message.content');
  if (jsonTool) {
    const call = content.find((b) => b.toolUse?.name === JSON_TOOL_NAME)?.toolUse;
    const text = call ? JSON.stringify(call.input ?? {}) : textOf(content);
    return { text, toolCalls: [], finishReason: converseFinishReason(data.stopReason, false, true) };
  }
  const calls: ToolCall[] = [];
  for (const block of content) {
    const use = block.toolUse;
    if (use) calls.push({ id: String(use.toolUseId), name: String(use.name), arguments: toolInput(use.input, String(use.name), where) });
  }
  const finishReason = converseFinishReason(data.stopReason, calls.length > 0);
  const providerParts = reasoningParts(content);
  return { text: textOf(content), toolCalls: finishReason === 'length' ? [] : calls, finishReason, ...(providerParts ? { providerParts } : {}) };
}

function textOf(content: readonly ContentBlock[]): string {
  let text = '';
  for (const block of content) if (typeof block.text === 'string') text += block.text;
  return text;
}
