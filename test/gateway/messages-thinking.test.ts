import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicEvent, anthropicMessageStart, anthropicSseEnd, anthropicThinkingBlockSse, anthropicToolBlockSse } from '../../providers/test-support/wire.js';
import { heuristicTokens, promptTokenEstimate } from '../../src/decide/token-estimate.js';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { geminiChunk, geminiPath } from '../../providers/test-support/gemini-wire.js';
import { ANTHROPIC_KEY, OPENAI_KEY } from '../support/wire-router.js';
import { startHarness, type Harness } from './gateway-harness.js';

// A Claude-Code-shaped streamed turn with thinking through POST /v1/messages (the translated path):
// the real Anthropic SDK as the client, a real gateway, a loopback Anthropic upstream. The client
// gets thinking (with its signature), redacted thinking, text and tool_use blocks as Anthropic
// streams them, and message_start's usage is the upstream's; the next turn sends the blocks back
// byte-exact.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const CHAINS = { chains: { 'anthropic-only': ['anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4o-mini'] } };
const client = () => new Anthropic({ apiKey: 'sk-anything', baseURL: h.url, maxRetries: 0 });
const bash: Anthropic.Tool = { name: 'Bash', description: 'Run a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };

// The blocks as the upstream streams them, and as the client must hold them (key order included).
const THINKING = { type: 'thinking', thinking: 'The user wants the tests run. I should call Bash.', signature: 'EqQBCgIYAhIMy9Ff3nXhRk2S0+eLGgx0' } as const;
const REDACTED = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' } as const;
const TEXT = { type: 'text', text: 'Running the tests.' } as const;
const TOOL = { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'Bash', input: { command: 'npm test' } } as const;
const USAGE_START = { input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000, output_tokens: 1 };
const USAGE_END = { input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000, output_tokens: 87 };

function thinkingTurn(): string[] {
  return [
    anthropicMessageStart(USAGE_START),
    ...anthropicThinkingBlockSse(0, ['The user wants the tests run.', ' I should call Bash.'], THINKING.signature),
    anthropicEvent({ type: 'content_block_start', index: 1, content_block: REDACTED }),
    anthropicEvent({ type: 'content_block_stop', index: 1 }),
    anthropicEvent({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }),
    anthropicEvent({ type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Running the tests.' } }),
    anthropicEvent({ type: 'content_block_stop', index: 2 }),
    ...anthropicToolBlockSse(3, TOOL.id, 'Bash', ['{"command": ', '"npm test"}']),
    ...anthropicSseEnd('tool_use', USAGE_END),
  ];
}

/** What Claude Code sends: thinking on, tools, streaming. */
const turn = (model: string, messages: Anthropic.MessageParam[]): Anthropic.MessageStreamParams => ({
  model, max_tokens: 32_000, thinking: { type: 'enabled', budget_tokens: 31_999 }, tools: [bash], messages,
});
const ask: Anthropic.MessageParam = { role: 'user', content: 'Run the tests.' };

describe('POST /v1/messages streams thinking through the Anthropic SDK', () => {
  it('gives the client thinking with its signature, redacted thinking, text and tool_use blocks, and the upstream\'s usage from message_start on', async () => {
    h = await startHarness(up, CHAINS);
    up.script(ANTHROPIC_PATH, { sse: thinkingTurn() });
    const stream = client().messages.stream(turn('anthropic-only', [ask]));
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(structuredClone(event)); // the SDK's snapshot reuses message_start's objects
    const final = await stream.finalMessage();
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    expect(JSON.stringify(final.content)).toBe(JSON.stringify([THINKING, REDACTED, TEXT, TOOL]));
    expect(final.stop_reason).toBe('tool_use');

    const start = events[0]!;
    expect(start.type).toBe('message_start');
    if (start.type !== 'message_start') return;
    expect(start.message.usage).toMatchObject({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000, output_tokens: 0 });
    const delta = events.find((e) => e.type === 'message_delta');
    expect(delta).toMatchObject({ usage: { input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000, output_tokens: 87 } });
    expect(final.usage).toMatchObject({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30_000, output_tokens: 87 });

    // As Anthropic streams them: a thinking block opens empty, then thinking_delta, then one signature_delta.
    const block0 = events.filter((e) => 'index' in e && e.index === 0).map((e) => (e.type === 'content_block_delta' ? e.delta.type : e.type));
    expect(block0).toEqual(['content_block_start', 'thinking_delta', 'thinking_delta', 'signature_delta', 'content_block_stop']);
    expect(events.find((e) => e.type === 'content_block_start' && e.index === 0)).toMatchObject({ content_block: { type: 'thinking', thinking: '', signature: '' } });
  });

  it('sends the streamed blocks back byte-exact on the next turn, thinking and redacted thinking included', async () => {
    h = await startHarness(up, CHAINS);
    up.script(ANTHROPIC_PATH, { sse: thinkingTurn() }, { sse: [anthropicMessageStart(), ...anthropicThinkingBlockSse(0, ['Done.'], 'Eq0x'), ...anthropicSseEnd('end_turn')] });
    const first = await client().messages.stream(turn('anthropic-only', [ask])).finalMessage();
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: TOOL.id, content: '12 passed' }] };
    await client().messages.stream(turn('anthropic-only', [ask, { role: 'assistant', content: first.content }, result])).finalMessage();
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
    const sent = up.requests[1]!;
    expect(sent.body.messages[1]).toEqual({ role: 'assistant', content: [THINKING, REDACTED, TEXT, TOOL] });
    expect(sent.text).toContain(JSON.stringify([THINKING, REDACTED, TEXT, TOOL]));
  });

  it('leaves out the thinking of a target other than Anthropic (a Gemini one), as its JSON answer does, and streams its text', async () => {
    const providers = {
      anthropic: { type: 'anthropic' as const, apiKey: ANTHROPIC_KEY, baseURL: up.url },
      openai: { type: 'openai' as const, apiKey: OPENAI_KEY, baseURL: `${up.url}/v1` },
      gemini: { type: 'gemini' as const, apiKey: 'AIzaSyTESTgemini0123456789abcdefghijk', baseURL: `${up.url}/v1beta` },
    };
    h = await startHarness(up, { providers, chains: { 'gemini-only': ['gemini:gemini-2.5-flash'] } });
    const path = geminiPath('gemini-2.5-flash', 'streamGenerateContent');
    up.script(path, { sse: [geminiChunk([{ text: 'Weighing it.', thought: true, thoughtSignature: 'Q2lr' }]), geminiChunk([{ text: 'Running the tests.' }], { finishReason: 'STOP' })] });
    const final = await client().messages.stream(turn('gemini-only', [ask])).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Running the tests.' }]);
    expect(up.count(path)).toBe(1);
  });

  it('starts an OpenAI target\'s stream with the router\'s estimate of the prompt as input_tokens, numbers for the cache fields, and ends with the reported counts', async () => {
    h = await startHarness(up, CHAINS);
    up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo']) });
    const stream = client().messages.stream(turn('openai-only', [ask]));
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(structuredClone(event)); // the SDK's snapshot reuses message_start's objects
    const start = events[0]!;
    if (start.type !== 'message_start') throw new Error('expected message_start first');
    // OpenAI reports usage only at the end: message_start carries the router's estimate of this very prompt.
    const estimate = promptTokenEstimate({ messages: [{ role: 'user', content: 'Run the tests.' }], tools: [{ name: bash.name, description: bash.description, parameters: bash.input_schema }] }, heuristicTokens);
    expect(start.message.usage.input_tokens).toBe(estimate);
    expect(start.message.usage).toMatchObject({ output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect((await stream.finalMessage()).usage).toMatchObject({ input_tokens: 17, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(up.count(OPENAI_PATH)).toBe(1);
  });
});
