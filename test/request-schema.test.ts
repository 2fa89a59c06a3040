import { describe, expect, it } from 'vitest';
import { RouterError } from '../src/errors.js';
import { validateEmbedRequest, validateRequest } from '../src/calls/request-schema.js';

const chains = { default: [], other: [] };
const ok = { messages: [{ role: 'user', content: 'hi' }] };
const verdict = (request: unknown) => {
  try {
    validateRequest(request, chains);
    return 'ok';
  } catch (err) {
    return (err as RouterError).kind;
  }
};

describe('validateRequest', () => {
  it.each<[string, unknown]>([
    ['the minimal call', ok],
    ['every option', { ...ok, chain: 'other', maxTokens: 10, temperature: 0, tenant: 't', idempotencyKey: 'k', signal: new AbortController().signal, timeoutMs: 5, firstTokenTimeoutMs: 1.5 }],
    ['options present but undefined', { ...ok, maxTokens: undefined, tenant: undefined }],
    ['every role', { messages: [{ role: 'system', content: '' }, { role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }],
  ])('accepts %s', (_what, request) => {
    expect(verdict(request)).toBe('ok');
  });

  it.each<[string, unknown]>([
    ['no messages', { messages: [] }], ['messages not an array', { messages: 'hi' }], ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }], ['a tool result without its call id', { messages: [{ role: 'tool', content: 'x' }] }],
    ['a message with an extra key', { messages: [{ role: 'user', content: 'x', name: 'bob' }] }], ['non-string content', { messages: [{ role: 'user', content: 1 }] }],
    ['an unknown option', { ...ok, max_tokens: 5 }], ['a fractional maxTokens', { ...ok, maxTokens: 1.5 }], ['a zero maxTokens', { ...ok, maxTokens: 0 }],
    ['temperature above 2', { ...ok, temperature: 2.1 }], ['an empty tenant', { ...ok, tenant: '' }], ['a non-signal signal', { ...ok, signal: {} }],
    ['an infinite timeoutMs', { ...ok, timeoutMs: Infinity }], ['a negative timeoutMs', { ...ok, timeoutMs: -1 }], ['an unknown chain', { ...ok, chain: 'nope' }],
    ['null', null], ['a string', 'hello'],
  ])('refuses %s with invalid_request', (_what, request) => {
    expect(verdict(request)).toBe('invalid_request');
  });
});

describe('validateRequest, the wave-2 request surface', () => {
  const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
  const call = { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } };
  it.each<[string, unknown]>([
    ['tools with every tool choice', { ...ok, tools: [weather], toolChoice: 'required', parallelToolCalls: false }],
    ['a named tool choice', { ...ok, tools: [weather], toolChoice: { name: 'get_weather' } }],
    ['a tool loop: assistant tool calls, then their results', {
      tools: [weather],
      messages: [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: null, toolCalls: [call] }, { role: 'tool', toolCallId: 'call_1', content: '22 C' }],
    }],
    ['content parts: text, an https image, a data image, a PDF', {
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'look' }, { type: 'image', url: 'https://example.com/a.png', detail: 'low' },
        { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }, { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'a.pdf' },
      ] }],
    }],
    ['a developer message', { messages: [{ role: 'developer', content: 'be brief' }, { role: 'user', content: 'x' }] }],
    ['JSON output, with and without a schema', { ...ok, responseFormat: { type: 'json_schema', schema: { type: 'object' }, name: 'answer', strict: false } }],
    ['every common parameter', { ...ok, stop: ['\n\n'], topP: 0.9, seed: 7, user: 'u-1', reasoning: { effort: 'low' }, providerOptions: { openai: { service_tier: 'flex' } }, cache: false }],
  ])('accepts %s', (_what, request) => {
    expect(verdict(request)).toBe('ok');
  });

  const explain = (request: unknown) => {
    try {
      validateRequest(request, chains);
      return 'ok';
    } catch (err) {
      return (err as RouterError).message;
    }
  };
  it.each<[string, unknown, RegExp]>([
    ['a tool result answering no earlier call', { messages: [{ role: 'user', content: 'x' }, { role: 'tool', toolCallId: 'call_9', content: 'r' }] }, /messages\[1\]\.toolCallId: "call_9" answers no tool call/],
    ['a named tool choice naming no declared tool', { ...ok, tools: [weather], toolChoice: { name: 'get_time' } }, /toolChoice\.name: no tool named "get_time"/],
    ['a tool choice without tools', { ...ok, toolChoice: 'required' }, /toolChoice: "required" needs tools/],
    ['a tool declared twice', { ...ok, tools: [weather, weather] }, /tools\[1\]\.name: "get_weather" is declared twice/],
    ['a tool name with spaces', { ...ok, tools: [{ ...weather, name: 'get weather' }] }, /tools\[0\]\.name/],
    ['an image that is not a URL', { messages: [{ role: 'user', content: [{ type: 'image', url: 'file:///etc/passwd' }] }] }, /messages\[0\]\.content/],
    ['a file given as a data URL', { messages: [{ role: 'user', content: [{ type: 'file', data: 'data:application/pdf;base64,JVBE', mediaType: 'application/pdf' }] }] }, /data/],
    ['an empty content array', { messages: [{ role: 'user', content: [] }] }, /messages\[0\]\.content/],
    ['five stop sequences', { ...ok, stop: ['a', 'b', 'c', 'd', 'e'] }, /stop/],
    ['topP above 1', { ...ok, topP: 1.5 }, /topP/],
    ['an unknown reasoning effort', { ...ok, reasoning: { effort: 'extreme' } }, /reasoning\.effort/],
    ['maxTokens beyond any model', { ...ok, maxTokens: 1e12 }, /maxTokens/],
    ['an assistant message with neither text nor tool calls', { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null }] }, /messages\[1\]\.content: null needs toolCalls/],
  ])('refuses %s, naming the field', (_what, request, message) => {
    expect(explain(request)).toMatch(message);
    expect(verdict(request)).toBe('invalid_request');
  });
});

describe('the parameter a refusal names (RouterError.param)', () => {
  const weather = { name: 'get_weather', parameters: { type: 'object' } };
  const paramOf = (check: () => unknown) => {
    try {
      check();
    } catch (err) {
      return { kind: (err as RouterError).kind, param: (err as RouterError).param };
    }
    throw new Error('expected a refusal');
  };
  it.each<[string, unknown, string]>([
    ['a zero maxTokens', { ...ok, maxTokens: 0 }, 'maxTokens'],
    ['a message with an unknown role', { messages: [{ role: 'user', content: 'x' }, { role: 'robot', content: 'x' }] }, 'messages[1].role'],
    ['an unknown option (named by its own path)', { ...ok, max_tokens: 5 }, 'max_tokens'],
    ['an unknown key of a message', { messages: [{ role: 'user', content: 'x', name: 'bob' }] }, 'messages[0].name'],
    ['a tool name with spaces', { ...ok, tools: [{ ...weather, name: 'get weather' }] }, 'tools[0].name'],
    ['a tool choice without tools', { ...ok, toolChoice: 'required' }, 'toolChoice'],
    ['a tool result answering no earlier call', { messages: [{ role: 'user', content: 'x' }, { role: 'tool', toolCallId: 'c', content: 'r' }] }, 'messages[1].toolCallId'],
    ['an unknown chain', { ...ok, chain: 'nope' }, 'chain'],
  ])('names %s', (_what, request, param) => {
    expect(paramOf(() => validateRequest(request, chains))).toEqual({ kind: 'invalid_request', param });
  });

  it('names the first of several problems, and none for input that is not an object', () => {
    expect(paramOf(() => validateRequest({ ...ok, temperature: 9, topP: 9 }, chains)).param).toBe('temperature');
    expect(paramOf(() => validateRequest('hello', chains)).param).toBeUndefined();
  });

  it('names the parameter of an embed refusal', () => {
    expect(paramOf(() => validateEmbedRequest({ input: 'x', dimensions: 0 }, { embeddings: [] }))).toEqual({ kind: 'invalid_request', param: 'dimensions' });
  });
});

describe('RouterError param', () => {
  it('carries param as a fact: kept by with(), shown by toJSON()', () => {
    const err = new RouterError('invalid_request', 'invalid request', { param: 'maxTokens' });
    expect(err.param).toBe('maxTokens');
    expect(err.with({ provider: 'p' }).param).toBe('maxTokens');
    expect(err.with({ param: 'topP' }).param).toBe('topP');
    expect(err.toJSON()).toMatchObject({ kind: 'invalid_request', param: 'maxTokens' });
    expect(new RouterError('server', 'x').toJSON().param).toBeUndefined();
  });
});

