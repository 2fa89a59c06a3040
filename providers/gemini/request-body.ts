import { bareSchema } from '../shared/json-schema.js';
import { unsupported } from '../shared/content-source.js';
import type { ProviderRequest } from '../types.js';
import { geminiHistory } from './messages.js';
import { geminiModelTraits } from './model-traits.js';
import { geminiJsonSchema, geminiOpenApiSchema } from './schema.js';
import { geminiThinking } from './thinking.js';
import { geminiTools } from './tools.js';
import type { GeminiGenerationConfig, GeminiRequestBody } from './wire-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function generationConfig(request: ProviderRequest, where: { provider: string; model: string }): GeminiGenerationConfig {
  const traits = geminiModelTraits(request.model);
  const config: GeminiGenerationConfig = {};
  // maxTokens is the visible answer's: the thinking budget the router sized is added (thinking spends the same limit).
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens + (request.thinking?.addTokens ?? 0);
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.stop && request.stop.length > 0) config.stopSequences = request.stop;
  if (request.seed !== undefined) config.seed = request.seed;
  const format = request.responseFormat;
  if (format) {
    if (request.tools && request.tools.length > 0 && !traits.toolsWithJson) {
      throw unsupported(where, `a JSON answer together with tools (${where.model} refuses function calling with a JSON response type; Gemini 3 takes both)`);
    }
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema') {
      const schema = bareSchema(format.schema);
      if (traits.jsonSchema) config.responseJsonSchema = geminiJsonSchema(schema);
      else config.responseSchema = geminiOpenApiSchema(schema, where);
    }
  }
  const thinking = geminiThinking(request.reasoning, traits, request.thinking);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/**
 * The `generateContent` body for one request: contents and `systemInstruction`, tools and
 * `toolConfig`, and `generationConfig` (`maxTokens` as `maxOutputTokens`, `stop` as
 * `stopSequences`, `seed`, `responseFormat` as `responseMimeType` with `responseJsonSchema` or, for
 * models before 2.5, `responseSchema`; `reasoning` as `thinkingConfig`). `user` has no Gemini field
 * and is dropped. The request's `extraBody` is merged last and one level deep, so
 * `{ generationConfig: { topK: 40 } }` adds to the generation config instead of replacing it.
 */
export function geminiBody(request: ProviderRequest, provider = 'gemini'): GeminiRequestBody {
  const where = { provider, model: request.model };
  const traits = geminiModelTraits(request.model);
  const history = geminiHistory(request.messages, where, { signatures: traits.signatures });
  const config = generationConfig(request, where);
  const body: GeminiRequestBody = {
    contents: history.contents,
    ...(history.systemInstruction ? { systemInstruction: history.systemInstruction } : {}),
    ...geminiTools(request, traits, where),
    ...(Object.keys(config).length > 0 ? { generationConfig: config } : {}),
  };
  if (!request.extraBody) return body;
  for (const [key, value] of Object.entries(request.extraBody)) {
    body[key] = isObject(value) && isObject(body[key]) ? Object.assign({}, body[key], value) : value;
  }
  return body;
}
