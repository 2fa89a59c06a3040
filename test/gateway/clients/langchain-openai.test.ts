import { AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANTHROPIC_PATH, CITY, CLAUDE, GPT, HELLO, KEY, OPENAI_PATH, STRUCTURED, answerWith, GATEWAY_PATHS, startConformance, type Conformance } from './conformance.js';

// @langchain/openai's ChatOpenAI at its defaults (Chat Completions), through `switchyard serve`.

let c: Conformance;

const model = (chain: string) => new ChatOpenAI({ model: chain, apiKey: KEY, configuration: { baseURL: `${c.url}/v1` }, maxRetries: 0 });
const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) });

describe.each(GATEWAY_PATHS)('@langchain/openai: ChatOpenAI ($path)', ({ passThrough }) => {
  beforeAll(async () => {
    c = await startConformance({ passThrough });
  }, 60_000);
  afterAll(async () => c?.close());
  beforeEach(() => c.up.reset());

  it('a plain call', async () => {
    const answer = await model(GPT).invoke('hi');
    expect(answer.content).toBe(HELLO);
    expect(c.bodies(OPENAI_PATH)).toEqual([expect.objectContaining({ messages: [{ role: 'user', content: 'hi' }] })]);
  });

  it('a stream, with the usage LangChain asks for', async () => {
    let text = '';
    let usage: unknown;
    for await (const chunk of await model(CLAUDE).stream('hi')) {
      text += chunk.content as string;
      usage = chunk.usage_metadata ?? usage;
    }
    expect(text).toBe(HELLO);
    expect(usage).toMatchObject({ input_tokens: 25, output_tokens: 12 });
    expect(c.bodies(ANTHROPIC_PATH)).toHaveLength(1);
  });

  it('the agent tool loop: bindTools, the tool run, its ToolMessage (which carries name) sent back', async () => {
    const bound = model(GPT).bindTools([getWeather]);
    const history: BaseMessage[] = [new HumanMessage(`Weather in ${CITY}?`)];
    const first = await bound.invoke(history);
    expect(first.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: CITY }, id: 'call_conf_1' })]);
    history.push(first);
    const result = await getWeather.invoke(first.tool_calls![0]!);
    expect(result).toBeInstanceOf(ToolMessage);
    history.push(result);
    const second = await bound.invoke(history);
    expect(second.content).toBe(answerWith(`sunny in ${CITY}`));
    const sent = c.bodies(OPENAI_PATH)[1].messages;
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_conf_1', content: `sunny in ${CITY}` });
  });

  it('a streamed tool loop against an Anthropic target', async () => {
    const bound = model(CLAUDE).bindTools([getWeather]);
    const history: BaseMessage[] = [new HumanMessage(`Weather in ${CITY}?`)];
    let first: AIMessageChunk | undefined;
    for await (const chunk of await bound.stream(history)) first = first ? first.concat(chunk) : chunk;
    expect(first!.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: CITY } })]);
    history.push(first!, await getWeather.invoke(first!.tool_calls![0]!));
    const second = await bound.invoke(history);
    expect(second.content).toBe(answerWith(`sunny in ${CITY}`));
    expect(c.bodies(ANTHROPIC_PATH)[1].messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_conf_1', content: `sunny in ${CITY}` }] });
  });

  it('withStructuredOutput (json_schema, strict)', async () => {
    const out = await model(GPT).withStructuredOutput(z.object({ city: z.string(), temperature: z.number() })).invoke('Weather as JSON');
    expect(out).toEqual(STRUCTURED);
    expect(c.bodies(OPENAI_PATH)[0].response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
  });
});
