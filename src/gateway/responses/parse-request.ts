import { reasoningEffortOf } from '../../convert/reasoning-effort.js';
import type { ChatRequest, Message, ReasoningOptions, ResponseFormat, Tool, ToolChoice } from '../../types.js';
import { inputMessages, type ItemLookup } from './input-items.js';
import { checkFields } from './request-fields.js';
import { invalid, isObject, optionalBoolean, optionalNumber, optionalString, typeName, unsupported } from './wire-errors.js';
import { setMaxTokensMeaning } from '../../convert/max-tokens-meaning.js';

/** A Responses request, read: what goes to the router, what a stored record adds, and what the answer echoes. */
export interface ResponsesCall {
  /** The router's request, less chain, tenant and signal: instructions, then the continued history, then the input. */
  chat: ChatRequest;
  /** This request's own input as messages (what a stored record adds to the history). */
  input: Message[];
  /** The wire path each of `chat.messages` came from (`instructions`, `previous_response_id`, `input[2]`). */
  paths: string[];
  /** The fields a Response object repeats back, as the client sent them (defaults filled). */
  echo: ResponseEcho;
}

/** What a Response object repeats of its request. */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: null };
  store: boolean;
  temperature: number | null;
  text: { format: Record<string, unknown> };
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: 'disabled';
  user: string | null;
}

const TOOL_KEYS = new Set(['type', 'name', 'description', 'parameters', 'strict']);

function toolOf(tool: unknown, path: string): Tool {
  if (!isObject(tool)) throw invalid(path, `expected a tool object, got ${typeName(tool)}`, 'invalid_type');
  if (tool.type !== 'function') throw unsupported(`${path}.type`, `${JSON.stringify(tool.type)} tools run on OpenAI's servers; only function tools have an equivalent elsewhere`);
  for (const key of Object.keys(tool)) {
    if (!TOOL_KEYS.has(key) && tool[key] !== undefined && tool[key] !== null && tool[key] !== false) throw unsupported(`${path}.${key}`, 'no Switchyard equivalent');
  }
  const name = optionalString(tool.name, `${path}.name`);
  if (!name) throw invalid(`${path}.name`, 'a function tool needs a name', 'missing_required_parameter');
  if (tool.parameters !== undefined && tool.parameters !== null && !isObject(tool.parameters)) throw invalid(`${path}.parameters`, 'expected a JSON Schema object', 'invalid_type');
  const description = optionalString(tool.description, `${path}.description`);
  const strict = optionalBoolean(tool.strict, `${path}.strict`);
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    parameters: isObject(tool.parameters) ? tool.parameters : { type: 'object', properties: {} },
    ...(strict !== undefined ? { strict } : {}),
  };
}

function toolChoiceOf(choice: unknown): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (isObject(choice) && choice.type === 'function') {
    const name = optionalString(choice.name, 'tool_choice.name');
    if (name) return { name };
  }
  throw unsupported('tool_choice', 'only auto, none, required and {type: "function", name} (allowed_tools and hosted tools have no equivalent)');
}

function formatOf(text: unknown): { format?: ResponseFormat; echo: Record<string, unknown> } {
  if (text === undefined || text === null) return { echo: { type: 'text' } };
  if (!isObject(text)) throw invalid('text', `expected an object, got ${typeName(text)}`, 'invalid_type');
  for (const key of Object.keys(text)) {
    if (key !== 'format' && text[key] !== undefined && text[key] !== null) throw unsupported(`text.${key}`, 'no Switchyard equivalent');
  }
  const format = text.format;
  if (format === undefined || format === null) return { echo: { type: 'text' } };
  if (!isObject(format)) throw invalid('text.format', `expected an object, got ${typeName(format)}`, 'invalid_type');
  if (format.type === 'text') return { echo: { type: 'text' } };
  if (format.type === 'json_object') return { format: { type: 'json' }, echo: { type: 'json_object' } };
  if (format.type !== 'json_schema') throw unsupported('text.format.type', `${JSON.stringify(format.type)} (text, json_object and json_schema are)`);
  if (!isObject(format.schema)) throw invalid('text.format.schema', 'json_schema needs a schema object', 'missing_required_parameter');
  const name = optionalString(format.name, 'text.format.name');
  const strict = optionalBoolean(format.strict, 'text.format.strict');
  optionalString(format.description, 'text.format.description');
  // OpenAI's strict defaults to false; the router's to true, so say what the client meant.
  return { format: { type: 'json_schema', schema: format.schema, ...(name ? { name } : {}), strict: strict === true }, echo: Object.assign({}, format, { strict: strict === true }) };
}

function reasoningOf(reasoning: unknown, openai: Record<string, unknown>): ReasoningOptions | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isObject(reasoning)) throw invalid('reasoning', `expected an object, got ${typeName(reasoning)}`, 'invalid_type');
  for (const key of Object.keys(reasoning)) {
    if (key !== 'effort' && reasoning[key] !== undefined && reasoning[key] !== null) {
      throw unsupported(`reasoning.${key}`, key === 'summary' || key === 'generate_summary' ? 'the gateway returns no reasoning summaries' : 'no Switchyard equivalent');
    }
  }
  // As on /v1/chat/completions: levels only OpenAI has go to OpenAI as written.
  const mapped = reasoningEffortOf(reasoning.effort, openai);
  if (mapped === false) throw invalid('reasoning.effort', `expected none, minimal, low, medium, high, xhigh or max, got ${typeName(reasoning.effort)}`);
  return mapped;
}

function inRange(value: number | undefined, param: string, max: number): number | undefined {
  if (value !== undefined && (value < 0 || value > max)) throw invalid(param, `expected a number from 0 to ${max}, got ${value}`);
  return value;
}

function metadataOf(metadata: unknown): Record<string, string> {
  if (metadata === undefined || metadata === null) return {};
  if (!isObject(metadata) || !Object.values(metadata).every((v) => typeof v === 'string')) throw invalid('metadata', 'expected an object of string values', 'invalid_type');
  return metadata as Record<string, string>;
}

/**
 * A Responses request body as the router's request: `instructions` first (as a system message), the
 * continued conversation `history` next (`previous_response_id`), then `input`. Types are checked
 * strictly; a field with no equivalent is refused naming it (400 `unsupported_parameter`); nothing
 * is sent for a request refused here.
 */
export function responsesCall(body: Readonly<Record<string, unknown>>, history: readonly Message[], lookup: ItemLookup): ResponsesCall {
  const openai = checkFields(body);
  const instructions = optionalString(body.instructions, 'instructions');
  const previous = optionalString(body.previous_response_id, 'previous_response_id');
  const converted = inputMessages(body.input, lookup);
  if (converted.messages.length === 0 && history.length === 0) throw invalid('input', 'input is required: text or input items', 'missing_required_parameter');
  const lead: Message[] = instructions ? [{ role: 'system', content: instructions }] : [];
  const chat: ChatRequest = { messages: [...lead, ...history, ...converted.messages] };
  const paths = [...lead.map(() => 'instructions'), ...history.map(() => 'previous_response_id'), ...converted.paths];

  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) throw invalid('tools', `expected an array of tools, got ${typeName(body.tools)}`, 'invalid_type');
    if (body.tools.length > 0) chat.tools = body.tools.map((t, i) => toolOf(t, `tools[${i}]`));
  }
  const toolChoice = toolChoiceOf(body.tool_choice);
  if (toolChoice) chat.toolChoice = toolChoice;
  const parallel = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) chat.parallelToolCalls = parallel;
  const { format, echo: formatEcho } = formatOf(body.text);
  if (format) chat.responseFormat = format;
  const reasoning = reasoningOf(body.reasoning, openai);
  if (reasoning) chat.reasoning = reasoning;
  const maxTokens = optionalNumber(body.max_output_tokens, 'max_output_tokens');
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) throw invalid('max_output_tokens', `expected a whole number of at least 1, got ${maxTokens}`);
  if (maxTokens !== undefined) {
    chat.maxTokens = maxTokens;
    // OpenAI's max_output_tokens counts the reasoning: an OpenAI reasoning target gets it as it is (docs/gateway.md).
    setMaxTokensMeaning(chat, 'openai');
  }
  const temperature = inRange(optionalNumber(body.temperature, 'temperature'), 'temperature', 2);
  if (temperature !== undefined) chat.temperature = temperature;
  const topP = inRange(optionalNumber(body.top_p, 'top_p'), 'top_p', 1);
  if (topP !== undefined) chat.topP = topP;
  const user = optionalString(body.user, 'user');
  if (user !== undefined) chat.user = user;
  const store = optionalBoolean(body.store, 'store') ?? true;
  optionalBoolean(body.stream, 'stream');
  if (Object.keys(openai).length > 0) chat.providerOptions = { openai };

  const echo: ResponseEcho = {
    instructions: instructions ?? null, max_output_tokens: maxTokens ?? null, metadata: metadataOf(body.metadata),
    parallel_tool_calls: parallel ?? true, previous_response_id: previous ?? null,
    reasoning: { effort: isObject(body.reasoning) && typeof body.reasoning.effort === 'string' ? body.reasoning.effort : null, summary: null },
    store, temperature: temperature ?? null, text: { format: formatEcho }, tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [], top_p: topP ?? null, truncation: 'disabled', user: user ?? null,
  };
  return { chat, input: converted.messages, paths, echo };
}
