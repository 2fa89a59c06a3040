import type { FakeStep } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse } from '../types.js';
import { abortedError } from '../shared/transport-error.js';
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

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * An offline provider: deterministic answers with honest token counts, and scriptable outcomes
 * (`script` for successive requests, or `respond(request, n)`), for tests and running without keys.
 * @example providers: { local: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 300 }, 'ok'] } }
 */
export function fakeAdapter(ctx: AdapterContext): FakeAdapter {
  const { provider, clock } = ctx;
  if (provider.type !== 'fake') throw new TypeError(`fakeAdapter needs a fake provider, got ${provider.type}`);
  const script = [...(provider.script ?? [])];
  const requests: ProviderRequest[] = [];

  async function chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
    const where = { provider: provider.name, model: request.model };
    const n = requests.push(request);
    const step = ((provider.type === 'fake' && provider.respond?.(request, n)) ?? script.shift() ?? 'ok') as FakeStep;
    const requestId = `fake_${provider.name}_${n}`;
    try {
      if (step === 'hang') await waitForAbort(options.signal);
      const stepLatency = typeof step === 'object' ? step.latencyMs : undefined;
      const latencyMs = stepLatency ?? (provider.type === 'fake' ? provider.latencyMs ?? 0 : 0);
      if (latencyMs > 0) await clock.sleep(latencyMs, options.signal);
      else if (options.signal.aborted) throw options.signal.reason;
    } catch (err) {
      throw abortedError(where, err);
    }
    if (typeof step === 'object' && 'fail' in step) {
      const status = step.status ?? (step.fail === 'transport' || step.fail === 'timeout' ? undefined : DEFAULT_STATUS[step.fail]);
      const code = step.code ?? (step.fail === 'quota_exhausted' ? 'insufficient_quota' : undefined);
      const head = [provider.name, status, step.fail].filter((part) => part !== undefined).join(' ');
      throw new RouterError(step.fail, `${head}: ${step.message ?? 'scripted failure'}`, {
        ...where, status, code, retryAfterMs: step.retryAfterMs, requestId,
      });
    }
    const scripted = typeof step === 'object' && !('fail' in step) ? step : undefined;
    const { text, truncated } = truncateToTokens(scripted?.text ?? fakeAnswer(request.messages, request.model), request.maxTokens);
    return {
      text,
      finishReason: scripted?.finishReason ?? (truncated ? 'length' : 'stop'),
      usage: { inputTokens: promptTokens(request.messages), outputTokens: approxTokens(text) },
      model: request.model,
      requestId,
    };
  }

  return { name: provider.name, type: provider.type, requests, chat, async close() {} };
}
