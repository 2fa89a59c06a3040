import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Message } from '../../src/types.js';
import { API_KEY, MODEL, PLAIN_BACKOFF, backoffCall, benchRouter, routerCall, sdkCall, sdkClient } from './arms.js';
import type { BenchRequest } from './prompts.js';
import { rng } from './prompts.js';

export const CLAUDE = 'claude-sonnet-4-6';

/** What a successful call cost the provider's windows, as its usage reports it. */
export interface Spent {
  /** TPM charge as the OpenAI limiter counts it: prompt (characters / 4) plus max_tokens. */
  charge: number;
  /** Anthropic: input tokens counted toward ITPM (uncached, cache writes included). */
  uncachedInput: number;
  /** Anthropic: input served from the prompt cache (not counted toward ITPM). */
  cachedInput: number;
  output: number;
}

export interface Arm {
  job(r: BenchRequest): Promise<Spent>;
  close(): Promise<void>;
}

/** The OpenAI arms: the router with the console's limits (and a variant that starts with a whole window as its burst), the SDK's own retries, a plain backoff loop. */
export type OpenAIArm = 'router' | 'router-wide' | 'sdk-retries' | 'plain-backoff';
export type AnthropicArm = 'router' | 'sdk-retries';

export interface ConsoleLimits {
  rpm: number;
  tpm?: number;
  itpm?: number;
  otpm?: number;
  /** Absent: a minute, as the console states limits. */
  windowMs?: number;
}

/** An OpenAI arm against one simulated provider. */
export function openaiArm(arm: OpenAIArm, name: string, baseURL: string, limits: ConsoleLimits, maxQueueMs?: number): Arm {
  const spent = (r: BenchRequest): Spent => ({ charge: r.charge, uncachedInput: 0, cachedInput: 0, output: 0 });
  if (arm === 'router' || arm === 'router-wide') {
    // As a user copies them from the console; `router-wide` lets a whole window out at once to begin with
    // (pacing learns the provider's bucket from its headers and 429s).
    const own = { ...limits, ...(maxQueueMs === undefined ? {} : { maxQueueMs }), ...(arm === 'router-wide' ? { burstMs: limits.windowMs ?? 60_000 } : {}) };
    const router = benchRouter({
      providers: { [name]: { type: 'openai', apiKey: API_KEY, baseURL, timeoutMs: 30_000, limits: own } },
      chains: { default: [`${name}:${MODEL}`] },
      log: { level: 'silent' },
    });
    return { job: async (r) => (await routerCall(router, r), spent(r)), close: () => router.close() };
  }
  if (arm === 'sdk-retries') {
    const client: OpenAI = sdkClient(baseURL, 2, 30_000);
    return { job: async (r) => (await sdkCall(client, r), spent(r)), close: async () => {} };
  }
  const client = sdkClient(baseURL, 0, 30_000);
  const random = rng(99);
  return { job: async (r) => (await backoffCall(client, r, PLAIN_BACKOFF, random), spent(r)), close: async () => {} };
}

/** An output-heavy Anthropic request: adaptive thinking at medium effort, then the answer. */
export const REASONING = { effort: 'medium' } as const;

/** An Anthropic arm: the router with the console's limits, or the Anthropic SDK's own retries. */
export function anthropicArm(arm: AnthropicArm, name: string, baseURL: string, limits: ConsoleLimits, maxQueueMs?: number): Arm {
  if (arm === 'router') {
    const router = benchRouter({
      providers: { [name]: { type: 'anthropic', apiKey: API_KEY, baseURL, timeoutMs: 30_000, limits: { ...limits, ...(maxQueueMs === undefined ? {} : { maxQueueMs }) } } },
      chains: { default: [`${name}:${CLAUDE}`] },
      log: { level: 'silent' },
    });
    return {
      job: async (r) => {
        const { usage: reported } = await router.chat({ messages: r.messages, maxTokens: r.maxTokens, reasoning: REASONING });
        // The simulator always reports usage; an unknown one would count as nothing delivered.
        const usage = reported ?? { inputTokens: 0, outputTokens: 0 };
        const cached = usage.cachedInputTokens ?? 0;
        return { charge: 0, uncachedInput: usage.inputTokens - cached, cachedInput: cached, output: usage.outputTokens };
      },
      close: () => router.close(),
    };
  }
  const client = new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 2, timeout: 30_000 });
  return {
    job: async (r) => {
      const res = await client.messages.create(anthropicBody(r.messages, r.maxTokens) as never) as unknown as Anthropic.Message;
      const u = res.usage;
      return { charge: 0, uncachedInput: u.input_tokens + (u.cache_creation_input_tokens ?? 0), cachedInput: u.cache_read_input_tokens ?? 0, output: u.output_tokens };
    },
    close: async () => {},
  };
}

/** The Messages body the router's adapter sends for such a request. */
export function anthropicBody(messages: readonly Message[], maxTokens: number, effort: 'medium' | 'high' = REASONING.effort): Record<string, unknown> {
  return { model: CLAUDE, max_tokens: maxTokens, messages, thinking: { type: 'adaptive' }, output_config: { effort } };
}

/**
 * Spends a simulated provider's windows down to nothing before an arm starts ("an exhausted
 * account"): waves of requests, each sized to what the headers say is left, until requests and the
 * tokens that bind are gone. A rejected request still spends a request, so the waves end the
 * request window too.
 */
export async function exhaust(api: 'openai' | 'anthropic', baseURL: string): Promise<void> {
  const openai = sdkClient(baseURL, 0, 30_000);
  const anthropic = new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0, timeout: 30_000 });
  const left = { requests: Infinity, tokens: Infinity };
  const read = (h: Headers) => {
    const n = (k: string) => Number(h.get(k) ?? Number.NaN);
    const requests = api === 'openai' ? n('x-ratelimit-remaining-requests') : n('anthropic-ratelimit-requests-remaining');
    const tokens = api === 'openai' ? n('x-ratelimit-remaining-tokens') : n('anthropic-ratelimit-output-tokens-remaining');
    if (Number.isFinite(requests)) left.requests = requests;
    if (Number.isFinite(tokens)) left.tokens = tokens;
  };
  const one = async () => {
    try {
      if (api === 'openai') {
        const maxTokens = Math.max(1, Math.min(4_000, Math.floor(left.tokens / 20) - 20));
        const { response } = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], max_completion_tokens: maxTokens }).withResponse();
        read(response.headers);
      } else {
        // OTPM is refunded down to what was written: spend it with answers that think hard.
        const { response } = await anthropic.messages.create(anthropicBody([{ role: 'user', content: 'x' }], 2_048, 'high') as never).withResponse();
        read(response.headers);
      }
    } catch (err) {
      const headers = (err as { headers?: Headers }).headers;
      if (headers) read(headers);
    }
  };
  const until = Date.now() + 10_000;
  while (Date.now() < until && (left.requests > 1 || left.tokens > 600)) await Promise.all(Array.from({ length: 50 }, one));
}
