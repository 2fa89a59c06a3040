import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { valueForSchema } from '../../providers/shared/answers/index.js';
import { ANTHROPIC_KEY, anthropicClient, errorOf, rawStream, useSimulators } from './helpers.js';

const start = useSimulators();
const MODEL = 'claude-haiku-4-5';

const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] },
};
const time: Anthropic.Tool = { name: 'get_time', input_schema: { type: 'object', properties: { zone: { type: 'string' } } } };
const ping: Anthropic.Tool = { name: 'ping', input_schema: { type: 'object', properties: {} } };
const ask = (content: string): Anthropic.MessageParam[] => [{ role: 'user', content }];

async function client() {
  return anthropicClient(await start());
}

/** The SSE events of a raw Anthropic stream. */
async function events(body: Record<string, unknown>) {
  const sim = await start();
  const raw = await rawStream(`${sim.baseURL('anthropic')}/v1/messages`, { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' }, { ...body, stream: true });
  return raw.text.split('\n\n').filter(Boolean).map((frame) => {
    const [eventLine, dataLine] = frame.split('\n');
    return { event: eventLine!.replace('event: ', ''), data: JSON.parse(dataLine!.replace('data: ', '')) };
  });
}

describe('Anthropic tool use', () => {
  it('answers with a sentence, then tool_use blocks with object input, stop_reason tool_use', async () => {
    const c = await client();
    const res = await c.messages.create({ model: MODEL, max_tokens: 500, messages: ask('Use get_weather for Paris'), tools: [weather, time] });
    expect(res.stop_reason).toBe('tool_use');
    expect(res.content).toEqual([
      { type: 'text', text: "I'll call get_weather." },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_01[1-9A-HJ-NP-Za-km-z]{22}$/), name: 'get_weather', input: { city: 'Paris', unit: 'celsius' }, caller: { type: 'direct' } },
    ]);
  });

  it('forced tool use (any, tool) writes no sentence before the calls', async () => {
    const c = await client();
    const any = await c.messages.create({ model: MODEL, max_tokens: 500, messages: ask('Hello'), tools: [weather, time], tool_choice: { type: 'any' } });
    expect(any.content.map((b) => b.type)).toEqual(['tool_use']);
    expect((any.content[0] as Anthropic.ToolUseBlock).name).toBe('get_weather');
    const named = await c.messages.create({ model: MODEL, max_tokens: 500, messages: ask('Hello'), tools: [weather, time], tool_choice: { type: 'tool', name: 'get_time' } });
    expect(named.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'get_time', input: valueForSchema(time.input_schema) })]);
    expect(named.stop_reason).toBe('tool_use');
  });

  it('calls two named tools unless disable_parallel_tool_use, and none under tool_choice none', async () => {
    const c = await client();
    const messages = ask('Call get_weather, then get_time');
    const both = await c.messages.create({ model: MODEL, max_tokens: 500, messages, tools: [weather, time] });
    expect(both.content.filter((b) => b.type === 'tool_use').map((b) => (b as Anthropic.ToolUseBlock).name)).toEqual(['get_weather', 'get_time']);
    const one = await c.messages.create({ model: MODEL, max_tokens: 500, messages, tools: [weather, time], tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(one.content.filter((b) => b.type === 'tool_use').map((b) => (b as Anthropic.ToolUseBlock).name)).toEqual(['get_weather']);
    const none = await c.messages.create({ model: MODEL, max_tokens: 500, messages, tools: [weather, time], tool_choice: { type: 'none' } });
    expect(none.content.map((b) => b.type)).toEqual(['text']);
    expect(none.stop_reason).toBe('end_turn');
  });

  it('answers a tool_result with text that quotes it, marking an error result as failed', async () => {
    const c = await client();
    const first = await c.messages.create({ model: MODEL, max_tokens: 500, messages: ask('Call get_weather and get_time'), tools: [weather, time] });
    const uses = first.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    const res = await c.messages.create({
      model: MODEL, max_tokens: 500, tools: [weather, time],
      messages: [...ask('Call get_weather and get_time'), { role: 'assistant', content: first.content }, {
        role: 'user', content: [
          { type: 'tool_result', tool_use_id: uses[0]!.id, content: '22 °C' },
          { type: 'tool_result', tool_use_id: uses[1]!.id, content: [{ type: 'text', text: 'clock offline' }], is_error: true },
        ],
      }],
    });
    expect(res.stop_reason).toBe('end_turn');
    expect(res.content).toEqual([{ type: 'text', text: 'Tool get_weather returned: 22 °C. Tool get_time failed: clock offline.' }]);
  });

  const use = (id: string): Anthropic.MessageParam => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: {} }] });
  const result = (id: string): Anthropic.MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
  it.each([
    ['a tool_use without a tool_result in the next message', [...ask('x'), use('toolu_a'), ...ask('and?')], true,
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'],
    ['a tool_result for an id the previous message did not use', [...ask('x'), use('toolu_a'), result('toolu_b')], true,
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_b. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'],
    ['a tool_use id outside ^[a-zA-Z0-9_-]+$', [...ask('x'), use('functions.Bash:0'), result('toolu_a')], true,
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"],
    ['a tool_use id used twice', [...ask('x'), use('toolu_a'), result('toolu_a'), use('toolu_a'), result('toolu_a')], true,
      'messages.3.content.0: `tool_use` ids must be unique'],
    ['tool blocks in the history without tools', [...ask('x'), use('toolu_a'), result('toolu_a')], false,
      'Requests which include `tool_use` or `tool_result` blocks must define tools.'],
    ['an empty text block', [{ role: 'user', content: [{ type: 'text', text: '' }] }], true, 'messages: text content blocks must be non-empty'],
    ['a whitespace-only text block', [{ role: 'user', content: [{ type: 'text', text: '  ' }] }], true, 'messages: text content blocks must contain non-whitespace text'],
    ['an empty user message', [{ role: 'user', content: '' }], true, 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
  ])('rejects %s with the real 400', async (_what, messages, withTools, message) => {
    const c = await client();
    const err = await errorOf(c.messages.create({ model: MODEL, max_tokens: 100, messages: messages as Anthropic.MessageParam[], ...(withTools ? { tools: [weather] } : {}) }));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: err.requestID });
  });
});

describe('Anthropic streamed tool use', () => {
  it('streams text, then each tool_use as content_block_start, input_json_delta fragments and content_block_stop (wave2 §2.2)', async () => {
    const evs = await events({ model: MODEL, max_tokens: 500, messages: ask('Use get_weather'), tools: [weather] });
    const names = evs.map((e) => e.event);
    const start = evs.find((e) => e.event === 'content_block_start' && e.data.content_block.type === 'tool_use')!;
    expect(start.data).toEqual({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: expect.stringMatching(/^toolu_01/), name: 'get_weather', input: {} } });
    const fragments = evs.filter((e) => e.data.delta?.type === 'input_json_delta');
    expect(fragments.every((e) => e.data.index === 1)).toBe(true);
    expect(fragments[0]!.data.delta.partial_json).toBe('');
    expect(JSON.parse(fragments.map((e) => e.data.delta.partial_json).join(''))).toEqual(valueForSchema(weather.input_schema));
    const stops = evs.filter((e) => e.event === 'content_block_stop').map((e) => e.data.index);
    expect(stops).toEqual([0, 1]);
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(evs.at(-2)!.data.delta.stop_reason).toBe('tool_use');
  });

  it('streams a tool without arguments as one empty input_json_delta, which the SDK turns into {}', async () => {
    const evs = await events({ model: MODEL, max_tokens: 500, messages: ask('ping'), tools: [ping], tool_choice: { type: 'any' } });
    expect(evs.filter((e) => e.data.delta?.type === 'input_json_delta').map((e) => e.data.delta.partial_json)).toEqual(['']);
    expect(evs.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block.type)).toEqual(['tool_use']);
    const c = await client();
    const final = await c.messages.stream({ model: MODEL, max_tokens: 500, messages: ask('ping'), tools: [ping], tool_choice: { type: 'any' } }).finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'ping', input: {} })]);
  });

  it('gives the SDK stream helper the same message as a plain request', async () => {
    const c = await client();
    const body = { model: MODEL, max_tokens: 500, messages: ask('Call get_weather and get_time'), tools: [weather, time] };
    const final = await c.messages.stream(body).finalMessage();
    const plain = await c.messages.create(body);
    expect(final.content).toEqual(plain.content.map((b) => (b.type === 'tool_use' ? { type: b.type, id: b.id, name: b.name, input: b.input } : b)));
    expect(final.stop_reason).toBe('tool_use');
  });
});

describe('Anthropic thinking', () => {
  const thinking = { type: 'enabled', budget_tokens: 2048 } as const;

  it('starts the answer with a signed thinking block and counts its tokens in output_tokens', async () => {
    const c = await client();
    const res = await c.messages.create({ model: MODEL, max_tokens: 4000, messages: ask('Why is the sky blue?'), thinking, output_config: { effort: 'low' } } as any);
    expect(res.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const block = res.content[0] as Anthropic.ThinkingBlock;
    expect(block.thinking).toContain('Why is the sky blue?');
    expect(block.signature).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect((res.usage as any).output_tokens_details).toEqual({ thinking_tokens: 32 });
    expect(res.usage.output_tokens).toBeGreaterThan(32);
  });

  it('streams thinking as thinking_delta and one signature_delta before its content_block_stop', async () => {
    const evs = await events({ model: MODEL, max_tokens: 4000, messages: ask('hello'), thinking });
    const block0 = evs.filter((e) => e.data.index === 0).map((e) => e.data.delta?.type ?? e.event);
    expect(block0).toEqual(['content_block_start', 'thinking_delta', 'signature_delta', 'content_block_stop']);
  });

  it('accepts its thinking blocks back verbatim in a tool loop, and rejects a loop without them or with a changed one', async () => {
    const c = await client();
    const tools = [weather];
    const first = await c.messages.create({ model: MODEL, max_tokens: 4000, messages: ask('get_weather'), tools, thinking });
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    const id = (first.content[2] as Anthropic.ToolUseBlock).id;
    const loop = (content: Anthropic.ContentBlockParam[]) => c.messages.create({
      model: MODEL, max_tokens: 4000, tools, thinking,
      messages: [...ask('get_weather'), { role: 'assistant', content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny' }] }],
    });
    const ok = await loop(first.content as Anthropic.ContentBlockParam[]);
    expect(ok.content.at(-1)).toEqual({ type: 'text', text: 'Tool get_weather returned: sunny.' });
    const without = await errorOf(loop(first.content.slice(1) as Anthropic.ContentBlockParam[]));
    expect(without.error.error.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\. When `thinking` is enabled/);
    const edited = [{ ...(first.content[0] as Anthropic.ThinkingBlock), thinking: 'something else' }, ...first.content.slice(1)];
    expect((await errorOf(loop(edited as Anthropic.ContentBlockParam[]))).error.error.message).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('refuses thinking with a forced tool_choice', async () => {
    const c = await client();
    const err = await errorOf(c.messages.create({ model: MODEL, max_tokens: 4000, messages: ask('x'), tools: [weather], tool_choice: { type: 'any' }, thinking }));
    expect(err.error.error.message).toBe('Thinking may not be enabled when tool_choice forces tool use.');
  });
});
