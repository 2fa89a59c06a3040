import type { ChatRequest, ReasoningOptions, ResponseFormat, Tool, ToolChoice } from '../types.js';
import { invalidField, isRecord, unsupportedField } from './convert-error.js';
import { messageFromOpenAI } from './from-openai-messages.js';
import { reasoningEffortOf } from './reasoning-effort.js';
import { checkTypes, describe, type WireType } from './wire-types.js';
import { setMaxTokensMeaning } from './max-tokens-meaning.js';

/** Options of `fromOpenAI`. */
export interface FromOpenAIOptions {
  /** The chain to send the request down. @default the request's `model` (the gateway's rule: `model` names a chain) */
  chain?: string;
}

/** OpenAI-only fields with no cross-provider meaning: passed verbatim to OpenAI-speaking providers in `providerOptions`. */
const PASSED_TO_OPENAI = new Set([
  'frequency_penalty', 'presence_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'service_tier', 'store', 'metadata',
  'prompt_cache_key', 'prompt_cache_retention', 'prompt_cache_options', 'safety_identifier', 'verbosity', 'prediction', 'web_search_options',
]);
/** Fields the caller acts on (stream or not, whether to add a usage chunk), not part of the request. */
const FOR_THE_CALLER = new Set(['stream', 'stream_options']);
const MAPPED = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'stop', 'top_p', 'seed', 'user',
  'reasoning_effort', 'max_tokens', 'max_completion_tokens', 'temperature', 'n', 'modalities',
]);

/** The JSON type of every top-level field the converter reads: anything else in one is a 400 naming it. */
const TYPES: Readonly<Record<string, WireType>> = {
  model: 'string', messages: 'array', tools: 'array', parallel_tool_calls: 'boolean', response_format: 'object',
  stop: 'string_or_array', top_p: 'number', seed: 'integer', user: 'string', reasoning_effort: 'string',
  max_tokens: 'integer', max_completion_tokens: 'integer', temperature: 'number', n: 'integer', modalities: 'array',
  stream: 'boolean', stream_options: 'object',
  frequency_penalty: 'number', presence_penalty: 'number', logit_bias: 'object', logprobs: 'boolean', top_logprobs: 'integer',
  service_tier: 'string', store: 'boolean', metadata: 'object', prompt_cache_key: 'string', prompt_cache_retention: 'string',
  prompt_cache_options: 'object', safety_identifier: 'string', verbosity: 'string', prediction: 'object', web_search_options: 'object',
};
const STREAM_OPTION_TYPES: Readonly<Record<string, WireType>> = { include_usage: 'boolean', include_obfuscation: 'boolean' };

function toolOf(tool: unknown, path: string): Tool {
  if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) {
    throw unsupportedField(path, 'only function tools are supported (custom tools have no equivalent elsewhere)');
  }
  const fn = tool.function;
  if (typeof fn.name !== 'string') throw invalidField(`${path}.function.name`, 'expected a name');
  checkTypes(fn, { description: 'string', parameters: 'object', strict: 'boolean' }, `${path}.function.`);
  return {
    name: fn.name,
    ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
    // "Omitting parameters defines a function with an empty parameter list."
    parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}),
  };
}

function toolChoiceOf(choice: unknown): ToolChoice {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (typeof choice === 'string') throw invalidField('tool_choice', `expected auto, none, required or a named function, got ${describe(choice)}`);
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function) && typeof choice.function.name === 'string') return { name: choice.function.name };
  throw unsupportedField('tool_choice', 'only auto, none, required and a named function (allowed_tools and custom tools have no equivalent)');
}

function responseFormatOf(format: unknown): ResponseFormat | undefined {
  if (!isRecord(format) || format.type === 'text') return undefined;
  if (format.type === 'json_schema' && !isRecord(format.json_schema)) throw invalidField('response_format.json_schema', 'expected an object with the schema');
  if (format.type === 'json_schema') checkTypes(format.json_schema as Record<string, unknown>, { name: 'string', schema: 'object', strict: 'boolean', description: 'string' }, 'response_format.json_schema.');
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type === 'json_schema' && isRecord(format.json_schema)) {
    const spec = format.json_schema;
    return {
      type: 'json_schema',
      schema: isRecord(spec.schema) ? spec.schema : {},
      ...(typeof spec.name === 'string' ? { name: spec.name } : {}),
      // OpenAI's strict defaults to false; the router's to true, so say what the caller meant.
      strict: spec.strict === true,
    };
  }
  throw unsupportedField('response_format', `type ${JSON.stringify(format.type)}`);
}

/** `reasoning_effort`: the four shared levels map; `none`, `xhigh` and `max` also go to OpenAI as written. */
function reasoningOf(effort: unknown, openai: Record<string, unknown>): ReasoningOptions | undefined {
  const reasoning = reasoningEffortOf(effort, openai);
  if (reasoning === false) throw invalidField('reasoning_effort', `unknown effort ${describe(effort)}`);
  return reasoning;
}

/**
 * An OpenAI Chat Completions request body as a Switchyard `ChatRequest`, so porting an SDK call is
 * one line: `router.chat(fromOpenAI(body, { chain: 'default' }))`. Fields with a Switchyard
 * equivalent are mapped; OpenAI-only tuning fields (penalties, logprobs, service_tier, ...) go to
 * `providerOptions` for `openai` and `openai-compatible` providers, verbatim; `stream` and
 * `stream_options` are for the caller; anything else (n > 1, audio, deprecated functions, uploaded
 * file ids, unknown fields) throws `invalid_request` naming the field. See providers/PARAMETERS.md.
 */
export function fromOpenAI(params: object, options: FromOpenAIOptions = {}): ChatRequest {
  const body = params as Record<string, unknown>;
  const openai: Record<string, unknown> = {};
  checkTypes(body, TYPES);
  if (isRecord(body.stream_options)) checkTypes(body.stream_options, STREAM_OPTION_TYPES, 'stream_options.');
  for (const [key, value] of Object.entries(body)) {
    // null is "not set" in the API (`audio: null`, `functions: null`): nothing to refuse.
    if (value === undefined || value === null || MAPPED.has(key) || FOR_THE_CALLER.has(key)) continue;
    if (PASSED_TO_OPENAI.has(key)) openai[key] = value;
    else if (key === 'functions' || key === 'function_call') throw unsupportedField(key, 'deprecated; use tools and tool_choice');
    else if (key === 'audio') throw unsupportedField(key, 'audio output has no Switchyard equivalent');
    else throw unsupportedField(key, 'no Switchyard equivalent');
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw unsupportedField('n', 'one choice per call (send n calls instead)');
  if (Array.isArray(body.modalities) && body.modalities.some((m) => m !== 'text')) throw unsupportedField('modalities', 'text only');
  if (!Array.isArray(body.messages)) throw invalidField('messages', 'expected an array of messages');

  const chain = options.chain ?? (typeof body.model === 'string' ? body.model : undefined);
  // Not `{ ...(chain ? { chain } : {}), messages }`: a literal that starts with a spread gets a hidden
  // class of its own every time on Node 20 (see src/observe/event-refs.ts), and this object goes everywhere.
  const request: ChatRequest = { messages: body.messages.map((m, i) => messageFromOpenAI(m, `messages[${i}]`)) };
  if (chain) request.chain = chain;
  if (Array.isArray(body.tools)) request.tools = body.tools.map((t, i) => toolOf(t, `tools[${i}]`));
  if (body.tool_choice !== undefined && body.tool_choice !== null) request.toolChoice = toolChoiceOf(body.tool_choice);
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  const format = responseFormatOf(body.response_format);
  if (format) request.responseFormat = format;
  if (typeof body.stop === 'string' || Array.isArray(body.stop)) request.stop = body.stop as string | string[];
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (typeof maxTokens === 'number') request.maxTokens = maxTokens;
  // OpenAI's max_completion_tokens counts the reasoning: an OpenAI reasoning target gets it as it is (docs/gateway.md).
  if (typeof body.max_completion_tokens === 'number') setMaxTokensMeaning(request, 'openai');
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  if (typeof body.seed === 'number') request.seed = body.seed;
  if (typeof body.user === 'string') request.user = body.user;
  const reasoning = reasoningOf(body.reasoning_effort, openai);
  if (reasoning) request.reasoning = reasoning;
  if (Object.keys(openai).length > 0) request.providerOptions = { openai, 'openai-compatible': { ...openai } };
  return request;
}
