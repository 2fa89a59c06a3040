import { describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import { adapterFor, failureOf } from '../test-support/adapter-harness.js';
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
    expect(one.usage.inputTokens).toBeGreaterThan(5);
    expect(one.usage.outputTokens).toBe(Math.ceil(one.text.length / 4));
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
    expect(res.text.length).toBeLessThanOrEqual(12);
    expect(res.finishReason).toBe('length');
  });

  it('hangs until aborted', async () => {
    const a = adapterFor('f', { type: 'fake', script: ['hang'] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const err = await failureOf(a, request, controller.signal);
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
