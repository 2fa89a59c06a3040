import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/calls/stream.js';
import { runEval } from '../../src/eval/run-eval.js';
import { renderTerminalReport } from '../../src/eval/terminal-report.js';
import type { CallEvent } from '../../src/observe/events.js';
import { startHarness } from '../gateway/gateway-harness.js';
import { silentLogger } from '../eval/helpers.js';
import { OPENAI_PATH, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { anthropicUsage } from '../../providers/anthropic/usage.js';
import { converseUsage } from '../../providers/bedrock/usage.js';
import { geminiUsage } from '../../providers/gemini/usage.js';
import { responsesUsage } from '../../providers/openai/responses/answer.js';
import { openAIUsage } from '../../providers/openai/usage.js';
import { messageItem, responseObject, responsesTextSse, RESPONSES_PATH } from '../../providers/test-support/responses-wire.js';
import { openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, OPENAI_KEY, rejectionOf, wireRouter } from '../support/wire-router.js';

// A provider that reports no usage (an OpenAI-compatible server that ignores
// stream_options.include_usage, a stream cut after its finish_reason, a body without `usage`)
// leaves the usage unknown: absent, never an invented 0, for every consumer.

let up: Upstream;
const closers = upstreamPerTest((u) => (up = u));

const SSE = openaiSse(['Hello', ' there']);
/** The stream without its usage chunk: the finish chunk, then `[DONE]`. */
const NO_USAGE = [...SSE.slice(0, -2), SSE.at(-1)!];
const { usage: _dropped, ...completionWithoutUsage } = openaiCompletion('Hello there');

function router(overrides: Parameters<typeof wireRouter>[1] = {}) {
  const w = wireRouter(up, { chains: { default: ['openai:gpt-4o-mini'] }, ...overrides }, { clock: new VirtualClock(), timeoutMs: 60_000 });
  closers.push(() => w.router.close());
  const calls: CallEvent[] = [];
  w.router.on('call', (e) => void calls.push(e));
  return { ...w, calls };
}

async function lastEvent(events: AsyncIterable<StreamEvent>): Promise<StreamEvent> {
  let last: StreamEvent | undefined;
  for await (const ev of events) last = ev;
  return last!;
}

describe('usage a provider did not report', () => {
  it.each([
    ['OpenAI Chat Completions', openAIUsage, { prompt_tokens: 17, completion_tokens: 10 }, { prompt_tokens: 17 }],
    ['OpenAI Responses', responsesUsage, { input_tokens: 17, output_tokens: 10 }, { output_tokens: 10 }],
    ['Anthropic', anthropicUsage, { input_tokens: 17, output_tokens: 10 }, { input_tokens: 17 }],
    ['Gemini', geminiUsage, { promptTokenCount: 17, candidatesTokenCount: 10 }, { candidatesTokenCount: 10 }],
    ['Bedrock Converse', converseUsage, { inputTokens: 17, outputTokens: 10, totalTokens: 27 }, { inputTokens: 17 }],
  ] as Array<[string, (u: never) => unknown, object, object]>)('every adapter reads a missing or partial %s usage as unknown, never as 0', (_api, read, full, partial) => {
    expect(read(full as never)).toEqual({ inputTokens: 17, outputTokens: 10 });
    expect(read(undefined as never)).toBeUndefined();
    expect(read(null as never)).toBeUndefined();
    expect(read(partial as never)).toBeUndefined();
  });

  it.each([
    ['sent no usage chunk', { sse: NO_USAGE }],
    ['was cut after its finish_reason, before the usage chunk', { sse: SSE, cutAfter: SSE.length - 2 }],
    ['sent a usage chunk without completion_tokens', { sse: [...SSE.slice(0, -2), `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 17 } })}`, 'data: [DONE]'] }],
  ])('a stream that %s ends done with its whole text and usage unknown, on the result and the call event', async (_what, reply) => {
    const { router: r, calls } = router();
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, ...reply });
    const end = await lastEvent(r.stream(ask()));
    expect(end.type).toBe('done');
    if (end.type !== 'done') return;
    expect(end.result.text).toBe('Hello there');
    expect(end.result.usage).toBeUndefined();
    expect('usage' in calls[0]! ? calls[0]!.usage : undefined).toBeUndefined();
    expect(calls[0]!.outcome).toBe('ok');
  });

  it('a completion without `usage` has usage unknown; one with it, the counts it reported', async () => {
    const { router: r } = router();
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: completionWithoutUsage }, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion() });
    expect((await r.chat(ask())).usage).toBeUndefined();
    expect((await r.chat(ask())).usage).toEqual({ inputTokens: 19, outputTokens: 10 });
  });

  it('the Responses API the same: a response with usage null leaves the usage unknown, streamed or not', async () => {
    const { router: r } = router({
      providers: { openai: { type: 'openai', api: 'responses', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000 } },
      chains: { default: ['openai:gpt-5.4'] },
    });
    up.script(RESPONSES_PATH,
      { status: 200, headers: openaiSuccessHeaders, body: responseObject([messageItem('Hello there')], { usage: null }) },
      { status: 200, headers: openaiSuccessHeaders, sse: responsesTextSse(['Hello', ' there'], null as never) });
    const chat = await r.chat(ask());
    expect([chat.text, chat.usage]).toEqual(['Hello there', undefined]);
    const end = await lastEvent(r.stream(ask()));
    expect(end).toMatchObject({ type: 'done', result: { text: 'Hello there' } });
    expect((end as Extract<StreamEvent, { type: 'done' }>).result.usage).toBeUndefined();
  });

  it('keeps the whole OTPM reservation of a stream whose usage is unknown, where a reported usage gives the unused part back', async () => {
    const limits = { openai: { type: 'openai' as const, apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits: { otpm: 1_000, burstMs: 60_000, maxQueueMs: 0 } } };
    const { router: r } = router({ providers: limits });
    // Unpaced (the whole window is the burst), so only the window counts. 600 output tokens reserved;
    // the answer reports none, so all 600 stay counted: 600 more do not fit in 1,000.
    up.script(OPENAI_PATH, { status: 200, sse: NO_USAGE });
    expect((await lastEvent(r.stream({ ...ask(), maxTokens: 600 }))).type).toBe('done');
    const refused = await rejectionOf(r.chat({ ...ask(), maxTokens: 600 }));
    expect(refused.attempts).toEqual([expect.objectContaining({ skipped: true, kind: 'local_limit', code: 'otpm' })]);
    expect(up.count(OPENAI_PATH)).toBe(1);

    // The same on a fresh router, but the usage chunk says 10 were written: 590 come back, and 600 more fit.
    const { router: fresh } = router({ providers: limits });
    up.script(OPENAI_PATH, { status: 200, sse: SSE });
    expect((await lastEvent(fresh.stream({ ...ask(), maxTokens: 600 }))).type).toBe('done');
    expect((await fresh.chat({ ...ask(), maxTokens: 600 })).usage).toEqual({ inputTokens: 19, outputTokens: 10 });
    expect(up.count(OPENAI_PATH)).toBe(3);
  });

  it('the gateway sends no usage for it: no usage chunk under include_usage, no usage field in a completion', async () => {
    const h = await startHarness(up);
    closers.push(() => h.close());
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, sse: NO_USAGE }, { status: 200, headers: openaiSuccessHeaders, body: completionWithoutUsage });
    const stream = await h.client().chat.completions.create({ model: 'openai-only', messages: ask().messages, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello there');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.filter((c) => c.usage)).toEqual([]);

    const completion = await h.client().chat.completions.create({ model: 'openai-only', messages: ask().messages });
    expect(completion.choices[0]!.message.content).toBe('Hello there');
    expect(completion.usage).toBeUndefined();
  });

  it('eval counts the run as answered with usage unknown: its tokens and cost are lower bounds, never a 0 added', async () => {
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: completionWithoutUsage }, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('Hello there') });
    const report = await runEval({
      config: {
        providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1` } },
        chains: { main: ['openai:gpt-4o-mini'] }, prices: { 'gpt-4o-mini': { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 } },
      },
      chain: 'main', cases: [{ id: 'a', prompt: 'hi', expect: { contains: 'hello' } }, { id: 'b', prompt: 'hi', expect: { contains: 'hello' } }],
      concurrency: 1, routerOptions: { logger: silentLogger },
    });
    expect(report.runs.map((r) => [r.caseId, r.pass, r.usage, r.costUsd])).toEqual([['a', true, undefined, null], ['b', true, { inputTokens: 19, outputTokens: 10 }, 29]]);
    expect(report.targets[0]).toMatchObject({ tokens: { input: 19, output: 10 }, usageUnknown: 1, costUsd: 29 });
    expect(renderTerminalReport(report)).toMatch(/openai:gpt-4o-mini\s+2\/2\s+100\.0%\s+-\s+\S+ ms\s+\S+ ms\s+≥19\s+≥10\s+≥\$29\.00/);
  });
});
