import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_KEY, openAIClient, useSimulators } from './helpers.js';

// The simulator's OpenAI providers answer /v1/responses too, so `api: 'responses'` runs without keys.

const start = useSimulators();
const WEATHER = { name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('simulator: the OpenAI Responses API', () => {
  it('answers a Response object through the real SDK, with usage, and a json_schema answer that parses', async () => {
    const sim = await start();
    const client = openAIClient(sim);
    const res = await client.responses.create({ model: 'gpt-5.4', input: 'Say hello', store: false });
    expect(res).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-5.4' });
    expect(res.output_text.length).toBeGreaterThan(0);
    expect(res.usage!.input_tokens).toBeGreaterThan(0);
    const json = await client.responses.create({
      model: 'gpt-5.4', input: 'Weather as JSON',
      text: { format: { type: 'json_schema', name: 'w', strict: true, schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } },
    });
    expect(typeof JSON.parse(json.output_text).city).toBe('string');
  });

  it('streams response.* events through the real SDK, ending in response.completed', async () => {
    const sim = await start();
    const types: string[] = [];
    let text = '';
    for await (const event of await openAIClient(sim).responses.create({ model: 'gpt-5.4', input: 'Say hello', stream: true })) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(text.length).toBeGreaterThan(0);
  });

  it("carries a router's tool loop with api: 'responses', stream and not", async () => {
    const sim = await start();
    const router = createRouter({
      providers: { openai: { type: 'openai', api: 'responses', apiKey: OPENAI_KEY, baseURL: sim.baseURL('openai') } },
      chains: { default: ['openai:gpt-5.4'] },
    }, { logger: captureLogger().logger });
    const first = await router.chat({ messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER], toolChoice: 'required' });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls[0]).toMatchObject({ name: 'get_weather' });
    const events = [];
    for await (const e of router.stream({
      messages: [{ role: 'user', content: 'Weather in Paris?' }, first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '21 C' }],
      tools: [WEATHER],
    })) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { provider: 'openai' } });
    await router.close();
  });
});
