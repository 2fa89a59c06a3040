import { describe, expect, it } from 'vitest';
import { RouterError } from '../src/errors.js';
import { validateRequest } from '../src/request-schema.js';

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
    ['no messages', { messages: [] }], ['messages not an array', { messages: 'hi' }], ['an unknown role', { messages: [{ role: 'tool', content: 'x' }] }],
    ['a message with an extra key', { messages: [{ role: 'user', content: 'x', name: 'bob' }] }], ['non-string content', { messages: [{ role: 'user', content: 1 }] }],
    ['an unknown option', { ...ok, max_tokens: 5 }], ['a fractional maxTokens', { ...ok, maxTokens: 1.5 }], ['a zero maxTokens', { ...ok, maxTokens: 0 }],
    ['temperature above 2', { ...ok, temperature: 2.1 }], ['an empty tenant', { ...ok, tenant: '' }], ['a non-signal signal', { ...ok, signal: {} }],
    ['an infinite timeoutMs', { ...ok, timeoutMs: Infinity }], ['a negative timeoutMs', { ...ok, timeoutMs: -1 }], ['an unknown chain', { ...ok, chain: 'nope' }],
    ['null', null], ['a string', 'hello'],
  ])('refuses %s with invalid_request', (_what, request) => {
    expect(verdict(request)).toBe('invalid_request');
  });
});
