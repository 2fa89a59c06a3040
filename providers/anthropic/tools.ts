import type Anthropic from '@anthropic-ai/sdk';
import type { JSONSchema, ToolChoice } from '../../src/types.js';
import { bareSchema, closedObjectSchema } from '../shared/json-schema.js';
import type { ProviderRequest, ProviderTool } from '../types.js';
import { cacheControl } from './content-blocks.js';
import { jsonTool, usesJsonTool } from './json-tool.js';
import type { AnthropicHistory } from './messages.js';

type ToolFields = Pick<Anthropic.MessageCreateParamsNonStreaming, 'tools' | 'tool_choice'>;

/** Stands in for a tool the history calls when the request sends no definitions (the API needs `tools` then). */
const HISTORY_TOOL_SCHEMA: JSONSchema = { type: 'object', properties: {} };

/** A tool's `input_schema` as sent: strict closes every object, `$schema` is dropped, a root without `type` becomes an object (what a pass-through decision compares a client's schema with). */
export function inputSchema(schema: JSONSchema, strict: boolean | undefined): Anthropic.Tool.InputSchema {
  const bare = strict ? closedObjectSchema(schema) : bareSchema(schema);
  return (bare.type === undefined ? { type: 'object', ...bare } : bare) as Anthropic.Tool.InputSchema;
}

function anthropicTool(tool: ProviderTool): Anthropic.Tool {
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input_schema: inputSchema(tool.parameters, tool.strict),
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    ...cacheControl(tool.cache),
  };
}

function anthropicToolChoice(choice: ToolChoice | undefined, parallel: boolean | undefined): Anthropic.ToolChoice | undefined {
  if (choice === 'none') return { type: 'none' };
  // parallel_tool_calls: false is Anthropic's disable_parallel_tool_use: true, on the choice itself.
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...single } : undefined;
  if (choice === 'auto') return { type: 'auto', ...single };
  if (choice === 'required') return { type: 'any', ...single };
  return { type: 'tool', name: choice.name, ...single };
}

/** True when the request makes the model call a tool (`required` or a named one): thinking cannot be on then. */
export function forcesToolUse(choice: ToolChoice | undefined): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}

/**
 * `tools` and `tool_choice`. `none` is sent as `{type: "none"}` (tools stay, so a history with tool
 * blocks stays valid); a history that calls tools the request does not define gets a stand-in
 * definition for each, with `tool_choice: none`, because the API refuses tool blocks without `tools`.
 * A JSON schema answer on a model without native structured output is the forced `json` tool.
 */
export function anthropicTools(request: ProviderRequest, history: AnthropicHistory, where: { provider: string; model: string }): ToolFields {
  const tools = request.tools ?? [];
  if (usesJsonTool(request)) {
    const answer = jsonTool(request, where);
    return { tools: [...historyTools(history), answer], tool_choice: { type: 'tool', name: answer.name } };
  }
  if (tools.length > 0) {
    const choice = anthropicToolChoice(request.toolChoice, request.parallelToolCalls);
    return { tools: tools.map(anthropicTool), ...(choice ? { tool_choice: choice } : {}) };
  }
  if (!history.hasToolBlocks) return {};
  return { tools: historyTools(history), tool_choice: { type: 'none' } };
}

function historyTools(history: AnthropicHistory): Anthropic.Tool[] {
  if (!history.hasToolBlocks) return [];
  const names = history.toolNames.size > 0 ? [...history.toolNames] : ['tool'];
  return names.map((name) => ({ name, description: 'A tool this conversation used earlier.', input_schema: HISTORY_TOOL_SCHEMA as Anthropic.Tool.InputSchema }));
}
