import type Anthropic from '@anthropic-ai/sdk';
import { closedObjectSchema } from '../shared/json-schema.js';
import { unsupported } from '../shared/content-source.js';
import type { ProviderRequest } from '../types.js';
import { anthropicModelTraits } from './model-traits.js';

/** The tool a structured answer is asked for on a model without native structured output. */
export const JSON_TOOL_NAME = 'json';

/** True when this request's schema goes as a forced tool: `json_schema` on a model without `output_config.format`. */
export function usesJsonTool(request: ProviderRequest): boolean {
  return request.responseFormat?.type === 'json_schema' && !anthropicModelTraits(request.model).structuredOutput;
}

/**
 * The forced tool that carries the answer (the fallback of wave2 §3.2): one tool named `json` with
 * the schema (objects closed) as its input, and `tool_choice: {type: 'tool', name: 'json'}`; its
 * input becomes the answer's text, and so `result.object`. A target cannot carry it, so the call
 * moves on (`unsupported`), when the request has tools of its own (forcing this one would keep the
 * model from calling them) or the schema's root is not an object (a tool's input is one).
 */
export function jsonTool(request: ProviderRequest, where: { provider: string; model: string }): Anthropic.Tool {
  if (request.responseFormat?.type !== 'json_schema') throw new Error('jsonTool: no json_schema response format');
  const schema = request.responseFormat.schema;
  const noStructuredOutput = `${where.model} has no native structured output`;
  if (request.tools && request.tools.length > 0) throw unsupported(where, `a JSON schema answer together with tools (${noStructuredOutput})`);
  if (schema.type !== 'object' && !(schema.type === undefined && typeof schema.properties === 'object')) {
    throw unsupported(where, `a JSON schema whose root is not an object (${noStructuredOutput}; its tool input must be an object)`);
  }
  return { name: JSON_TOOL_NAME, description: 'Respond with a JSON object.', input_schema: closedObjectSchema(schema) as Anthropic.Tool.InputSchema };
}
