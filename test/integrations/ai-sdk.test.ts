import { APICallError } from '@ai-sdk/provider';
import { embedMany, generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { isRouterError } from '../../src/errors.js';
import { createSwitchyard } from '../../src/integrations/ai-sdk/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { approxTokens, DEFAULT_EMBEDDING_DIMENSIONS, embeddingFor, embeddingTokens, fakeAnswer, promptTokens } from '../../providers/shared/answers/index.js';
import { fakeRequests } from '../../src/testing/index.js';
import { OPENAI_PATH, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { until } from '../support/until.js';
import { OPENAI_KEY } from '../support/wire-router.js';

// The real `ai` package over a chain whose primary is OpenAI (the real SDK, on a loopback upstream
// that answers every request with a 503) and whose fallback is the in-process fake provider, which
// answers deterministically: tool calls when tools are offered, JSON for a schema, text quoting
// tool results after them. The router's clock is virtual, so its backoff takes no time.

let up: Upstream;
const routers: Router[] = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
});
afterEach(async () => {
  for (const router of routers.splice(0)) await router.close();
  await up.close();
});

function switchyardOver(backup: SwitchyardConfig['providers'][string] = { type: 'fake' }) {
  const router = createRouter({
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 2000 },
      backup,
    },
    chains: { default: ['openai:gpt-4o-mini', 'backup:fake-model'], embeddings: ['backup:fake-embed'] },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    breaker: { consecutiveFailures: 100, volumeThreshold: 100 },
    log: { level: 'silent' },
  }, { clock: new VirtualClock() });
  routers.push(router);
  return { router, switchyard: createSwitchyard(router) };
}

const weather = (calls: unknown[]) => tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async (input) => {
    calls.push(input);
    return { city: input.city, forecast: 'sunny', celsius: 21 };
  },
});

describe('createSwitchyard with the real ai package', () => {
  it('answers generateText through a chain whose primary 503s', async () => {
    const { router, switchyard } = switchyardOver();
    const result = await generateText({ model: switchyard('default'), prompt: 'Say hello', maxRetries: 0 });

    expect(result.text.length).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');
    const sent = fakeRequests(router, 'backup')[0]!;
    // The fake's honest counts: the prompt's (3 + 4 + 3 tokens of "Say hello") and 4 characters a token of the answer.
    expect(result.usage.inputTokens).toBe(10);
    expect(result.usage.inputTokens).toBe(promptTokens(sent.messages));
    expect(result.usage.outputTokens).toBe(approxTokens(result.text));
    expect(result.text).toBe(fakeAnswer(sent.messages, 'fake-model'));
    expect(sent.messages).toEqual([{ role: 'user', content: 'Say hello' }]);
    expect(result.response.modelId).toBe('fake-model');
    expect(result.providerMetadata?.switchyard).toMatchObject({
      provider: 'backup', model: 'fake-model',
      attempts: [{ provider: 'openai', kind: 'server', status: 503 }, { provider: 'openai', kind: 'server', status: 503 }, { provider: 'backup', ok: true }],
    });
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('runs a tool loop with generateText: the tool call out, its result back in, the answer quoting it', async () => {
    const { router, switchyard } = switchyardOver();
    const calls: unknown[] = [];
    const result = await generateText({
      model: switchyard('default'), system: 'Use the tools.', prompt: 'What is the weather in Lisbon?',
      tools: { weather: weather(calls) }, stopWhen: stepCountIs(2), maxRetries: 0,
    });

    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(calls).toHaveLength(1);
    const [first, second] = fakeRequests(router, 'backup');
    expect(first!.tools!.map((t) => t.name)).toEqual(['weather']);
    const call = result.steps[0]!.toolCalls[0]!;
    // The second request carries the assistant's tool call and the tool's result, as Switchyard messages.
    expect(second!.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'Use the tools.' },
      { role: 'user', content: 'What is the weather in Lisbon?' },
    ]);
    expect(second!.messages[2]).toMatchObject({ role: 'assistant', toolCalls: [{ id: call.toolCallId, name: 'weather', arguments: call.input }] });
    expect(second!.messages[3]).toEqual({ role: 'tool', toolCallId: call.toolCallId, content: JSON.stringify(await weather([]).execute!(call.input as { city: string }, { toolCallId: 'x', messages: [] })) });
    expect(result.finishReason).toBe('stop');
    expect(result.text.length).toBeGreaterThan(0);
  });

  it('streams text and a tool call with streamText through a chain whose primary 503s', async () => {
    const { router, switchyard } = switchyardOver();
    const calls: unknown[] = [];
    const result = streamText({
      model: switchyard('default'), prompt: 'What is the weather in Oslo?', tools: { weather: weather(calls) }, stopWhen: stepCountIs(2), maxRetries: 0,
    });
    const types: string[] = [];
    let streamedInput = '';
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === 'tool-input-delta') streamedInput += part.delta;
      if (part.type === 'error') throw part.error;
    }

    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    const call = steps[0]!.toolCalls[0]!;
    expect(call.toolName).toBe('weather');
    expect(JSON.parse(streamedInput)).toEqual(call.input);
    expect(calls).toEqual([call.input]);
    for (const type of ['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']) {
      expect(types).toContain(type);
    }
    expect(await result.text).not.toBe('');
    expect(await result.finishReason).toBe('stop');
    // Output: the call's arguments JSON, then the answer's text, at 4 characters a token.
    const argumentTokens = Math.ceil(JSON.stringify(call.input).length / 4);
    expect(steps.map((s) => s.usage.outputTokens)).toEqual([argumentTokens, approxTokens(steps[1]!.text)]);
    expect((await result.totalUsage).outputTokens).toBe(argumentTokens + approxTokens(steps[1]!.text));
    expect(fakeRequests(router, 'backup')).toHaveLength(2);
    // Each of the two steps met the 503s first, twice each.
    expect(up.count(OPENAI_PATH)).toBe(4);
  });

  it('answers generateObject with an object matching the schema, sent to the chain as json_schema', async () => {
    const { router, switchyard } = switchyardOver();
    const schema = z.object({ title: z.string(), tags: z.array(z.string()), score: z.number().int() });
    const { object } = await generateObject({ model: switchyard('default'), schema, schemaName: 'review', prompt: 'Review the film', maxRetries: 0 });

    expect(schema.safeParse(object).success).toBe(true);
    const sent = fakeRequests(router, 'backup')[0]!;
    expect(sent.responseFormat).toMatchObject({ type: 'json_schema', name: 'review', schema: { type: 'object', required: ['title', 'tags', 'score'] } });
    expect((sent.responseFormat as { schema: Record<string, unknown> }).schema.$schema).toBeUndefined();
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('sends images by https URL and inline bytes as Switchyard image parts', async () => {
    const { router, switchyard } = switchyardOver();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await generateText({
      model: switchyard('default'), maxRetries: 0,
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image', image: new URL('https://example.com/cat.png') },
        { type: 'image', image: new Uint8Array(png), mediaType: 'image/png' },
      ] }],
    });

    expect(fakeRequests(router, 'backup')[0]!.messages).toEqual([{ role: 'user', content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', url: 'https://example.com/cat.png' },
      { type: 'image', url: `data:image/png;base64,${png.toString('base64')}` },
    ] }]);
  });

  it('throws an exhausted chain as a non-retryable APICallError, which the AI SDK does not retry even with its default maxRetries', async () => {
    const { router, switchyard } = switchyardOver({ type: 'fake', respond: () => ({ fail: 'server', status: 500 }) });
    const err = await generateText({ model: switchyard('default'), prompt: 'Say hello' }).then(() => undefined, (e: unknown) => e);

    expect(APICallError.isInstance(err)).toBe(true);
    const api = err as APICallError;
    expect(api.isRetryable).toBe(false);
    // What the gateway answers for an exhausted chain, by its cause: every target failed with a 5xx, an outage (503), not throttling.
    expect(api.statusCode).toBe(503);
    expect(isRouterError(api.cause) && api.cause.kind).toBe('exhausted');
    // One call's worth of requests: the router's two attempts on each target, nothing more from the AI SDK.
    expect(up.count(OPENAI_PATH)).toBe(2);
    expect(fakeRequests(router, 'backup')).toHaveLength(2);
  });

  it('surfaces a stream that fails before its first token as an error part carrying the APICallError', async () => {
    const { switchyard } = switchyardOver({ type: 'fake', respond: () => ({ fail: 'bad_request', message: 'messages: roles must alternate' }) });
    const errors: unknown[] = [];
    const result = streamText({ model: switchyard('default'), prompt: 'Say hello', onError: ({ error }) => void errors.push(error) });
    for await (const part of result.fullStream) void part;

    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(400);
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('surfaces an answer that fails the schema as the router\'s invalid_output, with the raw text', async () => {
    const { switchyard } = switchyardOver({ type: 'fake', script: [{ invalidJson: true }] });
    const err = await generateObject({ model: switchyard('default'), schema: z.object({ title: z.string() }), prompt: 'Name a film', maxRetries: 0 })
      .then(() => undefined, (e: unknown) => e);

    expect(APICallError.isInstance(err)).toBe(true);
    const api = err as APICallError;
    expect(isRouterError(api.cause) && api.cause.kind).toBe('invalid_output');
    expect(api.responseBody).toBe((api.cause as { raw?: string }).raw);
    expect(api.responseBody!.length).toBeGreaterThan(0);
  });

  it('rejects with the AbortError of the caller\'s signal when the call is aborted mid-flight', async () => {
    const { router, switchyard } = switchyardOver({ type: 'fake', script: ['hang'] });
    const controller = new AbortController();
    const pending = generateText({ model: switchyard('default'), prompt: 'Say hello', abortSignal: controller.signal, maxRetries: 0 }).then(() => undefined, (e: unknown) => e);
    await until(() => fakeRequests(router, 'backup').length === 1, 'the request to reach the fallback');
    controller.abort();

    const err = await pending;
    expect((err as Error).name).toBe('AbortError');
  });

  it('embeds through an embeddings chain with embedMany', async () => {
    const { switchyard } = switchyardOver();
    const { embeddings, usage } = await embedMany({ model: switchyard.embeddingModel('embeddings'), values: ['a cat', 'a dog'], maxRetries: 0 });
    expect(embeddings).toEqual([embeddingFor('fake-embed', 'a cat'), embeddingFor('fake-embed', 'a dog')]);
    expect(embeddings[0]).toHaveLength(DEFAULT_EMBEDDING_DIMENSIONS);
    expect(usage.tokens).toBe(embeddingTokens('a cat') + embeddingTokens('a dog'));
  });

  it('reports the model the provider said answered as response.modelId, for generateText and streamText', async () => {
    const { switchyard } = switchyardOver();
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('Hi', 'gpt-4o-mini-2024-07-18') });
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: openaiSse(['Hi']) }); // answered by gpt-4o-2024-08-06
    const generated = await generateText({ model: switchyard('default'), prompt: 'Say hello', maxRetries: 0 });
    const streamed = streamText({ model: switchyard('default'), prompt: 'Say hello', maxRetries: 0 });
    for await (const part of streamed.fullStream) if (part.type === 'error') throw part.error;

    expect(generated.response.modelId).toBe('gpt-4o-mini-2024-07-18');
    expect((await streamed.response).modelId).toBe('gpt-4o-2024-08-06');
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('reports usage the provider never reported as undefined token counts, never as 0', async () => {
    const { switchyard } = switchyardOver();
    const sse = openaiSse(['Hi']);
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: [...sse.slice(0, -2), sse.at(-1)!] }); // no usage chunk
    const streamed = streamText({ model: switchyard('default'), prompt: 'Say hello', maxRetries: 0 });
    for await (const part of streamed.fullStream) if (part.type === 'error') throw part.error;

    expect(await streamed.text).toBe('Hi');
    expect(await streamed.usage).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
  });

  it('refuses a model id that names no chain', () => {
    const { switchyard } = switchyardOver();
    expect(() => switchyard('gpt-4o')).toThrow(/no chain "gpt-4o"/);
  });
});
