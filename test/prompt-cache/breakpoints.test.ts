import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/router.js';
import type { Message, Tool } from '../../src/types.js';
import { bedrockPath, converseBody, converseOk } from '../../providers/test-support/bedrock-wire.js';
import { messageItem, responseObject, RESPONSES_PATH } from '../../providers/test-support/responses-wire.js';
import { captureLogger } from '../support/capture-logger.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiOk } from '../support/fixtures.js';
import { Upstream } from '../support/upstream.js';

// Cache breakpoints from router.chat to each upstream, in its own shape, read from the bodies the
// loopback upstream received through the real SDKs: Anthropic `cache_control`, Bedrock `cachePoint`,
// OpenAI `prompt_cache_key` (Chat Completions and Responses). And `promptCache: { auto: true }`.

const CLAUDE_BEDROCK = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
let up: Upstream;
beforeEach(async () => {
  up = await new Upstream().start();
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
  up.otherwise(RESPONSES_PATH, () => ({ status: 200, body: responseObject([messageItem('ok')]) }));
  up.otherwise(bedrockPath(CLAUDE_BEDROCK, 'converse'), () => converseOk(converseBody([{ text: 'ok' }])));
});
afterEach(() => up.close());

function router(chains: SwitchyardConfig['chains']) {
  return createRouter({
    providers: {
      openai: { type: 'openai', apiKey: 'sk-test-openai', baseURL: `${up.url}/v1` },
      responses: { type: 'openai', api: 'responses', apiKey: 'sk-test-openai', baseURL: `${up.url}/v1` },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-test', baseURL: up.url },
      aws: { type: 'bedrock', region: 'us-east-1', baseURL: up.url },
    },
    chains,
    retry: { maxAttempts: 1 },
  }, { logger: captureLogger().logger });
}

const tools: Tool[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'write_file', description: 'Write a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];
const conversation: Message[] = [
  { role: 'system', content: 'You are a careful coding agent.' },
  { role: 'user', content: 'Open main.ts' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'main.ts' } }] },
  { role: 'tool', toolCallId: 'call_1', content: 'export {}' },
];
const body = (path: string) => up.requests.filter((r) => r.path === path).at(-1)!.body;

describe('caller breakpoints reach each upstream in its shape', () => {
  const marked: Message[] = [
    { role: 'system', content: 'You are a careful coding agent.', cache: { ttl: '1h' } },
    { role: 'user', content: [{ type: 'text', text: 'Open main.ts', cache: {} }, { type: 'text', text: 'Today is Monday.' }] },
  ];
  const markedTools: Tool[] = [tools[0]!, { ...tools[1]!, cache: {} }];

  it('Anthropic: cache_control on the tool, the system block and the part, with the ttl', async () => {
    await router({ a: ['anthropic:claude-sonnet-4-6'] }).chat({ chain: 'a', messages: marked, tools: markedTools });
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    const sent = body(ANTHROPIC_PATH);
    expect(sent.tools.map((t: any) => t.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a careful coding agent.', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(sent.messages[0].content).toEqual([{ type: 'text', text: 'Open main.ts', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Today is Monday.' }]);
  });

  it('Bedrock Claude: a cachePoint after the tool, the system block and the part, with the ttl', async () => {
    await router({ b: [`aws:${CLAUDE_BEDROCK}`] }).chat({ chain: 'b', messages: marked, tools: markedTools });
    const sent = body(bedrockPath(CLAUDE_BEDROCK, 'converse'));
    expect(sent.toolConfig.tools.map((t: any) => Object.keys(t)[0])).toEqual(['toolSpec', 'toolSpec', 'cachePoint']);
    expect(sent.system).toEqual([{ text: 'You are a careful coding agent.' }, { cachePoint: { type: 'default', ttl: '1h' } }]);
    expect(sent.messages[0].content).toEqual([{ text: 'Open main.ts' }, { cachePoint: { type: 'default' } }, { text: 'Today is Monday.' }]);
  });

  it('OpenAI Chat Completions and Responses: one prompt_cache_key, the same for the same stable prefix, another for another user', async () => {
    const r = router({ o: ['openai:gpt-4o'], r: ['responses:gpt-4o'] });
    await r.chat({ chain: 'o', messages: marked, tools: markedTools });
    const first = body(OPENAI_PATH);
    expect(first.prompt_cache_key).toMatch(/^sy-[A-Za-z0-9_-]{32}$/);
    // No breakpoint field reaches OpenAI: its messages and tools are as without them.
    expect(JSON.stringify(first)).not.toMatch(/cache_control|"cache"/);
    // Another last turn, the same tools (the first stable breakpoint): the same key.
    await r.chat({ chain: 'o', messages: [marked[0]!, { role: 'user', content: 'Open util.ts' }], tools: markedTools });
    expect(body(OPENAI_PATH).prompt_cache_key).toBe(first.prompt_cache_key);
    await r.chat({ chain: 'o', messages: marked, tools: markedTools, user: 'u-42' });
    expect(body(OPENAI_PATH).prompt_cache_key).not.toBe(first.prompt_cache_key);
    await r.chat({ chain: 'r', messages: marked, tools: markedTools });
    expect(body(RESPONSES_PATH).prompt_cache_key).toBe(first.prompt_cache_key);
    expect(up.count(OPENAI_PATH)).toBe(3);
    expect(up.count(RESPONSES_PATH)).toBe(1);
  });

  it('OpenAI: no key for a request without breakpoints, or whose only one is on the last message; the caller\'s own key wins', async () => {
    const r = router({ o: ['openai:gpt-4o'] });
    await r.chat({ chain: 'o', messages: conversation, tools });
    expect(body(OPENAI_PATH).prompt_cache_key).toBeUndefined();
    await r.chat({ chain: 'o', messages: [{ role: 'user', content: 'hi', cache: {} }] });
    expect(body(OPENAI_PATH).prompt_cache_key).toBeUndefined();
    await r.chat({ chain: 'o', messages: marked, providerOptions: { openai: { prompt_cache_key: 'mine' } } });
    expect(body(OPENAI_PATH).prompt_cache_key).toBe('mine');
    expect(up.count(OPENAI_PATH)).toBe(3);
  });
});

describe('promptCache: { auto: true }', () => {
  it('places breakpoints on the last tool, the system prompt and the last user turn (a tool result), for Anthropic', async () => {
    await router({ a: { steps: ['anthropic:claude-sonnet-4-6'], promptCache: { auto: true } } }).chat({ chain: 'a', messages: conversation, tools });
    const sent = body(ANTHROPIC_PATH);
    expect(sent.tools.map((t: any) => t.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a careful coding agent.', cache_control: { type: 'ephemeral' } }]);
    expect(sent.messages.map((m: any) => (Array.isArray(m.content) ? m.content.map((b: any) => b.cache_control ?? null) : m.content))).toEqual([
      'Open main.ts', [null], [{ type: 'ephemeral' }],
    ]);
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(3);
  });

  it('places them for Bedrock Claude as cachePoints, and a step\'s own setting wins over the chain\'s', async () => {
    const r = router({
      on: { steps: [{ provider: 'aws', model: CLAUDE_BEDROCK }], promptCache: { auto: false } },
      step: { steps: [{ provider: 'aws', model: CLAUDE_BEDROCK, promptCache: { auto: true } }], promptCache: { auto: false } },
    });
    await r.chat({ chain: 'on', messages: conversation, tools });
    expect(JSON.stringify(body(bedrockPath(CLAUDE_BEDROCK, 'converse')))).not.toContain('cachePoint');
    await r.chat({ chain: 'step', messages: conversation, tools });
    const sent = body(bedrockPath(CLAUDE_BEDROCK, 'converse'));
    expect(sent.toolConfig.tools.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(sent.system.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(sent.messages.at(-1).content.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(JSON.stringify(sent).match(/cachePoint/g)).toHaveLength(3);
  });

  it('leaves a call that set any breakpoint as it is', async () => {
    const own: Message[] = [conversation[0]!, { role: 'user', content: 'Open main.ts', cache: { ttl: '1h' } }];
    await router({ a: { steps: ['anthropic:claude-sonnet-4-6'], promptCache: { auto: true } } }).chat({ chain: 'a', messages: own, tools });
    const sent = body(ANTHROPIC_PATH);
    expect(sent.tools.every((t: any) => t.cache_control === undefined)).toBe(true);
    expect(sent.system[0].cache_control).toBeUndefined();
    expect(sent.messages[0].content).toEqual([{ type: 'text', text: 'Open main.ts', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
  });

  it('gives OpenAI a key from the auto breakpoints, and places nothing when off (the default)', async () => {
    const r = router({ on: { steps: ['openai:gpt-4o'], promptCache: { auto: true } }, off: ['anthropic:claude-sonnet-4-6'] });
    await r.chat({ chain: 'on', messages: conversation, tools });
    expect(body(OPENAI_PATH).prompt_cache_key).toMatch(/^sy-/);
    await r.chat({ chain: 'off', messages: conversation, tools });
    expect(JSON.stringify(body(ANTHROPIC_PATH))).not.toContain('cache_control');
  });
});
