import { describe, expect, it } from 'vitest';
import { embedPassThroughBlocker, passThroughAddsUsage, passThroughBlocker, passThroughBytes, passThroughMismatch } from '../../src/decide/pass-through.js';

const openai = { dialect: 'openai' as const, reasoning: false };
const compatible = { dialect: 'openai-compatible' as const, reasoning: false };
const reasoning = { dialect: 'openai' as const, reasoning: true };
const plain = { model: 'fast', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] };
const none = { extraBody: false };

describe('passThroughBlocker: which Chat Completions bodies go to a target as they are', () => {
  it('passes a plain text body to openai and to an openai-compatible server', () => {
    expect(passThroughBlocker(plain, openai, none)).toBeUndefined();
    expect(passThroughBlocker(plain, compatible, none)).toBeUndefined();
  });

  it('refuses a target whose adapter does not take raw bodies (Anthropic, Azure, a preset, the Responses API)', () => {
    expect(passThroughBlocker(plain, undefined, none)).toMatch(/does not take/);
  });

  it('refuses a field the router maps (tools, response_format, n, anything it does not know)', () => {
    expect(passThroughBlocker({ ...plain, tools: [] }, openai, none)).toBe('tools is mapped by the router');
    expect(passThroughBlocker({ ...plain, response_format: { type: 'json_object' } }, openai, none)).toBe('response_format is mapped by the router');
    expect(passThroughBlocker({ ...plain, logit_bias: {} }, openai, none)).toBe('logit_bias is mapped by the router');
  });

  it('passes a stream whether or not it asks for usage, and refuses stream_options without a stream', () => {
    expect(passThroughBlocker({ ...plain, stream: true }, openai, none)).toBeUndefined();
    expect(passThroughBlocker({ ...plain, stream: true, stream_options: { include_usage: true } }, openai, none)).toBeUndefined();
    expect(passThroughBlocker({ ...plain, stream_options: { include_usage: true } }, openai, none)).toMatch(/without stream/);
    expect(passThroughBlocker({ ...plain, stream: true, stream_options: null }, openai, none)).toMatch(/not an object/);
  });

  it('refuses content parts, tool and developer messages, and messages with more than role and content', () => {
    expect(passThroughBlocker({ ...plain, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }, openai, none)).toMatch(/content parts/);
    expect(passThroughBlocker({ ...plain, messages: [{ role: 'tool', content: '1', tool_call_id: 'c' }] }, openai, none)).toMatch(/tool message/);
    expect(passThroughBlocker({ ...plain, messages: [{ role: 'developer', content: 'x' }] }, compatible, none)).toMatch(/developer message/);
    expect(passThroughBlocker({ ...plain, messages: [{ role: 'user', content: 'Hi', name: 'ann' }] }, openai, none)).toBe('a message with name');
    expect(passThroughBlocker({ ...plain, messages: 'Hi' }, openai, none)).toMatch(/not an array/);
  });

  it('refuses when providerOptions add to the body', () => {
    expect(passThroughBlocker(plain, openai, { extraBody: true })).toMatch(/providerOptions/);
  });

  it('refuses when the chain step supplies maxTokens or temperature the body does not carry', () => {
    expect(passThroughBlocker(plain, openai, { extraBody: false, maxTokens: 256 })).toMatch(/maxTokens/);
    expect(passThroughBlocker(plain, openai, { extraBody: false, temperature: 0.2 })).toMatch(/temperature/);
    expect(passThroughBlocker({ ...plain, max_tokens: 256, temperature: 0.2 }, openai, { extraBody: false, maxTokens: 256, temperature: 0.2 })).toBeUndefined();
  });

  it('refuses max_completion_tokens for an openai-compatible server, which takes max_tokens', () => {
    expect(passThroughBlocker({ ...plain, max_completion_tokens: 9 }, compatible, { extraBody: false, maxTokens: 9 })).toMatch(/max_tokens/);
    expect(passThroughBlocker({ ...plain, max_tokens: 9 }, compatible, { extraBody: false, maxTokens: 9 })).toBeUndefined();
  });

  it('refuses for a reasoning model max_tokens and the sampling fields it rejects', () => {
    expect(passThroughBlocker({ ...plain, max_tokens: 9 }, reasoning, { extraBody: false, maxTokens: 9 })).toMatch(/max_completion_tokens/);
    expect(passThroughBlocker({ ...plain, top_p: 0.5 }, reasoning, none)).toMatch(/refuses/);
    expect(passThroughBlocker({ ...plain, max_completion_tokens: 9 }, reasoning, { extraBody: false, maxTokens: 9 })).toBeUndefined();
  });
});

describe('passThroughBytes: the client\'s bytes with the target\'s model', () => {
  it('rewrites the one top-level model in place and keeps every other byte', () => {
    const text = '{ "model" : "fast",\n  "messages":[{"role":"user","content":"Hi"}], "temperature": 0.50 }';
    expect(passThroughBytes(text, JSON.parse(text), 'fast', 'gpt-4o-mini')).toBe('{ "model":"gpt-4o-mini",\n  "messages":[{"role":"user","content":"Hi"}], "temperature": 0.50 }');
  });

  it('serialises again when the chain name appears as a model value more than once', () => {
    const text = '{"model":"fast","messages":[{"role":"user","content":"{\\"model\\":\\"fast\\"}"}]}';
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(JSON.parse(passThroughBytes(text, body, 'fast', 'gpt-4o-mini'))).toEqual({ ...body, model: 'gpt-4o-mini' });
  });

  it('handles a chain name with regular-expression characters and a model with `$`', () => {
    const text = '{"model":"a.b+c","messages":[]}';
    expect(passThroughBytes(text, JSON.parse(text), 'a.b+c', 'm$&1')).toBe('{"model":"m$&1","messages":[]}');
  });
});

describe('passThroughBytes on a stream: usage asked for when the client did not ask', () => {
  it('inserts stream_options.include_usage first in a body without stream_options, every other byte kept', () => {
    const text = ' {"model":"fast","messages":[],"stream":true}';
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(passThroughAddsUsage(body)).toBe(true);
    expect(passThroughBytes(text, body, 'fast', 'gpt-4o-mini')).toBe(' {"stream_options":{"include_usage":true},"model":"gpt-4o-mini","messages":[],"stream":true}');
  });

  it('merges include_usage into stream_options the client sent without it', () => {
    const body = { model: 'fast', messages: [], stream: true, stream_options: { include_obfuscation: false } };
    expect(JSON.parse(passThroughBytes(JSON.stringify(body), body, 'fast', 'm'))).toEqual({ ...body, model: 'm', stream_options: { include_obfuscation: false, include_usage: true } });
    const off = { ...body, stream_options: { include_usage: false } };
    expect(JSON.parse(passThroughBytes(JSON.stringify(off), off, 'fast', 'm')).stream_options).toEqual({ include_usage: true });
  });

  it('leaves a stream that asks for usage, and a plain body, as they came', () => {
    const asked = { model: 'fast', messages: [], stream: true, stream_options: { include_usage: true } };
    expect(passThroughAddsUsage(asked)).toBe(false);
    expect(passThroughBytes(JSON.stringify(asked), asked, 'fast', 'm')).toBe(JSON.stringify({ ...asked, model: 'm' }));
    expect(passThroughAddsUsage({ model: 'fast', messages: [] })).toBe(false);
  });

  it('adds usage when it must serialise again too (the chain name twice)', () => {
    const text = '{"model":"fast","stream":true,"messages":[{"role":"user","content":"{\\"model\\":\\"fast\\"}"}]}';
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(JSON.parse(passThroughBytes(text, body, 'fast', 'm'))).toEqual({ ...body, model: 'm', stream_options: { include_usage: true } });
  });
});

describe('passThroughMismatch: a body\'s bytes go as they are, so its stream flag must match the call', () => {
  it.each([
    ['chat', { stream: true }, /router\.stream/],
    ['stream', {}, /must ask for a stream/],
    ['stream', { stream: false }, /must ask for a stream/],
  ] as const)('refuses %s with %j', (operation, body, message) => {
    expect(passThroughMismatch(body, operation)).toMatch(message);
  });

  it('accepts a plain body on chat and a streamed one on stream', () => {
    expect(passThroughMismatch({}, 'chat')).toBeUndefined();
    expect(passThroughMismatch({ stream: true }, 'stream')).toBeUndefined();
  });
});

describe('embedPassThroughBlocker: which embeddings bodies go to a target as they are', () => {
  const raw = { rawEmbeddings: true };
  it('passes text input in one request with the fields the router knows', () => {
    expect(embedPassThroughBlocker({ model: 'e', input: ['a', 'b'], encoding_format: 'base64', dimensions: 8, user: 'u' }, raw, true, 8)).toBeUndefined();
    expect(embedPassThroughBlocker({ model: 'e', input: 'a' }, raw, true)).toBeUndefined();
  });

  it.each([
    [{ model: 'e', input: 'a' }, {}, true, undefined, /does not take/],
    [{ model: 'e', input: 'a' }, raw, false, undefined, /more than one request/],
    [{ model: 'e', input: 'a', extra: 1 }, raw, true, undefined, /extra is not/],
    [{ model: 'e', input: [1, 2] }, raw, true, undefined, /not text/],
    [{ model: 'e', input: 'a', encoding_format: 'int8' }, raw, true, undefined, /neither float nor base64/],
    [{ model: 'e', input: 'a', dimensions: 8 }, raw, true, 16, /dimensions/],
  ] as const)('refuses %j', (body, target, one, dimensions, message) => {
    expect(embedPassThroughBlocker(body as Record<string, unknown>, target, one, dimensions)).toMatch(message);
  });
});
