import type { ErrorKind } from '../../../src/errors.js';
import type { PresetName } from './catalog.js';
import { billingVerdict, type ErrorFacts, type ErrorVerdict, type PresetDialect } from './dialect.js';

// Each dialect follows its service's docs; the sources, with links, are in providers/shared/presets/<name>.md.

/** OpenRouter's typed `error_type` (errors-and-debugging, "Typed Error Codes") in the normalised vocabulary. */
const OPENROUTER_TYPES: Readonly<Record<string, ErrorKind>> = {
  rate_limit_exceeded: 'rate_limited',
  payment_required: 'quota_exhausted',
  provider_overloaded: 'server',
  provider_unavailable: 'server',
  server: 'server',
  timeout: 'server',
  unmapped: 'server',
  authentication: 'auth',
  permission_denied: 'auth',
  context_length_exceeded: 'context_length',
  content_policy_violation: 'content_filter',
  refusal: 'content_filter',
  not_found: 'not_found',
  image_not_found: 'not_found',
};

function openRouter(facts: ErrorFacts): ErrorVerdict | undefined {
  const type = typeof facts.metadata?.error_type === 'string' ? facts.metadata.error_type : undefined;
  // A moderation block is a 403 whose metadata names the flagged input: the content, not the key.
  if (facts.status === 403 && Array.isArray(facts.metadata?.reasons)) return { kind: 'content_filter', code: 'moderation' };
  if (!type) return undefined;
  return { kind: OPENROUTER_TYPES[type] ?? 'bad_request', code: type };
}

const DIALECTS: Readonly<Record<PresetName, PresetDialect>> = {
  groq: {
    // 498 is Groq's own status for "flex tier capacity exceeded": capacity, retried with backoff.
    classify: (f) => (f.status === 498 ? { kind: 'server', code: f.code ?? 'capacity_exceeded' } : undefined),
  },
  mistral: {
    // Token windows by size: per minute (the TPM) and per month (a quota, not a rate).
    headerAliases: {
      'x-ratelimit-limit-tokens': 'x-ratelimitbysize-limit-minute',
      'x-ratelimit-remaining-tokens': 'x-ratelimitbysize-remaining-minute',
      'x-ratelimit-reset-tokens': 'ratelimitbysize-reset',
    },
    classify: (f) => (f.status === 429 && f.headers?.get('x-ratelimitbysize-remaining-month')?.trim() === '0'
      ? { kind: 'quota_exhausted', code: 'monthly_token_limit' }
      : undefined),
  },
  deepseek: {
    // 402 "Insufficient Balance" comes with `code: "invalid_request_error"`: report what it means.
    classify: (f) => (/insufficient balance/i.test(f.message) ? { kind: 'quota_exhausted', code: 'insufficient_balance' } : undefined),
  },
  openrouter: { classify: openRouter },
  together: {
    headerAliases: { 'x-ratelimit-limit-tokens': 'x-tokenlimit-limit', 'x-ratelimit-remaining-tokens': 'x-tokenlimit-remaining' },
    // Together documents its context-length refusal under 403.
    classify: (f) => (f.status === 403 && /context length/i.test(f.message) ? { kind: 'context_length', code: f.code } : undefined),
  },
  fireworks: {
    headerAliases: {
      'anthropic-ratelimit-input-tokens-limit': 'x-ratelimit-limit-tokens-prompt',
      'anthropic-ratelimit-input-tokens-remaining': 'x-ratelimit-remaining-tokens-prompt',
      'anthropic-ratelimit-output-tokens-limit': 'x-ratelimit-limit-tokens-generated',
      'anthropic-ratelimit-output-tokens-remaining': 'x-ratelimit-remaining-tokens-generated',
    },
  },
  xai: {},
  ollama: {},
  vllm: {},
};

/** The dialect of a preset: its own reading first, then the billing messages every preset shares. */
export function presetDialect(name: PresetName): PresetDialect {
  const own = DIALECTS[name];
  return {
    ...own,
    classify: (facts) => own.classify?.(facts) ?? billingVerdict(facts),
  };
}
