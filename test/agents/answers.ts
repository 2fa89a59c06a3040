import { anthropicEvent, anthropicMessageStart, anthropicSseEnd, anthropicThinkingBlockSse, anthropicToolBlockSse, openaiFinishChunk, openaiRoleChunk, openaiTextChunk, openaiToolChunk, openaiUsageChunk } from '../../providers/test-support/wire.js';
import { functionCallItem, messageItem, responseObject, responsesEvent, responsesUsageOf } from '../../providers/test-support/responses-wire.js';
import type { Reply } from '../support/upstream.js';
import { loadFixture } from './replay.js';

/**
 * The upstream's side of each agent's first turn: what Anthropic, the Responses API and Chat
 * Completions stream back, in the shapes of providers/test-support's recorded fixtures. Each answers
 * with exactly the items the agent's second-turn fixture sends back, so a test can follow a turn.
 */

/** Claude Code turn 2's assistant blocks: what the upstream streamed in turn 1 (thinking, text, tool_use). */
export const claudeTurn1Blocks = () => loadFixture('claude-code.turn-2').body.messages[1].content as Array<Record<string, any>>;

/** The usage Anthropic reports for turn 1: real input tokens and a cache read, in message_start and message_delta. */
export const CLAUDE_USAGE = { input_tokens: 1_200, cache_creation_input_tokens: 0, cache_read_input_tokens: 900, output_tokens: 1 };

/** Anthropic's stream for Claude Code's turn 1: a thinking block (two deltas, its signature), text, a tool_use. */
export function claudeTurn1Sse(): Reply {
  const [thinking, text, tool] = claudeTurn1Blocks() as [any, any, any];
  const cut = Math.ceil(thinking.thinking.length / 2);
  const args = JSON.stringify(tool.input);
  return {
    sse: [
      anthropicMessageStart(CLAUDE_USAGE),
      ...anthropicThinkingBlockSse(0, [thinking.thinking.slice(0, cut), thinking.thinking.slice(cut)], thinking.signature),
      anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: text.text } }),
      anthropicEvent({ type: 'content_block_stop', index: 1 }),
      ...anthropicToolBlockSse(2, tool.id, tool.name, [args.slice(0, 12), args.slice(12)]),
      ...anthropicSseEnd('tool_use', { input_tokens: 1_200, cache_creation_input_tokens: 0, cache_read_input_tokens: 900, output_tokens: 84 }),
    ],
  };
}

/** Chat Completions' stream of one tool call (role, two argument fragments, finish, usage, [DONE]). */
export function chatToolCallSse(id: string, name: string, args: string): Reply {
  return {
    sse: [
      openaiRoleChunk(),
      openaiToolChunk([{ index: 0, id, type: 'function', function: { name, arguments: '' } }]),
      openaiToolChunk([{ index: 0, function: { arguments: args.slice(0, 10) } }]),
      openaiToolChunk([{ index: 0, function: { arguments: args.slice(10) } }]),
      openaiFinishChunk('tool_calls'),
      openaiUsageChunk({ prompt_tokens: 310, completion_tokens: 22, total_tokens: 332 }),
      'data: [DONE]',
    ],
  };
}

/** Chat Completions' stream of a text answer with its usage chunk. */
export function chatTextSse(pieces: string[]): Reply {
  return { sse: [openaiRoleChunk(), ...pieces.map(openaiTextChunk), openaiFinishChunk('stop'), openaiUsageChunk({ prompt_tokens: 350, completion_tokens: 12, total_tokens: 362 }), 'data: [DONE]'] };
}

/** Codex turn 2's items of turn 1's answer: the reasoning item (less `content`, which Codex adds) and the function call. */
export function codexTurn1Items() {
  const input = loadFixture('codex.turn-2').body.input as Array<Record<string, any>>;
  const reasoning = { type: 'reasoning', id: 'rs_6820f383d7c08191846711c5df8233bc', summary: input[1]!.summary, encrypted_content: input[1]!.encrypted_content };
  const call = functionCallItem(input[2]!.name, input[2]!.arguments, input[2]!.call_id, 'fc_6820f3849a1c8191a2b3c4d5e6f70812');
  return { reasoning, call };
}

/** The Responses API's stream for Codex's turn 1: created, a reasoning item with its encrypted content, a function call, completed. */
export function codexTurn1Sse(): Reply {
  const { reasoning, call } = codexTurn1Items();
  return {
    sse: [
      responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null }) }),
      responsesEvent('response.output_item.added', { output_index: 0, item: Object.assign({}, reasoning, { summary: [] }) }),
      responsesEvent('response.output_item.done', { output_index: 0, item: reasoning }),
      responsesEvent('response.output_item.added', { output_index: 1, item: Object.assign({}, call, { arguments: '', status: 'in_progress' }) }),
      responsesEvent('response.function_call_arguments.delta', { item_id: call.id, output_index: 1, delta: call.arguments }),
      responsesEvent('response.function_call_arguments.done', { item_id: call.id, output_index: 1, name: call.name, arguments: call.arguments }),
      responsesEvent('response.output_item.done', { output_index: 1, item: call }),
      responsesEvent('response.completed', { response: responseObject([reasoning, call], { usage: responsesUsageOf(812, 96, 512, 64) }) }),
    ],
  };
}

/** The Responses API's stream of a text answer (turn 2). */
export function codexTextSse(text: string): Reply {
  const item = messageItem(text);
  return {
    sse: [
      responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null }) }),
      responsesEvent('response.output_item.added', { output_index: 0, item: Object.assign({}, item, { status: 'in_progress', content: [] }) }),
      responsesEvent('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      responsesEvent('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: text, logprobs: [] }),
      responsesEvent('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] }),
      responsesEvent('response.output_item.done', { output_index: 0, item }),
      responsesEvent('response.completed', { response: responseObject([item], { usage: responsesUsageOf(900, 20, 768, 0) }) }),
    ],
  };
}
