import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

// Prompt-caching breakpoints through /v1/messages: the real Anthropic SDK as the client, a real
// gateway, a loopback upstream speaking the providers' wire format. An Anthropic target receives
// each `cache_control` where the client put it; other providers receive none.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const CHAINS = { chains: { default: ['anthropic:claude-sonnet-4-6'], 'anthropic-only': ['anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4o-mini'] } };
const client = () => new Anthropic({ apiKey: 'sk-anything', baseURL: h.url, maxRetries: 0 });
const EPHEMERAL = { type: 'ephemeral' } as const;
const HOUR = { type: 'ephemeral', ttl: '1h' } as const;
const stock: Anthropic.Tool = { name: 'get_stock_price', description: 'Get the current stock price', input_schema: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] } };

/** What Claude Code sends: breakpoints on the system prompt, the tools, and the latest turns; automatic caching; context_management. */
const body = (model: string) => ({
  model, max_tokens: 200,
  cache_control: EPHEMERAL,
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  system: [{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Project rules: be brief.', cache_control: HOUR }],
  tools: [{ ...stock, cache_control: EPHEMERAL }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'What is ACME at?' }, { type: 'text', text: 'Use the tool.', cache_control: EPHEMERAL }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_01A', name: 'get_stock_price', input: { ticker: 'ACME' }, cache_control: EPHEMERAL }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '185', cache_control: HOUR }, { type: 'text', text: 'And now?' }] },
  ],
}) as unknown as Anthropic.MessageCreateParamsNonStreaming;

describe('cache_control through POST /v1/messages', () => {
  it('hands an Anthropic target every breakpoint where the client put it, with its ttl, and the top-level cache_control', async () => {
    // The translated path (pass-through sends the client's bytes as they are: messages-pass-through.test.ts).
    h = await startHarness(up, CHAINS, { passThrough: false });
    const answer = await client().messages.create(body('anthropic-only'));
    expect(answer.type).toBe('message');
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    const sent = up.requests[0]!.body;
    expect(sent.cache_control).toEqual(EPHEMERAL);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Project rules: be brief.', cache_control: HOUR }]);
    expect(sent.tools).toEqual([{ name: 'get_stock_price', description: 'Get the current stock price', input_schema: stock.input_schema, cache_control: EPHEMERAL }]);
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is ACME at?' }, { type: 'text', text: 'Use the tool.', cache_control: EPHEMERAL }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_01A', name: 'get_stock_price', input: { ticker: 'ACME' }, cache_control: EPHEMERAL }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '185', cache_control: HOUR }, { type: 'text', text: 'And now?' }] },
    ]);
    // context_management reaches an Anthropic target as the client wrote it (issue 37: it was dropped before).
    expect(sent.context_management).toEqual({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
  });

  it('hands an Anthropic target a cache_control with scope, ttl and keys it does not know exactly as sent, on blocks, tools, system and the top level', async () => {
    h = await startHarness(up, CHAINS);
    const scoped = { type: 'ephemeral', ttl: '1h', scope: 'global' };
    const future = { type: 'ephemeral', scope: 'org', priority: 'high' };
    const raw = {
      model: 'anthropic-only', max_tokens: 20, cache_control: { type: 'ephemeral', scope: 'global', ttl: '5m' },
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: scoped }],
      tools: [{ ...stock, cache_control: future }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is ACME at?', cache_control: scoped }] }],
    };
    const answer = await client().messages.create(raw as unknown as Anthropic.MessageCreateParamsNonStreaming);
    expect(answer.type).toBe('message');
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    const sent = up.requests[0]!.body;
    expect(sent.cache_control).toEqual({ type: 'ephemeral', scope: 'global', ttl: '5m' });
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a coding agent.', cache_control: scoped }]);
    expect(sent.tools[0].cache_control).toEqual(future);
    expect(sent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'What is ACME at?', cache_control: scoped }] }]);
  });

  it('accepts the same scoped cache_control for an OpenAI target and sends it none of it, nor context_management', async () => {
    h = await startHarness(up, CHAINS);
    const scoped = { type: 'ephemeral', ttl: '1h', scope: 'global', unknown_later: 1 };
    const raw = {
      model: 'openai-only', max_tokens: 20, cache_control: scoped, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: scoped }],
      tools: [{ ...stock, cache_control: scoped }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is ACME at?', cache_control: scoped }] }],
    };
    const answer = await client().messages.create(raw as unknown as Anthropic.MessageCreateParamsNonStreaming);
    expect(answer.type).toBe('message');
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(JSON.stringify(up.requests[0]!.body)).not.toMatch(/cache_control|scope|unknown_later|context_management/);
  });

  it('sends the system prompt as one string, as before, when none of its blocks carries a breakpoint', async () => {
    // The translated path, as above.
    h = await startHarness(up, CHAINS, { passThrough: false });
    await client().messages.create({ model: 'anthropic-only', max_tokens: 10, system: [{ type: 'text', text: 'A.' }, { type: 'text', text: 'B.' }], messages: [{ role: 'user', content: 'hi' }] });
    expect(up.requests[0]!.body.system).toBe('A.\n\nB.');
  });

  it('accepts the same body for an OpenAI target and sends no breakpoint there (OpenAI caches prompts on its own)', async () => {
    h = await startHarness(up, CHAINS);
    await client().messages.create(body('openai-only'));
    expect(up.count(OPENAI_PATH)).toBe(1);
    const sent = JSON.stringify(up.requests[0]!.body);
    expect(sent).not.toMatch(/cache_control|cache"|context_management/);
    expect(up.requests[0]!.body.messages.slice(0, 2)).toEqual([{ role: 'system', content: 'You are a coding agent.' }, { role: 'system', content: 'Project rules: be brief.' }]);
  });

  it('refuses a cache_control that is not an ephemeral breakpoint with a 400 naming where it is', async () => {
    h = await startHarness(up, CHAINS);
    const post = (b: unknown) => fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    const wrongType = await post({ model: 'anthropic-only', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'forever' } }] }] });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { error: { message: string } }).error.message).toMatch(/messages\[0\]\.content\[0\]\.cache_control/);
    const wrongTtl = await post({ model: 'anthropic-only', max_tokens: 10, tools: [{ ...stock, cache_control: { type: 'ephemeral', ttl: '2d' } }], messages: [{ role: 'user', content: 'hi' }] });
    expect(wrongTtl.status).toBe(400);
    expect(((await wrongTtl.json()) as { error: { message: string } }).error.message).toMatch(/tools\[0\]\.cache_control\.ttl/);
    expect(up.count()).toBe(0);
  });
});
