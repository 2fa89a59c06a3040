import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startUpstream, type Upstream } from '../../support/upstream.js';
import { answerWith, gatewayConfig, KEYS, startGateway, upstreamBodies, type ServedGateway } from './responses-harness.js';

// The AI SDK's default OpenAI provider, `createOpenAI({ baseURL })('model')`, speaks the Responses
// API: here through a real `switchyard serve` to a loopback Chat Completions upstream.

let up: Upstream;
let gw: ServedGateway;
let model: ReturnType<ReturnType<typeof createOpenAI>>;
/** The bodies the AI SDK sent the gateway. */
let sent: any[] = [];
beforeAll(async () => {
  up = await startUpstream();
  gw = await startGateway(gatewayConfig(up.url));
  const recording: typeof fetch = async (url, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
    return fetch(url, init);
  };
  model = createOpenAI({ baseURL: gw.baseURL, apiKey: KEYS.a, fetch: recording })('default');
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await up?.close();
});
beforeEach(() => {
  up.reset();
  sent = [];
});

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 7 }),
});

describe('the AI SDK at its defaults (createOpenAI, the Responses API)', () => {
  it('generateText: the text, usage and finish reason; the upstream got the prompt and the system message', async () => {
    answerWith(up, { text: 'Cars are sorted there.' });
    const result = await generateText({ model, system: 'Be brief.', prompt: 'What is a switchyard?', maxRetries: 0 });
    expect(result.text).toBe('Cars are sorted there.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 21, outputTokens: 9, totalTokens: 30 });
    expect(result.response.id).toMatch(/^resp_/);
    expect(upstreamBodies(up)[0].messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'What is a switchyard?' }] }]);
  });

  it('streamText: the deltas in order, then the finish with usage', async () => {
    answerWith(up, { text: 'Sorting railway cars.' });
    const result = streamText({ model, prompt: 'What happens there?', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join('')).toBe('Sorting railway cars.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(9);
    expect(upstreamBodies(up)[0].stream).toBe(true);
  });

  it('runs a tool loop: the call, the tool result sent back as function_call_output, the final answer', async () => {
    answerWith(up, { toolCalls: [{ id: 'call_ai1', name: 'weather', arguments: { city: 'Oslo' } }] }, { text: 'It is 7 °C in Oslo.' });
    const result = await generateText({ model, prompt: 'Weather in Oslo?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    expect(result.text).toBe('It is 7 °C in Oslo.');
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolName: 'weather', input: { city: 'Oslo' }, output: { city: 'Oslo', celsius: 7 } });
    const [, second] = upstreamBodies(up);
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_ai1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_ai1', content: '{"city":"Oslo","celsius":7}' },
    ]);
  });

  it('streams a tool loop whose first step says something too: the text comes back as an item_reference the gateway resolves', async () => {
    answerWith(up, { text: 'Let me look.', toolCalls: [{ id: 'call_ai2', name: 'weather', arguments: { city: 'Bergen' } }] }, { text: 'It is 7 °C in Bergen.' });
    const result = streamText({ model, prompt: 'Weather in Bergen?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    expect(await result.text).toBe('It is 7 °C in Bergen.');
    const steps = await result.steps;
    expect(steps.map((s) => s.text)).toEqual(['Let me look.', 'It is 7 °C in Bergen.']);
    const [, second] = upstreamBodies(up);
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Bergen?' }] },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_ai2', type: 'function', function: { name: 'weather', arguments: '{"city":"Bergen"}' } }] },
      { role: 'tool', tool_call_id: 'call_ai2', content: '{"city":"Bergen","celsius":7}' },
    ]);
    // The AI SDK stores by default, so it sent its own earlier text back by reference.
    expect(sent[1].input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_/) });
  });

  it('generates a structured object through text.format json_schema', async () => {
    answerWith(up, { text: '{"city":"Tromsø","celsius":-3}' });
    const result = await generateText({ model, prompt: 'A cold city', output: Output.object({ schema: z.object({ city: z.string(), celsius: z.number() }) }), maxRetries: 0 });
    expect(result.output).toEqual({ city: 'Tromsø', celsius: -3 });
    expect(upstreamBodies(up)[0].response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: expect.objectContaining({ type: 'object' }) } });
  });
});
