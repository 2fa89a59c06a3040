import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import type { Upstream } from '../support/upstream.js';
import { chatToolCallSse, claudeTurn1Blocks, claudeTurn1Sse } from './answers.js';
import { GATEWAY_KEY, headersOf, loadFixture, replay, startAgentGateway, withoutPending, type AgentGateway, type Fixture } from './replay.js';

// Claude Code's own traffic (test/agents/fixtures/claude-code.turn-*.json, sources in each file)
// through the gateway to a loopback Anthropic upstream, as main takes it today: each fixture less its
// `_pending` parts (cache_control.scope, which main refuses; claude-code-whole.test.ts replays them
// whole). The client side is the Anthropic SDK as Claude Code uses it: ANTHROPIC_AUTH_TOKEN as the
// bearer, the beta Messages API (POST /v1/messages?beta=true with its anthropic-beta list).

let up: Upstream;
let gw: AgentGateway;
upstreamPerTest((u) => (up = u), () => gw?.close());

const MESSAGES = '/v1/messages';
const turn1 = () => withoutPending(loadFixture('claude-code.turn-1'));
const turn2 = () => withoutPending(loadFixture('claude-code.turn-2'));

/** The Anthropic SDK pointed at the gateway the way Claude Code is (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN). */
const claudeClient = () => new Anthropic({ authToken: GATEWAY_KEY, apiKey: null, baseURL: gw.url, maxRetries: 0 });

/** The fixture's body sent through the SDK's beta stream helper, with the fixture's headers. */
function sdkStream(f: Fixture) {
  const { stream: _stream, ...body } = f.body;
  const headers = headersOf(f);
  const betas = headers['anthropic-beta']!.split(',');
  return claudeClient().beta.messages.stream(Object.assign(body, { betas }) as unknown as Parameters<Anthropic['beta']['messages']['stream']>[0], {
    headers: { 'x-app': headers['x-app']!, 'user-agent': headers['user-agent']!, 'anthropic-dangerous-direct-browser-access': 'true' },
  });
}

describe('Claude Code on POST /v1/messages (main today)', () => {
  it('takes turn 1 as Claude Code sends it (?beta=true, bearer key) and hands the Anthropic target its system blocks, breakpoints, tools, thinking, effort and user id', async () => {
    gw = await startAgentGateway(up);
    up.script(MESSAGES, claudeTurn1Sse());
    const f = turn1();
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.upstream.map((u) => [u.method, u.path])).toEqual([['POST', MESSAGES]]);
    const sent = r.upstream[0]!.body;
    expect(sent).toMatchObject({ model: 'claude-opus-4-8', max_tokens: 64_000, stream: true });
    expect(sent.system).toEqual(f.body.system);
    expect(sent.messages).toEqual(f.body.messages);
    expect(sent.tools).toEqual(f.body.tools);
    expect(sent.thinking).toEqual({ type: 'adaptive' });
    expect(sent.output_config).toEqual({ effort: 'high' });
    expect(sent.metadata).toEqual(f.body.metadata);
    // The gateway's own Anthropic key goes up, never the client's gateway key.
    expect(r.upstream[0]!.headers['x-api-key']).not.toBe(GATEWAY_KEY);
    expect(JSON.stringify(r.upstream[0]!.headers)).not.toContain(GATEWAY_KEY);
  });

  it('streams turn 1 back so the Anthropic SDK assembles its text and tool_use blocks, stop reason tool_use', async () => {
    gw = await startAgentGateway(up);
    up.script(MESSAGES, claudeTurn1Sse());
    const final = await sdkStream(turn1()).finalMessage();
    const [, text, tool] = claudeTurn1Blocks();
    expect(final.content).toEqual(expect.arrayContaining([{ type: 'text', text: text!.text }, { type: 'tool_use', id: tool!.id, name: 'Read', input: tool!.input }]));
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.output_tokens).toBe(84);
    expect(up.count(MESSAGES)).toBe(1);
  });

  it('sends turn 2\'s history back to the Anthropic target as Claude Code sent it: the thinking block byte for byte, signature intact, and the tool_result with its 1h breakpoint', async () => {
    gw = await startAgentGateway(up);
    up.script(MESSAGES, claudeTurn1Sse());
    const f = turn2();
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(up.count(MESSAGES)).toBe(1);
    const sent = r.upstream[0]!;
    expect(sent.body.messages).toEqual(f.body.messages);
    expect(sent.text).toContain(JSON.stringify(f.body.messages[1].content[0]));
    expect(sent.body.system[1].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('sends the same history to an OpenAI target (a chain that starts there) without thinking blocks or breakpoints, and Claude Code reads the answer', async () => {
    gw = await startAgentGateway(up);
    up.script('/v1/chat/completions', chatToolCallSse('call_oa_1', 'Read', '{"file_path":"/work/app/README.md"}'));
    const f = turn2();
    f.body.model = 'claude-opus-4-8-openai-first';
    const final = await sdkStream(f).finalMessage();
    expect(final.content).toEqual([{ type: 'tool_use', id: 'call_oa_1', name: 'Read', input: { file_path: '/work/app/README.md' } }]);
    expect([up.count('/v1/chat/completions'), up.count(MESSAGES)]).toEqual([1, 0]);
    const sent = up.requests[0]!;
    expect(sent.text).not.toMatch(/thinking|signature|cache_control/);
    expect(sent.body.messages.slice(2)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What does package.json name this project?' }] },
      { role: 'assistant', content: "I'll read package.json.", tool_calls: [{ id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/work/app/package.json"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_01A09q90qw90lq917835lq9', content: '{"name": "switchyard"}' },
    ]);
  });
});
