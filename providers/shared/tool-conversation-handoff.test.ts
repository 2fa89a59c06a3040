import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, anthropicMessage, OPENAI_PATH, openaiCompletion } from '../../test/support/fixtures.js';
import { startUpstream, type Upstream } from '../../test/support/upstream.js';
import type { AssistantMessage, Message } from '../../src/types.js';
import { adapterFor } from '../test-support/adapter-harness.js';
import { anthropicThinkingBlocks, anthropicToolMessage, openaiToolCompletion, openaiWeatherTool } from '../test-support/wire.js';
import type { ProviderResponse } from '../types.js';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

const openai = () => adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: `${upstream.url}/v1` });
const anthropic = () => adapterFor('anthropic', { type: 'anthropic', apiKey: 'sk-ant-test', baseURL: upstream.url });
const compatible = () => adapterFor('local', { type: 'openai-compatible', baseURL: `${upstream.url}/v1` });
const signal = () => ({ signal: new AbortController().signal });
const divide = { name: 'divide', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } };

/** The assistant turn as the router appends it to the history. */
const turn = (res: ProviderResponse): AssistantMessage => ({
  role: 'assistant', content: res.text === '' ? null : res.text, toolCalls: res.toolCalls, ...(res.providerParts ? { providerParts: res.providerParts } : {}),
});

describe('a tool conversation handed from one provider to another', () => {
  it('continues on Anthropic after the tool call came from OpenAI: tool_use and tool_result share the OpenAI id', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() });
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicMessage("It's 22 °C in Boston.") });
    const question: Message = { role: 'user', content: "What's the weather like in Boston today?" };
    const first = await openai().chat({ model: 'gpt-4o', messages: [question], tools: [openaiWeatherTool] }, signal());
    const history: Message[] = [question, turn(first), { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '{"temperature": 22}' }];
    const second = await anthropic().chat({ model: 'claude-sonnet-4-6', messages: history, tools: [openaiWeatherTool], reasoning: { effort: 'low' } }, signal());
    expect(second.text).toBe("It's 22 °C in Boston.");
    const sent = upstream.requests.find((r) => r.path === ANTHROPIC_PATH)!.body;
    expect(sent.messages).toEqual([
      { role: 'user', content: "What's the weather like in Boston today?" },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_abc123', name: 'get_current_weather', input: { location: 'Boston, MA' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc123', content: '{"temperature": 22}' }] },
    ]);
    // The OpenAI turn has no thinking blocks: with thinking on, the API would refuse the request.
    expect(sent).not.toHaveProperty('thinking');
  });

  it('continues on OpenAI after a thinking tool turn from Anthropic, without the thinking, and back on Anthropic with it', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(anthropicThinkingBlocks) }, { status: 200, body: anthropicMessage('Done.') });
    upstream.script(OPENAI_PATH, { status: 200, body: openaiCompletion('925 / 5 = 185.') });
    const question: Message = { role: 'user', content: 'What is 925 / 5?' };
    const first = await anthropic().chat({ model: 'claude-opus-4-8', messages: [question], tools: [divide], reasoning: { effort: 'high' } }, signal());
    const history: Message[] = [question, turn(first), { role: 'tool', toolCallId: 'toolu_01X', content: '185' }];

    await openai().chat({ model: 'gpt-4o', messages: history, tools: [divide] }, signal());
    const toOpenAI = upstream.requests.find((r) => r.path === OPENAI_PATH)!.body;
    expect(toOpenAI.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01X', type: 'function', function: { name: 'divide', arguments: '{"a":925,"b":5}' } }] },
      { role: 'tool', tool_call_id: 'toolu_01X', content: '185' },
    ]);

    await anthropic().chat({ model: 'claude-opus-4-8', messages: history, tools: [divide], reasoning: { effort: 'high' } }, signal());
    const backToAnthropic = upstream.requests.filter((r) => r.path === ANTHROPIC_PATH)[1]!.body;
    expect(backToAnthropic.messages[1]).toEqual({ role: 'assistant', content: anthropicThinkingBlocks });
    expect(backToAnthropic.thinking).toEqual({ type: 'adaptive' });
  });

  it('continues on Anthropic with an id Anthropic would refuse, sanitised alike on the call and its result', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([{ id: 'functions.divide:0', name: 'divide', arguments: '{"a":1,"b":2}' }]) });
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicMessage('0.5') });
    const question: Message = { role: 'user', content: '1 / 2?' };
    const first = await compatible().chat({ model: 'kimi-k2', messages: [question], tools: [divide] }, signal());
    expect(first.toolCalls[0]!.id).toBe('functions.divide:0');
    const history: Message[] = [question, turn(first), { role: 'tool', toolCallId: 'functions.divide:0', content: '0.5' }];
    await anthropic().chat({ model: 'claude-sonnet-4-6', messages: history, tools: [divide] }, signal());
    const sent = upstream.requests.find((r) => r.path === ANTHROPIC_PATH)!.body;
    const id = sent.messages[1].content[0].id;
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(sent.messages[2].content[0].tool_use_id).toBe(id);
  });
});
