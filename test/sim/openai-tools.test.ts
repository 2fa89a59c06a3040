import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { valueForSchema } from '../../providers/shared/answers/index.js';
import { OPENAI_KEY, errorOf, openAIClient, rawStream, useSimulators } from './helpers.js';

const start = useSimulators();
const MODEL = 'gpt-4o-mini';

const weather: OpenAI.ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 3, maximum: 7 } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};
const time: OpenAI.ChatCompletionFunctionTool = {
  type: 'function',
  function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', format: 'uri' } } } },
};
const ping: OpenAI.ChatCompletionFunctionTool = { type: 'function', function: { name: 'ping' } };
const ask = (content: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content }];

async function client() {
  return openAIClient(await start());
}

describe('OpenAI tool calls', () => {
  it('calls the tool a user turn names, with arguments generated from its schema and filled from the prompt (the city it names), finish_reason tool_calls', async () => {
    const c = await client();
    const res = await c.chat.completions.create({ model: MODEL, messages: ask('Use get_weather for Paris'), tools: [weather, time] });
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(typeof call.function.arguments).toBe('string');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris', unit: 'celsius', days: 3 });
  });

  it('answers the same request with the same call ids, every time', async () => {
    const c = await client();
    const body = { model: MODEL, messages: ask('get_weather please'), tools: [weather] };
    const [a, b] = [await c.chat.completions.create(body), await c.chat.completions.create(body)];
    expect(a.choices[0]!.message.tool_calls).toEqual(b.choices[0]!.message.tool_calls);
  });

  it('auto: calls the only tool even when the prompt does not name it, and none of several when it names none', async () => {
    const c = await client();
    const only = await c.chat.completions.create({ model: MODEL, messages: ask('What is it like outside?'), tools: [weather] });
    expect(only.choices[0]!.message.tool_calls?.map((t) => (t as any).function.name)).toEqual(['get_weather']);
    const several = await c.chat.completions.create({ model: MODEL, messages: ask('What is it like outside?'), tools: [weather, time] });
    expect(several.choices[0]!.finish_reason).toBe('stop');
    expect(several.choices[0]!.message.tool_calls).toBeUndefined();
    expect(several.choices[0]!.message.content).toMatch(/You asked/);
  });

  it('calls two named tools in parallel, in the order of the tools list, unless parallel_tool_calls is false', async () => {
    const c = await client();
    const messages = ask('Call get_time and get_weather');
    const both = await c.chat.completions.create({ model: MODEL, messages, tools: [weather, time] });
    expect(both.choices[0]!.message.tool_calls!.map((t) => (t as any).function.name)).toEqual(['get_weather', 'get_time']);
    expect(new Set(both.choices[0]!.message.tool_calls!.map((t) => t.id)).size).toBe(2);
    const one = await c.chat.completions.create({ model: MODEL, messages, tools: [weather, time], parallel_tool_calls: false });
    expect(one.choices[0]!.message.tool_calls!.map((t) => (t as any).function.name)).toEqual(['get_weather']);
  });

  it('honours tool_choice: none answers in text, required calls some tool, a named tool ends with finish_reason stop', async () => {
    const c = await client();
    const none = await c.chat.completions.create({ model: MODEL, messages: ask('Use get_weather'), tools: [weather], tool_choice: 'none' });
    expect(none.choices[0]!.message.tool_calls).toBeUndefined();
    expect(none.choices[0]!.finish_reason).toBe('stop');
    const required = await c.chat.completions.create({ model: MODEL, messages: ask('Anything'), tools: [weather, time], tool_choice: 'required' });
    expect(required.choices[0]!.message.tool_calls!.map((t) => (t as any).function.name)).toEqual(['get_weather']);
    expect(required.choices[0]!.finish_reason).toBe('tool_calls');
    const named = await c.chat.completions.create({ model: MODEL, messages: ask('Anything'), tools: [weather, time], tool_choice: { type: 'function', function: { name: 'get_time' } } });
    expect(named.choices[0]!.message.tool_calls!.map((t) => (t as any).function.name)).toEqual(['get_time']);
    expect(named.choices[0]!.finish_reason).toBe('stop');
    expect(JSON.parse((named.choices[0]!.message.tool_calls![0] as any).function.arguments)).toEqual({ zone: 'https://example.com/' });
  });

  it('calls a tool without parameters with arguments "{}"', async () => {
    const c = await client();
    const res = await c.chat.completions.create({ model: MODEL, messages: ask('ping'), tools: [ping] });
    expect((res.choices[0]!.message.tool_calls![0] as any).function.arguments).toBe('{}');
  });

  it('answers in text that quotes the tool result once a tool message is last', async () => {
    const c = await client();
    const first = await c.chat.completions.create({ model: MODEL, messages: ask('Use get_weather for Paris'), tools: [weather] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    const res = await c.chat.completions.create({
      model: MODEL, tools: [weather],
      messages: [...ask('Use get_weather for Paris'), first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"temperature": 22}' }],
    });
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.choices[0]!.message.content).toBe('Tool get_weather returned: {"temperature": 22}.');
    expect(res.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens);
  });

  it.each([
    ['an assistant tool_calls message not followed by a tool message for each id', [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{}' } }, { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: 'ok' },
      { role: 'user', content: 'and?' },
    ], "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_b", 'messages.[2].role'],
    ['a tool message with no tool_calls before it', [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'call_x', content: 'ok' },
    ], "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", 'messages.[1].role'],
  ])('rejects %s with the real 400', async (_what, messages, message, param) => {
    const c = await client();
    const err = await errorOf(c.chat.completions.create({ model: MODEL, messages: messages as any, tools: [weather] }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toEqual({ message, type: 'invalid_request_error', param, code: null });
  });

  it('rejects tool_choice without tools, a bad function name and a tool-call id longer than 40', async () => {
    const c = await client();
    const noTools = await errorOf(c.chat.completions.create({ model: MODEL, messages: ask('x'), tool_choice: 'required' }));
    expect(noTools.error).toMatchObject({ param: 'tool_choice', message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified." });
    const badName = await errorOf(c.chat.completions.create({ model: MODEL, messages: ask('x'), tools: [{ type: 'function', function: { name: 'get weather' } }] }));
    expect(badName.error).toMatchObject({ param: 'tools[0].function.name', code: 'invalid_value' });
    const longId = 'call_' + 'x'.repeat(40);
    const tooLong = await errorOf(c.chat.completions.create({
      model: MODEL, tools: [weather],
      messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: longId, type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, { role: 'tool', tool_call_id: longId, content: 'ok' }],
    }));
    expect(tooLong.error).toMatchObject({ param: 'messages[1].tool_calls[0].id', code: 'string_above_max_length' });
  });
});

describe('OpenAI streamed tool calls', () => {
  it('streams each call as a first fragment with index, id, type, name and arguments "", then argument fragments (wave2 §2.1)', async () => {
    const sim = await start();
    const raw = await rawStream(`${sim.baseURL('openai')}/chat/completions`, { authorization: `Bearer ${OPENAI_KEY}` }, {
      model: MODEL, messages: ask('Call get_time and get_weather'), tools: [weather, time], stream: true, stream_options: { include_usage: true },
    });
    const chunks = raw.text.split('\n\n').filter((f) => f && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice(6)));
    const deltas = chunks.filter((c) => c.choices[0]?.delta?.tool_calls).map((c) => c.choices[0].delta.tool_calls);
    expect(deltas.every((d) => d.length === 1)).toBe(true);
    const firsts = deltas.map((d) => d[0]).filter((d) => d.id);
    expect(firsts).toEqual([
      { index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 1, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_time', arguments: '' } },
    ]);
    const later = deltas.map((d) => d[0]).filter((d) => !d.id);
    expect(later.every((d) => Object.keys(d).sort().join() === 'function,index' && Object.keys(d.function).join() === 'arguments')).toBe(true);
    const args = (i: number) => later.filter((d) => d.index === i).map((d) => d.function.arguments).join('');
    expect(JSON.parse(args(0))).toEqual(valueForSchema(weather.function.parameters));
    expect(JSON.parse(args(1))).toEqual(valueForSchema(time.function.parameters));
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: null, refusal: null });
  });

  it('works with the SDK stream helper, which needs type and a finish_reason, and gives the same calls as a plain request', async () => {
    const c = await client();
    const body = { model: MODEL, messages: ask('Call get_time and get_weather'), tools: [weather, time] };
    const final = await c.chat.completions.stream(body).finalChatCompletion();
    const plain = await c.chat.completions.create(body);
    expect(final.choices[0]!.message.tool_calls).toEqual(plain.choices[0]!.message.tool_calls);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('ends a forced named tool stream with finish_reason stop', async () => {
    const c = await client();
    const stream = await c.chat.completions.create({ model: MODEL, messages: ask('x'), tools: [weather, time], tool_choice: { type: 'function', function: { name: 'get_weather' } }, stream: true });
    const finishes: Array<string | null> = [];
    for await (const chunk of stream) if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    expect(finishes).toEqual(['stop']);
  });
});
