import { unsupported } from './wire-errors.js';

/** Fields `POST /v1/responses` maps onto the router's request (or acts on itself: stream, store, continuation). */
export const MAPPED_FIELDS: ReadonlySet<string> = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'text', 'reasoning', 'max_output_tokens',
  'temperature', 'top_p', 'user', 'previous_response_id', 'store', 'stream', 'metadata', 'client_metadata',
]);

/** OpenAI-only fields with no cross-provider meaning, passed verbatim to `openai` providers (every other provider ignores them). */
export const PASSED_TO_OPENAI: ReadonlySet<string> = new Set(['service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier']);

/**
 * Fields accepted at the values that change nothing for a router, each with why; any other value
 * is refused (400 `unsupported_parameter`). The docs list them (docs/gateway-responses.md).
 */
export const ACCEPTED_AS_DEFAULT: Readonly<Record<string, { accepts: (v: unknown) => boolean; why: string }>> = {
  stream_options: {
    accepts: (v) => typeof v === 'object' && v !== null && Object.keys(v).every((k) => k === 'include_obfuscation'),
    why: 'include_obfuscation pads OpenAI\'s own deltas against side channels; the gateway adds no padding either way',
  },
  include: {
    accepts: (v) => Array.isArray(v) && v.every((x) => x === 'reasoning.encrypted_content'),
    why: 'reasoning.encrypted_content only: what a Responses target always returns (the gateway sends its reasoning items back verbatim, store: false or not)',
  },
  truncation: { accepts: (v) => v === 'disabled', why: 'disabled (the default) only: an input too long for a target fails, nothing is dropped from it' },
  background: { accepts: (v) => v === false, why: 'false only: every response is answered on its own request' },
};

/**
 * Refuses every top-level field the gateway neither maps, passes on, nor accepts at its value, naming
 * it; returns the OpenAI-only fields to pass on. A field sent as null counts as absent.
 */
export function checkFields(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const openai: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null || MAPPED_FIELDS.has(key)) continue;
    if (PASSED_TO_OPENAI.has(key)) openai[key] = value;
    else if (Object.hasOwn(ACCEPTED_AS_DEFAULT, key)) {
      const field = ACCEPTED_AS_DEFAULT[key]!;
      if (!field.accepts(value)) throw unsupported(key, `the gateway accepts ${field.why}`);
    } else if (key === 'conversation') throw unsupported(key, 'conversations are not kept; continue one with previous_response_id');
    else if (key === 'prompt') throw unsupported(key, 'stored prompt templates live in OpenAI\'s dashboard, which no other provider can read');
    else throw unsupported(key, 'no Switchyard equivalent');
  }
  return openai;
}
