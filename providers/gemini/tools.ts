import type { ToolChoice } from '../../src/types.js';
import { bareSchema } from '../shared/json-schema.js';
import type { ProviderRequest, ProviderTool } from '../types.js';
import type { GeminiModelTraits } from './model-traits.js';
import { geminiJsonSchema, geminiOpenApiSchema } from './schema.js';
import type { GeminiFunctionDeclaration, GeminiRequestBody, GeminiToolConfig } from './wire-types.js';

interface Where {
  provider: string;
  model: string;
}

function hasProperties(schema: Record<string, unknown>): boolean {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}

function declaration(tool: ProviderTool, traits: GeminiModelTraits, where: Where): GeminiFunctionDeclaration {
  const out: GeminiFunctionDeclaration = { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}) };
  const schema = bareSchema(tool.parameters);
  if (traits.jsonSchema) out.parametersJsonSchema = geminiJsonSchema(schema);
  // The OpenAPI subset refuses an OBJECT without properties: a function without arguments sends none.
  else if (hasProperties(schema)) out.parameters = geminiOpenApiSchema(schema, where);
  return out;
}

function toolConfig(choice: ToolChoice | undefined): GeminiToolConfig | undefined {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

/**
 * `tools` (one `functionDeclarations` list) and `toolConfig`: `auto` is the API's default and sends
 * nothing, `none` is mode NONE, `required` mode ANY, a named tool mode ANY limited to that name.
 * Schemas go as JSON Schema to 2.5 and newer, as the OpenAPI subset to older models. `strict` and
 * `parallelToolCalls` have no Gemini field and are dropped.
 */
export function geminiTools(request: ProviderRequest, traits: GeminiModelTraits, where: Where): Pick<GeminiRequestBody, 'tools' | 'toolConfig'> {
  if (!request.tools || request.tools.length === 0) return {};
  const config = toolConfig(request.toolChoice);
  return {
    tools: [{ functionDeclarations: request.tools.map((tool) => declaration(tool, traits, where)) }],
    ...(config ? { toolConfig: config } : {}),
  };
}
