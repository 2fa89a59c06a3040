import type { RawResponsesTarget } from '../../providers/types.js';
import type { JSONSchema } from '../types.js';
import { SHARED_EFFORTS } from '../convert/reasoning-effort.js';

/**
 * What the router would send a Responses target besides the body's own fields: the values its
 * request carries after the chain step's defaults, and the fields `providerOptions` add to the body
 * (`true`: some, unnamed).
 */
export interface ResponsesPassThroughSent {
  maxTokens?: number;
  temperature?: number;
  extraBody?: boolean | Readonly<Record<string, unknown>>;
}

/**
 * The Responses fields a target that speaks the API takes exactly as the client sent them (every
 * other field the gateway refuses before a call, or acts on itself: `previous_response_id`).
 */
const VERBATIM = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'text', 'reasoning', 'max_output_tokens',
  'temperature', 'top_p', 'user', 'store', 'stream', 'metadata', 'include', 'stream_options', 'truncation', 'background',
  'service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'client_metadata',
]);
const MESSAGE_KEYS = new Set(['type', 'role', 'content']);
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);
const TEXT_PARTS = new Set(['input_text', 'output_text']);
const CALL_KEYS = new Set(['type', 'call_id', 'name', 'arguments']);
const OUTPUT_KEYS = new Set(['type', 'call_id', 'output']);
/**
 * Items the router keeps verbatim for a Responses target (src/gateway/responses/turn-items.ts), each
 * with the keys they may have: reasoning (Codex sends its summary and encrypted_content back),
 * freeform and local shell calls. A freeform call's output is rebuilt with the same three keys.
 */
const OPAQUE_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  reasoning: new Set(['type', 'id', 'summary', 'content', 'encrypted_content', 'status']),
  custom_tool_call: new Set(['type', 'id', 'status', 'call_id', 'name', 'input']),
  local_shell_call: new Set(['type', 'id', 'call_id', 'status', 'action']),
  custom_tool_call_output: OUTPUT_KEYS,
};
/** Tools the client runs itself that the router sends a Responses target as they came (ResponsesFields). */
const CLIENT_TOOLS = new Set(['custom', 'local_shell']);
const TOOL_KEYS = new Set(['type', 'name', 'description', 'parameters', 'strict']);
const FORMAT_KEYS = new Set(['type', 'name', 'schema', 'strict']);
/** OpenAI's longest tool-call id; the router shortens longer ones (openAIToolId). */
const MAX_CALL_ID = 40;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const given = (v: unknown) => v !== undefined && v !== null;

/**
 * Why a Responses body cannot go to this target as the client sent it (only `model` rewritten), or
 * undefined when it can. Pure: the body (already read and checked by the gateway's Responses
 * parser, so its types are right), what the adapter says of the target (undefined: it does not
 * speak the Responses API), and what the router would send it. Any field, item or target trait the
 * translated path (src/gateway/responses/parse-request.ts, then providers/openai/responses/body.ts)
 * would map, drop or add to disqualifies it; see each rule.
 */
export function responsesPassThroughBlocker(body: Readonly<Record<string, unknown>>, target: RawResponsesTarget | undefined, sent: ResponsesPassThroughSent): string | undefined {
  if (!target) return 'the target does not speak the Responses API';
  // Continued from the gateway's own store, which holds the history the upstream does not.
  if (body.previous_response_id !== undefined) return 'previous_response_id continues a conversation the gateway keeps';
  for (const key in body) if (!VERBATIM.has(key)) return `${key} is mapped by the router`;
  const input = inputBlocker(body.input);
  if (input) return input;
  const tools = Array.isArray(body.tools) ? body.tools.filter((t) => !(isObject(t) && CLIENT_TOOLS.has(t.type as string))) : [];
  if (tools.length > 0) {
    for (const tool of tools) {
      const blocked = toolBlocker(tool, target);
      if (blocked) return blocked;
    }
  } else if (given(body.tool_choice) || given(body.parallel_tool_calls)) {
    return 'tool_choice and parallel_tool_calls without tools are dropped by the router';
  }
  const text = textBlocker(body.text, target);
  if (text) return text;
  if (given(body.reasoning)) {
    if (!target.reasoning) return 'reasoning on a model that does not reason is dropped by the router';
    const effort = (body.reasoning as { effort?: unknown }).effort;
    if (given(effort) && !SHARED_EFFORTS.has(effort as string)) return `reasoning effort ${String(effort)} is sent as reasoning_effort by the router`;
  }
  if (target.reasoning && (given(body.temperature) || given(body.top_p))) return 'a reasoning model refuses temperature and top_p';
  if (sent.maxTokens !== (body.max_output_tokens ?? undefined)) return 'the chain step sets maxTokens';
  if (sent.temperature !== (body.temperature ?? undefined)) return 'the chain step sets temperature';
  if (sent.extraBody === true) return 'providerOptions add to the body';
  if (sent.extraBody) {
    // The gateway passes OpenAI-only fields on as providerOptions: the same values, already in the body.
    for (const key in sent.extraBody) if (!Object.is(sent.extraBody[key], body[key])) return 'providerOptions add to the body';
  }
  if (target.reasoning && body.store !== false && !(Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'))) {
    // The gateway keeps the answer for previous_response_id; its reasoning items replay (store: false) only with their encrypted content.
    return 'a stored reasoning answer needs include reasoning.encrypted_content';
  }
  return undefined;
}

/** Text input, or items the router would send back as they are: text messages, function calls and their outputs (no ids), the items it keeps verbatim. */
function inputBlocker(input: unknown): string | undefined {
  if (typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return 'input is neither text nor items';
  for (const item of input) {
    if (!isObject(item)) return 'an input item is not an object';
    const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
    if (type === 'item_reference') return 'an item_reference names an item the gateway keeps';
    if (type === 'message') {
      for (const key in item) if (!MESSAGE_KEYS.has(key)) return `an input message with ${key}`;
      if (!ROLES.has(item.role as string)) return `a ${String(item.role)} input message`;
      if (typeof item.content === 'string') continue;
      if (!Array.isArray(item.content)) return 'an input message without content';
      for (const part of item.content) {
        if (!isObject(part) || !TEXT_PARTS.has(part.type as string)) return 'content parts other than text are rebuilt by the router';
        for (const key in part) if (key !== 'type' && key !== 'text') return `a content part with ${key}`;
      }
    } else if (type === 'function_call') {
      for (const key in item) if (!CALL_KEYS.has(key)) return `a function_call item with ${key}`;
      if (typeof item.call_id !== 'string' || item.call_id.length > MAX_CALL_ID) return 'a call_id the router shortens';
    } else if (type === 'function_call_output') {
      for (const key in item) if (!OUTPUT_KEYS.has(key)) return `a function_call_output item with ${key}`;
      if (typeof item.output !== 'string') return 'a function_call_output whose output is not text';
    } else if (typeof type === 'string' && Object.hasOwn(OPAQUE_KEYS, type)) {
      for (const key in item) if (!OPAQUE_KEYS[type]!.has(key)) return `a ${type} item with ${key}`;
      if (type === 'custom_tool_call_output' && typeof item.output !== 'string') return 'a custom_tool_call_output whose output is not text';
    } else {
      return `a ${String(type)} input item`;
    }
  }
  return undefined;
}

/** A function tool the router sends as it came: `strict` said, and a schema strict mode (or its absence) leaves unchanged. */
function toolBlocker(tool: unknown, target: RawResponsesTarget): string | undefined {
  if (!isObject(tool)) return 'a tool is not an object';
  for (const key in tool) if (!TOOL_KEYS.has(key)) return `a tool with ${key}`;
  const name = String(tool.name);
  // The Responses API's own default is strict; the router's, for a tool that says nothing, is not.
  if (typeof tool.strict !== 'boolean') return `tool ${name} does not say strict`;
  if (!isObject(tool.parameters)) return `tool ${name} has no parameters (the router sends an empty object schema)`;
  return schemaBlocker(target, tool.parameters, tool.strict) ? `tool ${name}'s schema is rewritten by the router` : undefined;
}

/** `text.format`: plain text, or a named json_schema sent as it came (json_object gets the router's JSON instruction when no message asks for JSON). */
function textBlocker(text: unknown, target: RawResponsesTarget): string | undefined {
  if (!given(text)) return undefined;
  const format = (text as { format?: unknown }).format;
  if (!given(format) || (format as { type?: unknown }).type === 'text') return undefined;
  const f = format as Record<string, unknown>;
  if (f.type !== 'json_schema') return `text.format ${String(f.type)} is mapped by the router`;
  for (const key in f) if (!FORMAT_KEYS.has(key)) return `text.format with ${key}`;
  if (typeof f.name !== 'string') return 'text.format without a name (the router names it)';
  return schemaBlocker(target, f.schema as JSONSchema, f.strict === true) ? 'text.format\'s schema is rewritten by the router' : undefined;
}

/** True when the router would send a schema other than this one: strict mode closes it, and `$schema` is dropped either way. */
function schemaBlocker(target: RawResponsesTarget, schema: JSONSchema, strict: boolean): boolean {
  const sent = target.sentSchema(schema, strict);
  // A schema strict mode cannot take goes non-strict: no longer what the client asked.
  return sent === undefined || !sameJson(sent, schema);
}

/** Structural equality of JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((v, i) => sameJson(v, bs[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
