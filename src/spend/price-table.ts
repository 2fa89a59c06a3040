/** USD per million tokens: input (uncached), input read from the provider's prompt cache, output. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Input served from the prompt cache. @default inputPerMTok (no discount known) */
  cachedInputPerMTok?: number;
  /** Input written to the prompt cache with a 5-minute lifetime (or one not reported). @default inputPerMTok (no surcharge) */
  cacheWritePerMTok?: number;
  /** Input written to the prompt cache with a 1-hour lifetime. @default cacheWritePerMTok */
  cacheWrite1hPerMTok?: number;
}

/**
 * When the shipped table was written down, and from where (each section names its page). Sections
 * say what was re-verified on 2026-12-02 and against what; the rest stands as of this date.
 */
export const PRICES_AS_OF = '2025-08-01';

const p = (inputPerMTok: number, cachedInputPerMTok: number | undefined, outputPerMTok: number): Price =>
  Object.freeze(cachedInputPerMTok === undefined ? { inputPerMTok, outputPerMTok } : { inputPerMTok, cachedInputPerMTok, outputPerMTok });

/** A price with Anthropic's cache write prices: 5-minute writes and 1-hour writes, per million tokens. */
const cw = (inputPerMTok: number, cachedInputPerMTok: number, outputPerMTok: number, cacheWritePerMTok: number, cacheWrite1hPerMTok: number): Price =>
  Object.freeze({ inputPerMTok, cachedInputPerMTok, outputPerMTok, cacheWritePerMTok, cacheWrite1hPerMTok });

/**
 * The shipped price table, by provider type (or `openai-compatible` preset) and then model. Standard
 * (on-demand, non-batch) list prices as each provider's pricing page gave them on PRICES_AS_OF; a
 * tiered price (Gemini 2.5 Pro above 200k prompt tokens) is its lower tier. Prices change: the
 * config's `prices` overrides any entry, and `switchyard spend` / `costUsd` are estimates from this
 * table, never the provider's bill. A model missing here has no price unless the config gives one.
 */
export const SHIPPED_PRICES: Readonly<Record<string, Readonly<Record<string, Price>>>> = Object.freeze({
  // https://openai.com/api/pricing (and platform.openai.com/docs/pricing), 2025-08-01. Checked
  // 2026-12-02 against third-party copies only (the official page was not in the searchable corpus):
  // gpt-4o, gpt-4o-mini, gpt-4.1 family (hex.pm openai_responses, citing platform.openai.com
  // 2025-06-03), o1 and o3-mini (simonw/llm-prices), o4-mini (Roo-Code, 2025-04), gpt-5 family and its
  // 90% cache discount (launch coverage), embeddings: all agree. o3 is its price after the 2025-06 cut.
  // Cache writes: none of these models bills them above input ("Cache writes have no additional fee on
  // models before the GPT-5.6 family", https://developers.openai.com/api/docs/guides/prompt-caching,
  // 2026-12-08; GPT-5.6 and later bill 1.25x: price those in the config's `prices`).
  openai: Object.freeze({
    'gpt-5': p(1.25, 0.125, 10), 'gpt-5-mini': p(0.25, 0.025, 2), 'gpt-5-nano': p(0.05, 0.005, 0.4),
    'gpt-4.1': p(2, 0.5, 8), 'gpt-4.1-mini': p(0.4, 0.1, 1.6), 'gpt-4.1-nano': p(0.1, 0.025, 0.4),
    'gpt-4o': p(2.5, 1.25, 10), 'gpt-4o-mini': p(0.15, 0.075, 0.6),
    o3: p(2, 0.5, 8), 'o3-mini': p(1.1, 0.55, 4.4), 'o4-mini': p(1.1, 0.275, 4.4), o1: p(15, 7.5, 60),
    'text-embedding-3-small': p(0.02, undefined, 0), 'text-embedding-3-large': p(0.13, undefined, 0),
    'text-embedding-ada-002': p(0.1, undefined, 0),
  }),
  // https://www.anthropic.com/pricing#api, 2025-08-01.
  // Verified 2026-12-02 first-hand against https://platform.claude.com/docs/en/docs/about-claude/pricing
  // ("Model pricing": base input, cache hits, output): every entry below matches (Opus 4.5/4.6 $5 /
  // $0.50 / $25, Opus 4/4.1 $15 / $1.50 / $75, Sonnet 3.7-4.6 $3 / $0.30 / $15, Haiku 4.5 $1 / $0.10 /
  // $5, Haiku 3.5 $0.80 / $0.08 / $4, Haiku 3 $0.25 / $0.03 / $1.25). Cache writes (issue 37): the same
  // page's "5m cache writes" and "1h cache writes" columns and "Feature-specific pricing -> Prompt
  // caching" (5-minute writes 1.25x base input, 1-hour writes 2x, hits 0.1x); checked 2026-12-08 against
  // copies of that page (docs.rs synaps pricing, citing platform.claude.com/docs/en/about-claude/pricing;
  // portkey.ai docs; claude-session-parser): Haiku 3's are $0.30 / $0.50 (its hit $0.03 is 0.12x).
  anthropic: Object.freeze({
    'claude-sonnet-4-6': cw(3, 0.3, 15, 3.75, 6), 'claude-opus-4-6': cw(5, 0.5, 25, 6.25, 10), 'claude-opus-4-5': cw(5, 0.5, 25, 6.25, 10),
    'claude-opus-4-1': cw(15, 1.5, 75, 18.75, 30), 'claude-opus-4-0': cw(15, 1.5, 75, 18.75, 30), 'claude-opus-4': cw(15, 1.5, 75, 18.75, 30),
    'claude-sonnet-4-5': cw(3, 0.3, 15, 3.75, 6), 'claude-sonnet-4-0': cw(3, 0.3, 15, 3.75, 6), 'claude-sonnet-4': cw(3, 0.3, 15, 3.75, 6),
    'claude-3-7-sonnet-latest': cw(3, 0.3, 15, 3.75, 6), 'claude-3-5-sonnet-latest': cw(3, 0.3, 15, 3.75, 6),
    'claude-haiku-4-5': cw(1, 0.1, 5, 1.25, 2), 'claude-3-5-haiku-latest': cw(0.8, 0.08, 4, 1, 1.6), 'claude-3-haiku-20240307': cw(0.25, 0.03, 1.25, 0.3, 0.5),
  }),
  // https://ai.google.dev/gemini-api/docs/pricing (paid tier; 2.5 Pro at prompts up to 200k tokens), 2025-08-01.
  // Checked 2026-12-02 against third-party copies only: 2.5 Pro $1.25 / $10, 2.5 Flash $0.30 / $2.50,
  // 2.5 Flash-Lite $0.10 / $0.40 agree; cached prices and the 2.0 and embedding entries not verified.
  // Implicit caching writes nothing billable per token (no write price; explicit `cachedContents`
  // storage is billed per hour, which the router does not use).
  gemini: Object.freeze({
    'gemini-2.5-pro': p(1.25, 0.31, 10), 'gemini-2.5-flash': p(0.3, 0.075, 2.5), 'gemini-2.5-flash-lite': p(0.1, 0.025, 0.4),
    'gemini-2.0-flash': p(0.1, 0.025, 0.4), 'gemini-2.0-flash-lite': p(0.075, undefined, 0.3),
    'gemini-embedding-001': p(0.15, undefined, 0), 'text-embedding-004': p(0, undefined, 0),
  }),
  // https://aws.amazon.com/bedrock/pricing/ (on-demand, us-east-1), 2025-08-01 (not re-verified 2026-12-02:
  // the Claude entries agree with Anthropic's own prices above, cache writes included: Bedrock bills
  // Claude's prompt cache as Anthropic does, 1.25x / 2x; the Claude models Bedrock does not cache have
  // no cache prices; Nova's writes are priced as input, not checked; the rest unchecked). Keys are model ids
  // without a cross-region prefix (`us.`, `eu.`, `apac.`, `global.`) or an ARN's path: see prices.ts.
  bedrock: Object.freeze({
    'anthropic.claude-opus-4-1-20250805-v1:0': cw(15, 1.5, 75, 18.75, 30), 'anthropic.claude-opus-4-20250514-v1:0': cw(15, 1.5, 75, 18.75, 30),
    'anthropic.claude-sonnet-4-5-20250929-v1:0': cw(3, 0.3, 15, 3.75, 6), 'anthropic.claude-sonnet-4-20250514-v1:0': cw(3, 0.3, 15, 3.75, 6),
    'anthropic.claude-3-7-sonnet-20250219-v1:0': cw(3, 0.3, 15, 3.75, 6), 'anthropic.claude-3-5-sonnet-20240620-v1:0': p(3, undefined, 15),
    'anthropic.claude-haiku-4-5-20251001-v1:0': cw(1, 0.1, 5, 1.25, 2), 'anthropic.claude-3-5-haiku-20241022-v1:0': cw(0.8, 0.08, 4, 1, 1.6),
    'anthropic.claude-3-haiku-20240307-v1:0': p(0.25, undefined, 1.25),
    'amazon.nova-pro-v1:0': p(0.8, 0.2, 3.2), 'amazon.nova-lite-v1:0': p(0.06, 0.015, 0.24), 'amazon.nova-micro-v1:0': p(0.035, 0.00875, 0.14),
    'meta.llama3-3-70b-instruct-v1:0': p(0.72, undefined, 0.72), 'mistral.mistral-large-2407-v1:0': p(2, undefined, 6),
    'amazon.titan-embed-text-v2:0': p(0.02, undefined, 0), 'cohere.embed-english-v3': p(0.1, undefined, 0),
  }),
  // https://groq.com/pricing, 2025-08-01 (not verified 2026-12-02: no copy of the page found)
  groq: Object.freeze({
    'llama-3.3-70b-versatile': p(0.59, undefined, 0.79), 'llama-3.1-8b-instant': p(0.05, undefined, 0.08),
    'meta-llama/llama-4-scout-17b-16e-instruct': p(0.11, undefined, 0.34), 'meta-llama/llama-4-maverick-17b-128e-instruct': p(0.2, undefined, 0.6),
    'openai/gpt-oss-120b': p(0.15, undefined, 0.75), 'openai/gpt-oss-20b': p(0.1, undefined, 0.5),
  }),
  // https://mistral.ai/pricing#api-pricing, 2025-08-01. Checked 2026-12-02 against third-party copies
  // only (developer.puter.com, 2026-06; aipromptshub.co): `mistral-large-latest` is Mistral Large 3 now,
  // $0.50 / $1.50 (both agree; was Large 2's $2 / $6); Small $0.10 / $0.30 and Codestral $0.30 / $0.90
  // agree. `mistral-medium-latest` may be Medium 3.5 at $1.50 / $7.50 (one source only: kept as is).
  mistral: Object.freeze({
    'mistral-large-latest': p(0.5, undefined, 1.5), 'mistral-medium-latest': p(0.4, undefined, 2), 'mistral-small-latest': p(0.1, undefined, 0.3),
    'codestral-latest': p(0.3, undefined, 0.9), 'ministral-8b-latest': p(0.1, undefined, 0.1), 'mistral-embed': p(0.1, undefined, 0),
  }),
  // https://api-docs.deepseek.com/quick_start/pricing (standard hours; cached = cache hit), 2025-08-01.
  // Verified 2026-12-02 first-hand against https://api-docs.deepseek.com/quick_start/pricing-details-usd
  // (deepseek-chat $0.07 hit / $0.27 miss / $1.10 out, deepseek-reasoner $0.14 / $0.55 / $2.19).
  deepseek: Object.freeze({ 'deepseek-chat': p(0.27, 0.07, 1.1), 'deepseek-reasoner': p(0.55, 0.14, 2.19) }),
  // https://openrouter.ai/models (OpenRouter passes the upstream's list price through), 2025-08-01
  // (not re-verified 2026-12-02; the upstream entries agree with the tables above)
  openrouter: Object.freeze({
    'openai/gpt-4o': p(2.5, 1.25, 10), 'openai/gpt-4o-mini': p(0.15, 0.075, 0.6), 'anthropic/claude-sonnet-4': p(3, 0.3, 15),
    'google/gemini-2.5-flash': p(0.3, 0.075, 2.5), 'meta-llama/llama-3.3-70b-instruct': p(0.13, undefined, 0.4),
  }),
  // https://www.together.ai/pricing, 2025-08-01 (not verified 2026-12-02)
  together: Object.freeze({
    'meta-llama/Llama-3.3-70B-Instruct-Turbo': p(0.88, undefined, 0.88), 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo': p(0.18, undefined, 0.18),
    'deepseek-ai/DeepSeek-V3': p(1.25, undefined, 1.25), 'Qwen/Qwen2.5-72B-Instruct-Turbo': p(1.2, undefined, 1.2),
  }),
  // https://fireworks.ai/pricing (serverless; above 16B parameters), 2025-08-01 (not verified 2026-12-02)
  fireworks: Object.freeze({
    'accounts/fireworks/models/llama-v3p3-70b-instruct': p(0.9, undefined, 0.9), 'accounts/fireworks/models/llama-v3p1-8b-instruct': p(0.2, undefined, 0.2),
    'accounts/fireworks/models/deepseek-v3': p(0.9, undefined, 0.9),
  }),
  // https://docs.x.ai/docs/models, 2025-08-01 (checked 2026-12-02 against a third-party copy only: grok-4
  // $3 / $0.75 cached / $15 agrees; grok-3 and grok-3-mini not verified)
  xai: Object.freeze({ 'grok-4': p(3, 0.75, 15), 'grok-3': p(3, 0.75, 15), 'grok-3-mini': p(0.3, 0.075, 0.5) }),
  // Local servers bill nothing per token: every model is free unless the config prices it.
  ollama: Object.freeze({ '*': p(0, undefined, 0) }),
  vllm: Object.freeze({ '*': p(0, undefined, 0) }),
});
