import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

// Each wire's max tokens keeps its own provider's meaning (docs/gateway.md, "max_tokens and
// thinking"): a target of that family is sent the client's number, any other the router's meaning
// (the visible answer's budget, its own thinking added on top).

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const CHAINS = { chains: {
  'claude-45': ['anthropic:claude-sonnet-4-5'], 'claude-46': ['anthropic:claude-sonnet-4-6'],
  'gpt-5': ['openai:gpt-5'], 'gpt-4o': ['openai:gpt-4o-mini'],
} };
const hi: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hello' }];
const anthropic = () => new Anthropic({ apiKey: 'sk-anything', baseURL: h.url, maxRetries: 0 });
const openai = () => new OpenAI({ apiKey: 'sk-anything', baseURL: `${h.url}/v1`, maxRetries: 0 });
const body = (path: string) => up.requests.filter((r) => r.path === path).at(-1)!.body;

describe('/v1/messages: max_tokens counts the thinking, as Anthropic\'s does', () => {
  it('sends an Anthropic target the client\'s max_tokens and budget_tokens as they are, no double count', async () => {
    h = await startHarness(up, CHAINS);
    await anthropic().messages.create({ model: 'claude-45', max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_024 }, messages: hi });
    expect(body(ANTHROPIC_PATH)).toMatchObject({ max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_024 } });
    // An adaptive Claude: the budget is the room it is given, the same total.
    await anthropic().messages.create({ model: 'claude-46', max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_024 }, messages: hi });
    expect(body(ANTHROPIC_PATH)).toMatchObject({ max_tokens: 2_000, thinking: { type: 'adaptive' } });
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });

  it('sends adaptive thinking\'s max_tokens to Claude as it is: the number already counts the thinking', async () => {
    h = await startHarness(up, CHAINS);
    await anthropic().messages.create({ model: 'claude-46', max_tokens: 3_000, thinking: { type: 'adaptive' }, messages: hi } as Anthropic.MessageCreateParamsNonStreaming);
    expect(body(ANTHROPIC_PATH)).toMatchObject({ max_tokens: 3_000, thinking: { type: 'adaptive' } });
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
  });

  it('gives another target the router\'s meaning: the answer\'s share of max_tokens, its own thinking on top', async () => {
    h = await startHarness(up, CHAINS);
    await anthropic().messages.create({ model: 'gpt-4o', max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_024 }, messages: hi });
    expect(body(OPENAI_PATH).max_completion_tokens).toBe(976);
    await anthropic().messages.create({ model: 'gpt-5', max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_500 }, messages: hi });
    // 500 for the answer, the client's 1,500 of thinking as the reasoning allowance, at the least effort that covers it.
    expect(body(OPENAI_PATH)).toMatchObject({ max_completion_tokens: 2_000, reasoning_effort: 'low' });
    expect(up.count(OPENAI_PATH)).toBe(2);
  });
});

describe('/v1/chat/completions: max_completion_tokens counts the reasoning, as OpenAI\'s does', () => {
  it('sends an OpenAI reasoning target max_completion_tokens as the client sent it, and a Claude target the router\'s meaning', async () => {
    h = await startHarness(up, CHAINS);
    await openai().chat.completions.create({ model: 'gpt-5', max_completion_tokens: 500, reasoning_effort: 'low', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(body(OPENAI_PATH)).toMatchObject({ max_completion_tokens: 500, reasoning_effort: 'low' });
    await openai().chat.completions.create({ model: 'gpt-5', max_completion_tokens: 500, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(body(OPENAI_PATH).max_completion_tokens).toBe(500);
    await openai().chat.completions.create({ model: 'claude-45', max_completion_tokens: 500, reasoning_effort: 'low', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(body(ANTHROPIC_PATH)).toMatchObject({ max_tokens: 500 + 1_024, thinking: { type: 'enabled', budget_tokens: 1_024 } });
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([2, 1]);
  });

  it('reads the deprecated max_tokens as the router\'s: a reasoning target gets its allowance on top', async () => {
    h = await startHarness(up, CHAINS);
    await openai().chat.completions.create({ model: 'gpt-5', max_tokens: 500, reasoning_effort: 'low', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(body(OPENAI_PATH)).toMatchObject({ max_completion_tokens: 500 + 4_096, reasoning_effort: 'low' });
    expect(body(OPENAI_PATH).max_tokens).toBeUndefined();
    expect(up.count(OPENAI_PATH)).toBe(1);
  });
});
