import { describe, expect, it } from 'vitest';
import { sentResponsesSchema } from '../../providers/openai/responses/body.js';
import type { RawTarget } from '../../providers/types.js';
import { passThroughSend } from '../../src/decide/pass-through-send.js';
import { PassThrough } from '../../src/pass-through/seam.js';

// The one "may this go raw?" decision per target, rule by rule (each API's own blocker is tested
// field by field in pass-through.test.ts and responses-pass-through.test.ts).

const chatTarget: RawTarget = { api: 'chat', dialect: 'openai', reasoning: false };
const responsesTarget: RawTarget = { api: 'responses', reasoning: false, sentSchema: sentResponsesSchema };
const chatBody = { model: 'fast', messages: [{ role: 'user', content: 'Hi' }] };
const responsesBody = { model: 'fast', input: 'Hi' };
const pass = (body: Record<string, unknown>, api: 'chat' | 'responses') => new PassThrough(JSON.stringify(body), body, api);
const none = {};

describe('passThroughSend: the bytes a target is sent, or undefined for the translated request', () => {
  it('sends a target that takes nothing as it is the translated request', () => {
    expect(passThroughSend(pass(chatBody, 'chat'), undefined, none, 'fast', 'gpt-4o-mini')).toBeUndefined();
  });

  it('sends a body only to a target of its own API', () => {
    expect(passThroughSend(pass(chatBody, 'chat'), responsesTarget, none, 'fast', 'gpt-4o-mini')).toBeUndefined();
    expect(passThroughSend(pass(responsesBody, 'responses'), chatTarget, none, 'fast', 'gpt-4o-mini')).toBeUndefined();
  });

  it('sends a Chat Completions body its blocker lets go with only model rewritten', () => {
    expect(passThroughSend(pass(chatBody, 'chat'), chatTarget, none, 'fast', 'gpt-4o-mini')).toBe('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}]}');
  });

  it('asks a Chat Completions stream for usage by what the call read once (PassThrough.addsUsage), not by reading the body again', () => {
    const streamed = { ...chatBody, stream: true };
    const once = pass(streamed, 'chat');
    expect(once.addsUsage).toBe(true);
    expect(passThroughSend(once, chatTarget, none, 'fast', 'm')).toBe('{"stream_options":{"include_usage":true},"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true}');
    const told = { text: once.text, body: once.body, api: 'chat' as const, addsUsage: false };
    expect(passThroughSend(told, chatTarget, none, 'fast', 'm')).toBe('{"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true}');
  });

  it('sends a Responses body its blocker lets go with only model rewritten', () => {
    expect(passThroughSend(pass(responsesBody, 'responses'), responsesTarget, none, 'fast', 'gpt-4.1')).toBe('{"model":"gpt-4.1","input":"Hi"}');
  });

  it('translates a body either blocker refuses', () => {
    expect(passThroughSend(pass({ ...chatBody, tools: [] }, 'chat'), chatTarget, none, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass({ ...responsesBody, previous_response_id: 'resp_1' }, 'responses'), responsesTarget, none, 'fast', 'm')).toBeUndefined();
  });

  it('translates when providerOptions add to the body: any for Chat Completions, other values for the Responses API', () => {
    expect(passThroughSend(pass(chatBody, 'chat'), chatTarget, { extraBody: { user: 'u' } }, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass(chatBody, 'chat'), chatTarget, { extraBody: true }, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass(responsesBody, 'responses'), responsesTarget, { extraBody: true }, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass({ ...responsesBody, store: false }, 'responses'), responsesTarget, { extraBody: { store: false } }, 'fast', 'm')).toBe('{"model":"m","input":"Hi","store":false}');
    expect(passThroughSend(pass(responsesBody, 'responses'), responsesTarget, { extraBody: { store: false } }, 'fast', 'm')).toBeUndefined();
  });

  it('translates when the chain step sets maxTokens or temperature the body does not say', () => {
    expect(passThroughSend(pass(chatBody, 'chat'), chatTarget, { maxTokens: 64 }, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass(responsesBody, 'responses'), responsesTarget, { temperature: 0.2 }, 'fast', 'm')).toBeUndefined();
  });

  it('sends an Anthropic Messages body only to a Messages target, with only model rewritten, and translates one its blocker refuses', () => {
    const messagesTarget: RawTarget = { api: 'messages', thinking: 'adaptive', structuredOutput: true, sentSchema: (schema) => schema };
    const body = { model: 'fast', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] };
    const text = '{"model": "fast", "max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}';
    const messages = new PassThrough(text, body, 'messages');
    expect(messages.addsUsage).toBe(false);
    expect(passThroughSend(messages, messagesTarget, { maxTokens: 64 }, 'fast', 'claude-sonnet-4-6')).toBe('{"model":"claude-sonnet-4-6", "max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}');
    expect(passThroughSend(messages, chatTarget, { maxTokens: 64 }, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(pass(chatBody, 'chat'), messagesTarget, none, 'fast', 'm')).toBeUndefined();
    expect(passThroughSend(new PassThrough(text, { ...body, temperature: 0.5 }, 'messages'), messagesTarget, { maxTokens: 64 }, 'fast', 'm')).toBeUndefined();
  });
});
