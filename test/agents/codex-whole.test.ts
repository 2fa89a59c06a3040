import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import type { Upstream } from '../support/upstream.js';
import { chatTextSse, codexTextSse, codexTurn1Sse } from './answers.js';
import { GATEWAY_KEY, loadFixture, replay, startAgentGateway, type AgentGateway, type Fixture } from './replay.js';

// Codex's fixtures replayed whole, as issue 37 item 3 says /v1/responses takes them once the codex
// part is merged (reasoning.summary, reasoning input items with encrypted_content, store: false) and
// history's (reasoning items removed for other targets). On the agents branch alone these fail: main
// refuses reasoning.summary and reasoning input items (400 unsupported_parameter).

let up: Upstream;
let gw: AgentGateway;
upstreamPerTest((u) => (up = u), () => gw?.close());

const RESPONSES = '/v1/responses';

function sdkStream(f: Fixture) {
  const { stream: _stream, ...body } = f.body;
  const client = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  return client.responses.stream(body as OpenAI.Responses.ResponseCreateParamsStreaming, { headers: { originator: f.headers.originator!, conversation_id: f.headers.conversation_id! } });
}

describe('Codex on POST /v1/responses, whole: every default field, store:false with encrypted reasoning, a fall-through', () => {
  it('takes turn 1 with reasoning.summary and hands a Responses target the body as Codex sent it', async () => {
    gw = await startAgentGateway(up);
    up.script(RESPONSES, codexTurn1Sse());
    const f = loadFixture('codex.turn-1');
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(up.count(RESPONSES)).toBe(1);
    expect(r.upstream[0]!.body).toEqual(f.body);
    expect(r.upstream[0]!.body.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
  });

  it('round-trips encrypted reasoning with store false: turn 1\'s reasoning item reaches the client and, sent back in turn 2, the Responses target unchanged', async () => {
    gw = await startAgentGateway(up);
    up.script(RESPONSES, codexTurn1Sse(), codexTextSse('README.md, package.json and src.'));
    const first = await sdkStream(loadFixture('codex.turn-1')).finalResponse();
    const f = loadFixture('codex.turn-2');
    expect(first.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: f.body.input[1].encrypted_content, summary: f.body.input[1].summary });
    const second = await sdkStream(f).finalResponse();
    expect(second.output_text).toBe('README.md, package.json and src.');
    expect(up.count(RESPONSES)).toBe(2);
    expect(up.requests[1]!.body.input).toEqual(f.body.input);
    expect(up.requests[1]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium', summary: 'auto' } });
  });

  it('sends turn 2 whole to a Chat Completions target without the reasoning item, never a 400', async () => {
    gw = await startAgentGateway(up);
    up.script('/v1/chat/completions', chatTextSse(['README.md, ', 'package.json and src.']));
    const f = loadFixture('codex.turn-2');
    f.body.model = 'gpt-5-codex-chat';
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect([up.count('/v1/chat/completions'), up.count(RESPONSES)]).toEqual([1, 0]);
    expect(up.requests[0]!.text).not.toMatch(/encrypted_content|summary_text|gAAAA/);
    expect(up.requests[0]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_codex_01', content: 'README.md\npackage.json\nsrc' });
  });
});
