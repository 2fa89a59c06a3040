import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { providerQuery, splitBaseURL } from '../shared/base-url.js';
import type { SdkFetch } from '../shared/http-fetch.js';
import type { ProviderCallOptions, ProviderSettings } from '../types.js';

/** Where and how a pass-through body goes: the URL and headers the SDK client would use for `/chat/completions`. */
export interface RawEndpoint {
  url: string;
  headers: Record<string, string>;
}

/** The endpoint of a non-Azure `openai` or `openai-compatible` provider, as `openAIClient` would build it (`path`: `chat/completions` or `embeddings`). */
export function rawEndpoint(provider: ProviderSettings, path = 'chat/completions'): RawEndpoint {
  const { baseURL, query } = splitBaseURL(provider.baseURL ?? 'https://api.openai.com/v1', providerQuery(provider));
  const search = Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
  return {
    url: `${baseURL.replace(/\/+$/, '')}/${path}${search}`,
    headers: {
      ...provider.headers,
      'content-type': 'application/json',
      accept: 'application/json',
      // As the SDK client: a placeholder for local servers that take any key.
      authorization: `Bearer ${provider.resolvedApiKey ?? 'not-needed'}`,
    },
  };
}

/**
 * Sends a pass-through body and returns the response once its headers are in, as the SDK would:
 * a non-2xx status is thrown as the SDK's own `APIError` for it (so the one error mapping reads it),
 * a cancelled request as `APIUserAbortError`, one past `timeoutMs` (until headers) as
 * `APIConnectionTimeoutError`. `onSend` runs right before the bytes go.
 */
export async function sendRaw(fetch: SdkFetch, endpoint: RawEndpoint, body: string, options: ProviderCallOptions, stream: boolean): Promise<Response> {
  const outer = options.signal;
  if (outer?.aborted) throw new APIUserAbortError();
  // The timeout bounds connect and headers, as the SDK's does; the caller's signal the whole body too.
  const timeout = options.timeoutMs === undefined ? undefined : new AbortController();
  const timer = timeout && setTimeout(() => timeout.abort(), Math.max(1, Math.ceil(options.timeoutMs!)));
  const signal = timeout ? (outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal) : outer;
  const init: RequestInit = {
    method: 'POST',
    headers: stream ? Object.assign({}, endpoint.headers, { accept: 'text/event-stream' }) : endpoint.headers,
    body,
    ...(signal ? { signal } : {}),
  };
  let response: Response;
  try {
    options.onSend?.(); // the bytes are ours and ready: they go now
    response = await fetch(endpoint.url, init);
  } catch (err) {
    if (outer?.aborted) throw new APIUserAbortError();
    if (timeout?.signal.aborted) throw new APIConnectionTimeoutError();
    throw err;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    throw APIError.generate(response.status, json as object | undefined, json === undefined ? text : undefined, response.headers);
  }
  return response;
}
