import type OpenAI from 'openai';
import type { JSONSchema, ToolChoice } from '../../../src/types.js';
import { bareSchema, strictObjectSchema } from '../../shared/json-schema.js';
import type { ProviderRequest, ProviderTool, ResponsesFields } from '../../types.js';
import { isReasoningModel } from '../parameters.js';
import { promptCacheKey } from '../prompt-cache-key.js';
import { openAIResponseFormat } from '../response-format.js';
import { responsesInput } from './input.js';

export type ResponsesBody = OpenAI.Responses.ResponseCreateParamsNonStreaming;

function functionTool(tool: ProviderTool): OpenAI.Responses.FunctionTool {
  // Flat, unlike Chat Completions; `strict` and `parameters` are required-nullable on the wire.
  const strict = tool.strict ? strictObjectSchema(tool.parameters) : undefined;
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parameters: strict ?? bareSchema(tool.parameters),
    strict: strict !== undefined,
  };
}

function toolChoice(choice: ToolChoice): ResponsesBody['tool_choice'] {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** `text.format` from the normalised `responseFormat`: the same schemas as Chat Completions' `response_format`, flattened. */
function textFormat(request: ProviderRequest): { format?: OpenAI.Responses.ResponseFormatTextConfig; instruction?: string } {
  const { response_format, instruction } = openAIResponseFormat(request.responseFormat, request.messages);
  if (!response_format || response_format.type === 'text') return {};
  if (response_format.type === 'json_object') return { format: { type: 'json_object' }, instruction };
  const { name, schema, strict } = response_format.json_schema;
  return { format: { type: 'json_schema', name, schema: schema ?? {}, strict: strict ?? false } };
}

/**
 * The Responses API body for one request, stateless: the whole history every time, `store: false`,
 * and `reasoning.encrypted_content` included so a reasoning model's items can be replayed on the
 * next turn. Reasoning models get `reasoning.effort` and lose `temperature` / `top_p` (they reject
 * them). The Responses API has no `stop` or `seed`: both are dropped. Breakpoints become
 * `prompt_cache_key` (../prompt-cache-key.ts). `extraBody` is merged last.
 */
export function responsesBody(request: ProviderRequest, provider: string): ResponsesBody {
  const where = { provider, model: request.model };
  const { instructions, input } = responsesInput(request.messages, where);
  const { format, instruction } = textFormat(request);
  const reasoning = isReasoningModel(request.model);
  const body: ResponsesBody = {
    model: request.model,
    input: instruction ? [{ role: 'system', content: instruction }, ...input] : input,
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  if (instructions !== undefined) body.instructions = instructions;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(functionTool);
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (format) body.text = { format };
  // max_output_tokens covers reasoning and answer: a reasoning model gets the router's allowance on top.
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens + (request.thinking?.addTokens ?? 0);
  if (request.temperature !== undefined && !reasoning) body.temperature = request.temperature;
  if (request.topP !== undefined && !reasoning) body.top_p = request.topP;
  if (request.user !== undefined) body.user = request.user;
  const effort = request.thinking?.effort ?? request.reasoning?.effort;
  if (effort && reasoning) body.reasoning = { effort };
  if (request.responsesFields) withResponsesFields(body, request.responsesFields, reasoning);
  const key = promptCacheKey(request);
  if (key !== undefined) body.prompt_cache_key = key;
  return request.extraBody ? Object.assign({}, body, request.extraBody) : body;
}

/**
 * A gateway client's Responses-only fields, as it sent them (`ResponsesFields`): `reasoning.summary`
 * beside the effort (reasoning models only, as `reasoning` is), `text.verbosity` beside the format,
 * `client_metadata`, and its custom and local_shell tools after the function tools.
 */
function withResponsesFields(body: ResponsesBody, fields: ResponsesFields, reasoning: boolean): void {
  if (fields.reasoning && reasoning) body.reasoning = Object.assign({}, body.reasoning, fields.reasoning);
  if (fields.text) body.text = Object.assign({}, body.text, fields.text);
  if (fields.client_metadata) (body as Record<string, unknown>).client_metadata = fields.client_metadata;
  if (fields.tools && fields.tools.length > 0) body.tools = (body.tools ?? []).concat(fields.tools as OpenAI.Responses.Tool[]);
}

/**
 * The schema this adapter sends for `schema` (tools and `text.format` alike): closed by strict mode,
 * `$schema` dropped; undefined when strict mode cannot take it (the tool then goes non-strict).
 * The Responses pass-through compares it with the client's (src/decide/responses-pass-through.ts).
 */
export function sentResponsesSchema(schema: JSONSchema, strict: boolean): JSONSchema | undefined {
  return strict ? strictObjectSchema(schema) : bareSchema(schema);
}
