import type { SdkFetch } from '../http-fetch.js';

/**
 * OpenAI's error envelope for an error body some OpenAI-compatible servers write their own way:
 * vLLM's and Mistral's top-level `{"object": "error", "message", "type", "code"}`, or a bare JSON
 * string (xAI's credits 429). The openai SDK reads only `body.error`, so without this the message,
 * the context-length hint and the billing words all vanish into "429 status code (no body)".
 */
export function errorEnvelope(body: unknown): { error: Record<string, unknown> } | undefined {
  if (typeof body === 'string') return { error: { message: body } };
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'error' in body) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.message !== 'string' && typeof b.detail !== 'string') return undefined;
  return { error: { message: b.message ?? b.detail, type: b.type, param: b.param ?? null, code: b.code ?? null } };
}

/** A `fetch` that rewrites non-2xx JSON bodies into OpenAI's envelope (`errorEnvelope`), leaving every other answer as it came. */
export function withErrorEnvelope(fetch: SdkFetch): SdkFetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const wrapped = parsed === undefined ? undefined : errorEnvelope(parsed);
    const headers = new Headers(response.headers);
    // The body is rewritten, and was decoded already: its old length and encoding no longer hold.
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(wrapped ? JSON.stringify(wrapped) : text, { status: response.status, statusText: response.statusText, headers });
  };
}
