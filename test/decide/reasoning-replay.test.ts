import { describe, expect, it } from 'vitest';
import { keptHistory, partsFamily, replayVerdict, targetFamily, type ReasoningFamily } from '../../src/decide/reasoning-replay.js';
import type { Message } from '../../src/types.js';

// Which reasoning parts a target keeps: the one table, every source family against every target family.

const SOURCES: ReasoningFamily[] = ['anthropic', 'bedrock-claude', 'bedrock-other', 'openai-responses', 'gemini'];
const TARGETS: ReasoningFamily[] = ['anthropic', 'bedrock-claude', 'bedrock-other', 'openai-chat', 'openai-responses', 'gemini'];
const KEPT: Record<string, string> = {
  'anthropic>anthropic': 'verbatim', 'anthropic>bedrock-claude': 'translate',
  'bedrock-claude>bedrock-claude': 'verbatim', 'bedrock-claude>anthropic': 'translate',
  'openai-responses>openai-responses': 'verbatim', 'gemini>gemini': 'verbatim',
};

describe('replayVerdict: what a target does with another turn\'s reasoning parts', () => {
  for (const source of SOURCES) {
    for (const target of TARGETS) {
      const want = KEPT[`${source}>${target}`] ?? 'drop';
      it(`${source} parts to a ${target} target: ${want}`, () => {
        expect(replayVerdict(source, target)).toBe(want);
      });
    }
  }

  it('gives the fake provider (a test double) whatever the caller sent', () => {
    expect(SOURCES.map((s) => replayVerdict(s, 'other'))).toEqual(SOURCES.map(() => 'verbatim'));
  });
});

describe('targetFamily: a target\'s family from its provider type, API and model', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', undefined, 'anthropic'],
    ['bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', undefined, 'bedrock-claude'],
    ['bedrock', 'arn:aws:bedrock:us-east-1:1:inference-profile/eu.anthropic.claude-opus-4-6-v1', undefined, 'bedrock-claude'],
    ['bedrock', 'amazon.nova-pro-v1:0', undefined, 'bedrock-other'],
    ['bedrock', 'us.deepseek.r1-v1:0', undefined, 'bedrock-other'],
    ['openai', 'gpt-5', undefined, 'openai-chat'],
    ['openai', 'gpt-5', 'chat', 'openai-chat'],
    ['openai', 'gpt-5', 'responses', 'openai-responses'],
    ['openai-compatible', 'deepseek-reasoner', undefined, 'openai-chat'],
    ['gemini', 'gemini-3-pro-preview', undefined, 'gemini'],
    ['fake', 'echo', undefined, 'other'],
  ] as const)('%s %s (api %s) is %s', (type, model, api, family) => {
    expect(targetFamily(type, model, api)).toBe(family);
  });
});

describe('partsFamily: Converse parts are Claude\'s when all their reasoning is signed or redacted', () => {
  it('names the API for the other parts', () => {
    expect(partsFamily({ api: 'anthropic', blocks: [] })).toBe('anthropic');
    expect(partsFamily({ api: 'openai-responses', items: [] })).toBe('openai-responses');
    expect(partsFamily({ api: 'gemini', blocks: [] })).toBe('gemini');
  });

  it('takes signed reasoning and redacted content for Claude, unsigned reasoning for another model', () => {
    const signed = { reasoningContent: { reasoningText: { text: 'hm', signature: 'sig' } } };
    const redacted = { reasoningContent: { redactedContent: { base64: 'AAE=' } } };
    const unsigned = { reasoningContent: { reasoningText: { text: 'hm' } } };
    expect(partsFamily({ api: 'bedrock', blocks: [signed, redacted, { text: 'ok' }] })).toBe('bedrock-claude');
    expect(partsFamily({ api: 'bedrock', blocks: [unsigned, { text: 'ok' }] })).toBe('bedrock-other');
    expect(partsFamily({ api: 'bedrock', blocks: [signed, unsigned] })).toBe('bedrock-other');
  });
});

describe('keptHistory: the history a target is sent', () => {
  const thinking = { api: 'anthropic' as const, blocks: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] };
  const history: Message[] = [
    { role: 'user', content: 'Go' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: {} }], providerParts: thinking, cache: { ttl: '1h' } },
    { role: 'tool', toolCallId: 'toolu_1', content: 'done' },
  ];

  it('is the caller\'s own array when the target keeps every part, or there are none', () => {
    expect(keptHistory(history, 'anthropic', 'claude-sonnet-4-5')).toBe(history);
    expect(keptHistory(history, 'bedrock', 'anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(history);
    const plain: Message[] = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }];
    expect(keptHistory(plain, 'openai', 'gpt-5')).toBe(plain);
  });

  it('drops the parts for another family, keeping the turn\'s text, tool calls (ids unchanged) and breakpoint', () => {
    const sent = keptHistory(history, 'openai', 'gpt-5');
    expect(sent).not.toBe(history);
    expect(sent).toEqual([history[0], { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: {} }], cache: { ttl: '1h' } }, history[2]]);
    expect(history[1]).toHaveProperty('providerParts', thinking);
    expect(keptHistory(history, 'bedrock', 'amazon.nova-pro-v1:0')[1]).not.toHaveProperty('providerParts');
  });
});
