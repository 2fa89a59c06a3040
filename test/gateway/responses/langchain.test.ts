import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startUpstream, type Upstream } from '../../support/upstream.js';
import { answerWith, gatewayConfig, KEYS, startGateway, upstreamBodies, type ServedGateway } from './responses-harness.js';

// LangChain.js `ChatOpenAI({ useResponsesApi: true })` through a real `switchyard serve`.

let up: Upstream;
let gw: ServedGateway;
let chat: ChatOpenAI;
beforeAll(async () => {
  up = await startUpstream();
  gw = await startGateway(gatewayConfig(up.url));
  chat = new ChatOpenAI({ model: 'default', useResponsesApi: true, apiKey: KEYS.a, configuration: { baseURL: gw.baseURL }, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await up?.close();
});
beforeEach(() => up.reset());

const weather = tool(async ({ city }) => JSON.stringify({ city, celsius: 4 }), {
  name: 'weather', description: 'The weather in a city', schema: z.object({ city: z.string() }),
});

describe('LangChain ChatOpenAI with useResponsesApi', () => {
  it('invokes: the text and usage come back, the upstream got the system and human messages', async () => {
    answerWith(up, { text: 'Railway cars get sorted.' });
    const answer = await chat.invoke([new SystemMessage('Be brief.'), new HumanMessage('What is a switchyard?')]);
    expect(answer.text).toBe('Railway cars get sorted.');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 21, output_tokens: 9, total_tokens: 30 });
    expect(upstreamBodies(up)[0].messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is a switchyard?' }]);
  });

  it('streams: the chunks add up to the answer', async () => {
    answerWith(up, { text: 'Sorted by destination.' });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await chat.stream('How are cars sorted?')) chunks.push(chunk);
    expect(chunks.map((c) => c.text).join('')).toBe('Sorted by destination.');
    expect(chunks.filter((c) => c.text !== '').length).toBeGreaterThan(1);
    expect(upstreamBodies(up)[0].stream).toBe(true);
  });

  it('completes the standard tool loop: bindTools, the call, a ToolMessage back, the answer', async () => {
    answerWith(up, { toolCalls: [{ id: 'call_lc1', name: 'weather', arguments: { city: 'Oslo' } }] }, { text: '4 °C in Oslo.' });
    const withTools = chat.bindTools([weather]);
    const history: BaseMessage[] = [new HumanMessage('Weather in Oslo?')];
    const first = await withTools.invoke(history);
    expect(first.tool_calls).toEqual([expect.objectContaining({ id: 'call_lc1', name: 'weather', args: { city: 'Oslo' } })]);
    history.push(first);
    for (const call of first.tool_calls!) history.push(await weather.invoke(call) as ToolMessage);
    const second = await withTools.invoke(history);
    expect(second.text).toBe('4 °C in Oslo.');
    expect(second).toBeInstanceOf(AIMessage);
    const [one, two] = upstreamBodies(up);
    expect(one.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'weather', description: 'The weather in a city' }) }]);
    expect(two.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_lc1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_lc1', content: '{"city":"Oslo","celsius":4}' },
    ]);
  });

  it('streams a tool call: the chunks carry the call, arguments and all', async () => {
    answerWith(up, { toolCalls: [{ id: 'call_lc2', name: 'weather', arguments: { city: 'Bergen' } }] });
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await chat.bindTools([weather]).stream('Weather in Bergen?')) whole = whole ? whole.concat(chunk) : chunk;
    expect(whole?.tool_calls).toEqual([expect.objectContaining({ id: 'call_lc2', name: 'weather', args: { city: 'Bergen' } })]);
  });

  it('returns structured output (withStructuredOutput) through text.format', async () => {
    answerWith(up, { text: '{"city":"Tromsø"}' });
    const structured = chat.withStructuredOutput(z.object({ city: z.string() }), { name: 'pick' });
    expect(await structured.invoke('Pick a city')).toEqual({ city: 'Tromsø' });
    expect(upstreamBodies(up)[0].response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'pick' } });
  });
});
