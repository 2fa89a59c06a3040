import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StreamEvent, StreamStart } from '../../src/calls/stream.js';
import { PassThrough, rawAnswerOf, restoredResult, storedResult, withPassThrough, passThroughOf, withRawAnswer } from '../../src/pass-through/seam.js';
import type { ChatRequest, ChatResult, EmbedRequest, EmbedResult } from '../../src/types.js';

const result = (): ChatResult => ({
  text: 'Hi', toolCalls: [], message: { role: 'assistant', content: 'Hi' }, provider: 'openai', model: 'gpt-4.1', finishReason: 'stop', attempts: [], latencyMs: 1,
});

describe('the pass-through seam: carried under symbols, never part of the public request or result', () => {
  it('reads what the decision needs of a body once, when the gateway builds it', () => {
    expect(new PassThrough('{}', { stream: true }, 'chat')).toMatchObject({ streamed: true, addsUsage: true });
    expect(new PassThrough('{}', { stream: true, stream_options: { include_usage: true } }, 'chat').addsUsage).toBe(false);
    // Only Chat Completions streams ask for usage: a Responses stream reports it in its terminal event.
    expect(new PassThrough('{}', { stream: true }, 'responses')).toMatchObject({ streamed: true, addsUsage: false });
  });

  it('rides on a request without a key of its own: JSON and Object.keys never see it', () => {
    const pass = new PassThrough('{"model":"fast"}', { model: 'fast' }, 'chat');
    const request = withPassThrough({ chain: 'fast', messages: [{ role: 'user' as const, content: 'Hi' }] }, pass);
    expect(passThroughOf(request)).toBe(pass);
    expect(Object.keys(request)).toEqual(['chain', 'messages']);
    expect(JSON.stringify(request)).toBe('{"chain":"fast","messages":[{"role":"user","content":"Hi"}]}');
    expect(passThroughOf({ messages: [] })).toBeUndefined();
  });

  it('keeps a raw answer\'s body and API across storing (the response cache, idempotent replays), not the parsed object', () => {
    const answered = withRawAnswer(result(), { raw: '{"object":"response"}', rawApi: 'responses', rawParsed: { object: 'response' } });
    expect(Object.keys(answered)).not.toContain('raw');
    const back = restoredResult(storedResult(answered));
    expect(rawAnswerOf(back)).toEqual({ raw: '{"object":"response"}', rawApi: 'responses' });
    expect(Object.keys(back)).toEqual(Object.keys(result()));
    expect(JSON.parse(JSON.stringify(back))).toEqual(result());
  });

  it('stores a result without a raw answer as plain JSON', () => {
    expect(storedResult(result())).toBe(JSON.stringify(result()));
    expect(rawAnswerOf(restoredResult(JSON.stringify(result())))).toBeUndefined();
  });

  it('shows a router caller\'s types no wire-bytes field (checked by npm run typecheck)', () => {
    expectTypeOf<ChatRequest>().not.toHaveProperty('passThrough');
    expectTypeOf<EmbedRequest>().not.toHaveProperty('passThrough');
    expectTypeOf<ChatResult>().not.toHaveProperty('raw');
    expectTypeOf<EmbedResult>().not.toHaveProperty('raw');
    expectTypeOf<StreamStart>().not.toHaveProperty('passThrough');
    expectTypeOf<Extract<StreamEvent, { type: 'raw' }>>().toBeNever();
  });
});
