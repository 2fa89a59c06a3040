import { describe, expect, it } from 'vitest';
import {
  answerChunks, breakJson, chooseTools, embeddingFor, embeddingToBase64, fakeAnswer, planAnswer, promptTokens, reasoningTokensFor,
  toolResultAnswer,
} from '../../../providers/shared/answers/index.js';
import type { Message } from '../../../src/types.js';

const tools = [{ name: 'get_weather' }, { name: 'get_time' }, { name: 'search' }, { name: 'search_web' }];
const userSays = (content: string): Message[] => [{ role: 'user', content }];

describe('chooseTools', () => {
  it('auto: the tools the last user turn names, by whole name, any case, in the order of the list', () => {
    expect(chooseTools(tools, 'auto', userSays('Use GET_TIME, then get_weather')).map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(chooseTools(tools, undefined, userSays('try search_web')).map((t) => t.name)).toEqual(['search_web']);
    expect(chooseTools(tools, 'auto', userSays('nothing named'))).toEqual([]);
    expect(chooseTools([tools[0]!], 'auto', userSays('nothing named')).map((t) => t.name)).toEqual(['get_weather']);
  });

  it('auto after a tool result or an assistant turn: none', () => {
    const history: Message[] = [...userSays('get_weather'), { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'get_weather', arguments: {} }] }, { role: 'tool', toolCallId: 'c', content: 'ok' }];
    expect(chooseTools(tools, 'auto', history)).toEqual([]);
    expect(chooseTools(tools, 'required', history).map((t) => t.name)).toEqual(['get_weather']);
  });

  it('none, required, a named tool, and no parallel calls', () => {
    expect(chooseTools(tools, 'none', userSays('get_weather'))).toEqual([]);
    expect(chooseTools(tools, 'required', userSays('hello')).map((t) => t.name)).toEqual(['get_weather']);
    expect(chooseTools(tools, 'required', userSays('search please')).map((t) => t.name)).toEqual(['search']);
    expect(chooseTools(tools, { name: 'get_time' }, userSays('get_weather')).map((t) => t.name)).toEqual(['get_time']);
    expect(chooseTools(tools, 'auto', userSays('get_time get_weather'), false).map((t) => t.name)).toEqual(['get_weather']);
    expect(chooseTools([], 'required', userSays('x'))).toEqual([]);
  });
});

describe('planAnswer', () => {
  it('is the fake text when no tool is called, cut at maxTokens with finish length', () => {
    const messages = userSays('What is a circuit breaker?');
    expect(planAnswer({ model: 'm', messages })).toMatchObject({ text: fakeAnswer(messages, 'm'), finish: 'stop', toolCalls: [] });
    expect(planAnswer({ model: 'm', messages, maxTokens: 3 })).toMatchObject({ text: fakeAnswer(messages, 'm').slice(0, 12), finish: 'length', outputTokens: 3 });
  });

  it('cuts tool-call arguments at maxTokens: the call is incomplete, the rest dropped, finish length', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const answer = planAnswer({ model: 'm', messages: userSays('a b'), tools: [{ name: 'a', parameters: schema }, { name: 'b', parameters: schema }], maxTokens: 8 });
    expect(answer.finish).toBe('length');
    expect(answer.toolCalls).toHaveLength(2);
    expect(answer.toolCalls[0]).toMatchObject({ argumentsJson: '{"city":"example city"}', complete: true });
    expect(answer.toolCalls[1]).toMatchObject({ name: 'b', argumentsJson: '{"city":"', complete: false });
    expect(answer.outputTokens).toBe(8);
  });

  it('writes the sentence before calls when asked, and breaks JSON under invalidJson', () => {
    const answer = planAnswer({ model: 'm', messages: userSays('ping'), tools: [{ name: 'ping' }] }, { textBeforeToolCalls: true, invalidJson: true });
    expect(answer.text).toBe("I'll call ping.");
    expect(answer.toolCalls[0]!.argumentsJson).toBe('{');
  });

  it('spends reasoning tokens first', () => {
    expect(reasoningTokensFor(undefined)).toBe(0);
    expect(reasoningTokensFor('low')).toBe(32);
    const answer = planAnswer({ model: 'm', messages: userSays('hi'), reasoning: { effort: 'minimal' } });
    expect(answer.reasoningTokens).toBe(8);
    expect(answer.outputTokens).toBe(8 + Math.ceil(answer.text.length / 4));
  });

  it('streams as text pieces, then per call a start and 16-character argument fragments', () => {
    const answer = planAnswer({ model: 'm', messages: userSays('ping'), tools: [{ name: 'ping' }] }, { textBeforeToolCalls: true });
    expect(answerChunks(answer)).toEqual([
      { type: 'text', text: "I'll" }, { type: 'text', text: ' call' }, { type: 'text', text: ' ping.' },
      { type: 'tool_start', index: 0, call: answer.toolCalls[0] }, { type: 'tool_args', index: 0, fragment: '{}' },
    ]);
  });
});

describe('the rest of the deterministic answers', () => {
  it('quotes trailing tool results by tool name', () => {
    expect(toolResultAnswer(userSays('x'))).toBeUndefined();
    expect(toolResultAnswer([
      { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'get_time', arguments: {} }] },
      { role: 'tool', toolCallId: 'a', content: '  12:00\n UTC ' },
    ])).toBe('Tool get_time returned: 12:00 UTC.');
  });

  it('breaks JSON so it no longer parses, and leaves other text alone', () => {
    for (const json of ['{"a":1}', '[1,2]', '"x"', '12', 'true', 'null', '{}']) expect(() => JSON.parse(breakJson(json))).toThrow();
    expect(breakJson('plain words')).toBe('plain words');
  });

  it('counts images and files in prompt tokens, and leaves text-only conversations as they were', () => {
    expect(promptTokens(userSays('abcd'))).toBe(3 + 4 + 1);
    expect(promptTokens([{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image', url: 'https://x/y.png', detail: 'low' }] }])).toBe(8 + 85);
    expect(promptTokens([{ role: 'user', content: [{ type: 'file', data: Buffer.alloc(3_200).toString('base64'), mediaType: 'application/pdf' }] }])).toBe(3 + 4 + 1 + 200);
  });

  it('embeds deterministically: unit length, different per model and text, float32 components', () => {
    const v = embeddingFor('m', 'hello');
    expect(v).toHaveLength(1536);
    expect(v).toEqual(embeddingFor('m', 'hello'));
    expect(embeddingFor('m', 'hellO')).not.toEqual(v);
    expect(embeddingFor('n', 'hello')).not.toEqual(v);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(v.every((x) => Math.fround(x) === x)).toBe(true);
    // The decoded bytes may sit in Buffer's shared pool (64 KiB on Node 24, 8 KiB on Node 20): take only this buffer's slice of it.
    const bytes = Buffer.from(embeddingToBase64(v), 'base64');
    const decoded = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(Array.from(decoded)).toEqual(v);
  });
});
