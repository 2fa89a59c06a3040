import type { RawTarget } from '../../providers/types.js';

/**
 * What the router sent a target besides the body's own fields: the values its request carries after
 * the chain step's defaults (`maxTokens`, `temperature`) and whether `providerOptions` add to the body.
 */
export interface PassThroughSent {
  maxTokens?: number;
  temperature?: number;
  extraBody: boolean;
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
export function passThroughBlocker(body: Record<string, unknown>, target: RawTarget | undefined, sent: PassThroughSent): string | undefined {
  if (!target) return 'the target does not take OpenAI Chat Completions bodies as they are';
  for (const key in body) {
    if (body[key] !== undefined && !VERBATIM.has(key)) return `${key} is mapped by the router`;
  }
  if (body.stream === true) {
    // The router reads usage from the stream's last chunk; a body that does not ask for it is rewritten.
    const options = body.stream_options as { include_usage?: unknown } | null | undefined;
    if (options?.include_usage !== true) return 'a stream without stream_options.include_usage';
  } else if (body.stream_options !== undefined) {
    return 'stream_options without stream';
  }
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
 * The client's bytes with `model` naming the target's model instead of the chain: the one top-level
 * `"model": "<chain>"` replaced in place. When the chain's name appears as a `model` value more than
 * once (or not in the plain form), the body is serialised again from its parsed fields instead.
 */
export function passThroughBytes(text: string, body: Record<string, unknown>, chain: string, model: string): string {
  const needle = JSON.stringify(chain);
  const pattern = new RegExp(`"model"\\s*:\\s*${escapeRegExp(needle)}`, 'g');
  const found = text.match(pattern);
  if (found && found.length === 1) return text.replace(pattern, () => `"model":${JSON.stringify(model)}`);
  return JSON.stringify({ ...body, model });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
