import type { FakeStep } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import type { FinishReason } from '../../src/types.js';
import { truncatedStream } from '../shared/stream-errors.js';
import { abortedError } from '../shared/transport-error.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { approxTokens, fakeAnswer, promptTokens, truncateToTokens } from './answer.js';

const DEFAULT_STATUS: Readonly<Record<string, number>> = {
  rate_limited: 429, quota_exhausted: 429, server: 503, bad_request: 400, context_length: 400,
  content_filter: 400, auth: 401, not_found: 404,
};

/** The in-process `fake` adapter, with its request log exposed for tests. */
export interface FakeAdapter extends ProviderAdapter {
  /** Every request received, in order (including ones that then failed). */
  readonly requests: ProviderRequest[];
}

type Failure = Extract<FakeStep, { fail: string }>;

/** The signal a fake request runs under: the caller's, and its own timeout (as an SDK would do). */
function requestSignal(options: ProviderCallOptions): { signal: AbortSignal; done(): void } {
  if (options.timeoutMs === undefined) return { signal: options.signal ?? new AbortController().signal, done() {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timed out')), options.timeoutMs);
  const onAbort = () => controller.abort(options.signal!.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Splits a reply into word-sized chunks, the way a model streams it. */
function chunksOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * An offline provider: deterministic answers with honest token counts, and scriptable outcomes
 * (`script` for successive requests, or `respond(request, n)`), for tests and running without keys.
 * Streams send the reply a word at a time; `cutAfterChunks` and `afterChunks` script a cut stream
 * and a mid-stream error.
 * @example providers: { local: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 300 }, 'ok'] } }
 */
export function fakeAdapter(ctx: AdapterContext): FakeAdapter {
  const { provider: given, clock } = ctx;
  if (given.type !== 'fake') throw new TypeError(`fakeAdapter needs a fake provider, got ${given.type}`);
  const provider = given; // narrowed once: closures below keep the fake provider's type
  const script = [...(provider.script ?? [])];
  const requests: ProviderRequest[] = [];

  /** Takes the next scripted step and waits out its latency (abortably, and within its timeout). */
  async function begin(request: ProviderRequest, options: ProviderCallOptions) {
    const where = { provider: provider.name, model: request.model };
    const n = requests.push(request);
    const step = (provider.respond?.(request, n) ?? script.shift() ?? 'ok') as FakeStep;
    const requestId = `fake_${provider.name}_${n}`;
    const stepLatency = typeof step === 'object' ? step.latencyMs : undefined;
    const latencyMs = stepLatency ?? provider.latencyMs ?? 0;
    if (options.signal?.aborted) throw abortedError(where, options.signal.reason);
    if (step !== 'hang' && latencyMs <= 0) return { where, step, requestId };
    // Only a request that waits needs a signal of its own (the caller's, plus its timeout).
    const { signal, done } = requestSignal(options);
    try {
      if (step === 'hang') await waitForAbort(signal);
      await clock.sleep(latencyMs, signal);
    } catch (err) {
      if (options.signal?.aborted) throw abortedError(where, err);
      throw new RouterError('timeout', `${provider.name} request timed out`, { ...where, cause: err });
    } finally {
      done();
    }
    return { where, step, requestId };
  }

  function failure(step: Failure, where: { provider: string; model: string }, requestId: string): RouterError {
    const status = step.status ?? (step.fail === 'transport' || step.fail === 'timeout' ? undefined : DEFAULT_STATUS[step.fail]);
    const code = step.code ?? (step.fail === 'quota_exhausted' ? 'insufficient_quota' : undefined);
    const head = [provider.name, status, step.fail].filter((part) => part !== undefined).join(' ');
    return new RouterError(step.fail, `${head}: ${step.message ?? 'scripted failure'}`, {
      ...where, status, code, retryAfterMs: step.retryAfterMs, requestId,
    });
  }

  function answer(request: ProviderRequest, step: FakeStep): { text: string; finishReason: FinishReason } {
    const scripted = typeof step === 'object' && !('fail' in step) ? step : undefined;
    const { text, truncated } = truncateToTokens(scripted?.text ?? fakeAnswer(request.messages, request.model), request.maxTokens);
    return { text, finishReason: scripted?.finishReason ?? (truncated ? 'length' : 'stop') };
  }

  async function chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
    const { where, step, requestId } = await begin(request, options);
    if (typeof step === 'object' && 'fail' in step) throw failure(step, where, requestId);
    const { text, finishReason } = answer(request, step);
    return {
      text, toolCalls: [], finishReason, model: request.model, requestId,
      usage: { inputTokens: promptTokens(request.messages), outputTokens: approxTokens(text) },
    };
  }

  async function* stream(request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
    const { where, step, requestId } = await begin(request, options);
    const failed = typeof step === 'object' && 'fail' in step ? step : undefined;
    if (failed && !failed.afterChunks) throw failure(failed, where, requestId);
    yield { type: 'open', requestId };
    const { text, finishReason } = answer(request, step);
    const chunks = chunksOf(text);
    const stopAt = failed?.afterChunks ?? (typeof step === 'object' && 'cutAfterChunks' in step ? step.cutAfterChunks : undefined);
    for (let i = 0; i < chunks.length; i++) {
      if (stopAt !== undefined && i >= stopAt) break;
      if (options.signal?.aborted) throw abortedError(where, options.signal.reason);
      yield { type: 'delta', text: chunks[i]! };
    }
    if (failed) throw failure(failed, where, requestId);
    if (stopAt !== undefined && stopAt < chunks.length) throw truncatedStream(where, 'its last chunk');
    yield { type: 'finish', finishReason, usage: { inputTokens: promptTokens(request.messages), outputTokens: approxTokens(text) }, model: request.model };
  }

  return { name: provider.name, type: provider.type, traits: { tokenCounting: 'heuristic' }, requests, chat, stream, async close() {} };
}
