import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import type { Upstream } from '../support/upstream.js';
import { chatTextSse, codexTextSse, codexTurn1Items, codexTurn1Sse } from './answers.js';
import { GATEWAY_KEY, headersOf, loadFixture, replay, startAgentGateway, withoutPending, type AgentGateway, type Fixture } from './replay.js';

// Codex's own traffic (test/agents/fixtures/codex.turn-*.json, from openai/codex's source) on
// POST /v1/responses, as main takes it today: each fixture less its `_pending` parts
// (reasoning.summary and reasoning input items, which main refuses; codex-whole.test.ts replays
// them whole). The client side is the openai SDK's Responses stream, as Codex's provider config
// (`wire_api = "responses"`) makes Codex speak.

let up: Upstream;
let gw: AgentGateway;
upstreamPerTest((u) => (up = u), () => gw?.close());

const RESPONSES = '/v1/responses';
const CHAT = '/v1/chat/completions';
const turn1 = () => withoutPending(loadFixture('codex.turn-1'));
const turn2 = () => withoutPending(loadFixture('codex.turn-2'));

/** The fixture's body through the openai SDK's Responses stream helper, with Codex's headers. */
function sdkStream(f: Fixture) {
  const { stream: _stream, ...body } = f.body;
  const h = headersOf(f);
  const client = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  return client.responses.stream(body as OpenAI.Responses.ResponseCreateParamsStreaming, { headers: { originator: h.originator!, conversation_id: h.conversation_id! } });
}

describe('Codex on POST /v1/responses (main today)', () => {
  it('hands a Responses target turn 1 as Codex sent it: store false, include, prompt_cache_key, instructions, tools and their choice', async () => {
    gw = await startAgentGateway(up);
    up.script(RESPONSES, codexTurn1Sse());
    const f = turn1();
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(r.upstream.map((u) => u.path)).toEqual([RESPONSES]);
    expect(r.upstream[0]!.body).toEqual(f.body);
    expect(JSON.stringify(r.upstream[0]!.headers)).not.toContain(GATEWAY_KEY);
  });

  it('streams turn 1 back so the openai SDK assembles the reasoning item (its encrypted content) and the function call Codex runs', async () => {
    gw = await startAgentGateway(up);
    up.script(RESPONSES, codexTurn1Sse());
    const final = await sdkStream(turn1()).finalResponse();
    const { reasoning, call } = codexTurn1Items();
    expect(final.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
    expect(final.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: reasoning.encrypted_content });
    expect(final.output[1]).toMatchObject({ type: 'function_call', name: 'shell', call_id: call.call_id, arguments: call.arguments });
    expect(up.count(RESPONSES)).toBe(1);
  });

  it('hands a Responses target turn 2\'s function call and its output as Codex sent them', async () => {
    gw = await startAgentGateway(up);
    up.script(RESPONSES, codexTextSse('README.md, package.json and src.'));
    const f = turn2();
    const final = await sdkStream(f).finalResponse();
    expect(final.output_text).toBe('README.md, package.json and src.');
    expect(up.count(RESPONSES)).toBe(1);
    expect(up.requests[0]!.body.input).toEqual(f.body.input);
    expect(up.requests[0]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], prompt_cache_key: f.body.prompt_cache_key });
  });

  it('translates turn 2 for a Chat Completions target: instructions as the system message, the call and its output as a tool-call turn and a tool message', async () => {
    gw = await startAgentGateway(up);
    up.script(CHAT, chatTextSse(['README.md, ', 'package.json and src.']));
    const f = turn2();
    f.body.model = 'gpt-5-codex-chat';
    const final = await sdkStream(f).finalResponse();
    expect(final.output_text).toBe('README.md, package.json and src.');
    expect([up.count(CHAT), up.count(RESPONSES)]).toEqual([1, 0]);
    const sent = up.requests[0]!.body;
    expect(sent.messages).toEqual([
      { role: 'system', content: f.body.instructions },
      { role: 'user', content: [{ type: 'text', text: 'List the files in this folder.' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_codex_01', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
      { role: 'tool', tool_call_id: 'call_codex_01', content: 'README.md\npackage.json\nsrc' },
    ]);
    expect(sent).toMatchObject({ model: 'gpt-4.1', stream: true, parallel_tool_calls: false, tool_choice: 'auto' });
    expect(sent.tools).toEqual([{ type: 'function', function: { name: 'shell', description: f.body.tools[0].description, parameters: f.body.tools[0].parameters, strict: false } }]);
  });
});
