import type { CacheBreakpoint, Message } from '../types.js';

/** What can carry a breakpoint in the tools: anything with an optional `cache`. */
interface Cacheable {
  cache?: CacheBreakpoint;
}

/** The breakpoint `promptCache: { auto: true }` places: the default lifetime (5 minutes). */
const AUTO: CacheBreakpoint = Object.freeze({});

/** True when the caller set a breakpoint anywhere: on a tool, a message, or a content part. */
export function hasBreakpoint(messages: readonly Message[], tools: readonly Cacheable[] | undefined): boolean {
  if (tools) for (const tool of tools) if (tool.cache) return true;
  for (const m of messages) {
    if (m.cache) return true;
    if (m.role === 'user' && typeof m.content !== 'string') for (const part of m.content) if (part.cache) return true;
  }
  return false;
}

/**
 * Breakpoints placed the way Anthropic's prompt-caching guide recommends, for a request whose
 * caller set none (https://platform.claude.com/docs/en/build-with-claude/prompt-caching: the
 * prompt is cached in the order tools, system, messages; mark the end of each stable part, and the
 * final block of the final turn so a conversation is cached as it grows; at most 4 per request):
 * 1. the last tool definition (all tools are one stable prefix),
 * 2. the last non-empty system or developer message (Anthropic hoists them all into `system`),
 * 3. the last user turn: the last message that is the caller's, a user message or a tool result
 *    (Anthropic sends tool results as the user's turn), so the next turn reads this one's prefix.
 * Three breakpoints, under Anthropic's limit of four. Undefined when the caller set any breakpoint
 * (theirs are kept as they are) or there is nowhere to place one. Copies only what it marks.
 */
export function autoBreakpoints<T extends Cacheable>(
  messages: readonly Message[],
  tools: readonly T[] | undefined,
): { messages: Message[]; tools?: T[] } | undefined {
  if (hasBreakpoint(messages, tools)) return undefined;
  let system = -1;
  let turn = -1;
  messages.forEach((m, i) => {
    if ((m.role === 'system' || m.role === 'developer') && m.content.trim() !== '') system = i;
    else if (m.role === 'user' || m.role === 'tool') turn = i;
  });
  const lastTool = tools && tools.length > 0 ? tools.length - 1 : -1;
  if (system < 0 && turn < 0 && lastTool < 0) return undefined;
  const marked = (m: Message, i: number): Message => (i === system || i === turn ? Object.assign({}, m, { cache: AUTO }) : m);
  const out: { messages: Message[]; tools?: T[] } = { messages: messages.map(marked) };
  if (tools) out.tools = tools.map((t, i) => (i === lastTool ? Object.assign({}, t, { cache: AUTO }) : t));
  return out;
}
