import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anthropicEvent, anthropicMessageStart, anthropicSseEnd, anthropicStockTool, anthropicThinkingBlocks, anthropicToolBlockSse, anthropicToolMessage,
  openaiFinishChunk, openaiParallelToolSse, openaiRoleChunk, openaiToolChunk, openaiToolCompletion, openaiWeatherTool,
} from '../../providers/test-support/wire.js';
import type { StreamEvent } from '../../src/calls/stream.js';
import type { Message } from '../../src/types.js';
import { ANTHROPIC_PATH, anthropicMessage, OPENAI_PATH, openaiBodies, openaiCompletion } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { ANTHROPIC_KEY, OPENAI_KEY, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
const closers = upstreamPerTest((u) => (up = u));

function setup(overrides: Parameters<typeof wireRouter>[1] = {}) {
  const w = wireRouter(up, overrides);
  closers.push(() => w.router.close());
  return w;
}

const bodies = (path: string) => up.requests.filter((r) => r.path === path).map((r) => r.body);
const weather: Message = { role: 'user', content: "What's the weather like in Boston today?" };

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

describe('tools, through the real SDKs', () => {
  it('runs a two-turn tool exchange on OpenAI: the call comes back parsed, the result goes back paired by id', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() }, { status: 200, body: openaiCompletion("It's 22 °C in Boston.") });
    const first = await router.chat({ chain: 'openai-only', messages: [weather], tools: [openaiWeatherTool] });
    expect(first.toolCalls).toEqual([{ id: 'call_abc123', name: 'get_current_weather', arguments: { location: 'Boston, MA' } }]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.text).toBe('');
    expect(first.message).toEqual({ role: 'assistant', content: null, toolCalls: first.toolCalls });

    const second = await router.chat({
      chain: 'openai-only', tools: [openaiWeatherTool],
      messages: [weather, first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '{"temperature": 22, "unit": "celsius"}' }],
    });
    expect(second.text).toBe("It's 22 °C in Boston.");
    expect(second.toolCalls).toEqual([]);
    const [turn1, turn2] = bodies(OPENAI_PATH);
    expect(turn1.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'get_current_weather', parameters: openaiWeatherTool.parameters }) }]);
    expect(turn2.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature": 22, "unit": "celsius"}' },
    ]);
    expect(up.count()).toBe(2);
  });

  it('runs a two-turn tool exchange on Anthropic: tool_use comes back as a call, the result goes back as a tool_result block', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'] } });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage() }, { status: 200, body: anthropicMessage('The S&P 500 is at 259.75 USD.') });
    const question: Message = { role: 'user', content: "What's the S&P 500 at today?" };
    const first = await router.chat({ messages: [question], tools: [anthropicStockTool] });
    expect(first.text).toBe('Let me look that up.');
    expect(first.toolCalls).toEqual([{ id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_stock_price', arguments: { ticker: '^GSPC' } }]);
    expect(first.finishReason).toBe('tool_calls');

    const second = await router.chat({ tools: [anthropicStockTool], messages: [question, first.message, { role: 'tool', toolCallId: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', content: '259.75 USD' }] });
    expect(second.text).toBe('The S&P 500 is at 259.75 USD.');
    const turn2 = bodies(ANTHROPIC_PATH)[1];
    expect(turn2.messages).toEqual([
      { role: 'user', content: "What's the S&P 500 at today?" },
      { role: 'assistant', content: [
        { type: 'text', text: 'Let me look that up.' },
        { type: 'tool_use', id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_stock_price', input: { ticker: '^GSPC' } },
      ] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', content: '259.75 USD' }] },
    ]);
    expect(turn2.tools).toEqual([expect.objectContaining({ name: 'get_stock_price', input_schema: anthropicStockTool.parameters })]);
  });

  it('continues a tool conversation that began on OpenAI on Anthropic when OpenAI answers 503', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 1 } });
    up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() }, { status: 503, body: openaiBodies.overloaded503 });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicMessage("It's 22 °C in Boston.") });
    const first = await router.chat({ messages: [weather], tools: [openaiWeatherTool] });
    expect(first.provider).toBe('openai');
    const second = await router.chat({ tools: [openaiWeatherTool], messages: [weather, first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '{"temperature": 22}' }] });
    expect(second.provider).toBe('anthropic');
    expect(second.text).toBe("It's 22 °C in Boston.");
    expect(second.attempts.map((a) => [a.provider, a.ok, a.status])).toEqual([['openai', false, 503], ['anthropic', true, undefined]]);
    const sent = bodies(ANTHROPIC_PATH)[0];
    expect(sent.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_abc123', name: 'get_current_weather', input: { location: 'Boston, MA' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc123', content: '{"temperature": 22}' }] },
    ]);
    expect(sent.tools).toHaveLength(1);
    expect([openai(), anthropic()]).toEqual([2, 1]);
  });

  it('returns two parallel tool calls of one answer', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([
      { id: 'call_1', name: 'get_current_weather', arguments: '{"location":"Boston"}' },
      { id: 'call_2', name: 'get_current_weather', arguments: '{"location":"Paris"}' },
    ]) });
    const res = await router.chat({ messages: [weather], tools: [openaiWeatherTool], parallelToolCalls: true });
    expect(res.toolCalls.map((c) => [c.id, c.arguments.location])).toEqual([['call_1', 'Boston'], ['call_2', 'Paris']]);
    expect(bodies(OPENAI_PATH)[0].parallel_tool_calls).toBe(true);
  });

  it('streams two parallel tool calls: fragments by call index, one tool_call each once complete', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { sse: [openaiRoleChunk(), ...openaiParallelToolSse()] });
    const events = await collect(router.stream({ messages: [weather], tools: [openaiWeatherTool] }));
    const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as Extract<StreamEvent, { type: 'tool_call' }>).toolCall);
    expect(calls).toEqual([
      { id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', name: 'get_current_weather', arguments: { location: 'Boston' } },
      { id: 'call_2', name: 'get_current_weather', arguments: { location: 'Paris' } },
    ]);
    const deltas = events.filter((e) => e.type === 'tool_call_delta') as Array<Extract<StreamEvent, { type: 'tool_call_delta' }>>;
    expect(deltas[0]).toEqual({ type: 'tool_call_delta', index: 0, id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', name: 'get_current_weather', argumentsDelta: '' });
    expect(deltas.filter((d) => d.index === 0).map((d) => d.argumentsDelta).join('')).toBe('{"location":"Boston"}');
    expect(deltas.filter((d) => d.index === 1).map((d) => d.argumentsDelta).join('')).toBe('{"location":"Paris"}');
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result.toolCalls).toEqual(calls);
    expect(done.result.finishReason).toBe('tool_calls');
    expect(done.result.message).toEqual({ role: 'assistant', content: null, toolCalls: calls });
  });

  it('numbers Anthropic tool calls by their order in the answer, not by content block', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'] } });
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll check." } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicToolBlockSse(1, 'toolu_A', 'get_stock_price', ['{"ticker":', '"AAPL"}']),
      ...anthropicToolBlockSse(2, 'toolu_B', 'get_stock_price', ['']),
      ...anthropicSseEnd('tool_use'),
    ] });
    const events = await collect(router.stream({ messages: [{ role: 'user', content: 'AAPL?' }], tools: [anthropicStockTool] }));
    const starts = events.filter((e) => e.type === 'tool_call_delta' && e.id) as Array<Extract<StreamEvent, { type: 'tool_call_delta' }>>;
    expect(starts.map((s) => [s.index, s.id])).toEqual([[0, 'toolu_A'], [1, 'toolu_B']]);
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.result.text).toBe("I'll check.");
    expect(done.result.toolCalls).toEqual([
      { id: 'toolu_A', name: 'get_stock_price', arguments: { ticker: 'AAPL' } },
      { id: 'toolu_B', name: 'get_stock_price', arguments: {} },
    ]);
  });

  it('ends a stream cut in the middle of a tool call\'s arguments with interrupted, the call never complete, no other target asked', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { sse: [openaiRoleChunk(), ...openaiParallelToolSse().slice(0, 3)], cutAfter: 3 });
    const events = await collect(router.stream({ messages: [weather], tools: [openaiWeatherTool] }));
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
    const last = events.at(-1) as Extract<StreamEvent, { type: 'interrupted' }>;
    expect(last.type).toBe('interrupted');
    expect(last.toolCalls).toEqual([]);
    expect(last.incompleteToolCalls).toEqual([{ index: 0, id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', name: 'get_current_weather', argumentsText: '{"lo' }]);
    expect(last.error.kind).toBe('transport');
    expect([openai(), anthropic()]).toEqual([1, 0]);
  });

  it('ends with interrupted invalid_output, never a tool_call, when a streamed call finishes with arguments that are not JSON', async () => {
    const { router, anthropic } = setup();
    up.script(OPENAI_PATH, { sse: [
      openaiRoleChunk(),
      openaiToolChunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_current_weather', arguments: '{"location": Boston}' } }]),
      openaiFinishChunk('tool_calls'),
      'data: [DONE]',
    ] });
    const events = await collect(router.stream({ messages: [weather], tools: [openaiWeatherTool] }));
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
    const last = events.at(-1) as Extract<StreamEvent, { type: 'interrupted' }>;
    expect(last.type).toBe('interrupted');
    expect(last.error.kind).toBe('invalid_output');
    expect(last.error.raw).toBe('{"location": Boston}');
    expect(last.incompleteToolCalls.map((c) => c.id)).toEqual(['call_1']);
    expect(anthropic()).toBe(0);
  });

  it('reports a forced tool call as tool_calls although OpenAI finishes it with stop', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion(undefined, 'stop') });
    const res = await router.chat({ messages: [weather], tools: [openaiWeatherTool], toolChoice: { name: 'get_current_weather' } });
    expect(res.finishReason).toBe('tool_calls');
    expect(bodies(OPENAI_PATH)[0].tool_choice).toEqual({ type: 'function', function: { name: 'get_current_weather' } });
  });

  it('reports a streamed tool call cut at the token limit as length, not as a tool call', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { sse: [
      openaiRoleChunk(),
      openaiToolChunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_current_weather', arguments: '{"locat' } }]),
      openaiFinishChunk('length'),
      'data: [DONE]',
    ] });
    const events = await collect(router.stream({ messages: [weather], tools: [openaiWeatherTool], maxTokens: 5 }));
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result.finishReason).toBe('length');
    expect(done.result.toolCalls).toEqual([]);
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
  });
});

describe('an answer cut at the token limit', () => {
  it('holds no tool calls in chat and in stream alike, though one call finished before the cut', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'] } });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage([
      { type: 'tool_use', id: 'toolu_A', name: 'get_stock_price', input: { ticker: 'AAPL' } },
      { type: 'tool_use', id: 'toolu_B', name: 'get_stock_price', input: {} },
    ], 'max_tokens') });
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      ...anthropicToolBlockSse(0, 'toolu_A', 'get_stock_price', ['{"ticker":', '"AAPL"}']),
      anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_B', name: 'get_stock_price', input: {} } }),
      anthropicEvent({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"tic' } }),
      ...anthropicSseEnd('max_tokens'),
    ] });
    const ask = { messages: [{ role: 'user' as const, content: 'AAPL and MSFT?' }], tools: [anthropicStockTool], maxTokens: 40 };
    const chat = await router.chat(ask);
    const events = await collect(router.stream(ask));
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    for (const result of [chat, done.result]) {
      expect(result.finishReason).toBe('length');
      expect(result.toolCalls).toEqual([]);
      expect(result.message.toolCalls).toBeUndefined();
    }
  });
});

describe('plain text turns replayed to OpenAI', () => {
  it('sends an assistant turn carrying Anthropic thinking to OpenAI as role and content only, no tools in the request', async () => {
    const { router, openai, anthropic } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4o-mini'] } });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage([anthropicThinkingBlocks[0], { type: 'text', text: '185.' }], 'end_turn') });
    const question: Message = { role: 'user', content: 'What is 925 / 5?' };
    const first = await router.chat({ messages: [question], reasoning: { effort: 'low' } });
    expect(first.message.providerParts?.api).toBe('anthropic');

    await router.chat({ chain: 'openai-only', messages: [question, first.message, { role: 'user', content: 'And doubled?' }] });
    await router.chat({ chain: 'openai-only', messages: [question, { role: 'assistant', content: '185.', toolCalls: [] }, { role: 'user', content: 'And doubled?' }] });
    const [withThinking, withEmptyCalls] = bodies(OPENAI_PATH);
    for (const body of [withThinking, withEmptyCalls]) {
      expect(body.messages[1]).toEqual({ role: 'assistant', content: '185.' });
      expect(body.tools).toBeUndefined();
    }
    expect([anthropic(), openai()]).toEqual([1, 2]);
  });
});

describe('structured output', () => {
  const Contact = z.object({ name: z.string(), email: z.string(), plan: z.enum(['Free', 'Pro', 'Enterprise']) });

  it('returns a typed object for a zod schema, sent to OpenAI as a strict json_schema', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('{"name":"John Smith","email":"john@example.com","plan":"Enterprise"}') });
    const res = await router.chat({ messages: [{ role: 'user', content: 'Extract: John Smith (john@example.com) wants the Enterprise plan.' }], responseFormat: { type: 'json_schema', schema: Contact, name: 'contact' } });
    const plan: 'Free' | 'Pro' | 'Enterprise' = res.object!.plan; // typed by the schema
    expect(plan).toBe('Enterprise');
    expect(res.object).toEqual({ name: 'John Smith', email: 'john@example.com', plan: 'Enterprise' });
    const format = bodies(OPENAI_PATH)[0].response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema).toMatchObject({ name: 'contact', strict: true });
    expect(format.json_schema.schema).toMatchObject({ type: 'object', additionalProperties: false, required: ['name', 'email', 'plan'] });
  });

  it('sends a schema strict mode cannot take as it means it (a zod record, an array root) with strict: false, as written', async () => {
    const { router } = setup();
    const Scores = z.object({ scores: z.record(z.string(), z.number()) });
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('{"scores":{"ann":3}}') }, { status: 200, body: openaiCompletion('["a","b"]') }, { status: 200, body: openaiCompletion('ok') });
    const res = await router.chat({ messages: [{ role: 'user', content: 'Score them.' }], responseFormat: { type: 'json_schema', schema: Scores, name: 'scores' } });
    expect(res.object).toEqual({ scores: { ann: 3 } });
    await router.chat({ messages: [{ role: 'user', content: 'List them.' }], responseFormat: { type: 'json_schema', schema: z.array(z.string()) } });
    await router.chat({ messages: [{ role: 'user', content: 'Tally.' }], tools: [{ name: 'tally', parameters: Scores, strict: true }] });
    const [record, array, tool] = bodies(OPENAI_PATH);
    expect(record.response_format.json_schema.strict).toBe(false);
    expect(record.response_format.json_schema.schema.properties.scores.additionalProperties).toEqual({ type: 'number' });
    expect(array.response_format.json_schema).toMatchObject({ strict: false, schema: { type: 'array', items: { type: 'string' } } });
    expect(tool.tools[0].function.strict).toBe(false);
    expect(tool.tools[0].function.parameters.properties.scores.additionalProperties).toEqual({ type: 'number' });
  });

  it('throws invalid_output with the raw text after exactly one request when the answer does not match the schema', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('{"name":"John Smith","plan":"Gold"}') });
    const err = await rejectionOf(router.chat({ messages: [{ role: 'user', content: 'Extract it.' }], responseFormat: { type: 'json_schema', schema: Contact } }));
    expect(err.kind).toBe('invalid_output');
    expect(err.raw).toBe('{"name":"John Smith","plan":"Gold"}');
    expect(err.message).toMatch(/does not match the schema/);
    expect(err.attempts).toEqual([expect.objectContaining({ provider: 'openai', ok: false, kind: 'invalid_output' })]);
    expect([openai(), anthropic()]).toEqual([1, 0]);
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('throws invalid_output for an answer that is not JSON at all', async () => {
    const { router, openai } = setup();
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('Sure! Here is the JSON you asked for.') });
    const err = await rejectionOf(router.chat({ messages: [{ role: 'user', content: 'JSON please' }], responseFormat: { type: 'json' } }));
    expect(err.kind).toBe('invalid_output');
    expect(err.code).toBe('not_json');
    expect(openai()).toBe(1);
  });

  it('tries the next target for invalid output when retry.onInvalidOutput is next', async () => {
    const { router, openai, anthropic } = setup({ retry: { onInvalidOutput: 'next' } });
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('not json') });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicMessage('{"name":"Ann","email":"ann@example.com","plan":"Pro"}') });
    const res = await router.chat({ messages: [{ role: 'user', content: 'Extract it.' }], responseFormat: { type: 'json_schema', schema: Contact } });
    expect(res.provider).toBe('anthropic');
    expect(res.object).toEqual({ name: 'Ann', email: 'ann@example.com', plan: 'Pro' });
    expect([openai(), anthropic()]).toEqual([1, 1]);
    expect(bodies(ANTHROPIC_PATH)[0].output_config).toMatchObject({ format: { type: 'json_schema' } });
  });

  it('validates a streamed answer at its end and ends with interrupted when it does not match', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'] } });
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{"name":' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '"Ann"}' } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('end_turn'),
    ] });
    const events = await collect(router.stream({ messages: [{ role: 'user', content: 'Extract it.' }], responseFormat: { type: 'json_schema', schema: Contact } }));
    const last = events.at(-1) as Extract<StreamEvent, { type: 'interrupted' }>;
    expect(last.type).toBe('interrupted');
    expect(last.error.kind).toBe('invalid_output');
    expect(last.text).toBe('{"name":"Ann"}');
  });
});

describe('structured output on a Claude model without native structured output', () => {
  const Contact = z.object({ name: z.string(), email: z.string(), plan: z.enum(['Free', 'Pro', 'Enterprise']) });
  const extract: Message = { role: 'user', content: 'Extract: John Smith (john@example.com) wants the Enterprise plan.' };
  const john = { name: 'John Smith', email: 'john@example.com', plan: 'Enterprise' };
  const legacy = { chains: { default: ['anthropic:claude-sonnet-4-20250514'] } };

  it('asks for the schema as a forced json tool, never with thinking, and returns its input as the typed object', async () => {
    const { router, anthropic } = setup(legacy);
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage([{ type: 'tool_use', id: 'toolu_J', name: 'json', input: john }]) });
    const res = await router.chat({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact }, reasoning: { effort: 'high' } });
    const plan: 'Free' | 'Pro' | 'Enterprise' = res.object!.plan;
    expect(plan).toBe('Enterprise');
    expect(res).toMatchObject({ object: john, toolCalls: [], finishReason: 'stop', text: JSON.stringify(john) });
    expect(res.message).toEqual({ role: 'assistant', content: JSON.stringify(john) });
    const [body] = bodies(ANTHROPIC_PATH);
    expect(body.tools).toEqual([{ name: 'json', description: 'Respond with a JSON object.', input_schema: expect.objectContaining({ type: 'object', additionalProperties: false, required: ['name', 'email', 'plan'] }) }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'json' });
    expect(body.thinking).toBeUndefined();
    expect(body.output_config).toBeUndefined();
    expect(anthropic()).toBe(1);
  });

  it('streams the json tool\'s input as text and ends done with the object, no tool call in sight', async () => {
    const { router } = setup(legacy);
    up.script(ANTHROPIC_PATH, { sse: [anthropicMessageStart(), ...anthropicToolBlockSse(0, 'toolu_J', 'json', ['', '{"name":"John Smith",', '"email":"john@example.com","plan":"Enterprise"}']), ...anthropicSseEnd('tool_use')] });
    const events = await collect(router.stream({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact } }));
    expect(events.some((e) => e.type === 'tool_call' || e.type === 'tool_call_delta')).toBe(false);
    expect(events.filter((e) => e.type === 'text').map((e) => (e as Extract<StreamEvent, { type: 'text' }>).delta).join('')).toBe(JSON.stringify(john));
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result).toMatchObject({ object: john, toolCalls: [], finishReason: 'stop' });
  });

  it('streams a json tool input that arrives whole at its block start as the answer text, as chat returns it', async () => {
    const { router } = setup(legacy);
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_J', name: 'json', input: john } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('tool_use'),
    ] });
    const events = await collect(router.stream({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact } }));
    expect(events.filter((e) => e.type === 'text').map((e) => (e as Extract<StreamEvent, { type: 'text' }>).delta).join('')).toBe(JSON.stringify(john));
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result).toMatchObject({ object: john, text: JSON.stringify(john), finishReason: 'stop' });
  });

  it('throws invalid_output after exactly one request when the json tool\'s input does not match the schema', async () => {
    const { router, anthropic } = setup(legacy);
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage([{ type: 'tool_use', id: 'toolu_J', name: 'json', input: { name: 'John Smith', plan: 'Gold' } }]) });
    const err = await rejectionOf(router.chat({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact } }));
    expect(err.kind).toBe('invalid_output');
    expect(err.raw).toBe('{"name":"John Smith","plan":"Gold"}');
    expect(anthropic()).toBe(1);
  });

  it('skips such a model without a request when the call also has tools, and answers from the next target', async () => {
    const { router, openai, anthropic } = setup({ chains: { default: ['anthropic:claude-3-5-haiku-latest', 'openai:gpt-4o-mini'] } });
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion(JSON.stringify(john)) });
    const res = await router.chat({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact }, tools: [openaiWeatherTool] });
    expect(res.provider).toBe('openai');
    expect(res.attempts[0]).toMatchObject({ provider: 'anthropic', kind: 'unsupported', skipped: true });
    expect([anthropic(), openai()]).toEqual([0, 1]);
  });

  it('keeps native output_config.format on models that have it', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-haiku-4-5'] } });
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicMessage(JSON.stringify(john)) });
    const res = await router.chat({ messages: [extract], responseFormat: { type: 'json_schema', schema: Contact } });
    expect(res.object).toEqual(john);
    const [body] = bodies(ANTHROPIC_PATH);
    expect(body.output_config).toMatchObject({ format: { type: 'json_schema' } });
    expect(body.tools).toBeUndefined();
  });
});

describe('content parts and capabilities', () => {
  const picture: Message = { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }] };

  it('sends an image to OpenAI as an image_url part and to Anthropic as a base64 image block', async () => {
    const { router } = setup({ retry: { maxAttempts: 1 } });
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const res = await router.chat({ messages: [picture] });
    expect(res.provider).toBe('anthropic');
    expect(bodies(OPENAI_PATH)[0].messages[0].content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
    expect(bodies(ANTHROPIC_PATH)[0].messages[0].content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
  });

  it('skips without a request a target that declares it cannot take images, and says so in the attempts', async () => {
    const { router, anthropic } = setup({
      providers: {
        local: { type: 'openai-compatible', baseURL: `${up.url}/v1`, capabilities: { images: false } },
        anthropic: { type: 'anthropic', apiKey: 'sk-ant-x', baseURL: up.url },
      },
      chains: { default: ['local:llama3', 'anthropic:claude-sonnet-4-6'] },
    });
    const res = await router.chat({ messages: [picture] });
    expect(res.provider).toBe('anthropic');
    expect(res.attempts[0]).toMatchObject({ provider: 'local', kind: 'unsupported', skipped: true });
    expect(up.count(OPENAI_PATH)).toBe(0);
    expect(anthropic()).toBe(1);
  });

  it('skips a target whose adapter refuses a part before sending (a text file on OpenAI) and answers from the next', async () => {
    const { router, openai, anthropic } = setup();
    const notes: Message = { role: 'user', content: [{ type: 'text', text: 'Summarise.' }, { type: 'file', data: Buffer.from('meeting notes').toString('base64'), mediaType: 'text/plain', filename: 'notes.txt' }] };
    const res = await router.chat({ messages: [notes] });
    expect(res.provider).toBe('anthropic');
    expect(res.attempts[0]).toMatchObject({ provider: 'openai', kind: 'unsupported', skipped: true });
    expect([openai(), anthropic()]).toEqual([0, 1]);
    expect(bodies(ANTHROPIC_PATH)[0].messages[0].content[1]).toMatchObject({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'meeting notes' } });
  });

  it('throws unsupported naming each target\'s reason, not exhausted, when every adapter refuses a part (a zip file)', async () => {
    const { router, openai, anthropic } = setup();
    const archive: Message = { role: 'user', content: [{ type: 'text', text: 'Unpack this.' }, { type: 'file', data: 'UEsDBAo=', mediaType: 'application/zip', filename: 'a.zip' }] };
    const err = await rejectionOf(router.chat({ messages: [archive] }));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toMatch(/openai:gpt-4o-mini: openai cannot carry a application\/zip file \(Chat Completions takes PDF files only\)/);
    expect(err.message).toMatch(/anthropic:claude-sonnet-4-6: anthropic cannot carry a application\/zip file \(Anthropic documents are PDF or plain text\)/);
    expect(err.attempts.map((a: { provider: string; kind: string; skipped: boolean }) => [a.provider, a.kind, a.skipped])).toEqual([['openai', 'unsupported', true], ['anthropic', 'unsupported', true]]);
    expect([openai(), anthropic()]).toEqual([0, 0]);
    const streamed = await rejectionOf(collect(router.stream({ messages: [archive] })));
    expect(streamed.kind).toBe('unsupported');
  });

  it('still ends exhausted when one target refused the request and another failed for capacity', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 1 } });
    up.script(ANTHROPIC_PATH, { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const notes: Message = { role: 'user', content: [{ type: 'file', data: Buffer.from('notes').toString('base64'), mediaType: 'text/plain' }] };
    const err = await rejectionOf(router.chat({ messages: [notes] }));
    expect(err.kind).toBe('exhausted');
    expect([openai(), anthropic()]).toEqual([0, 1]);
  });

  it('refuses before any request a call that no target of its chain can carry, naming what is missing', async () => {
    const { router } = setup({
      providers: { local: { type: 'openai-compatible', baseURL: `${up.url}/v1`, capabilities: { images: false, tools: false } } },
      chains: { default: ['local:llama3'] },
    });
    const err = await rejectionOf(router.chat({ messages: [picture], tools: [openaiWeatherTool] }));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toMatch(/local:llama3 lacks tools, images/);
    expect(up.count()).toBe(0);
  });
});

describe('parameters, as providers/PARAMETERS.md documents them', () => {
  const params = {
    messages: [{ role: 'user' as const, content: 'Count to ten.' }],
    temperature: 0.3, topP: 0.9, stop: ['\n\n', ' ', 'END'], seed: 42, user: 'user-7f3a', reasoning: { effort: 'minimal' as const },
    providerOptions: {
      openai: { frequency_penalty: 0.5, service_tier: 'flex' },
      primary: { service_tier: 'priority' },
      anthropic: { service_tier: 'standard_only', top_k: 3 },
      claude: { top_k: 5 },
    },
  };
  const providers = (up: Upstream) => ({
    primary: { type: 'openai' as const, apiKey: OPENAI_KEY, baseURL: `${up.url}/v1` },
    claude: { type: 'anthropic' as const, apiKey: ANTHROPIC_KEY, baseURL: up.url },
  });

  it('sends them to OpenAI: mapped for a chat model, sampling and stop dropped for a reasoning model, options by type then by name', async () => {
    const { router } = setup({ providers: providers(up), chains: { chat: ['primary:gpt-4o-mini'], reasoning: ['primary:o4-mini'] } });
    await router.chat({ chain: 'chat', ...params });
    await router.chat({ chain: 'reasoning', ...params });
    const [chat, reasoning] = bodies(OPENAI_PATH);
    expect(chat).toMatchObject({ temperature: 0.3, top_p: 0.9, stop: ['\n\n', ' ', 'END'], seed: 42, user: 'user-7f3a', frequency_penalty: 0.5, service_tier: 'priority' });
    expect(chat.reasoning_effort).toBeUndefined(); // a chat model rejects it
    expect(reasoning).toMatchObject({ seed: 42, user: 'user-7f3a', reasoning_effort: 'minimal', frequency_penalty: 0.5, service_tier: 'priority' });
    for (const dropped of ['temperature', 'top_p', 'stop']) expect(reasoning[dropped]).toBeUndefined();
    for (const body of [chat, reasoning]) expect(body.top_k).toBeUndefined(); // another provider's options stay there
    expect(up.count()).toBe(2);
  });

  it.each([
    ['claude-opus-4-8', 'high', undefined, { type: 'adaptive' }, { effort: 'high' }],
    ['claude-sonnet-4-6', 'medium', undefined, { type: 'adaptive' }, { effort: 'medium' }],
    ['claude-sonnet-4-5-20250929', 'medium', undefined, { type: 'enabled', budget_tokens: 2048 }, undefined],
    // maxTokens is the visible answer's (issue 37): the effort's whole budget goes on top of it, never squeezed inside.
    ['claude-opus-4-1', 'high', 3000, { type: 'enabled', budget_tokens: 4096 }, undefined],
    ['claude-3-7-sonnet-20250219', 'low', undefined, { type: 'enabled', budget_tokens: 1024 }, undefined],
    ['claude-haiku-4-5', 'low', 1024, { type: 'enabled', budget_tokens: 1024 }, undefined],
    ['claude-3-5-haiku-latest', 'high', undefined, undefined, undefined],
  ] as const)('maps reasoning on %s (effort %s, maxTokens %s) to thinking %j and output_config %j', async (model, effort, maxTokens, thinking, outputConfig) => {
    const { router } = setup({ chains: { default: [`anthropic:${model}`] } });
    await router.chat({ messages: [{ role: 'user', content: 'Think, then answer.' }], reasoning: { effort }, ...(maxTokens ? { maxTokens } : {}) });
    const [body] = bodies(ANTHROPIC_PATH);
    expect(body.thinking).toEqual(thinking);
    expect(body.output_config).toEqual(outputConfig);
    expect(up.count()).toBe(1);
  });

  it('sends them to Anthropic: stop_sequences without whitespace-only ones, user as metadata, thinking with its effort, options by type then by name', async () => {
    const { router } = setup({ providers: providers(up), chains: { default: ['claude:claude-sonnet-4-6'] } });
    await router.chat(params);
    const [body] = bodies(ANTHROPIC_PATH);
    expect(body).toMatchObject({
      stop_sequences: ['END'], metadata: { user_id: 'user-7f3a' }, thinking: { type: 'adaptive' }, output_config: { effort: 'low' },
      service_tier: 'standard_only', top_k: 5,
    });
    for (const dropped of ['temperature', 'top_p', 'seed', 'user', 'stop', 'frequency_penalty']) expect(body[dropped]).toBeUndefined();
    expect(up.count()).toBe(1);
  });
});
