import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import type { Upstream } from '../support/upstream.js';
import { CLAUDE_USAGE, chatTextSse, claudeTurn1Blocks, claudeTurn1Sse } from './answers.js';
import { GATEWAY_KEY, headersOf, loadFixture, replay, startAgentGateway, type AgentGateway, type Fixture } from './replay.js';

// Claude Code's fixtures replayed whole, as issue 37 says the gateway takes them once its parts are
// merged (msg-stream: thinking streamed, real usage in message_start, any cache_control key;
// msg-pass: anthropic-beta and context_management to Anthropic targets; history: thinking removed
// for other targets). On the agents branch alone these fail: main refuses cache_control.scope (400).

let up: Upstream;
let gw: AgentGateway;
upstreamPerTest((u) => (up = u), () => gw?.close());

const MESSAGES = '/v1/messages';

function sdkStream(f: Fixture) {
  const { stream: _stream, ...body } = f.body;
  const headers = headersOf(f);
  const client = new Anthropic({ authToken: GATEWAY_KEY, apiKey: null, baseURL: gw.url, maxRetries: 0 });
  return client.beta.messages.stream(Object.assign(body, { betas: headers['anthropic-beta']!.split(',') }) as unknown as Parameters<Anthropic['beta']['messages']['stream']>[0], {
    headers: { 'x-app': headers['x-app']!, 'user-agent': headers['user-agent']! },
  });
}

describe('Claude Code on POST /v1/messages, whole: every field it sends, thinking streamed, a second turn byte-exact, a fall-through', () => {
  it('takes turn 1 with cache_control.scope and hands Anthropic every breakpoint unchanged, the client\'s anthropic-beta list and its context_management', async () => {
    gw = await startAgentGateway(up);
    up.script(MESSAGES, claudeTurn1Sse());
    const f = loadFixture('claude-code.turn-1');
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(up.count(MESSAGES)).toBe(1);
    const sent = r.upstream[0]!;
    expect(sent.body.system).toEqual(f.body.system);
    expect(sent.body.system[1].cache_control).toEqual({ type: 'ephemeral', scope: 'global' });
    expect(sent.body.messages).toEqual(f.body.messages);
    expect(sent.body.context_management).toEqual(f.body.context_management);
    expect(sent.headers['anthropic-beta']).toBe(f.headers['anthropic-beta']);
  });

  it('streams turn 1\'s thinking to the client: the SDK assembles thinking (with its signature), text and tool_use as Anthropic sent them, and message_start carries the real input and cache tokens', async () => {
    gw = await startAgentGateway(up);
    up.script(MESSAGES, claudeTurn1Sse(), claudeTurn1Sse());
    const final = await sdkStream(loadFixture('claude-code.turn-1')).finalMessage();
    expect(final.content).toEqual(claudeTurn1Blocks());
    expect(final.usage).toMatchObject({ input_tokens: 1_200, cache_read_input_tokens: 900, cache_creation_input_tokens: 0, output_tokens: 84 });

    const raw = await replay(gw, up, loadFixture('claude-code.turn-1'));
    const start = raw.events.find((e) => e.event === 'message_start')!.data;
    expect(start.message.usage).toMatchObject({ input_tokens: CLAUDE_USAGE.input_tokens, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 });
    const deltas = raw.events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.type);
    expect(deltas.slice(0, 3)).toEqual(['thinking_delta', 'thinking_delta', 'signature_delta']);
    const end = raw.events.find((e) => e.event === 'message_delta')!.data;
    expect(end.usage).toMatchObject({ input_tokens: 1_200, output_tokens: 84 });
  });

  it('sends turn 2, built from the client\'s own streamed answer, back to Anthropic with the thinking block byte for byte and scope and ttl on the system breakpoint', async () => {
    gw = await startAgentGateway(up);
    // Turn 1's answer, then (any) answer to turn 2: what matters is what turn 2 sent.
    up.script(MESSAGES, claudeTurn1Sse(), claudeTurn1Sse());
    const answer = await sdkStream(loadFixture('claude-code.turn-1')).finalMessage();
    const f = loadFixture('claude-code.turn-2');
    f.body.messages[1].content = answer.content;
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(up.count(MESSAGES)).toBe(2);
    const sent = r.upstream[0]!;
    expect(sent.text).toContain(JSON.stringify(claudeTurn1Blocks()[0]));
    expect(sent.body.messages).toEqual(f.body.messages);
    expect(sent.body.system[1].cache_control).toEqual({ type: 'ephemeral', ttl: '1h', scope: 'global' });
    expect(sent.headers['anthropic-beta']).toBe(f.headers['anthropic-beta']);
  });

  it('sends turn 2 whole to an OpenAI target without thinking, signatures or cache keys, never an upstream 400', async () => {
    gw = await startAgentGateway(up);
    up.script('/v1/chat/completions', chatTextSse(['It is ', 'switchyard.']));
    const f = loadFixture('claude-code.turn-2');
    f.body.model = 'claude-opus-4-8-openai-first';
    const final = await sdkStream(f).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'It is switchyard.' }]);
    expect([up.count('/v1/chat/completions'), up.count(MESSAGES)]).toEqual([1, 0]);
    expect(up.requests[0]!.text).not.toMatch(/thinking|signature|cache_control|scope|context_management/);
  });
});
