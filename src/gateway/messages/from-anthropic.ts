import { isRecord } from '../../convert/convert-error.js';
import { checkTypes, type WireType } from '../../convert/wire-types.js';
import type { ChatRequest, ReasoningOptions, Tool, ToolChoice } from '../../types.js';
import { cacheOf, messagesOf, systemOf } from './anthropic-content.js';
import { invalid, unsupported, wrongType } from './wire-error.js';
import { setMaxTokensMeaning } from '../../convert/max-tokens-meaning.js';

/** The JSON type of every top-level field read; a value of another type is a 400 naming the field. */
const TYPES: Readonly<Record<string, WireType>> = {
  model: 'string', max_tokens: 'integer', messages: 'array', stream: 'boolean', stop_sequences: 'array',
  temperature: 'number', top_p: 'number', top_k: 'integer', tools: 'array', tool_choice: 'object', metadata: 'object',
  thinking: 'object', output_config: 'object', service_tier: 'string', inference_geo: 'string', speed: 'string', cache_control: 'object',
  context_management: 'object',
};
/**
 * Anthropic-only tuning with no cross-provider meaning: sent as written to Anthropic targets
 * (`providerOptions.anthropic`), dropped for others. The top-level `cache_control` (automatic
 * prompt caching: Anthropic places the breakpoint itself; every key of it, `scope` and `ttl`
 * included) is one, and so is `context_management` (Anthropic's server-side clearing of old
 * thinking and tool results, which Claude Code sends by default; the SDK's beta Messages types
 * name it, BetaContextManagementConfig, and the SDK sends a body's fields as they are). Without it
 * another provider sees the whole history, which costs tokens but means the same.
 */
const PASSED_TO_ANTHROPIC = new Set(['top_k', 'service_tier', 'inference_geo', 'speed', 'cache_control', 'context_management']);
/**
 * Read into the request (`stream` is the route's to act on). `cache_control` on blocks, tools and
 * system blocks is read into the router's `cache` breakpoints (anthropic-content.ts).
 */
const READ = new Set(['model', 'max_tokens', 'messages', 'system', 'stream', 'stop_sequences', 'temperature', 'top_p', 'tools', 'tool_choice', 'metadata', 'thinking', 'output_config']);
const TOOL_KEYS = new Set(['name', 'description', 'input_schema', 'strict', 'type', 'cache_control', 'eager_input_streaming']);
const EFFORT: Readonly<Record<string, ReasoningOptions['effort']>> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

const check = (body: Record<string, unknown>, types: Record<string, WireType>, prefix = '') => checkTypes(body, types, prefix, invalid);

function toolOf(tool: unknown, path: string): Tool {
  if (!isRecord(tool)) throw wrongType(path, 'a tool', tool);
  if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
    throw unsupported(`${path}.type`, `${String(tool.type)} is a tool Anthropic runs itself; only client tools (name, description, input_schema) route to other providers`);
  }
  for (const key of Object.keys(tool)) if (!TOOL_KEYS.has(key) && tool[key] !== undefined) throw unsupported(`${path}.${key}`, 'no Switchyard equivalent');
  if (typeof tool.name !== 'string') throw wrongType(`${path}.name`, 'a name', tool.name);
  check(tool, { description: 'string', input_schema: 'object', strict: 'boolean' }, `${path}.`);
  return {
    name: tool.name,
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    parameters: isRecord(tool.input_schema) ? tool.input_schema : { type: 'object', properties: {} },
    ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
    ...cacheOf(tool.cache_control, `${path}.cache_control`),
  };
}

function toolChoiceOf(choice: Record<string, unknown>, request: ChatRequest): void {
  check(choice, { disable_parallel_tool_use: 'boolean' }, 'tool_choice.');
  const by: Record<string, ToolChoice | undefined> = { auto: 'auto', any: 'required', none: 'none' };
  if (choice.type === 'tool') {
    if (typeof choice.name !== 'string') throw wrongType('tool_choice.name', 'the tool\'s name', choice.name);
    request.toolChoice = { name: choice.name };
  } else if (typeof choice.type === 'string' && by[choice.type]) {
    request.toolChoice = by[choice.type]!;
  } else {
    throw wrongType('tool_choice.type', 'auto, any, tool or none', choice.type);
  }
  if (choice.disable_parallel_tool_use === true) request.parallelToolCalls = false;
}

/** `thinking` and `output_config.effort` as the router's reasoning effort; a budget reads as its size. */
function reasoningOf(thinking: unknown, effort: unknown): ReasoningOptions | undefined {
  if (effort !== undefined && effort !== null) {
    if (typeof effort !== 'string' || !EFFORT[effort]) throw wrongType('output_config.effort', 'low, medium, high, xhigh or max', effort);
    return { effort: EFFORT[effort]! };
  }
  if (!isRecord(thinking)) return undefined;
  if (thinking.type === 'disabled') return undefined;
  if (thinking.type === 'adaptive') return { effort: 'medium' };
  if (thinking.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (!Number.isSafeInteger(budget)) throw wrongType('thinking.budget_tokens', 'an integer', budget);
    return { effort: (budget as number) < 4_096 ? 'low' : (budget as number) < 16_384 ? 'medium' : 'high' };
  }
  throw wrongType('thinking.type', 'enabled, adaptive or disabled', thinking.type);
}

/**
 * Anthropic's `max_tokens` counts the thinking; the router's `maxTokens` is the visible answer's
 * (docs/gateway.md, "max_tokens and thinking"). With `budget_tokens` below `max_tokens` the request
 * keeps the budget and the rest for the answer, so an Anthropic target is sent the client's numbers
 * and another target its own thinking on top of that answer. Adaptive thinking has no budget to take
 * off: the number is marked Anthropic's, so Claude targets get it as it is. A budget at or over
 * `max_tokens` (Anthropic refuses it) keeps the effort only, as before.
 */
function maxTokensOf(request: ChatRequest, thinking: unknown): void {
  const budget = isRecord(thinking) && thinking.type === 'enabled' ? thinking.budget_tokens as number : undefined;
  if (request.maxTokens === undefined) return;
  if (budget === undefined) setMaxTokensMeaning(request, 'anthropic');
  else if (budget < request.maxTokens) {
    request.maxTokens -= budget;
    request.reasoning!.budgetTokens = budget;
  }
}

/** What `fromAnthropic` makes of a body: the router's request, and where each of its messages came from. */
export interface FromAnthropic {
  request: ChatRequest;
  /** For each of `request.messages`, the path in the body it came from (`messages[2]`, `messages[3].content[0]`, `system`). */
  paths: string[];
}

/**
 * An Anthropic Messages request body as a Switchyard `ChatRequest` for `chain`: `system` (a string
 * or text blocks), user turns with text, images, documents and `tool_result` blocks, assistant turns
 * with text, `tool_use` and thinking blocks, client tools and `tool_choice`, `thinking` and
 * `output_config` (effort, json_schema format), `metadata.user_id`. Anything else throws
 * `invalid_request` naming the field as the body spells it.
 */
export function fromAnthropic(body: Record<string, unknown>, chain: string): FromAnthropic {
  check(body, TYPES);
  const anthropic: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null || READ.has(key)) continue;
    if (PASSED_TO_ANTHROPIC.has(key)) anthropic[key] = value;
    else throw unsupported(key, 'no Switchyard equivalent');
  }
  const converted = [...systemOf(body.system), ...messagesOf(body.messages)];
  const request: ChatRequest = { chain, messages: converted.map((c) => c.message) };
  if (typeof body.max_tokens === 'number') request.maxTokens = body.max_tokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  if (Array.isArray(body.stop_sequences)) {
    body.stop_sequences.forEach((s, i) => {
      if (typeof s !== 'string') throw wrongType(`stop_sequences[${i}]`, 'a string', s);
    });
    if (body.stop_sequences.length > 0) request.stop = body.stop_sequences as string[];
  }
  if (Array.isArray(body.tools) && body.tools.length > 0) request.tools = body.tools.map((t, i) => toolOf(t, `tools[${i}]`));
  if (isRecord(body.tool_choice)) toolChoiceOf(body.tool_choice, request);
  if (isRecord(body.metadata)) {
    for (const key of Object.keys(body.metadata)) if (key !== 'user_id') throw unsupported(`metadata.${key}`, 'no Switchyard equivalent');
    check(body.metadata, { user_id: 'string' }, 'metadata.');
    if (typeof body.metadata.user_id === 'string' && body.metadata.user_id !== '') request.user = body.metadata.user_id;
  }
  const output = isRecord(body.output_config) ? body.output_config : {};
  for (const key of Object.keys(output)) if (key !== 'effort' && key !== 'format' && output[key] !== undefined) throw unsupported(`output_config.${key}`, 'no Switchyard equivalent');
  const reasoning = reasoningOf(body.thinking, output.effort);
  if (reasoning) {
    request.reasoning = reasoning;
    maxTokensOf(request, body.thinking);
  }
  if (output.format !== undefined && output.format !== null) {
    const format = output.format;
    if (!isRecord(format) || format.type !== 'json_schema') throw unsupported('output_config.format', 'only {type: "json_schema", schema}');
    if (!isRecord(format.schema)) throw wrongType('output_config.format.schema', 'a JSON Schema object', format.schema);
    request.responseFormat = { type: 'json_schema', schema: format.schema, strict: true };
  }
  if (Object.keys(anthropic).length > 0) request.providerOptions = { anthropic };
  return { request, paths: converted.map((c) => c.path) };
}
