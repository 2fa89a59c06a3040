import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, CITY, CLAUDE, GPT, HELLO, KEY, OPENAI_PATH, answerWith, GATEWAY_PATHS, startConformance, type Conformance } from './conformance.js';

// The openai SDK (chat completions) at its defaults, through `switchyard serve`.

let c: Conformance;
let client: OpenAI;

const weather: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

describe.each(GATEWAY_PATHS)('openai SDK: chat.completions ($path)', ({ passThrough }) => {
  beforeAll(async () => {
    c = await startConformance({ passThrough });
    client = new OpenAI({ apiKey: KEY, baseURL: `${c.url}/v1`, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => c?.close());
  beforeEach(() => c.up.reset());

  it('a plain call', async () => {
    const answer = await client.chat.completions.create({ model: GPT, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).toBe(HELLO);
    expect(c.bodies(OPENAI_PATH)).toEqual([expect.objectContaining({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })]);
  });

  it('a stream, with the usage chunk it asked for', async () => {
    const stream = await client.chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(HELLO);
    expect(usage).toMatchObject({ prompt_tokens: 25, completion_tokens: 12 });
    expect(c.bodies(ANTHROPIC_PATH)).toEqual([expect.objectContaining({ model: 'claude-sonnet-4-6', stream: true })]);
  });

  it('a stream to an OpenAI target: the usage chunk when asked for, none when not', async () => {
    for (const asked of [true, false]) {
      const stream = await client.chat.completions.create({ model: GPT, messages: [{ role: 'user', content: 'hi' }], stream: true, ...(asked ? { stream_options: { include_usage: true } } : {}) });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        usage = chunk.usage ?? usage;
      }
      expect(text).toBe(HELLO);
      if (asked) expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 });
      else expect(usage).toBeUndefined();
    }
    // Either path asks the upstream for usage (the router reads it for spend).
    expect(c.bodies(OPENAI_PATH)).toEqual(Array.from({ length: 2 }, () => expect.objectContaining({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } })));
  });

  it('a two-step tool loop, the SDK\'s own runTools helper driving it over a stream', async () => {
    const runner = client.chat.completions.runTools({
      model: GPT, stream: true, messages: [{ role: 'user', content: `Weather in ${CITY}?` }],
      tools: [{ type: 'function', function: { ...weather.function, function: async ({ city }: { city: string }) => `sunny in ${city}`, parse: JSON.parse } } as never],
    });
    expect(await runner.finalContent()).toBe(answerWith(`sunny in ${CITY}`));
    const [first, second] = c.bodies(OPENAI_PATH);
    expect(first.tools[0].function.name).toBe('get_weather');
    expect(second.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_conf_1', type: 'function', function: { name: 'get_weather', arguments: `{"city":"${CITY}"}` } }] },
      { role: 'tool', tool_call_id: 'call_conf_1', content: `sunny in ${CITY}` },
    ]);
  });

  it('a two-step tool loop by hand, against an Anthropic target', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: `Weather in ${CITY}?` }];
    const first = await client.chat.completions.create({ model: CLAUDE, messages, tools: [weather] });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect([first.choices[0]!.finish_reason, call.function.name, JSON.parse(call.function.arguments)]).toEqual(['tool_calls', 'get_weather', { city: CITY }]);
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'rain' });
    const second = await client.chat.completions.create({ model: CLAUDE, messages, tools: [weather] });
    expect(second.choices[0]!.message.content).toBe(answerWith('rain'));
    const sent = c.bodies(ANTHROPIC_PATH)[1];
    expect(sent.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_conf_1', name: 'get_weather', input: { city: CITY } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_conf_1', content: 'rain' }] },
    ]);
  });
});
