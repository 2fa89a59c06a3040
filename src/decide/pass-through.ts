import type { RawChatTarget } from '../../providers/types.js';

/**
 * What the router sent a target besides the body's own fields: the values its request carries after
 * the chain step's defaults (`maxTokens`, `temperature`) and whether `providerOptions` add to the
 * body (true, or the fields they add: any at all disqualifies a Chat Completions body).
 */
export interface PassThroughSent {
  maxTokens?: number;
  temperature?: number;
  extraBody?: boolean | Readonly<Record<string, unknown>>;
}

/** The Chat Completions fields a pass-through target takes exactly as the client sent them. */
const VERBATIM = new Set(['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'stop', 'seed', 'user']);
/** Roles whose text-only turns go to every OpenAI-compatible server as they are. */
const PLAIN_ROLES = new Set(['system', 'user', 'assistant']);

/**
 * Why a Chat Completions body cannot go to this target as the client sent it (only `model`
 * rewritten), or undefined when it can. Pure: the body (already validated by the router's
 * conversion), what the adapter says of the target, and what the router would send it.
 * Any field, message shape or target trait the translated path would map disqualifies it.
 */
export function passThroughBlocker(body: Record<string, unknown>, target: RawChatTarget | undefined, sent: PassThroughSent): string | undefined {
  if (!target) return 'the target does not take OpenAI Chat Completions bodies as they are';
  for (const key in body) {
    if (body[key] !== undefined && !VERBATIM.has(key)) return `${key} is mapped by the router`;
  }
  // A stream that does not ask for usage still goes: passThroughBytes asks for it (passThroughAddsUsage).
  if (body.stream !== true && body.stream_options !== undefined) return 'stream_options without stream';
  if (body.stream_options !== undefined && (typeof body.stream_options !== 'object' || body.stream_options === null)) return 'stream_options is not an object';
  if (!Array.isArray(body.messages)) return 'messages is not an array';
  for (const m of body.messages as unknown[]) {
    if (typeof m !== 'object' || m === null) return 'a message is not an object';
    const message = m as Record<string, unknown>;
    if (typeof message.content !== 'string') return 'a message with content parts';
    if (typeof message.role !== 'string' || !PLAIN_ROLES.has(message.role)) return `a ${String(message.role)} message`;
    for (const key in message) if (key !== 'role' && key !== 'content') return `a message with ${key}`;
  }
  if (sent.extraBody) return 'providerOptions add to the body';
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  if (sent.maxTokens !== maxTokens) return 'the chain step sets maxTokens';
  if (sent.temperature !== body.temperature) return 'the chain step sets temperature';
  if (target.dialect === 'openai') {
    // OpenAI still takes max_tokens for its other models; its reasoning models refuse it.
    if (target.reasoning && body.max_tokens !== undefined) return 'a reasoning model takes max_completion_tokens';
    if (target.reasoning && (body.temperature !== undefined || body.top_p !== undefined || body.stop !== undefined)) return 'a reasoning model refuses temperature, top_p and stop';
  } else if (body.max_completion_tokens !== undefined) {
    return 'openai-compatible servers take max_tokens';
  }
  return undefined;
}

/**
 * Whether the router must add `stream_options.include_usage` to a streamed body: it reads spend from
 * the stream's usage chunk, which OpenAI sends only when asked. The adapter then reads that chunk and
 * does not pass it on, so the client sees the stream it asked for (the `"usage": null` OpenAI puts on
 * every other chunk once usage is asked is left as it came: the SDKs type every chunk's `usage` as
 * optional and nullable).
 */
export function passThroughAddsUsage(body: Record<string, unknown>): boolean {
  return body.stream === true && (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage !== true;
}

const INCLUDE_USAGE = '"stream_options":{"include_usage":true},';

/**
 * The client's bytes with `model` naming the target's model instead of the chain: the one top-level
 * `"model": "<chain>"` replaced in place. When the chain's name appears as a `model` value more than
 * once (or not in the plain form), the body is serialised again from its parsed fields instead. A
 * stream that does not ask for usage gets `stream_options.include_usage` (passThroughAddsUsage):
 * inserted first in the object when the client sent no `stream_options`, merged (serialised again)
 * when it sent some. `addUsage`: `passThroughAddsUsage(body)`, when the caller has it already.
 */
export function passThroughBytes(text: string, body: Record<string, unknown>, chain: string, model: string, addUsage = passThroughAddsUsage(body)): string {
  if (addUsage && body.stream_options !== undefined) {
    return JSON.stringify(Object.assign({}, body, { model, stream_options: Object.assign({}, (body.stream_options as object), { include_usage: true }) }));
  }
  if (!addUsage) return withModel(text, body, chain, model);
  const pattern = modelPattern(chain);
  const found = text.match(pattern);
  if (!found || found.length !== 1) return JSON.stringify(Object.assign({ stream_options: { include_usage: true } }, body, { model }));
  const bytes = text.replace(pattern, () => `"model":${JSON.stringify(model)}`);
  const at = bytes.indexOf('{') + 1;
  return bytes.slice(0, at) + INCLUDE_USAGE + bytes.slice(at);
}

/**
 * The client's bytes with `model` naming the target's model instead of the chain, nothing else
 * changed: the one top-level `"model": "<chain>"` replaced in place, or (the chain's name a `model`
 * value more than once, or not in the plain form) the body serialised again from its parsed fields.
 */
export function withModel(text: string, body: Record<string, unknown>, chain: string, model: string): string {
  const pattern = modelPattern(chain);
  const found = text.match(pattern);
  if (!found || found.length !== 1) return JSON.stringify(Object.assign({}, body, { model }));
  return text.replace(pattern, () => `"model":${JSON.stringify(model)}`);
}

/**
 * Why a call cannot carry this pass-through body, or undefined: its bytes go upstream as they are, so
 * a streamed body (`"stream": true`) needs `router.stream` and a plain one `router.chat`.
 */
export function passThroughMismatch(body: Record<string, unknown>, operation: 'chat' | 'stream'): string | undefined {
  const streamed = body.stream === true;
  if (operation === 'chat' && streamed) return 'passThrough.body has "stream": true: call router.stream with it (its bytes go upstream as they are, and router.chat answers one body)';
  if (operation === 'stream' && !streamed) return 'passThrough.body lacks "stream": true: router.stream sends its bytes upstream as they are, so they must ask for a stream';
  return undefined;
}

/** The embeddings fields a pass-through target takes exactly as the client sent them. */
const EMBED_VERBATIM = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);

/**
 * Why an OpenAI embeddings body cannot go to a target as the client sent it, or undefined when it
 * can: the target must take raw bodies, the input go in one request (a split input is reassembled
 * by the router), and every field be one the target reads as the router would send it.
 */
export function embedPassThroughBlocker(body: Record<string, unknown>, target: { rawEmbeddings?: boolean }, oneRequest: boolean, dimensions?: number): string | undefined {
  if (!target.rawEmbeddings) return 'the target does not take OpenAI embeddings bodies as they are';
  if (!oneRequest) return 'the input goes in more than one request';
  for (const key in body) {
    if (body[key] !== undefined && !EMBED_VERBATIM.has(key)) return `${key} is not an embeddings field the router knows`;
  }
  const input = body.input;
  if (typeof input !== 'string' && !(Array.isArray(input) && input.every((s) => typeof s === 'string'))) return 'input is not text';
  const format = body.encoding_format;
  if (format !== undefined && format !== null && format !== 'float' && format !== 'base64') return 'encoding_format is neither float nor base64';
  if ((body.dimensions ?? undefined) !== dimensions) return 'dimensions is not the call\'s';
  return undefined;
}

/** The `"model": "<chain>"` pattern of each chain name seen, built once (chain names come from the config). */
const MODEL_PATTERNS = new Map<string, RegExp>();

function modelPattern(chain: string): RegExp {
  let pattern = MODEL_PATTERNS.get(chain);
  if (!pattern) {
    pattern = new RegExp(`"model"\\s*:\\s*${escapeRegExp(JSON.stringify(chain))}`, 'g');
    if (MODEL_PATTERNS.size < 1_000) MODEL_PATTERNS.set(chain, pattern);
  }
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
