import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { answerChunks, planAnswer } from '../../providers/shared/answers/index.js';
import { anthropicClient, errorOf, openAIClient, useSimulators } from './helpers.js';

const start = useSimulators();
const parameters = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } } };
const messages = [{ role: 'user' as const, content: 'get_weather' }];

// The chunks of this answer: a start, then argument fragments of 16 characters.
const chunks = answerChunks(planAnswer({ model: 'm', messages, tools: [{ name: 'get_weather', parameters }] }));

describe('stream faults inside a tool call', () => {
  it('counts a tool-call start and each argument fragment as a chunk', () => {
    expect(chunks.map((c) => c.type)).toEqual(['tool_start', 'tool_args', 'tool_args', 'tool_args']);
    expect(chunks.slice(1).map((c) => (c.type === 'tool_args' ? c.fragment : ''))).toEqual(['{"city":"example', ' city","unit":"c', 'elsius"}']);
  });

  it('OpenAI stream_cut after 2 chunks: the call has its id, name and first fragment, then the body ends', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'stream_cut', afterChunks: 2 }] } } });
    const stream = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [{ type: 'function', function: { name: 'get_weather', parameters } }], stream: true });
    const seen: any[] = [];
    const err = await errorOf((async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.tool_calls) seen.push(chunk.choices[0].delta.tool_calls[0]);
    })());
    expect(err).toBeInstanceOf(TypeError);
    expect(seen).toEqual([
      { index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"example' } },
    ]);
  });

  it('OpenAI stream_error after 3 chunks: an error frame in the middle of the arguments', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'stream_error', afterChunks: 3 }] } } });
    const stream = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [{ type: 'function', function: { name: 'get_weather', parameters } }], stream: true });
    let args = '';
    const err = await errorOf((async () => {
      for await (const chunk of stream) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    })());
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ status: undefined, code: 'server_error' });
    expect(args).toBe('{"city":"example city","unit":"c');
  });

  it('Anthropic stream_cut after 2 chunks: content_block_start tool_use, a fragment, no content_block_stop', async () => {
    const sim = await start({ providers: { anthropic: { type: 'anthropic', faults: [{ fault: 'stream_cut', afterChunks: 2 }] } } });
    const stream = await anthropicClient(sim).messages.create({
      model: 'claude-haiku-4-5', max_tokens: 500, stream: true, messages, tools: [{ name: 'get_weather', input_schema: parameters as any }], tool_choice: { type: 'any' },
    });
    const seen: string[] = [];
    const err = await errorOf((async () => {
      for await (const e of stream) seen.push(e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? `json:${e.delta.partial_json}` : e.type === 'content_block_start' ? `start:${e.content_block.type}` : e.type);
    })());
    expect(err).toBeInstanceOf(TypeError);
    expect(seen).toEqual(['message_start', 'start:tool_use', 'json:', 'json:{"city":"example']);
  });

  it('Anthropic stream_error after 1 chunk: the tool_use started, then event: error', async () => {
    const sim = await start({ providers: { anthropic: { type: 'anthropic', faults: [{ fault: 'stream_error', afterChunks: 1 }] } } });
    const stream = await anthropicClient(sim).messages.create({
      model: 'claude-haiku-4-5', max_tokens: 500, stream: true, messages, tools: [{ name: 'get_weather', input_schema: parameters as any }], tool_choice: { type: 'any' },
    });
    const seen: string[] = [];
    const err = await errorOf((async () => {
      for await (const e of stream) seen.push(e.type);
    })());
    expect(err.error?.error?.type ?? err.message).toMatch(/overloaded/i);
    expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
  });
});
