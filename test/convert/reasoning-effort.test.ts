import { describe, expect, it } from 'vitest';
import { reasoningEffortOf } from '../../src/convert/reasoning-effort.js';

// The one mapping /v1/chat/completions (`reasoning_effort`) and /v1/responses (`reasoning.effort`) share.
describe('reasoningEffortOf', () => {
  it.each([
    ['minimal', { effort: 'minimal' }, {}],
    ['low', { effort: 'low' }, {}],
    ['medium', { effort: 'medium' }, {}],
    ['high', { effort: 'high' }, {}],
    ['xhigh', { effort: 'high' }, { reasoning_effort: 'xhigh' }],
    ['max', { effort: 'high' }, { reasoning_effort: 'max' }],
    ['none', undefined, { reasoning_effort: 'none' }],
    [null, undefined, {}],
    [undefined, undefined, {}],
  ])('maps %j to %j, sending OpenAI %j as written', (effort, reasoning, openai) => {
    const sent: Record<string, unknown> = {};
    expect(reasoningEffortOf(effort, sent)).toEqual(reasoning);
    expect(sent).toEqual(openai);
  });

  it.each([['extreme'], ['HIGH'], [3], [{ effort: 'high' }]])('answers false for %j and sends nothing, so each wire refuses it in its own words', (effort) => {
    const sent: Record<string, unknown> = {};
    expect(reasoningEffortOf(effort, sent)).toBe(false);
    expect(sent).toEqual({});
  });
});
