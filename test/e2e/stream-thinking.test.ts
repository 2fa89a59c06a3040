import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/calls/stream.js';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../support/fixtures.js';
import { anthropicOverloadedEvent, anthropicSse, openaiSse } from '../support/sse.js';
import { anthropicEvent, anthropicMessageStart, anthropicSseEnd, anthropicThinkingBlockSse, anthropicToolBlockSse } from '../../providers/test-support/wire.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, wireRouter } from '../support/wire-router.js';

// `streamThinking`: router.stream shows the model's thinking as `thinking` events, and a forwarded
// thinking event commits the stream; without it thinking stays liveness only (test/e2e/stream.test.ts).

let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
  await up.close();
});

function setup() {
  const clock = new VirtualClock();
  const w = wireRouter(up, { chains: { 'anthropic-first': ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] }, retry: { maxAttempts: 1 } }, { clock, timeoutMs: 60_000 });
  up.otherwise(OPENAI_PATH, () => ({ sse: openaiSse(['Hello', ' from', ' OpenAI']) }));
  up.otherwise(ANTHROPIC_PATH, () => ({ sse: anthropicSse(['Hello', ' from', ' Claude']) }));
  closers.push(() => w.router.close());
  return w;
}

async function collect(iterable: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of iterable) out.push(ev);
  return out;
}

/** A thinking block, then a second one cut short by Anthropic's mid-stream overload. */
const thinkingThenOverload = () => [
  anthropicMessageStart(), ...anthropicThinkingBlockSse(0, ['The user greets me.', ' I should answer.'], 'EqQBCgIYAhIM'),
  anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  anthropicEvent({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'Hmm' } }),
  anthropicOverloadedEvent,
];

describe('router.stream with streamThinking', () => {
  it('yields thinking deltas and the signature by block, then the tool call, and done keeps the blocks verbatim', async () => {
    const { router, anthropic } = setup();
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      ...anthropicThinkingBlockSse(0, ['I need to divide ', '925 by 5.'], 'EvQBCkYICxgCKkAx'),
      anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' } }),
      anthropicEvent({ type: 'content_block_stop', index: 1 }),
      ...anthropicToolBlockSse(2, 'toolu_01X', 'divide', ['{"a": 925, ', '"b": 5}']),
      ...anthropicSseEnd('tool_use'),
    ] });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first', streamThinking: true }));
    expect(events.map((e) => e.type)).toEqual(['start', 'thinking', 'thinking', 'thinking', 'thinking', 'tool_call_delta', 'tool_call_delta', 'tool_call_delta', 'tool_call', 'done']);
    expect(events.filter((e) => e.type === 'thinking')).toEqual([
      { type: 'thinking', index: 0, delta: 'I need to divide ' },
      { type: 'thinking', index: 0, delta: '925 by 5.' },
      { type: 'thinking', index: 0, signature: 'EvQBCkYICxgCKkAx' },
      { type: 'thinking', index: 1, redacted: 'EmwKAhgBEgy3va3pzix' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { finishReason: 'tool_calls', message: { providerParts: { api: 'anthropic', blocks: [
      { type: 'thinking', thinking: 'I need to divide 925 by 5.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'tool_use', id: 'toolu_01X', name: 'divide', input: { a: 925, b: 5 } },
    ] } } } });
    expect(anthropic()).toBe(1);
  });

  it('commits at the first thinking delta: a failure after it is interrupted, and no other target is tried', async () => {
    const { router, openai, anthropic } = setup();
    up.script(ANTHROPIC_PATH, { sse: thinkingThenOverload() });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first', streamThinking: true }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'anthropic' });
    expect(events.filter((e) => e.type === 'thinking').map((e) => (e as { delta?: string }).delta ?? (e as { signature?: string }).signature)).toEqual([
      'The user greets me.', ' I should answer.', 'EqQBCgIYAhIM', 'Hmm',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'interrupted', text: '', error: { kind: 'server' } });
    expect([anthropic(), openai()]).toEqual([1, 0]);
  });

  it('without the flag the same failure falls through to the next target, and no thinking event is yielded', async () => {
    const { router, openai, anthropic } = setup();
    up.script(ANTHROPIC_PATH, { sse: thinkingThenOverload() });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai' });
    expect(events.some((e) => e.type === 'thinking')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { text: 'Hello from OpenAI', attempts: [{ provider: 'anthropic', kind: 'server' }, { provider: 'openai', ok: true }] } });
    expect([anthropic(), openai()]).toEqual([1, 1]);
  });

  it('puts the prompt counters Anthropic reports in message_start on the start event', async () => {
    const { router } = setup();
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart({ input_tokens: 40, cache_creation_input_tokens: 60, cache_read_input_tokens: 1000, output_tokens: 1 }),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('end_turn', { output_tokens: 9 }),
    ] });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'anthropic', inputUsage: { inputTokens: 1100, cachedInputTokens: 1000, cacheWriteTokens: 60 } });
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { usage: { inputTokens: 1100, outputTokens: 9 } } });
  });
});
