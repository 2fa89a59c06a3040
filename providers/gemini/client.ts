import { RouterError } from '../../src/errors.js';
import { providerQuery, splitBaseURL } from '../shared/base-url.js';
import { providerTransport, type SdkFetch } from '../shared/http-fetch.js';
import { abortedError, malformedResponse, transportError } from '../shared/transport-error.js';
import type { AdapterContext, ProviderCallOptions } from '../types.js';
import { mapGeminiError } from './map-error.js';
import { geminiRedactor } from './secrets.js';

/** The Gemini API's v1beta root: paths are `models/{model}:{method}` under it. */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

interface Where {
  provider: string;
  model: string;
}

/** What a call reads back: the parsed body and the headers of a 2xx answer. */
export interface GeminiJsonAnswer<T> {
  data: T;
  headers: Headers;
}

/** The HTTP side of the adapter: one POST per call, retries never, the key in a header. */
export interface GeminiClient {
  /** POSTs and reads the whole JSON answer under the call's signal and timeout; a non-2xx answer throws its `RouterError`. */
  json<T>(model: string, method: GeminiMethod, body: unknown, options: ProviderCallOptions): Promise<GeminiJsonAnswer<T>>;
  /**
   * POSTs `streamGenerateContent?alt=sse` and resolves with the open event stream, the signal it
   * runs under, and `release`, to call once the stream is done with (a non-2xx answer throws).
   */
  stream(model: string, body: unknown, options: ProviderCallOptions): Promise<{ res: Response; signal: AbortSignal; release(): void }>;
  /** Maps anything the transport threw to a `RouterError` (abort, timeout, reset). */
  failure(err: unknown, where: Where, signal?: AbortSignal): RouterError;
  readonly redact: (text: string) => string;
  close(): void;
}

/** `gemini-2.5-flash` and `models/gemini-2.5-flash` are `models/gemini-2.5-flash`; `tunedModels/x` stays as it is. */
export function modelPath(model: string): string {
  const path = /^(?:models|tunedModels)\//.test(model) ? model : `models/${model}`;
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Why our own signal fired: the call's timeout, not the caller. */
class TimedOut extends Error {
  override name = 'AbortError';
}

/**
 * The client on the router's transport (providers/shared/http-fetch.ts: node:http with a keep-alive
 * pool, or the global fetch). The key goes in `x-goog-api-key`, never in the URL, so no URL in an
 * error or a log can carry it; every message that leaves passes the redactor. `timeoutMs`, when
 * given, runs on the router's clock and covers a plain answer whole, body included (a stream's
 * connect and headers only).
 */
export function geminiClient(ctx: AdapterContext): GeminiClient {
  const { provider, clock } = ctx;
  const key = provider.resolvedApiKey;
  if (!key) throw new RouterError('config', `providers.${provider.name}: no API key for the Gemini API (set GEMINI_API_KEY, apiKeyEnv or apiKey)`, { provider: provider.name });
  const redact = geminiRedactor(provider);
  const transport = providerTransport(provider);
  const fetch: SdkFetch = transport?.fetch ?? globalThis.fetch;
  const { baseURL, query } = splitBaseURL((provider.baseURL ?? GEMINI_BASE_URL).replace(/\/+$/, ''), providerQuery(provider));
  const headers = Object.assign({}, provider.headers, { 'content-type': 'application/json', 'x-goog-api-key': key });

  function url(model: string, method: GeminiMethod): string {
    const params = new URLSearchParams(query);
    if (method === 'streamGenerateContent') params.set('alt', 'sse');
    const search = params.toString();
    return `${baseURL}/${modelPath(model)}:${method}${search ? `?${search}` : ''}`;
  }

  function failure(err: unknown, where: Where, signal?: AbortSignal): RouterError {
    if (err instanceof RouterError) return err;
    if (signal?.aborted && signal.reason instanceof TimedOut) return new RouterError('timeout', `${where.provider} request timed out`, Object.assign({}, where, { cause: err }));
    if (signal?.aborted || (err as Error)?.name === 'AbortError') return abortedError(where, err);
    return transportError(err, where, redact);
  }

  /**
   * One POST under the caller's signal and, when given, a timeout on the router's clock. Resolves
   * with a 2xx response and `release`, which ends both links (for a stream, once it is read to its
   * end); a non-2xx answer is read and thrown as its `RouterError`.
   */
  async function post(model: string, method: GeminiMethod, body: unknown, options: ProviderCallOptions, headersOnly = false): Promise<{ res: Response; signal: AbortSignal; release(): void }> {
    const where = { provider: provider.name, model };
    if (options.signal?.aborted) throw abortedError(where, options.signal.reason);
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal!.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs === undefined ? undefined : clock.setTimer(options.timeoutMs, () => controller.abort(new TimedOut('timed out')));
    const release = () => {
      timer?.clear();
      options.signal?.removeEventListener('abort', onAbort);
    };
    try {
      const payload = JSON.stringify(body);
      options.onSend?.();
      const res = await fetch(url(model, method), { method: 'POST', headers, body: payload, signal: controller.signal });
      if (!res.ok) {
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // A proxy's HTML page: the text is all there is.
        }
        throw mapGeminiError({ status: res.status, body: parsed, headers: res.headers }, Object.assign({}, where, { nowMs: clock.now(), redact }));
      }
      // A stream's timeout covers connect and headers only: from here on the router's idle timer rules.
      if (headersOnly) timer?.clear();
      return { res, signal: controller.signal, release };
    } catch (err) {
      release();
      throw failure(err, where, controller.signal);
    }
  }

  return {
    redact,
    failure,
    async json<T>(model: string, method: GeminiMethod, body: unknown, options: ProviderCallOptions) {
      const where = { provider: provider.name, model };
      const { res, signal, release } = await post(model, method, body, options);
      try {
        const text = await res.text();
        try {
          return { data: JSON.parse(text) as T, headers: res.headers };
        } catch {
          throw malformedResponse(where, 'the body is not JSON');
        }
      } catch (err) {
        throw failure(err, where, signal);
      } finally {
        release();
      }
    },
    async stream(model: string, body: unknown, options: ProviderCallOptions) {
      return post(model, 'streamGenerateContent', body, options, true);
    },
    close() {
      transport?.close();
    },
  };
}
