import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fakeAnswer, valueForSchema } from '../../providers/shared/answers/index.js';
import { anthropicClient, errorOf, openAIClient, useSimulators } from './helpers.js';

const start = useSimulators();
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    plan: { type: 'string', enum: ['Enterprise', 'Team'] },
    seats: { type: 'integer', minimum: 5 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  required: ['name', 'email', 'plan'],
  additionalProperties: false,
};
const expected = {
  name: 'example name', email: 'user@example.com', plan: 'Enterprise', seats: 5,
  tags: ['example tags', 'example tags 2'], address: { city: 'example city' },
};

describe('structured output', () => {
  it('OpenAI json_schema: the content is JSON satisfying the schema, its values taken from the prompt where it has them', async () => {
    const client = openAIClient(await start());
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Extract: John Smith (john@acme.io) wants the Enterprise plan for 12 seats, shipped to Lisbon.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'contact', strict: true, schema } },
    });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({
      name: 'John Smith', email: 'john@acme.io', plan: 'Enterprise', seats: 12, tags: ['example tags', 'example tags 2'], address: { city: 'Lisbon' },
    });
    // Without a prompt to draw from, the schema alone decides.
    expect(valueForSchema(schema)).toEqual(expected);
    expect(res.choices[0]!.finish_reason).toBe('stop');
  });

  it('OpenAI json_object: {"answer": ...}, and only when a message says JSON', async () => {
    const client = openAIClient(await start());
    const messages = [{ role: 'system' as const, content: 'Reply in JSON.' }, { role: 'user' as const, content: 'Hello there' }];
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, response_format: { type: 'json_object' } });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ answer: fakeAnswer(messages, 'gpt-4o-mini') });
    const err = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], response_format: { type: 'json_object' } }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toEqual({ message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", type: 'invalid_request_error', param: 'messages', code: null });
    const unnamed = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages, response_format: { type: 'json_schema', json_schema: { schema } as any } }));
    expect(unnamed.error).toMatchObject({ param: 'response_format.json_schema.name', code: 'missing_required_parameter' });
  });

  it('OpenAI json_object with the schema written into the prompt (LangChain\'s format instructions): an instance of that schema', async () => {
    const client = openAIClient(await start());
    const wanted = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 1 }, sights: { type: 'array', items: { type: 'string' }, minItems: 2 } }, required: ['city', 'population', 'sights'] };
    // The shape of LangChain's JSON format instructions: an example schema and instances of it, then the schema wanted.
    const instructions = 'The output should be formatted as a JSON instance that conforms to the JSON schema below.\n\n'
      + 'As an example, for the schema {"properties": {"foo": {"type": "array", "items": {"type": "string"}}}, "required": ["foo"]} the object {"foo": ["bar", "baz"]} is a well-formatted instance of the schema. '
      + 'The object {"properties": {"foo": ["bar", "baz"]}} is not well-formatted.\n\nHere is the output schema:\n```\n' + JSON.stringify(wanted) + '\n```';
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini', response_format: { type: 'json_object' },
      messages: [{ role: 'system', content: instructions }, { role: 'user', content: 'Tell me about a city worth a visit: I am flying to Lisbon, where 545000 people live.' }],
    });
    const value = JSON.parse(res.choices[0]!.message.content!);
    expect(z.fromJSONSchema(wanted as never).safeParse(value).success).toBe(true);
    expect(value).toEqual({ city: 'Lisbon', population: 545000, sights: ['example sights', 'example sights 2'] });
  });

  it('OpenAI json_object whose prompt names the keys (LangChain\'s jsonMode): an object of exactly those keys', async () => {
    const client = openAIClient(await start());
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini', response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Return a JSON object with the keys sentiment and score (a number) for this review: "Great product, fast delivery, I love it."' }],
    });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ sentiment: 'positive', score: 1.5 });
  });

  it('Anthropic output_config.format: the JSON is the text of one text block', async () => {
    const client = anthropicClient(await start());
    const res = await client.messages.create({
      model: 'claude-haiku-4-5', max_tokens: 500, messages: [{ role: 'user', content: 'Extract the contact' }],
      output_config: { format: { type: 'json_schema', schema } },
    } as Anthropic.MessageCreateParamsNonStreaming);
    expect(res.content).toHaveLength(1);
    expect(res.content[0]!.type).toBe('text');
    expect(JSON.parse((res.content[0] as Anthropic.TextBlock).text)).toEqual(expected);
    expect(res.stop_reason).toBe('end_turn');
  });

  it('the invalid_json fault breaks the JSON an answer writes: structured output and tool arguments', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'invalid_json' }] }, anthropic: { type: 'anthropic', faults: [{ fault: 'invalid_json' }] } } });
    const openai = openAIClient(sim);
    const structured = await openai.chat.completions.create({
      model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'c', schema } },
    });
    expect(structured.choices[0]!.message.content).toBe(JSON.stringify(expected).slice(0, -1));
    expect(() => JSON.parse(structured.choices[0]!.message.content!)).toThrow();
    const call = await openai.chat.completions.create({
      model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }], tools: [{ type: 'function', function: { name: 'ping' } }],
    });
    expect((call.choices[0]!.message.tool_calls![0] as any).function.arguments).toBe('{');
    const anthropic = anthropicClient(sim);
    const text = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 500, messages: [{ role: 'user', content: 'x' }], output_config: { format: { type: 'json_schema', schema } } } as any);
    expect(() => JSON.parse((text.content[0] as Anthropic.TextBlock).text)).toThrow();
    expect(sim.stats().providers.openai!.byFault).toEqual({ invalid_json: 2 });
  });

  it('a streamed Anthropic tool call under invalid_json accumulates to JSON that does not parse', async () => {
    const sim = await start({ providers: { anthropic: { type: 'anthropic', faults: [{ fault: 'invalid_json' }] } } });
    const stream = await anthropicClient(sim).messages.create({
      model: 'claude-haiku-4-5', max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'get_weather' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    let json = '';
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') json += event.delta.partial_json;
    expect(json).toBe('{"city":"example city"');
  });

  it('cuts JSON at max_tokens with finish_reason length, as a real model runs out', async () => {
    const client = openAIClient(await start());
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 5,
      response_format: { type: 'json_schema', json_schema: { name: 'c', schema } },
    });
    expect(res.choices[0]!.finish_reason).toBe('length');
    expect(res.choices[0]!.message.content).toBe(JSON.stringify(expected).slice(0, 20));
  });
});
