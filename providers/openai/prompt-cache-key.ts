import { createHash } from 'node:crypto';
import type { Message } from '../../src/types.js';
import type { ProviderRequest, ProviderTool } from '../types.js';

/** The prompt up to a breakpoint, in the order OpenAI renders it: tools, then messages. */
interface Prefix {
  tools: readonly ProviderTool[];
  messages: readonly unknown[];
}

/** A message cut after its marked part (a user message whose breakpoint is on a part), else whole. */
function upToMark(m: Message): unknown {
  if (m.role !== 'user' || typeof m.content === 'string' || m.cache) return m;
  const at = m.content.findIndex((p) => p.cache);
  return at < 0 ? m : Object.assign({}, m, { content: m.content.slice(0, at + 1) });
}

/** Whether a message or one of its parts carries a breakpoint (a loop: this runs on every mapped request). */
function marked(m: Message): boolean {
  if (m.cache) return true;
  if (m.role !== 'user' || typeof m.content === 'string') return false;
  for (const part of m.content) if (part.cache) return true;
  return false;
}

const NO_TOOLS: readonly ProviderTool[] = [];

/**
 * The prompt up to its first breakpoint that is not in the last message: the part a caller marked
 * as stable (tools, a system prompt, an earlier turn). A breakpoint on the last message moves with
 * every turn, so a key made from it would differ on every request and scatter a conversation over
 * machines: such a request gets no key, as one without breakpoints.
 */
function stablePrefix(request: Pick<ProviderRequest, 'messages' | 'tools'>): Prefix | undefined {
  const tools = request.tools ?? NO_TOOLS;
  for (let i = 0; i < tools.length; i++) if (tools[i]!.cache) return { tools: tools.slice(0, i + 1), messages: [] };
  const last = request.messages.length - 1;
  for (let i = 0; i < last; i++) {
    const m = request.messages[i]!;
    if (marked(m)) return { tools, messages: request.messages.slice(0, i).concat([upToMark(m) as Message]) };
  }
  return undefined;
}

/**
 * OpenAI's `prompt_cache_key` for a request with cache breakpoints (Chat Completions and Responses
 * both take it, top level: `prompt_cache_key?: string | null` in the openai SDK's create params).
 * OpenAI routes a request to a cache machine by a hash of its first ~256 tokens combined with this
 * key, and a machine serves about 15 requests a minute per prefix and key before traffic overflows
 * to others (https://developers.openai.com/api/docs/guides/prompt-caching, "How it works"; the
 * figure as quoted at community.openai.com/t/1357382 and from Microsoft Learn's Azure OpenAI
 * prompt-caching page, not read first-hand). So the key names what should share a
 * machine: the stable prefix the caller marked (its hash, 32 base64url characters: OpenAI takes at
 * most 64), scoped by the request's `user` when it has one, so that one hot system prompt served to
 * many users is spread over one bucket per user (each user's turns on one machine) instead of
 * overflowing a single one. Undefined (no key sent: OpenAI's own routing) when no breakpoint marks a
 * stable prefix. A `prompt_cache_key` in `providerOptions.openai` wins (`extraBody` is merged last).
 */
export function promptCacheKey(request: Pick<ProviderRequest, 'messages' | 'tools' | 'user'>): string | undefined {
  const prefix = stablePrefix(request);
  if (!prefix) return undefined;
  const hash = createHash('sha256').update(JSON.stringify([prefix.tools, prefix.messages]));
  if (request.user !== undefined) hash.update(`\u0000${request.user}`);
  return `sy-${hash.digest('base64url').slice(0, 32)}`;
}
