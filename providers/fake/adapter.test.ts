import { describe, expect, it } from 'vitest';
import { approxTokens, embeddingFor, promptTokens, toolsTokens } from '../shared/answers/index.js';
import { resolveConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { VirtualClock } from '../../src/testing/index.js';
import { createAdapter } from '../index.js';
import { adapterContext, adapterFor, failureOf } from '../test-support/adapter-harness.js';
import type { ProviderRequest, ProviderStreamEvent } from '../types.js';
import type { FakeAdapter } from './adapter.js';
import { fakeAnswer } from './answer.js';

const request = { model: 'sim-1', messages: [{ role: 'user' as const, content: 'What is a circuit breaker?' }] };
const signal = () => new AbortController().signal;

describe('fake adapter', () => {
  it('answers deterministically, with token counts computed from the prompt and the reply', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const one = await a.chat(request, { signal: signal() });
    const two = await a.chat(request, { signal: signal() });
    expect(one.text).toBe(two.text);
    expect(one.text).toBe(fakeAnswer(request.messages, 'sim-1'));
    expect(one.usage?.inputTokens).toBe(promptTokens(request.messages));
    expect(one.usage?.outputTokens).toBe(Math.ceil(one.text.length / 4));
    expect(one.finishReason).toBe('stop');
    const other = await a.chat({ ...request, model: 'sim-2' }, { signal: signal() });
    expect(other.text).not.toBe(one.text);
  });

  it('plays its script in order, then answers', async () => {
    const a = adapterFor('f', { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 300 }, { fail: 'quota_exhausted' }, { text: 'scripted' }] }) as FakeAdapter;
    expect(await failureOf(a, request)).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 300 });
    expect(await failureOf(a, request)).toMatchObject({ kind: 'quota_exhausted', status: 429, code: 'insufficient_quota' });
    expect((await a.chat(request, { signal: signal() })).text).toBe('scripted');
    expect((await a.chat(request, { signal: signal() })).text).toBe(fakeAnswer(request.messages, 'sim-1'));
    expect(a.requests).toHaveLength(4);
  });

  it('decides outcomes in code with respond(request, n)', async () => {
    const a = adapterFor('f', { type: 'fake', respond: (_req: unknown, n: number) => (n % 2 ? { fail: 'server' } : 'ok') });
    expect((await failureOf(a, request)).kind).toBe('server');
    expect((await a.chat(request, { signal: signal() })).text.length).toBeGreaterThan(0);
  });

  it('cuts the reply at maxTokens and says so', async () => {
    const res = await adapterFor('f', { type: 'fake' }).chat({ ...request, maxTokens: 3 }, { signal: signal() });
    expect(res.text).toBe(fakeAnswer(request.messages, request.model).slice(0, 12));
    expect(res.finishReason).toBe('length');
  });

  it('hangs until aborted', async () => {
    const a = adapterFor('f', { type: 'fake', script: ['hang'] }) as FakeAdapter;
    const controller = new AbortController();
    const pending = failureOf(a, request, controller.signal);
    // The request is in, hanging; only the abort ends it.
    expect(a.requests).toEqual([request]);
    controller.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(RouterError);
    expect(err.kind).toBe('aborted');
  });
});

describe('fake adapter streams', () => {
  async function events(a: ReturnType<typeof adapterFor>, req = request) {
    const out: Array<{ type: string; text?: string }> = [];
    try {
      for await (const ev of a.stream(req, { signal: signal() })) out.push(ev);
    } catch (err) {
      out.push({ type: 'error', text: (err as RouterError).kind + ':' + ((err as RouterError).code ?? '') });
    }
    return out;
  }

  it('streams the same deterministic answer a word at a time, then finish with usage', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const out = await events(a);
    const text = out.filter((e) => e.type === 'delta').map((e) => e.text).join('');
    expect(text).toBe(fakeAnswer(request.messages, 'sim-1'));
    expect(out[0]!.type).toBe('open');
    expect(out.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(out.filter((e) => e.type === 'delta').length).toBeGreaterThan(5);
  });

  it('cuts a stream after cutAfterChunks without a finish', async () => {
    const out = await events(adapterFor('f', { type: 'fake', script: [{ text: 'one two three', cutAfterChunks: 2 }] }));
    expect(out.map((e) => e.type)).toEqual(['open', 'delta', 'delta', 'error']);
    expect(out.at(-1)!.text).toBe('transport:stream_truncated');
  });

  it('fails mid-stream after afterChunks, or before any content without it', async () => {
    const mid = await events(adapterFor('f', { type: 'fake', script: [{ fail: 'server', afterChunks: 1 }] }));
    expect(mid.map((e) => e.type)).toEqual(['open', 'delta', 'error']);
    const before = await events(adapterFor('f', { type: 'fake', script: [{ fail: 'rate_limited' }] }));
    expect(before.map((e) => e.type)).toEqual(['error']);
  });
});

describe('fake adapter: wave 2', () => {
  const weather = {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 2 } }, required: ['city'] },
  };
  const time = { name: 'get_time', parameters: { type: 'object', properties: {} } };
  const toolRequest = (content: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
    model: 'sim-1', messages: [{ role: 'user', content }], tools: [weather, time], ...extra,
  });

  async function events(a: ReturnType<typeof adapterFor>, req: ProviderRequest) {
    const out: ProviderStreamEvent[] = [];
    let error: RouterError | undefined;
    try {
      for await (const ev of a.stream(req, { signal: signal() })) out.push(ev);
    } catch (err) {
      error = err as RouterError;
    }
    return { out, types: out.map((e) => e.type), error };
  }

  it('answers a request with tools with deterministic tool calls, finishReason tool_calls', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const res = await a.chat(toolRequest('Call get_weather and get_time'), { signal: signal() });
    expect(res.text).toBe('');
    expect(res.finishReason).toBe('tool_calls');
    expect(res.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/), name: 'get_weather', arguments: { city: 'example city', days: 2 } },
      { id: expect.stringMatching(/^call_/), name: 'get_time', arguments: {} },
    ]);
    expect((await a.chat(toolRequest('Call get_weather and get_time'), { signal: signal() })).toolCalls).toEqual(res.toolCalls);
  });

  it('follows the same tool-choice rule as the simulator: none, a named tool, one call without parallel calls', async () => {
    const a = adapterFor('f', { type: 'fake' });
    expect((await a.chat(toolRequest('get_weather', { toolChoice: 'none' }), { signal: signal() })).toolCalls).toEqual([]);
    expect((await a.chat(toolRequest('hello', { toolChoice: { name: 'get_time' } }), { signal: signal() })).toolCalls.map((c) => c.name)).toEqual(['get_time']);
    expect((await a.chat(toolRequest('get_weather get_time', { parallelToolCalls: false }), { signal: signal() })).toolCalls.map((c) => c.name)).toEqual(['get_weather']);
  });

  it('answers a tool result with text that quotes it', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const res = await a.chat({
      model: 'sim-1', tools: [weather],
      messages: [
        { role: 'user', content: 'get_weather' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        { role: 'tool', toolCallId: 'call_1', content: 'sunny' },
      ],
    }, { signal: signal() });
    expect(res).toMatchObject({ text: 'Tool get_weather returned: sunny.', toolCalls: [], finishReason: 'stop' });
  });

  it('answers JSON for responseFormat: a schema-shaped object, or {"answer": ...} for plain JSON', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const schema = { type: 'object', properties: { priority: { enum: ['low', 'high'] }, score: { type: 'number', maximum: 1 } }, required: ['priority'] };
    const typed = await a.chat({ ...request, responseFormat: { type: 'json_schema', name: 'triage', schema, strict: true } }, { signal: signal() });
    expect(JSON.parse(typed.text)).toEqual({ priority: 'low', score: 1 });
    const plain = await a.chat({ ...request, responseFormat: { type: 'json' } }, { signal: signal() });
    expect(JSON.parse(plain.text)).toEqual({ answer: fakeAnswer(request.messages, 'sim-1') });
  });

  it('scripts invalid JSON: a broken structured answer, and tool arguments that throw invalid_output with the raw text', async () => {
    const a = adapterFor('f', { type: 'fake', script: [{ invalidJson: true }, { invalidJson: true }] });
    const broken = await a.chat({ ...request, responseFormat: { type: 'json' } }, { signal: signal() });
    expect(() => JSON.parse(broken.text)).toThrow();
    const err = await failureOf(a, toolRequest('get_weather'));
    expect(err).toMatchObject({ kind: 'invalid_output', code: 'invalid_tool_arguments', raw: '{"city":"example city","days":2' });
  });

  it('scripts tool calls, with given or generated arguments and ids', async () => {
    const a = adapterFor('f', { type: 'fake', script: [{ text: 'Checking.', toolCalls: [{ name: 'get_weather', id: 'call_mine' }, { name: 'lookup', arguments: { q: 'x' } }] }] });
    const res = await a.chat(toolRequest('anything'), { signal: signal() });
    expect(res).toMatchObject({ text: 'Checking.', finishReason: 'tool_calls' });
    expect(res.toolCalls).toEqual([
      { id: 'call_mine', name: 'get_weather', arguments: { city: 'example city', days: 2 } },
      { id: expect.stringMatching(/^call_/), name: 'lookup', arguments: { q: 'x' } },
    ]);
  });

  it('reports scripted cache and reasoning usage, and reasoning tokens for a reasoning effort', async () => {
    const a = adapterFor('f', { type: 'fake', script: [{ usage: { cachedInputTokens: 10, cacheWriteTokens: 2, reasoningTokens: 7 } }] });
    const scripted = await a.chat(request, { signal: signal() });
    const text = fakeAnswer(request.messages, 'sim-1');
    expect(scripted.usage).toEqual({ inputTokens: promptTokens(request.messages), outputTokens: approxTokens(text) + 7, cachedInputTokens: 10, cacheWriteTokens: 2, reasoningTokens: 7 });
    const reasoned = await a.chat({ ...request, reasoning: { effort: 'low' } }, { signal: signal() });
    expect(reasoned.usage).toMatchObject({ reasoningTokens: 32, outputTokens: approxTokens(text) + 32 });
  });

  it('counts tool definitions in the prompt tokens', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const res = await a.chat(toolRequest('hello', { toolChoice: 'none' }), { signal: signal() });
    expect(res.usage?.inputTokens).toBe(promptTokens([{ role: 'user', content: 'hello' }]) + toolsTokens([weather, time]));
  });

  it('streams tool calls as start, argument fragments and end, one end per call, before finish', async () => {
    const a = adapterFor('f', { type: 'fake' });
    const req = toolRequest('Call get_weather and get_time');
    const { out, types, error } = await events(a, req);
    expect(error).toBeUndefined();
    const plain = await a.chat(req, { signal: signal() });
    const starts = out.filter((e) => e.type === 'tool_call_start');
    expect(starts).toEqual(plain.toolCalls.map((c, index) => ({ type: 'tool_call_start', index, id: c.id, name: c.name })));
    for (const [index, call] of plain.toolCalls.entries()) {
      const args = out.filter((e) => e.type === 'tool_call_delta' && e.index === index).map((e) => (e as { argumentsDelta: string }).argumentsDelta).join('');
      expect(JSON.parse(args)).toEqual(call.arguments);
    }
    expect(types.filter((t) => t === 'tool_call_end')).toHaveLength(2);
    expect(types.indexOf('tool_call_end')).toBeLessThan(types.lastIndexOf('tool_call_start'));
    expect(out.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
  });

  it('cuts a stream inside a tool call\'s arguments: no end for it, no finish, a truncated-stream error', async () => {
    // chunks: start of get_weather (1), then its argument fragments of 16 characters: cut after the first.
    const a = adapterFor('f', { type: 'fake', script: [{ cutAfterChunks: 2 }] });
    const { out, types, error } = await events(a, toolRequest('get_weather'));
    expect(types).toEqual(['open', 'tool_call_start', 'tool_call_delta']);
    expect((out[2] as { argumentsDelta: string }).argumentsDelta).toBe('{"city":"example');
    expect(error).toMatchObject({ kind: 'transport', code: 'stream_truncated' });
  });

  it('fails mid-tool-call after afterChunks', async () => {
    const a = adapterFor('f', { type: 'fake', script: [{ fail: 'server', afterChunks: 3 }] });
    const { types, error } = await events(a, toolRequest('get_weather'));
    expect(types).toEqual(['open', 'tool_call_start', 'tool_call_delta', 'tool_call_delta']);
    expect(error).toMatchObject({ kind: 'server', status: 503 });
  });

  it('emits thinking before content when reasoning is requested', async () => {
    const { types } = await events(adapterFor('f', { type: 'fake' }), { ...request, reasoning: { effort: 'high' } });
    expect(types.slice(0, 3)).toEqual(['open', 'thinking', 'delta']);
  });

  it('embeds: deterministic unit vectors per (model, text), dimensions honoured, usage counted, maxEmbeddingInputs in traits', async () => {
    const a = adapterFor('f', { type: 'fake' }) as FakeAdapter;
    expect(a.traits).toEqual({ tokenCounting: 'heuristic', maxEmbeddingInputs: 2048, timeoutCoversBody: true });
    const res = await a.embed({ model: 'emb-1', input: ['alpha', 'beta'] }, { signal: signal() });
    expect(res.embeddings).toHaveLength(2);
    expect(res.embeddings[0]).toHaveLength(1536);
    expect(res.embeddings[0]).toEqual(embeddingFor('emb-1', 'alpha'));
    expect(Math.hypot(...res.embeddings[1]!)).toBeCloseTo(1, 5);
    expect(res.usage.inputTokens).toBe(approxTokens('alpha') + approxTokens('beta'));
    expect((await a.embed({ model: 'emb-1', input: ['alpha'], dimensions: 8 }, { signal: signal() })).embeddings[0]).toHaveLength(8);
    expect(a.embedRequests).toHaveLength(2);
    expect(a.requests).toHaveLength(0);
  });

  it('plays its script across chat and embed, and refuses more inputs than it takes', async () => {
    const a = adapterFor('f', { type: 'fake', script: ['ok', { fail: 'rate_limited', retryAfterMs: 50 }] }) as FakeAdapter;
    await a.chat(request, { signal: signal() });
    await expect(a.embed({ model: 'e', input: ['x'] }, { signal: signal() })).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 50 });
    await expect(a.embed({ model: 'e', input: Array(2049).fill('x') }, { signal: signal() })).rejects.toMatchObject({ kind: 'bad_request', status: 400 });
  });

  it('times a request out on the injected clock, not on real timers', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const config = resolveConfig({ providers: { f: { type: 'fake', script: ['hang'] } }, chains: { default: ['f:m'] } });
    const a = createAdapter(adapterContext(config.providers.f!, clock));
    const pending = a.chat(request, { signal: signal(), timeoutMs: 5_000 }).catch((e) => e);
    await clock.advance(4_999);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1);
    expect(await pending).toMatchObject({ kind: 'timeout' });
    expect(clock.pendingTimers).toBe(0);
  });
});
