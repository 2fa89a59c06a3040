import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import { assembledToolCalls, drain } from '../test-support/adapter-harness.js';
import type { ProviderCallOptions, ProviderStreamEvent } from '../types.js';
import { CONTRACT_CASES, contractRequest, EXPECT, type Arranged, type ContractCase, type ContractHarness } from './cases.js';

type Check = (arranged: Arranged, c: ContractCase, model: string) => Promise<void>;

const signal = () => ({ signal: new AbortController().signal });

/**
 * Call options whose `onSend` notes how many requests the server had seen at that moment: an adapter
 * calls it once per request, right before the bytes go, so the server has seen none of this one yet.
 */
function announcing(arranged: Arranged) {
  const seenAtSend: number[] = [];
  const before = arranged.sent();
  return {
    options: { signal: new AbortController().signal, onSend: () => seenAtSend.push(arranged.sent() - before) },
    expectAnnouncedOnce: () => expect(seenAtSend).toEqual([0]),
  };
}

async function chatFailure(arranged: Arranged, c: ContractCase, model: string, options: ProviderCallOptions = signal()): Promise<RouterError> {
  try {
    await arranged.adapter.chat(contractRequest(c, model), options);
  } catch (err) {
    expect(err).toBeInstanceOf(RouterError);
    return err as RouterError;
  }
  throw new Error('expected the request to fail');
}

function expectCounted(usage: { inputTokens: number; outputTokens: number } | undefined, arranged: Arranged) {
  if (arranged.usage) expect(usage).toEqual(arranged.usage);
  else {
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeGreaterThan(0);
  }
}

const texts = (events: ProviderStreamEvent[]) => events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text);

/** A failure case, through chat and through stream: one request, the kind, and its facts. */
function failing(kind: RouterError['kind'], retryAfterMs?: number): { chat: Check; stream: Check } {
  const facts = (err: RouterError) => {
    expect(err.kind).toBe(kind);
    if (retryAfterMs !== undefined) {
      expect(err.status).toBe(429);
      expect(err.retryAfterMs).toBeCloseTo(retryAfterMs, 3);
    }
  };
  return {
    async chat(arranged, c, model) {
      const { options, expectAnnouncedOnce } = announcing(arranged);
      facts(await chatFailure(arranged, c, model, options));
      expect(arranged.sent()).toBe(1);
      expectAnnouncedOnce(); // the request left: the provider's answer is a verdict on it
    },
    async stream(arranged, c, model) {
      const { events, error } = await drain(arranged.adapter, contractRequest(c, model));
      expect(error).toBeDefined();
      facts(error!);
      expect(texts(events)).toEqual([]);
      expect(arranged.sent()).toBe(1);
    },
  };
}

const CHECKS: Record<ContractCase, Check | { chat: Check; stream: Check }> = {
  async success(arranged, c, model) {
    const { options, expectAnnouncedOnce } = announcing(arranged);
    const res = await arranged.adapter.chat(contractRequest(c, model), options);
    expectAnnouncedOnce();
    expect(res).toMatchObject({ text: EXPECT.text, toolCalls: [], finishReason: 'stop' });
    expect(typeof res.model).toBe('string');
    expect(res.requestId).toEqual(expect.any(String));
    expectCounted(res.usage, arranged);
    expect(arranged.sent()).toBe(1);
  },
  async stream_success(arranged, c, model) {
    const { options, expectAnnouncedOnce } = announcing(arranged);
    const { events, error } = await drain(arranged.adapter, contractRequest(c, model), options.signal, options.onSend);
    expect(error).toBeUndefined();
    expectAnnouncedOnce();
    expect(texts(events).join('')).toBe(EXPECT.streamTexts.join(''));
    expect(texts(events).every((t) => t !== '')).toBe(true);
    const finishes = events.filter((e) => e.type === 'finish');
    expect(finishes).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expectCounted((events.at(-1) as Extract<ProviderStreamEvent, { type: 'finish' }>).usage, arranged);
  },
  rate_limited_retry_after_ms: failing('rate_limited', EXPECT.retryAfterMs.rate_limited_retry_after_ms),
  rate_limited_retry_after_seconds: failing('rate_limited', EXPECT.retryAfterMs.rate_limited_retry_after_seconds),
  rate_limited_retry_after_date: failing('rate_limited', EXPECT.retryAfterMs.rate_limited_retry_after_date),
  rate_limited_reset_headers: failing('rate_limited', EXPECT.retryAfterMs.rate_limited_reset_headers),
  rate_limited_try_again_in: failing('rate_limited', EXPECT.retryAfterMs.rate_limited_try_again_in),
  quota: failing('quota_exhausted'),
  server_error: failing('server'),
  overloaded: failing('server'),
  auth: failing('auth'),
  context_length: failing('context_length'),
  reset_connection: failing('transport'),
  abort: {
    async chat(arranged, c, model) {
      const controller = new AbortController();
      const settled = arranged.adapter.chat(contractRequest(c, model), { signal: controller.signal }).then(() => undefined, (err: unknown) => err);
      await arranged.whenSent;
      controller.abort();
      expect(await settled).toMatchObject({ kind: 'aborted' });
      expect((await settled) instanceof RouterError).toBe(true);
    },
    async stream(arranged, c, model) {
      const controller = new AbortController();
      const events = arranged.adapter.stream(contractRequest(c, model), { signal: controller.signal })[Symbol.asyncIterator]();
      const settled = events.next().then(() => undefined, (err: unknown) => err);
      await arranged.whenSent;
      controller.abort();
      expect(await settled).toMatchObject({ kind: 'aborted' });
      expect((await settled) instanceof RouterError).toBe(true);
    },
  },
  async cut_stream(arranged, c, model) {
    const { events, error } = await drain(arranged.adapter, contractRequest(c, model));
    expect(texts(events).length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(error?.kind).toBe('transport');
  },
  async stream_error_frame(arranged, c, model) {
    const { events, error } = await drain(arranged.adapter, contractRequest(c, model));
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(error?.kind).toBe('server');
  },
  async tool_call(arranged, c, model) {
    const res = await arranged.adapter.chat(contractRequest(c, model), signal());
    expect(res.finishReason).toBe('tool_calls');
    expect(res.toolCalls).toEqual([{ id: expect.any(String), ...EXPECT.toolCall }]);
    expect(res.text).toBe('');
  },
  async stream_tool_call(arranged, c, model) {
    const { events, error } = await drain(arranged.adapter, contractRequest(c, model));
    expect(error).toBeUndefined();
    const calls = assembledToolCalls(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ index: 0, name: EXPECT.toolCall.name, ended: true });
    expect(JSON.parse(calls[0]!.arguments)).toEqual(EXPECT.toolCall.arguments);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
  },
  async json_output(arranged, c, model) {
    const res = await arranged.adapter.chat(contractRequest(c, model), signal());
    expect(res.finishReason).toBe('stop');
    expect(JSON.parse(res.text)).toEqual(EXPECT.object);
  },
  async cached_usage(arranged, c, model) {
    const res = await arranged.adapter.chat(contractRequest(c, model), signal());
    expect(res.usage?.cachedInputTokens).toBe(arranged.cachedInputTokens ?? EXPECT.cachedUsage.cachedInputTokens);
    // Cached prompt tokens are prompt tokens: inputTokens counts them, on every provider.
    expect(res.usage!.inputTokens).toBeGreaterThanOrEqual(res.usage!.cachedInputTokens!);
    if (arranged.usage) expect(res.usage).toEqual(arranged.usage);
  },
  async embed(arranged, _c, model) {
    const adapter = arranged.adapter;
    expect(adapter.embed).toBeTypeOf('function');
    expect(adapter.traits.maxEmbeddingInputs).toBeGreaterThan(0);
    const { options, expectAnnouncedOnce } = announcing(arranged);
    const res = await adapter.embed!({ model, input: [...EXPECT.embedInput] }, options);
    expectAnnouncedOnce();
    expect(res.embeddings).toHaveLength(EXPECT.embedInput.length);
    for (const vector of res.embeddings) expect(vector.length > 0 && vector.every(Number.isFinite)).toBe(true);
    if (arranged.vectors) expect(res.embeddings).toEqual(arranged.vectors);
    expect(res.usage.inputTokens).toBeGreaterThan(0);
    expect(arranged.sent()).toBe(1);
  },
};

/**
 * How a harness's claim that it cannot express a case is checked: a case is only excused when the
 * adapter provably lacks what the case exercises.
 */
const NOT_EXPRESSIBLE: Partial<Record<ContractCase, (arranged: Arranged) => void>> = {
  embed: ({ adapter }) => {
    expect(adapter.embed).toBeUndefined();
    expect(adapter.traits.maxEmbeddingInputs).toBeUndefined();
  },
};

/**
 * Runs the adapter contract against one adapter, the way hono runs one router suite against every
 * router: every case of `CONTRACT_CASES`, failures through both `chat` and `stream`. A case the
 * harness declares it cannot express is registered with its reason and checked against the adapter
 * (`NOT_EXPRESSIBLE`), never skipped or left out.
 */
export function runAdapterContract(harness: ContractHarness): void {
  describe(`adapter contract: ${harness.name}`, () => {
    beforeAll(async () => harness.start?.());
    afterAll(async () => harness.stop?.());

    for (const c of CONTRACT_CASES) {
      const reason = harness.cannotExpress[c];
      const check = CHECKS[c];
      const modes: Array<[string, Check]> = typeof check === 'function' ? [['', check]] : [[' (chat)', check.chat], [' (stream)', check.stream]];
      for (const [mode, run] of modes) {
        const title = `${c.replaceAll('_', ' ')}${mode}`;
        if (reason) {
          it(`${title}: not expressible, ${reason}`, async () => {
            const prove = NOT_EXPRESSIBLE[c];
            if (!prove) throw new Error(`${harness.name} declares ${c} not expressible, and the contract has no way to check that claim`);
            prove(await harness.arrange(c));
          });
          continue;
        }
        it(title, async () => {
          const arranged = await harness.arrange(c);
          await run(arranged, c, c === 'embed' ? harness.embedModel ?? harness.model : harness.model);
          arranged.checkSent?.();
        });
      }
    }
  });
}
