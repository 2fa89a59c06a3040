import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiParallelToolSse, openaiToolCompletion, openaiWeatherTool } from '../../providers/test-support/wire.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openaiBodies } from '../support/fixtures.js';
import { INTERNALS, type Router, type RouterInternals } from '../../src/router.js';
import { anthropicSse, openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { GATEWAY_PATHS, startHarness, xHeaders, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const hello = [{ role: 'user' as const, content: 'Say hello' }];

/** The `data:` payloads of a raw SSE body, in order. */
const dataLines = (text: string) => text.split('\n\n').filter(Boolean).map((block) => block.replace(/^data: /, ''));

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  describe('POST /v1/chat/completions through the openai SDK', () => {
    it('answers with the completion and names the target that served it in the headers', async () => {
      h = await startHarness(up, {}, { passThrough });
      const { data, response } = await h.client().chat.completions.create({ model: 'default', messages: hello }).withResponse();
      expect(data.object).toBe('chat.completion');
      expect(data.choices[0]!.message.content).toBe('Hello! How can I assist you today?');
      expect(data.usage).toMatchObject({ prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 });
      expect(xHeaders(response.headers)).toMatchObject({
        'x-switchyard-provider': 'openai',
        'x-switchyard-model': 'gpt-4o-mini',
        'x-switchyard-attempts': '1',
        'x-switchyard-upstream-request-id': 'req_1332ed8a813a4caaa2f0f3c55a6a68cb',
      });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-\w+$/);
      expect((data as { _request_id?: string })._request_id).toBe(response.headers.get('x-request-id'));
      expect(up.count(OPENAI_PATH)).toBe(1);
      expect(up.requests[0]!.body).toMatchObject({ model: 'gpt-4o-mini', messages: hello });
    });

    it('names the provider\'s request id on a stream too, in the headers before the first chunk', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 }, { sse: openaiSse(['Hi']), headers: { 'x-request-id': 'req_stream_2' } });
      const raw = await h.client().chat.completions.create({ model: 'openai-only', messages: hello, stream: true }).asResponse();
      expect(xHeaders(raw.headers)).toMatchObject({ 'x-switchyard-attempts': '2', 'x-switchyard-upstream-request-id': 'req_stream_2' });
      expect(await raw.text()).toMatch(/data: \[DONE\]\n\n$/);
    });

    it('takes a stream\'s header facts from its start event: no router-wide attempt listener is left behind', async () => {
      // Without /metrics (whose counters listen to every attempt) nothing of the gateway listens at all.
      h = await startHarness(up, {}, { metrics: false, passThrough });
      const events = (h.router as Router & { [INTERNALS]: RouterInternals })[INTERNALS].runtime.events;
      up.script(OPENAI_PATH, ...Array.from({ length: 3 }, () => ({ status: 503, body: openaiBodies.overloaded503 })));
      up.script(ANTHROPIC_PATH, { sse: anthropicSse(['Hi']), headers: { 'request-id': 'req_anthropic_stream' } });
      const raw = await h.client().chat.completions.create({ model: 'default', messages: hello, stream: true }).asResponse();
      // Three 503s from openai, then anthropic's stream: the same facts the JSON answer's headers carry.
      expect(xHeaders(raw.headers)).toMatchObject({
        'x-switchyard-provider': 'anthropic', 'x-switchyard-model': 'claude-sonnet-4-6',
        'x-switchyard-attempts': '4', 'x-switchyard-upstream-request-id': 'req_anthropic_stream',
      });
      expect(await raw.text()).toMatch(/data: \[DONE\]\n\n$/);
      expect(events.has('attempt')).toBe(false);
    });

    it('answers from the fallback when the primary keeps answering 503', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, ...Array.from({ length: 3 }, () => ({ status: 503, body: openaiBodies.overloaded503 })));
      const { data, response } = await h.client().chat.completions.create({ model: 'default', messages: hello }).withResponse();
      expect(data.choices[0]!.message.content).toBe('I have successfully executed the test_tool.');
      expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'anthropic', 'x-switchyard-model': 'claude-sonnet-4-6', 'x-switchyard-attempts': '4' });
      expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([3, 1]);
    });

    it('streams the chunks, then the usage chunk, then [DONE], with the headers before the body', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo!']) }, { sse: openaiSse(['Hel', 'lo!']) });
      const client = h.client();
      const params = { model: 'openai-only', messages: hello, stream: true as const, stream_options: { include_usage: true } };

      const stream = await client.chat.completions.create(params);
      let text = '';
      let usage: OpenAI.CompletionUsage | null | undefined;
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect([text, finish]).toEqual(['Hello!', 'stop']);
      expect(usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 10, total_tokens: 27 });

      const raw = await client.chat.completions.create(params).asResponse();
      expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(xHeaders(raw.headers)).toMatchObject({ 'x-switchyard-provider': 'openai', 'x-switchyard-model': 'gpt-4o-mini', 'x-switchyard-attempts': '1' });
      const body = await raw.text();
      const lines = dataLines(body);
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(lines.at(-1)).toBe('[DONE]');
      const chunks = lines.slice(0, -1).map((l) => JSON.parse(l));
      // The role chunk: the gateway's own on the translated path, the upstream's (with its `refusal: null`) on pass-through.
      expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
      expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 27 } });
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    });

    it('answers a stream that fails before its first token with an HTTP error, and one cut after it with an error frame the SDK throws on', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { status: 400, body: openaiBodies.contextLength });
      const client = h.client();
      const before = await client.chat.completions.create({ model: 'openai-only', messages: hello, stream: true }).then(() => undefined, (e: unknown) => e);
      expect(before).toBeInstanceOf(OpenAI.BadRequestError);
      expect((before as APIError).code).toBe('context_length_exceeded');

      up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo', ' there']), cutAfter: 3 });
      let text = '';
      const cut = await (async () => {
        for await (const chunk of await client.chat.completions.create({ model: 'openai-only', messages: hello, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      })().then(() => undefined, (e: unknown) => e);
      expect(cut).toBeInstanceOf(APIError);
      expect((cut as APIError).status).toBeUndefined();
      expect((cut as APIError).code).toBe('transport');
      expect(text).toBe('Hello');
      expect(up.count(OPENAI_PATH)).toBe(2);
    });

    it('passes a tool call through both ways: the call out, the history with its result back in', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() });
      const client = h.client();
      const tools = [{ type: 'function' as const, function: openaiWeatherTool }];
      const ask = [{ role: 'user' as const, content: 'Weather in Boston?' }];
      const first = await client.chat.completions.create({ model: 'openai-only', messages: ask, tools, tool_choice: 'auto' });
      const message = first.choices[0]!.message;
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      expect(message.tool_calls).toEqual([{ id: 'call_abc123', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' } }]);
      expect(up.requests[0]!.body.tools[0].function.name).toBe('get_current_weather');

      const second = await client.chat.completions.create({
        model: 'openai-only', tools,
        messages: [...ask, message, { role: 'tool', tool_call_id: 'call_abc123', content: '{"temp":"22C"}' }],
      });
      expect(second.choices[0]!.message.content).toBe('Hello! How can I assist you today?');
      const sent = up.requests[1]!.body.messages;
      expect(sent[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_current_weather' } }] });
      expect(JSON.parse(sent[1].tool_calls[0].function.arguments)).toEqual({ location: 'Boston, MA' });
      expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_abc123', content: '{"temp":"22C"}' });
    });

    it('streams parallel tool calls with a per-call index, as the SDK assembles them', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { sse: openaiParallelToolSse() });
      const runner = h.client().chat.completions.stream({
        model: 'openai-only', messages: [{ role: 'user', content: 'Weather in Boston and Paris?' }],
        tools: [{ type: 'function', function: openaiWeatherTool }],
      });
      const done = await runner.finalChatCompletion();
      expect(done.choices[0]!.finish_reason).toBe('tool_calls');
      expect(done.choices[0]!.message.tool_calls!.map((c) => [c.id, c.type === 'function' && JSON.parse(c.function.arguments)])).toEqual([
        ['call_9oOUGn7XVM1S9AdJeglwUv1Z', { location: 'Boston' }],
        ['call_2', { location: 'Paris' }],
      ]);
    });
  });
});
