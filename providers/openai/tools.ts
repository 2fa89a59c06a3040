import type OpenAI from 'openai';
import type { ToolChoice } from '../../src/types.js';
import { bareSchema, strictObjectSchema } from '../shared/json-schema.js';
import type { ProviderRequest, ProviderTool } from '../types.js';

type ToolFields = Pick<OpenAI.ChatCompletionCreateParamsNonStreaming, 'tools' | 'tool_choice' | 'parallel_tool_calls'>;

function openAITool(tool: ProviderTool): OpenAI.ChatCompletionFunctionTool {
  // Strict function calling holds the schema to the same rules as strict structured output; a schema
  // it cannot take as it means it (a record of arguments) goes as written with `strict: false`.
  const strict = tool.strict ? strictObjectSchema(tool.parameters) : undefined;
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: strict ?? bareSchema(tool.parameters),
      ...(tool.strict !== undefined ? { strict: strict !== undefined } : {}),
    },
  };
}

function openAIToolChoice(choice: ToolChoice): OpenAI.ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * `tools`, `tool_choice` and `parallel_tool_calls`, only when the request has tools: the API refuses
 * `parallel_tool_calls` (and a named choice) without them.
 */
export function openAITools(request: ProviderRequest): ToolFields {
  if (!request.tools || request.tools.length === 0) return {};
  const fields: ToolFields = { tools: request.tools.map(openAITool) };
  if (request.toolChoice !== undefined) fields.tool_choice = openAIToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) fields.parallel_tool_calls = request.parallelToolCalls;
  return fields;
}
