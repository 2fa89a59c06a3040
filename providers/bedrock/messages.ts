import type { ContentBlock, Message as ConverseMessage, SystemContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { AssistantMessage, CacheBreakpoint, ContentPart, Message, ToolMessage } from '../../src/types.js';
import { anthropicToolId, openAIToolId } from '../shared/tool-call-id.js';
import { cachePointsFor } from './cache-point.js';
import { userBlocks } from './content-blocks.js';
import { bedrockModelTraits } from './model-family.js';
import { replayedBlocks } from './reasoning-parts.js';

interface Where {
  provider: string;
  model: string;
}

/** The history as Converse takes it, and what the rest of the request needs to know about it. */
export interface ConverseHistory {
  system: SystemContentBlock[];
  messages: ConverseMessage[];
  /** Names of tools the history calls: Converse refuses toolUse or toolResult blocks without a `toolConfig`. */
  toolNames: Set<string>;
  hasToolBlocks: boolean;
  /** The last assistant turn that called tools carries no reasoning blocks (another API made it): thinking must stay off. */
  toolTurnWithoutReasoning: boolean;
}

/**
 * A tool-call id as Converse takes it (`[a-zA-Z0-9_-]+`, at most 64 characters): ids of that shape
 * pass unchanged, others are made so the same way every time, so a toolUse and its toolResult match.
 */
export function bedrockToolId(id: string): string {
  return openAIToolId(anthropicToolId(id));
}

function assistantBlocks(message: AssistantMessage, verbatim: ContentBlock[] | undefined): ContentBlock[] {
  // Blocks Bedrock produced (reasoning with its signature) go back exactly as received; Anthropic's Claude blocks translated.
  if (verbatim) return verbatim;
  const blocks: ContentBlock[] = [];
  const text = message.content ?? '';
  // Converse refuses blank text blocks; a tool-only turn from OpenAI has content "" or null.
  if (text.trim() !== '') blocks.push({ text });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ toolUse: { toolUseId: bedrockToolId(call.id), name: call.name, input: (call.arguments ?? {}) as never } });
  }
  return blocks;
}

function toolResult(message: ToolMessage): ContentBlock {
  return {
    toolResult: {
      toolUseId: bedrockToolId(message.toolCallId),
      content: message.content !== '' ? [{ text: message.content }] : [],
      status: message.isError ? 'error' : 'success',
    },
  };
}

function userContent(content: string | ContentPart[], where: Where): ContentBlock[] {
  if (typeof content === 'string') return content.trim() === '' ? [] : [{ text: content }];
  return userBlocks(content, where);
}

/**
 * Maps the history: system and developer messages to `system` blocks; user parts to content blocks;
 * assistant turns to text and `toolUse` blocks (or their own blocks verbatim, when Bedrock made
 * them; a Claude model's Anthropic-made thinking translated, reasoning-parts.ts); tool results to `toolResult` blocks (status `error` for a failed tool) in a user message.
 * Converse wants the roles to alternate and no empty message, so consecutive messages of one role
 * (tool results and the user message after them) become one, and empty ones are left out. A
 * message's `cache` is a `cachePoint` block after its last block (after a system block, in `system`),
 * on models with prompt caching (cache-point.ts); replayed Bedrock blocks keep their own.
 */
export function converseHistory(messages: readonly Message[], where: Where): ConverseHistory {
  const history: ConverseHistory = { system: [], messages: [], toolNames: new Set(), hasToolBlocks: false, toolTurnWithoutReasoning: false };
  const cachePoints = cachePointsFor(where.model);
  const claude = bedrockModelTraits(where.model).vendor === 'anthropic';
  const marked = (blocks: ContentBlock[], message: { cache?: CacheBreakpoint }) => (blocks.length > 0 ? [...blocks, ...cachePoints(message.cache)] : blocks);
  const push = (role: 'user' | 'assistant', blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = history.messages.at(-1);
    if (last?.role === role) last.content!.push(...blocks);
    else history.messages.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content.trim() !== '') history.system.push({ text: message.content }, ...cachePoints(message.cache));
        break;
      case 'user':
        push('user', marked(userContent(message.content, where), message));
        break;
      case 'tool':
        history.hasToolBlocks = true;
        push('user', marked([toolResult(message)], message));
        break;
      case 'assistant': {
        const verbatim = replayedBlocks(message, claude);
        const blocks = assistantBlocks(message, verbatim);
        noteAssistant(history, blocks);
        push('assistant', verbatim ? blocks : marked(blocks, message));
        break;
      }
    }
  }
  return history;
}

function noteAssistant(history: ConverseHistory, blocks: readonly ContentBlock[]): void {
  const names = blocks.flatMap((b) => (b.toolUse?.name ? [b.toolUse.name] : []));
  for (const name of names) history.toolNames.add(name);
  if (names.length === 0) return;
  history.hasToolBlocks = true;
  history.toolTurnWithoutReasoning = !blocks.some((b) => b.reasoningContent !== undefined);
}
