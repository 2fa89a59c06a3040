import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, CITY, CLAUDE, GPT, HELLO, KEY, OPENAI_PATH, answerWith, startConformance, type Conformance } from './conformance.js';

// @anthropic-ai/sdk at its defaults (its key as a bearer, anthropic-version 2026-10-21), through `switchyard serve`.

let c: Conformance;
let client: Anthropic;
beforeAll(async () => {
  c = await startConformance();
  client = new Anthropic({ apiKey: KEY, baseURL: c.url, maxRetries: 0 });
}, 60_000);
afterAll(async () => c?.close());
beforeEach(() => c.up.reset());

const weather: Anthropic.Tool = { name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('@anthropic-ai/sdk: messages', () => {
  it('a plain call', async () => {
    const answer = await client.messages.create({ model: CLAUDE, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.content).toEqual([{ type: 'text', text: HELLO }]);
    expect(answer.stop_reason).toBe('end_turn');
    expect(c.bodies(ANTHROPIC_PATH)).toEqual([expect.objectContaining({ model: 'claude-sonnet-4-6', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] })]);
  });

  it('a stream, to an OpenAI target', async () => {
    const stream = client.messages.stream({ model: GPT, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => void (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe(HELLO);
    expect(final.content).toEqual([{ type: 'text', text: HELLO }]);
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 9 });
    expect(c.bodies(OPENAI_PATH)).toEqual([expect.objectContaining({ stream: true, messages: [{ role: 'user', content: 'hi' }] })]);
  });

  it('a two-step tool loop, streamed', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: `Weather in ${CITY}?` }];
    const first = await client.messages.stream({ model: CLAUDE, max_tokens: 256, tools: [weather], messages }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect([use.name, use.input]).toEqual(['get_weather', { city: CITY }]);
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] });
    const second = await client.messages.stream({ model: CLAUDE, max_tokens: 256, tools: [weather], messages }).finalMessage();
    expect(second.content).toEqual([{ type: 'text', text: answerWith('sunny') }]);
    expect(c.bodies(ANTHROPIC_PATH)[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_conf_1', name: 'get_weather', input: { city: CITY } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_conf_1', content: 'sunny' }] },
    ]);
  });

  it('a two-step tool loop against an OpenAI target', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: `Weather in ${CITY}?` }];
    const first = await client.messages.create({ model: GPT, max_tokens: 256, tools: [weather], messages });
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'fog' }] });
    const second = await client.messages.create({ model: GPT, max_tokens: 256, tools: [weather], messages });
    expect(second.content).toEqual([{ type: 'text', text: answerWith('fog') }]);
    expect(c.bodies(OPENAI_PATH)[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_conf_1', type: 'function', function: { name: 'get_weather', arguments: `{"city":"${CITY}"}` } }] },
      { role: 'tool', tool_call_id: 'call_conf_1', content: 'fog' },
    ]);
  });

  it('counts tokens without calling upstream', async () => {
    const counted = await client.messages.countTokens({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }], tools: [weather] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(c.up.count()).toBe(0);
  });
});
