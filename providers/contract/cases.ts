import type { ErrorKind } from '../../src/errors.js';
import type { ProviderAdapter, ProviderRequest } from '../types.js';
import type { Usage } from '../../src/types.js';

/** Every case of the adapter contract; a harness scripts each one or declares why it cannot. */
export const CONTRACT_CASES = [
  'success',
  'stream_success',
  'rate_limited_retry_after_ms',
  'rate_limited_retry_after_seconds',
  'rate_limited_retry_after_date',
  'rate_limited_reset_headers',
  'rate_limited_try_again_in',
  'quota',
  'server_error',
  'overloaded',
  'auth',
  'context_length',
  'reset_connection',
  'abort',
  'cut_stream',
  'stream_error_frame',
  'tool_call',
  'stream_tool_call',
  'json_output',
  'cached_usage',
  'embed',
] as const;

export type ContractCase = (typeof CONTRACT_CASES)[number];

/** The fixed moment every harness's clock stands at, so wait hints from dates are exact (a whole second). */
export const CONTRACT_NOW_MS = Date.UTC(2026, 11, 1, 12, 0, 0);

/** What the scripted answers say, and what each failure case must come back as. */
export const EXPECT = {
  text: 'Hello there, from the contract.',
  streamTexts: ['Hello', ' there,', ' from the contract.'],
  toolCall: { name: 'get_weather', arguments: { city: 'Paris' } },
  object: { city: 'Paris', tempC: 21 },
  cachedUsage: { inputTokens: 1200, outputTokens: 20, cachedInputTokens: 1000 } satisfies Usage,
  embedInput: ['alpha', 'beta', 'gamma'],
  retryAfterMs: {
    rate_limited_retry_after_ms: 1500,
    rate_limited_retry_after_seconds: 7000,
    rate_limited_retry_after_date: 30_000,
    rate_limited_reset_headers: 3000,
    rate_limited_try_again_in: 20_000,
  },
  kinds: {
    quota: 'quota_exhausted', server_error: 'server', overloaded: 'server', auth: 'auth', context_length: 'context_length',
    reset_connection: 'transport',
  } satisfies Partial<Record<ContractCase, ErrorKind>>,
} as const;

/** The weather tool every tool case offers. */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The schema the JSON case asks for. */
export const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, tempC: { type: 'number' } },
  required: ['city', 'tempC'],
};

/** The request a case sends, for a given model. */
export function contractRequest(c: ContractCase, model: string): ProviderRequest {
  const base: ProviderRequest = { model, messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 64 };
  if (c === 'tool_call' || c === 'stream_tool_call') {
    return { ...base, messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: [WEATHER_TOOL], toolChoice: 'auto' };
  }
  if (c === 'json_output') {
    return { ...base, messages: [{ role: 'user', content: 'The weather in Paris, as JSON.' }], responseFormat: { type: 'json_schema', name: 'weather', schema: WEATHER_SCHEMA, strict: true } };
  }
  return base;
}

/** One case, scripted: the adapter to run it on, and how to tell what reached the provider. */
export interface Arranged {
  adapter: ProviderAdapter;
  /** Requests the provider has received so far in this case. */
  sent(): number;
  /** Resolves once the case's request has reached the provider (the abort case aborts then). */
  whenSent?: Promise<void>;
  /** The exact usage the scripted answer reports; without it the suite checks that usage is counted. */
  usage?: Usage;
  /** The cache reads the scripted answer reports, when not `EXPECT.cachedUsage`'s (a provider whose prompt count is computed). */
  cachedInputTokens?: number;
  /** The vectors the scripted embeddings answer holds, in input order (the suite checks the order). */
  vectors?: number[][];
  /** Checks of what was sent, in the provider's own wire format (e.g. its structured-output field). */
  checkSent?(): void;
}

/**
 * What an adapter brings to the contract: how to script each case for it (through its real SDK
 * against a loopback server speaking the real wire format, or its own scripts), and the cases it
 * cannot express, each with the reason. A case neither scripted nor declared fails.
 */
export interface ContractHarness {
  name: string;
  /** The model the contract's requests name. */
  model: string;
  /** The model the embed case names, where the chat model has no embeddings (Bedrock's Claude). @default model */
  embedModel?: string;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  arrange(c: ContractCase): Arranged | Promise<Arranged>;
  cannotExpress: Partial<Record<ContractCase, string>>;
}
