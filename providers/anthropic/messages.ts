import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantMessage, CacheBreakpoint, Message, ToolMessage } from '../../src/types.js';
import { anthropicToolId } from '../shared/tool-call-id.js';
import { anthropicUserBlocks, cacheControl } from './content-blocks.js';
import { anthropicFromConverse } from './from-converse.js';

interface Where {
  provider: string;
  model: string;
}

/** The history as the Messages API takes it, plus what the rest of the body needs to know about it. */
export interface AnthropicHistory {
  /** System and developer messages, in order, hoisted to the top-level `system` (one text block each). */
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
  /** Names of tools the history calls: `tools` must be sent whenever it holds tool blocks. */
  toolNames: Set<string>;
  hasToolBlocks: boolean;
  /** The last assistant turn calls tools without thinking blocks (it came from another API): thinking cannot be on. */
  toolTurnWithoutThinking: boolean;
}

const THINKING = new Set(['thinking', 'redacted_thinking']);

/**
 * The blocks of an assistant turn to send back: Anthropic's own as they came, a Bedrock Claude
 * turn's translated (from-converse.ts: the same model, signatures kept); undefined for a turn from
 * elsewhere, or one that does not translate (sent as its text and tool calls).
 */
function replayedBlocks(message: AssistantMessage): unknown[] | undefined {
  const parts = message.providerParts;
  if (parts === undefined || !('blocks' in parts) || !Array.isArray(parts.blocks)) return undefined;
  if (parts.api === 'anthropic') return parts.blocks;
  return parts.api === 'bedrock' ? anthropicFromConverse(parts.blocks) : undefined;
}

/** A message's `cache` as `cache_control` on its last block (string content becomes one text block). */
function markedLast<T extends Anthropic.ContentBlockParam>(content: string | T[], message: { cache?: CacheBreakpoint }): string | T[] {
  if (!message.cache) return content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content } as T] : content;
  const last = blocks.at(-1);
  if (!last) return content;
  return [...blocks.slice(0, -1), Object.assign({}, last, cacheControl(message.cache))];
}

function assistantContent(message: AssistantMessage, verbatim: unknown[] | undefined): Anthropic.MessageParam['content'] | undefined {
  // Blocks this API produced (thinking included) go back exactly as received, in order.
  if (verbatim) return verbatim as Anthropic.ContentBlockParam[];
  const calls = message.toolCalls ?? [];
  const text = message.content ?? '';
  if (calls.length === 0) return text.trim() === '' ? undefined : markedLast(text, message);
  const blocks: Anthropic.ContentBlockParam[] = [];
  // A tool-only turn from OpenAI has content "" or null: no empty text block (the API refuses it).
  if (text.trim() !== '') blocks.push({ type: 'text', text });
  for (const call of calls) blocks.push({ type: 'tool_use', id: anthropicToolId(call.id), name: call.name, input: call.arguments ?? {} });
  return markedLast(blocks, message);
}

function toolResult(message: ToolMessage): Anthropic.ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: anthropicToolId(message.toolCallId),
    ...(message.content !== '' ? { content: message.content } : {}),
    ...(message.isError ? { is_error: true } : {}),
    ...cacheControl(message.cache),
  };
}

/**
 * Maps the history: system and developer messages hoisted to `system`; user parts to blocks;
 * assistant turns to text and `tool_use` blocks (or their own blocks verbatim, when Anthropic made
 * them); consecutive tool results grouped into one user message of `tool_result` blocks (with a user
 * message right after them appended to it), ids sanitised the same way as their `tool_use`. An
 * assistant turn with nothing in it is left out: the API refuses empty content. A part's, a
 * message's or a tool result's `cache` is `cache_control` on its block (a message's: its last).
 */
export function anthropicHistory(messages: readonly Message[], where: Where): AnthropicHistory {
  const history: AnthropicHistory = { system: [], messages: [], toolNames: new Set(), hasToolBlocks: false, toolTurnWithoutThinking: false };
  let results: Anthropic.ContentBlockParam[] | undefined;
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      if (message.content.trim() !== '') history.system.push({ type: 'text', text: message.content, ...cacheControl(message.cache) });
      continue;
    }
    if (message.role === 'tool') {
      history.hasToolBlocks = true;
      if (!results) {
        results = [];
        history.messages.push({ role: 'user', content: results });
      }
      results.push(toolResult(message));
      continue;
    }
    if (message.role === 'user') {
      const content = markedLast(typeof message.content === 'string' ? message.content : anthropicUserBlocks(message.content, where), message);
      if (results) {
        if (typeof content === 'string') {
          if (content.trim() !== '') results.push({ type: 'text', text: content });
        } else results.push(...content);
      } else {
        history.messages.push({ role: 'user', content });
      }
      results = undefined;
      continue;
    }
    if (message.role !== 'assistant') continue;
    results = undefined;
    const verbatim = replayedBlocks(message);
    noteAssistant(history, message, verbatim);
    const content = assistantContent(message, verbatim);
    if (content !== undefined) history.messages.push({ role: 'assistant', content });
  }
  return history;
}

function noteAssistant(history: AnthropicHistory, message: AssistantMessage, replayed: unknown[] | undefined): void {
  const verbatim = (replayed ?? []) as Array<{ type?: string; name?: string }>;
  const names = [...(message.toolCalls ?? []).map((c) => c.name), ...verbatim.filter((b) => b.type === 'tool_use').map((b) => b.name ?? '')];
  for (const name of names) if (name) history.toolNames.add(name);
  if (names.length > 0) history.hasToolBlocks = true;
  // Only the latest assistant turn counts: thinking must open the turn that made the last tool calls.
  history.toolTurnWithoutThinking = names.length > 0 && !verbatim.some((b) => THINKING.has(b.type ?? ''));
}
