import { readFileSync } from 'node:fs';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { OPENAI_PATH } from '../../support/fixtures.js';
import { openaiSse } from '../../support/sse.js';
import type { Upstream } from '../../support/upstream.js';
import { upstreamPerTest } from '../../support/upstream-per-test.js';
import { startHarness, type Harness } from '../gateway-harness.js';
import { RESPONSES_PATH, functionCallItem, messageItem, responseObject, responsesEvent, responsesUsageOf } from '../../../providers/test-support/responses-wire.js';

// Codex (openai/codex, the Rust CLI) on POST /v1/responses, through the real openai SDK and a real
// gateway to loopback upstreams, with the body Codex sends by default (test/agents/fixtures/
// codex-store-false.json, its sources at its top): store false, the whole history each turn with
// its reasoning items' encrypted content, reasoning.summary, text.verbosity, client_metadata, a
// freeform custom tool. A Responses target gets all of it as sent; a Chat Completions target after a
// fall-through gets none of the reasoning and answers.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

interface CodexFixture {
  turn1: Record<string, unknown> & { input: unknown[] };
  turn2Input: Array<Record<string, unknown>>;
}
const fixture = (): CodexFixture => JSON.parse(readFileSync(new URL('../../agents/fixtures/codex-store-false.json', import.meta.url), 'utf8')) as CodexFixture;

/** Turn 1 of the fixture as the SDK's streaming params (the SDK adds `stream: true` itself). */
function turn1(): OpenAI.Responses.ResponseCreateParamsStreaming {
  return fixture().turn1 as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
}

/** Turn 2: the same request with the whole history (store false), as Codex sends it. */
function turn2(): OpenAI.Responses.ResponseCreateParamsStreaming {
  const f = fixture();
  return Object.assign({}, f.turn1, { input: f.turn2Input }) as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
}

/** Where turn 1's reasoning (and the item Codex sends back in turn 2) comes from: the upstream's output item, with its id. */
function upstreamReasoning() {
  const sent = fixture().turn2Input[1]!;
  return { id: 'rs_6820f383d7c08191846711c5df8233bc0ac5ba57aafcbac7', type: 'reasoning', summary: sent.summary, encrypted_content: sent.encrypted_content };
}

/** The Responses API's stream of turn 1: a reasoning item whose summary streams in two deltas, then a shell call. */
function turn1Sse(): string[] {
  const reasoning = upstreamReasoning();
  const text = (reasoning.summary as Array<{ text: string }>)[0]!.text;
  const call = functionCallItem('shell', '{"command":["cat","README.md"]}', 'call_codex_01');
  const at = { item_id: reasoning.id, output_index: 0, summary_index: 0 };
  return [
    responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null, store: false }) }),
    responsesEvent('response.output_item.added', { output_index: 0, item: { id: reasoning.id, type: 'reasoning', summary: [] } }),
    responsesEvent('response.reasoning_summary_part.added', Object.assign({ part: { type: 'summary_text', text: '' } }, at)),
    responsesEvent('response.reasoning_summary_text.delta', Object.assign({ delta: text.slice(0, 21) }, at)),
    responsesEvent('response.reasoning_summary_text.delta', Object.assign({ delta: text.slice(21) }, at)),
    responsesEvent('response.reasoning_summary_text.done', Object.assign({ text }, at)),
    responsesEvent('response.reasoning_summary_part.done', Object.assign({ part: { type: 'summary_text', text } }, at)),
    responsesEvent('response.output_item.done', { output_index: 0, item: reasoning }),
    responsesEvent('response.output_item.added', { output_index: 1, item: Object.assign({}, call, { arguments: '', status: 'in_progress' }) }),
    responsesEvent('response.function_call_arguments.delta', { item_id: call.id, output_index: 1, delta: call.arguments }),
    responsesEvent('response.function_call_arguments.done', { item_id: call.id, output_index: 1, arguments: call.arguments }),
    responsesEvent('response.output_item.done', { output_index: 1, item: call }),
    responsesEvent('response.completed', { response: responseObject([reasoning, call], { store: false, usage: responsesUsageOf(812, 96, 512, 64) }) }),
  ];
}

/** The Responses API's stream of a text answer. */
function textSse(text: string): string[] {
  const item = messageItem(text);
  return [
    responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null, store: false }) }),
    responsesEvent('response.output_item.added', { output_index: 0, item: Object.assign({}, item, { status: 'in_progress', content: [] }) }),
    responsesEvent('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    responsesEvent('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: text, logprobs: [] }),
    responsesEvent('response.output_item.done', { output_index: 0, item }),
    responsesEvent('response.completed', { response: responseObject([item], { store: false, usage: responsesUsageOf(900, 20, 768, 0) }) }),
  ];
}

/** A gateway whose `gpt-5-codex` chain is a reasoning model on the Responses API, and `fallthrough` that one, then Chat Completions. */
function start(passThrough: boolean) {
  return startHarness(up, {
    providers: {
      openai: { type: 'openai', api: 'responses', apiKey: 'sk-proj-codex-0123456789abcdef', baseURL: `${up.url}/v1`, timeoutMs: 5_000 },
      chat: { type: 'openai', apiKey: 'sk-proj-codex-chat-0123456789ab', baseURL: `${up.url}/v1`, timeoutMs: 5_000 },
    },
    chains: { 'gpt-5-codex': ['openai:gpt-5-codex'], fallthrough: ['openai:gpt-5-codex', 'chat:gpt-4.1'] },
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 },
  } as never, { passThrough });
}

/** Streams a request through the SDK, keeping every event's type, the summary deltas and the final Response. */
async function streamed(params: OpenAI.Responses.ResponseCreateParamsStreaming) {
  const stream = h.client().responses.stream(params);
  const types: string[] = [];
  const summary: string[] = [];
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.reasoning_summary_text.delta') summary.push(event.delta);
  }
  return { types, summary, final: await stream.finalResponse() };
}

describe('Codex on /v1/responses: its default body to a Responses target, round-tripped as sent', () => {
  it.each([true, false])('accepts every field Codex sends by default and hands the Responses target each of them (passThrough %s)', async (passThrough) => {
    h = await start(passThrough);
    up.script(RESPONSES_PATH, { sse: textSse('Done.') });
    const { final } = await streamed(turn1());
    expect(final.output_text).toBe('Done.');
    expect(up.count(RESPONSES_PATH)).toBe(1);
    const sent = up.requests[0]!;
    const f = fixture();
    if (passThrough) {
      // The client's bytes, only model rewritten (the chain's name and the target's model are the same here).
      expect(sent.text).toBe(JSON.stringify(Object.assign({}, f.turn1, { stream: true })));
    }
    // Translated or not, the same fields reach the upstream.
    expect(sent.body).toMatchObject({
      model: 'gpt-5-codex', instructions: f.turn1.instructions, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Add a README line saying hello.' }] }],
      tool_choice: 'auto', parallel_tool_calls: false, reasoning: { effort: 'medium', summary: 'auto' }, store: false, stream: true,
      include: ['reasoning.encrypted_content'], service_tier: 'priority', prompt_cache_key: f.turn1.prompt_cache_key,
      text: { verbosity: 'medium' }, client_metadata: f.turn1.client_metadata,
    });
    expect(sent.body.tools).toEqual(f.turn1.tools);
  });

  it.each([true, false])('round-trips a store: false turn with encrypted reasoning: the summary streams to the client, and turn 2 sends the reasoning item back byte-exact (passThrough %s)', async (passThrough) => {
    h = await start(passThrough);
    up.script(RESPONSES_PATH, { sse: turn1Sse() }, { sse: textSse('README.md now says hello.') });
    const first = await streamed(turn1());
    const reasoning = upstreamReasoning();
    // The upstream's reasoning item and its summary events reach Codex on the pass-through path (the
    // translated path carries no reasoning events: docs/gateway-responses.md).
    if (passThrough) {
      expect(first.types).toEqual(expect.arrayContaining(['response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done']));
      expect(first.summary.join('')).toBe((reasoning.summary as Array<{ text: string }>)[0]!.text);
      expect(first.final.output[0]).toEqual(reasoning);
    }
    expect(first.final.output.find((i) => i.type === 'function_call')).toMatchObject({ name: 'shell', call_id: 'call_codex_01' });

    const second = await streamed(turn2());
    expect(second.final.output_text).toBe('README.md now says hello.');
    expect(up.count(RESPONSES_PATH)).toBe(2);
    const sent = up.requests[1]!;
    const items = fixture().turn2Input;
    if (passThrough) expect(sent.text).toBe(JSON.stringify(Object.assign({}, turn2(), { stream: true })));
    // Codex's reasoning item, as it sent it back, is in the upstream's body byte for byte; the freeform call and its output too.
    expect(sent.text).toContain(JSON.stringify(items[1]));
    expect(sent.text).toContain(JSON.stringify(items[4]));
    expect(sent.body.input).toHaveLength(6);
    expect(sent.body.input.slice(1, 3)).toEqual([items[1], items[2]]);
    expect(sent.body.input[5]).toEqual(items[5]);
    expect(sent.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium', summary: 'auto' } });
  });

  it('keeps nothing for a store: false turn: its id continues nothing and retrieves nothing', async () => {
    h = await start(false);
    up.script(RESPONSES_PATH, { sse: textSse('Done.') });
    const { final } = await streamed(turn1());
    const err = await h.client().responses.create({ model: 'gpt-5-codex', previous_response_id: final.id, input: 'And?' }).catch((e: unknown) => e);
    expect((err as { status?: number }).status).toBe(400);
    expect((err as { error?: { code?: string } }).error?.code).toBe('previous_response_not_found');
    const got = await h.client().responses.retrieve(final.id).catch((e: unknown) => e);
    expect((got as { status?: number }).status).toBe(404);
    expect(up.count(RESPONSES_PATH)).toBe(1);
  });
});

/** A freeform apply_patch call, as the Responses API answers it. */
const patchItem = () => ({ type: 'custom_tool_call', id: 'ctc_68a1', status: 'completed', call_id: 'call_codex_02', name: 'apply_patch', input: fixture().turn2Input[4]!.input as string });

describe('Codex on /v1/responses: a freeform (custom) tool call in the answer of the translated path', () => {
  it('streams it to the client as a custom_tool_call item, and replays it on the next turn answered by custom_tool_call_output', async () => {
    h = await start(false);
    const item = patchItem();
    up.script(RESPONSES_PATH, {
      sse: [
        responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null, store: false }) }),
        responsesEvent('response.output_item.added', { output_index: 0, item: Object.assign({}, item, { input: '', status: 'in_progress' }) }),
        responsesEvent('response.custom_tool_call_input.delta', { item_id: item.id, output_index: 0, delta: item.input }),
        responsesEvent('response.custom_tool_call_input.done', { item_id: item.id, output_index: 0, input: item.input }),
        responsesEvent('response.output_item.done', { output_index: 0, item }),
        responsesEvent('response.completed', { response: responseObject([item], { store: false }) }),
      ],
    }, { sse: textSse('Patched.') });
    const { types, final } = await streamed(turn1());
    expect(final.output).toHaveLength(1);
    expect(final.output[0]).toMatchObject({ type: 'custom_tool_call', call_id: 'call_codex_02', name: 'apply_patch', input: item.input, status: 'completed' });
    expect(types).toContain('response.custom_tool_call_input.done');
    expect(types).not.toContain('response.function_call_arguments.delta');
    // Codex sends the call back with its output; the upstream gets both as their own item types.
    const back = { type: 'custom_tool_call', call_id: item.call_id, name: item.name, input: item.input };
    const second = await streamed(Object.assign(turn1(), { input: [fixture().turn1.input[0], back, { type: 'custom_tool_call_output', call_id: item.call_id, output: 'Success.' }] }));
    expect(second.final.output_text).toBe('Patched.');
    expect(up.count(RESPONSES_PATH)).toBe(2);
    expect(up.requests[1]!.body.input.slice(1)).toEqual([back, { type: 'custom_tool_call_output', call_id: item.call_id, output: 'Success.' }]);
  });

  it('answers it as a custom_tool_call item when not streamed', async () => {
    h = await start(false);
    up.script(RESPONSES_PATH, { status: 200, body: responseObject([patchItem()], { store: false }) });
    const { stream: _stream, ...params } = fixture().turn1;
    const res = await h.client().responses.create(params as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(res.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_codex_02', name: 'apply_patch', input: patchItem().input })]);
    expect(up.count(RESPONSES_PATH)).toBe(1);
  });
});

describe('Codex on /v1/responses: a fall-through to a Chat Completions target', () => {
  it.each([true, false])('sends it the history without reasoning, custom tools or Responses-only fields, and answers (passThrough %s)', async (passThrough) => {
    h = await start(passThrough);
    up.script(RESPONSES_PATH, { status: 503, body: { error: { message: 'The server is overloaded.', type: 'server_error', param: null, code: null } } });
    up.script(OPENAI_PATH, { sse: openaiSse(['README.md ', 'says hello.']) });
    const { final } = await streamed(Object.assign(turn2(), { model: 'fallthrough' }));
    expect(final.output_text).toBe('README.md says hello.');
    expect([up.count(RESPONSES_PATH), up.count(OPENAI_PATH)]).toEqual([1, 1]);
    // The Responses target was tried first with the client's bytes (pass-through) or the router's body.
    if (passThrough) expect(up.requests[0]!.text).toBe(JSON.stringify(Object.assign({}, turn2(), { stream: true })));
    else expect(up.requests[0]!.body.input).toHaveLength(6);
    const chat = up.requests.find((r) => r.path === OPENAI_PATH)!;
    expect(chat.text).not.toMatch(/encrypted_content|summary_text|gAAAA|client_metadata|verbosity|"custom"|lark/);
    expect(chat.body.model).toBe('gpt-4.1');
    expect(chat.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['shell']);
    expect(chat.body.messages).toEqual([
      { role: 'system', content: fixture().turn1.instructions },
      { role: 'user', content: [{ type: 'text', text: 'Add a README line saying hello.' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_codex_01', type: 'function', function: { name: 'shell', arguments: '{"command":["cat","README.md"]}' } }] },
      { role: 'tool', tool_call_id: 'call_codex_01', content: '# demo' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_codex_02', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: fixture().turn2Input[4]!.input }) } }] },
      { role: 'tool', tool_call_id: 'call_codex_02', content: 'Success. Updated README.md' },
    ]);
  });
});
