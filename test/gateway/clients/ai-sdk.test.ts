import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANTHROPIC_PATH, CITY, CLAUDE, GPT, HELLO, KEY, OPENAI_PATH, STRUCTURED, answerWith, GATEWAY_PATHS, startConformance, type Conformance } from './conformance.js';

// The Vercel AI SDK (`ai`) with its OpenAI (`.chat`), Anthropic and OpenAI-compatible providers at
// their defaults, through `switchyard serve`. (The OpenAI provider's default, the Responses API, is
// the /v1/responses suite's.)

let c: Conformance;

const tools = { get_weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` }) };

interface Client {
  name: string;
  model: (chain: string) => LanguageModel;
}

const CLIENTS: Client[] = [
  { name: '@ai-sdk/openai .chat', model: (chain) => createOpenAI({ apiKey: KEY, baseURL: `${c.url}/v1` }).chat(chain) },
  { name: '@ai-sdk/anthropic', model: (chain) => createAnthropic({ apiKey: KEY, baseURL: `${c.url}/v1` })(chain) },
  { name: '@ai-sdk/openai-compatible', model: (chain) => createOpenAICompatible({ name: 'switchyard', apiKey: KEY, baseURL: `${c.url}/v1`, includeUsage: true })(chain) },
];

/** What the upstream got as the tool loop's second step: the tool's result, in its own wire's words. */
function toolResultSent(path: string): unknown {
  const messages = c.bodies(path)[1].messages;
  return path === OPENAI_PATH ? messages.find((m: { role: string }) => m.role === 'tool') : messages[messages.length - 1];
}

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  beforeAll(async () => {
    c = await startConformance({ passThrough });
    (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  }, 60_000);
  afterAll(async () => c?.close());
  beforeEach(() => c.up.reset());

  describe.each(CLIENTS)('$name', ({ model }) => {
    it.each([[GPT, OPENAI_PATH], [CLAUDE, ANTHROPIC_PATH]])('a plain call (chain %s)', async (chain, path) => {
      const { text, usage } = await generateText({ model: model(chain), prompt: 'hi', maxRetries: 0 });
      expect(text).toBe(HELLO);
      expect(usage.inputTokens).toBeGreaterThan(0);
      expect(c.bodies(path)).toHaveLength(1);
    });

    it.each([[GPT, OPENAI_PATH], [CLAUDE, ANTHROPIC_PATH]])('a stream (chain %s)', async (chain, path) => {
      const result = streamText({ model: model(chain), prompt: 'hi', maxRetries: 0 });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(text).toBe(HELLO);
      expect(await result.finishReason).toBe('stop');
      expect(c.bodies(path)).toEqual([expect.objectContaining({ stream: true })]);
    });

    it.each([[GPT, OPENAI_PATH], [CLAUDE, ANTHROPIC_PATH]])('a two-step tool loop (chain %s)', async (chain, path) => {
      const { text, steps } = await generateText({ model: model(chain), prompt: `Weather in ${CITY}?`, tools, stopWhen: stepCountIs(3), maxRetries: 0 });
      expect(steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
      expect(steps[0]!.toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', input: { city: CITY } })]);
      expect(text).toBe(answerWith(`sunny in ${CITY}`));
      expect(c.bodies(path)).toHaveLength(2);
      expect(JSON.stringify(toolResultSent(path))).toContain(`sunny in ${CITY}`);
    });

    it('a streamed two-step tool loop', async () => {
      const result = streamText({ model: model(CLAUDE), prompt: `Weather in ${CITY}?`, tools, stopWhen: stepCountIs(3), maxRetries: 0 });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(text).toBe(answerWith(`sunny in ${CITY}`));
      expect((await result.steps).map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
      expect(c.bodies(ANTHROPIC_PATH)).toHaveLength(2);
    });

    it('generateObject', async () => {
      const { object } = await generateObject({ model: model(GPT), schema: z.object({ city: z.string(), temperature: z.number() }), prompt: 'Weather as JSON', maxRetries: 0 });
      expect(object).toEqual(STRUCTURED);
    });
  });
});
