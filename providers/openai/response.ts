import type OpenAI from 'openai';
import type { FinishReason, ToolCall } from '../../src/types.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import { malformedResponse } from '../shared/transport-error.js';
import { openAIFinishReason } from './finish-reason.js';

const NO_CALLS: readonly OpenAI.ChatCompletionMessageToolCall[] = Object.freeze([]);

interface Where {
  provider: string;
  model: string;
}

/**
 * The answer of a completion: its text (the refusal text when the model refused), its tool calls with
 * arguments parsed (invalid JSON throws `invalid_output`), and why it finished. The tool calls of an
 * answer cut at `length` are not returned: their arguments are cut too, and must never be run.
 */
export function openAIAnswer(data: OpenAI.ChatCompletion, where: Where): { text: string; toolCalls: ToolCall[]; finishReason: FinishReason } {
  const choice = data?.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null) throw malformedResponse(where, 'no choices[0].message');
  const { message } = choice;
  const refusal = typeof message.refusal === 'string' && message.refusal !== '';
  const functionCalls = message.tool_calls && message.tool_calls.length > 0
    ? message.tool_calls.filter((call) => call.type === 'function' || (call as { function?: unknown }).function)
    : NO_CALLS;
  const finishReason = openAIFinishReason(choice.finish_reason, { toolCalls: functionCalls.length > 0, refusal });
  const toolCalls = finishReason === 'length' || functionCalls.length === 0 ? [] : functionCalls.map((call) => {
    const fn = (call as OpenAI.ChatCompletionMessageFunctionToolCall).function;
    return { id: call.id, name: fn.name, arguments: parseToolArguments(fn.arguments ?? '', fn.name, where) };
  });
  const text = refusal ? message.refusal! : message.content ?? '';
  return { text, toolCalls, finishReason };
}
