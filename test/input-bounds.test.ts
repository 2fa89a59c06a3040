import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANSWER_MAX_DEPTH, inputBoundProblems, measureJson } from '../src/calls/input-bounds.js';
import { parseJsonAnswer } from '../src/calls/parse-json-answer.js';
import { validateRequest } from '../src/calls/request-schema.js';
import { RouterError } from '../src/errors.js';
import { OPENAI_PATH, openaiCompletion, openaiOk, openaiSuccessHeaders } from './support/fixtures.js';
import { startUpstream, type Upstream } from './support/upstream.js';
import { rejectionOf, wireRouter } from './support/wire-router.js';

const bounds = { maxDepth: 64, maxChars: 1_048_576 };
/** `n` levels of `{ a: ... }`, built without recursion. */
function nested(n: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}
const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i).padStart(8, '0')}`, 'vvvvvvvv']));

describe('measureJson', () => {
  it('counts the nesting of objects and arrays, the value itself being level 1', () => {
    expect(measureJson(nested(64), bounds)).toEqual({ ok: true });
    expect(measureJson(nested(65), bounds)).toEqual({ ok: false, reason: 'depth' });
    expect(measureJson(nested(63, []), bounds)).toEqual({ ok: true });
    expect(measureJson(nested(64, []), bounds)).toEqual({ ok: false, reason: 'depth' });
    expect(measureJson('a string is level 0', { maxDepth: 1, maxChars: 100 })).toEqual({ ok: true });
  });

  it('walks a million levels without overflowing the stack, and ends on a cycle', () => {
    expect(measureJson(nested(1_000_000), bounds)).toEqual({ ok: false, reason: 'depth' });
    const cycle: Record<string, unknown> = { x: 1 };
    cycle.self = cycle;
    expect(measureJson(cycle, bounds)).toEqual({ ok: false, reason: 'depth' });
  });

  it('measures the length as JSON within a few characters, and stops at the bound', () => {
    for (const value of [wide(10), [1, 'two', null, true, { a: [] }], { 'k"ey': 'v' }]) {
      const exact = JSON.stringify(value).length;
      expect(measureJson(value, { maxDepth: 64, maxChars: exact + 8 })).toEqual({ ok: true });
      expect(measureJson(value, { maxDepth: 64, maxChars: Math.floor(exact / 2) })).toEqual({ ok: false, reason: 'size' });
    }
  });
});

describe('validateRequest and the bounds on free-form JSON', () => {
  const chains = { default: [] };
  const user = { role: 'user', content: 'hi' };
  const withTool = (parameters: unknown) => ({ messages: [user], tools: [{ name: 'f', parameters }] });
  const FIELDS: Array<[string, (v: unknown) => Record<string, unknown>]> = [
    ['tools[0].parameters', (v) => withTool({ type: 'object', properties: { x: v } })],
    ['responseFormat.schema', (v) => ({ messages: [user], responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { x: v } } } })],
    ['providerOptions.openai.metadata', (v) => ({ messages: [user], providerOptions: { openai: { metadata: v } } })],
    ['providerOptions.anthropic.thinking', (v) => ({ messages: [user], providerOptions: { anthropic: { thinking: v } } })],
    ['messages[1].toolCalls[0].arguments', (v) => ({ messages: [user, { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'f', arguments: { x: v } }] }] })],
    ['messages[1].providerParts', (v) => ({ messages: [user, { role: 'assistant', content: 'x', providerParts: { api: 'anthropic', blocks: [v] } }] })],
  ];
  const refusal = (request: unknown, b = bounds) => {
    try {
      validateRequest(request, chains, b);
    } catch (err) {
      return err as RouterError;
    }
    throw new Error('expected a refusal');
  };

  it.each(FIELDS)('refuses %s nested too deep or written too long, naming it as param', (path, make) => {
    const deep = refusal(make(nested(100_000)));
    expect([deep.kind, deep.param]).toEqual(['invalid_request', path]);
    expect(deep.message).toContain(`${path}: nested deeper than 64 levels`);
    const huge = refusal(make(wide(60_000)));
    expect([huge.kind, huge.param]).toEqual(['invalid_request', path]);
    expect(huge.message).toContain(`${path}: longer than 1048576 characters as JSON`);
  });

  it('takes its bounds from the caller: a tighter depth refuses what the default accepts', () => {
    const request = withTool({ type: 'object', properties: { x: nested(10) } });
    expect(() => validateRequest(request, chains, bounds)).not.toThrow();
    expect(refusal(request, { maxDepth: 8, maxChars: 1_000_000 }).param).toBe('tools[0].parameters');
  });

  it('does not walk a zod schema (the application code, converted by zod), and accepts ordinary fields', () => {
    const schema = z.object({ a: z.object({ b: z.string() }) });
    expect(inputBoundProblems({ messages: [user], tools: [{ name: 'f', parameters: schema }], responseFormat: { type: 'json_schema', schema } }, { maxDepth: 1, maxChars: 10 })).toEqual([]);
    expect(() => validateRequest({ messages: [user], providerOptions: { openai: { metadata: { a: 'b' } } } }, chains)).not.toThrow();
  });
});

describe('a library call over the bounds', () => {
  let up: Upstream;
  beforeEach(async () => {
    up = await startUpstream();
  });
  afterEach(async () => {
    await up.close();
  });

  it('is refused before any request, with the bounds of the config, and leaves every breaker closed', async () => {
    const { router } = wireRouter(up, { input: { maxDepth: 4 }, breaker: { consecutiveFailures: 1, volumeThreshold: 1 } });
    try {
      const request = { messages: [{ role: 'user' as const, content: 'hi' }], providerOptions: { openai: { metadata: nested(5) as Record<string, unknown> } } };
      for (let i = 0; i < 5; i++) {
        const err = await rejectionOf(router.chat(request));
        expect([err.kind, err.param, err.attempts]).toEqual(['invalid_request', 'providerOptions.openai.metadata', []]);
        expect(() => router.stream(request)).toThrow(/nested deeper than 4 levels/);
      }
      expect(up.count()).toBe(0);
      expect(router.config.input).toEqual({ maxDepth: 4, maxChars: 1_048_576 });
      expect((await router.chat({ ...request, providerOptions: { openai: { metadata: nested(4) as Record<string, unknown> } } })).provider).toBe('openai');
      expect(router.breakerStates()).toEqual({ openai: 'closed', anthropic: 'closed' });
    } finally {
      await router.close();
    }
  });
});

describe('answers nested beyond ANSWER_MAX_DEPTH', () => {
  let up: Upstream;
  beforeEach(async () => {
    up = await startUpstream();
  });
  afterEach(async () => {
    await up.close();
  });
  const deepText = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const toolAnswer = (args: string) => ({
    status: 200, headers: openaiSuccessHeaders,
    body: { ...openaiCompletion(), choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: args } }] }, finish_reason: 'tool_calls' }] },
  });
  const tools = [{ name: 'f', parameters: { type: 'object' } }];
  const user = [{ role: 'user' as const, content: 'hi' }];

  it('parseJsonAnswer takes 256 levels and refuses 257 (JSON.parse itself takes any depth)', () => {
    expect(parseJsonAnswer(deepText(ANSWER_MAX_DEPTH)).ok).toBe(true);
    expect(parseJsonAnswer(deepText(ANSWER_MAX_DEPTH + 1))).toEqual({ ok: false, reason: 'JSON nested deeper than 256 levels' });
    expect(parseJsonAnswer(deepText(100_000)).ok).toBe(false);
  });

  it('a JSON answer or tool call 10,000 levels deep is invalid_output, in chat and in a stream, never a stack overflow', async () => {
    const { router } = wireRouter(up);
    try {
      up.script(OPENAI_PATH, openaiOk(deepText(10_000)));
      const json = await rejectionOf(router.chat({ chain: 'openai-only', messages: user, responseFormat: { type: 'json' } }));
      expect([json.kind, json.code]).toEqual(['invalid_output', 'not_json']);

      up.script(OPENAI_PATH, toolAnswer(deepText(10_000)));
      const tool = await rejectionOf(router.chat({ chain: 'openai-only', messages: user, tools }));
      expect([tool.kind, tool.code, tool.message]).toEqual(['invalid_output', 'invalid_tool_arguments', 'openai:gpt-4o-mini answered a call of tool "f" whose arguments nest deeper than 256 levels']);

      up.script(OPENAI_PATH, { sse: openaiToolSse(deepText(10_000)) });
      const events = [];
      for await (const ev of router.stream({ chain: 'openai-only', messages: user, tools })) events.push(ev);
      const last = events.at(-1)!;
      expect(events.some((e) => e.type === 'tool_call')).toBe(false);
      expect(last.type === 'interrupted' && [last.error.kind, last.incompleteToolCalls.map((c) => c.name)]).toEqual(['invalid_output', ['f']]);
      expect(up.count(OPENAI_PATH)).toBe(3);
    } finally {
      await router.close();
    }
  });
});

/** An OpenAI stream of one tool call whose arguments come in one fragment. */
function openaiToolSse(args: string): string[] {
  const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}`;
  return [
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
    chunk({}, 'tool_calls'),
    'data: [DONE]',
  ];
}
