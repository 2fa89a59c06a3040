import type { Tool, ToolConfiguration } from '@aws-sdk/client-bedrock-runtime';
import type { JSONSchema, ToolChoice } from '../../src/types.js';
import { bareSchema, closedObjectSchema } from '../shared/json-schema.js';
import { unsupported } from '../shared/content-source.js';
import type { ProviderRequest, ProviderTool } from '../types.js';
import { cachePointsFor } from './cache-point.js';
import type { ConverseHistory } from './messages.js';

/** The tool a structured answer is asked for on a model without `outputConfig.textFormat`. */
export const JSON_TOOL_NAME = 'json';

/** Stands in for a tool the history calls when the request sends no definitions (Converse needs a `toolConfig` then). */
const HISTORY_TOOL_SCHEMA: JSONSchema = { type: 'object', properties: {} };

function inputSchema(schema: JSONSchema, strict: boolean | undefined): JSONSchema {
  const bare = strict ? closedObjectSchema(schema) : bareSchema(schema);
  return bare.type === undefined ? { type: 'object', ...bare } : bare;
}

function toolSpec(tool: ProviderTool): Tool {
  return {
    toolSpec: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: { json: inputSchema(tool.parameters, tool.strict) as never },
      ...(tool.strict ? { strict: true } : {}),
    },
  };
}

function historyTools(history: ConverseHistory): Tool[] {
  if (!history.hasToolBlocks) return [];
  const names = history.toolNames.size > 0 ? [...history.toolNames] : ['tool'];
  return names.map((name) => ({ toolSpec: { name, description: 'A tool this conversation used earlier.', inputSchema: { json: HISTORY_TOOL_SCHEMA as never } } }));
}

function toolChoiceOf(choice: ToolChoice | undefined): ToolConfiguration['toolChoice'] {
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  if (typeof choice === 'object' && choice !== null) return { tool: { name: choice.name } };
  return undefined;
}

/** True when the request makes the model call a tool (`required` or a named one). */
export function forcesToolUse(request: ProviderRequest): boolean {
  const choice = request.tools?.length ? request.toolChoice : undefined;
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}

/**
 * The forced tool that carries a structured answer where Converse's `outputConfig.textFormat` is not
 * taken: one tool named `json` with the schema (objects closed) as its input, chosen with
 * `toolChoice: {tool: {name: 'json'}}`; its input becomes the answer's text. A target cannot carry
 * it (`unsupported`) when the request has tools of its own or the schema's root is not an object.
 */
function jsonTool(request: ProviderRequest, where: { provider: string; model: string }): Tool {
  if (request.responseFormat?.type !== 'json_schema') throw new Error('jsonTool: no json_schema response format');
  const schema = request.responseFormat.schema;
  const why = `${where.model} takes no outputConfig.textFormat`;
  if (request.tools && request.tools.length > 0) throw unsupported(where, `a JSON schema answer together with tools (${why})`);
  if (schema.type !== 'object' && !(schema.type === undefined && typeof schema.properties === 'object')) {
    throw unsupported(where, `a JSON schema whose root is not an object (${why}; a tool input must be an object)`);
  }
  return { toolSpec: { name: JSON_TOOL_NAME, description: 'Respond with a JSON object.', inputSchema: { json: closedObjectSchema(schema) as never } } };
}

/**
 * `toolConfig`: each tool as a `toolSpec` (its JSON Schema under `inputSchema.json`, `strict`
 * passed on), `toolChoice` `auto` / `any` / `tool`. Converse has no `none`: the tools are left out
 * then, unless the history holds tool blocks (Converse refuses those without a `toolConfig`), when
 * they are sent with no choice. A history that calls tools the request does not define gets a
 * stand-in definition for each. `jsonTool`: the structured answer goes as the forced `json` tool.
 * A tool's `cache` is a `cachePoint` after its `toolSpec`, on models with prompt caching.
 */
export function converseToolConfig(request: ProviderRequest, history: ConverseHistory, jsonToolAnswer: boolean, where: { provider: string; model: string }): ToolConfiguration | undefined {
  if (jsonToolAnswer) return { tools: [...historyTools(history), jsonTool(request, where)], toolChoice: { tool: { name: JSON_TOOL_NAME } } };
  const tools = request.tools ?? [];
  if (tools.length > 0 && (request.toolChoice !== 'none' || history.hasToolBlocks)) {
    const choice = request.toolChoice === 'none' ? undefined : toolChoiceOf(request.toolChoice);
    const cachePoints = cachePointsFor(where.model);
    return { tools: tools.flatMap((t) => [toolSpec(t), ...cachePoints(t.cache)]), ...(choice ? { toolChoice: choice } : {}) };
  }
  if (!history.hasToolBlocks) return undefined;
  return { tools: historyTools(history) };
}
