import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import type { Upstream } from '../support/upstream.js';
import { chatTextSse, chatToolCallSse } from './answers.js';
import { GATEWAY_KEY, loadFixture, replay, startAgentGateway, type AgentGateway, type Fixture } from './replay.js';

// Cursor's traffic with "Override OpenAI Base URL" (test/agents/fixtures/cursor.turn-*.json, sources
// in each file) on POST /v1/chat/completions, replayed whole: main takes both turns. The client side
// is the openai SDK's Chat Completions stream, the API Cursor's override speaks.

let up: Upstream;
let gw: AgentGateway;
upstreamPerTest((u) => (up = u), () => gw?.close());

const CHAT = '/v1/chat/completions';

async function sdkChunks(f: Fixture) {
  const client = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const c of await client.chat.completions.create(f.body as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming)) chunks.push(c);
  return chunks;
}

describe('Cursor on POST /v1/chat/completions', () => {
  it('hands an OpenAI target turn 1 as Cursor sent it: tools, user, stream_options.include_usage', async () => {
    gw = await startAgentGateway(up);
    up.script(CHAT, chatToolCallSse('call_cursor_01', 'read_file', '{"target_file":"src/index.ts"}'));
    const f = loadFixture('cursor.turn-1');
    const r = await replay(gw, up, f);
    expect(r.status).toBe(200);
    expect(r.upstream.map((u) => u.path)).toEqual([CHAT]);
    expect(r.upstream[0]!.body).toEqual(f.body);
    expect(JSON.stringify(r.upstream[0]!.headers)).not.toContain(GATEWAY_KEY);
    expect(r.events.at(-1)!.data).toBe('[DONE]');
  });

  it('streams turn 1 back so the openai SDK reads the tool call in fragments and, as include_usage asked, a usage chunk', async () => {
    gw = await startAgentGateway(up);
    up.script(CHAT, chatToolCallSse('call_cursor_01', 'read_file', '{"target_file":"src/index.ts"}'));
    const chunks = await sdkChunks(loadFixture('cursor.turn-1'));
    const args = chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? [])).map((t) => t.function?.arguments ?? '').join('');
    expect(args).toBe('{"target_file":"src/index.ts"}');
    expect(chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? [])).find((t) => t.id)).toMatchObject({ id: 'call_cursor_01', function: { name: 'read_file' } });
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 310, completion_tokens: 22 });
    expect(up.count(CHAT)).toBe(1);
  });

  it('takes turn 2\'s assistant tool-call turn with content [] (as Cursor sends it) and sends it up with content null, which OpenAI accepts', async () => {
    gw = await startAgentGateway(up);
    up.script(CHAT, chatTextSse(['It exports ', 'createRouter.']));
    const f = loadFixture('cursor.turn-2');
    const chunks = await sdkChunks(f);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('It exports createRouter.');
    expect(up.count(CHAT)).toBe(1);
    const sent = up.requests[0]!.body;
    expect(sent.messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: f.body.messages[2].tool_calls });
    expect(sent.messages[3]).toEqual(f.body.messages[3]);
    expect(sent).toMatchObject({ user: f.body.user, stream_options: { include_usage: true } });
  });
});
