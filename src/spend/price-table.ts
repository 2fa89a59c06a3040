/** USD per million tokens: input (uncached), input read from the provider's prompt cache, output. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Input served from the prompt cache. @default inputPerMTok (no discount known) */
  cachedInputPerMTok?: number;
}

/** When the shipped table was written down, and from where (each section names its page). */
export const PRICES_AS_OF = '2025-08-01';

const p = (inputPerMTok: number, cachedInputPerMTok: number | undefined, outputPerMTok: number): Price =>
  Object.freeze(cachedInputPerMTok === undefined ? { inputPerMTok, outputPerMTok } : { inputPerMTok, cachedInputPerMTok, outputPerMTok });

/**
 * The shipped price table, by provider type (or `openai-compatible` preset) and then model. Standard
 * (on-demand, non-batch) list prices as each provider's pricing page gave them on PRICES_AS_OF; a
 * tiered price (Gemini 2.5 Pro above 200k prompt tokens) is its lower tier. Prices change: the
 * config's `prices` overrides any entry, and `switchyard spend` / `costUsd` are estimates from this
 * table, never the provider's bill. A model missing here has no price unless the config gives one.
 */
export const SHIPPED_PRICES: Readonly<Record<string, Readonly<Record<string, Price>>>> = Object.freeze({
  // https://openai.com/api/pricing (and platform.openai.com/docs/pricing), 2025-08-01
  openai: Object.freeze({
    'gpt-5': p(1.25, 0.125, 10), 'gpt-5-mini': p(0.25, 0.025, 2), 'gpt-5-nano': p(0.05, 0.005, 0.4),
    'gpt-4.1': p(2, 0.5, 8), 'gpt-4.1-mini': p(0.4, 0.1, 1.6), 'gpt-4.1-nano': p(0.1, 0.025, 0.4),
    'gpt-4o': p(2.5, 1.25, 10), 'gpt-4o-mini': p(0.15, 0.075, 0.6),
    o3: p(2, 0.5, 8), 'o3-mini': p(1.1, 0.55, 4.4), 'o4-mini': p(1.1, 0.275, 4.4), o1: p(15, 7.5, 60),
    'text-embedding-3-small': p(0.02, undefined, 0), 'text-embedding-3-large': p(0.13, undefined, 0),
    'text-embedding-ada-002': p(0.1, undefined, 0),
  }),
  // https://www.anthropic.com/pricing#api (cache reads 0.1x input; cache writes are billed as input here), 2025-08-01
  anthropic: Object.freeze({
    // Sonnet 4.6 and Opus 4.5/4.6 (the models the docs lead with): "Sonnet (other) $3 / $15, Opus 4.5 - 5
    // $5 / $25, cache reads 0.1x", as https://platform.claude.com/docs/en/about-claude/pricing is
    // quoted by a third party (docs.rs/synaps pricing module, verified 2026-10); not read first-hand.
    'claude-sonnet-4-6': p(3, 0.3, 15), 'claude-opus-4-6': p(5, 0.5, 25), 'claude-opus-4-5': p(5, 0.5, 25),
    'claude-opus-4-1': p(15, 1.5, 75), 'claude-opus-4-0': p(15, 1.5, 75), 'claude-opus-4': p(15, 1.5, 75),
    'claude-sonnet-4-5': p(3, 0.3, 15), 'claude-sonnet-4-0': p(3, 0.3, 15), 'claude-sonnet-4': p(3, 0.3, 15),
    'claude-3-7-sonnet-latest': p(3, 0.3, 15), 'claude-3-5-sonnet-latest': p(3, 0.3, 15),
    'claude-haiku-4-5': p(1, 0.1, 5), 'claude-3-5-haiku-latest': p(0.8, 0.08, 4), 'claude-3-haiku-20240307': p(0.25, 0.03, 1.25),
  }),
  // https://ai.google.dev/gemini-api/docs/pricing (paid tier; 2.5 Pro at prompts up to 200k tokens), 2025-08-01
  gemini: Object.freeze({
    'gemini-2.5-pro': p(1.25, 0.31, 10), 'gemini-2.5-flash': p(0.3, 0.075, 2.5), 'gemini-2.5-flash-lite': p(0.1, 0.025, 0.4),
    'gemini-2.0-flash': p(0.1, 0.025, 0.4), 'gemini-2.0-flash-lite': p(0.075, undefined, 0.3),
    'gemini-embedding-001': p(0.15, undefined, 0), 'text-embedding-004': p(0, undefined, 0),
  }),
  // https://aws.amazon.com/bedrock/pricing/ (on-demand, us-east-1), 2025-08-01. Keys are model ids
  // without a cross-region prefix (`us.`, `eu.`, `apac.`, `global.`) or an ARN's path: see prices.ts.
  bedrock: Object.freeze({
    'anthropic.claude-opus-4-1-20250805-v1:0': p(15, 1.5, 75), 'anthropic.claude-opus-4-20250514-v1:0': p(15, 1.5, 75),
    'anthropic.claude-sonnet-4-5-20250929-v1:0': p(3, 0.3, 15), 'anthropic.claude-sonnet-4-20250514-v1:0': p(3, 0.3, 15),
    'anthropic.claude-3-7-sonnet-20250219-v1:0': p(3, 0.3, 15), 'anthropic.claude-3-5-sonnet-20240620-v1:0': p(3, undefined, 15),
    'anthropic.claude-haiku-4-5-20251001-v1:0': p(1, 0.1, 5), 'anthropic.claude-3-5-haiku-20241022-v1:0': p(0.8, 0.08, 4),
    'anthropic.claude-3-haiku-20240307-v1:0': p(0.25, undefined, 1.25),
    'amazon.nova-pro-v1:0': p(0.8, 0.2, 3.2), 'amazon.nova-lite-v1:0': p(0.06, 0.015, 0.24), 'amazon.nova-micro-v1:0': p(0.035, 0.00875, 0.14),
    'meta.llama3-3-70b-instruct-v1:0': p(0.72, undefined, 0.72), 'mistral.mistral-large-2407-v1:0': p(2, undefined, 6),
    'amazon.titan-embed-text-v2:0': p(0.02, undefined, 0), 'cohere.embed-english-v3': p(0.1, undefined, 0),
  }),
  // https://groq.com/pricing, 2025-08-01
  groq: Object.freeze({
    'llama-3.3-70b-versatile': p(0.59, undefined, 0.79), 'llama-3.1-8b-instant': p(0.05, undefined, 0.08),
    'meta-llama/llama-4-scout-17b-16e-instruct': p(0.11, undefined, 0.34), 'meta-llama/llama-4-maverick-17b-128e-instruct': p(0.2, undefined, 0.6),
    'openai/gpt-oss-120b': p(0.15, undefined, 0.75), 'openai/gpt-oss-20b': p(0.1, undefined, 0.5),
  }),
  // https://mistral.ai/pricing#api-pricing, 2025-08-01
  mistral: Object.freeze({
    'mistral-large-latest': p(2, undefined, 6), 'mistral-medium-latest': p(0.4, undefined, 2), 'mistral-small-latest': p(0.1, undefined, 0.3),
    'codestral-latest': p(0.3, undefined, 0.9), 'ministral-8b-latest': p(0.1, undefined, 0.1), 'mistral-embed': p(0.1, undefined, 0),
  }),
  // https://api-docs.deepseek.com/quick_start/pricing (standard hours; cached = cache hit), 2025-08-01
  deepseek: Object.freeze({ 'deepseek-chat': p(0.27, 0.07, 1.1), 'deepseek-reasoner': p(0.55, 0.14, 2.19) }),
  // https://openrouter.ai/models (OpenRouter passes the upstream's list price through), 2025-08-01
  openrouter: Object.freeze({
    'openai/gpt-4o': p(2.5, 1.25, 10), 'openai/gpt-4o-mini': p(0.15, 0.075, 0.6), 'anthropic/claude-sonnet-4': p(3, 0.3, 15),
    'google/gemini-2.5-flash': p(0.3, 0.075, 2.5), 'meta-llama/llama-3.3-70b-instruct': p(0.13, undefined, 0.4),
  }),
  // https://www.together.ai/pricing, 2025-08-01
  together: Object.freeze({
    'meta-llama/Llama-3.3-70B-Instruct-Turbo': p(0.88, undefined, 0.88), 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo': p(0.18, undefined, 0.18),
    'deepseek-ai/DeepSeek-V3': p(1.25, undefined, 1.25), 'Qwen/Qwen2.5-72B-Instruct-Turbo': p(1.2, undefined, 1.2),
  }),
  // https://fireworks.ai/pricing (serverless; above 16B parameters), 2025-08-01
  fireworks: Object.freeze({
    'accounts/fireworks/models/llama-v3p3-70b-instruct': p(0.9, undefined, 0.9), 'accounts/fireworks/models/llama-v3p1-8b-instruct': p(0.2, undefined, 0.2),
    'accounts/fireworks/models/deepseek-v3': p(0.9, undefined, 0.9),
  }),
  // https://docs.x.ai/docs/models, 2025-08-01
  xai: Object.freeze({ 'grok-4': p(3, 0.75, 15), 'grok-3': p(3, 0.75, 15), 'grok-3-mini': p(0.3, 0.075, 0.5) }),
  // Local servers bill nothing per token: every model is free unless the config prices it.
  ollama: Object.freeze({ '*': p(0, undefined, 0) }),
  vllm: Object.freeze({ '*': p(0, undefined, 0) }),
});
