import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessageChunk, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANTHROPIC_PATH, CITY, CLAUDE, GPT, HELLO, KEY, OPENAI_PATH, STRUCTURED, answerWith, startConformance, type Conformance } from './conformance.js';

// @langchain/anthropic's ChatAnthropic at its defaults (x-api-key, anthropic-version 2023-06-01), through `switchyard serve`.

let c: Conformance;
beforeAll(async () => {
  c = await startConformance();
}, 60_000);
afterAll(async () => c?.close());
beforeEach(() => c.up.reset());

const model = (chain: string) => new ChatAnthropic({ model: chain, apiKey: KEY, anthropicApiUrl: c.url, maxRetries: 0 });
const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) });

describe('@langchain/anthropic: ChatAnthropic', () => {
  it('a plain call, its key sent as x-api-key', async () => {
    const answer = await model(CLAUDE).invoke('hi');
    expect(answer.content).toBe(HELLO);
    expect(c.bodies(ANTHROPIC_PATH)).toEqual([expect.objectContaining({ messages: [{ role: 'user', content: 'hi' }] })]);
  });

  it('a stream, to an OpenAI target', async () => {
    let text = '';
    for await (const chunk of await model(GPT).stream('hi')) text += chunk.text;
    expect(text).toBe(HELLO);
    expect(c.bodies(OPENAI_PATH)).toEqual([expect.objectContaining({ stream: true })]);
  });

  it('the agent tool loop: bindTools, the tool run, its ToolMessage sent back as a tool_result', async () => {
    const bound = model(CLAUDE).bindTools([getWeather]);
    const history: BaseMessage[] = [new HumanMessage(`Weather in ${CITY}?`)];
    const first = await bound.invoke(history);
    expect(first.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: CITY }, id: 'toolu_conf_1' })]);
    history.push(first, await getWeather.invoke(first.tool_calls![0]!));
    const second = await bound.invoke(history);
    expect(second.content).toBe(answerWith(`sunny in ${CITY}`));
    expect(c.bodies(ANTHROPIC_PATH)[1].messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_conf_1', content: `sunny in ${CITY}` }] });
  });

  it('a streamed tool loop against an OpenAI target', async () => {
    const bound = model(GPT).bindTools([getWeather]);
    const history: BaseMessage[] = [new HumanMessage(`Weather in ${CITY}?`)];
    let first: AIMessageChunk | undefined;
    for await (const chunk of await bound.stream(history)) first = first ? first.concat(chunk) : chunk;
    expect(first!.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: CITY } })]);
    history.push(first!, await getWeather.invoke(first!.tool_calls![0]!));
    // With tools bound, ChatAnthropic streams content as blocks: `text` reads them.
    let text = '';
    for await (const chunk of await bound.stream(history)) text += chunk.text;
    expect(text).toBe(answerWith(`sunny in ${CITY}`));
    expect(c.bodies(OPENAI_PATH)[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_conf_1', type: 'function', function: { name: 'get_weather', arguments: `{"city":"${CITY}"}` } }] },
      { role: 'tool', tool_call_id: 'call_conf_1', content: `sunny in ${CITY}` },
    ]);
  });

  it('withStructuredOutput (a forced tool)', async () => {
    const out = await model(CLAUDE).withStructuredOutput(z.object({ city: z.string(), temperature: z.number() })).invoke('Weather as JSON');
    expect(out).toEqual(STRUCTURED);
    expect(c.bodies(ANTHROPIC_PATH)[0].tool_choice).toEqual({ type: 'tool', name: 'extract' });
  });
});
