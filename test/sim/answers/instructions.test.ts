import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fakeAnswer, planAnswer } from '../../../providers/shared/answers/index.js';
import { extractEntities } from '../../../providers/shared/answers/entities.js';
import { listedOptions } from '../../../providers/shared/answers/instructed-text.js';
import { pickOption } from '../../../providers/shared/answers/pick-option.js';
import { promptContext } from '../../../providers/shared/answers/prompt-context.js';
import { asksForJson, promptSchema, requestedFields } from '../../../providers/shared/answers/prompt-json.js';
import type { Message } from '../../../src/types.js';

const user = (content: string, system?: string): Message[] => [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content }];
const text = (content: string, system?: string) => planAnswer({ model: 'm', messages: user(content, system) }).text;
const json = (content: string, system?: string) => JSON.parse(text(content, system)) as unknown;

describe('answers that follow the prompt', () => {
  it.each([
    ['Say "pong"', 'pong'],
    ["Reply with exactly 'all systems go' and nothing else.", 'all systems go'],
    ['Respond with the word acknowledged.', 'acknowledged'],
    ['Repeat after me: the quick brown fox', 'the quick brown fox'],
  ])('says back the words asked for: %s', (prompt, answer) => {
    expect(text(prompt)).toBe(answer);
  });

  it.each([
    ['What is the capital of Australia? Answer with the city name only.', 'Canberra'],
    ['Capital of Japan? City only.', 'Tokyo'],
    ['What is the capital of New Zealand?', 'The capital of New Zealand is Wellington.'],
    ["What is France's capital? One word.", 'Paris'],
    ['What is 12 * 7?', '84'],
    ['17 plus 25', '42'],
  ])('answers a capital or a sum: %s', (prompt, answer) => {
    expect(text(prompt)).toBe(answer);
  });

  it('knows only the facts it has: an unknown country gets the plain answer', () => {
    expect(text('What is the capital of Atlantis?')).toBe(fakeAnswer(user('What is the capital of Atlantis?'), 'm'));
    expect(text('What is the capital of Atlantis?')).toContain('You asked (m)');
  });

  it.each([
    ["Classify the sentiment of this review as positive, negative or neutral, in one word: 'The replacement arrived broken again.'", 'negative'],
    ["Classify the sentiment as positive, negative or neutral: 'Great service, thank you, I love it.'", 'positive'],
    ['Which team handles a double charge on a credit card? Answer with one word: billing, shipping or platform.', 'billing'],
    ['Which team handles a parcel lost by the courier? Answer with one word: billing, shipping or platform.', 'shipping'],
    ['Is this a bug report or a feature request: "the export button crashes the app"? Answer bug/feature.', 'bug'],
    ['Which colour do you prefer: red, green or blue?', 'red'],
  ])('picks one of the listed options by what the prompt says, else the first: %s', (prompt, answer) => {
    expect(text(prompt)).toBe(answer);
  });

  it('reads option lists and what points to one of them', () => {
    expect(listedOptions('Classify it as positive, negative or neutral.')).toEqual(['positive', 'negative', 'neutral']);
    expect(listedOptions('Answer (yes/no): is it on?')).toEqual(['yes', 'no']);
    expect(listedOptions('Write a poem about cats or dogs')).toBeUndefined();
    expect(pickOption(['low', 'medium', 'high'], 'Checkout is down for everyone')).toBe('high');
    expect(pickOption(['low', 'medium', 'high'], 'a typo on the about page')).toBe('low');
    expect(pickOption(['Team', 'Enterprise'], 'John wants the Enterprise plan')).toBe('Enterprise');
    expect(pickOption(['a', 'b'], 'nothing points anywhere')).toBeUndefined();
  });

  it('summarises what the prompt quotes in one sentence, leaving out contact details', () => {
    expect(text("Summarise this ticket in one sentence without repeating the customer's email address: 'jane@example.com cannot log in since the password reset.'"))
      .toBe('The customer cannot log in since the password reset.');
    expect(text('Summarize: "The invoice for March was sent twice. Please cancel one of them."')).toBe('The invoice for March was sent twice.');
  });

  it('apologises for what the prompt names, and writes numbered steps for a how-to', () => {
    expect(text('Write one sentence to apologise for the late delivery of order 1043.')).toBe('We are sorry for the late delivery of order 1043.');
    expect(text('Explain in three steps how a customer resets a forgotten password.'))
      .toBe('1. Open the account settings.\n2. Reset a forgotten password.\n3. Sign in again to check that it worked.');
    expect(text('List 4 steps to bake bread.').split('\n')).toEqual(['1. Open the page or app where this is done.', '2. Bake bread.', '3. Follow the instructions on the screen.', '4. Check that it worked.']);
  });

  it('keeps the limits the prompt sets on any answer: words, sentences, characters, case', () => {
    expect(text('Describe the weather in one word.').split(/\s+/)).toHaveLength(1);
    expect(text('Say hello in five words.').split(/\s+/).length).toBeLessThanOrEqual(5);
    expect(text('Tell me about routers in one sentence.')).toMatch(/^[^.!?]*[.!?]$/);
    expect(text('Describe a circuit breaker in under 30 characters.').length).toBeLessThanOrEqual(30);
    expect(text('What is the capital of Italy? Answer in uppercase.')).toBe('THE CAPITAL OF ITALY IS ROME.');
  });

  it('answers a prompt it has no rule for with the plain deterministic answer, as before', () => {
    const messages = user('What is a circuit breaker?');
    expect(text('What is a circuit breaker?')).toBe(fakeAnswer(messages, 'm'));
    expect(fakeAnswer(messages, 'm')).toMatch(/^\S.* You asked \(m\): "What is a circuit breaker\?"\. /);
  });
});

describe('JSON a prompt asks for', () => {
  it('tells a request for JSON from a mention of it', () => {
    expect(asksForJson(promptContext(user('x', 'Answer with JSON only.')))).toBe(true);
    expect(asksForJson(promptContext(user('Reply in JSON, please.')))).toBe(true);
    expect(asksForJson(promptContext(user('You MUST answer with a JSON object that matches the JSON schema above.')))).toBe(true);
    expect(asksForJson(promptContext(user('Is {"a": 1} valid JSON?')))).toBe(false);
    expect(asksForJson(promptContext(user('Explain this, but do not answer in JSON.')))).toBe(false);
  });

  it('answers the fields the prompt names, typed by their hints, with values from the prompt', () => {
    expect(json('Refund order A-1043 for 25.50 EUR. Give orderId, amount (a number) and currency.', 'You extract data. Answer with JSON only.'))
      .toEqual({ orderId: 'A-1043', amount: 25.5, currency: 'EUR' });
    expect(json('Triage this ticket: "Checkout fails with a 500 for every customer since 09:12."', 'You triage support tickets. Answer with JSON: priority (low, medium or high), team, summary.'))
      .toEqual({ priority: 'high', team: 'platform', summary: 'Checkout fails with a 500 for every customer since 09:12.' });
    expect(json('Return a JSON object with the keys name, email and isVip for: Ada Lovelace <ada@example.org> is a VIP.'))
      .toEqual({ name: 'Ada Lovelace', email: 'ada@example.org', isVip: true });
    expect(requestedFields(promptContext(user('Answer in JSON with fields: city, days (an integer)')))).toEqual({
      type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false,
    });
  });

  it('answers an instance of a schema the prompt writes out (as the AI SDK and LangChain do), or of an example object', () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, year: { type: 'integer', minimum: 1900 }, genre: { enum: ['drama', 'comedy'] } }, required: ['title', 'year', 'genre'], additionalProperties: false };
    const value = json('Name a comedy from 1999.', `JSON schema:\n${JSON.stringify(schema)}\nYou MUST answer with a JSON object that matches the JSON schema above.`);
    expect(z.fromJSONSchema(schema as never).safeParse(value).success).toBe(true);
    expect(value).toMatchObject({ genre: 'comedy', year: 1999 });
    expect(promptSchema(promptContext(user('Reply in JSON like {"name": "Bob", "tags": ["a", "b"], "age": 30}')))).toEqual({
      type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, minItems: 2 }, age: { type: 'integer' } }, required: ['name', 'tags', 'age'],
    });
  });

  it('follows an example object in the prompt 8 levels deep, not 2,000 (the prompt is anyone\'s text)', () => {
    const deep = `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`;
    let schema = promptSchema(promptContext(user(`Reply in JSON like ${deep}`))) as Record<string, any>;
    let levels = 0;
    for (; schema?.type === 'object'; schema = schema.properties.a) levels++;
    expect([levels, schema]).toEqual([8, {}]);
  });

  it('answers the entities a prompt mentions when it names no fields, else {"answer": ...}', () => {
    expect(json('Refund order A-1043 for 25.50 EUR.', 'Answer with JSON only.')).toEqual({ orderId: 'A-1043', amount: 25.5, currency: 'EUR' });
    expect(json('Hello there', 'Reply in JSON.')).toEqual({ answer: fakeAnswer(user('Hello there', 'Reply in JSON.'), 'm') });
  });

  it('finds identifiers, money, emails, places, names and numbers by their shape', () => {
    expect(extractEntities('Refund order A-1043 and ticket #88 (ticket 2210) for €12,50; jane@x.io in New York, Ada Lovelace, 3 seats on 2026-05-01 at 09:30')).toEqual({
      ids: [{ noun: 'order', value: 'A-1043' }, { noun: 'ticket', value: '88' }, { noun: 'ticket', value: '2210' }],
      amounts: [{ value: 12.5, currency: 'EUR' }], numbers: [3], emails: ['jane@x.io'], places: ['New York'],
      names: ['New York', 'Ada Lovelace'], dates: ['2026-05-01'],
    });
  });
});

describe('values drawn from the prompt', () => {
  it('fills tool arguments from what the prompt names, within the schema', () => {
    const tools = [{ name: 'find_order', parameters: { type: 'object', properties: { orderId: { type: 'string' }, quantity: { type: 'integer', maximum: 5 } }, required: ['orderId'] } }];
    expect(planAnswer({ model: 'm', messages: user('Where is order A-1043? I ordered 3.'), tools }).toolCalls[0]!.arguments).toEqual({ orderId: 'A-1043', quantity: 3 });
    // A value that breaks the schema (above its maximum) is not used: the schema's own value is.
    expect(planAnswer({ model: 'm', messages: user('Where is order A-1043? I ordered 12.'), tools }).toolCalls[0]!.arguments).toEqual({ orderId: 'A-1043', quantity: 1 });
  });

  it('is deterministic per request: the same request, the same JSON; another prompt, other values', () => {
    const format = { type: 'json_schema' as const, schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const ask = (content: string) => planAnswer({ model: 'm', messages: user(content), responseFormat: format }).text;
    expect(ask('Weather in Oslo?')).toBe(ask('Weather in Oslo?'));
    expect([ask('Weather in Oslo?'), ask('Weather in Rome?'), ask('Weather?')]).toEqual(['{"city":"Oslo"}', '{"city":"Rome"}', '{"city":"example city"}']);
  });
});
