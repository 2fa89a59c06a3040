import { reasoningEffortOf } from '../../convert/reasoning-effort.js';
import type { ResponsesFields } from '../../../providers/types.js';
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
  /** The Responses-only fields the request sent (Responses targets get them; see ResponsesFields), if any. */
  fields?: ResponsesFields;
}

/** What a Response object repeats of its request. */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
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

/**
 * Tools the client runs itself that are no function tools (Codex's freeform `apply_patch` is a
 * `custom` tool, its shell on some models `local_shell`): Responses targets get them as sent, other
 * targets cannot call them and go without (docs/gateway-responses.md). Hosted tools (web_search,
 * file_search, ...) run on OpenAI's servers and stay refused.
 */
const CLIENT_TOOLS = new Set(['custom', 'local_shell']);

function toolOf(tool: unknown, path: string): Tool {
  if (!isObject(tool)) throw invalid(path, `expected a tool object, got ${typeName(tool)}`, 'invalid_type');
  if (tool.type !== 'function') throw unsupported(`${path}.type`, `${JSON.stringify(tool.type)} tools run on OpenAI's servers; only function tools (and the client's own custom and local_shell tools, to Responses targets) have an equivalent elsewhere`);
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

/** A `custom` or `local_shell` tool, as the client sent it (a custom one needs its name: the model calls it by it). */
function clientTool(tool: Record<string, unknown>, path: string): Record<string, unknown> {
  if (tool.type === 'custom' && !optionalString(tool.name, `${path}.name`)) throw invalid(`${path}.name`, 'a custom tool needs a name', 'missing_required_parameter');
  return tool;
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

const VERBOSITY = new Set(['low', 'medium', 'high']);

function formatOf(text: unknown, fields: ResponsesFields): { format?: ResponseFormat; echo: Record<string, unknown> } {
  if (text === undefined || text === null) return { echo: { type: 'text' } };
  if (!isObject(text)) throw invalid('text', `expected an object, got ${typeName(text)}`, 'invalid_type');
  for (const key of Object.keys(text)) {
    if (key === 'format' || text[key] === undefined || text[key] === null) continue;
    if (key !== 'verbosity') throw unsupported(`text.${key}`, 'no Switchyard equivalent');
    if (!VERBOSITY.has(text.verbosity as string)) throw invalid('text.verbosity', `expected low, medium or high, got ${typeName(text.verbosity)}`);
    // GPT-5's answer length: a Responses target's own (Chat Completions has it as top-level verbosity; others none).
    fields.text = { verbosity: text.verbosity };
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

/** `reasoning` keys besides `effort` only the Responses API reads: summaries (`generate_summary` is its old name), Codex's `context`. */
const REASONING_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  summary: new Set(['auto', 'concise', 'detailed', 'none']),
  generate_summary: new Set(['auto', 'concise', 'detailed', 'none']),
  context: new Set(['auto', 'current_turn', 'all_turns']),
};

function reasoningOf(reasoning: unknown, openai: Record<string, unknown>, fields: ResponsesFields): ReasoningOptions | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isObject(reasoning)) throw invalid('reasoning', `expected an object, got ${typeName(reasoning)}`, 'invalid_type');
  for (const key of Object.keys(reasoning)) {
    if (key === 'effort' || reasoning[key] === undefined || reasoning[key] === null) continue;
    const values = REASONING_KEYS[key];
    if (!values) throw unsupported(`reasoning.${key}`, 'no Switchyard equivalent');
    if (!values.has(reasoning[key] as string)) throw invalid(`reasoning.${key}`, `expected ${[...values].join(', ')}, got ${typeName(reasoning[key])}`);
    // Summaries come from a Responses target's own reasoning items; no other provider writes one.
    fields.reasoning = Object.assign({}, fields.reasoning, { [key]: reasoning[key] });
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

  const fields: ResponsesFields = {};
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) throw invalid('tools', `expected an array of tools, got ${typeName(body.tools)}`, 'invalid_type');
    const tools: Tool[] = [];
    body.tools.forEach((t, i) => {
      if (isObject(t) && CLIENT_TOOLS.has(t.type as string)) fields.tools = [...(fields.tools ?? []), clientTool(t, `tools[${i}]`)];
      else tools.push(toolOf(t, `tools[${i}]`));
    });
    if (tools.length > 0) chat.tools = tools;
  }
  const toolChoice = toolChoiceOf(body.tool_choice);
  if (toolChoice) chat.toolChoice = toolChoice;
  const parallel = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) chat.parallelToolCalls = parallel;
  const { format, echo: formatEcho } = formatOf(body.text, fields);
  if (format) chat.responseFormat = format;
  const reasoning = reasoningOf(body.reasoning, openai, fields);
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
  const clientMetadata = body.client_metadata;
  if (clientMetadata !== undefined && clientMetadata !== null) {
    // Codex's installation, session and thread ids (codex-rs/core/src/responses_metadata.rs): OpenAI's to read, nobody else's.
    if (!isObject(clientMetadata) || !Object.values(clientMetadata).every((v) => typeof v === 'string')) throw invalid('client_metadata', 'expected an object of string values', 'invalid_type');
    fields.client_metadata = clientMetadata;
  }

  const echo: ResponseEcho = {
    instructions: instructions ?? null, max_output_tokens: maxTokens ?? null, metadata: metadataOf(body.metadata),
    parallel_tool_calls: parallel ?? true, previous_response_id: previous ?? null,
    reasoning: {
      effort: isObject(body.reasoning) && typeof body.reasoning.effort === 'string' ? body.reasoning.effort : null,
      summary: typeof fields.reasoning?.summary === 'string' ? fields.reasoning.summary : null,
    },
    store, temperature: temperature ?? null, text: { format: formatEcho }, tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [], top_p: topP ?? null, truncation: 'disabled', user: user ?? null,
  };
  const carried = fields.reasoning || fields.text || fields.client_metadata || fields.tools;
  return Object.assign({ chat, input: converted.messages, paths, echo }, carried ? { fields } : {});
}
